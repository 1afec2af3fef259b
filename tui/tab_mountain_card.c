/* tab_mountain_card: the book's summary card (CS:APP's Haswell figures,
 * data/ref) beside the bundled reference, the passport of each side in
 * seed 000's table, and the card file alone when memtop view is given it. */
#include "config.h"

#include "base/i18n.h"
#include "info/info.h"
#include "mountain/card.h"
#include "mountain/cliffs.h"
#include "mountain/cycles.h"
#include "mountain/passport.h"
#include "tab_mountain.h"

#include <math.h>
#include <string.h>

enum { CARD_ROW = 192 }; /* a card row's bytes: 36 columns of Cyrillic and more */

/* "14.0 GB/s", "900 MB/s"; with tilde for the book's rounded figures. */
static const char *card_mbs(char *buf, size_t len, double v, int about)
{
	if (isnan(v))
		mt_strlcpy(buf, "-", len);
	else if (v >= 1000)
		mt_hsnprintf(buf, len, _("%s%.1f GB/s"), about ? "~" : "", v / 1000);
	else
		mt_hsnprintf(buf, len, _("%s%.0f MB/s"), about ? "~" : "", v);
	return buf;
}

/* A row of the card: its name in 10 columns, the book's figure in 11, the
 * reference's (printf's "%-10s %-11s %s" in columns). */
static void card_row(char *row, size_t len, const char *name, const char *book, const char *ref)
{
	char n[96], b[96];
	mt_snprintf(row, len, "%s %s %s", mt_text_pad(n, sizeof n, name, -10),
		    mt_text_pad(b, sizeof b, book, -11), ref);
}

const char *mtab_cycles_text(char *buf, size_t len, double cycles)
{
	if (!isfinite(cycles))
		return cpw_fmt(buf, len, cycles);
	return mt_hnum(buf, len, cycles, cycles < 1 ? 2 : cycles < 10 ? 1 : 0);
}

/* The sizes L1d/L2/L3 the reference's recorded caches give ("-" where
 * none). */
static void card_caches(const struct mountain *m, char *buf, size_t len)
{
	struct info inf;
	mt_strlcpy(buf, "-", len);
	if (!m->caches || info_from_json(m->caches, &inf, m->source, NULL) < 0)
		return;
	buf[0] = '\0';
	for (int l = 1; l <= 3; l++) {
		char sz[16];
		uint64_t v = info_best_size(&inf, l, NULL);
		mt_append(buf, len, "%s%s", l > 1 ? "/" : "", v ? mt_fmt_size(sz, sizeof sz, v) : "-");
	}
}

/* What the reference's recorded caches say of its line ("128 B") and of
 * its efficiency cores' L1d ("64K"); "-" where they say nothing. */
static void card_recorded(const struct mountain *m, char *line, char *ecore, size_t len)
{
	struct info inf;
	mt_strlcpy(line, "-", len);
	mt_strlcpy(ecore, "-", len);
	if (!m->caches || info_from_json(m->caches, &inf, m->source, NULL) < 0)
		return;
	for (int s = 0; s < inf.nsources; s++)
		for (int i = 0; i < inf.src[s].nlevels; i++) {
			const struct cache_level *lv = &inf.src[s].lv[i];
			char sz[16];
			if (lv->level != 1 || strcmp(lv->type, "instruction") == 0)
				continue;
			if (lv->line > 0 && strcmp(line, "-") == 0)
				mt_snprintf(line, len, _("%d B"), lv->line);
			if (strcmp(lv->cores, "efficiency") == 0 && lv->size)
				mt_strlcpy(ecore, mt_fmt_size(sz, sizeof sz, lv->size), len);
		}
}

/* The cliffs the stride-8 column of m shows, named L1, L2, ... ("L1"),
 * "-" without such a column. */
static void card_stride8(const struct mountain *m, char *buf, size_t len)
{
	struct cliff cs[CLIFFS_MAX];
	int col = mountain_stride_index(m, CLIFFS_LINE_WORDS), n;
	mt_strlcpy(buf, "-", len);
	if (col < 0)
		return;
	n = cliffs_find(m, (size_t)col, CLIFF_MERGED, CLIFFS_RATIO, cs, CLIFFS_MAX, NULL);
	if (n > 0)
		buf[0] = '\0';
	for (int i = 0; i < n && i < 4; i++)
		mt_append(buf, len, "%sL%d", i ? ", " : "", i + 1);
}

/* The cycles a word at the L1 plateau and the loads in flight (seed 000):
 * the book's from its card file (data/ref/csapp-haswell-card.json), the
 * reference's from its file and its clock (the M4 Max: at most, at the
 * seed's 4.5 GHz bound). Appends their two rows to rows[]. */
static int card_cycle_rows(struct mountain_tab *s, char rows[][CARD_ROW], int n,
			   const struct mountain *m4)
{
	struct detection d;
	struct cpw_points pt;
	struct cpw_clock c;
	char a[32] = "-", b[32] = "-", f[32] = "-";
	if (s->have_card && s->card.hdr.clock.core_ghz > 0) {
		double hw = cpw_cycles(s->card.hdr.clock.core_ghz, s->card.l1_plateau);
		mtab_cycles_text(a, sizeof a, hw);
		if (s->card.l1_latency > 0)
			mt_hnum(f, sizeof f, cpw_in_flight(s->card.l1_latency, hw), 1);
	}
	cpw_clock_of(&m4->hdr, 0, &c);
	cliffs_detect(m4, CLIFFS_RATIO, &d);
	cpw_points_find(m4, &d, &pt);
	if (pt.have_l1 && c.how != CPW_UNKNOWN) {
		char v[16];
		mt_snprintf(b, sizeof b, "%s%s", c.how == CPW_BOUND ? "<= " : "",
			    mtab_cycles_text(v, sizeof v, cpw_cycles(c.ghz, pt.l1_mbs)));
	}
	/* TRANSLATORS: the card's row names, 10 columns at most: cycles a word
	 * at the L1 plateau, the loads in flight */
	card_row(rows[n++], CARD_ROW, _("c/word L1"), a, b);
	card_row(rows[n++], CARD_ROW, _("in flight"), f, "-");
	return n;
}

/* The book's Haswell figures exist only as a summary, so they are a
 * card beside the bundled reference, never a surface: the book's figures on
 * the left, the passport of the M4 Max reference computed from its file on
 * the right (seed 000's comparison table), the most telling rows first so
 * that a short area keeps them. Lines fit 36 columns. */
int mtab_draw_book_card(struct tui *t, struct mountain_tab *s, WINDOW *w, int y, int x, int width,
			int h)
{
	struct passport hw, m4;
	char rows[18][CARD_ROW], a[64], b[64], ecore[32];
	int n = 0, k = 0;
	passport_book_haswell(&hw);
	passport_compute(s->ref, &m4);
	/* TRANSLATORS: the card's row names (passport, peak, floor, ...), 10
	 * columns at most: seed 000's passport table */
	card_row(rows[n++], CARD_ROW, _("passport"), "Haswell", "M4 Max");
	card_row(rows[n++], CARD_ROW, _("peak"), card_mbs(a, sizeof a, hw.peak, 1),
		 card_mbs(b, sizeof b, m4.peak, 0));
	card_row(rows[n++], CARD_ROW, _("floor"), card_mbs(a, sizeof a, hw.floor, 1),
		 card_mbs(b, sizeof b, m4.floor, 0));
	card_row(rows[n++], CARD_ROW, C_("tab", "peak/floor"), mt_hnum(a, sizeof a, hw.ratio, 1),
		 mt_hnum(b, sizeof b, m4.ratio, 2));
	mt_hsnprintf(a, sizeof a, "~%.0f %%", 100 * hw.ridge_mid / hw.peak);
	mt_hsnprintf(b, sizeof b, "%.0f %%",
		     m4.ridge_rows ? 100 * m4.ridge_mid / m4.peak : (double)NAN);
	card_row(rows[n++], CARD_ROW, C_("tab", "ridge/peak"), a, b);
	mt_hsnprintf(a, sizeof a, _("~%.0f GB/s"),
		     (s->have_card ? s->card.ridge : hw.ridge_mid) / 1000);
	mt_hsnprintf(b, sizeof b, _("%.0f..%.0f GB/s"), m4.ridge_lo / 1000, m4.ridge_hi / 1000);
	card_row(rows[n++], CARD_ROW, _("ridge"), a, b);
	mt_snprintf(a, sizeof a, _("%llu B"), (unsigned long long)hw.line_bytes);
	mt_snprintf(b, sizeof b, _("%llu B"), (unsigned long long)m4.line_bytes);
	card_row(rows[n++], CARD_ROW, _("line knee"), a, b);
	card_recorded(s->ref, b, ecore, sizeof b);
	mt_snprintf(a, sizeof a, _("%llu B"),
		    (unsigned long long)(s->have_card && s->card.line ? s->card.line : 0));
	card_row(rows[n++], CARD_ROW, _("line (OS)"), s->have_card && s->card.line ? a : "-", b);
	card_stride8(s->ref, b, sizeof b);
	card_row(rows[n++], CARD_ROW, _("s8 cliffs"),
		 s->have_card && s->card.stride8[0] ? s->card.stride8 : "-", b);
	n = card_cycle_rows(s, rows, n, s->ref);
	card_caches(s->ref, b, sizeof b);
	card_row(rows[n++], CARD_ROW, _("caches"), "32K/256K/8M", b);
	card_row(rows[n++], CARD_ROW, _("E-core L1d"), "-", ecore);
	card_row(rows[n++], CARD_ROW, _("clock"), _("2.1 GHz"), _("<= 4.5 GHz"));
	card_row(rows[n++], CARD_ROW, "s1/s8", "-", mt_hnum(b, sizeof b, m4.s1_s8, 2));
	mt_strlcpy(rows[n++], _("Haswell: the book's figures only"), sizeof rows[0]);
	for (; k < n && y + k < h; k++) {
		wattrset(w, tui_attr(t, k == 0 ? ROLE_TITLE : k == n - 1 ? ROLE_DIM : ROLE_NORMAL));
		tui_put(t, w, y + k, x, width, rows[k]);
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	return k;
}

/* The card memtop view was given, alone (data/ref/csapp-haswell-card.json):
 * its own lines (card.h). Returns the lines drawn. */
int mtab_draw_card_file(struct tui *t, struct mountain_tab *s, WINDOW *w, int y, int x, int width,
			int h)
{
	char lines[CARD_LINES][CARD_WIDTH + 1];
	int n = card_lines(&s->card, lines, CARD_LINES), i;
	for (i = 0; i < n && y + i < h; i++) {
		wattrset(w, tui_attr(t, i < 2 ? ROLE_TITLE : ROLE_NORMAL));
		tui_put(t, w, y + i, x, width, lines[i]);
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	return i;
}
