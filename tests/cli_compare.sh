#!/bin/sh
# memtop compare: saved mountains side by side (exact on a file against
# itself), saved latency runs side by side, and one-line errors for files of
# different kinds or a stride they do not share.
. "$TESTLIB"
plan 14
REF="$MEMTOP_DATA/m4max.json"

cp "$REF" "$TMP/a.json"
out=$("$MEMTOP" compare "$REF" "$TMP/a.json")
is "a mountain against itself exits 0" "$?" 0
like "names both files" "$out" "^B: $TMP/a.json$"
like "stride 1 and stride 8 tables" "$(printf '%s\n' "$out" | grep -c '^stride [18] ')" '^2$'
like "the seed's 128K stride-8 cell, ratio 1.00" "$out" '^ +128K +73807 +73807 +1\.00$'
like "every cell the same: 0.0 % apart, ratio 1.000" "$out" \
	'B vs A: 55 cells, median cell difference 0\.0 %, median B/A 1\.000'
like "levels of both" "$out" '^  B: L1 128K'

status "--stride 3: not in the files, exit 2" 2 "$MEMTOP" compare "$REF" "$TMP/a.json" --stride 3
is "--stride 3: one line" "$(cat "$TMP/err")" "memtop: compare: not every file has stride 3"

"$MEMTOP" run latency --quick --json "$TMP/l1.json" >/dev/null 2>&1
"$MEMTOP" run latency --quick --json "$TMP/l2.json" >/dev/null 2>&1
out=$("$MEMTOP" compare "$TMP/l1.json" "$TMP/l2.json")
like "two latency runs: the random chase table" "$out" '^random chase, ns a load$'
like "16K row with both values and the ratio" "$out" '^ +16K +[0-9.]+ +[0-9.]+ +[0-9.]+$'
like "levels of each curve" "$out" '^  B: L1 [0-9]+K [0-9.]+ ns'

# a recorded quick run of this project's VM (levels to 8M, no memory
# plateau): every level line ends on its last level, not on a comma
L=$TESTDATA/latency-quick-epyc-vm.json
out=$("$MEMTOP" compare "$L" "$L")
like "recorded latency runs: the levels, comma-separated, no comma at the end" \
	"$(printf '%s\n' "$out" | sed -n 's/^  A: //p' | tail -n 1)" '^L1 48K [0-9.]+ ns(, [^,]+)+[^,]$'
status "a latency run against a mountain: exit 2" 2 "$MEMTOP" compare "$TMP/l1.json" "$REF"
is "names the file of the other kind" "$(cat "$TMP/err")" \
	"memtop: $REF: not a latency result (compare files of one kind)"
