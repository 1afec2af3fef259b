/* falseshare: the counting threads and the worker. See falseshare.h. */
#include "config.h"

#include "falseshare.h"
#include "base/i18n.h"
#include "base/jsonio.h"
#include "os/clock.h"
#include "os/sysinfo.h"
#include "os/threads.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void falseshare_params_default(struct falseshare_params *p, const struct machine *m)
{
	static const unsigned t[] = { 1, 2, 4, 8 };
	static const unsigned sw[] = { 8, 16, 32, 64, 128, 256 };
	memset(p, 0, sizeof *p);
	memcpy(p->threads, t, sizeof t);
	p->nthreads = MT_ARRAY_LEN(t);
	p->rounds = 20000000;
	p->tries = 3;
	p->packed = 8;
	p->padded = 128;
	memcpy(p->sweep, sw, sizeof sw);
	p->nsweep = MT_ARRAY_LEN(sw);
	p->sweep_threads = 2;
	if (m) {
		p->ncpus = m->nallowed < FALSESHARE_MAX_CPUS ? m->nallowed : FALSESHARE_MAX_CPUS;
		memcpy(p->cpus, m->allowed, (size_t)p->ncpus * sizeof *p->cpus);
	}
}

/* Shared by the counting threads of one race; the flags sit on their own
 * lines, away from the counters. */
struct race {
	_Alignas(128) atomic_int ready;
	_Alignas(128) atomic_int go;
	_Alignas(128) atomic_int stop;
	_Alignas(128) struct mt_waitgroup done;
	uint64_t rounds;
	unsigned char *counters;
	unsigned spacing;
};

struct counter_arg {
	struct race *r;
	unsigned index;
	uint64_t end_ns;
};

/* Increments between looks at the stop flag. */
#define CHUNK 65536u
/* The coordinator's looks at the job (pause, cancel) while a race runs. */
#define CHECK_EVERY_NS 50000000ull

static void *count_main(void *p)
{
	struct counter_arg *ca = p;
	struct race *r = ca->r;
	_Atomic uint64_t *ctr = (_Atomic uint64_t *)(void *)(r->counters +
							     (size_t)ca->index * r->spacing);
	uint64_t left = r->rounds;
	atomic_fetch_add(&r->ready, 1);
	while (!atomic_load_explicit(&r->go, memory_order_acquire))
		sched_yield();
	while (left) {
		uint64_t m = left < CHUNK ? left : CHUNK;
		for (uint64_t k = 0; k < m; k++)
			atomic_fetch_add_explicit(ctr, 1, memory_order_relaxed);
		left -= m;
		if (atomic_load_explicit(&r->stop, memory_order_relaxed))
			break;
	}
	ca->end_ns = mt_now_ns();
	mt_waitgroup_done(&r->done);
	return NULL;
}

/* A race's shared block and its counters, threads x spacing bytes from the
 * start of a page, zeroed. Returns it, or NULL with e. */
static struct race *race_new(unsigned threads, unsigned spacing, uint64_t rounds, mt_error *e)
{
	struct race *r = NULL;
	size_t bytes = ((size_t)threads * spacing + 4095) & ~(size_t)4095;
	if (posix_memalign((void **)&r, 128, sizeof *r) != 0) {
		mt_fail(e, "%s", _("falseshare: out of memory"));
		return NULL;
	}
	memset(r, 0, sizeof *r);
	if (mt_waitgroup_init(&r->done, e) < 0) {
		free(r);
		return NULL;
	}
	if (posix_memalign((void **)&r->counters, mt_page_size(), bytes) != 0) {
		mt_waitgroup_destroy(&r->done);
		free(r);
		mt_fail(e, "%s", _("falseshare: out of memory"));
		return NULL;
	}
	memset(r->counters, 0, bytes);
	r->rounds = rounds;
	r->spacing = spacing;
	return r;
}

static void race_free(struct race *r)
{
	free(r->counters);
	mt_waitgroup_destroy(&r->done);
	free(r);
}

/* Asleep until the started counters are done (os/threads.h: never
 * polling them), checking the job every CHECK_EVERY_NS. A pause here would
 * be timed: it stops the race as a cancel of this try (*cancelled 2; the
 * caller repeats the try), a cancel with *cancelled 1. */
static void race_wait(struct race *r, int started, job_t *job, int *cancelled)
{
	while (mt_waitgroup_wait(&r->done, started, CHECK_EVERY_NS) < started) {
		int chk = job ? job_check(job) : JOB_GO;
		if (chk == JOB_CANCELLED || chk == JOB_RESUMED) {
			atomic_store(&r->stop, 1);
			*cancelled = chk == JOB_CANCELLED ? 1 : 2;
		}
	}
}

int falseshare_race(const struct falseshare_race_params *p, struct falseshare_race_out *o,
		    mt_error *e)
{
	struct race *r;
	struct counter_arg *args = NULL;
	pthread_t *tid = NULL;
	unsigned started = 0;
	uint64_t t0, tend = 0;
	int rc = 0;

	memset(o, 0, sizeof *o);
	if (p->threads < 1 || p->threads > FALSESHARE_MAX_T || p->spacing < 8 || p->spacing % 8 ||
	    p->spacing > FALSESHARE_MAX_SPACING)
		return mt_fail(e, _("falseshare: bad race (threads %u, spacing %u)"), p->threads,
			       p->spacing);
	if (!(r = race_new(p->threads, p->spacing, p->rounds, e)))
		return -1;
	args = calloc(p->threads, sizeof *args);
	tid = calloc(p->threads, sizeof *tid);
	if (!args || !tid) {
		rc = mt_fail(e, "%s", _("falseshare: out of memory"));
		goto out;
	}
	for (unsigned t = 0; t < p->threads; t++) {
		int cpu = p->ncpus > 0 ? p->cpus[t % (unsigned)p->ncpus] : -1, prc;
		args[t].r = r;
		args[t].index = t;
		if ((prc = mt_thread_start(&tid[t], cpu, count_main, &args[t])) != 0) {
			rc = mt_fail(e, _("falseshare: cannot start thread %u: %s"), t + 1,
				     strerror(prc));
			atomic_store(&r->stop, 1);
			break;
		}
		started++;
	}
	while (atomic_load(&r->ready) < (int)started)
		mt_nap(50000);
	t0 = mt_now_ns();
	atomic_store_explicit(&r->go, 1, memory_order_release);
	race_wait(r, (int)started, p->job, &o->cancelled);
	for (unsigned t = 0; t < started; t++) {
		mt_thread_join(tid[t]);
		if (args[t].end_ns > tend)
			tend = args[t].end_ns;
	}
	for (unsigned t = 0; t < p->threads; t++)
		o->sum += *(uint64_t *)(void *)(r->counters + (size_t)t * p->spacing);
	o->ms = tend > t0 ? (double)(tend - t0) / 1e6 : 0;
out:
	free(args);
	free(tid);
	race_free(r);
	return rc;
}

/* Best of p->tries races. Returns 0, 1 when cancelled, -1 on error. */
static int best_of(job_t *job, const struct falseshare_params *p, unsigned threads,
		   unsigned spacing, const int *cpus, int ncpus, double *best, double *second,
		   int *exact, mt_error *e)
{
	*best = *second = INFINITY;
	*exact = 1;
	for (int t = 0; t < p->tries; t++) {
		const struct falseshare_race_params rp = { threads, spacing, p->rounds, cpus, ncpus,
							   job };
		struct falseshare_race_out o;
		double ms;
		if (falseshare_race(&rp, &o, e) < 0)
			return -1;
		ms = o.ms;
		if (o.cancelled == 1)
			return 1;
		if (o.cancelled == 2) { /* paused in the middle: do it again */
			t--;
			continue;
		}
		if (o.sum != (uint64_t)threads * p->rounds)
			*exact = 0;
		if (ms < *best) {
			*second = *best;
			*best = ms;
		} else if (ms < *second) {
			*second = ms;
		}
		if (job_check(job) == JOB_CANCELLED)
			return 1;
	}
	return 0;
}

/* One cell: threads counters spacing bytes apart, the best of p->tries,
 * emitted as a kind cell at (row, col) with the progress advanced by its
 * increments (*units of total). Returns 0, 1 when cancelled, -1 with e. */
static int run_cell(job_t *job, const struct falseshare_params *p, double *units, double total,
		    int kind, int row, int col, unsigned threads, unsigned spacing, mt_error *e)
{
	struct job_event ev;
	double best, second;
	int exact, rc;
	rc = best_of(job, p, threads, spacing, p->cpus, p->ncpus, &best, &second, &exact, e);
	if (rc != 0)
		return rc;
	*units += (double)threads * p->rounds * p->tries;
	job_set_progress(job, *units, total);
	job_cell(&ev, kind, row, col, best, job_spread(best, second));
	JOB_PAYLOAD_PUT(&ev, struct falseshare_ev_cell,
			&((struct falseshare_ev_cell){
				.threads = threads,
				.spacing = spacing,
				.over = p->ncpus > 0 && threads > (unsigned)p->ncpus,
				.exact = exact,
				.ns_inc = best * 1e6 / (double)p->rounds }));
	job_emit(job, &ev);
	return 0;
}

int falseshare_worker(job_t *job, void *arg, mt_error *e)
{
	const struct falseshare_params *p = arg;
	double units = 0, total = 0;
	int rc = 0;
	if (p->rounds < 1 || p->tries < 1)
		return mt_fail(e, _("falseshare: bad parameters (rounds %llu, tries %d)"),
			       (unsigned long long)p->rounds, p->tries);
	for (size_t i = 0; i < p->nthreads; i++)
		total += 2.0 * p->threads[i];
	total += (double)p->nsweep * p->sweep_threads;
	total *= (double)p->rounds * p->tries;
	job_set_total(job, 2 * (uint64_t)p->nthreads + p->nsweep); /* the cells it emits */
	for (size_t i = 0; i < p->nthreads && !rc; i++)
		for (int layout = 0; layout < 2 && !rc; layout++)
			rc = run_cell(job, p, &units, total, FALSESHARE_CELL_TABLE, (int)i, layout,
				      p->threads[i], layout ? p->padded : p->packed, e);
	for (size_t i = 0; i < p->nsweep && !rc; i++)
		rc = run_cell(job, p, &units, total, FALSESHARE_CELL_SWEEP, (int)i, 0,
			      p->sweep_threads, p->sweep[i], e);
	return rc < 0 ? -1 : 0; /* cancelled (rc 1): a clean end */
}

/* ---- results ---------------------------------------------------------------- */

void falseshare_result_init(struct falseshare_result *r, const struct falseshare_params *p)
{
	memset(r, 0, sizeof *r);
	r->rounds = p->rounds;
	r->tries = p->tries;
	r->ncpus = p->ncpus;
	r->nthreads = p->nthreads;
	memcpy(r->threads, p->threads, sizeof r->threads);
	r->nsweep = p->nsweep;
	memcpy(r->sweep, p->sweep, sizeof r->sweep);
	r->sweep_threads = p->sweep_threads;
	r->packed = p->packed;
	r->padded = p->padded;
}

int falseshare_result_apply(struct falseshare_result *r, const struct job_event *ev)
{
	struct falseshare_cell *c;
	struct falseshare_ev_cell x;
	if (ev->type != JOB_EV_CELL || ev->row < 0 || ev->row >= FALSESHARE_MAX_LIST ||
	    JOB_PAYLOAD_GET(ev, struct falseshare_ev_cell, &x) < 0)
		return 0;
	if (ev->subtype == FALSESHARE_CELL_TABLE && (ev->col == 0 || ev->col == 1) &&
	    (size_t)ev->row < r->nthreads)
		c = &r->tab[ev->row][ev->col];
	else if (ev->subtype == FALSESHARE_CELL_SWEEP && (size_t)ev->row < r->nsweep)
		c = &r->swp[ev->row];
	else
		return 0;
	c->have = 1;
	c->ms = ev->value;
	c->spread = ev->spread;
	c->ns_inc = x.ns_inc;
	c->threads = x.threads;
	c->spacing = x.spacing;
	c->over = x.over;
	c->exact = x.exact;
	if (!c->exact)
		r->inexact = 1;
	return ev->subtype;
}

size_t falseshare_result_measured(const struct falseshare_result *r)
{
	size_t n = 0;
	for (size_t i = 0; i < FALSESHARE_MAX_LIST; i++)
		n += (size_t)r->tab[i][0].have + (size_t)r->tab[i][1].have + (size_t)r->swp[i].have;
	return n;
}

/* Appends cell c to arr as one object: a table cell (layout l: 0 packed, 1
 * padded) as threads, layout, spacing, ms, spread, ns_per_increment,
 * oversubscribed, exact; a sweep cell (table 0) as spacing, threads, the
 * times, exact. Returns 0, or -1 out of memory. */
static int cell_to_json(cJSON *arr, const struct falseshare_cell *c, int table, int l)
{
	cJSON *it = cJSON_CreateObject();
	if (!it)
		return -1;
	cJSON_AddItemToArray(arr, it);
	if (table) {
		cJSON_AddNumberToObject(it, "threads", c->threads);
		cJSON_AddStringToObject(it, "layout", l ? "padded" : "packed");
		cJSON_AddNumberToObject(it, "spacing", c->spacing);
	} else {
		cJSON_AddNumberToObject(it, "spacing", c->spacing);
		cJSON_AddNumberToObject(it, "threads", c->threads);
	}
	cJSON_AddNumberToObject(it, "ms", c->ms);
	cJSON_AddNumberToObject(it, "spread", c->spread);
	cJSON_AddNumberToObject(it, "ns_per_increment", c->ns_inc);
	if (table)
		cJSON_AddBoolToObject(it, "oversubscribed", c->over);
	return cJSON_AddBoolToObject(it, "exact", c->exact) ? 0 : -1;
}

cJSON *falseshare_result_to_json(const struct falseshare_result *r)
{
	cJSON *root = cJSON_CreateObject(), *arr, *sw;
	if (!root || run_header_to_json(&r->hdr, root) < 0 ||
	    !cJSON_AddStringToObject(root, "experiment", "falseshare"))
		goto oom;
	cJSON_AddNumberToObject(root, "rounds", (double)r->rounds);
	cJSON_AddNumberToObject(root, "tries", r->tries);
	cJSON_AddNumberToObject(root, "cpus", r->ncpus);
	arr = cJSON_AddArrayToObject(root, "results");
	sw = cJSON_AddArrayToObject(root, "sweep");
	if (!arr || !sw)
		goto oom;
	for (size_t i = 0; i < r->nthreads; i++)
		for (int l = 0; l < 2; l++)
			if (r->tab[i][l].have && cell_to_json(arr, &r->tab[i][l], 1, l) < 0)
				goto oom;
	for (size_t i = 0; i < r->nsweep; i++)
		if (r->swp[i].have && cell_to_json(sw, &r->swp[i], 0, 0) < 0)
			goto oom;
	return root;
oom:
	cJSON_Delete(root);
	return NULL;
}

/* One cell of results[i] or sweep[i]; where names it in errors. */
static int cell_from_json(const cJSON *it, const char *where, int table,
			  struct falseshare_cell *c, mt_error *e)
{
	long th, sp;
	if (!cJSON_IsObject(it))
		return mt_fail(e, _("%s: not an object"), where);
	if (jsonio_int(it, "threads", where, 1, FALSESHARE_MAX_T, &th, e) < 0 ||
	    jsonio_int(it, "spacing", where, 1, FALSESHARE_MAX_SPACING, &sp, e) < 0 ||
	    jsonio_number(it, "ms", where, &c->ms, e) < 0)
		return -1;
	c->have = 1;
	c->threads = (unsigned)th;
	c->spacing = (unsigned)sp;
	c->spread = jsonio_opt_number(it, "spread", NAN);
	c->ns_inc = jsonio_opt_number(it, "ns_per_increment", NAN);
	c->exact = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(it, "exact"));
	c->over = table && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "oversubscribed"));
	return 0;
}

int falseshare_result_from_json(const cJSON *root, const char *file, struct falseshare_result *r,
				mt_error *e)
{
	const cJSON *arr, *sw, *it;
	const char *f = file ? file : "input";
	char where[320];
	long rounds, tries;
	int i = 0;
	memset(r, 0, sizeof *r);
	run_header_from_json(root, &r->hdr);
	if (jsonio_int(root, "rounds", file, 1, LONG_MAX, &rounds, e) < 0 ||
	    jsonio_int(root, "tries", file, 1, 1000, &tries, e) < 0 ||
	    !(arr = jsonio_array(root, "results", file, e)))
		return -1;
	r->rounds = (uint64_t)rounds;
	r->tries = (int)tries;
	r->ncpus = (int)jsonio_opt_int(root, "cpus", 0, INT_MAX, 0);
	cJSON_ArrayForEach(it, arr) {
		struct falseshare_cell c;
		const cJSON *lay = cJSON_GetObjectItemCaseSensitive(it, "layout");
		size_t row;
		int l;
		mt_snprintf(where, sizeof where, "%s: results[%d]", f, i++);
		if (cell_from_json(it, where, 1, &c, e) < 0)
			return -1;
		if (!cJSON_IsString(lay) || (strcmp(lay->valuestring, "packed") != 0 &&
					     strcmp(lay->valuestring, "padded") != 0))
			return mt_fail(e,
				       _("%s: field \"layout\" must be \"packed\" or \"padded\""),
				       where);
		l = strcmp(lay->valuestring, "padded") == 0;
		for (row = 0; row < r->nthreads && r->threads[row] != c.threads; row++)
			;
		if (row == r->nthreads) {
			if (r->nthreads == FALSESHARE_MAX_LIST)
				return mt_fail(e, _("%s: more than %d thread counts"), where,
					       FALSESHARE_MAX_LIST);
			r->threads[r->nthreads++] = c.threads;
		}
		if (l)
			r->padded = c.spacing;
		else
			r->packed = c.spacing;
		r->tab[row][l] = c;
		if (!c.exact)
			r->inexact = 1;
	}
	sw = cJSON_GetObjectItemCaseSensitive(root, "sweep");
	if (sw && !cJSON_IsArray(sw))
		return mt_fail(e, _("%s: field \"sweep\" is not an array"), f);
	i = 0;
	cJSON_ArrayForEach(it, sw) {
		struct falseshare_cell c;
		mt_snprintf(where, sizeof where, "%s: sweep[%d]", f, i++);
		if (cell_from_json(it, where, 0, &c, e) < 0)
			return -1;
		if (r->nsweep == FALSESHARE_MAX_LIST)
			return mt_fail(e, _("%s: more than %d spacings"), where,
				       FALSESHARE_MAX_LIST);
		r->sweep_threads = c.threads;
		r->sweep[r->nsweep] = c.spacing;
		r->swp[r->nsweep++] = c;
		if (!c.exact)
			r->inexact = 1;
	}
	if (file)
		mt_strlcpy(r->source, file, sizeof r->source);
	return 0;
}

/* The sweep's verdicts: a spacing this much faster than the packed one has
 * left the shared line; the next doubling this much faster again means an
 * adjacent-line prefetcher pairs lines. */
#define FS_STOP_RATIO 1.5
#define FS_PAIR_RATIO 1.2

int falseshare_sweep_verdict(const struct falseshare_result *r, char *buf, size_t len)
{
	const struct falseshare_cell *sw = r->swp;
	size_t stop = r->nsweep;
	buf[0] = 0;
	if (r->nsweep < 2 || !sw[0].have)
		return 0;
	for (size_t i = 1; i < r->nsweep; i++)
		if (sw[i].have && sw[i].ms * FS_STOP_RATIO < sw[0].ms) {
			stop = i;
			break;
		}
	if (stop == r->nsweep) {
		mt_hsnprintf(buf, len,
			     _("the sweep shows no line boundary (packed %.1f ms is as fast as "
			       "any spacing: the threads may share a core or its cache)"),
			     sw[0].ms);
		return 1;
	}
	if (r->sweep[stop] > 2 * r->sweep[stop - 1]) /* a gap: the boundary is somewhere in it */
		mt_hsnprintf(
			buf, len,
			_("sharing stops between %u and %u bytes apart (%u is %.1fx faster than "
			  "%u; the sweep has no spacing in between)"),
			r->sweep[stop - 1], r->sweep[stop], r->sweep[stop], sw[0].ms / sw[stop].ms,
			r->sweep[0]);
	else
		mt_hsnprintf(buf, len, _("sharing stops at %u bytes apart (%.1fx faster than %u)"),
			     r->sweep[stop], sw[0].ms / sw[stop].ms, r->sweep[0]);
	if (stop + 1 < r->nsweep && sw[stop + 1].have &&
	    sw[stop + 1].ms * FS_PAIR_RATIO < sw[stop].ms) {
		char more[200];
		/* TRANSLATORS: a second sentence after the first, joined by "; " */
		mt_hsnprintf(
			more, sizeof more,
			_("%u is another %.1fx faster: an adjacent-line prefetcher pairs lines"),
			r->sweep[stop + 1], sw[stop].ms / sw[stop + 1].ms);
		mt_append(buf, len, "; %s", more);
	}
	return 1;

}
