#!/bin/sh
# The lessons' experiments in Russian (issue 43): latency, mountain, matmul,
# transpose and the cache simulator under ru_RU.UTF-8 (built by
# tests/locale.sh into the build's tests/locale, LOCPATH). Each plan's own
# words on a recorded machine (tests/data/topo-hybrid.xml), a count in its
# three plural forms (1, 2, 5), the simulated tables' Russian heads and rows
# (the simulator is exact: the same counts on every machine), a decimal
# comma in a figure for people and '.' in the same run's JSON, the
# simulator's csim-compatible line unchanged, bad options in Russian (one
# line, exit 2, nothing written). No figure of this machine is assumed: the
# plans are of a recorded machine, the tables are simulated.
. "$TESTLIB"
N=19
plan $N
D=$TESTDATA
X=$D/topo-hybrid.xml

ru_or_skip $N "Russian labs"
# a plan's size lines without the plan's own frame ("#   L1  16K each
# thread: "): the experiment's words for why the size is there
why() { sed -n 's/^#   [^:]*: //p'; }

# ---- the plans on a recorded machine ----
RU run latency --plan --topology "$X" >"$TMP/lat" 2>&1
is "latency --plan: the sizes in Russian" "$(why <"$TMP/lat")" \
	"127 размеров 4K..512M (шаги lat_mem_rd), каждый обходится отдельно"
is "latency --plan: the huge-page note in Russian (THP not known in an hwloc XML)" \
	"$(grep -c '^# без случайного обхода на больших страницах: о прозрачных больших страницах здесь ничего не известно (уровень за охватом TLB второго уровня может быть ценой обхода таблиц страниц, а не кэшем)$' "$TMP/lat")" 1
RU run latency --plan --topology "$X" --json - 2>/dev/null >"$TMP/lat.json"
like "latency --plan --json: the note stays English (what machines read)" "$(cat "$TMP/lat.json")" \
	'"no random chase on huge pages: transparent huge pages are not known here'

RU run mountain --plan --topology "$X" >"$TMP/mnt" 2>&1
is "mountain --plan: each of the 14 rows in Russian" \
	"$(why <"$TMP/mnt" | sort | uniq -c | sed 's/^ *//')" "14 строка сетки, читается с 15 шагами"
is "mountain --plan: the strides' line" \
	"$(grep -c '^# шаги (в 8-байтовых словах): 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15$' "$TMP/mnt")" 1
forms=""
for s in 1 2 5; do
	forms="$forms$(RU run mountain --plan --topology "$X" --max-stride $s 2>&1 | why | sort -u);"
done
is "mountain --plan: 1, 2, 5 strides (instrumental after «с»)" "$forms" \
	"строка сетки, читается с 1 шагом;строка сетки, читается с 2 шагами;строка сетки, читается с 5 шагами;"

forms=""
for t in 1 2 5; do
	forms="$forms$(RU run matmul --plan --topology "$X" --tries $t 2>&1 | why);"
done
is "matmul --plan: best of 1, 2, 5 runs (genitive after «из»)" "$forms" \
	"A, B и C, по 512 x 512 double; лучший из 1 прогона;A, B и C, по 512 x 512 double; лучший из 2 прогонов;A, B и C, по 512 x 512 double; лучший из 5 прогонов;"

RU run transpose --plan --topology "$X" >"$TMP/tr" 2>&1
is "transpose --plan: the real machine's matrices in Russian" "$(why <"$TMP/tr")" \
	"A и B, по 4096 x 4096 int32, транспонирование на настоящей машине"
forms=""
for z in 8x8 8x8,16x16 8x8,16x16,24x24,40x40,48x48; do
	forms="$forms$(RU run transpose --plan --topology "$X" --size $z 2>&1 | grep 'cachelab')
"
done
is "transpose --plan: 1, 2, 5 simulated sizes (three plural forms)" "$forms" \
	"# 1 симулируемый размер на кэше cachelab: в нём ничего от этой машины
# 2 симулируемых размера на кэше cachelab: в них ничего от этой машины
# 5 симулируемых размеров на кэше cachelab: в них ничего от этой машины
"

# ---- the simulated tables: exact counts ----
RU run matmul --simulate --quick --json "$TMP/mm.json" >"$TMP/mm" 2>&1
s=$?
is "matmul --simulate in Russian: exit 0" "$s" 0
is "matmul --simulate: the table's head in Russian, in its columns" \
	"$(grep -c '^порядок     класс   обращений    промахи пром/итер      A     B     C  книга$' "$TMP/mm")" 1
is "matmul --simulate: ijk's row with decimal commas (the book's 1 + 1/L = 1,250)" \
	"$(grep '^ijk ' "$TMP/mm")" "ijk         AB         225792     124128     1,122  0,102 1,000 0,021  1,250"
like "matmul --simulate: the same run's JSON keeps '.'" "$(cat "$TMP/mm.json" 2>/dev/null)" \
	'"misses_per_iter":[[:space:]]*1\.1223958'
is "matmul --simulate: the book's line in Russian" \
	"$(grep -c '^# книга: AB 1 + 1/L, AC 2, BC 2/L промаха на итерацию при линии в L double$' "$TMP/mm")" 1

RU run transpose --quick --no-real >"$TMP/tq" 2>&1
is "transpose: the miss table's head and rows in Russian (cachelab's cache)" \
	"$(sed -n '/^версия /,/^diagonal /p' "$TMP/tq")" \
	"версия      32x32  64x64  61x67
naive        1180   4720   4706
block:8       340   4720   2222
block:16     1180   4720   2005
diagonal      284   1224   2005"
is "transpose: cachelab's verdicts in Russian, in 7 columns" \
	"$(sed -n '/^cachelab /,$p' "$TMP/tq" | grep '^diagonal ')" \
	"diagonal    зачёт  зачёт ПРОВАЛ"

# ---- the simulator's machine output stays csim's ----
is "sim in Russian: the csim-compatible line unchanged" \
	"$(RU sim -s 4 -E 1 -b 4 -t "$D/yi.trace" 2>/dev/null)" "$(C sim -s 4 -E 1 -b 4 -t "$D/yi.trace" 2>/dev/null)"

# ---- bad options in Russian: one line, exit 2, nothing written ----
rm -f "$TMP/bad.json"
RU run latency --strides 12 --json "$TMP/bad.json" >"$TMP/out" 2>"$TMP/err"
s=$?
is "run latency --strides 12 in Russian: exit 2, one line, no file" \
	"$s $(wc -l <"$TMP/err" | tr -d ' ') $(cat "$TMP/err") $(ls "$TMP/bad.json" 2>/dev/null)" \
	"2 1 memtop: run latency: --strides: 12 не кратно 8 байтам "
RU run latency --random --no-random --json "$TMP/bad.json" >"$TMP/out" 2>"$TMP/err"
s=$?
is "run latency --random --no-random in Russian: exit 2, one line, no file" \
	"$s $(wc -l <"$TMP/err" | tr -d ' ') $(cat "$TMP/err") $(ls "$TMP/bad.json" 2>/dev/null)" \
	"2 1 memtop: run latency: --random и --no-random исключают друг друга "
