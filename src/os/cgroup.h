/* cgroup: the limits of the job this process runs in, read from its
 * control groups, version 1 and 2 (Slurm's --mem and --cpus-per-task,
 * docker's --memory and --cpus, systemd's MemoryMax and CPUQuota): the
 * memory it may use (v2 memory.max and memory.high; v1
 * memory.limit_in_bytes, memory.soft_limit_in_bytes and
 * memory.memsw.limit_in_bytes), its CPU quota (v2 cpu.max; v1
 * cpu.cfs_quota_us over cpu.cfs_period_us), the CPUs of its cpuset
 * (cpuset.cpus.effective, cpuset.effective_cpus, cpuset.cpus) and its huge
 * pages (hugetlb.SIZE.max, hugetlb.SIZE.limit_in_bytes). The process's own
 * cgroup comes from /proc/self/cgroup, where each hierarchy is mounted from
 * /proc/self/mountinfo (else /proc/mounts, else the usual /sys/fs/cgroup
 * layout), and each limit is the least of the cgroup's and its ancestors':
 * Slurm puts the limit on job_N while its task_0 reads unlimited.
 *
 * Everything is read under a root: "" this machine, or a recorded tree's
 * folder holding proc/self/cgroup and the cgroup files at their paths
 * (tests/data/cgroup/). A file that does not parse is one line naming it
 * and the fallback taken (notes); nothing here fails. */
#ifndef MEMTOP_OS_CGROUP_H
#define MEMTOP_OS_CGROUP_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#define MT_CG_FROM 192   /* "memory.max of /slurm/uid_0/job_5" */
#define MT_CG_NOTES 6    /* bad input lines kept */
#define MT_CG_NOTE 320
#define MT_CG_HUGE 4     /* huge page sizes kept */

/* One memory limit: the least over the cgroup and its ancestors. */
struct mt_cg_limit {
	uint64_t bytes;        /* 0: no limit */
	char from[MT_CG_FROM]; /* which file of which cgroup set it: "memory.max of /job_5" */
};

/* A hugetlb limit of one page size. */
struct mt_cg_huge {
	uint64_t page;          /* the page's bytes (2097152) */
	struct mt_cg_limit lim; /* the bytes of such pages the job may take */
};

/* The job's limits. */
struct mt_limits {
	int known;                  /* 1: read (limits or none); 0: not known, why says */
	char why[200];              /* "no proc/self/cgroup in the recorded tree" */
	int version;                /* 2: the unified hierarchy holds the memory controller,
				     * 1: a v1 hierarchy does; 0: none found (no limits) */
	char cgroup[MT_CG_FROM];    /* the process's cgroup (the memory controller's) */
	struct mt_cg_limit mem;     /* hard: v2 memory.max, v1 memory.limit_in_bytes */
	struct mt_cg_limit high;    /* v2 memory.high: above it the job is throttled */
	struct mt_cg_limit soft;    /* v1 memory.soft_limit_in_bytes: reclaimed toward it
				     * when the machine runs short */
	struct mt_cg_limit memsw;   /* v1 memory.memsw.limit_in_bytes: memory and swap */
	uint64_t room;              /* bytes the limits left when read: the least of limit -
				     * usage over every limited cgroup (memory.current,
				     * memory.usage_in_bytes); 0 when no limit */
	double quota;               /* CPUs the quota gives (quota / period); 0: none */
	uint64_t quota_us, period_us; /* the tightest quota and its period */
	char quota_from[MT_CG_FROM];
	char cpuset[160];           /* the cpuset's CPUs ("0-1") when it allows fewer than
				     * its hierarchy's root; "" not restricted */
	int ncpuset;                /* how many CPUs that is (0: not restricted) */
	char cpuset_from[MT_CG_FROM];
	int nhuge;
	struct mt_cg_huge huge[MT_CG_HUGE];
	int nnotes;                 /* files that did not parse, one line each */
	char notes[MT_CG_NOTES][MT_CG_NOTE];
};

/* The limits of the process whose files are under root ("" this
 * machine; a recorded tree's folder) into l. A tree without
 * proc/self/cgroup leaves them not known (l->known 0, why said). Never
 * fails: a file that does not parse is a line in l->notes naming it and
 * the fallback (no limit from that file, every CPU). */
void mt_limits_read(const char *root, struct mt_limits *l);

/* This machine's, read on the first call (thread-safe). Never NULL. */
const struct mt_limits *mt_limits_this(void);

/* This machine's room now: the least of limit - usage over its limited
 * cgroups, the usage read again (a session's results take some); 0 when
 * no memory limit. */
uint64_t mt_limits_room_this(void);

/* The limits in words, as the run header's job line says them: "cgroup
 * memory 768M, cpu quota 0.5 CPU", "cpuset 0-1", "no limits", "not known
 * (why)". Returns buf. */
const char *mt_limits_summary(const struct mt_limits *l, char *buf, size_t len);
/* The same for people, in their language ("память cgroup 768 МБ, квота ЦП
 * 0,5 ЦП"); mt_limits_summary's English is what the JSON keeps, and its
 * why (a fixed note) is shown translated. Returns buf. */
const char *mt_limits_summary_text(const struct mt_limits *l, char *buf, size_t len);

/* When the job's CPU quota is under threads (the most a run measures with
 * at once), the sentence that says so into buf ("the job's cpu quota is
 * 0.5 CPU (cpu.max of /job_5), under the 2 threads of this run: they take
 * turns within each 100 ms period, ...") and 1; else 0 (buf ""). */
int mt_limits_quota_note(const struct mt_limits *l, int threads, char *buf, size_t len);

/* The tightest memory limit of l (memory.max, memory.high, memsw; bytes,
 * 0 none), its file into from (may be NULL). */
uint64_t mt_limits_memory(const struct mt_limits *l, const char **from);

/* As JSON: {"summary","version","cgroup","memory","memory_from","memory_high",
 * "memory_high_from","soft_limit","soft_limit_from","memsw","memsw_from",
 * "room","cpu_quota","cpu_quota_us","cpu_period_us","cpu_quota_from",
 * "cpuset","cpuset_from","hugetlb":[{"page","bytes","from"}],"notes":[..]}
 * (a limit not set is left out); not known: {"unknown": why}. NULL when out
 * of memory. */
cJSON *mt_limits_to_json(const struct mt_limits *l);

/* Read that shape back: o NULL or not an object (an older file) leaves l
 * not known, "not recorded"; strings made printable, a field of the wrong
 * type left unset. */
void mt_limits_from_json(const cJSON *o, struct mt_limits *l);

/* ---- the parsers (tests and the fuzz harness call them) --------------- */

/* A memory limit file's text ("805306368\n", "max"): its bytes into *bytes
 * (0: no limit, "max" or v1's 9223372036854771712). Returns 0, or -1 when
 * it is neither a number nor "max". */
int mt_cgroup_parse_bytes(const char *text, uint64_t *bytes);

/* cpu.max's text ("50000 100000", "max 100000"): *quota_us (0: "max", no
 * quota) and *period_us. Returns 0, -1 when garbled, -2 when the quota or
 * the period is 0 or negative. */
int mt_cgroup_parse_cpu_max(const char *text, uint64_t *quota_us, uint64_t *period_us);

/* How many CPUs a CPU list ("0-3,8") names; -1 when it is not one. */
int mt_cgroup_count_cpus(const char *list);

#endif
