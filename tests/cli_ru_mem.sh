#!/bin/sh
# run bandwidth, run numa and run cores as a student with a Russian locale
# reads them (ru_RU.UTF-8, built by tests/locale.sh into the build's
# tests/locale, LOCPATH): bad options and lists on recorded machines in one
# Russian line with exit 2 and nothing written, a plural of each kind, the
# head of a quick run in Russian with its figures in the decimal comma and
# the same run's JSON with '.'. No figure of this machine is assumed: the
# quick runs' figures are matched by their shape only.
. "$TESTLIB"
N=26
plan $N
D=$TESTDATA

ru_or_skip $N "memory experiments in ru_RU.UTF-8"

sh "$D/../topo_tree.sh" 2s-smt "$TMP/2s" >/dev/null
HYB="--topology $D/topo-hybrid.xml"
TWO="--sysfs-root $TMP/2s"

# bad DESC WANT ARGS...: exit 2, nothing on stdout, stderr the one line
# WANT, and the --json file asked for not written
bad() {
	d=$1
	w=$2
	shift 2
	rm -f "$TMP/bad.json"
	RU "$@" --json "$TMP/bad.json" >"$TMP/out" 2>"$TMP/err"
	s=$?
	got="$s $(wc -l <"$TMP/err" | tr -d ' ') $(wc -c <"$TMP/out" | tr -d ' ')"
	[ -e "$TMP/bad.json" ] && got="$got, $TMP/bad.json written"
	is "$d: exit 2, one line, nothing written" "$got" "2 1 0"
	is "$d: the line in Russian" "$(cat "$TMP/err")" "$w"
}

# a list on recorded machines: the two-socket tree (nodes 0 and 1), the
# hybrid laptop's XML
bad "numa --nodes 7 on two sockets" \
	"memtop: run numa: --nodes: нет узла 7 (узлы здесь: 0, 1)" \
	run numa --plan $TWO --nodes 7
bad "numa --nodes of 17 nodes (a plural)" \
	"memtop: run numa: --nodes: 17 узлов, а за раз не больше 16 (узлы здесь: 0, 1)" \
	run numa --plan $TWO --nodes 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16
bad "numa --loaded-pairs with a node not measured" \
	"memtop: run numa: --loaded-pairs: 0:5: узел 5 не из измеряемых" \
	run numa --plan $TWO --loaded-pairs 0:5
bad "numa --mix of no reads" \
	"memtop: run numa: --mix: «0:3»: смеси без чтений нет (одни записи — это ядра замера write лабораторной пропускной способности; смеси: reads, 3:1, 2:1, 1:1, triad или all)" \
	run numa --plan $TWO --mix 0:3
bad "cores --cpus of one CPU" \
	"memtop: run cores: --cpus: в списке один ЦП (0): задержке между ядрами нужны два или больше, получено «0»" \
	run cores --plan $TWO --cpus 0
bad "bandwidth --levels the plan lacks" \
	"memtop: run bandwidth: --levels: в плане нет уровня «L4» (в нём есть L1, L2, L3, DRAM)" \
	run bandwidth --plan $HYB --levels L4
# --placement's words are bandwidth's; the frame around them is the batch
# layer's ("expected ..., got ...")
RU run bandwidth --plan $HYB --placement bogus --json "$TMP/bad.json" >"$TMP/out" 2>"$TMP/err"
s=$?
is "bandwidth --placement bogus: exit 2, one line, nothing written" \
	"$s $(wc -l <"$TMP/err" | tr -d ' ') $(wc -c <"$TMP/out" | tr -d ' ') $(ls "$TMP/bad.json" 2>/dev/null)" \
	"2 1 0 "
like "bandwidth --placement bogus: the choices in Russian" "$(cat "$TMP/err")" \
	"^memtop: run bandwidth: --placement: .*spread или compact.*bogus"

# a quick bandwidth run on one thread: its head in Russian, its table's
# figures in the decimal comma, its JSON's in '.'
RU run bandwidth --quick --threads 1 --sizes 64K --kernels read,copy --pages 4k \
	--json "$TMP/bw.json" >"$TMP/bw.out" 2>"$TMP/bw.err"
s=$?
is "a quick bandwidth run: exit 0" "$s" 0
out=$(cat "$TMP/bw.out")
lines "its table's head in columns" "$out" '^размер        потоки        read        copy$' 1
lines "its pages" "$out" '^# страницы: 4 КБ, большие страницы отключены через madvise \(--pages 4k\)$' 1
lines "its thread step (a singular)" "$out" '^# 1 поток: ЦП [0-9]+$' 1
lines "its row's figures in the decimal comma" "$out" \
	'^64K +1 +[0-9]+,[0-9][~ ]? +[0-9]+,[0-9][~ ]?$' 1
like "the same run's JSON in '.'" "$(cat "$TMP/bw.json")" '"gbs":[[:space:]]*[0-9]+\.[0-9]+'
unlike "and no comma in a JSON number" "$(cat "$TMP/bw.json")" '":[[:space:]]*-?[0-9]+,[0-9]'

# a quick cores run on two CPUs this process may use (the plan names
# them): "1 пара", the pairs' head measured in columns, a comma
pair=$(env LC_ALL=C "$MEMTOP" run cores --plan 2>/dev/null |
	sed -n 's/^# *2 on CPUs \([0-9]*\)[-,]\([0-9]*\).*/\1,\2/p')
if [ -z "$pair" ]; then
	for i in 1 2 3 4 5; do skip "quick runs on two CPUs in Russian" "fewer than two CPUs allowed"; done
else
	RU run cores --quick --cpus "$pair" >"$TMP/c.out" 2>"$TMP/c.err"
	out=$(cat "$TMP/c.out")
	lines "cores: the pairs counted (1 пара)" "$out" \
		'^# 2 ЦП, 1 пара \(все пары\), затем 1 снова в обратном порядке$' 1
	lines "cores: the table's head" "$out" '^    a     b нс \(в одну\)   разброс  связь$' 1
	lines "cores: the pair's figure in the decimal comma" "$out" \
		"^ +${pair%,*} +${pair#*,} +[0-9]+,[0-9] +[0-9]+,[0-9] %  .+$" 1
	lines "cores: the summary's pair (1 пара)" "$out" '^#   .* [0-9]+,[0-9] нс  \(1 пара\)$' 1
	RU run bandwidth --quick --threads 2 --cpus "$pair" --sizes 64K --kernels read \
		>"$TMP/b2.out" 2>"$TMP/b2.err"
	lines "bandwidth: two threads' step and their CPUs (2 потока)" "$(cat "$TMP/b2.out")" \
		"^# 2 потока: ЦП $pair(: (разные ядра|1 пара соседей по SMT|ядра неизвестны \\(нет топологии\\)))?$" 1
fi
