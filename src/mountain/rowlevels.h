/* rowlevels: the cache level of each size row of a mountain, as its
 * picture (memtop plot) and the Mountain tab name them. The levels are the
 * cliff finder's (cliffs_detect), but where another measurement of the
 * same machine puts a level elsewhere (a latency run: its random chase,
 * which no prefetcher follows, sees the cache the mountain's strided
 * streams are prefetched past), the rows follow that one, and a caption
 * says so: "L3 read from the latency run: 3.8 MB (FILE); the mountain's
 * cliff is at 16 MB, 4.3x: strided streams are prefetched past the cache". The
 * rows past the last level are memory only when memory was reached (the
 * other measurement reached it there, or the last cliff is the largest
 * cache recorded with the run); otherwise they are beyond the last cache
 * seen. (issue 20 point 14) */
#ifndef MEMTOP_ROWLEVELS_H
#define MEMTOP_ROWLEVELS_H

#include <stdint.h>

#include "mountain.h"

#define ROWLEVELS_MAX 4     /* cache levels named L1..L4 */
#define ROWLEVELS_AGREE 2.0 /* two sizes within this factor are one level */

/* Another measurement's cache levels of the mountain's machine. */
struct other_levels {
	uint64_t size[8];     /* its cache levels' sizes (the last size of each
			       * plateau), smallest first, TLBs left out */
	int n;
	int memory;           /* it reached memory, from memory_from on */
	uint64_t memory_from;
	char what[96];        /* for captions: "the latency run" */
	char file[96];        /* its file's name (printable), "" for none */
};

struct row_levels {
	int n;                          /* cache levels */
	uint64_t bound[ROWLEVELS_MAX];  /* level k holds the rows up to bound[k] */
	int from_other[ROWLEVELS_MAX];  /* bound[k] is the other measurement's */
	int memory;                     /* the rows past the last level are memory */
	int ncaptions;
	char caption[8][256]; /* one sentence each, no newline */
};

/* The levels of m's rows into out: the cliffs' (their ranges' lower ends);
 * with other (NULL: none), other's levels, each the mountain's cliff within
 * ROWLEVELS_AGREE of it, else other's size with a caption naming the cliff
 * it replaces; a cliff other has no level for is dropped with a caption,
 * unless it lies past other's last level on a curve that did not reach
 * memory. Returns out->n. */
int row_levels_find(const struct mountain *m, const struct other_levels *other,
		    struct row_levels *out);

/* The level index of a row of size bytes: k for level k, r->n beyond. */
int row_levels_of(const struct row_levels *r, uint64_t size);

/* What the rows past the last level are, for a legend: "beyond: memory",
 * "beyond the last cache seen", or "no cliff found" when there is no level. */
const char *row_levels_beyond(const struct row_levels *r);

#endif
