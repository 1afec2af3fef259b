/* info: lookups and disagreements (info.h). The model's helpers are in
 * info_source.c, live collection in info_collect.c, doubts in info_doubt.c,
 * JSON in info_json.c, text in info_print.c, and the per-source parsers in
 * info_sysfs.c, info_lscpu.c, info_sysconf.c, info_cpuid.c, info_sysctl.c. */
#include "config.h"

#include "info.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- lookups -------------------------------------------------------------- */

const struct info_source *info_find_source(const struct info *inf, const char *name)
{
	for (int i = 0; i < inf->nsources; i++)
		if (strcmp(inf->src[i].name, name) == 0)
			return &inf->src[i];
	return NULL;
}

uint64_t info_size(const struct info *inf, const char *source, int level, const char *type)
{
	const struct info_source *s = info_find_source(inf, source);
	int data = strcmp(type, "data") == 0;
	if (!s)
		return 0;
	for (int i = 0; i < s->nlevels; i++) {
		const struct cache_level *lv = &s->lv[i];
		if (lv->level != level || strcmp(lv->cores, "unprefixed") == 0 ||
		    strcmp(lv->cores, "efficiency") == 0)
			continue;
		if (strcmp(lv->type, type) == 0 || (data && strcmp(lv->type, "unified") == 0))
			return lv->size;
	}
	return 0;
}

uint64_t info_best_size(const struct info *inf, int level, const char **from)
{
	/* "published": a reference file's true sizes (data/ref), set by hand */
	static const char *const order[] = { "published", "sysfs", "sysctl", "cpuid", "lscpu",
					     "sysconf" };
	for (size_t i = 0; i < MT_ARRAY_LEN(order); i++) {
		uint64_t v = info_size(inf, order[i], level, "data");
		if (v) {
			if (from)
				*from = order[i];
			return v;
		}
	}
	if (from)
		*from = "";
	return 0;
}

const char *info_level_name(const struct cache_level *lv, char *buf, size_t len)
{
	const char *suffix = strcmp(lv->type, "data") == 0	  ? "d"
			     : strcmp(lv->type, "instruction") == 0 ? "i"
								    : "";
	mt_snprintf(buf, len, "L%d%s", lv->level, suffix);
	if (lv->cores[0] && strcmp(lv->cores, "unprefixed") != 0)
		mt_append(buf, len, " (%s)", lv->cores);
	return buf;
}

/* ---- disagreements -------------------------------------------------------- */

/* One source's view of one cache, for comparison. */
struct view {
	char who[48];  /* "sysfs", "sysctl hw.l1dcachesize" */
	const struct cache_level *lv;
};

static const char *field_name(int f)
{
	static const char *const names[] = { "size", "ways", "line", "sets" };
	return names[f];
}

static uint64_t field_value(const struct cache_level *lv, int f)
{
	switch (f) {
	case 0: return lv->size;
	case 1: return (uint64_t)(lv->ways > 0 ? lv->ways : 0);
	case 2: return (uint64_t)(lv->line > 0 ? lv->line : 0);
	default: return (uint64_t)(lv->sets > 0 ? lv->sets : 0);
	}
}

static int same_value(const struct cache_level *a, const struct cache_level *b, int f)
{
	uint64_t x = field_value(a, f), y = field_value(b, f);
	if (f == 0 && (a->approx || b->approx)) {
		double dx = (double)x, dy = (double)y;
		return fabs(dx - dy) <= 0.05 * fmax(dx, dy);
	}
	return x == y;
}

static void fmt_value(char *buf, size_t len, const struct cache_level *lv, int f)
{
	if (f == 0) {
		mt_fmt_size(buf, len, lv->size);
		if (lv->size % 1024 != 0 || lv->approx) {
			/* make a non-round size readable next to a round one */
			char exact[32];
			mt_snprintf(exact, sizeof exact, " (%llu bytes%s)",
				    (unsigned long long)lv->size, lv->approx ? ", rounded" : "");
			mt_append(buf, len, "%s", exact);
		}
	} else {
		mt_snprintf(buf, len, "%llu", (unsigned long long)field_value(lv, f));
	}
}

static void add_dis(struct info *inf, const char *text)
{
	if (inf->ndis >= INFO_MAX_DIS)
		return;
	for (int i = 0; i < inf->ndis; i++)
		if (strcmp(inf->dis[i], text) == 0)
			return;
	mt_strlcpy(inf->dis[inf->ndis++], text, sizeof inf->dis[0]);
}

/* Views of one field: group sources by value, "a, b say X; c says Y". */
static void compare_field(struct info *inf, const char *name, struct view *v, int nv, int f)
{
	int group[INFO_MAX_SOURCES * 2] = { 0 }, ngroups = 0, known = 0;
	char line[400], val[64];
	for (int i = 0; i < nv; i++) {
		int g = -1;
		if (!field_value(v[i].lv, f))
			continue;
		known++;
		for (int j = 0; j < i && g < 0; j++)
			if (field_value(v[j].lv, f) && same_value(v[i].lv, v[j].lv, f))
				g = group[j];
		group[i] = g >= 0 ? g : ngroups++;
	}
	if (known < 2 || ngroups < 2)
		return;
	mt_snprintf(line, sizeof line, "%s %s:", name, field_name(f));
	for (int g = 0; g < ngroups; g++) {
		int n = 0, first = -1;
		for (int i = 0; i < nv; i++) {
			if (!field_value(v[i].lv, f) || group[i] != g)
				continue;
			mt_append(line, sizeof line, "%s%s", n ? ", " : (g ? "; " : " "), v[i].who);
			if (first < 0)
				first = i;
			n++;
		}
		fmt_value(val, sizeof val, v[first].lv, f);
		mt_append(line, sizeof line, " %s %s", n > 1 ? "say" : "says", val);
	}
	add_dis(inf, line);
}

static int same_cache(const struct cache_level *a, const struct cache_level *b)
{
	return a->level == b->level && strcmp(a->type, b->type) == 0 &&
	       strcmp(a->cores, b->cores) == 0;
}

/* The key a cache is compared under: the unprefixed macOS names are compared
 * with perflevel0's entries (that is the trap they set). */
static void compare_key(const struct info_source *s, const struct cache_level *lv,
			struct cache_level *key)
{
	*key = *lv;
	if (strcmp(lv->cores, "unprefixed") == 0)
		for (int i = 0; i < s->nlevels; i++)
			if (s->lv[i].cores[0] && strcmp(s->lv[i].cores, "unprefixed") != 0) {
				mt_strlcpy(key->cores, s->lv[i].cores, sizeof key->cores);
				break;
			}
}

/* macOS: entries of the first distinct cores come from perflevel0, of the
 * second from perflevel1 (info_parse_sysctl's order). */
static int perflevel_index(const struct info_source *s, const struct cache_level *lv)
{
	const char *first = NULL;
	for (int i = 0; i < s->nlevels; i++) {
		const char *c = s->lv[i].cores;
		if (!c[0] || strcmp(c, "unprefixed") == 0)
			continue;
		if (!first)
			first = c;
		if (strcmp(c, lv->cores) == 0)
			return strcmp(first, c) == 0 ? 0 : 1;
	}
	return 0;
}

static void view_name(const struct info_source *s, const struct cache_level *lv, char *buf,
		      size_t len)
{
	if (strcmp(s->name, "sysctl") == 0 && lv->cores[0]) {
		if (strcmp(lv->cores, "unprefixed") == 0)
			mt_snprintf(buf, len, "sysctl hw.l%d%scachesize", lv->level,
				    strcmp(lv->type, "data") == 0	 ? "d"
				    : strcmp(lv->type, "instruction") == 0 ? "i"
									   : "");
		else
			mt_snprintf(buf, len, "sysctl hw.perflevel%d", perflevel_index(s, lv));
		return;
	}
	mt_strlcpy(buf, s->name, len);
}

/* Every distinct cache any source lists, into keys; returns the count. */
static int distinct_caches(const struct info *inf, struct cache_level *keys)
{
	int nkeys = 0;
	for (int s = 0; s < inf->nsources; s++)
		for (int i = 0; i < inf->src[s].nlevels; i++) {
			struct cache_level k;
			int seen = 0;
			compare_key(&inf->src[s], &inf->src[s].lv[i], &k);
			for (int j = 0; j < nkeys && !seen; j++)
				seen = same_cache(&keys[j], &k);
			if (!seen)
				keys[nkeys++] = k;
		}
	return nkeys;
}

/* One cache as every source sees it: its fields compared, and a line when
 * some sources list it and others do not (sources that report only some
 * caches by nature, like sysconf's four, still count). */
static void compare_cache(struct info *inf, const struct cache_level *key)
{
	struct view v[INFO_MAX_SOURCES * 2];
	char name[48], line[400], missing[160] = "", having[160] = "";
	int nv = 0, nmissing = 0, nhaving = 0;
	info_level_name(key, name, sizeof name);
	for (int s = 0; s < inf->nsources; s++) {
		const struct info_source *src = &inf->src[s];
		int found = 0;
		for (int i = 0; i < src->nlevels && nv < (int)MT_ARRAY_LEN(v); i++) {
			struct cache_level kk;
			compare_key(src, &src->lv[i], &kk);
			if (!same_cache(&kk, key))
				continue;
			view_name(src, &src->lv[i], v[nv].who, sizeof v[nv].who);
			v[nv++].lv = &src->lv[i];
			found = 1;
		}
		if (found)
			mt_append(having, sizeof having, "%s%s", nhaving++ ? ", " : "", src->name);
		else
			mt_append(missing, sizeof missing, "%s%s", nmissing++ ? ", " : "", src->name);
	}
	for (int f = 0; f < 4; f++)
		compare_field(inf, name, v, nv, f);
	if (nmissing && nhaving) {
		mt_snprintf(line, sizeof line, "%s: listed by %s only, not by %s", name, having,
			    missing);
		add_dis(inf, line);
	}
}

/* macOS: say what the unprefixed names are (the efficiency cores' value:
 * seed 000's trap), on the size line itself. */
static void name_sysctl_trap(struct info *inf)
{
	for (int s = 0; s < inf->nsources; s++) {
		const struct info_source *src = &inf->src[s];
		for (int i = 0; i < src->nlevels; i++) {
			const struct cache_level *u = &src->lv[i];
			char name[48], head[64];
			struct cache_level k;
			int eff = 0;
			if (strcmp(u->cores, "unprefixed") != 0)
				continue;
			for (int m = 0; m < src->nlevels; m++) {
				const struct cache_level *q = &src->lv[m];
				eff |= strcmp(q->cores, "efficiency") == 0 && q->level == u->level &&
				       strcmp(q->type, u->type) == 0 && q->size == u->size;
			}
			if (!eff)
				continue;
			compare_key(src, u, &k);
			mt_snprintf(head, sizeof head, "%s size:", info_level_name(&k, name,
										   sizeof name));
			for (int d = 0; d < inf->ndis; d++)
				if (strncmp(inf->dis[d], head, strlen(head)) == 0 &&
				    !strstr(inf->dis[d], "efficiency cores"))
					mt_append(inf->dis[d], sizeof inf->dis[0],
						  " (the sysctl trap: the unprefixed name gives "
						  "the efficiency cores' value)");
		}
	}
}

void info_compare(struct info *inf)
{
	struct cache_level keys[INFO_MAX_SOURCES * INFO_MAX_LEVELS];
	int nkeys = distinct_caches(inf, keys);
	inf->ndis = 0;
	for (int k = 0; k < nkeys; k++)
		compare_cache(inf, &keys[k]);
	name_sysctl_trap(inf);
}
