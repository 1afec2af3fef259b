#!/bin/sh
# The portable memtop (make portable, build-aux/portable.sh): the tarball
# holds the binary, every library it links with their loader, the data and
# the terminfo; its launcher runs it from another folder with none of the
# system's libraries; and unpacked into an empty root (a chroot with nothing
# installed, /proc and /sys bound in a mount namespace of its own: the
# kernel's, not packages) it runs `memtop run mountain --quick` and the
# terminal UI. The chroot needs root and unshare: skipped with the reason
# otherwise.
. "$TESTLIB"
plan 13
SRC=$(dirname "$TESTLIB")/..
out=$(sh "$SRC/build-aux/portable.sh" "$MEMTOP" "$MEMTOP_DATA" test "$TMP/out" 2>"$TMP/err")
is "the bundle is made" "$?" 0
tarball=$out
ok "... one tarball" test -f "$tarball"
mkdir -p "$TMP/un" && (cd "$TMP/un" && tar xzf "$tarball")
dir=$(ls -d "$TMP/un"/memtop-test-*/)
dir=${dir%/}
loader=$(cd "$dir/lib" && ls ld-linux*.so.* ld-*.so* 2>/dev/null | head -n 1)
ok "... with its loader" test -n "$loader"
ok "... and a C library" test -f "$dir/lib/libc.so.6"
ok "... and a terminal description" test -n "$(find "$dir/share/terminfo" -type f -name 'xterm*')"
like "its size is said by ls" "$(ls -l "$tarball")" 'memtop-test-'
echo "# the tarball: $(wc -c <"$tarball") bytes"

# the launcher, from another folder, with no library path of the system's
(cd / && env -u LD_LIBRARY_PATH "$dir/memtop" run algae --json "$TMP/algae.json") \
	>"$TMP/out.txt" 2>&1
is "the launcher runs it from another folder" "$?" 0
is "... and it measured" "$("$JSONQ" "$TMP/algae.json" experiment)" algae

if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null 2>&1 || ! command -v chroot >/dev/null 2>&1; then
	for d in "an empty root: the quick mountain" "... its JSON" "an empty root: the terminal UI" \
		"... q quits it" "... and its terminal is given back"; do
		skip "$d" "needs root, unshare and chroot"
	done
	exit 0
fi

# an empty root: the bundle and nothing else (the kernel's /proc and /sys
# bound in, in a mount namespace of its own)
R=$TMP/root
mkdir -p "$R/opt" "$R/proc" "$R/sys" "$R/tmp"
cp -R "$dir" "$R/opt/memtop"
inside() {
	cat >"$TMP/inside.sh" <<EOF
mount --bind /proc "$R/proc" && mount --bind /sys "$R/sys" || exit 90
exec chroot "$R" /opt/memtop/lib/$loader --library-path /opt/memtop/lib /opt/memtop/bin/memtop "\$@"
EOF
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=${TERM_IN:-dumb} \
		MEMTOP_DATA=/opt/memtop/share/data TERMINFO_DIRS=/opt/memtop/share/terminfo \
		unshare -m sh "$TMP/inside.sh" "$@"
}
inside run mountain --quick --json /tmp/m.json >"$TMP/out.txt" 2>&1
rc=$?
if [ "$rc" = 90 ]; then
	for d in "an empty root: the quick mountain" "... its JSON" "an empty root: the terminal UI" \
		"... q quits it" "... and its terminal is given back"; do
		skip "$d" "no mount in a namespace here (a container without CAP_SYS_ADMIN)"
	done
	exit 0
fi
is "an empty root: the quick mountain" "$rc" 0
is "... its JSON: the first size" "$("$JSONQ" "$R/tmp/m.json" "sizes[0]")" 16384

# the terminal UI there, in tmux (the pane's shell runs the chroot)
. "$(dirname "$TESTLIB")/tui_lib.sh"
TSERVERS=1
{
	echo "R='$R'"
	echo "TMP='$TMP'"
	echo "loader='$loader'"
	sed -n '/^inside()/,/^}/p' "$0"
	echo 'TERM_IN=xterm-256color inside --idle'
	echo 'echo memtop-exit=$?'
	echo "stty -a | tr ';' '\\n' | grep -E '(^| )-?(echo|icanon)( |\$)' | tr '\\n' ' '"
	echo 'echo; sleep 60'
} >"$TMP/tui_root.sh"
tm new-session -d -x 100 -y 30 -s t "sh $TMP/tui_root.sh"
wok "an empty root: the terminal UI" '1 Mountain' 20
tkeys q
wok "... q quits it" 'memtop-exit=0' 10
like "... and its terminal is given back" "$(tcap)" ' echo .*icanon|icanon .* echo '
