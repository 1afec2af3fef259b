# tests/vm/check.sh: sourced by tests/vm/check-vm.sh (after tests/lib.sh).
# check_machine NAME DIR holds what memtop said in a guest (DIR: the files
# tests/vm/init sent, NAME.rc their exit statuses) to what the guest's own
# /sys said (DIR/truth.txt): exact structure, every cores pair's relation,
# numa's cells and the pages' node, the plans' CPUs and nodes, the SLIT.
# Never a figure measured: TCG does not model time. One TAP line a check.

# q FILE PATH...: tests/jsonq; nothing (and no error) when the file is not JSON
q() { "$JSONQ" "$@" 2>/dev/null; }

# The truth as plain facts, in DIR/facts (awk over truth.txt): CPU sets as
# comma lists of numbers ("0,1,2,3"), one fact a line:
#   cpu N PKG DIE SMT NODE L2 L3      each online CPU
#   offline N                         each CPU possible but not online
#   node N CPUS MEMKB D0,D1,...        CPUS "-" for a memory-only node
#   l2 SIZE CPUS / l3 SIZE CPUS        each distinct cache group
#   cache0 LEVEL TYPE SIZE CPUS        CPU 0's caches, as sysfs says
#   measure NODES                     the nodes run numa measures (--nodes), when not all
facts() {
	awk '
	function expand(s,   n, a, i, r, lo, hi, k, out) {
		out = ""
		if (s == "" || s == "-") return ""
		n = split(s, a, ",")
		for (i = 1; i <= n; i++) {
			if (split(a[i], r, "-") == 2) { lo = r[1] + 0; hi = r[2] + 0 }
			else { lo = a[i] + 0; hi = lo }
			for (k = lo; k <= hi; k++) out = out (out == "" ? "" : ",") k
		}
		return out
	}
	function bytes(s) {
		if (s ~ /K$/) return (s + 0) * 1024
		if (s ~ /M$/) return (s + 0) * 1048576
		return s + 0
	}
	$1 == "possible" { possible = expand($2) }
	$1 == "cmdline" { for (i = 2; i <= NF; i++) if ($i ~ /^mt\.nodes=/) { v = $i; sub(/^mt\.nodes=/, "", v); print "measure", expand(v) } }
	$1 == "node" {
		# node N cpus LIST memkb KB dist ...
		i = $2; cpus = ($4 == "memkb") ? "" : $4
		rest = $0; sub(/^.* dist /, "", rest); gsub(/ +/, ",", rest)
		mem = $0; sub(/^.* memkb /, "", mem); sub(/ .*/, "", mem)
		nodes[++nn] = i; ncpus[i] = expand(cpus); nmem[i] = mem; ndist[i] = rest
	}
	$1 == "cpu" && $3 == "offline" { off[$2] = 1 }
	$1 == "cpu" && $3 == "pkg" { c = $2; on[c] = 1; pkg[c] = $4; die[c] = $6; smt[c] = expand($10); order[++nc] = c }
	$1 == "cache" {
		c = $2; lvl = $3; ty = tolower($4); sz = bytes($5); sh = expand($6)
		if (lvl == 2 && ty == "unified") { l2[c] = sh; g2[sz " " sh] = 1 }
		if (lvl == 3 && ty == "unified") { l3[c] = sh; g3[sz " " sh] = 1 }
		if (c == 0) print "cache0", lvl, ty, sz, sh
	}
	END {
		for (k = 1; k <= nn; k++) {
			i = nodes[k]; split(ncpus[i], a, ",")
			for (x in a) if (a[x] != "") nodeof[a[x]] = i
			print "node", i, (ncpus[i] == "" ? "-" : ncpus[i]), nmem[i], ndist[i]
		}
		for (k = 1; k <= nc; k++) {
			c = order[k]
			print "cpu", c, pkg[c], die[c], smt[c], (c in nodeof ? nodeof[c] : "-"),
				(c in l2 ? l2[c] : "-"), (c in l3 ? l3[c] : "-")
		}
		n = split(possible, a, ",")
		for (x = 1; x <= n; x++) if (!(a[x] in on)) print "offline", a[x]
		for (g in g2) print "l2", g
		for (g in g3) print "l3", g
	}' "$1/truth.txt"
}

# f_count WHAT: how many facts of kind WHAT; f_distinct COL: distinct
# values of column COL over the CPUs
f_count() { awk -v w="$1" '$1 == w' "$F" | wc -l | tr -d ' '; }
f_distinct() { awk -v c="$1" '$1 == "cpu" { print $c }' "$F" | sort -u | wc -l | tr -d ' '; }
# f_list KIND COL: column COL of facts KIND, sorted, one a line
f_list() { awk -v w="$1" -v c="$2" '$1 == w { print $c }' "$F" | sort -n; }
# plain LIST: a JSON array of numbers ([0,1,2]) as a comma list
plain() { tr -d '[] ' ; }
# joined: lines as one comma list
joined() { paste -sd, -; }
# cols FILE PATH...: the values at each PATH side by side, one row an element
cols() {
	cf=$1
	shift
	ci=0
	cfiles=
	for cp in "$@"; do
		ci=$((ci + 1))
		q "$cf" "$cp" >"$TMP/col$ci"
		cfiles="$cfiles $TMP/col$ci"
	done
	# shellcheck disable=SC2086 # the files' names hold no space
	paste -d' ' $cfiles
}
# expand_lists: each line's second word, a CPU list (0-3,8), as 0,1,2,3,8
expand_lists() {
	awk '{ o = ""; n = split($2, a, ",")
	       for (i = 1; i <= n; i++) { if (split(a[i], r, "-") == 2) for (k = r[1]; k <= r[2]; k++) o = o (o == "" ? "" : ",") k
	                                  else o = o (o == "" ? "" : ",") a[i] }
	       $2 = (o == "" ? "-" : o); print }'
}

# The relation topo_relation gives two CPUs, from the facts: in awk
relation_awk='
	function rel(a, b) {
		if (a == b) return "same CPU"
		if (smt[a] == smt[b]) return "SMT siblings"
		if (l2[a] != "-" && l2[a] == l2[b]) return "separate cores, same L2"
		if (l3[a] != "-" && l3[a] == l3[b]) return "same L3 group"
		if (pkg[a] != pkg[b]) return "other socket"
		if (node[a] != "-" && node[a] == node[b]) return "same NUMA node"
		return "same package"
	}
	FNR == NR { if ($1 == "cpu") { pkg[$2] = $3; smt[$2] = $5; node[$2] = $6; l2[$2] = $7; l3[$2] = $8 }
		    next }'

# ---- the commands' exit statuses ---------------------------------------------
check_status() {
	bad=
	for r in "$D"/*.rc; do
		n=${r##*/}
		n=${n%.rc}
		case $n in numa-memonly-*) continue ;; esac
		[ "$(cat "$r")" = 0 ] || bad="$bad $n (exit $(cat "$r"): $(tail -n 1 "$D/$n" | head -c 160))"
	done
	is "$M: every command exits 0 (topo, info, every plan, cores, numa, bandwidth, latency)" "${bad:-none}" none
}

# ---- memtop topo against /sys ------------------------------------------------------
check_topo() {
	j=$D/topo.json
	is "$M: topo: CPUs (online)" "$(q "$j" cpus)" "$(f_count cpu)"
	is "$M: topo: packages" "$(q "$j" packages)" "$(f_distinct 3)"
	is "$M: topo: dies" "$(q "$j" dies)" "$(awk '$1 == "cpu" { print $3 "." $4 }' "$F" | sort -u | wc -l | tr -d ' ')"
	is "$M: topo: cores" "$(q "$j" cores)" "$(awk '$1 == "cpu" { print $3 "." $5 }' "$F" | sort -u | wc -l | tr -d ' ')"
	is "$M: topo: NUMA nodes" "$(q "$j" numa_nodes)" "$(f_count node)"
	is "$M: topo: nodes, each with its own CPUs and memory" \
		"$(q "$j" 'nodes[*]' | sed 's/.*"node":\([0-9]*\).*"cpus":\[\([0-9,]*\)\].*"memory":\([0-9]*\).*/\1 \2 \3/' |
			awk '{ if (NF == 2) { $3 = $2; $2 = "-" } print $1, ($2 == "" ? "-" : $2), $3 / 1024 }')" \
		"$(awk '$1 == "node" { print $2, $3, $4 }' "$F")"
	is "$M: topo: SMT siblings" "$(q "$j" 'smt_siblings[*]' | plain | sort)" \
		"$(awk '$1 == "cpu" && $5 ~ /,/ { print $5 }' "$F" | sort -u)"
	is "$M: topo: L2 groups (size, CPUs)" \
		"$(cols "$j" 'l2_groups[*].size' 'l2_groups[*].cpus' | tr -d '[]' | sort)" \
		"$(awk '$1 == "l2" { print $2, $3 }' "$F" | sort)"
	is "$M: topo: L3 groups (size, CPUs)" \
		"$(cols "$j" 'l3_groups[*].size' 'l3_groups[*].cpus' | tr -d '[]' | sort)" \
		"$(awk '$1 == "l3" { print $2, $3 }' "$F" | sort)"
	is "$M: topo: distances, the SLIT exactly" "$(q "$j" distances)" \
		"[$(awk '$1 == "node" { printf "%s[%s]", n++ ? "," : "", $5 }' "$F")]"
	# the text: the same matrix as numactl -H prints it
	want=$(awk '$1 == "node" { ids[++n] = $2; d[n] = $5 }
		END { printf "  %6s ", "node"; for (i = 1; i <= n; i++) printf " %3d", ids[i]; printf "\n"
		      for (i = 1; i <= n; i++) { printf "  %6d:", ids[i]; k = split(d[i], v, ",")
		      for (x = 1; x <= k; x++) printf " %3d", v[x]; printf "\n" } }' "$F")
	got=$(grep -A "$(($(f_count node) + 1))" '^  node distances' "$D/topo.txt" | tail -n +2)
	is "$M: topo text: the SLIT as numactl -H prints it" "$got" "$want"
	for n in $(awk '$1 == "node" && $3 == "-" { print $2 }' "$F"); do
		like "$M: topo text: node $n has no CPUs of its own" "$(cat "$D/topo.txt")" \
			"^  NUMA node $n: .*no CPUs of its own"
		is "$M: topo JSON: memory-only node $n: cpus []" \
			"$(q "$j" 'nodes[*]' | grep "\"node\":$n," | sed 's/.*"cpus":\(\[[0-9,]*\]\).*/\1/')" "[]"
	done
	off=$(f_list offline 2 | joined)
	if [ -n "$off" ]; then
		is "$M: topo JSON: offline CPUs" "$(q "$j" offline_cpus | plain)" "$off"
		lines "$M: topo text: the offline CPUs said in one line" "$(cat "$D/topo.txt")" \
			"^  not placed: CPUs? ${off} offline" 1
	else
		is "$M: topo JSON: no CPU offline" "$(q "$j" offline_cpus)" "[]"
	fi
	is "$M: topo: conditions.nodes is numa_nodes" "$(q "$j" conditions.nodes)" "$(q "$j" numa_nodes)"
	is "$M: topo: conditions.cpu_nodes: the nodes with CPUs" "$(q "$j" conditions.cpu_nodes)" \
		"$(awk '$1 == "node" && $3 != "-"' "$F" | wc -l | tr -d ' ')"
	is "$M: topo: the hypervisor is TCG (CPUID 0x40000000), not KVM" \
		"$(q "$j" conditions.hypervisor)" "QEMU (TCG)"
}

# ---- memtop info: the sysfs source is /sys, hwloc's sharing is /sys's --------------
check_info() {
	j=$D/info.json
	is "$M: info: sysfs's caches of CPU 0 (level, type, size)" \
		"$(cols "$j" 'sources.sysfs[*].level' 'sources.sysfs[*].type' 'sources.sysfs[*].size' | sort)" \
		"$(awk '$1 == "cache0" { print $2, $3, $4 }' "$F" | sort)"
	is "$M: info: hwloc's caches of CPU 0 and the CPUs sharing each" \
		"$(cols "$j" 'sources.hwloc[*].size' 'sources.hwloc[*].shared_cpus' 'sources.hwloc[*].level' |
			expand_lists | sort)" \
		"$(awk '$1 == "cache0" { print $4, $5, $2 }' "$F" | sort)"
}

# ---- the plans --------------------------------------------------------------------
check_plans() {
	bad=
	for p in "$D"/plan-*.json; do
		e=${p##*/plan-}
		e=${e%.json}
		got="$(q "$p" experiment machine.cpus machine.online machine.nodes machine.packages | joined)"
		want="$e,$(f_count cpu),$(f_count cpu),$(f_count node),$(f_distinct 3)"
		[ "$got" = "$want" ] || bad="$bad $e ($got, want $want)"
	done
	is "$M: every experiment's --plan names this machine: CPUs, online, nodes, packages" "${bad:-none}" none
	# bandwidth's thread steps: one, a package, a CPU node, an L3 group, a core,
	# all, or a doubling; at each, the CPUs spread over packages and CPU nodes
	j=$D/plan-bandwidth.json
	ncpu=$(f_count cpu)
	pk=$(f_distinct 3)
	cn=$(awk '$1 == "node" && $3 != "-"' "$F" | wc -l | tr -d ' ')
	l3=$(f_count l3)
	co=$(awk '$1 == "cpu" { print $3 "." $5 }' "$F" | sort -u | wc -l | tr -d ' ')
	steps=$(q "$j" 'threads[*].count' | joined)
	odd=$(q "$j" 'threads[*].count' | awk -v ok="1 $pk $cn $l3 $co $ncpu" -v all="$ncpu" '
		BEGIN { split(ok, a, " "); for (i in a) good[a[i]] = 1; for (k = 2; k < all; k *= 2) good[k] = 1 }
		!($1 in good) { printf "%s ", $1 }')
	is "$M: bandwidth plan: thread steps ($steps) are 1, packages $pk, CPU nodes $cn, L3 groups $l3, cores $co, all $ncpu or doublings" \
		"${odd:-none}" none
	spread=$(q "$j" 'threads[*].cpus' | plain | awk -v pk="$pk" -v cn="$cn" '
		FNR == NR { if ($1 == "cpu") { p[$2] = $3; n[$2] = $6 } next }
		{ k = split($0, c, ","); delete sp; delete sn; np = 0; nn = 0
		  for (i = 1; i <= k; i++) { if (!(p[c[i]] in sp)) { sp[p[c[i]]] = 1; np++ }
		                             if (!(n[c[i]] in sn)) { sn[n[c[i]]] = 1; nn++ } }
		  wp = k < pk ? k : pk; wn = k < cn ? k : cn
		  if (np != wp || nn != wn) printf "%d threads on %s: %d packages, %d nodes; ", k, $0, np, nn }' "$F" -)
	is "$M: bandwidth plan: each step's CPUs cover as many packages and CPU nodes as it can" \
		"${spread:-none}" none
	# numa: every node with its own CPUs; pairs: each CPU node x every node
	j=$D/plan-numa.json
	is "$M: numa plan: the nodes and their own CPUs" \
		"$(cols "$j" 'nodes[*].node' 'nodes[*].cpus' | expand_lists)" \
		"$(awk '$1 == "node" { print $2, $3 }' "$F")"
	is "$M: numa plan: pairs, each CPU node x every node" "$(q "$j" 'pairs[*]' | plain | joined)" \
		"$(awk '$1 == "node" { all[++n] = $2; has[n] = $3 != "-" }
			END { for (i = 1; i <= n; i++) if (has[i]) for (k = 1; k <= n; k++) print all[i] "," all[k] }' "$F" | joined)"
	# cores: every relation the machine has among the pairs, each pair online
	j=$D/plan-cores.json
	is "$M: cores plan: its pairs hold every relation /sys gives" \
		"$(q "$j" 'pairs[*]' | plain | tr ',' ' ' | awk "$relation_awk"' { print rel($1, $2) }' "$F" - | sort -u | joined)" \
		"$(awk "$relation_awk"' END { for (a in smt) for (b in smt) if (a < b) print rel(a, b) }' "$F" "$F" | sort -u | joined)"
	like "$M: latency plan: its worker CPU is online" \
		",$(awk '$1 == "cpu" { print $2 }' "$F" | joined)," ",$(q "$D/plan-latency.json" worker_cpu),"
}

# ---- run cores: each pair's relation is the one /sys gives ----------------------------
check_cores() {
	j=$D/cores.json
	n=$(q "$j" 'pairs#')
	wrong=$(cols "$j" 'pairs[*].a' 'pairs[*].b' 'pairs[*].relation' |
		awk "$relation_awk"' { r = $0; sub(/^[0-9]+ [0-9]+ /, "", r)
			if (rel($1, $2) != r) printf "%s-%s: %s, /sys: %s; ", $1, $2, r, rel($1, $2) }' "$F" -)
	[ "${n:-0}" -gt 0 ] || wrong="no pair measured"
	is "$M: cores: ${n:-no} pairs measured, each pair's relation as /sys gives it" "${wrong:-none}" none
	wrong=$(q "$j" 'places[*]' | sed -n 's/^CPU \([0-9]*\):.*NUMA node \([0-9]*\).*/\1 \2/p' |
		awk 'FNR == NR { if ($1 == "cpu") n[$2] = $6; next } n[$1] != $2 { printf "CPU %s on node %s, /sys: %s; ", $1, $2, n[$1] }' "$F" -)
	is "$M: cores: each CPU's NUMA node as /sys gives it" "${wrong:-none}" none
}

# ---- run numa: the cells, the pages, the SLIT, the memory-only node -------------------
check_numa() {
	j=$D/numa.json
	# the nodes measured, as node facts: all, or those --nodes named
	sel=$(awk '$1 == "measure" { print $2 }' "$F")
	awk -v sel=",$sel," '$1 == "node" && (sel == ",," || index(sel, "," $2 ",")) { print $2, $3, $5 }' \
		"$F" >"$D/numa.nodes"
	is "$M: numa: the nodes measured are /sys's${sel:+ that --nodes $sel names}" \
		"$(q "$j" nodes | plain)" "$(awk '{ print $1 }' "$D/numa.nodes" | joined)"
	cells=$(awk '{ n++; c += $2 != "-" } END { print c * n }' "$D/numa.nodes")
	is "$M: numa: a cell for each CPU node x every node, each with its pages counted" \
		"$(q "$j" 'placement#')" "$cells"
	is "$M: numa: 100 % of every buffer's pages on the node it was bound to" \
		"$(q "$j" 'placement[*].pages_on_node' | sort -u | joined)" 1
	# the SLIT between the nodes measured: their rows, their columns
	slit=$(awk 'FNR == NR { if ($1 == "node") pos[$2] = ++k; next } { ids[++m] = $1; dist[m] = $3 }
		END { for (i = 1; i <= m; i++) { split(dist[i], d, ","); printf "%s%s:", (i > 1 ? "; " : ""), ids[i]
		      for (c = 1; c <= m; c++) printf " %s", d[pos[ids[c]]] } printf "\n" }' "$F" "$D/numa.nodes")
	is "$M: numa JSON: the SLIT of the nodes measured" "$(q "$j" distances)" \
		"[[$(printf '%s\n' "$slit" | sed 's/[0-9]*: //g; s/ /,/g; s/;,/],[/g')]]"
	like "$M: numa text: the SLIT exactly" "$(cat "$D/numa.txt")" \
		"^# SLIT \\(node distances, 10 local\\): $slit\$"
	remote=$(awk '{ all[++n] = $1; has[n] = $2 != "-" }
		END { for (i = 1; i <= n; i++) if (has[i]) for (k = 1; k <= n; k++) if (k != i) c++; print c + 0 }' \
		"$D/numa.nodes")
	lines "$M: numa text: each remote latency ratio beside the SLIT's" "$(cat "$D/numa.txt")" \
		'^# CPU node [0-9]+, memory node [0-9]+: [0-9.]+x local on [24] [KM]B pages, SLIT says [0-9.]+x$' "$remote"
	lost=$(q "$j" 'runs[*]' | grep -c '"lost_cpu":true')
	nbw=$(q "$j" 'runs[*].run' | grep -cE '^(read|triad)$')
	if [ "$lost" -gt 0 ]; then
		like "$M: numa text: the $lost bandwidth runs whose thread lost its CPU are said" \
			"$(cat "$D/numa.txt")" "^# $lost of $nbw bandwidth runs: even the best try lost its CPU"
	else
		unlike "$M: numa text: no bandwidth run lost its CPU, none said" "$(cat "$D/numa.txt")" \
			"lost its CPU"
	fi
	for r in "$D"/numa-memonly-*.txt; do
		[ -f "$r" ] || continue
		n=${r##*numa-memonly-}
		n=${n%.txt}
		is "$M: run numa --nodes $n (memory only): exit 2" "$(cat "$r.rc")" 2
		like "$M: ... it has no CPUs of its own, said in one line" "$(cat "$r")" \
			"^memtop: run numa: --nodes: node $n has no CPUs of its own \\(memory only\\)"
	done
}

# ---- run bandwidth and run latency: where they ran ------------------------------------
check_runs() {
	j=$D/bandwidth.json
	is "$M: bandwidth: each thread count's CPUs are online ones" \
		"$(q "$j" 'threads[*].cpus' | sed 's/^/x /' | expand_lists | tr ',' '\n' | sed 's/^x //' |
			awk 'FNR == NR { if ($1 == "cpu") on[$2] = 1; next } !($1 in on) { printf "%s ", $1 }' "$F" -)" ""
	j=$D/latency.json
	c=$(q "$j" place.cpu)
	is "$M: latency: its CPU's node (place) is /sys's" "$c $(q "$j" place.node)" \
		"$c $(awk -v c="$c" '$1 == "cpu" && $2 == c { print $6 }' "$F")"
}

# check_machine NAME DIR: every check above, for the guest NAME
check_machine() {
	M=$1
	D=$2
	F=$D/facts
	if [ ! -s "$D/truth.txt" ]; then
		fail "$M: the guest sent no /sys truth: nothing to check"
		return
	fi
	facts "$D" >"$F"
	check_status
	check_topo
	check_info
	check_plans
	check_cores
	check_numa
	check_runs
}
