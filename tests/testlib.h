/* tests/testlib.h: what the cmocka tests share: ONE skip mechanism.
 *
 * A test whose verdict depends on the machine's speed (a timing relation, a
 * bound in seconds) is a timing test. It runs in the plain native build and
 * is skipped where timings mean nothing: the environment variable
 * MEMTOP_SKIP_TIMING names why ("sanitizer build", set by make check in a
 * build configured with --enable-sanitizers; "qemu-user", set by make
 * check-aarch64). The shell tests read the same variable (tests/lib.sh,
 * timing_ok). A skipped test is reported to TAP as "ok N - NAME # SKIP WHY",
 * which automake counts as SKIP (cmocka's own skip() prints "not ok ... #
 * SKIP", which automake counts as a failure, so it is not used).
 *
 * In main():
 *     const struct CMUnitTest tests[] = {
 *             cmocka_unit_test(exact_counts),
 *             MT_TIMING_TEST(kij_faster_than_jki),
 *     };
 * and, for a test that needs something the machine may lack, MT_SKIP_IF
 * (cond, "why", test). */
#ifndef MEMTOP_TESTLIB_H
#define MEMTOP_TESTLIB_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A memory budget of bytes (machine/machine.h's struct machine_budget,
 * which the caller includes) as machine_mem_budget says it: a job's limit
 * of job bytes (0: none, the memory available sets it). */
#define MT_BUDGET(b, n_, lim_)                                                                    \
	do {                                                                                      \
		memset(&(b), 0, sizeof(b));                                                       \
		(b).bytes = (n_);                                                                 \
		(b).job = (lim_);                                                                 \
		if ((lim_))                                                                       \
			snprintf((b).who, sizeof(b).who, "this job may use %lluM (its cgroup)",   \
				 (unsigned long long)(lim_) >> 20);                               \
		else                                                                              \
			snprintf((b).who, sizeof(b).who, "%lluM of memory available",             \
				 (unsigned long long)(n_) >> 20);                                 \
	} while (0)

/* Why timing tests are skipped here, or NULL when they run. */
static inline const char *mt_timing_skip(void)
{
	const char *why = getenv("MEMTOP_SKIP_TIMING");
	return why && *why ? why : NULL;
}

/* A test's name with "# SKIP why" appended when why is not NULL. */
static inline const char *mt_skip_name(char *buf, size_t len, const char *name, const char *why)
{
	if (!why)
		return name;
	snprintf(buf, len, "%s # SKIP %s", name, why);
	return buf;
}

/* The stand-in of a skipped test: nothing to check. */
static inline void mt_skipped(void **state)
{
	(void)state;
}

/* Sets the list field a of a params struct, and its count n, to the values
 * given, of type T: MT_SET_LIST(p.sweep, p.nsweep, size_t, 8, 32, 64).
 * Does not compile when they do not fit in a or are not a's type's size. */
#define MT_SET_LIST(a, n, T, ...)                                                      \
	do {                                                                           \
		static const T v_[] = { __VA_ARGS__ };                                 \
		_Static_assert(sizeof v_ <= sizeof(a), #a " holds them");              \
		_Static_assert(sizeof v_[0] == sizeof(a)[0], #a " holds " #T "s");      \
		memcpy((a), v_, sizeof v_);                                            \
		(n) = sizeof v_ / sizeof v_[0];                                        \
	} while (0)

/* Asserts that the n lines got (an array of strings or of char arrays)
 * are the lines of the array want, in its order, and as many. */
#define MT_ASSERT_LINES(got, n, want)                                                  \
	do {                                                                           \
		assert_int_equal((n), sizeof(want) / sizeof(want)[0]);                 \
		for (size_t l_ = 0; l_ < sizeof(want) / sizeof(want)[0]; l_++)         \
			assert_string_equal((got)[l_], (want)[l_]);                    \
	} while (0)

/* Asserts that the text holds each string of the array want. */
#define MT_ASSERT_HOLDS(text, want)                                                    \
	do {                                                                           \
		for (size_t w_ = 0; w_ < sizeof(want) / sizeof(want)[0]; w_++)         \
			assert_non_null(strstr((text), (want)[w_]));                   \
	} while (0)

/* A CMUnitTest entry run unless why (a string, or NULL) says otherwise. */
#define MT_SKIP_IF(why, f)                                                                  \
	{ mt_skip_name((char[160]){ 0 }, 160, #f, (why)), (why) ? mt_skipped : (f), NULL, NULL, \
	  NULL }

/* A timing test: skipped when MEMTOP_SKIP_TIMING says so. */
#define MT_TIMING_TEST(f) MT_SKIP_IF(mt_timing_skip(), f)

#endif
