/* compare_table: memtop compare's tables readable at 80 columns for up to
 * eight machines: one 9-column column per machine (A, B, ...) beside the
 * row label, no ratio columns beside them; under each table the median
 * ratio of every machine to A over its rows and a verdict row (faster,
 * slower, same: within 5 %). Long header lines wrap in whole words. */
#ifndef MEMTOP_COMPARE_TABLE_H
#define MEMTOP_COMPARE_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "run/result_kind.h"
#include "run/runhdr.h"

#define CMP_WIDTH 80      /* the terminal the tables are made for */
#define CMP_MAX_FILES 8   /* 7 + 8 x 9 = 79 columns */
#define CMP_MAX_ROWS 128

struct cmp_table {
	int nfiles;
	int higher_is_better;          /* MB/s: 1; ns: 0 */
	int decimals;                  /* of the values */
	size_t nrows;
	double ratio[CMP_MAX_FILES][CMP_MAX_ROWS]; /* each row's value / A's */
};

/* Print text on f from column indent, wrapped in whole words within
 * CMP_WIDTH - 1 columns (the tables' width: the last column stays free);
 * the first line starts with lead in the indent (NULL: blank). A word
 * longer than a line (a deep path) breaks after its last '/' that fits,
 * else at the edge: no line is wider. */
void cmp_wrapped(FILE *f, int indent, const char *lead, const char *text);

/* Which file is which, above a comparison: "A: PATH" (printable, wrapped),
 * its hardware line, build, load before the run and the warnings it
 * recorded. */
void compare_print_header(char tag, const char *source, const struct run_header *h);

/* A lab's compare: compare_print_header for each of f[0..n), tagged A, B,
 * ..., then show(f, nf), nf being n or CMP_MAX_FILES when fewer. Returns
 * MT_EXIT_OK. */
int compare_files(const struct result_file *f, size_t n,
		  void (*show)(const struct result_file *f, int nf));

/* After a comparison's tables (compare_differs.c): for each file beside the
 * first, how its run measured where it differs from the first's (its
 * kind's method and --quick: "B measured 4064M, A 32M (--quick)"), then
 * the recorded conditions that differ and could act on these runs, most
 * telling first, each with what it moves and its source, then in one line
 * those that differ but could not (a THP mode where the runs' buffers get
 * the same pages under either, a governor where no clock moved); "nothing
 * memtop records" said too, and a file without conditions named. */
void compare_print_differs(const struct result_file *f, size_t n);

/* A table with ratio columns (the labs' compare): the first columns'
 * titles, then " A B ..." in 9 columns and " B/A C/A ..." in 8. */
void cmp_ratio_head(const char *first, int n);

/* One row of such a table after its label: v[0..n) printed with fmt (NAN:
 * "-"), then each v[i] / v[0] ("-" where either is NAN or v[0] <= 0). */
void cmp_ratio_row(const double *v, int n, const char *fmt);

/* "B vs A" over the points two files share: x (A's) and y (the other
 * file's) kept when both are measured (not NAN) and above 0, their relative
 * difference |y - x| / ((x + y) / 2) into d[n] and y / x into q[n].
 * Returns the count kept: n + 1, or n where the pair is left out. */
size_t cmp_pair_add(double *d, double *q, size_t n, double x, double y);

/* The line of the file tagged tag ('B', ...) against A from the n pairs
 * cmp_pair_add kept in d and q, on stdout: none (a format of tag) when n
 * is 0, else fmt (a format of tag, n, the median difference in %, tag
 * again and the median ratio; in the user's decimal separator). */
void cmp_pairs_line(char tag, const double *d, const double *q, size_t n, const char *none,
		    const char *fmt);

/* Start a table: its title line and the header, head over the rows'
 * labels (at most 7 characters: "size", "cpu>mem"), then "A  B ...". */
void cmp_begin(struct cmp_table *t, const char *title, const char *head, int nfiles,
	       int decimals, int higher_is_better);

/* One row: label and v[0..nfiles) (NAN printed "-"); its ratios to v[0]
 * kept for the verdict. */
void cmp_row(struct cmp_table *t, const char *label, const double *v);

/* The table's last rows: "ratio/A" (each machine's median ratio to A over
 * the rows) and "verdict" (faster, slower or same within 5 %). */
void cmp_end(struct cmp_table *t);

#endif
