#!/bin/sh
# tests/deb.sh DISTDIR OUTDIR SRCDIR (make check-deb, .ci/run): the Debian
# package, as an admin gets it.
#  - built from DISTDIR (make distdir: what make dist packs) in OUTDIR by
#    build-aux/deb.sh, dpkg-buildpackage -b -us -uc, without the package's
#    own make check (DEB_BUILD_OPTIONS=nocheck: the suite ran in make check);
#    SRCDIR, the checkout, is left as it was;
#  - the .deb holds the binary, the manual with no @name@ left in it and
#    every path its FILES name, and every file of data/;
#  - lintian on the source and binary packages: no error (its lines are
#    printed as comments);
#  - as root, a clean Debian root (mmdebstrap --variant=minbase, this
#    machine's release from its own apt sources): the .deb installed there
#    with apt-get, debian/tests/smoke run there as an unprivileged user
#    with the autopkgtest's Depends (the installed memtop, for real), then
#    apt-get purge --autoremove: nothing of memtop left, the root's
#    packages those it had before; then contrib/ansible/memtop.yml with
#    memtop_deb installs it there (Ansible's chroot connection) and
#    measures with it.
# Installs what it needs when run as root (debhelper, lintian, mmdebstrap,
# the Build-Depends); without root the root's part is skipped with that
# reason. Ends with "deb: N passed, N failed, N skipped" and the times.
set -u
src=$1
out=$2
top=$3
. "${TESTLIB:?}"
N=21
plan $N
t0=$(date +%s)
secs() { echo $(($(date +%s) - $1)); }
skip_rest() { # skip_rest WHY: the remaining cases, skipped
	while [ "$TAP_N" -lt $N ]; do skip "the Debian package ($((TAP_N + 1)))" "$1"; done
}
summary() {
	k=$(grep -c '^ok [0-9]* - .* # SKIP' "$TMP/tap")
	echo "deb: $(($(grep -c '^ok' "$TMP/tap") - k)) passed, $(grep -c '^not ok' "$TMP/tap") failed," \
		"$k skipped (the .deb ${deb_kb:-?} KB; build ${t_build:-?} s, lintian ${t_lint:-?} s," \
		"clean root ${t_root:-?} s, install and remove ${t_inst:-?} s, Ansible ${t_ans:-?} s;" \
		"$(secs "$t0") s in all)"
	grep -q '^not ok' "$TMP/tap" && exit 1
	exit 0
}
# every TAP line also into $TMP/tap, for the summary
pass() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $1" | tee -a "$TMP/tap"; }
fail() {
	TAP_N=$((TAP_N + 1))
	echo "not ok $TAP_N - $1" | tee -a "$TMP/tap"
	shift
	for l in "$@"; do echo "# $l"; done
}
root=no
[ "$(id -u)" = 0 ] && root=yes

# the tools, installed when root
need="dpkg-dev debhelper lintian"
[ $root = yes ] && need="$need mmdebstrap gpg"
missing=""
for p in $need; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ] && [ $root = yes ]; then
	echo "# deb: installing$missing"
	apt-get update -qq >/dev/null 2>&1
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing \
		>"$TMP/apt.log" 2>&1 || sed 's/^/# /' "$TMP/apt.log" | tail -n 5
fi
command -v dpkg-buildpackage >/dev/null 2>&1 && command -v dh >/dev/null 2>&1 ||
	{ skip_rest "no dpkg-buildpackage or debhelper (apt-get install dpkg-dev debhelper)"; summary; }
if [ $root = yes ]; then # the Build-Depends
	(cd "$src" && DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq ./) \
		>"$TMP/builddep.log" 2>&1 || sed 's/^/# /' "$TMP/builddep.log" | tail -n 5
fi

# ---- the build ----
before=""
git -C "$top" rev-parse >/dev/null 2>&1 && before=$(git -C "$top" status --porcelain 2>&1)
t=$(date +%s)
deb=$(DEB_BUILD_OPTIONS="nocheck${DEB_BUILD_OPTIONS:+ $DEB_BUILD_OPTIONS}" \
	sh "$src/build-aux/deb.sh" "$src" "$out" 2>"$TMP/build.err")
rc=$?
t_build=$(secs $t)
[ "$rc" = 0 ] || sed 's/^/# /' "$TMP/build.err" | tail -n 30
is "dpkg-buildpackage -b -us -uc from the dist tree: exit 0 (${t_build} s)" "$rc" 0
[ "$rc" = 0 ] && [ -f "$deb" ] || { skip_rest "the package was not built"; summary; }
deb_kb=$((($(wc -c <"$deb") + 1023) / 1024))
echo "# deb: $deb: $(wc -c <"$deb") bytes"
if git -C "$top" rev-parse >/dev/null 2>&1; then
	is "... the checkout is left as it was (git status)" \
		"$(git -C "$top" status --porcelain 2>&1)" "$before"
else
	skip "... the checkout is left as it was" "$top is not a git checkout"
fi

# ---- what the .deb holds ----
X=$TMP/x
dpkg-deb -x "$deb" "$X"
ok "the .deb holds /usr/bin/memtop, which runs" "$X/usr/bin/memtop" --version
want=$(cd "$src/data" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
got=$(cd "$X/usr/share/memtop" 2>/dev/null && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
is "... every file of data/ in /usr/share/memtop, nothing else" "$got" "$want"
man=$X/usr/share/man/man1/memtop.1.gz
ok "... the manual, /usr/share/man/man1/memtop.1.gz" test -f "$man"
is "... no file in it keeps an @name@ of the build" \
	"$( (grep -rIlE '@[A-Za-z_]+@' "$X"; zgrep -lE '@[A-Za-z_]+@' "$man") | sed "s|^$X||")" ""
zcat "$man" 2>/dev/null | sed -n '/^\.SH FILES/,/^\.SH [^F]/s/^\.I \(\/.*\)$/\1/p' |
	sed 's/\\-/-/g' >"$TMP/files"
missing=""
while read -r p; do [ -e "$X$p" ] || missing="$missing $p"; done <"$TMP/files"
like "... its FILES name /usr/share/memtop/m4max.json" "$(cat "$TMP/files")" \
	'^/usr/share/memtop/m4max\.json$'
is "... and each of the $(wc -l <"$TMP/files") paths they name is in the package" "$missing" ""

# ---- lintian ----
if command -v lintian >/dev/null 2>&1; then
	t=$(date +%s)
	lintian --info --display-level '>=pedantic' "$out"/memtop_*.dsc "$out"/memtop_*.changes \
		>"$TMP/lintian" 2>&1
	t_lint=$(secs $t)
	sed 's/^/# lintian: /' "$TMP/lintian"
	is "lintian: no error ($(grep -c '^W:' "$TMP/lintian") warnings, ${t_lint} s)" \
		"$(grep '^E:' "$TMP/lintian")" ""
else
	skip "lintian: no error" "lintian is not installed (apt-get install lintian)"
fi

# ---- a clean Debian root ----
[ $root = yes ] || { skip_rest "needs root (mmdebstrap, chroot, apt-get in the root)"; summary; }
for c in mmdebstrap unshare chroot; do
	command -v $c >/dev/null 2>&1 || { skip_rest "no $c here"; summary; }
done
mkdir -p "$TMP/probe"
unshare -m mount -t tmpfs memtop-probe "$TMP/probe" 2>/dev/null ||
	{ skip_rest "no mount in a namespace here (a container without CAP_SYS_ADMIN)"; summary; }
. /etc/os-release
suite=${VERSION_CODENAME:-}
[ -n "$suite" ] || { skip_rest "/etc/os-release names no release (VERSION_CODENAME)"; summary; }
# this machine's own apt sources for its release (no mirror written here)
set --
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] && grep -Eq "^[^#]*\\b$suite\\b" "$f" && set -- "$@" "$f"
done
[ $# -gt 0 ] || { skip_rest "no apt source here names $suite"; summary; }
R=$TMP/root
t=$(date +%s)
mmdebstrap --variant=minbase --dpkgopt=force-unsafe-io \
	--aptopt='Acquire::Check-Valid-Until "false"' --aptopt='Acquire::Check-Date "false"' \
	"$suite" "$R" "$@" >"$TMP/mmdebstrap.log" 2>&1
rc=$?
t_root=$(secs $t)
[ "$rc" = 0 ] || sed 's/^/# /' "$TMP/mmdebstrap.log" | tail -n 10
is "mmdebstrap --variant=minbase $suite: a clean root (${t_root} s, $(du -sm "$R" | cut -f1) MB)" \
	"$rc" 0
[ "$rc" = 0 ] || { skip_rest "no clean root"; summary; }

# inroot [--user] CMD...: CMD in the root, /proc and /sys mounted there in a
# mount namespace of its own (gone with it), a clean environment
inroot() {
	spec=""
	[ "$1" = --user ] && { spec=--userspec=65534:65534; shift; }
	unshare -m sh -c 'r=$1; s=$2; shift 2
		mount -t proc proc "$r/proc" && mount --rbind /sys "$r/sys" || exit 90
		exec chroot $s "$r" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"' sh "$R" "$spec" "$@"
}
t=$(date +%s)
inroot apt-get update -qq >"$TMP/update.log" 2>&1
inroot dpkg-query -W -f='${Package}\n' | LC_ALL=C sort >"$TMP/pkgs-before"
cp "$deb" "$R/tmp/"
debname=${deb##*/}
# the autopkgtest's Depends besides the package itself (@)
tdeps=$(sed -n 's/^Depends: *//p' "$src/debian/tests/control" | tr ',' '\n' |
	sed 's/^ *//; s/ *$//' | grep -v '^@$' | tr '\n' ' ')
inroot apt-get install -y -q "/tmp/$debname" $tdeps >"$TMP/install.log" 2>&1
rc=$?
[ "$rc" = 0 ] || sed 's/^/# /' "$TMP/install.log" | tail -n 10
is "apt-get install ./$debname ${tdeps}there: exit 0" "$rc" 0
echo "# deb: new packages: $(sed -n '/^The following NEW packages/,/^[0-9]* upgraded/p' \
	"$TMP/install.log" | sed '1d;$d' | tr -s ' \n' ' ')"
is "... memtop installed, the package's version" \
	"$(inroot dpkg-query -W -f='${Status} ${Version}' memtop 2>&1)" \
	"install ok installed $(dpkg-deb -f "$deb" Version)"

# debian/tests/smoke as autopkgtest runs it: an unprivileged user, an
# empty AUTOPKGTEST_TMP, nothing on stderr
mkdir -p "$R/tmp/adt" && chown 65534:65534 "$R/tmp/adt"
cp "$src/debian/tests/smoke" "$R/tmp/smoke"
inroot --user AUTOPKGTEST_TMP=/tmp/adt HOME=/tmp/adt sh /tmp/smoke >"$TMP/smoke.out" \
	2>"$TMP/smoke.err"
rc=$?
sed 's/^/# /' "$TMP/smoke.out"
is "debian/tests/smoke in the clean root, as nobody: exit 0" "$rc" 0
is "... nothing on its stderr" "$(cat "$TMP/smoke.err")" ""

inroot apt-get purge -y -q --autoremove memtop $tdeps >"$TMP/purge.log" 2>&1
rc=$?
[ "$rc" = 0 ] || sed 's/^/# /' "$TMP/purge.log" | tail -n 10
is "apt-get purge --autoremove memtop $tdeps: exit 0" "$rc" 0
rm -rf "$R/tmp/$debname" "$R/tmp/smoke" "$R/tmp/adt"
left=$(find "$R" -xdev -iname '*memtop*' | sed "s|^$R||")
left=$left$(inroot dpkg-query -W memtop 2>/dev/null)
is "... nothing of memtop left: no file named for it, not in dpkg's database" "$left" ""
inroot dpkg-query -W -f='${Package}\n' | LC_ALL=C sort >"$TMP/pkgs-after"
is "... the root's packages are those it had before ($(wc -l <"$TMP/pkgs-before"))" \
	"$(diff "$TMP/pkgs-before" "$TMP/pkgs-after")" ""
t_inst=$(secs $t)
echo "# deb: apt-get update, install, the smoke test and purge in $t_inst s"

# ---- the Ansible playbook's memtop_deb, through Ansible's chroot connection ----
if ! command -v ansible-playbook >/dev/null 2>&1; then
	skip_rest "ansible is not installed"
	summary
fi
if ! ansible-doc -t connection community.general.chroot >/dev/null 2>&1; then
	skip_rest "Ansible has no community.general.chroot connection here"
	summary
fi
t=$(date +%s)
# what the playbook needs on a host: python3 for its modules, python3-apt
# for its apt module (which would install it itself, a second apt-get), sudo
# for become
inroot apt-get install -y -q python3 python3-apt sudo >"$TMP/py.log" 2>&1 ||
	sed 's/^/# /' "$TMP/py.log" | tail -n 5
A=$TMP/ansible
mkdir -p "$A/home" "$A/results"
printf '[lab]\ndeblab ansible_connection=community.general.chroot ansible_host=%s ansible_python_interpreter=/usr/bin/python3\n' \
	"$R" >"$A/inventory"
printf '[defaults]\n' >"$A/ansible.cfg"
unshare -m sh -c 'r=$1; shift
	mount -t proc proc "$r/proc" && mount --rbind /sys "$r/sys" || exit 90
	exec "$@"' sh "$R" env HOME="$A/home" ANSIBLE_CONFIG="$A/ansible.cfg" ANSIBLE_NOCOLOR=1 \
	ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_LOCAL_TEMP="$A/local-tmp" \
	timeout 300 ansible-playbook -i "$A/inventory" "$src/contrib/ansible/memtop.yml" \
	-e "{\"memtop_deb\": \"$deb\", \"memtop_local\": \"$MEMTOP\",
	     \"memtop_experiments\": [\"mountain\"], \"memtop_results\": \"$A/results\"}" \
	>"$A/log" 2>&1
rc=$?
t_ans=$(secs $t)
[ "$rc" = 0 ] || grep -E 'FAILED|fatal|msg' "$A/log" | head -n 8 | sed 's/^/# /'
is "ansible-playbook memtop.yml -e memtop_deb=$debname: exit 0 (${t_ans} s)" "$rc" 0
is "... memtop installed there by it (apt)" \
	"$(inroot dpkg-query -W -f='${Status} ${Version}' memtop 2>&1)" \
	"install ok installed $(dpkg-deb -f "$deb" Version)"
is "... its task 'Install it' changed the host" \
	"$(sed -n '/^TASK \[Install it\]/{n;p;}' "$A/log")" "changed: [deblab]"
is "... and measured with it: deblab-mountain.json, its first size" \
	"$("$JSONQ" "$A/results/deblab-mountain.json" 'sizes[0]' 2>&1)" 16384
summary
