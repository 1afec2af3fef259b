#!/bin/sh
# tests/aarch64.sh SRCDIR BUILDDIR (make check-aarch64): memtop on aarch64,
# SPEC's other first platform, checked on every change from an x86-64
# machine. Cross-builds SRCDIR (an unconfigured tree: make distdir) in
# BUILDDIR with Debian's gcc-aarch64-linux-gnu and the arm64 -dev packages
# (multiarch; installed when run as root), then runs the exact tests under
# qemu-user: the simulator, transpose and algae, the info parsers on
# recorded machines, JSON, cliffs and levels on recorded data, the fuzz
# seeds and crashes, and the CLI of sim, transpose, cliffs, a real quick
# latency run and a quick mountain (the CNTVCT clock, the no-CPUID info
# path and the aarch64 kernels). Timing tests are skipped: MEMTOP_SKIP_TIMING=qemu-user
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

UNITS="tests/test_util tests/test_batch tests/test_sim tests/test_trace tests/test_transpose tests/test_cliffs
	tests/test_mountain_json tests/test_info tests/test_latency tests/test_tui_model"
SCRIPTS="tests/cli_sim.sh tests/cli_transpose.sh tests/cli_cliffs.sh tests/cli_latency.sh tests/cli_mountain.sh
	tests/fuzz_replay.sh"
# shellcheck disable=SC2086
make check TESTS="$(echo $UNITS $SCRIPTS)" LOG_COMPILER="qemu-aarch64" TEST_RUNNER="qemu-aarch64" \
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
