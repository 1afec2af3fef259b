#!/bin/sh
# Tab 8, Cores, through tmux at 80x24: a 2 x 2 matrix measured here on the
# first two CPUs this process may use (memtop runs under taskset -p on
# them): the pair's figure on both rows, the diagonal empty, both CPUs'
# places, the summary line; saved with w and opened again by memtop view.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
plan 14

# a published 64-core matrix (core-to-core-latency's CSV of an AWS
# Graviton2), imported, in tab 8: glyph cells, the cursor's pair, the median
"$MEMTOP" import "$TESTDATA/c2c-aws-graviton2.csv" --json "$TMP/g.json" >/dev/null
tstart 80 24 -- view "$TMP/g.json"
tkeys 8
wok "view: the imported 64 x 64 matrix in tab 8" '64 CPUs, 2016 of 2016 pairs' 10
wok "... the cursor's pair, as the CSV's first figure" 'CPU 0 and CPU 1: 41\.6 ns one-way, unknown$' 5
wok "... the summary: the median of every pair" ' 1 unknown +47\.2 ns  2016 pairs' 5

two=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status 2>/dev/null | tr ',' '\n' |
	awk -F- '{ hi = NF > 1 ? $2 : $1; for (c = $1; c <= hi; c++) print c }' | head -n 2 |
	paste -sd, -)
a=${two%,*}
b=${two#*,}
if [ -z "$two" ] || [ "$a" = "$two" ] || ! command -v taskset >/dev/null 2>&1; then
	for i in $(seq 4 14); do skip "cores tab test $i" "fewer than two CPUs to pair, or no taskset"; done
	exit 0
fi

TPRE="taskset -pc $two \$\$ >/dev/null" tstart 80 24 -- --idle --quick
wok "--idle opens" 'r measures 10 sizes' 10
tkeys 8
wok "tab 8 is Cores and says what r does" 'r measures every pair of the CPUs memtop may' 5
tkeys r
wok "r measures the one pair of the two CPUs" 'done: 1 pair measured' 60
scr=$(tcap)
row_a=$(printf '%s\n' "$scr" | awk -v c="$a" '$1 == c && $2 == "-" { print $3; exit }')
row_b=$(printf '%s\n' "$scr" | awk -v c="$b" '$1 == c && $3 == "-" { print $2; exit }')
like "the matrix: CPU $a's row has the diagonal empty and a figure" "$row_a" '^[0-9]+\.[0-9]$'
is "the matrix is symmetric: CPU $b's row has the same figure" "$row_b" "$row_a"
like "the cursor's pair in words, with its relation" "$scr" \
	"CPU $a and CPU $b: $row_a ns one-way, [a-zA-Z ,0-9]+ \\(spread"
like "both CPUs' places" "$scr" "CPU $b: .*(L3 group|package|NUMA node)"
like "the summary by relation" "$scr" " 1 [a-zA-Z ,0-9]+ +$row_a ns  1 pair"
# the False sharing tab: the line transfer between the CPUs its two threads ran on
tkeys 5 o C-u 100000 Enter r
wok "tab 5: after a run, the line transfer between its two threads' CPUs" \
	"CPUs $a and $b \\(2 threads\\): a line moves in [0-9]+\\.[0-9] ns one-way" 90
tkeys 8 w
sleep 0.5
tkeys C-u "$TMP/c.json" Enter
wok "w saves the result" "saved .*c\\.json" 10
tkeys q
tstart 80 24 -- view "$TMP/c.json"
tkeys 8
wok "memtop view opens the saved matrix in tab 8" "^ +$a +- +$row_a\$" 10
tstop

