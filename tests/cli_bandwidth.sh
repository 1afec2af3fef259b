#!/bin/sh
# memtop run bandwidth: quick real runs at small sizes; the table and the
# JSON (exact bytes a pass, STREAM's counting; every kernel's arrays
# checked), CSV, the loaded latency, oversubscribed threads, and usage
# errors (exit 2, one line). No cache size of this machine is assumed.
. "$TESTLIB"
plan 51

run() { "$MEMTOP" run bandwidth "$@" 2>&1; }
flat() { tr -d '\t\n' <"$1"; } # cJSON indents with tabs; strings keep their spaces
NCPU=$(nproc 2>/dev/null || echo 1)

out=$(run --quick --sizes 32K,1M --threads 1,2 --json "$TMP/bw.json")
is "bandwidth exits 0" "$?" 0
nk=$(flat "$TMP/bw.json" | sed 's/.*"kernels":\[\([^]]*\)\].*/\1/' | tr ',' '\n' | grep -c .)
like "the kernels include copy and triad, then the C library's" "$(flat "$TMP/bw.json")" '"kernels":\["read", ?"read_vector", ?"load", ?"write", ?.*"copy", ?("copy_nt", ?)?"triad"(, ?"triad_nt")?, ?"fill", ?"fill_zero", ?"copy_lib"\]'
rows=$(printf '%s\n' "$out" | grep -cE '^(32K|1M) +[12](\(!\))? +( +[0-9]+\.[0-9][~! ]){'"$nk"'}$')
is "a row per size and thread count, a GB/s per kernel" "$rows" 4
like "the header says how bytes are counted" "$out" '^# bytes counted as STREAM does: read, load, write 1 array a pass, copy 2, triad 3'
like "the header says where each size came from" "$out" '^# size 32K: --sizes, all threads'
like "the header says where 2 threads run" "$out" '^# 2 threads: (CPUs [0-9]+,[0-9]+: |2 threads on 1 CPU: oversubscribed)'
like "the run header carries the machine's load" "$out" '^# load [0-9.]+, [0-9]+ runnable'
unlike "no kernel came out wrong" "$out" 'came out WRONG \(marked|[0-9]!'
is "JSON: a result per kernel, size and thread count" \
	"$(grep -cE '"kernel":[[:space:]]*"(read|read_vector|load|write|write_nt|copy|copy_nt|triad|triad_nt|fill|fill_zero|copy_lib)"' "$TMP/bw.json")" $((nk * 4))
is "JSON: every result checked" "$(grep -c '"checked":[[:space:]]*true' "$TMP/bw.json")" $((nk * 4))
j=$(flat "$TMP/bw.json")
like "JSON: experiment, ISA, counting" "$j" '"experiment":"bandwidth","isa":"[A-Za-z0-9-]+","vector_bytes":[0-9]+,"counting":"STREAM'
# 32K, 1 thread: read 4096 words; copy 2 x 2048; triad 3 x 1344 (1365 rounded to 64)
like "JSON: read at 32K moves 32768 bytes a pass" "$j" '"kernel":"read","size":32768,"threads":1,"gbs":[0-9.]+,"spread":[0-9.e-]+,"tries":[0-9]+,"canary":[0-9.]+,"bytes_per_pass":32768,'
like "JSON: copy at 32K counts two arrays, 32768 bytes" "$j" '"kernel":"copy","size":32768,"threads":1,[^}]*"bytes_per_pass":32768,'
like "JSON: triad at 32K counts three arrays of 1344 doubles" "$j" '"kernel":"triad","size":32768,"threads":1,[^}]*"bytes_per_pass":32256,'
# 2 threads share 32K: 16K each; triad 3 x 640 x 8 x 2 threads
like "JSON: triad at 32K on 2 threads, 30720 bytes" "$j" '"kernel":"triad","size":32768,"threads":2,[^}]*"bytes_per_pass":30720,'
like "JSON: the sizes with their source" "$j" '"sizes":\[\{"size":32768,"level":"","per_thread":false,"from":"--sizes, all threads"\}'
like "JSON: thread counts with placement" "$j" '"threads":\[\{"threads":1,"cpus":"[0-9]+","placement":"CPU [0-9]+","oversubscribed":false,"over_quota":false\}'

out=$(run --quick --sizes 64K --threads 1 --kernels triad,copy --csv)
is "CSV: a header and one line per cell" "$(printf '%s\n' "$out" | grep -c '^table,65536,,1,\(triad\|copy\),')" 2
like "CSV: the header names the columns" "$out" '^kind,size,level,threads,kernel,gbs,spread'

out=$(run --quick)
like "quick: the last row is planned, says it was cut and is named by where 16M sits" "$out" \
	'^# size (DRAM|L[0-9]|L[0-9]\+DRAM) 16M: .*cut to 16M by --quick'

like "quick: the vector ISA is said" "$out" 'vector kernels: (scalar|SSE2|AVX2|AVX-512|NEON) \([0-9]+-byte registers\)'

if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
	out=$(taskset -c 0 "$MEMTOP" run bandwidth --quick --sizes 16K --threads 1,2 --kernels copy \
		--json "$TMP/over.json" 2>&1)
	like "one CPU allowed: 2 threads are marked oversubscribed" "$out" '^16K +2\(!\) '
	like "... and said so" "$out" '^# 2 threads: 2 threads on 1 CPU: oversubscribed'
	like "... in the JSON too" "$(flat "$TMP/over.json")" '"threads":2,"cpus":"[0-9]+","placement":"2 threads on 1 CPU: oversubscribed","oversubscribed":true'
	out=$(taskset -c 0 "$MEMTOP" run bandwidth --quick --loaded-only 2>&1)
	like "one CPU allowed: the loaded latency says it needs two" "$out" 'loaded latency needs 2 CPUs'
else
	for i in 1 2 3 4; do pass "oversubscribed # SKIP no taskset"; done
fi

if [ "$NCPU" -ge 2 ]; then
	out=$(run --quick --loaded-only --delays 1000,0 --json "$TMP/ll.json")
	like "loaded: idle first, then each delay" "$(printf '%s\n' "$out" | awk '$1 ~ /^(idle|1000|0)$/ { printf "%s ", $1 }')" '^idle 1000 0 $'
	like "loaded JSON: idle has no delay and no bandwidth" "$(flat "$TMP/ll.json")" '"loaded":\[\{"delay_ns":null,"gbs":0,"latency_ns":[0-9.]+'
else
	pass "loaded # SKIP one CPU"
	pass "loaded JSON # SKIP one CPU"
fi

# a CPU without AVX (qemu's Nehalem, when qemu-user is installed): the same
# binary picks SSE2 and every kernel still computes
if [ "$(uname -m)" = x86_64 ] && command -v qemu-x86_64 >/dev/null 2>&1 &&
	! ldd "$MEMTOP" 2>/dev/null | grep -q 'lib[at]san'; then
	out=$(qemu-x86_64 -cpu Nehalem "$MEMTOP" run bandwidth --quick --sizes 16K --threads 1 2>&1)
	like "without AVX (qemu -cpu Nehalem) the vector kernels are SSE2" "$out" \
		'vector kernels: SSE2 \(16-byte registers\)'
	like "... and every kernel's arrays check" "$out" '^16K +1 +( +[0-9]+\.[0-9][~ ]){12}$'
else
	pass "no AVX # SKIP needs x86_64 and qemu-x86_64"
	pass "no AVX # SKIP"
fi

# the load kernel in the binary (x86-64, objdump of the build's own arch):
# its vector instructions are loads into zmm registers and nothing else, so
# no load is consumed, and none was dropped (16 a turn at least)
dis=$(objdump -d --no-show-raw-insn --disassemble=load_avx512 "$MEMTOP" 2>/dev/null)
if [ -n "${TEST_RUNNER:-}" ] || ! printf '%s\n' "$dis" | grep -q '<load_avx512>:'; then
	pass "the AVX-512 load kernel is loads alone # SKIP not an x86-64 build with objdump"
	pass "... at least 16 of them # SKIP"
else
	vec=$(printf '%s\n' "$dis" | grep -E '^ +[0-9a-f]+:' | grep -E '%[xyz]mm' | grep -v vzeroupper)
	ld=$(printf '%s\n' "$vec" | grep -cE 'vmov[a-z0-9]+ +-?(0x[0-9a-f]+)?\(%r[a-z0-9]+\),%zmm[0-9]+$')
	is "the AVX-512 load kernel is loads alone" "$(printf '%s\n' "$vec" | grep -c . )" "$ld"
	ok "... at least 16 of them (one turn of its loop)" test "$ld" -ge 16
fi

status "--threads 0 is a usage error" 2 "$MEMTOP" run bandwidth --threads 0
like "... one line naming the option and the value" "$(cat "$TMP/err")" \
	"^memtop: run bandwidth: --threads: expected increasing thread counts 1\.\.1024 separated by commas \(at most 16\), got '0'$"
status "--threads 2,1 (not increasing) is a usage error" 2 "$MEMTOP" run bandwidth --threads 2,1
status "--kernels stream is a usage error" 2 "$MEMTOP" run bandwidth --kernels read,stream
status "--sizes 1K is a usage error" 2 "$MEMTOP" run bandwidth --sizes 1K
status "--cpus of a CPU not allowed is a usage error" 2 "$MEMTOP" run bandwidth --cpus 65000
status "--placement diagonal is a usage error" 2 "$MEMTOP" run bandwidth --placement diagonal
status "--isa mmx is a usage error" 2 "$MEMTOP" run bandwidth --isa mmx
status "--levels L9 is a usage error" 2 "$MEMTOP" run bandwidth --levels L1,L9
like "... naming the word and the rows the plan has" "$(cat "$TMP/err")" \
	"^memtop: run bandwidth: --levels: no level 'L9' in the plan \(it has ([A-Z0-9]+, )*DRAM\)$"
# a bad --try-ms once printed its error, then measured and exited 0
status "--try-ms 0 is a usage error, nothing measured" 2 "$MEMTOP" run bandwidth --try-ms 0
is "--try-ms 0: one line, no table" "$(cat "$TMP/out" "$TMP/err")" \
	"memtop: run bandwidth: --try-ms: expected 1..1000, got '0'"
status "--levels with --sizes is a usage error" 2 "$MEMTOP" run bandwidth --levels L1 --sizes 1M
status "--loader sideways is a usage error" 2 "$MEMTOP" run bandwidth --loader sideways
status "--pages 2m is a usage error" 2 "$MEMTOP" run bandwidth --pages 2m
like "... one line naming the option, the words and the value" "$(cat "$TMP/err")" \
	"^memtop: run bandwidth: --pages: expected one of 4k, huge, auto, got '2m'$"

# the pages: 4 KB asked (huge pages advised off: none, whatever THP's mode),
# said before the table and counted from the kernel's own figures after
out=$(run --quick --sizes 4M --threads 1 --kernels read --pages 4k --json "$TMP/pg.json")
like "--pages 4k: the header says the pages" "$out" '^# pages: 4 KB, huge pages advised off \(--pages 4k\)$'
like "... and how many of the buffer's were huge: none" "$out" \
	"^# pages: 4 KB pages \(--pages 4k; THP [a-z]+\): (0 of the buffer's 3 stretches of 2 MB on huge pages|how many are huge is not known here)$"
like "... in the JSON too" "$(flat "$TMP/pg.json")" \
	'"pages":\{"asked":"4k","used":"4k","thp":"[a-z]*","buffer_bytes":6291456,"huge_bytes":(0|null)\}'
like "--help names --pages" "$("$MEMTOP" run bandwidth --help)" '^  [-]-pages P +the table buffer.s pages: 4k'
