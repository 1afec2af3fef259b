#!/bin/sh
# make install DESTDIR=DIR: nothing installed keeps a placeholder of the
# build (an @name@ configure or make was to fill in), and the manual's FILES
# name the folder make install put the data in: each path they name is
# there under DIR.
build=$(dirname "${MEMTOP:?run through make check}") # before lib.sh wraps it
. "${TESTLIB:-$(dirname "$0")/lib.sh}"
plan 5

D=$TMP/inst
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$build" install DESTDIR="$D" \
	>"$TMP/install.log" 2>&1
rc=$?
[ "$rc" = 0 ] || sed 's/^/# /' "$TMP/install.log" | tail -n 20
is "make install DESTDIR=...: exit 0" "$rc" 0
man=$(find "$D" -path '*/man1/memtop.1' -type f)
ok "... the manual installed in a man1 folder" test -n "$man" -a -f "$man"
is "... no installed file keeps an @name@ of the build" \
	"$(grep -rIlE '@[A-Za-z_]+@' "$D" | sed "s|^$D||")" ""

# FILES: every ".I /path" line up to the next section
sed -n '/^\.SH FILES/,/^\.SH [^F]/s/^\.I \(\/.*\)$/\1/p' "$man" | sed 's/\\-/-/g' >"$TMP/files"
like "... the manual's FILES name the data's folder" "$(cat "$TMP/files")" '/memtop/m4max\.json$'
missing=""
while read -r p; do
	[ -e "$D$p" ] || missing="$missing $p"
done <"$TMP/files"
is "... each of the $(wc -l <"$TMP/files") paths FILES names is installed there" "$missing" ""
