/* info: cache parameters from every source the system offers, side by side
 * (`memtop info`). Sources: "sysfs" (/sys/devices/system/cpu/cpuN/
 * cache/indexM), "lscpu" (`lscpu -C`, run without a shell), "sysconf"
 * (glibc's _SC_LEVEL1_DCACHE_SIZE ..., the same values `getconf -a` prints),
 * "cpuid" (x86 leaf 4 on Intel, 0x8000001D or the legacy 0x80000005/6 on
 * AMD) and "sysctl" (macOS hw.perflevelN.*, hw.cachelinesize, hw.l1dcachesize).
 *
 * Rules: a source the system lacks is absent (never invented, never filled
 * from another source); a field a source does not report is 0 / "" (and
 * absent from the JSON); where sources disagree, info_compare says so, one
 * line per level and field. Nothing here picks one source silently:
 * info_best_size is for callers that need one number and says which order
 * it trusts.
 *
 * Each source has a parser that takes its recorded input (a sysfs root, the
 * text of `lscpu -C`, `getconf -a` or `sysctl hw`, CPUID register values) so
 * the tests run on recorded machines, and info_collect runs them live. */
#ifndef MEMTOP_INFO_H
#define MEMTOP_INFO_H

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>

#include "base/i18n.h"
#include "base/util.h"

#define INFO_MAX_LEVELS 16
#define INFO_MAX_SOURCES 8
#define INFO_MAX_DIS 24
#define INFO_MAX_TRIED 8
#define INFO_MAX_DOUBTS 16
#define INFO_RUN_TIMEOUT_MS 2000 /* a tool that reports caches gets this long */

/* The English sentences info keeps (a source's why, a doubt's reason, the
 * sources of one origin; a result file keeps them as they are), marked for
 * the catalogue; printed through mt_gettext_stored with INFO_FORMS, so that
 * people read them in their language. */
#define INFO_WHY_NO_ROOT N_("no %s (not Linux, or sysfs not mounted)")
#define INFO_WHY_NO_CACHE_DIR N_("no cache directory under %s/cpu0/cache")
#define INFO_WHY_LSCPU_UNREAD N_("printed a table memtop cannot read (%s)")
#define INFO_WHY_NO_CACHES N_("%s printed no caches")
#define INFO_DOUBT_GEOMETRY N_("ways x sets x line make %s, not its size")
#define INFO_FORMS                                                                            \
	INFO_WHY_NO_ROOT, INFO_WHY_NO_CACHE_DIR, INFO_WHY_LSCPU_UNREAD, INFO_WHY_NO_CACHES,   \
		INFO_DOUBT_GEOMETRY

/* One cache as one source describes it. 0 or "" = not reported. */
struct cache_level {
	int level;            /* 1, 2, 3, ... */
	char type[16];        /* "data", "instruction", "unified" */
	char cores[16];       /* "" on uniform machines; macOS: "performance" (perflevel0),
			       * "efficiency" (perflevel1), "unprefixed" (hw.l1dcachesize
			       * and friends, which describe the efficiency cores) */
	uint64_t size;        /* bytes */
	int ways;             /* associativity */
	int line;             /* coherency line size, bytes */
	int sets;
	char shared_cpus[64]; /* sysfs: the CPU list ("0-1"); cpuid: "up to N" (the
			       * field is a maximum count); sysctl: "N CPUs" (cpusperl2) */
	int approx;           /* the source rounded the size (lscpu "1.3M") */
};

struct info_source {
	char name[16];        /* "sysfs", "lscpu", "sysconf", "cpuid", "sysctl", "hwloc" */
	int nlevels;
	struct cache_level lv[INFO_MAX_LEVELS];
	char note[160];       /* where it came from: "cpu0", "leaf 4 (GenuineIntel)" */
};

/* A source info_collect() tried, and why it gave nothing. */
struct info_tried {
	char name[16];  /* "sysfs", "lscpu", ... */
	char why[160];  /* "" when it gave caches; else "no cache directory under ...",
			 * "not installed", "timed out after 2000 ms", "printed no caches" */
};

/* A value no cache can have on this machine, or one to take with care. */
struct info_doubt {
	int level;
	char type[16];
	uint64_t size;
	char sources[64]; /* the sources that give it: "sysconf, cpuid" */
	char why[240];
};

struct info {
	int nsources;
	struct info_source src[INFO_MAX_SOURCES];
	int ndis;
	char dis[INFO_MAX_DIS][200]; /* "L3 size: sysfs says 32M; sysconf says 256M" */
	int ntried;
	struct info_tried tried[INFO_MAX_TRIED];
	int ndoubts;
	struct info_doubt doubt[INFO_MAX_DOUBTS];
	char vendor[16];       /* the CPU's vendor by CPUID ("AuthenticAMD"), "" unknown */
	int hypervisor;        /* CPUID says it runs under a hypervisor (a VM) */
	char same_origin[160]; /* when every source present reads the same thing, which:
				* "sysconf and cpuid both read CPUID"; else "" */
};

/* Empty info / source (no sources, no levels). */
void info_init(struct info *inf);
void info_source_init(struct info_source *s, const char *name);

/* Append a copy of s to inf when it has at least one level (an empty source
 * is absent). Returns 0, or -1 when inf already holds INFO_MAX_SOURCES. */
int info_add_source(struct info *inf, const struct info_source *s);

/* Append one level to s. Returns 0, or -1 when s is full. */
int info_source_add_level(struct info_source *s, const struct cache_level *lv);

/* Everything this machine offers, in the order sysfs, lscpu, sysconf, cpuid,
 * sysctl (info_collect.c), then info_compare and info_doubts. Each source
 * tried is listed in out->tried with why it gave nothing, if it did (a
 * macOS machine has no sysfs, an arm64 one no cpuid: absent, with the
 * reason). Returns 0 (possibly with no source at all); -1 with e set only
 * for a broken input that exists (a sysfs cache file that does not parse). */
int info_collect(struct info *out, mt_error *e);

/* The CPU's vendor (CPUID leaf 0: "GenuineIntel", "AuthenticAMD") and
 * whether it runs under a hypervisor (leaf 1, ecx bit 31). Not x86: "" and
 * 0. */
void info_cpu_identity(char *vendor, size_t len, int *hypervisor);

/* Fill inf->doubt and inf->same_origin from the sources, inf->vendor and
 * inf->hypervisor: a size that is not ways x sets x line; an L3 larger
 * than any the vendor makes for one core complex (AMD: 96 MB, with 3D
 * V-Cache); on a VM, the last level shared with the host's other guests
 * (the effective size is what memtop run latency measures). Sources that
 * read the same thing (sysconf and cpuid both read CPUID on x86; lscpu -C
 * reads sysfs) are named, since their agreement is no second opinion. */
void info_doubts(struct info *inf);

/* The doubt about a source's cache level (NULL when none). */
const struct info_doubt *info_doubt_of(const struct info *inf, const char *source, int level,
				       const char *type);

struct topo;

/* hwloc: the caches above CPU cpu in the topology t (os/topo): level,
 * type, size, ways, line and the CPUs sharing each (shared_cpus), in sysfs's
 * order; note "cpuN, hwloc X.Y.Z". Returns 0; -1 with e when t has no such
 * CPU. */
int info_from_topo(const struct topo *t, int cpu, struct info_source *out, mt_error *e);

/* The same from the recorded Linux tree under root (memtop topo
 * --sysfs-root's layout), for CPU cpu (-1: the first). Returns 0; -1 with e
 * naming what is missing or garbled (topo_load's errors) or the CPU. */
int info_parse_hwloc(const char *root, int cpu, struct info_source *out, mt_error *e);

/* The same live: this machine's first CPU this process may use; no levels
 * when hwloc could not read the machine. */
void info_collect_hwloc(struct info_source *out);

/* sysfs: the caches of CPU cpu under root (normally /sys/devices/system/cpu):
 * root/cpuN/cache/index* with level, type, size, ways_of_associativity,
 * coherency_line_size, number_of_sets, shared_cpu_list (missing files leave
 * the field unknown). Returns 0; -1 with e set when root/cpuN/cache is missing
 * or a file does not parse ("ROOT/cpu0/cache/index2/size: bad size 'x'"). */
int info_parse_sysfs(const char *root, int cpu, struct info_source *out, mt_error *e);

/* lscpu: the text of `lscpu -C` (any column order, human sizes "48K", "1.3M"
 * or bytes from --bytes; columns found from the header and the blank columns
 * between cells, so empty cells are fine). Needs NAME or LEVEL+TYPE, and
 * ONE-SIZE. Returns 0; -1 with e = "lscpu -C line N: ..." on malformed text. */
int info_parse_lscpu(const char *text, struct info_source *out, mt_error *e);

/* sysconf through its text form: `getconf -a` lines "LEVEL1_DCACHE_SIZE 49152"
 * (LEVEL1_ICACHE, LEVEL1_DCACHE, LEVEL2_CACHE, LEVEL3_CACHE, LEVEL4_CACHE x
 * SIZE, ASSOC, LINESIZE; other lines ignored, empty or 0 values unknown). A
 * level appears when its size is known. The source is named "sysconf".
 * Returns 0; -1 with e = "getconf line N: ..." on a malformed number. */
int info_parse_getconf(const char *text, struct info_source *out, mt_error *e);

/* The same from sysconf() of this process (glibc); no levels elsewhere. */
void info_collect_sysconf(struct info_source *out);

/* Decode one CPUID leaf 4 / 0x8000001D subleaf (same layout on Intel and AMD):
 * type eax[4:0], level eax[7:5], sharing eax[25:14]+1, fully associative
 * eax[9]; line ebx[11:0]+1, partitions ebx[21:12]+1, ways ebx[31:22]+1; sets
 * ecx+1; size = ways * partitions * line * sets. Returns 1 with lv filled, 0
 * for the null type that ends the list, -1 for a reserved type. */
int info_cpuid_decode(uint32_t eax, uint32_t ebx, uint32_t ecx, uint32_t edx,
		      struct cache_level *lv);

/* AMD's legacy leaves (no topology extensions): 0x80000005 ecx/edx (L1d/L1i)
 * and 0x80000006 ecx/edx (L2/L3). Appends the caches they describe to out
 * (entries whose size is 0 are absent). */
void info_cpuid_decode_amd_legacy(uint32_t ecx5, uint32_t edx5, uint32_t ecx6, uint32_t edx6,
				  struct info_source *out);

/* CPUID of the CPU this thread runs on (x86 only; elsewhere no levels).
 * Intel and others: leaf 4; AMD/Hygon: 0x8000001D when TOPOEXT, else the
 * legacy leaves. Note says which. */
void info_collect_cpuid(struct info_source *out);

/* macOS sysctl text, "name: value" (or "name = value") lines as
 * `sysctl hw` prints them. perflevel0 entries come first (cores
 * "performance" or whatever hw.perflevel0.name says, lowercased), then
 * perflevel1's, then the unprefixed hw.l1dcachesize/hw.l1icachesize/
 * hw.l2cachesize/hw.l3cachesize (cores "unprefixed" when perflevels exist,
 * "" otherwise); hw.cachelinesize is every entry's line; cpusperl2 becomes
 * the L2's shared_cpus "N CPUs". Returns 0; -1 with e = "sysctl line N: ..."
 * on a malformed number. */
int info_parse_sysctl(const char *text, struct info_source *out, mt_error *e);

/* The same live on macOS (sysctlbyname); no levels elsewhere. */
void info_collect_sysctl(struct info_source *out);

/* Fill inf->dis: for each cache (level, type, cores) every field (size,
 * ways, line, sets) two sources report differently, as "L3 size: sysfs,
 * lscpu say 32M; sysconf says 256M"; a cache only some sources list
 * ("L4: only cpuid lists it"); and on macOS the unprefixed hw.* names
 * against perflevel0. Unknown fields never disagree; an approximate size
 * (lscpu "1.3M") agrees within 5 %. */
void info_compare(struct info *inf);

/* The source named name, or NULL when absent. */
const struct info_source *info_find_source(const struct info *inf, const char *name);

/* The size in bytes of the first entry of source with this level and type
 * ("data", "instruction", "unified"; "data" also matches a unified cache at
 * that level). On heterogeneous machines the first entry is perflevel0's
 * (performance cores). 0 when absent or unknown. */
uint64_t info_size(const struct info *inf, const char *source, int level, const char *type);

/* The data (or unified) size at level from the most trusted present source:
 * sysfs > sysctl > cpuid > lscpu > sysconf. 0 when none reports it. If from
 * is not NULL it gets the source's name ("" when 0). */
uint64_t info_best_size(const struct info *inf, int level, const char **from);

/* Short name of a cache: "L1d", "L1i", "L2", "L3 (efficiency)". */
const char *info_level_name(const struct cache_level *lv, char *buf, size_t len);

/* JSON: {"sources":{"sysfs":[{"level":1,"type":"data","size":32768,"ways":8,
 * "line":64,"sets":64,"shared_cpus":"0"},...],...},"notes":{"sysfs":"cpu0"},
 * "disagreements":["..."],"tried":{"sysfs":"why it gave nothing",
 * "sysconf":"",...},"doubts":[{"level","type","size","sources","why"}],
 * "vendor","hypervisor","same_origin"}. Unknown fields are left out; "cores"
 * and "approx" only when set. Returns a new object, or NULL out of memory. */
cJSON *info_to_json(const struct info *inf);

/* Read that shape back (a result's "caches" object too). Unknown keys are
 * ignored; a mistyped or out-of-range field fails with e = "FILE: sources.
 * sysfs[2].size must be ..." (file NULL prints "input"). Disagreements,
 * tried sources and doubts are read as stored, not recomputed (doubts are
 * worked out when a file from before them has none). Returns 0 or -1. */
int info_from_json(const cJSON *o, struct info *inf, const char *file, mt_error *e);

/* Text: the sources tried and why each gave nothing; per source a heading
 * and a table (cache, level, type, size in human units with "?" when
 * doubtful, ways, line, sets, shared CPUs, plus cores when any); "doubtful
 * values:" with the reasons; then "disagreements:" with one line each, or
 * "disagreements: none" (saying when the sources read the same thing). */
void info_print(FILE *f, const struct info *inf);

/* A sentence info keeps in English (a source's why, a doubt's reasons, the
 * sources of one origin), made printable, then in the user's language
 * where the catalogue has it (mt_gettext_stored with INFO_FORMS and
 * MT_RUN_WHY_FORMS), into out. Returns out. */
const char *info_text(char *out, size_t len, const char *stored);

#endif
