/* mountain_compare: the mountain kind's memtop compare: saved mountains
 * side by side: the size
 * slice at chosen strides with the ratio of every file to the first, the
 * median cell difference, the levels each shows and their passports. */
#include "config.h"

#include "base/i18n.h"

#include "cliffs.h"
#include "mountain.h"
#include "passport.h"
#include "base/util.h"
#include "render/compare_table.h"
#include "run/result_kind.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_CELLS 4096
#define MAX_SHOW 16 /* strides shown */

static int in_all(struct mountain **m, int n, unsigned stride)
{
	for (int i = 0; i < n; i++)
		if (mountain_stride_index(m[i], stride) < 0)
			return 0;
	return 1;
}

/* The strides shown when none is asked for: 1 and 8 where every file has
 * them, else the first stride of the first file they all share. Returns the
 * count (0: they share none). */
static int default_strides(struct mountain **m, int n, unsigned *show)
{
	int k = 0;
	if (in_all(m, n, 1))
		show[k++] = 1;
	if (in_all(m, n, 8))
		show[k++] = 8;
	for (size_t c = 0; k == 0 && c < m[0]->nstrides; c++)
		if (in_all(m, n, m[0]->strides[c]))
			show[k++] = m[0]->strides[c];
	return k;
}

/* The cells a and b share (same size and stride, both measured), at most
 * max, as cmp_pair_add keeps them in d and q. Returns the number of cells. */
static size_t cell_pairs(const struct mountain *a, const struct mountain *b, double *d, double *q,
			 size_t max)
{
	size_t n = 0;
	for (size_t r = 0; r < a->nsizes; r++) {
		int rb = mountain_size_index(b, a->sizes[r]);
		for (size_t c = 0; rb >= 0 && c < a->nstrides; c++) {
			int cb = mountain_stride_index(b, a->strides[c]);
			if (cb < 0 || n == max)
				continue;
			n = cmp_pair_add(d, q, n, mountain_at(a, r, c),
					 mountain_at(b, (size_t)rb, (size_t)cb));
		}
	}
	return n;
}

/* One stride's size slice: the sizes of the first file every file has, one
 * column per machine, the ratio to A and a verdict under it (80 columns for
 * up to eight files: compare_table.h). */
static void print_slice(struct mountain **m, int n, unsigned stride)
{
	struct cmp_table t;
	char title[64];
	mt_snprintf(title, sizeof title, _("stride %u (%u bytes), MB/s"), stride, stride * 8);
	cmp_begin(&t, title, _("size"), n, 0, 1);
	for (size_t r = 0; r < m[0]->nsizes; r++) {
		double val[CMP_MAX_FILES];
		char b[32];
		int all = 1;
		for (int i = 0; i < n && all; i++) {
			int ri = mountain_size_index(m[i], m[0]->sizes[r]);
			all = ri >= 0;
			if (all)
				val[i] = mountain_at(m[i], (size_t)ri,
						     (size_t)mountain_stride_index(m[i], stride));
		}
		if (all)
			cmp_row(&t, mt_fmt_size(b, sizeof b, m[0]->sizes[r]), val);
	}
	cmp_end(&t);
}

static void print_cell_stats(struct mountain **m, int n)
{
	static double d[MAX_CELLS], q[MAX_CELLS];
	printf("%s", _("\nover every cell the files share:\n"));
	for (int i = 1; i < n; i++) {
		size_t k = cell_pairs(m[0], m[i], d, q, MT_ARRAY_LEN(d));
		cmp_pairs_line((char)('A' + i), d, q, k, _("  %c vs A: no common cells\n"),
			       MT_NGETTEXT("  %c vs A: %zu cells, median cell difference %.1f %%, "
					   "median %c/A %.3f\n",
					   "  %c vs A: %zu cells, median cell difference %.1f %%, "
					   "median %c/A %.3f\n",
					   k));
	}
}

static void print_levels(struct mountain **m, int n)
{
	printf("%s", _("\nlevels by the mountain (merged cliffs at strides >= 8 words):\n"));
	for (int i = 0; i < n; i++) {
		struct detection d;
		char b[32];
		printf("  %c:", 'A' + i);
		if (cliffs_detect(m[i], CLIFFS_RATIO, &d) < 0 || d.nlevels == 0)
			printf("%s", _(" no cliffs"));
		for (int k = 0; k < d.nlevels; k++)
			printf(" L%d %s", k + 1, mt_fmt_size(b, sizeof b, d.level[k]));
		if (d.line_bytes)
			printf(_(", line %llu B"), (unsigned long long)d.line_bytes);
		printf("\n");
	}
}

/* v through fmt, or "-" when it is not a number. */
static void num(char *buf, size_t len, const char *fmt, double v)
{
	if (isfinite(v))
		mt_hsnprintf(buf, len, fmt, v);
	else
		mt_strlcpy(buf, "-", len);
}

/* The passports (passport.h), one row per file so that eight fit in 80
 * columns: peak, floor, their ratio, the ridge's share of the peak, the
 * line size row, its knee and stride 1 / stride 8. */
static void print_passports(struct mountain **m, int n)
{
	char ridge[16], row[16], line[24], s18[16], peak[16], floor_[16], ratio[16];
	char h[7][64];
	/* TRANSLATORS: the passports' table head: columns 10, 10, 10, 10, 8,
	 * 6 and 6 wide (the peak, the floor, their ratio, the ridge's share of
	 * the peak, the row the line size is read from, the line, stride 1 /
	 * stride 8) */
	printf("%s", _("\npassports (seed 000, step 5):\n"));
	printf("   %s %s %s %s %s %s %s\n", mt_text_pad(h[0], sizeof h[0], _("peak MB/s"), 10),
	       mt_text_pad(h[1], sizeof h[1], _("floor MB/s"), 10),
	       mt_text_pad(h[2], sizeof h[2], _("peak/floor"), 10),
	       mt_text_pad(h[3], sizeof h[3], _("ridge/peak"), 10),
	       mt_text_pad(h[4], sizeof h[4], _("line row"), 8),
	       mt_text_pad(h[5], sizeof h[5], _("line"), 6), mt_text_pad(h[6], sizeof h[6], "s1/s8", 6));
	for (int i = 0; i < n; i++) {
		struct passport p;
		passport_compute(m[i], &p);
		mt_strlcpy(ridge, "-", sizeof ridge);
		mt_strlcpy(row, "-", sizeof row);
		mt_strlcpy(line, "-", sizeof line);
		mt_strlcpy(s18, "-", sizeof s18);
		if (p.ridge_rows)
			mt_snprintf(ridge, sizeof ridge, "%.0f %%", 100 * p.ridge_mid / p.peak);
		if (p.row_size)
			mt_fmt_size(row, sizeof row, p.row_size);
		if (p.line_bytes)
			mt_snprintf(line, sizeof line, _("%llu B"), (unsigned long long)p.line_bytes);
		if (!isnan(p.s1_s8))
			mt_hsnprintf(s18, sizeof s18, "%.2f", p.s1_s8);
		num(peak, sizeof peak, "%.0f", p.peak);
		num(floor_, sizeof floor_, "%.0f", p.floor);
		num(ratio, sizeof ratio, "%.2f", p.ratio);
		printf("%c  %10s %10s %10s %10s %8s %s %6s\n", 'A' + i, peak, floor_, ratio, ridge,
		       row, mt_text_pad(h[5], sizeof h[5], line, 6), s18);
	}
}

int mountain_compare(const struct result_file *f, size_t nf, const struct result_compare_opts *o)
{
	struct mountain *m[CMP_MAX_FILES] = { NULL };
	unsigned show[MAX_SHOW];
	int nfiles = (int)nf, nshow = (int)o->nstrides;
	for (int i = 0; i < nfiles; i++)
		m[i] = f[i].r;
	for (int i = 0; i < nshow; i++)
		if (!in_all(m, nfiles, o->strides[i])) {
			mt_warn(_("compare: not every file has stride %u"), o->strides[i]);
			return MT_EXIT_USAGE;
		}
	for (int i = 0; i < nshow && i < MAX_SHOW; i++)
		show[i] = o->strides[i];
	nshow = nshow < MAX_SHOW ? nshow : MAX_SHOW;
	if (nshow == 0 && (nshow = default_strides(m, nfiles, show)) == 0) {
		mt_warn(_("compare: the files share no stride"));
		return MT_EXIT_USAGE;
	}
	for (int i = 0; i < nfiles; i++)
		compare_print_header((char)('A' + i), f[i].path, &m[i]->hdr);
	for (int s = 0; s < nshow; s++)
		print_slice(m, nfiles, show[s]);
	print_cell_stats(m, nfiles);
	print_levels(m, nfiles);
	print_passports(m, nfiles);
	return MT_EXIT_OK;
}
