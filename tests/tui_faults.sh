#!/bin/sh
# Faults in the UI through tmux: `w` on a full disk says so in the status
# line and keeps the previous file; SIGTERM and SIGHUP while a prompt is open
# still autosave; an autosave that cannot be written says so; the worker
# failing (mmap refused under ulimit -v) is one message and the terminal
# comes back sane.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
plan 24

san=
ldd "$MEMTOP" 2>/dev/null | grep -q 'lib[at]san' && san="ulimit -v and ASan's shadow memory do not mix"
measured='measured 40 cells'

# ---- SIGTERM, SIGHUP with a prompt open: the measurement is autosaved --------
for sig in TERM HUP; do
	rm -rf "$TMP/xdg"
	tstart 100 30 -- --quick --start
	wok "SIG$sig: a quick mountain is measured" "$measured" 90
	tkeys w
	wok "SIG$sig: w opens the Save as prompt" 'Save as: ' 5
	kill -"$sig" "$(tpid)"
	wok "SIG$sig with the prompt open: memtop exits 1" 'memtop-exit=1' 10
	f=$(ls "$TMP"/xdg/memtop/*.json 2>/dev/null | head -n 1)
	ok "SIG$sig with the prompt open: the mountain is autosaved and reads back" \
		"$MEMTOP" cliffs "${f:-$TMP/xdg/none.json}"
done

# ---- the worker fails: mmap refused under ulimit -v ------------------------------
if [ -z "$san" ]; then
	TPRE="ulimit -v 100000"
	tstart 100 30 -- --quick --idle
	TPRE=
	wok "ulimit -v: the UI starts" 'r measures' 10
	tkeys f
	wok "f opens the knobs" 'Knobs for the next r' 5
	tkeys Down Down Right Right Right Right Enter # largest size 8M -> 128M
	wok "the knobs ask for 16K..128M" 'r measures 14 sizes 16K\.\.128M' 5
	tkeys r
	wok "mmap refused: one message in the status line" \
		'(cannot measure|the measurement failed): cannot allocate [0-9]+K for the largest size: Cannot allocate memory' 20
	tkeys q
	wok "... q quits with status 0" 'memtop-exit=0' 10
	wok "... the terminal is back in echo and canonical mode" ' echo .* icanon |icanon .* echo ' 5
else
	for d in "ulimit -v: the UI starts" "f opens the knobs" "the knobs ask for 16K..128M" \
		"mmap refused: one message in the status line" "... q quits with status 0" \
		"... the terminal is back in echo and canonical mode"; do
		skip "$d" "$san"
	done
fi

# ---- the disk full: w and the autosave ------------------------------------------
MNT=$TMP/mnt
mkdir -p "$MNT"
if mount -t tmpfs -o size=64k,mode=0755 memtop-test "$MNT" 2>/dev/null; then
	trap 'tstop; sleep 0.3; umount "$MNT" 2>/dev/null; rm -rf "$TMP"' EXIT INT TERM
	rm -rf "$TMP/xdg"
	ln -s "$MNT" "$TMP/xdg" # the autosave goes to the small disk too
	tstart 100 30 -- --quick --start
	wok "disk: a quick mountain is measured" "$measured" 90
	tkeys w C-u "$MNT/m.json" Enter
	wok "w on a disk with room saves" "saved $MNT/m.json" 5
	cp "$MNT/m.json" "$TMP/m.before"
	dd if=/dev/zero of="$MNT/fill" bs=4096 2>/dev/null
	tkeys w C-u "$MNT/m.json" Enter
	wok "w on a full disk: the status line says why" \
		"not saved: .*m\.json: (write|fsync|close) failed: No space left on device" 5
	ok "w on a full disk: the previous file is intact" cmp -s "$MNT/m.json" "$TMP/m.before"
	is "w on a full disk: no temp file left" "$(ls "$MNT" | grep -c tmp)" 0
	rm -f "$MNT/fill"
	mount -o remount,ro "$MNT"
	tkeys w C-u "$MNT/m.json" Enter
	wok "w into a read-only folder: the status line says why" \
		"not saved: .*m\.json: cannot create a temporary file beside it: Read-only" 5
	ok "w into a read-only folder: the previous file is intact" cmp -s "$MNT/m.json" "$TMP/m.before"
	mount -o remount,rw "$MNT"
	dd if=/dev/zero of="$MNT/fill" bs=4096 2>/dev/null
	tkeys r
	wok "... measured again (unsaved)" "$measured" 90
	kill -TERM "$(tpid)"
	wok "an autosave on a full disk: memtop exits 1 and says nothing was saved" \
		'memtop-exit=1' 10
	unlike "an autosave on a full disk: it does not claim an autosave" "$(tcap)" \
		'opens the autosave'
	umount "$MNT"
else
	why="cannot mount a small tmpfs here (not root)"
	for d in "disk: a quick mountain is measured" "w on a disk with room saves" \
		"w on a full disk: the status line says why" \
		"w on a full disk: the previous file is intact" "w on a full disk: no temp file left" \
		"w into a read-only folder: the status line says why" \
		"w into a read-only folder: the previous file is intact" \
		"... measured again (unsaved)" \
		"an autosave on a full disk: memtop exits 1 and says nothing was saved" \
		"an autosave on a full disk: it does not claim an autosave"; do
		skip "$d" "$why"
	done
fi
