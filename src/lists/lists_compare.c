/* lists_compare: memtop compare of saved list-layout results: a row per
 * list length and layout (cycles per cell), each file's value and its ratio
 * to the first, then shuffled/sequential within each file. */
#include "config.h"

#include "lists.h"
#include "base/i18n.h"
#include "base/util.h"
#include "render/compare_table.h"
#include "run/result_kind.h"

#include <math.h>
#include <stdio.h>

/* The result of file i. */
static const struct lists_result *ls(const struct result_file *f, int i)
{
	return f[i].r;
}

static double ls_cyc(const struct lists_result *r, size_t cells, int layout)
{
	for (size_t k = 0; k < r->nlengths; k++)
		if (r->lengths[k] == cells && r->c[k][layout].have)
			return r->c[k][layout].cyc;
	return NAN;
}

/* Every length of every file, once, increasing. */
static size_t ls_lengths(const struct result_file *f, int nf, size_t *out)
{
	size_t n = 0;
	for (int i = 0; i < nf; i++)
		for (size_t k = 0; k < ls(f, i)->nlengths; k++) {
			size_t x = ls(f, i)->lengths[k], j = n;
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

static void compare_lists(const struct result_file *f, int nf)
{
	size_t len[LISTS_MAX_LENGTHS * CMP_MAX_FILES], nlen = ls_lengths(f, nf, len);
	double v[CMP_MAX_FILES];
	char head[128], c1[64], c2[64];
	fputs(_("\ncycles per cell of the walk\n"), stdout);
	for (int i = 0; i < nf; i++)
		/* TRANSLATORS: the file's letter, its tries, the work a cell, its clock */
		mt_hfprintf(stdout,
			    MT_NGETTEXT("  %c: best of %d, %u multiply-adds of work a cell, core "
					"%.2f GHz\n",
					"  %c: best of %d, %u multiply-adds of work a cell, core "
					"%.2f GHz\n",
					ls(f, i)->tries),
			    'A' + i, ls(f, i)->tries, ls(f, i)->work, ls(f, i)->hdr.clock.core_ghz);
	/* TRANSLATORS: the heads of the first two columns: 9 and 10 columns at most */
	mt_snprintf(head, sizeof head, "%s %s ", mt_text_pad(c1, sizeof c1, _("cells"), 9),
		    mt_text_pad(c2, sizeof c2, _("layout"), -10));
	cmp_ratio_head(head, nf);
	for (size_t k = 0; k < nlen; k++)
		for (int l = 0; l < LIST_NLAYOUTS; l++) {
			int any = 0;
			for (int i = 0; i < nf; i++)
				any |= !isnan(v[i] = ls_cyc(ls(f, i), len[k], l));
			if (!any)
				continue;
			printf(_("%9zu %-10s"), len[k], list_layout_name(l));
			cmp_ratio_row(v, nf, " %9.1f");
		}
	fputs(_("\nshuffled/sequential at each file's largest length:\n"), stdout);
	for (int i = 0; i < nf; i++) {
		const struct lists_result *r = ls(f, i);
		size_t big = r->nlengths ? r->lengths[0] : 0;
		double s, q;
		for (size_t k = 1; k < r->nlengths; k++)
			big = r->lengths[k] > big ? r->lengths[k] : big;
		s = ls_cyc(r, big, LIST_SEQUENTIAL);
		q = ls_cyc(r, big, LIST_SHUFFLED);
		if (isnan(s) || isnan(q) || s <= 0)
			printf(MT_NGETTEXT("  %c at %zu cells: -\n", "  %c at %zu cells: -\n", big),
			       'A' + i, big);
		else
			mt_hfprintf(stdout,
				    MT_NGETTEXT("  %c at %zu cells: %.1fx\n",
						"  %c at %zu cells: %.1fx\n", big),
				    'A' + i, big, q / s);
	}
}

int lists_compare(const struct result_file *f, size_t n, const struct result_compare_opts *o)
{
	(void)o;
	return compare_files(f, n, compare_lists);
}
