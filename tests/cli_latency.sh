#!/bin/sh
# memtop run latency through the real binary: a quick real run (robust
# relations only: the random chase at 16K is at least 5x faster than at the
# largest size), rows printed as measured, the levels, --json readable, bad
# arguments exit 2 with one line; --csv carries each point's spread, tries
# and trust, as the JSON and the table do.
. "$TESTLIB"
plan 50

status "--help exits 0" 0 "$MEMTOP" run latency --help
like "--help lists --hugepages" "$(cat "$TMP/out")" '--hugepages on\|off\|both'

status "quick run exits 0" 0 "$MEMTOP" run latency --quick --json "$TMP/lat.json"
out=$(cat "$TMP/out")
like "header: sizes, strides, random" "$out" '^# latency: 79 sizes 4K\.\.8M, 2 fixed strides \+ random chase'
like "header: cycles from the core clock" "$out" '^# cycles = ns x [0-9.]+ GHz'
rows=$(printf '%s\n' "$out" | grep -cE '^ +[0-9]+[KM] ')
is "one row per size, 4K..8M" "$rows" 79
like "first row is 4K with three chases" "$out" '^      4K +[0-9.]+ +[0-9.]+~? +[0-9.]+ +[0-9.]+~? +[0-9.]+ +[0-9.]+~?$'
like "an L1 level in the seed's words" "$out" '^L1 size: [0-9]+ [KM]B, latency: [0-9.]+ cycles \([0-9.]+ ns\), way size: '
like "the time it took, and the estimate announced (and revised, on a busy machine)" "$out" '^# measured in [0-9.]+ s \(announced: about [0-9]+ s(; revised( [0-9]+ times, last)? at [0-9]+ s to about [0-9]+ s)?\)'
# random chase (last column, ns; a ~ after an untrusted point's): 16K
# against the largest size
r16=$(printf '%s\n' "$out" | awk '$1 == "16K" { v = $NF; sub(/~$/, "", v); print v }')
rmax=$(printf '%s\n' "$out" | awk '$1 == "8M" { v = $NF; sub(/~$/, "", v); print v }')
timing "random chase: 8M ($rmax ns) >= 5 x 16K ($r16 ns)" awk -v a="$r16" -v b="$rmax" \
	'BEGIN { exit !(a > 0 && b >= 5 * a) }'
# the fixed chase at 16K is an L1 hit too: within 2x of the random chase
f16=$(printf '%s\n' "$out" | awk '$1 == "16K" { v = $3; sub(/~$/, "", v); print v }')
timing "16K: fixed ($f16 ns) and random ($r16 ns) agree within 2x" awk -v a="$f16" -v b="$r16" \
	'BEGIN { exit !(a > 0 && b > 0 && a < 2 * b && b < 2 * a) }'

# the JSON read back with tests/jsonq (the structure, not strings counted)
q() { "$JSONQ" "$TMP/lat.json" "$@"; }
is "json: strides" "$(q strides)" '[128,4096]'
is "json: one curve per stride, one value per size" \
	"$(q 'cycles#' 'cycles[0]#' 'ns[1]#' 'random.ns#' | tr '\n' ' ')" '2 79 79 79 '
ok "json: levels carry the fields" "$JSONQ" "$TMP/lat.json" levels[0].level levels[0].size \
	levels[0].cycles levels[0].ns levels[0].step_end levels[0].tlb
ok "json: ghz and cycles = ns x ghz" awk -v g="$(q ghz)" -v c="$(q 'cycles[0][5]')" \
	-v n="$(q 'ns[0][5]')" 'BEGIN { d = c - n * g; exit !(g > 0 && d < 0.05 && d > -0.05) }'

# --csv: the exact header; each row's spread and tries are the JSON's of
# the same run, and a point is trusted (1) exactly when its spread is at
# most 10 % (the table's ~), as many 0s as the closing count says
status "--csv --json exits 0" 0 "$MEMTOP" run latency --strides 256 --max-size 64K --csv \
	--hugepages off --json "$TMP/csv.json"
is "--csv: the header, five columns a chase" "$(head -n 1 "$TMP/out")" \
	"size_bytes,cycles_s256,ns_s256,spread_s256,tries_s256,trusted_s256,cycles_random,ns_random,spread_random,tries_random,trusted_random"
is "--csv: one row of 11 fields per size" \
	"$(awk -F, 'NR > 1 && NF == 11 { n++ } END { print n + 0 }' "$TMP/out")" \
	"$("$JSONQ" "$TMP/csv.json" 'sizes#')"
fields() { "$JSONQ" "$TMP/csv.json" "$1" | tr -d '[]'; }
ok "--csv: spread and tries are the JSON's, trusted exactly when spread <= 10 %" awk -F, \
	-v s0="$(fields 'spread[0]')" -v t0="$(fields 'tries[0]')" \
	-v s1="$(fields 'random.spread')" -v t1="$(fields 'random.tries')" '
	function check(col, js, jt, sp) {
		sp = $(col + 2)
		if ($(col + 3) != jt || sp - js > 5e-5 || js - sp > 5e-5 || $(col + 3) < 3) bad++
		if ($(col + 4) != (sp > 0.10 ? 0 : 1)) bad++
	}
	BEGIN { split(s0, S0, ","); split(t0, T0, ","); split(s1, S1, ","); split(t1, T1, ",") }
	NR > 1 { i = NR - 1; check(2, S0[i], T0[i]); check(7, S1[i], T1[i]); n++ }
	END { exit !(n > 0 && !bad) }' "$TMP/out"
untrusted=$(awk -F, 'NR > 1 { n += ($6 == "0") + ($11 == "0") } END { print n + 0 }' "$TMP/out")
is "--csv: its untrusted points are the ones the closing line counts" "$untrusted" \
	"$(sed -n 's/^# ~ \([0-9]*\) of [0-9]* points not trusted.*/\1/p' "$TMP/err" | grep . || echo 0)"
unlike "--csv: no comment line on standard output" "$(cat "$TMP/out")" '^#'

status "--random --max-size 64K exits 0" 0 "$MEMTOP" run latency --random --max-size 64K --tries 1 \
	--hugepages off
like "--random: only the random chase" "$(sed -n '/^ *size/p' "$TMP/out")" '^ +size +random +ns$'

# --hugepages both: where this machine's THP can be asked for, the random
# chase again on huge pages, the caches read from it and the walks' cost
# from the 4 KB one; where it cannot, one line says so and why sizes past
# a second-level TLB's reach may be walks
thp=$(sed -n 's/.*\[\([a-z]*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
status "--hugepages both exits 0" 0 "$MEMTOP" run latency --random --max-size 4M --tries 1 \
	--hugepages both --json "$TMP/both.json"
share=$("$JSONQ" "$TMP/both.json" random_other.huge_share 2>/dev/null || echo 0)
case $thp in
always | madvise)
	like "both: a column for the huge-page chase" "$(sed -n '/^ *size/p' "$TMP/out")" \
		'^ +size +random +ns +rnd huge +ns$'
	like "both: the header says so" "$(cat "$TMP/out")" \
		'^# latency: .* huge pages off, and on for a second random chase \(about [0-9]+ s\)$'
	is "both: in the JSON, with what the kernel gave" \
		"$("$JSONQ" "$TMP/both.json" random_other.hugepages 'random_other.ns#' 'random.ns#')" \
		"$(printf 'on\n71\n71')"
	# the kernel (or qemu-user under it) may give the second buffer 4 KB
	# pages all the same: then the levels come from the 4 KB chase, said
	if awk -v s="$share" 'BEGIN { exit !(s >= 0.5) }'; then
		like "both: caches read from the huge-page chase" "$(cat "$TMP/out")" \
			'^# levels read from the random chase, huge pages, '
		like "both: the walks' cost level by level" "$(cat "$TMP/out")" \
			'^Page walks: on 4 KB pages a load also walks the page tables once past the TLBs. reach: L1 '
	else
		like "both: few huge pages given, said" "$(cat "$TMP/out")" \
			'^# the second chase got [0-9]+ % of its buffer on huge pages .*: the levels are read from the 4 KB one$'
		like "both: caches read from the 4 KB chase" "$(cat "$TMP/out")" \
			'^# levels read from the random chase, 4K'
	fi
	;;
*)
	ok "both: no such column where THP is ${thp:-absent}" sh -c \
		'! grep -q "rnd huge" "$1"' sh "$TMP/out"
	like "both: one line says why" "$(cat "$TMP/out")" \
		'no random chase on huge pages: transparent huge pages are (off|not known) here'
	ok "both: the header says off" grep -q 'huge pages off (about' "$TMP/out"
	ok "both: no walks line" sh -c '! grep -q "^Page walks" "$1"' sh "$TMP/out"
	ok "both: no random_other in the JSON" sh -c '! grep -q random_other "$1"' sh "$TMP/both.json"
	;;
esac
status "--hugepages both --no-random: exit 2" 2 "$MEMTOP" run latency --hugepages both --no-random
is "--hugepages both --no-random: one line" "$(cat "$TMP/err")" \
	"memtop: run latency: --hugepages both chases at random on both page sizes; drop --no-random"

# --tlb-locality: the random chase group by group; said in the header and
# recorded in the JSON
status "--tlb-locality 64K exits 0" 0 "$MEMTOP" run latency --random --max-size 1M \
	--tlb-locality 64K --json "$TMP/loc.json"
like "--tlb-locality: the header says so" "$(cat "$TMP/out")" \
	'^# random: .* group by group of 64K \(TLB locality: no page walks\)$'
like "--tlb-locality: in the JSON" "$(tr -d ' \t\n' <"$TMP/loc.json")" '"tlb_locality":65536'
status "--tlb-locality below 4K: exit 2" 2 "$MEMTOP" run latency --tlb-locality 1K
is "--tlb-locality below 4K: one line" "$(cat "$TMP/err")" \
	"memtop: run latency: --tlb-locality: expected a size from 4K to 64G, such as 256K, got '1K'"
status "--tlb-locality with --no-random: exit 2" 2 "$MEMTOP" run latency --no-random \
	--tlb-locality 256K

status "bad --hugepages: exit 2" 2 "$MEMTOP" run latency --hugepages maybe
is "bad --hugepages: one line" "$(cat "$TMP/err")" \
	"memtop: run latency: --hugepages: expected one of off, on, both, got 'maybe'"
status "stride not a multiple of 8: exit 2" 2 "$MEMTOP" run latency --strides 128,100
status "--max-size below 4K: exit 2" 2 "$MEMTOP" run latency --max-size 1K
is "--max-size below 4K: one line" "$(cat "$TMP/err")" "memtop: run latency: --max-size: at least 4K"
status "unknown option: exit 2" 2 "$MEMTOP" run latency --bogus

# the last runs here (issue 46 item 3), in a HOME of the test's own: the
# first run keeps its levels, the second is held against them; a run kept
# with other levels under load and on a moved CPU is said to differ, with
# both runs' conditions, and the points that moved are measured again
home=$TMP/home
mkdir -p "$home"
keep() { HOME=$home XDG_STATE_HOME= "$MEMTOP" run latency --quick --max-size 1M "$@"; }
status "a run with no history exits 0" 0 keep
hist=$home/.local/state/memtop/latency-history.json
ok "it is kept under ~/.local/state/memtop" test -s "$hist"
status "the next run exits 0" 0 keep
like "held against the last" "$(cat "$TMP/out")" '^# levels (as|differ from) the last run here \('
key=$("$JSONQ" "$hist" 'runs[0].key')
printf '{"memtop_latency_history":1,"runs":[{"key":"%s","date":"2026-01-01 00:00","levels":[{"size":8192,"ns":1},{"size":65536,"ns":3},{"size":262144,"ns":9}],"load_before":9,"load_after":9,"steal_pct":50,"cpu_first":0,"cpu_last":1,"moved":1,"curve":[{"size":65536,"ns":900},{"size":131072,"ns":900}]}]}\n' \
	"$key" >"$hist"
status "a run after other levels exits 0" 0 keep
like "the levels differ, with both runs' conditions" "$(cat "$TMP/out")" \
	'^# levels differ from the last run here \(2026-01-01 00:00\): .*; this run: .*; the last: load 9\.00\.\.9\.00, steal 50\.0 %, moved from CPU 0 to 1$'
like "the points that moved, measured again" "$(cat "$TMP/out")" \
	'^# 2 points moved by 20 % or more from the last run here: measured again, 0 of them now agree with it \([0-9]+ read lower\)$'
