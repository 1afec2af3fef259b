#!/bin/sh
# The lab tabs in Russian: the real memtop in tmux under ru_RU.UTF-8 (the
# locale tests/locale.sh builds into the build's tests/locale), each of the
# Mountain, Latency, Matmul, Transpose, False sharing, Lists and Cores tabs
# at 80x24 (and the Mountain tab at 200x60): the lesson's Russian words of
# its title or headline, none of its former English phrases, a decimal
# comma in a figure where the tab shows one, and every Russian word whole:
# no ellipsis, no word that the same screen at 250 columns does not print
# whole, no Cyrillic word that is only the start of a word of po/ru.po (the
# idea of tests/tui_words.sh, with the catalogue's words). The figures
# asserted are the bundled files' (data/, tests/data) or the simulator's,
# never this machine's. The tab bar and the footer are the frame's (their
# own tests); the lines between are the tab's.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
NTESTS=68
loc=${MEMTOP_LOCPATH:-}
po=${MEMTOP_SRCDIR:-$(dirname "$TESTLIB")/..}/po/ru.po
plan "$NTESTS"
ru_or_skip "$NTESTS" "the lab tabs in Russian"
RU="-u LANGUAGE LOCPATH=$loc LC_ALL=ru_RU.UTF-8"

# a Cyrillic letter in UTF-8, as bytes (the words are split in the C locale:
# no other locale is assumed here)
CYR=$(printf '[\320\321][\200-\277]')
# the catalogue's Russian words, one a line
LC_ALL=C grep -v '^#' "$po" | LC_ALL=C grep -o "\\($CYR\\)\\{1,\\}" | LC_ALL=C sort -u \
	>"$TMP/known"

# body FILE: the tab's lines of a screen (not the tab bar, not the footer)
body() { sed '1d;$d' "$1"; }

# cut_words NARROW WIDE: the words of NARROW that are cut: a word (Latin or
# Cyrillic letters) the wide screen never prints, or a Cyrillic word that
# is only the start of a word of the catalogue
cut_words() {
	body "$2" | LC_ALL=C grep -o "\\([A-Za-z]\\|$CYR\\)\\{1,\\}" | LC_ALL=C sort -u >"$TMP/wwords"
	body "$1" | LC_ALL=C grep -o "\\([A-Za-z]\\|$CYR\\)\\{1,\\}" | LC_ALL=C sort -u >"$TMP/nwords"
	LC_ALL=C awk -v known="$TMP/known" -v wide="$TMP/wwords" '
	BEGIN {
		while ((getline w < known) > 0) {
			k[w] = 1
			for (i = 2; i < length(w); i += 2) pre[substr(w, 1, i)] = 1
		}
		while ((getline w < wide) > 0) v[w] = 1
	}
	!($0 in v) { print "not whole at 250 columns: " $0; next }
	$0 ~ /^[\320\321]/ && ($0 in pre) && !($0 in k) { print "the start of a word only: " $0 }
	' "$TMP/nwords"
}

# whole DESC [SKIP]: the screen now at 80x24 against the same at 250
# columns: no cut word, no ellipsis (a sentence too long is said in its
# first clauses); words matching the regex SKIP are glyphs, not words (the
# Transpose tab's matrices of . o x)
whole() {
	sleep 0.3
	tcap >"$TMP/narrow"
	tresize 250 24 "$TMP/wide"
	# the status line's message and a run's warnings (machine busy, the
	# clock moved) are the moment's: they come and go between the two
	# captures (the message is checked where it is awaited). The warnings
	# are the status lines' last, above the footer: from their first line
	# on, all the lines they wrap to (not the footer)
	sed -i '/предупреждение:/,${$!d}; /^ *снято [0-9]/d' "$TMP/narrow" "$TMP/wide"
	tresize 80 24 "$TMP/back"
	cut=$(cut_words "$TMP/narrow" "$TMP/wide" | grep -Ev ": (${2:-^$})\$"
		body "$TMP/narrow" | grep -n '…' | sed 's/^/ellipsis: line /')
	if [ -z "$cut" ]; then
		pass "$1"
	else
		fail "$1" "$cut" "screen:" "$(cat "$TMP/narrow")"
	fi
}

# english DESC REGEX: the tab's lines hold none of its former English
english() { unlike "$1" "$(tcap | sed '1d;$d')" "$2"; }

# ---- memtop --idle --quick: each tab before it measures -------------------
tstart 80 24 $RU -- --idle --quick
wok "idle, Mountain: the grid r measures, in Russian" \
	'r снимет 10 размеров 16K\.\.8M × 4 шага, около [0-9]+ с' 10
wok "idle, Mountain: the slice's title and the empty legend" \
	'срез по размеру на шаге 8' 5
english "idle, Mountain: no English left" \
	'r measures|sizes|strides|fastest try|nothing measured|size slice|stride slice|not measured'
whole "idle, Mountain at 80x24: every word whole"

tkeys 2
wok "idle, Latency: the headline in the lesson's words" \
	'Задержка обходом цепочки указателей: прогона ещё нет\. r измерит 4K\.\.' 5
wok "idle, Latency: the lesson line (предвыборщики, случайный обход)" \
	'предвыборщики идут за постоянным шагом, а случайный обход' 5
english "idle, Latency: no English left" \
	'Latency by|no run yet|pages|Fixed strides|prefetchers|random|the largest array'
whole "idle, Latency at 80x24: every word whole"

tkeys 3
wok "idle, Matmul: the race's head and the hint" 'порядок кл\. прогресс +нс/итер' 5
wok "idle, Matmul: the book's misses with a decimal comma" \
	'ijk +AB +- +[0-9],[0-9]{3}' 5
like "idle, Matmul: the hint" "$(tcap)" 'r начинает гонку; n и b задают размер и блок'
english "idle, Matmul: no English left" \
	'book:|misses|inner loop|class |order|progress|starts the race'
whole "idle, Matmul at 80x24: every word whole"

tkeys 4
wok "idle, Transpose: the cache and the simulated version" 'кэш \(5,1,5\)  32x32  diagonal' 5
like "idle, Transpose: the counters of the simulation (exact)" "$(tcap)" \
	'2048/2048  попаданий 1764  промахов 284  вытеснений 252  cachelab <300 сдано'
like "idle, Transpose: the legend in the lesson's words" "$(tcap)" \
	'\. попадание   o промах   x промах с вытеснением'
english "idle, Transpose: no English left" \
	'cache \(|hits|misses|evictions|last:|pass|FAIL|elements a|hit |miss|real machine'
whole "idle, Transpose at 80x24: every word whole" '[ox]+'

tkeys 5
wok "idle, False sharing: the title" \
	'[0-9]+ атомарных сложений на поток, лучшая из [0-9]+; packed через 8 Б' 5
like "idle, False sharing: the sweep in the lesson's words" "$(tcap)" \
	'перебор расстояний, 2 потока \(мс\): разделение кончается там'
english "idle, False sharing: no English left" \
	'atomic adds|best of|threads|ratio|spacing sweep|sharing stops|r measures'
whole "idle, False sharing at 80x24: every word whole"

tkeys 6
wok "idle, Lists: the title" 'обход \(1 2 \.\.\. n\), тактов на ячейку, лучшая из [0-9]+' 5
english "idle, Lists: no English left" \
	'walk of|cycles per cell|per cell|latest length|bare chain|r walks'
whole "idle, Lists at 80x24: every word whole"

tkeys 8
wok "idle, Cores: the headline" 'Задержка между ядрами: время, за которое линия кэша' 5
english "idle, Cores: no English left" \
	'Core-to-core|cache line|one-way|every pair|r measures'
whole "idle, Cores at 80x24: every word whole"

# the quick mountain measured: a count's plural and a time with a comma
tkeys 1 r
wok "a quick mountain: 40 cells (the plural клеток) in a time with a decimal comma" \
	'снято 40 клеток за [0-9]+,[0-9] с; w сохраняет' 60
english "the measured Mountain: no English left" \
	'measured [0-9]|cells|tries .* apart|core at|cycles a word:|L1 plateau|machine busy|built with|clock moved|runnable task|hypervisor stole'
whole "the measured Mountain at 80x24: every word whole"
# q with the result unsaved: the whole question (a buffer once cut it at
# its 128th byte, «Сохрани»)
tkeys q
wok "q asks the whole question in Russian" 'Результаты не сохранены\. Сохранить\? y да, n выйти без сохранения, Esc' 5
tkeys n

# ---- memtop view: the bundled figures ----------------------------------------
tstart 80 24 $RU -- view
wok "view opens at 80x24" 'Apple M4 Max' 10
tkeys 1
wok "view, Mountain: the slice and the reading" 'срез по размеру на шаге 8' 5
like "view, Mountain: the floor's ns a word with a decimal comma (seed 000's 9304 MB/s)" \
	"$(tcap)" 'шаг 15: 0,86 нс на слово'
english "view, Mountain: no English left of the tab's own" \
	'size slice|stride slice|log scale|in cells|slow |L1 plateau|ns a word|stride [0-9]'
whole "view, Mountain at 80x24: every word whole"

tkeys 3
wok "view, Matmul: the title of a file's timings" \
	'C \+= A\*B, n = 512, блок 32: каждый порядок отдельно, лучшая из 3 попыток' 5
like "view, Matmul: ns an iteration with a decimal comma" "$(tcap)" 'ijk +AB +[^ ]+ +2,23 '
english "view, Matmul: no English left" 'book:|misses|inner loop|not simulated|timed alone'
whole "view, Matmul at 80x24: every word whole"

tkeys 5
wok "view, False sharing: the seed's run (50M adds, 3 tries)" \
	'50000000 атомарных сложений на поток, лучшая из 3; packed через 8 Б' 5
like "view, False sharing: the table's ms with a decimal comma" "$(tcap)" \
	' 2 +618,1 +134,7 +4,59x'
english "view, False sharing: no English left" 'atomic adds|threads|packed ms|ratio'
whole "view, False sharing at 80x24: every word whole"

tkeys 6
wok "view, Lists: the file's clock with a decimal comma" \
	'тактов на ячейку при 4,10 ГГц, лучшая из 5' 5
like "view, Lists: the per-cell rows" "$(tcap)" 'линий64 +0,250 +1,000'
english "view, Lists: no English left" 'cycles per cell|per cell|latest length|GHz'
whole "view, Lists at 80x24: every word whole"

# the bundled reference beside itself: the passport card of seed 000
tkeys 1 o Enter
wok "view, Mountain: the book's card beside the reference" 'паспорт +Haswell +M4 Max' 5
like "view, Mountain: the card's figures with decimal commas" "$(tcap)" \
	'вершина +~14,0 ГБ/с +89,6 ГБ/с'
english "view, Mountain card: no English left" 'peak|floor|ridge|line knee|clock|GHz|GB/s'
whole "view, the card at 80x24: every word whole"
tkeys q

# ---- an imported latency curve (ns, no clock) --------------------------------
tstart 80 24 $RU -- view "$MEMTOP_DATA/ref/rpi5-a76-latency.json"
wok "view, Latency: the curve's title, its count's plural" \
	'16 размеров 4K\.\.128M, случайный обход: 16/16 точек' 10
like "view, Latency: the levels with decimal commas" "$(tcap)" \
	'L1 64K 1,67 нс \| L2 512K 5,08 нс .* память 108 нс'
like "view, Latency: the levels found under the size axis" "$(tcap)" '^найдено +▼L1'
english "view, Latency: no English left" \
	'sizes|random|points|levels:|found|ns up|size across|plateaus|mem '
whole "view, Latency at 80x24: every word whole"
tkeys q

# ---- an imported core-to-core matrix ------------------------------------------
"$MEMTOP" import "$TESTDATA/c2c-aws-graviton2.csv" --json "$TMP/g.json" >/dev/null
tstart 80 24 $RU -- view "$TMP/g.json"
tkeys 8
wok "view, Cores: the matrix's title, its pairs' plural" \
	'нс в одну сторону \(туда и обратно / 2\): 64 ЦП, 2016 из 2016 пар' 10
like "view, Cores: the legend's range with decimal commas" "$(tcap)" \
	'быстро 30,4 .* 58,4 нс медленно'
like "view, Cores: the cursor's pair" "$(tcap)" 'ЦП 0 и ЦП 1: [0-9]+,[0-9] нс в одну сторону'
english "view, Cores: no English left" 'one-way|pairs|fast |slow|by relation|log scale'
whole "view, Cores at 80x24: every word whole"
tkeys q

# ---- 200x60 once: the Mountain tab and its card ----------------------------
tstart 200 60 $RU -- view
wok "view at 200x60" 'Apple M4 Max' 10
tkeys 1
wok "200x60, Mountain: the reading" 'тактов на слово, не больше: плато L1 0,40' 5
like "200x60, Mountain: both slices" "$(tcap)" 'срез по шагу на размере 16K'
sleep 0.3
tcap >"$TMP/narrow"
tm resize-window -t t -x 250 -y 60
sleep 0.5
tcap >"$TMP/wide"
cut=$(cut_words "$TMP/narrow" "$TMP/wide"; body "$TMP/narrow" | grep -n '…' | sed 's/^/ellipsis: line /')
is "200x60, Mountain: every word whole" "$cut" ""
english "200x60, Mountain: no English left of the tab's own" \
	'size slice|stride slice|log scale|in cells|L1 plateau|ns a word'
tkeys q
