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
static struct fuzz_tree tree = { "hwloc", files, sizeof files / sizeof files[0], "", 0 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct info_source s;
	struct topo *t = NULL;
	char buf[1024];
	mt_error e;
	if (fuzz_tree_fill(&tree, data, size) < 0)
		return 0;
	if (topo_load(tree.root, &t, &e) == 0) {
		topo_summary(t, buf, sizeof buf);
		for (int i = 0; i < t->ncpus; i++)
			topo_relation(t, t->cpus[0].os, t->cpus[i].os);
		cJSON_Delete(topo_to_json(t));
		topo_free(t);
	}
	info_parse_hwloc(tree.root, -1, &s, &e);
	return 0;
}
