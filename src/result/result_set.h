/* result_set: the results of many files at once, for the readers that take
 * a lab's or a class's worth (memtop compare --fleet, memtop report): each
 * file one result (memtop run NAME --json FILE), or many, one a line, as
 * pdsh, clush and parallel --tag collect them from --json - --compact
 * (base/jsonlines.h). Every result is told by result_kind_of and loaded
 * by its kind, and named for its machine: the line's host prefix, else the
 * host in memtop's default name (memtop-latency-lab07-2026-12-05-10-30.json:
 * lab07), else the file's name without ".json" and a "-KIND" ending
 * ("lab07-latency.json": lab07), else, for a bare line, "FILE:LINE". */
#ifndef MEMTOP_RESULT_SET_H
#define MEMTOP_RESULT_SET_H

#include <stddef.h>

#include "result.h"
#include "base/jsonlines.h"

/* One result of the set. */
struct result_entry {
	struct result_file f;           /* its kind and loaded result; f.path is where */
	char name[JSONL_NAME_MAX];      /* its machine, printable */
	char where[MT_PATH_MAX + 100];  /* "lab.jsonl: line 12 (lab12)", or the file's path */
	const cJSON *root;              /* the file's JSON as read (owned by the set) */
	size_t file;                    /* the index of its file in the paths read */
	int ref;                        /* a bundled reference, not a machine of the lab
					 * (set by the caller) */
};

struct result_set {
	struct result_entry *e;
	size_t n;
	struct jsonl_set lines; /* the parsed JSON the entries point into */
};

/* Read paths[0..npaths) into s (zeroed or empty), at most max results in
 * all. Returns 0, or -1 with s empty and e one line naming the file and
 * line: the reader's error (jsonl_read), "lab.jsonl: line 4 (lab04): not a
 * memtop result (...)", the kind's own ("lab.jsonl: line 2 (lab02): field
 * ..."), or "PATH: more than MAX results". */
int result_set_load(struct result_set *s, char *const *paths, size_t npaths, size_t max,
		    mt_error *e);

/* result_set_load for a folder's *.json, which may hold more than results
 * (a fleet's grouping, notes, a half-copied file): a file that holds no
 * result at all is passed over with one line on stderr naming it and why
 * ("memtop: fleet.json: a fleet's grouping (memtop compare --fleet
 * --json), not a result (skipped)"), and the others are read. Returns 0,
 * or -1 with s empty and e: the one file given, holding no result, with
 * its own line (nothing said besides); "none of the N files given holds a
 * memtop result"; or result_set_load's errors for the files of results (a
 * line that is not one among results, too many). */
int result_set_load_skip(struct result_set *s, char *const *paths, size_t npaths, size_t max,
			 mt_error *e);

/* Free everything (s zeroed). */
void result_set_free(struct result_set *s);

#endif
