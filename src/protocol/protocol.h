/* protocol: the one way `memtop run NAME` runs, the same steps for every
 * experiment (run/experiment.h's table of its parts): the options parsed
 * from its table, the machine (this one, or the recorded one --sysfs-root
 * or --topology names), the worker's CPU, the params made for that
 * machine, the --plan printed, or the run itself (the header, the job, the
 * JSON: run/batch.h), and everything freed on every path; --each-kind, one
 * run per core type. It sits above machine/ (which it plans with) and
 * below the registry (result/), which hands it the experiment. */
#ifndef MEMTOP_PROTOCOL_H
#define MEMTOP_PROTOCOL_H

#include "run/experiment.h"

/* What a step of the protocol returns besides 0 (go on) and -1 (an error,
 * said): the command is done, with nothing more to do (--help printed, the
 * plan printed); its exit code is kept beside it. */
#define PROTOCOL_STOP 1

/* `memtop run NAME ...` for experiment x (argv[0] is NAME): with
 * --each-kind where x takes it, protocol_each_kind; else the params and
 * the printer allocated, .defaults, the options parsed from x->help's
 * table into the params (at .options_at), .check, the machine, the
 * worker's CPU (.pinned: --cpu, a CPU of --cpu-kind, else the machine's
 * worker CPU for this process's core type), .make_params; with --plan (or
 * a recorded machine) .describe's plan printed, or its JSON written with
 * --json, and nothing measured; else .start, the run header
 * (batch_begin), .head, the job (batch_pump: each NOTE to .on_note, then
 * said as a "# ..." line unless kept; the others to .on_event; no job:
 * batch_end_inline), .ended, the run header into the result, .summary,
 * the JSON through batch_finish, .verdict. Then .release, the machine and
 * the blocks freed, on every path. Returns the command's exit code: 0 ok,
 * 1 runtime failure, 2 bad usage or input (each failure said in one
 * line). */
int protocol_run(const struct experiment *x, int argc, char **argv);

/* --each-kind: protocol_run of x once per core type of the machine (this
 * one, or the one --sysfs-root/--topology names), fastest first, each as
 * if given --cpu-kind NAME: its table under a "# --each-kind: core type
 * NAME" line; with --json FILE one compact line a kind in FILE (JSON
 * lines: compare, view and plot read each), written atomically after the
 * last run (nothing when one fails); --json - the lines on stdout. On a
 * machine of one kind: the one run, said. Refused with --cpu or --cpu-kind
 * (exit 2). Returns the first failing run's exit code, else 0. */
int protocol_each_kind(const struct experiment *x, int argc, char **argv);

/* Is --each-kind among argv[1..argc) (before a "--")? */
int protocol_wants_each_kind(int argc, char **argv);

#endif
