#!/bin/sh
# The first screen measures: plain memtop starts the quick mountain at
# once (a first look), fills the heatmap, then says what r measures next;
# the first look is not asked about on quitting. --idle opens without
# measuring; --idle with --start is refused. No timing of this machine is
# assumed beyond "within a minute".
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
plan 9

tstart 80 24 --
wok "memtop measures at once: a first look" \
	'measuring a first look at this machine|a first look at 40 cells' 30
wok "the first look fills the quick grid" 'a first look at 40 cells: r measures the full grid of 14 x 15' 60
screen=$(tcap)
like "every quick cell has a value (8M row, 4 strides)" "$screen" '^ +8M( +[0-9]+){4}( |$)'
like "the status line says what is next" "$screen" 'a first look: 40 cells in [0-9.]+ s; r measures the full grid'
like "cycles a word are read off it, with the clock memtop calibrated" "$screen" \
	'core [0-9.]+ GHz, calibrated with the run'
tkeys q
wok "q quits at once: the first look is not asked about" 'memtop-exit=0' 5

tstart 80 24 -- --idle
wok "--idle waits for r" 'r measures 14 sizes 16K\.\.128M x 15 strides' 10
sleep 1
like "--idle: nothing is measuring" "$(tcap)" 'nothing measured yet'

status "--idle with --start: exit 2" 2 "$MEMTOP" --idle --start
