#!/bin/sh
# layers_files: inside a folder, the files call each other one way. Read
# from what the build linked (nm of libmemtop.a and libmemtui.a beside
# $MEMTOP): a file that uses a symbol another file of its folder defines
# depends on it, and the dependencies of a folder have no loop (tsort).
# A concept split over files may call within itself both ways: a loop
# whose files are all NAME.c and its NAME_PART.c, where the folder has
# NAME.h, the concept's header (tab_mountain_draw.c with tab_mountain.c;
# model_topo_layout.c with model_topo.c), is one file's. One TAP case per folder, then the rule
# proven on a planted pair that calls each other (its loop is named).
. "${TESTLIB:-$(dirname "$0")/lib.sh}"
src=${MEMTOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
build=$(dirname "$MEMTOP")

# deps LIB FOLDERMAP: "folder from to" for each use across two files of a
# folder, files named by their concept (FOLDERMAP: "file folder" lines)
deps() {
	nm -A "$1" 2>/dev/null | awk -v map="$2" '
	BEGIN { while ((getline l < map) > 0) { split(l, a, " "); dir[a[1]] = a[2] } }
	{
		n = split($1, p, ":"); m = p[n - 1]
		sub(/\.o$/, "", m); sub(/^lib[a-z]*_a-/, "", m); sub(/^[a-z_]*-/, "", m)
		if (NF == 3) { t = $2; s = $3 } else { t = $3; s = $4 }
		if (t == "U") users[s] = users[s] " " m
		else if (t ~ /^[TDBRC]$/) def[s] = m
	}
	END {
		for (s in users) {
			if (!(s in def)) continue
			k = split(users[s], u, " ")
			for (i = 1; i <= k; i++)
				if (u[i] != def[s] && (u[i] in dir) && dir[u[i]] == dir[def[s]])
					print dir[u[i]], u[i], def[s]
		}
	}' | sort -u
}

# concept TOP: "file folder concept" for every .c under TOP's src/ and tui/
concepts() {
	(cd "$1" && find src tui -name '*.c' 2>/dev/null) | while read -r f; do
		d=$(dirname "$f")
		b=$(basename "$f" .c)
		c=$b
		p=$b
		[ -f "$1/$d/$b.h" ] && p=""
		while case $p in *_*) true ;; *) false ;; esac; do
			p=${p%_*}
			if [ -f "$1/$d/$p.h" ]; then
				c=$p
				break
			fi
		done
		echo "$b ${d#src/} $c"
	done
}

# loops DEPS CONCEPTS FOLDER: the loops tsort finds among FOLDER's files
# that are not all of one concept, one a line ("a b c")
loops() {
	awk -v f="$3" '$1 == f { print $2, $3 }' "$1" >"$TMP/pairs"
	tsort "$TMP/pairs" 2>&1 >/dev/null | sed 's/^tsort: //' | awk -v cmap="$2" '
	BEGIN { while ((getline l < cmap) > 0) { split(l, a, " "); c[a[1]] = a[3] } }
	function flush() { if (n > 1 && mixed) print line; n = 0; mixed = 0; line = "" }
	/contains a loop/ { flush(); next }
	{ if (n == 0) first = c[$1]; else if (c[$1] != first) mixed = 1
	  line = n ? line " " $1 : $1; n++ }
	END { flush() }'
}

# the planted pair: a.c and b.c of one folder calling each other, c.c a
# part of b (b.h), called by b: a loop a <-> b, and none through c
plant=$TMP/plant
mkdir -p "$plant/src/x"
printf 'int b1(void);\nint a1(void) { return b1(); }\n' >"$plant/src/x/a.c"
printf 'int a1(void);\nint c1(void);\nint b1(void) { return a1() + c1(); }\n' >"$plant/src/x/b.c"
printf 'int c1(void) { return 0; }\n' >"$plant/src/x/b_c.c"
: >"$plant/src/x/b.h"
ok_plant=0
if ${CC:-cc} -c -o "$plant/a.o" "$plant/src/x/a.c" 2>/dev/null &&
	${CC:-cc} -c -o "$plant/b.o" "$plant/src/x/b.c" 2>/dev/null &&
	${CC:-cc} -c -o "$plant/b_c.o" "$plant/src/x/b_c.c" 2>/dev/null &&
	(cd "$plant" && ar rc libplant.a a.o b.o b_c.o); then
	ok_plant=1
fi

libs=""
for l in libmemtop.a libmemtui.a; do
	[ -f "$build/$l" ] && libs="$libs $build/$l"
done
concepts "$src" >"$TMP/concepts"
awk '{ print $1, $2 }' "$TMP/concepts" >"$TMP/map"
: >"$TMP/deps"
for l in $libs; do deps "$l" "$TMP/map" >>"$TMP/deps"; done
folders=$(awk '{ print $2 }' "$TMP/concepts" | sort -u)
plan $(($(printf '%s\n' $folders | grep -c .) + 2))

if [ -z "$libs" ] || ! command -v nm >/dev/null 2>&1 || ! command -v tsort >/dev/null 2>&1; then
	for f in $folders; do skip "$f: its files call each other one way" "no libmemtop.a/libmemtui.a beside $MEMTOP, or no nm/tsort"; done
else
	for f in $folders; do
		n=$(awk -v f="$f" '$1 == f' "$TMP/deps" | wc -l | tr -d ' ')
		loop=$(loops "$TMP/deps" "$TMP/concepts" "$f")
		if [ -z "$loop" ]; then
			pass "$f: its files call each other one way ($n uses across files)"
		else
			fail "$f: its files call each other one way" "a loop: $loop" \
				"$(awk -v f="$f" '$1 == f { print "# " $2 " uses " $3 }' "$TMP/deps" | head -n 30)"
		fi
	done
fi

if [ $ok_plant = 1 ]; then
	concepts "$plant" >"$TMP/pc"
	awk '{ print $1, $2 }' "$TMP/pc" >"$TMP/pmap"
	deps "$plant/libplant.a" "$TMP/pmap" >"$TMP/pdeps"
	is "planted: a.c and b.c calling each other are a loop" \
		"$(loops "$TMP/pdeps" "$TMP/pc" x | tr ' ' '\n' | sort | tr '\n' ' ')" "a b "
	printf 'x b b_c\nx b_c b\n' >"$TMP/pdeps2"
	is "planted: b.c and its part b_c.c (b.h) calling each other are one concept's" \
		"$(loops "$TMP/pdeps2" "$TMP/pc" x)" ""
else
	skip "planted: a loop is found" "cannot compile the planted files with ${CC:-cc}"
	skip "planted: a concept's parts may call each other" "cannot compile the planted files with ${CC:-cc}"
fi
