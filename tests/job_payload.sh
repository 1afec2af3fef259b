#!/bin/sh
# job_payload: run/job.h's JOB_PAYLOAD_PUT and JOB_PAYLOAD_GET check the
# type when they are compiled (test_job checks what they do when run): a
# struct larger than the payload does not compile, nor a pointer to another
# struct than the one named; the right use does.
. "${TESTLIB:-$(dirname "$0")/lib.sh}"
top=$(cd "$(dirname "$0")/.." && pwd)
plan 4

cat >"$TMP/p.c" <<'C'
#include "run/job.h"
struct small { int a; double b; };
struct other { int a; double b; };
struct big { char x[JOB_PAYLOAD_SIZE + 1]; };
int f(struct job_event *ev)
{
	struct small s = { 1, 2.0 }, t;
#if defined(BAD_SIZE)
	struct big b = { { 0 } };
	JOB_PAYLOAD_PUT(ev, struct big, &b);
#elif defined(BAD_PUT)
	struct other o = { 1, 2.0 };
	JOB_PAYLOAD_PUT(ev, struct small, &o);
#elif defined(BAD_GET)
	struct other o;
	JOB_PAYLOAD_PUT(ev, struct small, &s);
	return JOB_PAYLOAD_GET(ev, struct small, &o);
#endif
	JOB_PAYLOAD_PUT(ev, struct small, &s);
	return JOB_PAYLOAD_GET(ev, struct small, &t);
}
C
# CC and its warnings as the build has them (-Werror: a wrong pointer type is
# a warning until then)
cc_ok() { ${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I "$top/src" -fsyntax-only "$@" \
	"$TMP/p.c" >"$TMP/cc.out" 2>&1; }
if cc_ok; then pass "the right struct compiles"; else fail "the right struct compiles" "$(head -c 600 "$TMP/cc.out")"; fi
# refused, and for the reason: the compiler's words for it
refused() {
	if cc_ok -D"$2"; then
		fail "$1" "it compiled"
	elif grep -qi "$3" "$TMP/cc.out"; then
		pass "$1"
	else
		fail "$1" "refused for another reason:" "$(head -c 600 "$TMP/cc.out")"
	fi
}
refused "a struct larger than the payload does not compile" BAD_SIZE \
	"struct big does not fit a job event"
refused "PUT of another struct than the one named does not compile" BAD_PUT \
	"incompatible pointer type"
refused "GET into another struct than the one named does not compile" BAD_GET \
	"incompatible pointer type"
