#!/bin/sh
# memtop import through the real binary: every format of tests/data/corpus
# into memtop JSON that memtop reads back, --json - on stdout, and bad input
# refused with exit 2, one line naming the file and line, nothing written.
. "$TESTLIB"
plan 33
C="$TESTDATA/corpus"

status "--help exits 0" 0 "$MEMTOP" import --help
like "--help names the four formats" "$(cat "$TMP/out")" 'tinymembench +its latency table'

status "tinymembench pair exits 0" 0 "$MEMTOP" import "$C/tinymembench-intel-n100-nohuge.txt" \
	"$C/tinymembench-intel-n100-huge.txt" --json "$TMP/n100.json"
is "says what it read" "$(cat "$TMP/out")" \
	"$C/tinymembench-intel-n100-nohuge.txt: tinymembench, 17 sizes 1K..64M, random chase (ns over L1) on 4 KB and huge pages
wrote $TMP/n100.json"
status "memtop levels reads the import" 0 "$MEMTOP" levels "$TMP/n100.json"
like "levels: from the huge-page curve" "$(cat "$TMP/out")" '^# levels read from the random chase, huge pages, 1K\.\.64M'

status "ramlat exits 0" 0 "$MEMTOP" import "$C/ramlat-amd-ryzen-r1505g.txt" --json "$TMP/r.json" \
	--name "Ryzen R1505G"
status "lat_mem_rd -t exits 0" 0 "$MEMTOP" import --chase random "$C/lmbench-zen5-vm-random64.txt" \
	--json "$TMP/l.json"
like "lat_mem_rd -t: a random chase" "$(cat "$TMP/out")" '120 sizes 512B\.\.208M, random chase$'
status "CS:APP mountain exits 0" 0 "$MEMTOP" import "$C/csapp-zen5-vm-mountain.txt" --json "$TMP/m.json"
status "memtop cliffs reads the mountain" 0 "$MEMTOP" cliffs "$TMP/m.json"

# --json -: the JSON on stdout, the words on stderr
status "--json - exits 0" 0 "$MEMTOP" import "$C/ramlat-amd-ryzen-r1505g.txt" --json -
if command -v jq >/dev/null 2>&1; then
	is "stdout is the JSON" "$(jq -r '[.format, .hardware, (.random.ns | length), .levels[0].size] | @tsv' "$TMP/out")" \
		"ramlat	ramlat output imported from ramlat-amd-ryzen-r1505g.txt	16	32768"
	is "--name is the hardware" "$(jq -r .hardware "$TMP/r.json")" "Ryzen R1505G"
else
	like "stdout is the JSON" "$(cat "$TMP/out")" '"format":[[:space:]]*"ramlat"'
	like "--name is the hardware" "$(cat "$TMP/r.json")" '"hardware":[[:space:]]*"Ryzen R1505G"'
fi
like "stderr has the words" "$(cat "$TMP/err")" 'ramlat, 16 sizes 4K\.\.128M, random chase'

# bad input: exit 2, one line, nothing written (an existing file stays)
printf 'block size : single random read / dual random read\n  1024 :    0.0 ns  /  0.0 ns\n  2048 :  0,4 ns / 0.4 ns\n' >"$TMP/garbled.txt"
echo keep >"$TMP/old.json"
status "garbled tinymembench: exit 2" 2 "$MEMTOP" import "$TMP/garbled.txt" --json "$TMP/old.json"
is "one line naming file and line" "$(cat "$TMP/err")" \
	"memtop: $TMP/garbled.txt: line 3: expected 'BYTES : NS ns / NS ns', got '  2048 :  0,4 ns / 0.4 ns'"
is "the old file is untouched" "$(cat "$TMP/old.json")" keep
head -c 300 "$C/csapp-zen5-vm-mountain.txt" >"$TMP/cut.txt"
status "truncated mountain: exit 2" 2 "$MEMTOP" import "$TMP/cut.txt" --json "$TMP/cut.json"
is "names the line that is cut" "$(cat "$TMP/err")" \
	"memtop: $TMP/cut.txt: line 6: expected 'SIZE' and 15 values of throughput, got '32m 41938 21275'"
ok "nothing written" test ! -e "$TMP/cut.json"
printf 'hello\nworld\n' >"$TMP/other.txt"
status "not a known format: exit 2" 2 "$MEMTOP" import "$TMP/other.txt" --json "$TMP/o.json"
is "names the first line" "$(cat "$TMP/err")" \
	"memtop: $TMP/other.txt: line 1: not the output of lat_mem_rd, tinymembench, ramlat, CS:APP's mountain, a mountain table ('s1 s2 ...' over rows '128m T T ...') or core-to-core-latency's CSV, got 'hello'"

# a plain mountain table (stride columns over size rows, no title), in the
# unit the file states or --units gives
T="$TESTDATA/mountain-table-zen5"
status "a plain table without its unit: exit 2" 2 "$MEMTOP" import "$T.txt" --json "$TMP/t.json"
is "names the file and --units" "$(cat "$TMP/err")" \
	"memtop: $T.txt: the table does not say its unit: give it with --units MB/s (or GB/s, MiB/s, GiB/s)"
status "--units MB/s: exit 0" 0 "$MEMTOP" import "$T.txt" --units MB/s --json "$TMP/t.json"
is "read as a mountain table" "$(head -n 1 "$TMP/out")" "$T.txt: table mountain, 14 sizes 16K..128M x 15 strides"
"$MEMTOP" import "$C/csapp-zen5-vm-mountain.txt" --json "$TMP/cs.json" >/dev/null 2>&1
is "the same cells as the CS:APP file it was cut from" "$("$JSONQ" "$TMP/t.json" 'throughput[*][*]' | tr '\n' ' ')" \
	"$("$JSONQ" "$TMP/cs.json" 'throughput[*][*]' | tr '\n' ' ')"
status "a CSV stating GB/s: exit 0" 0 "$MEMTOP" import "$T.csv" --json "$TMP/c.json"
is "its GB/s read as MB/s" "$("$JSONQ" "$TMP/c.json" 'throughput[13][*]' | tr '\n' ' ')" "33989 17147 8904 4724 "
status "--units on a ramlat file: exit 2" 2 "$MEMTOP" import "$C/ramlat-amd-ryzen-r1505g.txt" --units MB/s --json "$TMP/r.json"
status "--units furlongs: exit 2" 2 "$MEMTOP" import "$T.txt" --units furlongs --json "$TMP/t.json"
status "no --json: exit 2" 2 "$MEMTOP" import "$C/ramlat-amd-ryzen-r1505g.txt"
