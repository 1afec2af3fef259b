/* info_doubt: the values no cache can have on this machine, or not as
 * given, with the reason; and sources that read the same thing (info.h). */
#include "config.h"

#include "info.h"

#include <string.h>

#define AMD_MAX_L3 (96ull << 20) /* the largest L3 of one AMD core complex (3D V-Cache) */
#define GEOMETRY_SLACK 0.01      /* ways x sets x line may differ this much (rounding) */

static int is_amd(const struct info *inf)
{
	const struct info_source *c = info_find_source(inf, "cpuid");
	const char *v = inf->vendor[0] ? inf->vendor : (c ? c->note : "");
	return strstr(v, "AuthenticAMD") || strstr(v, "HygonGenuine");
}

/* Add a reason for lv of source, merged with the same value's others. */
static void add_doubt(struct info *inf, const struct cache_level *lv, const char *source,
		      const char *why)
{
	struct info_doubt *d = NULL;
	for (int i = 0; i < inf->ndoubts && !d; i++)
		if (inf->doubt[i].level == lv->level && inf->doubt[i].size == lv->size &&
		    strcmp(inf->doubt[i].type, lv->type) == 0)
			d = &inf->doubt[i];
	if (!d) {
		if (inf->ndoubts == INFO_MAX_DOUBTS)
			return;
		d = &inf->doubt[inf->ndoubts++];
		memset(d, 0, sizeof *d);
		d->level = lv->level;
		mt_strlcpy(d->type, lv->type, sizeof d->type);
		d->size = lv->size;
	}
	if (!strstr(d->sources, source))
		mt_append(d->sources, sizeof d->sources, "%s%s", d->sources[0] ? ", " : "", source);
	if (!strstr(d->why, why))
		mt_append(d->why, sizeof d->why, "%s%s", d->why[0] ? "; " : "", why);
}

/* Is lv the largest cache this source lists? */
static int last_level(const struct info_source *s, const struct cache_level *lv)
{
	for (int i = 0; i < s->nlevels; i++)
		if (s->lv[i].level > lv->level)
			return 0;
	return 1;
}

static void doubt_level(struct info *inf, const struct info_source *s, const struct cache_level *lv)
{
	uint64_t geo = (uint64_t)(lv->ways > 0 ? lv->ways : 0) *
		       (uint64_t)(lv->sets > 0 ? lv->sets : 0) *
		       (uint64_t)(lv->line > 0 ? lv->line : 0);
	char why[200], a[32];
	if (!lv->size)
		return;
	if (geo && ((double)geo > (1 + GEOMETRY_SLACK) * (double)lv->size ||
		    (double)geo < (1 - GEOMETRY_SLACK) * (double)lv->size)) {
		mt_snprintf(why, sizeof why, INFO_DOUBT_GEOMETRY,
			    mt_fmt_size(a, sizeof a, geo));
		add_doubt(inf, lv, s->name, why);
	}
	if (lv->level == 3 && lv->size > AMD_MAX_L3 && is_amd(inf))
		add_doubt(inf, lv, s->name,
			  N_("no AMD CPU has more than 96M of L3 in one core complex (with 3D "
			     "V-Cache): a hypervisor's or a misread value"));
	if (inf->hypervisor && lv->level >= 3 && last_level(s, lv))
		add_doubt(inf, lv, s->name,
			  N_("a VM: the host's other guests share this cache; what this guest gets "
			     "is what memtop run latency measures"));
}

/* When every source present reads the same thing, say which. */
static void same_origin(struct info *inf)
{
	int sysfs = info_find_source(inf, "sysfs") != NULL, lscpu = !!info_find_source(inf, "lscpu");
	int sysconf = !!info_find_source(inf, "sysconf"), cpuid = !!info_find_source(inf, "cpuid");
	int hwloc = !!info_find_source(inf, "hwloc");
	int others = inf->nsources - sysfs - lscpu - sysconf - cpuid - hwloc;
	inf->same_origin[0] = '\0';
	if (sysconf && cpuid && !sysfs && !lscpu && !hwloc && !others)
		mt_strlcpy(inf->same_origin, N_("sysconf and cpuid both read CPUID here"),
			   sizeof inf->same_origin);
	else if (sysfs && (lscpu || hwloc) && !sysconf && !cpuid && !others)
		mt_strlcpy(inf->same_origin,
			   lscpu && hwloc ? N_("lscpu -C and hwloc read sysfs")
			   : lscpu	  ? N_("lscpu -C reads sysfs")
					  : N_("hwloc reads sysfs"),
			   sizeof inf->same_origin);
}

void info_doubts(struct info *inf)
{
	inf->ndoubts = 0;
	for (int s = 0; s < inf->nsources; s++)
		for (int i = 0; i < inf->src[s].nlevels; i++)
			doubt_level(inf, &inf->src[s], &inf->src[s].lv[i]);
	same_origin(inf);
}

const struct info_doubt *info_doubt_of(const struct info *inf, const char *source, int level,
				       const char *type)
{
	for (int i = 0; i < inf->ndoubts; i++) {
		const struct info_doubt *d = &inf->doubt[i];
		if (d->level == level && strcmp(d->type, type) == 0 && strstr(d->sources, source))
			return d;
	}
	return NULL;
}
