#!/bin/sh
# The TUI frame through tmux: the reference in memtop view, help built from
# the key tables, small terminals and live resize, a monochrome ASCII
# terminal, quitting to a sane terminal, errors before curses starts.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
plan 40

# memtop view with no file: the seed's M4 Max mountain
tstart 80 24 -- view
wok "view opens the bundled M4 Max reference" 'Apple M4 Max'
wok "the seed's 256K stride-1 figure is in a cell" '256K +79876'
like "view says so in the tab bar" "$(tcap)" '^ (memtop )?view: '
# help: every key, from the tables that bind them
tkeys '?'
wok "? opens the help with the frame's keys" 'Tab +next tab'
is "... the tab list wraps between tabs, a number with its name" \
	"$(tcap | sed -n '3,4p' | sed 's/^ *1\.\.9 0 *//; s/^ *//')" \
	"select a tab: 1 Mountain 2 Latency 3 Matmul 4 Transpose
5 False sharing 6 Lists 7 Bandwidth 8 Cores 9 NUMA 0 Topology"
like "... and says how it scrolls before the line that scrolls it" "$(tcap)" \
	'this help \(arrows, j/k, PgUp/PgDn scroll; other keys close\)'
tkeys j j j j j j j j # at 80x24 the help scrolls: the Mountain tab's keys follow the frame's
wok "help lists the Mountain tab's keys" 'w +save as JSON' 5
tkeys Home
wok "Home goes back to the help's top" '^  Everywhere' 5
tkeys NPage
wok "PgDn pages the help (the tab's keys show; the help stays open)" 'w +save as JSON' 5
like "... and the frame's first keys have scrolled away" "$(tcap | sed -n 2p)" '^ +[^ ]'
unlike "... (Everywhere is off the screen)" "$(tcap)" '^  Everywhere'
tkeys PPage
wok "PgUp pages back to the top" '^  Everywhere' 5
tkeys Escape
wok "Esc closes the help" 'size slice at stride'
# the cursor moves and the slices follow
tkeys Left
wok "left moves the cursor: the size slice follows" 'size slice at stride 4'
tkeys Down Down Down Down
wok "down moves the cursor: the stride slice follows" 'stride slice at size 256K'
# a mouse click (xterm X10 report: ESC [ M button x+33 y+33) selects a cell:
# 16K is screen line 3 (tab bar, info line, header), stride 15 column 35
click() { # X Y
	tkeys -H 1b 5b 4d 20 "$(printf '%x' $(($1 + 33)))" "$(printf '%x' $(($2 + 33)))"
	tkeys -H 1b 5b 4d 23 "$(printf '%x' $(($1 + 33)))" "$(printf '%x' $(($2 + 33)))"
}
click 35 3
wok "a click selects the cell under it" 'size slice at stride 15' 5
like "... and its size" "$(tcap)" 'stride slice at size 16K'
# too small, then big again
tm resize-window -t t -x 60 -y 20
wok "60x20 says the size needed" 'memtop needs 80x24; this terminal is 60x20'
tm resize-window -t t -x 100 -y 30
wok "100x30 redraws the heatmap" '128M +76032'
wok "100 columns show the Caches panel" 'Caches +L1d +L2 +L3'
# q quits (nothing unsaved in view) and the terminal is sane again
tkeys q
wok "q exits with status 0" 'memtop-exit=0'
wok "the terminal is back in echo and canonical mode" ' echo .* icanon |icanon .* echo '

# a monochrome ASCII terminal: no colour escapes, no UTF-8, density glyphs
tstart 80 24 TERM=vt100 NO_COLOR=1 LANG=C LC_ALL=C -- view
wok "TERM=vt100 LANG=C: the reference opens" 'Apple M4 Max'
screen=$(tm capture-pane -p -e -t t)
unlike "TERM=vt100 NO_COLOR=1: no colour escapes" "$screen" "$(printf '\033')\\[[0-9;]*(3[0-7]|4[0-7]|38;5|48;5)[;m]"
if printf '%s' "$(tcap)" | LC_ALL=C grep -q '[^ -~]'; then
	fail "LANG=C: the screen is plain ASCII" "$(tcap | LC_ALL=C grep -n '[^ -~]' | head -3)"
else
	pass "LANG=C: the screen is plain ASCII"
fi
like "the legend uses ASCII density glyphs" "$(tcap)" 'slow +[0-9.]+G \.*:+\+*#+ '

# every question takes one key: y or n acts at once, nothing echoed, no Enter
tstart 80 24 -- --idle --quick
twait '1 Mountain' 10
tkeys 6 r
wok "a quick lists run ends" 'lists done' 60
tkeys r
wok "r over the unsaved walks asks" 'Discard the unsaved list walks and measure again\? \(y/n\)$' 5
tkeys n
sleep 0.5
unlike "n alone answers it: the question is gone" "$(tcap)" '\(y/n\)'
like "... the walks stay" "$(tcap)" '^ +4096 +[0-9]'
tkeys r
wok "r asks again" '\(y/n\)$' 5
tkeys y
wok "y alone measures again (no Enter)" '\] +[0-9]+%|lists done' 10
unlike "... and the question is gone" "$(tcap)" '\(y/n\)'
twait 'lists done' 60
tkeys q
wok "q with the walks unsaved asks" 'Save before quitting\? y save, n quit without saving, Esc stay' 5
tkeys x
like "a key that answers nothing leaves the question" "$(tcap)" 'Save before quitting'
tkeys Escape
wok "Esc stays" '1\.\.9 tabs' 5
tkeys q n
wok "q n quits at once without saving" 'memtop-exit=0' 5

# --no-mouse leaves clicks to the terminal
tstart 80 24 -- view --no-mouse
wok "view --no-mouse opens" 'size slice at stride 8'
click 35 3
# a sentinel after the click: keys are read in order, so once Left has
# moved the cursor (stride 8 to 4), the click before it was read too; had
# it selected its cell (stride 15), Left would have gone to 8
tkeys Left
wok "with --no-mouse a click selects nothing (Left after it: stride 8 to 4)" \
	'size slice at stride 4' 5

# before curses: bad files and no terminal fail with one line
echo '{"sizes":[1]}' >"$TMP/bad.json"
status "view of a malformed file exits 2" 2 "$MEMTOP" view "$TMP/bad.json"
