/* cliffs: see cliffs.h for the rules. */
#include "config.h"

#include "base/i18n.h"

#include "cliffs.h"
#include "base/segment.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TAIL_RATIO 1.10 /* a step that still falls 10 % belongs to a slope */
#define CLUSTER_SPAN 2.5 /* columns' steps this close are one level (caches grow 3x+) */
#define MAX_SPREAD 0.25  /* a cell whose two best tries differ more is not read */

static double confidence_of(double ratio)
{
	double c = log(ratio) / log(2.5);
	return c < 0 ? 0 : (c > 1 ? 1 : c);
}

/* The measured points of column col: their row indices. */
static size_t column_points(const struct mountain *m, size_t col, size_t *rows)
{
	size_t n = 0;
	for (size_t r = 0; r < m->nsizes; r++) {
		double v = mountain_at(m, r, col);
		if (!isnan(v) && v > 0)
			rows[n++] = r;
	}
	return n;
}

static int by_from(const void *a, const void *b)
{
	const struct cliff *x = a, *y = b;
	return (x->from > y->from) - (x->from < y->from);
}

int cliffs_find(const struct mountain *m, size_t col, enum cliff_rule rule, double ratio,
		struct cliff *out, int max, mt_error *e)
{
	size_t rows[MOUNTAIN_MAX_SIZES * 4], n, nsteps;
	double step[MOUNTAIN_MAX_SIZES * 4];
	int taken[MOUNTAIN_MAX_SIZES * 4];
	int count = 0;
	if (col >= m->nstrides)
		return mt_fail(e, _("stride index %zu out of range"), col);
	if (m->nsizes > MT_ARRAY_LEN(rows))
		return mt_fail(e, _("too many sizes"));
	n = column_points(m, col, rows);
	nsteps = n > 1 ? n - 1 : 0;
	for (size_t k = 0; k < nsteps; k++) {
		step[k] = mountain_at(m, rows[k], col) / mountain_at(m, rows[k + 1], col);
		taken[k] = 0;
	}
	if (rule == CLIFF_SEED) {
		for (size_t k = 0; k < nsteps && count < max; k++) {
			if (step[k] >= ratio) {
				struct cliff *c = &out[count++];
				c->from = c->level = m->sizes[rows[k]];
				c->to = c->level_next = m->sizes[rows[k + 1]];
				c->ratio = step[k];
				c->confidence = confidence_of(step[k]);
			}
		}
		return count;
	}
	/* merged: steepest steps first; each grows into its slope */
	for (;;) {
		size_t peak = nsteps, lo, hi;
		double total;
		for (size_t k = 0; k < nsteps; k++)
			if (!taken[k] && step[k] >= ratio && (peak == nsteps || step[k] > step[peak]))
				peak = k;
		if (peak == nsteps || count == max)
			break;
		lo = hi = peak;
		taken[peak] = 1;
		total = step[peak];
		while (lo > 0 && !taken[lo - 1] && step[lo - 1] >= TAIL_RATIO && step[lo - 1] <= step[lo]) {
			lo--;
			taken[lo] = 1;
			total *= step[lo];
		}
		while (hi + 1 < nsteps && !taken[hi + 1] && step[hi + 1] >= TAIL_RATIO &&
		       step[hi + 1] <= step[hi]) {
			hi++;
			taken[hi] = 1;
			total *= step[hi];
		}
		out[count].from = m->sizes[rows[lo]];
		out[count].to = m->sizes[rows[hi + 1]];
		out[count].level = m->sizes[rows[peak]];
		out[count].level_next = m->sizes[rows[peak + 1]];
		out[count].ratio = total;
		out[count].confidence = confidence_of(total);
		count++;
	}
	qsort(out, (size_t)count, sizeof *out, by_from);
	return count;
}

uint64_t cliffs_line_size(const struct mountain *m, size_t row)
{
	unsigned maxs = 0;
	if (row >= m->nsizes)
		return 0;
	for (size_t c = 0; c < m->nstrides; c++)
		if (!isnan(mountain_at(m, row, c)))
			maxs = m->strides[c];
	for (unsigned p = 2; p < maxs; p *= 2) {
		int ip = mountain_stride_index(m, p), ih = mountain_stride_index(m, p / 2), flat = 1;
		double vp, vh;
		if (ip < 0 || ih < 0)
			continue;
		vp = mountain_at(m, row, (size_t)ip);
		vh = mountain_at(m, row, (size_t)ih);
		if (isnan(vp) || isnan(vh) || vh / vp < 1.2)
			continue;
		for (size_t c = (size_t)ip + 1; c < m->nstrides; c++) {
			double v = mountain_at(m, row, c);
			if (!isnan(v) && v < vp / 1.15)
				flat = 0;
		}
		if (flat)
			return (uint64_t)p * 8;
	}
	return 0;
}

/* The columns the detection reads: strides of at least one line (8 words
 * of 64 bytes; the largest stride when none is that long). */
static void pick_columns(const struct mountain *m, struct detection *d)
{
	for (size_t c = 0; c < m->nstrides; c++)
		if (m->strides[c] >= CLIFFS_LINE_WORDS)
			d->strides_used[d->nstrides_used++] = m->strides[c];
	if (d->nstrides_used == 0)
		d->strides_used[d->nstrides_used++] = m->strides[m->nstrides - 1];
}

/* The line size off the stride slice of the first row at least twice the
 * first cliff of the first column used (else the middle row). */
static uint64_t line_of(const struct mountain *m, const struct detection *d, double ratio)
{
	struct cliff cs[CLIFFS_MAX];
	size_t row = m->nsizes / 2;
	int col = mountain_stride_index(m, d->strides_used[0]);
	int n = cliffs_find(m, (size_t)col, CLIFF_MERGED, ratio, cs, CLIFFS_MAX, NULL);
	if (n > 0)
		for (size_t r = 0; r < m->nsizes; r++)
			if (m->sizes[r] >= 2 * cs[0].level) {
				row = r;
				break;
			}
	return cliffs_line_size(m, row);
}

/* The steps of one column: seg_levels() on its time per access (the
 * inverse of throughput), levels at least ratio apart. Writes the size
 * index of each step's edge; returns their count. */
size_t cliffs_column_steps(const struct mountain *m, size_t col, double ratio, size_t *edge,
			   size_t cap)
{
	double cost[MOUNTAIN_MAX_SIZES];
	struct seg_level lv[MOUNTAIN_MAX_SIZES];
	struct seg_params p;
	size_t n, k;
	for (size_t r = 0; r < m->nsizes && r < MOUNTAIN_MAX_SIZES; r++) {
		double v = mountain_at(m, r, col);
		double sp = m->spread ? m->spread[r * m->nstrides + col] : (double)NAN;
		cost[r] = isfinite(v) && v > 0 && !(sp > MAX_SPREAD) ? 1.0 / v : (double)NAN;
	}
	seg_params_mountain(&p);
	p.min_ratio = ratio;
	n = seg_levels(m->sizes, cost, m->nsizes, &p, lv, MOUNTAIN_MAX_SIZES);
	for (k = 0; k + 1 < n && k < cap; k++)
		edge[k] = lv[k].edge;
	return k;
}

struct vote {
	size_t row; /* size index of a column's step */
	size_t col; /* which column (index into strides_used) */
};

static int by_row(const void *a, const void *b)
{
	const struct vote *x = a, *y = b;
	return (x->row > y->row) - (x->row < y->row);
}

/* One level from a cluster of votes: the lower median of their sizes, the
 * range from the smallest to the size after the largest. */
static void add_level(const struct mountain *m, struct detection *d, const struct vote *v,
		      size_t n)
{
	int k = d->nlevels;
	size_t last = v[n - 1].row;
	if (2 * n < d->nstrides_used || k == (int)MT_ARRAY_LEN(d->level))
		return; /* seen on fewer than half of the columns: noise */
	d->size[k] = m->sizes[v[(n - 1) / 2].row];
	d->level[k] = m->sizes[v[0].row];
	d->level_hi[k] = m->sizes[last + 1 < m->nsizes ? last + 1 : last];
	d->votes[k] = (int)n;
	d->confidence[k] = (double)n / (double)d->nstrides_used;
	d->nlevels++;
}

int cliffs_detect(const struct mountain *m, double ratio, struct detection *d)
{
	struct vote v[MOUNTAIN_MAX_STRIDES * MOUNTAIN_MAX_SIZES];
	size_t nv = 0, first = 0;
	memset(d, 0, sizeof *d);
	if (mountain_measured(m) < 4)
		return -1;
	pick_columns(m, d);
	d->line_bytes = line_of(m, d, ratio);
	for (size_t u = 0; u < d->nstrides_used; u++) {
		size_t edge[MOUNTAIN_MAX_SIZES];
		size_t n = cliffs_column_steps(m, (size_t)mountain_stride_index(m, d->strides_used[u]),
					       ratio, edge, MOUNTAIN_MAX_SIZES);
		for (size_t i = 0; i < n; i++)
			v[nv++] = (struct vote){ edge[i], u };
	}
	qsort(v, nv, sizeof *v, by_row);
	/* a step joins the level of the steps before it when it lies within
	 * CLUSTER_SPAN of the first of them; a second step of a column there is
	 * the same boundary, spread */
	for (size_t i = 1, n = 1; i <= nv; i++) {
		int near = i < nv && (double)m->sizes[v[i].row] <=
					     CLUSTER_SPAN * (double)m->sizes[v[first].row];
		int again = 0;
		for (size_t j = first; near && j < first + n; j++)
			again |= v[j].col == v[i].col;
		if (near && again)
			continue; /* its column rose twice within one level: one boundary */
		if (near) {
			v[first + n++] = v[i];
			continue;
		}
		add_level(m, d, &v[first], n);
		first = i;
		n = 1;
	}
	return 0;
}

enum level_verdict cliffs_detect_verdict(const struct detection *d, uint64_t ref, int *which)
{
	enum level_verdict best = LV_NOT_VISIBLE;
	*which = -1;
	for (int i = 0; i < d->nlevels; i++) {
		if (ref >= d->level[i] && ref <= d->level_hi[i]) {
			*which = i;
			return LV_MATCH;
		}
		if (best == LV_NOT_VISIBLE && ref * 2 >= d->level[i] && ref <= d->level_hi[i] * 2) {
			best = LV_ONE_STEP;
			*which = i;
		}
	}
	return best;
}

const char *cliffs_verdict_name(enum level_verdict v)
{
	switch (v) {
	/* words for people (memtop cliffs' text) */
	case LV_MATCH: return _("matches");
	case LV_ONE_STEP: return _("off by one step");
	default: return _("not visible");
	}
}
