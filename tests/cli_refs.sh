#!/bin/sh
# The bundled references (data/ref): every file says whose figures it holds
# (hardware) and where they come from (source), and memtop reads it: plot
# draws each result, cliffs reads the imported CS:APP mountain against its
# published sizes with the TSC rate its program stated (not the core clock).
. "$TESTLIB"
REFS=$(ls "$MEMTOP_DATA"/ref/*.json)
n=$(printf '%s\n' "$REFS" | wc -l)
plan $((n * 2 + 5))

for f in $REFS; do
	b=${f##*/}
	if grep -Eq '"hardware":[[:space:]]*"[^"]' "$f" && grep -Eq '"source(_note)?":[[:space:]]*"[^"]' "$f"; then
		pass "$b: says whose figures and from where"
	else
		fail "$b: says whose figures and from where" "no hardware or source field"
	fi
	case $b in
	*-card.json) # a card is no surface to plot; the Mountain tab shows it
		status "$b: plot refuses a card with one line (exit 2)" 2 "$MEMTOP" plot "$f" --svg "$TMP/x.svg" ;;
	*)
		status "$b: plot draws it" 0 "$MEMTOP" plot "$f" --svg "$TMP/$b.svg" ;;
	esac
done

C7="$MEMTOP_DATA/ref/csapp-corei7h-mountain.json"
out=$("$MEMTOP" cliffs "$C7")
like "the CS:APP mountain's L2 against its published 256 KB" "$out" \
	'^  L2 256 KB \(published\): matches'
is "its clock is the TSC rate its program stated, not the core's" \
	"$(printf '%s\n' "$out" | grep '^cycles per word')" \
	"cycles per word (2.10 GHz, the TSC rate the file's program stated: the time-stamp counter's, not the core clock, which may run faster; a cycle here is a TSC tick):"
like "its L1 plateau in cycles a word (the book: about 1.4)" "$out" \
	'^  L1 plateau 14101 MB/s \(32K, stride 1\): 1\.2 cycles a word$'
"$MEMTOP" plot "$MEMTOP_DATA/ref/rpi5-a76-latency.json" --svg "$TMP/pi.svg"
like "a curve without a clock: its levels in ns, no cycles made up" "$(cat "$TMP/pi.svg")" \
	'>L1 64K: 1\.67 ns</text>'
# the seed's lists table holds four lengths; the reference holds them all
out=$("$MEMTOP" compare "$MEMTOP_DATA/ref/lists-m4max.json" "$MEMTOP_DATA/ref/lists-m4max.json" 2>&1)
is "the lists reference: the seed's four lengths" \
	"$(printf '%s\n' "$out" | awk '$2 == "shuffled" { print $1, $3 }' | tr '\n' ' ')" \
	"4096 3.1 65536 23.8 1048576 49.2 4194304 258.3 "
