/* Fuzz harness: a recorded Linux tree read through hwloc (info_parse_hwloc,
 * topo_load: memtop topo --sysfs-root and memtop info's hwloc source). The
 * input is the contents of the files below separated by NUL bytes, in the
 * order of files[]; an empty piece leaves that file out. They are written
 * into a private tree under $TMPDIR (CPUs 0 and 1 with their folders) that
 * each run rewrites. */
#include "config.h"

#include "fuzz.h"
#include "info/info.h"
#include "os/topo.h"

#include <errno.h>
#include <sys/stat.h>

static const char *const files[] = {
	"sys/devices/system/cpu/online",
	"sys/devices/system/cpu/cpu0/topology/core_cpus",
	"sys/devices/system/cpu/cpu0/topology/package_cpus",
	"sys/devices/system/cpu/cpu0/cache/index0/size",
	"sys/devices/system/cpu/cpu0/cache/index0/shared_cpu_map",
	"sys/devices/system/cpu/cpu0/cache/index0/level",
	"sys/devices/system/cpu/cpu1/cpu_capacity",
	"sys/devices/system/node/node0/cpumap",
	"sys/devices/system/node/node0/meminfo",
	"proc/hwloc-nofile-info",
};
#define NFILES (sizeof files / sizeof files[0])

static char root[256];

static int make_dirs(void)
{
	static const char *const dirs[] = {
		"sys", "sys/devices", "sys/devices/system", "sys/devices/system/cpu",
		"sys/devices/system/cpu/cpu0", "sys/devices/system/cpu/cpu0/topology",
		"sys/devices/system/cpu/cpu0/cache", "sys/devices/system/cpu/cpu0/cache/index0",
		"sys/devices/system/cpu/cpu1", "sys/devices/system/node",
		"sys/devices/system/node/node0", "proc",
	};
	const char *tmp = getenv("TMPDIR");
	char dir[600];
	snprintf(root, sizeof root, "%s/memtop-fuzz-hwloc.%d", tmp && *tmp ? tmp : "/tmp",
		 (int)getpid());
	if (mkdir(root, 0700) < 0 && errno != EEXIST)
		return -1;
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		snprintf(dir, sizeof dir, "%s/%s", root, dirs[i]);
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

static void put(size_t f, const uint8_t *p, size_t n)
{
	char path[700];
	snprintf(path, sizeof path, "%s/%s", root, files[f]);
	fuzz_put_file(path, p, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct info_source s;
	struct topo *t = NULL;
	char buf[1024];
	mt_error e;
	size_t piece = 0, from = 0;
	if (!ready) {
		if (make_dirs() < 0)
			return 0;
		ready = 1;
	}
	for (size_t i = 0; i <= size && piece < NFILES; i++) {
		if (i < size && data[i] != 0)
			continue;
		put(piece++, data + from, i - from);
		from = i + 1;
	}
	for (; piece < NFILES; piece++)
		put(piece, NULL, 0);
	if (topo_load(root, &t, &e) == 0) {
		topo_summary(t, buf, sizeof buf);
		for (int i = 0; i < t->ncpus; i++)
			topo_relation(t, t->cpus[0].os, t->cpus[i].os);
		cJSON_Delete(topo_to_json(t));
		topo_free(t);
	}
	info_parse_hwloc(root, -1, &s, &e);
	return 0;
}
