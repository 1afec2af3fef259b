/* machine: the one machine context every plan is made from. Built once
 * (by `memtop run`, the terminal UI's session, `memtop topo` and `memtop
 * info`) from this machine, from a recorded Linux /sys tree (--sysfs-root
 * DIR, hwloc-gather-topology's layout) or from an hwloc XML (--topology
 * FILE.xml, as `lstopo --of xml` writes it), it holds what a plan needs:
 * the CPUs this process may use, the topology (os/topo.h), every
 * source's cache sizes with their doubts (info/info.h), each level's
 * largest claim and its credible size, memory per node and tier, the pages
 * there are (transparent huge pages, hugetlbfs sizes), whether it is a
 * VM, under which hypervisor, and the limits of the job it runs in (its
 * cgroup's memory, CPU quota, cpuset and huge pages: os/cgroup.h), from
 * which every plan takes its memory (machine_mem_budget) and its CPU
 * quota.
 *
 * Every experiment's plan is a function of (machine, options) and nothing
 * else: an experiment never loads the topology, the cache sources or the
 * allowed CPUs itself. A recorded machine is planned, never measured. */
#ifndef MEMTOP_MACHINE_H
#define MEMTOP_MACHINE_H

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>

#include "base/util.h"
#include "info/info.h"
#include "os/cgroup.h"
#include "os/conditions.h"
#include "os/topo.h"
#include "os/vm.h"

#define MACHINE_MAX_LEVELS 5   /* L1..L4 (L5: none known), index = level */
#define MACHINE_MAX_PAGES 4    /* hugetlbfs page sizes kept */
#define MACHINE_DRAM_FACTOR 4  /* a DRAM working set: at least this many x the caches its
				* CPUs reach together */
#define MACHINE_PROGRAM_ROOM (48ull << 20) /* what memtop itself takes beside a run's buffers
					    * under a job's memory limit: its code, threads,
					    * page tables, the result (the RSS of a run: 10-20M) */

/* Where a machine comes from. */
enum machine_from { MACHINE_THIS, MACHINE_SYSFS, MACHINE_XML };

/* One cache level as the plans see it. */
struct machine_level {
	int level;            /* 1..MACHINE_MAX_LEVELS; 0: no source lists it */
	uint64_t claim;       /* the largest size any source claims for one cache of
			       * this level (data or unified), doubted or not; bytes */
	char claim_from[64];  /* the sources claiming it: "sysconf, cpuid" */
	uint64_t credible;    /* the size of the most trusted source no doubt is about
			       * (info_best_size's order); 0 when every claim is doubted */
	char credible_from[16];
	char doubt[240];      /* why the claim is doubted, "" when it is not */
	int shared;           /* 1 when one cache of it serves more than one core */
};

/* What the machine offers in pages. */
struct machine_pages {
	uint64_t base;                       /* bytes of a page (4096 on most) */
	char thp[16];                        /* "always", "madvise", "never"; "" unknown */
	int nhuge;                           /* hugetlbfs page sizes recorded */
	uint64_t huge[MACHINE_MAX_PAGES];    /* their sizes, bytes */
	uint64_t huge_count[MACHINE_MAX_PAGES]; /* pages of each size set up (node 0's and
					      * the others' together) */
};

struct machine {
	enum machine_from from;
	char source[MT_PATH_MAX + 32]; /* "this machine", "DIR (a recorded /sys tree)",
					* "FILE (an hwloc XML)" */
	const struct topo *topo;       /* NULL only for this machine when hwloc cannot
					* read it */
	struct info info;              /* every cache source with its doubts */
	int *allowed;                  /* the CPUs this process may use (a recorded machine:
					* those its cgroup allowed), ascending */
	int nallowed;
	int online;                    /* CPUs online (recorded: hwloc's) */
	uint64_t mem_total;            /* bytes (recorded: its nodes' sum) */
	uint64_t mem_avail;            /* bytes a new allocation may take (recorded: the
					* total, said so in plans) */
	struct machine_level lv[MACHINE_MAX_LEVELS + 1]; /* lv[L], L = 1.. */
	struct machine_pages pages;
	struct mt_vm vm;               /* a VM or not, which hypervisor (os/vm.h) */
	struct mt_conditions cond;     /* the settings that move figures (os/conditions.h) */
	struct mt_limits limits;       /* the job's cgroup limits (os/cgroup.h; recorded: what
					* the tree holds, else not known) */
	struct topo *own_topo;         /* the topo it frees (recorded machines) */
};

/* Builds the machine this process runs on (sysfs_root and xml NULL), the
 * recorded tree under sysfs_root, or the hwloc XML xml (not both). Sets
 * *out to a new machine for machine_free. Returns 0, or -1 with e naming
 * the folder or file and what is wrong in it (then *out is NULL). This
 * machine never fails for want of hwloc: its topo is NULL then. */
int machine_load(const char *sysfs_root, const char *xml, struct machine **out, mt_error *e);

/* This machine, built on the first call (thread-safe) and kept for the
 * life of the process. Never NULL (out of memory aborts the process with
 * one line: nothing can run without it). */
const struct machine *machine_this(void);

/* Frees m (NULL is fine; machine_this()'s is never freed). */
void machine_free(struct machine *m);

/* m->lv again from m->info and m->topo (after a test changed the info). */
void machine_update_levels(struct machine *m);

/* 1 when cpu is one of m's allowed CPUs, else 0. */
int machine_allows(const struct machine *m, int cpu);

/* The CPU a pinned worker takes on m: this machine's job_pick_cpu()
 * (run/job.h) with the core type kind (-1: the default); on a recorded
 * machine the highest allowed CPU of that kind (the fastest, -1), as
 * job_pick_cpu picks on a machine memtop is not running on. -1 when none. */
int machine_worker_cpu(const struct machine *m, int kind);

/* The kinds' names ("P, E") when cpu_coretype names none of m's, into why, and
 * -1; else the kind's index into m->topo->coretypes. A machine without a
 * topology has one kind, 0. */
int machine_coretype(const struct machine *m, const char *name, char *why, size_t len);

/* Bytes of the caches of level L the CPUs cpus[0..n) reach together: each
 * distinct cache of that level among them (topo's groups) counted once, at
 * the larger of its recorded size and the level's largest claim (a source
 * claiming more is believed here: a working set meant to be outside every
 * cache must be outside that one too). Without a topology, one cache a
 * package (L3 and beyond) or a core (L1, L2). 0 when no source lists L. */
uint64_t machine_reach(const struct machine *m, int level, const int *cpus, int n);

/* MACHINE_DRAM_FACTOR x the largest machine_reach over every level: the
 * least a working set of the CPUs cpus[0..n) must hold to be measured in
 * DRAM rather than in some cache a source claims. *why gets the level that
 * sets it ("4 x the L3s of 2 groups, 2 x 320M (sysfs)"). 0 when no cache
 * is known. */
uint64_t machine_dram_floor(const struct machine *m, const int *cpus, int n, char *why,
			    size_t len);

/* The sentences about sizes and memory a plan keeps in English (a result
 * file keeps them: a size's reason, a note), marked for the catalogue and
 * shown through mt_gettext_stored with MACHINE_FORMS (capped "would be"
 * before capped alone). The words of what, want_why and a budget's who
 * that are messages are marked N_() where they are made. */
#define MACHINE_FLOOR_CORES N_("%d x the L%ds of %u cores, %u x %s (%s)")
#define MACHINE_FLOOR_GROUPS N_("%d x the L%ds of %u groups, %u x %s (%s)")
#define MACHINE_FLOOR_ONE N_("%d x the L%d %s (%s)")
#define MACHINE_WHO_AVAILABLE N_("%s of memory available")
#define MACHINE_WHO_THERE N_("%s of memory there")
#define MACHINE_WHO_JOB N_("this job may use %s (its cgroup)")
#define MACHINE_CAPPED N_("%s: %s capped at %s")
#define MACHINE_CAPPED_WOULD N_("%s: %s capped at %s, %s would be %s")
/* memory as mt_fmt_mem writes it (base/i18n.c's mt_hfmt_mem's messages) */
#define MACHINE_MEM_FORMS N_("%.1f TB"), N_("%.1f GB"), N_("%llu MB"), N_("%llu KB")
#define MACHINE_FORMS                                                                          \
	MACHINE_FLOOR_CORES, MACHINE_FLOOR_GROUPS, MACHINE_FLOOR_ONE, MACHINE_WHO_AVAILABLE,   \
		MACHINE_WHO_THERE, MACHINE_WHO_JOB, MACHINE_CAPPED_WOULD, MACHINE_CAPPED,      \
		MACHINE_MEM_FORMS

/* The deepest level whose reach for cpus[0..n) holds bytes (the working set
 * fits there), or 0 when it fits none; *beyond 1 when bytes is past every
 * level but under the DRAM floor (part of it may be served from a cache). */
int machine_level_of(const struct machine *m, uint64_t bytes, const int *cpus, int n,
		     int *beyond);

/* The words for where a working set of bytes sits for cpus: "L1", "L2",
 * "L3", "DRAM", or "L3+DRAM" past the caches but under the DRAM floor.
 * Returns buf. */
const char *machine_level_name(const struct machine *m, uint64_t bytes, const int *cpus, int n,
			       char *buf, size_t len);

/* The allowed CPUs of core type k (an index into m->topo->coretypes; -1: all)
 * into cpus, at most cap, ascending. Returns the count. */
int machine_coretype_cpus(const struct machine *m, int k, int *cpus, int cap);

/* The CPUs of node index i (into m->topo->nodes) this process may use,
 * those whose nearest node it is, into cpus (at most cap). Returns the
 * count: 0 for a memory-only node. */
int machine_node_cpus(const struct machine *m, int i, int *cpus, int cap);

/* The CPUs the CPU list spec names on m, in memtop's one grammar
 * (base/cpuspec.h: "0-3,8", "0-15:2", S<n> a package, D<n> a die, N<n> a
 * NUMA node's CPUs, L3:<n> an L3 group, C one CPU of each core, P E big
 * LITTLE a core type, each with ":0-3" or ":0-15:2" for some of its CPUs),
 * into cpus (at most cap) in the order given, a domain's CPUs ascending: its
 * CPUs this process may use (on a recorded machine, those its cgroup
 * allowed). CPUs named by number are taken as they are (the caller checks
 * what it needs of them). said (may be NULL) gets each domain in words,
 * "S0:0-3 = CPUs 0,1,2,3", "; " between two ("" when spec names none).
 * Returns the count, or -1 with e in one line naming the part: the
 * grammar's faults (cpuspec.h), "S2: this machine has packages 0 and 1",
 * "N1: NUMA node 1 has no CPUs (memory only)", "X: the core types of this
 * machine are P, E", "S1: none of the CPUs of package 1 is one this process
 * may use (...)", "S0:0-99: package 0 has 16 CPUs this process may use
 * (indexes 0-15)", "CPU 3 is given twice (again by N0)", "more than CAP
 * CPUs" ("that machine" for a recorded one). */
int machine_cpus(const struct machine *m, const char *spec, int *cpus, int cap, char *said,
		 size_t len, mt_error *e);

/* A topology file (`memtop topo --json`) as a result kind: what `memtop
 * view` opens it as (the Topology tab shows it). Its result is a struct
 * run_header whose topology and conditions are the file's. */
struct result_kind;
extern const struct result_kind kind_topo;

/* Where m comes from for people, in their language: "this machine",
 * "DIR (a recorded /sys tree)", "FILE (an hwloc XML)" (m->source is the
 * same in English, as the plan's JSON keeps it). Returns buf. */
const char *machine_source_text(const struct machine *m, char *buf, size_t len);

/* The machine in one line for people, in their language: "1 package, 1
 * NUMA node, ...; a VM (KVM)". Returns buf. */
const char *machine_summary(const struct machine *m, char *buf, size_t len);

/* What a run may take of memory (machine_mem_budget). */
struct machine_budget {
	uint64_t bytes;  /* a run's buffers together, at most; 0 not known (the run tries:
			  * mmap tells) */
	uint64_t job;    /* the job's memory limit when it sets bytes, else 0 */
	char who[240];   /* who says so: "this job may use 768M (memory.limit_in_bytes of
			  * /job_5)", "1.5 GB of memory available" */
};

/* The memory a run on m may take, into b: the least of the memory
 * available (MemAvailable; a recorded machine: its nodes' memory) and what
 * the job's cgroup limits leave (its limit less what the job uses, less
 * MACHINE_PROGRAM_ROOM for memtop itself), both read again now on this
 * machine (a session's results take some). Every plan sizes from it; each
 * experiment takes its share of it. Never fails. */
void machine_mem_budget(const struct machine *m, struct machine_budget *b);

/* The sentence a plan says when b capped what it would take: "this job
 * may use 768M (memory.max of /job_5): sizes capped at 256M, 4 x the L3
 * 508M (cpuid) would be 2G" (what: "sizes"; capped: what is kept; wanted,
 * want_why: what the plan would have taken and why). Returns buf. */
const char *machine_budget_capped(const struct machine_budget *b, const char *what,
				  uint64_t capped, uint64_t wanted, const char *want_why,
				  char *buf, size_t len);

/* The job's limits in one line, as plans, `memtop topo` and `info` say
 * them: "job: cgroup memory 768M, cpu quota 0.5 CPU (memory.limit_in_bytes
 * of /job_5; cpu.cfs_quota_us of /job_5)", "job: no limits", "job: not
 * known (...)". Returns buf. */
const char *machine_job_line(const struct machine *m, char *buf, size_t len);

/* The job's limits as `memtop topo` and `memtop info` show them: each
 * limit on a line with the file and cgroup that set it, the lines of the
 * cgroup files that did not parse; with budget, what a run may take of
 * it. One line "job: no limits (cgroup /x)" or "job: not known (why)"
 * when there are none. */
void machine_job_print(FILE *f, const struct machine *m, int budget);

/* The machine as a plan's JSON names it: {"source","cpus","allowed_cpus",
 * "online","nodes","packages","cores","memory","l3_groups":[{"size",
 * "cpus"}],"levels":[{"level","claim","claim_from","credible",
 * "credible_from","doubt","shared"}],"pages":{"base","thp","huge":[..]},
 * "vm":{"vm","hypervisor","why"},"job":{mt_limits_to_json},"budget"}. NULL when out of memory. */
cJSON *machine_to_json(const struct machine *m);

#endif
