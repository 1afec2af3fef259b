#!/bin/sh
# The Topology tab (tab 10, key 0) through tmux: hwloc's recorded 2 x 64-core
# Kunpeng, 4-socket 8-node Opteron and hybrid Core i7 (their memtop topo
# --json, tests/data/topo-*.json) in memtop view at 80x24 and 200x60 (both
# packages at 80 columns, every core at 200, a box the cursor opens, alike
# cores folded, the conditions, ASCII on a vt100), and this machine in
# memtop: its box, and L, N and C measuring the box under the cursor in the
# Latency, NUMA and Cores tabs, whose figures then show on the boxes; the
# Cores tab's c prompt takes domains; memtop view of a result shows the
# machine it was measured on. No size or timing of this machine is assumed.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
plan 38

kp=$TESTDATA/topo-kunpeng920-2x64.json
op=$TESTDATA/topo-opteron-4s8n.json
hy=$TESTDATA/topo-i7-1370p-hybrid.json

# count REGEX: the lines of the screen that match
count() { tcap | grep -cE -- "$1"; }

# ---- a 2 x 64-core machine at 80x24 ---------------------------------------------
tstart 80 24 -- view "$kp"
tkeys 0
wok "view of a 2 x 64 topology: tab 0 says whose machine" \
	'topo-kunpeng920-2x64\.json \(memtop topo\): 2 packages' 10
like "... both packages side by side at 80 columns" "$(tcap)" 'Package 0.*Package 1'
is "... its four NUMA nodes, each with its memory and L3" \
	"$(count 'NUMA node [0-3], 12[56]\.[0-9] GB, L3 32 MB')" 2
like "... each node's first cores, the rest folded into one line" "$(tcap)" \
	'Core 0: CPU 0 .* Core 64: CPU 64'
like "... that says how many" "$(tcap)" 'x 30 more cores: CPUs 2-31'
like "... the cursor's box in words under them" "$(tcap)" 'CPUs 0-127 \(128 CPUs, 128 cores\)'
tkeys Down Down
wok "Down moves the cursor to node 0" 'CPUs 0-31 \(32 CPUs, 32 cores\)' 5
tkeys Enter
wok "Enter folds it: what is inside, in words" '32 cores, 32 CPUs' 5
tkeys Enter
wok "Enter opens it again" 'x 30 more cores: CPUs 2-31' 5
tkeys Down Down Down Enter
wok "Enter on the folded cores shows them, scrolled to the cursor" 'Core 13' 5
tkeys L
wok "L in memtop view: nothing measured, said" 'memtop view does not measure' 5
tkeys c
wok "c lists the conditions in place of the boxes" 'Conditions \(what moves memory figures\)' 5
like "... the recorded firmware among them" "$(tcap)" 'firmware: Huawei'
tkeys c
wok "c again: the boxes" 'Package 0' 5
tkeys '?'
twait '^  Everywhere' 5
tkeys End # the tab's keys end the help: a status line more and they scroll
wok "? lists the tab's keys" 'measure the latency on the box' 5
tkeys Escape q

# ---- the same at 200x60: every core --------------------------------------------
tstart 200 60 -- view "$kp"
tkeys 0
wok "at 200x60 every core is a box: core 0" 'Core 0' 10
like "... and core 127" "$(tcap)" 'Core 127'
unlike "... none folded" "$(tcap)" 'more cores'
like "... the conditions beside the boxes" "$(tcap)" 'Conditions \(what moves memory figures\)'
tkeys q

# ---- 8 NUMA nodes; a hybrid; ASCII --------------------------------------------
tstart 80 24 -- view "$op"
tkeys 0
wok "4 Opteron packages of 2 nodes at 80x24" 'Package 3' 10
is "... its 8 NUMA nodes drawn" "$(tcap | grep -oE 'NUMA node [0-7],' | sort -u | wc -l | tr -d ' ')" 8
tkeys q
tstart 120 40 -- view "$hy"
tkeys 0
wok "a hybrid Core i7: P cores with their SMT siblings" 'Core 0 P' 10
like "... E cores in clusters of four under their L2" "$(tcap)" 'L2 2 MB'
like "... the E cores by type" "$(tcap)" 'Core 13 E'
tkeys q
tstart 80 24 TERM=vt100 LANG=C LC_ALL=C -- view "$kp"
tkeys 0
wok "LANG=C: the boxes in ASCII" '\+-Machine-' 10
if printf '%s' "$(tcap)" | LC_ALL=C grep -q '[^ -~]'; then
	fail "... and nothing but ASCII" "$(tcap | LC_ALL=C grep -n '[^ -~]' | head -3)"
else
	pass "... and nothing but ASCII"
fi
tkeys q

# ---- this machine: the keys measure the box under the cursor -------------------
tstart 80 24 -- --idle --quick
tkeys 0
wok "memtop: tab 0 shows this machine" '^ this machine: [0-9]+ packages?' 10
like "... in a box of its own" "$(tcap)" 'Machine'
tkeys L
wok "L on the machine's box: the Latency tab measures on its first CPU" \
	'measuring on CPU [0-9]+|done in [0-9]+ s' 10
wok "... the run ends" 'done in [0-9]+ s' 120
tkeys 0
wok "... its levels on this machine's boxes" '(L1|L2|memory) .*\(latency' 10
tkeys N
wok "N: the NUMA tab measures the machine's node" 'done: [0-9]+ node pairs? measured' 180
tkeys 0
wok "... its local latency on the node's box" 'local [0-9]+ ns' 10
allowed=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status 2>/dev/null)
case $allowed in
*[-,]*)
	tkeys Home C
	wok "C on the machine's box: core to core among its CPUs" 'done: [0-9]+ pairs? measured' 180
	tkeys 0
	wok "... the median of a relation on the box it stands for" 'c2c [0-9.]+ ns' 10
	;;
*)
	skip "C on the machine's box" "one CPU allowed"
	skip "... the median of a relation" "one CPU allowed"
	;;
esac
tkeys 8 c S4096 Enter
wok "the Cores tab's c takes domains: one that is not here is refused, said" \
	'CPUs: S4096: this machine (has|lists)' 5
tkeys q n

# ---- a result's machine ----------------------------------------------------------
"$MEMTOP" run latency --quick --json "$TMP/lat.json" >/dev/null 2>&1
tstart 80 24 -- view "$TMP/lat.json"
tkeys 0
wok "view of a latency run: tab 0 shows the machine it was measured on" \
	'the machine of a latency run \(.*lat\.json\)' 10
wok "... with its levels on the boxes" '\(latency' 5
tkeys q
