#!/bin/sh
# memtop compare: saved mountains side by side (exact on a file against
# itself), saved latency runs side by side, and one-line errors for files of
# different kinds or a stride they do not share.
. "$TESTLIB"
plan 41
REF="$MEMTOP_DATA/m4max.json"

cp "$REF" "$TMP/a.json"
out=$("$MEMTOP" compare "$REF" "$TMP/a.json")
is "a mountain against itself exits 0" "$?" 0
like "names both files" "$out" "^B: $TMP/a.json$"
like "stride 1 and stride 8 tables" "$(printf '%s\n' "$out" | grep -c '^stride [18] ')" '^2$'
like "the seed's 128K stride-8 cell in A and B" "$out" '^ +128K +73807 +73807$'
like "the ratio to A under each table" "$out" '^ratio/A +1\.00 +1\.00$'
like "and the verdict: the same within 5 %" "$out" '^verdict +\(A\) +same$'
like "every cell the same: 0.0 % apart, ratio 1.000" "$out" \
	'B vs A: 55 cells, median cell difference 0\.0 %, median B/A 1\.000'
like "levels of both" "$out" '^  B: L1 128K'
like "passports, a row per file: peak/floor" "$out" '^B +89578 +9304 +9\.63 '
like "passports: stride 1 / stride 8 on the 256K row" "$out" '^A +89578 .* 3\.83$'
out=$("$MEMTOP" compare "$TMP/a.json" --seed)
like "--seed: the bundled M4 Max mountain is the last file" "$out" "^(B: |   ).*m4max\.json$"

# eight machines stay readable at 80 columns: one column each, no line longer
for i in 1 2 3 4 5 6 7; do cp "$REF" "$TMP/m$i.json"; done
out=$("$MEMTOP" compare "$REF" "$TMP"/m[1-7].json)
like "eight files: one column per machine, A to H" "$out" '^ +size +A +B +C +D +E +F +G +H$'
is "eight files: no line longer than 79 columns" \
	"$(printf '%s\n' "$out" | awk 'length($0) > 79' | head -n 3)" ""
# a path deeper than a line, with a folder name longer than a line: broken
# after a '/', and the folder at the edge (whatever this checkout's path)
deep="$TMP/$(printf 'folder-name-%.0s' 1 2 3 4 5 6 7 8)/x"
mkdir -p "$deep" && cp "$REF" "$deep/m1.json" && cp "$REF" "$deep/m2.json"
is "a folder name longer than a line: still no line longer than 79 columns" \
	"$("$MEMTOP" compare "$deep/m1.json" "$deep/m2.json" | awk 'length($0) > 79' | head -n 3)" ""

status "--stride 3: not in the files, exit 2" 2 "$MEMTOP" compare "$REF" "$TMP/a.json" --stride 3
is "--stride 3: one line" "$(cat "$TMP/err")" "memtop: compare: not every file has stride 3"

"$MEMTOP" run latency --quick --json "$TMP/l1.json" >/dev/null 2>&1
"$MEMTOP" run latency --quick --json "$TMP/l2.json" >/dev/null 2>&1
out=$("$MEMTOP" compare "$TMP/l1.json" "$TMP/l2.json")
like "two latency runs: the random chase table" "$out" '^random chase, ns a load$'
like "16K row with both values" "$out" '^ +16K +[0-9.]+ +[0-9.]+$'
like "levels of each curve" "$out" '^  B: L1 [0-9]+K [0-9.]+ ns'

# a recorded quick run of this project's VM (levels to 8M, no memory
# plateau): every level line ends on its last level, not on a comma
L=$TESTDATA/latency-quick-epyc-vm.json
out=$("$MEMTOP" compare "$L" "$L")
like "recorded latency runs: the levels, comma-separated, no comma at the end" \
	"$(printf '%s\n' "$out" | sed -n 's/^  A: //p' | tail -n 1)" '^L1 48K [0-9.]+ ns(, [^,]+)+[^,]$'
# the conditions block: runs of one made-up server (tests/fleet_lib.sh).
# THP always in B where A has madvise, both chasing 4 KB pages (MADV_
# NOHUGEPAGE): the mode could not act, said so, not blamed; THP never in D
# where A has madvise, D's chase on 2 MB pages (MADV_HUGEPAGE): it acts,
# named with what it moves and its source; D's governor too, but no clock
# moved (both calibrated at 3.00 GHz)
. "$(dirname "$0")/fleet_lib.sh"
FLEET_COND=$(fleet_cond 8) fleet_latency "Xeon D" 16 0.1 srv1 80 >"$TMP/ca.json"
FLEET_COND=$(fleet_cond 8 | sed 's/"thp":"madvise"/"thp":"always"/') \
	fleet_latency "Xeon D" 16 0.1 srv1 80 >"$TMP/cb.json"
FLEET_COND=$(fleet_cond 8 | sed 's/"thp":"madvise"/"thp":"never"/; s/"governor":"performance"/"governor":"powersave"/') \
	fleet_latency "Xeon D" 16 0.1 srv1 80 | sed 's/"hugepages":"off"/"hugepages":"on"/' >"$TMP/cd.json"
out=$("$MEMTOP" compare "$TMP/ca.json" "$TMP/cb.json" "$L")
is "conditions: THP where it could not act, said so and not blamed" \
	"$(printf '%s\n' "$out" | sed -n '/^conditions/,$p')" \
	"conditions (the settings that move memory figures):
  B differs from A only where it could not act on these runs:
    THP: A madvise; B always (these runs' buffers get the same pages under
    either mode)
  C records none (an import, or a file from before memtop recorded them)"
out=$("$MEMTOP" compare "$TMP/ca.json" "$TMP/cd.json")
is "method first, then THP where it acts, the governor where no clock moved" \
	"$(printf '%s\n' "$out" | sed -n '/^method/,$p')" \
	"method (how each run measured, before any setting):
  B on 2 MB pages, A on 4 KB pages

conditions (the settings that move memory figures):
  B differs from A in (most telling first):
    THP: A madvise; B never
      moves the TLB steps of a latency curve, and memory latency on 4 KB pages
      (Linux Documentation/admin-guide/mm/transhuge.rst)
  B differs from A too where it could not act on these runs:
    governor: A performance; B powersave (no clock moved: calibrated 3.00 GHz
    in A, 3.00 in the other)"
out=$("$MEMTOP" compare "$TMP/ca.json" "$TMP/ca.json")
like "conditions: the same file differs in nothing" "$out" '^  B differs from A in nothing memtop records$'
out=$("$MEMTOP" compare "$L" "$TMP/ca.json")
like "conditions: A old, nothing to set against" "$out" \
	'^  A records none \(an import, or a file from before memtop recorded them\):$'
status "a latency run against a mountain: exit 2" 2 "$MEMTOP" compare "$TMP/l1.json" "$REF"
is "names the file of the other kind" "$(cat "$TMP/err")" \
	"memtop: $REF: not a latency result (compare files of one kind)"

# lab results (CHK-6: against the seed's Apple M4 Max figures with --seed)
SEEDREF="$MEMTOP_DATA/ref"
out=$("$MEMTOP" compare "$SEEDREF/matmul-m4max.json" --seed)
is "matmul against the seed: exit 0" "$?" 0
like "matmul: the seed's ikj row" "$out" '^ikj +BC +0\.61 +0\.61 +1\.00$'
like "matmul: each file's hardware line says whose figures (the reader keeps the header)" \
	"$out" "^   The seed's figures \\(seed 003\\): Apple M4 Max"
like "matmul: worst/best 17.9x, blocked 2.77x (the seed's 'seventeen', 'three')" "$out" \
	'^  A: worst/best order 17\.9x; ikj/blocked 2\.77x$'
out=$("$MEMTOP" compare "$SEEDREF/falseshare-m4max.json" --seed)
like "falseshare: ns per increment of the packed counters" "$out" '^ +2 packed +12\.36 +12\.36 +1\.00$'
like "falseshare: packed/padded 4.59x (the seed's 'four and a half')" "$out" \
	'^  2 threads:  A 4\.59x  B 4\.59x$'
out=$("$MEMTOP" compare "$SEEDREF/lists-m4max.json" --seed)
like "lists: the seed's shuffled walk at 4M cells" "$out" '^  4194304 shuffled +258\.3 +258\.3 +1\.00$'
like "lists: shuffled/sequential" "$out" '^  A at 4194304 cells: 99\.3x$'

"$MEMTOP" run falseshare --quick --json "$TMP/fs1.json" >/dev/null 2>&1
"$MEMTOP" run falseshare --quick --json "$TMP/fs2.json" >/dev/null 2>&1
out=$("$MEMTOP" compare "$TMP/fs1.json" "$TMP/fs2.json")
is "two falseshare runs (the issue's 'field sizes is missing'): exit 0" "$?" 0
like "two falseshare runs: the packed row at 2 threads" "$out" '^ +2 packed +[0-9.]+ +[0-9.]+ +[0-9.]+$'
out=$("$MEMTOP" compare "$TMP/fs1.json" --seed)
like "this machine against the seed: the seed's padded row" "$out" '^ +2 padded +[0-9.]+ +2\.69 +[0-9.]+$'

status "a matmul result against a lists result: exit 2" 2 \
	"$MEMTOP" compare "$SEEDREF/matmul-m4max.json" "$SEEDREF/lists-m4max.json"
is "names the file of the other kind" "$(cat "$TMP/err")" \
	"memtop: $SEEDREF/lists-m4max.json: not a matmul result (compare files of one kind)"
status "--seed with a latency run: exit 2" 2 "$MEMTOP" compare "$TMP/l1.json" --seed
like "--seed with a latency run: says the seed has none" "$(cat "$TMP/err")" \
	'^memtop: compare: --seed: the seed gives no latency figures to compare with'
