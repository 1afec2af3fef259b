#!/bin/sh
# memtop run transpose / algae: the seed's tables exactly, JSON, options.
. "$TESTLIB"
plan 39

out=$("$MEMTOP" run transpose --no-real 2>"$TMP/err")
is "transpose: exit 0" "$?" 0
table=$(printf '%s\n' "$out" | grep -v '^#' | sed -n 1,5p)
want='version     32x32  64x64  61x67
naive        1180   4720   4706
block:8       340   4720   2222
block:16     1180   4720   2005
diagonal      284   1224   2005'
is "transpose: the seed's table exactly" "$table" "$want"
like "transpose: cachelab limits" "$out" 'cachelab +<300 +<1300 +<2000'
like "transpose: diagonal passes 32x32 and 64x64" "$out" 'diagonal +pass +pass +FAIL'
unlike "transpose: --no-real skips the real machine" "$out" 'real machine'

"$MEMTOP" run transpose --size 32x32 --version naive --cache 5,1,5 --no-real \
	--json "$TMP/t.json" >/dev/null 2>&1
is "transpose --json: exit 0" "$?" 0
j=$(tr -d ' \n\t' <"$TMP/t.json")
like "transpose --json: cache" "$j" '"cache":\{"s":5,"E":1,"b":5\}'
like "transpose --json: result" "$j" '"version":"naive","rows":32,"cols":32,"accesses":2048,"hits":868,"misses":1180,"evictions":'

out=$("$MEMTOP" run transpose --size 64x64 --version block:8 --cache 4,4,5 --no-real 2>&1)
like "transpose: another cache" "$out" 'cache \(s,E,b\) = \(4,4,5\)'

out=$("$MEMTOP" run transpose --size 8x8 --version naive --real-n 256 --tries 1 2>&1)
like "transpose: small real run prints the speed-up" "$out" 'speed-up +[0-9.]+x'

# CHK-4: a non-square block (16 rows by 4 columns) gets 61x67 under 2000, and
# its misses are what memtop sim counts on the trace the run writes
mkdir "$TMP/tr"
out=$("$MEMTOP" run transpose --no-real --size 61x67 --version block:16x4 --trace-out "$TMP/tr" 2>&1)
like "block:16x4 on 61x67: 1969 misses" "$out" '^block:16x4 +1969$'
like "block:16x4 on 61x67: under cachelab's 2000" "$out" '^block:16x4 +pass$'
is "memtop sim on the written trace gives the same misses" \
	"$("$MEMTOP" sim -s 5 -E 1 -b 5 -t "$TMP/tr/transpose-block-16x4-61x67.trace")" \
	'hits:6205 misses:1969 evictions:1937'
# CHK-4's sweep: the blocks 4..24, and the fewest misses
out=$("$MEMTOP" run transpose --no-real --size 61x67 --version block:16x4 --sweep 2>&1)
is "--sweep: block:4 .. block:24 on 61x67" \
	"$(printf '%s\n' "$out" | awk '/^block:[0-9]+ +[0-9]+$/ {printf "%s %s;", $1, $2}')" \
	'block:4 2440;block:8 2222;block:12 2093;block:16 2005;block:20 1985;block:24 2465;'
like "--sweep: the fewest misses" "$out" '^# fewest misses: 61x67 block:16x4 1969$'
# buffer:K reads each block row into locals: buffer:8 on 32x32 is diagonal32
out=$("$MEMTOP" run transpose --no-real --size 32x32 --version buffer:8,diagonal 2>&1)
like "buffer:8 on 32x32: 284, diagonal32's count" "$out" '^buffer:8 +284$'
# --sets: the 268-byte rows of A and the 244-byte rows of B in the 32 sets
out=$("$MEMTOP" run transpose --no-real --size 61x67 --version block:16 --sets 2>&1)
like "--sets: A's row 1 starts 268 bytes on, in set 8" "$out" \
	'^A row   1 0x10010c sets   8\.\.16  \.{8}#{9}\.{15}$'
like "--sets: B's rows are 244 bytes" "$out" '^B row   1 0x1400f4 sets   7\.\.15 '
like "--sets: block:16's misses by set, 32 counts" "$out" '^block:16 +[0-9]+( [0-9]+){31}$'
# the homework's real table: naive, block:K and buffer:K, each after an untimed run
out=$("$MEMTOP" run transpose --no-real --size 8x8 --version naive 2>&1)
out=$("$MEMTOP" run transpose --size 8x8 --version naive --real-n 256 --real-sweep --tries 1 2>&1)
lines "--real-sweep: naive, six block sizes and six buffers" "$out" \
	'^(naive|block:[0-9]+|buffer:[0-9]+) +[0-9.]+ ns/element' 13
like "--real-sweep: every try is warm" "$out" 'best of 1 after one untimed run'
status "transpose: diagonal on the real machine is exit 2" 2 "$MEMTOP" run transpose \
	--real-version diagonal
status "transpose: --trace-out into missing folders: exit 0" 0 "$MEMTOP" run transpose \
	--no-real --size 32x32 --version naive --trace-out "$TMP/nowhere/yet"
is "... made, with the trace" "$(ls "$TMP/nowhere/yet")" "transpose-naive-32x32.trace"
: >"$TMP/afile"
status "transpose: --trace-out under a file is exit 2" 2 "$MEMTOP" run transpose \
	--no-real --trace-out "$TMP/afile/x"
is "... one line naming the file in the way" "$(cat "$TMP/err")" \
	"memtop: run transpose: --trace-out: $TMP/afile/x: $TMP/afile is not a folder"
status "transpose: bad size is exit 2" 2 "$MEMTOP" run transpose --size 61 --no-real
status "transpose: bad version is exit 2" 2 "$MEMTOP" run transpose --version fast --no-real
status "transpose: bad cache is exit 2" 2 "$MEMTOP" run transpose --cache 5,0,5 --no-real

out=$("$MEMTOP" run algae --json "$TMP/a.json" 2>&1)
is "algae: exit 0" "$?" 0
rows=$(printf '%s\n' "$out" | awk '/^(aos|soa)-/ {print $1, $2, $3}')
is "algae: the table" "$rows" 'aos-two-passes 512 256
aos-column 512 256
aos-row 512 128
soa-two-passes 512 128
soa-one-pass 512 512
aos-one-field 256 128
soa-one-field 256 64'
j=$(tr -d ' \n\t' <"$TMP/a.json")
like "algae --json" "$j" '"results":\[\{"case":"aos-two-passes","reads":512,"misses":256\},\{"case":"aos-column"'
status "algae: unknown option is exit 2" 2 "$MEMTOP" run algae --bogus
# the doubled cache (the lesson on 6.19): the column walk drops to 128
out=$("$MEMTOP" run algae --cache 7,1,4 2>&1)
like "algae --cache 7,1,4: the column walk's 128 misses" "$out" '^aos-column +512 +128 '
like "algae --cache 7,1,4: says the cache is 2 KB" "$out" '\(s,E,b\) = \(7,1,4\): 2048 bytes'
status "algae: a bad cache is exit 2" 2 "$MEMTOP" run algae --cache 6,0,4
# the third homework: one field of five, simulated and on this machine
out=$("$MEMTOP" run algae --fields 5 --real 1000 --tries 2 --json "$TMP/a5.json" 2>&1)
like "algae --fields 5: aos one field misses every read" "$out" '^aos-one-field +256 +256 '
like "algae --real: both layouts timed, the same sum" "$out" \
	'^soa-one-field +[0-9.]+ ns/element +[0-9.]+x faster$'
like "algae --real --json: the real pair" "$(tr -d ' \n\t' <"$TMP/a5.json")" \
	'"real":\{"structs":1000,"tries":2,"aos_ns_per_element":[0-9.e-]+,"soa_ns_per_element"'
