/* labs_compare: the lab kinds' memtop compare: saved matmul, falseshare
 * lists and transpose results side by side, each loaded through its kind:
 * a row per order, per threads x layout, per list length x layout, the
 * value of every file and the ratio of each to the first ("-" where a file
 * has no such row), then the ratios the lesson reads within one machine. */
#include "config.h"

#include "falseshare.h"
#include "lists.h"
#include "matmul.h"
#include "transpose.h"
#include "core/result_kind.h"
#include "core/util.h"
#include "render/compare_table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every file's results of one kind (the others' pointers NULL). */
struct lab_files {
	int n;
	const struct matmul_result *mm[CMP_MAX_FILES];
	const struct falseshare_result *fs[CMP_MAX_FILES];
	const struct lists_result *ls[CMP_MAX_FILES];
	const struct transpose_result *tr[CMP_MAX_FILES];
};

/* The head of a table: the first columns' titles, then A B ... B/A C/A ... */
static void table_head(const char *first, int n)
{
	printf("%s", first);
	for (int i = 0; i < n; i++)
		printf(" %9c", 'A' + i);
	for (int i = 1; i < n; i++)
		printf(" %6c/A", 'A' + i);
	printf("\n");
}

/* The values of one row (NAN: the file has none) and the ratios to A. */
static void table_values(const double *v, int n, const char *fmt)
{
	for (int i = 0; i < n; i++)
		if (isnan(v[i]))
			printf(" %9s", "-");
		else
			printf(fmt, v[i]);
	for (int i = 1; i < n; i++)
		if (isnan(v[i]) || isnan(v[0]) || v[0] <= 0)
			printf(" %8s", "-");
		else
			printf(" %8.2f", v[i] / v[0]);
	printf("\n");
}

/* ---- matmul ---------------------------------------------------------- */

static double mm_ns(const struct matmul_result *r, int o)
{
	return r->res[o].have ? r->res[o].ns_iter : (double)NAN;
}

static void compare_matmul(const struct lab_files *f)
{
	double v[CMP_MAX_FILES];
	printf("\nns per inner-loop iteration\n");
	for (int i = 0; i < f->n; i++)
		printf("  %c: n = %zu, block %zu, %s\n", 'A' + i, f->mm[i]->n, f->mm[i]->block,
		       f->mm[i]->race ? "race (one run each)" : "best of tries");
	for (int i = 1; i < f->n; i++)
		if (f->mm[i]->n != f->mm[0]->n) {
			printf("  (n differs: the time an iteration grows with n once the matrices "
			       "leave the caches)\n");
			break;
		}
	table_head("order        class", f->n);
	for (int o = 0; o < MATMUL_NORDERS; o++) {
		int any = 0;
		for (int i = 0; i < f->n; i++)
			any |= !isnan(v[i] = mm_ns(f->mm[i], o));
		if (!any)
			continue;
		printf("%-12s %-5s", matmul_order_name(o), matmul_class_name(matmul_order_class(o)));
		table_values(v, f->n, " %9.2f");
	}
	printf("\nwithin each file:\n");
	for (int i = 0; i < f->n; i++) {
		const struct matmul_result *r = f->mm[i];
		double worst = fmax(mm_ns(r, MATMUL_JKI), mm_ns(r, MATMUL_KJI));
		double best = fmin(mm_ns(r, MATMUL_KIJ), mm_ns(r, MATMUL_IKJ));
		printf("  %c: worst/best order ", 'A' + i);
		if (isnan(worst) || isnan(best))
			printf("-");
		else
			printf("%.1fx", worst / best);
		printf("; ikj/blocked ");
		if (isnan(mm_ns(r, MATMUL_IKJ)) || isnan(mm_ns(r, MATMUL_BLOCKED)))
			printf("-\n");
		else
			printf("%.2fx\n", mm_ns(r, MATMUL_IKJ) / mm_ns(r, MATMUL_BLOCKED));
	}
}

/* ---- false sharing ---------------------------------------------------- */

/* The cell of r with these threads and layout (0 packed, 1 padded). */
static const struct falseshare_cell *fs_cell(const struct falseshare_result *r, unsigned threads,
					     int layout)
{
	for (size_t k = 0; k < r->nthreads; k++)
		if (r->threads[k] == threads && r->tab[k][layout].have)
			return &r->tab[k][layout];
	return NULL;
}

/* The thread counts of every file, once each, in increasing order. */
static size_t fs_threads(const struct lab_files *f, unsigned *out)
{
	size_t n = 0;
	for (unsigned t = 1; t <= FALSESHARE_MAX_T; t++)
		for (int i = 0; i < f->n; i++)
			if (fs_cell(f->fs[i], t, 0) || fs_cell(f->fs[i], t, 1)) {
				out[n++] = t;
				break;
			}
	return n;
}

static void compare_falseshare(const struct lab_files *f)
{
	unsigned th[FALSESHARE_MAX_T];
	size_t nth = fs_threads(f, th);
	double v[CMP_MAX_FILES];
	printf("\nns per increment per thread (ms / increments: files of different rounds "
	       "compare)\n");
	for (int i = 0; i < f->n; i++)
		printf("  %c: %llu increments a thread, best of %d; packed %u B apart, padded %u B\n",
		       'A' + i, (unsigned long long)f->fs[i]->rounds, f->fs[i]->tries,
		       f->fs[i]->packed, f->fs[i]->padded);
	table_head("threads layout", f->n);
	for (size_t k = 0; k < nth; k++)
		for (int l = 0; l < 2; l++) {
			for (int i = 0; i < f->n; i++) {
				const struct falseshare_cell *c = fs_cell(f->fs[i], th[k], l);
				v[i] = c ? c->ms * 1e6 / (double)f->fs[i]->rounds : (double)NAN;
			}
			printf("%7u %-6s", th[k], l ? "padded" : "packed");
			table_values(v, f->n, " %9.2f");
		}
	printf("\npacked/padded (the cost of sharing a line), within each file:\n");
	for (size_t k = 0; k < nth; k++) {
		printf("  %u threads:", th[k]);
		for (int i = 0; i < f->n; i++) {
			const struct falseshare_cell *p = fs_cell(f->fs[i], th[k], 0);
			const struct falseshare_cell *q = fs_cell(f->fs[i], th[k], 1);
			if (p && q && q->ms > 0)
				printf("  %c %.2fx", 'A' + i, p->ms / q->ms);
			else
				printf("  %c -", 'A' + i);
		}
		printf("\n");
	}
}

/* ---- lists ------------------------------------------------------------- */

static double ls_cyc(const struct lists_result *r, size_t cells, int layout)
{
	for (size_t k = 0; k < r->nlengths; k++)
		if (r->lengths[k] == cells && r->c[k][layout].have)
			return r->c[k][layout].cyc;
	return NAN;
}

/* Every length of every file, once, increasing. */
static size_t ls_lengths(const struct lab_files *f, size_t *out)
{
	size_t n = 0;
	for (int i = 0; i < f->n; i++)
		for (size_t k = 0; k < f->ls[i]->nlengths; k++) {
			size_t x = f->ls[i]->lengths[k], j = n;
			int seen = 0;
			for (size_t q = 0; q < n; q++)
				seen |= out[q] == x;
			if (seen || n == LISTS_MAX_LENGTHS * CMP_MAX_FILES)
				continue;
			while (j > 0 && out[j - 1] > x) {
				out[j] = out[j - 1];
				j--;
			}
			out[j] = x;
			n++;
		}
	return n;
}

static void compare_lists(const struct lab_files *f)
{
	size_t len[LISTS_MAX_LENGTHS * CMP_MAX_FILES], nlen = ls_lengths(f, len);
	double v[CMP_MAX_FILES];
	printf("\ncycles per cell of the walk\n");
	for (int i = 0; i < f->n; i++)
		printf("  %c: best of %d, %u multiply-adds of work a cell, core %.2f GHz\n", 'A' + i,
		       f->ls[i]->tries, f->ls[i]->work, f->ls[i]->hdr.clock.core_ghz);
	table_head("    cells layout    ", f->n);
	for (size_t k = 0; k < nlen; k++)
		for (int l = 0; l < LIST_NLAYOUTS; l++) {
			int any = 0;
			for (int i = 0; i < f->n; i++)
				any |= !isnan(v[i] = ls_cyc(f->ls[i], len[k], l));
			if (!any)
				continue;
			printf("%9zu %-10s", len[k], list_layout_name(l));
			table_values(v, f->n, " %9.1f");
		}
	printf("\nshuffled/sequential at each file's largest length:\n");
	for (int i = 0; i < f->n; i++) {
		const struct lists_result *r = f->ls[i];
		size_t big = r->nlengths ? r->lengths[0] : 0;
		double s, q;
		for (size_t k = 1; k < r->nlengths; k++)
			big = r->lengths[k] > big ? r->lengths[k] : big;
		s = ls_cyc(r, big, LIST_SEQUENTIAL);
		q = ls_cyc(r, big, LIST_SHUFFLED);
		if (isnan(s) || isnan(q) || s <= 0)
			printf("  %c at %zu cells: -\n", 'A' + i, big);
		else
			printf("  %c at %zu cells: %.1fx\n", 'A' + i, big, q / s);
	}
}

/* ---- transpose ----------------------------------------------------------- */

/* The misses of version (named) at rows x cols in r, or NAN. */
static double tr_misses(const struct transpose_result *r, const char *version, int rows, int cols)
{
	char name[32];
	for (int v = 0; v < r->nversions; v++)
		for (int z = 0; z < r->nsizes; z++)
			if (r->have[v][z] && r->rows[z] == rows && r->cols[z] == cols &&
			    strcmp(tr_version_name(&r->versions[v], name, sizeof name), version) == 0)
				return (double)r->sim[v][z].misses;
	return NAN;
}

/* The ns an element of real version (named) in r, or NAN. */
static double tr_real_ns(const struct transpose_result *r, const char *version)
{
	char name[32];
	for (int i = 0; i < r->nreal; i++)
		if (r->real_ns[i] > 0 &&
		    strcmp(tr_version_name(&r->real[i], name, sizeof name), version) == 0)
			return r->real_ns[i];
	return NAN;
}

/* The simulated misses, a row per version and size of A. */
static void compare_tr_sim(const struct lab_files *f)
{
	const struct transpose_result *a = f->tr[0];
	double v[CMP_MAX_FILES];
	char name[32], size[24];
	printf("\nmisses on the simulated cache\n");
	for (int i = 0; i < f->n; i++)
		printf("  %c: (s,E,b) = (%d,%d,%d)\n", 'A' + i, f->tr[i]->s, f->tr[i]->E, f->tr[i]->b);
	table_head("version    size   ", f->n);
	for (int k = 0; k < a->nversions; k++)
		for (int z = 0; z < a->nsizes; z++) {
			tr_version_name(&a->versions[k], name, sizeof name);
			for (int i = 0; i < f->n; i++)
				v[i] = tr_misses(f->tr[i], name, a->rows[z], a->cols[z]);
			if (isnan(v[0]))
				continue;
			mt_snprintf(size, sizeof size, "%dx%d", a->rows[z], a->cols[z]);
			printf("%-10s %-7s", name, size);
			table_values(v, f->n, " %9.0f");
		}
}

/* The real machine's ns an element, a row per version A timed. */
static void compare_tr_real(const struct lab_files *f)
{
	const struct transpose_result *a = f->tr[0];
	double v[CMP_MAX_FILES];
	char name[32];
	printf("\nns per element on the real machine\n");
	for (int i = 0; i < f->n; i++)
		if (f->tr[i]->real_n)
			printf("  %c: N = %zu, best of %d\n", 'A' + i, f->tr[i]->real_n,
			       f->tr[i]->real_tries);
		else
			printf("  %c: not timed\n", 'A' + i);
	table_head("version           ", f->n);
	for (int k = 0; k < a->nreal; k++) {
		tr_version_name(&a->real[k], name, sizeof name);
		for (int i = 0; i < f->n; i++)
			v[i] = tr_real_ns(f->tr[i], name);
		if (isnan(v[0]))
			continue;
		printf("%-18s", name);
		table_values(v, f->n, " %9.3f");
	}
}

static void compare_transpose(const struct lab_files *f)
{
	compare_tr_sim(f);
	if (f->tr[0]->real_n)
		compare_tr_real(f);
}

/* The files' headers, then their table by show. Returns MT_EXIT_OK. */
static int compare_lab(const struct result_file *f, size_t n, struct lab_files *lf,
		       void (*show)(const struct lab_files *lf))
{
	lf->n = (int)n;
	for (size_t i = 0; i < n; i++)
		compare_print_header((char)('A' + i), f[i].path, result_kind_header(f[i].r));
	show(lf);
	return MT_EXIT_OK;
}

int matmul_compare(const struct result_file *f, size_t n, const struct result_compare_opts *o)
{
	struct lab_files lf = { 0 };
	(void)o;
	for (size_t i = 0; i < n && i < CMP_MAX_FILES; i++)
		lf.mm[i] = f[i].r;
	return compare_lab(f, n, &lf, compare_matmul);
}

int falseshare_compare(const struct result_file *f, size_t n, const struct result_compare_opts *o)
{
	struct lab_files lf = { 0 };
	(void)o;
	for (size_t i = 0; i < n && i < CMP_MAX_FILES; i++)
		lf.fs[i] = f[i].r;
	return compare_lab(f, n, &lf, compare_falseshare);
}

int lists_compare(const struct result_file *f, size_t n, const struct result_compare_opts *o)
{
	struct lab_files lf = { 0 };
	(void)o;
	for (size_t i = 0; i < n && i < CMP_MAX_FILES; i++)
		lf.ls[i] = f[i].r;
	return compare_lab(f, n, &lf, compare_lists);
}

int transpose_compare(const struct result_file *f, size_t n, const struct result_compare_opts *o)
{
	struct lab_files lf = { 0 };
	(void)o;
	for (size_t i = 0; i < n && i < CMP_MAX_FILES; i++)
		lf.tr[i] = f[i].r;
	return compare_lab(f, n, &lf, compare_transpose);
}
