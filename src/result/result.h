/* result: the registry of experiments (what `memtop run NAME` runs, in the
 * order of the tabs), the kinds of result derived from it, and the one
 * answer to "what kind of result is this file" that every reader asks
 * (memtop view and the tabs' open, compare, plot, levels, cliffs, info
 * --from). The shapes, struct experiment and struct result_kind, are
 * run/experiment.h and run/result_kind.h (included here); each experiment
 * defines both in its own folder (exp_NAME in src/NAME/NAME_batch.c,
 * kind_NAME in src/NAME/NAME_kind.c).
 *
 * Adding an experiment: define them, declare them in src/NAME/NAME.h, then
 * one line in result.c's registry; its kind follows from its .kind. */
#ifndef MEMTOP_RESULT_H
#define MEMTOP_RESULT_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "base/util.h"
#include "run/experiment.h"
#include "run/result_kind.h"

/* The experiment called name ("mountain"), or NULL. */
const struct experiment *experiment_find(const char *name);

/* `memtop run NAME ...`: argv[0] is NAME. Runs x through the protocol
 * (protocol/protocol.h's protocol_run; with --each-kind, where x takes it,
 * once per core type). Returns an exit code: 0 ok, 1 runtime failure, 2 bad
 * usage or input. */
int experiment_run(const struct experiment *x, int argc, char **argv);

/* All experiments, in the order of the tabs; *n gets the count. The array
 * ends with NULL too. */
const struct experiment *const *experiment_all(size_t *n);

/* A note a worker wrote in English (a NOTE event's text) in the user's
 * language: mt_gettext_stored with every experiment's note_forms (the UI
 * says any job's notes). Returns out. */
const char *experiment_note_text(char *out, size_t len, const char *text);

/* The kind of a parsed file: the kind its "experiment" string names (NULL
 * when it names one memtop has no kind for), else the first kind in
 * registry order whose is() recognises the shape of an older file, else
 * NULL. */
const struct result_kind *result_kind_of(const cJSON *root);

/* The kind called name ("mountain"), or NULL. */
const struct result_kind *result_kind_find(const char *name);

/* Every kind: each experiment's that has one, in the experiments' order
 * (the tabs'), then the card's; *n (may be NULL) gets the count. The array
 * ends with NULL too. */
const struct result_kind *const *result_kinds(size_t *n);

/* Why root is no result memtop reads, as the end of a sentence after
 * "PATH: ": "a \"algae\" result; memtop reads mountain, latency, ... results"
 * or "not a memtop result (no \"experiment\" field, no known shape)", or
 * for memtop compare --fleet --json's file "a fleet's grouping (memtop
 * compare --fleet --json), not a result". Into
 * buf (len), returned. */
const char *result_unknown_why(const cJSON *root, char *buf, size_t len);

/* ---- one result file (result_file.c, over result_set.h) ---------------- */

/* Read path into f: parse it, tell its kind (result_kind_of), load it.
 * The file may be JSON lines (result_set.h) holding one result. f->path
 * points at path (keep it alive as long as f). Returns 0, or -1 with f
 * zeroed and e one line naming path: the parser's or the kind's error,
 * "PATH: " + result_unknown_why(), or "PATH holds 3 results (lab01, ...):
 * this command reads one; ...". */
#define RESULT_FILE_MAX_LINES 1000
int result_file_load(const char *path, struct result_file *f, mt_error *e);

/* Read path as a result of kind want (memtop cliffs' mountain, memtop
 * levels' latency run): as result_file_load, and a file of another kind is
 * refused in one line, "PATH: not a latency run (a mountain)". Returns the
 * result (free it with want->free), or NULL with e. */
void *result_load_as(const char *path, const struct result_kind *want, mt_error *e);

/* Free what result_file_load loaded; f zeroed (a zeroed f: nothing).
 * (result.c, which result_set.c calls too.) */
void result_file_free(struct result_file *f);

#endif
