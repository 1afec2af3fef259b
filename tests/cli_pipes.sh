#!/bin/sh
# --json - is stdout (ssh host memtop run mountain --quick --json - >
# host.json): the JSON alone on stdout, the table and the "# ..." lines on
# stderr, no file called "-"; --csv with it is refused (both would write
# stdout). The README's lab loop, run here without ssh: two quick mountains
# piped into files, then compare.
. "$TESTLIB"
plan 14
cd "$TMP" || exit 1

"$MEMTOP" run algae --json - >out.json 2>err.txt
is "run algae --json -: exit 0" "$?" 0
like "the JSON is on stdout" "$(head -c 1 out.json)$(tail -c 2 out.json)" '^\{\}$'
like "... and is the algae result" "$(cat out.json)" '"experiment":[[:space:]]*"algae"'
like "the table is on stderr" "$(cat err.txt)" '^aos-two-passes +512 +256 '
unlike "no table line on stdout" "$(cat out.json)" 'aos-two-passes +512'
if [ -e ./- ]; then fail "no file named '-' is written" "$(ls -la)"; else pass "no file named '-' is written"; fi

status "--json - with --csv: exit 2" 2 "$MEMTOP" run algae --json - --csv
is "... in one line" "$(cat "$TMP/err")" \
	"memtop: run algae: --json: expected a file when --csv is given (both would write stdout), got '-'"

"$MEMTOP" info --json - >info.json 2>info.txt
ok "info --json -: the JSON on stdout reads back (info --from)" "$MEMTOP" info --from info.json
like "info --json -: the table on stderr" "$(cat info.txt)" 'cache +level +type'

# the README's lab loop, without ssh: each "host" writes its JSON on stdout
for h in lab1 lab2; do
	sh -c "'$MEMTOP' run mountain --quick --json -" >"$h.json" 2>"$h.err"
done
ok "lab1.json is a mountain cliffs reads" "$MEMTOP" cliffs lab1.json
out=$("$MEMTOP" compare lab*.json)
like "compare lab*.json: both machines" "$out" '^B: lab2\.json$'
like "... side by side at stride 8" "$out" '^ +size +A +B$'
like "... with a verdict" "$out" '^verdict +\(A\) +(faster|slower|same)$'
