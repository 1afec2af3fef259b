#!/bin/sh
# A job's limits (os/cgroup.h), through the real binary, two ways:
# - recorded: a synthetic /sys tree (tests/topo_tree.sh 2s-smt) with the
#   cgroup files Slurm makes on v1 (tests/data/cgroup/v1-slurm: the limit on
#   job_7, task_0 unlimited) planned with --sysfs-root: the plan says the
#   job and sizes inside it; a garbled tree's files are one line each; a
#   tree without cgroup files says "not known". Runs everywhere.
# - live: cgroups this machine makes (root; cgroup v1's memory and cpu
#   controllers, else v2's): `run latency` at its default size (--random:
#   the random chase alone, whose two buffers, 4 KB and 2 MB pages, are
#   what the OOM killer once ended in a 768 MB job), `run bandwidth --quick`
#   and `run numa --quick` inside a memory cgroup of 768 MB, then 256 MB:
#   exit 0, the job and the cap said, nothing over the limit (the cgroup's
#   oom_kill count stays 0); a CPU quota of 0.5 CPU said in the header and
#   bandwidth's thread counts over it marked. Skipped whole, with the
#   reason, where no cgroup can be made. The cgroups are removed on every
#   path (the traps).
. "$TESTLIB"
GEN="$TESTDATA/../topo_tree.sh"
LIVE=30
plan $((14 + LIVE))

# ---- recorded --------------------------------------------------------------
sh "$GEN" 2s-smt "$TMP/2s" || exit 1
mkdir -p "$TMP/job" && cp -R "$TMP/2s/." "$TMP/job/" && cp -R "$TESTDATA/cgroup/v1-slurm/." "$TMP/job/"
mkdir -p "$TMP/bad" && cp -R "$TMP/2s/." "$TMP/bad/" && cp -R "$TESTDATA/cgroup/v2-garbled/." "$TMP/bad/"
status "a recorded job's tree: bandwidth's plan, exit 0" 0 "$MEMTOP" run bandwidth --sysfs-root "$TMP/job" \
	--json "$TMP/bw.json"
out=$(cat "$TMP/out")
lines "... the job's limits said" "$out" \
	'^# job: cgroup memory 300M, soft limit 256M, cpu quota 1.5 CPUs, cpuset 2-3, hugetlb 2M pages 1G$' 1
# job_7's 300M less its 50M in use, less memtop's own 48M, a quarter of it
lines "... the DRAM row capped inside the job, said" "$out" \
	'^# this job may use 300M \(its cgroup\): the DRAM row capped at 50M, its least size would be 256M$' 1
is "... its JSON: the last size" "$("$JSONQ" "$TMP/bw.json" 'sizes[3].bytes')" $((50 << 20))
is "... the job's limit and the budget in the machine's JSON" \
	"$("$JSONQ" "$TMP/bw.json" machine.job.memory machine.job.memory_from machine.budget | tr '\n' ' ')" \
	"314572800 memory.limit_in_bytes of /slurm_localhost/uid_0/job_7 $(((250 - 48) << 20)) "
lines "... the quota under the 16 threads said" "$out" \
	'^# the job.s cpu quota is 1.5 CPUs \(cpu.cfs_quota_us of /slurm_localhost/uid_0/job_7\), under the 16 threads of this run' 1
status "... numa's plan, exit 0" 0 "$MEMTOP" run numa --sysfs-root "$TMP/job"
like "... its size cut to a quarter of what the job leaves" "$(cat "$TMP/out")" \
	'DRAM +50M in all: .*cut from 256M to 50M: 1/4 of what a run may take \(this job may use 300M \(its cgroup\)\)'
status "... topo shows each limit with its file" 0 "$MEMTOP" topo --sysfs-root "$TMP/job"
like "... memory" "$(cat "$TMP/out")" 'memory +300M \(memory.limit_in_bytes of /slurm_localhost/uid_0/job_7\)'
status "a garbled job's tree: latency's plan, exit 0" 0 "$MEMTOP" run latency --sysfs-root "$TMP/bad"
lines "... one line for each file that did not parse, naming it" "$(cat "$TMP/out")" \
	"^# job: /sys/fs/cgroup/user.slice/(memory.max: 'lots'|job/cpu.max: 'half'|cpu.max: '0 100000'|job/cpuset.cpus.effective: '0-'|job/memory.current: 'x') .*: (read as no limit there|read as no quota there|read as every CPU|the usage read as none)$" 5
status "a tree without cgroup files: latency's plan, exit 0" 0 "$MEMTOP" run latency --sysfs-root "$TMP/2s"
lines "... the job not known, said" "$(cat "$TMP/out")" \
	'^# job: not known \(no proc/self/cgroup in the recorded tree\)$' 1

# ---- live ----------------------------------------------------------------------
skip_live() { i=0; while [ $i -lt $LIVE ]; do skip "live cgroups: case $((i + 1))" "$1"; i=$((i + 1)); done; exit 0; }
CGS=""        # the cgroups made, deepest last
ENABLED=""    # a v2 subtree_control we turned controllers on in
PROCS=""      # the cgroup.procs files a run enters
V=""          # 1 or 2
p=""
cg_cleanup() {
	[ -n "$p" ] && kill -KILL "$p" 2>/dev/null && wait "$p" 2>/dev/null
	for d in $(printf '%s\n' $CGS | sort -r); do rmdir "$d" 2>/dev/null; done
	[ -n "$ENABLED" ] && echo "-memory -cpu" >"$ENABLED" 2>/dev/null
	CGS=""
	ENABLED=""
}
trap 'cg_cleanup; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM HUP
# the cgroup this shell is in for controller $1 ("" for cgroup v2)
cg_self() { awk -F: -v c="$1" '(c == "" && $1 == "0" && $2 == "") ||
	(c != "" && ("," $2 ",") ~ ("," c ",")) { print $3; exit }' /proc/self/cgroup; }
cg_v1() { awk -v c="$1" '$3 == "cgroup" && ("," $4 ",") ~ ("," c ",") { print $2; exit }' /proc/self/mounts; }
# mk DIR: make a cgroup folder (remembered for the cleanup)
mk() { mkdir "$1" 2>/dev/null && CGS="$CGS $1"; }
why=""
[ "$(id -u)" = 0 ] || skip_live "not root: making cgroups and moving a process into one needs root"
[ -r /proc/self/cgroup ] || skip_live "no /proc/self/cgroup (not Linux, or no cgroups)"
mem1=$(cg_v1 memory)
cpu1=$(cg_v1 cpu)
v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
if [ -n "$mem1" ] && [ -n "$cpu1" ]; then
	V=1
	MEMP=$mem1$(cg_self memory)
	CPUP=$cpu1$(cg_self cpu)
	MEMP=${MEMP%/}
	CPUP=${CPUP%/}
	mk "$MEMP/memtop-limits-$$" || skip_live "cgroup v1 memory at $MEMP: cannot make a child"
	mk "$CPUP/memtop-limits-$$" || skip_live "cgroup v1 cpu at $CPUP: cannot make a child"
	MEM=$MEMP/memtop-limits-$$
	CPU=$CPUP/memtop-limits-$$
elif [ -n "$v2" ] && grep -qw memory "$v2/cgroup.controllers" 2>/dev/null &&
	grep -qw cpu "$v2/cgroup.controllers" 2>/dev/null; then
	V=2
	# a cgroup holding processes cannot give its children controllers (but
	# the root): this shell's own first, else the root's
	for parent in "$v2$(cg_self "")" "$v2"; do
		parent=${parent%/}
		if grep -qw memory "$parent/cgroup.subtree_control" && grep -qw cpu "$parent/cgroup.subtree_control"; then
			break
		elif echo "+memory +cpu" >"$parent/cgroup.subtree_control" 2>/dev/null; then
			ENABLED=$parent/cgroup.subtree_control
			break
		fi
		parent=""
	done
	[ -n "$parent" ] || skip_live "cgroup v2 at $v2: cannot enable the memory and cpu controllers for a child"
	mk "$parent/memtop-limits-$$" || skip_live "cgroup v2 at $parent: cannot make a child"
	MEM=$parent/memtop-limits-$$
	CPU=$MEM
else
	skip_live "no writable cgroup: neither v1's memory and cpu hierarchies nor v2 with both controllers"
fi
echo "# cgroup v$V: memory $MEM, cpu $CPU"
# limit BYTES: the memory cgroup's limit; quota US ("" none)
limit() {
	if [ $V = 1 ]; then echo "$1" >"$MEM/memory.limit_in_bytes"; else echo "$1" >"$MEM/memory.max"; fi
}
quota() {
	if [ $V = 1 ]; then echo "${1:--1}" >"$CPU/cpu.cfs_quota_us"; else echo "${1:-max} 100000" >"$CPU/cpu.max"; fi
}
ooms() {
	if [ $V = 1 ]; then awk '$1 == "oom_kill" { print $2 }' "$MEM/memory.oom_control"
	else awk '$1 == "oom_kill" { print $2 }' "$MEM/memory.events"; fi
}
# inside DESC CMD...: run CMD in the cgroups (its output in $TMP/out), exit 0 wanted
inside() {
	d=$1
	shift
	CG_PROCS="$MEM/cgroup.procs $CPU/cgroup.procs" sh -c \
		'for f in $CG_PROCS; do echo $$ >"$f" || exit 125; done; exec "$@"' sh "$@" \
		>"$TMP/out" 2>"$TMP/err" &
	p=$!
	wait "$p"
	s=$?
	p=""
	if [ "$s" = 0 ]; then pass "$d"; else fail "$d" "exit $s: $*" "stderr: $(head -c 300 "$TMP/err")"; fi
}
quota ""
for mb in 768 256; do
	limit $((mb << 20)) || skip_live "$MEM: cannot set a memory limit"
	k=$(ooms)
	inside "${mb}M: run latency (its default size), exit 0" "$MEMTOP" run latency --random \
		--json "$TMP/lat.json"
	out=$(cat "$TMP/out")
	lines "... the job said" "$out" "^# job: cgroup memory ${mb}M\$" 1
	like "... the second chase dropped first, the sizes capped, said" "$out" \
		"^# this job may use ${mb}M \(its cgroup\): the random chase on huge pages left out \(two buffers of [0-9]+[KMG] do not fit in half of the [0-9]+M a run may take\)(; sizes capped at [0-9]+M, .* would be [0-9]+[MG])?\$"
	last=$("$JSONQ" "$TMP/lat.json" 'sizes[*]' | tail -n 1)
	is "... its largest size within half the limit" "$([ "$last" -le $((mb << 19)) ] && echo yes)" yes
	inside "${mb}M: run bandwidth --quick, exit 0" "$MEMTOP" run bandwidth --quick
	out=$(cat "$TMP/out")
	lines "... the job said" "$out" "^# job: cgroup memory ${mb}M\$" 1
	lines "... the DRAM row capped, said" "$out" \
		"^# this job may use ${mb}M \(its cgroup\): the DRAM row capped at [0-9]+M, .* would be [0-9]+[MG]\$" 1
	inside "${mb}M: run numa --quick, exit 0" "$MEMTOP" run numa --quick --json "$TMP/numa.json"
	lines "... the job said" "$(cat "$TMP/out")" "^# job: cgroup memory ${mb}M\$" 1
	is "... its size within a quarter of the limit" \
		"$([ "$("$JSONQ" "$TMP/numa.json" size)" -le $((mb << 18)) ] && echo yes)" yes
	inside "${mb}M: numa's full plan, exit 0" "$MEMTOP" run numa --plan
	like "... its size cut to a quarter of what the job leaves, said" "$(cat "$TMP/out")" \
		"1/4 of what a run may take \(this job may use ${mb}M \(its cgroup\)\)"
	is "... the OOM killer never acted" "$(ooms)" "$k"
done
limit $((768 << 20))
quota 50000 || skip_live "$CPU: cannot set a CPU quota"
inside "a quota of 0.5 CPU: run bandwidth --quick, exit 0" "$MEMTOP" run bandwidth --quick \
	--json "$TMP/bw.json"
out=$(cat "$TMP/out")
lines "... the job said" "$out" '^# job: cgroup memory 768M, cpu quota 0.5 CPU$' 1
lines "... the quota under the threads, a warning in the header" "$out" \
	'^# warning: the job.s cpu quota is 0.5 CPU \((cpu.cfs_quota_us|cpu.max) of .*\), under the (one thread|[0-9]+ threads) of this run' 1
is "... every thread count over it marked in the JSON" \
	"$("$JSONQ" "$TMP/bw.json" 'threads[*].over_quota' | sort -u)" true
