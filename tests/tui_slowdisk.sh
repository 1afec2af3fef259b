#!/bin/sh
# A save on a disk that does not answer (a frozen file system: fsfreeze on
# a small ext4 image, as a stalled network home or a busy drive would
# hold a write) does not hold the UI: the save prompt's answer is written
# off the UI thread, so while the write waits the help opens and closes,
# and the file is not there yet; once the disk is back, the status line
# says "saved" and the file reads back. Quitting while a save is being
# written waits for it (here: the disk comes back a second later), then
# exits 0 with the file written. Root only (a loop mount and fsfreeze);
# skipped with the reason elsewhere.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
plan 9

measured='measured 40 cells'
MNT=$TMP/mnt
mkdir -p "$MNT"
why=
if ! command -v fsfreeze >/dev/null 2>&1 || ! command -v mkfs.ext4 >/dev/null 2>&1; then
	why="no fsfreeze or mkfs.ext4 here"
elif ! truncate -s 16M "$TMP/disk.img" || ! mkfs.ext4 -q -F "$TMP/disk.img" >/dev/null 2>&1 ||
	! mount -o loop "$TMP/disk.img" "$MNT" 2>/dev/null; then
	why="cannot loop-mount a small ext4 image here (not root)"
fi
if [ -n "$why" ]; then
	for d in "a quick mountain is measured" "the save's answer is taken while the disk is frozen" \
		"the help opens while the save waits for the disk" "the file is not there while the disk is frozen" \
		"the help closes while the save waits" "the disk back: the status line says saved" \
		"the saved file reads back" "q while a save waits: memtop waits for it and exits 0" \
		"q while a save waits: the file is written"; do
		skip "$d" "$why"
	done
	exit 0
fi
# whatever happens, the disk is thawed (a frozen mount cannot be unmounted)
trap 'fsfreeze -u "$MNT" 2>/dev/null; tstop; sleep 0.3; umount "$MNT" 2>/dev/null; rm -rf "$TMP"' EXIT INT TERM

tstart 100 30 -- --quick --start
wok "a quick mountain is measured" "$measured" 90
fsfreeze -f "$MNT"
tkeys w
twait 'Save as: ' 5
tkeys C-u "$MNT/m.json" Enter
wok "the save's answer is taken while the disk is frozen" "saving $MNT/m.json" 5
tkeys '?'
wok "the help opens while the save waits for the disk" '^  Everywhere' 10
ok "the file is not there while the disk is frozen" test ! -e "$MNT/m.json"
tkeys Escape
n=100 # the help gone: up to 10 s
while [ "$n" -gt 0 ] && tcap | grep -Eq '^  Everywhere'; do sleep 0.1; n=$((n - 1)); done
ok "the help closes while the save waits" test "$n" -gt 0 -a ! -e "$MNT/m.json"
fsfreeze -u "$MNT"
wok "the disk back: the status line says saved" "saved $MNT/m.json" 10
ok "the saved file reads back" "$MEMTOP" cliffs "$MNT/m.json"

fsfreeze -f "$MNT"
tkeys w
twait 'Save as: ' 5
tkeys C-u "$MNT/q.json" Enter
twait "saving $MNT/q.json" 5
tkeys q
sleep 1
fsfreeze -u "$MNT"
wok "q while a save waits: memtop waits for it and exits 0" 'memtop-exit=0' 15
ok "q while a save waits: the file is written" "$MEMTOP" cliffs "$MNT/q.json"
