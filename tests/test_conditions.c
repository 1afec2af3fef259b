/* Unit tests of a machine's conditions (os/conditions.h), each reader
 * against recorded /sys files: tests/data/conditions-epyc-vm (this
 * project's KVM guest, copied from its /proc and /sys), conditions-edac (a
 * made-up server tree with EDAC's DIMMs, mixed governors, microcode that
 * differs between CPUs), conditions-garbled (every file wrong in its own
 * way), an empty tree, and hwloc's recorded trees where they are
 * ($MEMTOP_HWLOC_TREES); then the JSON both ways, the one-line summary and
 * what differs, in the order it moves a figure. Nothing here reads this
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
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "os/child.h"
#include "os/conditions.h"
#include "testlib.h"

/* Field NAME of c: its text, "?" before it when not known. */
static const char *field(const struct mt_conditions *c, const char *name)
{
	static char buf[COND_TEXT + 2];
	for (int i = 0; i < COND_NFIELDS; i++)
		if (strcmp(mt_conditions_name(i), name) == 0) {
			const struct cond_value *v = mt_conditions_field(c, i);
			mt_snprintf(buf, sizeof buf, "%s%s", v->known ? "" : "?", v->text);
			return buf;
		}
	fail_msg("no field %s", name);
	return NULL;
}

/* The conditions of tests/data/NAME, with hypervisor vm (NULL unknown). */
static void read_data(const char *name, const struct mt_vm *vm, struct mt_conditions *c)
{
	const char *data = getenv("TESTDATA");
	char root[MT_PATH_MAX];
	assert_non_null(data);
	mt_snprintf(root, sizeof root, "%s/%s", data, name);
	mt_conditions_read(root, NULL, vm, c);
	assert_int_equal(c->have, 1);
}

/* This project's KVM guest, as its files said on the day they were copied. */
static void recorded_vm(void **state)
{
	struct mt_vm vm = { 1, "KVM", "CPUID 0x40000000 says 'KVMKVMKVM'" };
	struct mt_conditions c;
	(void)state;
	read_data("conditions-epyc-vm", &vm, &c);
	assert_string_equal(field(&c, "microcode"), "0x1000065");
	assert_string_equal(field(&c, "mitigations"),
			    "2 mitigated, 2 vulnerable (spec_rstack_overflow, spec_store_bypass), "
			    "15 not affected");
	assert_string_equal(field(&c, "thp"), "madvise");
	assert_string_equal(field(&c, "thp_defrag"), "madvise");
	assert_string_equal(field(&c, "smt"), "not supported"); /* smt/control's notsupported */
	assert_string_equal(field(&c, "numa_balancing"), "off");
	assert_string_equal(field(&c, "kernel"), "6.18.44-fc-v1252");
	assert_string_equal(field(&c, "hypervisor"), "KVM");
	/* what the guest has not: no DMI, no cpufreq, no EDAC */
	assert_string_equal(field(&c, "bios"), "?not in the recorded tree");
	assert_string_equal(field(&c, "governor"), "?not in the recorded tree");
	assert_string_equal(field(&c, "boost"), "?not in the recorded tree");
	assert_string_equal(field(&c, "dimms"), "?not in the recorded tree");
	assert_string_equal(field(&c, "snc"), "?no topology");
	assert_string_equal(field(&c, "compiler"), "?a recorded machine: no kernels built for it");
	assert_int_equal(c.ndimms, 0);
}

/* A server's tree with EDAC: 9 DIMMs of 32 GB on 8 channels of two
 * controllers (mc0 has a second DIMM on channel 0; two slots empty). */
static void server_with_edac(void **state)
{
	struct mt_vm vm = { 0, "", "" };
	struct mt_conditions c;
	(void)state;
	read_data("conditions-edac", &vm, &c);
	assert_string_equal(field(&c, "dimms"), "9 DIMMs, 288.0 GB, Registered-DDR5, 8 channels");
	assert_int_equal(c.ndimms, 9);
	assert_int_equal(c.channels, 8);
	assert_true(c.dimm_bytes == 9ull * 32768 * 1048576);
	assert_string_equal(field(&c, "governor"), "performance on 3, powersave on 1");
	assert_string_equal(field(&c, "freq"), "max 3.80 GHz, min 0.80 GHz");
	assert_string_equal(field(&c, "boost"), "off (intel_pstate no_turbo)");
	assert_string_equal(field(&c, "smt"), "off");
	assert_string_equal(field(&c, "thp"), "always");
	assert_string_equal(field(&c, "thp_defrag"), "madvise");
	assert_string_equal(field(&c, "numa_balancing"), "on");
	assert_string_equal(field(&c, "microcode"), "0x2b000571 (CPUs differ)");
	assert_string_equal(field(&c, "bios"), "Dell Inc. 2.1.5 03/02/2024"); /* blank cut */
	assert_string_equal(field(&c, "board"), "Dell Inc. 0XYZ12");
	assert_string_equal(field(&c, "product"), "?not in the recorded tree");
	assert_string_equal(field(&c, "mitigations"),
			    "1 mitigated, 2 vulnerable (mds, srbds), 1 not affected");
	assert_string_equal(field(&c, "kernel"), "6.8.0-45-generic");
	assert_string_equal(field(&c, "hypervisor"), "none");
}

/* Every file wrong: each value unknown with why, or made printable; no
 * garbage taken for a fact. */
static void garbled_tree(void **state)
{
	struct mt_conditions c;
	(void)state;
	read_data("conditions-garbled", NULL, &c);
	/* sizes "sixteen" and "-5" are not sizes; the one 4096 MB DIMM counts, its
	 * type's escape made printable, its location naming no channel */
	assert_string_equal(field(&c, "dimms"), "1 DIMM, 4.0 GB, DDR4?[2J (2 slots unreadable)");
	assert_int_equal(c.channels, 0);
	assert_string_equal(field(&c, "governor"), "?[31mperformance");
	assert_string_equal(field(&c, "freq"), "?cpufreq's policies give no frequency");
	assert_string_equal(field(&c, "boost"),
			    "?/sys/devices/system/cpu/cpufreq/boost holds no known value");
	assert_string_equal(field(&c, "thp"),
			    "?/sys/kernel/mm/transparent_hugepage/enabled marks no [choice]");
	assert_string_equal(field(&c, "thp_defrag"),
			    "?/sys/kernel/mm/transparent_hugepage/defrag marks no [choice]");
	assert_string_equal(field(&c, "numa_balancing"), "memory tiering");
	assert_string_equal(field(&c, "microcode"), "?/proc/cpuinfo names none (a VM, or not x86)");
	assert_string_equal(field(&c, "mitigations"), "?vulnerabilities/ lists nothing readable");
	assert_string_equal(field(&c, "smt"), "?not in the recorded tree");
	assert_string_equal(field(&c, "bios"), "?not in the recorded tree");
	assert_string_equal(field(&c, "kernel"), "??"); /* two control bytes */
	assert_string_equal(field(&c, "hypervisor"), "?not known (no CPUID, no DMI)");
}

/* A tree with nothing in it: every field unknown, none guessed. */
static void empty_tree(void **state)
{
	char dir[] = "/tmp/memtop-cond-XXXXXX";
	struct mt_conditions c;
	(void)state;
	assert_non_null(mkdtemp(dir));
	mt_conditions_read(dir, NULL, NULL, &c);
	rmdir(dir);
	for (int i = 0; i < COND_NFIELDS; i++)
		assert_int_equal(mt_conditions_field(&c, i)->known, 0);
	assert_string_equal(field(&c, "dimms"), "?not in the recorded tree");
	assert_string_equal(field(&c, "thp"), "?not in the recorded tree");
}

/* The JSON both ways: what was read comes back the same; an old file
 * (no "conditions") reads as unknown; wrong types are not recorded. */
static void json_both_ways(void **state)
{
	static const char *const trees[] = { "conditions-epyc-vm", "conditions-edac",
					     "conditions-garbled" };
	struct mt_conditions c, back;
	char sum[160];
	cJSON *o;
	(void)state;
	for (size_t t = 0; t < MT_ARRAY_LEN(trees); t++) {
		struct mt_vm vm = { 1, "KVM", "" };
		read_data(trees[t], &vm, &c);
		assert_non_null(o = mt_conditions_to_json(&c));
		mt_conditions_from_json(o, &back);
		cJSON_Delete(o);
		assert_int_equal(back.have, 1);
		assert_int_equal(back.ndimms, c.ndimms);
		assert_int_equal(back.channels, c.channels);
		assert_true(back.dimm_bytes == c.dimm_bytes);
		for (int i = 0; i < COND_NFIELDS; i++) {
			assert_int_equal(mt_conditions_field(&back, i)->known,
					 mt_conditions_field(&c, i)->known);
			assert_string_equal(mt_conditions_field(&back, i)->text,
					    mt_conditions_field(&c, i)->text);
		}
	}
	mt_conditions_from_json(NULL, &back);
	assert_int_equal(back.have, 0);
	assert_string_equal(mt_conditions_summary(&back, sum, sizeof sum),
			    "conditions not recorded (an import, or an older file)");
	o = cJSON_Parse("{\"thp\":7,\"smt\":{\"unknown\":\"\\u001b[2Jgone\"},\"governor\":"
			"\"\\u001b]0;x\\u0007perf\",\"dimm_count\":-3,\"dimm_bytes\":\"lots\"}");
	assert_non_null(o);
	mt_conditions_from_json(o, &back);
	cJSON_Delete(o);
	assert_string_equal(field(&back, "thp"), "?not recorded");
	assert_string_equal(field(&back, "smt"), "??[2Jgone");
	assert_string_equal(field(&back, "governor"), "?]0;x?perf");
	assert_string_equal(field(&back, "kernel"), "?not recorded");
	assert_int_equal(back.ndimms, 0);
	assert_true(back.dimm_bytes == 0);
}

/* The side panel's line. */
static void summary_line(void **state)
{
	struct mt_vm vm = { 1, "KVM", "" };
	struct mt_conditions c;
	char sum[160];
	(void)state;
	read_data("conditions-epyc-vm", &vm, &c);
	assert_string_equal(mt_conditions_summary(&c, sum, sizeof sum),
			    "VM (KVM), governor unknown, THP madvise, SMT not supported");
	read_data("conditions-edac", NULL, &c);
	assert_string_equal(mt_conditions_summary(&c, sum, sizeof sum),
			    "governor performance on 3, powersave on 1, THP always, SMT off");
}

/* What differs, most telling first for each kind of figure, each with
 * what it moves and its source; nothing when nothing recorded differs. */
static void what_differs(void **state)
{
	struct mt_vm vm = { 0, "", "" };
	struct mt_conditions a, b;
	struct cond_diff d[COND_NFIELDS];
	int n;
	(void)state;
	read_data("conditions-edac", &vm, &a);
	b = a;
	assert_int_equal(mt_conditions_differ(&a, &b, COND_FAM_ANY, d, COND_NFIELDS), 0);
	mt_strlcpy(b.thp.text, "madvise", sizeof b.thp.text);
	mt_strlcpy(b.governor.text, "performance", sizeof b.governor.text);
	mt_strlcpy(b.dimms.text, "4 DIMMs, 128.0 GB, Registered-DDR5, 4 channels", sizeof b.dimms.text);
	/* every field: the DIMMs, then the governor, then THP */
	n = mt_conditions_differ(&a, &b, COND_FAM_ANY, d, COND_NFIELDS);
	assert_int_equal(n, 3);
	assert_string_equal(d[0].name, "dimms");
	assert_string_equal(d[0].label, "memory");
	assert_string_equal(d[0].a, "9 DIMMs, 288.0 GB, Registered-DDR5, 8 channels");
	assert_string_equal(d[0].b, "4 DIMMs, 128.0 GB, Registered-DDR5, 4 channels");
	assert_string_equal(d[1].name, "governor");
	assert_string_equal(d[2].name, "thp");
	assert_non_null(strstr(d[2].source, "transhuge.rst"));
	/* DRAM bandwidth: the DIMMs, then THP; the governor does not move it */
	n = mt_conditions_differ(&a, &b, COND_FAM_DRAM_BW, d, COND_NFIELDS);
	assert_int_equal(n, 2);
	assert_string_equal(d[0].name, "dimms");
	assert_string_equal(d[1].name, "thp");
	/* L1 and L2 figures: the governor alone */
	n = mt_conditions_differ(&a, &b, COND_FAM_CLOCKED, d, COND_NFIELDS);
	assert_int_equal(n, 1);
	assert_string_equal(d[0].name, "governor");
	/* a value unknown on one side is no difference */
	b.dimms.known = 0;
	n = mt_conditions_differ(&a, &b, COND_FAM_DRAM_BW, d, COND_NFIELDS);
	assert_int_equal(n, 1);
	assert_string_equal(d[0].name, "thp");
	/* an old file: nothing to set against */
	b.have = 0;
	assert_int_equal(mt_conditions_differ(&a, &b, COND_FAM_ANY, d, COND_NFIELDS), 0);
}

/* Where the recorded trees are, or NULL. */
static const char *trees(void)
{
	const char *t = getenv("MEMTOP_HWLOC_TREES");
	struct stat st;
	return t && *t && stat(t, &st) == 0 && S_ISDIR(st.st_mode) ? t : NULL;
}

/* hwloc's recorded tree NAME's conditions, its topology read too; as a
 * guest of guest's hypervisor when guest is not NULL. */
static void read_tree_as(const char *name, const struct mt_vm *guest, struct mt_conditions *c)
{
	char dir[] = "/tmp/memtop-cond-XXXXXX", cmd[2048], root[MT_PATH_MAX];
	const char *argv[] = { "sh", "-c", cmd, NULL };
	enum mt_run_status st;
	struct topo *t = NULL;
	struct mt_vm vm;
	mt_error e = { "" };
	char *out;
	assert_non_null(mkdtemp(dir));
	mt_snprintf(cmd, sizeof cmd, "cd '%s' && bunzip2 -c '%s/%s.tar.bz2' | tar xf - && "
		    "ls -d \"$PWD\"/*/ | head -n 1", dir, trees(), name);
	out = mt_run_capture_for(argv, 4096, 60000, &st);
	assert_non_null(out);
	out[strcspn(out, "\n")] = '\0';
	mt_strlcpy(root, out, sizeof root);
	free(out);
	if (topo_load(root, &t, &e) < 0)
		fail_msg("%s: %s", name, e.msg);
	mt_vm_detect(t, 0, 0, &vm);
	mt_conditions_read(root, t, guest ? guest : &vm, c);
	topo_free(t);
	mt_snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	free(mt_run_capture_for(argv, 4096, 60000, &st));
}

static void read_tree(const char *name, struct mt_conditions *c)
{
	read_tree_as(name, NULL, c);
}

/* What hwloc's trees recorded: a hybrid laptop with cpufreq, a two-socket
 * Arm server of two nodes a package, an old Dell with DMI only. */
static void hwloc_trees(void **state)
{
	struct mt_conditions c;
	(void)state;
	read_tree("20em64t-hybrid-1p6c2t+2ca4co1t", &c);
	assert_string_equal(field(&c, "governor"), "powersave");
	assert_string_equal(field(&c, "freq"), "max 5.20 GHz, min 0.40 GHz");
	assert_string_equal(field(&c, "boost"), "on");
	assert_string_equal(field(&c, "smt"), "on");
	assert_string_equal(field(&c, "microcode"), "0x4119");
	assert_string_equal(field(&c, "bios"), "HP V70 Ver. 01.02.03 09/13/2023");
	assert_string_equal(field(&c, "product"), "HP EliteBook 840 14 inch G10 Notebook PC");
	assert_string_equal(field(&c, "snc"), "1 node a package (no SNC, NPS1)");
	assert_string_equal(field(&c, "hypervisor"), "none");
	read_tree("128arm-2pa2n8cluster4co", &c);
	assert_string_equal(field(&c, "snc"), "2 nodes a package (SNC2 or NPS2)");
	assert_int_equal(c.packages, 2);
	assert_int_equal(c.nodes, 4);
	assert_int_equal(c.cpu_nodes, 4);
	assert_string_equal(field(&c, "product"), "Huawei XA320 V2"); /* DMI's blank cut */
	assert_string_equal(field(&c, "smt"), "?the kernel has no SMT control for this CPU");
	read_tree("32em64t-2n8c+dax+nvme+mic+dimms", &c);
	assert_string_equal(field(&c, "bios"), "Dell Inc. 1.0.30 08/06/2012");
	assert_string_equal(field(&c, "governor"), "?not in the recorded tree");
	assert_string_equal(field(&c, "dimms"), "?not in the recorded tree");
}

/* A guest cannot see its host's SNC or NPS: the Arm server's tree read as a
 * KVM guest says so, with the nodes the guest sees, and no "no SNC" fact. */
static void guest_snc(void **state)
{
	const struct mt_vm kvm = { 1, "KVM", "CPUID 0x40000000 says 'KVMKVMKVM'" };
	struct mt_conditions c;
	char sum[200];
	(void)state;
	read_tree_as("128arm-2pa2n8cluster4co", &kvm, &c);
	assert_string_equal(field(&c, "snc"), "?not visible from a guest (the host's setting; "
					     "the guest sees 4 nodes on 2 packages)");
	assert_null(strstr(mt_conditions_summary(&c, sum, sizeof sum), "SNC"));
}

/* The memory's reason is the one that holds: EDAC absent, then what
 * dmidecode could do here (no DMI tables, not installed, not root). */
static void dimms_reasons(void **state)
{
	char b[COND_TEXT];
	(void)state;
	assert_string_equal(mt_conditions_dimms_why(b, sizeof b, 0, 0, 1, 0),
			    "no EDAC driver loaded, no DMI tables for dmidecode");
	assert_string_equal(mt_conditions_dimms_why(b, sizeof b, 0, 1, 1, 0),
			    "no EDAC driver loaded; dmidecode (not installed) would read DMI's list");
	assert_string_equal(mt_conditions_dimms_why(b, sizeof b, 0, 1, 0, 0),
			    "no EDAC driver loaded; dmidecode (not installed) would read DMI's list "
			    "as root");
	assert_string_equal(mt_conditions_dimms_why(b, sizeof b, 0, 1, 0, 1),
			    "no EDAC driver loaded; dmidecode -t memory lists them as root");
	assert_string_equal(mt_conditions_dimms_why(b, sizeof b, 1, 1, 1, 1),
			    "EDAC lists no memory controller; dmidecode -t memory lists them (memtop "
			    "reads EDAC only)");
	/* SMT in words; notimplemented is not a state */
	assert_string_equal(mt_conditions_smt_words("notsupported"), "not supported");
	assert_string_equal(mt_conditions_smt_words("forceoff"), "off (forced at boot)");
	assert_string_equal(mt_conditions_smt_words("on"), "on");
	assert_null(mt_conditions_smt_words("notimplemented"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(recorded_vm),
		cmocka_unit_test(server_with_edac),
		cmocka_unit_test(garbled_tree),
		cmocka_unit_test(empty_tree),
		cmocka_unit_test(json_both_ways),
		cmocka_unit_test(summary_line),
		cmocka_unit_test(what_differs),
		cmocka_unit_test(dimms_reasons),
		MT_SKIP_IF(trees() ? NULL : "no recorded trees ($MEMTOP_HWLOC_TREES: ../shared/topo)",
			   hwloc_trees),
		MT_SKIP_IF(trees() ? NULL : "no recorded trees ($MEMTOP_HWLOC_TREES: ../shared/topo)",
			   guest_snc),
	};
	return cmocka_run_group_tests_name("conditions", tests, NULL, NULL);
}
