/* The latency history (issue 46 item 3): where memtop keeps the last runs
 * of this machine (a temporary HOME here, never the user's), what it keeps
 * of each, how a run is held against the last ones (levels that differ,
 * with the conditions of both; a level found in one run of three, with its
 * doubt), and a file that is not a history. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "latency/latency_history.h"

#define KB 1024ull
#define MB (1024ull * 1024ull)

static char home[256];

/* A run of key with levels sizes[0..n) (ns 1, 4, 14, ...), load and CPUs. */
static void make_run(struct latency_history_run *r, const char *key, const char *date,
		     const uint64_t *sizes, size_t n, double load, int cpu0, int cpu1)
{
	static const double ns[] = { 1.2, 4.1, 13.5, 40 };
	memset(r, 0, sizeof *r);
	mt_strlcpy(r->key, key, sizeof r->key);
	mt_strlcpy(r->date, date, sizeof r->date);
	for (size_t i = 0; i < n; i++) {
		r->size[i] = sizes[i];
		r->ns[i] = ns[i];
	}
	r->nlevels = n;
	r->memory_ns = 151;
	r->load_before = load;
	r->load_after = load + 0.05;
	r->steal_pct = load > 1 ? 3 : 0;
	r->cpu_first = cpu0;
	r->cpu_last = cpu1;
	r->moved = cpu0 != cpu1;
	r->npoints = 3;
	r->psize[0] = 4 * KB, r->pns[0] = 1.2;
	r->psize[1] = 512 * KB, r->pns[1] = 4.1;
	r->psize[2] = 32 * MB, r->pns[2] = 151;
}

static int setup(void **state)
{
	(void)state;
	mt_snprintf(home, sizeof home, "%s/memtop-history.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(home))
		return -1;
	setenv("HOME", home, 1);
	unsetenv("XDG_STATE_HOME");
	return 0;
}

/* The temporary HOME and what the tests made in it. */
static int teardown(void **state)
{
	static const char *const made[] = { "/.local/state/memtop/latency-history.json",
					     "/.local/state/memtop", "/.local/state", "/.local", "" };
	char p[600];
	(void)state;
	for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
		mt_snprintf(p, sizeof p, "%s%s", home, made[i]);
		if (i == 0)
			(void)unlink(p);
		else
			(void)rmdir(p);
	}
	return 0;
}

/* $XDG_STATE_HOME/memtop when it is absolute, else ~/.local/state/memtop. */
static void where_kept(void **state)
{
	char p[512], want[512];
	(void)state;
	mt_snprintf(want, sizeof want, "%s/.local/state/memtop/latency-history.json", home);
	assert_string_equal(latency_history_path(p, sizeof p), want);
	setenv("XDG_STATE_HOME", "/var/tmp/st", 1);
	assert_string_equal(latency_history_path(p, sizeof p), "/var/tmp/st/memtop/latency-history.json");
	setenv("XDG_STATE_HOME", "relative", 1); /* not absolute: ignored, as XDG says */
	assert_string_equal(latency_history_path(p, sizeof p), want);
	unsetenv("XDG_STATE_HOME");
}

/* Four runs of one key and one of another: the folder made, the last three
 * of the key kept newest first, the other key's apart; the missing file
 * is no runs. */
static void keeps_the_last_three(void **state)
{
	static const uint64_t lv[] = { 48 * KB, 1 * MB, 11 * MB };
	struct latency_history_run r;
	struct latency_history h;
	char p[512], date[32];
	mt_error e = { "" };
	(void)state;
	assert_non_null(latency_history_path(p, sizeof p));
	assert_int_equal(latency_history_load(p, "k", &h, &e), 0);
	assert_int_equal(h.n, 0);
	for (int i = 0; i < 4; i++) {
		mt_snprintf(date, sizeof date, "2026-12-0%d 10:00", i + 1);
		make_run(&r, "k", date, lv, 3, 0.05 * i, 1, 1);
		assert_int_equal(latency_history_save(p, &r, &e), 0);
	}
	make_run(&r, "other", "2026-12-09 10:00", lv, 2, 0, 0, 0);
	assert_int_equal(latency_history_save(p, &r, &e), 0);
	assert_int_equal(latency_history_load(p, "k", &h, &e), 0);
	assert_int_equal(h.n, 3);
	assert_string_equal(h.run[0].date, "2026-12-04 10:00");
	assert_string_equal(h.run[2].date, "2026-12-02 10:00");
	assert_int_equal(h.run[0].nlevels, 3);
	assert_int_equal(h.run[0].size[2], 11 * MB);
	assert_true(fabs(h.run[0].load_before - 0.15) < 1e-9);
	assert_int_equal(h.run[0].npoints, 3);
	assert_int_equal(latency_history_load(p, "other", &h, &e), 0);
	assert_int_equal(h.n, 1);
	assert_int_equal(h.run[0].nlevels, 2);
}

/* A run under load that read L2 576K and L3 5.5M where the quiet one read
 * 1M and 11M: said level by level, with both runs' conditions; the same
 * levels a step apart (960K, 1M) are no difference; a level more is new. */
static void levels_that_differ(void **state)
{
	static const uint64_t quiet[] = { 48 * KB, 1 * MB, 11 * MB };
	static const uint64_t busy[] = { 36 * KB, 576 * KB, 5632 * KB };
	static const uint64_t step[] = { 48 * KB, 960 * KB, 10 * MB };
	static const uint64_t more[] = { 48 * KB, 1 * MB, 11 * MB, 9 * MB * 4 };
	struct latency_history_run a, b;
	char buf[400], c[160];
	(void)state;
	make_run(&a, "k", "2026-12-05 10:00", quiet, 3, 0.05, 1, 1);
	make_run(&b, "k", "2026-12-05 10:05", busy, 3, 1.05, 1, 0);
	assert_int_equal(latency_history_differs(&a, &b, buf, sizeof buf), 1);
	assert_string_equal(buf, "L2 1M -> 576K, L3 11M -> 5632K");
	assert_string_equal(latency_history_conditions(&b, c, sizeof c),
			    "load 1.05..1.10, steal 3.0 %, moved from CPU 1 to 0");
	assert_string_equal(latency_history_conditions(&a, c, sizeof c),
			    "load 0.05..0.10, steal 0.0 %, on CPU 1");
	make_run(&b, "k", "2026-12-05 10:10", step, 3, 0.05, 1, 1);
	assert_int_equal(latency_history_differs(&a, &b, buf, sizeof buf), 0);
	make_run(&b, "k", "2026-12-05 10:15", more, 4, 0.05, 1, 1);
	assert_int_equal(latency_history_differs(&a, &b, buf, sizeof buf), 1);
	assert_string_equal(buf, "L4 36M new");
}

/* A phantom "L4 9M" found in one run of three (the other two without it):
 * marked 1 of 3; the levels all three found, 3 of 3; no history, no mark. */
static void one_run_of_three(void **state)
{
	static const uint64_t quiet[] = { 48 * KB, 1 * MB, 11 * MB };
	struct latency_history h;
	struct latency_levels lv;
	(void)state;
	memset(&h, 0, sizeof h);
	make_run(&h.run[0], "k", "2026-12-05 10:05", quiet, 3, 0.05, 1, 1);
	make_run(&h.run[1], "k", "2026-12-05 10:00", quiet, 3, 0.05, 1, 1);
	h.n = 2;
	memset(&lv, 0, sizeof lv);
	lv.n = 4;
	lv.lv[0].size = 48 * KB;
	lv.lv[1].size = 1 * MB;
	lv.lv[2].size = 5632 * KB; /* 5.5M: not the 11M (2x) */
	lv.lv[3].size = 9 * MB * 4;
	latency_history_mark(&h, &lv);
	assert_int_equal(lv.lv[0].runs, 3);
	assert_int_equal(lv.lv[0].seen, 3);
	assert_int_equal(lv.lv[1].seen, 3);
	assert_int_equal(lv.lv[2].seen, 1);
	assert_int_equal(lv.lv[3].seen, 1);
	h.n = 0;
	lv.lv[2].runs = lv.lv[2].seen = 0;
	latency_history_mark(&h, &lv);
	assert_int_equal(lv.lv[2].runs, 0);
}

/* The last run's curve at this run's sizes (NAN where it has none); a file
 * that is no history: -1 naming it, and a save replaces it. */
static void curve_and_bad_file(void **state)
{
	static const uint64_t lv[] = { 48 * KB, 1 * MB };
	const uint64_t sizes[] = { 4 * KB, 8 * KB, 32 * MB };
	struct latency_history_run r;
	struct latency_history h;
	double ns[3];
	char p[512];
	FILE *f;
	mt_error e = { "" };
	(void)state;
	make_run(&r, "k", "2026-12-05 10:00", lv, 2, 0, 1, 1);
	assert_int_equal(latency_history_curve(&r, sizes, 3, ns), 2);
	assert_true(ns[0] == 1.2 && isnan(ns[1]) && ns[2] == 151);
	assert_non_null(latency_history_path(p, sizeof p));
	assert_non_null(f = fopen(p, "w"));
	fputs("{\"runs\":[]}\n", f);
	fclose(f);
	assert_int_equal(latency_history_load(p, "k", &h, &e), -1);
	assert_non_null(strstr(e.msg, "not a memtop latency history"));
	assert_int_equal(latency_history_save(p, &r, &e), 0);
	assert_int_equal(latency_history_load(p, "k", &h, &e), 0);
	assert_int_equal(h.n, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(where_kept),
		cmocka_unit_test(keeps_the_last_three),
		cmocka_unit_test(levels_that_differ),
		cmocka_unit_test(one_run_of_three),
		cmocka_unit_test(curve_and_bad_file),
	};
	return cmocka_run_group_tests_name("history", tests, setup, teardown);
}
