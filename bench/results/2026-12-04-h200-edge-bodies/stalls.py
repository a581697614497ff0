#!/usr/bin/env python3
"""ncu stall reasons per issued instruction, a row per profiled kernel launch: stalls.py ncu_stalls.txt"""
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
