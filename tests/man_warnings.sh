#!/bin/sh
# man/memtop.1 renders at 80 columns without a warning from man and groff
# (an undefined macro such as a line starting with "...", a line it cannot
# break): `man --warnings` prints nothing. Skipped where man is absent.
. "${TESTLIB:-$(dirname "$0")/lib.sh}"
top=$(cd "$(dirname "$0")/.." && pwd)
plan 1

if ! command -v man >/dev/null 2>&1; then
	skip "man --warnings prints nothing for man/memtop.1" "man is absent"
	exit 0
fi
got=$(MANWIDTH=80 man --warnings -l "$top/man/memtop.1" 2>&1 >/dev/null)
is "man --warnings prints nothing for man/memtop.1" "$got" ""
