#!/bin/sh
# memtop plot: the SVG parses (xmllint when installed), has the parts its
# grid asks for, and renders with a real renderer (rsvg-convert, from
# Debian's librsvg2-bin; CI installs it) to a PNG that is not blank: far
# larger than the same renderer's PNG of an empty page of the same size.
# --svg - is stdout; usage errors are one line and exit 2.
. "$TESTLIB"
plan 26
REF="$MEMTOP_DATA/m4max.json"
MM="$MEMTOP_DATA/ref/matmul-m4max.json"

status "a mountain to SVG: exit 0" 0 "$MEMTOP" plot "$REF" --svg "$TMP/m.svg"
svg=$(cat "$TMP/m.svg")
like "an SVG document" "$svg" '^<svg xmlns="http://www.w3.org/2000/svg"'
# 11 sizes x 5 strides: 10 x 4 cells on the surface, and the floor
is "one quadrilateral per cell and the floor" "$(grep -c '<polygon' "$TMP/m.svg")" 41
like "the size axis is labelled" "$svg" '>Size \(bytes\)</text>'
like "the throughput axis is labelled" "$svg" '>Read throughput \(MB/s\)</text>'
like "the levels' legend" "$svg" '>L1 \(up to 128K\)</text>'
like "whose figures: the file's hardware" "$svg" 'The seed&apos;s figures \(seed 000\): Apple M4 Max'
if command -v xmllint >/dev/null 2>&1; then
	ok "xmllint parses the SVG" xmllint --noout "$TMP/m.svg"
else
	pass "# SKIP xmllint is not installed (libxml2-utils): the unit test checks the tags"
fi

out=$("$MEMTOP" plot "$REF" --svg - 2>"$TMP/err")
like "--svg - writes the SVG on stdout" "$out" '^<\?xml version="1\.0"'
is "--svg - says nothing on stderr" "$(cat "$TMP/err")" ""

"$MEMTOP" run latency --quick --json "$TMP/lat.json" >/dev/null 2>&1
status "a latency run to SVG: exit 0" 0 "$MEMTOP" plot "$TMP/lat.json" --svg "$TMP/l.svg"
like "the latency picture marks the levels it found" "$(cat "$TMP/l.svg")" '>levels found</text>'
status "two latency runs overlay: exit 0" 0 "$MEMTOP" plot "$TMP/lat.json" "$TMP/lat.json" --svg "$TMP/l2.svg"
is "the second run's curves are a group of their own" "$(grep -c '<g class="curves-b">' "$TMP/l2.svg")" 1
status "the seed's matmul figures to SVG: exit 0" 0 "$MEMTOP" plot "$MM" --svg "$TMP/mm.svg"
is "seven bars, one per order" "$(sed -n '/<g class="bars">/,/<\/g>/p' "$TMP/mm.svg" | grep -c '<rect')" 7

status "no --svg nor --png: exit 2" 2 "$MEMTOP" plot "$REF"
is "... in one line" "$(cat "$TMP/err")" \
	"memtop: plot: say where the picture goes: --svg OUT (- for stdout) or --png OUT"
status "a mountain and a matmul result: exit 2" 2 "$MEMTOP" plot "$REF" "$MM" --svg "$TMP/x.svg"
like "... naming both kinds" "$(cat "$TMP/err")" 'is a mountain, .* a matmul result: plot two files of one kind'

# a real renderer: the PNG is not blank
if command -v rsvg-convert >/dev/null 2>&1; then
	"$MEMTOP" plot "$REF" --png "$TMP/m.png" 2>"$TMP/err"
	printf '<svg xmlns="http://www.w3.org/2000/svg" width="860" height="%s"><rect width="100%%" height="100%%" fill="#ffffff"/></svg>\n' \
		"$(sed -n 's/.* height="\([0-9]*\)".*/\1/p' "$TMP/m.svg" | head -n 1)" >"$TMP/blank.svg"
	rsvg-convert -f png -o "$TMP/blank.png" "$TMP/blank.svg"
	magic=$(od -An -c -N4 "$TMP/m.png" 2>/dev/null | tr -d ' ')
	is "--png renders a PNG with rsvg-convert" "$magic" '211PNG'
	a=$(wc -c <"$TMP/m.png"); b=$(wc -c <"$TMP/blank.png")
	if [ "$a" -gt $((b * 5)) ]; then pass "the PNG is not blank ($a bytes, a blank page $b)"
	else fail "the PNG is not blank" "png $a bytes, blank page $b bytes"; fi
else
	pass "# SKIP rsvg-convert is not installed (apt-get install librsvg2-bin)"
	pass "# SKIP rsvg-convert is not installed (apt-get install librsvg2-bin)"
fi

# a renderer that hangs (here one that starts a child and waits for it) is
# stopped at its limit, 10 s, with what it started; nothing is left behind
mkdir "$TMP/fakebin" "$TMP/pngdir"
printf '#!/bin/sh\nsleep 300 &\necho $! >"%s/renderer-child"\nwait\n' "$TMP" >"$TMP/fakebin/rsvg-convert"
chmod +x "$TMP/fakebin/rsvg-convert"
PATH="$TMP/fakebin:$PATH" timeout -k 5 60 "$MEMTOP" plot "$REF" --png "$TMP/pngdir/m.png" 2>"$TMP/err"
is "a renderer that hangs: exit 1 (not killed by the test's 60 s)" "$?" 1
is "... said in one line" "$(cat "$TMP/err")" \
	"memtop: plot: rsvg-convert did not finish in 10 s on the SVG: stopped"
is "... nothing left in the folder" "$(ls -A "$TMP/pngdir")" ""
pid=$(cat "$TMP/renderer-child" 2>/dev/null)
st=$(sed 's/.*) \(.\).*/\1/' "/proc/${pid:-0}/stat" 2>/dev/null)
n=20 # SIGKILL is sent; give its delivery 2 s
while [ -n "$pid" ] && [ -n "$st" ] && [ "$st" != Z ] && [ "$n" -gt 0 ]; do
	sleep 0.1
	n=$((n - 1))
	st=$(sed 's/.*) \(.\).*/\1/' "/proc/$pid/stat" 2>/dev/null)
done
case "$pid:$st" in
:*) fail "... and the renderer's child is gone too" "the renderer did not start" ;;
*: | *:Z | *:X) pass "... and the renderer's child is gone too" ;;
*) fail "... and the renderer's child is gone too" "pid $pid state $st"; kill "$pid" ;;
esac
