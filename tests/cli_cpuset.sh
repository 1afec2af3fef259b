#!/bin/sh
# CPUs taken away mid-run, two ways: every threaded experiment (bandwidth
# with its loaded latency, falseshare, cores, numa; latency for the job
# thread alone) is started, and once its job thread exists
# - taskset: every thread of it is moved to the first allowed CPU
#   (taskset -a -p, as an administrator's taskset does);
# - cgroup: the process is moved into a cpuset cgroup of its own that
#   allows the same CPUs, whose cpuset.cpus is then cut to the first (as a
#   container's or a batch system's shrinking cpuset does; cgroup v2's
#   cpuset where it is enabled, else v1's; root only).
# The process is stopped while it is cut, so the cut surely comes before
# the run's end. Each run must end (within LIMIT seconds: never hang), exit
# 0 and say what happened ("CPUs taken away during the run: allowed A at
# its start, B at its end", in the text and in its JSON), or exit 2 with
# one line. A run whose job thread had already ended when the cut came
# (fewer than 2 threads moved) cannot have seen it: that case is skipped
# with its reason.
# Each way is skipped whole, with the reason, where it cannot be done: no
# taskset; not root, or no cpuset cgroup that can be written; fewer than 2
# allowed CPUs.
. "$TESTLIB"
LIMIT=${LIMIT:-120}
RUNS="bandwidth:--loaded falseshare cores numa latency"
plan $((8 * $(echo $RUNS | wc -w)))

skip_way() {
	for r in $RUNS; do
		for c in "ends" "exit 0" "says so" "JSON"; do skip "$1: ${r%%:*}: $c" "$2"; done
	done
}
cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$$/status 2>/dev/null) # "0-1", as memtop says it
first=$(printf '%s\n' "$cpus" | sed 's/[-,].*//')
case $cpus in
*[-,]*) ;;
"") skip_way taskset "no /proc/self/status Cpus_allowed_list (not Linux)"
	skip_way cgroup "no /proc/self/status Cpus_allowed_list (not Linux)"; exit 0 ;;
*) skip_way taskset "one CPU allowed ($cpus): nothing to take away"
	skip_way cgroup "one CPU allowed ($cpus): nothing to take away"; exit 0 ;;
esac

# ---- the cgroup: CG, made by cg_setup (or cg_why says why not) ------------------
CG=""; CG_TASKS=""; CG_ENABLED=""; cg_why=""
cg_cleanup() {
	[ -n "$CG" ] && rmdir "$CG" 2>/dev/null
	[ -n "$CG_ENABLED" ] && echo -cpuset >"$CG_ENABLED" 2>/dev/null
	CG=""
}
trap 'cg_cleanup; rm -rf "$TMP"' EXIT
# killed: the run under way ends first, so its cgroup can go
trap '[ -n "${p:-}" ] && kill -KILL "$p" 2>/dev/null && wait "$p"; exit 1' INT TERM HUP
# the cgroup this shell is in for controller $1 ("" for cgroup v2), as a path
cg_self() { awk -F: -v c="$1" '(c == "" && $1 == "0" && $2 == "") ||
	(c != "" && ("," $2 ",") ~ ("," c ",")) { print $3; exit }' /proc/self/cgroup; }
cg_setup() {
	[ "$(id -u)" = 0 ] || { cg_why="not root: moving a process between cgroups needs root"; return 1; }
	v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
	v1=$(awk '$3 == "cgroup" && ("," $4 ",") ~ /,cpuset,/ { print $2; exit }' /proc/self/mounts)
	if [ -n "$v2" ] && grep -qw cpuset "$v2/cgroup.controllers" 2>/dev/null; then
		parent=$v2$(cg_self "")
		parent=${parent%/}
		if ! grep -qw cpuset "$parent/cgroup.subtree_control" 2>/dev/null; then
			echo +cpuset >"$parent/cgroup.subtree_control" 2>/dev/null ||
				{ cg_why="cgroup v2 at $parent: cannot enable its cpuset controller"; return 1; }
			CG_ENABLED=$parent/cgroup.subtree_control
		fi
		CG=$parent/memtop-cpuset-$$
		CG_TASKS=$CG/cgroup.threads
		mkdir "$CG" 2>/dev/null || { CG=""; cg_why="cgroup v2 at $parent: cannot make a child"; return 1; }
	elif [ -n "$v1" ]; then
		parent=$v1$(cg_self cpuset)
		parent=${parent%/}
		CG=$parent/memtop-cpuset-$$
		CG_TASKS=$CG/tasks
		mkdir "$CG" 2>/dev/null || { CG=""; cg_why="cgroup v1 cpuset at $parent: cannot make a child"; return 1; }
		cat "$parent/cpuset.mems" >"$CG/cpuset.mems" 2>/dev/null ||
			{ cg_why="cgroup v1 cpuset at $CG: cannot set cpuset.mems"; return 1; }
	else
		cg_why="no cpuset cgroup (neither v2 with a cpuset controller nor v1's cpuset is mounted)"
		return 1
	fi
	echo "$cpus" >"$CG/cpuset.cpus" 2>/dev/null || { cg_why="$CG: cannot set cpuset.cpus to $cpus"; return 1; }
	echo "# cut by $CG/cpuset.cpus"
}

# ---- the cuts: each prints how many threads of $1 it moved ------------------------
# The process is stopped (SIGSTOP, waited until every thread of it is) while
# it is cut: a thread besides the first means its job has not been joined,
# so the run's end (and the allowed CPUs it reads then) comes after the cut.
# Without the stop, a short run's end could fall between the count and the
# cut (falseshare --quick did: "allowed 0-1 at its end", 4 threads counted).
stopped() { for t in /proc/"$1"/task/*/stat; do
	[ -r "$t" ] || continue
	case $(sed 's/.*) \(.\).*/\1/' "$t" 2>/dev/null) in T | t | Z | X | "") ;; *) return 1 ;; esac
done; }
cut_taskset() { taskset -a -p -c "$first" "$1" 2>/dev/null | grep -c 'new affinity'; }
cut_cgroup() {
	echo "$cpus" >"$CG/cpuset.cpus" 2>/dev/null # the last run's cut undone (the cgroup is empty)
	echo "$1" >"$CG/cgroup.procs" 2>/dev/null || { echo 0; return; }
	n=$(wc -l <"$CG_TASKS")
	echo "$first" >"$CG/cpuset.cpus" 2>/dev/null || n=0
	echo "$n"
}
# cut_run WAY PID: stops PID, cuts it if its job still runs, resumes it
cut_run() {
	kill -STOP "$2" 2>/dev/null || { echo 0; return; }
	n=$((LIMIT * 100)) # the hang guard
	while ! stopped "$2" && [ "$n" -gt 0 ]; do
		sleep 0.01
		n=$((n - 1))
	done
	if [ "$(ls "/proc/$2/task" 2>/dev/null | wc -l)" -ge 2 ]; then
		cut_"$1" "$2"
	else
		echo 0
	fi
	kill -CONT "$2" 2>/dev/null
}

cut_runs() {
	way=$1
	for r in $RUNS; do
		x=${r%%:*}
		extra=$(printf '%s' "$r" | sed -n 's/^[^:]*://p')
		"$MEMTOP" run "$x" --quick $extra --json "$TMP/$x.json" >"$TMP/$x.out" 2>"$TMP/$x.err" &
		p=$!
		n=$((LIMIT * 100)) # the job's thread (the process's second); the hang guard
		while [ "$(ls "/proc/$p/task" 2>/dev/null | wc -l)" -lt 2 ] && [ "$n" -gt 0 ] &&
			kill -0 "$p" 2>/dev/null; do
			sleep 0.01
			n=$((n - 1))
		done
		moved=$(cut_run "$way" "$p")
		n=$((LIMIT * 10))
		while kill -0 "$p" 2>/dev/null && [ "$n" -gt 0 ]; do
			sleep 0.1
			n=$((n - 1))
		done
		if kill -0 "$p" 2>/dev/null; then
			kill -KILL "$p"
			wait "$p"
			p=""
			fail "$way: $x: ends" "still running $LIMIT s after its CPUs were cut to $first"
			skip "$way: $x: exit 0" "hung"
			skip "$way: $x: says so" "hung"
			skip "$way: $x: JSON" "hung"
			continue
		fi
		wait "$p"
		rc=$?
		p=""
		pass "$way: $x: ends"
		if [ "$rc" = 2 ]; then # refused with one clear line
			is "$way: $x: exit 0 (or 2 with one line)" "$(wc -l <"$TMP/$x.err")" 1
			skip "$way: $x: says so" "exit 2: $(head -n 1 "$TMP/$x.err")"
			skip "$way: $x: JSON" "exit 2"
			continue
		fi
		is "$way: $x: exit 0" "$rc" 0
		if [ "$moved" -lt 2 ]; then
			skip "$way: $x: says so" "its job had ended when the cut came ($moved thread moved)"
			skip "$way: $x: JSON" "its job had ended when the cut came"
			continue
		fi
		like "$way: $x: says so ($moved threads moved)" "$(cat "$TMP/$x.out" "$TMP/$x.err")" \
			"CPUs taken away during the run: allowed $cpus at its start, $first at its end"
		is "$way: $x: JSON" "$("$JSONQ" "$TMP/$x.json" diagnostics.cpus_allowed_start) $("$JSONQ" \
			"$TMP/$x.json" diagnostics.cpus_allowed_end)" "$cpus $first"
	done
}

if command -v taskset >/dev/null 2>&1; then
	cut_runs taskset
else
	skip_way taskset "no taskset (util-linux)"
fi
if cg_setup; then
	cut_runs cgroup
else
	skip_way cgroup "$cg_why"
fi
