#!/bin/sh
# Tab 7 Bandwidth through tmux at 80x24: the kernels x sizes table fills in
# (a GB/s and a bar per cell), t changes the thread count shown, the arrows
# pick the scaling panel's kernel, the loaded latency (l), save (w), memtop
# view of the file, compare (c: ratios), and the Caches side panel beside
# it at 110 columns. Numbers are read where the tab puts them; no cache size
# of this machine is assumed.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
plan 35

NCPU=$(nproc 2>/dev/null || echo 1)
KROW='^ (read|read_vector|load|write|write_nt|copy|copy_nt|triad|triad_nt) +'

tstart 80 24 -- --quick --idle
wok "memtop --quick starts" 'r measures 10 sizes 16K\.\.8M' 10
tkeys 7
wok "7 selects the Bandwidth tab" 'r measures \(b the table alone, l the loaded latency alone\)' 5
like "the status line keeps its hint whole with seven tabs" "$(tcap | tail -1)" '\? help  q quit *$'
like "the table has a column per planned size, the last named by where 16M sits" "$(tcap)" '^ kernel +.* (DRAM|L[0-9]|L[0-9]\+DRAM) 16M'
tkeys b
wok "b measures the table: every kernel's arrays checked" "done: every kernel's arrays checked" 60
screen=$(tcap)
nk=$(printf '%s\n' "$screen" | grep -cE "$KROW")
nfull=$(printf '%s\n' "$screen" | grep -E "$KROW" | grep -cvE ' - ')
is "every kernel row is measured at every size" "$nfull" "$nk"
like "a cell is GB/s with a bar" "$screen" "$KROW"'[0-9]+\.[0-9][~ ] +(█|#)'
like "the title names the ISA and the thread count shown" "$screen" \
	'GB/s, [A-Za-z0-9-]+ kernels, [0-9]+ threads? \(t: next of [0-9]+\)'
shown=$(printf '%s\n' "$screen" | sed -n 's/.* kernels, \([0-9]*\) thread.*/\1/p')
tkeys t
wok "t shows the other thread count" "kernels, [0-9]+ threads? \\(t: next" 5
# the title above matches before the redraw too: wait (5 s at most) for it to change
n=50
while [ "$n" -gt 0 ] && [ "$(tcap | sed -n 's/.* kernels, \([0-9]*\) thread.*/\1/p')" = "$shown" ]; do
	sleep 0.1
	n=$((n - 1))
done
unlike "... not the one shown before" "$(tcap | sed -n 's/.* kernels, \([0-9]*\) thread.*/\1/p')" "^$shown\$"
tkeys Down
wok "the cursor's kernel heads the scaling panel" '^ read_vector at .* over threads' 5
like "scaling: a row per thread count with the ratio to one" "$(tcap)" '^ +1  +[0-9]+\.[0-9] .*1\.00x CPU'
tkeys '?'
twait '^  Everywhere' 30
# a help row that reaches the last column was cut (the rows are ASCII)
top=$(tcap | grep '^    ' | awk 'length($0) >= 80' | wc -l)
# the run's warnings may take status lines (a busy machine, a sanitizer's
# build): the tab's last keys are then a scroll away, End shows them
tkeys End
wok "the help lists the tab's keys" '^    v +lower panel: scaling, loaded latency, sizes' 30
is "no help row is cut at 80 columns" "$top $(tcap | grep '^    ' | awk 'length($0) >= 80' | wc -l)" "0 0"
tkeys Escape

# l (as r, b) throws the unsaved table away: it asks first
tkeys l
wok "l asks before it throws the unsaved table away" \
	'Discard the unsaved bandwidth table and measure again\? \(y/n\)' 5
tkeys y
if [ "$NCPU" -ge 2 ]; then
	wok "l measures the loaded latency: idle first" '^ +idle +0\.0 GB/s +[0-9]+ ns' 60
	wok "... and under load, a bandwidth per delay" '^ +0 ns +[0-9]+\.[0-9] GB/s +[0-9]+ ns' 60
else
	wok "l on one CPU says it needs two" 'loaded latency needs 2 CPUs' 30
	pass "loaded curve # SKIP one CPU"
fi
twait 'done:|stopped' 60
tkeys b
twait 'Discard the unsaved' 5 && tkeys y
# the loaded run ended with the same message: see this run's progress first
# (a run quicker than a capture goes by: then the wait just ends)
twait ' cells +ETA' 20
wok "the table again" "done: every kernel's arrays checked" 60
# the first table's "done" may still be on the screen: w waits for the
# second table's job to end (no progress line left)
n=600
while [ "$n" -gt 0 ] && tcap | grep -Eq '[0-9]+(/[0-9]+)? cells +ETA'; do sleep 0.1; n=$((n - 1)); done
tkeys w
wok "w offers the default name" 'Save as: memtop-bandwidth-.*\.json' 5
tkeys C-u "$TMP/bw.json" Enter
wok "the run is saved" "saved $TMP/bw.json" 5
tkeys c
wok "c asks for a saved run" 'Compare with a saved bandwidth run' 5
tkeys "$TMP/bw.json" Enter
wok "compared with itself every cell is 1.00x" "$KROW"'[0-9]+\.[0-9][~ ] +1\.00x' 5
tkeys q
wok "q quits at once (saved)" 'memtop-exit=0' 5

# a latency run in this session: tab 7 plans its sizes from the levels it found
tstart 80 24 -- --quick --idle
wok "memtop --quick starts again" 'r measures 10 sizes 16K\.\.8M' 10
tkeys 2 r
wok "the Latency tab measures its quick curve" 'done in [0-9]+ s' 60
if tcap | grep -qE '^ L1 [0-9.]+[KM] '; then
	tkeys 7 b
	wok "the table is measured again" "done: every kernel's arrays checked" 60
	tkeys v v
	wok "its sizes now come from the latency run" '^ L1 [0-9.]+[KM]: half the L1 [0-9.]+[KM] \(latency run\)' 5
else
	pass "sizes from the latency run # SKIP the quick curve showed no level here"
	pass "sizes from the latency run # SKIP"
fi
tkeys q n

tstart 110 34 -- view "$TMP/bw.json"
wok "memtop view opens the saved run in the Bandwidth tab" "$KROW"'[0-9]+\.[0-9]' 5
like "the Caches side panel is beside it" "$(tcap)" '│ *Caches|Caches'

# a saved run whose cells carry the clock around their tries and whose
# load ports' canary read under 70 % of the ceiling after the table
tstart 110 34 -- view "$TESTDATA/bandwidth-ports-shared.json"
wok "the cursor's cell says the clock it divides by" \
	'L1 24K load, one thread: [0-9.]+ B/cycle at 3\.59 GHz \(measured around' 5
like "... and an L1 cell says the load ports were shared or slowed" "$(tcap)" \
	'load ports: the canary \(load over 4K, one thread\) read'
like "... at worst 43 % of the ceiling, under 70 %" "$(tcap)" "worst 43 % of Golden Cove's 128, under 70 %"

# memtop run on an 80-column terminal: the table folds its kernels under
# the first (a row on two or three lines) rather than wrapping at 140
tstart 80 24 -- run bandwidth --quick --levels L1 --threads 1
wok "run bandwidth on an 80-column terminal ends" 'memtop-exit=0' 120
all=$(tm capture-pane -p -J -t t -S -400)
is "... no line of its table wider than 79 columns" \
	"$(printf '%s\n' "$all" | grep -v '^#' | awk 'length > 79' | wc -l | tr -d ' ')" 0
like "... the head's kernels folded under the first" "$all" '^ {20} +(write|copy|triad)'
