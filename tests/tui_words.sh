#!/bin/sh
# 80x24 without cut words: every tab and its help, in memtop view (the
# bundled references) and in memtop --idle --quick (nothing measured), and
# after a small measurement in every lab tab. A word on the 80-column screen
# is cut when the program never prints it whole: it is not a word of the
# same screen at 250 columns, or it is the start of a word of memtop's own
# strings (its sources and data files) without being one itself ("Transpos",
# "registe"). No cache size or timing of this machine is assumed.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
top=$(cd "$(dirname "$TESTLIB")/.." && pwd)
# the plan is printed at the end: the help pages are counted as they come

# the words memtop prints whole somewhere: its string literals and data files
# (a word of them is whole even where the wide screen words it otherwise:
# "GB/s in cells" at 80 columns, "MB/s in cells" at 250), and their plurals
# ("task%s" prints "tasks")
{
	cat "$top"/tui/*.c "$top"/src/*/*.c | grep -o '"[^"]*"'
	cat "$top"/data/*.json "$top"/data/ref/*.json 2>/dev/null
} | tr -c 'A-Za-z0-9\n' ' ' | tr ' ' '\n' | grep '[A-Za-z]' | sort -u >"$TMP/known"

# whole DESC [SKIP]: the screen now, at 80x24, without a cut word against
# the same at 250 columns (tui_lib.sh's twhole, on the words above), no
# ellipsis; words matching the regex SKIP are not words (the Latency tab's
# curve glyphs a (stride 128) and b (4096) drawn side by side: "aab")
whole() { twhole "$1" 80 24 A-Za-z "${2:-}"; }

# pages DESC: the help open now, page by page from its top (PgDn until the
# screen stays the same, at most 6 pages), each as tcheck says against the
# whole help at 250x70
pages() {
	tresize 250 70 "$TMP/wide"
	tresize 80 24 "$TMP/back"
	tkeys Home
	sleep 0.3
	pg=1
	while :; do
		tcap >"$TMP/narrow"
		tcheck "$1, page $pg" A-Za-z
		[ "$pg" -ge 6 ] && break
		tkeys NPage
		sleep 0.3
		tcap >"$TMP/after"
		cmp -s "$TMP/after" "$TMP/narrow" && break
		pg=$((pg + 1))
	done
}

# prompts K KEYS...: on tab K, each key's prompt (a knob's question with
# its value) whole at 80x24, then Esc
prompts() {
	k=$1
	shift
	for key in "$@"; do
		tkeys "$k" "$key"
		sleep 0.3
		whole "tab $k, the prompt of $key at 80x24: no word cut"
		tkeys Escape
	done
}

# named DESC: the tab bar (the screen's first line) names every tab, in full
# or briefly, never a bare number
named() {
	bar=$(tcap | head -n 1)
	unlike "$1" "$bar" '(^|[^0-9])[0-9] *([0-9]|$)'
}

# ---- memtop view: the seed's figures in every tab that has them ----------
tstart 80 24 LANG=C.UTF-8 LC_ALL=C.UTF-8 -- view
wok "view opens at 80x24" 'Apple M4 Max' 10
named "view at 80 columns: the tab bar names every tab"
tkeys 5
named "view at 80 columns on tab 5: every tab still named"
for k in 1 2 3 4 5 6 7 8 9 0; do
	tkeys "$k"
	whole "view, tab $k at 80x24: no word cut"
	tkeys '?'
	pages "view, tab $k's help at 80x24: no word cut"
	tkeys Escape
done
# a view measures nothing: no tab advertises r (it would say "memtop view
# does not measure")
for k in 1 2 3 4 5 6 7 8 9 0; do
	tkeys "$k"
	sleep 0.3
	unlike "view, tab $k: no key advertised that view refuses" "$(tcap)" \
		'(^|[ (;,])r (measures|starts|times|walks|races)'
done
# the bundled reference beside itself: the book's card under it
tkeys 1 o Enter
wok "o Enter puts the reference beside, with the book's card" 'passport +Haswell +M4 Max' 5
whole "the book's card beside the reference at 80x24: no word cut"
tkeys q

# an imported full grid (14 x 15): the narrow heatmap and the reading
tstart 80 24 LANG=C.UTF-8 LC_ALL=C.UTF-8 -- view "$MEMTOP_DATA/ref/csapp-corei7h-mountain.json"
wok "view opens the imported CS:APP mountain" 'csapp-corei7h-mountain\.json' 10
whole "an imported 14 x 15 mountain at 80x24: no word cut"
tkeys q

# an imported latency table without a clock (ns), labelled with its machine
tstart 80 24 LANG=C.UTF-8 LC_ALL=C.UTF-8 -- view "$MEMTOP_DATA/ref/rpi5-a76-latency.json"
wok "view opens the Raspberry Pi 5's published curve" 'Raspberry Pi 5 .*\(rpi5-a76-latency\.json\)' 10
whole "an imported latency curve at 80x24: no word cut"
tkeys q

# a published 64-core core-to-core matrix, imported: tab 8's glyph cells
"$MEMTOP" import "$TESTDATA/c2c-aws-graviton2.csv" --json "$TMP/g.json" >/dev/null
tstart 80 24 LANG=C.UTF-8 LC_ALL=C.UTF-8 -- view "$TMP/g.json"
tkeys 8
wok "view opens the imported 64-core matrix in tab 8" '64 CPUs, 2016 of 2016 pairs' 10
whole "an imported 64 x 64 core-to-core matrix at 80x24: no word cut"
tkeys q

# ---- the Topology tab on hwloc's recorded machines (their memtop topo --json) ---
for f in topo-kunpeng920-2x64 topo-opteron-4s8n topo-i7-1370p-hybrid; do
	tstart 80 24 -- view "$TESTDATA/$f.json"
	tkeys 0
	wok "view opens $f in tab 0" '\(memtop topo\)' 10
	whole "$f in the Topology tab at 80x24: no word cut"
	tkeys '?'
	whole "$f: the Topology tab's help at 80x24: no word cut"
	tkeys Escape
	tkeys q
done
tstart 80 24 -- view "$TESTDATA/topo-kunpeng920-2x64.json"
tkeys 0
wok "the 2 x 64 machine in tab 0" 'Package 1' 10
tkeys Down Down Enter
wok "... its node 0 folded" '32 cores, 32 CPUs' 5
tkeys Enter
wok "... and opened again" 'x 30 more cores' 5
whole "a node opened at 80x24: no word cut"
tkeys q

# ---- memtop --idle --quick: every tab before it measures -------------------
tstart 80 24 LANG=C.UTF-8 LC_ALL=C.UTF-8 -- --idle --quick
wok "--idle opens without measuring" 'r measures 10 sizes' 10
named "at 80 columns the tab bar names every tab"
for k in 1 2 3 4 5 6 7 8 9 0; do
	tkeys "$k"
	whole "idle, tab $k at 80x24: no word cut"
	tkeys '?'
	pages "idle, tab $k's help at 80x24: no word cut"
	tkeys Escape
done
# every knob's and open key's prompt
prompts 1 o
prompts 2 m
prompts 3 n b B
prompts 4 V Z c F
prompts 5 o
prompts 6 m
prompts 7 c
prompts 8 o

# ---- small measurements: the tabs with their results ----------------------
tkeys 1 r
wok "the quick mountain is measured" 'measured 40 cells' 60
whole "tab 1 measured at 80x24: no word cut"
tkeys 2 m C-u 256K Enter r
wok "a small latency run ends" 'done in [0-9]+ s' 60
whole "tab 2 measured at 80x24: no word cut" '^[ab]+$'
tkeys 3 n C-u 64 Enter r
wok "a small matmul race ends" 'race done' 30
whole "tab 3 measured at 80x24: no word cut"
tkeys 4 r
wok "the real transpose is timed" 'speed-up [0-9.]+x' 90
whole "tab 4 measured at 80x24: no word cut"
tkeys 5 o C-u 100000 Enter r
wok "a small false sharing run ends" 'done: every sum exact' 60
whole "tab 5 measured at 80x24: no word cut"
tkeys 6 r
wok "the quick lists end" 'lists done' 60
whole "tab 6 measured at 80x24: no word cut"
prompts 6 w
tkeys 7 b
wok "the quick bandwidth table ends" "done: every kernel's arrays checked" 90
whole "tab 7 measured at 80x24: no word cut"
tkeys 8 r
wok "the core-to-core matrix is measured" 'done: [0-9]+ pairs? measured' 120
whole "tab 8 measured at 80x24: no word cut"
tkeys 0
wok "tab 0 shows the session's figures on this machine" 'c2c|\(latency' 10
whole "tab 0 with the figures of the runs at 80x24: no word cut"
tkeys x q n
plan "$TAP_N"
