#!/bin/sh
# memtop levels through the real binary: the levels of a recorded run in the
# words of run latency, --json to a file and to stdout, exit codes.
. "$TESTLIB"
plan 33
# levels_line DESC FILE LINE_DESC GREP WANT: memtop levels FILE exits 0
# (DESC), and its one line matching GREP is WANT (LINE_DESC): two cases
levels_line() {
	status "$1" 0 "$MEMTOP" levels "$2"
	is "$3" "$(grep "$4" "$TMP/out")" "$5"
}
RUN="$TESTDATA/corpus/memtop-zen5-vm-latency-2.json"

status "--help exits 0" 0 "$MEMTOP" levels --help
status "a recorded run exits 0" 0 "$MEMTOP" levels "$RUN"
out=$(cat "$TMP/out")
like "the L1, its way from the strides" "$out" '^L1 size: 48 KB, latency: 4\.24 cycles \(1\.23 ns\), way size: 4 KB \(12 ways\)$'
like "the TLB step marked as a TLB" "$out" '^TLB1 size: 96 entries \(384 KB of 4 KB pages\)'
like "L2 with its latency" "$out" '^L2 size: 896 KB, latency: 14\.9 cycles \(4\.33 ns\), way size: not measurable here$'
is "memory: its latency at a stated size, its spread, what it includes, where the curve ends" \
	"$(printf '%s\n' "$out" | grep '^Memory')" \
	"Memory from 4 MB: latency 512 cycles (148 ns) at 8 MB..16 MB (the median of 9 points, 144..154 ns; 4 KB pages: page walks included), 407 ns at 512 MB"

status "--json - exits 0" 0 "$MEMTOP" levels "$RUN" --json -
like "stdout is the JSON" "$(cat "$TMP/out")" '"levels_read_from":[[:space:]]*"random chase"'
like "the text on stderr" "$(cat "$TMP/err")" '^L3 size: 3\.75 MB'
status "--json FILE exits 0" 0 "$MEMTOP" levels "$RUN" --json "$TMP/lv.json"
like "the file has the memory" "$(cat "$TMP/lv.json")" '"memory":[[:space:]]*\{'

# a run that recorded its machine's caches (as run latency and the Latency
# tab do now) is held against them: the Zen 5 guest's CPUID, whose L3 the
# guest sees only a few MB of
{ sed -n '1p' "$RUN"; printf '"caches": '; cat "$TESTDATA/caches-zen5-vm.json"; printf ',\n'
  sed -n '2,$p' "$RUN"; } >"$TMP/with-caches.json"
status "a run with its caches exits 0" 0 "$MEMTOP" levels "$TMP/with-caches.json"
out=$(cat "$TMP/out")
like "L1 against the recorded CPUID" "$out" '^   cpuid says L1 48 KB: matches$'
like "L2 against the recorded CPUID" "$out" '^   cpuid says L2 1 MB: matches$'
like "the recorded 508 MB L3 read as the effective size" "$out" \
	'^   cpuid says L3 508 MB: effective ~3\.75 MB of it here'

printf '{"experiment":"latency","ghz":1,"sizes":[4096,8192],"strides":[],"ns":[],"random":{"sizes":[4096],"ns":[1]}}\n' >"$TMP/bad.json"
status "a ragged random curve: exit 2" 2 "$MEMTOP" levels "$TMP/bad.json"
is "one line naming the file and field" "$(cat "$TMP/err")" \
	"memtop: $TMP/bad.json: random.sizes has 1 values, expected 2"
# a curve that ends in a cache (the run cut at 3 MB): its last level is not
# called memory (memory answers in 50 ns or more)
status "a curve cut at 3 MB exits 0" 0 "$MEMTOP" levels "$TESTDATA/latency-zen5-vm-to3m.json"
is "the last level seen, not memory" "$(grep -v '^ ' "$TMP/out" | tail -n 1)" \
	"The curve ends at 3 MB: the last level seen (from 960 KB, 55.7 cycles (16.1 ns)) is at least L3-like, memory not reached (memory answers in 50 ns or more; a larger --max-size reaches it)"
unlike "no Memory line" "$(cat "$TMP/out")" '^Memory from'
# a curve cut inside the step to memory (issue 42 item 13): as slow as
# memory from 2.5 MB but still climbing, 77..143 ns over its last points,
# no plateau reached: not called memory
S=16384,32768,49152,65536,131072,262144,524288,786432,1048576,1310720,1572864,1835008,2097152,2621440,2883584,3145728
printf '{"experiment":"latency","ghz":1,"sizes":[%s],"strides":[],"ns":[],"random":{"sizes":[%s],"ns":[1.2,1.2,1.2,4,4,4,4,4,4.1,15,15,15.2,16,77,110,143]},"hugepages":"on"}\n' \
	"$S" "$S" >"$TMP/cut.json"
status "a curve cut inside the step to memory exits 0" 0 "$MEMTOP" levels "$TMP/cut.json"
is "it ends inside a level" "$(tail -n 1 "$TMP/out")" \
	"The curve ends at 3 MB inside a level: from 2.50 MB it reads 77..143 ns and has not settled (no last octave within 25 %): run a larger --max-size"
unlike "no Memory line for it" "$(cat "$TMP/out")" '^Memory from'
# memory read from a huge-page chase is said to be without the page walks
"$MEMTOP" import "$TESTDATA/corpus/tinymembench-intel-n100-nohuge.txt" \
	"$TESTDATA/corpus/tinymembench-intel-n100-huge.txt" --json "$TMP/n100.json" >/dev/null 2>&1
levels_line "the N100's two tables exit 0" "$TMP/n100.json" \
	"memory on huge pages, over L1, without most page walks" '^Memory' \
	"Memory from 16 MB: latency +81.8 ns over L1 at 32 MB..64 MB (the median of 2 points, +76..+87 ns; huge pages: without most page walks)"
# a 48K 12-way L1 whose 48K point rose half way (the size read as 44K):
# the ways from both ends of the step, not 11
levels_line "an L1 read at 44K exits 0" "$TESTDATA/latency-xeon-vm-44k.json" \
	"its ways: 11..12, the step between 44 and 48 KB" '^L1' \
	"L1 size: 44 KB, latency: 5.00 cycles (1.22 ns), way size: 4 KB (11..12 ways: the step lies between 44 KB and 48 KB)"
# an L3 plateau followed by a brief rise (page walks, other tenants) is a
# level, not the middle of the step from L2 (the loaded Xeon guest's run)
status "the loaded Xeon run exits 0" 0 "$MEMTOP" levels "$TESTDATA/latency-xeon-vm-load8.json"
like "its L3 at 18 MB, below memory's 50 ns" "$(cat "$TMP/out")" \
	'^L3 size: 18 MB, latency: 142 cycles \(39\.2 ns\), way size: not measurable here$'
like "memory from 20 MB" "$(cat "$TMP/out")" '^Memory from 20 MB: '
# a step at a second-level TLB's reach on 4 KB pages alone is said to be doubtful
levels_line "the 16 MB step's run exits 0" "$TESTDATA/latency-xeon-vm-l3-16m.json" \
	"its step at 4096 pages' reach, and what tells" 'reach of' \
	"   16 MB is the reach of 4096 4 KB pages, as a second-level TLB's: on 4 KB pages alone this step may be the TLB's (a run with --hugepages both tells them apart)"
status "no file: exit 2" 2 "$MEMTOP" levels
