#!/bin/sh
# Tab 8, Cores, through tmux at 80x24: a 2 x 2 matrix measured here on the
# first two CPUs this process may use (memtop runs under taskset -p on
# them): the pair's figure on both rows, the diagonal empty, both CPUs'
# places, the summary line; saved with w and opened again by memtop view;
# r again asks before it throws the unsaved matrix away. Before it, an
# imported 64-CPU matrix read at 80x24: column ticks, the cursor's column,
# paging keys, figures in the cells when they fit (12 CPUs), glyphs twice
# without a relation digit when the file knows one relation (24), a
# monochrome scale whose steps differ, o opening another file.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
plan 30

# a published 64-core matrix (core-to-core-latency's CSV of an AWS
# Graviton2), imported, in tab 8: glyph cells, the cursor's pair, the median
"$MEMTOP" import "$TESTDATA/c2c-aws-graviton2.csv" --json "$TMP/g.json" >/dev/null
tstart 80 24 -- view "$TMP/g.json"
tkeys 8
wok "view: the imported 64 x 64 matrix in tab 8" '64 CPUs, 2016 of 2016 pairs' 10
wok "... the cursor's pair, as the CSV's first figure" 'CPU 0 and CPU 1: 41\.6 ns one-way, unknown$' 5
wok "... the summary: the median of every pair" ' 1 unknown +47\.2 ns  2016 pairs, 30\.4-58\.4$' 5
is "... column ticks every 4 CPUs, the cursor's column (1) labelled" "$(tcap | sed -n 3p)" \
	" CPU   1  4   8   12  16  20  24  28  32  36  40  44  48  52  56  60"
tkeys End
wok "End: the last pair" 'CPU 63 and CPU 62: 40\.0 ns one-way, unknown$' 5
is "... its column labelled at the right edge" "$(tcap | sed -n 3p)" \
	" CPU  0   4   8   12  16  20  24  28  32  36  40  44  48  52  56    62"
tkeys Home PageDown
wok "PgDn: a page of rows down" 'CPU 15 and CPU 1: 42\.4 ns one-way' 5
is "... rows from CPU 8" "$(tcap | sed -n 4p | cut -c1-5)" "    8"
tkeys F7
wok "a key that does nothing is named as people name it" '^ F7 does nothing here \(\? lists the keys\)' 5
head -n 12 "$TESTDATA/c2c-aws-graviton2.csv" | cut -d, -f1-12 >"$TMP/c12.csv"
head -n 24 "$TESTDATA/c2c-aws-graviton2.csv" | cut -d, -f1-24 >"$TMP/c24.csv"
"$MEMTOP" import "$TMP/c12.csv" --json "$TMP/c12.json" >/dev/null
"$MEMTOP" import "$TMP/c24.csv" --json "$TMP/c24.json" >/dev/null
tkeys o
wok "o asks for a file of the tab's kind" 'Open a saved core-to-core latency result:' 5
tkeys "$TMP/c12.json" Enter
wok "... and opens it in the tab" 'opened c12\.json' 10
is "12 CPUs: each column labelled" "$(tcap | sed -n 3p)" \
	" CPU      0    1    2    3    4    5    6    7    8    9   10   11"
is "... figures in the cells" "$(tcap | sed -n 4p)" \
	"    0     -   42   42   42   45   45   40   40   45   44   42   42"
tstart 80 24 -- view --no-color "$TMP/c24.json"
tkeys 8
wok "24 CPUs, monochrome: the matrix" '24 CPUs, 276 of 276 pairs' 10
like "... two glyphs a cell, no relation digit (the file knows one relation)" \
	"$(tcap | sed -n 5p)" '^    1 [░▒▓█]{2} -[░▒▓█]{44}$'
like "... a glyph scale of four different steps" "$(tcap)" ' fast 30\.4 ░▒▓█ 52\.0 ns slow'
tstart 130 40 -- view "$TMP/g.json"
tkeys 8
wok "beside an imported matrix the Caches panel says whose caches these are not" \
	'the tab shows g\.json, of' 10

two=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status 2>/dev/null | tr ',' '\n' |
	awk -F- '{ hi = NF > 1 ? $2 : $1; for (c = $1; c <= hi; c++) print c }' | head -n 2 |
	paste -sd, -)
a=${two%,*}
b=${two#*,}
if [ -z "$two" ] || [ "$a" = "$two" ] || ! command -v taskset >/dev/null 2>&1; then
	for i in $(seq 18 30); do skip "cores tab test $i" "fewer than two CPUs to pair, or no taskset"; done
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
tkeys r
wok "r again asks before the unsaved matrix is thrown away" \
	'Discard the unsaved core-to-core matrix and measure again\? \(y/n\)' 5
tkeys n
wok "... n keeps it" "CPU $a and CPU $b: $row_a ns one-way" 5
# the False sharing tab: the line transfer between the CPUs its two threads ran on
tkeys 5 o C-u 100000 Enter r
wok "tab 5: after a run, the line transfer between its two threads' CPUs" \
	"a line moves in [0-9]+\\.[0-9] ns one-way between CPUs $a and $b" 90
tkeys 8 w
sleep 0.5
tkeys C-u "$TMP/c.json" Enter
wok "w saves the result" "saved .*c\\.json" 10
tkeys q
tstart 80 24 -- view "$TMP/c.json"
tkeys 8
wok "memtop view opens the saved matrix in tab 8" "^ +$a +- +$row_a\$" 10
tstop

