/* Unit tests of the mountain: the read pass sums exactly the words it should
 * (the seed's test), the grid tables, the memory fit, and one real quick
 * mountain through the job API with robust relations only. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testlib.h"
#include "testjob.h"

#include <math.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "machine/machine.h"
#include "mountain/mountain.h"
#include "os/clock.h"

static void read_pass_sums_the_right_words(void **state)
{
	int64_t data[10];
	int64_t big[1000];
	(void)state;
	for (int i = 0; i < 10; i++)
		data[i] = i + 1;
	assert_int_equal(mountain_read_pass(data, 10, 1), 55);
	/* indices 0, 3, 6, 9: values 1, 4, 7, 10 */
	assert_int_equal(mountain_read_pass(data, 10, 3), 22);
	assert_int_equal(mountain_read_pass(data, 10, 20), 1);
	/* the four-accumulator body and the tail together: 1000 words at
	 * stride 7 visit 0, 7, ..., 994 (143 words) */
	for (int i = 0; i < 1000; i++)
		big[i] = i;
	assert_int_equal(mountain_read_pass(big, 1000, 7), 7 * (142 * 143 / 2));
	/* wrap-around adds: no trap, exact modulo 2^64 */
	big[0] = INT64_MAX;
	big[1] = 1;
	assert_int_equal((uint64_t)mountain_read_pass(big, 2, 1), (uint64_t)INT64_MAX + 1);
}

static void default_and_quick_grids(void **state)
{
	struct mountain_params p;
	(void)state;
	mountain_params_default(&p);
	assert_int_equal(p.nsizes, 14);
	assert_int_equal(p.sizes[0], 16384);
	assert_int_equal(p.sizes[13], 128u << 20);
	assert_int_equal(p.nstrides, 15);
	assert_int_equal(p.strides[0], 1);
	assert_int_equal(p.strides[14], 15);
	mountain_params_quick(&p);
	assert_int_equal(p.nsizes, 10);
	assert_int_equal(p.sizes[9], 8u << 20);
	assert_int_equal(p.nstrides, 4);
	assert_int_equal(p.strides[3], 8);
	assert_int_equal(p.kbest, 3);
	assert_true(p.try_ns < p.cell_ns && p.cell_ns < p.cell_max_ns);
	mountain_params_seed(&p);
	assert_int_equal(p.fixed_accesses, 1u << 23);
	assert_int_equal(p.min_tries, 5);
	assert_int_equal(p.max_tries, 5);
}

static void bad_grids_are_refused(void **state)
{
	struct mountain_params p;
	mt_error e;
	(void)state;
	mountain_params_default(&p);
	assert_int_equal(mountain_params_set_sizes(&p, 1024, 1u << 20, &e), -1);
	assert_non_null(strstr(e.msg, "--sizes"));
	assert_int_equal(mountain_params_set_sizes(&p, 1u << 20, 1u << 16, &e), -1);
	assert_int_equal(mountain_params_set_max_stride(&p, 0, &e), -1);
	assert_int_equal(mountain_params_set_max_stride(&p, 65, &e), -1);
	assert_int_equal(mountain_params_set_sizes(&p, 32768, 262144, &e), 0);
	assert_int_equal(p.nsizes, 4);
}

static void grid_shrinks_to_memory(void **state)
{
	struct mountain_params p;
	struct machine_budget b;
	char note[400];
	mt_error e;
	(void)state;
	mountain_params_default(&p);
	/* 100 MB available: half of it holds 32M at most */
	MT_BUDGET(b, 100u << 20, 0);
	assert_int_equal(mountain_params_fit_memory(&p, &b, note, sizeof note, &e), 0);
	assert_int_equal(p.nsizes, 12);
	assert_int_equal(p.sizes[p.nsizes - 1], 32u << 20);
	assert_string_equal(note, "100M of memory available: the grid capped at 32M, its largest "
				  "size would be 128M");
	/* a job's cgroup of 256M, 200M left to a run: 64M */
	mountain_params_default(&p);
	MT_BUDGET(b, 200u << 20, 256u << 20);
	assert_int_equal(mountain_params_fit_memory(&p, &b, note, sizeof note, &e), 0);
	assert_int_equal(p.sizes[p.nsizes - 1], 64u << 20);
	assert_string_equal(note, "this job may use 256M (its cgroup): the grid capped at 64M, its "
				  "largest size would be 128M");
	/* plenty: untouched, no note */
	mountain_params_default(&p);
	MT_BUDGET(b, 64ull << 30, 0);
	assert_int_equal(mountain_params_fit_memory(&p, &b, note, sizeof note, &e), 0);
	assert_int_equal(p.nsizes, 14);
	assert_string_equal(note, "");
	/* not even 16K */
	MT_BUDGET(b, 20000, 0);
	assert_int_equal(mountain_params_fit_memory(&p, &b, note, sizeof note, &e), -1);
	assert_non_null(strstr(e.msg, "not enough memory"));
}

static void apply_checks_bounds(void **state)
{
	uint64_t sizes[] = { 16384, 32768 };
	unsigned strides[] = { 1, 8 };
	struct mountain *m = mountain_new(sizes, 2, strides, 2);
	struct job_event ev;
	(void)state;
	assert_non_null(m);
	assert_int_equal(mountain_measured(m), 0);
	job_cell(&ev, 0, 1, 1, 1234.5, 0);
	assert_int_equal(mountain_apply(m, &ev), -1); /* without its payload */
	JOB_PAYLOAD_PUT(&ev, struct mountain_ev_cell, &((struct mountain_ev_cell){ .tries = 3 }));
	assert_int_equal(mountain_apply(m, &ev), 0);
	assert_true(mountain_at(m, 1, 1) == 1234.5);
	assert_true(isnan(mountain_at(m, 0, 0)));
	assert_int_equal(mountain_measured(m), 1);
	ev.row = 2;
	assert_int_equal(mountain_apply(m, &ev), -1);
	assert_int_equal(mountain_stride_index(m, 8), 1);
	assert_int_equal(mountain_stride_index(m, 3), -1);
	assert_int_equal(mountain_size_index(m, 32768), 1);
	mountain_free(m);
}

/* The quick mountain measured below, for the timing relation after it. */
static struct mountain *quick;

/* What real_quick_mountain's cells fill: the mountain, each cell's count. */
struct quick_cells {
	struct mountain *m;
	int count[16][4];
};

/* One cell of the quick mountain, or a second look at one. */
static void quick_cell(const struct job_event *ev, void *ctx)
{
	struct quick_cells *q = ctx;
	struct mountain_ev_cell x;
	if (ev->type == JOB_EV_CELL) {
		assert_int_equal(mountain_apply(q->m, ev), 0);
		q->count[ev->row][ev->col]++;
		assert_int_equal(JOB_PAYLOAD_GET(ev, struct mountain_ev_cell, &x), 0);
		assert_true(x.tries >= 3); /* tries: at least min_tries */
		assert_true(ev->spread >= 0);
		/* the median try is never faster than the fastest */
		assert_true(x.typical_mbs > 0 && x.typical_mbs <= ev->value);
	} else {
		/* a second look replaces a cell already sent */
		assert_int_equal(q->count[ev->row][ev->col], 1);
		assert_int_equal(mountain_apply(q->m, ev), 0);
		assert_int_equal(JOB_PAYLOAD_GET(ev, struct mountain_ev_cell, &x), 0);
		assert_true(x.twice == 1);
	}
}

/* A real quick mountain: every cell arrives once, finite and positive. */
static void real_quick_mountain(void **state)
{
	struct mountain_params p;
	struct job_opts o = { -1, 0 };
	job_t *job;
	struct quick_cells q;
	mt_error e;
	(void)state;
	mountain_params_quick(&p);
	memset(&q, 0, sizeof q);
	q.m = mountain_new(p.sizes, p.nsizes, p.strides, p.nstrides);
	assert_non_null(q.m);
	job = job_start(mountain_worker, &p, &o, &e);
	assert_non_null(job);
	assert_int_equal(test_job_events(job, 1, quick_cell, &q), JOB_EV_DONE);
	assert_int_equal(job_join(job, &e), 0);
	for (size_t r = 0; r < q.m->nsizes; r++)
		for (size_t c = 0; c < q.m->nstrides; c++) {
			double v = mountain_at(q.m, r, c);
			assert_int_equal(q.count[r][c], 1);
			assert_true(isfinite(v) && v > 0);
		}
	quick = q.m;
}

/* On that mountain, the top (smallest size, stride 1) reads at least twice
 * as fast as its foot (largest size, stride 8): a timing relation. */
static void top_twice_as_fast_as_foot(void **state)
{
	const struct mountain *m = quick;
	(void)state;
	assert_non_null(m);
	assert_true(mountain_at(m, 0, 0) >= 2 * mountain_at(m, m->nsizes - 1, m->nstrides - 1));
}

/* A cell that runs out of time (its fastest tries never agree: tolerance
 * 0; its time up at once: 1 ns) ends with kbest + 1 tries, not kbest: the
 * best of 4 has one try to drop, as a memory row's cell of 10-20 ms passes
 * needs; every cell of a row after its first has no warm-up, so its first
 * try is timed too. A second look (every such cell is doubtful) adds as
 * many again. */
/* What cell_out_of_time_keeps_a_try_more counts: the tries a cell is
 * owed (kbest + 1), the cells. */
struct out_of_time {
	int tries, cells;
};

/* A cell's tries, or twice as many on its second look. */
static void out_of_time_cell(const struct job_event *ev, void *ctx)
{
	struct out_of_time *t = ctx;
	struct mountain_ev_cell x;
	assert_int_equal(JOB_PAYLOAD_GET(ev, struct mountain_ev_cell, &x), 0);
	assert_int_equal(x.tries, ev->type == JOB_EV_CELL ? t->tries : 2 * t->tries);
	t->cells += ev->type == JOB_EV_CELL;
}

static void cell_out_of_time_keeps_a_try_more(void **state)
{
	struct mountain_params p;
	struct job_opts o = { -1, 0 };
	struct out_of_time t = { 0, 0 };
	job_t *job;
	mt_error e;
	(void)state;
	mountain_params_quick(&p);
	assert_int_equal(mountain_params_set_sizes(&p, 16u << 10, 64u << 10, &e), 0);
	p.nstrides = 2;
	p.tolerance = 0;
	p.cell_ns = p.cell_max_ns = 1;
	t.tries = p.kbest + 1;
	job = job_start(mountain_worker, &p, &o, &e);
	assert_non_null(job);
	test_job_events(job, 1, out_of_time_cell, &t);
	assert_int_equal(job_join(job, &e), 0);
	assert_int_equal(t.cells, 3 * 2);
}

/* Time from the call to the worker's last event. */
static uint64_t ns_until_end(job_t *job, int want)
{
	uint64_t t0 = mt_now_ns();
	struct job_event ev;
	for (;;) {
		struct pollfd pf = { job_fd(job), POLLIN, 0 };
		poll(&pf, 1, 1000);
		while (job_take(job, &ev, 1) == 1)
			if (ev.type == JOB_EV_DONE || ev.type == JOB_EV_CANCELLED ||
			    ev.type == JOB_EV_FAILED) {
				assert_int_equal(ev.type, want);
				return mt_now_ns() - t0;
			}
	}
}

/* Pause and cancel in the middle of a big row: the worker holds with no
 * cell finished while held, and ends cancelled before its last cell. Their
 * 100 ms promise (the worker checks between 8 MB chunks of a pass) is timed
 * by bench/stops; here each step waits for its event, HANG_NS only
 * guarding against a hang (a 2 s bound was a window a busy machine need
 * not give). */
#define HANG_NS 60000000000ull
static void pause_and_cancel_in_a_big_row(void **state)
{
	static struct mountain_params p; /* outlives the job */
	struct job_opts o = { -1, 0 };
	job_t *job;
	struct job_progress a, b;
	mt_error e;
	uint64_t ns;
	(void)state;
	mountain_params_default(&p);
	mountain_params_set_sizes(&p, 64u << 20, 128u << 20, NULL);
	/* 30 big cells of 9 tries each: seconds of work, so the job is
	 * surely still running when it is paused and cancelled below */
	p.min_tries = p.max_tries = 9;
	p.tolerance = 0;
	p.cell_max_ns = 1e12; /* all 9 tries, however long */
	job = job_start(mountain_worker, &p, &o, &e);
	assert_non_null(job);
	usleep(300000); /* inside the 64M row (touching, then measuring) */
	job_pause(job);
	ns = mt_now_ns();
	for (;;) { /* sleeping, not spinning: the worker needs the other CPU */
		job_get_progress(job, &a);
		if (a.holding || mt_now_ns() - ns > HANG_NS)
			break;
		usleep(1000);
	}
	print_message("# pause took %.1f ms\n", (double)(mt_now_ns() - ns) / 1e6);
	assert_true(a.holding);
	usleep(200000);
	job_get_progress(job, &b);
	assert_true(b.holding && a.cells_done == b.cells_done); /* held */
	job_resume(job);
	usleep(50000);
	job_cancel(job);
	ns = ns_until_end(job, JOB_EV_CANCELLED);
	job_get_progress(job, &b);
	assert_int_equal(job_join(job, &e), 1);
	print_message("# cancel took %.1f ms\n", (double)ns / 1e6);
	assert_true(b.cells_done < p.nsizes * p.nstrides); /* it stopped short */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(read_pass_sums_the_right_words),
		cmocka_unit_test(default_and_quick_grids),
		cmocka_unit_test(bad_grids_are_refused),
		cmocka_unit_test(grid_shrinks_to_memory),
		cmocka_unit_test(apply_checks_bounds),
		cmocka_unit_test(real_quick_mountain),
		MT_TIMING_TEST(top_twice_as_fast_as_foot),
		cmocka_unit_test(pause_and_cancel_in_a_big_row),
		cmocka_unit_test(cell_out_of_time_keeps_a_try_more),
	};
	int rc = cmocka_run_group_tests_name("mountain", tests, NULL, NULL);
	mountain_free(quick);
	return rc;
}
