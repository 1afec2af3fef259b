#!/bin/sh
# The lab tabs through tmux, each with a small measurement (memtop --quick
# plus the tab's own keys for smaller sizes): the Latency curve and its
# levels (also in the Caches panel), the Matmul race's bars and finish
# order, the Transpose counters and cachelab verdict, the False sharing
# table and sweep, the Lists table. Every assertion reads numbers where the
# tab puts them; no cache size of this machine is hard-coded.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
plan 26

tstart 110 34 -- --quick

# ---- 2 Latency: 4K..1M (m), the quick strides 128 and 4096 plus random ----
wok "memtop --quick starts on the Mountain tab" 'r measures 10 sizes 16K\.\.8M' 10
tkeys 2
wok "2 selects the Latency tab" 'Latency by pointer chasing: no run yet' 5
tkeys m
wok "m asks for the largest array" 'Largest array for the next run' 5
tkeys C-u 1M Enter r
wok "r measures the curves to the end" 'done in [0-9]+ s' 20
screen=$(tcap)
like "every point of 4K..1M is measured (2 strides + random)" "$screen" \
	'Latency: [0-9]+ sizes 4K\.\.1M, 2 strides \+ random, huge pages off; ([0-9]+) of \1 p'
like "the levels line reads an L1 with its latency" "$screen" \
	'^ L1 [0-9.]+[KM] [0-9.]+c [0-9.]+ns'
like "the size axis marks the level found" "$screen" '^found .*(▼|v)L1'
like "the legend names both strides and the random chase" "$screen" 'a 128 +b 4096 +\* random'
like "the Caches panel shows the latency column" "$screen" '│ latency +[0-9.]+[KM] '

# ---- 3 Matmul: the race at n = 64 ------------------------------------------
tkeys 3
wok "3 selects the Matmul tab" 'C \+= A\*B, n = [0-9]+' 5
tkeys n
wok "n asks for the matrix side" 'Matrix side n:' 5
tkeys C-u 64 Enter r
wok "r races the seven orders to the end" 'race done: every order gave ijk.s product' 15
screen=$(tcap)
rows=$(printf '%s\n' "$screen" |
	grep -cE '^ (ijk|jik|jki|kji|kij|ikj|blocked) +(AB|AC|BC) +(█|#)+ +[0-9]+\.[0-9]+ +#[1-7] +[0-9.]+ +[0-9.]+')
is "all seven orders have a full bar, ns/iter, a finish place, book and sim" "$rows" 7
places=$(printf '%s\n' "$screen" | grep -oE ' #[1-7] ' | sort -u | wc -l)
is "the finish places are #1..#7, each once" "$places" 7
like "n = 64 is in the title" "$screen" 'n = 64, block 32'

# ---- 4 Transpose: cachelab's 32x32 on (5,1,5) ------------------------------
tkeys 4
wok "4 selects the Transpose tab at cachelab's cache" 'cache \(5,1,5\) +32x32 +diagonal' 5
like "32x32 diagonal: 284 misses, a pass" "$(tcap)" \
	'2048/2048 +hits 1764 +misses 284 +evictions [0-9]+ +cachelab <300 pass'
tkeys v
wok "v goes to naive: over 300 misses fail" '32x32 +naive' 5
like "the naive 32x32 fails cachelab's limit" "$(tcap)" 'misses [0-9]{4,} .*cachelab <300 FAIL'

# ---- 5 False sharing: 100000 increments a thread ---------------------------
tkeys 5 o
wok "o asks for the increments" 'Increments per thread:' 5
tkeys C-u 100000 Enter r
wok "r fills the table: every sum exact" 'done: every sum exact' 15
screen=$(tcap)
rows=$(printf '%s\n' "$screen" |
	grep -cE '^ +(1|2|4|8)( \(> CPUs\))? +[0-9]+\.[0-9] +[0-9]+\.[0-9] +[0-9]+\.[0-9]{2}x')
is "threads 1, 2, 4, 8: packed ms, padded ms and the ratio" "$rows" 4
rows=$(printf '%s\n' "$screen" | grep -cE '^ +(8|16|32|64|128|256) B +[0-9]+\.[0-9]')
is "the spacing sweep has 8..256 B measured" "$rows" 6

# ---- 6 Lists: 4096 and 65536 cells (--quick) --------------------------------
tkeys 6 r
wok "r walks every layout: the values read 1..n" 'lists done: every layout read 1\.\.n' 15
screen=$(tcap)
rows=$(printf '%s\n' "$screen" | grep -cE '^ +(4096|65536)( +[0-9]+\.[0-9]){6} ')
is "both lengths have cycles for the six layouts" "$rows" 2
like "a sequential walk touches a quarter line a cell at 64 B" "$screen" '^ +lines64 +0\.250 +1\.000 '

tkeys q
twait 'Save before quitting|memtop-exit' 5
tkeys n
