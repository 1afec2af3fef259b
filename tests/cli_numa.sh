#!/bin/sh
# memtop run numa: a quick real run on node 0 (every machine has one): the
# 1 x 1 matrices through the same code a many-node machine uses, finite
# positive figures, the pages counted on node 0, the JSON (the issue's
# fields), CSV, --json -, and bad input (a node that does not exist: exit
# 2 naming it and the nodes there are; nothing written). No cache size or
# node count of this machine is assumed. The plan of many-node machines
# comes from synthetic /sys trees (tests/topo_tree.sh), exactly.
. "$TESTLIB"
plan 39

run() { "$MEMTOP" run numa "$@" 2>&1; }
q() { "$JSONQ" "$@"; }
positive() { awk -v x="$1" 'BEGIN { exit !(x + 0 > 0 && x != "null") }'; }

out=$(run --quick --nodes 0 --json "$TMP/n.json")
is "numa on node 0 exits 0" "$?" 0
# the chase on 2 MB pages too where THP is in always or madvise mode, as
# the run itself records it
case $(q "$TMP/n.json" thp) in always | madvise) huge=1 ;; *) huge=0 ;; esac
like "the latency matrix, 1 x 1" "$out" '^       0 +[0-9]+\.[0-9]$'
lines "three matrices (four with 2 MB pages), each with node 0's row" "$out" \
	'^       0 +[0-9]+\.[0-9]$' $((3 + huge))
like "the pair's line: latency, read and triad" "$out" \
	'^CPU node 0, memory node 0: latency [0-9.]+ ns on 4 KB pages \(CPU [0-9]+(, [0-9.]+ ns on 2 MB pages)?\), read [0-9.]+ GB/s, triad [0-9.]+ GB/s \([0-9]+ threads?\); '
like "one node: said in one line" "$out" '^# one node: local memory only, nothing to compare it with$'
like "the size and why" "$out" '^# size 32M: --quick'
like "the time announced, priced from its steps timed here" "$out" \
	'^# about [0-9]+ s \(its steps timed small here: a page [0-9.]+ us, .* of a CPU\)$'
like "numa_balancing, THP and the page size are said" "$out" \
	'^# memory: bound to the memory node .*[0-9]+-byte pages .*THP [a-z]+\); kernel.numa_balancing (on|off|absent)$'
is "JSON: nodes" "$(q "$TMP/n.json" nodes)" "[0]"
ok "JSON: latency finite and positive" positive "$(q "$TMP/n.json" 'latency_ns[0][0]')"
ok "JSON: read bandwidth positive" positive "$(q "$TMP/n.json" 'bandwidth_gbs.read[0][0]')"
ok "JSON: triad bandwidth positive" positive "$(q "$TMP/n.json" 'bandwidth_gbs.triad[0][0]')"
is "JSON: three runs (four with 2 MB pages), the bandwidth ones checked" \
	"$(q "$TMP/n.json" 'runs#' 'runs[1].checked' 'runs[2].checked' | tr '\n' ' ')" \
	"$((3 + huge)) true true "
like "JSON: numa_balancing recorded" "$(q "$TMP/n.json" numa_balancing)" '^(true|false|null)$'
if printf '%s\n' "$out" | grep -q 'pages not counted here'; then
	skip "pages on node 0: 100 %" "this system cannot count pages by node"
	skip "JSON: placement 1.0" "this system cannot count pages by node"
else
	like "pages on node 0: 100 %" "$out" 'pages on node 0: 100 %$'
	is "JSON: placement 1.0" "$(q "$TMP/n.json" 'placement[0].pages_on_node' 'runs[0].pages_absent')" \
		"$(printf '1\n0')"
fi

out=$("$MEMTOP" run numa --quick --nodes 0 --csv 2>/dev/null)
like "CSV: a header and one row" "$(printf '%s\n' "$out" | tr '\n' '|')" \
	'^cpu_node,memory_node,latency_ns,read_gbs,triad_gbs,pages_on_node,latency_huge_ns\|0,0,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]*,[0-9.]*\|$'

"$MEMTOP" run numa --quick --nodes 0 --json - >"$TMP/stdout.json" 2>/dev/null
is "--json -: stdout is the result alone" "$(q "$TMP/stdout.json" experiment)" numa

status "a node that does not exist: exit 2" 2 "$MEMTOP" run numa --quick --nodes 0,99999 --json "$TMP/bad.json"
like "... one line naming it and the nodes there are" "$(cat "$TMP/err")" \
	'^memtop: run numa: --nodes: no node 99999 \(nodes here: [0-9]+(, [0-9]+)*\)$'
is "... nothing written" "$(test -e "$TMP/bad.json" && echo yes || echo no)" no

# compare reads numa results through their kind; a bad one is one line naming the field
"$MEMTOP" compare "$TMP/n.json" "$TMP/stdout.json" >"$TMP/cmp" 2>&1
is "compare of two numa runs exits 0" "$?" 0
like "... a table of node pairs, B's ratio to A" "$(cat "$TMP/cmp")" '^ +0>0 +[0-9.]+ +[0-9.]+$'
# a --quick run of 32M against a full one of 4064M (the run's file, its size
# and --quick set): the sizes named first, before any setting; the node
# pairs' column headed for what it holds
sed 's/"size":[[:space:]]*[0-9]*/"size": 33554432/; s/"quick":[[:space:]]*[a-z]*/"quick": true/' \
	"$TMP/n.json" >"$TMP/q.json"
sed 's/"size":[[:space:]]*[0-9]*/"size": 4261412864/; s/"quick":[[:space:]]*[a-z]*/"quick": false/' \
	"$TMP/n.json" >"$TMP/full.json"
"$MEMTOP" compare "$TMP/q.json" "$TMP/full.json" >"$TMP/cmp" 2>&1
is "compare --quick 32M against 4064M: the sizes first, the node pairs' column headed so" \
	"$(sed -n '/^method/,/^$/p' "$TMP/cmp" | tr '\n' '|')$(grep -c '^cpu>mem ' "$TMP/cmp") $(grep -c '^ *size ' "$TMP/cmp")" \
	"method (how each run measured, before any setting):|  B measured 4064M, A 32M (--quick)||4 0"
printf '{"experiment":"numa","nodes":[0],"latency_ns":[[1,2]],"bandwidth_gbs":{}}' >"$TMP/bad.json"
status "a ragged matrix: exit 2" 2 "$MEMTOP" compare "$TMP/n.json" "$TMP/bad.json"
like "... one line naming the file and the field" "$(cat "$TMP/err")" \
	'bad.json: latency_ns row 0: expected 1 values$'

# the plan for recorded machines: the nodes from core/topo, the pairs, the size
GEN="$TESTDATA/../topo_tree.sh"
sh "$GEN" 2s-smt "$TMP/2s" && sh "$GEN" epyc "$TMP/epyc"
out=$("$MEMTOP" run numa --sysfs-root "$TMP/2s" 2>&1)
is "2 sockets: the plan exits 0" "$?" 0
is "... its two nodes, their CPUs and memory" "$(printf '%s\n' "$out" | grep '^#   node ')" \
	"$(printf '#   node 0: 16.0 GB, CPUs 0-3,8-11\n#   node 1: 16.0 GB, CPUs 4-7,12-15')"
like "... 4 x the L3 a node's CPUs reach, at least 256M" "$out" \
	'^#   DRAM +256M in all: .*4 x the L3 16M \(sysfs, hwloc\), at least 256M$'
like "... four node pairs" "$out" '^# node pairs \(CPU node > memory node\): 4: 0>0 0>1 1>0 1>1$'
out=$("$MEMTOP" run numa --sysfs-root "$TMP/epyc" --nodes 1,0 2>&1)
like "EPYC-like, --nodes 1,0: in that order" "$out" '^# node pairs \(CPU node > memory node\): 4: 1>1 1>0 0>1 0>0$'
status "a node the recorded machine lacks: exit 2" 2 "$MEMTOP" run numa --sysfs-root "$TMP/2s" --nodes 2
is "... one line naming it and the nodes there are" "$(cat "$TMP/err")" \
	"memtop: run numa: --nodes: no node 2 (nodes here: 0, 1)"

# a live kernel under qemu with a memory-only node (tests/data/topo-qemu-A.xml)
Q="$TESTDATA/topo-qemu-A.xml"
status "the memory-only node alone: exit 2" 2 "$MEMTOP" run numa --topology "$Q" --nodes 2
is "... it has no CPUs of its own, in one line" "$(cat "$TMP/err")" \
	"memtop: run numa: --nodes: node 2 has no CPUs of its own (memory only)"
out=$("$MEMTOP" run numa --topology "$Q" 2>&1)
like "its plan: the memory-only node a column, no row" "$out" \
	'^# node pairs \(CPU node > memory node\): 6: 0>0 0>1 0>2 1>0 1>1 1>2$'
like "... node 2 without CPUs of its own in the plan" "$out" \
	'^#   node 2: 2\.0 GB, no CPUs of its own \(memory only\)$'
# bandwidth's thread steps count the nodes with CPUs: no step of 3
is "bandwidth's steps: 1, a package or a CPU node (2), a core (4), all (8)" \
	"$("$MEMTOP" run bandwidth --topology "$Q" --json - 2>/dev/null | "$JSONQ" /dev/stdin 'threads[*].count' | tr '\n' ' ')" \
	"1 2 4 8 "
is "... each step spread over the packages: 0, then 0 and 4" \
	"$("$MEMTOP" run bandwidth --topology "$Q" --json - 2>/dev/null | "$JSONQ" /dev/stdin 'threads[0].cpus' 'threads[1].cpus' | tr '\n' ' ')" \
	"[0] [0,4] "

