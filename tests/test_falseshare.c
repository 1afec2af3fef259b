/* Unit tests of falseshare: the counters sum exactly to threads x rounds for
 * every thread count and layout (more threads than CPUs included), bad
 * arguments are refused, the worker streams its table and sweep, and a
 * cancel stops the counting threads promptly. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testlib.h"

#include <string.h>
#include <time.h>

#include "falseshare/falseshare.h"
#include "os/clock.h"
#include "run/job.h"
#include "testjob.h"
#include "os/sysinfo.h"

/* A cancel ends a run of minutes within this on any healthy machine. */
#define CANCEL_BOUND_NS 5000000000ull

static void sums_exact(void **state)
{
	static const unsigned threads[] = { 1, 2, 3, 4, 8 };
	static const unsigned spacing[] = { 8, 64, 128 };
	int cpus[256];
	int ncpus = mt_allowed_cpus(cpus, 256);
	mt_error e;
	(void)state;
	for (size_t t = 0; t < MT_ARRAY_LEN(threads); t++)
		for (size_t s = 0; s < MT_ARRAY_LEN(spacing); s++) {
			const struct falseshare_race_params p = { threads[t], spacing[s], 100003,
								  cpus, ncpus, NULL };
			struct falseshare_race_out o;
			assert_int_equal(falseshare_race(&p, &o, &e), 0);
			assert_int_equal(o.cancelled, 0);
			assert_int_equal(o.sum, (uint64_t)threads[t] * 100003);
			assert_true(o.ms > 0);
		}
}

static void unpinned_and_bad_args(void **state)
{
	struct falseshare_race_params p = { 2, 8, 1000, NULL, 0, NULL };
	struct falseshare_race_out o;
	mt_error e;
	(void)state;
	assert_int_equal(falseshare_race(&p, &o, &e), 0);
	assert_int_equal(o.sum, 2000);
	p.threads = 0;
	assert_int_equal(falseshare_race(&p, &o, &e), -1);
	p.threads = 2;
	p.spacing = 12;
	assert_int_equal(falseshare_race(&p, &o, &e), -1);
	p.threads = FALSESHARE_MAX_T + 1;
	p.spacing = 8;
	assert_int_equal(falseshare_race(&p, &o, &e), -1);
}

/* What the worker streamed: table and sweep cells, the inexact ones. */
struct streamed {
	int ncpus, table, sweep, inexact;
};

/* One cell: a table cell's spacing is 8 or 128 bytes by its column, and it
 * says whether its threads outnumber the CPUs. */
static void stream_cell(const struct job_event *ev, void *ctx)
{
	struct streamed *s = ctx;
	struct falseshare_ev_cell x;
	assert_int_equal(JOB_PAYLOAD_GET(ev, struct falseshare_ev_cell, &x), 0);
	if (ev->subtype == FALSESHARE_CELL_TABLE) {
		s->table++;
		assert_true(x.spacing == (ev->col ? 128u : 8u));
		if ((int)x.threads > s->ncpus)
			assert_true(x.over);
		else
			assert_false(x.over);
	} else {
		s->sweep++;
	}
	s->inexact += !x.exact;
}

static void worker_streams_table_and_sweep(void **state)
{
	struct falseshare_params p;
	struct job_opts o = { -1, 0 };
	struct streamed s = { 0, 0, 0, 0 };
	mt_error e;
	job_t *job;
	int ended;
	(void)state;
	falseshare_params_default(&p, machine_this());
	assert_true(p.ncpus >= 1);
	p.rounds = 50000;
	p.tries = 2;
	MT_SET_LIST(p.threads, p.nthreads, unsigned, 1, 2, 5);
	MT_SET_LIST(p.sweep, p.nsweep, unsigned, 8, 256);
	s.ncpus = (int)p.ncpus;
	job = job_start(falseshare_worker, &p, &o, &e);
	assert_non_null(job);
	ended = test_job_cells(job, stream_cell, &s);
	{ /* the progress line counts out of the cells it will emit */
		struct job_progress pr;
		char cells[64];
		job_get_progress(job, &pr);
		job_progress_cells(&pr, cells, sizeof cells);
		assert_string_equal(cells, "8/8 cells");
	}
	assert_int_equal(job_join(job, &e), 0);
	assert_int_equal(ended, JOB_EV_DONE);
	assert_int_equal(s.table, 6);
	assert_int_equal(s.sweep, 2);
	assert_int_equal(s.inexact, 0);
}

static void cancel_stops_threads(void **state)
{
	struct falseshare_params p;
	(void)state;
	falseshare_params_default(&p, machine_this());
	p.rounds = 10000000000ull; /* minutes */
	/* the run takes minutes; a cancel ends it within seconds on any
	 * healthy machine (its 100 ms promise is timed by bench/labs) */
	assert_true(test_job_cancel_after(falseshare_worker, &p, 100) < CANCEL_BOUND_NS);
}

/* The verdict on a sweep of recorded times (spacings sw[i] took ms[i]):
 * want, or "" when it has nothing to say. */
static void verdict_is(const unsigned *sw, const double *ms, size_t n, const char *want)
{
	struct falseshare_result r;
	char line[256];
	memset(&r, 0, sizeof r);
	r.nsweep = n;
	for (size_t i = 0; i < n; i++) {
		r.sweep[i] = sw[i];
		r.swp[i].have = 1;
		r.swp[i].ms = ms[i];
	}
	assert_int_equal(falseshare_sweep_verdict(&r, line, sizeof line), want[0] != 0);
	assert_string_equal(line, want);
}

/* The verdict says what the sweep could resolve: the quick sweep's 8 and
 * 128 bound the line from both sides, the full one at a doubling. */
static void sweep_verdict_resolution(void **state)
{
	static const unsigned quick[] = { 8, 128 }, full[] = { 8, 16, 32, 64, 128, 256 };
	static const double qms[] = { 10, 3 }, fms[] = { 10, 10, 9.5, 3, 3, 3 },
			    flat[] = { 10, 10, 10, 10, 10, 10 };
	(void)state;
	verdict_is(quick, qms, 2, "sharing stops between 8 and 128 bytes apart (128 is 3.3x faster "
				  "than 8; the sweep has no spacing in between)");
	verdict_is(full, fms, 6, "sharing stops at 64 bytes apart (3.3x faster than 8)");
	verdict_is(full, flat, 6, "the sweep shows no line boundary (packed 10.0 ms is as fast as "
				  "any spacing: the threads may share a core or its cache)");
	verdict_is(quick, qms, 1, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sums_exact),
		cmocka_unit_test(unpinned_and_bad_args),
		cmocka_unit_test(worker_streams_table_and_sweep),
		cmocka_unit_test(cancel_stops_threads),
		cmocka_unit_test(sweep_verdict_resolution),
	};
	return cmocka_run_group_tests_name("falseshare", tests, NULL, NULL);
}
