/* job: run one experiment on a worker thread pinned to one CPU, with live
 * progress, streamed result cells, pause/resume/cancel.
 *
 * The caller (batch mode or the TUI) starts a job, then polls job_fd()
 * together with its own descriptors (it becomes readable when events are
 * waiting) and drains them with job_take() until job_event_is_last() (the
 * batch loop is run/batch_run.c's batch_pump, the TUI's tui/jobs.c). The worker function measures; it calls
 * job_emit() for each result, job_set_progress() as it advances, and
 * job_check() between passes so pause and cancel take effect within 100 ms.
 *
 * Nothing here includes curses; nothing here draws. */
#ifndef MEMTOP_JOB_H
#define MEMTOP_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

typedef struct job job_t;
struct mt_run_clock; /* os/threads.h */

enum job_event_type {
	JOB_EV_CELL = 1, /* one measured value: row, col, value, spread, payload */
	JOB_EV_UPDATE,   /* a cell measured again: replaces its earlier value
			    (not counted in cells_done) */
	JOB_EV_NOTE,     /* a sentence for the user (text): "grid shrunk to 64M" */
	JOB_EV_DONE,     /* the worker returned 0; the last event */
	JOB_EV_FAILED,   /* the worker failed (text says why); the last event */
	JOB_EV_CANCELLED /* cancelled before the end; the last event */
};

/* The bytes a cell's payload may hold: the largest cell struct of any
 * experiment must fit (JOB_PAYLOAD_PUT checks it when it is compiled). */
#define JOB_PAYLOAD_SIZE 64

/* One event. Experiments define what row/col/subtype mean for their cells,
 * and the extras of each subtype of cell as a struct in their own header (e.g.
 * bandwidth.h's struct bandwidth_ev_table), carried in payload: written with
 * JOB_PAYLOAD_PUT and read back with JOB_PAYLOAD_GET, which refuses to read
 * it as any other struct than the one put. */
struct job_event {
	int type;
	int row, col;        /* grid position of a cell */
	int subtype;         /* experiment-specific sub-type of a cell */
	double value;        /* primary value (MB/s, ns, cycles ...) */
	double spread;       /* relative spread between tries (0.02 = 2 %) */
	const char *payload_type; /* the struct in payload ("struct bandwidth_ev_table");
				     NULL when there is none */
	_Alignas(max_align_t) unsigned char payload[JOB_PAYLOAD_SIZE];
	char text[160];      /* NOTE, FAILED: the sentence */
};

/* Put *src, a `type` (a complete struct type written the same way at every
 * use: `struct bandwidth_ev_table`), into ev's payload and name it there. Fails to
 * compile when type does not fit the payload or src is not a `const type *`. */
#define JOB_PAYLOAD_PUT(ev, type, src)                                                     \
	job_payload_put((ev), #type, JOB_PAYLOAD_PTR_(type, const type *, (src)), sizeof(type))

/* Copy ev's payload into *dst, a `type`: 0, or -1 (and *dst zeroed) when ev
 * carries no payload or a payload of another type. Fails to compile when
 * type does not fit the payload or dst is not a `type *`. */
#define JOB_PAYLOAD_GET(ev, type, dst)                                                     \
	job_payload_get((ev), #type, JOB_PAYLOAD_PTR_(type, type *, (dst)), sizeof(type))

/* p as a ptype (a warning, an error with -Werror, when it is another
 * pointer type), once type is known to fit the payload. */
#define JOB_PAYLOAD_PTR_(type, ptype, p)                                                   \
	((void)sizeof(struct {                                                             \
		 int fits;                                                                 \
		 _Static_assert(sizeof(type) <= JOB_PAYLOAD_SIZE,                          \
				#type " does not fit a job event's payload");               \
	 }),                                                                               \
	 (ptype[1]){(p)}[0])

/* What JOB_PAYLOAD_PUT does once it has checked the type: copy size bytes
 * of src into ev's payload (the rest zeroed) and keep type's name (a string
 * literal: it must outlive the event). Callers use the macro. */
void job_payload_put(struct job_event *ev, const char *type, const void *src, size_t size);

/* What JOB_PAYLOAD_GET does once it has checked the type: 0 with size bytes
 * of ev's payload in dst when ev's payload is named type; else -1 with dst
 * zeroed. Callers use the macro. */
int job_payload_get(const struct job_event *ev, const char *type, void *dst, size_t size);

/* Make *ev a JOB_EV_CELL of subtype at (row, col) with value and spread, every
 * other byte zero (no payload yet: JOB_PAYLOAD_PUT it after). Cannot fail. */
void job_cell(struct job_event *ev, int subtype, int row, int col, double value, double spread);

/* A cell's spread from its best and second-best tries: (second - best) /
 * best when second is finite and best > 0, else 0 (one try, or nothing). */
double job_spread(double best, double second);

/* 1 when ev is a job's last event (DONE, FAILED, CANCELLED): the reader
 * ends the job then. Other types (CELL, UPDATE, NOTE, any added later): 0. */
int job_event_is_last(const struct job_event *ev);

/* The worker: measures, emitting events. Returns 0 on success; -1 with
 * e->msg set on failure. When job_check() says cancelled, return 0 promptly
 * (the job then ends with JOB_EV_CANCELLED). */
typedef int (*job_fn)(job_t *job, void *arg, mt_error *e);

struct job_opts {
	int cpu;         /* CPU to pin to; -1 picks one (see job_pick_cpu) */
	uint64_t total;  /* cells the job will emit (for progress; may be 0) */
};

/* Pick the CPU for a job: an online CPU this process may run on, of the
 * core type job_set_coretype() chose (the fastest type until then: on a
 * hybrid machine the first look measures a P core, not the highest-numbered E
 * core), other than the calling thread's current one when there are two or
 * more, else the caller's. Returns the CPU number, or -1 when the platform
 * cannot pin. */
int job_pick_cpu(void);

/* The CPU job_pick_cpu would give among the CPUs of core type t (an index
 * into topo_this_machine()'s coretypes, fastest first), or -1 when this
 * process may run on none of them (or there is no such type). */
int job_pick_cpu_of_coretype(int t);

/* The core type job_pick_cpu picks from from now on (index into
 * topo_this_machine()'s coretypes). Returns 0, or -1 when there is no such
 * type (the choice is kept). */
int job_set_coretype(int t);

/* The core type job_pick_cpu picks from (0, the fastest, until set). */
int job_coretype(void);

/* Start fn(job, arg) on a new thread pinned to o->cpu (or the picked CPU).
 * arg must outlive the job. Returns the job, or NULL with e set (thread
 * creation failed, CPU not available to this process). */
job_t *job_start(job_fn fn, void *arg, const struct job_opts *o, mt_error *e);

/* A descriptor that is readable while events are waiting (level-triggered
 * until job_take() has drained them). */
int job_fd(const job_t *job);

/* Move up to max waiting events into out, oldest first. Never blocks.
 * Returns how many were taken (0 when none). */
size_t job_take(job_t *job, struct job_event *out, size_t max);

/* Pause, resume, cancel: take effect at the worker's next job_check(),
 * within 100 ms. Cancel also wakes a paused worker. */
void job_pause(job_t *job);
void job_resume(job_t *job);
void job_cancel(job_t *job);
int job_is_paused(const job_t *job);

/* Progress: cells emitted so far and the total; work units done and total
 * (the worker's own measure of cost, for the ETA); ETA in seconds (-1 when
 * unknown); the CPU the job was pinned to and where the worker was seen
 * running (sampled when it starts, at each job_emit() and when it returns).
 * Safe from any thread. */
struct job_progress {
	uint64_t cells_done, cells_total;
	const char *unit; /* what a cell is: "cell", "pair" (job_set_unit) */
	double units_done, units_total;
	double fraction;  /* 0..1 */
	double eta_s;     /* seconds left, -1 unknown */
	double elapsed_s; /* seconds since start, pauses excluded */
	int cpu;          /* the CPU the job was pinned to, -1 none */
	int cpu_first, cpu_last; /* where the worker was seen first and last (-1 unknown) */
	int cpu_moved;    /* the worker was seen on more than one CPU */
	double ghz_start, ghz_end; /* the core clock measured (dependent adds,
				    * mt_clock_measure) just before and after the
				    * worker's function on its CPU, or, when the
				    * worker started measuring threads with
				    * job_run_clock, on the first of them before
				    * it ran and on its CPU after the run; 0 not yet */
	int ghz_cpu;      /* the CPU they were measured on, -1 unknown */
	int holding;      /* the worker is paused at a job_check() right now */
	int finished;     /* the worker has returned */
};
void job_get_progress(const job_t *job, struct job_progress *p);

/* The cells of p as the progress lines say them: "6/10 cells", or "97
 * cells" when the worker gave no total (never "6/0"). */
void job_progress_cells(const struct job_progress *p, char *buf, size_t len);

/* Wait for the worker to end, free the job, and return its status: 0 done,
 * 1 cancelled, -1 failed (e set with the worker's message). Events not yet
 * taken are dropped. */
int job_join(job_t *job, mt_error *e);

/* ---- for the worker ---------------------------------------------------- */

enum { JOB_GO = 0, JOB_RESUMED = 1, JOB_CANCELLED = -1 };

/* Call between passes. Returns JOB_GO; JOB_RESUMED when the job was paused
 * (and is now resumed) since the last call, so a timing in flight must be
 * thrown away; JOB_CANCELLED when the worker should stop. Blocks while
 * paused. Costs one atomic load when nothing happens. */
int job_check(job_t *job);

/* mt_populate (os/sysinfo: the pages of [p, p + len) asked of the
 * kernel) one MT_POPULATE_STEP stretch at a time, with job_check() between
 * two: a buffer's populate is the kernel's work, 0.12 s for 512 MB here and
 * seconds on a VM whose host backs pages late (0.8 s for 128 MB on a Zen 5
 * guest), and a stop waited for all of it. Returns JOB_CANCELLED when the
 * job was cancelled (the rest not asked for), else JOB_GO (also when the
 * kernel refused: a hint, first touch faults the pages in). */
int job_populate(job_t *job, void *p, size_t len);

/* Hand over one event (type CELL or NOTE); the worker never blocks on a slow
 * reader. Cells count towards cells_done. Returns 0, or -1 out of memory. */
int job_emit(job_t *job, const struct job_event *ev);

/* Emit a NOTE from a printf format. */
int job_note(job_t *job, const char *fmt, ...) MT_PRINTF(2, 3);

/* Set the worker's measure of work done and total (any unit, e.g. expected
 * nanoseconds); the ETA is extrapolated from it. */
void job_set_progress(job_t *job, double units_done, double units_total);

/* Set the cell total (for "12/210 cells"): the worker calls it when it
 * knows its grid, usually first thing. */
void job_set_total(job_t *job, uint64_t cells_total);

/* What a cell of this job is, in the singular ("pair": "3/28 pairs";
 * unit a static string). Default "cell". */
void job_set_unit(job_t *job, const char *unit);

/* The clock of the job's run for the measuring threads its worker starts:
 * pass it to mt_thread_start_clocked for the first of them, and the run's
 * measured clock (progress ghz_start, ghz_end, ghz_cpu) is taken on that
 * thread's CPU rather than the worker's. NULL when job is NULL. */
struct mt_run_clock *job_run_clock(job_t *job);

/* The CPU the worker is running on now (sched_getcpu), -1 if unknown. */
int job_current_cpu(void);

#endif
