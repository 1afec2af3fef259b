#!/bin/sh
# CPUs taken away mid-run: every threaded experiment (bandwidth with its
# loaded latency, falseshare, cores, numa; latency for the job thread
# alone) is started, and once its job thread exists every thread of it is
# moved to the first allowed CPU (taskset -a -p, as an administrator's
# taskset or a shrinking cpuset does). Each run must end (within LIMIT
# seconds: never hang), exit 0 and say what happened ("CPUs taken away
# during the run: allowed A at its start, B at its end", in the text and
# in its JSON), or exit 2 with one line. A run whose job thread had
# already ended when taskset moved it (taskset changed one thread only)
# cannot have seen the cut: that case is skipped with its reason. Skipped
# whole without taskset or with fewer than 2 allowed CPUs.
. "$TESTLIB"
LIMIT=${LIMIT:-120}
# (cores --quick on 2 CPUs is one pair: fifty times its tries keep it
# running when taskset comes)
RUNS="bandwidth:--loaded falseshare cores:--tries=100 numa latency"
plan $((4 * $(echo $RUNS | wc -w)))

skip_all() {
	for r in $RUNS; do
		for c in "ends" "exit 0" "says so" "JSON"; do skip "${r%%:*}: $c" "$1"; done
	done
	exit 0
}
command -v taskset >/dev/null 2>&1 || skip_all "no taskset (util-linux)"
cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$$/status 2>/dev/null) # "0-1", as memtop says it
first=$(printf '%s\n' "$cpus" | sed 's/[-,].*//')
case $cpus in
*[-,]*) ;;
"") skip_all "no /proc/self/status Cpus_allowed_list (not Linux)" ;;
*) skip_all "one CPU allowed ($cpus): nothing to take away" ;;
esac

for r in $RUNS; do
	x=${r%%:*}
	extra=$(printf '%s' "$r" | sed -n 's/^[^:]*://p')
	"$MEMTOP" run "$x" --quick $extra --json "$TMP/$x.json" >"$TMP/$x.out" 2>"$TMP/$x.err" &
	p=$!
	n=1000 # the job's thread (the process's second), at most 10 s
	while [ "$(ls "/proc/$p/task" 2>/dev/null | wc -l)" -lt 2 ] && [ "$n" -gt 0 ] &&
		kill -0 "$p" 2>/dev/null; do
		sleep 0.01
		n=$((n - 1))
	done
	moved=$(taskset -a -p -c "$first" "$p" 2>/dev/null | grep -c 'new affinity')
	n=$((LIMIT * 10))
	while kill -0 "$p" 2>/dev/null && [ "$n" -gt 0 ]; do
		sleep 0.1
		n=$((n - 1))
	done
	if kill -0 "$p" 2>/dev/null; then
		kill -KILL "$p"
		wait "$p"
		fail "$x: ends" "still running $LIMIT s after its CPUs were cut to $first"
		skip "$x: exit 0" "hung"
		skip "$x: says so" "hung"
		skip "$x: JSON" "hung"
		continue
	fi
	wait "$p"
	rc=$?
	pass "$x: ends"
	if [ "$rc" = 2 ]; then # refused with one clear line
		is "$x: exit 0 (or 2 with one line)" "$(wc -l <"$TMP/$x.err")" 1
		skip "$x: says so" "exit 2: $(head -n 1 "$TMP/$x.err")"
		skip "$x: JSON" "exit 2"
		continue
	fi
	is "$x: exit 0" "$rc" 0
	if [ "$moved" -lt 2 ]; then
		skip "$x: says so" "its job had ended when taskset ran ($moved thread moved)"
		skip "$x: JSON" "its job had ended when taskset ran"
		continue
	fi
	like "$x: says so ($moved threads moved)" "$(cat "$TMP/$x.out" "$TMP/$x.err")" \
		"CPUs taken away during the run: allowed $cpus at its start, $first at its end"
	is "$x: JSON" "$("$JSONQ" "$TMP/$x.json" diagnostics.cpus_allowed_start) $("$JSONQ" \
		"$TMP/$x.json" diagnostics.cpus_allowed_end)" "$cpus $first"
done
