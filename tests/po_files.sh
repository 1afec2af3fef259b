#!/bin/sh
# po_files: po/ is whole. POTFILES.in lists every source with text for
# people (po/potfiles.sh writes it), LINGUAS names a .po for each language,
# and each .po is a valid catalogue that translates every message the
# sources mark (a fresh xgettext run with po/Makevars' options, compared by
# msgcmp), none fuzzy, Russian with its three plural forms.
. "${TESTLIB:-$(dirname "$0")/lib.sh}"
src=${MEMTOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
po=$src/po
plan 8

got=$(sh "$po/potfiles.sh" "$src" 2>&1)
want=$(cat "$po/POTFILES.in")
if [ "$got" = "$want" ]; then
	pass "po/POTFILES.in lists every source with text for people"
else
	fail "po/POTFILES.in lists every source with text for people" \
		"differs from po/potfiles.sh (run: sh po/potfiles.sh > po/POTFILES.in):" \
		"$(printf '%s\n' "$want" >"$TMP/want"; printf '%s\n' "$got" >"$TMP/got"
		diff "$TMP/want" "$TMP/got" | grep '^[<>]' | head -n 10)"
fi

missing=""
for f in $(grep -v '^#' "$po/POTFILES.in"); do
	[ -f "$src/$f" ] || missing="$missing $f"
done
is "every file POTFILES.in names exists" "$missing" ""

langs=$(sed -e 's/#.*//' "$po/LINGUAS" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
is "LINGUAS names Russian" "$langs" "ru"
nopo=""
for l in $langs; do [ -f "$po/$l.po" ] || nopo="$nopo $l"; done
is "a .po for each language LINGUAS names" "$nopo" ""

like "ru.po has Russian's three plural forms" "$(grep -A1 '^"Plural-Forms:' "$po/ru.po" | tr -d '"\n')" \
	'nplurals=3; plural=\(n%10==1 && n%100!=11 \? 0 : n%10>=2 && n%10<=4 && \(n%100<10 \|\| n%100>=20\) \? 1 : 2\);'

if [ "${USE_NLS:-yes}" != yes ] || ! command -v msgfmt >/dev/null 2>&1 ||
	! command -v xgettext >/dev/null 2>&1 || ! command -v msgcmp >/dev/null 2>&1; then
	why="no gettext tools (msgfmt, xgettext, msgcmp: Debian's gettext) or built --disable-nls"
	skip "ru.po is a valid catalogue" "$why"
	skip "ru.po: nothing fuzzy or untranslated" "$why"
	skip "ru.po translates every message the sources mark" "$why"
	exit 0
fi

stats=$(LC_ALL=C msgfmt --check --statistics -o /dev/null "$po/ru.po" 2>&1)
s=$?
is "ru.po is a valid catalogue (msgfmt --check)" "$s" 0
like "ru.po: nothing fuzzy or untranslated ($stats)" "$stats" '^[0-9]+ translated messages\.$'

# the template from the sources, as po/Makefile's xgettext run makes it
opts=$(sed -n '/^XGETTEXT_OPTIONS/,/[^\\]$/p' "$po/Makevars" | sed 's/^XGETTEXT_OPTIONS *= *//; s/\\$//' | tr '\n' ' ')
grep -v '^#' "$po/POTFILES.in" >"$TMP/files"
# shellcheck disable=SC2086 # the options are words
(cd "$src" && xgettext --default-domain=memtop $opts --files-from="$TMP/files" \
	-o "$TMP/memtop.pot") 2>"$TMP/xg"
if LC_ALL=C msgcmp "$po/ru.po" "$TMP/memtop.pot" >"$TMP/cmp" 2>&1; then
	pass "ru.po translates every message the sources mark"
else
	fail "ru.po translates every message the sources mark" \
		"msgcmp po/ru.po (fresh template): run make update-po, then translate:" \
		"$(grep -m 5 'this message' "$TMP/cmp")" "$(head -c 300 "$TMP/xg")"
fi
