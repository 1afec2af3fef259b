#!/bin/sh
# build-aux/deb.sh DISTDIR OUTDIR: memtop's Debian packages (make deb), built
# from an unconfigured tree (make distdir) in OUTDIR, never in the checkout:
#   OUTDIR/memtop_VERSION.orig.tar.gz     DISTDIR packed as make dist packs it,
#                                         without debian/
#   OUTDIR/memtop_VERSION-N.dsc, .debian.tar.xz   the source package (dpkg-source -b)
#   OUTDIR/memtop_VERSION-N_ARCH.deb, .buildinfo, .changes
#                                         dpkg-buildpackage -b -us -uc
#   OUTDIR/source.log, OUTDIR/build.log   what they printed
# DEB_BUILD_OPTIONS is passed on (nocheck: without the package's make check;
# parallel=N: the CPUs here unless given). Needs dpkg-dev, debhelper and
# debian/control's Build-Depends; prints the .deb's path.
set -eu
src=$1
out=$2
[ -f "$src/debian/changelog" ] || { echo "deb: $src has no debian/changelog" >&2; exit 1; }
command -v dpkg-buildpackage >/dev/null 2>&1 && command -v dh >/dev/null 2>&1 || {
	echo "deb: needs dpkg-dev and debhelper: apt-get install dpkg-dev debhelper" >&2
	exit 1
}
version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
upstream=${version#*:}
upstream=${upstream%-*}
name=memtop-$upstream
rm -rf "$out"
mkdir -p "$out"
cp -R "$src" "$out/$name"
# the upstream tarball is the dist without debian/, which the source
# package then adds (memtop_VERSION-N.debian.tar.xz)
(cd "$out" && tar --owner=0 --group=0 --numeric-owner --sort=name --exclude="$name/debian" \
	-cf - "$name" | gzip -n -9 >"memtop_$upstream.orig.tar.gz")
(cd "$out" && dpkg-source -b "$name") >"$out/source.log" 2>&1 || {
	tail -n 20 "$out/source.log" >&2
	echo "deb: dpkg-source -b failed ($out/source.log)" >&2
	exit 1
}
opts=${DEB_BUILD_OPTIONS:-}
case " $opts " in
*" parallel="*) ;;
*) opts="${opts:+$opts }parallel=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)" ;;
esac
profiles=""
case " $opts " in *" nocheck "*) profiles=-Pnocheck ;; esac
(cd "$out/$name" && DEB_BUILD_OPTIONS=$opts dpkg-buildpackage -b -us -uc $profiles) \
	>"$out/build.log" 2>&1 || {
	tail -n 30 "$out/build.log" >&2
	echo "deb: dpkg-buildpackage -b -us -uc failed ($out/build.log)" >&2
	exit 1
}
ls "$out"/memtop_"$upstream"-*_*.deb
