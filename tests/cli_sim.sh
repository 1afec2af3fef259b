#!/bin/sh
# memtop sim: cachelab's conformance triples, csim-ref's -v lines byte for
# byte, and malformed traces rejected with FILE:LINE.
. "$TESTLIB"
plan 33
D=$TESTDATA

sim() { "$MEMTOP" sim "$@" 2>&1; }
is "(1,1,1) yi2" "$(sim -s 1 -E 1 -b 1 -t "$D/yi2.trace")" "hits:9 misses:8 evictions:6"
is "(4,2,4) yi" "$(sim -s 4 -E 2 -b 4 -t "$D/yi.trace")" "hits:4 misses:5 evictions:2"
is "(2,1,4) dave" "$(sim -s 2 -E 1 -b 4 -t "$D/dave.trace")" "hits:2 misses:3 evictions:1"
is "(2,1,3) trans" "$(sim -s 2 -E 1 -b 3 -t "$D/trans.trace")" "hits:167 misses:71 evictions:67"
is "(2,2,3) trans" "$(sim -s 2 -E 2 -b 3 -t "$D/trans.trace")" "hits:201 misses:37 evictions:29"
is "(2,4,3) trans" "$(sim -s 2 -E 4 -b 3 -t "$D/trans.trace")" "hits:212 misses:26 evictions:10"
is "(5,1,5) trans" "$(sim -s 5 -E 1 -b 5 -t "$D/trans.trace")" "hits:231 misses:7 evictions:0"
is "(5,1,5) long" "$(sim -s 5 -E 1 -b 5 -t "$D/long.trace")" "hits:265189 misses:21775 evictions:21743"
is "(4,1,4) yi" "$(sim -s 4 -E 1 -b 4 -t "$D/yi.trace")" "hits:4 misses:5 evictions:3"

# csim-ref -v: "OP ADDR,SIZE" then the words, each line ending in " \n"
printf '%s \n' 'L 10,1 miss' 'M 20,1 miss hit' 'L 22,1 hit' 'S 18,1 hit' \
	'L 110,1 miss eviction' 'L 210,1 miss eviction' 'M 12,1 miss eviction hit' >"$TMP/want"
printf 'hits:4 misses:5 evictions:3\n' >>"$TMP/want"
"$MEMTOP" sim -v -s 4 -E 1 -b 4 -t "$D/yi.trace" >"$TMP/got"
ok "-v output is csim-ref's byte for byte" cmp "$TMP/want" "$TMP/got"
"$MEMTOP" sim -s 4 -E 1 -b 4 -t "$D/yi.trace" -v >"$TMP/got2"
ok "-v after the other options too" cmp "$TMP/want" "$TMP/got2"
is "-v prints addresses without leading zeros" \
	"$("$MEMTOP" sim -v -s 5 -E 1 -b 5 -t "$D/trans.trace" | head -2)" \
	"$(printf 'S 600aa0,1 miss \nS 7ff000398,8 miss ')"

# the same trace with CRLF, tabs, valgrind chatter and I lines
{ printf '==4242== Lackey, an example Valgrind tool\r\n--4242-- note\r\n'
  printf 'I  0400d7d4,8\r\n'; sed 's/$/\r/; s/^ /\t /' "$D/yi.trace"; printf '\r\n  \n'; } >"$TMP/crlf.trace"
is "CRLF, tabs, ==PID== and I lines tolerated" \
	"$(sim -s 4 -E 1 -b 4 -t "$TMP/crlf.trace")" "hits:4 misses:5 evictions:3"
is "standard input with -t -" \
	"$("$MEMTOP" sim -s 4 -E 1 -b 4 -t - <"$D/yi.trace" 2>&1)" "hits:4 misses:5 evictions:3"
# large E, checked against an independent LRU (Python OrderedDict)
is "large E: (0,1024,5) long" "$(sim -s 0 -E 1024 -b 5 -t "$D/long.trace")" \
	"hits:282733 misses:4231 evictions:3207"
is "large E: (2,64,4) long" "$(sim -s 2 -E 64 -b 4 -t "$D/long.trace")" \
	"hits:278763 misses:8201 evictions:7945"

# malformed traces: FILE:LINE: what is wrong, exit 2
bad() { # DESC LINE2 REGEX
	printf ' L 10,1\n%s\n L 20,1\n' "$2" >"$TMP/bad.trace"
	status "$1: exit 2" 2 "$MEMTOP" sim -s 4 -E 1 -b 4 -t "$TMP/bad.trace"
	like "$1: names file and line" "$(cat "$TMP/err")" "bad\\.trace:2: $3"
}
bad "bad op" " X 10,1" "bad op"
bad "bad hex" " L 1g,1" "bad address"
bad "missing comma" " L 10 1" "missing ','"
bad "huge address" " L 123456789abcdef01,1" "address does not fit in 64 bits"
bad "missing size" " S 10," "bad size"

status "no options: exit 2" 2 "$MEMTOP" sim
status "E = 0: exit 2" 2 "$MEMTOP" sim -s 1 -E 0 -b 1 -t "$D/yi.trace"
# a trace that is not there is bad usage (2), as a missing mountain is to
# cliffs; one that cannot be read (EIO) is a runtime failure (1)
status "missing file: exit 2, as cliffs on a missing mountain" 2 "$MEMTOP" sim -s 1 -E 1 -b 1 -t "$TMP/none.trace"
status "missing mountain for cliffs: exit 2 too" 2 "$MEMTOP" cliffs "$TMP/none.json"
if [ -r /proc/self/mem ]; then
	status "a read error (EIO from /proc/self/mem): exit 1" 1 "$MEMTOP" sim -s 1 -E 1 -b 1 -t /proc/self/mem
	like "... named as a read error" "$(cat "$TMP/err")" '^memtop: /proc/self/mem: read error: '
else
	skip "a read error (EIO from /proc/self/mem): exit 1" "no /proc/self/mem"
	skip "... named as a read error" "no /proc/self/mem"
fi
status "--help: exit 0" 0 "$MEMTOP" sim --help
