/* Unit tests of lists: every layout is the same list (1 2 ... n); the line
 * changes are exact (sequential n/4 at 64-byte lines, stride exactly n,
 * shuffled above 0.9 n); the simulator replay gives the exact cold and
 * capacity counts; the graph homework's two versions agree; the worker
 * streams one result per length and layout. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testlib.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run/job.h"
#include "testjob.h"
#include "lists/lists.h"
#include "sim/sim.h"
#include "sim/trace.h"

#include <unistd.h>

static void every_layout_is_one_to_n(void **state)
{
	static const size_t ns[] = { 0, 1, 2, 7, 8, 9, 4096, 10007 };
	mt_error e;
	(void)state;
	for (int lay = 0; lay < LIST_NLAYOUTS; lay++)
		for (size_t t = 0; t < MT_ARRAY_LEN(ns); t++) {
			struct list l;
			uint64_t n = ns[t];
			assert_int_equal(list_build(&l, lay, ns[t], 7, NULL, &e), 0);
			if (list_check(&l, &e) != 0)
				fail_msg("%s", e.msg);
			assert_int_equal(list_walk(&l, 0), n * (n + 1) / 2);
			list_free(&l);
		}
}

static void names(void **state)
{
	(void)state;
	for (int lay = 0; lay < LIST_NLAYOUTS; lay++)
		assert_int_equal(list_layout_parse(list_layout_name(lay)), lay);
	assert_int_equal(list_layout_parse("array"), -1);
	assert_null(list_layout_name(LIST_NLAYOUTS));
}

static void line_changes_exact(void **state)
{
	const size_t n = 4096;
	struct list l;
	mt_error e;
	(void)state;
	assert_int_equal(list_build(&l, LIST_SEQUENTIAL, n, 1, NULL, &e), 0);
	assert_int_equal(list_line_changes(&l, 64), n / 4);
	assert_int_equal(list_line_changes(&l, 128), n / 8);
	list_free(&l);
	assert_int_equal(list_build(&l, LIST_STRIDE, n, 1, NULL, &e), 0);
	assert_int_equal(list_line_changes(&l, 64), n);
	assert_int_equal(list_line_changes(&l, 128), n);
	list_free(&l);
	assert_int_equal(list_build(&l, LIST_SHUFFLED, n, 7, NULL, &e), 0);
	assert_true(list_line_changes(&l, 64) > n * 9 / 10);
	assert_true(list_line_changes(&l, 128) > n * 9 / 10);
	list_free(&l);
	assert_int_equal(list_build(&l, LIST_CDR, n, 1, NULL, &e), 0);
	assert_int_equal(list_line_changes(&l, 64), n / 8);
	assert_int_equal(list_line_changes(&l, 128), n / 16);
	list_free(&l);
	/* malloc and holes depend on the allocator (glibc interleaves cells
	 * with the noise; ASan's allocator keeps size classes apart): only
	 * bounds hold everywhere */
	for (int lay = LIST_MALLOC; lay <= LIST_HOLES; lay++) {
		uint64_t c64, c128;
		assert_int_equal(list_build(&l, lay, n, 7, NULL, &e), 0);
		c64 = list_line_changes(&l, 64);
		c128 = list_line_changes(&l, 128);
		assert_true(c64 >= n / 4 && c64 <= n);
		assert_true(c128 >= n / 8 && c128 <= c64);
		list_free(&l);
	}
}

static void simulator_replay(void **state)
{
	struct list l;
	uint64_t m;
	mt_error e;
	(void)state;
	/* 4096 cells = 64 KB: fits the 128 KB cache, only cold misses, one per
	 * 128-byte line whatever the order */
	for (int lay = LIST_SEQUENTIAL; lay <= LIST_SHUFFLED; lay++) {
		assert_int_equal(list_build(&l, lay, 4096, 3, NULL, &e), 0);
		assert_int_equal(list_simulate(&l, 7, 8, 7, &m, &e), 0);
		assert_int_equal(m, 4096 / 8);
		list_free(&l);
	}
	/* 65536 cells = 1 MB in eight passes of 128-byte steps: every load of a
	 * new cell misses */
	assert_int_equal(list_build(&l, LIST_STRIDE, 65536, 3, NULL, &e), 0);
	assert_int_equal(list_simulate(&l, 7, 8, 7, &m, &e), 0);
	assert_int_equal(m, 65536);
	assert_int_equal(list_simulate(&l, 7, 0, 7, &m, &e), -1);
	list_free(&l);
}

static void graph_versions_agree(void **state)
{
	static const size_t ns[] = { 1, 2, 5, 64, 100, 257 };
	static const size_t bs[] = { 1, 8, 64, 300 };
	(void)state;
	for (size_t t = 0; t < MT_ARRAY_LEN(ns); t++)
		for (size_t k = 0; k < MT_ARRAY_LEN(bs); k++) {
			size_t n = ns[t];
			uint8_t *g0 = malloc(n * n), *a = malloc(n * n), *b = malloc(n * n);
			assert_non_null(g0);
			assert_non_null(a);
			assert_non_null(b);
			graph_fill(g0, n, 11 + t);
			memcpy(a, g0, n * n);
			memcpy(b, g0, n * n);
			graph_symmetrize_naive(a, n);
			graph_symmetrize_blocked(b, n, bs[k]);
			assert_memory_equal(a, b, n * n);
			for (size_t i = 0; i < n; i++)
				for (size_t j = 0; j < n; j++)
					assert_int_equal(a[i * n + j], g0[i * n + j] | g0[j * n + i]);
			free(g0);
			free(a);
			free(b);
		}
}

/* What the worker streamed: results, work lines, distance modes. */
struct streamed {
	int results, work, modes;
};

/* One cell: the distances come for malloc and holes only; a result has a
 * figure, the stride list one cache line a cell. */
static void stream_cell(const struct job_event *ev, void *ctx)
{
	struct streamed *c = ctx;
	struct lists_ev_result x;
	if (ev->subtype == LISTS_CELL_WORK) {
		c->work++;
		return;
	}
	if (ev->subtype == LISTS_CELL_HIST || ev->subtype == LISTS_CELL_MODE) {
		/* the distances: malloc and holes only */
		assert_true(ev->col == LIST_MALLOC || ev->col == LIST_HOLES);
		c->modes += ev->subtype == LISTS_CELL_MODE;
		return;
	}
	assert_int_equal(ev->subtype, LISTS_CELL_RESULT);
	assert_int_equal(JOB_PAYLOAD_GET(ev, struct lists_ev_result, &x), 0);
	c->results++;
	assert_true(ev->value > 0 && x.bare_cyc > 0);
	assert_true(isfinite(x.sim));
	if (ev->col == LIST_STRIDE)
		assert_true(x.lines64 == 1.0);
}

static void worker_streams_results(void **state)
{
	struct lists_params p;
	struct job_opts o = { -1, 0 };
	struct streamed c = { 0, 0, 0 };
	mt_error e;
	job_t *job;
	int ended;
	(void)state;
	lists_params_default(&p);
	MT_SET_LIST(p.lengths, p.nlengths, size_t, 1000, 5000);
	p.tries = 1;
	p.work = 4;
	job = job_start(lists_worker, &p, &o, &e);
	assert_non_null(job);
	ended = test_job_cells(job, stream_cell, &c);
	assert_int_equal(job_join(job, &e), 0);
	assert_int_equal(ended, JOB_EV_DONE);
	assert_int_equal(c.work, 1);
	assert_int_equal(c.results, 2 * LIST_NLAYOUTS);
	assert_int_equal(c.modes, 2 * 2); /* malloc and holes at each length */
}

/* The neighbour distances: signed power-of-two bins; the sequential list's
 * cells are all 16 bytes apart, the stride list's mostly 128. */
static void neighbour_distances(void **state)
{
	struct lists_hist h;
	struct list l;
	int64_t lo, hi;
	mt_error e;
	(void)state;
	assert_int_equal(lists_hist_bin(16), LISTS_HIST_POW + 4);
	assert_int_equal(lists_hist_bin(31), LISTS_HIST_POW + 4);
	assert_int_equal(lists_hist_bin(-16), 4);
	assert_int_equal(lists_hist_bin(0), LISTS_HIST_POW);
	assert_int_equal(lists_hist_bin(65536), LISTS_HIST_POW + 16);
	assert_int_equal(lists_hist_bin(INT64_MIN), LISTS_HIST_POW - 1);
	lists_hist_bounds(LISTS_HIST_POW + 16, &lo, &hi);
	assert_true(lo == 65536 && hi == 131072);
	lists_hist_bounds(4, &lo, &hi);
	assert_true(lo == -32 && hi == -16);
	assert_int_equal(list_build(&l, LIST_SEQUENTIAL, 1000, 1, NULL, &e), 0);
	assert_int_equal(list_neighbours(&l, &h, &e), 0);
	assert_true(h.have);
	assert_int_equal(h.total, 999);
	assert_int_equal(h.count[LISTS_HIST_POW + 4], 999);
	assert_int_equal(h.mode, 16);
	assert_int_equal(h.mode_count, 999);
	list_free(&l);
	assert_int_equal(list_build(&l, LIST_STRIDE, 800, 1, NULL, &e), 0);
	assert_int_equal(list_neighbours(&l, &h, &e), 0);
	assert_int_equal(h.mode, 128);
	assert_int_equal(h.mode_count, 800 - 8); /* the 7 jumps back to the next column */
	list_free(&l);
	assert_int_equal(list_build(&l, LIST_CDR, 100, 1, NULL, &e), 0);
	assert_int_equal(list_neighbours(&l, &h, &e), 0);
	assert_false(h.have); /* no cells to measure */
	list_free(&l);
}

/* CHK-7: the walk's trace as a file gives what the in-process replay
 * gives, load for load. */
static void written_trace_replays(void **state)
{
	char dir[] = "/tmp/memtop-lt.XXXXXX", path[128];
	mt_error e;
	(void)state;
	assert_non_null(mkdtemp(dir));
	mt_snprintf(path, sizeof path, "%s/w.trace", dir);
	for (int lay = 0; lay < LIST_NLAYOUTS; lay++) {
		struct trace_rec rec[256];
		struct trace_reader *r;
		struct sim_cache *c = sim_new(7, 8, 7, &e);
		struct sim_stats st;
		struct list l;
		uint64_t want;
		long k;
		assert_int_equal(list_build(&l, lay, 5000, 3, NULL, &e), 0);
		assert_int_equal(list_write_trace(&l, path, &e), 0);
		assert_int_equal(list_simulate(&l, 7, 8, 7, &want, &e), 0);
		assert_non_null(r = trace_open(path, &e));
		while ((k = trace_read(r, rec, 256, &e)) > 0)
			for (long i = 0; i < k; i++) {
				assert_int_equal(rec[i].op, 'L');
				assert_int_equal(rec[i].size, 8);
				sim_access(c, rec[i].addr, 0);
			}
		assert_int_equal(k, 0);
		trace_close(r);
		sim_stats(c, &st);
		assert_int_equal(st.misses, want);
		assert_true(st.accesses >= 5000);
		sim_free(c);
		list_free(&l);
	}
	unlink(path);
	rmdir(dir);
}

/* Much work a cell (a knob the Lists tab takes): the work alone and the
 * walks go in chunks of a few ms whatever the work, so a cancel is seen
 * at once. With 2^20 multiply-adds a cell one try of the work alone was
 * minutes long, and x or q waited for it (the soak met a 4096 one taking
 * over 5 s under ASan). */
static void cancel_with_heavy_work(void **state)
{
	static struct lists_params p;
	(void)state;
	lists_params_default(&p);
	p.nlengths = 1;
	p.lengths[0] = 4096;
	p.work = 1u << 20;
	assert_true(test_job_cancel_after(lists_worker, &p, 200) < 5000000000ull);
}

/* What a cancelled job stops, seen from inside its worker (which cancels
 * its own job first): each build and visit of a list stops at its first
 * look, after exactly LIST_LOOK_CELLS cells, and says so. */
struct looks {
	int build_shuffled, build_malloc, check, cancelled, have;
	void *arena, **blocks;
	size_t loads_cells, loads_cdr;
};

static void count_load(uint64_t addr, void *ctx)
{
	(void)addr;
	(*(size_t *)ctx)++;
}

static int looks_worker(job_t *job, void *arg, mt_error *e)
{
	struct looks *k = arg;
	const size_t n = 4 * LIST_LOOK_CELLS + 5;
	struct list l;
	struct lists_hist h;
	job_cancel(job);
	k->build_shuffled = list_build(&l, LIST_SHUFFLED, n, 7, job, e);
	k->arena = l.arena;
	k->build_malloc = list_build(&l, LIST_MALLOC, n, 7, job, e);
	k->blocks = l.blocks;
	if (list_build(&l, LIST_SHUFFLED, n, 7, NULL, e) < 0)
		return -1;
	l.job = job;
	k->check = list_check(&l, e);
	k->cancelled = list_cancelled(&l);
	list_trace(&l, count_load, &k->loads_cells);
	k->have = list_neighbours(&l, &h, e) == 0 ? h.have : -1;
	list_free(&l);
	if (list_build(&l, LIST_CDR, n, 7, NULL, e) < 0)
		return -1;
	l.job = job;
	list_trace(&l, count_load, &k->loads_cdr);
	list_free(&l);
	return 0;
}

static void cancelled_builds_and_visits_stop_at_a_look(void **state)
{
	static struct looks k;
	struct job_opts o = { -1, 0 };
	mt_error e;
	job_t *job;
	(void)state;
	memset(&k, 0xff, sizeof k);
	k.loads_cells = k.loads_cdr = 0;
	job = job_start(looks_worker, &k, &o, &e);
	assert_non_null(job);
	assert_int_equal(job_join(job, &e), 1);
	assert_int_equal(k.build_shuffled, 1); /* cancelled, and nothing kept */
	assert_null(k.arena);
	assert_int_equal(k.build_malloc, 1);
	assert_null(k.blocks);
	assert_int_equal(k.check, 1); /* not "elements missing": cancelled */
	assert_int_equal(k.cancelled, 1);
	assert_int_equal(k.loads_cells, 2 * LIST_LOOK_CELLS); /* value and next a cell */
	assert_int_equal(k.loads_cdr, LIST_LOOK_CELLS);
	assert_int_equal(k.have, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_layout_is_one_to_n),
		cmocka_unit_test(names),
		cmocka_unit_test(line_changes_exact),
		cmocka_unit_test(simulator_replay),
		cmocka_unit_test(graph_versions_agree),
		cmocka_unit_test(worker_streams_results),
		cmocka_unit_test(neighbour_distances),
		cmocka_unit_test(written_trace_replays),
		cmocka_unit_test(cancel_with_heavy_work),
		cmocka_unit_test(cancelled_builds_and_visits_stop_at_a_look),
	};
	return cmocka_run_group_tests_name("lists", tests, NULL, NULL);
}
