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

/* The first fields of every printer, which the protocol sets before
 * .start: the run (its header, where its "# ..." lines go: run->meta) and
 * --csv. A printer starts with EXPERIMENT_PRINTER_HEAD; its hooks read
 * b->run and b->csv. */
struct experiment_printer {
	const struct batch_run *run;
	int csv;
};
#define EXPERIMENT_PRINTER_HEAD                                                         \
	union {                                                                         \
		struct experiment_printer head;                                         \
		struct {                                                                \
			const struct batch_run *run;                                    \
			int csv;                                                        \
		};                                                                      \
	}

/* The fields of a struct experiment whose file names its parts the usual
 * way, as tui/tab.h's TAB_PARTS does a tab's: its option table `options`
 * and `help`, its params `struct run_params`, its printer `struct printer`
 * and the two hooks every experiment has, describe and start. After the
 * name and the about:
 *   const struct experiment exp_lists = { .name = "lists", .about = N_("..."),
 *                                         EXPERIMENT_PARTS, .defaults = defaults, ... };
 */
#define EXPERIMENT_PARTS                                                                \
	.options = options, .help = &help, .params_size = sizeof(struct run_params),      \
	.printer_size = sizeof(struct printer), .describe = describe, .start = start

/* The `help` EXPERIMENT_PARTS names: the experiment's --help, its head (its
 * usage line and what it does, ending with a blank line), then its option
 * table `options` with their help from column col_ (run/batch_opts.h's
 * struct batch_help); with _TAIL, the tail after them. At file scope:
 *   EXPERIMENT_HELP(22,
 *           N_("Usage: memtop run lists [OPTIONS]\n"
 *              ...
 *              "\n"));
 */
#define EXPERIMENT_HELP_TAIL(col_, head_, tail_)                                        \
	static const struct batch_help help = {                                         \
		.head = head_, .opts = options, .col = col_, .tail = tail_              \
	}
#define EXPERIMENT_HELP(col_, head_) EXPERIMENT_HELP_TAIL(col_, head_, NULL)

/* The run's hooks of an experiment that names them the usual way, as
 * EXPERIMENT_PARTS does the others: head, the job worker_ (its NAME_worker)
 * and on_event. Every experiment's but latency's, which has no head. */
#define EXPERIMENT_JOB(worker_) .head = head, .worker = worker_, .on_event = on_event

/* Its result the usual way: the printer's field r_ (offsetof; the pointer
 * to it with .result_is_pointer), of kind kind_ (&kind_NAME), and the hook
 * summary after the job. Every experiment's but algae's, which has no
 * kind. */
#define EXPERIMENT_RESULT(r_, kind_)                                                    \
	.result_at = offsetof(struct printer, r_), .summary = summary, .kind = kind_

struct machine; /* machine/machine.h: the machine a run plans for */
struct plan;    /* machine/plan.h: what a run will measure */

/* An experiment: `memtop run NAME`, whose job fills a result from its
 * events, as a table of its parts (as tmux's cmd_entry): the protocol
 * (protocol/protocol.h's protocol_run) runs them in the one order such a
 * run has, for every experiment. Two blocks it allocates, zeroed, for the
 * run and frees after it: the params (the job's arg) and the printer (the
 * experiment's own state of the run: its result, how far its table is).
 *
 * The hooks before the run (.check, .make_params, .start) return 0 to go
 * on, or -1 with one line said: the command ends with exit code cli->rc,
 * which the protocol sets to MT_EXIT_USAGE (2) before each and a hook sets
 * to MT_EXIT_RUNTIME (1) when what failed is not the user's input (out of
 * memory). The hooks of the run (.head, .summary, .verdict) return an exit
 * code: MT_EXIT_OK, or another with one line said. A hook marked "may be
 * NULL" is optional, the others are not. */
struct experiment {
	const char *name;    /* "matmul": `memtop run NAME`, "memtop: run NAME: out of memory" */
	const char *about;   /* one line for `memtop run --help` */
	/* Its options with their help (what its --help prints, the protocol
	 * fills its params from, and tests/test_batch.c holds against the man
	 * page), ending with a zeroed row: help->opts. Never NULL. */
	const struct batch_option *options;
	const struct batch_help *help; /* its --help: the options' table beside it */
	/* 1: it takes --each-kind (one run per core type: the protocol's
	 * protocol_each_kind). */
	int each_coretype;
	size_t params_size;   /* sizeof the params, the job's arg */
	size_t printer_size;  /* sizeof the printer, which starts with EXPERIMENT_PRINTER_HEAD */
	/* Where in the params the struct its option rows name starts
	 * (offsetof): 0 when the rows name the params' own struct. */
	size_t options_at;
	/* The params' defaults, before the options are parsed over them. May
	 * be NULL: all zero. */
	void (*defaults)(void *params);
	/* After the options: what they mean together (the cross-checks, the
	 * options that are not the params' as given turned into them).
	 * Returns 0 or -1 (said). May be NULL. */
	int (*check)(struct batch_cli *cli, void *params);
	/* The params completed from machine m (this one or a recorded one)
	 * and the worker's CPU cli->cpu (-1: not pinned); sets cli->threads
	 * when it measures on more than one thread; may keep notes for
	 * .describe and .head in the printer. Returns 0 or -1 (said). May be
	 * NULL: the params are the options'. */
	int (*make_params)(struct batch_cli *cli, const struct machine *m, void *params,
			   void *printer);
	/* --plan: what the run would measure on m with the worker on cpu (-1:
	 * none), from the params (and what .make_params kept in the printer),
	 * into out: the protocol's plan_init made it, with out->human set for
	 * --plan's text (notes through plan_say: translated) and clear for
	 * --plan --json's (English). */
	void (*describe)(const struct machine *m, int cpu, const void *params, const void *printer,
			 struct plan *out);
	/* The printer made for params on m before the run: its result empty.
	 * Returns 0 or -1 (said). May be NULL: the head alone. */
	int (*start)(struct batch_cli *cli, const struct machine *m, void *params, void *printer);
	/* 1: the job measures on a pinned worker: its CPU (cli->cpu) is --cpu,
	 * a CPU of --cpu-kind or the machine's worker CPU, picked before
	 * .make_params. */
	int pinned;
	/* Is there a job? 0: the run is all in head (a simulation), no job,
	 * not pinned. May be NULL: always. */
	int (*has_job)(const void *params);
	/* After the run header: the lines above the table (on run->meta) and
	 * its head. Returns an exit code. May be NULL: nothing there yet
	 * (latency says its plan once its pages are in, from on_note). */
	int (*head)(void *printer);
	job_fn worker; /* the job, on params */
	/* A NOTE event, before the protocol says it as a "# ..." line
	 * (batch_note): the result's part of it, a table's row ended first.
	 * Returns 1 when the note is the experiment's own and not to be said
	 * (latency's figure and pages), else 0. May be NULL: the note is only
	 * said. */
	int (*on_note)(const struct job_event *ev, void *printer);
	/* The forms of the notes its worker writes in English (job_note, a
	 * NOTE's text: NULL-terminated, marked N_()), by which a note is said
	 * in the user's language (mt_gettext_stored). May be NULL. */
	const char *const *note_forms;
	job_event_cb on_event; /* every other event of the job, with the printer */
	/* After the job, however it ended (done, failed, cancelled): a row
	 * still held, what the run took (run->elapsed_s). May be NULL. */
	void (*ended)(void *printer);
	/* The printer's result, a struct that starts with its run header (the
	 * run's is put there after the job), which kind->to_json writes: at
	 * result_at in the printer (offsetof), or, with result_is_pointer, the
	 * pointer to it there. Read only when kind is not NULL. */
	size_t result_at;
	int result_is_pointer;
	/* After the job, before the JSON: what the table alone does not say.
	 * Returns an exit code (nothing written unless MT_EXIT_OK). May be
	 * NULL. */
	int (*summary)(void *printer);
	/* The kind of its result (kind_NAME, defined in NAME_kind.c beside it):
	 * the JSON --json writes and what reads it back. NULL: no reader reads
	 * it back, no result in the printer (to_json writes the JSON). */
	const struct result_kind *kind;
	/* With --json, instead of kind->to_json: the result's JSON (from
	 * batch_json_root), the caller's to free; NULL when out of memory. May
	 * be NULL: kind's. */
	cJSON *(*to_json)(void *printer);
	/* After the JSON: MT_EXIT_OK, or MT_EXIT_RUNTIME with one line said
	 * (the run measured something wrong). May be NULL. */
	int (*verdict)(const void *printer);
	/* What .make_params and .start made (the result's memory, the plan's
	 * pairs), freed on every path once the two blocks are allocated, the
	 * run ended or not, the hooks called or not: it frees what is there
	 * and passes over what is still zero. May be NULL. */
	void (*release)(void *printer, void *params);
};

#endif
