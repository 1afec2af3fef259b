# tests/lib.sh: TAP helpers for the script tests. Source it, call plan N,
# then ok/is/like; each prints one TAP line. MEMTOP, TESTDATA come from make.
: "${MEMTOP:?run through make check}"
TAP_N=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/memtop-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# memtop's state (the last latency runs here) stays in the test's folder
export XDG_STATE_HOME="$TMP/state"
# Under TEST_RUNNER (qemu-aarch64 in make check-aarch64) the programs the
# tests run go through it: MEMTOP and JSONQ become small wrappers.
if [ -n "${TEST_RUNNER:-}" ]; then
	for v in MEMTOP JSONQ; do
		eval "p=\${$v:-}"
		[ -n "$p" ] || continue
		printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$TEST_RUNNER" "$p" >"$TMP/run-$v"
		chmod +x "$TMP/run-$v"
		eval "$v=\$TMP/run-$v"
	done
fi

plan() { echo "1..$1"; }
pass() { TAP_N=$((TAP_N + 1)); echo "ok $TAP_N - $1"; }
# fail DESC DIAG...: each line of each DIAG a TAP comment ("# "), so that
# text it shows (a playbook's "ok: [lab1]") is never read as a result
fail() { TAP_N=$((TAP_N + 1)); echo "not ok $TAP_N - $1"; shift; for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done; }
# ok DESC CMD...: passes when CMD exits 0
ok() { d=$1; shift; if "$@" >/dev/null 2>&1; then pass "$d"; else fail "$d" "command failed: $*"; fi; }
# is DESC GOT WANT
is() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got:  $2" "want: $3"; fi; }
# like DESC TEXT REGEX (grep -E)
like() { if printf '%s\n' "$2" | grep -Eq -- "$3"; then pass "$1"; else fail "$1" "text: $(printf '%s' "$2" | head -c 400)" "want: /$3/"; fi; }
# lines DESC TEXT REGEX N: exactly N lines of TEXT match REGEX (grep -E)
lines() { is "$1" "$(printf '%s\n' "$2" | grep -cE -- "$3")" "$4"; }
# has DESC TEXT LINE: TEXT holds LINE exactly, once
has() { lines "$1" "$2" "^$(printf '%s' "$3" | sed 's/[][\.*^$()+?{}|]/\\&/g')\$" 1; }
# lines_of FILE, then rows DESC REGEX N...: lines for each row, on FILE's text
lines_of() {
	lf=$1
	shift
	while [ $# -ge 3 ]; do
		lines "$1" "$(cat "$lf")" "$2" "$3"
		shift 3
	done
	[ $# -eq 0 ] || fail "lines_of $lf: a row cut short: $*"
}
unlike() { if printf '%s\n' "$2" | grep -Eq -- "$3"; then fail "$1" "text: $(printf '%s' "$2" | head -c 400)" "unwanted: /$3/"; else pass "$1"; fi; }
# experiments: the names `memtop run --help` lists, one a line, in its order
# (a test that walks them all walks a new one by its being registered)
experiments() { "$MEMTOP" run --help 2>&1 | sed -n '/^Experiments:/,/^$/s/^  \([a-z][a-z0-9_-]*\) .*/\1/p'; }
# status DESC WANT CMD...: exit status of CMD equals WANT
status() { d=$1; w=$2; shift 2; "$@" >"$TMP/out" 2>"$TMP/err"; s=$?; if [ "$s" = "$w" ]; then pass "$d"; else fail "$d" "exit $s, want $w: $*" "stderr: $(head -c 300 "$TMP/err")"; fi; }
# One skip mechanism (tests/testlib.h is the C side). Timing relations and
# bounds in seconds run in the plain native build only: MEMTOP_SKIP_TIMING
# names why not ("sanitizer build", "qemu-user").
timing_ok() { [ -z "${MEMTOP_SKIP_TIMING:-}" ]; }
# skip DESC WHY: a case this machine or build cannot check, counted as SKIP
skip() { pass "$1 # SKIP $2"; }
# timing DESC CMD...: like ok, for a timing relation
timing() { if timing_ok; then ok "$@"; else skip "$1" "$MEMTOP_SKIP_TIMING"; fi; }
# ru_or_skip N DESC: memtop as a student with a Russian locale runs it, or
# N cases skipped with the reason and the test ended (exit 0) where that
# cannot be: the build reads no catalogue (--disable-nls), or tests/locale.sh
# could not build ru_RU.UTF-8 (MEMTOP_LOCPATH; its stamp says why). Then
# RU runs memtop in ru_RU.UTF-8 (LANGUAGE, which would outrank the locale
# for messages, left out) and C in the C locale.
ru_or_skip() {
	ru_loc=${MEMTOP_LOCPATH:-}
	ru_why=
	if [ "${USE_NLS:-yes}" != yes ]; then
		ru_why="built without NLS (--disable-nls): no catalogue to read"
	elif [ -z "$ru_loc" ] || [ ! -f "$ru_loc/ru_RU.UTF-8/LC_NUMERIC" ]; then
		ru_why=$(sed -n '1s/^skip: //p' "$ru_loc/stamp" 2>/dev/null)
		ru_why=${ru_why:-no ru_RU.UTF-8 built (tests/locale.sh, MEMTOP_LOCPATH)}
	fi
	[ -z "$ru_why" ] && return 0
	ru_i=0
	while [ $ru_i -lt "$1" ]; do
		skip "$2" "$ru_why"
		ru_i=$((ru_i + 1))
	done
	exit 0
}
RU() { env -u LANGUAGE LOCPATH="${MEMTOP_LOCPATH:-}" LC_ALL=ru_RU.UTF-8 "$MEMTOP" "$@"; }
C() { env -u LANGUAGE LC_ALL=C "$MEMTOP" "$@"; }
