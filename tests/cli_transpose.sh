#!/bin/sh
# memtop run transpose / algae: the seed's tables exactly, JSON, options.
. "$TESTLIB"
plan 17

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
soa-one-pass 512 512'
j=$(tr -d ' \n\t' <"$TMP/a.json")
like "algae --json" "$j" '"results":\[\{"case":"aos-two-passes","reads":512,"misses":256\},\{"case":"aos-column"'
status "algae: unknown option is exit 2" 2 "$MEMTOP" run algae --bogus
