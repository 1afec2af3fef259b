/* info source "cpuid": the x86 cache descriptors (info.h). Intel (and other
 * vendors that follow it) describe each cache in leaf 4; AMD in 0x8000001D
 * when the CPU has topology extensions, else in the older 0x80000005/6. */
#include "config.h"

#include "info.h"
#include "os/arch.h"

#include <string.h>

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

/* The vendor string of CPUID leaf 0 into v[13]; returns the highest leaf,
 * or -1 when this processor has no CPUID. */
static long cpuid_vendor(char v[13])
{
	uint32_t r[4];
	v[0] = '\0';
	if (mt_arch_cpuid(0, 0, r) < 0)
		return -1;
	memcpy(v, &r[1], 4);
	memcpy(v + 4, &r[3], 4);
	memcpy(v + 8, &r[2], 4);
	v[12] = '\0';
	return (long)r[0];
}

/* AMD without topology extensions: the older leaves 0x80000005/6 into out.
 * Returns 1 when it used them, 0 when leaf 0x8000001D describes the caches. */
static int collect_amd_legacy(struct info_source *out, const char *vendor)
{
	uint32_t r[4], r5[4] = { 0 }, r6[4] = { 0 }, maxext;
	int topoext = 0;
	mt_arch_cpuid(0x80000000, 0, r);
	maxext = r[0];
	if (maxext >= 0x80000001) {
		mt_arch_cpuid(0x80000001, 0, r);
		topoext = (r[2] >> 22) & 1;
	}
	if (topoext && maxext >= 0x8000001d)
		return 0;
	if (maxext >= 0x80000005)
		mt_arch_cpuid(0x80000005, 0, r5);
	if (maxext >= 0x80000006)
		mt_arch_cpuid(0x80000006, 0, r6);
	info_cpuid_decode_amd_legacy(r5[2], r5[3], r6[2], r6[3], out);
	mt_snprintf(out->note, sizeof out->note, "leaves 0x80000005/6 (%s, no topology extensions)",
		    vendor);
	return 1;
}

void info_collect_cpuid(struct info_source *out)
{
	char vendor[13];
	long max;
	unsigned leaf = 4;
	uint32_t r[4];
	info_source_init(out, "cpuid");
	max = cpuid_vendor(vendor);
	if (max < 0)
		return;
	if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine")) {
		if (collect_amd_legacy(out, vendor))
			return;
		leaf = 0x8000001d;
	} else if (max < 4) {
		return;
	}
	for (unsigned sub = 0; sub < 32; sub++) {
		struct cache_level lv;
		int rc;
		mt_arch_cpuid(leaf, sub, r);
		rc = info_cpuid_decode(r[0], r[1], r[2], r[3], &lv);
		if (rc == 0)
			break;
		if (rc > 0 && info_source_add_level(out, &lv) < 0)
			break;
	}
	mt_snprintf(out->note, sizeof out->note, "leaf %s (%s), on the CPU this ran on",
		    leaf == 4 ? "4" : "0x8000001D", vendor);
}

void info_cpu_identity(char *vendor, size_t len, int *hypervisor)
{
	char v[13];
	long max = cpuid_vendor(v);
	uint32_t r[4];
	mt_strlcpy(vendor, v, len);
	*hypervisor = 0;
	if (max >= 1 && mt_arch_cpuid(1, 0, r) == 0)
		*hypervisor = (int)((r[2] >> 31) & 1);
}
