/* plan: what a run will measure, made from (machine, options) and nothing
 * else, in one shape every experiment fills: its working sets by level
 * (each thread's or all threads'), its thread counts and their CPUs, its
 * pairs of CPUs, its NUMA nodes, its largest size, its notes and about how
 * long it takes. `memtop run X --plan` prints it (or writes it as JSON with
 * --json) and measures nothing; the run itself measures what its plan
 * says. The invariants tests hold every experiment's plan to on recorded
 * and synthetic machines (tests/test_plans.c) read this shape. The
 * command-line side (--plan, --sysfs-root, --topology: the machine a run
 * plans for, the plan printed) is the protocol's (protocol/protocol.h). */
#ifndef MEMTOP_MACHINE_PLAN_H
#define MEMTOP_MACHINE_PLAN_H

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>

#include "machine.h"

#define PLAN_MAX_SIZES 96
#define PLAN_MAX_NOTES 12
#define PLAN_NOTE_LEN 640 /* room for a Russian note twice the English one */

/* One working set. */
struct plan_size {
	char level[16];  /* where it sits: "L1".."L4", "DRAM", "L3+DRAM" (past every cache
			  * but under the DRAM floor); "" a size of the grid */
	uint64_t bytes;  /* each thread's when each_thread, each L3 group's when each_group
			  * (its threads share it), else all threads' together */
	int each_thread;
	int each_group;
	char why[480];   /* how it was chosen: "half the L2 2M (sysfs), each thread" */
};

/* One thread count and the CPUs its threads run on, in order. */
struct plan_threads {
	int count;
	int ncpus;
	int *cpus;
};

/* One NUMA node of the plan. */
struct plan_node {
	int node;         /* the OS's number */
	char tier[16];    /* hwloc's subtype ("DRAM", "HBM", "NVM"...), "" unknown */
	uint64_t memory;  /* bytes */
	int ncpus;        /* the CPUs whose nearest node it is, allowed (0: memory-only) */
	int own;          /* those CPUs, allowed or not (0: a memory-only node) */
	char cpus[160];   /* those CPUs as a list, "" when none */
};

struct plan {
	char experiment[16];
	const struct machine *m;
	int worker_cpu;                 /* the pinned worker's CPU; -1 none or several */
	struct plan_size sizes[PLAN_MAX_SIZES];
	size_t nsizes;
	struct plan_threads *threads;
	size_t nthreads, threads_cap;
	int (*pairs)[2];                /* CPU pairs, or (pairs_nodes) node pairs */
	int pairs_nodes;                /* the pairs are (CPU node, memory node) */
	size_t npairs, pairs_cap;
	struct plan_node *nodes;
	size_t nnodes, nodes_cap;
	uint64_t max_size;              /* the largest working set; 0 when none */
	double estimate_s;              /* about how long the run takes; 0 unknown */
	char notes[PLAN_MAX_NOTES][PLAN_NOTE_LEN];
	int nnotes;
	int human; /* the notes in the user's language (--plan's text), else in
		    * English (--plan --json's, what machines read) */
};

/* An empty plan of experiment exp on m, in English (human 0). */
void plan_init(struct plan *p, const char *exp, const struct machine *m);

/* Frees what p holds (p itself is the caller's). */
void plan_free(struct plan *p);

/* Appends a working set (max_size follows). Returns 0, or -1 when the plan
 * is full. */
int plan_add_size(struct plan *p, const char *level, uint64_t bytes, int each_thread,
		  int each_group, const char *why);

/* Appends a thread count with the CPUs cpus[0..ncpus) its threads take.
 * Returns 0, or -1 out of memory. */
int plan_add_threads(struct plan *p, int count, const int *cpus, int ncpus);

/* Appends the CPU pair (a, b). Returns 0, or -1 out of memory. */
int plan_add_pair(struct plan *p, int a, int b);

/* Appends a node. Returns 0, or -1 out of memory. */
int plan_add_node(struct plan *p, const struct plan_node *n);

/* Appends a note as it is (dropped when PLAN_MAX_NOTES are there). */
void plan_note(struct plan *p, const char *fmt, ...) MT_PRINTF(2, 3);

/* Appends a note in the plan's words: fmt (marked N_()) translated and its
 * fractions with the user's decimal separator when p->human, else English
 * with '.'. plan_say_n: a count's note, one or many by n (MT_NGETTEXT). */
void plan_say(struct plan *p, const char *fmt, ...) MT_PRINTF(2, 3);
void plan_say_n(struct plan *p, const char *one, const char *many, unsigned long n, ...)
	MT_PRINTF(3, 5);

/* A phrase in the plan's words (a part of a note: a reason, a list's
 * head): _(en) when p->human, else en. */
const char *plan_words(const struct plan *p, const char *en) __attribute__((format_arg(2)));
/* A count's phrase in the plan's words: one or many by n. */
const char *plan_words_n(const struct plan *p, const char *one, const char *many, unsigned long n)
	__attribute__((format_arg(2))) __attribute__((format_arg(3)));

/* The plan in words on f: the machine, the job's limits ("# job: ...",
 * and a line for each cgroup file that did not parse), the worker, the
 * sizes with their levels and reasons, the thread counts with their CPUs,
 * the pairs (the first ones and how many), the nodes, the notes and the
 * time. */
void plan_print(FILE *f, const struct plan *p);

/* The plan as JSON: {"experiment","machine":{machine_to_json},"worker_cpu",
 * "sizes":[{"level","bytes","each_thread","each_group","why"}],"threads":[{"count",
 * "cpus"}],"pairs":[[a,b]...],"nodes":[{"node","tier","memory","cpus"}],
 * "max_size","estimate_s","notes"}; the lists an experiment does not fill
 * are empty. NULL when out of memory. */
cJSON *plan_to_json(const struct plan *p);

#endif
