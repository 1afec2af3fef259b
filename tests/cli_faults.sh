#!/bin/sh
# Faults, each with its test: a result file that cannot be saved (the disk
# full, the folder read-only) leaves the previous file intact and no temp
# file behind; the worker failing (mmap refused under ulimit -v) ends the run
# with one line; a JSON file of 100 MB or nested 100000 deep is refused with
# one line, in bounded memory and time. (SIGKILL during a save: test_util;
# the UI's save, autosave and signals: tests/tui_faults.sh.)
. "$TESTLIB"
plan 23

# an ASan build reserves terabytes of shadow memory: ulimit -v stops it dead
san=
ldd "$MEMTOP" 2>/dev/null | grep -q 'lib[at]san' && san="ulimit -v and ASan's shadow memory do not mix"

# ---- files too big or too deep: one line, exit 2, bounded -------------------
truncate -s 100M "$TMP/big.json"
t0=$(date +%s)
status "a 100 MB JSON: exit 2" 2 "$MEMTOP" cliffs "$TMP/big.json"
is "a 100 MB JSON: one line naming it" "$(cat "$TMP/err")" \
	"memtop: $TMP/big.json: larger than 4194304 bytes"
ok "a 100 MB JSON: refused at once (not read)" test $(($(date +%s) - t0)) -lt 10
rm -f "$TMP/big.json"
# through a pipe the size is unknown: read no further than the limit, in
# less memory than the file
if [ -z "$san" ]; then
	( ulimit -v 262144; head -c 100M /dev/zero | "$MEMTOP" view /dev/stdin ) >"$TMP/out" 2>"$TMP/err"
	is "100 MB through a pipe, in 256 MB of address space: exit 2" "$?" 2
	is "... one line" "$(cat "$TMP/err")" "memtop: view: /dev/stdin: larger than 4194304 bytes"
else
	skip "100 MB through a pipe, in 256 MB of address space: exit 2" "$san"
	skip "... one line" "$san"
fi
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; for (i = 0; i < 100000; i++) printf "]"; print "" }' \
	>"$TMP/deep.json"
for cmd in cliffs view "info --from" "compare $TMP/deep.json"; do
	# shellcheck disable=SC2086
	status "nested 100000 deep: $cmd exits 2" 2 "$MEMTOP" $cmd "$TMP/deep.json"
	like "nested 100000 deep: $cmd says so in one line" "$(cat "$TMP/err")" \
		"^memtop: (view: |info: )?$TMP/deep.json: nested deeper than 100 levels at line 1 \(not a memtop result\)$"
done

# ---- the worker fails: mmap refused -------------------------------------------
if [ -z "$san" ]; then
	( ulimit -v 100000; exec "$MEMTOP" run mountain --sizes 64M:128M --strides 1 ) >"$TMP/out" 2>"$TMP/err"
	is "mmap refused (ulimit -v): the mountain run exits 1" "$?" 1
	like "... with one line saying what it could not allocate" "$(cat "$TMP/err")" \
		'^memtop: run mountain: cannot allocate [0-9]+K for the largest size: Cannot allocate memory$'
else
	skip "mmap refused (ulimit -v): the mountain run exits 1" "$san"
	skip "... with one line saying what it could not allocate" "$san"
fi

# ---- the disk full, the folder read-only: a small tmpfs of our own ------------
MNT=$TMP/mnt
mkdir -p "$MNT"
if mount -t tmpfs -o size=64k,mode=0755 memtop-test "$MNT" 2>/dev/null; then
	trap 'umount "$MNT" 2>/dev/null; rm -rf "$TMP"' EXIT
	status "tmpfs: a first result saves" 0 "$MEMTOP" run algae --json "$MNT/a.json"
	cp "$MNT/a.json" "$TMP/a.before"
	dd if=/dev/zero of="$MNT/fill" bs=4096 2>/dev/null
	status "disk full: --json exits 1" 1 "$MEMTOP" run algae --json "$MNT/a.json"
	like "disk full: one line naming the file and the reason" "$(cat "$TMP/err")" \
		"^memtop: run algae: $MNT/a.json: (write|fsync|close) failed: No space left on device$"
	ok "disk full: the previous file is intact" cmp -s "$MNT/a.json" "$TMP/a.before"
	is "disk full: no temp file left" "$(ls "$MNT" | grep -c tmp)" 0
	rm -f "$MNT/fill"
	mount -o remount,ro "$MNT"
	status "read-only folder: --json refused before measuring, exit 2" 2 \
		"$MEMTOP" run algae --json "$MNT/a.json"
	like "read-only folder: one line naming the path" "$(cat "$TMP/err")" \
		"^memtop: run algae: --json: expected a file in a writable folder, got '$MNT/a.json' \(.*Read-only file system\)$"
	ok "read-only folder: the previous file is intact" cmp -s "$MNT/a.json" "$TMP/a.before"
	umount "$MNT"
else
	why="cannot mount a small tmpfs here (not root)"
	for d in "tmpfs: a first result saves" "disk full: --json exits 1" \
		"disk full: one line naming the file and the reason" \
		"disk full: the previous file is intact" "disk full: no temp file left" \
		"read-only folder: --json refused before measuring, exit 2" \
		"read-only folder: one line naming the path" \
		"read-only folder: the previous file is intact"; do
		skip "$d" "$why"
	done
fi
