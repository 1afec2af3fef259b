#!/bin/sh
# The core clock measured during a run: every run header carries it beside
# the calibrated clock and the tick counter (text after the table, JSON
# "clock"), and the chain that measures it is what the compiler was asked
# for: 256 dependent register adds a turn (os/clock.c builds it with
# mt_launder, no asm), checked in the binary where objdump can read it.
. "$TESTLIB"
plan 5

out=$("$MEMTOP" run bandwidth --quick --sizes 32K --threads 1 --kernels read \
	--json "$TMP/c.json" 2>&1)
is "a quick run exits 0" "$?" 0
like "the text header sets the measured clock beside the calibrated one and the counter" "$out" \
	'^# core clock measured during the run \(dependent adds on CPU [0-9]+\): [0-9.]+ GHz at its start, [0-9.]+ at its end; calibrated [0-9.]+ GHz, (tsc|cntvct|monotonic) [0-9.]+ GHz: (they agree within 5 %|DISAGREE \(over 5 %\))$'
ok "JSON: the clock object has both measurements, the calibrated clock and the counter" \
	"$JSONQ" "$TMP/c.json" clock.run_ghz_start clock.run_ghz_end clock.core_ghz clock.tick_ghz \
	clock.agree
ok "JSON: the measured clocks are clocks" awk -v a="$("$JSONQ" "$TMP/c.json" clock.run_ghz_start)" \
	-v b="$("$JSONQ" "$TMP/c.json" clock.run_ghz_end)" 'BEGIN { exit !(a > 0.1 && b > 0.1) }'

# the chain in the binary: x86-64 only (objdump of the build's own arch)
dis=$(objdump -d --no-show-raw-insn --disassemble=add_chain "$MEMTOP" 2>/dev/null)
if [ -n "${TEST_RUNNER:-}" ] || ! printf '%s\n' "$dis" | grep -q 'file format elf64-x86-64'; then
	skip "the chain is 256 dependent adds of one register (moves between them at most)" \
		"not an x86-64 build with objdump"
else
	# the adds of the laundered register, and between the first and the
	# last nothing but more of them and register moves (clang hands the
	# chain from one register to another with a mov: still one chain)
	body=$(printf '%s\n' "$dis" | grep -E '^ +[0-9a-f]+:' | sed 's/^ *[0-9a-f]*:[[:space:]]*//')
	src=$(printf '%s\n' "$body" | grep -E '^add +%r[a-z0-9]+,%r[a-z0-9]+$' | sed 's/^add *\(%r[a-z0-9]*\),.*/\1/' |
		sort | uniq -c | sort -rn | awk 'NR == 1 {print $2}')
	adds=$(printf '%s\n' "$body" | grep -cE "^add +$src,%r[a-z0-9]+\$")
	other=$(printf '%s\n' "$body" | awk -v s="$src" '
		$1 == "add" && index($2, s ",") == 1 { seen = 1; n += pend; pend = 0; next }
		seen && !($1 == "mov" && $2 ~ /^%r[a-z0-9]+,%r[a-z0-9]+$/) { pend++ }
		END { print n + 0 }')
	is "the chain is 256 dependent adds of one register (moves between them at most)" \
		"$adds $other" "256 0"
fi
