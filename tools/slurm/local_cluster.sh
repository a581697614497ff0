#!/bin/bash
# A single-node Slurm cluster in a folder, for CI and for trying the job array on one
# machine: munged, slurmctld and slurmd as root, configured for localhost only.
#   tools/slurm/local_cluster.sh start DIR   # then: export SLURM_CONF=DIR/slurm.conf
#   tools/slurm/local_cluster.sh stop DIR
# Needs Debian's slurmctld, slurmd, slurm-client and munge. Exit status 77: not available here.
set -euo pipefail
action=${1:?start or stop}
dir=$(realpath -m "${2:?folder}")

stop() {
  for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munged.pid"; do
    [ -s "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  sleep 1
}

if [ "$action" = stop ]; then
  stop
  exit 0
fi

for tool in munged slurmctld slurmd sbatch sinfo; do
  if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$tool" ]; then
    echo "Slurm is not installed here ($tool missing; apt-get install slurmctld slurmd slurm-client munge)" >&2
    exit 77
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "a local Slurm cluster needs root (slurmd runs jobs as their users)" >&2
  exit 77
fi
export PATH=$PATH:/usr/sbin
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 700 "$dir/munge"
head -c 1024 /dev/urandom >"$dir/munge/munge.key"
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed"

host=$(hostname -s)
# Ports away from the defaults, derived from the folder, so that two clusters can coexist.
port=$((20000 + $(printf '%s' "$dir" | cksum | cut -d' ' -f1) % 20000))
cat >"$dir/slurm.conf" <<CONF
ClusterName=sgemmtune
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1 State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
  state=$(sinfo -h -o %T 2>/dev/null | head -1 || true)
  case $state in idle*|mixed*|allocated*) echo "local Slurm cluster up: SLURM_CONF=$SLURM_CONF"; exit 0 ;; esac
  sleep 1
done
echo "the local Slurm cluster did not come up within 60 s; logs in $dir" >&2
tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
stop
exit 1
