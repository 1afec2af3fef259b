#!/bin/sh
# tests/locale.sh DIR: build the Russian locale the tests run memtop in,
# ru_RU.UTF-8, into DIR (then LOCPATH=DIR LANG=ru_RU.UTF-8 selects it): no
# root and no installed locale needed, only localedef (Debian: libc-bin)
# and the locale's sources (/usr/share/i18n/locales/ru_RU and the UTF-8
# charmap; Debian: the locales package, which .ci/run installs). DIR/stamp
# says "ok", or "skip: WHY" when this machine cannot build it: the tests
# that need it skip with that reason. make check runs it once, before the
# tests (check_DATA); a built DIR is kept.
set -u
dir=$1
name=ru_RU.UTF-8
mkdir -p "$dir" || exit 1
[ -f "$dir/stamp" ] && grep -q '^ok$' "$dir/stamp" && [ -f "$dir/$name/LC_NUMERIC" ] && exit 0
say() { printf '%s\n' "$1" >"$dir/stamp.tmp" && mv "$dir/stamp.tmp" "$dir/stamp"; }
if ! command -v localedef >/dev/null 2>&1; then
	say "skip: no localedef (the C library's tools: Debian's libc-bin)"
	exit 0
fi
tmp=$dir/.build.$$
rm -rf "$tmp"
mkdir -p "$tmp"
# localedef exits 1 on warnings (the locale is still written): the files decide
localedef -i ru_RU -f UTF-8 "$tmp/$name" >"$tmp/log" 2>&1
if [ ! -f "$tmp/$name/LC_NUMERIC" ] || [ ! -f "$tmp/$name/LC_CTYPE" ]; then
	why=$(grep -m1 -v '^$' "$tmp/log" | cut -c1-120)
	rm -rf "$tmp"
	say "skip: localedef cannot build $name (${why:-no output}; Debian: apt-get install locales)"
	exit 0
fi
rm -rf "${dir:?}/$name"
mv "$tmp/$name" "$dir/$name" && rm -rf "$tmp" && say ok
