#!/bin/sh
# The fuzz harnesses outside the fuzzer: each one replays its seed corpus
# (tests/fuzz/corpus/NAME) and, one case each, every input a fuzzer once
# crashed it with (tests/fuzz/crashes/NAME/*, named for the bug). Built
# like the rest of the suite, so the sanitizer pass of .ci/run replays them
# under ASan and UBSan too.
. "$TESTLIB"
: "${FUZZ_REPLAY:?run through make check}" "${FUZZ_INPUTS:?}" "${FUZZ_HARNESSES:?}"
n=0
for h in $FUZZ_HARNESSES; do
	n=$((n + 1))
	for f in "$FUZZ_INPUTS/crashes/$h"/*; do [ -f "$f" ] && n=$((n + 1)); done
done
plan $n
for h in $FUZZ_HARNESSES; do
	bin=$FUZZ_REPLAY/replay_$h
	seeds=$(find "$FUZZ_INPUTS/corpus/$h" -type f 2>/dev/null | wc -l)
	TMPDIR=$TMP ${TEST_RUNNER:-} "$bin" "$FUZZ_INPUTS/corpus/$h" >"$TMP/out" 2>"$TMP/err"
	s=$?
	out=$(tail -n 1 "$TMP/out")
	if [ "$s" = 0 ] && [ "$out" = "replayed $seeds inputs" ] && [ "$seeds" -gt 0 ]; then
		pass "$h: the $seeds seeds of its corpus read without a fault"
	else
		fail "$h: the seeds of its corpus read without a fault" "exit $s, $out" \
			"$(head -c 600 "$TMP/err")"
	fi
	for f in "$FUZZ_INPUTS/crashes/$h"/*; do
		[ -f "$f" ] || continue
		TMPDIR=$TMP ${TEST_RUNNER:-} "$bin" "$f" >"$TMP/out" 2>"$TMP/err"
		s=$?
		out=$(tail -n 1 "$TMP/out")
		if [ "$s" = 0 ] && [ "$out" = "replayed 1 inputs" ]; then
			pass "$h: crash ${f##*/} stays fixed"
		else
			fail "$h: crash ${f##*/} stays fixed" "exit $s" "$(head -c 600 "$TMP/err")"
		fi
	done
done
