/* model: curses-free layout of the heatmap, bars, guess and side panel. */
#include "config.h"

#include "model.h"
#include "base/i18n.h"

#include <math.h>
#include <string.h>
#include <wchar.h>

/* ---- heatmap ------------------------------------------------------------ */

static void scale_of(const struct mountain *m, double *lo, double *hi)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nsizes * m->nstrides; i++) {
		double v = m->mbs[i];
		if (!isfinite(v) || v <= 0)
			continue;
		if (isnan(*lo) || v < *lo)
			*lo = v;
		if (isnan(*hi) || v > *hi)
			*hi = v;
	}
}

size_t hm_window(size_t cur, size_t n, size_t visible)
{
	if (visible >= n)
		return 0;
	if (cur < visible / 2)
		return 0;
	if (cur + visible - visible / 2 > n)
		return n - visible;
	return cur - visible / 2;
}

int hm_layout(const struct mountain *m, const struct mountain *ref, int width, int height,
	      size_t cur_row, size_t cur_col, struct hm_layout *L)
{
	int avail;
	memset(L, 0, sizeof *L);
	L->lo = L->hi = NAN;
	if (!m || m->nsizes == 0 || m->nstrides == 0)
		return -1;
	L->label_w = 5; /* "128M" + 1 */
	avail = width - L->label_w;
	if (avail < 2 || height < 2)
		return -1;
	/* widest cell that shows all strides: MB/s (6+1), GB/s (4+1), glyphs (2..3) */
	if (avail >= (int)m->nstrides * 7) {
		L->cell_w = 7;
		L->text = HM_TEXT_MBS;
	} else if (avail >= (int)m->nstrides * 5) {
		L->cell_w = 5;
		L->text = HM_TEXT_GBS;
	} else if (avail >= (int)m->nstrides * 3) {
		L->cell_w = 3;
		L->text = HM_TEXT_NONE;
	} else {
		L->cell_w = avail >= 5 * 3 ? 5 : 2; /* scroll sideways */
		L->text = L->cell_w == 5 ? HM_TEXT_GBS : HM_TEXT_NONE;
	}
	L->ncols = (size_t)(avail / L->cell_w);
	if (L->ncols > m->nstrides)
		L->ncols = m->nstrides;
	L->nrows = (size_t)(height - 1);
	if (L->nrows > m->nsizes)
		L->nrows = m->nsizes;
	if (cur_row >= m->nsizes)
		cur_row = m->nsizes - 1;
	if (cur_col >= m->nstrides)
		cur_col = m->nstrides - 1;
	L->row0 = hm_window(cur_row, m->nsizes, L->nrows);
	L->col0 = hm_window(cur_col, m->nstrides, L->ncols);
	L->width = L->label_w + (int)L->ncols * L->cell_w;
	L->height = 1 + (int)L->nrows;
	scale_of(m, &L->lo, &L->hi);
	scale_of(ref, &L->lo, &L->hi);
	return 0;
}

double hm_log_frac(double v, double lo, double hi, double flat)
{
	double f;
	if (!isfinite(v) || v <= 0 || isnan(lo) || isnan(hi))
		return NAN;
	if (!(hi > lo * 1.0001))
		return flat;
	f = log(v / lo) / log(hi / lo);
	return f < 0 ? 0 : f > 1 ? 1 : f;
}

double hm_frac(const struct hm_layout *L, double mbs)
{
	return hm_log_frac(mbs, L->lo, L->hi, 1.0);
}

int hm_level(double frac, int levels)
{
	if (isnan(frac) || levels < 1)
		return -1;
	int l = (int)lround(frac * (levels - 1));
	return l < 0 ? 0 : l >= levels ? levels - 1 : l;
}

void hm_cell_text(const struct hm_layout *L, double mbs, char *buf, size_t len)
{
	int w = L->cell_w - 1;
	char t[32] = "";
	if (L->text == HM_TEXT_NONE) {
		buf[0] = 0;
		return;
	}
	if (isfinite(mbs) && L->ratio) {
		mt_snprintf(t, sizeof t, mbs < 9.995 ? "%.2f" : mbs < 99.95 ? "%.1f" : "%.0f", mbs);
	} else if (isfinite(mbs)) {
		if (L->text == HM_TEXT_MBS)
			mt_snprintf(t, sizeof t, "%.0f", mbs);
		else if (mbs >= 99950)
			mt_snprintf(t, sizeof t, "%.0f", mbs / 1000);
		else
			mt_snprintf(t, sizeof t, "%.1f", mbs / 1000);
		if ((int)strlen(t) > w) /* too big for the cell: GB/s whole */
			mt_snprintf(t, sizeof t, "%.0fG", mbs / 1000);
	}
	mt_snprintf(buf, len, "%*s", w, t);
}

static const char ascii_density[] = " .:+#";

int hm_render_ascii(const struct mountain *m, const struct hm_layout *L, size_t cur_row,
		    size_t cur_col, char *out, size_t len)
{
	char lab[32], txt[32];
	int rc = 0;
	out[0] = 0;
	rc |= mt_append(out, len, "%*s", L->label_w, "");
	for (size_t c = L->col0; c < L->col0 + L->ncols; c++)
		rc |= mt_append(out, len, "%*u", L->cell_w, m->strides[c]);
	rc |= mt_append(out, len, "\n");
	for (size_t r = L->row0; r < L->row0 + L->nrows; r++) {
		rc |= mt_append(out, len, "%*s ", L->label_w - 1,
				mt_fmt_size(lab, sizeof lab, m->sizes[r]));
		for (size_t c = L->col0; c < L->col0 + L->ncols; c++) {
			double v = mountain_at(m, r, c);
			int cur = r == cur_row && c == cur_col;
			int after = r == cur_row && c > 0 && c - 1 == cur_col;
			hm_cell_text(L, v, txt, sizeof txt);
			if (L->text == HM_TEXT_NONE || !isfinite(v)) {
				/* measured cells are never blank: densities 1..4 */
				int lv = hm_level(hm_frac(L, v), 4);
				char g = lv < 0 ? ' ' : ascii_density[1 + lv];
				for (int i = 0; i < L->cell_w - 1; i++)
					txt[i] = g;
				txt[L->cell_w - 1] = 0;
			}
			rc |= mt_append(out, len, "%s%s", cur ? "[" : after ? "]" : " ", txt);
		}
		if (r == cur_row && cur_col + 1 == L->col0 + L->ncols)
			rc |= mt_append(out, len, "]");
		rc |= mt_append(out, len, "\n");
	}
	return rc ? -1 : 0;
}

/* ---- bars ---------------------------------------------------------------- */

int bar_eighths(double v, double max, int width)
{
	if (!isfinite(v))
		return -1;
	if (v <= 0 || max <= 0 || width <= 0)
		return 0;
	long e = lround(v / max * 8.0 * width);
	if (e < 1)
		e = 1;
	if (e > 8L * width)
		e = 8L * width;
	return (int)e;
}

double bar_max(const double *v, size_t n)
{
	double mx = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]) && v[i] > mx)
			mx = v[i];
	return mx;
}

const char *fmt_mbs_short(char *buf, size_t len, double mbs)
{
	if (!isfinite(mbs))
		mt_snprintf(buf, len, "%s", "");
	else if (mbs >= 99950)
		mt_hsnprintf(buf, len, "%.0fG", mbs / 1000);
	else if (mbs >= 1000)
		mt_hsnprintf(buf, len, "%.1fG", mbs / 1000); /* the user's decimal separator: 70,2G */
	else
		mt_hsnprintf(buf, len, "%.0fM", mbs);
	return buf;
}

/* ---- guess --------------------------------------------------------------- */

int guess_steps(uint64_t guess, uint64_t ref)
{
	if (guess == 0 || ref == 0)
		return -1;
	double d = fabs(log2((double)guess) - log2((double)ref));
	return (int)lround(d);
}

static void closeness(char *buf, size_t len, const char *who, uint64_t guess, uint64_t ref)
{
	char s[32];
	int st = guess_steps(guess, ref);
	if (ref == 0) {
		mt_append(buf, len, "; %s: unknown", who);
		return;
	}
	mt_fmt_size(s, sizeof s, ref);
	if (st == 0)
		mt_append(buf, len, "; %s says %s (exact)", who, s);
	else
		mt_append(buf, len, "; %s says %s (%d step%s %s)", who, s, st, st == 1 ? "" : "s",
			  guess < ref ? "below" : "above");
}

const char *guess_sentence(int level, uint64_t guess, uint64_t det, uint64_t sys,
			   const char *sys_name, char *buf, size_t len)
{
	char g[32];
	mt_snprintf(buf, len, "L%d: you said %s", level, mt_fmt_size(g, sizeof g, guess));
	if (det)
		closeness(buf, len, "the mountain's cliff", guess, det);
	else
		mt_append(buf, len, "; the mountain shows no cliff for it");
	closeness(buf, len, sys_name, guess, sys);
	return buf;
}

/* The byte length of the UTF-8 character that starts with c (1 for a stray
 * continuation byte, so that a broken string still advances). */
static int utf8_len(unsigned char c)
{
	return c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
}

/* The character at s: its bytes (at least 1 before the end, 0 at it) and
 * its display columns into *cols, wcwidth's (0 for a combining mark, 2 for
 * a wide one); 1 where wcwidth knows none (a locale without UTF-8: the
 * terminal then shows one stand-in a character). */
static int char_at(const char *s, int *cols)
{
	const unsigned char *u = (const unsigned char *)s;
	int n = utf8_len(u[0]), w;
	uint32_t cp;
	if (!u[0]) {
		*cols = 0;
		return 0;
	}
	if (n == 1) {
		*cols = 1;
		return 1;
	}
	cp = u[0] & (0x3f >> (n - 1));
	for (int i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80) { /* cut short: a byte a column */
			*cols = 1;
			return i;
		}
		cp = cp << 6 | (u[i] & 0x3f);
	}
	w = wcwidth((wchar_t)cp);
	*cols = w < 0 ? 1 : w;
	return n;
}

/* The byte offset of column col in s (or the end of s). */
static int byte_at_col(const char *s, int col)
{
	int i = 0, c;
	while (s[i]) {
		int n = char_at(s + i, &c);
		if (c > col)
			break;
		col -= c;
		i += n;
	}
	return i;
}

int text_cols(const char *s)
{
	int n = 0, c;
	while (*s) {
		s += char_at(s, &c);
		n += c;
	}
	return n;
}

int text_fit(const char *s, int width, int *cols)
{
	int best = 0, best_cols = 0, c = 0, w;
	for (int i = 0;;) {
		if (s[i] == '\0' || s[i] == ' ') {
			if (c > width)
				break;
			best = i;
			best_cols = c;
			if (s[i] == '\0')
				break;
		}
		if (c > width)
			break;
		i += char_at(s + i, &w);
		c += w;
	}
	/* trailing blanks of the kept part are not printed */
	while (best > 0 && s[best - 1] == ' ') {
		best--;
		best_cols--;
	}
	if (cols)
		*cols = best_cols;
	return best;
}

int wrap_at(const char *s, int width)
{
	int n;
	if (width < 1)
		width = 1;
	if (text_cols(s) <= width)
		return (int)strlen(s);
	n = text_fit(s, width, NULL);
	if (n == 0) /* a word wider than width: cut, at least one character */
		n = byte_at_col(s, width);
	if (n == 0)
		n = char_at(s, &width);
	return n;
}

int text_clauses_fit(const char *s, int width)
{
	int depth = 0, best = 0, cols = 0, c;
	for (int i = 0;;) {
		int end = s[i] == '\0' ||
			  (depth == 0 && (s[i] == ',' || s[i] == ';' || s[i] == ':') && s[i + 1] == ' ');
		if (end && cols <= width)
			best = i;
		if (s[i] == '\0' || cols > width)
			break;
		depth += s[i] == '(' ? 1 : s[i] == ')' && depth > 0 ? -1 : 0;
		i += char_at(s + i, &c);
		cols += c;
	}
	return best;
}

int text_lines(const char *s, int width, int *off, int *len, int max)
{
	int pos = 0, n = 0;
	if (width < 1)
		width = 1;
	while (s[pos] == ' ')
		pos++;
	while (s[pos]) {
		int k = wrap_at(s + pos, width);
		if (n < max) {
			off[n] = pos;
			len[n] = k;
		}
		n++;
		pos += k;
		while (s[pos] == ' ')
			pos++;
	}
	return n;
}

/* ---- side panel ---------------------------------------------------------- */

int latency_as_detection(const struct latency_levels *lv, struct detection *d)
{
	memset(d, 0, sizeof *d);
	if (!lv)
		return 0;
	for (size_t i = 0; i < lv->n && d->nlevels < (int)MT_ARRAY_LEN(d->level); i++) {
		const struct latency_level *l = &lv->lv[i];
		if (l->tlb || l->size == 0)
			continue;
		d->level[d->nlevels] = l->size;
		d->level_hi[d->nlevels] = l->step_end > l->size ? l->step_end : l->size;
		d->votes[d->nlevels] = (int)l->nstrides;
		d->confidence[d->nlevels] = 1.0;
		d->nlevels++;
	}
	return d->nlevels;
}

void side_columns(const struct detection *d, const uint64_t ref[3], int idx[3])
{
	for (int l = 0; l < 3; l++) {
		idx[l] = -1;
		if (ref[l] && cliffs_detect_verdict(d, ref[l], &idx[l]) == LV_NOT_VISIBLE)
			idx[l] = -1;
	}
	for (int l = 0; l < 3; l++) {
		int taken = 0;
		if (idx[l] >= 0 || l >= d->nlevels)
			continue;
		for (int o = 0; o < 3; o++)
			taken |= idx[o] == l;
		if (!taken)
			idx[l] = l;
	}
}

enum side_mark side_mark_of(const struct detection *d, const int idx[3], int l, uint64_t v)
{
	int at;
	enum level_verdict lv = cliffs_detect_verdict(d, v, &at);
	if (lv == LV_MATCH)
		return SIDE_MATCH;
	if (lv == LV_ONE_STEP)
		return SIDE_ONE_STEP;
	return idx[l] >= 0 ? SIDE_ELSEWHERE : SIDE_NOT_SEEN;
}
