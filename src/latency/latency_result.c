/* latency_result: a latency run's result in memory: made from its
 * parameters, filled point by point from the worker's events, and read
 * back (the points measured, the ones not trusted, a row of the table).
 * See latency.h for the contracts; JSON is in latency_json.c. */
#include "config.h"

#include "base/i18n.h"

#include "latency.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- results ------------------------------------------------------------ */

struct latency_result *latency_result_new(const struct latency_params *p, double ghz)
{
	struct latency_result *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->ghz = ghz;
	r->nsizes = p->nsizes;
	r->nstrides = p->nstrides;
	memcpy(r->sizes, p->sizes, p->nsizes * sizeof *p->sizes);
	memcpy(r->strides, p->strides, p->nstrides * sizeof *p->strides);
	r->has_random = p->random;
	r->random_stride = p->random_stride;
	r->tlb_locality = p->random ? p->tlb_locality : 0;
	r->hugepages = p->hugepages;
	r->has_other = p->random && p->other;
	r->other_hugepages = p->hugepages == LATENCY_HUGE_ON ? LATENCY_HUGE_OFF : LATENCY_HUGE_ON;
	r->other_share = -1;
	r->memory_probe_ns = p->probe.rand_far > 0 ? p->probe.rand_far : 0;
	for (size_t k = 0; k < LATENCY_MAX_STRIDES; k++)
		for (size_t i = 0; i < LATENCY_MAX_SIZES; i++)
			r->ns[k][i] = r->cycles[k][i] = NAN;
	for (size_t i = 0; i < LATENCY_MAX_SIZES; i++)
		r->random_ns[i] = r->random_cycles[i] = r->other_ns[i] = r->other_cycles[i] = NAN;
	return r;
}

void latency_result_free(struct latency_result *r)
{
	if (r)
		cJSON_Delete(r->caches);
	free(r);
}

int latency_apply(struct latency_result *r, const struct job_event *ev)
{
	struct latency_ev_point x;
	if (ev->type == JOB_EV_NOTE && ev->subtype == LATENCY_NOTE_PAGES) {
		mt_strlcpy(r->pages, ev->text, sizeof r->pages);
		return 0;
	}
	if (ev->type == JOB_EV_NOTE && ev->subtype == LATENCY_NOTE_OTHER_PAGES && r->has_other) {
		mt_strlcpy(r->other_pages, ev->text, sizeof r->other_pages);
		r->other_share = ev->value >= 0 && ev->value <= 1 ? ev->value : -1;
		return 0;
	}
	if ((ev->type != JOB_EV_CELL && ev->type != JOB_EV_UPDATE) || ev->row < 0 || (size_t)ev->row >= r->nsizes || ev->col < 0 ||
	    JOB_PAYLOAD_GET(ev, struct latency_ev_point, &x) < 0)
		return -1;
	if (ev->subtype == LATENCY_CELL_RANDOM) {
		if (!r->has_random)
			return -1;
		r->random_ns[ev->row] = ev->value;
		r->random_cycles[ev->row] = x.cycles;
		r->random_spread[ev->row] = round(ev->spread * 1e4) / 1e4; /* as JSON keeps it */
		r->random_tries[ev->row] = x.tries;
		return 0;
	}
	if (ev->subtype == LATENCY_CELL_OTHER) {
		if (!r->has_other)
			return -1;
		r->other_ns[ev->row] = ev->value;
		r->other_cycles[ev->row] = x.cycles;
		r->other_spread[ev->row] = round(ev->spread * 1e4) / 1e4;
		r->other_tries[ev->row] = x.tries;
		return 0;
	}
	if ((size_t)ev->col >= r->nstrides)
		return -1;
	r->ns[ev->col][ev->row] = ev->value;
	r->cycles[ev->col][ev->row] = x.cycles;
	r->spread[ev->col][ev->row] = round(ev->spread * 1e4) / 1e4;
	r->tries[ev->col][ev->row] = x.tries;
	return 0;
}

/* Curve k's point i: ns, cycles, spread and tries (k as in
 * latency_point_doubtful; the caller has checked k names a curve of r). */
static void curve_point(const struct latency_result *r, size_t k, size_t i, double *ns,
			double *cyc, double *spread, unsigned *tries)
{
	if (k < r->nstrides) {
		*ns = r->ns[k][i], *cyc = r->cycles[k][i];
		*spread = r->spread[k][i], *tries = r->tries[k][i];
	} else if (k == r->nstrides) {
		*ns = r->random_ns[i], *cyc = r->random_cycles[i];
		*spread = r->random_spread[i], *tries = r->random_tries[i];
	} else {
		*ns = r->other_ns[i], *cyc = r->other_cycles[i];
		*spread = r->other_spread[i], *tries = r->other_tries[i];
	}
}

int latency_point_doubtful(const struct latency_result *r, size_t k, size_t i)
{
	double ns, cyc, spread;
	unsigned tries;
	if (i >= r->nsizes || k > r->nstrides + 1 || (k >= r->nstrides && !r->has_random) ||
	    (k == r->nstrides + 1 && !r->has_other))
		return 0;
	curve_point(r, k, i, &ns, &cyc, &spread, &tries);
	return !isnan(ns) && tries > 0 && spread > LATENCY_DOUBTFUL_SPREAD;
}

size_t latency_doubtful(const struct latency_result *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nsizes; i++)
		for (size_t k = 0; k <= r->nstrides + 1; k++)
			n += latency_point_doubtful(r, k, i) ? 1 : 0;
	return n;
}

/* One point's CSV fields: cycles, ns, spread, tries and 1 when trusted,
 * 0 when not; spread and trusted empty where the tries are not known. */
static void print_csv_point(FILE *f, const struct latency_result *r, size_t k, size_t i)
{
	double ns, cyc, spread;
	unsigned tries;
	curve_point(r, k, i, &ns, &cyc, &spread, &tries);
	fprintf(f, ",%.3f,%.3f", cyc, ns);
	if (tries)
		fprintf(f, ",%.4f,%u,%d", spread, tries, !latency_point_doubtful(r, k, i));
	else
		fprintf(f, ",,0,");
}

void latency_print_row(FILE *f, const struct latency_result *r, size_t i, int csv)
{
	char sz[32];
	size_t ncurves = latency_ncurves(r);
	if (csv)
		fprintf(f, "%llu", (unsigned long long)r->sizes[i]);
	else
		fprintf(f, "%8s", mt_fmt_size(sz, sizeof sz, r->sizes[i]));
	for (size_t k = 0; k < ncurves; k++) {
		double ns, cyc, spread;
		unsigned tries;
		curve_point(r, k, i, &ns, &cyc, &spread, &tries);
		if (csv)
			print_csv_point(f, r, k, i);
		else if (latency_point_doubtful(r, k, i)) /* the table is for people */
			mt_hfprintf(f, " %8.2f %6.2f~", cyc, ns);
		else
			mt_hfprintf(f, " %8.2f %7.2f", cyc, ns);
	}
	fprintf(f, "\n");
}

size_t latency_ncurves(const struct latency_result *r)
{
	return r->nstrides + (r->has_random ? 1 + (r->has_other ? 1 : 0) : 0);
}

size_t latency_measured(const struct latency_result *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nsizes; i++) {
		for (size_t k = 0; k < r->nstrides; k++)
			n += !isnan(r->ns[k][i]);
		n += r->has_random && !isnan(r->random_ns[i]);
		n += r->has_random && r->has_other && !isnan(r->other_ns[i]);
	}
	return n;
}
