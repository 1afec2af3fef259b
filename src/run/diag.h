/* diag: the honesty diagnostics recorded with every result: was the kernel
 * optimized, how busy was the machine before and after, steal time, which
 * CPU the job ran on and whether it moved, heterogeneous cores, THP mode. */
#ifndef MEMTOP_DIAG_H
#define MEMTOP_DIAG_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "job.h"

#define DIAG_LINE 320 /* bytes in one warning line of diag_warnings() */

struct diag {
	int optimized;        /* built with optimization (__OPTIMIZE__) */
	char build[256];      /* compiler and CFLAGS */
	double load_before, load_after; /* 1-minute load average, -1 unknown */
	int running_before, running_after; /* runnable tasks incl. the reader */
	double steal_pct;     /* % of CPU time stolen by the hypervisor, -1 unknown */
	int ncpu;             /* online CPUs */
	int cpu_pinned;       /* CPU the job was pinned to, -1 none */
	int cpu_first, cpu_last; /* CPU seen at the first and last sample */
	int cpu_moved;        /* the job was seen on more than one CPU */
	int heterogeneous;
	char hetero_text[192];
	char thp[16];         /* transparent huge pages mode, "" none */
	/* the CPUs the measuring process was allowed ("0-1", "0,2"; "" not
	 * known) at diag_begin and diag_end, as the calling thread sees them:
	 * taskset or a cpuset that takes CPUs away mid-run changes them */
	char cpus_start[64], cpus_end[64];
	/* measuring threads started unpinned during the run, their CPU refused
	 * (offline, or taken away): mt_threads_unpinned() at the end less at
	 * the start */
	unsigned long unpinned, unpinned0;
	/* the core clock (GHz, 0 unknown): calibrated before the run (the one
	 * cycles are counted with), and measured with dependent adds at the
	 * run's start and end on run_ghz_cpu: the first measuring thread's CPU
	 * for a lab with threads of its own, else the job's (-1 unknown) */
	double core_ghz, run_ghz_start, run_ghz_end;
	int run_ghz_cpu;
	uint64_t ticks0, steal0; /* internal: /proc/stat at diag_begin */
};

/* Snapshot the machine before a run; pinned_cpu is the job's CPU or -1. */
void diag_begin(struct diag *d, int pinned_cpu);

/* Snapshot after the run (load, steal) and take the job's CPU tracking and
 * clocks from its final progress p (pinned CPU, where the worker was seen,
 * whether it moved, the core clock at its start and end; p NULL: a run
 * without a job keeps what diag_begin set). */
void diag_end(struct diag *d, const struct job_progress *p);

/* Warnings in words, one per line into lines[i] (at most max), for the
 * status line and the batch header: "built without optimization: the
 * mountain will be flat", "machine busy: load 1.9 on 2 CPUs", "job moved
 * from CPU 1 to 0", "heterogeneous cores: ...", "built with sanitizers:
 * timings are several times slower" (from the build string), "core clock
 * moved: ..." (the clock measured during the run more than MT_CLOCK_AGREE
 * from the calibrated one), "CPUs taken away during the run: ..." (the
 * allowed CPUs at the end differ from the start's), "N measuring threads
 * could not be pinned ..." (their CPU went offline or was taken away).
 * In the user's language (they are read, never parsed); a line holds
 * DIAG_LINE bytes, room for a Russian sentence twice the English one's.
 * Returns the count. */
int diag_warnings(const struct diag *d, char lines[][DIAG_LINE], int max);

/* The clock measured during the run furthest from the calibrated one (its
 * start or its end; 0 when neither is known). */
double diag_run_ghz(const struct diag *d);

/* The diagnostics as a JSON object (NULL out of memory); the clocks are
 * the run header's (runhdr.c writes them into its "clock" object). */
cJSON *diag_to_json(const struct diag *d);

/* Read them back; missing fields stay unknown. Never fails. */
void diag_from_json(const cJSON *obj, struct diag *d);

#endif
