/* diag: the honesty diagnostics recorded with every result: was the kernel
 * optimized, how busy was the machine before and after, steal time, which
 * CPU the job ran on and whether it moved, heterogeneous cores, THP mode. */
#ifndef MEMTOP_DIAG_H
#define MEMTOP_DIAG_H

#include <cjson/cJSON.h>
#include <stdint.h>

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
	uint64_t ticks0, steal0; /* internal: /proc/stat at diag_begin */
};

/* Snapshot the machine before a run; pinned_cpu is the job's CPU or -1. */
void diag_begin(struct diag *d, int pinned_cpu);

/* Only the CPU tracking: pinned to pinned_cpu (-1 none), nothing seen yet.
 * For a worker that samples its CPU while the caller keeps the rest of the
 * diagnostics in its run header. */
void diag_cpu_reset(struct diag *d, int pinned_cpu);

/* Copy the CPU tracking a worker kept (diag_cpu_reset, diag_sample_cpu) into
 * the run's diagnostics d. */
void diag_take_cpu(struct diag *d, const struct diag *worker);

/* Record the CPU the worker is on now (call from the worker now and then). */
void diag_sample_cpu(struct diag *d);

/* Snapshot after the run (load, steal). */
void diag_end(struct diag *d);

/* Warnings in words, one per line into lines[i] (at most max), for the
 * status line and the batch header: "built without optimization: the
 * mountain will be flat", "machine busy: load 1.9 on 2 CPUs", "job moved
 * from CPU 1 to 0", "heterogeneous cores: ...", "built with sanitizers:
 * timings are several times slower" (from the build string). Returns the
 * count. */
int diag_warnings(const struct diag *d, char lines[][160], int max);

/* The diagnostics as a JSON object (NULL out of memory). */
cJSON *diag_to_json(const struct diag *d);

/* Read them back; missing fields stay unknown. Never fails. */
void diag_from_json(const cJSON *obj, struct diag *d);

#endif
