/* jsonio: reading and writing result files with libcjson. Reads name the
 * file and the field in their one-line errors; writes are atomic. Also the
 * run header every result carries (version, machine, date, build, clock,
 * diagnostics) and its text form for batch output. */
#ifndef MEMTOP_JSONIO_H
#define MEMTOP_JSONIO_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

#include "clock.h"
#include "diag.h"
#include "util.h"

/* Parse the JSON file at path. Returns the root (free with cJSON_Delete) or
 * NULL with e = "PATH: not valid JSON near line L" / "PATH: No such file". */
cJSON *jsonio_load(const char *path, mt_error *e);

/* Print root (indented) and write it to path atomically. Returns 0 or -1. */
int jsonio_save(const char *path, const cJSON *root, mt_error *e);

/* Strict field readers: on a missing or mistyped field they fail with
 * "FILE: FIELD ...". A NULL file is printed as "input". */
int jsonio_number(const cJSON *o, const char *key, const char *file, double *out, mt_error *e);
int jsonio_int(const cJSON *o, const char *key, const char *file, long min, long max, long *out,
	       mt_error *e);
const cJSON *jsonio_array(const cJSON *o, const char *key, const char *file, mt_error *e);

/* Optional readers: the default when absent or mistyped. */
double jsonio_opt_number(const cJSON *o, const char *key, double dflt);
void jsonio_opt_string(const cJSON *o, const char *key, char *out, size_t len);

/* What every result says about where and how it was measured. */
struct run_header {
	char version[32];   /* memtop version that measured */
	char hardware[256]; /* the seed's field: "CPU (arch, OS), build, date" */
	char cpu[160];
	char kernel[160];
	char host[64];
	char date[32];      /* "YYYY-MM-DD HH:MM" */
	char build[256];    /* compiler and flags */
	struct mt_clock clock;
	struct diag diag;
	int has_diag;       /* diag was recorded (false for foreign files) */
};

/* Fill h for a run starting now on this machine (calibrates the clock,
 * snapshots the diagnostics with the job's CPU). */
void run_header_init(struct run_header *h, int job_cpu);

/* Add the header's fields to a result object. Returns 0 or -1 (memory). */
int run_header_to_json(const struct run_header *h, cJSON *root);

/* Read a header back from a result (missing fields left empty). */
void run_header_from_json(const cJSON *root, struct run_header *h);

/* The batch header: "# memtop 0.1.0 on HOST, CPU, date, build" lines plus
 * one "# warning: ..." line per diagnostic, each starting with "# ". */
void run_header_print(FILE *f, const struct run_header *h);

#endif
