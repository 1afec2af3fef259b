/* latency_levels: reading a latency curve into cache levels, way sizes and
 * TLB steps (seed 002's analysis, made robust). Pure functions on arrays;
 * see latency.h for the contracts and memtop(1) for the method. */
#include "config.h"

#include "latency.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIN_WIDTH 4        /* points a plateau needs (half an octave) */
#define CLUSTER_GAP 2      /* size steps apart that still count as the same step */
#define TLB_SLACK 0.25     /* the added latency may miss proportionality by 25 % ... */
#define TLB_FLOOR 0.10     /* ... plus 10 % of the level (the flatness tolerance) */

/* Median of the values v[i] for i in [i0, i1] with mask[i] set (mask NULL:
 * all). NAN when none. */
static double median_range(const double *v, const unsigned char *mask, size_t i0, size_t i1)
{
	double tmp[LAT_MAX_SIZES];
	size_t n = 0;
	for (size_t i = i0; i <= i1 && n < LAT_MAX_SIZES; i++)
		if (!mask || mask[i])
			tmp[n++] = v[i];
	return n ? mt_median(tmp, n) : (double)NAN;
}

size_t latency_segment(const double *v, size_t n, double tol, double merge,
		       struct latency_plateau *out, size_t cap)
{
	const double *s = v;
	unsigned char in[LAT_MAX_SIZES];
	struct latency_plateau p[LAT_MAX_SIZES];
	size_t m = 0, np = 0, i;
	while (m < n && m < LAT_MAX_SIZES && isfinite(v[m]))
		m++;
	if (m < MIN_WIDTH)
		return 0;
	/* maximal runs of >= MIN_WIDTH points within tol of their running mean;
	 * a run steps over one or two points that are off when the point after
	 * them is back within tol (a spike two points wide); those points do not
	 * count in its level */
	memset(in, 0, sizeof in);
	i = 0;
	while (i < m) {
		double sum = s[i];
		size_t j = i + 1, cnt = 1, last = i;
		unsigned char mem[LAT_MAX_SIZES];
		mem[i] = 1;
		while (j < m) {
			double mean = sum / (double)cnt;
			size_t skip = 0;
			while (skip <= 2 && j + skip < m && fabs(s[j + skip] - mean) > tol * mean)
				skip++;
			if (skip > 2 || j + skip >= m)
				break;
			for (size_t k = j; k < j + skip; k++)
				mem[k] = 0;
			j += skip;
			mem[j] = 1;
			sum += s[j];
			cnt++;
			last = j;
			j++;
		}
		if (cnt >= MIN_WIDTH) {
			p[np].i0 = i;
			p[np].i1 = last;
			for (size_t k = i; k <= last; k++)
				in[k] = mem[k];
			p[np].level = median_range(v, in, i, last);
			np++;
			i = last + 1;
		} else {
			i++;
		}
	}
	/* merge neighbours closer than `merge`, step points between them too */
	for (i = 0; i + 1 < np;) {
		double a = p[i].level, b = p[i + 1].level, lo = a < b ? a : b;
		if (fabs(a - b) < merge * lo) {
			for (size_t k = p[i].i1 + 1; k < p[i + 1].i0; k++)
				in[k] = 1;
			p[i].i1 = p[i + 1].i1;
			p[i].level = median_range(v, in, p[i].i0, p[i].i1);
			memmove(&p[i + 1], &p[i + 2], (np - i - 2) * sizeof *p);
			np--;
			if (i > 0)
				i--; /* the merged level may now be close to the left one */
		} else {
			i++;
		}
	}
	if (np > cap)
		np = cap;
	memcpy(out, p, np * sizeof *p);
	return np;
}

/* ---- levels across curves ------------------------------------------------ */

#define MAX_B (LAT_MAX_SIZES * 2)
#define CURVE_RANDOM -1

struct bnd {
	int curve;        /* fixed stride index, or CURVE_RANDOM */
	size_t pos, next; /* last index of the lower plateau, first of the upper */
	double lo, hi;    /* their levels */
	int cluster;      /* -1 dropped */
	int shifted;      /* linked as the same step moved right (associativity) */
};

struct cluster {
	size_t pos, next; /* consensus indices */
	double lo;        /* lower level: reference curve */
	int ref;          /* the reference curve */
	int tlb;
	int drop;
	double tlb_cost;  /* cycles a miss */
};

static int bnd_cmp(const void *a, const void *b)
{
	const struct bnd *x = a, *y = b;
	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	return x->curve < y->curve ? -1 : x->curve > y->curve;
}

static size_t lower_median_idx(size_t *v, size_t n)
{
	/* insertion sort, n small */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			size_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[(n - 1) / 2];
}

static const double *curve_of(const struct latency_curves *c, int curve)
{
	return curve == CURVE_RANDOM ? c->random : c->cycles[curve];
}

static size_t measured_len(const double *v, size_t n)
{
	size_t m = 0;
	while (m < n && isfinite(v[m]))
		m++;
	return m;
}

/* The step's size on curve v between a plateau ending at i1 and one
 * starting at i0: the last point before the curve first reaches half-way
 * between their levels lo and hi. */
static size_t step_pos(const double *v, size_t i1, size_t i0, double lo, double hi)
{
	double mid = (lo + hi) / 2;
	for (size_t i = i1 + 1; i < i0; i++)
		if (v[i] >= mid)
			return i - 1;
	return i0 - 1;
}

/* Make a one rise from a's lower level to b's upper level (b comes later). */
static void combine(const struct latency_curves *c, struct bnd *a, const struct bnd *b)
{
	size_t i1 = a->pos;
	/* the lower plateau ended at or before a->pos; search from there */
	while (i1 > 0 && fabs(curve_of(c, a->curve)[i1] - a->lo) > LAT_TOLERANCE * a->lo)
		i1--;
	a->hi = b->hi;
	a->next = b->next;
	a->pos = step_pos(curve_of(c, a->curve), i1, a->next, a->lo, a->hi);
}

/* The rises of one curve as boundaries; bumps (a rise the curve comes back
 * down from) are not steps. */
static size_t curve_bounds(const struct latency_curves *c, int curve, struct bnd *out, size_t cap)
{
	struct latency_plateau p[LAT_MAX_SIZES];
	size_t np = latency_segment(curve_of(c, curve), c->nsizes, LAT_TOLERANCE, LAT_MERGE, p,
				    LAT_MAX_SIZES);
	size_t n = 0;
	for (size_t j = 0; j + 1 < np && n < cap; j++) {
		int stays = 1;
		if (!(p[j + 1].level > p[j].level * (1 + LAT_TOLERANCE)))
			continue;
		for (size_t k = j + 1; k < np; k++)
			if (!(p[k].level > p[j].level * (1 + LAT_TOLERANCE)))
				stays = 0;
		if (!stays)
			continue;
		out[n].curve = curve;
		/* a step spread over several sizes: its size is the last point
		 * before the curve first passes half-way between the two levels
		 * (the seed takes the plateau's last point, which a slow rise
		 * pulls to the left) */
		out[n].pos = step_pos(curve_of(c, curve), p[j].i1, p[j + 1].i0, p[j].level,
				      p[j + 1].level);
		out[n].next = p[j + 1].i0;
		out[n].lo = p[j].level;
		out[n].hi = p[j + 1].level;
		out[n].cluster = -1;
		out[n].shifted = 0;
		n++;
	}
	return n;
}

/* The index of the size nearest to target (in log terms, first on ties). */
static size_t nearest_size(const struct latency_curves *c, double target)
{
	size_t best = 0;
	double bd = INFINITY;
	for (size_t i = 0; i < c->nsizes; i++) {
		double d = fabs(log((double)c->sizes[i] / target));
		if (d < bd - 1e-12) {
			bd = d;
			best = i;
		}
	}
	return best;
}

/* The level change of fixed curve k across [pos, next]: median of the five
 * points after minus median of the five up to pos (fewer at the ends; NAN
 * when fewer than three are measured on a side). */
static double jump(const struct latency_curves *c, int k, size_t pos, size_t next, double *lo)
{
	const double *v = c->cycles[k];
	size_t m = measured_len(v, c->nsizes), a, b;
	double l, r;
	if (pos < 2 || next + 2 >= m)
		return NAN;
	a = pos >= 4 ? pos - 4 : 0;
	b = next + 4 < m ? next + 4 : m - 1;
	l = median_range(v, NULL, a, pos);
	r = median_range(v, NULL, next, b);
	*lo = l;
	return r - l;
}

/* Is the step of cluster q a TLB step: its added latency proportional to the
 * stride on every fixed curve, and visible on at least two? */
static int tlb_test(const struct latency_curves *c, const struct cluster *q, double *cost)
{
	double J[LAT_MAX_STRIDES], L[LAT_MAX_STRIDES];
	int top = -1, visible = 0, valid = 0;
	for (size_t k = 0; k < c->nstrides; k++) {
		J[k] = jump(c, (int)k, q->pos, q->next, &L[k]);
		if (isfinite(J[k])) {
			top = (int)k;
			valid++;
			if (J[k] > LAT_TOLERANCE * L[k])
				visible++;
		}
	}
	if (top < 0 || valid < 2 || visible < 2 || !(J[top] > LAT_TOLERANCE * L[top]))
		return 0;
	for (size_t k = 0; k < c->nstrides; k++) {
		double want;
		if (!isfinite(J[k]))
			continue;
		want = J[top] * (double)c->strides[k] / (double)c->strides[top];
		if (fabs(J[k] - want) > TLB_SLACK * want + TLB_FLOOR * L[k])
			return 0;
	}
	*cost = J[top];
	if (c->strides[top] <= c->page && c->page)
		*cost = J[top] * (double)c->page / (double)c->strides[top];
	return 1;
}

static void set_ns(struct latency_level *l, double ghz)
{
	l->ns = ghz > 0 ? l->cycles / ghz : 0;
}

size_t latency_detect_curves(const struct latency_curves *c, struct latency_levels *out)
{
	struct bnd *bs;
	struct cluster q[MAX_B];
	size_t nb = 0, nq = 0, ncurves = 0;
	int ncache = 0, ntlb = 0;
	size_t prev_pos = 0;
	double prev_cycles = 0;
	memset(out, 0, sizeof *out);
	if (!c->sizes || c->nsizes < MIN_WIDTH)
		return 0;
	bs = calloc(MAX_B, sizeof *bs);
	if (!bs)
		return 0;

	/* 1. the rises of every curve */
	for (size_t k = 0; k < c->nstrides; k++) {
		if (measured_len(c->cycles[k], c->nsizes) >= MIN_WIDTH)
			ncurves++;
		nb += curve_bounds(c, (int)k, bs + nb, MAX_B - nb);
	}
	if (c->random) {
		if (measured_len(c->random, c->nsizes) >= MIN_WIDTH)
			ncurves++;
		nb += curve_bounds(c, CURVE_RANDOM, bs + nb, MAX_B - nb);
	}
	qsort(bs, nb, sizeof *bs, bnd_cmp);

	/* 2. cluster: a boundary joins the current step when it starts before
	 * (or right at) the end of a member's rise, i.e. a step spread over
	 * several sizes is one step, but never more than an octave from the
	 * step's first boundary; one boundary per curve */
	{
		size_t first = 0, maxnext = 0;
		for (size_t i = 0; i < nb; i++) {
			int fresh = nq == 0;
			if (!fresh) {
				if (bs[i].pos > maxnext + 1 && bs[i].pos - first > CLUSTER_GAP)
					fresh = 1;
				if (bs[i].pos - first > 8)
					fresh = 1;
				for (size_t j = 0; j < i && !fresh; j++) {
					if (bs[j].cluster != (int)nq - 1 || bs[j].curve != bs[i].curve)
						continue;
					if (bs[i].pos <= maxnext + 1) {
						/* the same curve rises twice within one
						 * spread step: one rise from the first
						 * level to the second */
						combine(c, &bs[j], &bs[i]);
						if (bs[j].next > maxnext)
							maxnext = bs[j].next;
						bs[i].cluster = -2;
						break;
					}
					fresh = 1;
				}
				if (bs[i].cluster == -2)
					continue;
			}
			if (fresh) {
				memset(&q[nq], 0, sizeof q[nq]);
				nq++;
				first = bs[i].pos;
				maxnext = bs[i].next;
			}
			if (bs[i].next > maxnext)
				maxnext = bs[i].next;
			bs[i].cluster = (int)nq - 1;
		}
	}

	/* 3. associativity: a step of the largest strides at 2x, 4x ... the size
	 * of a step the smaller strides show at the same lower level is that
	 * step moved right (the stride passed the way size) */
	for (size_t g = 0; g < nq; g++) {
		int kmax = -1;
		double lo = NAN;
		size_t pos = 0;
		for (size_t i = 0; i < nb; i++)
			if (bs[i].cluster == (int)g && bs[i].curve != CURVE_RANDOM && !bs[i].shifted &&
			    bs[i].curve > kmax) {
				kmax = bs[i].curve;
				lo = bs[i].lo;
				pos = bs[i].pos;
			}
		if (kmax < 0)
			continue;
		{
			double target = (double)c->sizes[pos];
			for (size_t k = (size_t)kmax + 1; k < c->nstrides; k++) {
				size_t want;
				int found = -1;
				if (c->strides[k] != 2 * c->strides[k - 1])
					break;
				target *= 2;
				want = nearest_size(c, target);
				for (size_t i = 0; i < nb; i++) {
					int other_small = 0;
					if (bs[i].curve != (int)k || bs[i].shifted || bs[i].cluster < 0 ||
					    bs[i].cluster == (int)g ||
					    (bs[i].pos > want ? bs[i].pos - want : want - bs[i].pos) > 1 ||
					    fabs(bs[i].lo - lo) >= LAT_MERGE * fmin(lo, bs[i].lo))
						continue;
					/* not a step the small strides show too */
					for (size_t j = 0; j < nb; j++)
						if (bs[j].cluster == bs[i].cluster && bs[j].curve >= 0 &&
						    bs[j].curve <= kmax)
							other_small = 1;
					if (!other_small)
						found = (int)i;
					break;
				}
				if (found < 0)
					break;
				bs[found].cluster = (int)g;
				bs[found].shifted = 1;
			}
		}
	}

	/* 4. per cluster: consensus position, support, reference level */
	for (size_t g = 0; g < nq; g++) {
		size_t pv[LAT_MAX_STRIDES + 1], nv[LAT_MAX_STRIDES + 1], n = 0, members = 0;
		int ref = -2;
		for (size_t i = 0; i < nb; i++) {
			if (bs[i].cluster != (int)g)
				continue;
			members++;
			if (bs[i].shifted)
				continue;
			if (n <= LAT_MAX_STRIDES) {
				pv[n] = bs[i].pos;
				nv[n] = bs[i].next;
				n++;
			}
			/* reference: the random chase, else the stride that shows the
			 * highest level below the step (the least hidden by the
			 * prefetchers; the smallest such stride on a tie) */
			if (bs[i].curve == CURVE_RANDOM ||
			    (ref != CURVE_RANDOM &&
			     (ref == -2 || bs[i].lo > q[g].lo ||
			      (bs[i].lo == q[g].lo && bs[i].curve < ref)))) {
				ref = bs[i].curve;
				q[g].lo = bs[i].lo;
			}
		}
		if (n == 0 || (ncurves >= 3 && members < 2)) {
			q[g].drop = 1;
			continue;
		}
		q[g].ref = ref;
		q[g].pos = lower_median_idx(pv, n);
		q[g].next = lower_median_idx(nv, n);
		if (q[g].next <= q[g].pos)
			q[g].next = q[g].pos + 1;
	}

	/* 5. TLB steps: added latency proportional to the stride, left of a
	 * cache step */
	for (size_t g = 0; g < nq; g++) {
		int has_shift = 0, later_cache = 0;
		if (q[g].drop)
			continue;
		for (size_t i = 0; i < nb; i++)
			if (bs[i].cluster == (int)g && bs[i].shifted)
				has_shift = 1;
		for (size_t h = g + 1; h < nq; h++)
			if (!q[h].drop)
				later_cache = 1;
		/* and at least 4 pages of reach: no TLB is smaller */
		if (!has_shift && later_cache && c->nstrides >= 2 &&
		    (!c->page || c->sizes[q[g].pos] >= 4ull * c->page))
			q[g].tlb = tlb_test(c, &q[g], &q[g].tlb_cost);
	}

	/* 6. the levels */
	for (size_t g = 0; g < nq && out->n < LAT_MAX_LEVELS; g++) {
		struct latency_level *l;
		uint64_t wmin = 0, wmax = 0, width_min = 0, width_max = 0;
		unsigned shown = 0, first_shift = 0;
		int slanted_all = 1, nunshifted = 0, from_random = 0;
		if (q[g].drop)
			continue;
		l = &out->lv[out->n++];
		memset(l, 0, sizeof *l);
		l->size = c->sizes[q[g].pos];
		l->step_end = c->sizes[q[g].next < c->nsizes ? q[g].next : c->nsizes - 1];
		if (q[g].tlb) {
			l->tlb = 1;
			l->level = ++ntlb;
			l->cycles = q[g].tlb_cost;
			l->entries = c->page ? l->size / c->page : 0;
			set_ns(l, c->ghz);
			for (size_t i = 0; i < nb; i++)
				if (bs[i].cluster == (int)g && bs[i].curve >= 0)
					l->nstrides++;
			continue;
		}
		l->level = ++ncache;
		/* the latency of a level: the reference curve's first plateau
		 * after the previous cache step (before TLB misses or early
		 * evictions creep in), else the plateau just below the step */
		l->cycles = q[g].lo;
		{
			struct latency_plateau p[LAT_MAX_SIZES];
			size_t np = latency_segment(curve_of(c, q[g].ref), c->nsizes, LAT_TOLERANCE,
						    LAT_MERGE, p, LAT_MAX_SIZES);
			for (size_t j = 0; j < np; j++)
				if (p[j].i1 <= q[g].pos &&
				    (ncache == 1 ||
				     (p[j].i1 > prev_pos &&
				      p[j].level > prev_cycles * (1 + LAT_TOLERANCE)))) {
					l->cycles = p[j].level;
					break;
				}
		}
		prev_pos = q[g].pos;
		prev_cycles = l->cycles;
		for (size_t i = 0; i < nb; i++) {
			uint64_t w;
			if (bs[i].cluster != (int)g)
				continue;
			if (bs[i].curve == CURVE_RANDOM) {
				from_random = 1;
				continue;
			}
			shown++;
			if (bs[i].shifted) {
				if (!first_shift || c->strides[bs[i].curve] < first_shift)
					first_shift = c->strides[bs[i].curve];
				continue;
			}
			nunshifted++;
			if (c->strides[bs[i].curve] > wmin)
				wmin = c->strides[bs[i].curve];
			w = c->sizes[bs[i].next] - c->sizes[bs[i].pos];
			if (!width_min || w < width_min)
				width_min = w;
			if (w > width_max)
				width_max = w;
			if (bs[i].next < bs[i].pos + 2)
				slanted_all = 0;
		}
		l->from_random = from_random;
		l->nstrides = shown;
		if (first_shift) {
			wmax = first_shift / 2;
		} else if (nunshifted) {
			wmax = width_min;
			/* the seed: a slanted step is one way wide. Only when every
			 * stride agrees (a noisy step is slanted on one curve), it
			 * leaves at least two ways, and it is no wider than a page
			 * (a cache indexed by bits above the page sees physical pages
			 * scattered over its sets, which spreads every step) */
			if (slanted_all && nunshifted >= 2 && width_max <= 2 * width_min &&
			    width_min <= l->size / 2 && (!c->page || width_min <= c->page))
				wmin = width_min;
		}
		if (wmax && wmin > wmax)
			wmax = wmin;
		l->way_min = wmin;
		l->way_max = wmax;
		set_ns(l, c->ghz);
	}

	/* 7. memory: the reference curve's last plateau, beyond every cache */
	if (ncache > 0) {
		const double *ref = c->random ? c->random : (c->nstrides ? c->cycles[0] : NULL);
		struct latency_plateau p[LAT_MAX_SIZES];
		size_t np = ref ? latency_segment(ref, c->nsizes, LAT_TOLERANCE, LAT_MERGE, p,
						  LAT_MAX_SIZES)
				: 0;
		uint64_t last_cache = 0;
		for (size_t i = 0; i < out->n; i++)
			if (!out->lv[i].tlb && out->lv[i].size > last_cache)
				last_cache = out->lv[i].size;
		if (np >= 2 && c->sizes[p[np - 1].i0] > last_cache) {
			out->has_memory = 1;
			out->memory_from = c->sizes[p[np - 1].i0];
			out->memory_cycles = p[np - 1].level;
			out->memory_ns = c->ghz > 0 ? p[np - 1].level / c->ghz : 0;
		}
	}
	free(bs);
	return out->n;
}

size_t latency_detect(const struct latency_result *r, struct latency_levels *out)
{
	const double *cyc[LAT_MAX_STRIDES];
	struct latency_curves c;
	for (size_t k = 0; k < r->nstrides; k++)
		cyc[k] = r->cycles[k];
	memset(&c, 0, sizeof c);
	c.sizes = r->sizes;
	c.nsizes = r->nsizes;
	c.strides = r->strides;
	c.nstrides = r->nstrides;
	c.cycles = cyc;
	c.random = r->has_random ? r->random_cycles : NULL;
	c.ghz = r->ghz;
	c.page = r->hugepages == LAT_HUGE_ON ? (2u << 20) : LAT_PAGE;
	return latency_detect_curves(&c, out);
}

static const char *fmt_bytes(char *buf, size_t len, uint64_t b)
{
	if (b >= (1u << 20) && b % (1u << 20) == 0)
		mt_snprintf(buf, len, "%llu MB", (unsigned long long)(b >> 20));
	else if (b >= 1024 && b % 1024 == 0)
		mt_snprintf(buf, len, "%llu KB", (unsigned long long)(b >> 10));
	else
		mt_snprintf(buf, len, "%llu B", (unsigned long long)b);
	return buf;
}

void latency_level_text(const struct latency_level *l, char *buf, size_t len)
{
	char s[32], a[32], b[32];
	if (l->tlb) {
		mt_snprintf(buf, len,
			    "TLB%d size: %llu entries (%s), latency: %.2f cycles (%.2f ns) a miss",
			    l->level, (unsigned long long)l->entries, fmt_bytes(s, sizeof s, l->size),
			    l->cycles, l->ns);
		return;
	}
	mt_snprintf(buf, len, "L%d size: %s, latency: %.2f cycles (%.2f ns), way size: ", l->level,
		    fmt_bytes(s, sizeof s, l->size), l->cycles, l->ns);
	if (l->way_min || l->way_max)
		mt_append(buf, len, "min. %s, max. %s",
			  l->way_min ? fmt_bytes(a, sizeof a, l->way_min) : "?",
			  l->way_max ? fmt_bytes(b, sizeof b, l->way_max) : "?");
	else
		mt_append(buf, len, "unknown (random chase only)");
}

cJSON *latency_levels_to_json(const struct latency_levels *lv)
{
	cJSON *a = cJSON_CreateArray();
	if (!a)
		return NULL;
	for (size_t i = 0; i < lv->n; i++) {
		const struct latency_level *l = &lv->lv[i];
		cJSON *o = cJSON_CreateObject();
		if (!o) {
			cJSON_Delete(a);
			return NULL;
		}
		cJSON_AddItemToArray(a, o);
		cJSON_AddNumberToObject(o, "level", l->level);
		cJSON_AddNumberToObject(o, "size", (double)l->size);
		cJSON_AddNumberToObject(o, "cycles", round(l->cycles * 100) / 100);
		cJSON_AddNumberToObject(o, "ns", round(l->ns * 1000) / 1000);
		cJSON_AddNumberToObject(o, "way_min", (double)l->way_min);
		cJSON_AddNumberToObject(o, "way_max", (double)l->way_max);
		cJSON_AddBoolToObject(o, "tlb", l->tlb);
		if (l->tlb)
			cJSON_AddNumberToObject(o, "entries", (double)l->entries);
		cJSON_AddNumberToObject(o, "step_end", (double)l->step_end);
		cJSON_AddStringToObject(o, "read_from", l->from_random ? "random" : "fixed");
		cJSON_AddNumberToObject(o, "strides_showing", l->nstrides);
	}
	return a;
}
