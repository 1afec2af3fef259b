/* lists: building the layouts, walking them, counting lines, the trace for
 * the simulator, the graph homework, and the timing worker. See lists.h. */
#include "config.h"

#include "lists.h"
#include "core/barrier.h"
#include "core/clock.h"
#include "core/jsonio.h"
#include "sim/sim.h"
#include "sim/trace.h"
#include "core/sysinfo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const layout_names[LIST_NLAYOUTS] = {
	"sequential", "stride", "shuffled", "malloc", "holes", "cdr"
};

enum { CDR_NEXT = 0, CDR_END = 1, CDR_PTR = 2 };

/* The cdr cell after p, whose word is w: the next word (CDR_NEXT), the one
 * p[1] points to (CDR_PTR), or NULL at the end. Inlined into the walks. */
static inline __attribute__((always_inline)) const uint64_t *cdr_next(const uint64_t *p,
								       uint64_t w)
{
	switch (w & 3) {
	case CDR_NEXT:
		return p + 1;
	case CDR_PTR:
		return (const uint64_t *)(uintptr_t)p[1];
	default:
		return NULL;
	}
}

/* Walk in chunks of this many cells between job_check() calls (a 4M-cell
 * shuffled walk takes most of a second). */
#define WALK_CHUNK (1u << 16)

const char *list_layout_name(int layout)
{
	if (layout < 0 || layout >= LIST_NLAYOUTS)
		return NULL;
	return layout_names[layout];
}

int list_layout_parse(const char *s)
{
	for (int i = 0; i < LIST_NLAYOUTS; i++)
		if (strcmp(s, layout_names[i]) == 0)
			return i;
	return -1;
}

uint64_t list_bytes_estimate(int layout, size_t n)
{
	switch (layout) {
	case LIST_SEQUENTIAL:
		return 16ull * n;
	case LIST_STRIDE:
	case LIST_SHUFFLED:
		return 24ull * n;
	case LIST_MALLOC:
		return 230ull * n;
	case LIST_HOLES:
		return 270ull * n;
	default:
		return 8ull * n;
	}
}

/* xorshift64*: the shuffle and the noise sizes. */
static uint64_t rnd(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1Dull;
}

static void *arena_alloc(size_t bytes)
{
	void *p = NULL;
	bytes = (bytes + 4095) & ~(size_t)4095;
	if (posix_memalign(&p, mt_page_size(), bytes ? bytes : mt_page_size()) != 0)
		return NULL;
	return p;
}

static int build_arena(struct list *l, size_t n, uint64_t seed, mt_error *e)
{
	struct list_cell *cells = arena_alloc(n * sizeof *cells);
	size_t *order = NULL;
	if (!cells)
		return mt_fail(e, "lists: out of memory for %zu cells", n);
	l->arena = cells;
	if (l->layout != LIST_SEQUENTIAL) {
		order = malloc(n * sizeof *order);
		if (!order)
			return mt_fail(e, "lists: out of memory for %zu cells", n);
		if (l->layout == LIST_STRIDE) {
			const size_t per = LIST_STRIDE_BYTES / sizeof(struct list_cell);
			size_t k = 0;
			for (size_t off = 0; off < per; off++)
				for (size_t i = off; i < n; i += per)
					order[k++] = i;
		} else {
			uint64_t s = seed ? seed : 1;
			for (size_t i = 0; i < n; i++)
				order[i] = i;
			for (size_t i = n; i > 1; i--) {
				size_t j = (size_t)(rnd(&s) % i);
				size_t t = order[i - 1];
				order[i - 1] = order[j];
				order[j] = t;
			}
		}
	}
	for (size_t k = 0; k < n; k++) {
		size_t here = order ? order[k] : k;
		cells[here].value = k + 1;
		cells[here].next = k + 1 < n ? &cells[order ? order[k + 1] : k + 1] : NULL;
	}
	l->head = &cells[order ? order[0] : 0];
	free(order);
	return 0;
}

static int build_malloc(struct list *l, size_t n, uint64_t seed, mt_error *e)
{
	uint64_t s = seed ? seed : 1;
	size_t cap = l->layout == LIST_HOLES ? 3 * n : 2 * n;
	struct list_cell *prev = NULL;
	size_t first2;
	l->blocks = calloc(cap, sizeof *l->blocks);
	if (!l->blocks)
		return mt_fail(e, "lists: out of memory for %zu cells", n);
	for (size_t k = 0; k < n; k++) {
		struct list_cell *c = malloc(sizeof *c);
		void *noise;
		if (!c)
			return mt_fail(e, "lists: out of memory for %zu cells", n);
		l->blocks[l->nblocks++] = c;
		noise = malloc(16 + (size_t)(rnd(&s) % 241));
		if (!noise)
			return mt_fail(e, "lists: out of memory for %zu cells", n);
		l->blocks[l->nblocks++] = noise;
		c->value = k + 1;
		c->next = NULL;
		if (prev)
			prev->next = c;
		else
			l->head = c;
		prev = c;
	}
	if (l->layout != LIST_HOLES)
		return 0;
	/* Free every second noise block, then build the second list into the
	 * holes: that one is walked. */
	for (size_t k = 1; k < n; k += 2) {
		free(l->blocks[2 * k + 1]);
		l->blocks[2 * k + 1] = NULL;
	}
	first2 = l->nblocks;
	prev = NULL;
	for (size_t k = 0; k < n; k++) {
		struct list_cell *c = malloc(sizeof *c);
		if (!c)
			return mt_fail(e, "lists: out of memory for %zu cells", n);
		l->blocks[l->nblocks++] = c;
		c->value = k + 1;
		c->next = NULL;
		if (prev)
			prev->next = c;
		prev = c;
	}
	l->head = n ? l->blocks[first2] : NULL;
	return 0;
}

static int build_cdr(struct list *l, size_t n, mt_error *e)
{
	uint64_t *w = arena_alloc((n ? n : 1) * sizeof *w);
	if (!w)
		return mt_fail(e, "lists: out of memory for %zu cells", n);
	l->arena = w;
	for (size_t k = 0; k < n; k++)
		w[k] = ((uint64_t)(k + 1) << 2) | (k + 1 < n ? CDR_NEXT : CDR_END);
	l->cdr_head = n ? w : NULL;
	return 0;
}

int list_build(struct list *l, int layout, size_t n, uint64_t seed, mt_error *e)
{
	int rc;
	memset(l, 0, sizeof *l);
	if (layout < 0 || layout >= LIST_NLAYOUTS)
		return mt_fail(e, "lists: unknown layout %d", layout);
	if (n > LISTS_MAX_CELLS)
		return mt_fail(e, "lists: %zu cells is too many (at most %llu)", n,
			       (unsigned long long)LISTS_MAX_CELLS);
	l->layout = layout;
	l->n = n;
	if (n == 0)
		return 0;
	switch (layout) {
	case LIST_MALLOC:
	case LIST_HOLES:
		rc = build_malloc(l, n, seed, e);
		break;
	case LIST_CDR:
		rc = build_cdr(l, n, e);
		break;
	default:
		rc = build_arena(l, n, seed, e);
		break;
	}
	if (rc < 0)
		list_free(l);
	return rc;
}

void list_free(struct list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nblocks; i++)
		free(l->blocks[i]);
	free(l->blocks);
	free(l->arena);
	memset(l, 0, sizeof *l);
}

/* Visit every element: fn(address of the element, value, ctx). */
static void each(const struct list *l, void (*fn)(const void *at, uint64_t v, void *ctx),
		 void *ctx)
{
	if (l->layout == LIST_CDR) {
		const uint64_t *p = l->cdr_head;
		while (p) {
			uint64_t w = *p;
			fn(p, w >> 2, ctx);
			p = cdr_next(p, w);
		}
		return;
	}
	for (const struct list_cell *c = l->head; c; c = c->next)
		fn(c, c->value, ctx);
}

struct check_ctx {
	uint64_t expect;
	uint64_t bad_at; /* 0 = fine */
	uint64_t bad_value;
};

static void check_one(const void *at, uint64_t v, void *p)
{
	struct check_ctx *c = p;
	(void)at;
	c->expect++;
	if (!c->bad_at && v != c->expect) {
		c->bad_at = c->expect;
		c->bad_value = v;
	}
}

int list_check(const struct list *l, mt_error *e)
{
	struct check_ctx c = { 0, 0, 0 };
	each(l, check_one, &c);
	if (c.bad_at)
		return mt_fail(e, "%s list: element %llu is %llu", list_layout_name(l->layout),
			       (unsigned long long)c.bad_at, (unsigned long long)c.bad_value);
	if (c.expect != l->n)
		return mt_fail(e, "%s list: %llu elements, expected %zu", list_layout_name(l->layout),
			       (unsigned long long)c.expect, l->n);
	return 0;
}

struct lines_ctx {
	uint64_t line, changes;
	unsigned shift;
	int started;
};

static void line_one(const void *at, uint64_t v, void *p)
{
	struct lines_ctx *c = p;
	uint64_t here = (uint64_t)(uintptr_t)at >> c->shift;
	(void)v;
	if (!c->started || here != c->line)
		c->changes++;
	c->started = 1;
	c->line = here;
}

uint64_t list_line_changes(const struct list *l, unsigned line_bytes)
{
	struct lines_ctx c = { 0, 0, 0, 0 };
	while ((1u << c.shift) < line_bytes)
		c.shift++;
	each(l, line_one, &c);
	return c.changes;
}

void list_trace(const struct list *l, void (*fn)(uint64_t addr, void *ctx), void *ctx)
{
	if (l->layout == LIST_CDR) {
		const uint64_t *p = l->cdr_head;
		while (p) {
			uint64_t w = *p;
			fn((uint64_t)(uintptr_t)p, ctx);
			if ((w & 3) == CDR_PTR) /* the pointer word is loaded too */
				fn((uint64_t)(uintptr_t)(p + 1), ctx);
			p = cdr_next(p, w);
		}
		return;
	}
	for (const struct list_cell *c = l->head; c; c = c->next) {
		fn((uint64_t)(uintptr_t)&c->value, ctx);
		fn((uint64_t)(uintptr_t)&c->next, ctx);
	}
}

/* ---- neighbour distances and traces ---------------------------------- */

int lists_hist_bin(int64_t d)
{
	uint64_t m = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;
	int k = 0;
	if (m == 0)
		m = 1;
	while (k < LISTS_HIST_POW - 1 && (m >> (k + 1)) != 0)
		k++;
	return d < 0 ? k : LISTS_HIST_POW + k;
}

void lists_hist_bounds(int bin, int64_t *lo, int64_t *hi)
{
	int k = bin % LISTS_HIST_POW;
	if (bin < LISTS_HIST_POW) {
		*lo = -((int64_t)1 << (k + 1));
		*hi = -((int64_t)1 << k);
	} else {
		*lo = (int64_t)1 << k;
		*hi = (int64_t)1 << (k + 1);
	}
}

struct neigh_ctx {
	struct lists_hist *h;
	int64_t *sample;
	uint64_t prev;
	int started;
};

static void neigh_one(const void *at, uint64_t v, void *p)
{
	struct neigh_ctx *c = p;
	uint64_t here = (uint64_t)(uintptr_t)at;
	(void)v;
	if (c->started) {
		int64_t d = (int64_t)(here - c->prev);
		c->h->count[lists_hist_bin(d)]++;
		if (c->h->total < LISTS_MODE_SAMPLE)
			c->sample[c->h->total] = d;
		c->h->total++;
	}
	c->started = 1;
	c->prev = here;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

int list_neighbours(const struct list *l, struct lists_hist *h, mt_error *e)
{
	struct neigh_ctx c = { h, NULL, 0, 0 };
	size_t n = l->n > LISTS_MODE_SAMPLE ? LISTS_MODE_SAMPLE : l->n;
	memset(h, 0, sizeof *h);
	if (l->layout == LIST_CDR || l->n < 2)
		return 0;
	if (!(c.sample = malloc(n * sizeof *c.sample)))
		return mt_fail(e, "lists: out of memory for %zu distances", n);
	each(l, neigh_one, &c);
	h->sampled = h->total < LISTS_MODE_SAMPLE ? h->total : LISTS_MODE_SAMPLE;
	qsort(c.sample, (size_t)h->sampled, sizeof *c.sample, cmp_i64);
	for (uint64_t i = 0, run = 0; i < h->sampled; i++) {
		run = i > 0 && c.sample[i] == c.sample[i - 1] ? run + 1 : 1;
		if (run > h->mode_count) {
			h->mode_count = run;
			h->mode = c.sample[i];
		}
	}
	free(c.sample);
	h->have = 1;
	return 0;
}

static void trace_load(uint64_t addr, void *ctx)
{
	trace_writer_add(ctx, 'L', addr, sizeof(uint64_t));
}

int list_write_trace(const struct list *l, const char *path, mt_error *e)
{
	struct trace_writer *w = trace_writer_open(path, e);
	if (!w)
		return -1;
	list_trace(l, trace_load, w);
	return trace_writer_commit(w, e);
}

static void sim_one(uint64_t addr, void *ctx)
{
	sim_access(ctx, addr, 0);
}

int list_simulate(const struct list *l, int s, int E, int b, uint64_t *misses, mt_error *e)
{
	struct sim_cache *c = sim_new(s, E, b, e);
	struct sim_stats st;
	if (!c)
		return -1;
	list_trace(l, sim_one, c);
	sim_stats(c, &st);
	sim_free(c);
	*misses = st.misses;
	return 0;
}

/* ---- walks: the measured chains ----------------------------------------- */

#define WORK_MUL 0x9E3779B97F4A7C15ull

/* The bare chain: each next address is known only after the load. */
static __attribute__((noinline)) const struct list_cell *
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
static __attribute__((noinline)) const struct list_cell *
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

static __attribute__((noinline)) const uint64_t *
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
		p = cdr_next(p, w);
	}
	*acc = a;
	return p;
}

/* The work alone, n times, on a value in a register. */
static __attribute__((noinline)) uint64_t work_alone(size_t n, unsigned work)
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

void graph_fill(uint8_t *g, size_t n, uint64_t seed)
{
	uint64_t s = seed ? seed : 1;
	for (size_t i = 0; i < n * n; i++)
		g[i] = (rnd(&s) & 7) == 0;
}

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

void lists_params_default(struct lists_params *p)
{
	static const size_t len[] = { 4096, 65536, 1u << 20, 1u << 22 };
	memset(p, 0, sizeof *p);
	memcpy(p->lengths, len, sizeof len);
	p->nlengths = MT_ARRAY_LEN(len);
	p->layouts = (1u << LIST_NLAYOUTS) - 1;
	p->work = 0;
	p->tries = 3;
	p->sim_s = 7;
	p->sim_E = 8;
	p->sim_b = 7;
	p->seed = 2026;
	p->mem_limit = mt_mem_available() / 2;
	p->graph = 0;
	p->graph_n = 4096;
	p->graph_block = 64;
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
	while (cursor_step(&c, l, work, WALK_CHUNK))
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
				more = cursor_step(&c, l, work, WALK_CHUNK);
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
		rc = mt_fail(e, "lists: out of memory for a %zu x %zu graph", n, n);
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
	memset(&ev, 0, sizeof ev);
	ev.type = JOB_EV_CELL;
	ev.kind = LISTS_CELL_GRAPH;
	ev.value = best[0];
	ev.aux[0] = best[1];
	ev.aux[1] = memcmp(g, gn, n * n) == 0;
	ev.aux[2] = (double)n;
	ev.aux[3] = (double)bs;
	job_emit(job, &ev);
out:
	free(g0);
	free(g);
	free(gn);
	return rc;
}

/* The work alone, per cell (LISTS_CELL_WORK). Returns 1 when cancelled. */
static int measure_work(job_t *job, const struct lists_params *p)
{
	struct job_event ev;
	double ns = INFINITY;
	for (int t = 0; t < p->tries + 2; t++) { /* best of, like the walks */
		uint64_t t0 = mt_now_ns();
		uint64_t sum = work_alone(1u << 18, p->work);
		mt_sink(sum);
		ns = fmin(ns, (double)(mt_now_ns() - t0) / (double)(1u << 18));
		if (job_check(job) == JOB_CANCELLED)
			return 1;
	}
	memset(&ev, 0, sizeof ev);
	ev.type = JOB_EV_CELL;
	ev.kind = LISTS_CELL_WORK;
	ev.value = mt_ns_to_cycles(ns);
	ev.aux[0] = ns;
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
	memset(&ev, 0, sizeof ev);
	ev.type = JOB_EV_CELL;
	ev.kind = LISTS_CELL_HIST;
	ev.row = (int)row;
	ev.col = l->layout;
	for (int b = 0; b < LISTS_HIST_BINS; b++)
		if (h.count[b]) {
			ev.aux[0] = b;
			ev.value = (double)h.count[b];
			job_emit(job, &ev);
		}
	ev.kind = LISTS_CELL_MODE;
	ev.value = (double)h.mode;
	ev.aux[0] = (double)h.mode_count;
	ev.aux[1] = (double)h.sampled;
	ev.aux[2] = (double)h.total;
	job_emit(job, &ev);
	return 0;
}

/* The walk's trace into p->trace_dir: "lists-LAYOUT-N.trace". */
static int write_walk_trace(const struct lists_params *p, const struct list *l, mt_error *e)
{
	char path[4096];
	if (mt_snprintf(path, sizeof path, "%s/lists-%s-%zu.trace", p->trace_dir,
			list_layout_name(l->layout), l->n) < 0)
		return mt_fail(e, "%s: path too long", p->trace_dir);
	return list_write_trace(l, path, e);
}

/* The figures of a timed walk that are not times: new lines per cell, the
 * simulator's misses per cell, the distances, the trace. Returns 0, or -1
 * with e. */
static int walk_figures(job_t *job, const struct lists_params *p, const struct list *l,
			size_t row, struct job_event *ev, mt_error *e)
{
	const double n = (double)l->n;
	ev->aux[1] = (double)list_line_changes(l, 64) / n;
	ev->aux[2] = (double)list_line_changes(l, 128) / n;
	ev->aux[3] = NAN;
	if (p->sim_s >= 0) {
		uint64_t m;
		mt_error se;
		if (list_simulate(l, p->sim_s, p->sim_E, p->sim_b, &m, &se) == 0)
			ev->aux[3] = (double)m / n;
	}
	if (lists_hist_slot(l->layout) >= 0 && emit_neighbours(job, l, row, e) < 0)
		return -1;
	return p->trace_dir ? write_walk_trace(p, l, e) : 0;
}

/* One length x layout: build, check, time (and time bare with work), and
 * its figures; the RESULT cell. Returns 0, 1 when cancelled, -1 with e. */
static int measure_walk(job_t *job, const struct lists_params *p, size_t i, int lay, mt_error *e)
{
	const size_t n = p->lengths[i];
	struct job_event ev;
	struct list l;
	double best, second, bare = NAN, b2, s2;
	int rc = 0;
	if (list_build(&l, lay, n, p->seed + i, e) < 0)
		return -1;
	if (list_check(&l, e) < 0) {
		rc = -1;
		goto out;
	}
	if (time_walk(job, p, &l, p->work, &best, &second) ||
	    (p->work && time_walk(job, p, &l, 0, &b2, &s2))) {
		rc = 1;
		goto out;
	}
	if (p->work)
		bare = mt_ns_to_cycles(b2);
	memset(&ev, 0, sizeof ev);
	if ((rc = walk_figures(job, p, &l, i, &ev, e)) < 0)
		goto out;
	ev.type = JOB_EV_CELL;
	ev.kind = LISTS_CELL_RESULT;
	ev.row = (int)i;
	ev.col = lay;
	ev.value = mt_ns_to_cycles(best);
	ev.spread = isfinite(second) && best > 0 ? (second - best) / best : 0;
	ev.aux[0] = best;
	ev.aux[4] = p->work ? bare : ev.value;
	ev.aux[5] = (double)n;
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
		return mt_fail(e, "lists: bad parameters (tries %d)", p->tries);
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
				job_note(job, "%s at %zu cells skipped: needs about %llu MB, %llu MB "
					      "available", list_layout_name(lay), n,
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

/* ---- results ---------------------------------------------------------------- */

void lists_result_init(struct lists_result *r, const struct lists_params *p)
{
	memset(r, 0, sizeof *r);
	r->nlengths = p->nlengths;
	memcpy(r->lengths, p->lengths, sizeof r->lengths);
	r->layouts = p->layouts;
	r->work = p->work;
	r->tries = p->tries;
	r->sim_s = p->sim_s;
	r->sim_E = p->sim_E;
	r->sim_b = p->sim_b;
	r->graph = p->graph;
	r->graph_n = p->graph_n;
	r->graph_block = p->graph_block;
}

int lists_result_apply(struct lists_result *r, const struct job_event *ev)
{
	struct lists_cell_result *c;
	if (ev->type != JOB_EV_CELL)
		return 0;
	if (ev->kind == LISTS_CELL_WORK) {
		r->work_cyc = ev->value;
		return ev->kind;
	}
	if ((ev->kind == LISTS_CELL_HIST || ev->kind == LISTS_CELL_MODE) && ev->row >= 0 &&
	    (size_t)ev->row < r->nlengths && lists_hist_slot(ev->col) >= 0) {
		struct lists_hist *h = &r->hist[ev->row][lists_hist_slot(ev->col)];
		int bin = (int)ev->aux[0];
		if (ev->kind == LISTS_CELL_HIST && bin >= 0 && bin < LISTS_HIST_BINS) {
			h->count[bin] = (uint64_t)ev->value;
		} else if (ev->kind == LISTS_CELL_MODE) {
			h->have = 1;
			h->mode = (int64_t)ev->value;
			h->mode_count = (uint64_t)ev->aux[0];
			h->sampled = (uint64_t)ev->aux[1];
			h->total = (uint64_t)ev->aux[2];
		}
		return ev->kind;
	}
	if (ev->kind == LISTS_CELL_GRAPH) {
		r->have_graph = 1;
		r->naive_ms = ev->value;
		r->blocked_ms = ev->aux[0];
		r->graph_same = ev->aux[1] > 0.5;
		return ev->kind;
	}
	if (ev->kind != LISTS_CELL_RESULT || ev->row < 0 || (size_t)ev->row >= r->nlengths ||
	    ev->col < 0 || ev->col >= LIST_NLAYOUTS)
		return 0;
	c = &r->c[ev->row][ev->col];
	c->have = 1;
	c->cyc = ev->value;
	c->ns = ev->aux[0];
	c->spread = ev->spread;
	c->l64 = ev->aux[1];
	c->l128 = ev->aux[2];
	c->sim = ev->aux[3];
	c->bare = ev->aux[4];
	return ev->kind;
}

size_t lists_result_measured(const struct lists_result *r)
{
	size_t n = (size_t)r->have_graph;
	for (size_t i = 0; i < r->nlengths; i++)
		for (int l = 0; l < LIST_NLAYOUTS; l++)
			n += (size_t)r->c[i][l].have;
	return n;
}

/* "neighbours": {"mode": bytes, "mode_count", "sampled", "total", "bins":
 * [{"from", "to", "count"}, ...]} (non-empty bins; from..to as
 * lists_hist_bounds). Returns 0, or -1 out of memory. */
static int hist_to_json(const struct lists_hist *h, cJSON *it)
{
	cJSON *o = cJSON_AddObjectToObject(it, "neighbours"), *arr;
	if (!o || !(arr = cJSON_AddArrayToObject(o, "bins")))
		return -1;
	cJSON_AddNumberToObject(o, "mode", (double)h->mode);
	cJSON_AddNumberToObject(o, "mode_count", (double)h->mode_count);
	cJSON_AddNumberToObject(o, "sampled", (double)h->sampled);
	cJSON_AddNumberToObject(o, "total", (double)h->total);
	for (int b = 0; b < LISTS_HIST_BINS; b++) {
		int64_t lo, hi;
		cJSON *x;
		if (!h->count[b])
			continue;
		if (!(x = cJSON_CreateObject()))
			return -1;
		cJSON_AddItemToArray(arr, x);
		lists_hist_bounds(b, &lo, &hi);
		cJSON_AddNumberToObject(x, "from", (double)lo);
		cJSON_AddNumberToObject(x, "to", (double)hi);
		if (!cJSON_AddNumberToObject(x, "count", (double)h->count[b]))
			return -1;
	}
	return 0;
}

cJSON *lists_result_to_json(const struct lists_result *r)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	if (!root || run_header_to_json(&r->hdr, root) < 0 ||
	    !cJSON_AddStringToObject(root, "experiment", "lists"))
		goto oom;
	if (r->graph) {
		cJSON *g = cJSON_AddObjectToObject(root, "graph");
		if (!g)
			goto oom;
		cJSON_AddNumberToObject(g, "n", (double)r->graph_n);
		cJSON_AddNumberToObject(g, "block", (double)r->graph_block);
		cJSON_AddNumberToObject(g, "naive_ms", r->naive_ms);
		cJSON_AddNumberToObject(g, "blocked_ms", r->blocked_ms);
		cJSON_AddNumberToObject(g, "speedup",
					r->blocked_ms > 0 ? r->naive_ms / r->blocked_ms : 0);
		if (!cJSON_AddBoolToObject(g, "same", r->graph_same))
			goto oom;
		return root;
	}
	cJSON_AddNumberToObject(root, "work", r->work);
	cJSON_AddNumberToObject(root, "tries", r->tries);
	cJSON_AddNumberToObject(root, "core_ghz", r->hdr.clock.core_ghz);
	if (r->work)
		cJSON_AddNumberToObject(root, "work_cycles_per_cell", r->work_cyc);
	if (r->sim_s >= 0) {
		cJSON *c = cJSON_AddObjectToObject(root, "sim_cache");
		if (!c)
			goto oom;
		cJSON_AddNumberToObject(c, "s", r->sim_s);
		cJSON_AddNumberToObject(c, "E", r->sim_E);
		cJSON_AddNumberToObject(c, "b", r->sim_b);
	}
	arr = cJSON_AddArrayToObject(root, "results");
	if (!arr)
		goto oom;
	for (size_t i = 0; i < r->nlengths; i++)
		for (int l = 0; l < LIST_NLAYOUTS; l++) {
			const struct lists_cell_result *c = &r->c[i][l];
			cJSON *it;
			if (!c->have)
				continue;
			it = cJSON_CreateObject();
			if (!it)
				goto oom;
			cJSON_AddItemToArray(arr, it);
			cJSON_AddStringToObject(it, "layout", list_layout_name(l));
			cJSON_AddNumberToObject(it, "cells", (double)r->lengths[i]);
			cJSON_AddNumberToObject(it, "cycles_per_cell", c->cyc);
			cJSON_AddNumberToObject(it, "ns_per_cell", c->ns);
			cJSON_AddNumberToObject(it, "spread", c->spread);
			if (isfinite(c->l64))
				cJSON_AddNumberToObject(it, "new_lines_64", c->l64);
			if (isfinite(c->l128) && !cJSON_AddNumberToObject(it, "new_lines_128", c->l128))
				goto oom;
			if (isfinite(c->sim)) {
				cJSON_AddNumberToObject(it, "sim_misses_per_cell", c->sim);
				cJSON_AddNumberToObject(it, "sim_misses",
							round(c->sim * (double)r->lengths[i]));
			}
			if (lists_hist_slot(l) >= 0 && r->hist[i][lists_hist_slot(l)].have &&
			    hist_to_json(&r->hist[i][lists_hist_slot(l)], it) < 0)
				goto oom;
			if (r->work)
				cJSON_AddNumberToObject(it, "bare_cycles_per_cell", c->bare);
		}
	return root;
oom:
	cJSON_Delete(root);
	return NULL;
}

/* The optional "neighbours" of a malloc or holes row (hist_to_json's
 * shape). Returns 0, or -1 with e naming the field. */
static int hist_from_json(const cJSON *it, const char *where, struct lists_hist *h, mt_error *e)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(it, "neighbours"), *arr, *x;
	char at[400];
	double v;
	int i = 0;
	memset(h, 0, sizeof *h);
	if (!o)
		return 0;
	mt_snprintf(at, sizeof at, "%s: neighbours", where);
	if (!(arr = jsonio_array(o, "bins", at, e)) || jsonio_number(o, "mode", at, &v, e) < 0)
		return -1;
	h->mode = (int64_t)v;
	h->mode_count = (uint64_t)jsonio_opt_number(o, "mode_count", 0);
	h->sampled = (uint64_t)jsonio_opt_number(o, "sampled", 0);
	h->total = (uint64_t)jsonio_opt_number(o, "total", 0);
	cJSON_ArrayForEach(x, arr) {
		double from, to, count;
		mt_snprintf(at, sizeof at, "%s: neighbours.bins[%d]", where, i++);
		if (jsonio_number(x, "from", at, &from, e) < 0 ||
		    jsonio_number(x, "to", at, &to, e) < 0 ||
		    jsonio_number(x, "count", at, &count, e) < 0)
			return -1;
		if (count < 0 || fabs(from) > 0x1p62 || fabs(to) > 0x1p62)
			return mt_fail(e, "%s: from, to or count out of range", at);
		/* the bin's end nearer zero names it (lists_hist_bounds) */
		h->count[lists_hist_bin((int64_t)(from < 0 ? to : from))] = (uint64_t)count;
	}
	h->have = 1;
	return 0;
}

/* One walk of "results" (where names it in errors) into its length's row
 * and layout's column of r. Returns 0, or -1 with e. */
static int walk_from_json(const cJSON *it, const char *where, struct lists_result *r,
			  mt_error *e)
{
	const cJSON *lay = cJSON_GetObjectItemCaseSensitive(it, "layout");
	struct lists_cell_result c;
	long cells;
	size_t row;
	int l;
	memset(&c, 0, sizeof c);
	if (!cJSON_IsString(lay) || (l = list_layout_parse(lay->valuestring)) < 0)
		return mt_fail(e, "%s: field \"layout\" must name a layout (sequential .. cdr)",
			       where);
	if (jsonio_int(it, "cells", where, 1, (long)LISTS_MAX_CELLS, &cells, e) < 0 ||
	    jsonio_number(it, "cycles_per_cell", where, &c.cyc, e) < 0)
		return -1;
	/* new lines a cell: a reference may lack them (the seed gives them for
	 * its largest list only) */
	c.l64 = jsonio_opt_number(it, "new_lines_64", NAN);
	c.l128 = jsonio_opt_number(it, "new_lines_128", NAN);
	c.have = 1;
	c.ns = jsonio_opt_number(it, "ns_per_cell", NAN);
	c.spread = jsonio_opt_number(it, "spread", NAN);
	c.sim = jsonio_opt_number(it, "sim_misses_per_cell", NAN);
	c.bare = jsonio_opt_number(it, "bare_cycles_per_cell", c.cyc);
	for (row = 0; row < r->nlengths && r->lengths[row] != (size_t)cells; row++)
		;
	if (row == r->nlengths) {
		if (r->nlengths == LISTS_MAX_LENGTHS)
			return mt_fail(e, "%s: more than %d lengths", where, LISTS_MAX_LENGTHS);
		r->lengths[r->nlengths++] = (size_t)cells;
	}
	r->layouts |= 1u << l;
	r->c[row][l] = c;
	if (lists_hist_slot(l) >= 0)
		return hist_from_json(it, where, &r->hist[row][lists_hist_slot(l)], e);
	return 0;
}

int lists_result_from_json(const cJSON *root, const char *file, struct lists_result *r,
			   mt_error *e)
{
	const char *f = file ? file : "input";
	const cJSON *arr, *it, *g, *sc;
	char where[320];
	long v;
	int i = 0;
	memset(r, 0, sizeof *r);
	run_header_from_json(root, &r->hdr);
	r->sim_s = -1;
	g = cJSON_GetObjectItemCaseSensitive(root, "graph");
	if (g) {
		long n, b;
		mt_snprintf(where, sizeof where, "%s: graph", f);
		if (jsonio_int(g, "n", where, 1, 1L << 20, &n, e) < 0 ||
		    jsonio_int(g, "block", where, 1, 1L << 20, &b, e) < 0 ||
		    jsonio_number(g, "naive_ms", where, &r->naive_ms, e) < 0 ||
		    jsonio_number(g, "blocked_ms", where, &r->blocked_ms, e) < 0)
			return -1;
		r->graph = r->have_graph = 1;
		r->graph_n = (size_t)n;
		r->graph_block = (size_t)b;
		r->graph_same = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(g, "same"));
		goto done;
	}
	if (jsonio_int(root, "work", file, 0, 1000000, &v, e) < 0)
		return -1;
	r->work = (unsigned)v;
	if (jsonio_int(root, "tries", file, 1, 1000, &v, e) < 0 ||
	    !(arr = jsonio_array(root, "results", file, e)))
		return -1;
	r->tries = (int)v;
	r->work_cyc = jsonio_opt_number(root, "work_cycles_per_cell", 0);
	if (!(r->hdr.clock.core_ghz > 0))
		r->hdr.clock.core_ghz = jsonio_opt_number(root, "core_ghz", 0);
	sc = cJSON_GetObjectItemCaseSensitive(root, "sim_cache");
	if (sc) {
		long s, E, b;
		mt_snprintf(where, sizeof where, "%s: sim_cache", f);
		if (jsonio_int(sc, "s", where, 0, 30, &s, e) < 0 ||
		    jsonio_int(sc, "E", where, 1, 1 << 16, &E, e) < 0 ||
		    jsonio_int(sc, "b", where, 0, 20, &b, e) < 0)
			return -1;
		r->sim_s = (int)s;
		r->sim_E = (int)E;
		r->sim_b = (int)b;
	}
	cJSON_ArrayForEach(it, arr) {
		mt_snprintf(where, sizeof where, "%s: results[%d]", f, i++);
		if (walk_from_json(it, where, r, e) < 0)
			return -1;
	}
done:
	if (file)
		mt_strlcpy(r->source, file, sizeof r->source);
	return 0;
}
