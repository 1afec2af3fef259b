#!/bin/sh
# memtop run cores: a quick real run on two CPUs this process may use (the
# 2 x 2 matrix, its empty diagonal, a finite one-way figure above zero, the
# same both ways, the pair and the summary in the JSON), its CSV and --json -,
# and the bad input: a CPU that does not exist or is not allowed, one CPU,
# a list that is not one; nothing written then.
. "$TESTLIB"
plan 56

q() { f=$1; shift; "$JSONQ" "$TMP/$f" "$@" | tr '\n' ' ' | sed 's/ $//'; }
# the first two CPUs this process may run on, "A,B" ("" when fewer)
two=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status 2>/dev/null | tr ',' '\n' |
	awk -F- '{ hi = NF > 1 ? $2 : $1; for (c = $1; c <= hi; c++) print c }' | head -n 2 |
	paste -sd, -)
a=${two%,*}
b=${two#*,}

# ---- memtop import: core-to-core-latency's CSV (AWS Graviton2, 64 cores) ----
g=$TESTDATA/c2c-aws-graviton2.csv
out=$("$MEMTOP" import "$g" --json "$TMP/g.json" 2>&1)
is "import of core-to-core-latency's CSV exits 0" "$?" 0
like "... says what it read: 64 CPUs, every pair, the median" "$out" \
	'c2c, 64 CPUs, 2016 pairs \(one-way ns\); median 47\.2 ns'
is "... a 64 x 64 matrix, 2016 pairs" "$(q g.json cpus# 'matrix_ns#' 'matrix_ns[63]#' 'pairs#')" \
	"64 64 64 2016"
is "... the CSV's first figure (CPUs 1 and 0) both ways, the diagonal null" \
	"$(q g.json 'matrix_ns[1][0]' 'matrix_ns[0][1]' 'matrix_ns[5][5]')" "41.5995694 41.5995694 null"
is "... the summary: the median of the 2016 pairs, relations unknown (no topology)" \
	"$(q g.json 'summary#' 'summary[0].relation' 'summary[0].ns' 'summary[0].pairs')" \
	"1 unknown 47.1995501 2016"
like "... and where it came from" "$(q g.json origin)" '^core-to-core-latency --csv: '
head -n 9 "$g" >"$TMP/cut.csv"
status "a CSV cut after 9 of its 64 rows: exit 2" 2 "$MEMTOP" import "$TMP/cut.csv" --json "$TMP/no2.json"
like "... naming the line" "$(cat "$TMP/err")" 'cut\.csv: line 10: the matrix ends after 9 of its 64 rows'
sed '5s/^[0-9.]*,/4x.1,/' "$g" >"$TMP/garbled.csv"
status "a garbled figure: exit 2" 2 "$MEMTOP" import "$TMP/garbled.csv" --json "$TMP/no2.json"
like "... naming its line and field" "$(cat "$TMP/err")" \
	"garbled\.csv: line 5: field 1: expected the ns of CPUs 4 and 0"
ok "... and nothing written" test ! -e "$TMP/no2.json"
"$MEMTOP" plot "$TMP/g.json" --svg "$TMP/g.svg" 2>"$TMP/err"
is "plot --svg of the imported matrix exits 0" "$?" 0
is "... a square a pair both ways: 64 x 64 in the matrix" \
	"$(sed -n '/<g class="matrix">/,/<\/g>/p' "$TMP/g.svg" | grep -c '<rect')" 4096
like "... the summary beside it" "$(cat "$TMP/g.svg")" 'unknown: 47\.2 ns \(2016 pairs\)'

if [ -z "$two" ] || [ "$a" = "$two" ]; then
	for i in $(seq 15 53); do skip "cores test $i" "fewer than two CPUs to pair here"; done
	exit 0
fi

out=$("$MEMTOP" run cores --quick --cpus "$two" --json "$TMP/c.json" 2>&1)
is "run cores on CPUs $two exits 0" "$?" 0
like "it says what the figure is" "$out" 'one-way ns = round trip / 2'
like "it prints the pair's row" "$out" "^ +$a +$b +[0-9]+\.[0-9] "
like "it prints the matrix's first row" "$out" "^ +$a +- +[0-9]+\.[0-9]\$"
like "it prints the summary by relation" "$out" '^#   .* [0-9]+\.[0-9] ns  \(1 pair\)$'
is "JSON: experiment cores" "$(q c.json experiment)" cores
is "JSON: the two CPUs" "$(q c.json 'cpus[*]')" "$a $b"
is "JSON: a 2 x 2 matrix" "$(q c.json 'matrix_ns#' 'matrix_ns[0]#' 'matrix_ns[1]#')" "2 2 2"
is "JSON: its diagonal is null" "$(q c.json 'matrix_ns[0][0]' 'matrix_ns[1][1]')" "null null"
ns=$(q c.json 'matrix_ns[0][1]')
ok "JSON: the pair's one-way figure ($ns ns) is finite and above zero" \
	awk -v v="$ns" 'BEGIN { exit !(v + 0 > 0 && v + 0 < 1e6) }'
is "JSON: the matrix is symmetric" "$(q c.json 'matrix_ns[1][0]')" "$ns"
is "JSON: one pair, the two CPUs, the matrix's figure" "$(q c.json 'pairs#' 'pairs[0].a' \
	'pairs[0].b' 'pairs[0].ns')" "1 $a $b $ns"
is "JSON: the summary's one line is the pair's relation and figure" \
	"$(q c.json 'summary#' 'summary[0].ns' 'summary[0].pairs')" "1 $ns 1"
is "JSON: the summary names the pair's relation" "$(q c.json 'summary[0].relation')" \
	"$(q c.json 'pairs[0].relation')"
is "JSON: what the figure is" "$(q c.json one_way)" "one-way ns = round trip / 2"
ok "JSON: the run header (the diagnostics count the CPUs)" \
	awk -v n="$(q c.json diagnostics.ncpu)" 'BEGIN { exit !(n + 0 >= 2) }'

# the relation is the topology's: nearer than an L3 group's when both CPUs
# share an L3 in `memtop topo`, farther when they do not
rel=$(q c.json 'pairs[0].relation')
if "$MEMTOP" topo --json "$TMP/t.json" >/dev/null 2>&1; then
	share=$("$JSONQ" "$TMP/t.json" 'l3_groups[*].cpus' | tr -d '[]' |
		awk -F, -v a="$a" -v b="$b" '{ x = y = 0; for (i = 1; i <= NF; i++) {
			x += $i + 0 == a; y += $i + 0 == b } if (x && y) s = 1 } END { print s + 0 }')
	if [ "$share" = 1 ]; then want='^(SMT siblings|separate cores, same L2|same L3 group)$'
	else want='^(same NUMA node|same package|other socket)$'; fi
	like "the pair's relation ($rel) is the topology's (a shared L3: $share)" "$rel" "$want"
	like "JSON: where each CPU sits" "$(q c.json 'places[0]')" "^CPU $a: "
else
	skip "the pair's relation is the topology's" "memtop topo cannot read this machine"
	skip "JSON: where each CPU sits" "memtop topo cannot read this machine"
fi

out=$("$MEMTOP" run cores --quick --cpus "$two" --csv 2>/dev/null)
like "--csv: a header and one row a pair" "$(printf '%s\n' "$out" | head -n 1)" \
	'^a,b,ns,spread,relation,moved,kept$'
"$MEMTOP" run cores --quick --cpus "$two" --json - >"$TMP/stdout.json" 2>/dev/null
is "--json -: stdout is the JSON alone" "$("$JSONQ" "$TMP/stdout.json" 'pairs#')" 1

status "--cpus naming a CPU that does not exist: exit 2" 2 \
	"$MEMTOP" run cores --cpus "$a,4000" --json "$TMP/no.json"
like "... naming it" "$(cat "$TMP/err")" '--cpus: CPU 4000 is not one this process may run on'
ok "... and nothing written" test ! -e "$TMP/no.json"
if command -v taskset >/dev/null 2>&1; then
	status "--cpus naming a CPU outside the taskset: exit 2" 2 \
		taskset -c "$a" "$MEMTOP" run cores --cpus "$two"
	like "... naming it" "$(cat "$TMP/err")" "CPU $b is not one this process may run on"
else
	skip "--cpus outside the taskset" "no taskset"
	skip "... naming it" "no taskset"
fi
status "--cpus with one CPU: exit 2" 2 "$MEMTOP" run cores --cpus "$a"
status "--cpus that is not a list: exit 2" 2 "$MEMTOP" run cores --cpus "0,x"
like "... naming the bad part" "$(cat "$TMP/err")" "--cpus: 'x' is not a CPU, a range such as 0-3 or a domain such as S0, got '0,x'"
status "--cpus with a backward range: exit 2" 2 "$MEMTOP" run cores --cpus 3-1
status "--sample with --all: exit 2" 2 "$MEMTOP" run cores --sample --all
status "--tries 0: exit 2" 2 "$MEMTOP" run cores --tries 0
status "--method other: exit 2" 2 "$MEMTOP" run cores --method other
like "... naming the two methods" "$(cat "$TMP/err")" "--method: expected one of cas, rw, got 'other'"

# --method rw: each thread stores to its own line, reads the other's
out=$("$MEMTOP" run cores --quick --cpus "$two" --method rw --json "$TMP/rw.json" 2>&1)
is "--method rw exits 0" "$?" 0
like "... says how the line travels" "$out" 'each store to their own line and read the other'
rw=$(q rw.json 'matrix_ns[0][1]')
ok "... its JSON: method rw, a one-way figure above zero ($rw ns)" \
	awk -v m="$(q rw.json method)" -v v="$rw" 'BEGIN { exit !(m == "rw" && v + 0 > 0) }'
out=$("$MEMTOP" compare "$TMP/c.json" "$TMP/g.json" 2>&1)
is "compare of a measured and an imported matrix exits 0" "$?" 0
like "... the summaries side by side: the import's median beside this machine's relation" \
	"$out" '^unknown +- +47\.2$'
like "... a row both have, all pairs, with its ratio to A" "$out" \
	'^all pairs +[0-9]+\.[0-9] +47\.2$'
like "... what each figure is: the best try, the import's mean" "$out" \
	'method (cas|rw): each pair the best of its tries'
like "... and a note that they differ in kind" "$out" \
	'^note: a measured pair is its best try, an imported one what its tool reports'
"$MEMTOP" plot "$TMP/c.json" "$TMP/g.json" --svg "$TMP/two.svg" 2>/dev/null
is "plot of two matrices: side by side, 2 x 2 and 64 x 64" \
	"$(grep -c '<g class="matrix">' "$TMP/two.svg") $(grep -c '<rect' "$TMP/two.svg")" \
	"2 $((1 + 4 + 4096 + 2 + 20))"
