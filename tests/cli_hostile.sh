#!/bin/sh
# Hostile text in files from other machines: ESC, BEL, CR, LF, TAB, a C1
# CSI, a bidi override, invalid UTF-8 and 10 KB strings in every string
# field a result carries (hardware, cpu, kernel, host, date, build, version,
# diagnostics, cache notes, source names, disagreements) and in a file's
# name. Nothing of it reaches the terminal raw: cliffs, compare, info
# --from and view print it made printable ('?' for each bad byte), and the
# UI (tmux) shows '?[31mRED', not red text.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"
plan 23

# a JSON string value: escapes cJSON decodes into ESC, BEL, CR, LF, TAB,
# U+009B (CSI) and U+202E, plus the raw bytes 0xff 0xfe (invalid UTF-8)
bad=$(printf '\\u001b[31mRED\\u0007\\r\\n\\t\\u009b1m\\u202eX\377\376Z')
# 10 KB of it
long=$(awk -v b="$bad" 'BEGIN { s = ""; while (length(s) < 10240) s = s b; print s }')
# mountain FILE VALUE: a small mountain whose every string field is VALUE
mountain() {
	v=$2
	cat >"$1" <<EOS
{"hardware":"$v","date":"$v","memtop_version":"$v","cpu":"$v","kernel":"$v","host":"$v",
 "build":"$v","diagnostics":{"build":"$v","thp":"$v","heterogeneous_text":"$v",
 "optimized":true,"load_before":0.5},
 "caches":{"sources":{"sysfs":[{"level":1,"type":"data","size":32768,"cores":"\\u001b[1m\\u0007",
   "shared_cpus":"\\u001b]0;t\\u0007"}],"x\\u001b[2J":[{"level":2,"type":"unified","size":1048576}]},
   "notes":{"sysfs":"\\u001b[31mnote\\u0007\\r"},"disagreements":["$v"]},
 "sizes":[16384,32768,65536,131072],"strides":[1,8],
 "throughput":[[9000,8000],[8800,7900],[3000,2000],[2900,1900]]}
EOS
}
mountain "$TMP/short.json" "$bad"
mountain "$TMP/long.json" "$long"
# the file's own name is hostile too
esc=$(printf '\033')
name="$TMP/m${esc}[31mRED$(printf '\007').json"
cp "$TMP/short.json" "$name"

# raw BYTES: how many bytes of stdin are not printable ASCII, tab or newline
raw() { LC_ALL=C tr -d '\t\n -~' | wc -c | tr -d ' '; }

for f in short long; do
	"$MEMTOP" cliffs "$TMP/$f.json" >"$TMP/out" 2>"$TMP/err"
	is "cliffs, $f fields: exit 0" "$?" 0
	is "cliffs, $f fields: no byte on stdout or stderr acts on the terminal" \
		"$(cat "$TMP/out" "$TMP/err" | raw)" 0
	"$MEMTOP" compare "$TMP/$f.json" "$name" >"$TMP/out" 2>"$TMP/err"
	is "compare, $f fields and a hostile file name: exit 0" "$?" 0
	is "compare, $f fields: nothing raw" "$(cat "$TMP/out" "$TMP/err" | raw)" 0
	"$MEMTOP" info --from "$TMP/$f.json" >"$TMP/out" 2>"$TMP/err"
	is "info --from, $f fields: exit 0" "$?" 0
	is "info --from, $f fields: nothing raw" "$(cat "$TMP/out" "$TMP/err" | raw)" 0
done
out=$("$MEMTOP" cliffs "$TMP/short.json")
like "cliffs shows the hardware made printable" "$out" '^\?\[31mRED\?\?\?\?\?1m\?X\?\?Z, stride'
out=$("$MEMTOP" info --from "$TMP/short.json")
like "info --from shows the note made printable" "$out" '^sysfs: \?\[31mnote\?\?$'
like "info --from shows a hostile source name made printable" "$out" '^x\?\[2J$'
out=$("$MEMTOP" compare "$TMP/short.json" "$name")
like "compare names the hostile file made printable" "$out" "^B: .*/m\\?\\[31mRED\\?\\.json$"
# errors quote file names and fields: made printable too
"$MEMTOP" cliffs "$TMP/nope${esc}[2J.json" >"$TMP/out" 2>"$TMP/err"
is "an error naming a hostile path: exit 2" "$?" 2
is "an error naming a hostile path: nothing raw" "$(raw <"$TMP/err")" 0
printf '{"sizes":[1],"strides":[1],"throughput":[[1]],"caches":{"sources":{"\\u001b[2J":7}}}' \
	>"$TMP/badkey.json"
"$MEMTOP" info --from "$TMP/badkey.json" >"$TMP/out" 2>"$TMP/err"
like "an error quoting a hostile key: exit 2, the key made printable" "$?:$(cat "$TMP/err")" \
	'^2:memtop: info: .*: sources\.\?\[2J is not an array$'

# the UI: what memtop writes to the terminal is recorded raw (pipe-pane)
tstart 100 30 -- view "$TMP/short.json"
tm pipe-pane -t t "cat >>'$TMP/pane.raw'"
tkeys Tab Tab Tab Tab Tab Tab # every tab once: each is drawn
wok "view: the hardware shows made printable" '\?\[31mRED\?' 10
unlike "view: never the red text itself" "$(tm capture-pane -p -e -t t)" "${esc}\\[31mRED"
tkeys q
wok "view: q quits" 'memtop-exit=0' 10
is "view: no BEL written to the terminal" "$(LC_ALL=C tr -cd '\007' <"$TMP/pane.raw" | wc -c | tr -d ' ')" 0
