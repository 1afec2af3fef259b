#!/bin/sh
# The binary's usage contract: --help and --version exit 0, every command
# has --help, bad usage exits 2 with one line on stderr. Then the same
# command line for every experiment `memtop run --help` lists: --help, an
# unknown option, --json into a folder that does not exist (refused before
# measuring, nothing left behind), and --quick --csv --json: plain CSV on
# stdout, the run header on stderr and in the JSON.
. "$TESTLIB"

EXPS=$(experiments)
NEXP=$(printf '%s\n' "$EXPS" | grep -c .)
plan $((23 + 3 * 8 + 4 + 16 * NEXP))

status "--version exits 0" 0 "$MEMTOP" --version
like "--version names memtop" "$(cat "$TMP/out")" '^memtop [0-9]+\.[0-9]+'
status "--help exits 0" 0 "$MEMTOP" --help
like "--help lists run, cliffs, compare" "$(grep -cE '^  (run|cliffs|compare) ' "$TMP/out")" '^3$'
for cmd in run cliffs compare; do
	status "$cmd --help exits 0" 0 "$MEMTOP" $cmd --help
done
status "unknown command exits 2" 2 "$MEMTOP" frobnicate
is "unknown command: one line on stderr" "$(wc -l <"$TMP/err" | tr -d ' ')" 1
status "unknown experiment exits 2" 2 "$MEMTOP" run nosuch
# exactly these, in the order of the tabs (an experiment added is added here)
is "run --help lists the ten experiments" "$(echo $EXPS)" \
	'mountain latency matmul falseshare lists transpose algae bandwidth cores numa'
status "unknown option exits 2" 2 "$MEMTOP" run mountain --bogus
like "unknown option names it" "$(cat "$TMP/err")" "unknown option '--bogus'"
status "a value for a flag exits 2" 2 "$MEMTOP" run mountain --quick=yes
is "a value for a flag: one line" "$(cat "$TMP/err")" \
	"memtop: run mountain: --quick: expected no value, got 'yes'"
# a one-letter option is a short one only: -s, never --s (the shared parser)
status "a one-letter option as a long one exits 2" 2 "$MEMTOP" sim --s 5 -E 1 -b 4 -t /dev/null
is "... in one line naming it" "$(cat "$TMP/err")" \
	"memtop: sim: unknown option '--s' (see memtop sim --help)"
status "... also in an experiment's options" 2 "$MEMTOP" run matmul --n 8
is "... said so" "$(cat "$TMP/err")" \
	"memtop: run matmul: unknown option '--n' (see memtop run matmul --help)"
status "the same option as a short one is taken" 0 "$MEMTOP" sim -s 5 -E 1 -b 4 -t /dev/null
status "... in an experiment too" 0 "$MEMTOP" run matmul -n 8 --tries 1 --simulate

# one rule for every writer: an output it cannot write is refused before
# any work, exit 2, one line naming the flag and the path, nothing on stdout
L=$TESTDATA/latency-quick-epyc-vm.json
N=$TMP/no-such-folder
for w in "topo --json $N/x.json" "compare --fleet $L $L --json $N/x.json" \
	"import $TESTDATA/c2c-aws-graviton2.csv --json $N/x.json" "report $L --html $N/x.html" \
	"plot $L --svg $N/x.svg" "plot $L --png $N/x.png" "levels $L --json $N/x.json" \
	"run algae --json $N/x.json"; do
	set -- $w
	status "$1 $2 into a missing folder: exit 2" 2 "$MEMTOP" "$@"
	like "... one line naming the flag and the path" "$(cat "$TMP/err")" \
		"^memtop: [a-z ]+: --[a-z]+: expected a file in an existing folder, got '$N/x\.[a-z]+' \($N: "
	is "... nothing on stdout" "$(wc -c <"$TMP/out" | tr -d ' ')" 0
done
# one rule for what a comparison needs: two results, fleet or not
status "compare of one result: exit 2" 2 "$MEMTOP" compare "$L"
status "compare --fleet of one result: exit 2" 2 "$MEMTOP" compare --fleet "$L"
is "... in one line" "$(cat "$TMP/err")" "memtop: compare: expected 2 or more results, $L holds one"
status "compare --fleet of two machines: exit 0" 0 "$MEMTOP" compare --fleet "$L" "$TESTDATA/latency-xeon-vm-44k.json"

# the build line names the sanitizers, and a warning says what they do to timings
"$MEMTOP" run algae >"$TMP/algae" 2>&1
if ldd "$MEMTOP" 2>/dev/null | grep -q 'lib[at]san'; then
	like "sanitizer build: the build line says so" "$(cat "$TMP/algae")" \
		'^# build: .*-fsanitize=address,undefined'
	like "sanitizer build: a warning says so" "$(cat "$TMP/algae")" \
		'^# warning: built with sanitizers: timings are several times slower'
else
	unlike "no sanitizers: the build line does not name them" "$(cat "$TMP/algae")" \
		'^# build: .*-fsanitize'
	unlike "no sanitizers: no warning about them" "$(cat "$TMP/algae")" 'built with sanitizers'
fi

nl() { wc -l <"$1" | tr -d ' '; }
for x in $EXPS; do
	status "$x --help exits 0" 0 "$MEMTOP" run "$x" --help
	h=$(cat "$TMP/out")
	like "$x --help lists --quick, --json and --csv" \
		"$(printf '%s\n' "$h" | grep -cE '^ +(--quick|--json FILE|--csv) ')" '^3$'

	status "$x --bogus exits 2" 2 "$MEMTOP" run "$x" --bogus
	is "$x --bogus: one line on stderr" "$(nl "$TMP/err")" 1
	like "$x --bogus: the line names the option" "$(cat "$TMP/err")" \
		"^memtop: run $x: unknown option '--bogus'"
	is "$x --bogus: nothing on stdout" "$(nl "$TMP/out")" 0

	status "$x --json without a value exits 2" 2 "$MEMTOP" run "$x" --json
	is "$x --json without a value: one line" "$(cat "$TMP/err")" \
		"memtop: run $x: --json: expected a value, got nothing"

	bad="$TMP/no-such-dir/$x.json"
	"$MEMTOP" run "$x" --quick --json "$bad" >"$TMP/out" 2>"$TMP/err"
	s=$?
	is "$x --json into a missing folder exits 2 (bad usage, as batch.h says)" "$s" 2
	is "$x --json into a missing folder: one line on stderr" "$(nl "$TMP/err")" 1
	like "$x --json into a missing folder: the line names the path" "$(cat "$TMP/err")" \
		"^memtop: run $x: --json: .*'$bad'"
	ok "$x --json into a missing folder: nothing left behind" test ! -e "$TMP/no-such-dir"

	"$MEMTOP" run "$x" --quick --csv --json "$TMP/$x.json" >"$TMP/csv" 2>"$TMP/err"
	is "$x --quick --csv exits 0" "$?" 0
	is "$x --csv: the run header on stderr" "$(grep -cE \
		'^# (memtop [0-9.]+ on .+: |.+, clock: |build: |load [0-9.]+, [0-9]+ runnable, THP )' \
		"$TMP/err")" 4
	like "$x --json: the run header's fields" "$(tr -d ' \t\n' <"$TMP/$x.json")" \
		'"date":".*"memtop_version":".*"cpu":".*"kernel":".*"build":".*"clock":\{.*"diagnostics":\{"optimized":'

	# one header line, then rows with as many fields, no comment lines
	is "$x --csv: plain CSV, one header, rows as wide" "$(awk -F, '
		NR == 1 { n = NF; if ($0 !~ /^[a-z_][a-z0-9_]*(,[a-z0-9_]+)+$/) bad = "header: " $0 }
		NR > 1 && (NF != n || /^#/) { bad = "row " NR ": " $0 }
		END { if (NR < 2) bad = "no rows"; print bad ? bad : "ok" }' "$TMP/csv")" ok
done
