/* Unit tests of the topology model (os/topo) on synthetic Linux /sys
 * trees written by tests/topo_tree.sh (one per machine shape): exact
 * counts, groups, kinds, where each CPU sits and how two CPUs relate, and
 * the one-line errors of a missing or garbled tree. Nothing here reads this
 * machine's topology. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "info/info.h"
#include "os/child.h"
#include "os/topo.h"
#include "run/runhdr.h"

static char tmpdir[256];

/* Writes the tree of shape into tmpdir/shape (tests/topo_tree.sh) and
 * returns its path (a static buffer). */
static const char *tree(const char *shape)
{
	static char dir[512];
	char script[1024];
	const char *data = getenv("TESTDATA");
	enum mt_run_status st;
	char *out;
	assert_non_null(data);
	mt_snprintf(script, sizeof script, "%s/../topo_tree.sh", data);
	mt_snprintf(dir, sizeof dir, "%s/%s", tmpdir, shape);
	{
		const char *argv[] = { "sh", script, shape, dir, NULL };
		out = mt_run_capture_for(argv, 4096, 60000, &st);
	}
	assert_non_null(out);
	free(out);
	return dir;
}

static struct topo *load(const char *shape)
{
	struct topo *t = NULL;
	mt_error e = { "" };
	int rc = topo_load(tree(shape), &t, &e);
	if (rc < 0)
		fail_msg("%s: %s", shape, e.msg);
	assert_non_null(t);
	return t;
}

static void small_machine(void **state)
{
	struct topo *t = load("small");
	char buf[512];
	(void)state;
	assert_int_equal(t->packages, 1);
	assert_int_equal(t->nnodes, 1);
	assert_int_equal(t->cores, 2);
	assert_int_equal(t->ncpus, 2);
	assert_int_equal(t->nallowed, 2);
	assert_int_equal(t->nl3, 1);
	assert_int_equal(t->l3[0].size, 4096 * 1024);
	assert_int_equal(t->nl2, 2);
	assert_int_equal(t->nsmt, 0);
	assert_int_equal(t->ncoretypes, 1);
	assert_string_equal(t->coretypes[0].name, "one");
	assert_int_equal(t->coretypes[0].l1d, 32 * 1024);
	assert_int_equal(t->coretypes[0].l2, 512 * 1024);
	assert_int_equal(t->nodes[0].memory, 8388608ull * 1024);
	assert_string_equal(topo_summary(t, buf, sizeof buf),
			    "1 package, 1 NUMA node, 1 L3 group of 2 cores (4 MB), 2 cores, 2 CPUs; "
			    "core kind: one");
	assert_int_equal(topo_relation(t, 0, 0), TOPO_REL_SAME_CPU);
	assert_int_equal(topo_relation(t, 0, 1), TOPO_REL_SAME_L3);
	assert_int_equal(topo_relation(t, 0, 2), TOPO_REL_UNKNOWN);
	assert_null(topo_cpu(t, 2));
	assert_string_equal(topo_place_text(t, 1, buf, sizeof buf),
			    "CPU 1: L3 group 0, NUMA node 0, package 0");
	assert_string_equal(topo_place_text(t, 7, buf, sizeof buf), "CPU 7: not in the topology");
	topo_free(t);
}

static void two_sockets_smt(void **state)
{
	struct topo *t = load("2s-smt");
	char buf[512];
	(void)state;
	assert_int_equal(t->packages, 2);
	assert_int_equal(t->nnodes, 2);
	assert_int_equal(t->cores, 8);
	assert_int_equal(t->ncpus, 16);
	assert_int_equal(t->nl3, 2);
	assert_int_equal(t->nsmt, 8);
	assert_string_equal(topo_set_text(&t->smt[0], buf, sizeof buf), "0,8");
	assert_string_equal(topo_set_text(&t->nodes[1].cpus, buf, sizeof buf), "4-7,12-15");
	assert_string_equal(topo_set_text(&t->l3[0].cpus, buf, sizeof buf), "0-3,8-11");
	assert_int_equal(topo_relation(t, 0, 8), TOPO_REL_SMT);
	assert_int_equal(topo_relation(t, 0, 1), TOPO_REL_SAME_L3);
	assert_int_equal(topo_relation(t, 0, 9), TOPO_REL_SAME_L3);
	assert_int_equal(topo_relation(t, 0, 4), TOPO_REL_OTHER_PACKAGE);
	assert_int_equal(topo_relation(t, 3, 12), TOPO_REL_OTHER_PACKAGE);
	assert_string_equal(topo_place_text(t, 12, buf, sizeof buf),
			    "CPU 12: L3 group 1, NUMA node 1, package 1");
	assert_string_equal(topo_summary(t, buf, sizeof buf),
			    "2 packages, 2 NUMA nodes, 2 L3 groups of 4 cores (16 MB each), 8 cores, "
			    "16 CPUs; core kind: one");
	topo_free(t);
}

static void epyc_l3_groups(void **state)
{
	struct topo *t = load("epyc");
	char buf[512];
	(void)state;
	assert_int_equal(t->packages, 1);
	assert_int_equal(t->nnodes, 2);
	assert_int_equal(t->nl3, 4);
	assert_int_equal(t->cores, 16);
	assert_int_equal(t->ncpus, 32);
	assert_string_equal(topo_set_text(&t->l3[2].cpus, buf, sizeof buf), "8-11,24-27");
	assert_int_equal(topo_relation(t, 0, 16), TOPO_REL_SMT);
	assert_int_equal(topo_relation(t, 0, 3), TOPO_REL_SAME_L3);
	assert_int_equal(topo_relation(t, 0, 4), TOPO_REL_SAME_NODE);
	assert_int_equal(topo_relation(t, 0, 23), TOPO_REL_SAME_NODE);
	assert_int_equal(topo_relation(t, 0, 8), TOPO_REL_SAME_PACKAGE);
	assert_int_equal(topo_relation(t, 7, 31), TOPO_REL_SAME_PACKAGE);
	assert_string_equal(topo_place_text(t, 27, buf, sizeof buf),
			    "CPU 27: L3 group 2, NUMA node 1, package 0");
	assert_string_equal(topo_summary(t, buf, sizeof buf),
			    "1 package, 2 NUMA nodes, 4 L3 groups of 4 cores (16 MB each), 16 cores, "
			    "32 CPUs; core kind: one");
	topo_free(t);
}

static void hybrid_kinds(void **state)
{
	struct topo *t = load("hybrid");
	char buf[512];
	(void)state;
	assert_int_equal(t->ncoretypes, 2);
	assert_string_equal(t->coretypes[0].name, "P");
	assert_string_equal(t->coretypes[1].name, "E");
	assert_string_equal(topo_set_text(&t->coretypes[0].cpus, buf, sizeof buf), "0-3");
	assert_string_equal(topo_set_text(&t->coretypes[1].cpus, buf, sizeof buf), "4-7");
	assert_int_equal(t->coretypes[0].l1d, 48 * 1024);
	assert_int_equal(t->coretypes[0].l2, 1280 * 1024);
	assert_int_equal(t->coretypes[1].l1d, 32 * 1024);
	assert_int_equal(t->coretypes[1].l2, 2048 * 1024);
	assert_int_equal(t->nl2, 3);
	assert_int_equal(t->nsmt, 2);
	assert_int_equal(topo_relation(t, 0, 1), TOPO_REL_SMT);
	assert_int_equal(topo_relation(t, 4, 7), TOPO_REL_SAME_L2);
	assert_int_equal(topo_relation(t, 1, 2), TOPO_REL_SAME_L3);
	assert_int_equal(topo_relation(t, 0, 4), TOPO_REL_SAME_L3);
	assert_int_equal(topo_coretype_find(t, "e"), 1);
	assert_int_equal(topo_coretype_find(t, "big"), -1);
	assert_int_equal(topo_coretype_first_allowed(t, 1), 4);
	assert_string_equal(topo_coretype_names(t, buf, sizeof buf), "P, E");
	assert_string_equal(topo_place_text(t, 5, buf, sizeof buf),
			    "CPU 5: core kind E, L3 group 0, NUMA node 0, package 0");
	assert_string_equal(topo_summary(t, buf, sizeof buf),
			    "1 package, 1 NUMA node, 1 L3 group of 6 cores (12 MB), 6 cores, 8 CPUs; "
			    "core kinds: P (2 cores, 4 CPUs), E (4 cores, 4 CPUs)");
	topo_free(t);
}

static void big_little(void **state)
{
	struct topo *t = load("biglittle");
	char buf[512];
	(void)state;
	assert_int_equal(t->ncoretypes, 2);
	assert_string_equal(t->coretypes[0].name, "big");
	assert_string_equal(t->coretypes[1].name, "LITTLE");
	assert_string_equal(topo_set_text(&t->coretypes[0].cpus, buf, sizeof buf), "4-7");
	assert_int_equal(t->coretypes[0].l2, 512 * 1024);
	assert_int_equal(t->coretypes[1].l2, 128 * 1024);
	assert_int_equal(topo_coretype_find(t, "little"), 1);
	assert_int_equal(topo_relation(t, 0, 7), TOPO_REL_SAME_L3);
	assert_string_equal(topo_place_text(t, 2, buf, sizeof buf),
			    "CPU 2: core kind LITTLE, L3 group 0, NUMA node 0, package 0");
	topo_free(t);
}

/* Four capacities, two CPU parts: one kind per part, ranked by its slowest
 * core, as hwloc 2.12 does and the GB10's recorded .xml says. */
static void arm_parts(void **state)
{
	struct topo *t = load("armparts");
	char buf[512];
	(void)state;
	assert_int_equal(t->ncoretypes, 2);
	assert_string_equal(t->coretypes[0].name, "big");
	assert_string_equal(topo_set_text(&t->coretypes[0].cpus, buf, sizeof buf), "2-3,6-7");
	assert_string_equal(t->coretypes[0].detail, "CPUPart=0xd85");
	assert_int_equal(t->coretypes[0].l2, 2048 * 1024);
	assert_string_equal(t->coretypes[1].name, "LITTLE");
	assert_string_equal(topo_set_text(&t->coretypes[1].cpus, buf, sizeof buf), "0-1,4-5");
	assert_int_equal(t->coretypes[1].l2, 512 * 1024);
	assert_int_equal(topo_cpu(t, 6)->coretype, 0);
	assert_int_equal(topo_cpu(t, 5)->coretype, 1);
	topo_free(t);
}

/* memtop info's hwloc source on the hybrid tree: an E core's caches, its L2
 * shared by the four E cores, the L3 by all. */
static void info_source_hwloc(void **state)
{
	struct info_source s;
	mt_error e = { "" };
	(void)state;
	assert_int_equal(info_parse_hwloc(tree("hybrid"), 5, &s, &e), 0);
	assert_string_equal(s.name, "hwloc");
	assert_int_equal(s.nlevels, 4);
	assert_int_equal(s.lv[0].level, 1);
	assert_string_equal(s.lv[0].type, "data");
	assert_int_equal(s.lv[0].size, 32 * 1024);
	assert_int_equal(s.lv[0].line, 64);
	assert_string_equal(s.lv[1].type, "instruction");
	assert_int_equal(s.lv[1].size, 64 * 1024);
	assert_int_equal(s.lv[2].size, 2048 * 1024);
	assert_string_equal(s.lv[2].shared_cpus, "4-7");
	assert_int_equal(s.lv[3].level, 3);
	assert_string_equal(s.lv[3].shared_cpus, "0-7");
	assert_int_equal(info_parse_hwloc(tree("hybrid"), 9, &s, &e), -1);
	assert_non_null(strstr(e.msg, ": no CPU 9"));
	assert_int_equal(info_parse_hwloc(tree("garbled"), -1, &s, &e), -1);
	assert_non_null(strstr(e.msg, "online: not a CPU list"));
}

/* An hwloc XML of tests/data, loaded. */
static struct topo *load_xml(const char *name)
{
	struct topo *t = NULL;
	mt_error e = { "" };
	char path[1024];
	const char *data = getenv("TESTDATA");
	assert_non_null(data);
	mt_snprintf(path, sizeof path, "%s/%s", data, name);
	if (topo_load_xml(path, &t, &e) < 0)
		fail_msg("%s: %s", name, e.msg);
	return t;
}

/* A set's CPUs as a list, into buf. */
static const char *set_words(const struct topo_set *s, char *buf, size_t len)
{
	return topo_set_text(s, buf, len);
}

/* A live kernel under qemu (tests/data/topo-qemu-offline5.xml: 2 sockets
 * x 2 cores x 2 threads, CPU 5 taken offline): hwloc puts the core left
 * with one thread below its L1 and the others above theirs, cores at two
 * depths. Read whole, CPU 5 said offline in one line, the cores read
 * around the odd tree in one more. */
static void qemu_sibling_offline(void **state)
{
	struct topo *t = load_xml("topo-qemu-offline5.xml");
	char buf[600];
	(void)state;
	assert_int_equal(t->packages, 2);
	assert_int_equal(t->cores, 4);
	assert_int_equal(t->ncpus, 7);
	assert_int_equal(t->nnodes, 3);
	assert_int_equal(t->nl3, 2);
	assert_int_equal(t->nl2, 4);
	assert_int_equal(t->nsmt, 3);
	assert_null(topo_cpu(t, 5));
	assert_string_equal(set_words(&t->offline, buf, sizeof buf), "5");
	assert_int_equal(t->offline_known, 0); /* an XML: offline or outside its cpuset */
	assert_int_equal(t->unplaced.n, 0);
	assert_string_equal(topo_unplaced_text(t, buf, sizeof buf),
			    "CPU 5 offline (or outside the cpuset hwloc read it in: an XML does not "
			    "tell which)");
	assert_string_equal(t->read_around, "cores at 2 depths of hwloc's tree (4, each read once)");
	assert_string_equal(set_words(&t->nodes[1].local, buf, sizeof buf), "4,6-7");
	assert_int_equal(t->nodes[2].local.n, 0);
	assert_int_equal(topo_relation(t, 6, 7), TOPO_REL_SMT);
	assert_int_equal(topo_relation(t, 4, 6), TOPO_REL_SAME_L3);
	assert_int_equal(topo_relation(t, 4, 0), TOPO_REL_OTHER_PACKAGE);
	assert_int_equal(topo_relation(t, 0, 1), TOPO_REL_SMT);
	assert_int_equal(topo_relation(t, 4, 5), TOPO_REL_UNKNOWN); /* 5 has no place */
	assert_string_equal(topo_summary(t, buf, sizeof buf),
			    "2 packages, 3 NUMA nodes, 2 L3 groups of 2 cores (16 MB each), 4 cores, "
			    "7 CPUs; core kind: one");
	topo_free(t);
}

/* The SLIT hwloc has from the OS (tests/data/topo-qemu-A.xml: qemu's
 * -numa dist 21, 31, 41), exactly, as the matrix and as JSON; the
 * memory-only node has no CPUs of its own, its near CPUs in their field. */
static void qemu_distances(void **state)
{
	struct topo *t = load_xml("topo-qemu-A.xml");
	static const int want[9] = { 10, 21, 31, 21, 10, 41, 31, 41, 10 };
	cJSON *j;
	char *text;
	(void)state;
	assert_int_equal(t->nnodes, 3);
	assert_non_null(t->dist);
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < 3; k++)
			assert_int_equal(topo_distance(t, i, k), want[i * 3 + k]);
	assert_int_equal(topo_distance(t, 0, 3), 0);
	assert_int_equal(t->offline.n, 0);
	assert_string_equal(t->read_around, "");
	j = topo_to_json(t);
	assert_non_null(j);
	text = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(j, "distances"));
	assert_string_equal(text, "[[10,21,31],[21,10,41],[31,41,10]]");
	cJSON_free(text);
	text = cJSON_PrintUnformatted(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(j, "nodes"),
							 2));
	assert_string_equal(text, "{\"node\":2,\"tier\":\"\",\"cpus\":[],\"near_cpus\":[0,1,2,3],"
				  "\"memory\":2110844928}");
	cJSON_free(text);
	cJSON_Delete(j);
	topo_free(t);
}

/* Bad input read around, not refused (tests/data/topo-cores-two-depths.xml,
 * made by hand): cores at two depths (one below its thread's L1), CPU 1
 * offline beside it, CPU 6 in no core. Every CPU read; what could not be
 * placed said in one line; CPU 6's relations are what else is known. */
static void cores_at_two_depths(void **state)
{
	struct topo *t = load_xml("topo-cores-two-depths.xml");
	char buf[600];
	(void)state;
	assert_int_equal(t->packages, 1);
	assert_int_equal(t->cores, 3);
	assert_int_equal(t->ncpus, 6);
	assert_int_equal(t->nl2, 3);
	assert_int_equal(t->nsmt, 2);
	assert_string_equal(topo_unplaced_text(t, buf, sizeof buf),
			    "CPU 1 offline (or outside the cpuset hwloc read it in: an XML does not "
			    "tell which); CPU 6 in no core or package of hwloc's tree (only what else "
			    "is known of it)");
	assert_string_equal(t->read_around, "cores at 2 depths of hwloc's tree (3, each read once)");
	assert_int_equal(topo_cpu(t, 6)->core, -1);
	assert_int_equal(topo_cpu(t, 0)->core, 0);
	assert_int_equal(topo_cpu(t, 2)->core, 1);
	assert_int_equal(topo_cpu(t, 4)->core, 2);
	assert_int_equal(topo_relation(t, 2, 3), TOPO_REL_SMT);
	assert_int_equal(topo_relation(t, 0, 2), TOPO_REL_SAME_L3);
	assert_int_equal(topo_relation(t, 6, 2), TOPO_REL_SAME_L3);
	assert_null(t->dist); /* one node: no matrix */
	topo_free(t);
}

/* A die without L3 (tests/data/topo-die-without-l3.xml, made by hand):
 * its CPUs in no L3 group, their relations what else is known. */
static void die_without_l3(void **state)
{
	struct topo *t = load_xml("topo-die-without-l3.xml");
	(void)state;
	assert_int_equal(t->packages, 1);
	assert_int_equal(t->dies, 2);
	assert_int_equal(t->cores, 4);
	assert_int_equal(t->nl3, 1);
	assert_int_equal(topo_cpu(t, 2)->l3, -1);
	assert_int_equal(topo_cpu(t, 2)->die, 1);
	assert_int_equal(topo_relation(t, 0, 1), TOPO_REL_SAME_L3);
	assert_int_equal(topo_relation(t, 2, 3), TOPO_REL_SAME_NODE);
	assert_int_equal(topo_relation(t, 0, 2), TOPO_REL_SAME_NODE);
	assert_string_equal(t->read_around, "");
	assert_int_equal(t->unplaced.n, 0);
	topo_free(t);
}

/* topo_load on a tree that is not one: -1, *out NULL, e is what. */
static void refused(const char *root, const char *want)
{
	struct topo *t = (struct topo *)1;
	mt_error e = { "" };
	assert_int_equal(topo_load(root, &t, &e), -1);
	assert_null(t);
	assert_string_equal(e.msg, want);
}

static void bad_trees(void **state)
{
	char dir[512], want[1024];
	(void)state;
	mt_snprintf(dir, sizeof dir, "%s/nothing-here", tmpdir);
	mt_snprintf(want, sizeof want, "%s: not a folder", dir);
	refused(dir, want);
	mt_snprintf(want, sizeof want,
		    "%s: no sys/devices/system/cpu in it: not a recorded Linux /sys tree", tmpdir);
	refused(tmpdir, want);
	mt_snprintf(want, sizeof want, "%s/sys/devices/system/cpu/online: not a CPU list",
		    tree("garbled"));
	refused(tree("garbled"), want);
	mt_snprintf(want, sizeof want,
		    "%s/sys/devices/system/cpu/cpu2: missing (the online list names CPU 2)",
		    tree("holey"));
	refused(tree("holey"), want);
}

/* The run header's place: to JSON and back, in words, and absent when not
 * known (a foreign file, no pinned job). */
static void place_round_trip(void **state)
{
	static struct run_header h, back;
	cJSON *o = cJSON_CreateObject();
	const cJSON *p;
	char buf[200];
	(void)state;
	memset(&h, 0, sizeof h);
	h.place = (struct run_place){ 1, 3, "E", 2, 1, 0 };
	assert_int_equal(run_header_to_json(&h, o), 0);
	p = cJSON_GetObjectItemCaseSensitive(o, "place");
	assert_non_null(p);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(p, "kind")->valuestring, "E");
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(p, "l3_group")->valueint, 2);
	run_header_from_json(o, &back);
	assert_int_equal(back.place.known, 1);
	assert_int_equal(back.place.cpu, 3);
	assert_int_equal(back.place.node, 1);
	assert_int_equal(back.place.package, 0);
	assert_string_equal(run_place_text(&back.place, buf, sizeof buf),
			    "CPU 3: core kind E, L3 group 2, NUMA node 1, package 0");
	cJSON_Delete(o);
	o = cJSON_CreateObject();
	h.place.known = 0;
	assert_int_equal(run_header_to_json(&h, o), 0);
	assert_null(cJSON_GetObjectItemCaseSensitive(o, "place"));
	run_header_from_json(o, &back);
	assert_int_equal(back.place.known, 0);
	assert_string_equal(run_place_text(&back.place, buf, sizeof buf), "");
	cJSON_Delete(o);
}

/* A topology to JSON and back gives the same JSON and the same places,
 * for every shape: what `memtop view topo.json` shows is what memtop topo
 * saw. */
static void json_round_trip(void **state)
{
	static const char *const shapes[] = { "small", "2s-smt", "epyc", "hybrid", "biglittle" };
	(void)state;
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
		struct topo *t = load(shapes[i]), *back = NULL;
		cJSON *j = topo_to_json(t), *j2;
		mt_error e = { "" };
		assert_non_null(j);
		assert_true(topo_json_is(j));
		if (topo_from_json(j, "t.json", &back, &e) < 0)
			fail_msg("%s: %s", shapes[i], e.msg);
		assert_int_equal(back->recorded, 3);
		assert_int_equal(back->ncpus, t->ncpus);
		assert_int_equal(back->nallowed, t->nallowed);
		for (int c = 0; c < t->ncpus; c++) {
			assert_int_equal(back->cpus[c].node, t->cpus[c].node);
			assert_int_equal(back->cpus[c].core, t->cpus[c].core);
			assert_int_equal(topo_relation(back, t->cpus[0].os, t->cpus[c].os),
					 topo_relation(t, t->cpus[0].os, t->cpus[c].os));
		}
		for (int n = 0; n < t->nnodes; n++)
			assert_int_equal(back->nodes[n].local.n, t->nodes[n].local.n);
		j2 = topo_to_json(back);
		assert_true(cJSON_Compare(j, j2, 1));
		cJSON_Delete(j);
		cJSON_Delete(j2);
		topo_free(t);
		topo_free(back);
	}
}

/* A topology JSON that is not one, or whose parts index nothing: one line
 * naming the file and the field. */
static void json_refused(void **state)
{
	static const struct {
		const char *edit; /* a cJSON path to break: "key" or "key[i][k]" */
		double v;
		const char *want;
	} cases[] = {
		{ "cpu_places[1][1]", 40, "t.json: cpu_places[1]: core 40 of 2" },
		{ "cpu_places[1][0]", 0, "t.json: cpu_places[1][0]: CPU 0 after CPU 0 (ascending, "
					 "each once)" },
		{ "cpu_places[0][4]", 7, "t.json: cpu_places[0]: node 7 is not one of nodes" },
		{ "cpu_places[1][7]", 2, "t.json: cpu_places[1]: kind 2 of 1" },
		{ "cpu_places[0][2]", 1.5, "t.json: cpu_places[0][2]: expected a whole number from "
					   "-1 to 65535" },
		{ "cpus", 9, "t.json: cpu_places: 2 rows for 9 CPUs" },
		{ "cores", -2, "t.json: field \"cores\" must be an integer in 0..65536" },
	};
	struct topo *t = load("small"), *back = NULL;
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cJSON *j = topo_to_json(t), *x;
		char key[32];
		int a = -1, b = -1;
		mt_error e = { "" };
		assert_int_equal(sscanf(cases[i].edit, "%31[a-z_][%d][%d]", key, &a, &b) >= 1, 1);
		x = cJSON_GetObjectItemCaseSensitive(j, key);
		if (a >= 0)
			x = cJSON_GetArrayItem(cJSON_GetArrayItem(x, a), b);
		assert_non_null(x);
		cJSON_SetNumberValue(x, cases[i].v);
		assert_int_equal(topo_from_json(j, "t.json", &back, &e), -1);
		assert_null(back);
		if (strncmp(e.msg, cases[i].want, strlen(cases[i].want)))
			fail_msg("%s: got \"%s\", want \"%s...\"", cases[i].edit, e.msg, cases[i].want);
		cJSON_Delete(j);
	}
	{
		cJSON *j = topo_to_json(t);
		mt_error e = { "" };
		cJSON_DeleteItemFromObjectCaseSensitive(j, "cpu_places");
		assert_false(topo_from_json(j, "old.json", &back, &e) == 0);
		assert_string_equal(e.msg, "old.json: cpu_places: missing (a memtop topo --json of a "
					   "memtop before CPU places: write it again)");
		cJSON_Delete(j);
	}
	topo_free(t);
}

static void relation_names(void **state)
{
	(void)state;
	assert_string_equal(topo_rel_name(TOPO_REL_SMT), "SMT siblings");
	assert_string_equal(topo_rel_name(TOPO_REL_SAME_L2), "separate cores, same L2");
	assert_string_equal(topo_rel_name(TOPO_REL_SAME_L3), "same L3 group");
	assert_string_equal(topo_rel_name(TOPO_REL_SAME_NODE), "same NUMA node");
	assert_string_equal(topo_rel_name(TOPO_REL_SAME_PACKAGE), "same package");
	assert_string_equal(topo_rel_name(TOPO_REL_OTHER_PACKAGE), "other socket");
	assert_string_equal(topo_rel_name((enum topo_rel)42), "unknown");
}

/* This machine loads, whatever it is: at least one CPU, one kind, every
 * CPU's place known to be in the topology. */
static void this_machine(void **state)
{
	struct topo *t = NULL;
	mt_error e = { "" };
	(void)state;
	assert_int_equal(topo_load(NULL, &t, &e), 0);
	assert_true(t->ncpus >= 1);
	assert_true(t->nallowed >= 1);
	assert_true(t->ncoretypes >= 1);
	assert_string_equal(t->source, "this machine");
	for (int i = 0; i < t->ncpus; i++)
		assert_int_equal(topo_relation(t, t->cpus[i].os, t->cpus[i].os), TOPO_REL_SAME_CPU);
	topo_free(t);
}

static int setup(void **state)
{
	const char *base = getenv("TMPDIR");
	(void)state;
	mt_snprintf(tmpdir, sizeof tmpdir, "%s/memtop-topo.XXXXXX", base && *base ? base : "/tmp");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	const char *argv[] = { "rm", "-rf", tmpdir, NULL };
	(void)state;
	free(mt_run_capture_for(argv, 64, 60000, NULL));
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(small_machine),   cmocka_unit_test(two_sockets_smt),
		cmocka_unit_test(epyc_l3_groups),  cmocka_unit_test(hybrid_kinds),
		cmocka_unit_test(big_little),	   cmocka_unit_test(arm_parts),
		cmocka_unit_test(bad_trees),
		cmocka_unit_test(relation_names), cmocka_unit_test(this_machine),
		cmocka_unit_test(place_round_trip), cmocka_unit_test(info_source_hwloc),
		cmocka_unit_test(qemu_sibling_offline), cmocka_unit_test(qemu_distances),
		cmocka_unit_test(cores_at_two_depths), cmocka_unit_test(die_without_l3),
		cmocka_unit_test(json_round_trip), cmocka_unit_test(json_refused),
	};
	return cmocka_run_group_tests_name("topo", tests, setup, teardown);
}
