/* latency_price: what a latency run will take, priced before it starts:
 * latency_probe's few measured loads and links on this machine, a model of
 * a load's ns at each size and stride from them, each point's loads and
 * linking as the worker plans them (latency_plan_point), and the buffer's
 * pages. The worker re-prices what is left as it goes (latency_eta.c). */
#include "config.h"

#include "base/i18n.h"

#include "latency.h"
#include "latency_eta.h"
#include "base/chase.h"
#include "machine/machine.h"
#include "os/barrier.h"
#include "os/clock.h"
#include "os/sysinfo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* v[0] at stride 128, v[1] at 4096, and geometrically by log2 between. */
static double stride_between(const double v[2], unsigned stride)
{
	double f = (log2(stride < 128 ? 128 : stride > 4096 ? 4096 : stride) - 7) / 5;
	return v[0] * pow(v[1] / v[0], f);
}

/* A fixed stride's ns a load over the probe's 64 MB: as measured for one
 * of the run's strides, else between the strides 128 and 4096. */
static double stride_far(const struct latency_params *p, unsigned stride)
{
	for (size_t k = 0; k < p->nstrides; k++)
		if (p->strides[k] == stride && p->probe.stride_far[k] > 0)
			return p->probe.stride_far[k];
	return stride_between(p->probe.fixed_far, stride);
}

/* How much slower a load is at size than over the probe's 64 MB: 1 up to
 * 64 MB; past it, by log2 of the size, up to what the worker's random loads
 * over its whole buffer took against the probe's at 64 MB (the page walks
 * of a larger buffer reach further out), where it has measured them. */
static double far_factor(const struct latency_params *p, uint64_t size)
{
	const struct latency_probe *q = &p->probe;
	uint64_t last = p->nsizes ? p->sizes[p->nsizes - 1] : 0;
	double f;
	if (!(q->rand_last > 0) || !(q->rand_far > 0) || size <= LATENCY_PROBE_FAR || last <= LATENCY_PROBE_FAR)
		return 1;
	f = q->rand_last / q->rand_far;
	if (f < 1)
		return 1;
	return pow(f, fmin(1, log2((double)size / LATENCY_PROBE_FAR) / log2((double)last / LATENCY_PROBE_FAR)));
}

/* A rough model of one load's ns at a size, for planning only: fixed
 * guesses, or what latency_probe measured beyond 1 MB (a fixed stride
 * between the two measured ones priced geometrically by its log2; in the
 * middle sizes no slower than the random chase there). */
double latency_model_ns(const struct latency_params *p, uint64_t size, int random,
			unsigned stride)
{
	const struct latency_probe *q = &p->probe;
	double base, far;
	if (size <= (32u << 10))
		return 1.5;
	if (size <= (1u << 20))
		return 5;
	if (q->rand_mid > 0) {
		if (random)
			return size <= (16u << 20) ? q->rand_mid : q->rand_far * far_factor(p, size);
		far = stride_far(p, stride) * far_factor(p, size);
		return size <= (16u << 20) ? fmin(far, q->rand_mid) : far;
	}
	base = size <= (16u << 20) ? 20 : 110;
	if (!random && stride <= 256 && base > 5)
		base = 5; /* the prefetchers follow small fixed strides */
	return base;
}


/* ns to link a chase, a slot: a store, and the random chase's shuffle
 * (planning only). */
#define BUILD_NS_FIXED 5.0
#define BUILD_NS_RANDOM 20.0

/* ns to link a slot of a chase: the guesses above, or beyond 16 MB what
 * latency_probe measured (the random chase's by log2 of the size from its
 * 8 MB and 64 MB figures: a bigger cycle misses more while it is shuffled). */
double latency_link_ns(const struct latency_params *p, uint64_t size, unsigned stride, int random)
{
	const struct latency_probe *q = &p->probe;
	if (!(q->rand_mid > 0) || size <= (16u << 20))
		return random ? BUILD_NS_RANDOM : BUILD_NS_FIXED;
	if (!random)
		return fmax(BUILD_NS_FIXED, stride_between(q->link_fixed, stride));
	return fmax(q->link_random[1], q->link_random[1] + (q->link_random[1] - q->link_random[0]) /
							     3 * log2((double)size / (64u << 20)));
}


double latency_point_cost_ns(const struct latency_params *p, size_t i, unsigned stride, int random)
{
	uint64_t size = p->sizes[i], lines = latency_chase_slots(size, stride), linked = lines, warm, timed;
	double est = latency_model_ns(p, size, random, stride);
	if (i > 0 && latency_chases_grow(p) && p->sizes[i - 1] < size)
		linked -= latency_chase_slots(p->sizes[i - 1], stride);
	latency_plan_point(p, lines, est, &warm, &timed);
	return (double)(warm + timed) * est + (double)linked * latency_link_ns(p, size, stride, random);
}

double latency_probe_walk(void *buf, uint64_t n)
{
	void *q = chase_walk(buf, n / 4);
	double best = INFINITY;
	for (int k = 0; k < 3; k++) {
		uint64_t t0 = mt_now_ns();
		q = chase_walk(q, n / 3);
		best = fmin(best, (double)(mt_now_ns() - t0) / (double)(n / 3));
	}
	mt_sink(q);
	return best;
}

/* ns a slot to link the chase at stride over size in buf (random: Sattolo's
 * cycle with scratch), or -1. */
static double probe_link(char *buf, uint64_t size, unsigned stride, int random, uint32_t *scratch)
{
	uint64_t t0 = mt_now_ns();
	size_t n = random ? chase_build_cycle(buf, size, stride, size, scratch)
			  : latency_build_fixed(buf, size, stride);
	return n ? (double)(mt_now_ns() - t0) / (double)n : -1;
}

void latency_probe(struct latency_params *p)
{
	const uint64_t far = LATENCY_PROBE_FAR, mid = 8u << 20;
	struct latency_probe *q = &p->probe;
	char *buf;
	uint32_t *scratch;
	memset(q, 0, sizeof *q);
	/* on the run's pages: a chase on 2 MB pages walks no 4 KB page tables */
	buf = mt_map_2m(far, p->hugepages == LATENCY_HUGE_ON);
	scratch = malloc(far / 128 * sizeof *scratch);
	if (!buf || !scratch)
		goto out;
	memset(buf, 1, far); /* the pages first: their faults are populate's, priced apart */
	/* loads enough for a few ms each at memory's latency */
	if ((q->link_fixed[0] = probe_link(buf, far, 128, 0, NULL)) < 0)
		goto out;
	q->fixed_far[0] = latency_probe_walk(buf, 200000);
	if ((q->link_fixed[1] = probe_link(buf, far, 4096, 0, NULL)) < 0)
		goto out;
	q->fixed_far[1] = latency_probe_walk(buf, 20000);
	if ((q->link_random[1] = probe_link(buf, far, 128, 1, scratch)) < 0)
		goto out;
	q->rand_far = latency_probe_walk(buf, 20000);
	if ((q->link_random[0] = probe_link(buf, mid, 128, 1, scratch)) < 0)
		goto out;
	q->rand_mid = latency_probe_walk(buf, 20000);
	for (size_t k = 0; k < p->nstrides; k++) /* each of the run's own: a few ms each */
		if (p->strides[k] >= 8 && p->strides[k] % 8 == 0 && p->strides[k] <= far &&
		    probe_link(buf, far, p->strides[k], 0, NULL) > 0)
			q->stride_far[k] = latency_probe_walk(buf, p->strides[k] < 256 ? 200000 : 20000);
out:
	if (!(q->rand_mid > 0))
		memset(q, 0, sizeof *q);
	free(scratch);
	if (buf)
		munmap(buf, far);
}

/* The buffer's pages, in the same units: a fresh page costs page_ns (the
 * first access, after the populate, on a VM whose host backs pages late). */
static double populate_cost_ns(const struct latency_params *p)
{
	double page_ns = p->page_ns > 0 ? p->page_ns : MT_FRESH_PAGE_NS_GUESS;
	double pages = p->nsizes ? (double)(p->sizes[p->nsizes - 1] / LATENCY_PAGE) : 0;
	return pages * page_ns * (p->random && p->other ? 2 : 1);
}

double latency_points_cost_ns(const struct latency_params *p, size_t from)
{
	double ns = 0;
	for (size_t i = from; i < p->nsizes; i++) {
		for (size_t k = 0; k < p->nstrides; k++)
			ns += latency_point_cost_ns(p, i, p->strides[k], 0);
		if (p->random)
			ns += latency_point_cost_ns(p, i, p->random_stride, 1) * (p->other ? 2 : 1);
	}
	return ns;
}

double latency_params_estimate_s(const struct latency_params *p)
{
	return (populate_cost_ns(p) + latency_points_cost_ns(p, 0)) / 1e9;
}

/* ---- the run's parameters from the machine ----------------------------- */

const char *latency_sizes_text(const struct latency_params *p, char *buf, size_t len)
{
	return latency_sizes_words(p, 1, buf, len);
}

const char *latency_sizes_words(const struct latency_params *p, int human, char *buf, size_t len)
{
	char lo[32], hi[32], range[72];
	mt_fmt_size(lo, sizeof lo, p->nsizes ? p->sizes[0] : 0);
	mt_fmt_size(hi, sizeof hi, p->nsizes ? p->sizes[p->nsizes - 1] : 0);
	if (p->nsizes > 1)
		mt_snprintf(range, sizeof range, "%s..%s", lo, hi);
	else
		mt_strlcpy(range, lo, sizeof range);
	if (human)
		mt_snprintf(buf, len, MT_NGETTEXT("%zu size, %s", "%zu sizes %s", p->nsizes),
			    p->nsizes, range);
	else
		mt_snprintf(buf, len, mt_plural("%zu size, %s", "%zu sizes %s", p->nsizes),
			    p->nsizes, range);
	return buf;
}

/* The largest size when nothing asks for one: at least machine_dram_floor
 * of the worker's CPU (4 x every cache it reaches, any source's claim), so
 * the curve ends in memory; the reason into p->why_max. */
static int reach_memory(struct latency_params *p, const struct machine *m, int cpu, mt_error *e)
{
	char f[200], a[32];
	uint64_t floor = cpu >= 0 ? machine_dram_floor(m, &cpu, 1, f, sizeof f) : 0;
	if (floor <= p->sizes[p->nsizes - 1])
		return 0;
	if (latency_params_set_max(p, floor, e) < 0)
		return -1;
	while (p->sizes[p->nsizes - 1] < floor && p->nsizes < LATENCY_MAX_SIZES)
		p->sizes[p->nsizes] = latency_step(p->sizes[p->nsizes - 1]), p->nsizes++;
	mt_snprintf(p->why_max, sizeof p->why_max, "sizes up to %s: %s of CPU %d",
		    mt_fmt_size(a, sizeof a, p->sizes[p->nsizes - 1]), f, cpu);
	mt_strlcpy(p->want_max, f, sizeof p->want_max);
	return 0;
}

int latency_params_sized(struct latency_params *p, const struct machine *m, int cpu, int quick,
			 uint64_t max, mt_error *e)
{
	if (quick)
		latency_params_quick(p);
	else
		latency_params_default(p);
	p->note[0] = '\0';
	p->why_max[0] = '\0';
	mt_strlcpy(p->want_max, max ? "--max-size" : quick ? "--quick's" : "the default",
		   sizeof p->want_max);
	if (max)
		return latency_params_set_max(p, max, e);
	return quick ? 0 : reach_memory(p, m, cpu, e);
}

int latency_params_settle(struct latency_params *p, const struct machine *m, int both, int quick,
			  int probe, const struct machine_budget *b, char *note, size_t len,
			  uint64_t *asked, mt_error *e)
{
	char fit[400] = "";
	note[0] = '\0';
	p->page_ns = probe ? mt_fresh_page_ns() : 0; /* for the estimate */
	if (probe && p->sizes[p->nsizes - 1] > (1u << 20)) /* the probes price sizes past 1 MB */
		latency_probe(p);
	if (p->random && (both == 1 || (both < 0 && !quick)) && !latency_pages_both(p, m->pages.thp)) {
		/* a fixed sentence (N_): translated where it is shown */
		mt_strlcpy(note,
			   m->pages.thp[0]
				   ? N_("no random chase on huge pages: transparent huge pages are "
					"off here (a level read past the second-level TLB's reach "
					"may be the page walks', not a cache)")
				   : N_("no random chase on huge pages: transparent huge pages are "
					"not known here (a level read past the second-level TLB's "
					"reach may be the page walks', not a cache)"),
			   len);
		mt_strlcpy(p->note, note, sizeof p->note);
	}
	*asked = p->sizes[p->nsizes - 1];
	if (latency_params_fit_memory(p, b, p->want_max, note[0] ? fit : note,
				       note[0] ? sizeof fit : len, e) < 0)
		return -1;
	if (note[0] && fit[0])
		mt_append(note, len, "; %s", fit);
	if (p->sizes[p->nsizes - 1] < *asked)
		p->why_max[0] = '\0'; /* capped: the note says what it would have been */
	return 0;
}
