/* cliffs: see cliffs.h for the rules. */
#include "config.h"

#include "cliffs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TAIL_RATIO 1.10 /* a step that still falls 10 % belongs to a slope */

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
		return mt_fail(e, "stride index %zu out of range", col);
	if (m->nsizes > MT_ARRAY_LEN(rows))
		return mt_fail(e, "too many sizes");
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

int cliffs_detect(const struct mountain *m, double ratio, struct detection *d)
{
	struct bound {
		double lo, hi, conf;
		int votes;
	} cl[8];
	int ncl = 0;
	size_t row;
	uint64_t line;
	memset(d, 0, sizeof *d);
	memset(cl, 0, sizeof cl);
	if (mountain_measured(m) < 4)
		return -1;
	for (size_t c = 0; c < m->nstrides; c++)
		if (m->strides[c] >= CLIFFS_LINE_WORDS)
			d->strides_used[d->nstrides_used++] = m->strides[c];
	if (d->nstrides_used == 0)
		d->strides_used[d->nstrides_used++] = m->strides[m->nstrides - 1];

	/* Line size first (it scales the bounds): from the stride slice of
	 * the first size at least twice the first stride-8-ish cliff, else
	 * the middle of the grid. */
	row = m->nsizes / 2;
	{
		struct cliff cs[CLIFFS_MAX];
		int col = mountain_stride_index(m, d->strides_used[0]);
		int n = cliffs_find(m, (size_t)col, CLIFF_MERGED, ratio, cs, CLIFFS_MAX, NULL);
		if (n > 0)
			for (size_t r = 0; r < m->nsizes; r++)
				if (m->sizes[r] >= 2 * cs[0].level) {
					row = r;
					break;
				}
	}
	d->line_bytes = cliffs_line_size(m, row);
	line = d->line_bytes ? d->line_bytes : 64;

	for (size_t u = 0; u < d->nstrides_used; u++) {
		struct cliff cs[CLIFFS_MAX];
		unsigned s = d->strides_used[u];
		int col = mountain_stride_index(m, s);
		int n = cliffs_find(m, (size_t)col, CLIFF_MERGED, ratio, cs, CLIFFS_MAX, NULL);
		double f = 8.0 * s >= (double)line ? (double)line / (8.0 * s) : 1.0;
		for (int i = 0; i < n; i++) {
			double lo = (double)cs[i].level * f, hi = (double)cs[i].level_next * f;
			int k;
			/* the same level when the bounds overlap (both ends count: a
			 * set exactly the size of the cache may or may not fit) */
			for (k = 0; k < ncl; k++)
				if (lo <= cl[k].hi && hi >= cl[k].lo)
					break;
			if (k == ncl) {
				if (ncl == (int)MT_ARRAY_LEN(cl))
					continue;
				cl[k].lo = lo;
				cl[k].hi = hi;
				ncl++;
			} else {
				/* intersect */
				if (lo > cl[k].lo)
					cl[k].lo = lo;
				if (hi < cl[k].hi)
					cl[k].hi = hi;
			}
			cl[k].votes++;
			cl[k].conf += cs[i].confidence;
		}
	}
	for (int k = 0; k < ncl; k++) {
		/* a level seen on fewer than half of the strides is noise */
		if (2 * (size_t)cl[k].votes < d->nstrides_used)
			continue;
		if (d->nlevels < (int)MT_ARRAY_LEN(d->level)) {
			d->level[d->nlevels] = (uint64_t)ceil(cl[k].lo);
			d->level_hi[d->nlevels] = (uint64_t)ceil(cl[k].hi);
			d->confidence[d->nlevels] = cl[k].conf / (double)d->nstrides_used;
			d->votes[d->nlevels] = cl[k].votes;
			d->nlevels++;
		}
	}
	/* sort levels ascending (few: insertion sort) */
	for (int i = 1; i < d->nlevels; i++)
		for (int j = i; j > 0 && d->level[j] < d->level[j - 1]; j--) {
			uint64_t t = d->level[j], th = d->level_hi[j];
			double tc = d->confidence[j];
			int tv = d->votes[j];
			d->level[j] = d->level[j - 1];
			d->level_hi[j] = d->level_hi[j - 1];
			d->confidence[j] = d->confidence[j - 1];
			d->votes[j] = d->votes[j - 1];
			d->level[j - 1] = t;
			d->level_hi[j - 1] = th;
			d->confidence[j - 1] = tc;
			d->votes[j - 1] = tv;
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
	case LV_MATCH: return "matches";
	case LV_ONE_STEP: return "off by one step";
	default: return "not visible";
	}
}
