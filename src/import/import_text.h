/* import_text: reading a benchmark's text output line by line, for the
 * parsers of src/import (private to this folder). */
#ifndef MEMTOP_IMPORT_TEXT_H
#define MEMTOP_IMPORT_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "base/util.h"
#include "latency/latency.h"

#define IMPORT_LINE_MAX 1024
#define IMPORT_MAX_TOKENS 32

/* A cursor over text. */
struct lines {
	const char *p;              /* the rest of the text */
	size_t no;                  /* number of the current line, from 1 */
	char buf[IMPORT_LINE_MAX];  /* the current line, without its end of line */
	int cut;                    /* it was longer than the buffer */
};

void lines_init(struct lines *l, const char *text);

/* The next line into l->buf. Returns 1, or 0 at the end of the text. */
int lines_next(struct lines *l);

/* Is the line blank (spaces only)? */
int line_blank(const char *s);

/* Split s (modified) at blanks into at most cap tokens. Returns the count,
 * or cap + 1 when there are more. */
size_t line_tokens(char *s, char **tok, size_t cap);

/* The line as it may be shown in an error: printable ASCII only (a tab a
 * space, others '?'), at most 40 characters. Every line a parser quotes
 * goes through here (file-borne text reaching a terminal). Returns buf. */
const char *import_excerpt(const char *line, char *buf, size_t len);

/* "FILE: line N: WHAT, got 'EXCERPT'". Always returns -1. */
int import_bad_line(mt_error *e, const char *file, const struct lines *l, const char *what);

/* A size with a unit, "4k", "128m", "1g", "64K" (KiB, MiB, GiB), into bytes.
 * Returns 0 or -1. */
int import_parse_unit_size(const char *s, uint64_t *out);

/* A non-negative finite number. Returns 0 or -1. */
int import_parse_value(const char *s, double *out);

/* A latency result for an import from tool format: these sizes, no
 * clock (ghz 0), pages unknown, every point unmeasured (NAN). NULL when out
 * of memory or n is 0 or more than LATENCY_MAX_SIZES. */
struct latency_result *import_latency_new(const uint64_t *sizes, size_t n, const char *format);

#endif
