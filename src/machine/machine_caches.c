/* machine_caches: what each cache level is as the plans see it (its
 * largest claim, its credible size, whether it is shared), and how much of
 * it a set of CPUs reaches together (machine.h). */
#include "config.h"

#include "machine_int.h"

#include <string.h>

/* The trusted order of info_best_size, then hwloc (which reads sysfs). */
static const char *const trust[] = { "sysfs", "sysctl", "cpuid", "lscpu", "sysconf", "hwloc" };

static int is_data(const char *type)
{
	return strcmp(type, "instruction") != 0;
}

/* The largest claim of level L over every source and the topology's own
 * caches, with the sources that claim it. */
static void claim_of(struct machine *m, struct machine_level *lv, int level)
{
	const struct info *inf = &m->info;
	for (int s = 0; s < inf->nsources; s++)
		for (int i = 0; i < inf->src[s].nlevels; i++) {
			const struct cache_level *c = &inf->src[s].lv[i];
			if (c->level != level || !is_data(c->type) || !c->size)
				continue;
			if (c->size > lv->claim) {
				lv->claim = c->size;
				lv->claim_from[0] = '\0';
			}
			if (c->size == lv->claim && !strstr(lv->claim_from, inf->src[s].name))
				mt_append(lv->claim_from, sizeof lv->claim_from, "%s%s",
					  lv->claim_from[0] ? ", " : "", inf->src[s].name);
		}
	for (int i = 0; m->topo && i < m->topo->ncaches; i++) {
		const struct topo_cache *c = &m->topo->caches[i];
		if (c->level != level || !is_data(c->type) || c->size <= lv->claim)
			continue;
		lv->claim = c->size;
		mt_strlcpy(lv->claim_from, "hwloc", sizeof lv->claim_from);
	}
}

/* The most trusted source's size of level L that no doubt is about. */
static void credible_of(struct machine *m, struct machine_level *lv, int level)
{
	const struct info *inf = &m->info;
	for (size_t k = 0; k < MT_ARRAY_LEN(trust) && !lv->credible; k++) {
		const struct info_source *s = info_find_source(inf, trust[k]);
		for (int i = 0; s && i < s->nlevels && !lv->credible; i++) {
			const struct cache_level *c = &s->lv[i];
			if (c->level != level || !is_data(c->type) || !c->size ||
			    info_doubt_of(inf, s->name, level, c->type))
				continue;
			lv->credible = c->size;
			mt_strlcpy(lv->credible_from, s->name, sizeof lv->credible_from);
		}
	}
}

/* The number of distinct cores among the CPUs of s (-1 without a topology). */
static int cores_of(const struct topo *t, const struct topo_set *s)
{
	int n = 0;
	for (int i = 0; i < s->n; i++) {
		const struct topo_cpu *c = topo_cpu(t, s->cpus[i]);
		int seen = 0;
		for (int j = 0; j < i && c && !seen; j++) {
			const struct topo_cpu *d = topo_cpu(t, s->cpus[j]);
			seen = d && d->core == c->core;
		}
		n += c && !seen;
	}
	return n;
}

/* Whether one cache of level L serves more than one core: the topology's
 * caches say; without them, L3 and beyond are shared. */
static int shared_of(const struct machine *m, int level)
{
	int known = 0;
	for (int i = 0; m->topo && i < m->topo->ncaches; i++) {
		const struct topo_cache *c = &m->topo->caches[i];
		if (c->level != level || !is_data(c->type))
			continue;
		known = 1;
		if (cores_of(m->topo, &c->cpus) > 1)
			return 1;
	}
	return known ? 0 : level >= 3;
}

void machine_levels(struct machine *m)
{
	memset(m->lv, 0, sizeof m->lv);
	for (int level = 1; level <= MACHINE_MAX_LEVELS; level++) {
		struct machine_level *lv = &m->lv[level];
		const struct info_doubt *d = NULL;
		char first[16];
		claim_of(m, lv, level);
		if (!lv->claim)
			continue;
		lv->level = level;
		credible_of(m, lv, level);
		mt_snprintf(first, sizeof first, "%.*s", (int)strcspn(lv->claim_from, ","),
			    lv->claim_from);
		for (size_t s = 0; s < MT_ARRAY_LEN(trust) && !d; s++)
			if (strstr(lv->claim_from, trust[s]))
				d = info_doubt_of(&m->info, trust[s], level, "data");
		if (!d)
			d = info_doubt_of(&m->info, first, level, "unified");
		for (size_t s = 0; s < MT_ARRAY_LEN(trust) && !d; s++)
			if (strstr(lv->claim_from, trust[s]))
				d = info_doubt_of(&m->info, trust[s], level, "unified");
		if (d)
			mt_strlcpy(lv->doubt, d->why, sizeof lv->doubt);
		lv->shared = shared_of(m, level);
	}
}

static int in_set(const int *cpus, int n, int cpu)
{
	for (int i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return 1;
	return 0;
}

static int meets(const struct topo_set *s, const int *cpus, int n)
{
	for (int i = 0; i < s->n; i++)
		if (in_set(cpus, n, s->cpus[i]))
			return 1;
	return 0;
}

/* How many distinct values f gives the CPUs (packages or cores); n when
 * the topology cannot say. */
static int distinct(const struct topo *t, const int *cpus, int n, int packages)
{
	int count = 0;
	if (!t)
		return packages ? 1 : n;
	for (int i = 0; i < n; i++) {
		const struct topo_cpu *c = topo_cpu(t, cpus[i]);
		int v = c ? (packages ? c->package : c->core) : -1 - i, seen = 0;
		for (int j = 0; j < i && !seen; j++) {
			const struct topo_cpu *d = topo_cpu(t, cpus[j]);
			seen = (d ? (packages ? d->package : d->core) : -1 - j) == v;
		}
		count += !seen;
	}
	return count > 0 ? count : 1;
}

uint64_t machine_reach(const struct machine *m, int level, const int *cpus, int n)
{
	const struct machine_level *lv;
	uint64_t sum = 0;
	int found = 0;
	if (level < 1 || level > MACHINE_MAX_LEVELS || n <= 0)
		return 0;
	lv = &m->lv[level];
	if (!lv->claim)
		return 0;
	for (int i = 0; m->topo && i < m->topo->ncaches; i++) {
		const struct topo_cache *c = &m->topo->caches[i];
		if (c->level != level || !is_data(c->type))
			continue;
		found = 1;
		if (meets(&c->cpus, cpus, n))
			sum += c->size > lv->claim ? c->size : lv->claim;
	}
	if (found)
		return sum;
	return lv->claim * (uint64_t)distinct(m->topo, cpus, n, lv->shared);
}

uint64_t machine_dram_floor(const struct machine *m, const int *cpus, int n, char *why,
			    size_t len)
{
	uint64_t most = 0;
	int at = 0;
	char a[32];
	if (why && len)
		why[0] = '\0';
	for (int level = 1; level <= MACHINE_MAX_LEVELS; level++) {
		uint64_t r = machine_reach(m, level, cpus, n);
		if (r > most) {
			most = r;
			at = level;
		}
	}
	if (at && why) {
		const struct machine_level *lv = &m->lv[at];
		uint64_t each = lv->claim;
		uint64_t k = each ? most / each : 1;
		if (k > 1 && most == k * each)
			mt_snprintf(why, len, lv->shared ? MACHINE_FLOOR_GROUPS : MACHINE_FLOOR_CORES,
				    MACHINE_DRAM_FACTOR, at, (unsigned)k, (unsigned)k,
				    mt_fmt_size(a, sizeof a, each), lv->claim_from);
		else
			mt_snprintf(why, len, MACHINE_FLOOR_ONE, MACHINE_DRAM_FACTOR, at,
				    mt_fmt_size(a, sizeof a, most), lv->claim_from);
	}
	return most * MACHINE_DRAM_FACTOR;
}

int machine_level_of(const struct machine *m, uint64_t bytes, const int *cpus, int n,
		     int *beyond)
{
	*beyond = 0;
	for (int level = 1; level <= MACHINE_MAX_LEVELS; level++) {
		uint64_t r = machine_reach(m, level, cpus, n);
		if (r && bytes <= r)
			return level;
	}
	*beyond = bytes < machine_dram_floor(m, cpus, n, NULL, 0);
	return 0;
}

const char *machine_level_name(const struct machine *m, uint64_t bytes, const int *cpus, int n,
			       char *buf, size_t len)
{
	int beyond, level = machine_level_of(m, bytes, cpus, n, &beyond), deepest = 0;
	for (int l = 1; l <= MACHINE_MAX_LEVELS; l++)
		if (m->lv[l].claim)
			deepest = l;
	if (level)
		mt_snprintf(buf, len, "L%d", level);
	else if (beyond && deepest)
		mt_snprintf(buf, len, "L%d+DRAM", deepest);
	else
		mt_strlcpy(buf, "DRAM", len);
	return buf;
}

void machine_update_levels(struct machine *m)
{
	machine_levels(m);
}
