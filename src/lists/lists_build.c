/* lists_build: the data the lists lab walks (lists.h): the list in its six
 * layouts (built, checked, freed), the new lines it touches, its address
 * trace and the simulator over it, the neighbour distances; and the graph
 * homework's random graph. */
#include "config.h"

#include "lists.h"
#include "base/i18n.h"
#include "os/platform.h"
#include "os/sysinfo.h"
#include "sim/sim.h"
#include "sim/trace.h"

#include <stdlib.h>
#include <string.h>

static const char *const layout_names[LIST_NLAYOUTS] = {
	"sequential", "stride", "shuffled", "malloc", "holes", "cdr"
};

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

/* A look at l's job after the k-th cell of a build or a visit (every
 * LIST_LOOK_CELLS cells): 1 when it is cancelled. */
static int look(const struct list *l, size_t k)
{
	return l->job && ((k + 1) & (LIST_LOOK_CELLS - 1)) == 0 &&
	       job_check(l->job) == JOB_CANCELLED;
}

int list_cancelled(const struct list *l)
{
	return l->job && job_check(l->job) == JOB_CANCELLED;
}

/* "lists: out of memory for N cells" into e. Returns -1. */
static int no_memory(mt_error *e, size_t n)
{
	return mt_fail(e, MT_NGETTEXT("lists: out of memory for %zu cells",
				      "lists: out of memory for %zu cells", n),
		       n);
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
		return no_memory(e, n);
	l->arena = cells;
	if (l->layout != LIST_SEQUENTIAL) {
		order = malloc(n * sizeof *order);
		if (!order)
			return no_memory(e, n);
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
				if (look(l, i))
					goto stop;
			}
		}
	}
	for (size_t k = 0; k < n; k++) {
		size_t here = order ? order[k] : k;
		cells[here].value = k + 1;
		cells[here].next = k + 1 < n ? &cells[order ? order[k + 1] : k + 1] : NULL;
		if (look(l, k))
			goto stop;
	}
	l->head = &cells[order ? order[0] : 0];
	free(order);
	return 0;
stop:
	free(order);
	return 1;
}

static int build_malloc(struct list *l, size_t n, uint64_t seed, mt_error *e)
{
	uint64_t s = seed ? seed : 1;
	size_t cap = l->layout == LIST_HOLES ? 3 * n : 2 * n;
	struct list_cell *prev = NULL;
	size_t first2;
	l->blocks = calloc(cap, sizeof *l->blocks);
	if (!l->blocks)
		return no_memory(e, n);
	for (size_t k = 0; k < n; k++) {
		struct list_cell *c = malloc(sizeof *c);
		void *noise;
		if (!c)
			return no_memory(e, n);
		l->blocks[l->nblocks++] = c;
		noise = malloc(16 + (size_t)(rnd(&s) % 241));
		if (!noise)
			return no_memory(e, n);
		l->blocks[l->nblocks++] = noise;
		c->value = k + 1;
		c->next = NULL;
		if (prev)
			prev->next = c;
		else
			l->head = c;
		prev = c;
		if (look(l, k))
			return 1;
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
			return no_memory(e, n);
		l->blocks[l->nblocks++] = c;
		c->value = k + 1;
		c->next = NULL;
		if (prev)
			prev->next = c;
		prev = c;
		if (look(l, k))
			return 1;
	}
	l->head = n ? l->blocks[first2] : NULL;
	return 0;
}

static int build_cdr(struct list *l, size_t n, mt_error *e)
{
	uint64_t *w = arena_alloc((n ? n : 1) * sizeof *w);
	if (!w)
		return no_memory(e, n);
	l->arena = w;
	for (size_t k = 0; k < n; k++)
		w[k] = ((uint64_t)(k + 1) << 2) | (k + 1 < n ? LIST_CDR_NEXT : LIST_CDR_END);
	l->cdr_head = n ? w : NULL;
	return 0;
}

int list_build(struct list *l, int layout, size_t n, uint64_t seed, job_t *job, mt_error *e)
{
	int rc;
	memset(l, 0, sizeof *l);
	l->job = job;
	if (layout < 0 || layout >= LIST_NLAYOUTS)
		return mt_fail(e, _("lists: unknown layout %d"), layout);
	if (n > LISTS_MAX_CELLS)
		return mt_fail(e,
			       MT_NGETTEXT("lists: %zu cells is too many (at most %llu)",
					   "lists: %zu cells is too many (at most %llu)", n),
			       n,
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
	if (rc != 0)
		list_free(l);
	return rc;
}

void list_free(struct list *l)
{
	if (!l)
		return;
	/* millions of small blocks: merged as they are freed, not all in one
	 * go at the next large malloc or at the thread's end (a stop's wait) */
	if (l->nblocks > LIST_LOOK_CELLS)
		mt_plat_heap_eager_free(1);
	for (size_t i = 0; i < l->nblocks; i++)
		free(l->blocks[i]);
	if (l->nblocks > LIST_LOOK_CELLS)
		mt_plat_heap_eager_free(0);
	free(l->blocks);
	free(l->arena);
	memset(l, 0, sizeof *l);
}

/* Visit every element: fn(address of the element, value, ctx). Returns 0,
 * or 1 when a look found l's job cancelled (the visit stopped there). */
static int each(const struct list *l, void (*fn)(const void *at, uint64_t v, void *ctx),
		void *ctx)
{
	size_t k = 0;
	if (l->layout == LIST_CDR) {
		const uint64_t *p = l->cdr_head;
		while (p) {
			uint64_t w = *p;
			fn(p, w >> 2, ctx);
			p = list_cdr_next(p, w);
			if (look(l, k++))
				return 1;
		}
		return 0;
	}
	for (const struct list_cell *c = l->head; c; c = c->next) {
		fn(c, c->value, ctx);
		if (look(l, k++))
			return 1;
	}
	return 0;
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
	if (each(l, check_one, &c))
		return 1;
	if (c.bad_at)
		return mt_fail(e, _("%s list: element %llu is %llu"), list_layout_name(l->layout),
			       (unsigned long long)c.bad_at, (unsigned long long)c.bad_value);
	if (c.expect != l->n)
		return mt_fail(e, _("%s list: %llu elements, expected %zu"),
			       list_layout_name(l->layout), (unsigned long long)c.expect, l->n);
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
	(void)each(l, line_one, &c); /* partial when cancelled: list_cancelled says */
	return c.changes;
}

void list_trace(const struct list *l, void (*fn)(uint64_t addr, void *ctx), void *ctx)
{
	size_t k = 0;
	if (l->layout == LIST_CDR) {
		const uint64_t *p = l->cdr_head;
		while (p) {
			uint64_t w = *p;
			fn((uint64_t)(uintptr_t)p, ctx);
			if ((w & 3) == LIST_CDR_PTR) /* the pointer word is loaded too */
				fn((uint64_t)(uintptr_t)(p + 1), ctx);
			p = list_cdr_next(p, w);
			if (look(l, k++))
				return;
		}
		return;
	}
	for (const struct list_cell *c = l->head; c; c = c->next) {
		fn((uint64_t)(uintptr_t)&c->value, ctx);
		fn((uint64_t)(uintptr_t)&c->next, ctx);
		if (look(l, k++))
			return;
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
		return mt_fail(e,
			       MT_NGETTEXT("lists: out of memory for %zu distances",
					   "lists: out of memory for %zu distances", n),
			       n);
	if (each(l, neigh_one, &c)) {
		free(c.sample);
		memset(h, 0, sizeof *h);
		return 0;
	}
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
	if (list_cancelled(l)) { /* no half trace left behind */
		trace_writer_abort(w);
		return 0;
	}
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

/* ---- the graph homework's graph ------------------------------------------ */

void graph_fill(uint8_t *g, size_t n, uint64_t seed)
{
	uint64_t s = seed ? seed : 1;
	for (size_t i = 0; i < n * n; i++)
		g[i] = (rnd(&s) & 7) == 0;
}
