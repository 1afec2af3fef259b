#!/bin/sh
# memtop cliffs on the seed's tables: the seed rule reproduces the seed's
# output, the merged rule drops its false L2; bad files exit 2 with one line.
. "$TESTLIB"
plan 50
REF="$MEMTOP_DATA/m4max.json"

out=$("$MEMTOP" cliffs "$REF" --stride 8 --rule seed)
like "stride 8: the seed's cliff" "$out" '^cliff between 128 KB and 256 KB: drop 3\.54x$'
like "stride 8: L1 128 KB" "$out" '^L1 by the mountain: 128 KB$'
out=$("$MEMTOP" cliffs "$REF" --stride 15 --rule seed)
like "stride 15 seed: first cliff 2.97x" "$out" 'cliff between 128 KB and 256 KB: drop 2\.97x'
like "stride 15 seed: the false L2" "$out" 'cliff between 256 KB and 512 KB: drop 1\.66x'
like "stride 15 seed: says L2 256 KB" "$out" '^L2 by the mountain: 256 KB$'
out=$("$MEMTOP" cliffs "$REF" --stride 15)
like "stride 15 merged: one level" "$out" '^levels on this stride: 128 KB$'
unlike "stride 15 merged: no L2 at 256 KB" "$out" 'L2 by the mountain'
out=$("$MEMTOP" cliffs "$REF" --stride 1 --rule seed)
like "stride 1: no cliffs" "$out" '^no cliffs: no drop of 1\.50x or more$'
out=$("$MEMTOP" cliffs "$REF")
like "default: combined over strides 8 and 15" "$out" 'combined over strides 8, 15 \(sizes 16K\.\.128M\):
  L1 128 KB \(128 KB to 256 KB, seen on 2 of 2 strides\)'
like "line size 64 bytes" "$out" '^line size by the stride slice: 64 bytes$'
like "verdict against the recorded sysctl L1" "$out" 'L1 128 KB \(sysctl\): matches'
# the passport (seed 000, step 5), on the seed's own figures
like "passport: peak at stride 1, 128K" "$out" '^  peak        89578 MB/s \(stride 1 at 128K\)$'
like "passport: floor at 128M, stride 15" "$out" '^  floor        9304 MB/s \(stride 15 at 128M\)$'
like "passport: peak/floor" "$out" '^  peak/floor   9\.63$'
like "passport: the stride-1 ridge, 85..91 % of the peak" "$out" \
	'^  ridge       78705 MB/s at stride 1 past the peak \(76032\.\.81794\): 88 % of the peak \(85\.\.91 %\)$'
like "passport: the full 256K row, its knee and stride 1 / stride 8" "$out" \
	'line row   256K \(the full row\), strides 1\.\.15: 79876 55905 45076 36083 29151 24520 21168 20841 20123 19748 21643 28225 19346 19901 28296
 +flat from stride 8 = 64 bytes; stride 1 / stride 8 = 3\.83$'
# a quick grid (strides 1..8): the passport of what it supports, the line
# size said not measurable from its strides
out=$("$MEMTOP" cliffs "$TESTDATA/m4max-strides1to8.json")
like "strides 1..8: the passport is printed" "$out" '^passport \(seed 000, step 5: write these down\):$'
like "strides 1..8: peak/floor" "$out" '^  peak/floor   6\.47$'
like "strides 1..8: the line size not measurable" "$out" \
	'^             line size not measurable from strides 1\.\.8: run the full grid; stride 1 / stride 8 = 3\.83$'
# the verdicts follow the stride read and say so: a quick mountain's one
# column (its 1.57x L1 cliff holds the 48K L1), --stride 1 (no cliff), the
# seed rule's false L2 on stride 15
out=$("$MEMTOP" cliffs "$TESTDATA/mountain-quick-xeon-157.json")
like "quick: the 1.57x cliff printed" "$out" '^cliff between 32 KB and 64 KB: drop 1\.57x$'
is "quick: the L1 inside that cliff matches" "$(printf '%s\n' "$out" | grep -A1 '^against the caches')" \
	"against the caches recorded with the run (from stride 8's cliffs above, the merged rule):
  L1 48 KB (sysfs): matches (mountain L1 32 KB)"
# a latency run beside the file (the same host and CPU) is read with it, and
# where the two disagree the size is read from the latency run, said
mkdir "$TMP/runs"
cp "$TESTDATA/mountain-quick-xeon-157.json" "$TESTDATA/latency-xeon-vm-l3-16m.json" "$TMP/runs/"
out=$("$MEMTOP" cliffs "$TMP/runs/mountain-quick-xeon-157.json")
like "the latency run beside the file is found" "$out" \
	"^against the latency levels \($TMP/runs/latency-xeon-vm-l3-16m.json, beside the file: a latency run of the same host and CPU\):$"
like "its L1 agrees" "$out" '^  latency L1 48 KB: agrees \(mountain L1 32 KB\)$'
# three runs of that machine beside it: its L3 moves, said with its range
cp "$TESTDATA/latency-xeon-vm-44k.json" "$TESTDATA/latency-xeon-vm-load8.json" "$TMP/runs/"
is "a moving last level, with both ends" \
	"$("$MEMTOP" cliffs "$TMP/runs/mountain-quick-xeon-157.json" | grep 'runs beside')" \
	"  the 3 runs beside it put their last cache level at 12 MB..18 MB: its effective size moves (a cache shared with other cores or guests); the newest is read"
"$MEMTOP" import "$TESTDATA/corpus/csapp-zen5-vm-mountain.txt" --json "$TMP/zen5m.json" >/dev/null 2>&1
out=$("$MEMTOP" cliffs "$TMP/zen5m.json" --latency "$TESTDATA/corpus/memtop-zen5-vm-latency-2.json")
is "a disagreement says which size is read and why" "$(printf '%s\n' "$out" | grep '^  latency L3')" \
	"  latency L3 3.8 MB: disagrees: the mountain's L3 is 16 MB, 4.3x the latency's; the size is read from the latency run (its random chase, which no prefetcher follows, sees the cache; the mountain's strided streams are prefetched past it)"
status "--json reads no file beside" 0 "$MEMTOP" cliffs "$TMP/runs/mountain-quick-xeon-157.json" --json
out=$("$MEMTOP" cliffs "$REF" --stride 1)
is "--stride 1: no cliff, so no match" "$(printf '%s\n' "$out" | grep -A1 '^against')" \
	"against the caches recorded with the run (from stride 1's cliffs above, the merged rule):
  L1 128 KB (sysctl): not visible (no cliff on the stride read)"
out=$("$MEMTOP" cliffs "$REF" --stride 15 --rule seed)
like "stride 15 seed: the last knee is the seed rule's 256 KB" "$out" \
	'^  L2 16 MB \(sysctl\): not visible \(the mountain.s last knee is at 256 KB\)$'
out=$("$MEMTOP" cliffs "$REF")
like "several strides: the verdicts say they read the combined levels" "$out" \
	'^against the caches recorded with the run \(from the levels combined over 2 strides above\):$'
like "... and the L1 plateau in cycles still found" "$("$MEMTOP" cliffs "$REF" --stride 1)" \
	'^  L1 plateau 89578 MB/s'
is "--json, seed rule" "$("$MEMTOP" cliffs "$REF" --stride 8 --rule seed --json)" \
	'{"stride":8,"rule":"seed","cliffs":[{"from":131072,"to":262144,"ratio":3.541,"level":131072,"confidence":1}],"levels":[131072],"line_bytes":64}'

# the seed's spelling: the stride after the file (./cliffs mountain.json 8)
is "cliffs FILE 8 is cliffs FILE --stride 8" "$("$MEMTOP" cliffs "$REF" 8 --rule seed)" \
	"$("$MEMTOP" cliffs "$REF" --stride 8 --rule seed)"
status "cliffs FILE x: exit 2" 2 "$MEMTOP" cliffs "$REF" x
is "names the memtop spelling" "$(cat "$TMP/err")" \
	"memtop: cliffs: expected one mountain file, and a stride as --stride N or after the file (see memtop cliffs --help)"
# and the seed's --out for the JSON a run writes
"$MEMTOP" run mountain --quick --sizes 16K:16K --strides 1 --out "$TMP/out.json" >/dev/null 2>&1
is "run mountain --out FILE writes the JSON as --json does" "$("$JSONQ" "$TMP/out.json" 'strides[*]')" 1

status "stride 3 is not in the file: exit 2" 2 "$MEMTOP" cliffs "$REF" --stride 3
like "names the file and the strides it has" "$(cat "$TMP/err")" 'm4max.json: no stride 3 in the file \(strides: 1, 2, 4, 8, 15\)'
printf '{"sizes":[16384,32768],"strides":[1,2],"throughput":[[10,9],[5,4,3]]}\n' >"$TMP/ragged.json"
status "ragged table: exit 2" 2 "$MEMTOP" cliffs "$TMP/ragged.json"
is "ragged table: one line naming file and row" "$(cat "$TMP/err")" \
	"memtop: $TMP/ragged.json: throughput row 2 has 3 values, expected 2"

# the mountain's levels against the plateaus of a latency run
"$MEMTOP" run latency --quick --json "$TMP/lat.json" >/dev/null 2>&1
out=$("$MEMTOP" cliffs "$REF" --latency "$TMP/lat.json")
like "--latency: a section per latency run" "$out" "^against the latency levels \($TMP/lat.json\):$"
like "--latency: the latency L1 with its size" "$out" '^  latency L1 [0-9.]+ [KM]B: '
# the verdicts themselves on recorded curves (this machine's would vary):
# an L1 plateau to 128K is the M4 Max's 128 KB L1; one to 32K is not seen
out=$("$MEMTOP" cliffs "$REF" --latency "$TESTDATA/latency-l1-128k.json")
like "--latency: a 128K plateau agrees with the mountain's L1" "$out" \
	'^  latency L1 128 KB: agrees \(mountain L1 '
out=$("$MEMTOP" cliffs "$REF" --latency "$TESTDATA/latency-l1-32k.json")
like "--latency: a 32K plateau is not the mountain's L1" "$out" \
	'^  latency L1 32 KB: (disagrees|not visible)'
status "--latency with a mountain file: exit 2" 2 "$MEMTOP" cliffs "$REF" --latency "$REF"
is "--latency with a mountain file: one line naming it, nothing on stdout" \
	"$(cat "$TMP/err")|$(cat "$TMP/out")" \
	"memtop: $REF: not a latency run (a mountain)|"

# the seed's cycles per word (seed 000): the M4 Max at most 4.5 GHz (Apple
# publishes no clock) reads 0.40 cycles a word in L1 and 3.9 at the floor
out=$("$MEMTOP" cliffs "$REF")
like "cycles per word: the clock unknown, with the seed's bound" "$out" \
	"^cycles per word \\(core clock unknown: Apple does not publish it; the seed's upper bound is 4\\.5 GHz\\):$"
like "the L1 plateau: at most 0.40 cycles a word" "$out" \
	'^  L1 plateau 89578 MB/s \(128K, stride 1\): at most 0\.40 cycles a word$'
like "the floor: at most 3.9 cycles a word, under a nanosecond" "$out" \
	'^  floor 9304 MB/s \(128M, stride 15\): at most 3\.9 cycles a word, 0\.86 ns a word$'
like "--json: the same reading" "$("$MEMTOP" cliffs "$REF" --json)" \
	'"cycles_per_word":\{"core_ghz":4\.5,"clock":"bound",'
is "--json - is --json" "$("$MEMTOP" cliffs "$REF" --json -)" "$("$MEMTOP" cliffs "$REF" --json)"
