#!/bin/sh
# memtop topo through the real binary on synthetic /sys trees
# (tests/topo_tree.sh): the folded summary, the JSON shape, the refusals of
# a missing or garbled tree (exit 2, one line, nothing written); then, when
# hwloc's recorded machines are at hand ($MEMTOP_HWLOC_TREES: the folder
# tests/hwloc/linux of a clone of https://github.com/open-mpi/hwloc, its
# NAME.tar.bz2 files), their counts exactly as hwloc's own .console/.xml
# files give them.
. "$TESTLIB"
plan 77
GEN="$TESTDATA/../topo_tree.sh"
for s in small 2s-smt epyc hybrid biglittle garbled holey; do
	sh "$GEN" "$s" "$TMP/$s" || echo "# topo_tree.sh $s failed"
done

status "--help exits 0" 0 "$MEMTOP" topo --help
like "the help names --sysfs-root" "$(cat "$TMP/out")" '--sysfs-root DIR'

status "the 2-socket tree exits 0" 0 "$MEMTOP" topo --sysfs-root "$TMP/2s-smt"
out=$(cat "$TMP/out")
is "its summary" "$(echo "$out" | sed -n 2p)" \
	"2 packages, 2 NUMA nodes, 2 L3 groups of 4 cores (16 MB each), 8 cores, 16 CPUs; core kind: one"
like "its nodes with their CPUs" "$out" '^  NUMA node 1: CPUs 4-7,12-15, 16.0 GB memory$'
like "its SMT siblings" "$out" '^  SMT siblings: 8 cores with 2 CPUs each, e\.g\. 0,8 1,9 2,10 3,11 \.\.\.$'
like "a tree that recorded no DIMMs says so" "$out" '^  memory          not known: not in the recorded tree$'

# its conditions: the 2-socket tree with a server's EDAC, cpufreq, THP and
# DMI files beside it (tests/data/conditions-edac, its cpuinfo left out)
cp -R "$TMP/2s-smt" "$TMP/2s-cond"
(cd "$TESTDATA/conditions-edac" && tar cf - sys proc/sys) | (cd "$TMP/2s-cond" && tar xf -)
status "the 2-socket tree with its conditions" 0 "$MEMTOP" topo --sysfs-root "$TMP/2s-cond" --json "$TMP/c.json"
out=$(cat "$TMP/out")
like "conditions: its DIMMs" "$out" '^  memory          9 DIMMs, 288\.0 GB, Registered-DDR5, 8 channels$'
like "conditions: one node a package" "$out" '^  SNC/NPS         1 node a package \(no SNC, NPS1\)$'
is "conditions in the JSON" "$("$JSONQ" "$TMP/c.json" conditions.dimm_count conditions.governor conditions.thp | tr '\n' ' ')" \
	"9 performance on 3, powersave on 1 always "

status "the EPYC-like tree, JSON on stdout" 0 "$MEMTOP" topo --sysfs-root "$TMP/epyc" --json -
cp "$TMP/out" "$TMP/epyc.json"
like "the text went to stderr" "$(cat "$TMP/err")" '^1 package, 2 NUMA nodes, 4 L3 groups of 4 cores'
is "packages" "$("$JSONQ" "$TMP/epyc.json" packages)" 1
is "dies: the packages where the tree lists no die level (never 0)" \
	"$("$JSONQ" "$TMP/epyc.json" dies)" 1
is "numa_nodes" "$("$JSONQ" "$TMP/epyc.json" numa_nodes)" 2
is "cores" "$("$JSONQ" "$TMP/epyc.json" cores)" 16
is "cpus" "$("$JSONQ" "$TMP/epyc.json" cpus)" 32
is "an L3 group's size" "$("$JSONQ" "$TMP/epyc.json" 'l3_groups[3].size')" 16777216
is "an L3 group's CPUs" "$("$JSONQ" "$TMP/epyc.json" 'l3_groups[1].cpus[4]')" 20
is "node 1's memory" "$("$JSONQ" "$TMP/epyc.json" 'nodes[1].memory')" 34359738368
is "a pair of SMT siblings" "$("$JSONQ" "$TMP/epyc.json" 'smt_siblings[5][1]')" 21

status "the hybrid tree, JSON to a file" 0 "$MEMTOP" topo --sysfs-root "$TMP/hybrid" --json "$TMP/h.json"
like "P and E kinds in the summary" "$(cat "$TMP/out")" \
	'core kinds: P \(2 cores, 4 CPUs\), E \(4 cores, 4 CPUs\)$'
is "the fastest kind first" "$("$JSONQ" "$TMP/h.json" 'core_kinds[0].name')" P
is "E's L2, shared by its cluster" "$("$JSONQ" "$TMP/h.json" 'core_kinds[1].l2')" 2097152
is "E's first CPU" "$("$JSONQ" "$TMP/h.json" 'core_kinds[1].cpus[0]')" 4

status "the big.LITTLE tree exits 0" 0 "$MEMTOP" topo --sysfs-root "$TMP/biglittle"
like "big and LITTLE" "$(cat "$TMP/out")" '^  core kind big \(fastest\): CPUs 4-7, L1d 64K, L2 512K'

status "a garbled tree: exit 2" 2 "$MEMTOP" topo --sysfs-root "$TMP/garbled" --json "$TMP/g.json"
is "one line naming the file" "$(cat "$TMP/err")" \
	"memtop: topo: $TMP/garbled/sys/devices/system/cpu/online: not a CPU list"
ok "nothing written" test ! -e "$TMP/g.json"
status "a missing folder: exit 2" 2 "$MEMTOP" topo --sysfs-root "$TMP/none"
is "one line naming it" "$(cat "$TMP/err")" "memtop: topo: $TMP/none: not a folder"
status "an unknown option: exit 2" 2 "$MEMTOP" topo --sysfs "$TMP"

# where a run ran: its header's "place", as memtop topo places that CPU
status "a quick latency run on CPU 0" 0 "$MEMTOP" run latency --quick --cpu 0 --json "$TMP/l.json"
like "its header says where" "$(cat "$TMP/out")" '^# where: CPU 0: (core kind [A-Za-z-]+, )?(L3 group|NUMA node|package) '
"$MEMTOP" topo --json "$TMP/here.json" >/dev/null 2>&1
is "its place is CPU 0" "$("$JSONQ" "$TMP/l.json" place.cpu)" 0
like "its kind is one of this machine's" "$("$JSONQ" "$TMP/here.json" 'core_kinds[*].name')" \
	"^$("$JSONQ" "$TMP/l.json" place.kind)\$"

# --cpu-kind: this machine's kinds, whatever they are
first=$("$JSONQ" "$TMP/here.json" 'core_kinds[0].name')
names=$("$JSONQ" "$TMP/here.json" 'core_kinds[*].name' | paste -sd, - | sed 's/,/, /g')
status "--cpu-kind with this machine's fastest kind" 0 \
	"$MEMTOP" run latency --quick --cpu-kind "$first" --json "$TMP/k.json"
is "the run's place is of that kind" "$("$JSONQ" "$TMP/k.json" place.kind)" "$first"
status "--cpu-kind naming no kind: exit 2" 2 "$MEMTOP" run latency --quick --cpu-kind nosuch \
	--json "$TMP/nk.json"
is "one line naming the kinds there are" "$(cat "$TMP/err")" \
	"memtop: run latency: --cpu-kind: expected a core kind of this machine ($names: see memtop topo), got 'nosuch'"
ok "nothing written" test ! -e "$TMP/nk.json"
status "--cpu with --cpu-kind: exit 2" 2 "$MEMTOP" run mountain --cpu 0 --cpu-kind "$first"
is "... one line: give one of them (mountain knows --cpu-kind)" "$(cat "$TMP/err")" \
	"memtop: run mountain: --cpu and --cpu-kind: give one of them"
# a recorded hybrid (tests/data/topo-hybrid.xml: P on CPUs 0-3, E on 4-7),
# memtop allowed on CPU 0 alone
if command -v taskset >/dev/null 2>&1; then
	HWLOC_XMLFILE="$TESTDATA/topo-hybrid.xml" taskset -c 0 "$MEMTOP" run latency --quick \
		--cpu-kind e --json "$TMP/e.json" >"$TMP/out" 2>"$TMP/err"
	is "a kind none of whose CPUs is allowed: exit 2" "$?" 2
	is "one line saying so" "$(cat "$TMP/err")" \
		"memtop: run latency: --cpu-kind: expected a kind with a CPU this process may use (E's CPUs are not allowed: see taskset -p), got 'e'"
	HWLOC_XMLFILE="$TESTDATA/topo-hybrid.xml" taskset -c 0 "$MEMTOP" run latency --quick \
		--cpu-kind p --json "$TMP/p.json" >"$TMP/out" 2>&1
	is "--cpu-kind p runs on a P core" "$("$JSONQ" "$TMP/p.json" place.kind) $("$JSONQ" "$TMP/p.json" place.cpu)" "P 0"
else
	for d in "not allowed: exit 2" "one line" "on a P core"; do skip "$d" "no taskset"; done
fi

# hwloc's recorded machines: NAME PACKAGES NODES CORES CPUS L3 KINDS, from
# NAME.console's "depth" and "CPU kind" lines (the GB10's from its .xml)
trees=${MEMTOP_HWLOC_TREES:-}
recorded() {
	name=$1
	want="$2 packages, $3 nodes, $4 cores, $5 CPUs, $6 L3, kinds $7"
	if [ ! -f "$trees/$name.tar.bz2" ]; then
		skip "$name as hwloc records it" "no $name.tar.bz2 in \$MEMTOP_HWLOC_TREES (hwloc's tests/hwloc/linux)"
		return
	fi
	mkdir -p "$TMP/hw/$name" && (cd "$TMP/hw/$name" && bunzip2 -c "$trees/$name.tar.bz2" | tar xf -)
	root=$(ls -d "$TMP/hw/$name"/*/ | head -n 1)
	"$MEMTOP" topo --sysfs-root "$root" --json "$TMP/hw/$name.json" >/dev/null 2>&1
	j=$TMP/hw/$name.json
	got="$("$JSONQ" "$j" packages) packages, $("$JSONQ" "$j" numa_nodes) nodes, $("$JSONQ" "$j" cores) cores, $("$JSONQ" "$j" cpus) CPUs, $("$JSONQ" "$j" 'l3_groups#') L3, kinds $("$JSONQ" "$j" 'core_kinds#')"
	is "$name as hwloc records it" "$got" "$want"
}
recorded 20em64t-hybrid-1p6c2t+2ca4co1t 1 1 14 20 1 2
recorded 32intel64-2p8co2t+8ve 2 2 16 32 2 1
recorded 64amd64-4s2n4ca2co 4 8 64 64 8 1
recorded 128arm-2pa2n8cluster4co 2 4 128 128 4 1
recorded 96em64t-4no4pa3ca2co 16 4 96 96 16 1
recorded 48amd64-4pa2n6c-sparse 4 8 48 48 8 1
recorded fakecpuid1f-64intel64-2p4d2n2c2t 4 16 32 64 8 1
recorded nvidia-dgx-gb10 1 1 20 20 2 2
# kinds NAME WANT: the kinds' names and CPUs, fastest first (hwloc's "CPU
# kind" cpusets: the i7-1370P's 0x00000fff and 0x000ff000; the GB10's
# cpukinds 0x000f83e0 (part 0xd85, X925) and 0x00007c1f (0xd87, A725))
kinds() {
	j=$TMP/hw/$1.json
	if [ ! -f "$j" ]; then
		skip "$1's core kinds" "no $1.tar.bz2 in \$MEMTOP_HWLOC_TREES (hwloc's tests/hwloc/linux)"
		return
	fi
	is "$1's core kinds" "$("$JSONQ" "$j" 'core_kinds[*].name' 'core_kinds[*].cpus' | tr '\n' ' ')" "$2"
}
kinds 20em64t-hybrid-1p6c2t+2ca4co1t \
	"P E [0,1,2,3,4,5,6,7,8,9,10,11] [12,13,14,15,16,17,18,19] "
kinds nvidia-dgx-gb10 "big LITTLE [5,6,7,8,9,15,16,17,18,19] [0,1,2,3,4,10,11,12,13,14] "

# A live kernel under qemu (TCG), recorded by lstopo in the guest
# (tests/data/topo-qemu-*.xml): the SLIT as numactl -H prints it, the
# memory-only node with no CPUs of its own, TCG named from the CPU model.
status "the qemu guest's XML exits 0" 0 "$MEMTOP" topo --topology "$TESTDATA/topo-qemu-A.xml" \
	--json "$TMP/qa.json"
out=$(cat "$TMP/out")
is "its distances, as numactl -H prints them" \
	"$(printf '%s\n' "$out" | sed -n '/^  node distances/,/^       2:/p')" \
	"$(printf '  node distances (the SLIT: relative latency, 10 local):\n    node    0   1   2\n       0:  10  21  31\n       1:  21  10  41\n       2:  31  41  10')"
like "the memory-only node: none of its own, the near ones said" "$out" \
	'^  NUMA node 2: no CPUs of its own \(near CPUs 0-3\), 2\.0 GB memory$'
like "a TCG guest is named TCG, from its CPU" "$out" \
	"^  a VM \\(QEMU \\(TCG\\)\\): DMI says 'QEMU Standard PC \\(Q35 \\+ ICH9, 2009\\)'; the CPU is a 'QEMU TCG CPU version 2\\.5\\+'$"
is "JSON: the distances" "$("$JSONQ" "$TMP/qa.json" distances)" "[[10,21,31],[21,10,41],[31,41,10]]"
is "JSON: the memory-only node's cpus [], its near CPUs apart" \
	"$("$JSONQ" "$TMP/qa.json" 'nodes[2].cpus' 'nodes[2].near_cpus' | tr '\n' ' ')" "[] [0,1,2,3] "
is "JSON: conditions.nodes is numa_nodes; cpu_nodes the nodes with CPUs" \
	"$("$JSONQ" "$TMP/qa.json" numa_nodes conditions.nodes conditions.cpu_nodes | tr '\n' ' ')" "3 3 2 "
is "JSON: nothing offline, nothing unplaced" \
	"$("$JSONQ" "$TMP/qa.json" offline_cpus unplaced_cpus not_placed | tr '\n' '|')" "[]|[]||"

# The same guest with CPU 5 offline: hwloc's tree has cores at two depths
# (the lone thread's core below its L1); read whole, CPU 5 said in one line.
status "an SMT sibling offline: exit 0" 0 "$MEMTOP" topo \
	--topology "$TESTDATA/topo-qemu-offline5.xml" --json "$TMP/qb.json"
out=$(cat "$TMP/out")
is "its summary: 4 cores, 7 CPUs" "$(echo "$out" | sed -n 2p)" \
	"2 packages, 3 NUMA nodes, 2 L3 groups of 2 cores (16 MB each), 4 cores, 7 CPUs; core kind: one"
lines "CPU 5 said in one line" "$out" '^  not placed: CPU 5 offline' 1
like "the tree read around, said" "$out" \
	"^  read around: cores at 2 depths of hwloc's tree \\(4, each read once\\)$"
is "JSON: offline_cpus" "$("$JSONQ" "$TMP/qb.json" offline_cpus)" "[5]"

# Bad input read around: made by hand (tests/data/topo-cores-two-depths.xml),
# cores at two depths, CPU 1 offline and CPU 6 in no core: one line for
# what could not be placed, one for what was read around, nothing dropped.
status "cores at two depths and a CPU in no core: exit 0" 0 "$MEMTOP" topo \
	--topology "$TESTDATA/topo-cores-two-depths.xml" --json "$TMP/qc.json"
out=$(cat "$TMP/out")
is "... the one line of what could not be placed" "$(printf '%s\n' "$out" | grep '^  not placed:')" \
	"  not placed: CPU 1 offline (or outside the cpuset hwloc read it in: an XML does not tell which); CPU 6 in no core or package of hwloc's tree (only what else is known of it)"
is "... every CPU kept: 6 CPUs, 3 cores" "$("$JSONQ" "$TMP/qc.json" cpus cores unplaced_cpus | tr '\n' ' ')" \
	"6 3 [6] "

# a die without L3 (tests/data/topo-die-without-l3.xml, made by hand)
status "a die without L3: exit 0" 0 "$MEMTOP" topo --topology "$TESTDATA/topo-die-without-l3.xml"
like "... its CPUs said in no L3 group" "$(cat "$TMP/out")" \
	'^  no L3: CPUs 2-3 \(in no L3 group: a die or package without one\)$'

