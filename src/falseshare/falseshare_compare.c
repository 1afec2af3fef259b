/* falseshare_compare: memtop compare of saved false-sharing results: a row
 * per thread count and layout (ns per increment), each file's value and its
 * ratio to the first, then packed/padded within each file. */
#include "config.h"

#include "falseshare.h"
#include "base/i18n.h"
#include "base/util.h"
#include "render/compare_table.h"
#include "run/result_kind.h"

#include <math.h>
#include <stdio.h>

/* The result of file i. */
static const struct falseshare_result *fs(const struct result_file *f, int i)
{
	return f[i].r;
}

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
static size_t fs_threads(const struct result_file *f, int nf, unsigned *out)
{
	size_t n = 0;
	for (unsigned t = 1; t <= FALSESHARE_MAX_T; t++)
		for (int i = 0; i < nf; i++)
			if (fs_cell(fs(f, i), t, 0) || fs_cell(fs(f, i), t, 1)) {
				out[n++] = t;
				break;
			}
	return n;
}

static void compare_falseshare(const struct result_file *f, int nf)
{
	unsigned th[FALSESHARE_MAX_T];
	size_t nth = fs_threads(f, nf, th);
	double v[CMP_MAX_FILES];
	char head[128];
	fputs(_("\nns an atomic add, a thread (ms over the atomic adds: files of different "
		"--rounds compare)\n"),
	      stdout);
	for (int i = 0; i < nf; i++)
		/* TRANSLATORS: the file's letter, the atomic adds, the tries, the spacings */
		printf(MT_NGETTEXT(
			       "  %c: %llu atomic adds a thread, best of %d; packed %u B apart, "
			       "padded %u B\n",
			       "  %c: %llu atomic adds a thread, best of %d; packed %u B apart, "
			       "padded %u B\n",
			       fs(f, i)->tries),
		       'A' + i, (unsigned long long)fs(f, i)->rounds, fs(f, i)->tries,
		       fs(f, i)->packed, fs(f, i)->padded);
	/* TRANSLATORS: the heads of the first two columns (the threads, 7 columns;
	 * packed or padded, 6): 14 columns in all */
	cmp_ratio_head(mt_text_pad(head, sizeof head, _("threads layout"), -14), nf);
	for (size_t k = 0; k < nth; k++)
		for (int l = 0; l < 2; l++) {
			for (int i = 0; i < nf; i++) {
				const struct falseshare_cell *c = fs_cell(fs(f, i), th[k], l);
				v[i] = c ? c->ms * 1e6 / (double)fs(f, i)->rounds : (double)NAN;
			}
			printf("%7u %-6s", th[k], l ? "padded" : "packed");
			cmp_ratio_row(v, nf, " %9.2f");
		}
	fputs(_("\npacked/padded (the cost of sharing a line), within each file:\n"), stdout);
	for (size_t k = 0; k < nth; k++) {
		printf(MT_NGETTEXT("  %u threads:", "  %u threads:", th[k]), th[k]);
		for (int i = 0; i < nf; i++) {
			const struct falseshare_cell *p = fs_cell(fs(f, i), th[k], 0);
			const struct falseshare_cell *q = fs_cell(fs(f, i), th[k], 1);
			if (p && q && q->ms > 0)
				mt_hfprintf(stdout, "  %c %.2fx", 'A' + i, p->ms / q->ms);

			else
				printf("  %c -", 'A' + i);
		}
		printf("\n");
	}
}

int falseshare_compare(const struct result_file *f, size_t n, const struct result_compare_opts *o)
{
	(void)o;
	return compare_files(f, n, compare_falseshare);
}
