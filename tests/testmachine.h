/* Machines for the tests: an hwloc synthetic description ("pack:2
 * [numa(memory=64GiB)] l3:1(size=32MiB) core:8 pu:2") written as an hwloc
 * XML by hwloc itself, with the extras a synthetic description cannot say
 * (a NUMA node's tier, the firmware's strings, core types), then loaded as
 * `memtop run X --topology FILE` loads it (machine_load). Nothing of this
 * machine is read. */
#ifndef MEMTOP_TESTS_TESTMACHINE_H
#define MEMTOP_TESTS_TESTMACHINE_H

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "machine/machine.h"
#include "os/child.h"

/* A folder of its own for the trees a test extracts, made into dir (len
 * bytes) as TMP/memtop-NAME-XXXXXX: on /dev/shm where it can be written
 * (the recorded trees are 126,000 small files: 3 s on a tmpfs, 80 s on a
 * VM's disk), else $TMPDIR or /tmp. Returns 0, or -1 when mkdtemp fails. */
static inline int testmachine_tmpdir(char *dir, size_t len, const char *name)
{
	const char *t = getenv("TMPDIR");
	if (access("/dev/shm", W_OK | X_OK) == 0)
		t = "/dev/shm";
	else if (!t || !*t)
		t = "/tmp";
	mt_snprintf(dir, len, "%s/memtop-%s-XXXXXX", t, name);
	return mkdtemp(dir) ? 0 : -1;
}

/* Removes dir and all it holds (testmachine_tmpdir's). */
static inline void testmachine_rmdir(const char *dir)
{
	const char *argv[] = { "rm", "-rf", dir, NULL };
	enum mt_run_status st;
	free(mt_run_capture_for(argv, 4096, 60000, &st));
}

/* The folder a test group extracts its trees into: made by the group's
 * setup, removed with all it holds by its teardown (pass both to
 * cmocka_run_group_tests_name). */
static char testmachine_dir[600] __attribute__((unused));

static inline int testmachine_setup(void **state)
{
	(void)state;
	return testmachine_tmpdir(testmachine_dir, sizeof testmachine_dir, "trees");
}

static inline int testmachine_teardown(void **state)
{
	(void)state;
	testmachine_rmdir(testmachine_dir);
	return 0;
}

/* An extra of a synthetic machine: "tier:OS=NAME" (NUMA node OS's
 * subtype: HBM, NVM, CXL-DRAM), "info:NAME=VALUE" (an info of the root:
 * DMISysVendor=QEMU), "kind:CPULIST=EFFICIENCY" (a CPU kind, hwloc's
 * cpukinds: 0-7=1 for the P cores). */
static inline int testmachine_extra(hwloc_topology_t h, const char *x)
{
	char key[64], val[128];
	const char *eq = strchr(x, '=');
	if (!eq || (size_t)(eq - x) >= sizeof key)
		return -1;
	mt_snprintf(key, sizeof key, "%.*s", (int)(eq - x), x);
	mt_strlcpy(val, eq + 1, sizeof val);
	if (strncmp(key, "tier:", 5) == 0) {
		hwloc_obj_t o = hwloc_get_numanode_obj_by_os_index(h, (unsigned)atoi(key + 5));
		if (!o)
			return -1;
		free(o->subtype);
		o->subtype = strdup(val);
		return 0;
	}
	if (strncmp(key, "info:", 5) == 0)
		return hwloc_obj_add_info(hwloc_get_root_obj(h), key + 5, val);
	if (strncmp(key, "kind:", 5) == 0) {
		hwloc_bitmap_t set = hwloc_bitmap_alloc();
		int rc = set && hwloc_bitmap_list_sscanf(set, key + 5) == 0
				 ? hwloc_cpukinds_register(h, set, atoi(val), 0, NULL, 0)
				 : -1;
		hwloc_bitmap_free(set);
		return rc;
	}
	return -1;
}

/* Writes the machine of synthetic description desc with the extras
 * (NULL-terminated) into the XML file path. Returns 0 or -1. */
static inline int testmachine_xml(const char *path, const char *desc, const char *const *extras)
{
	hwloc_topology_t h;
	int rc = -1;
	if (hwloc_topology_init(&h) < 0)
		return -1;
	if (hwloc_topology_set_synthetic(h, desc) < 0 || hwloc_topology_load(h) < 0)
		goto out;
	for (size_t i = 0; extras && extras[i]; i++)
		if (testmachine_extra(h, extras[i]) < 0)
			goto out;
	rc = hwloc_topology_export_xml(h, path, 0);
out:
	hwloc_topology_destroy(h);
	return rc;
}

/* The synthetic servers every test of plans and CPU lists holds memtop
 * to: name, hwloc synthetic description, extras (2-socket Sapphire and
 * Emerald Rapids with SNC, Granite Rapids, a 576-CPU Sierra Forest, Genoa-X
 * NPS1 and NPS4, Turin 2 x 192, Grace, Ampere One, Xeon Max with HBM in
 * flat mode, a CXL memory node, a hybrid of two core types). */
static const struct testmachine_server {
	const char *name;
	const char *desc;
	const char *extras[6];
} testmachine_servers[] = {
	{ "sapphire-rapids-2s-snc4",
	  "pack:2 l3:1(size=105MiB) group:4 [numa(memory=64GiB)] l2:14(size=2MiB) "
	  "l1d:1(size=48KiB) core:1 pu:2", { NULL } },
	{ "emerald-rapids-2s-snc2",
	  "pack:2 l3:1(size=320MiB) group:2 [numa(memory=256GiB)] l2:32(size=2MiB) "
	  "l1d:1(size=48KiB) core:1 pu:2", { NULL } },
	{ "emerald-rapids-vm-16",
	  "pack:1 [numa(memory=125GiB)] l3:1(size=300MiB) l2:16(size=2MiB) l1d:1(size=48KiB) "
	  "core:1 pu:1", { "info:DMISysVendor=QEMU",
			   "info:DMIProductName=Standard PC (Q35 + ICH9, 2009)", NULL } },
	{ "granite-rapids-2s-128c",
	  "pack:2 l3:1(size=504MiB) group:2 [numa(memory=384GiB)] l2:64(size=2MiB) "
	  "l1d:1(size=48KiB) core:1 pu:2", { NULL } },
	{ "sierra-forest-2s-576",
	  "pack:2 l3:1(size=108MiB) group:2 [numa(memory=256GiB)] l2:36(size=4MiB) "
	  "l1d:4(size=32KiB) core:1 pu:1", { NULL } },
	{ "genoa-x-nps1",
	  "pack:1 [numa(memory=768GiB)] l3:12(size=96MiB) l2:8(size=1MiB) l1d:1(size=32KiB) "
	  "core:1 pu:2", { NULL } },
	{ "genoa-x-nps4",
	  "pack:1 group:4 [numa(memory=192GiB)] l3:3(size=96MiB) l2:8(size=1MiB) "
	  "l1d:1(size=32KiB) core:1 pu:2", { NULL } },
	{ "turin-2s-192c",
	  "pack:2 [numa(memory=768GiB)] l3:12(size=32MiB) l2:16(size=1MiB) l1d:1(size=48KiB) "
	  "core:1 pu:2", { NULL } },
	{ "grace-72",
	  "pack:1 [numa(memory=480GiB)] l3:1(size=114MiB) l2:72(size=1MiB) l1d:1(size=64KiB) "
	  "core:1 pu:1", { NULL } },
	{ "ampere-one-192",
	  "pack:1 [numa(memory=512GiB)] l3:1(size=64MiB) l2:192(size=2MiB) l1d:1(size=64KiB) "
	  "core:1 pu:1", { NULL } },
	{ "xeon-max-flat-hbm",
	  "pack:2 [numa(memory=256GiB)] [numa(memory=64GiB)] l3:1(size=112MiB) "
	  "l2:56(size=2MiB) l1d:1(size=48KiB) core:1 pu:2",
	  { "tier:0=DRAM", "tier:1=HBM", "tier:2=DRAM", "tier:3=HBM", NULL } },
	{ "cxl-memory-node",
	  "[numa(memory=512GiB)] pack:2 [numa(memory=256GiB)] l3:1(size=60MiB) "
	  "l2:32(size=2MiB) l1d:1(size=48KiB) core:1 pu:2",
	  { "tier:0=DRAM", "tier:1=DRAM", "tier:2=CXL-DRAM", NULL } },
	{ "hybrid-kinds",
	  "pack:1 [numa(memory=64GiB)] l3:1(size=36MiB) l2:12(size=2MiB) l1d:1(size=48KiB) "
	  "core:1 pu:2", { "kind:0-15=1", "kind:16-23=0", NULL } },
};

/* The machine of desc and extras, loaded from an XML written under dir
 * (removed again). NULL when hwloc or memtop refuses it (said on stderr). */
static inline struct machine *testmachine(const char *dir, const char *desc,
					  const char *const *extras)
{
	char path[1024];
	struct machine *m = NULL;
	mt_error e = { "" };
	mt_snprintf(path, sizeof path, "%s/testmachine-%d.xml", dir, (int)getpid());
	if (testmachine_xml(path, desc, extras) < 0) {
		fprintf(stderr, "# hwloc refused the synthetic machine '%s'\n", desc);
		return NULL;
	}
	if (machine_load(NULL, path, &m, &e) < 0)
		fprintf(stderr, "# %s\n", e.msg);
	unlink(path);
	return m;
}

#endif
