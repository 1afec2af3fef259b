#!/bin/sh
# The terminal UI in Russian, through tmux, as a student with a Russian
# locale runs it (env -u LANGUAGE LOCPATH=... LC_ALL=ru_RU.UTF-8; the locale
# built by tests/locale.sh): in memtop view (the bundled references) and in
# memtop --idle --quick, every tab's first screen, its help and a knob's
# prompt at 80x24 and at 200x60: the tab bar in Russian within the width,
# no word cut (the cut-word check of tests/tui_lib.sh, with the Cyrillic
# words of po/ru.po's translations beside memtop's English ones) and no
# ellipsis, the frame's and the help's exact Russian words, a decimal comma
# where a figure is shown; and bad input on the TUI's path (memtop view of a
# garbled JSON file): one line, exit 2, the terminal restored. A tab whose
# name is not in the catalogue yet is held to the frame and whole words
# (its name is checked once the catalogue has it). No cache size or timing
# of this machine is assumed. MEMTOP_RU_SHOTS=DIR keeps the 80x24 screens.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
top=$(cd "$(dirname "$TESTLIB")/.." && pwd)
loc=${MEMTOP_LOCPATH:-}
if [ -z "$loc" ] || [ ! -f "$loc/ru_RU.UTF-8/LC_NUMERIC" ]; then
	why=$(sed -n '1s/^skip: //p' "$loc/stamp" 2>/dev/null)
	plan 1
	skip "the TUI in ru_RU.UTF-8" "${why:-no ru_RU.UTF-8 built (tests/locale.sh, MEMTOP_LOCPATH)}"
	exit 0
fi
if [ "${USE_NLS:-yes}" = no ]; then
	plan 1
	skip "the TUI in ru_RU.UTF-8" "built without NLS (--disable-nls)"
	exit 0
fi
RU="-u LANGUAGE LOCPATH=$loc LC_ALL=ru_RU.UTF-8"
shots=${MEMTOP_RU_SHOTS:-}

# ru_of MSGID: po/ru.po's translation of MSGID (a one-line msgid and
# msgstr), empty when it has none
ru_of() {
	awk -v id="msgid \"$1\"" '$0 == id { getline; if ($0 ~ /^msgstr "/) {
		sub(/^msgstr "/, ""); sub(/"$/, ""); print; exit } }' "$top/po/ru.po"
}

# The tabs: key, name (_ for a blank), brief name or "-" (tab.h's .name
# and .brief; po/glossary.md "The terminal UI" has their Russian)
TABS='1 Mountain -
2 Latency -
3 Matmul -
4 Transpose -
5 False_sharing Sharing
6 Lists -
7 Bandwidth GB/s
8 Cores Cores
9 NUMA -
0 Topology Topo'

# the words: Latin, or Cyrillic (tui_lib.sh's TUI_WORDS); the Transpose
# tab's drawing is not words: its cells x, o and . and its scale, "3x1"
# elements a character, which the screen's size sets
LETTERS='A-Za-z\200-\377'
GLYPHS='^[xo.]+$|^[0-9]+x[0-9]+$'

# the words memtop prints whole somewhere: its string literals, data files
# and po/ru.po's translations (a Cyrillic letter is two bytes to the C
# locale's awk: a word cut on the screen is still cut between characters,
# the proper start of a known word)
{
	cat "$top"/tui/*.c "$top"/src/*/*.c | grep -o '"[^"]*"'
	cat "$top"/data/*.json "$top"/data/ref/*.json "$TESTDATA"/bandwidth-xeon-vm-quick.json \
		"$TESTDATA"/numa-mixes.json 2>/dev/null
	sed -n 's/^msgstr\(\[[0-9]\]\)\{0,1\} "\(.*\)"$/\2/p; s/^"\(.*\)"$/\1/p' "$top/po/ru.po"
} | LC_ALL=C awk -v L="$LETTERS" "$TUI_WORDS"' { n = split(words($0, L), a, " "); for (i = 1; i <= n; i++) print a[i] }' |
	LC_ALL=C grep -v '^[0-9]*$' | LC_ALL=C sort -u >"$TMP/known"

# whole DESC W H: the screen now, at W x H, without a cut word (tui_lib.sh's
# twhole, against the words above), no ellipsis
whole() { twhole "$1" "$2" "$3" "$LETTERS" "$GLYPHS"; }

# keep NAME: the screen now into $MEMTOP_RU_SHOTS/NAME
keep() {
	if [ -n "$shots" ]; then
		mkdir -p "$shots" && tcap >"$shots/$1"
	fi
}

# bar DESC W: the tab bar (the first line) within W columns names every
# tab whose name the catalogue has in Russian (in full, briefly, or by its
# number alone where even the brief name would not fit) and shows no
# English name of a tab the catalogue translates
bar() {
	b=$(tcap | head -n 1)
	cols=$(printf '%s' "$b" | sed 's/ *$//' | LC_ALL=ru_RU.UTF-8 LOCPATH=$loc wc -m)
	bad=
	while read -r bk bname bbrief; do
		bname=$(printf '%s' "$bname" | LC_ALL=C tr _ ' ')
		rn=$(ru_of "$bname")
		[ -n "$rn" ] || continue
		rb=$rn
		[ "$bbrief" = - ] || rb=$(ru_of "$bbrief")
		case "$b" in
		*"$rn"* | *"${rb:-$rn}"* | *" $bk "* | *" $bk") ;;
		*) bad="$bad tab $bk ($rn) not on the bar;" ;;
		esac
		[ "$bname" = "$rn" ] && continue
		case "$b" in *"$bname"*) bad="$bad tab $bk in English ($bname);" ;; esac
	done <<TABLE
$TABS
TABLE
	[ "$cols" -le "$2" ] || bad="$bad $cols columns;"
	if [ -z "$bad" ]; then pass "$1"; else fail "$1" "$bad" "bar: $b"; fi
}

# words DESC REGEX...: the screen holds each REGEX
words() {
	d=$1
	shift
	tcap >"$TMP/scr"
	miss=
	for r in "$@"; do grep -Eq -- "$r" "$TMP/scr" || miss="$miss /$r/"; done
	if [ -z "$miss" ]; then pass "$d"; else fail "$d" "missing:$miss" "$(sed 's/^/# /' "$TMP/scr")"; fi
}

# help_title KEY: the title of tab KEY's help ("Вкладка «Полоса»"), its
# name as the catalogue translates it (the English name until it does)
help_title() {
	n=$(printf '%s\n' "$TABS" | awk -v k="$1" '$1 == k { print $2 }' | LC_ALL=C tr _ ' ')
	rn=$(ru_of "$n")
	ru_of '%s tab' | sed "s/%s/${rn:-$n}/"
}

# tabs_and_help MODE W H: every tab's first screen and its help at W x H
tabs_and_help() {
	for k in 1 2 3 4 5 6 7 8 9 0; do
		tkeys "$k"
		sleep 0.3
		bar "$1, tab $k at ${2}x$3: the tab bar in Russian within $2 columns" "$2"
		[ "$2" = 80 ] && keep "$1-tab$k-80x24.txt"
		whole "$1, tab $k at ${2}x$3: no word cut, no ellipsis" "$2" "$3"
		tkeys '?'
		twait '^  Везде' 3
		words "$1, tab $k's help at ${2}x$3: its Russian title and the frame's keys" \
			'^  Везде$' "^  $(help_title "$k")\$" 'следующая вкладка' 'перерисовать экран'
		[ "$2" = 80 ] && keep "$1-help$k-80x24.txt"
		whole "$1, tab $k's help at ${2}x$3: no word cut, no ellipsis" "$2" "$3"
		tkeys Escape
		sleep 0.3 # Esc and the next key apart (not read as Alt-key)
	done
}

for size in "80 24" "200 60"; do
	W=${size% *}
	H=${size#* }
	# ---- memtop view: the bundled references --------------------------------
	tstart "$W" "$H" $RU -- view
	wok "view opens in Russian at ${W}x$H" 'справка|вкладки' 10
	tabs_and_help view "$W" "$H"
	tkeys 7
	sleep 0.3
	words "view at ${W}x$H: the status line's keys in Russian" \
		'^ 1\.\.9 0 вкладки  Tab дальше  \? справка  q выход'
	tkeys q
	# ---- memtop --idle --quick: nothing measured ----------------------------
	tstart "$W" "$H" $RU -- --idle --quick
	wok "--idle --quick opens in Russian at ${W}x$H" 'справка|вкладки' 10
	tabs_and_help idle "$W" "$H"
	# a knob's prompt: the Bandwidth tab's in Russian, then each lab tab's
	# whole (their words arrive with their translation)
	tkeys 7
	sleep 0.3
	tkeys c
	twait 'Сравнить' 3
	words "idle, tab 7's prompt of c at ${W}x$H in Russian" \
		'^ Сравнить с сохранённым замером полосы \(просто Enter — ни с чем\):'
	[ "$W" = 80 ] && keep "prompt7c-80x24.txt"
	whole "idle, tab 7's prompt of c at ${W}x$H: no word cut" "$W" "$H"
	tkeys Escape
	sleep 0.3
	for kp in 1o 2m 3n 4V 5o 6m 8o; do
		k=${kp%?}
		key=${kp#?}
		tkeys "$k"
		sleep 0.3
		tkeys "$key"
		sleep 0.3
		[ "$W" = 80 ] && keep "prompt$k$key-80x24.txt"
		whole "idle, tab $k's prompt of $key at ${W}x$H: no word cut" "$W" "$H"
		tkeys Escape
		sleep 0.3
	done
	tkeys q
done

# ---- figures: the decimal comma in the Bandwidth and NUMA tabs -------------
# the files from a short path: the tab shows the file's path on its last
# line, cut at the screen's edge (a checkout's path can be any length)
cp "$TESTDATA/bandwidth-xeon-vm-quick.json" "$TMP/bw.json"
cp "$TESTDATA/numa-mixes.json" "$TMP/numa.json"
tstart 80 24 $RU -- view "$TMP/bw.json"
tkeys 7
sleep 0.3
words "a bandwidth file at 80x24: its head in Russian, GB/s with a decimal comma" \
	'^ ГБ/с, ядра замера ' '^ ядро замера ' '^ read +[0-9]+,[0-9]' \
	'один поток: [0-9]+,[0-9] байт за такт при [0-9]+,[0-9]{2} ГГц'
keep bandwidth-80x24.txt
whole "a bandwidth file at 80x24: no word cut" 80 24
tkeys q
# its help whole at 200x60: the tab's keys, the save key's row said whole
tstart 200 60 $RU -- view "$TMP/bw.json"
tkeys 7
sleep 0.3
tkeys '?'
twait 'Везде' 3
words "a bandwidth file's help at 200x60: the tab's keys in Russian" '^  Вкладка «Полоса»$' \
	'измерить только таблицу' 'сохранить в JSON \(memtop-bandwidth-ХОСТ-ДАТА\.json\)' \
	'^    стрелки +двигать курсор'
tkeys Escape
sleep 0.3
tkeys q
tstart 80 24 $RU -- view "$TMP/numa.json"
tkeys 9
sleep 0.3
words "a NUMA file at 80x24: the matrices in Russian, ns with a decimal comma" \
	'^ память по узлам, как в Intel MLC: 2 узла, ' '^ задержка без нагрузки на ' \
	'^ ЦП\\пам +0 +1$' '^ 0 +[0-9]+,[0-9] +[0-9]+,[0-9]$'
keep numa-80x24.txt
whole "a NUMA file at 80x24: no word cut" 80 24
tkeys q

# ---- the Topology tab: a recorded 2 x 64-core machine's boxes --------------
# the boxes' titles (lstopo's names), the folded cores counted in their
# plural, the cursor's box in words, the memory with a decimal comma, and
# no English word of the boxes left
cp "$TESTDATA/topo-kunpeng920-2x64.json" "$TMP/kp.json"
tstart 130 30 $RU -- view "$TMP/kp.json"
tkeys 0
twait 'Машина' 5
words "a recorded topology at 130x30: its boxes in Russian" '─Машина─' '─Корпус 0─.*─Корпус 1─' \
	'─Узел NUMA 0, 125,6 ГБ, L3 32 МБ─' '─Ядро 0┐' '─x ещё 28 ядер┐' '│ЦП 4-31 ' \
	'^ машина +│' '^ ЦП 0-127 \(128 ЦП, 128 ядер\) +│'
is "... and no English word of the boxes" \
	"$(grep -cE 'Machine|Package|NUMA node|Core [0-9]|more cores|CPUs [0-9]|the machine|GB' "$TMP/scr")" 0
keep topology-130x30.txt
tkeys q

# ---- bad input on the TUI's path --------------------------------------------
printf '{"kind": "mountain",\n "x": [1, 2,,]\n' >"$TMP/garbled.json"
tstart 80 24 $RU -- view "$TMP/garbled.json"
wok "view of a garbled JSON file ends" 'memtop-exit=' 10
scr=$(tcap)
is "... with exit 2 and one line from memtop" \
	"$(printf '%s\n' "$scr" | grep -o 'memtop-exit=[0-9]*') $(printf '%s\n' "$scr" | grep -c '^memtop: ')" \
	"memtop-exit=2 1"
like "... the line names the command, the file and its line" "$scr" \
	'^memtop: view: .*garbled\.json: .*2$'
like "... the terminal restored (icanon and echo)" "$scr" '(^| )icanon .*(^| )echo( |$)'
if [ -n "$(ru_of '%s: not valid JSON near line %ld')" ]; then
	like "... the line in Russian" "$(printf '%s\n' "$scr" | grep '^memtop: ')" 'неверный JSON около строки'
else
	skip "... the line in Russian" "the JSON reader's message is not in the catalogue yet"
fi
plan "$TAP_N"
