/* cliffs: reading cache sizes and the line size off a mountain.
 *
 * seed rule: on one stride column, a drop of more than `ratio` between
 * neighbouring sizes is a cliff; the last size before it estimates a cache.
 * merged rule (default): a cliff is a step of at least `ratio`; the steps
 * next to it that keep falling by at least 10 % with a smaller ratio than
 * their inner neighbour belong to the same slope and are merged into it, so
 * a boundary spread over two or three rows is one level, not two. */
#ifndef MEMTOP_CLIFFS_H
#define MEMTOP_CLIFFS_H

#include <stddef.h>
#include <stdint.h>

#include "mountain.h"

enum cliff_rule { CLIFF_SEED = 0, CLIFF_MERGED = 1 };
enum level_verdict { LV_MATCH, LV_ONE_STEP, LV_NOT_VISIBLE };

struct cliff {
	uint64_t from, to; /* last size that fit, first that did not (merged: the slope's ends) */
	double ratio;      /* throughput(from) / throughput(to) */
	uint64_t level;    /* the cache size this cliff estimates: `from` of its steepest step */
	uint64_t level_next; /* the size after level on the grid (the steepest step's `to`) */
	double confidence; /* 0..1: log(ratio) / log(2.5), capped: a 2.5x drop is certain */
};

#define CLIFFS_MAX 16

/* The seed's rule: a drop of more than this ratio between neighbouring
 * sizes of one stride column is a cliff (`cliffs --ratio` changes it). */
#define CLIFFS_RATIO 1.5

/* Strides of at least this many 8-byte words touch a new 64-byte line with
 * every read: the columns whose cliffs are the caches' (shorter strides
 * share lines and the prefetchers hide their cliffs). */
#define CLIFFS_LINE_WORDS 8

/* Cliffs on the stride column col of m. Unmeasured cells are skipped.
 * Returns the count (<= max), or -1 with e set when col is out of range. */
int cliffs_find(const struct mountain *m, size_t col, enum cliff_rule rule, double ratio,
		struct cliff *out, int max, mt_error *e);

/* What the mountain says about the caches, read like a latency curve: on
 * each column of a stride of at least one line (8 words; the largest stride
 * when none is that long), the time per access (1 / throughput) is read by
 * seg_levels() (src/base/segment.h: a penalised piecewise-constant fit of
 * its logarithm, transitions explained by the capacity bound, neighbouring
 * levels at least `ratio` apart; a cell whose two best tries differ by
 * more than 25 % is not read); the columns' steps within 2.5x of each other
 * are one level (two steps of one column there are one spread boundary),
 * kept when at least half of the columns show it. */
struct detection {
	int nlevels;
	uint64_t size[8];      /* each level's size: the median of its columns' steps */
	uint64_t level[8];     /* the range the cache lies in: the smallest step, */
	uint64_t level_hi[8];  /* ... and the size after the largest (inclusive) */
	double confidence[8];  /* 0..1: the share of the columns that show it */
	int votes[8];          /* columns that show it */
	uint64_t line_bytes;   /* line size from the stride slice, 0 unknown */
	unsigned strides_used[MOUNTAIN_MAX_STRIDES];
	size_t nstrides_used;
};

/* Detect the levels (ratio: the least ratio between neighbouring levels'
 * time per access, 1.5 by default) and the line size. Returns 0, or -1 when
 * the mountain has too few measured cells to say anything. */
int cliffs_detect(const struct mountain *m, double ratio, struct detection *d);

/* The steps one column col shows (as cliffs_detect reads it): the size
 * index of each step's last size before it into edge. Returns the count
 * (at most cap). */
size_t cliffs_column_steps(const struct mountain *m, size_t col, double ratio, size_t *edge,
			   size_t cap);

/* The verdict of a detection against a reference size (from sysfs): MATCH
 * when ref lies in [level, level_hi] of a level, ONE_STEP when within a
 * factor of two of such a range, NOT_VISIBLE otherwise; *which gets the
 * level judged (-1 when not visible). */
enum level_verdict cliffs_detect_verdict(const struct detection *d, uint64_t ref, int *which);

/* Line size from the stride slice of row: the smallest power-of-two stride
 * whose step down from half of it is a real drop (>= 1.2x) and after which
 * no larger stride falls more than 15 % below it. Returns bytes, or 0 when
 * the slice never flattens within the measured strides. */
uint64_t cliffs_line_size(const struct mountain *m, size_t row);

/* "matches", "off by one step", "not visible". */
const char *cliffs_verdict_name(enum level_verdict v);

#endif
