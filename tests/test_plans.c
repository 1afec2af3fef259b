/* The invariants every experiment's plan keeps, on hwloc's recorded
 * machines (../shared/topo or $MEMTOP_HWLOC_TREES: their /sys trees and
 * XMLs) and on synthetic servers (tests/testmachine.h) written as hwloc
 * synthetic descriptions (2-socket Sapphire and Emerald Rapids with SNC, Granite
 * Rapids, a 576-CPU Sierra Forest, Genoa-X NPS1 and NPS4, Turin 2 x 192,
 * Grace, Ampere One, Xeon Max with HBM in flat mode, a CXL memory node) and
 * tests/topo_tree.sh's shapes (hybrid, big.LITTLE). Each plan is what the
 * real binary prints with `memtop run X --plan --json -` for that machine;
 * the truth it is held to is worked out here from the machine as
 * machine_load reads it:
 *   - a DRAM working set is at least 4 x every cache any source claims
 *     that its CPUs reach together (each cache of a level they meet, at
 *     the larger of its size and the level's largest claim), memory
 *     permitting; a row under that is never called DRAM;
 *   - bandwidth sizes private levels each thread, shared ones each group;
 *     its thread counts step through one, one a package, a node, an L3
 *     group, a core, and all, and at those counts the CPUs cover every
 *     package, node, group and core;
 *   - latency's largest size is past 4 x the caches its CPU reaches;
 *   - cores' sample holds every relation the machine has, in under a
 *     minute;
 *   - numa's nodes are hwloc's (memory-only ones without CPUs, with their
 *     tier), its size at most a quarter of the smallest node.
 * Nothing here reads this machine. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "machine/machine.h"
#include "os/child.h"
#include "result/result.h"
#include "testlib.h"
#include "testmachine.h"




/* One machine under test: how memtop is told of it, and as it reads it. */
struct subject {
	char name[160];
	const char *flag; /* "--sysfs-root" or "--topology" */
	char path[1024];
	struct machine *m;
};

static int checked_machines, checked_plans, refused;

/* ---- the plan of one experiment, as the binary prints it --------------------- */

static cJSON *plan_of(const struct subject *s, const char *exp, const char *extra)
{
	const char *memtop = getenv("MEMTOP");
	enum mt_run_status st;
	char *out;
	cJSON *j;
	const char *argv[12] = { memtop, "run", exp, "--plan", s->flag, s->path, "--json", "-",
				 extra, NULL };
	assert_non_null(memtop);
	out = mt_run_capture_for(argv, 64 << 20, 60000, &st);
	if (!out)
		fail_msg("%s: memtop run %s --plan failed", s->name, exp);
	j = cJSON_Parse(out);
	if (!j)
		fail_msg("%s: memtop run %s --plan: not JSON", s->name, exp);
	free(out);
	checked_plans++;
	return j;
}

static long num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	assert_true(cJSON_IsNumber(v));
	return (long)v->valuedouble;
}

static double dnum(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	assert_true(cJSON_IsNumber(v));
	return v->valuedouble;
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	assert_true(cJSON_IsString(v));
	return v->valuestring;
}

static const cJSON *arr(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	assert_true(cJSON_IsArray(v));
	return v;
}

/* The CPUs of a thread entry into cpus (at most cap). Returns the count. */
static int cpus_of(const cJSON *threads_entry, int *cpus, int cap)
{
	const cJSON *c;
	int n = 0;
	cJSON_ArrayForEach(c, arr(threads_entry, "cpus"))
		if (n < cap)
			cpus[n++] = (int)c->valuedouble;
	return n;
}

/* ---- the truth, worked out here ---------------------------------------------- */

/* The largest size any source claims for level L (data or unified), and
 * the topology's own caches of it. */
static uint64_t claim(const struct machine *m, int level)
{
	uint64_t most = 0;
	for (int s = 0; s < m->info.nsources; s++)
		for (int i = 0; i < m->info.src[s].nlevels; i++) {
			const struct cache_level *c = &m->info.src[s].lv[i];
			if (c->level == level && strcmp(c->type, "instruction") && c->size > most)
				most = c->size;
		}
	for (int i = 0; m->topo && i < m->topo->ncaches; i++) {
		const struct topo_cache *c = &m->topo->caches[i];
		if (c->level == level && strcmp(c->type, "instruction") && c->size > most)
			most = c->size;
	}
	return most;
}

static int has(const int *cpus, int n, int cpu)
{
	for (int i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return 1;
	return 0;
}

/* 4 x the largest, over the levels, of what the CPUs reach together. */
static uint64_t floor_of(const struct machine *m, const int *cpus, int n)
{
	uint64_t most = 0;
	for (int level = 1; level <= 5; level++) {
		uint64_t c = claim(m, level), sum = 0;
		int any = 0;
		for (int i = 0; m->topo && i < m->topo->ncaches; i++) {
			const struct topo_cache *k = &m->topo->caches[i];
			int meets = 0;
			if (k->level != level || !strcmp(k->type, "instruction"))
				continue;
			any = 1;
			for (int j = 0; j < k->cpus.n && !meets; j++)
				meets = has(cpus, n, k->cpus.cpus[j]);
			if (meets)
				sum += k->size > c ? k->size : c;
		}
		if (!any)
			sum = c; /* no group known: at least one */
		if (sum > most)
			most = sum;
	}
	return 4 * most;
}

/* Is level L of m private (each cache serves one core)? */
static int private_level(const struct machine *m, int level)
{
	for (int i = 0; m->topo && i < m->topo->ncaches; i++) {
		const struct topo_cache *k = &m->topo->caches[i];
		int first = -1;
		if (k->level != level || !strcmp(k->type, "instruction"))
			continue;
		for (int j = 0; j < k->cpus.n; j++) {
			const struct topo_cpu *c = topo_cpu(m->topo, k->cpus.cpus[j]);
			if (c && first < 0)
				first = c->core;
			else if (c && c->core != first)
				return 0;
		}
	}
	return 1;
}

/* How many distinct values of what (0 package, 1 node, 2 L3, 3 core) the
 * CPUs have, and how many the allowed CPUs have (a CPU in no core counts
 * as a core, as bandwidth's plan counts it). */
static int spans(const struct machine *m, const int *cpus, int n, int what)
{
	int seen[4096], ns = 0;
	for (int i = 0; i < n; i++) {
		const struct topo_cpu *c = topo_cpu(m->topo, cpus[i]);
		int v = !c ? -1 : what == 0 ? c->package : what == 1 ? c->node : what == 2 ? c->l3
												: c->core;
		if (c && what == 3 && v < 0) /* a CPU in no core: a core of its own */
			v = 1000000 + c->os;
		if (v >= 0 && !has(seen, ns, v) && ns < 4096)
			seen[ns++] = v;
	}
	return ns;
}

/* Does every allowed CPU of m know its what (0 package, 1 node, 2 L3, 3
 * core)? (A recorded tree may hide a package's node with its offline
 * CPU 0: its other CPUs then have none, and no spread can cover it.) */
static int all_known(const struct machine *m, int what)
{
	for (int i = 0; i < m->nallowed; i++) {
		const struct topo_cpu *c = topo_cpu(m->topo, m->allowed[i]);
		int v = !c ? -1 : what == 0 ? c->package : what == 1 ? c->node : what == 2 ? c->l3
												: c->core;
		if (v < 0)
			return 0;
	}
	return 1;
}

/* ---- the invariants -------------------------------------------------------------- */

static void check_bandwidth(const struct subject *s)
{
	const struct machine *m = s->m;
	cJSON *j = plan_of(s, "bandwidth", NULL);
	const cJSON *sizes = arr(j, "sizes"), *threads = arr(j, "threads"), *x, *last = NULL;
	static int cpus[8192];
	int n = 0, counts[64], ncounts = 0, all = m->nallowed > 1024 ? 1024 : m->nallowed;
	uint64_t floor;
	cJSON_ArrayForEach(x, threads) {
		int c = (int)num(x, "count"), k = cpus_of(x, cpus, 8192);
		int want[4] = { spans(m, m->allowed, m->nallowed, 0),
				spans(m, m->allowed, m->nallowed, 1),
				spans(m, m->allowed, m->nallowed, 2),
				spans(m, m->allowed, m->nallowed, 3) };
		counts[ncounts++] = c;
		/* at a milestone every one is covered; where two milestones are the
		 * same count (3 packages, 3 L3 groups) the coarser one rules: a
		 * machine can make both impossible at once (a package without L3) */
		for (int w = 0, ruled = 0; w < 4 && m->topo && !ruled; w++)
			if (c == want[w] && want[w] > 0 && (ruled = 1) && all_known(m, w) &&
			    spans(m, cpus, k, w) != want[w])
				fail_msg("%s: bandwidth: %d threads cover %d of the %d %s", s->name, c,
					 spans(m, cpus, k, w), want[w],
					 (const char *[]){ "packages", "nodes", "L3 groups", "cores" }[w]);
		n = k;
	}
	/* the milestones are there */
	if (m->topo) {
		/* nodes: those with CPUs (a memory-only node is no step) */
		int want[6] = { 1, m->topo->packages, spans(m, m->allowed, m->nallowed, 1),
				m->topo->nl3, spans(m, m->allowed, m->nallowed, 3), all };
		int odd = m->topo->nnodes, step = 0;
		for (int w = 0; w < 6; w++) {
			int found = want[w] <= 0 || want[w] > all;
			for (int i = 0; i < ncounts && !found; i++)
				found = counts[i] == want[w];
			if (!found)
				fail_msg("%s: bandwidth: no thread count of %d (milestone %d)", s->name,
					 want[w], w);
			odd = want[w] == odd ? 0 : odd;
		}
		for (int i = 0; i < ncounts && odd > 0 && (odd & (odd - 1)); i++)
			step |= counts[i] == odd;
		if (step)
			fail_msg("%s: bandwidth: a step of %d threads, one a node counting the "
				 "memory-only ones", s->name, odd);
	}
	cJSON_ArrayForEach(x, sizes) {
		const char *level = str(x, "level");
		int each_thread = cJSON_IsTrue(cJSON_GetObjectItem(x, "each_thread"));
		int each_group = cJSON_IsTrue(cJSON_GetObjectItem(x, "each_group"));
		if (level[0] == 'L' && level[1] >= '1' && level[1] <= '5' && !level[2]) {
			int priv = private_level(m, level[1] - '0');
			if (each_thread != priv || each_group != !priv)
				fail_msg("%s: bandwidth: %s sized %s", s->name, level,
					 each_thread ? "each thread" : each_group ? "each group" : "in all");
		}
		last = x;
	}
	assert_non_null(last);
	floor = floor_of(m, cpus, n);
	if (strcmp(str(last, "level"), "DRAM") == 0 && (uint64_t)num(last, "bytes") < floor)
		fail_msg("%s: bandwidth: DRAM %ld bytes under 4 x the caches (%llu)", s->name,
			 num(last, "bytes"), (unsigned long long)floor);
	if (floor && floor <= m->mem_avail / 4 && strcmp(str(last, "level"), "DRAM") != 0)
		fail_msg("%s: bandwidth: the last row is %s with memory for DRAM", s->name,
			 str(last, "level"));
	cJSON_Delete(j);
}

static void check_latency(const struct subject *s)
{
	cJSON *j = plan_of(s, "latency", NULL);
	int cpu = (int)num(j, "worker_cpu");
	uint64_t floor = floor_of(s->m, &cpu, 1), max = (uint64_t)num(j, "max_size");
	assert_true(machine_allows(s->m, cpu));
	if (max < floor && floor <= s->m->mem_avail / 2)
		fail_msg("%s: latency ends at %llu, under 4 x the caches CPU %d reaches (%llu)",
			 s->name, (unsigned long long)max, cpu, (unsigned long long)floor);
	if (max < floor && cJSON_GetArraySize(arr(j, "notes")) == 0)
		fail_msg("%s: latency ends under the floor and says nothing", s->name);
	cJSON_Delete(j);
}

static void check_cores(const struct subject *s)
{
	const struct machine *m = s->m;
	cJSON *j = plan_of(s, "cores", "--sample");
	const cJSON *x;
	unsigned char have[TOPO_NREL] = { 0 }, there[TOPO_NREL] = { 0 };
	if (m->nallowed < 2 || !m->topo) {
		cJSON_Delete(j);
		return;
	}
	cJSON_ArrayForEach(x, arr(j, "pairs"))
		have[topo_relation(m->topo, (int)cJSON_GetArrayItem(x, 0)->valuedouble,
				   (int)cJSON_GetArrayItem(x, 1)->valuedouble)] = 1;
	for (int a = 0; a < m->nallowed; a++)
		for (int b = a + 1; b < m->nallowed; b++)
			there[topo_relation(m->topo, m->allowed[a], m->allowed[b])] = 1;
	for (int r = 0; r < TOPO_NREL; r++)
		if (there[r] && !have[r])
			fail_msg("%s: cores --sample misses the relation '%s'", s->name,
				 topo_rel_name((enum topo_rel)r));
	if (dnum(j, "estimate_s") >= 60)
		fail_msg("%s: cores --sample takes about %.0f s", s->name, dnum(j, "estimate_s"));
	cJSON_Delete(j);
}

/* Has m a node with an allowed CPU of its own (or no nodes at all)? */
static int cpu_node(const struct machine *m)
{
	int cpus[8];
	if (!m->topo || m->topo->nnodes == 0)
		return 1;
	for (int i = 0; i < m->topo->nnodes; i++)
		if (machine_node_cpus(m, i, cpus, 8) > 0)
			return 1;
	return 0;
}

/* How many of the plan's notes start with head (and hold also, unless
 * NULL). */
static int has_note(const cJSON *j, const char *head, const char *also)
{
	const cJSON *n;
	int k = 0;
	cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(j, "notes"))
		k += cJSON_IsString(n) && strncmp(n->valuestring, head, strlen(head)) == 0 &&
		     (!also || strstr(n->valuestring, also));
	return k;
}

/* numa --loaded: the first CPU node's local curve, chaser on its last CPU,
 * and its farthest pair (by the distances, else found by latency) on a
 * machine of several nodes, their time in the estimate; a first CPU node
 * of one CPU refused in one line (exit 2). */
static void check_numa_loaded(const struct subject *s, const cJSON *plain)
{
	const struct machine *m = s->m;
	int cpus[4096], n = 0, first = -1;
	char head[96], far[96], dist[96];
	cJSON *j;
	for (int i = 0; i < m->topo->nnodes && first < 0; i++)
		if ((n = machine_node_cpus(m, i, cpus, 4096)) > 0)
			first = i;
	if (n < 2) {
		const char *argv[] = { getenv("MEMTOP"), "run", "numa", "--plan", s->flag, s->path,
				       "--loaded", NULL };
		struct mt_run_end end;
		char *out = mt_run_child(argv, 1 << 16, 60000, 0, &end);
		if (end.exit_code != 2)
			fail_msg("%s: numa --loaded with a CPU node of one CPU exits %d, not 2", s->name,
				 end.exit_code);
		free(out);
		return;
	}
	j = plan_of(s, "numa", "--loaded");
	mt_snprintf(head, sizeof head, "loaded latency %d>%d (local): chaser on CPU %d, %d injector",
		    m->topo->nodes[first].os_index, m->topo->nodes[first].os_index, cpus[n - 1], n - 1);
	if (has_note(j, head, NULL) != 1)
		fail_msg("%s: numa --loaded plans no note '%s...'", s->name, head);
	mt_snprintf(far, sizeof far, "loaded latency %d>? (the slowest idle latency measured)",
		    m->topo->nodes[first].os_index);
	mt_snprintf(dist, sizeof dist, "loaded latency %d>", m->topo->nodes[first].os_index);
	if (cJSON_GetArraySize(arr(j, "nodes")) > 1 &&
	    has_note(j, far, NULL) + has_note(j, dist, "(the farthest by the firmware's distances") != 1)
		fail_msg("%s: numa --loaded plans no farthest pair (%s...)", s->name, dist);
	if (!(dnum(j, "estimate_s") > dnum(plain, "estimate_s")))
		fail_msg("%s: numa --loaded's estimate is not over the plain run's", s->name);
	cJSON_Delete(j);
}

static void check_numa(const struct subject *s)
{
	const struct machine *m = s->m;
	cJSON *j;
	if (!cpu_node(m)) { /* a cpuset's CPUs without their node: refused, exit 1 */
		const char *argv[] = { getenv("MEMTOP"), "run", "numa", "--plan", s->flag, s->path, NULL };
		struct mt_run_end end;
		char *out = mt_run_child(argv, 1 << 16, 60000, 0, &end);
		if (end.exit_code != 1)
			fail_msg("%s: numa's plan of a machine with no CPU node exits %d, not 1",
				 s->name, end.exit_code);
		free(out);
		return;
	}
	j = plan_of(s, "numa", NULL);
	const cJSON *nodes = arr(j, "nodes"), *x;
	uint64_t smallest = UINT64_MAX;
	int i = 0;
	if (!m->topo || m->topo->nnodes == 0) {
		cJSON_Delete(j);
		return;
	}
	if (m->topo->nnodes > 16) { /* a run takes 16, spread over the machine, said */
		assert_int_equal(cJSON_GetArraySize(nodes), 16);
		cJSON_Delete(j);
		return;
	}
	assert_int_equal(cJSON_GetArraySize(nodes), m->topo->nnodes);
	cJSON_ArrayForEach(x, nodes) {
		const struct topo_node *tn = &m->topo->nodes[i++];
		int cpus[4096];
		assert_int_equal(num(x, "node"), tn->os_index);
		assert_string_equal(str(x, "tier"), tn->tier);
		if (machine_node_cpus(m, i - 1, cpus, 4096) == 0)
			assert_string_equal(str(x, "cpus"), ""); /* memory only */
		if (tn->memory && tn->memory < smallest)
			smallest = tn->memory;
	}
	if (smallest != UINT64_MAX && (uint64_t)num(cJSON_GetArrayItem(arr(j, "sizes"), 0), "bytes") >
					      smallest / 4)
		fail_msg("%s: numa's size is over a quarter of the smallest node", s->name);
	check_numa_loaded(s, j);
	cJSON_Delete(j);
}

/* Every experiment plans on it; the four above are held to their rules. */
static void check_subject(struct subject *s)
{
	mt_error e = { "" };
	if (machine_load(strcmp(s->flag, "--sysfs-root") == 0 ? s->path : NULL,
			 strcmp(s->flag, "--topology") == 0 ? s->path : NULL, &s->m, &e) < 0) {
		/* an hwloc 3 XML: refused in one line that says so, nothing planned */
		if (strstr(e.msg, ": an hwloc 3 XML (version 3.") && hwloc_get_api_version() < 0x30000) {
			refused++;
			return;
		}
		fail_msg("%s: %s", s->name, e.msg);
	}
	/* every registered experiment: a new one is planned here by being registered */
	for (size_t i = 0, n; experiment_all(&n)[i]; i++) {
		const char *name = experiment_all(&n)[i]->name;
		cJSON *j;
		if (strcmp(name, "numa") == 0 && !cpu_node(s->m))
			continue; /* refused in one line: check_numa */
		j = plan_of(s, name, NULL);
		assert_string_equal(str(j, "experiment"), name);
		cJSON_Delete(j);
	}
	check_bandwidth(s);
	check_latency(s);
	check_cores(s);
	check_numa(s);
	machine_free(s->m);
	s->m = NULL;
	checked_machines++;
}

/* ---- the machines --------------------------------------------------------------- */

static void synthetic_servers(void **state)
{
	(void)state;
	for (size_t i = 0; i < MT_ARRAY_LEN(testmachine_servers); i++) {
		const struct testmachine_server *x = &testmachine_servers[i];
		struct subject s = { .flag = "--topology" };
		mt_strlcpy(s.name, x->name, sizeof s.name);
		mt_snprintf(s.path, sizeof s.path, "%s/%s.xml", testmachine_dir, x->name);
		assert_int_equal(testmachine_xml(s.path, x->desc, x->extras), 0);
		check_subject(&s);
		unlink(s.path);
	}
	print_message("# %d synthetic servers, %d plans\n", checked_machines, checked_plans);
}

/* tests/topo_tree.sh's shapes: hybrid P/E, big.LITTLE, EPYC-like. */
static void tree_shapes(void **state)
{
	static const char *const shapes[] = { "small", "2s-smt", "epyc", "hybrid", "biglittle",
					      "armparts" };
	const char *data = getenv("TESTDATA");
	(void)state;
	assert_non_null(data);
	for (size_t i = 0; i < MT_ARRAY_LEN(shapes); i++) {
		struct subject s = { .flag = "--sysfs-root" };
		char script[1024];
		enum mt_run_status st;
		char *out;
		mt_snprintf(script, sizeof script, "%s/../topo_tree.sh", data);
		mt_snprintf(s.path, sizeof s.path, "%s/%s", testmachine_dir, shapes[i]);
		mt_strlcpy(s.name, shapes[i], sizeof s.name);
		{
			const char *argv[] = { "sh", script, shapes[i], s.path, NULL };
			out = mt_run_capture_for(argv, 4096, 60000, &st);
		}
		assert_non_null(out);
		free(out);
		check_subject(&s);
	}
}

/* The hwloc XMLs of tests/data: live kernels under qemu (2 sockets, a
 * memory-only node, the SLIT; the same with an SMT sibling offline: cores
 * at two depths), made-up trees with cores at two depths and a CPU in no
 * core and with a die without L3, a hybrid. */
static void data_xmls(void **state)
{
	static const char *const xmls[] = { "topo-qemu-A.xml", "topo-qemu-offline5.xml",
					    "topo-cores-two-depths.xml", "topo-die-without-l3.xml",
					    "topo-hybrid.xml" };
	const char *data = getenv("TESTDATA");
	(void)state;
	assert_non_null(data);
	for (size_t i = 0; i < MT_ARRAY_LEN(xmls); i++) {
		struct subject s = { .flag = "--topology" };
		mt_snprintf(s.path, sizeof s.path, "%s/%s", data, xmls[i]);
		mt_strlcpy(s.name, xmls[i], sizeof s.name);
		check_subject(&s);
	}
}

/* ---- memtop topo against lstopo's own output ------------------------------------ */

static int plain_trees, agreeing_trees;

/* NAME.console's count of objects of type (its "depth N: COUNT TYPE" and
 * "Special depth -N: COUNT TYPE" lines), 0 when it has none. */
static long console_count(const char *text, const char *type)
{
	char pat[64];
	mt_snprintf(pat, sizeof pat, " %s (type #", type);
	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		const char *hit = strstr(line, pat), *colon = strstr(line, "depth");
		const char *end = strchr(line, '\n');
		if (hit && colon && (!end || hit < end) && colon < hit) {
			colon = strchr(colon, ':');
			return colon ? strtol(colon + 1, NULL, 10) : 0;
		}
	}
	return 0;
}

/* A plain recorded tree (its .test names no tar exclusion, environment or
 * lstopo options, and a .console target): memtop topo's packages, NUMA
 * nodes, cores, CPUs, L3 groups and core types are lstopo's. */
static void check_console(const char *dir, const struct subject *s)
{
	char path[1200], *test, *console;
	mt_error e = { "" };
	cJSON *j;
	long want[6], got[6];
	size_t len;
	mt_snprintf(path, sizeof path, "%s/%s.test", dir, s->name);
	test = mt_read_file(path, 1 << 16, &len, &e);
	if (!test)
		return;
	if (strstr(test, "\nexclude:") || strstr(test, "\nenv:") || strstr(test, "\noptions:") ||
	    !strstr(test, ".console")) {
		free(test);
		return;
	}
	free(test);
	mt_snprintf(path, sizeof path, "%s/%s.console", dir, s->name);
	console = mt_read_file(path, 1 << 22, &len, &e);
	assert_non_null(console);
	want[0] = console_count(console, "Package");
	want[1] = console_count(console, "NUMANode");
	want[2] = console_count(console, "Core");
	want[3] = console_count(console, "PU");
	want[4] = console_count(console, "L3Cache");
	want[5] = 0;
	for (const char *k = console; (k = strstr(k, "\nCPU kind #")); k++)
		want[5]++;
	if (!want[5])
		want[5] = 1;
	free(console);
	{
		const char *argv[] = { getenv("MEMTOP"), "topo", "--sysfs-root", s->path, "--json", "-",
				       NULL };
		enum mt_run_status st;
		char *out = mt_run_capture_for(argv, 1 << 22, 60000, &st);
		assert_non_null(out);
		j = cJSON_Parse(out);
		free(out);
	}
	assert_non_null(j);
	got[0] = num(j, "packages");
	got[1] = num(j, "numa_nodes");
	got[2] = num(j, "cores");
	got[3] = num(j, "cpus");
	got[4] = cJSON_GetArraySize(arr(j, "l3_groups"));
	got[5] = cJSON_GetArraySize(arr(j, "core_kinds"));
	cJSON_Delete(j);
	plain_trees++;
	if (memcmp(want, got, sizeof want) != 0)
		fail_msg("%s: memtop topo says %ld packages, %ld nodes, %ld cores, %ld CPUs, %ld L3, "
			 "%ld kinds; lstopo %ld, %ld, %ld, %ld, %ld, %ld", s->name, got[0], got[1],
			 got[2], got[3], got[4], got[5], want[0], want[1], want[2], want[3], want[4],
			 want[5]);
	agreeing_trees++;
}

/* Where the recorded trees are, or NULL (said). */
static const char *trees(void)
{
	const char *t = getenv("MEMTOP_HWLOC_TREES");
	struct stat st;
	return t && *t && stat(t, &st) == 0 && S_ISDIR(st.st_mode) ? t : NULL;
}

/* hwloc's recorded machines: each /sys tree and each XML. */
static void recorded_machines(void **state)
{
	const char *dir = trees();
	struct dirent *d;
	DIR *dd;
	int trees_done = 0, xmls = 0;
	(void)state;
	dd = opendir(dir);
	assert_non_null(dd);
	while ((d = readdir(dd))) {
		struct subject s;
		size_t len = strlen(d->d_name);
		memset(&s, 0, sizeof s);
		if (len > 8 && strcmp(d->d_name + len - 8, ".tar.bz2") == 0) {
			char cmd[3000], into[1100];
			enum mt_run_status st;
			char *out;
			mt_snprintf(s.name, sizeof s.name, "%.*s", (int)(len - 8), d->d_name);
			mt_snprintf(into, sizeof into, "%s/t-%s", testmachine_dir, s.name);
			mt_snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cd '%s' && bunzip2 -c '%s/%s' | "
				    "tar xf - && ls -d \"$PWD\"/*/ | head -n 1", into, into, dir,
				    d->d_name);
			{
				const char *argv[] = { "sh", "-c", cmd, NULL };
				out = mt_run_capture_for(argv, 4096, 60000, &st);
			}
			if (!out || !out[0])
				fail_msg("%s: cannot extract", d->d_name);
			out[strcspn(out, "\n")] = '\0';
			mt_strlcpy(s.path, out, sizeof s.path);
			free(out);
			s.flag = "--sysfs-root";
			trees_done++;
		} else if (len > 4 && strcmp(d->d_name + len - 4, ".xml") == 0) {
			mt_snprintf(s.name, sizeof s.name, "%s", d->d_name);
			mt_snprintf(s.path, sizeof s.path, "%s/%s", dir, d->d_name);
			s.flag = "--topology";
			xmls++;
		} else {
			continue;
		}
		check_subject(&s);
		if (strcmp(s.flag, "--sysfs-root") == 0)
			check_console(dir, &s);
		if (strcmp(s.flag, "--sysfs-root") == 0) { /* the tree goes again at once */
			char into[1100];
			const char *argv[] = { "rm", "-rf", into, NULL };
			enum mt_run_status st;
			mt_snprintf(into, sizeof into, "%s/t-%s", testmachine_dir, s.name);
			free(mt_run_capture_for(argv, 4096, 60000, &st));
		}
	}
	closedir(dd);
	print_message("# %d recorded trees and %d XMLs read, %d refused (hwloc 3's XML), %d "
		      "machines planned in all; memtop topo agrees with lstopo on %d of the %d "
		      "plain trees\n", trees_done, xmls, refused, checked_machines, agreeing_trees,
		      plain_trees);
	assert_true(trees_done + xmls > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(synthetic_servers),
		cmocka_unit_test(tree_shapes),
		cmocka_unit_test(data_xmls),
		MT_SKIP_IF(trees() ? NULL : "no recorded trees ($MEMTOP_HWLOC_TREES: ../shared/topo)",
			   recorded_machines),
	};
	return cmocka_run_group_tests_name("plans", tests, testmachine_setup, testmachine_teardown);
}
