#!/bin/sh
# po_marked: no string literal printed for people is left unmarked for
# translation in the sources po/POTFILES.in lists (po/marked.awk says which
# calls print for people, what counts as marked and how machine text says
# so: a /* machine text */ comment on its line). One TAP case for the tree
# and one for each planted violation (the check must see it) and planted
# exception (it must not).
#
# sh tests/po_marked.sh [FOLDER|FILE...]: outside make check, the unmarked
# literals of those folders (their .c and .h) or files, one a line, and
# exit 1 when there is one: a translator checks their own folders alone.
top=$(cd "$(dirname "$0")/.." && pwd)
awkf=$top/po/marked.awk

# unmarked ROOT [PATH...]: the unmarked literals of PATHs under ROOT
# (default: every source POTFILES.in lists), as FILE:LINE: LITERAL.
unmarked() {
	root=$1
	shift
	(
		cd "$root" || exit 2
		if [ $# -eq 0 ]; then
			set -- $(grep -v '^#' po/POTFILES.in)
		fi
		files=$(for p in "$@"; do
			p=${p%/}
			if [ -d "$p" ]; then find "$p" -name '*.[ch]'; else echo "$p"; fi
		done | LC_ALL=C sort)
		[ -n "$files" ] || exit 0
		# shellcheck disable=SC2086 # file names are words without blanks
		LC_ALL=C awk -f "$awkf" $files
	)
}

if [ -z "${MEMTOP:-}" ]; then
	got=$(unmarked "$(pwd)" "$@")
	[ -z "$got" ] && exit 0
	printf '%s\n' "$got"
	echo "$(printf '%s\n' "$got" | wc -l | tr -d ' ') unmarked" >&2
	exit 1
fi

. "${TESTLIB:-$(dirname "$0")/lib.sh}"
plan 6

got=$(unmarked "$top")
n=$(printf '%s' "$got" | grep -c .)
is "no literal printed for people left unmarked in POTFILES.in's sources ($n)" \
	"$(printf '%s\n' "$got" | head -20)" ""

plant=$TMP/tree
mkdir -p "$plant/src/x" "$plant/tui" "$plant/po"
printf 'src/x/a.c\ntui/b.c\n' >"$plant/po/POTFILES.in"
cat >"$plant/src/x/a.c" <<'EOF'
static void f(int n, const char *p)
{
	printf("# plan of run %s\n", p);
	printf(_("# about %d s\n"), n);
	fprintf(stderr, "%s: %s\n", p, n ? "no such file" : _("not a folder"));
	mt_fail(e, "%s: line %d: "
		   "expected a number", p, n);
	fprintf(f, "size,stride,MB/s\n"); /* machine text */
	if (strcmp(p, "one of them") == 0)
		puts(MT_NGETTEXT("%d pair of CPUs", "%d pairs of CPUs", n));
	/* printf("a comment, not code") */
	mt_warn("%s", mt_fmt("not judged here", p));
}
EOF
cat >"$plant/tui/b.c" <<'EOF'
static void g(struct tui *t, WINDOW *w)
{
	mvwaddstr(w, 0, 0, "press r to measure");
	tui_put(t, w, 1, 0, 20, _("press q to quit"));
	tui_message(t, "saved %s", "x");
}
EOF
got=$(unmarked "$plant" | cut -d: -f1,2)
is "planted unmarked literals are found, marked ones are not" "$(echo $got)" \
	"src/x/a.c:3 src/x/a.c:5 src/x/a.c:6 tui/b.c:3 tui/b.c:5"
got=$(unmarked "$plant" | sed -n 3p)
is "... literals side by side are judged as one, at their first line" "$got" \
	'src/x/a.c:6: "%s: line %d: expected a number"'
got=$(unmarked "$plant" tui | cut -d: -f1,2)
is "... a folder is checked alone" "$(echo $got)" "tui/b.c:3 tui/b.c:5"
got=$(unmarked "$plant" src/x/a.c | grep -c 'size,stride')
is "... a /* machine text */ comment on the line keeps a literal out" "$got" 0
cd "$plant" && MEMTOP='' sh "$top/tests/po_marked.sh" tui >/dev/null 2>&1
is "... and the script alone exits 1 on them" "$?" 1
