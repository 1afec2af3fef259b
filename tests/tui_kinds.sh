#!/bin/sh
# Every registered experiment, walked through its result kind: a --quick
# run saved twice; memtop compare of the two (or the one line saying the
# kind is not compared); memtop plot --svg of one (or the one line saying
# the kind has no picture); memtop view opens it in the tab of its kind
# (the save key offers memtop-KIND-...: result_kind_of told its kind, a
# mountain's by its shape) and that tab saves it again byte
# for byte the same JSON (or view says in one line that no tab shows it).
# The experiments come from `memtop run --help`, so a new one is walked too.
. "$TESTLIB"
. "$(dirname "$TESTLIB")/tui_lib.sh"

exps=$(experiments)
n=$(printf '%s\n' $exps | wc -l)
plan $((n * 6))

for x in $exps; do
	a=$TMP/$x-a.json
	b=$TMP/$x-b.json
	# 1. a quick run, twice
	if ! "$MEMTOP" run "$x" --quick --json "$a" >"$TMP/out" 2>"$TMP/err" ||
		! "$MEMTOP" run "$x" --quick --json "$b" >/dev/null 2>&1; then
		if grep -q "^memtop: " "$TMP/err"; then
			# a machine without what it needs (one NUMA node, one CPU)
			why=$(grep "^memtop: " "$TMP/err" | head -1)
			for c in "saved" "compare" "plot" "view opens it" "its tab saves it"; do
				skip "$x: $c" "$why"
			done
			skip "$x: a quick run" "$why"
			continue
		fi
		fail "$x: a quick run" "stderr: $(head -c 300 "$TMP/err")"
		for c in "saved" "compare" "plot" "view opens it" "its tab saves it"; do
			fail "$x: $c" "no run"
		done
		continue
	fi
	pass "$x: a quick run"
	like "$x: saved, with its run header" "$("$JSONQ" "$a" hardware 2>/dev/null)" '[A-Za-z]' 

	# 2. compare: the two side by side, or why not, in one line
	"$MEMTOP" compare "$a" "$b" >"$TMP/out" 2>"$TMP/err"
	s=$?
	if [ $s = 0 ]; then
		like "$x: compare prints both files" "$(cat "$TMP/out")" "^B: $b"
	else
		like "$x: compare says in one line why not, naming the file" \
			"$s:$(wc -l <"$TMP/err"):$(cat "$TMP/err")" \
			"^2:1:memtop: $a: (memtop compare reads .* not this one|a \"$x\" result; memtop reads)"
	fi

	# 3. plot: a picture, or why not, in one line
	"$MEMTOP" plot "$a" --svg "$TMP/$x.svg" >"$TMP/out" 2>"$TMP/err"
	s=$?
	if [ $s = 0 ]; then
		like "$x: plot --svg draws it" "$(head -c 400 "$TMP/$x.svg")" '<svg '
	else
		like "$x: plot says in one line why not" "$s:$(wc -l <"$TMP/err"):$(cat "$TMP/err")" \
			"^2:1:memtop: plot: $a: (memtop plot draws no picture of|a \"$x\" result)"
	fi

	# 4. view: its tab (the save key offers memtop-KIND-), which saves it again
	tstart 100 30 -- view "$a"
	if twait "memtop-exit=" 3; then
		like "$x: view says in one line that no tab shows it" "$(tcap)" \
			"^memtop: view: $a: (not a result memtop can show|a \"$x\" result)"
		pass "$x: its tab saves it # SKIP no tab shows a $x result"
		continue
	fi
	tkeys w
	wok "$x: view opens it in its tab (w offers memtop-$x-...)" "Save as: memtop-$x-" 10
	tkeys C-u "$TMP/$x-saved.json" Enter
	if twait "saved $TMP/$x-saved.json" 10 && cmp -s "$a" "$TMP/$x-saved.json"; then
		pass "$x: its tab saves it, byte for byte the same JSON"
	else
		fail "$x: its tab saves it, byte for byte the same JSON" "screen: $(tcap | tail -2)" \
			"diff: $(diff "$a" "$TMP/$x-saved.json" 2>&1 | head -10)"
	fi
	tstop
done
