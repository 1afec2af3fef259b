#!/bin/sh
# tests/tsan.sh SRCDIR BUILDDIR (make check-tsan): memtop's threads under
# ThreadSanitizer. Builds SRCDIR (an unconfigured tree: make distdir) in
# BUILDDIR with --enable-tsan, then runs the unit tests of the engine's
# threads (the job's pinned worker, batch mode, the bandwidth lab's
# measuring threads and coordinator, the false-sharing race, the latency
# lab, the core pairs, the NUMA nodes, two threads reading one trace) and
# the command-line tests of every threaded experiment (tests/cli_every.sh
# runs every experiment's --quick line, new ones included, then the
# experiments' own CLI tests). Timing tests are skipped (MEMTOP_SKIP_TIMING).
# Every report goes to a file (TSAN_OPTIONS log_path) and is counted,
# whatever the test made of the exit status. tests/tsan.supp holds the
# suppressions, each with why it is benign (none for memtop's own data).
# Ends with
#   tsan: N tests run (P passed, F failed, S skipped), R reports
# exit 0 when nothing failed and nothing was reported.
set -u
src=$1
b=$2
t0=$(date +%s)
rm -rf "$b" && mkdir -p "$b" && cd "$b" || exit 1
"$src/configure" --enable-tsan --enable-werror >configure.log 2>&1 || {
	tail -n 20 configure.log
	exit 1
}
make -j2 >build.log 2>&1 || { grep -E 'error|warning' build.log | head -n 20; exit 1; }
t1=$(date +%s)
echo "tsan: built in $((t1 - t0)) s"

UNITS="tests/test_job tests/test_platform tests/test_batch tests/test_bandwidth tests/test_falseshare tests/test_latency
	tests/test_cores tests/test_numa tests/test_matmul tests/test_mountain tests/test_trace
	tests/test_tui_files"
SCRIPTS="tests/cli_every.sh tests/cli_bandwidth.sh tests/cli_labs.sh tests/cli_latency.sh
	tests/cli_mountain.sh tests/cli_cores.sh tests/cli_numa.sh"
tests=""
for t in $UNITS $SCRIPTS; do # the ones this tree has (an experiment may be newer)
	case $t in
	*.sh) [ -f "$src/$t" ] && tests="$tests $t" ;;
	*) [ -f "$src/$t.c" ] && tests="$tests $t" ;;
	esac
done
rm -rf reports && mkdir reports
TSAN_OPTIONS="log_path=$b/reports/tsan suppressions=$src/tests/tsan.supp"
TSAN_OPTIONS="$TSAN_OPTIONS second_deadlock_stack=1 history_size=4"
export TSAN_OPTIONS
# shellcheck disable=SC2086
make -j2 check TESTS="$(echo $tests)" MEMTOP_SKIP_TIMING="ThreadSanitizer build" >check.log 2>&1
rc=$?
t2=$(date +%s)
pass=$(cat tests/*.trs 2>/dev/null | grep -c '^:test-result: PASS')
skip=$(cat tests/*.trs 2>/dev/null | grep -c '^:test-result: SKIP')
failn=$(cat tests/*.trs 2>/dev/null | grep -cE '^:test-result: (FAIL|XPASS|ERROR)')
reports=$(cat reports/tsan.* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer')
if [ "$rc" != 0 ]; then
	grep -E '^(FAIL|ERROR)' check.log | head -n 20
fi
for f in reports/tsan.*; do
	[ -f "$f" ] || continue
	echo "== $f"
	head -n 40 "$f"
done
echo "tsan: tests under ThreadSanitizer in $((t2 - t1)) s"
n=$((pass + failn + skip))
echo "tsan: $n tests run ($pass passed, $failn failed, $skip skipped), $reports reports"
[ "$rc" = 0 ] && [ "$reports" = 0 ]
