#!/bin/sh
# An open on a disk that does not answer does not hold the UI: the open
# prompt's file is read and parsed off the UI thread, so while its open()
# waits (a network home whose server has gone) the help opens and closes,
# the terminal is resized and tabs switch; once the disk answers the file
# shows in its tab. Quitting while a read is held waits its bound (1 s),
# says which read it abandoned and restores the terminal. A FIFO or a
# folder given as the path is refused at once with its reason (no wait
# for a writer). A save whose last step (the rename) is held when q comes
# is named "not saved" on stderr after the save's bound, and its path is
# not written. The opens' thread is kept, named memtop-file. A run
# started while a file is read goes on, and the file comes beside it.
#
# The stall is tests/stall_open.c, a shim preloaded into memtop (built
# here with $CC) that holds the open of one named path until a file
# appears. Plain builds only (a sanitizer's runtime must come first):
# skipped with the reason elsewhere; the FIFO and folder checks need no
# shim and always run.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
plan 27

here=$(dirname "$TESTLIB")
shim=$TMP/stall_open.so
cp "$MEMTOP_DATA/m4max.json" "$TMP/m.json"
why=
if ! ${CC:-cc} -shared -fPIC -o "$shim" "$here/stall_open.c" -ldl >"$TMP/cc.log" 2>&1; then
	why="cannot build the open() shim with ${CC:-cc}"
elif ! LD_PRELOAD=$shim "$MEMTOP" --version >/dev/null 2>&1; then
	why="memtop does not run with a preloaded library (a sanitizer build)"
fi
stall="LD_PRELOAD=$shim STALL_PATH=$TMP/m.json STALL_UNTIL=$TMP/go STALL_HELD=$TMP/held"

# o, answered PATH: the open prompt of the Mountain tab
open_file() {
	tkeys 1 o
	twait 'Open a saved mountain' 5
	tkeys "$1" Enter
}

if [ -n "$why" ]; then
	for d in "memtop view starts with the bundled mountain" "the open's answer says opening PATH at once" \
		"the open is held in open()" "the help opens while the read waits" \
		"the help closes while the read waits" "a resize is answered while the read waits" \
		"a tab switch is answered while the read waits" "nothing beside the mountain yet" \
		"the disk answers: the file shows beside the mountain" \
		"q while a read is held: memtop exits 0" "q while a read is held: it waits at most its bound" \
		"q while a read is held: the abandoned read is named" \
		"q while a read is held: the terminal is back in echo and canonical mode" \
		"a run starts while the file is read" "the file comes beside the running mountain" \
		"the run goes on after the file came" "x then stops the run" \
		"a save to a held disk says saving PATH" "q while a save is held: memtop exits 0" \
		"q while a save is held: it is named not saved" "q while a save is held: the path is not written"; do
		skip "$d" "$why"
	done
else
	rm -rf "$TMP/go" "$TMP/held"
	tstart 100 30 $stall -- view
	wok "memtop view starts with the bundled mountain" 'm4max\.json' 10
	open_file "$TMP/m.json"
	wok "the open's answer says opening PATH at once" "opening $TMP/m.json" 5
	n=50
	while [ "$n" -gt 0 ] && [ ! -d "$TMP/held" ]; do sleep 0.1; n=$((n - 1)); done
	ok "the open is held in open()" test -d "$TMP/held"
	tkeys '?'
	seen=0
	twait '^  Everywhere' 10 && seen=1
	ok "the help opens while the read waits" test "$seen" = 1
	tkeys Escape
	n=100 # the help seen, then gone: up to 10 s
	while [ "$n" -gt 0 ] && tcap | grep -Eq '^  Everywhere'; do sleep 0.1; n=$((n - 1)); done
	ok "the help closes while the read waits" test "$seen" = 1 -a "$n" -gt 0 -a -n "$(tcap | grep -E '^ size +1 ')"
	tm resize-window -t t -x 120 -y 36
	# at 120 columns the slice by size stands beside the table's head
	wok "a resize is answered while the read waits" '^ size +1 +2 .* size slice at stride 8' 10
	tkeys 2
	wok "a tab switch is answered while the read waits" 'Latency by pointer chasing' 10
	tkeys 1
	unlike "nothing beside the mountain yet" "$(tcap)" 'beside it'
	touch "$TMP/go"
	wok "the disk answers: the file shows beside the mountain" 'beside it: m\.json' 10

	rm -rf "$TMP/go" "$TMP/held"
	open_file "$TMP/m.json"
	n=50
	while [ "$n" -gt 0 ] && [ ! -d "$TMP/held" ]; do sleep 0.1; n=$((n - 1)); done
	t0=$(date +%s%N)
	tkeys q
	wok "q while a read is held: memtop exits 0" 'memtop-exit=0' 10
	ms=$((($(cat "$TMP/memtop-end.ns" 2>/dev/null || echo "$t0") - t0) / 1000000))
	timing "q while a read is held: it waits at most its bound" test "$ms" -ge 900 -a "$ms" -lt 5000
	like "q while a read is held: the abandoned read is named" "$(tm capture-pane -p -J -t t)" \
		"memtop: $TMP/m.json: still being read after 1000 ms; abandoned"
	wok "q while a read is held: the terminal is back in echo and canonical mode" \
		' echo .* icanon |icanon .* echo ' 5
	touch "$TMP/go"

	# a run started while the file is read: the file comes under the rules
	# of that moment (beside the mountain being measured, as o during a run
	# puts it), and the run goes on
	rm -rf "$TMP/go" "$TMP/held"
	tstart 100 30 $stall -- --idle
	twait 'r measures' 10
	open_file "$TMP/m.json"
	n=50
	while [ "$n" -gt 0 ] && [ ! -d "$TMP/held" ]; do sleep 0.1; n=$((n - 1)); done
	tkeys r
	wok "a run starts while the file is read" '[0-9]+/[0-9]+ cells' 30
	touch "$TMP/go"
	wok "the file comes beside the running mountain" 'beside it: m\.json' 10
	wok "the run goes on after the file came" '[0-9]+/[0-9]+ cells' 5
	tkeys x
	wok "x then stops the run" 'stopped' 10

	# a save whose rename is held: q waits its bound, then names it
	rm -rf "$TMP/go" "$TMP/held"
	tstart 100 30 LD_PRELOAD=$shim STALL_PATH=$TMP/s.json STALL_UNTIL=$TMP/go \
		STALL_HELD=$TMP/held -- view "$TMP/m.json"
	twait 'beside it|m4max\.json' 10
	tkeys w
	twait 'Save as: ' 5
	tkeys C-u "$TMP/s.json" Enter
	wok "a save to a held disk says saving PATH" "saving $TMP/s.json" 5
	n=50
	while [ "$n" -gt 0 ] && [ ! -d "$TMP/held" ]; do sleep 0.1; n=$((n - 1)); done
	tkeys q
	wok "q while a save is held: memtop exits 0" 'memtop-exit=0' 15
	like "q while a save is held: it is named not saved" "$(tm capture-pane -p -J -t t)" \
		"memtop: $TMP/s.json: not saved: still being written when memtop quit"
	ok "q while a save is held: the path is not written" test ! -e "$TMP/s.json"
	touch "$TMP/go"
fi

# ---- no wait for a FIFO's writer, no folder read as a file ---------------
mkfifo "$TMP/fifo"
tstart 100 30 -- view
wok "FIFO: memtop view starts" 'm4max\.json' 10
open_file "$TMP/fifo"
wok "a FIFO is refused at once, with its reason" \
	"not opened: $TMP/fifo: a FIFO \\(named pipe\\), not a result file" 5
open_file "$TMP"
wok "a folder is refused, with its reason" "not opened: $TMP: a folder, not a result file" 5
# the opens ran on a file thread, kept for the next one and named so that
# the soak tells it from a run's
tasks=$(cat /proc/"$(tpid)"/task/*/comm 2>/dev/null)
like "the opens ran on a kept file thread, named memtop-file" "$tasks" '^memtop-file$'
is "no other thread but the UI's" "$(printf '%s\n' "$tasks" | grep -vc '^memtop-file$')" 1
tkeys q
wok "after the refusals q quits at once" 'memtop-exit=0' 5
