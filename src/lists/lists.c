/* lists: the measured walks of a built list (lists_build.c), the graph
 * homework's two symmetrize kernels, and the timing worker. See lists.h. */
#include "config.h"

#include "lists.h"
#include "base/i18n.h"
#include "os/barrier.h"
#include "os/clock.h"
#include "os/sysinfo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Walk in chunks of this many cells between job_check() calls (a 4M-cell
 * shuffled walk takes most of a second), fewer with work per cell
 * (walk_chunk): a chunk stays a few ms however much work a cell does. */
#define WALK_CHUNK (1u << 16)

/* ---- walks: the measured chains ----------------------------------------- */

#define WORK_MUL 0x9E3779B97F4A7C15ull

/* The bare chain: each next address is known only after the load. */
static MT_KERNEL const struct list_cell *
walk_cells(const struct list_cell *p, size_t max, uint64_t *sum)
{
	uint64_t s = *sum;
	while (p && max--) {
		s += p->value;
		p = p->next;
	}
	*sum = s;
	return p;
}

/* The chain with work: a dependent multiply-add chain on each value that the
 * next load does not wait for, as an interpreter's work per cell. */
static MT_KERNEL const struct list_cell *
walk_cells_work(const struct list_cell *p, size_t max, unsigned work, uint64_t *acc)
{
	uint64_t a = *acc;
	while (p && max--) {
		const uint64_t v = p->value;
		for (unsigned w = 0; w < work; w++) {
			a = a * WORK_MUL + v;
			mt_launder(a);
		}
		p = p->next;
	}
	*acc = a;
	return p;
}

static MT_KERNEL const uint64_t *
walk_cdr(const uint64_t *p, size_t max, unsigned work, uint64_t *acc)
{
	uint64_t a = *acc;
	while (p && max--) {
		const uint64_t w = *p;
		a += w >> 2;
		for (unsigned k = 0; k < work; k++) {
			a = a * WORK_MUL + w;
			mt_launder(a);
		}
		p = list_cdr_next(p, w);
	}
	*acc = a;
	return p;
}

/* The work alone, n times, on a value in a register. */
static MT_KERNEL uint64_t work_alone(size_t n, unsigned work)
{
	uint64_t a = 1;
	for (size_t i = 0; i < n; i++) {
		uint64_t v = i;
		mt_launder(v);
		for (unsigned w = 0; w < work; w++) {
			a = a * WORK_MUL + v;
			mt_launder(a);
		}
	}
	return a;
}

/* A walk in progress: position and checksum. */
struct cursor {
	const struct list_cell *cell;
	const uint64_t *word;
	uint64_t acc;
};

static void cursor_start(struct cursor *c, const struct list *l)
{
	c->cell = l->head;
	c->word = l->cdr_head;
}

/* Advance up to max elements; returns 1 while there is more. */
static int cursor_step(struct cursor *c, const struct list *l, unsigned work, size_t max)
{
	if (l->layout == LIST_CDR) {
		c->word = walk_cdr(c->word, max, work, &c->acc);
		return c->word != NULL;
	}
	c->cell = work ? walk_cells_work(c->cell, max, work, &c->acc)
		       : walk_cells(c->cell, max, &c->acc);
	return c->cell != NULL;
}

uint64_t list_walk(const struct list *l, unsigned work)
{
	struct cursor c = { NULL, NULL, 0 };
	cursor_start(&c, l);
	while (cursor_step(&c, l, work, (size_t)-1))
		;
	return c.acc;
}

/* ---- the graph homework --------------------------------------------------- */

void graph_naive_rows(uint8_t *g, size_t n, size_t r0, size_t r1)
{
	for (size_t i = r0; i < r1; i++)
		for (size_t j = 0; j < n; j++)
			g[j * n + i] |= g[i * n + j];
}

void graph_blocked_rows(uint8_t *g, size_t n, size_t block, size_t r0, size_t r1)
{
	for (size_t bi = r0; bi < r1; bi++) {
		size_t ii = bi * block, i_end = ii + block < n ? ii + block : n;
		for (size_t jj = ii; jj < n; jj += block) {
			size_t j_end = jj + block < n ? jj + block : n;
			for (size_t i = ii; i < i_end; i++)
				for (size_t j = jj > i + 1 ? jj : i + 1; j < j_end; j++) {
					uint8_t v = g[i * n + j] | g[j * n + i];
					g[i * n + j] = v;
					g[j * n + i] = v;
				}
		}
	}
}

void graph_symmetrize_naive(uint8_t *g, size_t n)
{
	graph_naive_rows(g, n, 0, n);
}

void graph_symmetrize_blocked(uint8_t *g, size_t n, size_t block)
{
	if (block < 1)
		block = 1;
	graph_blocked_rows(g, n, block, 0, (n + block - 1) / block);
}

/* ---- the worker ----------------------------------------------------------- */

static const struct lists_params lists_defaults = {
	.lengths = { 4096, 65536, 1u << 20, 1u << 22 },
	.nlengths = 4,
	.layouts = (1u << LIST_NLAYOUTS) - 1,
	.tries = 3,
	.sim_s = 7,
	.sim_E = 8,
	.sim_b = 7,
	.seed = 2026,
	.graph_n = 4096,
	.graph_block = 64,
};

void lists_params_default(struct lists_params *p)
{
	*p = lists_defaults; /* mem_limit 0: the caller sets it from its machine's budget */
}

/* The cells a chunk walks (or works) between two looks at the job: about
 * WALK_CHUNK bare cells' worth. With 4096 multiply-adds a cell one chunk
 * of WALK_CHUNK cells took seconds (under a sanitizer, on a busy host),
 * and x or q waited for it. */
static size_t walk_chunk(unsigned work)
{
	return WALK_CHUNK / (1 + work / 8);
}

/* Cells walked per try: at least 4M (the seed's work), whole walks. */
static size_t reps_for(size_t n)
{
	size_t r = (size_t)(1u << 22) / (n ? n : 1);
	return r ? r : 1;
}

/* Best ns per element over p->tries, each try reps whole walks. Returns 0, 1
 * when cancelled. */
static int time_walk(job_t *job, const struct lists_params *p, const struct list *l,
		     unsigned work, double *best, double *second)
{
	const size_t reps = reps_for(l->n);
	struct cursor c = { NULL, NULL, 0 };
	*best = *second = INFINITY;
	cursor_start(&c, l); /* warm-up walk, not timed */
	while (cursor_step(&c, l, work, walk_chunk(work)))
		if (job_check(job) == JOB_CANCELLED)
			return 1;
	for (int t = 0; t < p->tries; t++) {
		uint64_t t0 = mt_now_ns();
		int redo = 0;
		double ns;
		for (size_t r = 0; r < reps && !redo; r++) {
			int more;
			cursor_start(&c, l);
			do {
				int chk;
				more = cursor_step(&c, l, work, walk_chunk(work));
				chk = job_check(job);
				if (chk == JOB_CANCELLED)
					return 1;
				if (chk == JOB_RESUMED)
					redo = 1;
			} while (more && !redo);
		}
		if (redo) {
			t--;
			continue;
		}
		ns = (double)(mt_now_ns() - t0) / ((double)reps * (double)l->n);
		if (ns < *best) {
			*second = *best;
			*best = ns;
		} else if (ns < *second) {
			*second = ns;
		}
	}
	mt_sink(c.acc);
	return 0;
}

static int run_graph(job_t *job, const struct lists_params *p, mt_error *e)
{
	const size_t n = p->graph_n, bs = p->graph_block ? p->graph_block : 64;
	uint8_t *g0 = malloc(n * n), *g = malloc(n * n), *gn = malloc(n * n);
	double best[2] = { INFINITY, INFINITY };
	struct job_event ev;
	int rc = 0;
	if (!g0 || !g || !gn) {
		rc = mt_fail(e, _("lists: out of memory for a %zu x %zu graph"), n, n);
		goto out;
	}
	graph_fill(g0, n, p->seed);
	for (int version = 0; version < 2; version++) {
		size_t rows = version ? (n + bs - 1) / bs : n;
		size_t chunk = version ? 1 : 16;
		for (int t = 0; t < p->tries; t++) {
			uint64_t t0;
			int redo = 0;
			memcpy(g, g0, n * n);
			t0 = mt_now_ns();
			for (size_t r = 0; r < rows && !redo; r += chunk) {
				size_t r1 = r + chunk < rows ? r + chunk : rows;
				int chk;
				if (version)
					graph_blocked_rows(g, n, bs, r, r1);
				else
					graph_naive_rows(g, n, r, r1);
				chk = job_check(job);
				if (chk == JOB_CANCELLED)
					goto out;
				redo = chk == JOB_RESUMED;
			}
			if (redo) {
				t--;
				continue;
			}
			{
				double ms = (double)(mt_now_ns() - t0) / 1e6;
				if (ms < best[version])
					best[version] = ms;
			}
			job_set_progress(job, (double)(version * p->tries + t + 1), 2.0 * p->tries);
		}
		if (version == 0)
			memcpy(gn, g, n * n);
	}
	job_cell(&ev, LISTS_CELL_GRAPH, 0, 0, best[0], 0);
	JOB_PAYLOAD_PUT(&ev, struct lists_ev_graph,
			&((struct lists_ev_graph){ .blocked_ms = best[1],
						   .same = memcmp(g, gn, n * n) == 0,
						   .n = n,
						   .block = bs }));
	job_emit(job, &ev);
out:
	free(g0);
	free(g);
	free(gn);
	return rc;
}

/* The work alone, per cell (LISTS_CELL_WORK), in chunks with the job
 * checked between them (a try spoiled by a pause is done again). Returns 1
 * when cancelled. */
static int measure_work(job_t *job, const struct lists_params *p)
{
	const size_t cells = 1u << 18, chunk = walk_chunk(p->work);
	struct job_event ev;
	double ns = INFINITY;
	for (int t = 0; t < p->tries + 2; t++) { /* best of, like the walks */
		uint64_t t0 = mt_now_ns(), sum = 0;
		int chk = JOB_GO;
		for (size_t done = 0; done < cells && chk == JOB_GO; done += chunk) {
			sum += work_alone(cells - done < chunk ? cells - done : chunk, p->work);
			chk = job_check(job);
		}
		mt_sink(sum);
		if (chk == JOB_CANCELLED)
			return 1;
		if (chk == JOB_RESUMED) {
			t--;
			continue;
		}
		ns = fmin(ns, (double)(mt_now_ns() - t0) / (double)cells);
	}
	job_cell(&ev, LISTS_CELL_WORK, 0, 0, mt_ns_to_cycles(ns), 0);
	JOB_PAYLOAD_PUT(&ev, struct lists_ev_work, &((struct lists_ev_work){ .ns = ns }));
	job_emit(job, &ev);
	return 0;
}

/* The neighbour distances of a malloc or holes walk: a cell per non-empty
 * bin, then the mode. Returns 0, or -1 with e. */
static int emit_neighbours(job_t *job, const struct list *l, size_t row, mt_error *e)
{
	struct lists_hist h;
	struct job_event ev;
	if (list_neighbours(l, &h, e) < 0)
		return -1;
	if (!h.have)
		return 0;
	job_cell(&ev, LISTS_CELL_HIST, (int)row, l->layout, 0, 0);
	for (int b = 0; b < LISTS_HIST_BINS; b++)
		if (h.count[b]) {
			JOB_PAYLOAD_PUT(&ev, struct lists_ev_hist, &((struct lists_ev_hist){ b }));
			ev.value = (double)h.count[b];
			job_emit(job, &ev);
		}
	ev.subtype = LISTS_CELL_MODE;
	ev.value = (double)h.mode;
	JOB_PAYLOAD_PUT(&ev, struct lists_ev_mode,
			&((struct lists_ev_mode){
				.count = h.mode_count, .sampled = h.sampled, .total = h.total }));
	job_emit(job, &ev);
	return 0;
}

/* The walk's trace into p->trace_dir: "lists-LAYOUT-N.trace". */
static int write_walk_trace(const struct lists_params *p, const struct list *l, mt_error *e)
{
	char path[4096];
	if (mt_snprintf(path, sizeof path, "%s/lists-%s-%zu.trace", p->trace_dir,
			list_layout_name(l->layout), l->n) < 0)
		return mt_fail(e, _("%s: path too long"), p->trace_dir);
	return list_write_trace(l, path, e);
}

/* The figures of a timed walk that are not times: new lines per cell, the
 * simulator's misses per cell, the distances, the trace. Each visits the
 * whole list (~1 s for 4M shuffled cells here): they look at the job as
 * they go (l->job) and the rest are skipped once it is cancelled. Returns
 * 0; 1 when the job was cancelled (the figures partial); -1 with e. */
static int walk_figures(job_t *job, const struct lists_params *p, const struct list *l,
			size_t row, struct lists_ev_result *x, mt_error *e)
{
	const double n = (double)l->n;
	x->lines64 = (double)list_line_changes(l, 64) / n;
	x->lines128 = list_cancelled(l) ? (double)NAN : (double)list_line_changes(l, 128) / n;
	x->sim = NAN;
	if (p->sim_s >= 0 && !list_cancelled(l)) {
		uint64_t m;
		mt_error se;
		if (list_simulate(l, p->sim_s, p->sim_E, p->sim_b, &m, &se) == 0)
			x->sim = (double)m / n;
	}
	if (!list_cancelled(l) && lists_hist_slot(l->layout) >= 0 &&
	    emit_neighbours(job, l, row, e) < 0)
		return -1;
	if (!list_cancelled(l) && p->trace_dir && write_walk_trace(p, l, e) < 0)
		return -1;
	return list_cancelled(l);
}

/* One length x layout: build, check, time (and time bare with work), and
 * its figures; the RESULT cell. Returns 0, 1 when cancelled, -1 with e. */
static int measure_walk(job_t *job, const struct lists_params *p, size_t i, int lay, mt_error *e)
{
	const size_t n = p->lengths[i];
	struct job_event ev;
	struct lists_ev_result x = { .cells = n };
	struct list l;
	double best, second, bare = NAN, b2, s2;
	int rc = 0;
	if ((rc = list_build(&l, lay, n, p->seed + i, job, e)) != 0)
		return rc; /* -1, or 1: cancelled while building */
	if ((rc = list_check(&l, e)) != 0)
		goto out;
	if (time_walk(job, p, &l, p->work, &best, &second) ||
	    (p->work && time_walk(job, p, &l, 0, &b2, &s2))) {
		rc = 1;
		goto out;
	}
	if (p->work)
		bare = mt_ns_to_cycles(b2);
	if ((rc = walk_figures(job, p, &l, i, &x, e)) != 0)
		goto out;
	job_cell(&ev, LISTS_CELL_RESULT, (int)i, lay,
		 mt_ns_to_cycles(best), job_spread(best, second));
	x.ns = best;
	x.bare_cyc = p->work ? bare : ev.value;
	JOB_PAYLOAD_PUT(&ev, struct lists_ev_result, &x);
	job_emit(job, &ev);
out:
	list_free(&l);
	return rc;
}

int lists_worker(job_t *job, void *arg, mt_error *e)
{
	const struct lists_params *p = arg;
	double units = 0, total = 0;
	if (p->tries < 1)
		return mt_fail(e, _("lists: bad parameters (tries %d)"), p->tries);
	if (p->graph)
		return run_graph(job, p, e);
	for (size_t i = 0; i < p->nlengths; i++)
		for (int lay = 0; lay < LIST_NLAYOUTS; lay++)
			if (p->layouts & (1u << lay))
				total += (double)p->lengths[i] + (double)reps_for(p->lengths[i]) *
								       p->lengths[i] * p->tries;
	if (p->work && measure_work(job, p))
		return 0;
	for (size_t i = 0; i < p->nlengths; i++)
		for (int lay = 0; lay < LIST_NLAYOUTS; lay++) {
			const size_t n = p->lengths[i];
			int rc;
			if (!(p->layouts & (1u << lay)))
				continue;
			if (p->mem_limit && list_bytes_estimate(lay, n) > p->mem_limit) {
				job_note(job, LISTS_SAYS_SKIPPED, list_layout_name(lay), n,
					 (unsigned long long)(list_bytes_estimate(lay, n) >> 20),
					 (unsigned long long)(p->mem_limit >> 20));
				continue;
			}
			if ((rc = measure_walk(job, p, i, lay, e)) != 0)
				return rc < 0 ? -1 : 0;
			units += (double)n + (double)reps_for(n) * n * p->tries;
			job_set_progress(job, units, total);
		}
	return 0;
}
