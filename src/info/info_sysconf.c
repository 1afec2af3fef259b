/* info source "sysconf": glibc's _SC_LEVEL*_CACHE_* values, live or as the
 * text `getconf -a` prints (info.h). glibc computes them from CPUID itself,
 * not from sysfs, which is why they can disagree (on AMD VMs it reports a
 * 256 MB L3 where sysfs says 32 MB). */
#include "config.h"

#include "info.h"
#include "base/i18n.h"

#include <ctype.h>
#include <string.h>
#include <unistd.h>

/* The five caches sysconf knows, three values each: size, ways, line. */
static const struct {
	const char *prefix; /* getconf's name without _SIZE/_ASSOC/_LINESIZE */
	int level;
	const char *type;
} caches[5] = {
	{ "LEVEL1_ICACHE", 1, "instruction" },
	{ "LEVEL1_DCACHE", 1, "data" },
	{ "LEVEL2_CACHE", 2, "unified" },
	{ "LEVEL3_CACHE", 3, "unified" },
	{ "LEVEL4_CACHE", 4, "unified" },
};

/* vals[c][0..2] = size, assoc, line; values <= 0 are unknown. Data first,
 * then instruction, then by level (the order sysfs uses). */
static void build(const long vals[5][3], struct info_source *out)
{
	static const int order[5] = { 1, 0, 2, 3, 4 };
	info_source_init(out, "sysconf");
	for (int k = 0; k < 5; k++) {
		int c = order[k];
		struct cache_level lv;
		if (vals[c][0] <= 0)
			continue;
		memset(&lv, 0, sizeof lv);
		lv.level = caches[c].level;
		mt_strlcpy(lv.type, caches[c].type, sizeof lv.type);
		lv.size = (uint64_t)vals[c][0];
		/* glibc reports a fully associative cache as ways == size / line;
		 * pass it on as given */
		lv.ways = vals[c][1] > 0 && vals[c][1] < (1L << 30) ? (int)vals[c][1] : 0;
		lv.line = vals[c][2] > 0 && vals[c][2] < (1L << 20) ? (int)vals[c][2] : 0;
		info_source_add_level(out, &lv);
	}
}

int info_parse_getconf(const char *text, struct info_source *out, mt_error *e)
{
	static const char *const suffix[3] = { "_SIZE", "_ASSOC", "_LINESIZE" };
	long vals[5][3] = { { 0 } };
	int no = 0;
	info_source_init(out, "sysconf");
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		char buf[160], *name, *val;
		size_t n;
		no++;
		mt_snprintf(buf, sizeof buf, "%.*s", (int)(l < sizeof buf ? l : sizeof buf - 1), p);
		p = nl ? nl + 1 : p + l;
		name = buf;
		while (isspace((unsigned char)*name))
			name++;
		for (val = name; *val && !isspace((unsigned char)*val); val++)
			;
		if (*val)
			*val++ = '\0';
		while (isspace((unsigned char)*val))
			val++;
		n = strlen(val);
		while (n > 0 && isspace((unsigned char)val[n - 1]))
			val[--n] = '\0';
		for (int c = 0; c < 5; c++) {
			size_t pl = strlen(caches[c].prefix);
			if (strncmp(name, caches[c].prefix, pl) != 0)
				continue;
			for (int s = 0; s < 3; s++) {
				uint64_t v;
				if (strcmp(name + pl, suffix[s]) != 0)
					continue;
				if (!val[0])
					continue; /* getconf prints nothing for unknown */
				if (mt_parse_u64(val, 0, (uint64_t)1 << 50, &v) < 0) {
					/* -1 is how some getconf builds print unknown */
					if (strcmp(val, "-1") == 0)
						continue;
					return mt_fail(e, _("getconf line %d: %s: bad number '%s'"),
						       no,
						       name, val);
				}
				vals[c][s] = (long)v;
			}
		}
	}
	build(vals, out);
	return 0;
}

void info_collect_sysconf(struct info_source *out)
{
	long vals[5][3] = { { 0 } };
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL4_CACHE_LINESIZE)
	static const int names[5][3] = {
		{ _SC_LEVEL1_ICACHE_SIZE, _SC_LEVEL1_ICACHE_ASSOC, _SC_LEVEL1_ICACHE_LINESIZE },
		{ _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL1_DCACHE_ASSOC, _SC_LEVEL1_DCACHE_LINESIZE },
		{ _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL2_CACHE_ASSOC, _SC_LEVEL2_CACHE_LINESIZE },
		{ _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL3_CACHE_ASSOC, _SC_LEVEL3_CACHE_LINESIZE },
		{ _SC_LEVEL4_CACHE_SIZE, _SC_LEVEL4_CACHE_ASSOC, _SC_LEVEL4_CACHE_LINESIZE },
	};
	for (int c = 0; c < 5; c++)
		for (int s = 0; s < 3; s++)
			vals[c][s] = sysconf(names[c][s]);
#endif
	build(vals, out);
	if (out->nlevels)
		mt_strlcpy(out->note, "sysconf(_SC_LEVEL*_CACHE_*), as getconf -a prints",
			   sizeof out->note);
}
