#!/bin/sh
# What machines read is the same bytes in every locale: a fixed set of
# commands run under C and under ru_RU.UTF-8 (built by tests/locale.sh into
# the build's tests/locale, LOCPATH) and their machine output diffed: every
# --help's option names, --plan --json of every experiment on recorded
# machines (tests/data, tests/topo_tree.sh and $MEMTOP_HWLOC_TREES' hwloc
# XMLs), compare --fleet --json, levels, cliffs and info --from as JSON,
# topo's JSON, sim, import, an SVG's drawing, and a quick run of every
# experiment as JSON (and the mountain's CSV) with its figures masked. Also
# the chain itself: memtop --help and a bad command in Russian.
. "$TESTLIB"
EXPS=$(experiments)
NEXP=$(printf '%s\n' "$EXPS" | grep -c .)
plan $((14 + NEXP))
loc=${MEMTOP_LOCPATH:-}
D=$TESTDATA

if [ -z "$loc" ] || [ ! -f "$loc/ru_RU.UTF-8/LC_NUMERIC" ]; then
	why=$(sed -n '1s/^skip: //p' "$loc/stamp" 2>/dev/null)
	why=${why:-no ru_RU.UTF-8 built (tests/locale.sh, MEMTOP_LOCPATH)}
	i=0
	while [ $i -lt $((14 + NEXP)) ]; do
		skip "C and ru_RU.UTF-8" "$why"
		i=$((i + 1))
	done
	exit 0
fi
# in C, and as a student with a Russian locale would run it (LANGUAGE, which
# would outrank the locale for messages, left out)
C() { env -u LANGUAGE LC_ALL=C "$MEMTOP" "$@"; }
RU() { env -u LANGUAGE LOCPATH="$loc" LC_ALL=ru_RU.UTF-8 "$MEMTOP" "$@"; }

# same DESC CMD...: CMD's stdout is the same bytes under C and ru_RU (and
# both exit alike); the first lines that differ are shown
same() {
	d=$1
	shift
	C "$@" >"$TMP/c.out" 2>/dev/null
	sc=$?
	RU "$@" >"$TMP/r.out" 2>/dev/null
	sr=$?
	if [ "$sc" = "$sr" ] && cmp -s "$TMP/c.out" "$TMP/r.out" && [ -s "$TMP/c.out" ]; then
		pass "$d"
	else
		fail "$d" "exit $sc under C, $sr under ru_RU: $*" \
			"$(diff "$TMP/c.out" "$TMP/r.out" | head -n 6)"
	fi
}

# the chain: the build tree's catalogue, in the Russian locale
RU --help >"$TMP/help.ru" 2>&1
like "memtop --help in ru_RU is Russian (the build tree's catalogue)" "$(cat "$TMP/help.ru")" \
	'^Команды:$'
RU bogus >"$TMP/out" 2>"$TMP/err"
s=$?
is "a bad command in ru_RU: exit 2, one line in Russian" "$s $(wc -l <"$TMP/err" | tr -d ' ') $(cat "$TMP/err")" \
	"2 1 memtop: неизвестная команда «bogus» (см. memtop --help)"

# every --help: exit 0 in both, the same option names (never translated)
opts() { grep -oE -- '--[a-z][a-z0-9-]*' | LC_ALL=C sort -u; }
C --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' >"$TMP/cmds"
for L in C RU; do
	{
		$L --help
		for c in $(cat "$TMP/cmds"); do $L "$c" --help; done
		for x in $EXPS; do $L run "$x" --help; done
	} 2>&1 | opts >"$TMP/opts.$L"
done
n=$(wc -l <"$TMP/opts.C" | tr -d ' ')
if [ "$n" -gt 20 ] && cmp -s "$TMP/opts.C" "$TMP/opts.RU"; then
	pass "every --help names the same $n options in both"
else
	fail "every --help names the same options in both" "$(diff "$TMP/opts.C" "$TMP/opts.RU" | head)"
fi
exps() { "$@" run --help 2>&1 | sed -n '/^Experiments:/,/^$/s/^  \([a-z][a-z0-9_-]*\) .*/\1/p' | tr '\n' ' '; }
is "run --help: the same experiments" "$(exps RU)" "$(exps C)"

# --plan --json of every experiment on recorded machines
sh "$D/../topo_tree.sh" 2s-smt "$TMP/2s"
set -- "--topology $D/topo-hybrid.xml" "--sysfs-root $TMP/2s"
for x in 32em64t-2n8c+dax+nvme+mic+dimms 40intel64-2g2n4c+pcilocality 16em64t-4s2c2t-offlines-xml; do
	f=${MEMTOP_HWLOC_TREES:-}/$x.xml
	[ -n "${MEMTOP_HWLOC_TREES:-}" ] && [ -f "$f" ] && set -- "$@" "--topology $f"
done
for x in $EXPS; do
	for m in "$@"; do
		# shellcheck disable=SC2086 # $m is an option and its value
		C run "$x" $m --plan --json - >>"$TMP/plans.c" 2>/dev/null
		# shellcheck disable=SC2086
		RU run "$x" $m --plan --json - >>"$TMP/plans.r" 2>/dev/null
	done
done
if [ -s "$TMP/plans.c" ] && cmp -s "$TMP/plans.c" "$TMP/plans.r"; then
	pass "--plan --json: $NEXP experiments on $# recorded machines, the same bytes"
else
	fail "--plan --json on recorded machines, the same bytes" "$(diff "$TMP/plans.c" "$TMP/plans.r" | head)"
fi

# what reads recorded files
same "compare --fleet --json: the same bytes" compare --fleet --json - \
	"$D/mountain-quick-xeon-157.json" "$D/m4max-strides1to8.json" "$D/latency-quick-epyc-vm.json"
same "cliffs --json: the same bytes" cliffs "$D/m4max-strides1to8.json" --json -
C levels "$D/latency-quick-epyc-vm.json" --json "$TMP/lv.c" >/dev/null 2>&1
RU levels "$D/latency-quick-epyc-vm.json" --json "$TMP/lv.r" >/dev/null 2>&1
ok "levels --json: the same bytes" cmp "$TMP/lv.c" "$TMP/lv.r"
same "info --from --json: the same bytes" info --from "$D/info-m4max.json" --json
same "topo --json: the same bytes" topo --topology "$D/topo-hybrid.xml" --json -
same "sim: the same line (csim-ref's)" sim -s 5 -E 1 -b 5 -t "$D/yi.trace"
same "import --json: the same bytes" import "$D/mountain-table-zen5.txt" --units MB/s --json -
# an SVG's drawing (its coordinates and attributes; its words are for people)
C plot "$D/m4max-strides1to8.json" --svg - 2>/dev/null | sed 's/>[^<]*</></g' >"$TMP/svg.c"
RU plot "$D/m4max-strides1to8.json" --svg - 2>/dev/null | sed 's/>[^<]*</></g' >"$TMP/svg.r"
if [ -s "$TMP/svg.c" ] && cmp -s "$TMP/svg.c" "$TMP/svg.r"; then
	pass "plot --svg: the same drawing"
else
	fail "plot --svg: the same drawing" "$(diff "$TMP/svg.c" "$TMP/svg.r" | head -n 4)"
fi

# a quick run of every experiment, figures masked: every number N (a run of
# numbers N+, a run of such lists [N+]+: a list's length is the run's),
# true/false B, no comma ending a line (whether a key was its object's last
# is the run's too), no indent and no line that only opens an object or a
# list (an object only one run found, a latency run's "memory" level, moves
# its fields' depth; what it holds is still compared); the lines as a set, those of a
# key only one of the two runs wrote left out (a run's own notes), and a
# verdict's words left out too (the figures choose them: the load ports'
# canary reads "shared" in one run and "the core's own" in the next on a
# busy host), the Russian run's JSON holding no Cyrillic at all instead. A
# decimal comma would read N,N; a translated word, itself.
mask() {
	sed -e 's/^[[:space:]]*//' -e '/^"[a-z_0-9]*":[[:space:]]*[[{]$/d' -e 's/-\{0,1\}[0-9][0-9]*\(\.[0-9][0-9]*\)\{0,1\}\([eE][-+]\{0,1\}[0-9][0-9]*\)\{0,1\}/N/g' \
		-e 's/N\(, N\)*/N+/g' -e 's/\[N+\]\(, \[N+\]\)*/[N+]+/g' \
		-e 's/\([^a-z_]\)true/\1B/g' -e 's/\([^a-z_]\)false/\1B/g' -e 's/,$//' "$1" |
		LC_ALL=C sort -u
}
keys() { grep -o '"[a-z_0-9]*":' "$1" | LC_ALL=C sort -u; }
for x in $EXPS; do
	C run "$x" --quick --json "$TMP/$x.c.json" >/dev/null 2>&1
	RU run "$x" --quick --json "$TMP/$x.r.json" >/dev/null 2>&1
	keys "$TMP/$x.c.json" >"$TMP/k.c"
	keys "$TMP/$x.r.json" >"$TMP/k.r"
	LC_ALL=C comm -3 "$TMP/k.c" "$TMP/k.r" | tr -d '\t' >"$TMP/k.one"
	mask "$TMP/$x.c.json" | grep -vFf "$TMP/k.one" | grep -v '^"verdict":' >"$TMP/m.c"
	mask "$TMP/$x.r.json" | grep -vFf "$TMP/k.one" | grep -v '^"verdict":' >"$TMP/m.r"
	if [ -s "$TMP/m.c" ] && cmp -s "$TMP/m.c" "$TMP/m.r" &&
		! LC_ALL=C grep -q "$(printf '[\320\321]')" "$TMP/$x.r.json"; then
		pass "run $x --quick --json, figures masked: the same"
	else
		fail "run $x --quick --json, figures masked: the same" "$(diff "$TMP/m.c" "$TMP/m.r" | head -n 6)" \
			"$(LC_ALL=C grep -m 2 "$(printf '[\320\321]')" "$TMP/$x.r.json")"
	fi
done
C run mountain --quick --csv 2>/dev/null | mask /dev/stdin >"$TMP/csv.c"
RU run mountain --quick --csv 2>/dev/null | mask /dev/stdin >"$TMP/csv.r"
if grep -q '^size_bytes,sN+,sN+,' "$TMP/csv.c" && cmp -s "$TMP/csv.c" "$TMP/csv.r"; then
	pass "run mountain --quick --csv, figures masked: the same"
else
	fail "run mountain --quick --csv, figures masked: the same" "$(diff "$TMP/csv.c" "$TMP/csv.r" | head -n 4)"
fi
