/* Unit tests of the machine context (machine/): loading a recorded tree and
 * an hwloc XML, and refusing a garbled or truncated one in one line; each
 * level's claim, credible size and doubt; what a set of CPUs reaches
 * together and the DRAM floor; the words for where a working set sits;
 * the hypervisor from CPUID's signature and DMI. Nothing here reads this
 * machine. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine/machine.h"
#include "testmachine.h"

static char tmpdir[] = "/tmp/memtop-machine-XXXXXX";

#define TWO_SOCKETS "pack:2 [numa(memory=16GiB)] l3:1(size=16MiB) l2:4(size=1MiB) " \
		    "l1d:1(size=48KiB) core:1 pu:2"

static void levels_and_reach(void **state)
{
	struct machine *m = testmachine(tmpdir, TWO_SOCKETS, NULL);
	int one[] = { 0 }, two[] = { 0, 8 }, core[] = { 0, 1 };
	char why[200], w[16];
	(void)state;
	assert_non_null(m);
	assert_int_equal(m->topo->packages, 2);
	assert_int_equal(m->nallowed, 16);
	assert_int_equal(m->mem_total, 32ull << 30);
	assert_int_equal(m->lv[1].claim, 48 << 10);
	assert_int_equal(m->lv[2].claim, 1 << 20);
	assert_int_equal(m->lv[3].claim, 16 << 20);
	assert_string_equal(m->lv[3].claim_from, "hwloc");
	assert_int_equal(m->lv[3].credible, 16 << 20);
	assert_false(m->lv[1].shared);
	assert_false(m->lv[2].shared); /* one core's, its two threads share it */
	assert_true(m->lv[3].shared);
	/* one CPU reaches one L3; CPUs of two sockets reach both */
	assert_int_equal(machine_reach(m, 3, one, 1), 16 << 20);
	assert_int_equal(machine_reach(m, 3, two, 2), 32 << 20);
	assert_int_equal(machine_reach(m, 2, core, 2), 1 << 20); /* SMT siblings: one L2 */
	assert_int_equal(machine_reach(m, 2, two, 2), 2 << 20);
	assert_int_equal(machine_dram_floor(m, two, 2, why, sizeof why), 128 << 20);
	assert_string_equal(why, "4 x the L3s of 2 groups, 2 x 16M (hwloc)");
	assert_string_equal(machine_level_name(m, 32 << 10, one, 1, w, sizeof w), "L1");
	assert_string_equal(machine_level_name(m, 16 << 20, one, 1, w, sizeof w), "L3");
	assert_string_equal(machine_level_name(m, 20 << 20, one, 1, w, sizeof w), "L3+DRAM");
	assert_string_equal(machine_level_name(m, 64 << 20, one, 1, w, sizeof w), "DRAM");
	assert_int_equal(m->vm.vm, -1); /* nothing recorded says */
	machine_free(m);
}

/* A memory-only node (HBM beside DRAM) has no CPUs of its own; its tier is
 * named; DMI strings of a VM make it one. */
static void tiers_and_vm(void **state)
{
	static const char *const extras[] = { "tier:0=DRAM", "tier:1=HBM",
					      "info:DMISysVendor=QEMU", NULL };
	struct machine *m = testmachine(tmpdir, "pack:1 [numa(memory=256GiB)] [numa(memory=64GiB)] "
						 "l3:1(size=112MiB) core:4 pu:1", extras);
	int cpus[8];
	(void)state;
	assert_non_null(m);
	assert_int_equal(m->topo->nnodes, 2);
	assert_string_equal(m->topo->nodes[0].tier, "DRAM");
	assert_string_equal(m->topo->nodes[1].tier, "HBM");
	assert_int_equal(machine_node_cpus(m, 0, cpus, 8), 4);
	assert_int_equal(machine_node_cpus(m, 1, cpus, 8), 0);
	assert_int_equal(m->vm.vm, 1);
	assert_string_equal(m->vm.name, "QEMU"); /* KVM or TCG: DMI does not tell */
	assert_string_equal(m->vm.why, "DMI says 'QEMU' (KVM or TCG: DMI does not tell)");
	machine_free(m);
}

static void vm_words(void **state)
{
	(void)state;
	assert_string_equal(mt_vm_signature("KVMKVMKVM\0\0\0"), "KVM");
	assert_string_equal(mt_vm_signature("Microsoft Hv"), "Hyper-V");
	assert_string_equal(mt_vm_signature("VMwareVMware"), "VMware");
	assert_string_equal(mt_vm_signature("TCGTCGTCGTCG"), "QEMU (TCG)");
	assert_null(mt_vm_signature("GenuineIntel"));
	assert_string_equal(mt_vm_dmi("Amazon EC2", "m7i.2xlarge"), "AWS Nitro");
	assert_null(mt_vm_dmi("Amazon EC2", "c6i.metal"));
	assert_string_equal(mt_vm_dmi("Microsoft Corporation", "Virtual Machine"), "Hyper-V");
	assert_null(mt_vm_dmi("Microsoft Corporation", "Surface Laptop"));
	assert_string_equal(mt_vm_dmi("Google", "Google Compute Engine"),
			    "Google Compute Engine");
	assert_null(mt_vm_dmi("Dell Inc.", "PowerEdge R760"));
	assert_null(mt_vm_dmi(NULL, NULL));
}

/* A garbled or truncated XML, a missing file, a folder: one line naming
 * the file; nothing loaded. */
/* A guest of QEMU's TCG recorded as an hwloc XML (tests/data/topo-qemu-A.xml,
 * lstopo in the guest): its CPU model names TCG, which DMI alone cannot;
 * the conditions count every node, and apart the ones with CPUs. */
static void qemu_tcg_recorded(void **state)
{
	struct machine *m = NULL;
	mt_error e = { "" };
	char path[1024];
	(void)state;
	mt_snprintf(path, sizeof path, "%s/topo-qemu-A.xml", getenv("TESTDATA"));
	assert_int_equal(machine_load(NULL, path, &m, &e), 0);
	assert_int_equal(m->vm.vm, 1);
	assert_string_equal(m->vm.name, "QEMU (TCG)");
	assert_string_equal(m->vm.why, "DMI says 'QEMU Standard PC (Q35 + ICH9, 2009)'; the CPU is "
				       "a 'QEMU TCG CPU version 2.5+'");
	assert_string_equal(m->cond.hypervisor.text, "QEMU (TCG)");
	assert_int_equal(m->cond.nodes, 3);
	assert_int_equal(m->cond.cpu_nodes, 2);
	machine_free(m);
}

static void bad_xml_refused(void **state)
{
	char path[600], good[600];
	struct machine *m = (struct machine *)1;
	mt_error e = { "" };
	char *text;
	size_t len;
	(void)state;
	mt_snprintf(good, sizeof good, "%s/good.xml", tmpdir);
	assert_int_equal(testmachine_xml(good, TWO_SOCKETS, NULL), 0);
	text = mt_read_file(good, 1 << 24, &len, &e);
	assert_non_null(text);
	/* truncated in the middle */
	mt_snprintf(path, sizeof path, "%s/cut.xml", tmpdir);
	assert_int_equal(mt_write_atomic(path, text, len / 2, &e), 0);
	assert_int_equal(machine_load(NULL, path, &m, &e), -1);
	assert_null(m);
	assert_non_null(strstr(e.msg, "cut.xml: hwloc cannot read it as a topology"));
	/* not an hwloc XML at all */
	assert_int_equal(mt_write_atomic(path, "{\"json\": 1}\n", 12, &e), 0);
	assert_int_equal(machine_load(NULL, path, &m, &e), -1);
	assert_non_null(strstr(e.msg, "not an hwloc XML"));
	/* missing; a folder */
	mt_snprintf(path, sizeof path, "%s/none.xml", tmpdir);
	assert_int_equal(machine_load(NULL, path, &m, &e), -1);
	assert_non_null(strstr(e.msg, "none.xml: No such file"));
	assert_int_equal(machine_load(NULL, tmpdir, &m, &e), -1);
	assert_non_null(strstr(e.msg, "not a regular file"));
	/* both a tree and an XML */
	assert_int_equal(machine_load(tmpdir, good, &m, &e), -1);
	assert_string_equal(e.msg, "--sysfs-root and --topology: give one of them");
	free(text);
	unlink(good);
	mt_snprintf(path, sizeof path, "%s/cut.xml", tmpdir);
	unlink(path);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(levels_and_reach),
		cmocka_unit_test(tiers_and_vm),
		cmocka_unit_test(vm_words),
		cmocka_unit_test(bad_xml_refused),
		cmocka_unit_test(qemu_tcg_recorded),
	};
	return cmocka_run_group_tests_name("machine", tests, setup, teardown);
}
