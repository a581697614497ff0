#!/usr/bin/env bash
# Call 3. Where the K remainder's time goes: 1024x1024x1000 took 9% longer than 1024^3
# on the 64 x 128 x 32 tile's edge kernel, tail-split, with the clamped copies of call 2
# (0.0616 against 0.0566 ms) though only one stage of eight in a block is guarded. ncu's
# stall reasons per issued instruction (no_instruction: the instruction cache) of one
# launch of each form, at both shapes.
set -uo pipefail
cd "$(dirname "$0")/../../.."
source tools/device_env.sh
cat .device/COMMIT
tar xzf .device/eb.tgz -C .device && tar xzf .device/ebv.tgz -C .device
TILE=$(cut -d' ' -f1 .device/eb/tiles.txt)
start=$(date +%s)
EB_VARIANT_DIR=.device/ebv EB_ROUNDS=1 EB_LAUNCHES=1 EB_SHAPES=1024x1024x1024,1024x1024x1000 timeout 300 \
  ncu --clock-control none --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed.sum,gpu__time_duration.sum' \
  .device/edge_bodies run .device/eb $TILE > "$OUT/ncu_stalls.txt" 2>&1
echo "ncu exit $? $(( $(date +%s) - start )) s"
python3 - "$OUT/ncu_stalls.txt" <<'PY' | tee "$OUT/stalls_table.txt"
import re, sys
kernel = None
rows = []
for line in open(sys.argv[1]):
    m = re.match(r'\s+(?:void )?(\S+?)<.*?\((\d+), (\d+), (\d+)\)x\((\d+)', line)
    if m and 'Context' in line:
        kernel = dict(name=m.group(1).split('::')[-1], grid=m.group(2), m={})
        rows.append(kernel)
        continue
    m = re.match(r'\s+(\S+)\s+\S*\s+([\d.,]+)$', line)
    if m and kernel is not None:
        kernel['m'][m.group(1)] = float(m.group(2).replace(',', ''))
keys = ['no_instruction', 'long_scoreboard', 'short_scoreboard', 'barrier', 'wait', 'math_pipe_throttle', 'mio_throttle', 'lg_throttle', 'not_selected', 'selected', 'dispatch_stall', 'branch_resolving']
print('kernel grid time inst ' + ' '.join(keys))
for r in rows:
    mm = r['m']
    vals = [mm.get(f'smsp__average_warps_issue_stalled_{k}_per_issue_active.ratio', float('nan')) for k in keys]
    print(r['name'], r['grid'], mm.get('gpu__time_duration.sum', 0), int(mm.get('smsp__inst_executed.sum', 0)), ' '.join(f'{v:.3f}' for v in vals))
PY
