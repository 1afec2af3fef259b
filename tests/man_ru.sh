#!/bin/sh
# man_ru: the Russian manual (man/ru/memtop.1, what `man -L ru memtop`
# shows) keeps in step with the English one: every option either names,
# every key of its Keys section, every command's and experiment's section;
# it declares its encoding for man's preconv, and man renders it without a
# warning.
. "${TESTLIB:-$(dirname "$0")/lib.sh}"
src=${MEMTOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
en=$src/man/memtop.1
ru=$src/man/ru/memtop.1
plan 7

ok "man/ru/memtop.1 is there" test -s "$ru"
like "it declares UTF-8 for man's preconv (its first line)" "$(head -n 1 "$ru")" \
	'^\.\\" -\*- coding: UTF-8 -\*-$'

# missing LIST: the lines of file $1 not in file $2 (both sorted, unique)
missing() { LC_ALL=C comm -23 "$1" "$2" | head -n 12 | tr '\n' ' '; }

# options: every \-\-long one and every \-x of a macro line (.B, .BR, .TP, ...)
longs() { grep -o '\\-\\-[a-z0-9][a-z0-9\\-]*' "$1" | sed 's/\\-$//' | LC_ALL=C sort -u; }
shorts() { grep '^\.' "$1" | grep -oE '(^|[ "])\\-[A-Za-z]([ ",]|$)' | tr -d ' ",' | LC_ALL=C sort -u; }
longs "$en" >"$TMP/en.long"
longs "$ru" >"$TMP/ru.long"
shorts "$en" >"$TMP/en.short"
shorts "$ru" >"$TMP/ru.short"
is "every long option of the English page is in the Russian ($(wc -l <"$TMP/en.long" | tr -d ' '))" \
	"$(missing "$TMP/en.long" "$TMP/ru.long")" ""
is "every short option too ($(wc -l <"$TMP/en.short" | tr -d ' '))" \
	"$(missing "$TMP/en.short" "$TMP/ru.short")" ""

# keys: each item of the Keys section (the line after .TP), as written;
# "arrows", the one word among them, is «стрелки» in Russian
keys() {
	awk '/^\.SS (Keys|Клавиши)/ { on = 1; next } /^\.S[SH] / { on = 0 }
	on && prev ~ /^\.TP/ { print } { prev = $0 }' "$1" |
		sed 's/"стрелки"/"arrows"/; s/^\.B стрелки$/.B arrows/' | LC_ALL=C sort -u
}
keys "$en" >"$TMP/en.keys"
keys "$ru" >"$TMP/ru.keys"
is "every key of the Keys section is in the Russian ($(wc -l <"$TMP/en.keys" | tr -d ' '))" \
	"$(missing "$TMP/en.keys" "$TMP/ru.keys")" ""

# the sections of the commands and experiments, by their names
heads() { grep -E '^\.SS (memtop [a-z]+|[a-z]+)( |$)' "$1" | awk '{ print $2 ($2 == "memtop" ? " " $3 : "") }' |
	LC_ALL=C sort -u; }
heads "$en" >"$TMP/en.heads"
heads "$ru" >"$TMP/ru.heads"
is "a section for every command and experiment ($(wc -l <"$TMP/en.heads" | tr -d ' '))" \
	"$(missing "$TMP/en.heads" "$TMP/ru.heads")" ""

# as man shows it: in a UTF-8 locale (the tests' ru_RU.UTF-8, else C.UTF-8)
loc=${MEMTOP_LOCPATH:-}
if ! command -v man >/dev/null 2>&1; then
	skip "man --warnings prints nothing for it" "man is absent"
elif [ -n "$loc" ] && [ -f "$loc/ru_RU.UTF-8/LC_CTYPE" ]; then
	got=$(LOCPATH=$loc LC_ALL=ru_RU.UTF-8 MANWIDTH=80 man --warnings -l "$ru" 2>&1 >/dev/null)
	is "man --warnings prints nothing for it (ru_RU.UTF-8)" "$got" ""
elif locale -a 2>/dev/null | grep -qix 'c.utf-\{0,1\}8'; then
	got=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$ru" 2>&1 >/dev/null)
	is "man --warnings prints nothing for it (C.UTF-8)" "$got" ""
else
	skip "man --warnings prints nothing for it" "no UTF-8 locale to render it in"
fi
