/* passport: the few numbers of a mountain worth writing down (seed 000,
 * "Практика" step 5, and the Haswell against Apple M4 Max table): the peak,
 * the floor and their ratio; the stride-1 ridge as a share of the peak; the
 * line size row (the stride slice of the first size past L1, where the line
 * size is read) with its knee and its stride-1 / stride-8 ratio.
 *
 * Definitions, as the seed reads its own table:
 *   peak   the highest stride-1 cell ("вершина, L1 при шаге 1"); the
 *          smallest size is left out when there are three sizes or more,
 *          as it is overhead-bound (the seed: "самой маленькой строке горы
 *          не верь");
 *   floor  the lowest cell of the largest measured size ("дно, 128 МБ при
 *          большом шаге");
 *   ridge  the stride-1 cells of the sizes after the peak's: their median,
 *          lowest and highest, and those as shares of the peak ("хребет
 *          шага 1 через все уровни", about 85 % on both machines);
 *   line row  the stride slice of the first size at least twice the first
 *          cliff at the first stride of 8 words or more (the row cliffs_detect
 *          reads the line size from; the middle size when there is no cliff),
 *          taken from the file's full row when it has one at that size (the
 *          seed's row_256k); its knee by cliffs_line_size()'s rule, and
 *          stride 1 / stride 8 on it (79876 / 20841 = 3.83 on the M4 Max:
 *          "меньше четырёх раз", not eight).
 * A figure the mountain cannot give is NAN (0 for sizes and the line). */
#ifndef MEMTOP_PASSPORT_H
#define MEMTOP_PASSPORT_H

#include <stdint.h>
#include <stdio.h>

#include "mountain.h"

struct passport {
	double peak;            /* MB/s, NAN when there is no stride-1 column */
	uint64_t peak_size;
	double floor;           /* MB/s, NAN when nothing is measured */
	uint64_t floor_size;
	unsigned floor_stride;
	double ratio;           /* peak / floor */
	double ridge_mid, ridge_lo, ridge_hi; /* MB/s over ridge_rows sizes */
	int ridge_rows;
	uint64_t row_size;      /* the line size row, 0 none */
	int row_full;           /* the row came from the file's full row */
	size_t row_n;
	unsigned row_strides[MOUNTAIN_MAX_STRIDES];
	double row_mbs[MOUNTAIN_MAX_STRIDES];
	uint64_t line_bytes;    /* the row's knee, 0 when it does not flatten */
	double s1_s8;           /* stride 1 / stride 8 on the row, NAN without both */
};

/* Compute the passport of m. Returns 0 (figures m cannot give are NAN or
 * 0), or -1 when m has no measured cell at all. */
int passport_compute(const struct mountain *m, struct passport *p);

/* The book's Core i7 Haswell summary (CS:APP 3e, the figures seed 000
 * quotes: peak about 14 GB/s, stride-1 ridge about 12 GB/s, floor about
 * 900 MB/s, the 4 MB stride slice flat from stride 8 = 64 bytes) as a
 * passport, its ratios computed from those figures; no row values, no
 * stride-1 / stride-8 ratio (the seed does not give one). */
void passport_book_haswell(struct passport *p);

/* The passport as text, one figure a line, each line starting with indent:
 *   peak        89578 MB/s (stride 1 at 128K)
 *   floor        9304 MB/s (stride 15 at 128M)
 *   peak/floor   9.63
 *   ridge       78705 MB/s at stride 1 past the peak (76032..81794): 88 % of
 *               the peak (85..91 %)
 *   line row    256K (the full row), strides 1..15: 79876 55905 ...
 *               flat from stride 8 = 64 bytes; stride 1 / stride 8 = 3.83 */
void passport_print(FILE *f, const struct passport *p, const char *indent);

/* "passport (seed 000, step 5: write these down):" and the passport of m,
 * indented by two; nothing when m has no measured cell. For `memtop
 * cliffs`. */
void passport_report(FILE *f, const struct mountain *m);

#endif
