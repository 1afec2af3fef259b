/* runhdr: the run header every result carries: where and how it was
 * measured (version, machine, date, build, clock, diagnostics), its JSON
 * fields and its "# ..." text form above a batch table. */
#ifndef MEMTOP_RUNHDR_H
#define MEMTOP_RUNHDR_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "os/cgroup.h"
#include "os/clock.h"
#include "diag.h"
#include "os/conditions.h"
#include "os/machine_id.h"
#include "os/vm.h"

/* Where the measuring CPU sits in the machine (os/topo), as far as known. */
struct run_place {
	int known;     /* 0: not recorded (no pinned job, a foreign file, no hwloc) */
	int cpu;
	char kind[16]; /* core type ("P", "E", "big", "LITTLE", "one"); "" unknown */
	int l3;	       /* L3 group, NUMA node (OS index), package: -1 unknown */
	int node;
	int package;
};

/* What every result says about where and how it was measured. */
struct run_header {
	char version[32];   /* memtop version that measured */
	char hardware[256]; /* the seed's field: "CPU (arch, OS), build, date" */
	char cpu[160];
	char kernel[160];
	char host[64];
	/* which machine (os/machine_id.h): the hash of what every user reads,
	 * and of that and the DMI product UUID (root only); "" not recorded
	 * (an import, a file from before, a run that could read none) */
	char machine_id[MT_MACHINE_ID_HEX + 1];
	char machine_dmi[MT_MACHINE_ID_HEX + 1];
	char machine_from[120]; /* what the id was made of ("machine-id, MAC of eth0") */
	int quick;          /* 1 --quick, 2 a full run, 0 not recorded (the TUI, imports, older
			     * files) */
	double mem_bytes;   /* the machine's memory (MemTotal), 0 unknown */
	char date[32];      /* "YYYY-MM-DD HH:MM" */
	char build[256];    /* compiler and flags */
	struct mt_clock clock;
	/* a file that cannot say its core clock (Apple publishes none) may
	 * carry an upper bound and a sentence why ("clock": {"core_ghz_max",
	 * "note"}); 0 and "" otherwise */
	double ghz_bound;
	char clock_note[200];
	struct diag diag;
	int has_diag;       /* diag was recorded (false for foreign files) */
	struct run_place place; /* where the job's CPU sits ("place" in JSON) */
	struct mt_vm vm;    /* a VM or not, under which hypervisor ("vm" in JSON) */
	struct mt_conditions cond; /* the settings that move figures ("conditions";
				    * cond.have 0: an older file without them) */
	int has_vm;         /* vm was recorded (false for older and foreign files) */
	struct mt_limits job; /* the job's cgroup limits ("job" in JSON; job.known 0 and
			       * has_job 0: an older file without them) */
	int has_job;
	/* the machine's topology ("topology" in JSON: topo_to_json's shape),
	 * a handle of run_topology_intern; 0: none (older and foreign files) */
	int topology;
};

/* A topology JSON (os/topo.h's topo_to_json shape), kept for the life of
 * the process, once a machine: its handle (> 0; an equal tree gets the
 * same one, so two results of one machine have one handle), or 0 when
 * tree is not an object, memory ran out or 4096 machines are kept already.
 * Thread-safe. */
int run_topology_intern(const cJSON *tree);

/* The tree of handle h (shared and never changed: do not modify or free
 * it), or NULL for 0 or a handle never given. Thread-safe. */
const cJSON *run_topology_json(int h);

/* This machine's topology's handle (its topo_to_json, kept at the first
 * call), 0 when hwloc could not read it. */
int run_topology_this(void);

/* Fill h for a run starting now on this machine (calibrates the clock,
 * snapshots the diagnostics with the job's CPU, and where that CPU sits:
 * its core type, L3 group, NUMA node and package, from this machine's
 * topology, loaded once, which the header keeps too: run_topology_this). */
void run_header_init(struct run_header *h, int job_cpu);

/* Whether a and b were measured on one machine: 1 when their machine ids
 * agree (and their DMI ones, where both carry one), 0 when they differ;
 * where either records none (imports, files from before), 1 when both
 * name the same host and CPU (not "" nor "localhost"), else 0. */
int run_header_same_machine(const struct run_header *a, const struct run_header *b);

/* Whether h was measured on this machine: its machine id against this
 * machine's when it records one (and this machine has one), else its host
 * against this host's name. */
int run_header_this_machine(const struct run_header *h);

/* Add the header's fields to a result object. Returns 0 or -1 (memory). */
int run_header_to_json(const struct run_header *h, cJSON *root);

/* Read a header back from a result (missing fields left empty). */
void run_header_from_json(const cJSON *root, struct run_header *h);

/* The batch header: "# memtop 0.1.0 on HOST, CPU, date, build" lines,
 * the conditions, the job's limits ("# job: cgroup memory 768M, cpu quota
 * 0.5 CPU", "# job: no limits", and a line for each cgroup file that did
 * not parse), plus one "# warning: ..." line per diagnostic, each starting
 * with "# ". */
void run_header_print(FILE *f, const struct run_header *h);

/* The line that sets the core clock measured during the run (on the job's
 * CPU, at its start and end) beside the calibrated core clock and the tick
 * counter's rate, and whether they agree: "# core clock measured during
 * the run (dependent adds on CPU 1): 4.15 GHz at its start, 4.16 at its
 * end; calibrated 4.16 GHz, tsc 2.600 GHz: they agree within 5 %". Nothing
 * when the header has no such measurement (before the run, a foreign file). */
void run_header_print_clock(FILE *f, const struct run_header *h);

/* Fills p with where cpu sits in this machine's topology (p->known 0 when
 * cpu < 0, or the topology or the CPU is not known). */
void run_place_init(struct run_place *p, int cpu);

/* Where the job's CPU sits, in words: "CPU 1: core type one, L3 group 0,
 * NUMA node 0, package 0"; "" when not known. Returns buf. */
const char *run_place_text(const struct run_place *p, char *buf, size_t len);

#endif
