/* algae: array of structs against struct of arrays, the book's algae
 * problems (CS:APP 6.18-6.20) as seed 003 tells them. A 16x16 grid of
 * {int x, y} (8 bytes a struct, grid[i][j] at (i*16+j)*8 from address 0)
 * read on a 1 KB direct-mapped cache with 16-byte blocks, reads only:
 *
 *   aos-two-passes  all x row by row, then all y row by row     512, 256
 *   aos-column      grid[j][i] column by column, x then y       512, 256
 *   aos-row         grid[i][j] row by row, x then y             512, 128
 *   soa-two-passes  x[256] at 0, y[256] at 1024: all x, all y   512, 128
 *   soa-one-pass    x[k] then y[k]: exactly 1 KB apart, so they
 *                   conflict on every read                      512, 512
 * (reads, misses). */
#ifndef MEMTOP_ALGAE_H
#define MEMTOP_ALGAE_H

#include <stdint.h>

#include "core/util.h"

#define ALGAE_CASES 5

struct algae_result {
	const char *name; /* "aos-two-passes" */
	const char *what; /* one line for the table */
	uint64_t reads, misses;
};

/* Simulate case i (0 <= i < ALGAE_CASES) on the 1 KB direct-mapped cache.
 * Returns 0 with *out, or -1 with e (i out of range, out of memory). */
int algae_run(int i, struct algae_result *out, mt_error *e);

#endif
