#!/bin/sh
# --plan, --sysfs-root, --topology and --each-kind through the real binary:
# the plan of every experiment on this machine and on recorded ones (text
# and JSON, nothing measured), its refusals (one line, exit 2, nothing
# written), the machine context's XML (tests/testmachine.h's synthetic
# servers are test_plans.c's), and one run a core kind. What this machine
# is never decides a result: its plans are checked against themselves.
. "$TESTLIB"
plan 29
GEN="$TESTDATA/../topo_tree.sh"
sh "$GEN" 2s-smt "$TMP/2s" && sh "$GEN" hybrid "$TMP/hybrid"

# every experiment `memtop run --help` lists (a new one joins by being registered)
EXPS=$(experiments)
for x in $EXPS; do
	"$MEMTOP" run "$x" --plan --quick --json "$TMP/$x.json" >"$TMP/$x.txt" 2>&1 || echo "$x: $?"
done >"$TMP/failed"
is "every experiment plans this machine, exit 0" "$(cat "$TMP/failed")" ""
lines "... each says nothing was measured" "$(cat "$TMP"/*.txt)" '^# nothing measured \(--plan\)$' \
	"$(printf '%s\n' $EXPS | grep -c .)"
is "... each plan names its experiment" \
	"$(for x in $EXPS; do "$JSONQ" "$TMP/$x.json" experiment; done | tr '\n' ' ')" \
	"$(printf '%s ' $EXPS)"
like "... the machine in the plan: its CPUs" "$("$JSONQ" "$TMP/bandwidth.json" machine.cpus)" '^[0-9]+$'
is "a latency plan's worker is one of the machine's CPUs" \
	"$("$JSONQ" "$TMP/latency.json" 'threads[0].cpus[0]')" "$("$JSONQ" "$TMP/latency.json" worker_cpu)"

# a recorded machine: planned, never measured (--plan implied)
status "the 2-socket tree: bandwidth's plan, exit 0" 0 "$MEMTOP" run bandwidth --sysfs-root "$TMP/2s" \
	--json "$TMP/b2.json"
is "... its threads: 1, one a package, a core, all" \
	"$("$JSONQ" "$TMP/b2.json" 'threads[*].count' | tr '\n' ' ')" "1 2 4 8 16 "
is "... two threads on the two packages" "$("$JSONQ" "$TMP/b2.json" 'threads[1].cpus[*]' | tr '\n' ' ')" \
	"0 4 "
is "... the L3 row each group's, the L2 each thread's" \
	"$("$JSONQ" "$TMP/b2.json" 'sizes[2].each_group' 'sizes[1].each_thread' | tr '\n' ' ')" "true true "
is "... DRAM at 4 x both L3s (16M each), raised to 256M" \
	"$("$JSONQ" "$TMP/b2.json" 'sizes[3].level' 'sizes[3].bytes' | tr '\n' ' ')" "DRAM 268435456 "
# more threads than its 16 CPUs: said, as falseshare's plan says it
status "... 32 threads on its 16 CPUs, exit 0" 0 "$MEMTOP" run bandwidth --sysfs-root "$TMP/2s" \
	--threads 1,32
lines "... oversubscribed, said" "$(cat "$TMP/out")" \
	'^# 32 threads on 16 CPUs: oversubscribed, they take turns on them \(marked \(!\) in the table\)$' 1
status "the hybrid tree: cores on its E kind only" 0 "$MEMTOP" run cores --sysfs-root "$TMP/hybrid" \
	--cpu-kind e --json "$TMP/ce.json"
is "... the E cores' CPUs" "$("$JSONQ" "$TMP/ce.json" 'threads[0].cpus[*]' | tr '\n' ' ')" "4 5 6 7 "
status "a kind that machine lacks: exit 2" 2 "$MEMTOP" run cores --sysfs-root "$TMP/2s" --cpu-kind e
is "... one line naming its kinds" "$(cat "$TMP/err")" \
	"memtop: run cores: --cpu-kind: expected a core kind of that machine (one: see memtop topo), got 'e'"

# refusals: one line, exit 2, nothing written
status "--plan with --csv: exit 2" 2 "$MEMTOP" run latency --plan --csv
is "... one line" "$(cat "$TMP/err")" "memtop: run latency: --csv: a plan has no table (--json gives it as JSON)"
head -c 2000 "$TESTDATA/topo-hybrid.xml" >"$TMP/cut.xml"
status "a truncated hwloc XML: exit 2" 2 "$MEMTOP" run numa --topology "$TMP/cut.xml" --json "$TMP/n.json"
is "... one line naming it" "$(cat "$TMP/err")" \
	"memtop: run numa: --topology: $TMP/cut.xml: hwloc cannot read it as a topology (garbled or truncated XML)"
ok "... nothing written" test ! -e "$TMP/n.json"
printf '{"not": "a topology"}\n' >"$TMP/j.xml"
status "a file that is no hwloc XML: exit 2" 2 "$MEMTOP" run mountain --topology "$TMP/j.xml"
like "... one line saying so" "$(cat "$TMP/err")" "j.xml: not an hwloc XML"
status "--sysfs-root and --topology: exit 2" 2 "$MEMTOP" run lists --sysfs-root "$TMP/2s" \
	--topology "$TESTDATA/topo-hybrid.xml"
status "--json /dev/null (a device, which a rename would replace): exit 2" 2 \
	"$MEMTOP" run algae --json /dev/null
ok "... /dev/null is still a device" test -c /dev/null

# --each-kind: one run a core kind, one result a line (this machine as a
# P/E laptop's XML describes it: its CPUs of each kind this process has)
HWLOC_XMLFILE="$TESTDATA/topo-hybrid.xml" "$MEMTOP" run latency --quick --max-size 64K \
	--each-kind --json "$TMP/k.jsonl" >"$TMP/out" 2>&1
is "--each-kind on a P/E machine: exit 0" "$?" 0
like "... the P kind said" "$(cat "$TMP/out")" '^# --each-kind: core kind P$'
like "... and the E kind" "$(cat "$TMP/out")" '^# --each-kind: core kind E$'
