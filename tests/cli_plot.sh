#!/bin/sh
# memtop plot: the SVG parses (xmllint when installed), has the parts its
# grid asks for, and renders with a real renderer (rsvg-convert, from
# Debian's librsvg2-bin; CI installs it) to a PNG that is not blank: far
# larger than the same renderer's PNG of an empty page of the same size.
# --svg - is stdout; usage errors are one line and exit 2.
. "$TESTLIB"
plan 36
REF="$MEMTOP_DATA/m4max.json"
MM="$MEMTOP_DATA/ref/matmul-m4max.json"

# the levels: past the last cliff is memory only when memory was reached
# (the M4's last cliff is its L1: the rows past it are not all memory)
texts() { sed 's/<text[^>]*>/\n&/g' "$1" | sed -n 's/^<text[^>]*>\([^<]*\)<\/text>.*/\1/p'; }
"$MEMTOP" plot "$REF" --svg "$TMP/m4.svg"
is "the M4's rows past its L1 cliff: beyond the last cache seen" \
	"$(texts "$TMP/m4.svg" | grep -c '^beyond the last cache seen$')" 1
# a latency run of the machine (--latency): where the two disagree the rows
# follow it, said under the mountain; its memory reached, the rows past are memory
"$MEMTOP" import "$TESTDATA/corpus/csapp-zen5-vm-mountain.txt" --json "$TMP/zen5m.json" >/dev/null 2>&1
status "--latency: exit 0" 0 "$MEMTOP" plot "$TMP/zen5m.json" \
	--latency "$TESTDATA/corpus/memtop-zen5-vm-latency-2.json" --svg "$TMP/z.svg"
is "--latency: the L3 read from the latency run, said" "$(texts "$TMP/z.svg" | grep 'read from\|no cache level')" \
	"L3 read from the latency run: 3.8 MB (memtop-zen5-vm-latency-2.json); the mountain&apos;s cliff is at 16 MB, 4.3x: strided streams are prefetched past the cache"
is "--latency: the legend" "$(texts "$TMP/z.svg" | grep '^L[0-9] (up to\|^beyond\|^no cliff')" \
	"L1 (up to 32K)
L2 (up to 512K)
L3 (up to 3840K)
beyond: memory"
"$MEMTOP" plot "$TMP/zen5m.json" --svg "$TMP/z0.svg"
is "without it: the cliffs' L3, and no memory said" "$(texts "$TMP/z0.svg" | grep '^L3 (up to\|^beyond')" \
	"L3 (up to 16M)
beyond the last cache seen"
# a latency run of the same host and CPU beside the file is read without --latency
mkdir "$TMP/runs"
cp "$TESTDATA/mountain-quick-xeon-157.json" "$TESTDATA/latency-xeon-vm-l3-16m.json" "$TMP/runs/"
"$MEMTOP" plot "$TMP/runs/mountain-quick-xeon-157.json" --svg "$TMP/x.svg"
is "beside the file: its levels, said" "$(texts "$TMP/x.svg" | grep 'read from')" \
	"L1 read from the latency run beside the file: 48 KB (latency-xeon-vm-l3-16m.json); the mountain shows no cliff there
L3 read from the latency run beside the file: 16 MB (latency-xeon-vm-l3-16m.json); the mountain shows no cliff there"
status "--latency of a latency run: exit 2" 2 "$MEMTOP" plot "$TESTDATA/latency-xeon-vm-l3-16m.json" \
	--latency "$TESTDATA/latency-xeon-vm-l3-16m.json" --svg "$TMP/y.svg"
is "... in one line" "$(cat "$TMP/err")" \
	"memtop: plot: --latency $TESTDATA/latency-xeon-vm-l3-16m.json: the levels of a mountain only; $TESTDATA/latency-xeon-vm-l3-16m.json is a latency run"
status "--latency naming a mountain: exit 2" 2 "$MEMTOP" plot "$REF" --latency "$REF" --svg "$TMP/y.svg"
is "... in one line" "$(cat "$TMP/err")" "memtop: plot: $REF: not a latency run (a mountain)"
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
