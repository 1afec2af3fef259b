/* Unit tests of a job's limits (os/cgroup.h) on recorded cgroup trees
 * (tests/data/cgroup/, see tests/data/README): Slurm's v1 nesting, where
 * job_7 holds the limit and task_0 reads unlimited; v2 with memory.max on
 * the job and memory.high below it; a container's mount of its own
 * cgroup; files garbled in their own ways (v2 and v1); a tree with none.
 * Then the parsers, the words, the JSON both ways, the quota's sentence
 * and the memory budget a plan takes from them (machine/machine.h).
 * Nothing here reads this machine. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/machine.h"
#include "os/cgroup.h"
#include "testlib.h"

#define MB (1ull << 20)

/* The limits of tests/data/cgroup/NAME. */
static void read_tree(const char *name, struct mt_limits *l)
{
	const char *data = getenv("TESTDATA");
	char root[MT_PATH_MAX];
	assert_non_null(data);
	mt_snprintf(root, sizeof root, "%s/cgroup/%s", data, name);
	mt_limits_read(root, l);
}

static const char *summary(const struct mt_limits *l)
{
	static char buf[512];
	return mt_limits_summary(l, buf, sizeof buf);
}

/* What a recorded tree's limits read as (NULL, -1: not checked there). */
struct tree_want {
	const char *tree;
	uint64_t mem;
	const char *mem_from;
	uint64_t room;
	double quota;
	const char *quota_from, *cpuset;
	int nhuge; /* then the first hugetlb limit: its page size, its bytes */
	uint64_t huge_page, huge_bytes;
	int nnotes;
	const char *summary;
};

/* Slurm on cgroup v1: the limits are the ancestors' (job_7, step_0), the
 * least of each kept with the cgroup that set it; the room is the least of
 * limit - usage over the limited cgroups (job_7's: 300M - 50M).
 * cgroup v2: memory.max on the job, memory.high on its step (the tighter:
 * its room 512M - 16M), cpu.max, the cpuset's effective CPUs, a 1 GB
 * hugetlb limit ("max" for 2 MB pages: none).
 * A container's hierarchies mounted from its own cgroup: the path less the
 * mount's root is "/", whose files are the container's limits. */
static const struct tree_want trees[] = {
	{ "v1-slurm", 300 * MB, "memory.limit_in_bytes of /slurm_localhost/uid_0/job_7", 250 * MB,
	  1.5, "cpu.cfs_quota_us of /slurm_localhost/uid_0/job_7", "2-3", 1, 2 * MB, 1024 * MB, 0,
	  "cgroup memory 300M, soft limit 256M, cpu quota 1.5 CPUs, "
	  "cpuset 2-3, hugetlb 2M pages 1G" },
	{ "v2-slurm", 768 * MB, "memory.max of /system.slice/slurmstepd.scope/job_12", 496 * MB,
	  0.5, "cpu.max of /system.slice/slurmstepd.scope/job_12", "1", 1, 1024 * MB, 2048 * MB, 0,
	  "cgroup memory 768M, memory.high 512M, cpu quota 0.5 CPU, "
	  "cpuset 1, hugetlb 1G pages 2G" },
	{ "v1-container", 256 * MB, NULL, 248 * MB, 2, NULL, NULL, -1, 0, 0, -1,
	  "cgroup memory 256M, cpu quota 2 CPUs" },
};

static void trees_read(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof trees / sizeof *trees; i++) {
		const struct tree_want *w = &trees[i];
		struct mt_limits l;
		read_tree(w->tree, &l);
		assert_int_equal(l.mem.bytes, w->mem);
		if (w->mem_from)
			assert_string_equal(l.mem.from, w->mem_from);
		assert_int_equal(l.room, w->room);
		assert_true(l.quota == w->quota);
		if (w->quota_from)
			assert_string_equal(l.quota_from, w->quota_from);
		if (w->cpuset)
			assert_string_equal(l.cpuset, w->cpuset);
		if (w->nhuge >= 0) {
			assert_int_equal(l.nhuge, w->nhuge);
			assert_int_equal(l.huge[0].page, w->huge_page);
			assert_int_equal(l.huge[0].lim.bytes, w->huge_bytes);
		}
		if (w->nnotes >= 0)
			assert_int_equal(l.nnotes, w->nnotes);
		assert_string_equal(summary(&l), w->summary);
	}
}

/* v1-slurm's other limits: the soft limit, memsw, the quota's parts. */
static void v1_slurm(void **state)
{
	struct mt_limits l;
	(void)state;
	read_tree("v1-slurm", &l);
	assert_int_equal(l.known, 1);
	assert_int_equal(l.version, 1);
	assert_string_equal(l.cgroup, "/slurm_localhost/uid_0/job_7/step_0/task_0");
	assert_int_equal(l.soft.bytes, 256 * MB);
	assert_string_equal(l.soft.from,
			    "memory.soft_limit_in_bytes of /slurm_localhost/uid_0/job_7/step_0");
	assert_int_equal(l.memsw.bytes, 600 * MB);
	assert_int_equal(l.high.bytes, 0);
	assert_int_equal(l.quota_us, 150000);
	assert_int_equal(l.period_us, 100000);
	assert_int_equal(l.ncpuset, 2);
}

/* v2-slurm's memory.high, the tighter limit mt_limits_memory gives. */
static void v2_slurm(void **state)
{
	struct mt_limits l;
	const char *from;
	(void)state;
	read_tree("v2-slurm", &l);
	assert_int_equal(l.version, 2);
	assert_int_equal(l.high.bytes, 512 * MB);
	assert_int_equal(mt_limits_memory(&l, &from), 512 * MB);
	assert_string_equal(from, "memory.high of /system.slice/slurmstepd.scope/job_12/step_0");
}

/* The container's cgroup, "/". */
static void container(void **state)
{
	struct mt_limits l;
	(void)state;
	read_tree("v1-container", &l);
	assert_string_equal(l.cgroup, "/");
}

/* The lines of v2-garbled, then of v1-garbled. */
static const char *const v2_garbled_notes[] = {
	"/sys/fs/cgroup/user.slice/memory.max: 'lots' is not a size in bytes nor max: read as no "
	"limit there",
	"/sys/fs/cgroup/user.slice/job/cpu.max: 'half' is not a quota and a period (such as 50000 "
	"100000): read as no quota there",
	"/sys/fs/cgroup/user.slice/cpu.max: '0 100000' is a quota or period of 0 or less, which no "
	"kernel takes: read as no quota there",
	"/sys/fs/cgroup/user.slice/job/cpuset.cpus.effective: '0-' is not a CPU list: read as "
	"every CPU",
	"/sys/fs/cgroup/user.slice/job/memory.current: 'x' is not a number of bytes: the usage "
	"read as none",
};
static const char *const v1_garbled_notes[] = {
	"/sys/fs/cgroup/memory/job/memory.limit_in_bytes: 'max' is not a size in bytes: read as no "
	"limit there",
	"/sys/fs/cgroup/cpu,cpuacct/job/cpu.cfs_quota_us: '-5' is a quota of 0 or less, which no "
	"kernel takes: read as no quota there",
};

/* Every file wrong in its own way: one line each naming the file, what is
 * wrong and the fallback; what did parse is kept. */
static void garbled(void **state)
{
	struct mt_limits l;
	(void)state;
	read_tree("v2-garbled", &l);
	assert_int_equal(l.known, 1);
	assert_int_equal(l.mem.bytes, 0);
	assert_int_equal(l.high.bytes, 512 * MB);
	assert_int_equal(l.room, 512 * MB);
	assert_true(l.quota == 0);
	assert_int_equal(l.ncpuset, 0);
	MT_ASSERT_LINES(l.notes, l.nnotes, v2_garbled_notes);
	assert_string_equal(summary(&l), "memory.high 512M");
	read_tree("v1-garbled", &l);
	MT_ASSERT_LINES(l.notes, l.nnotes, v1_garbled_notes);
	assert_string_equal(summary(&l), "no limits");
}

/* A recorded tree without cgroup files (hwloc's trees carry none): not
 * known, said. */
static void none(void **state)
{
	struct mt_limits l;
	(void)state;
	read_tree("none", &l);
	assert_int_equal(l.known, 0);
	assert_string_equal(summary(&l), "not known (no proc/self/cgroup in the recorded tree)");
}

static void parsers(void **state)
{
	uint64_t b, q, p;
	(void)state;
	assert_int_equal(mt_cgroup_parse_bytes("805306368", &b), 0);
	assert_int_equal(b, 768 * MB);
	assert_int_equal(mt_cgroup_parse_bytes("max", &b), 0);
	assert_int_equal(b, 0);
	assert_int_equal(mt_cgroup_parse_bytes("9223372036854771712", &b), 0);
	assert_int_equal(b, 0);
	assert_int_equal(mt_cgroup_parse_bytes("-1", &b), -1);
	assert_int_equal(mt_cgroup_parse_bytes("12 MB", &b), -1);
	assert_int_equal(mt_cgroup_parse_bytes("", &b), -1);
	assert_int_equal(mt_cgroup_parse_cpu_max("50000 100000", &q, &p), 0);
	assert_int_equal(q, 50000);
	assert_int_equal(p, 100000);
	assert_int_equal(mt_cgroup_parse_cpu_max("max 250000", &q, &p), 0);
	assert_int_equal(q, 0);
	assert_int_equal(p, 250000);
	assert_int_equal(mt_cgroup_parse_cpu_max("0 100000", &q, &p), -2);
	assert_int_equal(mt_cgroup_parse_cpu_max("-5 100000", &q, &p), -2);
	assert_int_equal(mt_cgroup_parse_cpu_max("50000 0", &q, &p), -2);
	assert_int_equal(mt_cgroup_parse_cpu_max("half", &q, &p), -1);
	assert_int_equal(mt_cgroup_parse_cpu_max("1 2 3", &q, &p), -1);
	assert_int_equal(mt_cgroup_parse_cpu_max("", &q, &p), -1);
	assert_int_equal(mt_cgroup_count_cpus("0-3,8"), 5);
	assert_int_equal(mt_cgroup_count_cpus("0-"), -1);
}

/* What is written is read back as it was; an older file without "job" is
 * not known, "not recorded". */
static void json_both_ways(void **state)
{
	struct mt_limits l, back;
	cJSON *o;
	char a[512];
	(void)state;
	read_tree("v1-slurm", &l);
	o = mt_limits_to_json(&l);
	assert_non_null(o);
	mt_limits_from_json(o, &back);
	cJSON_Delete(o);
	assert_string_equal(mt_limits_summary(&back, a, sizeof a), summary(&l));
	assert_int_equal(back.mem.bytes, l.mem.bytes);
	assert_string_equal(back.mem.from, l.mem.from);
	assert_int_equal(back.room, l.room);
	assert_true(back.quota == l.quota);
	assert_string_equal(back.quota_from, l.quota_from);
	assert_int_equal(back.ncpuset, 2);
	assert_int_equal(back.huge[0].lim.bytes, l.huge[0].lim.bytes);
	read_tree("v2-garbled", &l);
	o = mt_limits_to_json(&l);
	mt_limits_from_json(o, &back);
	cJSON_Delete(o);
	assert_int_equal(back.nnotes, 5);
	assert_string_equal(back.notes[4], l.notes[4]);
	read_tree("none", &l);
	o = mt_limits_to_json(&l);
	mt_limits_from_json(o, &back);
	cJSON_Delete(o);
	assert_int_equal(back.known, 0);
	assert_string_equal(back.why, "no proc/self/cgroup in the recorded tree");
	mt_limits_from_json(NULL, &back);
	assert_string_equal(mt_limits_summary(&back, a, sizeof a),
			    "not known (not recorded (an import, or an older file))");
}

/* A quota under the threads of a run is said, with the file that set it;
 * at or over them nothing. */
static void quota_note(void **state)
{
	struct mt_limits l;
	char note[400];
	(void)state;
	read_tree("v2-slurm", &l);
	assert_int_equal(mt_limits_quota_note(&l, 1, note, sizeof note), 1);
	assert_string_equal(note, "the job's cpu quota is 0.5 CPU (cpu.max of "
				  "/system.slice/slurmstepd.scope/job_12), under the one thread of "
				  "this run: it runs at most 50 ms of each 100 ms period, so a try "
				  "across a pause reads slow (the best of the tries is kept)");
	read_tree("v1-slurm", &l);
	assert_int_equal(mt_limits_quota_note(&l, 1, note, sizeof note), 0);
	assert_string_equal(note, "");
	assert_int_equal(mt_limits_quota_note(&l, 2, note, sizeof note), 1);
	assert_non_null(strstr(note, "1.5 CPUs (cpu.cfs_quota_us of /slurm_localhost/uid_0/job_7), "
				     "under the 2 threads of this run"));
	read_tree("none", &l);
	assert_int_equal(mt_limits_quota_note(&l, 64, note, sizeof note), 0);
}

/* The budget a plan takes: the least of the memory there and what the
 * job's limits leave, less memtop's own room; named for the job. */
static void budget(void **state)
{
	struct machine m;
	struct machine_budget b;
	char note[400];
	(void)state;
	memset(&m, 0, sizeof m);
	m.from = MACHINE_SYSFS;
	m.mem_avail = 16384 * MB;
	read_tree("v1-slurm", &m.limits);
	machine_mem_budget(&m, &b);
	assert_int_equal(b.bytes, 250 * MB - MACHINE_PROGRAM_ROOM);
	assert_int_equal(b.job, 300 * MB);
	assert_string_equal(b.who, "this job may use 300M (its cgroup)");
	assert_string_equal(machine_budget_capped(&b, "sizes", 64 * MB, 2048 * MB,
						  "4 x the L3 508M (cpuid)", note, sizeof note),
			    "this job may use 300M (its cgroup): sizes capped at 64M, 4 x the L3 "
			    "508M (cpuid) would be 2G");
	m.mem_avail = 100 * MB; /* less memory there than the job may take: the memory's */
	machine_mem_budget(&m, &b);
	assert_int_equal(b.bytes, 100 * MB);
	assert_int_equal(b.job, 0);
	assert_string_equal(b.who, "100 MB of memory there");
	read_tree("none", &m.limits);
	m.mem_avail = 16384 * MB;
	machine_mem_budget(&m, &b);
	assert_int_equal(b.bytes, 16384 * MB);
	assert_string_equal(b.who, "16.0 GB of memory there");
	/* a job with less left than memtop's own room: 1 byte, nothing fits */
	read_tree("v1-slurm", &m.limits);
	m.limits.room = 10 * MB;
	machine_mem_budget(&m, &b);
	assert_int_equal(b.bytes, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(trees_read),
		cmocka_unit_test(v1_slurm),     cmocka_unit_test(v2_slurm),
		cmocka_unit_test(container),    cmocka_unit_test(garbled),
		cmocka_unit_test(none),         cmocka_unit_test(parsers),
		cmocka_unit_test(json_both_ways), cmocka_unit_test(quota_note),
		cmocka_unit_test(budget),
	};
	return cmocka_run_group_tests_name("cgroup", tests, NULL, NULL);
}
