#!/bin/sh
# tests/fuzz/run.sh HARNESS MINUTES: run one libFuzzer harness (built by
# `make fuzz` into fuzz/fuzz_HARNESS of the build folder this is run from)
# for MINUTES minutes, niced, one process. It starts from the seed corpus
# tests/fuzz/corpus/HARNESS and the saved crashes, grows its own corpus in
# fuzz/corpus/HARNESS, writes any crash to fuzz/artifacts/HARNESS/, and ends
# with one line:
#   HARNESS: M min S s of MINUTES, N executions, K crashes (fuzz/artifacts/HARNESS)
# (a crash ends the run early: M min S s is how long it ran)
# A crash to keep goes to tests/fuzz/crashes/HARNESS/ (named for what it
# found), where make check replays it from then on.
set -u
if [ $# -ne 2 ]; then
	echo "usage: $0 HARNESS MINUTES" >&2
	exit 2
fi
h=$1
min=$2
src=$(cd "$(dirname "$0")" && pwd)
bin=fuzz/fuzz_$h
if [ ! -x "$bin" ]; then
	echo "run.sh: $bin not found: run make fuzz in the build folder first" >&2
	exit 2
fi
case $min in '' | *[!0-9]*) echo "run.sh: MINUTES must be a whole number" >&2; exit 2 ;; esac
mkdir -p "fuzz/corpus/$h" "fuzz/artifacts/$h" "fuzz/tmp/$h"
TMPDIR=$(pwd)/fuzz/tmp/$h # what a harness writes (sysfs folders) stays here
export TMPDIR
log=fuzz/$h.log
seeds=""
for d in "$src/corpus/$h" "$src/crashes/$h"; do
	[ -d "$d" ] && seeds="$seeds $d"
done
# -close_fd_mask=3: the readers' messages go nowhere (libFuzzer keeps its
# own); -rss_limit_mb and -malloc_limit_mb: a reader that asks for more
# than 2 GB for any input is a finding; -timeout: so is one slow input.
t0=$(date +%s)
# shellcheck disable=SC2086
nice -n 10 "$bin" -max_total_time=$((min * 60)) -close_fd_mask=3 -print_final_stats=1 \
	-rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 \
	-artifact_prefix="fuzz/artifacts/$h/" "fuzz/corpus/$h" $seeds >"$log" 2>&1
rc=$?
secs=$(($(date +%s) - t0))
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
crashes=$(find "fuzz/artifacts/$h" -type f | wc -l)
echo "$h: $((secs / 60)) min $((secs % 60)) s of $min, ${execs:-?} executions, $crashes crashes (fuzz/artifacts/$h; log $log)"
[ "$rc" = 0 ] || tail -n 30 "$log"
exit $rc
