/* info_collect: every source this machine offers, live, and why each one
 * that gave nothing gave nothing (info.h). The sources' parsers are in
 * info_sysfs.c, info_lscpu.c, info_sysconf.c, info_cpuid.c, info_sysctl.c. */
#include "config.h"

#include "info.h"
#include "os/child.h"
#include "os/platform.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SYSFS_ROOT "/sys/devices/system/cpu"
#define LSCPU_MAX (64u << 10)
#define MAX_CPUS 4096

static void tried(struct info *inf, const char *name, const char *why)
{
	if (inf->ntried >= INFO_MAX_TRIED)
		return;
	mt_strlcpy(inf->tried[inf->ntried].name, name, sizeof inf->tried[0].name);
	mt_strlcpy(inf->tried[inf->ntried].why, why, sizeof inf->tried[0].why);
	inf->ntried++;
}

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The lowest-numbered CPU with a cache folder under root, or -1 with why. */
static int first_sysfs_cpu(const char *root, char *why, size_t wlen)
{
	char path[512];
	if (!is_dir(root)) {
		mt_snprintf(why, wlen, INFO_WHY_NO_ROOT, root);
		return -1;
	}
	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		mt_snprintf(path, sizeof path, "%s/cpu%d/cache/index0", root, cpu);
		if (is_dir(path))
			return cpu;
		mt_snprintf(path, sizeof path, "%s/cpu%d", root, cpu);
		if (!is_dir(path) && cpu > 0)
			break; /* CPUs are numbered without holes in practice */
	}
	mt_snprintf(why, wlen, INFO_WHY_NO_CACHE_DIR, root);
	return -1;
}

/* Heterogeneous Linux machines (big.LITTLE, Intel hybrid): say in the note
 * which CPUs have caches of another size than the one shown. */
static void sysfs_note_other_cpus(const char *root, int shown, struct info_source *s)
{
	struct info_source o;
	mt_error e;
	char list[96] = "";
	int nother = 0;
	for (int cpu = shown + 1; cpu < MAX_CPUS; cpu++) {
		char path[512];
		int differs;
		mt_snprintf(path, sizeof path, "%s/cpu%d/cache", root, cpu);
		if (!is_dir(path))
			break;
		if (info_parse_sysfs(root, cpu, &o, &e) < 0)
			continue;
		differs = o.nlevels != s->nlevels;
		for (int i = 0; !differs && i < o.nlevels; i++)
			differs = o.lv[i].size != s->lv[i].size;
		if (differs) {
			if (nother < 8)
				mt_append(list, sizeof list, "%s%d", nother ? "," : "", cpu);
			nother++;
		}
	}
	if (nother)
		mt_append(s->note, sizeof s->note, "; %d other CPU(s) have other caches (%s%s)",
			  nother, list, nother > 8 ? ",..." : "");
}

static int collect_sysfs(struct info *inf, mt_error *e)
{
	struct info_source s;
	char why[160];
	int cpu = first_sysfs_cpu(SYSFS_ROOT, why, sizeof why);
	if (cpu < 0) {
		tried(inf, "sysfs", why);
		return 0;
	}
	if (info_parse_sysfs(SYSFS_ROOT, cpu, &s, e) < 0)
		return -1;
	sysfs_note_other_cpus(SYSFS_ROOT, cpu, &s);
	tried(inf, "sysfs", s.nlevels ? "" : "its cache directories list no cache");
	info_add_source(inf, &s);
	return 0;
}

static void collect_lscpu(struct info *inf)
{
	static const char *const with_bytes[] = { "lscpu", "-C", "--bytes", NULL };
	static const char *const plain[] = { "lscpu", "-C", NULL };
	struct info_source s;
	struct mt_run_end end;
	char why[160];
	mt_error e;
	const char *how = "lscpu -C --bytes";
	char *text = mt_run_child(with_bytes, LSCPU_MAX, INFO_RUN_TIMEOUT_MS, 0, &end);
	info_source_init(&s, "lscpu");
	if (!text && end.start_errno != ENOENT) {
		text = mt_run_child(plain, LSCPU_MAX, INFO_RUN_TIMEOUT_MS, 0, &end);
		how = "lscpu -C";
	}
	if (!text) {
		tried(inf, "lscpu", mt_run_why(&end, why, sizeof why));
		return;
	}
	if (info_parse_lscpu(text, &s, &e) < 0) {
		mt_snprintf(why, sizeof why, INFO_WHY_LSCPU_UNREAD, e.msg);
		info_source_init(&s, "lscpu");
	} else if (s.nlevels == 0) {
		mt_snprintf(why, sizeof why, INFO_WHY_NO_CACHES, how);
	} else {
		why[0] = '\0';
		mt_strlcpy(s.note, how, sizeof s.note);
	}
	free(text);
	tried(inf, "lscpu", why);
	info_add_source(inf, &s);
}

/* A source without a reason of its own: it gave caches, or not. */
static void collect_plain(struct info *inf, const char *name, void (*fn)(struct info_source *),
			  const char *why_none)
{
	struct info_source s;
	fn(&s);
	tried(inf, name, s.nlevels ? "" : why_none);
	info_add_source(inf, &s);
}

int info_collect(struct info *out, mt_error *e)
{
	info_init(out);
	if (collect_sysfs(out, e) < 0)
		return -1;
	collect_lscpu(out);
	collect_plain(out, "sysconf", info_collect_sysconf,
		      N_("reports no cache sizes (glibc reads them from CPUID on x86; others give 0)"));
	info_cpu_identity(out->vendor, sizeof out->vendor, &out->hypervisor);
	collect_plain(out, "cpuid", info_collect_cpuid,
		      out->vendor[0] ? N_("reports no cache leaves") : N_("not an x86 CPU"));
	collect_plain(out, "sysctl", info_collect_sysctl,
		      mt_plat_has_sysctl() ? N_("reports no cache sizes") : N_("macOS only"));
	collect_plain(out, "hwloc", info_collect_hwloc,
		      N_("hwloc could not read this machine's topology, or lists no cache"));
	info_compare(out);
	info_doubts(out);
	return 0;
}
