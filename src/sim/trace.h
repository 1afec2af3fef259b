/* trace: the reader of valgrind-lackey / cachelab memory traces.
 *
 * One line per record, "[space]OP ADDRESS,SIZE":
 *     I  0400d7d4,8      instruction fetch: ignored
 *      L 7ff000398,8     a load
 *      S 7ff000398,8     a store
 *      M 0421c7f0,4      a modify: a load then a store to the same address
 * ADDRESS is hex (at most 64 bits, leading zeros allowed, no 0x), SIZE
 * decimal; the size never splits an access. Leading and trailing spaces or
 * tabs, CRLF line ends and blank lines are tolerated; valgrind's own
 * "==PID== ..." and "--PID-- ..." lines are skipped. Anything else stops the
 * read with "FILE:LINE: what is wrong". */
#ifndef MEMTOP_TRACE_H
#define MEMTOP_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

/* One L, S or M record of a trace. */
struct trace_rec {
	uint64_t addr;
	uint32_t size;
	char op;            /* 'L', 'S' or 'M' */
	unsigned long line; /* 1-based line number in the file */
};

/* Parse one line (len bytes, no '\n'; a trailing '\r' is allowed). Returns 1
 * and fills rec (all but rec->line) for an L/S/M record, 0 for a line to skip
 * (blank, I, valgrind's ==PID==/--PID-- lines), or -1 with *why pointing to
 * a static sentence ("bad op 'X' (expected I, L, S or M)"). */
int trace_parse_line(const char *s, size_t len, struct trace_rec *rec, const char **why);

struct trace_reader;

/* Open a trace file for reading ("-" reads standard input). Returns NULL with
 * e ("PATH: No such file or directory") on failure. */
struct trace_reader *trace_open(const char *path, mt_error *e);

/* What trace_read returns when it fails: the input is not a trace (exit 2)
 * or it could not be read (exit 1). */
enum { TRACE_BAD_INPUT = -1, TRACE_READ_ERROR = -2 };

/* Read up to max records into out. Returns the count (> 0), 0 at the end of
 * the file, TRACE_BAD_INPUT with e = "FILE:LINE: what is wrong" (malformed
 * line, line longer than 4096 bytes) or TRACE_READ_ERROR with e = "FILE:
 * read error: why". Records before a bad line are returned by earlier calls
 * first. */
long trace_read(struct trace_reader *r, struct trace_rec *out, size_t max, mt_error *e);

/* Close the reader (NULL is fine). */
void trace_close(struct trace_reader *r);

/* ---- writing: the traces the labs write for `memtop sim -t` ------------- */

struct trace_writer;

/* Start writing the trace path: records go to a temporary file beside it,
 * renamed to path by trace_writer_commit (nothing half-written is ever
 * at path). Returns NULL with e ("PATH: cannot create ...") on failure. */
struct trace_writer *trace_writer_open(const char *path, mt_error *e);

/* One record " OP ADDRESS,SIZE" (op 'L', 'S' or 'M'; the address in hex
 * without 0x, as valgrind's lackey writes it). A write error is kept and
 * reported by trace_writer_commit. */
void trace_writer_add(struct trace_writer *w, char op, uint64_t addr, unsigned size);

/* Flush, fsync and rename the trace into place; frees w. Returns 0, or -1
 * with e ("PATH: write failed: ...") and the temporary file removed. */
int trace_writer_commit(struct trace_writer *w, mt_error *e);

/* Give up: remove the temporary file and free w (NULL is fine). */
void trace_writer_abort(struct trace_writer *w);

#endif
