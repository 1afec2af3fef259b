#!/bin/sh
# q while a run is measuring, in every tab that measures: memtop asks about
# the unsaved cells, n quits, and the run is cancelled and joined: memtop
# ends with status 0 and its terminal restored, within 30 s always and
# within 3 s where timings count (every worker looks at the job between
# chunks and after every try, however short; the frame's loop does not
# wait for the run to finish). The time runs from the key that ends it (q,
# or the n after it) to the pane's stamp when memtop has exited, so tmux's
# and the test's polling are not in it; 3 s is generous on a loaded CI
# machine: bench/stops holds the aim, 1 s. A run too short to be caught
# measuring is skipped, with its reason. CANCEL_TABS picks tabs (default
# all nine).
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
TABS=${CANCEL_TABS:-"1 2 3 4 5 6 7 8 9"}
plan $((3 * $(echo $TABS | wc -w)))

for tab in $TABS; do
	tstart 100 30 -- --idle
	twait '1 Mountain' 10
	tkeys "$tab"
	sleep 0.3
	tkeys r
	sleep 0.3
	tcap | grep -q '(y/n)' && tkeys y # measure again over the first look (one key)
	if ! twait '\] +[0-9]+%' 10; then
		skip "tab $tab: q during its run" "the run ended before it was seen measuring"
		skip "tab $tab: ... ends with status 0" "not caught measuring"
		skip "tab $tab: ... within 3 s" "not caught measuring"
		continue
	fi
	pass "tab $tab: q during its run"
	t0=$(date +%s%N)
	tkeys q
	if twait 'Save before quitting|memtop-exit=' 10 && tcap | grep -q 'Save before quitting'; then
		t0=$(date +%s%N)
		tkeys n
	fi
	wok "tab $tab: ... ends with status 0 (within 30 s)" 'memtop-exit=0' 30
	if [ -s "$TMP/memtop-end.ns" ]; then
		ms=$((($(cat "$TMP/memtop-end.ns") - t0) / 1000000))
		timing "tab $tab: ... within 3 s ($ms ms)" test "$ms" -le 3000
	else
		fail "tab $tab: ... within 3 s" "memtop did not end"
	fi
done
