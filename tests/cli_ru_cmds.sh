#!/bin/sh
# The commands in Russian (issue 43): every command's --help, compare,
# cliffs, levels and import on the recorded files of tests/data, the labs'
# text (lists, algae) and bad input, run as a student with a Russian locale
# would (ru_RU.UTF-8 built by tests/locale.sh into the build's tests/locale,
# LOCPATH). Exact lines where the answer is exact: the recorded files'
# figures with the decimal comma, the simulated algae table, the list
# layouts' line counts; no figure of this machine is assumed.
. "$TESTLIB"
N=44
plan $N
D=$TESTDATA

ru_or_skip $N "memtop's commands in ru_RU.UTF-8"
cd "$TMP" || exit 1

# every command's --help: exit 0, its usage line in Russian
help_is() {
	RU "$@" --help >"$TMP/help" 2>&1
	s=$?
	is "$* --help: exit 0, its usage line in Russian" "$s $(head -n 1 "$TMP/help")" "0 $WANT"
}
WANT='Вызов: memtop cliffs ФАЙЛ.json [ШАГ] [ПАРАМЕТРЫ]' help_is cliffs
WANT='Вызов: memtop compare A.json B.json [C.json ...] [--stride N]... [--seed]' help_is compare
WANT='Вызов: memtop sim [-hv] -s S -E E -b B -t ТРАССА' help_is sim
WANT='Вызов: memtop info [--json [ФАЙЛ]] [--from ФАЙЛ.json]' help_is info
WANT='Вызов: memtop topo [--sysfs-root DIR | --topology ФАЙЛ] [--json OUT]' help_is topo
WANT='Вызов: memtop import ФАЙЛ [ФАЙЛ2] --json OUT [ПАРАМЕТРЫ]' help_is import
WANT='Вызов: memtop levels ФАЙЛ.json [--json OUT]' help_is levels
WANT='Вызов: memtop plot ФАЙЛ.json [ФАЙЛ2.json] [--svg OUT] [--png OUT]' help_is plot
WANT='Вызов: memtop report ФАЙЛЫ... --html OUT [--ref ИМЯ|all]... [--title ТЕКСТ]' help_is report
WANT='Вызов: memtop run ЭКСПЕРИМЕНТ [ПАРАМЕТРЫ]' help_is run
WANT='Вызов: memtop run lists [ПАРАМЕТРЫ]' help_is run lists
WANT='Вызов: memtop run falseshare [ПАРАМЕТРЫ]' help_is run falseshare
WANT='Вызов: memtop run algae [ПАРАМЕТРЫ]' help_is run algae
RU --help >"$TMP/help" 2>&1
lines "memtop --help: the commands' summaries in Russian" "$(cat "$TMP/help")" \
	'^  (cliffs +найти обрывы|compare +сохранённые результаты)' 2

# compare of two recorded latency runs: the heads of the ratio rows, the
# header's load with a decimal comma, the method line
RU compare "$D/latency-xeon-vm-44k.json" "$D/latency-l1-32k.json" >"$TMP/cmp" 2>&1
s=$?
is "compare of two recorded runs: exit 0" "$s" 0
lines_of "$TMP/cmp" \
	"... file A's header: the build and its load, with a decimal comma" \
		'^   сборка gcc -g -O2; загрузка 3,10 до прогона$' 1 \
	"... its run's warning in Russian (the file's load 3.8 on 2 CPUs)" \
		'^   предупреждение: машина загружена: загрузка 3,8 на 2 ЦП$' 1 \
	"... the median ratio to A, in Russian, with decimal commas" \
		'^к A {9}1,00 {5}0,82$' 1 \
	"... the verdict: B faster" \
		'^вывод {8}\(A\)  быстрее$' 1 \
	"... how B measured against A" \
		'^  B измерял 8M, A — 512M$' 1 \
	"... the conditions' head" \
		'^условия \(настройки, которые двигают числа памяти\):$' 1

# cliffs of a recorded mountain: the drops with decimal commas, the sizes in КБ/МБ
RU cliffs "$D/mountain-quick-xeon-157.json" --latency "$D/latency-xeon-vm-44k.json" >"$TMP/cl" 2>&1
s=$?
is "cliffs of a recorded mountain: exit 0" "$s" 0
lines_of "$TMP/cl" \
	"... its first cliff" \
		'^обрыв между 32 КБ и 64 КБ: падение в 1,57 раза$' 1 \
	"... its one slope" \
		'^обрыв между 1 МБ и 2 МБ: падение в 3,50 раза \(один склон от 1 МБ до 4 МБ: в 8,40 раза\)$' 1 \
	"... the levels it reads" \
		'^уровни на этом шаге: 32 КБ, 1 МБ$' 1 \
	"... held against the latency run's L2" \
		'^  задержка L2 1,6 МБ: совпадает \(L2 горы 1 МБ\)$' 1

# levels of a recorded run: what machines read is the same under ru_RU
RU levels "$D/latency-xeon-vm-44k.json" --json - 2>/dev/null >"$TMP/lv.ru"
env -u LANGUAGE LC_ALL=C "$MEMTOP" levels "$D/latency-xeon-vm-44k.json" --json - 2>/dev/null \
	>"$TMP/lv.c"
if [ -s "$TMP/lv.c" ] && cmp -s "$TMP/lv.c" "$TMP/lv.ru"; then
	pass "levels of a recorded run: the same JSON under ru_RU"
else
	fail "levels of a recorded run: the same JSON under ru_RU" "$(diff "$TMP/lv.c" "$TMP/lv.ru" | head -4)"
fi

# import of a recorded matrix: the pairs' plural, the median with a comma
RU import "$D/c2c-aws-graviton2.csv" --json "$TMP/c2c.json" >"$TMP/imp" 2>&1
is "import of a recorded matrix: the summary in Russian" "$(head -n 1 "$TMP/imp" | sed 's|^.*/||')" \
	'c2c-aws-graviton2.csv: c2c, 64 ЦП, 2016 пар (нс в одну сторону); медиана 47,2 нс'

# report: its counts in the plural forms
RU report "$D/latency-xeon-vm-44k.json" "$D/mountain-quick-xeon-157.json" \
	"$D/latency-l1-32k.json" --html "$TMP/r.html" >"$TMP/rep" 2>&1
is "report: what it wrote, counted in Russian" "$(cat "$TMP/rep")" \
	"записан $TMP/r.html: 3 машины, 2 группы, 3 результата"

# the lists lab: its plan (the sizes are exact), a quick run's rows
RU run lists --plan --quick >"$TMP/plan" 2>&1
s=$?
is "run lists --plan --quick: exit 0, two sizes" "$s $(grep -c ' ячеек по 16 байт\| ячейки по 16 байт' "$TMP/plan")" "0 2"
like "... the count's plural: 4096 ячеек, 16384 ячейки" "$(cat "$TMP/plan")" \
	'4096 ячеек по 16 байт \(раскладка с шагом: линия на ячейку, в 4-8 раз больше\)'
RU run lists --plan --lengths 4096,64K,1M,4M,16M >"$TMP/plan" 2>&1
is "... --lengths of five: five sizes" "$(grep -c ' по 16 байт (раскладка с шагом' "$TMP/plan")" 5
RU run lists --quick --no-sim >"$TMP/lists" 2>&1
s=$?
is "run lists --quick: exit 0" "$s" 0
lines_of "$TMP/lists" \
	"... its table's head in Russian" \
		'^    ячеек  раскладка    такт/яч    нс/яч разброс  линий64 линий128   промахи$' 1 \
	"... a row a layout and length: 2 x 6, each with decimal commas" \
		'^ +(4096|16384)  (sequential|stride|shuffled|malloc|holes|cdr) +[0-9]+,[0-9] +[0-9]+,[0-9]{2} ' 12 \
	"... the seed's table: its title, head and two rows" \
		'^(# тактов на ячейку \(таблица урока\)| +ячеек sequential +stride .*| +(4096|16384)( +[0-9]+,[0-9]){6})$' 4 \
	"... the neighbours of malloc and holes, in the plural" \
		'^# список (malloc|holes) из 16384 ячеек: расстояние до следующей ячейки' 2

# the algae lab: simulated, so every figure is exact
RU run algae >"$TMP/algae" 2>/dev/null
lines_of "$TMP/algae" \
	"run algae: the table's head in Russian" \
		'^случай           чтений промахи   доля  что$' 1 \
	"... the array of structs by columns: 256 misses of 512" \
		'^aos-column          512     256    50%  массив структур: grid\[j\]\[i\] по столбцам, x и y \(6\.19\)$' 1

# bad input: one line, exit 2, nothing written
printf '{"kind": "mountain", ' >"$TMP/g.json"
RU import "$TMP/g.json" --json "$TMP/out.json" >"$TMP/out" 2>"$TMP/err"
s=$?
want='memtop: g.json: строка 1: не вывод lat_mem_rd, tinymembench, ramlat, горы из CS:APP, таблицы горы ('"'"'s1 s2 ...'"'"' над строками '"'"'128m T T ...'"'"') или CSV из core-to-core-latency, получено «{"kind": "mountain",»'
is "import of a garbled file: exit 2, one line in Russian naming file and line, nothing written" \
	"$s $(wc -l <"$TMP/err" | tr -d ' ') $(test -e "$TMP/out.json" && echo written)$(sed 's|^memtop: .*/g.json|memtop: g.json|' "$TMP/err")" \
	"2 1 $want"
RU compare "$TMP/g.json" >"$TMP/out" 2>"$TMP/err"
s=$?
is "compare of a garbled JSON: exit 2, one line naming it, nothing on stdout" \
	"$s $(wc -l <"$TMP/err" | tr -d ' ') $(wc -c <"$TMP/out" | tr -d ' ') $(grep -c '^memtop: .*g\.json: ' "$TMP/err")" \
	"2 1 0 1"
printf '{"experiment": "bogus"}\n' >"$TMP/x.json"
RU compare "$TMP/x.json" "$TMP/x.json" >"$TMP/out" 2>"$TMP/err"
s=$?
is "compare of a result of no kind: exit 2, the field's value named in Russian" \
	"$s $(wc -l <"$TMP/err" | tr -d ' ') $(grep -c '^memtop: .*/x\.json: результат «bogus»; memtop читает результаты mountain, latency, ' "$TMP/err")" \
	"2 1 1"
RU compare --stride 0 "$D/latency-xeon-vm-44k.json" "$D/latency-l1-32k.json" >"$TMP/out" 2>"$TMP/err"
s=$?
is "a bad option value: exit 2, one line in Russian" "$s $(cat "$TMP/err")" \
	"2 memtop: compare: --stride: ожидалось положительное число слов, получено «0»"
RU cliffs "$D/mountain-quick-xeon-157.json" --ratio 0,5 >"$TMP/out" 2>"$TMP/err"
s=$?
is "cliffs --ratio below 1: exit 2, one line in Russian" "$s $(cat "$TMP/err")" \
	"2 memtop: cliffs: --ratio: ожидалось число больше 1, получено «0,5»"
