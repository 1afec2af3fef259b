/* info source "hwloc": the caches hwloc describes above one CPU (os/topo),
 * live or from a recorded Linux tree (info.h). On Linux hwloc reads the same
 * sysfs cache files the "sysfs" source does (and on x86 may correct them
 * with CPUID), so its agreement with sysfs is no second opinion; it is the
 * source that knows which CPUs share each cache. */
#include "config.h"

#include "info.h"
#include "base/i18n.h"
#include "os/topo.h"

#include <stdlib.h>
#include <string.h>

/* sysfs's order: by level, data before instruction before unified. */
static int rank(const struct cache_level *lv)
{
	int t = strcmp(lv->type, "data") == 0 ? 0 : strcmp(lv->type, "instruction") == 0 ? 1 : 2;
	return lv->level * 4 + t;
}

static int cmp_level(const void *a, const void *b)
{
	return rank(a) - rank(b);
}

static int has_cpu(const struct topo_set *s, int cpu)
{
	for (int i = 0; i < s->n; i++)
		if (s->cpus[i] == cpu)
			return 1;
	return 0;
}

int info_from_topo(const struct topo *t, int cpu, struct info_source *out, mt_error *e)
{
	char ver[32];
	info_source_init(out, "hwloc");
	if (!topo_cpu(t, cpu))
		return mt_fail(e, _("%s: no CPU %d"), t->source, cpu);
	for (int i = 0; i < t->ncaches; i++) {
		const struct topo_cache *c = &t->caches[i];
		struct cache_level lv;
		if (!has_cpu(&c->cpus, cpu) || c->size == 0)
			continue;
		memset(&lv, 0, sizeof lv);
		lv.level = c->level;
		mt_strlcpy(lv.type, c->type, sizeof lv.type);
		lv.size = c->size;
		lv.ways = c->ways > 0 ? c->ways : 0; /* -1: fully associative, left unknown */
		lv.line = c->line;
		topo_set_text(&c->cpus, lv.shared_cpus, sizeof lv.shared_cpus);
		if (info_source_add_level(out, &lv) < 0)
			break;
	}
	qsort(out->lv, (size_t)out->nlevels, sizeof out->lv[0], cmp_level);
	mt_snprintf(out->note, sizeof out->note, "cpu%d, hwloc %s", cpu,
		    topo_hwloc_version(ver, sizeof ver));
	return 0;
}

int info_parse_hwloc(const char *root, int cpu, struct info_source *out, mt_error *e)
{
	struct topo *t = NULL;
	int rc;
	info_source_init(out, "hwloc");
	if (topo_load(root, &t, e) < 0)
		return -1;
	rc = info_from_topo(t, cpu >= 0 ? cpu : t->cpus[0].os, out, e);
	topo_free(t);
	return rc;
}

void info_collect_hwloc(struct info_source *out)
{
	const struct topo *t = topo_this_machine();
	mt_error e;
	int cpu = -1;
	info_source_init(out, "hwloc");
	for (int i = 0; t && i < t->ncpus && cpu < 0; i++)
		if (t->cpus[i].allowed)
			cpu = t->cpus[i].os;
	if (cpu >= 0 && info_from_topo(t, cpu, out, &e) < 0)
		info_source_init(out, "hwloc");
}
