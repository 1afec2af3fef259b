/* jsonio: reading and writing result files with libcjson. Reads name the
 * file and the field in their one-line errors; writes are atomic. */
#ifndef MEMTOP_JSONIO_H
#define MEMTOP_JSONIO_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

#include "util.h"

/* Results are kilobytes (a full latency run is about 40 KB): 4 MB is a
 * hundred times that, and bounds the parse at about 150 MB of cJSON nodes
 * for a file of nothing but tiny numbers. */
#define JSONIO_MAX_BYTES (4u << 20)

/* Parse the JSON file at path. Returns the root (free with cJSON_Delete) or
 * NULL with e = "PATH: not valid JSON near line L" / "PATH: No such file" /
 * "PATH: larger than 4194304 bytes" (refused before reading when the size
 * is known; a pipe is read no further) / "PATH: nested deeper than 100
 * levels at line L": memory and time stay bounded whatever the file. */
cJSON *jsonio_load(const char *path, mt_error *e);

/* Parse text[0..len) (text[len] must be '\0') as one JSON document, with
 * jsonio_load's size and depth bounds; where names it in errors ("lab.jsonl: line
 * 3"). Returns the root or NULL with e = "WHERE: not valid JSON near line
 * L" / "WHERE: nested deeper than ...", "WHERE: larger than 4194304 bytes". */
cJSON *jsonio_parse(const char *text, size_t len, const char *where, mt_error *e);

/* Print root (indented) and write it to path atomically. Returns 0 or -1. */
int jsonio_save(const char *path, const cJSON *root, mt_error *e);

/* --json's path is "-": the result goes to stdout (ssh host memtop ... --json -). */
int jsonio_is_stdout(const char *path);

/* Can a result be written at path (atomically: a temporary file beside it,
 * then a rename)? Its folder exists, is a folder and is writable, and path
 * is not a folder; "-" (stdout) always can. Said before any work, so that
 * nothing is measured or printed for a file that cannot be written.
 * Returns 0, or -1 with *what the expectation ("a file in an existing
 * folder", "a file in a writable folder", "a file", "a file name", "a
 * shorter path") and why the reason ("/x: No such file or directory"). */
int jsonio_check_path(const char *path, const char **what, char *why, size_t len);

/* Where a command's --json goes: "-" prints root (indented, one final
 * newline) on stdout and flushes it; any other path is jsonio_save(). Returns
 * 0, or -1 with e ("stdout: Broken pipe", or jsonio_save's errors). */
int jsonio_write(const char *path, const cJSON *root, mt_error *e);

/* jsonio_write, on one line when compact (--compact: one result a line, so
 * that `pdsh ... memtop run NAME --json - --compact` gives one line a host
 * behind pdsh's "host: " prefix). Returns 0, or -1 with e. */
int jsonio_write_as(const char *path, const cJSON *root, int compact, mt_error *e);

/* Strict field readers: on a missing or mistyped field they fail with
 * "FILE: FIELD ...". A NULL file is printed as "input". */
int jsonio_number(const cJSON *o, const char *key, const char *file, double *out, mt_error *e);
int jsonio_int(const cJSON *o, const char *key, const char *file, long min, long max, long *out,
	       mt_error *e);
const cJSON *jsonio_array(const cJSON *o, const char *key, const char *file, mt_error *e);

/* Optional readers: the default when absent or mistyped. A string is made
 * printable on the way in (mt_printable: control bytes, invalid UTF-8 as
 * '?', cut with "..."), so text from a file never reaches a terminal raw. */
double jsonio_opt_number(const cJSON *o, const char *key, double dflt);
/* An integer in [min, max]; dflt when absent, mistyped, fractional or out
 * of range (so no cast of a file's 3e94 is ever undefined). */
long jsonio_opt_int(const cJSON *o, const char *key, long min, long max, long dflt);
void jsonio_opt_string(const cJSON *o, const char *key, char *out, size_t len);

/* The "experiment" a result file names at its top ("latency", "matmul",
 * ...), or NULL when it names none (older files): what every X_result_is()
 * looks at first. */
const char *jsonio_experiment(const cJSON *root);

#endif
