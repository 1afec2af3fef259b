#!/bin/sh
# The Mountain tab measuring through tmux: a quick mountain fills the
# heatmap, the Caches panel shows the same sizes as `memtop info`, quitting
# with unsaved results asks, SIGTERM during a measurement leaves an autosave
# that `memtop view --autosave` opens. No cache size of this machine is
# hard-coded: the expected values come from `memtop info` at test time.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
plan 25

# the sysfs sizes as `memtop info` prints them ("48K", "2M", ...)
"$MEMTOP" info >"$TMP/info.txt" 2>/dev/null
sysfs_size() { sed -n '/^sysfs/,/^$/p' "$TMP/info.txt" | awk -v n="$1" '$1 == n {print $4; exit}'; }
l1=$(sysfs_size L1d); l2=$(sysfs_size L2); l3=$(sysfs_size L3)

tstart 100 30 -- --quick --start
wok "--start begins at once: the status line counts cells" '[0-9]+/40 cells|measured 40 cells' 10
wok "a quick mountain fills the heatmap" 'measured 40 cells' 60
screen=$(tcap)
like "the last row (8M) has a value in each of the 4 strides" "$screen" '^ +8M( +[0-9]+){4}( |$)'
like "the legend shows the log scale" "$screen" 'slow .* log scale'
if [ -n "$l1" ] && [ -n "$l2" ] && [ -n "$l3" ]; then
	like "the Caches panel shows sysfs L1d $l1, L2 $l2, L3 $l3 as memtop info does" \
		"$screen" "sysfs +$l1[=~?x!]{0,3} +$l2[=~?x!]{0,3} +$l3[=~?x!]{0,3}"
else
	pass "# SKIP memtop info lists no sysfs L1d/L2/L3 here"
fi
like "the Caches panel marks values against the mountain" "$screen" '= match  ~ one step off'
like "... and says what ! and x mean" "$screen" '! at another size  x not seen'
# the cursor starts on stride 8; moving it changes both slices
like "the size slice is at the cursor's stride" "$screen" 'size slice at stride 8'
tkeys h j
wok "h and j move the cursor; both slices follow" 'size slice at stride 4' 5
like "the stride slice follows the size" "$(tcap)" 'stride slice at size 32K'
# quitting with unsaved results asks; n quits without saving
tkeys q
wok "q with unsaved results asks first" 'Save before quitting\?' 5
tkeys n
wok "n quits with status 0" 'memtop-exit=0' 5

# SIGTERM during a measurement: an autosave that memtop view opens
tstart 80 24 -- --start
wok "a full measurement starts" '[1-9][0-9]*/[0-9]+ cells' 30
pid=$(tpid)
kill -TERM "$pid" 2>/dev/null
if twait 'memtop-exit=1' 10 && ls "$TMP"/xdg/memtop/memtop-*.json >/dev/null 2>&1; then
	pass "SIGTERM saves an autosave under \$XDG_DATA_HOME/memtop and exits 1"
else
	fail "SIGTERM saves an autosave under \$XDG_DATA_HOME/memtop and exits 1" "$(tcap)" \
		"$(ls -R "$TMP/xdg" 2>&1)"
fi
tstart 80 24 -- view --autosave
wok "memtop view --autosave opens it (the machine, then the autosave's name)" '\(memtop-[^ /]*\.json\)$'
tstart 100 30 -- view
wok "plain memtop view shows the reference and points at the autosave" \
	'autosave is waiting: memtop view --autosave opens memtop-[^ ]*\.json'

# the seed's M4 Max in view: the full 256K row (strides 1..15) in the stride
# slice, the passport (P) and the Haswell / M4 Max card beside the reference
tstart 120 40 -- view
wok "view opens the bundled reference" 'Apple M4 Max .*\(m4max\.json\)' 5
tkeys j j j j
wok "at 256K the stride slice is the file's full row" 'stride slice at size 256K, full row' 5
like "its stride 12 outlier (28225 MB/s)" "$(tcap)" ' 12 [^ ]+ +28\.2G'
tkeys P
wok "P shows the passport: peak/floor" 'peak/floor   9\.63' 5
like "the passport's line row is the full 256K row, knee at stride 8" "$(tcap)" \
	'line row   256K full row \(strides 1\.\.15\)'
cp "$MEMTOP_DATA/m4max.json" "$TMP/copy.json"
tstart 80 24 -- view "$TMP/copy.json" "$MEMTOP_DATA/m4max.json"
wok "beside the bundled reference: the Haswell / M4 Max passport card" \
	'passport +Haswell +M4 Max' 5
like "the card: peak/floor of both (the book's 15.6, the file's 9.63)" "$(tcap)" \
	'peak/floor 15\.6 +9\.63'

# a latency run of the mountain's machine in the same view: where the two
# disagree, the level line says which level is read from the Latency tab's
# run (the sentences memtop plot writes under the mountain)
tstart 200 50 -- view "$TESTDATA/mountain-quick-xeon-157.json" "$TESTDATA/latency-xeon-vm-l3-16m.json"
wok "the level line: the L1 read from the Latency tab's run" "^L1 read from the Latency tab's run" 5
is "... in whole sentences" "$(tcap | sed -n '/^L1 read from/,+3p' | sed 's/ *│.*//; s/ *$//' | tr '\n' ' ' | sed 's/ $//')" \
	"L1 read from the Latency tab's run: 48 KB; the mountain shows no cliff there; L3 read from the Latency tab's run: 16 MB; the mountain shows no cliff there"
