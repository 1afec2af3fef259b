/* rowlevels: the cache level of each size row of a mountain, the cliffs'
 * or another measurement's where the two disagree (rowlevels.h). */
#include "config.h"

#include "base/i18n.h"

#include "rowlevels.h"
#include "cliffs.h"
#include "info/info.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The largest cache recorded with m (sysfs, sysctl, ...), 0 when none. */
static uint64_t largest_recorded(const struct mountain *m)
{
	struct info *inf;
	uint64_t big = 0;
	mt_error e;
	if (!m->caches || !(inf = malloc(sizeof *inf)))
		return 0;
	if (info_from_json(m->caches, inf, m->source, &e) == 0)
		for (int l = 1; l <= ROWLEVELS_MAX; l++) {
			uint64_t s = info_best_size(inf, l, NULL);
			big = s > big ? s : big;
		}
	free(inf);
	return big;
}

/* A size for captions: "3.8 MB", "48 KB". */
static const char *words(char *buf, size_t len, uint64_t b)
{
	if (b >= (1u << 20))
		mt_hsnprintf(buf, len, b % (1u << 20) ? _("%.1f MB") : _("%.0f MB"),
			     (double)b / (1 << 20));
	else
		mt_hsnprintf(buf, len, b % 1024 ? _("%.1f KB") : _("%.0f KB"), (double)b / 1024);
	return buf;
}

/* Level k read from the other measurement, said: its size, and the
 * mountain's cliff it replaces (mine, 0: none). */
static void say_other(struct row_levels *out, int k, const struct other_levels *o, uint64_t mine)
{
	char a[32], b[32], file[104] = "", *c = out->caption[out->ncaptions++];
	size_t len = sizeof out->caption[0];
	words(a, sizeof a, o->size[k]);
	if (o->file[0])
		mt_snprintf(file, sizeof file, " (%s)", o->file);
	/* TRANSLATORS: the second %s is the other measurement ("the latency
	 * run"), the fourth " (FILE)" or nothing */
	if (!mine)
		mt_snprintf(c, len, _("L%d read from %s: %s%s; the mountain shows no cliff there"),
			    k + 1, o->what, a, file);
	else if (mine > o->size[k])
		mt_hsnprintf(c, len,
			     _("L%d read from %s: %s%s; the mountain's cliff is at %s, %.1fx: strided "
			       "streams are prefetched past the cache"),
			     k + 1, o->what, a, file, words(b, sizeof b, mine),
			     (double)mine / (double)o->size[k]);
	else
		mt_hsnprintf(c, len, _("L%d read from %s: %s%s; the mountain's cliff is at %s, %.1fx"),
			     k + 1, o->what, a, file, words(b, sizeof b, mine),
			     (double)mine / (double)o->size[k]);
}

/* A mountain level the other measurement does not have, said. */
static void say_dropped(struct row_levels *out, uint64_t mine, const struct other_levels *o)
{
	char a[32], b[32], *c = out->caption[out->ncaptions++];
	size_t len = sizeof out->caption[0];
	if (o->memory && mine >= o->memory_from)
		mt_snprintf(c, len, _("the mountain's cliff at %s is no cache level by %s: memory from %s"),
			    words(a, sizeof a, mine), o->what, words(b, sizeof b, o->memory_from));
	else
		mt_snprintf(c, len, _("the mountain's cliff at %s is no cache level by %s"),
			    words(a, sizeof a, mine), o->what);
}

/* Whether two sizes are one level (within ROWLEVELS_AGREE). */
static int agree(uint64_t a, uint64_t b)
{
	return fabs(log2((double)a / (double)b)) <= log2(ROWLEVELS_AGREE) + 1e-9;
}

/* Whether the rows past the last level reached memory: the other
 * measurement's memory begins within the grid past the last level, or
 * (without one that reached memory) the last level is the largest cache
 * recorded with m, within ROWLEVELS_AGREE. */
static int reached_memory(const struct mountain *m, const struct other_levels *o,
			  const struct row_levels *out, uint64_t last_size)
{
	uint64_t last_row = m->nsizes ? m->sizes[m->nsizes - 1] : 0, big;
	if (!out->n || last_row <= out->bound[out->n - 1])
		return 0;
	if (o && o->memory)
		return o->memory_from <= last_row && o->memory_from > out->bound[out->n - 1];
	big = largest_recorded(m);
	return big && (double)last_size * ROWLEVELS_AGREE >= (double)big;
}

/* The levels as other gives them: each of its levels takes the mountain's
 * cliff within ROWLEVELS_AGREE of it (the mountain's range), else its own
 * size, said with the nearest cliff left between its neighbours; the
 * cliffs past its last level stay when it did not reach memory there, the
 * others are said and dropped. size[] gets each level's size. */
static void merge_other(const struct detection *d, int nd, const struct other_levels *o,
			struct row_levels *out, uint64_t *size)
{
	int used[8] = { 0 }, match[ROWLEVELS_MAX], n = 0;
	for (int k = 0; k < o->n && k < ROWLEVELS_MAX; k++) {
		match[k] = -1;
		for (int j = 0; j < nd; j++)
			if (!used[j] && agree(d->size[j], o->size[k]) &&
			    (match[k] < 0 || fabs(log2((double)d->size[j] / (double)o->size[k])) <
						     fabs(log2((double)d->size[match[k]] / (double)o->size[k]))))
				match[k] = j;
		if (match[k] >= 0)
			used[match[k]] = 1;
	}
	for (int k = 0; k < o->n && k < ROWLEVELS_MAX; k++) {
		uint64_t lo = k ? o->size[k - 1] : 0, hi = k + 1 < o->n ? o->size[k + 1] : UINT64_MAX;
		int near = -1;
		if (match[k] >= 0) {
			out->bound[n] = d->level[match[k]];
			size[n++] = d->size[match[k]];
			continue;
		}
		for (int j = 0; j < nd; j++) /* the cliff it disagrees with */
			if (!used[j] && d->size[j] > lo && d->size[j] < hi &&
			    (near < 0 || fabs(log2((double)d->size[j] / (double)o->size[k])) <
						 fabs(log2((double)d->size[near] / (double)o->size[k]))))
				near = j;
		if (near >= 0)
			used[near] = 1;
		say_other(out, n, o, near >= 0 ? d->size[near] : 0);
		out->from_other[n] = 1;
		out->bound[n] = o->size[k];
		size[n++] = o->size[k];
	}
	for (int j = 0; j < nd; j++) {
		if (used[j])
			continue;
		if (n < ROWLEVELS_MAX && !o->memory && (!n || d->size[j] > size[n - 1] * ROWLEVELS_AGREE)) {
			out->bound[n] = d->level[j]; /* past the curve's end: the cliffs' */
			size[n++] = d->size[j];
		} else if (out->ncaptions < (int)MT_ARRAY_LEN(out->caption)) {
			say_dropped(out, d->size[j], o);
		}
	}
	out->n = n;
}

int row_levels_find(const struct mountain *m, const struct other_levels *other,
		    struct row_levels *out)
{
	struct detection d;
	uint64_t size[ROWLEVELS_MAX] = { 0 };
	int nd = 0;
	memset(out, 0, sizeof *out);
	if (cliffs_detect(m, CLIFFS_RATIO, &d) == 0)
		nd = d.nlevels < 8 ? d.nlevels : 8;
	if (other) {
		merge_other(&d, nd, other, out, size);
	} else {
		for (; out->n < nd && out->n < ROWLEVELS_MAX; out->n++) {
			out->bound[out->n] = d.level[out->n];
			size[out->n] = d.size[out->n];
		}
	}
	out->memory = reached_memory(m, other, out, out->n ? size[out->n - 1] : 0);
	return out->n;
}

int row_levels_of(const struct row_levels *r, uint64_t size)
{
	int k = 0;
	while (k < r->n && size > r->bound[k])
		k++;
	return k;
}

const char *row_levels_beyond(const struct row_levels *r)
{
	return !r->n ? _("no cliff found") : r->memory ? _("beyond: memory") : _("beyond the last cache seen");
}
