/* Unit tests of info: every parser on recorded inputs (tests/data/, see
 * tests/data/README.info), the CPUID decoding on recorded register values,
 * the disagreements, JSON both ways and the text table. The EPYC inputs are
 * reconstructed from the caches an EPYC Zen3 build machine reported
 * (tests/data/README.info) in the exact formats of the files recorded on the
 * Xeon VM (lscpu -C, getconf -a, the sysfs tree). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "info/info.h"
#include "testlib.h"

static const char *datadir(void)
{
	const char *d = getenv("TESTDATA");
	return d ? d : "tests/data";
}

static char *load(const char *name)
{
	char path[512];
	mt_error e;
	char *t;
	mt_snprintf(path, sizeof path, "%s/%s", datadir(), name);
	t = mt_read_file(path, 1 << 20, NULL, &e);
	if (!t)
		fail_msg("%s", e.msg);
	return t;
}

static void parse_lscpu_file(const char *name, struct info_source *s)
{
	mt_error e;
	char *t = load(name);
	int rc = info_parse_lscpu(t, s, &e);
	free(t);
	if (rc < 0)
		fail_msg("%s: %s", name, e.msg);
}

static void parse_getconf_file(const char *name, struct info_source *s)
{
	mt_error e;
	char *t = load(name);
	int rc = info_parse_getconf(t, s, &e);
	free(t);
	if (rc < 0)
		fail_msg("%s: %s", name, e.msg);
}

static void parse_sysfs_dir(const char *name, struct info_source *s)
{
	char root[512];
	mt_error e;
	mt_snprintf(root, sizeof root, "%s/%s", datadir(), name);
	if (info_parse_sysfs(root, 0, s, &e) < 0)
		fail_msg("%s", e.msg);
}

static void check_level(const struct cache_level *lv, int level, const char *type, uint64_t size,
			int ways, int line, int sets)
{
	assert_int_equal(lv->level, level);
	assert_string_equal(lv->type, type);
	assert_int_equal(lv->size, size);
	assert_int_equal(lv->ways, ways);
	assert_int_equal(lv->line, line);
	assert_int_equal(lv->sets, sets);
}

/* The Xeon VM (recorded): L1d 48K 12-way, L1i 32K 8-way, L2 2M 16-way, L3 260M 20-way. */
static void check_xeon(const struct info_source *s, int with_sets)
{
	assert_int_equal(s->nlevels, 4);
	check_level(&s->lv[0], 1, "data", 49152, 12, 64, with_sets ? 64 : 0);
	check_level(&s->lv[1], 1, "instruction", 32768, with_sets ? 8 : 0, 64, with_sets ? 64 : 0);
	check_level(&s->lv[2], 2, "unified", 2097152, 16, 64, with_sets ? 2048 : 0);
	check_level(&s->lv[3], 3, "unified", 272629760, 20, 64, with_sets ? 212992 : 0);
}

static void check_epyc(const struct info_source *s)
{
	assert_int_equal(s->nlevels, 4);
	check_level(&s->lv[0], 1, "data", 32768, 8, 64, 64);
	check_level(&s->lv[1], 1, "instruction", 32768, 8, 64, 64);
	check_level(&s->lv[2], 2, "unified", 524288, 8, 64, 1024);
	check_level(&s->lv[3], 3, "unified", 33554432, 16, 64, 32768);
}

static void sysfs_recorded_trees(void **state)
{
	struct info_source s;
	(void)state;
	parse_sysfs_dir("sysfs-xeon", &s);
	assert_string_equal(s.name, "sysfs");
	check_xeon(&s, 1);
	assert_string_equal(s.lv[0].shared_cpus, "0");
	assert_string_equal(s.lv[3].shared_cpus, "0-1");
	assert_string_equal(s.note, "cpu0");
	parse_sysfs_dir("sysfs-epyc", &s);
	check_epyc(&s);
}

static void sysfs_errors_name_the_file(void **state)
{
	char root[] = "/tmp/memtop-info-XXXXXX", path[600];
	struct info_source s;
	mt_error e;
	FILE *f;
	(void)state;
	assert_non_null(mkdtemp(root));
	/* no cpu0/cache at all: an error naming the folder */
	assert_int_equal(info_parse_sysfs(root, 0, &s, &e), -1);
	assert_non_null(strstr(e.msg, "/cpu0/cache"));
	/* a size that does not parse */
	mt_snprintf(path, sizeof path, "%s/cpu0", root);
	assert_int_equal(mkdir(path, 0700), 0);
	mt_snprintf(path, sizeof path, "%s/cpu0/cache", root);
	assert_int_equal(mkdir(path, 0700), 0);
	mt_snprintf(path, sizeof path, "%s/cpu0/cache/index0", root);
	assert_int_equal(mkdir(path, 0700), 0);
	mt_snprintf(path, sizeof path, "%s/cpu0/cache/index0/level", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("1\n", f);
	fclose(f);
	mt_snprintf(path, sizeof path, "%s/cpu0/cache/index0/type", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("Data\n", f);
	fclose(f);
	mt_snprintf(path, sizeof path, "%s/cpu0/cache/index0/size", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("4x8K\n", f);
	fclose(f);
	assert_int_equal(info_parse_sysfs(root, 0, &s, &e), -1);
	assert_non_null(strstr(e.msg, "index0/size: bad size '4x8K'"));
	/* missing optional files: the fields stay unknown */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("32K\n", f);
	fclose(f);
	assert_int_equal(info_parse_sysfs(root, 0, &s, &e), 0);
	assert_int_equal(s.nlevels, 1);
	check_level(&s.lv[0], 1, "data", 32768, 0, 0, 0);
	assert_string_equal(s.lv[0].shared_cpus, "");
	unlink(path);
	mt_snprintf(path, sizeof path, "%s/cpu0/cache/index0/type", root);
	unlink(path);
	mt_snprintf(path, sizeof path, "%s/cpu0/cache/index0/level", root);
	unlink(path);
	mt_snprintf(path, sizeof path, "%s/cpu0/cache/index0", root);
	rmdir(path);
	mt_snprintf(path, sizeof path, "%s/cpu0/cache", root);
	rmdir(path);
	mt_snprintf(path, sizeof path, "%s/cpu0", root);
	rmdir(path);
	rmdir(root);
}

static void lscpu_two_machines_three_formats(void **state)
{
	struct info_source s;
	(void)state;
	parse_lscpu_file("lscpu-C-xeon.txt", &s);
	assert_string_equal(s.name, "lscpu");
	check_xeon(&s, 1);
	for (int i = 0; i < s.nlevels; i++)
		assert_int_equal(s.lv[i].approx, 0);
	parse_lscpu_file("lscpu-C-bytes-xeon.txt", &s);
	check_xeon(&s, 1);
	/* other column order and two columns with no value in any row */
	parse_lscpu_file("lscpu-C-all-xeon.txt", &s);
	check_xeon(&s, 1);
	parse_lscpu_file("lscpu-C-epyc.txt", &s);
	check_epyc(&s);
}

static void lscpu_odd_inputs(void **state)
{
	struct info_source s;
	mt_error e;
	(void)state;
	/* lscpu with no cache to show prints nothing: the source is absent */
	assert_int_equal(info_parse_lscpu("", &s, &e), 0);
	assert_int_equal(s.nlevels, 0);
	/* rounded human sizes are marked approximate; empty cells are unknown */
	assert_int_equal(info_parse_lscpu("NAME ONE-SIZE WAYS TYPE    LEVEL\n"
					  "L2       1.3M      Unified     2\n"
					  "L3     48 MiB   12 Unified     3\n",
					  &s, &e),
			 0);
	assert_int_equal(s.nlevels, 2);
	assert_int_equal(s.lv[0].approx, 1);
	assert_int_equal(s.lv[0].size, 1363149);
	assert_int_equal(s.lv[0].ways, 0);
	assert_int_equal(s.lv[1].approx, 0);
	assert_int_equal(s.lv[1].size, 48u << 20);
	assert_int_equal(s.lv[1].ways, 12);
	/* NAME alone gives level and type */
	assert_int_equal(info_parse_lscpu("NAME ONE-SIZE\nL1i      32K\nL2        1M\n", &s, &e), 0);
	assert_int_equal(s.nlevels, 2);
	check_level(&s.lv[0], 1, "instruction", 32768, 0, 0, 0);
	check_level(&s.lv[1], 2, "unified", 1 << 20, 0, 0, 0);
	/* malformed: the error names the line */
	assert_int_equal(info_parse_lscpu("NAME ONE-SIZE\nL1d    4x4K\n", &s, &e), -1);
	assert_string_equal(e.msg, "lscpu -C line 2: bad ONE-SIZE '4x4K'");
	assert_int_equal(info_parse_lscpu("\nNAME ONE-SIZE TYPE\nL1d       32K Weird\n", &s, &e), -1);
	assert_string_equal(e.msg, "lscpu -C line 3: unknown TYPE 'Weird'");
	assert_int_equal(info_parse_lscpu("Architecture: x86_64\n", &s, &e), -1);
	assert_non_null(strstr(e.msg, "lscpu -C line 1"));
}

static void getconf_recorded(void **state)
{
	struct info_source s;
	mt_error e;
	(void)state;
	parse_getconf_file("getconf-xeon.txt", &s);
	assert_string_equal(s.name, "sysconf");
	/* glibc does not give L1i ways here (the line is empty) and never sets */
	check_xeon(&s, 0);
	parse_getconf_file("getconf-epyc.txt", &s);
	assert_int_equal(s.nlevels, 4); /* LEVEL4_CACHE_SIZE 0: absent */
	check_level(&s.lv[0], 1, "data", 32768, 8, 64, 0);
	check_level(&s.lv[3], 3, "unified", 268435456, 16, 64, 0);
	assert_int_equal(info_parse_getconf("LEVEL2_CACHE_SIZE 12x\n", &s, &e), -1);
	assert_string_equal(e.msg, "getconf line 1: LEVEL2_CACHE_SIZE: bad number '12x'");
	assert_int_equal(info_parse_getconf("PAGESIZE 4096\n", &s, &e), 0);
	assert_int_equal(s.nlevels, 0);
}

static void cpuid_leaf4_recorded_registers(void **state)
{
	/* cpuid leaf 4 on the Xeon VM, subleafs 0..4 (eax, ebx, ecx, edx) */
	static const uint32_t xeon[5][4] = {
		{ 0x04000121, 0x02c0003f, 0x0000003f, 0 },
		{ 0x04000122, 0x01c0003f, 0x0000003f, 0 },
		{ 0x04000143, 0x03c0003f, 0x000007ff, 0 },
		{ 0x04004163, 0x04c0003f, 0x00033fff, 0 },
		{ 0, 0, 0, 0 },
	};
	/* 0x8000001D of a Zen3 EPYC with README.info's caches (reconstructed:
	 * the L3 is shared by 16 threads, the L2 by 2) */
	static const uint32_t epyc[5][4] = {
		{ 0x00004121, 0x01c0003f, 0x0000003f, 0 },
		{ 0x00004122, 0x01c0003f, 0x0000003f, 0 },
		{ 0x00004143, 0x01c0003f, 0x000003ff, 2 },
		{ 0x0003c163, 0x03c0003f, 0x00007fff, 1 },
		{ 0, 0, 0, 0 },
	};
	struct info_source s;
	struct cache_level lv;
	(void)state;
	info_source_init(&s, "cpuid");
	for (int i = 0; i < 5; i++) {
		int rc = info_cpuid_decode(xeon[i][0], xeon[i][1], xeon[i][2], xeon[i][3], &lv);
		assert_int_equal(rc, i < 4 ? 1 : 0);
		if (rc == 1)
			info_source_add_level(&s, &lv);
	}
	check_xeon(&s, 1);
	assert_string_equal(s.lv[0].shared_cpus, "up to 1");
	assert_string_equal(s.lv[3].shared_cpus, "up to 2");
	info_source_init(&s, "cpuid");
	for (int i = 0; i < 5; i++) {
		int rc = info_cpuid_decode(epyc[i][0], epyc[i][1], epyc[i][2], epyc[i][3], &lv);
		assert_int_equal(rc, i < 4 ? 1 : 0);
		if (rc == 1)
			info_source_add_level(&s, &lv);
	}
	check_epyc(&s);
	assert_string_equal(s.lv[2].shared_cpus, "up to 2");
	assert_string_equal(s.lv[3].shared_cpus, "up to 16");
	/* reserved type */
	assert_int_equal(info_cpuid_decode(0x25, 0, 0, 0, &lv), -1);
	/* fully associative (eax bit 9): one set holding every line */
	assert_int_equal(info_cpuid_decode(0x00000221, 0x01c0003f, 0, 0, &lv), 1);
	assert_int_equal(lv.size, 8 * 64);
	assert_int_equal(lv.sets, 1);
	assert_int_equal(lv.ways, 8);
}

static void cpuid_amd_legacy_leaves(void **state)
{
	struct info_source s;
	(void)state;
	info_source_init(&s, "cpuid");
	/* 0x80000005: 32 KB, 8-way, 1 line per tag, 64 B lines for L1d and L1i;
	 * 0x80000006: L2 512 KB code 6 (8-way), L3 64 x 512 KB code 8 (16-way) */
	info_cpuid_decode_amd_legacy(0x20080140, 0x20080140, 0x02006140, 0x01008140, &s);
	check_epyc(&s);
	/* L3 off (code 0): absent, not invented */
	info_source_init(&s, "cpuid");
	info_cpuid_decode_amd_legacy(0x20080140, 0x20080140, 0x02006140, 0, &s);
	assert_int_equal(s.nlevels, 3);
}

/* What info_compare says of the M4 Max's sysctl: the trap, twice. */
static const char *const m4max_trap_lines[] = {
	"L1d (performance) size: sysctl hw.perflevel0 says 128K; sysctl hw.l1dcachesize says 64K "
	"(the sysctl trap: the unprefixed name gives the efficiency cores' value)",
	"L2 (performance) size: sysctl hw.perflevel0 says 16M; sysctl hw.l2cachesize says 4M (the "
	"sysctl trap: the unprefixed name gives the efficiency cores' value)",
};

static void sysctl_m4max_trap(void **state)
{
	struct info inf;
	struct info_source s;
	mt_error e;
	char *t = load("sysctl-m4max.txt");
	(void)state;
	assert_int_equal(info_parse_sysctl(t, &s, &e), 0);
	free(t);
	assert_string_equal(s.name, "sysctl");
	/* perflevel0 (3), perflevel1 (2), unprefixed (2) */
	assert_int_equal(s.nlevels, 7);
	check_level(&s.lv[0], 1, "data", 131072, 0, 128, 0);
	assert_string_equal(s.lv[0].cores, "performance");
	check_level(&s.lv[1], 1, "instruction", 196608, 0, 128, 0);
	check_level(&s.lv[2], 2, "unified", 16777216, 0, 128, 0);
	assert_string_equal(s.lv[2].shared_cpus, "6 CPUs");
	check_level(&s.lv[3], 1, "data", 65536, 0, 128, 0);
	assert_string_equal(s.lv[3].cores, "efficiency");
	check_level(&s.lv[4], 2, "unified", 4194304, 0, 128, 0);
	assert_string_equal(s.lv[4].shared_cpus, "4 CPUs");
	check_level(&s.lv[5], 1, "data", 65536, 0, 128, 0);
	assert_string_equal(s.lv[5].cores, "unprefixed");
	info_init(&inf);
	info_add_source(&inf, &s);
	/* callers get the performance cores' sizes, never the trap's */
	assert_int_equal(info_size(&inf, "sysctl", 1, "data"), 131072);
	assert_int_equal(info_size(&inf, "sysctl", 2, "data"), 16777216);
	assert_int_equal(info_best_size(&inf, 1, NULL), 131072);
	assert_int_equal(info_size(&inf, "sysfs", 1, "data"), 0);
	info_compare(&inf);
	MT_ASSERT_LINES(inf.dis, inf.ndis, m4max_trap_lines);
	assert_string_equal(s.note, "hw.perflevel0.* = performance, hw.perflevel1.* = "
				    "efficiency, then the unprefixed hw.*; line = hw.cachelinesize");
	/* a plain Intel Mac: no perflevels, unprefixed values are the only ones */
	assert_int_equal(info_parse_sysctl("hw.l1dcachesize = 32768\nhw.l2cachesize = 262144\n"
					   "hw.l3cachesize = 8388608\nhw.cachelinesize = 64\n",
					   &s, &e),
			 0);
	assert_int_equal(s.nlevels, 3);
	assert_string_equal(s.lv[0].cores, "");
	check_level(&s.lv[2], 3, "unified", 8u << 20, 0, 64, 0);
	assert_int_equal(info_parse_sysctl("hw.l2cachesize: lots\n", &s, &e), -1);
	assert_string_equal(e.msg, "sysctl line 1: hw.l2cachesize: bad number 'lots'");
}

/* The build VMs: sysfs, lscpu, sysconf (getconf text) and CPUID together. */
static void build_machine(struct info *inf, int epyc)
{
	struct info_source s;
	info_init(inf);
	parse_sysfs_dir(epyc ? "sysfs-epyc" : "sysfs-xeon", &s);
	info_add_source(inf, &s);
	parse_lscpu_file(epyc ? "lscpu-C-epyc.txt" : "lscpu-C-xeon.txt", &s);
	info_add_source(inf, &s);
	parse_getconf_file(epyc ? "getconf-epyc.txt" : "getconf-xeon.txt", &s);
	info_add_source(inf, &s);
	info_source_init(&s, "cpuid");
	if (epyc)
		info_cpuid_decode_amd_legacy(0x20080140, 0x20080140, 0x02006140, 0x01008140, &s);
	info_add_source(inf, &s); /* empty on the Xeon: absent */
	info_compare(inf);
}

/* The EPYC's disagreements once cpuid's L1i ways differ and it adds an L4. */
static const char *const epyc_extra_lines[] = {
	"L1i ways: sysfs, lscpu, sysconf say 8; cpuid says 4",
	"L1i sets: sysfs, lscpu say 64; cpuid says 128",
	"L3 size: sysfs, lscpu, cpuid say 32M; sysconf says 256M",
	"L4: listed by cpuid only, not by sysfs, lscpu, sysconf",
};

static void disagreements_on_the_build_machines(void **state)
{
	struct info inf;
	struct info_source s;
	struct cache_level extra;
	(void)state;
	/* Xeon: sysconf's 260M L3 agrees with sysfs; unknown fields never disagree */
	build_machine(&inf, 0);
	assert_int_equal(inf.nsources, 3);
	assert_null(info_find_source(&inf, "cpuid"));
	assert_int_equal(inf.ndis, 0);
	/* EPYC: glibc's 256M L3 against sysfs's 32M, and nothing else */
	build_machine(&inf, 1);
	assert_int_equal(inf.nsources, 4);
	assert_int_equal(inf.ndis, 1);
	assert_string_equal(inf.dis[0], "L3 size: sysfs, lscpu, cpuid say 32M; sysconf says 256M");
	assert_int_equal(info_size(&inf, "sysconf", 3, "unified"), 256u << 20);
	assert_int_equal(info_best_size(&inf, 3, NULL), 32u << 20);
	/* a cache only one source lists, and ways that differ */
	info_source_init(&s, "cpuid");
	info_cpuid_decode_amd_legacy(0x20080140, 0x20040140, 0x02006140, 0x01008140, &s);
	memset(&extra, 0, sizeof extra);
	extra.level = 4;
	mt_strlcpy(extra.type, "unified", sizeof extra.type);
	extra.size = 128u << 20;
	info_source_add_level(&s, &extra);
	inf.src[3] = s;
	info_compare(&inf);
	MT_ASSERT_LINES(inf.dis, inf.ndis, epyc_extra_lines);
}

static void approximate_sizes_agree_within_5_percent(void **state)
{
	struct info inf;
	struct info_source a, b;
	mt_error e;
	(void)state;
	info_init(&inf);
	assert_int_equal(info_parse_lscpu("NAME ONE-SIZE\nL2       1.3M\n", &a, &e), 0);
	info_add_source(&inf, &a);
	assert_int_equal(info_parse_getconf("LEVEL2_CACHE_SIZE 1310720\n", &b, &e), 0);
	info_add_source(&inf, &b);
	info_compare(&inf);
	assert_int_equal(inf.ndis, 0);
	inf.src[1].lv[0].size = 1u << 20;
	info_compare(&inf);
	assert_int_equal(inf.ndis, 1);
	assert_string_equal(inf.dis[0], "L2 size: lscpu says 1331.2K (1363149 bytes, rounded); "
					"sysconf says 1M");
}

static void best_size_order(void **state)
{
	struct info inf;
	const char *from;
	(void)state;
	build_machine(&inf, 1);
	assert_int_equal(info_best_size(&inf, 1, &from), 32768);
	assert_string_equal(from, "sysfs");
	assert_int_equal(info_best_size(&inf, 4, &from), 0);
	assert_string_equal(from, "");
	/* without sysfs, cpuid comes before lscpu and sysconf */
	inf.src[0] = inf.src[3];
	inf.nsources = 3;
	inf.src[0].lv[3].size = 16u << 20;
	assert_int_equal(info_best_size(&inf, 3, &from), 16u << 20);
	assert_string_equal(from, "cpuid");
	assert_int_equal(info_size(&inf, "lscpu", 1, "instruction"), 32768);
	assert_int_equal(info_size(&inf, "nosuch", 1, "data"), 0);
}

static void json_round_trip(void **state)
{
	struct info inf, back;
	struct info_source s;
	mt_error e;
	cJSON *o;
	const cJSON *sysfs, *l1;
	char *t;
	(void)state;
	build_machine(&inf, 1);
	t = load("sysctl-m4max.txt");
	assert_int_equal(info_parse_sysctl(t, &s, &e), 0);
	free(t);
	info_add_source(&inf, &s);
	info_compare(&inf);
	o = info_to_json(&inf);
	assert_non_null(o);
	/* the shape */
	sysfs = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, "sources"),
						 "sysfs");
	assert_true(cJSON_IsArray(sysfs));
	l1 = cJSON_GetArrayItem(sysfs, 0);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(l1, "level")->valueint, 1);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(l1, "type")->valuestring, "data");
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(l1, "size")->valuedouble, 32768);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(l1, "ways")->valueint, 8);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(l1, "line")->valueint, 64);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(l1, "sets")->valueint, 64);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(l1, "shared_cpus")->valuestring,
			    "0");
	assert_null(cJSON_GetObjectItemCaseSensitive(l1, "cores"));
	/* unknown fields are left out, not written as 0 */
	l1 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
					cJSON_GetObjectItemCaseSensitive(o, "sources"), "sysconf"),
				0);
	assert_null(cJSON_GetObjectItemCaseSensitive(l1, "sets"));
	assert_true(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(o, "disagreements")));
	assert_int_equal(info_from_json(o, &back, "x.json", &e), 0);
	cJSON_Delete(o);
	assert_int_equal(back.nsources, inf.nsources);
	assert_int_equal(back.ndis, inf.ndis);
	for (int i = 0; i < inf.nsources; i++) {
		assert_string_equal(back.src[i].name, inf.src[i].name);
		assert_string_equal(back.src[i].note, inf.src[i].note);
		assert_int_equal(back.src[i].nlevels, inf.src[i].nlevels);
		for (int j = 0; j < inf.src[i].nlevels; j++) {
			const struct cache_level *a = &back.src[i].lv[j], *b = &inf.src[i].lv[j];
			check_level(a, b->level, b->type, b->size, b->ways, b->line, b->sets);
			assert_string_equal(a->cores, b->cores);
			assert_string_equal(a->shared_cpus, b->shared_cpus);
			assert_int_equal(a->approx, b->approx);
		}
	}
	for (int i = 0; i < inf.ndis; i++)
		assert_string_equal(back.dis[i], inf.dis[i]);
}

static void json_errors_name_the_field(void **state)
{
	static const struct {
		const char *json, *msg;
	} bad[] = {
		{ "[]", "x.json: cache information is not an object" },
		{ "{}", "x.json: field \"sources\" is missing" },
		{ "{\"sources\":[]}", "x.json: field \"sources\" is not an object" },
		{ "{\"sources\":{\"sysfs\":{}}}", "x.json: sources.sysfs is not an array" },
		{ "{\"sources\":{\"sysfs\":[{\"level\":1,\"type\":\"data\"},{\"type\":\"data\"}]}}",
		  "x.json: sources.sysfs[1].level is missing" },
		{ "{\"sources\":{\"sysfs\":[{\"level\":1,\"type\":\"data\",\"size\":-1}]}}",
		  "x.json: sources.sysfs[0].size must be an integer in 0..9007199254740992" },
		{ "{\"sources\":{\"lscpu\":[{\"level\":2,\"type\":\"both\"}]}}",
		  "x.json: sources.lscpu[0].type must be \"data\", \"instruction\" or \"unified\"" },
		{ "{\"sources\":{\"lscpu\":[{\"level\":2,\"type\":\"unified\",\"ways\":\"8\"}]}}",
		  "x.json: sources.lscpu[0].ways must be an integer in 0..1048576" },
		{ "{\"sources\":{},\"disagreements\":[1]}", "x.json: disagreements[0] is not a string" },
	};
	struct info inf;
	mt_error e;
	(void)state;
	for (size_t i = 0; i < MT_ARRAY_LEN(bad); i++) {
		cJSON *o = cJSON_Parse(bad[i].json);
		assert_non_null(o);
		assert_int_equal(info_from_json(o, &inf, "x.json", &e), -1);
		assert_string_equal(e.msg, bad[i].msg);
		cJSON_Delete(o);
	}
}

/* The Zen 5 guest of the issue: no sysfs, lscpu -C printing nothing;
 * sysconf and CPUID's legacy leaves both give a 508M L3 (1016 units of
 * 512K, associativity code 9: "see leaf 0x8000001D", which the guest lacks). */
static void zen5_guest(struct info *inf)
{
	static const char getconf[] = "LEVEL1_ICACHE_SIZE 32768\nLEVEL1_ICACHE_LINESIZE 64\n"
				      "LEVEL1_DCACHE_SIZE 49152\nLEVEL1_DCACHE_ASSOC 12\n"
				      "LEVEL1_DCACHE_LINESIZE 64\nLEVEL2_CACHE_SIZE 1048576\n"
				      "LEVEL2_CACHE_ASSOC 8\nLEVEL2_CACHE_LINESIZE 64\n"
				      "LEVEL3_CACHE_SIZE 532676608\nLEVEL3_CACHE_LINESIZE 64\n";
	struct info_source s;
	mt_error e;
	info_init(inf);
	mt_strlcpy(inf->tried[0].name, "sysfs", sizeof inf->tried[0].name);
	mt_strlcpy(inf->tried[0].why, "no cache directory under /sys/devices/system/cpu/cpu0/cache",
		   sizeof inf->tried[0].why);
	mt_strlcpy(inf->tried[1].name, "sysconf", sizeof inf->tried[1].name);
	inf->ntried = 2;
	assert_int_equal(info_parse_getconf(getconf, &s, &e), 0);
	info_add_source(inf, &s);
	info_source_init(&s, "cpuid");
	info_cpuid_decode_amd_legacy(0x300c0140, 0x20080140, 0x04006140, 0x0fe09140, &s);
	info_add_source(inf, &s);
	mt_strlcpy(inf->vendor, "AuthenticAMD", sizeof inf->vendor);
	inf->hypervisor = 1;
	info_compare(inf);
	info_doubts(inf);
}

static void doubts_on_the_zen5_guest(void **state)
{
	struct info inf, back;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	cJSON *o;
	mt_error e;
	(void)state;
	zen5_guest(&inf);
	assert_int_equal(info_size(&inf, "cpuid", 3, "unified"), 532676608);
	assert_int_equal(inf.ndis, 0);
	assert_int_equal(inf.ndoubts, 1);
	assert_int_equal(inf.doubt[0].level, 3);
	assert_int_equal(inf.doubt[0].size, 532676608);
	assert_string_equal(inf.doubt[0].sources, "sysconf, cpuid");
	assert_non_null(strstr(inf.doubt[0].why, "no AMD CPU has more than 96M of L3"));
	assert_non_null(strstr(inf.doubt[0].why, "a VM: the host's other guests share this cache"));
	assert_non_null(info_doubt_of(&inf, "cpuid", 3, "unified"));
	assert_null(info_doubt_of(&inf, "cpuid", 2, "unified"));
	assert_string_equal(inf.same_origin, "sysconf and cpuid both read CPUID here");
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	info_print(f, &inf);
	fclose(f);
	assert_non_null(strstr(buf, "sources tried:\n  sysfs    nothing: no cache directory under "
				    "/sys/devices/system/cpu/cpu0/cache\n  sysconf  4 caches\n"));
	assert_non_null(strstr(buf, "  L3         3 unified         508M?     -    64       -  -\n"));
	assert_non_null(strstr(buf, "\ndoubtful values (marked ?):\n  L3 unified 508M (sysconf, "
				    "cpuid): no AMD CPU"));
	assert_non_null(strstr(buf, "\ndisagreements: none (sysconf and cpuid both read CPUID here: "
				    "their agreement is no second opinion)\n"));
	free(buf);
	/* JSON keeps it all */
	o = info_to_json(&inf);
	assert_non_null(o);
	assert_int_equal(info_from_json(o, &back, "x.json", &e), 0);
	assert_int_equal(back.ntried, 2);
	assert_string_equal(back.tried[0].why, inf.tried[0].why);
	assert_string_equal(back.tried[1].why, "");
	assert_int_equal(back.ndoubts, 1);
	assert_string_equal(back.doubt[0].why, inf.doubt[0].why);
	assert_string_equal(back.vendor, "AuthenticAMD");
	assert_int_equal(back.hypervisor, 1);
	assert_string_equal(back.same_origin, inf.same_origin);
	/* a file from before the doubts: worked out on reading (the vendor from
	 * cpuid's note) */
	cJSON_DeleteItemFromObject(o, "doubts");
	cJSON_DeleteItemFromObject(o, "vendor");
	cJSON_DeleteItemFromObject(o, "hypervisor");
	cJSON_AddStringToObject(cJSON_GetObjectItem(o, "notes"), "cpuid",
				"leaves 0x80000005/6 (AuthenticAMD, no topology extensions)");
	assert_int_equal(info_from_json(o, &back, "x.json", &e), 0);
	assert_int_equal(back.ndoubts, 1);
	assert_non_null(strstr(back.doubt[0].why, "no AMD CPU"));
	assert_null(strstr(back.doubt[0].why, "a VM"));
	cJSON_Delete(o);
}

/* A size its own geometry contradicts; an Intel L3 of 260M is no doubt. */
static void doubts_geometry(void **state)
{
	struct info inf;
	struct info_source s;
	struct cache_level lv = { .level = 1, .type = "data", .size = 48u << 10, .ways = 8,
				  .line = 64, .sets = 64 };
	(void)state;
	build_machine(&inf, 0);
	info_doubts(&inf);
	assert_int_equal(inf.ndoubts, 0);
	assert_string_equal(inf.same_origin, "");
	info_init(&inf);
	info_source_init(&s, "sysfs");
	info_source_add_level(&s, &lv);
	info_add_source(&inf, &s);
	info_doubts(&inf);
	assert_int_equal(inf.ndoubts, 1);
	assert_string_equal(inf.doubt[0].why, "ways x sets x line make 32K, not its size");
}

static void text_table(void **state)
{
	struct info inf;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	(void)state;
	build_machine(&inf, 1);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	info_print(f, &inf);
	fclose(f);
	assert_non_null(strstr(buf, "sysfs: cpu0\n"));
	assert_non_null(strstr(buf, "  cache  level type             size  ways  line    sets  "
				    "shared CPUs\n"));
	assert_non_null(strstr(buf, "  L1d        1 data              32K     8    64      64  0\n"));
	assert_non_null(strstr(buf, "  L3         3 unified           32M    16    64   32768  0-1\n"));
	/* sysconf knows no sets: a dash, not a 0 */
	assert_non_null(strstr(buf, "  L3         3 unified          256M    16    64       -  -\n"));
	assert_non_null(strstr(buf, "\ndisagreements:\n  L3 size: sysfs, lscpu, cpuid say 32M; "
				    "sysconf says 256M\n"));
	free(buf);
	build_machine(&inf, 0);
	f = open_memstream(&buf, &len);
	info_print(f, &inf);
	fclose(f);
	assert_non_null(strstr(buf, "  L3         3 unified          260M    20    64  212992  0-1\n"));
	assert_non_null(strstr(buf, "\ndisagreements: none\n"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sysfs_recorded_trees),
		cmocka_unit_test(sysfs_errors_name_the_file),
		cmocka_unit_test(lscpu_two_machines_three_formats),
		cmocka_unit_test(lscpu_odd_inputs),
		cmocka_unit_test(getconf_recorded),
		cmocka_unit_test(cpuid_leaf4_recorded_registers),
		cmocka_unit_test(cpuid_amd_legacy_leaves),
		cmocka_unit_test(sysctl_m4max_trap),
		cmocka_unit_test(disagreements_on_the_build_machines),
		cmocka_unit_test(approximate_sizes_agree_within_5_percent),
		cmocka_unit_test(best_size_order),
		cmocka_unit_test(json_round_trip),
		cmocka_unit_test(json_errors_name_the_field),
		cmocka_unit_test(text_table),
		cmocka_unit_test(doubts_on_the_zen5_guest),
		cmocka_unit_test(doubts_geometry),
	};
	return cmocka_run_group_tests_name("info", tests, NULL, NULL);
}
