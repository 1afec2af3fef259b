#!/bin/sh
# memtop run matmul / falseshare / lists: quick real runs with small sizes,
# the JSON each writes, usage errors, and the robust timing relations (class
# BC faster than AC at n = 256; shuffled at least 3x slower than sequential
# at 4M cells).
. "$TESTLIB"
plan 59

run() { "$MEMTOP" run "$@" 2>&1; }
# the value of column COL on the row starting with WORD
col() { awk -v w="$1" -v c="$2" '$1 == w { print $c; exit }'; }
# the JSON each writes, read back with tests/jsonq: FILE PATH...
q() { f=$1; shift; "$JSONQ" "$TMP/$f" "$@" | tr '\n' ' ' | sed 's/ $//'; }

# ---- matmul ----------------------------------------------------------------
out=$(run matmul --simulate)
like "simulate: ijk makes 2,020,000 accesses at n = 100" "$out" '^ijk +AB +2020000 '
like "simulate: jki makes 3,010,000" "$out" '^jki +AC +3010000 '
like "simulate: kij 3,010,000, about 0.504 misses an iteration" "$out" '^kij +BC +3010000 +[0-9]+ +0\.50[0-9] '
like "simulate: says where the matrices sit" "$out" 'A at 0x100000, B at 0x200000, C at 0x300000'
like "simulate: says the counts depend on the bases" "$out" \
	'^# A at 0x100000, B at 0x200000, C at 0x300000 \(each 1 MB-aligned\): the conflict misses depend on where they start \(--bases A,B,C or --bases packed moves them\)$'
is "simulate n = 100, 1 MB-aligned: ijk = jik, 1283436 misses" \
	"$(printf '%s\n' "$out" | awk '$1 == "ijk" || $1 == "jik" { print $4 }' | tr '\n' ' ')" "1283436 1283436 "
out=$(run matmul --simulate --bases packed)
like "--bases packed: one after another, 16 bytes of malloc header apart" "$out" \
	'^# A at 0x100010, B at 0x1138a0, C at 0x127130 \(one after another, as malloc puts them\)'
is "--bases packed: ijk and jik differ, as the seed's do" \
	"$(printf '%s\n' "$out" | awk '$1 == "ijk" || $1 == "jik" { print $4 }' | tr '\n' ' ')" "1293032 1283920 "
status "--bases without --simulate is a usage error" 2 "$MEMTOP" run matmul --bases packed
status "--bases 1,2 is a usage error" 2 "$MEMTOP" run matmul --simulate --bases 1,2
out=$(run matmul --simulate -n 64 --cache 4,2,5 --json "$TMP/sim.json")
like "simulate (4,2,5) n = 64: ikj 74688 misses as the seed" "$out" '^ikj +BC +790528 +74688 '
is "simulate JSON has the six orders and the blocked one" "$(q sim.json 'results[*].order')" \
	'ijk jik jki kji kij ikj blocked'

out=$(run matmul -n 48 --block 16 --tries 1 --sweep --json "$TMP/mm.json")
is "matmul exits 0" "$?" 0
like "matmul prints the blocked row with its class" "$out" '^blocked +BC +[0-9.]+ +[0-9.]+'
unlike "every result equals ijk's" "$out" 'DIFFERS'
is "matmul JSON: seven results, in order" "$(q mm.json 'results[*].order')" \
	'ijk jik jki kji kij ikj blocked'
is "matmul JSON: the class of each order" "$(q mm.json 'results[*].class')" 'AB AB AC AC BC BC BC'
# blocks past n = 48 are clipped to it: their working set is 48's, said
is "sweep: block 32's working set" "$(printf '%s\n' "$out" | awk '$1 == 32 { print $5, $6 }')" "8.5 KB"
like "sweep: block 64 clipped to n, 48's working set" "$out" '^64 +[0-9.]+ +[0-9.]+ +[0-9.]+%  18\.8 KB  \(the block clipped to n\)$'
like "sweep: block 128 the same" "$out" '^128 +[0-9.]+ +[0-9.]+ +[0-9.]+%  18\.8 KB  \(the block clipped to n\)$'
is "matmul JSON: five sweep rows" "$(q mm.json 'sweep[*].block')" '8 16 32 64 128'
is "matmul JSON: n and block" "$(q mm.json n block)" '48 16'

out=$(run matmul -n 40 --race)
is "race: seven finishers" "$(printf '%s\n' "$out" | grep -c ' #[1-7]$')" 7

out=$(run matmul -n 256 --tries 2)
bc=$(printf '%s\n' "$out" | col kij 4)
ac=$(printf '%s\n' "$out" | col jki 4)
timing "class BC (kij $bc ns) faster than class AC (jki $ac ns) at n = 256" \
	awk -v a="$bc" -v b="$ac" 'BEGIN { exit !(a > 0 && a < b) }'

# --blocked: the blocked versions of other orders (the lesson: block jki too)
out=$(run matmul --simulate -n 64 --block 64 --blocked all)
jki=$(printf '%s\n' "$out" | awk '$1 == "jki" {print $3, $4}')
is "simulate: blocked-jki with one 64x64 tile makes jki's accesses and misses exactly" \
	"$(printf '%s\n' "$out" | awk '$1 == "blocked-jki" {print $3, $4}')" "$jki"
lines "simulate: --blocked all adds five rows to the seven" "$out" \
	'^(blocked-)?(ijk|jik|jki|kji|kij|ikj|blocked) ' 12
out=$(run matmul -n 48 --block 16 --tries 1 --blocked jki --json "$TMP/mmb.json")
like "matmul --blocked jki: its row, class AC" "$out" '^blocked-jki +AC +[0-9.]+ +[0-9.]+'
like "matmul --blocked jki: what blocking gave jki" "$out" '^# blocked-jki vs jki [0-9.]+x \(blocking gains (a lot|little)\)$'
like "matmul --blocked jki: the JSON row has its block" "$(tr -d ' \n\t' <"$TMP/mmb.json")" \
	'"order":"blocked-jki","class":"AC","block":16'
status "matmul --blocked blocked is a usage error" 2 "$MEMTOP" run matmul --blocked blocked
status "matmul -n 0 is a usage error" 2 "$MEMTOP" run matmul -n 0
status "matmul --cache 5,0,5 is a usage error" 2 "$MEMTOP" run matmul --simulate --cache 5,0,5
status "matmul --bogus is a usage error" 2 "$MEMTOP" run matmul --bogus
status "matmul --help" 0 "$MEMTOP" run matmul --help

# ---- falseshare --------------------------------------------------------------
out=$(run falseshare --threads 1,2,3 --rounds 200000 --tries 1 --spacings 8,128 \
	--json "$TMP/fs.json")
is "falseshare exits 0 (every sum exact)" "$?" 0
like "falseshare: a row per thread count with the ratio" "$out" '^ +2 .* [0-9.]+x '
if [ "$(nproc 2>/dev/null || echo 1)" -lt 3 ]; then
	like "falseshare: 3 threads marked as more than the CPUs" "$out" '^ +3 \(> CPUs\)'
else
	unlike "falseshare: 3 threads not marked on 3 or more CPUs" "$out" '^ +3 \(> CPUs\)'
fi
is "falseshare JSON: six table cells" "$(q fs.json 'results#')" 6
is "falseshare JSON: 2 threads packed at spacing 8" \
	"$(q fs.json 'results[2].threads' 'results[2].layout' 'results[2].spacing')" '2 packed 8'
is "falseshare JSON: two sweep rows" "$(q fs.json 'sweep[*].spacing')" '8 128'
status "falseshare --threads 0 is a usage error" 2 "$MEMTOP" run falseshare --threads 0
status "falseshare --spacings 12 is a usage error" 2 "$MEMTOP" run falseshare --spacings 12

# ---- lists --------------------------------------------------------------------
out=$(run lists --lengths 4096,20000 --tries 1 --json "$TMP/ls.json")
is "lists exits 0" "$?" 0
like "lists: stride makes a new line every cell" "$out" '^ +4096 +stride +[0-9.]+ +[0-9.]+ +[0-9.]+% +1\.000 +1\.000 '
like "lists: sequential a quarter at 64-byte lines" "$out" '^ +4096 +sequential +[0-9.]+ +[0-9.]+ +[0-9.]+% +0\.250 +0\.125 '
is "lists JSON: twelve results" "$(q ls.json 'results#')" 12
ok "lists JSON: simulator misses" "$JSONQ" "$TMP/ls.json" 'results[0].sim_misses_per_cell'

out=$(run lists --lengths 4M --layouts sequential,shuffled --tries 1 --no-sim)
sq=$(printf '%s\n' "$out" | awk '$2 == "sequential" { print $3; exit }')
sh=$(printf '%s\n' "$out" | awk '$2 == "shuffled" { print $3; exit }')
timing "shuffled ($sh cycles) at least 3x slower than sequential ($sq) at 4M cells" \
	awk -v a="$sq" -v b="$sh" 'BEGIN { exit !(a > 0 && b >= 3 * a) }'

out=$(run lists --graph --graph-n 300 --graph-block 32 --tries 1)
like "graph homework: same result" "$out" 'same result: yes'
# CHK-7: each walk's trace for memtop sim, on the M4 Max's L1d (7,8,7)
mkdir "$TMP/lt"
out=$(run lists --lengths 16384 --layouts sequential,shuffled,malloc --tries 1 \
	--trace-out "$TMP/lt" --json "$TMP/lt.json")
is "lists --trace-out: the sequential walk's trace, 2048 lines of 128 bytes missed" \
	"$("$MEMTOP" sim -s 7 -E 8 -b 7 -t "$TMP/lt/lists-sequential-16384.trace")" \
	"hits:30720 misses:2048 evictions:1024"
want=$(tr -d ' \n\t' <"$TMP/lt.json" | grep -o '"layout":"shuffled","cells":16384[^}]*' |
	grep -o '"sim_misses":[0-9]*' | cut -d: -f2)
like "lists --trace-out: memtop sim on the shuffled trace gives the lab's own count" \
	"$("$MEMTOP" sim -s 7 -E 8 -b 7 -t "$TMP/lt/lists-shuffled-16384.trace")" \
	"^hits:[0-9]+ misses:$want evictions:[0-9]+$"
# the malloc list's neighbour distances (the lesson's "±64 KB")
like "lists: the malloc list's most common neighbour distance" "$out" \
	'^# most often [+-][0-9]+ bytes: [0-9]+ of the first 16383 neighbours'
like "lists --json: the malloc row carries its distances" "$(tr -d ' \n\t' <"$TMP/lt.json")" \
	'"layout":"malloc",.*"neighbours":\{"bins":\[\{"from":'
# --trace-out makes its folder as mkdir -p would, or names the part in the way
status "lists --trace-out into missing folders: exit 0" 0 "$MEMTOP" run lists --quick \
	--layouts sequential --lengths 1024 --tries 1 --trace-out "$TMP/new/a/b"
is "... made, with the walk's trace" "$(ls "$TMP/new/a/b")" "lists-sequential-1024.trace"
: >"$TMP/afile"
status "lists --trace-out under a file is a usage error" 2 "$MEMTOP" run lists \
	--trace-out "$TMP/afile/x/y"
is "... one line naming the file in the way" "$(cat "$TMP/err")" \
	"memtop: run lists: --trace-out: $TMP/afile/x/y: $TMP/afile is not a folder"
status "lists --layouts array is a usage error" 2 "$MEMTOP" run lists --layouts array
status "lists --sim-cache 7,0,7 is a usage error" 2 "$MEMTOP" run lists --sim-cache 7,0,7
