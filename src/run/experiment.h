/* experiment: the shape of what `memtop run NAME` can run. An experiment is
 * a folder, src/NAME/; its batch mode is one file there (NAME_batch.c) that
 * defines one `const struct experiment exp_NAME`, declared in its NAME.h,
 * plus one line in the registry of src/result/result.c (result/result.h's
 * experiment_find and experiment_all find them; the kinds of result follow
 * from their .kind). */
#ifndef MEMTOP_EXPERIMENT_H
#define MEMTOP_EXPERIMENT_H

#include <stddef.h>

#include "batch.h"

struct result_kind; /* run/result_kind.h */

/* An experiment: `memtop run NAME`, whose job fills a result from its
 * events, as a table of its parts (as tmux's cmd_entry): batch_run_result
 * (run/batch.h) runs them in the one order such a run has. Two blocks it
 * allocates, zeroed, for the run and frees after it: the params (the job's arg) and the printer (the
 * experiment's own state of the run: its result, how far its table is;
 * the ctx of every hook after prepare). A hook marked "may be NULL" is
 * optional, the others are not. */
struct experiment {
	const char *name;    /* "matmul": `memtop run NAME`, "memtop: run NAME: out of memory" */
	const char *about;   /* one line for `memtop run --help` */
	/* Its options with their help (what its --help prints, batch_parse
	 * fills its params from, and tests/test_batch.c holds against the man
	 * page), ending with a zeroed row. Never NULL. */
	const struct batch_option *options;
	/* 1: it takes --each-kind (one run per core type: machine/plan.h's
	 * batch_each_coretype). */
	int each_coretype;
	size_t params_size;   /* sizeof the params, the job's arg */
	size_t printer_size;  /* sizeof the printer */
	/* Parse argv into cli and params (defaults first): 0, or -1 when the
	 * command ends here with exit code cli->rc (--help: 0; a bad value,
	 * said in one line: 2). */
	int (*parse)(struct batch_cli *cli, int argc, char **argv, void *params);
	/* What differs before the run: the machine (machine_for_run), the
	 * params completed from it, the --plan (printed: the command ends),
	 * the printer made for params, run (begun after this) and cli, its
	 * result empty. May set cli->cpu (the worker's CPU). Returns -1 to run,
	 * with what it holds freed by release; or the exit code the command
	 * ends with (said), with everything it made freed. */
	int (*prepare)(struct batch_cli *cli, void *params, void *printer,
		       const struct batch_run *run);
	int pinned; /* batch_begin's: the job measures on a pinned worker */
	/* Is there a job? 0: the run is all in head (a simulation), no job,
	 * not pinned. May be NULL: always. */
	int (*has_job)(const void *params);
	/* After the run header: the lines above the table (on run->meta) and
	 * its head. Returns 0, or the exit code the run ends with (said). May
	 * be NULL: nothing there yet (latency says its plan once its pages
	 * are in, from on_note). */
	int (*head)(void *printer);
	job_fn worker; /* the job, on params */
	/* A NOTE event, before batch_run_result says it as a "# ..." line
	 * (batch_note): the result's part of it, a table's row ended first.
	 * Returns 1 when the note is the experiment's own and not to be said
	 * (latency's figure and pages), else 0. May be NULL: the note is only
	 * said. */
	int (*on_note)(const struct job_event *ev, void *printer);
	job_event_cb on_event; /* every other event of the job, with the printer */
	/* After the job, however it ended (done, failed, cancelled): a row
	 * still held, what the run took (run->elapsed_s). May be NULL. */
	void (*ended)(void *printer);
	/* The printer's result, a struct that starts with its run header (the
	 * run's is put there after the job), which kind->to_json writes. May
	 * be NULL: no such result (to_json writes the JSON). */
	void *(*result)(void *printer);
	/* After the job, before the JSON: what the table alone does not say.
	 * Returns 0, or the exit code the run ends with (said), nothing
	 * written. May be NULL. */
	int (*summary)(void *printer);
	/* The kind of its result (kind_NAME, defined in NAME_kind.c beside it):
	 * the JSON --json writes and what reads it back. NULL: no reader reads
	 * it back (to_json writes the JSON). */
	const struct result_kind *kind;
	/* With --json, instead of kind->to_json: the result's JSON (from
	 * batch_json_root), the caller's to free; NULL when out of memory. May
	 * be NULL: kind's. */
	cJSON *(*to_json)(void *printer);
	/* After the JSON: MT_EXIT_OK, or MT_EXIT_RUNTIME with one line said
	 * (the run measured something wrong). May be NULL. */
	int (*verdict)(const void *printer);
	/* What prepare made (the result's memory, the machine's resources),
	 * freed on every path once prepare returned -1. May be NULL. */
	void (*release)(void *printer, void *params);
};

#endif
