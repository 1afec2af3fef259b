#!/bin/sh
# memtop report --html: one self-contained page for a lab or a class, on a
# fleet made up here (tests/fleet_lib.sh), with a host whose name holds
# HTML's special characters. The page parses strictly (xmllint, as XML)
# and, in a real browser (Debian's chromium, headless), renders to a PNG
# that is not blank and a DOM that holds every machine's name and figure.
. "${TESTLIB:-$(dirname "$0")/lib.sh}"
. "$(dirname "$0")/fleet_lib.sh"
plan 36

F=$TMP/class
mkdir "$F"
for i in 1 2 3 4 5; do
	dram=4000
	[ $i = 4 ] && dram=2000
	fleet_latency "Xeon T" 4 0.1 pc$i $((80 + i)) >"$F/pc$i-latency.json"
	fleet_mountain "Xeon T" 4 0.1 pc$i $dram >"$F/pc$i-mountain.json"
done
printf '%s: ' 'odd<b>&"name' >"$F/odd.jsonl"
fleet_latency "EPYC T" 8 0.1 odd 95 >>"$F/odd.jsonl"
status "report: exit 0" 0 $MEMTOP report "$F"/*.json "$F/odd.jsonl" --ref m4max --html "$F/class.html"
html=$F/class.html
is "it says what it wrote, as every writer does" "$(cat "$TMP/out")" \
	"wrote $F/class.html: 7 machines, 3 groups, 12 results"
like "each picture's caption names its machine, kind and file" "$(cat "$html")" \
	'<figcaption class="mut">pc1: mountain \([^)]*pc1-mountain\.json\)</figcaption>'
is "the page is one file, nothing beside it" "$(ls "$F" | grep -c 'class')" 1
if command -v xmllint >/dev/null 2>&1; then
	ok "the page parses strictly (xmllint, as XML)" xmllint --noout "$html"
else
	skip "the page parses strictly" "xmllint is not installed (libxml2-utils)"
fi
is "nothing from the network: no src= nor href= to another place" \
	"$(grep -Eo '(src|href)="[^#"][^"]*"' "$html" | wc -l | tr -d ' ')" 0
is "no external script or font (@import, url(), <link>)" \
	"$(grep -Ec '@import|url\(|<link' "$html")" 0
is "a dark theme and a print style" \
	"$(grep -c 'prefers-color-scheme:dark' "$html") $(grep -c '@media print' "$html")" "1 1"
# printed, the table in blocks a page wide: every figure of the screen's
# table in one block or another, at most seven a block; a unit said once
heads=$(grep '^<thead>' "$html" | awk -F'<th' '{ print NF - 4 }') # less thead, machine, group
is "printed: every column in blocks of at most 7" \
	"$(printf '%s\n' "$heads" | awk 'NR == 1 { all = $1; next } { sum += $1; if ($1 > 7) big++ }
		END { print (sum == all ? "all" : sum "/" all), big + 0, (NR > 2 ? "blocks" : "one") }')" \
	"all 0 blocks"
is "a figure whose name says its unit does not say it twice (not \"L1 ns ns\"), screen and print" \
	"$(grep -c 'L1 ns <span' "$html") $(grep -c 'latency<br/>L1 ns</th>' "$html")" "0 2"
is "the host's name escaped, never markup" \
	"$(grep -q 'odd&lt;b&gt;&amp;&quot;name' "$html" && echo escaped) $(grep -c 'odd<b>' "$html")" \
	"escaped 0"
is "a picture a result, inline SVG: 11 results and the reference" \
	"$(grep -o '<svg ' "$html" | wc -l | tr -d ' ')" 12
like "the slow DIMM stands out, with its reading" "$(cat "$html")" \
	'pc4</a> \(A\): floor 0.50x the group&#39;s: fewer memory channels populated, or a slower DIMM\?'
like "the reference is a row labelled so" "$(cat "$html")" '<tr id="row[0-9]+" class="ref">.*ref: m4max'

# the conditions in each machine's section: alice's (a real run) recorded
# hers; a made-up server (fleet_cond) its DIMMs; an old file says it has none
FLEET_COND=$(fleet_cond 8) fleet_mountain "Xeon D" 16 0.1 srv1 4000 >"$F/srv1.json"
$MEMTOP report "$F/srv1.json" "$TESTDATA/latency-quick-epyc-vm.json" --html "$F/cond.html" 2>"$TMP/err"
is "conditions: the report's exit 0" "$?" 0
like "conditions: the server's DIMMs in its section" "$(cat "$F/cond.html")" \
	'<dt>memory</dt><dd>8 DIMMs, 128.0 GB, DDR5, 8 channels</dd>'
like "conditions: ... and its governor" "$(cat "$F/cond.html")" '<dt>governor</dt><dd>performance</dd>'
like "conditions: an old file says it recorded none" "$(cat "$F/cond.html")" \
	'<dt>conditions</dt><dd>not recorded \(an import, or a file from before memtop recorded them\)</dd>'

# a teacher's verdict: a recorded latency run read against the caches its
# machine reported, as memtop levels says it
$MEMTOP report "$TESTDATA/latency-xeon-vm-l3-16m.json" --html "$F/verdict.html" >/dev/null 2>&1
like "the verdict: the run's L1 against the sysfs it recorded" "$(cat "$F/verdict.html")" \
	'^   sysfs says L1 48 KB: matches$'
like "... in the machine's section, under a sentence that says what it is" "$(cat "$F/verdict.html")" \
	'<p class="mut">The latency run against the caches its machine reported \(.*latency-xeon-vm-l3-16m\.json\):</p>'

# bad input: one line, exit 2, nothing written
printf 'pc9: {"experiment":"nothing"}\n' >"$F/bad.jsonl"
status "a line that is not a result: exit 2" 2 $MEMTOP report "$F/bad.jsonl" --html "$F/bad.html"
like "... said in one line naming file, line and host" "$(cat "$TMP/err")" \
	'^memtop: .*bad.jsonl: line 1 \(pc9\): a "nothing" result'
is "... and no page written" "$(ls "$F" | grep -c bad.html)" 0
set --
for i in $(seq 1 201); do set -- "$@" "$F/pc1-latency.json"; done
status "201 files: exit 2" 2 $MEMTOP report "$@" --html "$F/many.html"
like "... said in one line" "$(cat "$TMP/err")" "^memtop: report: 201 files: memtop report reads at most 200 results$"
is "... and no page written" "$(ls "$F" | grep -c many.html)" 0

# the class kit: a student's script (a real run, --quick), the teacher's
# command with the bundled references as rows labelled so
K=$TMP/kit
mkdir -p "$K/class"
(cd "$K/class" && MEMTOP=$MEMTOP sh "$MEMTOP_DATA/class/student.sh" alice --quick >/dev/null 2>&1)
is "student.sh: two files, named for the student" "$(ls "$K/class" | tr '\n' ' ')" \
	"alice-latency.json alice-mountain.json "
cp "$F/pc1-latency.json" "$F/pc1-mountain.json" "$K/class/"
status "the teacher's report with references: exit 0" 0 $MEMTOP report "$K"/class/*.json \
	--ref m4max --ref csapp-corei7h-mountain --html "$K/class.html"
is "a row a student, a row a reference, labelled so" \
	"$(grep -o '<tr id="row[0-9]*" class="[a-z]*"><td class="l"><a href="#m[0-9]*">[^<]*' \
		"$K/class.html" | sed 's/.*">//' | LC_ALL=C sort | tr '\n' ',') $(grep -c '<tr id="row[0-9]*" class="ref">' "$K/class.html")" \
	"alice,pc1,ref: csapp-corei7h,ref: m4max, 2"
like "alice's mountain and latency curve, one machine" "$(cat "$K/class.html")" \
	'<dt>mountain</dt><dd>.*alice-mountain.json</dd>'
status "--ref of no bundled file: exit 2" 2 $MEMTOP report "$F/pc1-latency.json" --ref nosuch \
	--html "$K/x.html"
like "... said in one line" "$(cat "$TMP/err")" "^memtop: report: --ref: expected all or a bundled reference .*got 'nosuch'$"

# a real browser: Debian's chromium, headless, no network, a fresh profile
chrome() {
	rm -rf "$TMP/profile"
	mkdir "$TMP/profile"
	timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$TMP/profile" "$@" 2>/dev/null
}
if ! command -v chromium >/dev/null 2>&1; then
	for d in "renders to a PNG that is not blank" "the DOM holds every machine's name" \
		"the DOM holds the figures" "the DOM has a row a machine"; do
		skip "chromium: $d" "chromium is not installed (apt-get install chromium)"
	done
	exit 0
fi
printf '<!DOCTYPE html>\n<html><head><title>blank</title></head><body></body></html>\n' \
	>"$TMP/blank.html"
chrome --window-size=1280,2000 --screenshot="$TMP/blank.png" "file://$TMP/blank.html" >/dev/null
chrome --window-size=1280,2000 --screenshot="$TMP/page.png" "file://$html" >/dev/null
b=$(wc -c <"$TMP/blank.png" 2>/dev/null || echo 0)
p=$(wc -c <"$TMP/page.png" 2>/dev/null || echo 0)
if [ "$b" -gt 0 ] && [ "$p" -gt $((b * 10)) ]; then
	pass "chromium: renders to a PNG that is not blank ($p bytes, a blank page $b)"
else
	fail "chromium: renders to a PNG that is not blank" "page.png $p bytes, blank.png $b"
fi
chrome --dump-dom "file://$html" >"$TMP/dom.html"
n=0
for m in pc1 pc2 pc3 pc4 pc5 'odd&lt;b&gt;&amp;"name' 'ref: m4max'; do
	grep -q ">$m</a>" "$TMP/dom.html" && n=$((n + 1))
done
is "chromium: the DOM holds every machine's name" "$n" 7
is "chromium: the DOM holds the figures (pc4's floor, odd's memory ns), in the table and its printed blocks" \
	"$(grep -c '>250</td>' "$TMP/dom.html") $(grep -c '>95.0</td>' "$TMP/dom.html")" "2 2"
is "chromium: the DOM has a row a machine" "$(grep -o '<tr id="row' "$TMP/dom.html" | wc -l | tr -d ' ')" 7
