#!/bin/sh
# `memtop run`'s own lines in Russian (ru_RU.UTF-8 built by tests/locale.sh
# into the build's tests/locale, LOCPATH): the option parser's errors as one
# Russian line with exit 2 and nothing on stdout (an unknown option, a
# missing value, a number out of range, a CHOICE's "one of a, b, c"), and
# the run header of a quick run (algae: a simulation, no timing) with its
# decimal comma, while the JSON keeps its English. Nothing of this machine
# is assumed: the header's figures are matched by their form only.
. "$TESTLIB"
N=27
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

# the lines that tell the machine (what its id hashes, the host, the
# conditions, where the job ran) are Russian whatever this machine is: no
# English line head and no English word of theirs is left
is "... no English head of the machine's lines" \
	"$(printf '%s\n' "$out" | grep -cE '^# (machine id|host|conditions|where): ')" 0
is "... nor their English words" "$(printf '%s\n' "$out" |
	grep -E '^# (id машины|хост|условия|где): ' |
	grep -cE 'hash of|MAC of|hardware UUID|a VM|not a VM|says|hypervisor bit|governor|unknown|supported|SNC (off|on)|NPS on|L3 group|NUMA node|package|core kind|CPU [0-9]')" 0

# a worker's note (written in English) said in Russian: latency's closing
# line, what the kernel backed its buffer with, whatever the pages here
lat=$(RU run latency --quick --max-size 64K 2>&1)
like "a quick latency run's closing line: the pages in Russian, the figures with a comma" \
	"$(printf '%s\n' "$lat" | grep '^# измерено за')" \
	'^# измерено за [0-9]+,[0-9] с \(обещано: около [0-9]+ с[^)]*\); (большие страницы (включены|выключены): [0-9]+% буфера на страницах 2 МБ|запрошены (большие страницы|страницы 4 КБ)) \(THP [^)]+\)$'

# ---- a plan's notes in Russian, --plan --json's in English ---------------------------
T="--topology $TESTDATA/topo-hybrid.xml"
has "cores' plan: the pairs' count in its plural, the sampling in Russian" \
	"$(RU run cores --plan $T 2>&1)" "# ЦП: 8, 28 пар (все пары), затем 28 снова в обратном порядке"
has "falseshare's plan: the counters' note" "$(RU run falseshare --plan $T 2>&1)" \
	"# счётчики: плотно — через 8 байт, с прокладкой — через 128; атомарных сложений на поток: 20000000, лучшая из 3 попыток"
has "bandwidth's plan: more threads than CPUs" "$(RU run bandwidth --plan --threads 12 $T 2>&1)" \
	"# потоков 12 на 8 ЦП: перегрузка, они ждут своей очереди (помечено (!) в таблице)"
# the sizes' reasons and notes, sentences in sentences (a %s's words
# translated in turn; a doubt of two clauses kept whole)
Q="--topology $TESTDATA/topo-qemu-A.xml"
has "bandwidth's plan: the DRAM row's reason in Russian" "$(RU run bandwidth --plan $Q 2>&1)" \
	"#   DRAM         256M всего: 4 x L3 всех групп (групп: 2), 2 x 16M (hwloc), поднято до 256M"
has "... a doubted L3 left out, its doubt's two clauses in Russian" "$(RU run bandwidth --plan $Q 2>&1)" \
	"# L3 16M (hwloc) не берётся, memtop info сомневается в нём: ВМ: другие гости хоста делят этот кэш; сколько достаётся этому гостю, измеряет memtop run latency"
has "... --quick's cut in Russian, a reason in a reason" "$(RU run bandwidth --plan --quick $T 2>&1)" \
	"#   L3+DRAM       16M всего: 4 x L3 12M (hwloc), поднято до 256M, урезано до 16M ключом --quick: теперь L3+DRAM, а не DRAM"
has "numa's plan: the buffer's reason in Russian" "$(RU run numa --plan $Q 2>&1)" \
	"#   DRAM         256M всего: буфер каждого прогона, привязанный к узлу памяти: 4 x L3 16M (hwloc), не меньше 256M"
has "... where the idle latency is read" "$(RU run numa --plan $Q 2>&1)" \
	"# задержка без нагрузки читается на 256M: размер прогона: здесь нет страниц 2 МБ (THP never) для кривой, которая ищет, где начинается память"
like "... a loaded-latency curve's note, its injectors counted" "$(RU run numa --plan --loaded $Q 2>&1)" \
	'^# задержка под нагрузкой 0>2 \(самая дальняя по расстояниям прошивки, расстояние 31\): обходчик на ЦП 3, 3 нагрузчика на ЦП 0-2, без нагрузки и с паузами \(14\), около [0-9]+ с$'
like "... --plan --json's note stays English" "$(RU run cores --plan --json - --compact $T 2>&1)" \
	'"notes":\["8 CPUs, 28 pairs \(every pair\), then 28 again in reverse order"\]'

# ---- every experiment's --help: the common rows in Russian too -----------------------
eng=""
for x in $(experiments); do
	RU run "$x" --help 2>&1 | grep -Eq 'pin the measuring|pin it to|this help|print what the run|plan for the|write the result to|the JSON on one line|measure on the CPUs' &&
		eng="$eng $x"
done
is "no experiment's --help keeps a common row in English" "$eng" ""
