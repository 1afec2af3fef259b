/* import: what other memory benchmarks printed, read into memtop's results
 * (memtop import), so old logs can be analysed (memtop levels, cliffs),
 * compared and viewed. The formats, told apart by their content:
 *
 *   lmbench       lat_mem_rd's output: a '"stride=N' line, then one
 *                 "SIZE_MB NS" line per size, a blank line after each
 *                 stride. Each stride is a fixed-stride curve; lat_mem_rd -t
 *                 prints the same for its random chase, which the caller
 *                 has to say (import_opts.lmbench_random).
 *   tinymembench  its latency table: "block size : single random read /
 *                 dual random read[, [MADV_NOHUGEPAGE|MADV_HUGEPAGE]]", then
 *                 "BYTES : NS ns / NS ns". The single random read is the
 *                 random chase; its values are extra ns over the L1 latency
 *                 (the result says so: ns_over_l1). Both tables of one run
 *                 (4 KB and huge pages) become both curves.
 *   ramlat        sbc-bench's ramlat table: "size: 1x32 ... 1xPTR ...",
 *                 then "4k: NS NS ...", sizes in KiB; the 1xPTR column (one
 *                 dependent pointer chase) is the random chase.
 *   csapp         CS:APP's "Memory mountain (MB/sec)" table: a row of
 *                 strides "s1 s2 ... s15" (8-byte words), then "128m MB/s
 *                 ...", "16k ..." rows: a mountain in the seed's shape.
 *
 *   c2c           core-to-core-latency's --csv: N lines of N comma-separated
 *                 fields, the lower triangle the mean one-way ns of each pair
 *                 of its CPUs (import_c2c.c): a cores result.
 *
 * Lines before a table (banners, other tests) are skipped. Inside a table
 * every line must read: the first that does not fails the import with
 * "FILE: line N: ..." and nothing is made. */
#ifndef MEMTOP_IMPORT_H
#define MEMTOP_IMPORT_H

#include <stddef.h>

#include "base/util.h"
#include "cores/cores.h"
#include "latency/latency.h"
#include "mountain/mountain.h"

enum import_format {
	IMPORT_AUTO = 0, /* told from the content */
	IMPORT_LMBENCH,
	IMPORT_TINYMEMBENCH,
	IMPORT_RAMLAT,
	IMPORT_CSAPP,
	IMPORT_TABLE, /* a plain mountain table: "s1 s2 ..." over rows "128m T T ..." */
	IMPORT_C2C,   /* core-to-core-latency's --csv matrix */
};

struct import_opts {
	enum import_format format;
	int lmbench_random; /* lat_mem_rd -t: its curve is a random chase */
	const char *name;   /* the result's "hardware"; NULL: "imported from FILE" */
	const char *units;  /* a mountain table's throughput unit ("MB/s", "GB/s", "MiB/s",
			     * "GiB/s"); NULL: what the file says */
};

/* What one import made: a latency result or a mountain. */
struct import_result {
	enum import_format format;
	struct latency_result *lat;
	struct mountain *mtn;
	struct cores_result *cores; /* c2c: a core-to-core matrix */
};

/* "lmbench", "tinymembench", "ramlat", "csapp"; "auto". */
const char *import_format_name(enum import_format f);

/* Parse a --format value ("auto" included). Returns 0, or -1 when unknown. */
int import_format_parse(const char *s, enum import_format *out);

/* The format of text, from the first line that tells it; IMPORT_AUTO when
 * no line does. */
enum import_format import_detect(const char *text);

/* Read the file at path (at most 4 MB). Returns 0 with out filled, or -1
 * with e = "PATH: line N: ..." (bad input) or "PATH: reason" (unreadable). */
int import_file(const char *path, const struct import_opts *o, struct import_result *out,
		mt_error *e);

/* Add a second file of the same run on the other page size (tinymembench's
 * 4 KB-page and huge-page tables in two files): its random chase becomes
 * the result's second curve. Both files must say their pages, differ in
 * them and have the same sizes. Returns 0, or -1 with e naming the file. */
int import_add_pages(struct import_result *res, const char *path, const struct import_opts *o,
		     mt_error *e);

/* Free what out holds (NULL members are fine). */
void import_result_free(struct import_result *r);

/* The parsers on text; file names the input in errors. Each returns 0 with
 * a new result, or -1 with e set. */
int import_lmbench(const char *text, const char *file, int random, struct latency_result **out,
		   mt_error *e);
int import_tinymembench(const char *text, const char *file, struct latency_result **out,
			mt_error *e);
int import_ramlat(const char *text, const char *file, struct latency_result **out, mt_error *e);
/* A plain mountain table (stride columns "s1 s2 ..." or "size,s1,s2,...",
 * rows of a size such as "128m" or "16K" and the throughputs; blanks,
 * commas, semicolons or tabs apart) in the unit units names, or, when it is
 * NULL, the one the file states ("MB/s", "MB/sec", "GB/s", "MiB/s",
 * "GiB/s"); none of both is an error naming --units. */
int import_table(const char *text, const char *file, const char *units, struct mountain **out,
		 mt_error *e);

/* Is line a mountain table's row of strides ("s1 s2 ...", "size,s1,s2,...")? */
int import_is_stride_row(const char *line);

/* The MB/s (10^6 bytes a second) one unit stands for: "MB/s" 1, "GB/s"
 * 1000, "MiB/s" 1.048576, ... Returns 0, or -1 for a unit memtop does not
 * know. */
int import_units_scale(const char *unit, double *scale);
int import_csapp(const char *text, const char *file, struct mountain **out, mt_error *e);

/* core-to-core-latency's CSV (import_c2c.c): whether text starts as one
 * (a line of commas alone, then a line starting with a number), and the
 * parser (a cores result of CPUs 0..N-1, every pair, relations unknown). */
int import_c2c_detect(const char *text);
int import_c2c(const char *text, const char *file, struct cores_result **out, mt_error *e);

#endif
