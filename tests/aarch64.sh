#!/bin/sh
# tests/aarch64.sh SRCDIR BUILDDIR (make check-aarch64): memtop on aarch64,
# memtop's other first platform, checked on every change from an x86-64
# machine. Cross-builds SRCDIR (an unconfigured tree: make distdir) in
# BUILDDIR with Debian's gcc-aarch64-linux-gnu and the arm64 -dev packages
# (multiarch; installed when run as root), then runs the exact tests under
# qemu-user: the simulator, transpose and algae, the info parsers on
# recorded machines, JSON, cliffs and levels on recorded data, the fuzz
# seeds and crashes, and the CLI of sim, transpose, cliffs, a real quick
# latency run and a quick mountain (the CNTVCT clock, the no-CPUID info
# path and the aarch64 kernels), then every experiment's --quick run, info,
# cliffs, levels, import, compare and plot, each under a time limit
# (tests/cli_every.sh). First it checks that the loader qemu starts and the
# libc it finds are one glibc build (see loader_matches). Timing tests are skipped: MEMTOP_SKIP_TIMING=qemu-user
# (an emulated core's timings mean nothing). Ends with "aarch64: N passed,
# N failed, N skipped"; exit 0 when nothing failed.
set -u
src=$1
b=$2
T=aarch64-linux-gnu
PKGS="gcc-aarch64-linux-gnu qemu-user libcjson-dev:arm64 libncurses-dev:arm64 libcmocka-dev:arm64 libhwloc-dev:arm64"
have() {
	command -v $T-gcc >/dev/null 2>&1 && command -v qemu-aarch64 >/dev/null 2>&1 &&
		[ -f /usr/lib/$T/pkgconfig/libcjson.pc ] && [ -f /usr/lib/$T/pkgconfig/ncursesw.pc ] &&
		[ -f /usr/lib/$T/pkgconfig/cmocka.pc ] && [ -f /usr/lib/$T/pkgconfig/hwloc.pc ]
}
if ! have; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "aarch64: installing $PKGS"
		dpkg --add-architecture arm64 &&
			apt-get update -qq >/dev/null &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-remove $PKGS >/dev/null
	fi
	have || { echo "aarch64: missing the cross compiler or arm64 packages: apt-get install $PKGS (after dpkg --add-architecture arm64)"; exit 1; }
fi
t0=$(date +%s)
rm -rf "$b" && mkdir -p "$b" && cd "$b" || exit 1
PKG_CONFIG_LIBDIR=/usr/lib/$T/pkgconfig:/usr/share/pkgconfig "$src/configure" --host=$T \
	--enable-werror >configure.log 2>&1 || { tail -n 20 configure.log; exit 1; }
make -j2 >build.log 2>&1 || { grep -E 'error|warning' build.log | head -n 20; exit 1; }
make -j2 check TESTS= >build-tests.log 2>&1 || { tail -n 20 build-tests.log; exit 1; }
file memtop | grep -q 'ARM aarch64' || { echo "aarch64: memtop is not an aarch64 binary"; exit 1; }
t1=$(date +%s)
echo "aarch64: cross-built in $((t1 - t0)) s"

# glibc_of: the Debian build in a glibc banner ("2.36-9+deb12u14")
glibc_of() { sed -n '1s/.*(\(.*GLIBC[^)]*\)).*/\1/p'; }
# loader_matches: the loader qemu-aarch64 starts (from $QEMU_LD_PREFIX when
# set, else the host's) is the same glibc build as the libc.so.6 that loader
# then finds (through the host's ld.so.cache: the multiarch libc6:arm64).
# Their private _rtld_global differs between builds: with the cross
# toolchain's loader (2.36-8) and libc6:arm64's libc (2.36-9+deb12u14) it
# is 8 bytes longer in the libc's view, and pthread_create walks a stack
# cache list that never ends: every thread start spins at 100 % for good.
loader_matches() {
	p=${QEMU_LD_PREFIX:-}
	ld=/lib/ld-linux-aarch64.so.1
	[ -n "$p" ] && [ -e "$p$ld" ] && ld=$p$ld
	libc=$(qemu-aarch64 -E LD_TRACE_LOADED_OBJECTS=1 ./memtop 2>/dev/null |
		sed -n 's/^[[:space:]]*libc\.so\.6 => \([^ ]*\) .*/\1/p')
	[ -n "$p" ] && [ -e "$p$libc" ] && libc=$p$libc
	ldv=$(qemu-aarch64 "$ld" --version 2>/dev/null | glibc_of)
	libcv=$(qemu-aarch64 "$libc" 2>/dev/null | glibc_of)
	[ -n "$ldv" ] && [ "$ldv" = "$libcv" ] && return 0
	echo "aarch64: loader $ld is ${ldv:-unknown} but the libc.so.6 it finds, $libc," \
		"is ${libcv:-unknown}: threads would hang in pthread_create"
	return 1
}
if ! loader_matches; then
	[ -n "${QEMU_LD_PREFIX:-}" ] || exit 1
	echo "aarch64: QEMU_LD_PREFIX=$QEMU_LD_PREFIX does not match the arm64 libraries;" \
		"the tests run without it"
	unset QEMU_LD_PREFIX
	loader_matches || exit 1
fi

UNITS="tests/test_util tests/test_platform tests/test_batch tests/test_sim tests/test_trace tests/test_transpose tests/test_cliffs
	tests/test_mountain_json tests/test_info tests/test_latency tests/test_tui_model"
SCRIPTS="tests/cli_sim.sh tests/cli_transpose.sh tests/cli_cliffs.sh tests/cli_latency.sh tests/cli_mountain.sh
	tests/fuzz_replay.sh tests/cli_every.sh"
# Each test program under a limit too (600 s, a script 900 s): a hang ends
# as a failure; cli_every.sh limits each of its command lines to 60 s.
# shellcheck disable=SC2086
make check TESTS="$(echo $UNITS $SCRIPTS)" LOG_COMPILER="timeout -k 5 600 qemu-aarch64" \
	SH_LOG_COMPILER="timeout -k 5 900 sh" TEST_RUNNER="qemu-aarch64" \
	MEMTOP_SKIP_TIMING="qemu-user" >check.log 2>&1
rc=$?
t2=$(date +%s)
pass=$(cat tests/*.trs 2>/dev/null | grep -c '^:test-result: PASS')
skip=$(cat tests/*.trs 2>/dev/null | grep -c '^:test-result: SKIP')
failn=$(cat tests/*.trs 2>/dev/null | grep -cE '^:test-result: (FAIL|XPASS|ERROR)')
if [ "$rc" != 0 ]; then
	grep -E '^(FAIL|ERROR)' check.log | head -n 20
fi
echo "aarch64: tests under qemu-user in $((t2 - t1)) s"
echo "aarch64: $pass passed, $failn failed, $skip skipped"
[ "$rc" = 0 ]
