/* info source "cpuid": the x86 cache descriptors (info.h). Intel (and other
 * vendors that follow it) describe each cache in leaf 4; AMD in 0x8000001D
 * when the CPU has topology extensions, else in the older 0x80000005/6. */
#include "config.h"

#include "info.h"

#include <string.h>

#if defined(HAVE_CPUID_H) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#define MT_HAVE_CPUID 1
#else
#define MT_HAVE_CPUID 0
#endif

int info_cpuid_decode(uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t edx,
		      struct cache_level *lv)
{
	uint32_t type = eax & 0x1f;
	uint32_t line = (ebx & 0xfff) + 1, parts = ((ebx >> 12) & 0x3ff) + 1;
	uint32_t ways = ((ebx >> 22) & 0x3ff) + 1, sets = ecx + 1;
	uint32_t sharing = ((eax >> 14) & 0xfff) + 1;
	(void)edx; /* inclusiveness and write-back invalidation: not shown */
	memset(lv, 0, sizeof *lv);
	if (type == 0)
		return 0;
	if (type > 3)
		return -1;
	lv->level = (int)((eax >> 5) & 7);
	mt_strlcpy(lv->type, type == 1 ? "data" : type == 2 ? "instruction" : "unified",
		   sizeof lv->type);
	lv->size = (uint64_t)ways * parts * line * sets;
	lv->ways = (int)ways;
	lv->line = (int)line;
	lv->sets = ecx == 0xffffffffu ? 0 : (int)(sets > (1u << 30) ? 0 : sets);
	if (eax & (1u << 9)) { /* fully associative: one set of every line */
		lv->ways = (int)(lv->size / line);
		lv->sets = 1;
	}
	mt_snprintf(lv->shared_cpus, sizeof lv->shared_cpus, "up to %u", sharing);
	return 1;
}

/* AMD's associativity code of 0x80000006 (as Linux's cacheinfo.c reads it):
 * 0 = off, 0xf = fully associative (-1 here), others a way count. */
static int amd_assoc(unsigned code)
{
	static const int ways[16] = { 0, 1, 2, 0, 4, 0, 8, 0, 16, 0, 32, 48, 64, 96, 128, -1 };
	return ways[code & 0xf];
}

static void add_legacy(struct info_source *out, int level, const char *type, uint64_t size,
		       int ways, int line)
{
	struct cache_level lv;
	if (size == 0)
		return;
	memset(&lv, 0, sizeof lv);
	lv.level = level;
	mt_strlcpy(lv.type, type, sizeof lv.type);
	lv.size = size;
	lv.line = line;
	if (ways < 0 && line > 0) { /* fully associative */
		lv.ways = (int)(size / (uint64_t)line);
		lv.sets = 1;
	} else {
		lv.ways = ways;
		if (ways > 0 && line > 0)
			lv.sets = (int)(size / ((uint64_t)ways * (uint64_t)line));
	}
	info_source_add_level(out, &lv);
}

void info_cpuid_decode_amd_legacy(uint32_t ecx5, uint32_t edx5, uint32_t ecx6, uint32_t edx6,
				  struct info_source *out)
{
	/* 0x80000005: size KB [31:24], ways [23:16] (0xff = fully), line [7:0] */
	uint32_t w;
	w = (ecx5 >> 16) & 0xff;
	add_legacy(out, 1, "data", (uint64_t)(ecx5 >> 24) << 10, w == 0xff ? -1 : (int)w,
		   (int)(ecx5 & 0xff));
	w = (edx5 >> 16) & 0xff;
	add_legacy(out, 1, "instruction", (uint64_t)(edx5 >> 24) << 10, w == 0xff ? -1 : (int)w,
		   (int)(edx5 & 0xff));
	/* 0x80000006: L2 size KB [31:16], L3 size in 512 KB [31:18]; assoc code
	 * [15:12]; line [7:0]. Code 0 means the cache is off/absent. */
	if ((ecx6 >> 12) & 0xf)
		add_legacy(out, 2, "unified", (uint64_t)(ecx6 >> 16) << 10, amd_assoc(ecx6 >> 12),
			   (int)(ecx6 & 0xff));
	if ((edx6 >> 12) & 0xf)
		add_legacy(out, 3, "unified", (uint64_t)(edx6 >> 18) << 19, amd_assoc(edx6 >> 12),
			   (int)(edx6 & 0xff));
}

void info_collect_cpuid(struct info_source *out)
{
	info_source_init(out, "cpuid");
#if MT_HAVE_CPUID
	unsigned a, b, c, d, max, maxext, leaf = 4;
	char vendor[13];
	int amd;
	__cpuid(0, max, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	amd = strcmp(vendor, "AuthenticAMD") == 0 || strcmp(vendor, "HygonGenuine") == 0;
	__cpuid(0x80000000, maxext, b, c, d);
	if (amd) {
		int topoext = 0;
		if (maxext >= 0x80000001) {
			__cpuid(0x80000001, a, b, c, d);
			topoext = (c >> 22) & 1;
		}
		if (!topoext || maxext < 0x8000001d) {
			uint32_t c5 = 0, d5 = 0, c6 = 0, d6 = 0;
			if (maxext >= 0x80000005)
				__cpuid(0x80000005, a, b, c5, d5);
			if (maxext >= 0x80000006)
				__cpuid(0x80000006, a, b, c6, d6);
			info_cpuid_decode_amd_legacy(c5, d5, c6, d6, out);
			mt_snprintf(out->note, sizeof out->note,
				    "leaves 0x80000005/6 (%s, no topology extensions)", vendor);
			return;
		}
		leaf = 0x8000001d;
	} else if (max < 4) {
		return;
	}
	for (unsigned sub = 0; sub < 32; sub++) {
		struct cache_level lv;
		int rc;
		__cpuid_count(leaf, sub, a, b, c, d);
		rc = info_cpuid_decode(a, b, c, d, &lv);
		if (rc == 0)
			break;
		if (rc > 0 && info_source_add_level(out, &lv) < 0)
			break;
	}
	mt_snprintf(out->note, sizeof out->note, "leaf %s (%s), on the CPU this ran on",
		    leaf == 4 ? "4" : "0x8000001D", vendor);
#endif
}

void info_cpu_identity(char *vendor, size_t len, int *hypervisor)
{
	vendor[0] = '\0';
	*hypervisor = 0;
#if MT_HAVE_CPUID
	{
		unsigned a, b, c, d, max;
		char v[13];
		__cpuid(0, max, b, c, d);
		memcpy(v, &b, 4);
		memcpy(v + 4, &d, 4);
		memcpy(v + 8, &c, 4);
		v[12] = '\0';
		mt_strlcpy(vendor, v, len);
		if (max >= 1) {
			__cpuid(1, a, b, c, d);
			*hypervisor = (int)((c >> 31) & 1);
		}
	}
#else
	(void)len;
#endif
}
