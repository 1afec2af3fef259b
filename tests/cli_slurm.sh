#!/bin/sh
# contrib/slurm/memtop.sbatch against a one-node Slurm this test starts
# from Debian's slurm-wlm (slurmctld and slurmd on this machine, a private
# folder for every state, spool, pid and log file, ports and a node name of
# its own, so two runs at once do not meet): its task/cgroup plugin puts
# the job's --mem=768M on job_N (cgroup v1), and memtop must read it there,
# not on task_0 (which reads unlimited), and size inside it. The job runs
# latency and bandwidth --quick on its one node, writes one result a node
# and experiment (NODE-EXPERIMENT.json) and compares them (compare
# --fleet) into its output. Slurm is stopped, any job cancelled and its
# cgroup folders removed on every path (the traps). Skipped with the
# reason where Slurm cannot start here: not root, no slurm-wlm, no cgroup
# v1 memory, cpuset and freezer hierarchies (Slurm 22.05's cgroup/v2 needs
# systemd to make its scopes), or the daemons do not come up.
. "$TESTLIB"
SCRIPT=$(cd "$TESTDATA/../.." && pwd)/contrib/slurm/memtop.sbatch
N=12
plan $N
skip_all() { i=0; while [ $i -lt $N ]; do skip "slurm: case $((i + 1))" "$1"; i=$((i + 1)); done; exit 0; }
[ -f "$SCRIPT" ] || { fail "contrib/slurm/memtop.sbatch is there" "$SCRIPT"; exit 1; }
[ "$(id -u)" = 0 ] || skip_all "not root: slurmd runs jobs as root here and makes cgroups"
for c in slurmctld slurmd sbatch squeue sinfo scontrol scancel srun; do
	command -v $c >/dev/null 2>&1 || skip_all "no $c: Debian's slurm-wlm (slurmctld, slurmd, slurm-client) is not installed"
done
for c in memory cpuset freezer; do
	awk -v c="$c" '$3 == "cgroup" && ("," $4 ",") ~ ("," c ",") { f = 1 } END { exit !f }' /proc/self/mounts ||
		skip_all "no cgroup v1 $c hierarchy: Slurm 22.05's cgroup/v1 needs it (its cgroup/v2 needs systemd)"
done

NODE=mt$$
pids=""
D=$(mktemp -d /tmp/memtop-slurm.XXXXXX) # short: slurmd's sockets live in its spool
export SLURM_CONF="$D/slurm.conf"
t0=$(date +%s)
# stop: the job cancelled, the daemons asked to stop (then killed), what
# ran in Slurm's cgroups killed and the folders removed, deepest first
slurm_stop() {
	[ -n "$D" ] || return 0
	scancel --full "${JOB:-0}" >/dev/null 2>&1
	scontrol shutdown >/dev/null 2>&1
	# the pids taken when they started (a daemon drops its pid file when it
	# begins to stop, not when it has)
	for pid in ${pids:-$(cat "$D/slurmctld.pid" "$D/slurmd.pid" 2>/dev/null)}; do
		n=150
		while kill -0 "$pid" 2>/dev/null && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
		kill -KILL "$pid" 2>/dev/null
	done
	for cg in /sys/fs/cgroup/*/slurm_$NODE; do
		[ -d "$cg" ] || continue
		for t in $(find "$cg" -name cgroup.procs -exec cat {} + 2>/dev/null); do kill -KILL "$t" 2>/dev/null; done
		find "$cg" -depth -type d -exec rmdir {} + 2>/dev/null
	done
	rm -rf "$D"
	D=""
}
trap 'slurm_stop; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM HUP

mkdir -p "$D/state" "$D/spool" "$D/out" "$D/work"
port=$((20000 + $$ % 20000))
hw=$(slurmd -C 2>/dev/null | sed -n 's/^NodeName=[^ ]* \(CPUs=.*ThreadsPerCore=[0-9]*\).*/\1/p')
avail=$(awk '$1 == "MemAvailable:" { print int($2 / 1024) }' /proc/meminfo)
mem=$((avail - 1024))
[ -n "$hw" ] && [ "$mem" -ge 2048 ] || skip_all "slurmd -C says no CPUs ($hw), or under 3 GB available ($avail MB)"
cat >"$SLURM_CONF" <<EOF
ClusterName=memtop$$
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/none
CredType=cred/none
MpiDefault=none
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
ProctrackType=proctrack/cgroup
TaskPlugin=task/cgroup
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=256
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$NODE NodeAddr=127.0.0.1 $hw RealMemory=$mem State=UNKNOWN
PartitionName=memtop Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
cat >"$D/cgroup.conf" <<EOF
CgroupPlugin=cgroup/v1
CgroupMountpoint=/sys/fs/cgroup
ConstrainCores=yes
ConstrainRAMSpace=yes
EOF
echo "# slurm: $SLURM_CONF, node $NODE, ports $port-$((port + 1))"
slurmctld -i >"$D/slurmctld.out" 2>&1 && slurmd -N "$NODE" >"$D/slurmd.out" 2>&1 ||
	skip_all "slurmctld or slurmd did not start: $(tail -n 2 "$D"/*.out "$D"/*.log 2>/dev/null | tr '\n' ' ' | head -c 300)"
n=200
while [ "$(sinfo -h -n "$NODE" -o %T 2>/dev/null)" != idle ] && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
pids="$(cat "$D/slurmctld.pid" "$D/slurmd.pid" 2>/dev/null)"
state=$(sinfo -h -n "$NODE" -o %T 2>/dev/null)
[ "$state" = idle ] || skip_all "the node did not come up idle (sinfo: '$state'): $(tail -n 3 "$D/slurmd.log" 2>/dev/null | tr '\n' ' ' | head -c 300)"
t1=$(date +%s)
pass "a one-node Slurm starts, its node idle (in $((t1 - t0)) s)"

JOB=$(cd "$D/work" && MEMTOP=$MEMTOP MEMTOP_OUT=$D/out MEMTOP_OPTS=--quick \
	sbatch --parsable --mem=768M --nodes=1 "$SCRIPT" latency bandwidth 2>"$D/sbatch.err")
like "sbatch takes the script" "$JOB" '^[0-9]+$'
n=1800
while [ -n "$(squeue -h -j "$JOB" 2>/dev/null)" ] && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
t2=$(date +%s)
is "... the job ends (in $((t2 - t1)) s)" "$(squeue -h -j "$JOB" 2>/dev/null)" ""
out=$D/work/memtop-$JOB.out
is "... one result a node and experiment, named for the node" \
	"$(cd "$D/out" && ls ./*.json 2>/dev/null | tr '\n' ' ')" "./$NODE-bandwidth.json ./$NODE-latency.json "
is "... each a result of its experiment" \
	"$("$JSONQ" "$D/out/$NODE-latency.json" experiment 2>&1) $("$JSONQ" "$D/out/$NODE-bandwidth.json" experiment 2>&1)" \
	"latency bandwidth"
# the limit is job_N's (and step_0's): task_0's own reads unlimited
is "... the job's memory limit read from job_$JOB, not from its task's cgroup" \
	"$("$JSONQ" "$D/out/$NODE-bandwidth.json" job.memory job.memory_from 2>&1 | tr '\n' ' ')" \
	"805306368 memory.limit_in_bytes of /slurm_$NODE/uid_0/job_$JOB "
like "... its cgroup the task's" "$("$JSONQ" "$D/out/$NODE-bandwidth.json" job.cgroup 2>&1)" \
	"^/slurm_$NODE/uid_0/job_$JOB/step_0/task_0\$"
lines "... the header says the job" "$(cat "$D/out/$NODE-bandwidth.txt" 2>/dev/null)" \
	'^# job: cgroup memory 768M(, cpuset [0-9,-]+)?$' 1
lines "... bandwidth's DRAM row capped inside it, said" "$(cat "$D/out/$NODE-bandwidth.txt" 2>/dev/null)" \
	'^# this job may use 768M \(its cgroup\): the DRAM row capped at [0-9]+M, .* would be [0-9]+[MG]$' 1
like "... compare --fleet over them in the job's output" "$(cat "$out" 2>/dev/null)" "^$NODE +"
is "... and in fleet.txt" "$(cat "$D/out/fleet.txt" 2>/dev/null)" \
	"$(sed -n '/^memtop.sbatch: job/!p' "$out" 2>/dev/null)"
stopping=$pids
slurm_stop
t3=$(date +%s)
left=""
for pid in $stopping; do kill -0 "$pid" 2>/dev/null && left="$left $pid"; done
is "Slurm stopped and its cgroups removed (in $((t3 - t2)) s)" \
	"$(ls -d /sys/fs/cgroup/*/slurm_$NODE 2>/dev/null)$left" ""
echo "# slurm: started in $((t1 - t0)) s, the job took $((t2 - t1)) s, stopped in $((t3 - t2)) s"
