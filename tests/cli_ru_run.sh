#!/bin/sh
# `memtop run`'s own lines in Russian (ru_RU.UTF-8 built by tests/locale.sh
# into the build's tests/locale, LOCPATH): the option parser's errors as one
# Russian line with exit 2 and nothing on stdout (an unknown option, a
# missing value, a number out of range, a CHOICE's "one of a, b, c"), and
# the run header of a quick run (algae: a simulation, no timing) with its
# decimal comma, while the JSON keeps its English. Nothing of this machine
# is assumed: the header's figures are matched by their form only.
. "$TESTLIB"
N=13
plan $N

ru_or_skip $N "ru_RU.UTF-8"

# ---- the option parser's errors: one line, exit 2, stdout empty --------------------
status "an unknown option: exit 2" 2 RU run latency --bogus
is "... one Russian line, the option in «ёлочках»" "$(cat "$TMP/err")" \
	"memtop: run latency: неизвестный параметр «--bogus» (см. memtop run latency --help)"
is "... nothing on stdout" "$(cat "$TMP/out")" ""
status "a missing value: exit 2" 2 RU run latency --tries
is "... in Russian" "$(cat "$TMP/err")" "memtop: run latency: --tries: ожидается значение, но его нет"
status "a number out of range: exit 2" 2 RU run latency --tries 0
is "... its range in Russian" "$(cat "$TMP/err")" \
	"memtop: run latency: --tries: ожидается 1..100, получено «0»"
status "a CHOICE's unknown value: exit 2" 2 RU run bandwidth --placement sideways --plan
is "... its choices in Russian, the values as typed" "$(cat "$TMP/err")" \
	"memtop: run bandwidth: --placement: ожидается одно из: spread или compact, получено «sideways»"

# ---- the run header of a quick run ---------------------------------------------------
out=$(RU run algae --quick --json "$TMP/a.json" 2>&1)
like "the header's first line: memtop VERSION на HOST" "$out" '^# memtop [^ ]+ на [^ ]'
like "... the clock with a decimal comma" "$out" \
	'^# [^#]*, часы: [a-z_?]+ [0-9]+,[0-9]{3} ГГц, ядро ~[0-9]+,[0-9]{2} ГГц$'
like "... the build, optimized or not in Russian" "$out" \
	'^# сборка: .* \((с оптимизацией|БЕЗ оптимизации)\)$'
is "... the JSON keeps the build's English" \
	"$(grep -c 'оптимизац' "$TMP/a.json") $(grep -cE '"hardware":.*, (NOT )?optimized, ' "$TMP/a.json")" \
	"0 1"
