/* passport: see passport.h. */
#include "config.h"

#include "base/i18n.h"

#include "passport.h"
#include "cliffs.h"

#include <math.h>
#include <string.h>


/* The book's Haswell summary, as seed 000 quotes it (MB/s, bytes). */
#define HASWELL_PEAK 14000.0
#define HASWELL_RIDGE 12000.0
#define HASWELL_FLOOR 900.0
#define HASWELL_LINE 64

static void clear(struct passport *p)
{
	memset(p, 0, sizeof *p);
	p->peak = p->floor = p->ratio = NAN;
	p->ridge_mid = p->ridge_lo = p->ridge_hi = NAN;
	p->s1_s8 = NAN;
}

/* The peak: the highest stride-1 cell, the smallest size left out when
 * there are three sizes or more. Returns its row, or -1. */
static int find_peak(const struct mountain *m, struct passport *p)
{
	int c1 = mountain_stride_index(m, 1), best = -1;
	size_t first = m->nsizes >= 3 ? 1 : 0;
	if (c1 < 0)
		return -1;
	for (size_t r = first; r < m->nsizes; r++) {
		double v = mountain_at(m, r, (size_t)c1);
		if (!isnan(v) && v > 0 && (best < 0 || v > p->peak)) {
			p->peak = v;
			best = (int)r;
		}
	}
	if (best >= 0)
		p->peak_size = m->sizes[best];
	return best;
}

/* The floor: the lowest cell of the largest size with a measured cell. */
static void find_floor(const struct mountain *m, struct passport *p)
{
	for (size_t r = m->nsizes; r-- > 0 && isnan(p->floor);)
		for (size_t c = 0; c < m->nstrides; c++) {
			double v = mountain_at(m, r, c);
			if (!isnan(v) && v > 0 && (isnan(p->floor) || v < p->floor)) {
				p->floor = v;
				p->floor_size = m->sizes[r];
				p->floor_stride = m->strides[c];
			}
		}
}

/* The ridge: stride-1 cells of the sizes after the peak's. */
static void find_ridge(const struct mountain *m, int peak_row, struct passport *p)
{
	double v[MOUNTAIN_MAX_SIZES * 4];
	size_t n = 0;
	int c1 = mountain_stride_index(m, 1);
	for (size_t r = (size_t)peak_row + 1; c1 >= 0 && r < m->nsizes && n < MT_ARRAY_LEN(v); r++) {
		double x = mountain_at(m, r, (size_t)c1);
		if (isnan(x) || x <= 0)
			continue;
		v[n++] = x;
		p->ridge_lo = isnan(p->ridge_lo) || x < p->ridge_lo ? x : p->ridge_lo;
		p->ridge_hi = isnan(p->ridge_hi) || x > p->ridge_hi ? x : p->ridge_hi;
	}
	p->ridge_rows = (int)n;
	if (n)
		p->ridge_mid = mt_median(v, n);
}

/* The row cliffs_detect reads the line size from: the first size at least
 * twice the first cliff at the first stride of CLIFFS_LINE_WORDS words or more
 * (else the largest stride), the middle size when that column has no cliff. */
static size_t line_row(const struct mountain *m)
{
	struct cliff cs[CLIFFS_MAX];
	size_t col = m->nstrides - 1, row = m->nsizes / 2;
	int n;
	for (size_t c = 0; c < m->nstrides; c++)
		if (m->strides[c] >= CLIFFS_LINE_WORDS) {
			col = c;
			break;
		}
	n = cliffs_find(m, col, CLIFF_MERGED, CLIFFS_RATIO, cs, CLIFFS_MAX, NULL);
	for (size_t r = 0; n > 0 && r < m->nsizes; r++)
		if (m->sizes[r] >= 2 * cs[0].level)
			return r;
	return row;
}

/* The line size row: the values, the knee, stride 1 / stride 8. */
static void find_line_row(const struct mountain *m, struct passport *p)
{
	size_t row = line_row(m);
	struct mountain *one;
	int i1 = -1, i8 = -1;
	p->row_size = m->sizes[row];
	if (m->full.n && m->full.size == p->row_size) {
		p->row_full = 1;
		p->row_n = m->full.n;
		memcpy(p->row_strides, m->full.strides, m->full.n * sizeof p->row_strides[0]);
		memcpy(p->row_mbs, m->full.mbs, m->full.n * sizeof p->row_mbs[0]);
	} else {
		p->row_n = m->nstrides < MOUNTAIN_MAX_STRIDES ? m->nstrides : MOUNTAIN_MAX_STRIDES;
		for (size_t c = 0; c < p->row_n; c++) {
			p->row_strides[c] = m->strides[c];
			p->row_mbs[c] = mountain_at(m, row, c);
		}
	}
	/* the knee by cliffs_line_size()'s rule, on the row as a mountain of its own */
	one = mountain_new(&p->row_size, 1, p->row_strides, p->row_n);
	if (one) {
		memcpy(one->mbs, p->row_mbs, p->row_n * sizeof one->mbs[0]);
		p->line_bytes = cliffs_line_size(one, 0);
		mountain_free(one);
	}
	for (size_t c = 0; c < p->row_n; c++) {
		if (p->row_strides[c] == 1)
			i1 = (int)c;
		if (p->row_strides[c] == CLIFFS_LINE_WORDS)
			i8 = (int)c;
	}
	if (i1 >= 0 && i8 >= 0 && p->row_mbs[i8] > 0)
		p->s1_s8 = p->row_mbs[i1] / p->row_mbs[i8];
}

int passport_compute(const struct mountain *m, struct passport *p)
{
	int peak_row;
	clear(p);
	if (!m || mountain_measured(m) == 0)
		return -1;
	peak_row = find_peak(m, p);
	find_floor(m, p);
	if (!isnan(p->peak) && !isnan(p->floor))
		p->ratio = p->peak / p->floor;
	if (peak_row >= 0)
		find_ridge(m, peak_row, p);
	find_line_row(m, p);
	return 0;
}

void passport_book_haswell(struct passport *p)
{
	clear(p);
	p->peak = HASWELL_PEAK;
	p->floor = HASWELL_FLOOR;
	p->ratio = HASWELL_PEAK / HASWELL_FLOOR;
	p->ridge_mid = p->ridge_lo = p->ridge_hi = HASWELL_RIDGE;
	p->ridge_rows = 1;
	p->row_size = 4u << 20; /* the book's stride slice is drawn at 4 MB */
	p->line_bytes = HASWELL_LINE;
}

/* "79876 55905 ..." of the line row into buf. */
static void row_values(const struct passport *p, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t c = 0; c < p->row_n; c++) {
		if (isnan(p->row_mbs[c]))
			mt_append(buf, len, "%s-", c ? " " : "");
		else
			mt_append(buf, len, "%s%.0f", c ? " " : "", p->row_mbs[c]);
	}
}

/* The passport's labels in the user's words, each padded to the widest
 * (in columns: a translated word): peak, floor, peak/floor, ridge, line row. */
enum { PP_PEAK, PP_FLOOR, PP_RATIO, PP_RIDGE, PP_ROW, PP_N };
static void passport_labels(char lab[PP_N][64], char *blank, size_t blen)
{
	/* TRANSLATORS: the passport's labels (seed 000, step 5): the
	 * mountain's peak, its floor, their ratio, the ridge (stride 1), the
	 * row the line size is read from */
	const char *w[PP_N] = { _("peak"), _("floor"), _("peak/floor"), _("ridge"), _("line row") };
	int width = 10;
	for (int i = 0; i < PP_N; i++)
		if (mt_text_cols(w[i]) > width)
			width = mt_text_cols(w[i]);
	for (int i = 0; i < PP_N; i++)
		mt_text_pad(lab[i], sizeof lab[i], w[i], -width);
	mt_text_pad(blank, blen, "", -width);
}

void passport_print(FILE *f, const struct passport *p, const char *indent)
{
	char a[32], b[32], vals[MOUNTAIN_MAX_STRIDES * 12], lab[PP_N][64], sp[64];
	passport_labels(lab, sp, sizeof sp);
	if (isnan(p->peak))
		fprintf(f, _("%s%s  - (no stride-1 column)\n"), indent, lab[PP_PEAK]);
	else
		mt_hfprintf(f, _("%s%s %6.0f MB/s (stride 1 at %s)\n"), indent, lab[PP_PEAK], p->peak,
			    mt_fmt_size(a, sizeof a, p->peak_size));
	if (!isnan(p->floor))
		mt_hfprintf(f, _("%s%s %6.0f MB/s (stride %u at %s)\n"), indent, lab[PP_FLOOR],
			    p->floor, p->floor_stride, mt_fmt_size(a, sizeof a, p->floor_size));
	if (!isnan(p->ratio))
		mt_hfprintf(f, "%s%s %6.2f\n", indent, lab[PP_RATIO], p->ratio);
	if (p->ridge_rows > 0)
		mt_hfprintf(f,
			    _("%s%s %6.0f MB/s at stride 1 past the peak (%.0f..%.0f): %.0f %% of "
			      "the peak (%.0f..%.0f %%)\n"),
			    indent, lab[PP_RIDGE], p->ridge_mid, p->ridge_lo, p->ridge_hi,
			    100 * p->ridge_mid / p->peak, 100 * p->ridge_lo / p->peak,
			    100 * p->ridge_hi / p->peak);
	else if (!isnan(p->peak))
		fprintf(f, _("%s%s  - (no size after the peak's)\n"), indent, lab[PP_RIDGE]);
	if (!p->row_size)
		return;
	row_values(p, vals, sizeof vals);
	fprintf(f,
		p->row_full ? _("%s%s %s (the full row), strides %u..%u: %s\n")
			    : _("%s%s %s, strides %u..%u: %s\n"),
		indent, lab[PP_ROW], mt_fmt_size(b, sizeof b, p->row_size),
		p->row_n ? p->row_strides[0] : 0, p->row_n ? p->row_strides[p->row_n - 1] : 0, vals);
	fprintf(f, "%s%s ", indent, sp);
	if (p->line_bytes)
		fprintf(f, _("flat from stride %llu = %llu bytes"),
			(unsigned long long)(p->line_bytes / 8), (unsigned long long)p->line_bytes);
	else if (p->row_n && p->row_strides[p->row_n - 1] <= CLIFFS_LINE_WORDS)
		/* a knee at the last stride cannot be told from one past it */
		fprintf(f, _("line size not measurable from strides %u..%u: run the full grid"),
			p->row_strides[0], p->row_strides[p->row_n - 1]);
	else
		fprintf(f, "%s", _("does not flatten within these strides"));
	if (!isnan(p->s1_s8))
		/* TRANSLATORS: after the line size, "; stride 1 / stride 8 = 3.41" */
		mt_hfprintf(f, _("; stride 1 / stride 8 = %.2f"), p->s1_s8);
	fprintf(f, "\n");
}

void passport_report(FILE *f, const struct mountain *m)
{
	struct passport p;
	if (passport_compute(m, &p) < 0)
		return;
	fprintf(f, "%s", _("passport (seed 000, step 5: write these down):\n"));
	passport_print(f, &p, "  ");
}
