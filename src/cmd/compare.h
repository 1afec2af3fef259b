/* compare: the parts of `memtop compare` (cmd_compare.c): one function per
 * kind of result, each printing the files side by side with the ratio of
 * every file to the first. Internal to src/cmd. */
#ifndef MEMTOP_COMPARE_H
#define MEMTOP_COMPARE_H

#include "core/runhdr.h"

#define COMPARE_MAX_FILES 8
#define COMPARE_MAX_STRIDES 16

/* The kinds memtop compare reads; the first file decides. */
enum compare_kind {
	COMPARE_MOUNTAIN,
	COMPARE_LATENCY,
	COMPARE_MATMUL,
	COMPARE_FALSESHARE,
	COMPARE_LISTS,
	COMPARE_OTHER /* a result memtop compare does not read (transpose, algae) */
};

/* "mountain", "latency", "matmul", ... */
const char *compare_kind_name(enum compare_kind k);

/* Which file is which: "A: PATH", its hardware line, build, load and the
 * warnings it recorded. */
void compare_print_header(char tag, const char *source, const struct run_header *h);

/* Mountains: the size slice at each of show[0..nshow) (nshow 0: 1 and 8
 * where every file has them, else the first stride they share), the ratios,
 * the median cell difference, the levels and the passports. Returns an
 * exit code. */
int compare_mountains(char **files, int nfiles, const unsigned *show, int nshow);

/* Lab results of one kind (matmul, falseshare, lists) side by side. Returns
 * an exit code (2 when a file is not of kind, naming it). */
int compare_labs(enum compare_kind kind, char **files, int nfiles);

#endif
