#!/bin/sh
# Core kinds in the terminal UI, on a recorded hybrid machine (hwloc reads
# tests/data/topo-hybrid.xml, written by lstopo from tests/topo_tree.sh's
# hybrid tree: P cores on CPUs 0-3, E cores on 4-7) with memtop allowed on
# CPU 0 alone (taskset), whatever this machine is: the first look runs on
# the fastest kind and says so; K finds no other kind memtop may use.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
plan 3
if ! command -v taskset >/dev/null 2>&1; then
	for d in "first look on P" "says the fastest" "K: no other kind"; do skip "$d" "no taskset"; done
	exit 0
fi
printf '#!/bin/sh\nexec taskset -c 0 "%s" "$@"\n' "$MEMTOP" >"$TMP/memtop0"
chmod +x "$TMP/memtop0"
MEMTOP=$TMP/memtop0
tstart 80 24 HWLOC_XMLFILE="$TESTDATA/topo-hybrid.xml" --
wok "the first look runs on core kind P" 'a first look on core kind P, the fastest' 60
like "and says how to change it" "$(tcap)" 'the fastest \(K: another\): 40 cells in'
tkeys K
wok "K: E has no CPU memtop may use here" 'no other core kind has a CPU memtop may use' 10
tkeys q
