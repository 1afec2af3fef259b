/* segment: the phases of seg_levels(); see segment.h for the method. */
#include "config.h"

#include "segment.h"
#include "util.h"

#include <math.h>
#include <string.h>

#define LATENCY_PENALTY 0.07
#define LATENCY_MIN_RATIO 2.0
#define MOUNTAIN_MIN_RATIO 1.5
#define TOLERANCE 0.15
#define SHALLOW_SIDES 3.0   /* its sides vary (ln) by at most 1 / this of the step */
#define EDGE_OCTAVES 0.5 /* a level's cost next to a step: its points this close to it */

void seg_params_latency(struct seg_params *p)
{
	p->penalty = LATENCY_PENALTY;
	p->min_ratio = LATENCY_MIN_RATIO;
	p->tolerance = TOLERANCE;
	p->transitions = 1;
	p->shallow = 0;
}

void seg_params_mountain(struct seg_params *p)
{
	seg_params_latency(p);
	p->min_ratio = MOUNTAIN_MIN_RATIO;
}

static double median3(double a, double b, double c)
{
	if (a > b) {
		double t = a;
		a = b;
		b = t;
	}
	return c < a ? a : (c > b ? b : c);
}

void seg_smooth(const double *v, size_t n, double *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = i == 0 || i + 1 == n ? v[i] : median3(v[i - 1], v[i], v[i + 1]);
}

void seg_octaves(const uint64_t *sizes, size_t n, double *w)
{
	for (size_t i = 0; i < n; i++) {
		double lo = log2((double)sizes[i > 0 ? i - 1 : i]);
		double hi = log2((double)sizes[i + 1 < n ? i + 1 : i]);
		w[i] = (i > 0 && i + 1 < n) ? (hi - lo) / 2 : hi - lo;
	}
}

size_t seg_fit(const double *x, const double *w, size_t n, double penalty, size_t *start,
	       size_t cap)
{
	/* prefix sums of w, w x, w x^2: the error of a piece in O(1) */
	double s0[SEG_MAX_POINTS + 1], s1[SEG_MAX_POINTS + 1], s2[SEG_MAX_POINTS + 1];
	double best[SEG_MAX_POINTS + 1];
	size_t from[SEG_MAX_POINTS + 1], k, j, count = 0;
	if (n == 0 || n > SEG_MAX_POINTS || cap == 0)
		return 0;
	s0[0] = s1[0] = s2[0] = 0;
	for (k = 0; k < n; k++) {
		s0[k + 1] = s0[k] + w[k];
		s1[k + 1] = s1[k] + w[k] * x[k];
		s2[k + 1] = s2[k] + w[k] * x[k] * x[k];
	}
	best[0] = 0;
	for (j = 1; j <= n; j++) {
		best[j] = INFINITY;
		from[j] = 0;
		for (k = 0; k < j; k++) {
			double sw = s0[j] - s0[k], sx = s1[j] - s1[k];
			double err = sw > 0 ? (s2[j] - s2[k]) - sx * sx / sw : 0;
			double c = best[k] + err + penalty;
			if (c < best[j]) {
				best[j] = c;
				from[j] = k;
			}
		}
	}
	/* walk back from the end, then reverse */
	for (j = n; j > 0 && count < cap; j = from[j])
		start[count++] = from[j];
	for (k = 0; k < count / 2; k++) {
		size_t t = start[k];
		start[k] = start[count - 1 - k];
		start[count - 1 - k] = t;
	}
	return count;
}

/* ---- the reading -------------------------------------------------------- */

/* The usable points of a curve, compacted, with what the phases need. */
struct curve {
	size_t n;
	size_t index[SEG_MAX_POINTS]; /* into the caller's arrays */
	double size[SEG_MAX_POINTS];
	double raw[SEG_MAX_POINTS];   /* cost */
	double x[SEG_MAX_POINTS];     /* ln(cost), smoothed */
	double w[SEG_MAX_POINTS];     /* octaves */
};

/* A level while the phases work: points i0..i1 of the compacted curve. */
struct piece {
	size_t i0, i1;
	double lv; /* weighted mean of x over its points */
};

static double piece_level(const struct curve *c, size_t i0, size_t i1)
{
	double sw = 0, sx = 0;
	for (size_t i = i0; i <= i1; i++) {
		sw += c->w[i];
		sx += c->w[i] * c->x[i];
	}
	return sw > 0 ? sx / sw : c->x[i0];
}

static struct piece make_piece(const struct curve *c, size_t i0, size_t i1)
{
	struct piece p = { i0, i1, piece_level(c, i0, i1) };
	return p;
}

/* Phase 0: keep the points with a positive finite cost and growing size. */
static int load_curve(const uint64_t *sizes, const double *cost, size_t n, struct curve *c)
{
	double ln[SEG_MAX_POINTS];
	uint64_t sz[SEG_MAX_POINTS];
	c->n = 0;
	for (size_t i = 0; i < n && c->n < SEG_MAX_POINTS; i++) {
		if (!isfinite(cost[i]) || cost[i] <= 0 || sizes[i] == 0)
			continue;
		if (c->n && sizes[i] <= sz[c->n - 1])
			continue;
		c->index[c->n] = i;
		sz[c->n] = sizes[i];
		c->size[c->n] = (double)sizes[i];
		c->raw[c->n] = cost[i];
		ln[c->n] = log(cost[i]);
		c->n++;
	}
	if (c->n < 2)
		return -1;
	seg_smooth(ln, c->n, c->x);
	seg_octaves(sz, c->n, c->w);
	return 0;
}

/* Phase 2: the fit's pieces. Returns their count. */
static size_t fit_pieces(const struct curve *c, double penalty, struct piece *p)
{
	size_t start[SEG_MAX_POINTS];
	size_t np = seg_fit(c->x, c->w, c->n, penalty, start, SEG_MAX_POINTS);
	for (size_t k = 0; k < np; k++)
		p[k] = make_piece(c, start[k], k + 1 < np ? start[k + 1] - 1 : c->n - 1);
	return np;
}

/* Pieces k and k+1 become one, the points between them included. */
static void merge_at(const struct curve *c, struct piece *p, size_t *np, size_t k)
{
	p[k] = make_piece(c, p[k].i0, p[k + 1].i1);
	memmove(&p[k + 1], &p[k + 2], (*np - k - 2) * sizeof *p);
	(*np)--;
}

/* Phase 3: the first level not slower than the one before joins it.
 * Returns 1 when it merged one. */
static int merge_dip(const struct curve *c, struct piece *p, size_t *np)
{
	for (size_t k = 0; k + 1 < *np; k++)
		if (p[k + 1].lv <= p[k].lv) {
			merge_at(c, p, np, k);
			return 1;
		}
	return 0;
}

/* The median of the smoothed cost of a piece's points within EDGE_OCTAVES
 * of its start (head) or of its end (tail). */
static double edge_cost(const struct curve *c, const struct piece *q, int head)
{
	double v[SEG_MAX_POINTS];
	size_t n = 0;
	for (size_t i = q->i0; i <= q->i1; i++) {
		double d = head ? log2(c->size[i] / c->size[q->i0])
				: log2(c->size[q->i1] / c->size[i]);
		if (d <= EDGE_OCTAVES)
			v[n++] = exp(c->x[i]);
	}
	return mt_median(v, n);
}

/* How far (ln) the points between levels a and b fall under the bound of a
 * step from a to b (phase 4); <= 0 when the step explains them all. */
static double under_bound(const struct curve *c, const struct piece *a, const struct piece *b)
{
	double va = edge_cost(c, a, 0), vb = edge_cost(c, b, 1);
	double cap = c->size[a->i1 + 1], worst = -INFINITY;
	for (size_t i = a->i1 + 1; i < b->i0; i++) {
		double miss = 1 - cap / c->size[i];
		double bound = va + (vb - va) * (miss > 0 ? miss : 0);
		double d = log(bound) - c->x[i];
		if (d > worst)
			worst = d;
	}
	return worst;
}

/* The octaves a piece spans. */
static double octaves(const struct curve *c, const struct piece *q)
{
	return log2(c->size[q->i1] / c->size[q->i0]);
}

/* The spread (ln of the highest raw cost over the lowest) of the points of
 * q within an octave of its point `from` (head 1: from on, up; head 0:
 * from back, down); -1 when they span less than an octave. */
static double octave_spread(const struct curve *c, const struct piece *q, size_t from, int head)
{
	double lo = INFINITY, hi = -INFINITY, span = 0;
	for (size_t i = q->i0; i <= q->i1; i++) {
		double d = head ? log2(c->size[i] / c->size[from]) : log2(c->size[from] / c->size[i]);
		if (d < 0 || d > 1 + 1e-9)
			continue;
		lo = fmin(lo, c->raw[i]);
		hi = fmax(hi, c->raw[i]);
		span = fmax(span, d);
	}
	return span >= 1 - 1e-9 ? log(hi / lo) : -1;
}

/* How flat q is over an octave next to its start (head 1) or its end: the
 * spread of that octave's points, or of the octave one point further in
 * when flatter (the point next to a step may be partial); -1 when q spans
 * no octave there. */
static double side_spread(const struct curve *c, const struct piece *q, int head)
{
	size_t end = head ? q->i0 : q->i1;
	double a = octave_spread(c, q, end, head), b = -1;
	if (q->i1 > q->i0)
		b = octave_spread(c, q, head ? end + 1 : end - 1, head);
	if (a < 0)
		return b;
	return b >= 0 && b < a ? b : a;
}

/* Whether a cache could end between a's last point and b's first: a size
 * of at most four significant bits (m x 2^e, m 8..15) from 1 KB lies there. */
static int cache_ends_between(const struct curve *c, const struct piece *a, const struct piece *b)
{
	for (unsigned e = 7; e < 40; e++)
		for (uint64_t m = 8; m < 16; m++) {
			double s = (double)(m << e);
			if (s >= c->size[a->i1] && s < c->size[b->i0])
				return 1;
		}
	return 0;
}

/* Phase 5's exception: the step from p[k] to p[k + 1] is shallow (at least
 * shallow) and stays: flat on both sides over an octave, a cache's end
 * between them. */
static int shallow_stays(const struct curve *c, const struct piece *p, size_t k, double shallow)
{
	double gap = p[k + 1].lv - p[k].lv, l, r;
	if (shallow <= 1 || gap < log(shallow))
		return 0;
	l = side_spread(c, &p[k], 0);
	r = side_spread(c, &p[k + 1], 1);
	return l >= 0 && r >= 0 && l <= gap / SHALLOW_SIDES && r <= gap / SHALLOW_SIDES &&
	       cache_ends_between(c, &p[k], &p[k + 1]);
}

/* Phase 4: drop the inner level the step around it explains best, when it
 * explains it within tolerance (never one a shallow step that stays
 * follows: phase 5's exception). Returns 1 when one was dropped. */
static int drop_transition(const struct curve *c, struct piece *p, size_t *np,
			   const struct seg_params *prm)
{
	size_t best = 0;
	double best_d = INFINITY, tolerance = prm->tolerance, min_ratio = prm->min_ratio;
	for (size_t k = 1; k + 1 < *np; k++) {
		size_t up = k + 1;
		double d;
		if (shallow_stays(c, p, k, prm->shallow))
			continue; /* a level: a shallow step flat on both sides follows it */
		/* the step goes to the first level at least min_ratio above this one
		 * when the nearer one is shorter: a plateau is not the middle of a
		 * step to a brief rise above it (page walks, another tenant), which
		 * merges with what follows it */
		while (up + 1 < *np && p[up].lv - p[k].lv < log(min_ratio) &&
		       octaves(c, &p[up]) < octaves(c, &p[k]))
			up++;
		d = under_bound(c, &p[k - 1], &p[up]);
		if (d <= tolerance && d < best_d) {
			best_d = d;
			best = k;
		}
	}
	if (best == 0)
		return 0;
	memmove(&p[best], &p[best + 1], (*np - best - 1) * sizeof *p);
	(*np)--;
	return 1;
}

/* Phase 5: merge the two closest neighbours when closer than min_ratio and
 * not a shallow step that stays. Returns 1 when it merged. */
static int merge_closest(const struct curve *c, struct piece *p, size_t *np,
			 const struct seg_params *prm)
{
	size_t best = 0;
	double gap = INFINITY;
	for (size_t k = 0; k + 1 < *np; k++)
		if (p[k + 1].lv - p[k].lv < gap && !shallow_stays(c, p, k, prm->shallow)) {
			gap = p[k + 1].lv - p[k].lv;
			best = k;
		}
	if (*np < 2 || gap >= log(prm->min_ratio))
		return 0;
	merge_at(c, p, np, best);
	return 1;
}

/* Phase 6: the last point below the middle of a and b (in ln) before b
 * begins: where the curve passes the middle for good (a spike inside a
 * passes it too, and comes back). */
static size_t edge_of(const struct curve *c, const struct piece *a, const struct piece *b)
{
	double mid = (a->lv + b->lv) / 2;
	for (size_t i = b->i0; i > a->i0; i--)
		if (c->x[i - 1] <= mid)
			return i - 1;
	return a->i0;
}

/* The median raw cost of a piece's points. */
static double piece_cost(const struct curve *c, const struct piece *q)
{
	return mt_median(&c->raw[q->i0], q->i1 - q->i0 + 1);
}

size_t seg_levels(const uint64_t *sizes, const double *cost, size_t n, const struct seg_params *p,
		  struct seg_level *out, size_t cap)
{
	struct curve c;
	struct piece q[SEG_MAX_POINTS];
	size_t nq, k;
	if (load_curve(sizes, cost, n, &c) < 0)
		return 0;
	nq = fit_pieces(&c, p->penalty, q);
	while (merge_dip(&c, q, &nq) ||
	       (p->transitions && drop_transition(&c, q, &nq, p)) ||
	       merge_closest(&c, q, &nq, p))
		;
	for (k = 0; k < nq && k < cap; k++) {
		size_t e = k + 1 < nq ? edge_of(&c, &q[k], &q[k + 1]) : q[k].i1;
		out[k].i0 = c.index[q[k].i0];
		out[k].i1 = c.index[q[k].i1];
		out[k].edge = c.index[e];
		out[k].cost = piece_cost(&c, &q[k]);
	}
	return k;
}
