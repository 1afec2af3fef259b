/* compare_table: see compare_table.h. */
#include "config.h"

#include "compare_table.h"
#include "base/i18n.h"
#include "base/util.h"
#include "run/diag.h"

#include <math.h>
#include <string.h>

#define LABEL_W 7   /* "   size", "ratio/A": 7 + 8 x 9 = 79 columns */
#define COL_W 8     /* a machine's column, after one space */
#define SAME_WITHIN 0.05

void cmp_wrapped(FILE *f, int indent, const char *lead, const char *text)
{
	int room = CMP_WIDTH - 1 - indent; /* the last column left free, as everywhere */
	char pad[64];
	while (*text) {
		/* in columns, never bytes: the bytes of room columns of text */
		int n = (int)strlen(text), edge = (int)mt_text_cut(text, room, NULL), cut = n;
		if (edge < n) {
			for (cut = edge; cut > 0 && text[cut] != ' '; cut--)
				;
			if (cut == 0) /* one word longer than the line: after a '/' */
				for (cut = edge; cut > 0 && text[cut - 1] != '/'; cut--)
					;
			if (cut == 0) /* no '/' to break after: at the edge */
				cut = edge > 0 ? edge : 1;
		}
		fprintf(f, "%s%.*s\n", mt_text_pad(pad, sizeof pad, lead ? lead : "", -indent), cut,
			text);
		lead = NULL;
		text += cut;
		while (*text == ' ')
			text++;
	}
}

void cmp_begin(struct cmp_table *t, const char *title, const char *head, int nfiles,
	       int decimals, int higher_is_better)
{
	memset(t, 0, sizeof *t);
	t->nfiles = nfiles < CMP_MAX_FILES ? nfiles : CMP_MAX_FILES;
	t->decimals = decimals;
	t->higher_is_better = higher_is_better;
	char pad[128];
	printf("\n%s\n%s", title, mt_text_pad(pad, sizeof pad, head, LABEL_W));
	for (int i = 0; i < t->nfiles; i++)
		printf(" %*c", COL_W, 'A' + i);
	printf("\n");
}

void cmp_row(struct cmp_table *t, const char *label, const double *v)
{
	char pad[128];
	printf("%s", mt_text_pad(pad, sizeof pad, label, LABEL_W));
	for (int i = 0; i < t->nfiles; i++)
		if (isfinite(v[i]))
			mt_hfprintf(stdout, " %*.*f", COL_W, t->decimals, v[i]);
		else
			printf(" %*s", COL_W, "-");
	printf("\n");
	if (t->nrows == CMP_MAX_ROWS)
		return;
	for (int i = 0; i < t->nfiles; i++)
		t->ratio[i][t->nrows] = isfinite(v[i]) && isfinite(v[0]) && v[0] > 0 ? v[i] / v[0]
										      : (double)NAN;
	t->nrows++;
}

/* The median of the finite ratios of machine i (NAN when none). */
static double median_ratio(const struct cmp_table *t, int i)
{
	double v[CMP_MAX_ROWS];
	size_t n = 0;
	for (size_t r = 0; r < t->nrows; r++)
		if (isfinite(t->ratio[i][r]))
			v[n++] = t->ratio[i][r];
	return n ? mt_median(v, n) : (double)NAN;
}

void cmp_end(struct cmp_table *t)
{
	double m[CMP_MAX_FILES];
	char pad[64];
	/* TRANSLATORS: the heads of the last two rows of a comparison, 7 columns
	 * at most: the median ratio to file A, then the verdict */
	printf("%s", mt_text_pad(pad, sizeof pad, _("ratio/A"), -LABEL_W));
	for (int i = 0; i < t->nfiles; i++) {
		m[i] = median_ratio(t, i);
		if (isfinite(m[i]))
			mt_hfprintf(stdout, " %*.2f", COL_W, m[i]);
		else
			printf(" %*s", COL_W, "-");
	}
	printf("\n%s", mt_text_pad(pad, sizeof pad, _("verdict"), -LABEL_W));
	for (int i = 0; i < t->nfiles; i++) {
		const char *v = "-";
		if (i > 0 && isfinite(m[i])) {
			int better = t->higher_is_better ? m[i] > 1 : m[i] < 1;
			/* TRANSLATORS: a verdict in a column of 8: the file against A */
			v = fabs(m[i] - 1) <= SAME_WITHIN ? _("same")
			    : better			  ? _("faster")
							  : _("slower");
		} else if (i == 0) {
			v = "(A)";
		}
		printf(" %s", mt_text_pad(pad, sizeof pad, v, COL_W));
	}
	printf("\n");
}

void compare_print_header(char tag, const char *source, const struct run_header *h)
{
	char line[600], path[MT_PATH_MAX], lead[4] = { tag, ':', ' ', '\0' };
	/* the path is a name from a lab's share: printable first */
	cmp_wrapped(stdout, 3, lead, mt_printable(path, sizeof path, source, 0));
	cmp_wrapped(stdout, 3, NULL, h->hardware[0] ? h->hardware : _("(no hardware field)"));
	if (h->has_diag) {
		char w[8][DIAG_LINE];
		int n = diag_warnings(&h->diag, w, 8);
		/* TRANSLATORS: the build (optimized, debug) as recorded, the load average */
		mt_hsnprintf(line, sizeof line, _("build %s; load %.2f before the run"), h->build,
			     h->diag.load_before);
		cmp_wrapped(stdout, 3, NULL, line);
		for (int k = 0; k < n; k++) {
			mt_snprintf(line, sizeof line, _("warning: %s"), w[k]);
			cmp_wrapped(stdout, 3, NULL, line);
		}
	}
}

int compare_files(const struct result_file *f, size_t n,
		  void (*show)(const struct result_file *f, int nf))
{
	for (size_t i = 0; i < n; i++)
		compare_print_header((char)('A' + i), f[i].path, result_kind_header(f[i].r));
	show(f, n < CMP_MAX_FILES ? (int)n : CMP_MAX_FILES);
	return MT_EXIT_OK;
}

void cmp_ratio_head(const char *first, int n)
{
	printf("%s", first);
	for (int i = 0; i < n; i++)
		printf(" %9c", 'A' + i);
	for (int i = 1; i < n; i++)
		printf(" %6c/A", 'A' + i);
	printf("\n");
}

void cmp_ratio_row(const double *v, int n, const char *fmt)
{
	for (int i = 0; i < n; i++)
		if (isnan(v[i]))
			printf(" %9s", "-");
		else
			mt_hfprintf(stdout, fmt, v[i]);
	for (int i = 1; i < n; i++)
		if (isnan(v[i]) || isnan(v[0]) || v[0] <= 0)
			printf(" %8s", "-");
		else
			mt_hfprintf(stdout, " %8.2f", v[i] / v[0]);

	printf("\n");
}

size_t cmp_pair_add(double *d, double *q, size_t n, double x, double y)
{
	if (isnan(x) || isnan(y) || x <= 0 || y <= 0)
		return n;
	d[n] = fabs(y - x) / ((x + y) / 2);
	q[n] = y / x;
	return n + 1;
}

void cmp_pairs_line(char tag, const double *d, const double *q, size_t n, const char *none,
		    const char *fmt)
{
	if (n == 0)
		printf(none, tag);
	else
		mt_hfprintf(stdout, fmt, tag, n, mt_median(d, n) * 100, tag, mt_median(q, n));
}
