/* bandwidth_worker: the bandwidth lab's job (bandwidth.c, and the loaded
 * latency of bandwidth_loaded.c) and the events it streams: what each
 * cell's payload holds (bandwidth.h says how the job's events read). */
#ifndef MEMTOP_BANDWIDTH_WORKER_H
#define MEMTOP_BANDWIDTH_WORKER_H

#include <stddef.h>
#include <stdint.h>

#include "bandwidth_plan.h"
#include "base/i18n.h"
#include "base/util.h"
#include "run/job.h"

enum { BANDWIDTH_EV_TABLE = 1, BANDWIDTH_EV_LOADED };
/* The kinds of the worker's JOB_EV_NOTEs: what pages backed the table's
 * buffer (value: its bytes on huge pages; the text says it all); the load
 * ports' canary (payload struct bandwidth_ev_ports; value: its GB/s). */
enum { BANDWIDTH_NOTE_PAGES = 1, BANDWIDTH_NOTE_PORTS = 2 };

/* The notes the worker writes in English (the load ports' canaries, the
 * pages, the loaded latency's idle chase), marked for the catalogue: the
 * run and the UI say them in the user's language. */
#define BANDWIDTH_SAYS_PORTS_BEFORE                                                            \
	N_("load ports' canary before the table: load over 4K, %.1f GB/s = %.1f B/cycle at "   \
	   "%.2f GHz (the clock around its try)")
#define BANDWIDTH_SAYS_PORTS_AFTER                                                             \
	N_("load ports' canary after the table: load over 4K, %.1f GB/s = %.1f B/cycle at "    \
	   "%.2f GHz (the clock around its try)")
#define BANDWIDTH_SAYS_PORTS_LOST N_("its best try lost its CPU to another task: no verdict from it")
#define BANDWIDTH_SAYS_PAGES N_("pages: %s (--pages %s; THP %s): %s")
#define BANDWIDTH_SAYS_HUGE_ASKED N_("transparent huge pages asked")
#define BANDWIDTH_SAYS_SMALL N_("4 KB pages")
#define BANDWIDTH_SAYS_HUGE_COUNT N_("%u of the buffer's %u stretches of 2 MB on huge pages")
#define BANDWIDTH_SAYS_HUGE_UNKNOWN N_("how many are huge is not known here")
#define BANDWIDTH_SAYS_SETTLED                                                                 \
	N_("idle chase measured %d times until two agreed: the first read %.0f ns a load, "    \
	   "then %.0f (fresh memory settling in; on a VM the host may still be mapping it)")
#define BANDWIDTH_SAYS_UNSETTLED                                                               \
	N_("idle chase never settled in %d points (%.0f ns a load first, %.0f last): the "     \
	   "machine is busy or its memory still moving; the loaded points compare to the last")
#define BANDWIDTH_SAYS_TWO_CPUS N_("loaded latency needs 2 CPUs (a chaser and a loader); %d allowed")
#define BANDWIDTH_SAYS_FORMS                                                                   \
	BANDWIDTH_SAYS_PORTS_BEFORE, BANDWIDTH_SAYS_PORTS_AFTER, BANDWIDTH_SAYS_PAGES,         \
		BANDWIDTH_SAYS_HUGE_COUNT, BANDWIDTH_SAYS_SETTLED, BANDWIDTH_SAYS_UNSETTLED,   \
		BANDWIDTH_SAYS_TWO_CPUS


/* The load ports' canary: the load kernel of the run's ISA over
 * BANDWIDTH_PORTS_BYTES (in every L1), one thread on the one-thread cells' CPU,
 * measured as a cell is, at the core clock around its best try, once
 * before the table and once after it: the core's load rate. Under
 * BANDWIDTH_PORTS_SHARED of the core's load ceiling, its load ports were shared
 * (a tenant on the core's SMT sibling halves them) or slowed during the
 * run (bandwidth_ports_verdict). Measured on the Emerald Rapids guest
 * (each vCPU its own core: no sibling to load), at 3.59 GHz: AVX-512
 * 0.93-0.94 of 128, AVX2 0.86-0.87 of 96, the same beside stress-ng on
 * the other vCPU as beside builds; a sibling running loads takes about
 * half the ports, so 0.70 sits between the two. */
#define BANDWIDTH_PORTS_BYTES 4096
#define BANDWIDTH_PORTS_SHARED 0.70
struct bandwidth_ev_ports {
	int when;          /* 0 before the table, 1 after it */
	double gbs;        /* the canary's best try */
	double ghz;        /* the core clock around that try (0: not measured) */
	int preempted;     /* times that try lost its CPU (a busy host): such a
			      reading gives no verdict */
};
enum { BANDWIDTH_CHECKED = 1, BANDWIDTH_TWICE = 2, BANDWIDTH_UNEVEN = 4 }; /* bandwidth_ev_table's flags */

/* The payload of a BANDWIDTH_EV_TABLE cell (run/job.h: JOB_PAYLOAD_PUT/GET). */
struct bandwidth_ev_table {
	int thread_index;  /* index into params.threads */
	int tries;         /* tries measured */
	double canary;     /* canary factor: 1.0 = the cores were as fast as at
			      their best moment */
	unsigned flags;    /* BANDWIDTH_CHECKED: the arrays held what the kernel
			      computes (else WRONG); BANDWIDTH_TWICE: measured a second
			      time (doubtful first); BANDWIDTH_UNEVEN: in the best try
			      the threads ended more than a fifth of the try
			      apart (one was held up) */
	double pass_bytes; /* bytes a pass, all threads (STREAM's counting) */
	int preempted;     /* times the measuring threads lost their CPU to
			      another task during the best try (time slicing on
			      a busy host: the figure is then low) */
	double ghz;        /* the core clock (GHz) measured right before and
			      after the best try, averaged; 0 not measured (a
			      cell of more than one thread) */
};

/* The payload of a BANDWIDTH_EV_LOADED cell. */
struct bandwidth_ev_loaded {
	double gbs;        /* GB/s the loaders moved during the same try (0 idle) */
	double delay_ns;   /* ns between the loaders' bursts; -1 idle (loaders
			      stopped) */
	int tries;         /* tries run */
	int preempted;     /* tries in which the chaser lost its CPU to another
			      task (the point is taken from the others when
			      there are any) */
};


/* ---- measuring (bandwidth.c, bandwidth_loaded.c) ------------------------- */

/* The job worker: arg is a struct bandwidth_params that outlives the job.
 * Measures the table (unless loaded == 2), then the loaded latency (when
 * loaded). Returns 0 (also when cancelled), -1 with e set (memory, threads). */
int bandwidth_worker(job_t *job, void *arg, mt_error *e);

/* Fill the arrays of one thread's slice the way the checks expect: a[i] =
 * -1 - i mod 1000, b[i] = i mod 1024, c[i] = (i / 8) mod 512. */
void bandwidth_fill(double *a, double *b, double *c, size_t n);

/* The doubles of each array the worker fills at once before a cell's
 * tries, looking at its job between two stretches: a whole period of
 * bandwidth_fill's words (1000, 1024 and 8 x 512 divide it), so that a
 * stretch goes on where the one before ended; about 4 MB. */
#define BANDWIDTH_FILL_STRETCH 512000u

/* After reps passes of kernel (with isa's registers) over the arrays
 * bandwidth_fill set (s as given, sum as the kernel returned): 1 when the
 * arrays hold what the kernel computes (copy: a == b; triad: a == b + s * c
 * exactly; writes: a == s; read: sum is reps times the sum of a's words;
 * read_vector: reps times the sum of the xors of each 8 MB chunk's words,
 * the chunks a big array is read in, wrapping around; with AVX2, reps
 * times the sum over each chunk of its first half's words times its second
 * half's, word by word; load, whose loads leave nothing to see: sum 0 and a
 * as bandwidth_fill left it), else 0. */
int bandwidth_check(int kernel, int isa, const double *a, const double *b, const double *c,
		    size_t n, double s, uint64_t sum, size_t reps);

/* The loaded-latency sweep alone (the worker calls it after the table):
 * Sattolo's random cycle over p->chase_bytes at p->chase_stride (4 KB
 * pages), chased on cpus[0] while the other CPUs (up to ncpus - 1) stream
 * over their share of p->loader_bytes in 8 KB bursts (loads, or stores
 * with loader_write) with each delay between bursts; first idle (no
 * loaders), then p->delays in order. Emits BANDWIDTH_EV_LOADED cells, rows 0 (idle)
 * .. ndelays; progress runs from units0 towards units_total. Returns 0
 * (cancelled too: *cancelled set), -1 with e. With fewer than 2 CPUs it
 * emits a note and returns 0. */
int bandwidth_loaded(job_t *job, const struct bandwidth_params *p, double units0,
		     double units_total, int *cancelled, mt_error *e);

/* Bytes of the loaders' buffers the sweep of p uses (a share of
 * p->loader_bytes for each of its ncpus - 1 loaders, whole 8 KB bursts,
 * one burst at least): what a caller's p->loader_buf must hold. */
uint64_t bandwidth_loader_bytes(const struct bandwidth_params *p);

/* The chaser's cycle and loop are chase_build_cycle() and chase_walk()
 * (base/chase.h), the latency lab's random chase. */

#endif
