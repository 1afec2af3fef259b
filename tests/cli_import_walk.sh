#!/bin/sh
# memtop import and memtop levels on tinymembench tables built here (issue
# 36): a 4 KB-page curve whose step at a second-level TLB's reach (4M) is a
# page walk's added constant before a 24M L3, told as a TLB with the L3 read
# behind it; the same table with no pages stated, read the same way (the
# shape tells, whatever the file says: issue 46); and a curve of the same
# shape whose step at 4M multiplies, a cache's.
. "$TESTLIB"
plan 16

# table FILE HEADER_TAIL L2NS L3SIZE L3NS L4SIZE L4NS WALKNS: tinymembench's
# table over 1K..256M of a random chase (ns over a 1 ns L1 hit) on a core
# with L1 32K (1 ns), L2 512K, L3 and L4 (size 0: none), memory 160 ns, and
# past 4M (WALKNS > 0) a walk of WALKNS plus 2 ns an octave on the loads that
# miss the TLB
table() {
	awk -v hdr="$2" -v l2="$3" -v c3="$4" -v l3="$5" -v c4="$6" -v l4="$7" -v w="$8" 'BEGIN {
		print "block size : single random read / dual random read" hdr
		n = 0; C[++n] = 32768; L[n] = 1; C[++n] = 524288; L[n] = l2
		C[++n] = c3; L[n] = l3; if (c4 > 0) { C[++n] = c4; L[n] = l4 }
		for (e = 10; e <= 28; e++) {
			s = 2 ^ e; held = 0; t = 0
			for (k = 1; k <= n; k++) { h = C[k] / s; if (h > 1) h = 1; t += (h - held) * L[k]; held = h }
			t += (1 - held) * 160
			r = 4194304; if (w > 0 && s > r) t += (1 - r / s) * (w + 2 * log(s / r) / log(2))
			printf "%10d : %6.1f ns          / %6.1f ns\n", s, t - 1, 1.3 * (t - 1)
		}
	}' >"$1"
}
MB=1048576
table "$TMP/walk.txt" ", [MADV_NOHUGEPAGE]" 12 $((24 * MB)) 30 0 0 40
table "$TMP/unstated.txt" "" 12 $((24 * MB)) 30 0 0 40
table "$TMP/cache.txt" ", [MADV_NOHUGEPAGE]" 4 $((4 * MB)) 14 $((24 * MB)) 40 0

# levels NAME: import $TMP/NAME.txt, then memtop levels; the level lines
levels() {
	"$MEMTOP" import "$TMP/$1.txt" --json "$TMP/$1.json" >/dev/null 2>&1 &&
		"$MEMTOP" levels "$TMP/$1.json" >"$TMP/$1.out" 2>&1 &&
		sed -n 's/^\(L[0-9]* size: [0-9.]* [KMG]*B\),.*/\1/p; s/^\(TLB[0-9]* size: [0-9]* entries ([0-9.]* [KMG]*B of 4 KB pages)\).*/\1/p; s/^\(Memory from [0-9.]* [KMG]*B\):.*/\1/p' \
			"$TMP/$1.out" | tr '\n' ';'
}

status "4 KB pages stated: import exits 0" 0 "$MEMTOP" import "$TMP/walk.txt" --json "$TMP/w.json"
like "import says 4 KB pages" "$(cat "$TMP/out")" 'random chase \(ns over L1\) on 4 KB pages \(as the file says\)$'
is "the walk's step at 4M a TLB, the L3 read behind it" "$(levels walk)" \
	"L1 size: 32 KB;L2 size: 512 KB;TLB1 size: 1024 entries (4 MB of 4 KB pages);L3 size: 16 MB;Memory from 32 MB;"
like "said how it was told" "$(cat "$TMP/walk.out")" \
	'^   a TLB, not a cache: on 4 KB pages the step adds what a walk of the page tables can cost'
unlike "no second-level TLB doubt left on the L3" "$(cat "$TMP/walk.out")" 'as a second-level TLB'"'"'s: on 4 KB pages alone'
status "levels --json exits 0" 0 "$MEMTOP" levels "$TMP/walk.json" --json "$TMP/wl.json"
like "the JSON says a TLB" "$(cat "$TMP/wl.json")" '"told_by":[[:space:]]*"a page walk'"'"'s added constant on 4 KB pages"'
like "the L3's latency is its own, without the walk" "$(grep '^L3' "$TMP/walk.out")" 'latency: \+2[0-9]\.[0-9] ns over L1'

status "pages not stated: import exits 0" 0 "$MEMTOP" import "$TMP/unstated.txt" --json "$TMP/u.json"
is "pages not stated: the step at 4M a TLB all the same, the L3 read behind it" "$(levels unstated)" \
	"L1 size: 32 KB;L2 size: 512 KB;TLB1 size: 1024 entries (4 MB of 4 KB pages);L3 size: 16 MB;Memory from 32 MB;"

status "a cache's step of the same shape: import exits 0" 0 "$MEMTOP" import "$TMP/cache.txt" --json "$TMP/c.json"
# (the L4's 32M point, a quarter of its loads missing, reads under what a
# walk could add to it: on 4 KB pages alone the L4 is read to it)
is "the multiplicative step at 4M stays a cache, the 24M one read too" "$(levels cache)" \
	"L1 size: 32 KB;L2 size: 512 KB;L3 size: 4 MB;L4 size: 32 MB;Memory from 64 MB;"
unlike "no TLB told on the cache curve" "$(cat "$TMP/cache.out")" '^TLB'
status "levels --json on the cache curve exits 0" 0 "$MEMTOP" levels "$TMP/c.json" --json "$TMP/cl.json"
unlike "its JSON has no TLB" "$(cat "$TMP/cl.json")" '"told_by"'
is "the three tables are 19 sizes each" "$(grep -c ' ns$' "$TMP/walk.txt") $(grep -c ' ns$' "$TMP/cache.txt")" "19 19"
