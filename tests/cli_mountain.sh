#!/bin/sh
# memtop run mountain, for real: the quick grid prints its header, one row
# per size as the seed's program does, the time it took, and writes JSON
# that memtop reads back; bad arguments exit 2 and write nothing.
. "$TESTLIB"
plan 27

"$MEMTOP" run mountain --quick --json "$TMP/m.json" >"$TMP/table" 2>"$TMP/err"
is "quick mountain exits 0" "$?" 0
table=$(cat "$TMP/table")
like "header names memtop, host and CPU" "$table" '^# memtop [0-9.]+ on .*: '
like "header names the build" "$table" '^# build: .*\((optimized|NOT optimized)\)'
like "column header: size then strides 1, 2, 4, 8" "$table" '^ +size +s1 +s2 +s4 +s8 +spread$'
is "one row per size, 16K..8M" "$(grep -cE '^ +[0-9.]+[KM] ' "$TMP/table")" 10
like "first row is 16K with four numbers" "$table" '^ +16K +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+%$'
like "last row is 8M" "$table" '^ +8M +[0-9]+ '
like "says how long it took" "$table" '^# measured in [0-9.]+ s'
like "the 16K row is called overhead-bound" "$table" '^# the 16K row is overhead-bound: '
out=$("$MEMTOP" run mountain --quick --sizes 2M:4M --strides 1 2>&1)
unlike "a 2M..4M grid: no row called overhead-bound" "$out" 'overhead-bound'
like "says it wrote the file" "$table" "^# wrote $TMP/m.json"
ok "the JSON reads back (cliffs)" "$MEMTOP" cliffs "$TMP/m.json"
like "JSON has the seed's keys" "$(tr -d ' \t\n' <"$TMP/m.json")" '"hardware":".*"date":".*"sizes":\[16384,.*"strides":\[1,2,4,8\],"throughput":\[\['
like "JSON has memtop's own fields" "$(tr -d ' \t\n' <"$TMP/m.json")" '"memtop_version":".*"diagnostics":\{"optimized":.*"spread":\[\[.*"typical":\[\[.*"caches":\{"sources"'

"$MEMTOP" run mountain --quick --csv >"$TMP/csv" 2>/dev/null
is "--csv: header plus 10 rows" "$(wc -l <"$TMP/csv" | tr -d ' ')" 11
like "--csv header" "$(head -1 "$TMP/csv")" '^size_bytes,s1,s2,s4,s8$'

out=$("$MEMTOP" run mountain --quick --sizes 16K:64K --profile 2>&1)
is "--profile: a note after each of the 3 rows" "$(printf '%s\n' "$out" | grep -c '^# [0-9]*K row: ')" 3
like "--profile: the note's parts" "$out" '^# 64K row: [0-9.]+ ms: warm-up [0-9.]+, tries [0-9.]+ \([0-9]+\), canary [0-9.]+, second looks [0-9.]+ \([0-9]+ cells?\), other -?[0-9.]+$'

# --seed-settings with --quick, in either order: the seed's method on the quick grid
for o in "--quick --seed-settings" "--seed-settings --quick"; do
	out=$("$MEMTOP" run mountain $o --sizes 16K:32K --strides 1 2>&1)
	like "$o: the seed's method, said" "$out" \
		"^# mountain: 2 sizes 16K\.\.32K x 1 strides, read MB/s, best of 5 tries of 8388608 reads \(the seed's settings\) "
done

# two-digit strides: each header ends where its column's numbers end
out=$("$MEMTOP" run mountain --quick --sizes 16K:16K --strides 9,10,15 2>/dev/null)
is "strides 9, 10, 15: the header's widths" "$(printf '%s\n' "$out" | grep ' size ')" \
	"   size       s9      s10      s15  spread"
is "s15 ends where the row's third number ends" \
	"$(printf '%s\n' "$out" | awk '/ size / { h = index($0, "s15") + 2 } $1 == "16K" { r = index($0, " " $4) + length($4) } END { print h, r }')" "34 34"

status "--sizes garbage exits 2" 2 "$MEMTOP" run mountain --sizes 16K-8M --json "$TMP/bad.json"
status "--try-us 0 exits 2" 2 "$MEMTOP" run mountain --try-us 0 --json "$TMP/bad.json"
is "--try-us 0: one line naming the option and the range" "$(cat "$TMP/err")" \
	"memtop: run mountain: --try-us: expected 1..1000000, got '0'"
status "--tries 17 exits 2" 2 "$MEMTOP" run mountain --tries 17 --json "$TMP/bad.json"
is "nothing written on bad usage" "$(ls "$TMP" | grep -c bad)" 0
