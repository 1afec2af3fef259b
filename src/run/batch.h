/* batch: what every `memtop run NAME` shares, so that the experiments agree
 * on their command line and their output:
 *   - the common options --json FILE, --compact, --cpu N, --quick, --csv,
 *     -h/--help (and --tries N where the experiment lists it),
 *     parsed by batch_next() around the experiment's own ones (the option
 *     parser: run/batch_opts.h);
 *   - usage errors as one line, "memtop: run NAME: --opt: expected ...,
 *     got '...'", exit 2 (batch_opt_* for the experiment's own options);
 *   - the run header, taken before the worker starts and printed above the
 *     table (on stderr with --csv, so stdout stays plain CSV);
 *   - the end of a job (failed, cancelled), the warnings after the run, and
 *     the JSON result written atomically, or to stdout with --json - (the
 *     table and the "# ..." lines go to stderr then, so that
 *     `ssh host memtop run mountain --json - > host.json` keeps only JSON).
 * Curses-free, like the rest of src/. */
#ifndef MEMTOP_BATCH_H
#define MEMTOP_BATCH_H

#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "batch_opts.h"
#include "job.h"
#include "base/i18n.h"
#include "base/jsonio.h"
#include "runhdr.h"
#include "base/util.h"

/* With --json -: the real stdout back (batch_next pointed it at stderr) for
 * a JSON written without a run (a plan). Else nothing. */
void batch_cli_stdout(struct batch_cli *c);

/* ---- one run once parsed (batch_run.c) -------------------------------- */

/* One run: its header, and where the lines that are not the table go. */
struct batch_run {
	const struct batch_cli *cli;
	struct run_header hdr;
	FILE *meta;       /* "# ..." lines: stdout, or stderr with --csv */
	int cpu;          /* the worker's CPU, or -1 */
	double elapsed_s; /* wall time of batch_pump() */
	int json_fd;      /* --json -: the real stdout until batch_finish(), else -1 */
};

/* Take the run header now, before any worker starts (so the load and the
 * runnable tasks are the machine's, not our own worker's), and print it to
 * r->meta, with a warning when the job's CPU quota is under c->threads.
 * pinned: the experiment measures on a pinned worker; its CPU is --cpu or
 * job_pick_cpu(), recorded as the job's CPU. Never fails. */
void batch_begin(struct batch_run *r, const struct batch_cli *c, int pinned);

/* What batch_pump hands each event of the job to. */
typedef void (*job_event_cb)(const struct job_event *ev, void *ctx);

/* The one way a batch command runs its experiment: start fn(arg) as a job
 * (pinned to r->cpu when batch_begin was told so), pass every event to
 * cb(ev, ctx) until the last, with a progress line on stderr when it is a
 * terminal (Ctrl-C cancels the job), end the job, then put the after-run
 * diagnostics and the job's CPU tracking into r->hdr and the wall time into
 * r->elapsed_s. arg must outlive the call. Returns 0 when the
 * job finished; when it could not start, failed or was cancelled (Ctrl-C),
 * prints one line ("memtop: run EXP: why", "...: cancelled after 12 of 210
 * cells; nothing written") and returns MT_EXIT_RUNTIME. */
int batch_pump(struct batch_run *r, job_fn fn, void *arg, job_event_cb cb, void *ctx);

/* For a command that computes in-process without a job (a simulation): the
 * after-run diagnostics into r->hdr. */
void batch_end_inline(struct batch_run *r);

/* The one tail of every batch command: a "# warning: ..." line per
 * diagnostic, then the result written to --json atomically, or with --json -
 * on the real stdout, restored (root NULL with --json means building it ran
 * out of memory; without --json root is ignored, pass NULL). Frees root.
 * Returns 0, or prints one line naming the file and returns MT_EXIT_RUNTIME. */
int batch_finish(struct batch_run *r, cJSON *root);

/* Was --json given (build the result's JSON for batch_finish only then)? */
static inline int batch_wants_json(const struct batch_run *r)
{
	return r->cli->json != NULL;
}

/* A NOTE event's text as a "# ..." line on r->meta. */
void batch_note(const struct batch_run *r, const char *text);

/* A new result object carrying the run header's fields and "experiment":
 * EXP. Returns NULL when out of memory. */
cJSON *batch_json_root(const struct batch_run *r);

#endif
