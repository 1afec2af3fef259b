/* The one CPU-list grammar (base/cpuspec.h) and its domains resolved on a
 * machine (machine_cpus), as tables: a list -> the CPUs it names, or the
 * one line that refuses it. The syntax alone; the synthetic servers of
 * tests/testmachine.h; hwloc's recorded trees (../shared/topo or
 * $MEMTOP_HWLOC_TREES: a 2-socket Xeon with SMT, a 4-socket Opteron of 8
 * nodes, a hybrid Core i7, a fake 4-package machine of 8 dies, a 2 x 64-core
 * Kunpeng). Nothing here reads this machine. */
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

#include "base/cpuspec.h"
#include "machine/machine.h"
#include "os/child.h"
#include "testlib.h"
#include "testmachine.h"

/* ---- the syntax ---------------------------------------------------------------- */

/* Each item of a list as "DOM[index][name][:lo-hi:step]", " " between
 * them: the parse, written back. */
static void items_text(const char *s, char *buf, size_t len, mt_error *e, int *rc)
{
	static const char *const dom[] = { "cpus", "S", "D", "N", "L3:", "C", "type " };
	struct mt_cpuitem it;
	buf[0] = '\0';
	while ((*rc = mt_cpuitem_next(&s, &it, e)) > 0) {
		mt_append(buf, len, "%s%s", buf[0] ? " " : "", dom[it.dom]);
		if (it.index >= 0)
			mt_append(buf, len, "%d", it.index);
		mt_append(buf, len, "%s", it.name);
		if (it.sel)
			mt_append(buf, len, "[%d-%d:%d]", it.lo, it.hi, it.step);
	}
}

static void syntax(void **state)
{
	static const struct {
		const char *in, *items; /* the items, or the error */
	} cases[] = {
		{ "0-3,8", "cpus[0-3:1] cpus[8-8:1]" },
		{ "0-15:2", "cpus[0-15:2]" },
		{ "S0", "S0" },
		{ "s1:0-3", "S1[0-3:1]" },
		{ "S0:0-15:2", "S0[0-15:2]" },
		{ "N3", "N3" },
		{ "D1:4", "D1[4-4:1]" },
		{ "L3:2", "L3:2" },
		{ "L3:2:0-7:2", "L3:2[0-7:2]" },
		{ "C", "C" },
		{ "C:0-3", "C[0-3:1]" },
		{ "P", "type P" },
		{ "E:0-1", "type E[0-1:1]" },
		{ "big,LITTLE", "type big type LITTLE" },
		{ "LP-E", "type LP-E" },
		{ "mid2", "type mid2" },
		{ "one", "type one" },
		{ "S0:0-3,S1:0-3,8", "S0[0-3:1] S1[0-3:1] cpus[8-8:1]" },
		{ "0-", "'0-' is a range without its end (such as 0-3)" },
		{ "-3", "'-3' is a range without its start (such as 0-3)" },
		{ "1,,2", "an empty item in the CPU list (two commas, or one at an end)" },
		{ "1,", "an empty item in the CPU list (two commas, or one at an end)" },
		{ ",1", "an empty item in the CPU list (two commas, or one at an end)" },
		{ "x", "'x' is not a CPU, a range such as 0-3 or a domain such as S0" },
		{ "2-x", "'2-x' is not a CPU, a range such as 0-3 or a domain such as S0" },
		{ "5-3", "the range 5-3 runs backwards" },
		{ "3:2", "'3:2': a step needs a range (0-15:2)" },
		{ "0-7:0", "'0-7:0': the step must be 1 or more" },
		{ "65536", "'65536' is not a CPU, a range such as 0-3 or a domain such as S0" },
		{ "S", "'S' needs its number (S0: package 0)" },
		{ "N:0", "'N:0' needs its number (N0: NUMA node 0)" },
		{ "D", "'D' needs its number (D0: die 0)" },
		{ "Sx", "'Sx' is not a CPU, a range such as 0-3 or a domain such as S0" },
		{ "S0:", "'S0:' has nothing after its colon (S0:0-3: its first four CPUs)" },
		{ "S0:x", "'S0:x' after the colon, an index or a range such as 0-3 (0-15:2: every "
			  "second)" },
		{ "S0:3-1", "the range 3-1 runs backwards" },
		{ "L3", "'L3' needs its group's number (L3:0: L3 group 0)" },
		{ "L3:", "'L3:' needs its group's number (L3:0: L3 group 0)" },
		{ "L2:0", "'L2:0' is not a CPU, a range such as 0-3 or a domain such as S0" },
		{ "C0", "'C0': C takes no number (C: one CPU of each core; C:0-3 its first four; "
			"L3:0 is an L3 group)" },
		{ "fast", "'fast' is not a CPU, a range such as 0-3 or a domain such as S0" },
	};
	char got[256];
	mt_error e;
	int rc, d = -1;
	(void)state;
	for (size_t i = 0; i < MT_ARRAY_LEN(cases); i++) {
		e.msg[0] = '\0';
		items_text(cases[i].in, got, sizeof got, &e, &rc);
		if (rc < 0)
			mt_strlcpy(got, e.msg, sizeof got);
		if (strcmp(got, cases[i].items))
			fail_msg("'%s': got \"%s\", want \"%s\"", cases[i].in, got, cases[i].items);
	}
	assert_int_equal(mt_cpuspec_check("", NULL, &e), -1);
	assert_string_equal(e.msg, "an empty CPU list");
	assert_int_equal(mt_cpuspec_check("0-3,S1,C:0-1", &d, &e), 3);
	assert_int_equal(d, 2);
}

/* ---- resolved on machines -------------------------------------------------------- */

/* One case: a list, and the CPUs it names (runs of consecutive CPUs as
 * "a-b", in the order named) with its words, or (cpus NULL) the error. */
struct resolve_case {
	const char *spec;
	const char *cpus; /* NULL: refused */
	const char *said; /* the words, or the error */
};

/* v[0..n) in the order given, each run of consecutive CPUs as "a-b". */
static const char *runs_text(const int *v, int n, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int i = 0; i < n;) {
		int j = i;
		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		if (j > i)
			mt_append(buf, len, "%s%d-%d", i ? "," : "", v[i], v[j]);
		else
			mt_append(buf, len, "%s%d", i ? "," : "", v[i]);
		i = j + 1;
	}
	return buf;
}

/* Every case of c[0..n) on machine m (named name): the CPUs and the words,
 * or the error. Returns the cases that came out otherwise (each said). */
static int resolve_all(const char *name, const struct machine *m, const struct resolve_case *c,
		       size_t n)
{
	static int cpus[1024];
	char said[512], got[2048];
	int wrong = 0;
	for (size_t i = 0; i < n; i++) {
		mt_error e = { "" };
		int k = machine_cpus(m, c[i].spec, cpus, 1024, said, sizeof said, &e);
		if (!c[i].cpus) {
			if (k >= 0 || strcmp(e.msg, c[i].said))
				wrong++, print_message("# %s: '%s': got %d \"%s\", want the error "
						       "\"%s\"\n", name, c[i].spec, k, e.msg,
						       c[i].said);
			continue;
		}
		if (k < 0) {
			wrong++, print_message("# %s: '%s': refused: %s\n", name, c[i].spec, e.msg);
			continue;
		}
		runs_text(cpus, k, got, sizeof got);
		if (strcmp(got, c[i].cpus) || strcmp(said, c[i].said))
			wrong++, print_message("# %s: '%s': got CPUs %s \"%s\", want %s \"%s\"\n",
					       name, c[i].spec, got, said, c[i].cpus, c[i].said);
	}
	return wrong;
}

/* The cases of one synthetic server of tests/testmachine.h (by name). */
static const struct synthetic_cases {
	const char *server;
	struct resolve_case c[12];
} synthetic[] = {
	{ "sapphire-rapids-2s-snc4", /* 2 x 4 nodes x 14 cores x 2 CPUs, siblings side by side */
	  { { "S0:0-3", "0-3", "S0:0-3 = CPUs 0,1,2,3" },
	    { "S1", "112-223", "S1 = CPUs 112-223" },
	    { "N1", "28-55", "N1 = CPUs 28-55" },
	    { "N7:0-3", "196-199", "N7:0-3 = CPUs 196,197,198,199" },
	    { "C:0-3", "0,2,4,6", "C:0-3 = CPUs 0,2,4,6" },
	    { "L3:1:0-15:2", "112,114,116,118,120,122,124,126",
	      "L3:1:0-15:2 = CPUs 112,114,116,118,120,122,124,126" },
	    { "S0:0-1,S1:0-1,4", "0-1,112-113,4", "S0:0-1 = CPUs 0,1; S1:0-1 = CPUs 112,113" },
	    { "S2", NULL, "S2: that machine has packages 0 and 1" },
	    { "N8", NULL, "N8: that machine has NUMA nodes 0-7" },
	    { "S0:112", NULL, "S0:112: package 0 has 112 CPUs this process may use (indexes "
			      "0-111)" },
	    { "N0,S0", NULL, "CPU 0 is given twice (again by S0)" },
	    { "P", NULL, "P: that machine has one core type, one" } } },
	{ "genoa-x-nps4", /* 4 nodes x 3 L3s x 8 cores x 2 CPUs */
	  { { "L3:5", "80-95", "L3:5 = CPUs 80-95" },
	    { "N3", "144-191", "N3 = CPUs 144-191" },
	    { "N3:0-1,L3:0:0-1", "144-145,0-1", "N3:0-1 = CPUs 144,145; L3:0:0-1 = CPUs 0,1" },
	    { "C:0-3", "0,2,4,6", "C:0-3 = CPUs 0,2,4,6" },
	    { "L3:12", NULL, "L3:12: that machine has L3 groups 0-11" },
	    { "D1", NULL, "D1: that machine has die 0 alone" } } },
	{ "xeon-max-flat-hbm", /* each package a DRAM node with its CPUs, an HBM node without */
	  { { "N0", "0-111", "N0 = CPUs 0-111" },
	    { "N2:0", "112", "N2:0 = CPU 112" },
	    { "N1", NULL, "N1: NUMA node 1 has no CPUs (memory only)" },
	    { "N4", NULL, "N4: that machine has NUMA nodes 0-3" } } },
	{ "hybrid-kinds", /* CPUs 0-15 of the fast kind, 16-23 of the other (not x86) */
	  { { "big", "0-15", "big = CPUs 0-15" },
	    { "LITTLE:0-3", "16-19", "LITTLE:0-3 = CPUs 16,17,18,19" },
	    { "little", "16-23", "little = CPUs 16,17,18,19,20,21,22,23" },
	    { "big:0-15:4,LITTLE:0", "0,4,8,12,16", "big:0-15:4 = CPUs 0,4,8,12; LITTLE:0 = CPU 16" },
	    { "P", NULL, "P: the core types of that machine are big, LITTLE" } } },
};

static void synthetic_servers(void **state)
{
	int wrong = 0;
	(void)state;
	for (size_t i = 0; i < MT_ARRAY_LEN(synthetic); i++) {
		const struct testmachine_server *x = NULL;
		struct machine *m;
		size_t n = 0;
		for (size_t k = 0; k < MT_ARRAY_LEN(testmachine_servers); k++)
			if (strcmp(testmachine_servers[k].name, synthetic[i].server) == 0)
				x = &testmachine_servers[k];
		assert_non_null(x);
		m = testmachine(testmachine_dir, x->desc, x->extras);
		assert_non_null(m);
		while (n < MT_ARRAY_LEN(synthetic[i].c) && synthetic[i].c[n].spec)
			n++;
		wrong += resolve_all(x->name, m, synthetic[i].c, n);
		machine_free(m);
	}
	assert_int_equal(wrong, 0);
}

/* A taskset of package 0 alone on the 2-socket server: package 1 resolves
 * to no CPU this process may use, and is refused. */
static void no_allowed_cpu(void **state)
{
	static const struct resolve_case c[] = {
		{ "S1", NULL, "S1: none of the CPUs of package 1 is one this process may use "
			      "(offline, or outside its taskset or cgroup)" },
		{ "N4:0-3", NULL, "N4:0-3: none of the CPUs of NUMA node 4 is one this process may "
				  "use (offline, or outside its taskset or cgroup)" },
		{ "C:56-60", NULL, "C:56-60: C (one CPU of each core) has 56 CPUs this process may "
				   "use (indexes 0-55)" },
		{ "S0:0-1", "0-1", "S0:0-1 = CPUs 0,1" },
		{ "200-201", "200-201", "" }, /* numbers are the caller's to check */
	};
	const struct testmachine_server *x = &testmachine_servers[0];
	struct machine *m = testmachine(testmachine_dir, x->desc, x->extras);
	(void)state;
	assert_non_null(m);
	assert_string_equal(x->name, "sapphire-rapids-2s-snc4");
	m->nallowed = 112; /* CPUs 0-111, ascending */
	assert_int_equal(resolve_all("a taskset of package 0", m, c, MT_ARRAY_LEN(c)), 0);
	machine_free(m);
}

/* ---- hwloc's recorded trees ------------------------------------------------------- */

static const struct recorded_cases {
	const char *tree;
	struct resolve_case c[20];
} recorded[] = {
	/* 2 Xeon packages of 8 cores, SMT siblings 16 apart; a node and an L3 a package */
	{ "32intel64-2p8co2t+8ve",
	  { { "S0", "0-7,16-23", "S0 = CPUs 0-7,16-23" },
	    { "S1:0-3", "8-11", "S1:0-3 = CPUs 8,9,10,11" },
	    { "S0:0-15:2", "0,2,4,6,16,18,20,22", "S0:0-15:2 = CPUs 0,2,4,6,16,18,20,22" },
	    { "C", "0-15", "C = CPUs 0-15" },
	    { "C:8-15", "8-15", "C:8-15 = CPUs 8,9,10,11,12,13,14,15" },
	    { "N1", "8-15,24-31", "N1 = CPUs 8-15,24-31" },
	    { "L3:0:8-15", "16-23", "L3:0:8-15 = CPUs 16,17,18,19,20,21,22,23" },
	    { "D1", "8-15,24-31", "D1 = CPUs 8-15,24-31" },
	    { "S0:0-3,S1:0-3", "0-3,8-11", "S0:0-3 = CPUs 0,1,2,3; S1:0-3 = CPUs 8,9,10,11" },
	    { "0-1,S1:0-1", "0-1,8-9", "S1:0-1 = CPUs 8,9" },
	    { "one:30-31", "30-31", "one:30-31 = CPUs 30,31" },
	    { "S2", NULL, "S2: that machine has packages 0 and 1" },
	    { "N2", NULL, "N2: that machine has NUMA nodes 0 and 1" },
	    { "L3:2", NULL, "L3:2: that machine has L3 groups 0 and 1" },
	    { "P", NULL, "P: that machine has one core type, one" },
	    { "S0:16", NULL, "S0:16: package 0 has 16 CPUs this process may use (indexes "
			     "0-15)" },
	    { "S0,N0", NULL, "CPU 0 is given twice (again by N0)" } } },
	/* 4 Opteron packages of 2 nodes, each node one L3 of 8 cores */
	{ "64amd64-4s2n4ca2co",
	  { { "S3", "48-63", "S3 = CPUs 48-63" },
	    { "N5", "40-47", "N5 = CPUs 40,41,42,43,44,45,46,47" },
	    { "N7:0-1", "56-57", "N7:0-1 = CPUs 56,57" },
	    { "L3:6", "48-55", "L3:6 = CPUs 48,49,50,51,52,53,54,55" },
	    { "N0,N2:0-3:2", "0-7,16,18", "N0 = CPUs 0,1,2,3,4,5,6,7; N2:0-3:2 = CPUs 16,18" },
	    { "C:60-63", "60-63", "C:60-63 = CPUs 60,61,62,63" },
	    { "D3", "48-63", "D3 = CPUs 48-63" },
	    { "S4", NULL, "S4: that machine has packages 0-3" },
	    { "N8", NULL, "N8: that machine has NUMA nodes 0-7" },
	    { "L3:8", NULL, "L3:8: that machine has L3 groups 0-7" } } },
	/* a Core i7-1370P: 6 P cores of 2 CPUs, then 8 E cores */
	{ "20em64t-hybrid-1p6c2t+2ca4co1t",
	  { { "P", "0-11", "P = CPUs 0-11" },
	    { "E", "12-19", "E = CPUs 12,13,14,15,16,17,18,19" },
	    { "e:0-3", "12-15", "e:0-3 = CPUs 12,13,14,15" },
	    { "C", "0,2,4,6,8,10,12-19", "C = CPUs 0,2,4,6,8,10,12-19" },
	    { "C:0-5", "0,2,4,6,8,10", "C:0-5 = CPUs 0,2,4,6,8,10" },
	    { "P:0-11:2,E", "0,2,4,6,8,10,12-19",
	      "P:0-11:2 = CPUs 0,2,4,6,8,10; E = CPUs 12,13,14,15,16,17,18,19" },
	    { "S0", "0-19", "S0 = CPUs 0-19" },
	    { "L3:0:12-19", "12-19", "L3:0:12-19 = CPUs 12,13,14,15,16,17,18,19" },
	    { "big", NULL, "big: the core types of that machine are P, E" },
	    { "S1", NULL, "S1: that machine has package 0 alone" },
	    { "N1", NULL, "N1: that machine has NUMA node 0" } } },
	/* 4 packages of 2 dies (a faked CPUID leaf 0x1f), 2 nodes a die, SMT */
	{ "fakecpuid1f-64intel64-2p4d2n2c2t",
	  { { "D1", "8-15", "D1 = CPUs 8,9,10,11,12,13,14,15" },
	    { "S1", "16-31", "S1 = CPUs 16-31" },
	    { "D7:0-3", "56-59", "D7:0-3 = CPUs 56,57,58,59" },
	    { "C:0-3", "0,2,4,6", "C:0-3 = CPUs 0,2,4,6" },
	    { "N15", "60-63", "N15 = CPUs 60,61,62,63" },
	    { "D8", NULL, "D8: that machine has dies 0-7" } } },
	/* a Kunpeng 920: 2 packages of 64 cores, a node and an L3 each 32 */
	{ "128arm-2pa2n8cluster4co",
	  { { "S1", "64-127", "S1 = CPUs 64-127" },
	    { "S0:0-63:8", "0,8,16,24,32,40,48,56", "S0:0-63:8 = CPUs 0,8,16,24,32,40,48,56" },
	    { "N3", "96-127", "N3 = CPUs 96-127" },
	    { "C", "0-127", "C = CPUs 0-127" },
	    { "S1:0-31,S0:32-63", "64-95,32-63", "S1:0-31 = CPUs 64-95; S0:32-63 = CPUs 32-63" },
	    { "S2", NULL, "S2: that machine has packages 0 and 1" } } },
};

/* Where the recorded trees are, or NULL. */
static const char *trees(void)
{
	const char *t = getenv("MEMTOP_HWLOC_TREES");
	struct stat st;
	return t && *t && stat(t, &st) == 0 && S_ISDIR(st.st_mode) ? t : NULL;
}

/* The recorded tree name extracted under testmachine_dir, its root into root.
 * Returns 0, or -1 when it is not there (said). */
static int extract(const char *name, char *root, size_t len)
{
	char cmd[3000];
	enum mt_run_status st;
	char *out;
	mt_snprintf(cmd, sizeof cmd, "mkdir -p '%s/%s' && cd '%s/%s' && bunzip2 -c '%s/%s.tar.bz2' | "
		    "tar xf - && ls -d \"$PWD\"/*/ | head -n 1", testmachine_dir, name,
		    testmachine_dir, name, trees(), name);
	{
		const char *argv[] = { "sh", "-c", cmd, NULL };
		out = mt_run_capture_for(argv, 4096, 60000, &st);
	}
	if (!out || !out[0]) {
		free(out);
		print_message("# %s: cannot extract it\n", name);
		return -1;
	}
	out[strcspn(out, "\n")] = '\0';
	mt_strlcpy(root, out, len);
	free(out);
	return 0;
}

static void recorded_trees(void **state)
{
	int wrong = 0;
	(void)state;
	for (size_t i = 0; i < MT_ARRAY_LEN(recorded); i++) {
		char root[1200];
		struct machine *m = NULL;
		mt_error e = { "" };
		size_t n = 0;
		assert_int_equal(extract(recorded[i].tree, root, sizeof root), 0);
		if (machine_load(root, NULL, &m, &e) < 0)
			fail_msg("%s: %s", recorded[i].tree, e.msg);
		while (n < MT_ARRAY_LEN(recorded[i].c) && recorded[i].c[n].spec)
			n++;
		wrong += resolve_all(recorded[i].tree, m, recorded[i].c, n);
		machine_free(m);
	}
	assert_int_equal(wrong, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(syntax),
		cmocka_unit_test(synthetic_servers),
		cmocka_unit_test(no_allowed_cpu),
		MT_SKIP_IF(trees() ? NULL : "no recorded trees ($MEMTOP_HWLOC_TREES: ../shared/topo)",
			   recorded_trees),
	};
	return cmocka_run_group_tests_name("cpus", tests, testmachine_setup, testmachine_teardown);
}
