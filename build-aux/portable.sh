#!/bin/sh
# build-aux/portable.sh MEMTOP DATADIR VERSION OUTDIR: the portable memtop
# for a server where a user cannot install packages (make portable):
#   memtop-VERSION-ARCH/
#     memtop            the launcher: runs bin/memtop with the loader and the
#                       libraries beside it, the bundled data and terminfo
#     bin/memtop        the binary, as built
#     lib/              every shared library it links (ldd) but the kernel's
#                       vDSO, and the loader they were built with
#     share/data/       the bundled references (memtop view with no file)
#     share/terminfo/   the terminal descriptions SSH users meet (xterm,
#                       screen, tmux, linux, vt100 ...), for ncursesw
#     README            what it is and how to run it
# packed as OUTDIR/memtop-VERSION-ARCH.tar.gz. It runs from any folder of
# any Linux of the same architecture whose kernel glibc accepts, as any
# user, with nothing installed: the loader is called by its path, so the
# system's own C library is never mixed in. Prints the tarball's path.
set -eu
memtop=$1
data=$2
version=$3
out=$4
arch=$(uname -m)
name=memtop-$version-$arch
stage=$(mktemp -d "${TMPDIR:-/tmp}/memtop-portable.XXXXXX")
trap 'rm -rf "$stage"' EXIT
root=$stage/$name
mkdir -p "$root/bin" "$root/lib" "$root/share/data" "$root/share/terminfo"
cp "$memtop" "$root/bin/memtop"
strip "$root/bin/memtop" 2>/dev/null || true

# the libraries, the loader among them (ldd prints it without "=>")
loader=""
ldd "$memtop" >"$stage/ldd" || { echo "portable: ldd $memtop failed" >&2; exit 1; }
while read -r a b c d; do
	case "$a" in linux-vdso*|linux-gate*|statically) continue ;; esac
	if [ "$b" = "=>" ]; then lib=$c; else lib=$a; fi
	[ -f "$lib" ] || { echo "portable: $lib: not found (ldd $memtop)" >&2; exit 1; }
	cp -L "$lib" "$root/lib/"
done <"$stage/ldd"
for l in "$root"/lib/ld-linux*.so.* "$root"/lib/ld-*.so*; do
	[ -f "$l" ] && { loader=${l##*/}; break; }
done
[ -n "$loader" ] || { echo "portable: no loader among $(ls "$root/lib")" >&2; exit 1; }

# the data memtop view opens with no file, and the terminals
cp -R "$data/." "$root/share/data/"
for t in xterm xterm-256color xterm-color screen screen-256color tmux tmux-256color linux \
	vt100 vt220 rxvt rxvt-unicode rxvt-unicode-256color dumb ansi putty putty-256color \
	alacritty kitty st-256color foot; do
	for d in /lib/terminfo /usr/share/terminfo /etc/terminfo; do
		f=$(find "$d" -name "$t" 2>/dev/null | head -n 1)
		[ -n "$f" ] || continue
		sub=${f%/*}
		sub=${sub##*/}
		mkdir -p "$root/share/terminfo/$sub"
		cp -L "$f" "$root/share/terminfo/$sub/"
		break
	done
done

cat >"$root/memtop" <<EOF
#!/bin/sh
# memtop $version ($arch), portable: the binary with its own libraries and
# loader (nothing of this system's C library is used), its data and the
# terminal descriptions. Run it from anywhere: ./memtop, or put this folder
# on PATH.
here=\$(cd "\$(dirname "\$0")" && pwd)
MEMTOP_DATA=\${MEMTOP_DATA:-\$here/share/data}
TERMINFO_DIRS=\$here/share/terminfo\${TERMINFO_DIRS:+:\$TERMINFO_DIRS}:/usr/share/terminfo:/lib/terminfo:/etc/terminfo
export MEMTOP_DATA TERMINFO_DIRS
exec "\$here/lib/$loader" --library-path "\$here/lib" "\$here/bin/memtop" "\$@"
EOF
chmod 755 "$root/memtop"

cat >"$root/README" <<EOF
memtop $version for $arch Linux, portable: no root, nothing to install.

  tar xzf $name.tar.gz && ./$name/memtop          # the terminal UI
  ./$name/memtop run mountain --quick --json m.json

bin/memtop is linked against the libraries in lib/ and started by the
loader there ($loader), so it runs whatever C library, ncurses, hwloc or
cJSON the server has, or none. share/data holds the bundled references,
share/terminfo the terminal descriptions (TERMINFO_DIRS points there
first). The kernel must be one this glibc accepts (3.2 or later).
EOF

mkdir -p "$out"
(cd "$stage" && tar czf - "$name") >"$out/$name.tar.gz"
echo "$out/$name.tar.gz"
