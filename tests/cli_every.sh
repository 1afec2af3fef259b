#!/bin/sh
# Every command line a user runs first, each under a time limit, so that a
# hang fails the suite instead of a lab (make check, and make check-aarch64
# under qemu-user, where a loader that did not match its libc once spun for
# good in pthread_create): `memtop run X --quick` for every experiment
# `memtop run --help` lists (new ones join by being registered), the
# transpose line of issue 22, info, cliffs, levels, import, compare and plot
# on what those runs wrote. EVERY_LIMIT is the limit a command in seconds
# (default 60; each takes about a second natively and under qemu).
. "$TESTLIB"
LIMIT=${EVERY_LIMIT:-60}

EXPS=$(experiments)
NEXP=$(printf '%s\n' "$EXPS" | grep -c .)
plan $((11 + 4 * NEXP))
VERSION=$("$MEMTOP" --version | sed -n '1s/^memtop //p')

# bounded DESC WANT CMD...: CMD exits WANT within LIMIT seconds (its stdout
# and stderr in $TMP/out and $TMP/err); a command still running then is
# killed and said to hang
bounded() {
	d=$1
	w=$2
	shift 2
	timeout -k 5 "$LIMIT" "$@" >"$TMP/out" 2>"$TMP/err"
	s=$?
	if [ "$s" = "$w" ]; then
		pass "$d"
	elif [ "$s" = 124 ] || [ "$s" = 137 ]; then
		fail "$d" "hung: still running after $LIMIT s, killed: $*"
	else
		fail "$d" "exit $s, want $w: $*" "stderr: $(head -c 300 "$TMP/err")"
	fi
}
# refused_or_done DESC CMD...: CMD ends within LIMIT seconds, either done
# (exit 0) or refusing a kind it does not read with one line (exit 2)
refused_or_done() {
	d=$1
	shift
	timeout -k 5 "$LIMIT" "$@" >"$TMP/out" 2>"$TMP/err"
	s=$?
	if [ "$s" = 0 ] || { [ "$s" = 2 ] && [ "$(wc -l <"$TMP/err" | tr -d ' ')" = 1 ]; }; then
		pass "$d"
	elif [ "$s" = 124 ] || [ "$s" = 137 ]; then
		fail "$d" "hung: still running after $LIMIT s, killed: $*"
	else
		fail "$d" "exit $s: $*" "stderr: $(head -c 300 "$TMP/err")"
	fi
}

for x in $EXPS; do
	bounded "run $x --quick: exit 0 within $LIMIT s" 0 "$MEMTOP" run "$x" --quick \
		--json "$TMP/$x.json"
	is "run $x --quick: its result file, by this memtop" \
		"$("$JSONQ" "$TMP/$x.json" memtop_version 2>&1)" "$VERSION"
	refused_or_done "compare $x with itself: ends within $LIMIT s" \
		"$MEMTOP" compare "$TMP/$x.json" "$TMP/$x.json"
	refused_or_done "plot $x: ends within $LIMIT s" \
		"$MEMTOP" plot "$TMP/$x.json" --svg "$TMP/$x.svg"
done

# the line of issue 22 (a thread is started: the hang under qemu was there)
bounded "run transpose --no-real --size 32x32 --version naive: exit 0" 0 \
	"$MEMTOP" run transpose --no-real --size 32x32 --version naive
like "its table: naive misses 1180 on 32x32" "$(cat "$TMP/out")" '^naive +1180$'

bounded "info: exit 0" 0 "$MEMTOP" info --json
like "info: the sources as JSON" "$(cat "$TMP/out")" '"sources"'
bounded "cliffs of the quick mountain: exit 0" 0 "$MEMTOP" cliffs "$TMP/mountain.json"
bounded "levels of the quick latency run: exit 0" 0 "$MEMTOP" levels "$TMP/latency.json"
bounded "import a recorded lmbench run: exit 0" 0 "$MEMTOP" import --chase random \
	"$TESTDATA/corpus/lmbench-zen5-vm-random64.txt" --json "$TMP/lm.json"
is "import: a latency result" "$("$JSONQ" "$TMP/lm.json" experiment 2>&1)" latency
bounded "compare two quick mountains: exit 0" 0 "$MEMTOP" compare "$TMP/mountain.json" \
	"$TMP/mountain.json"
bounded "plot the quick latency run and the import: exit 0" 0 "$MEMTOP" plot \
	"$TMP/latency.json" "$TMP/lm.json" --svg "$TMP/both.svg"
like "plot: an SVG" "$(head -c 400 "$TMP/both.svg")" '<svg'
