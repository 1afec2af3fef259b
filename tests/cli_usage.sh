#!/bin/sh
# The binary's usage contract: --help and --version exit 0, every command
# has --help, bad usage exits 2 with one line on stderr.
. "$TESTLIB"
plan 14

status "--version exits 0" 0 "$MEMTOP" --version
like "--version names memtop" "$(cat "$TMP/out")" '^memtop [0-9]+\.[0-9]+'
status "--help exits 0" 0 "$MEMTOP" --help
like "--help lists run, cliffs, compare" "$(grep -cE '^  (run|cliffs|compare) ' "$TMP/out")" '^3$'
for cmd in run cliffs compare; do
	status "$cmd --help exits 0" 0 "$MEMTOP" $cmd --help
done
status "run mountain --help exits 0" 0 "$MEMTOP" run mountain --help
like "run mountain --help lists --quick" "$(cat "$TMP/out")" '--quick'
status "unknown command exits 2" 2 "$MEMTOP" frobnicate
is "unknown command: one line on stderr" "$(wc -l <"$TMP/err" | tr -d ' ')" 1
status "unknown experiment exits 2" 2 "$MEMTOP" run nosuch
status "unknown option exits 2" 2 "$MEMTOP" run mountain --bogus
like "unknown option names it" "$(cat "$TMP/err")" "unknown option '--bogus'"
