#!/bin/sh
# tests/vm/check-vm.sh TARBALL WORKDIR: make check-vm. Boots Debian's own
# kernel (linux-image-*-amd64 fetched with apt-get download and unpacked
# with dpkg-deb, never installed) under qemu-system-x86_64 with TCG (no KVM:
# the same on any x86-64 host) from an initramfs built here (busybox-static
# unpacked the same way, tests/vm/init, memtop's portable TARBALL), once a
# machine below. Each guest reads its own /sys and runs memtop's commands
# (tests/vm/init); tests/vm/check.sh holds what memtop said to that /sys.
# TAP on stdout, one block a machine, and the boot and run times as
# comments. Never a timing of memtop's: TCG does not model time.
#
# MEMTOP_VM_MACHINES  the machines (default: A offline5 snc unequal)
# MEMTOP_VM_CACHE     where the fetched packages are kept (WORKDIR/cache)
# MEMTOP_VM_TIMEOUT   seconds a guest may take, boot to poweroff (300);
#                     past it qemu is killed and the machine fails, named
# MEMTOP_VM_LEG       seconds the whole leg may take (570): a guest gets at
#                     most what is left; with under a minute left, the
#                     machines not booted fail, named
# Skipped, with the reason, where there is no qemu-system-x86_64, no cpio,
# no apt-get (or it cannot fetch the packages), or the host is not x86-64.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tarball=$1
work=$2
: "${TESTLIB:=$here/../lib.sh}"
: "${MEMTOP:=memtop}"
export MEMTOP
. "$TESTLIB"
. "$here/check.sh"

machines=${MEMTOP_VM_MACHINES:-A offline5 snc unequal}
cache=${MEMTOP_VM_CACHE:-$work/cache}
limit=${MEMTOP_VM_TIMEOUT:-300}
leg=${MEMTOP_VM_LEG:-570}
leg_start=$(date +%s)

# not_here WHY: the whole leg skipped, said once (TAP: a plan of none)
not_here() {
	echo "1..0 # SKIP $1"
	echo "check-vm: skipped: $1"
	exit 0
}

[ "$(uname -m)" = x86_64 ] || not_here "the host is $(uname -m): the guests are x86-64 and run memtop's own build"
command -v qemu-system-x86_64 >/dev/null ||
	not_here "no qemu-system-x86_64 (apt-get install qemu-system-x86)"
command -v cpio >/dev/null || not_here "no cpio (apt-get install cpio)"
command -v dpkg-deb >/dev/null && command -v apt-get >/dev/null ||
	not_here "no apt-get and dpkg-deb: the kernel is Debian's package"
command -v timeout >/dev/null || not_here "no timeout (coreutils)"
[ -f "$tarball" ] || not_here "no portable tarball $tarball (make portable)"
mkdir -p "$work" "$cache" || not_here "cannot make $work"

# ---- the kernel and busybox, fetched once into the cache ------------------------
# fetch PACKAGE: its .deb in the cache (apt-get download). Returns 1, said.
fetch() {
	ls "$cache/$1"_*.deb >/dev/null 2>&1 && return 0
	(cd "$cache" && timeout 300 apt-get download "$1" >"$cache/apt-$1.log" 2>&1) && return 0
	echo "check-vm: apt-get download $1 failed: $(tail -n 1 "$cache/apt-$1.log")"
	return 1
}
if [ ! -f "$cache/vmlinuz" ]; then
	kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n 1)
	[ -n "$kpkg" ] || not_here "apt-cache knows no linux-image-amd64 (apt-get update; a Debian host)"
	fetch "$kpkg" || not_here "Debian's kernel $kpkg cannot be fetched here"
	dpkg-deb --fsys-tarfile "$cache/$kpkg"_*.deb | (cd "$cache" && tar -x --wildcards './boot/vmlinuz-*') &&
		mv "$cache"/boot/vmlinuz-* "$cache/vmlinuz" && rmdir "$cache/boot" ||
		not_here "no vmlinuz in $kpkg"
	echo "$kpkg" >"$cache/vmlinuz.pkg"
fi
if [ ! -x "$cache/busybox" ]; then
	fetch busybox-static || not_here "busybox-static cannot be fetched here"
	rm -rf "$cache/bb" && dpkg-deb -x "$cache"/busybox-static_*.deb "$cache/bb" &&
		cp "$cache/bb/bin/busybox" "$cache/busybox" && rm -rf "$cache/bb" ||
		not_here "no bin/busybox in busybox-static"
fi

# ---- the initramfs: busybox, /init, memtop -------------------------------------
root=$work/initramfs
rm -rf "$root" && mkdir -p "$root/bin" "$root/opt" || not_here "cannot make $root"
cp "$cache/busybox" "$root/bin/busybox"
cp "$here/init" "$root/init" && chmod 755 "$root/init" "$root/bin/busybox"
tar -xzf "$tarball" -C "$root/opt" || not_here "cannot unpack $tarball"
mv "$root"/opt/memtop-* "$root/opt/memtop"
(cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$work/initrd.cpio.gz" ||
	not_here "cpio failed"
echo "# kernel: $(cat "$cache/vmlinuz.pkg" 2>/dev/null) (Debian's, unpacked), busybox-static," \
	"$(basename "$tarball"), qemu $(qemu-system-x86_64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p'), TCG"

# ---- the machines --------------------------------------------------------------
# machine NAME: its qemu options (sizes, CPUs, nodes, distances) and kernel
# arguments, into $qopts and $kargs
machine() {
	kargs=
	case $1 in
	A | offline5) # topo/qemu's A: 2 sockets x 2 cores x 2 threads, node 2 memory only
		qopts="-m 6G -smp 8,sockets=2,cores=2,threads=2
		-object memory-backend-ram,id=m0,size=2G -object memory-backend-ram,id=m1,size=2G
		-object memory-backend-ram,id=m2,size=2G
		-numa node,nodeid=0,cpus=0-3,memdev=m0 -numa node,nodeid=1,cpus=4-7,memdev=m1
		-numa node,nodeid=2,memdev=m2
		-numa dist,src=0,dst=1,val=21 -numa dist,src=0,dst=2,val=31
		-numa dist,src=1,dst=2,val=41"
		if [ "$1" = offline5 ]; then kargs=mt.offline=5; fi ;;
	snc) # 2 sockets x 2 dies x 2 cores x 2 threads, a node a die, node 4 memory only
		qopts="-m 5G -smp 16,sockets=2,dies=2,cores=2,threads=2
		-object memory-backend-ram,id=m0,size=1G -object memory-backend-ram,id=m1,size=1G
		-object memory-backend-ram,id=m2,size=1G -object memory-backend-ram,id=m3,size=1G
		-object memory-backend-ram,id=m4,size=1G
		-numa node,nodeid=0,cpus=0-3,memdev=m0 -numa node,nodeid=1,cpus=4-7,memdev=m1
		-numa node,nodeid=2,cpus=8-11,memdev=m2 -numa node,nodeid=3,cpus=12-15,memdev=m3
		-numa node,nodeid=4,memdev=m4
		-numa dist,src=0,dst=1,val=12 -numa dist,src=2,dst=3,val=12
		-numa dist,src=0,dst=2,val=21 -numa dist,src=0,dst=3,val=21
		-numa dist,src=1,dst=2,val=21 -numa dist,src=1,dst=3,val=21
		-numa dist,src=0,dst=4,val=30 -numa dist,src=1,dst=4,val=30
		-numa dist,src=2,dst=4,val=40 -numa dist,src=3,dst=4,val=40"
		# cores: CPU 0 and its SMT sibling, the same die, the other die, the
		# other socket; numa: the two dies of socket 0 (SLIT 12) and the
		# memory-only node (16 vCPUs under TCG: all of it would not fit)
		kargs="mt.cpus=0,1,2,4,8 mt.nodes=0,1,4" ;;
	unequal) # 2 sockets x 2 cores, nodes of 1.5G and 512M
		qopts="-m 2G -smp 4,sockets=2,cores=2,threads=1
		-object memory-backend-ram,id=m0,size=1536M -object memory-backend-ram,id=m1,size=512M
		-numa node,nodeid=0,cpus=0-1,memdev=m0 -numa node,nodeid=1,cpus=2-3,memdev=m1
		-numa dist,src=0,dst=1,val=20" ;;
	*) return 1 ;;
	esac
}

# boot NAME SECONDS: the guest run to its poweroff (or killed past SECONDS); its
# console and its second serial port in $work/NAME/
boot() {
	d=$work/$1
	rm -rf "$d" && mkdir -p "$d/files"
	# shellcheck disable=SC2086 # qopts is a list of words
	timeout -k 10 "$2" qemu-system-x86_64 -accel tcg,thread=multi -machine q35 \
		-display none -no-reboot -nodefaults -monitor none \
		$qopts -cpu max,vendor=GenuineIntel \
		-serial "file:$d/console.log" -serial "file:$d/results.txt" \
		-kernel "$cache/vmlinuz" -initrd "$work/initrd.cpio.gz" \
		-append "console=ttyS0 panic=5 tsc=reliable mt.tmo=$(($2 / 2)) $kargs" \
		>"$d/qemu.log" 2>&1
	echo $? >"$d/qemu.rc"
	# the files between their markers, CRs gone; each one's exit status
	tr -d '\r' <"$d/results.txt" | awk -v d="$d/files" -v m="$d/markers" '
		/^@@@MT begin / { f = d "/" $3; printf "" > f; next }
		/^@@@MT end / { close(f); f = ""; sub(/^rc=/, "", $4); print $4 > (d "/" $3 ".rc"); print > m; next }
		/^@@@MT / { print > m; next }
		f != "" { print > f }'
}

# the guests one after the other, each checked; TAP on stdout
guests() {
	total=0
	for mach in $machines; do
		machine "$mach" || { fail "machine $mach: unknown (A, offline5, snc, unequal)"; continue; }
		t0=$(date +%s)
		left=$((leg - (t0 - leg_start)))
		if [ "$left" -lt 60 ]; then
			fail "$mach: not booted: the leg's ${leg} s are spent (MEMTOP_VM_LEG)"
			continue
		fi
		lim=$((left < limit ? left : limit))
		boot "$mach" "$lim"
		t1=$(date +%s)
		d=$work/$mach
		rc=$(cat "$d/qemu.rc")
		up=$(sed -n 's/^@@@MT boot //p' "$d/markers" 2>/dev/null)
		guest=$(sed -n 's/^@@@MT done //p' "$d/markers" 2>/dev/null)
		echo "# $mach: qemu ran $((t1 - t0)) s (the kernel reached /init at ${up:-?} s of its uptime," \
			"memtop's commands done at ${guest:-?} s), exit $rc"
		total=$((total + t1 - t0))
		if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
			last=$(sed -n 's/^@@@MT start //p' "$d/markers" 2>/dev/null | tail -n 1)
			fail "$mach: the guest ran past ${lim} s: qemu killed; the command it was on:" \
				"${last:-none (the kernel never reached memtop)}" \
				"console: $(tail -n 3 "$d/console.log" | tr '\n' ' ')"
		elif [ -z "$guest" ]; then
			fail "$mach: the guest ended before its last command (qemu exit $rc):" \
				"$(tail -n 5 "$d/console.log" | tr '\n' '|')"
		else
			pass "$mach: booted Debian's kernel under TCG and ran every command"
		fi
		check_machine "$mach" "$d/files"
	done
	echo "# all guests: $total s; the leg: $(($(date +%s) - leg_start)) s (load $(cut -d' ' -f1-3 /proc/loadavg))"
	plan "$TAP_N"
}
guests | tee "$work/check-vm.tap"
n=$(grep -cE '^(not )?ok ' "$work/check-vm.tap")
fails=$(grep -c '^not ok ' "$work/check-vm.tap")
echo "check-vm: $n checks on $(echo "$machines" | wc -w) machines, $fails failed"
[ "$fails" = 0 ]
