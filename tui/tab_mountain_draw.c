/* tab_mountain_draw: drawing the Mountain tab's area: the heatmap (or
 * the ratio map, or two side by side) and its legend, the slices as bar
 * charts, the passport, the knobs form, the line above the map, and the
 * cursor cell's reading (its cycles a word, the Latency tab's levels). */
#include "config.h"

#include "base/i18n.h"
#include "latency/latency.h"
#include "model.h"
#include "mountain/cliffs.h"
#include "mountain/cycles.h"
#include "mountain/passport.h"
#include "mountain/rowlevels.h"
#include "plot/plot_beside.h"
#include "tab_mountain.h"

#include <math.h>
#include <string.h>


static void draw_heatmap(struct tui *t, struct mountain_tab *s, WINDOW *w, const struct mountain *m,
			 int y, int x,
			 const struct hm_layout *L, int cursor, int ratio)
{
	char lab[32], txt[32];
	wattrset(w, tui_attr(t, ROLE_DIM));
	/* TRANSLATORS: the heatmap's corner above the sizes, 5 columns at most */
	mvwaddstr(w, y, x, ratio ? C_("tab", "ratio") : _(" size"));
	for (size_t c = L->col0; c < L->col0 + L->ncols; c++)
		mvwprintw(w, y, x + L->label_w + (int)(c - L->col0) * L->cell_w, "%*u",
			  L->cell_w, m->strides[c]);
	for (size_t r = L->row0; r < L->row0 + L->nrows; r++) {
		int yy = y + 1 + (int)(r - L->row0);
		wattrset(w, tui_attr(t, r == s->row && cursor ? ROLE_TITLE : ROLE_DIM));
		mvwprintw(w, yy, x, "%4s ", mt_fmt_size(lab, sizeof lab, m->sizes[r]));
		if (s->mode == MODE_GUESS && cursor) /* markers at the row's end */
			for (int i = 0; i < 3; i++)
				if (s->marker[i] == (int)r) {
					wattrset(w, tui_attr(t, ROLE_MARK));
					mvwprintw(w, yy, x + L->width + 1, "%sL%d%s",
						  tui_glyph(t, GL_LEFT), i + 1, i == s->sel ? "*" : "");
				}
		for (size_t c = L->col0; c < L->col0 + L->ncols; c++) {
			double v = mountain_at(m, r, c);
			double f = hm_frac(L, v);
			int cx = x + L->label_w + (int)(c - L->col0) * L->cell_w;
			int cur = cursor && r == s->row && c == s->col;
			int after = cursor && r == s->row && c > 0 && c - 1 == s->col;
			wattrset(w, tui_attr(t, cur || after ? ROLE_TITLE : ROLE_NORMAL));
			mvwaddstr(w, yy, cx, cur ? "[" : after ? "]" : " ");
			wattrset(w, cur ? tui_attr(t, ROLE_CURSOR) : tui_heat_attr(t, f));
			hm_cell_text(L, v, txt, sizeof txt);
			if (txt[0] && isfinite(v)) {
				if (!tui_colors(t) && txt[0] == ' ') {
					/* monochrome: a density glyph where the text leaves room */
					waddstr(w, tui_heat_glyph(t, f));
					waddstr(w, txt + 1);
				} else {
					waddstr(w, txt);
				}
			} else {
				const char *g = tui_heat_glyph(t, f);
				for (int i = 0; i < L->cell_w - 1; i++)
					waddstr(w, g);
			}
			if (cur && c + 1 == L->col0 + L->ncols) {
				wattrset(w, tui_attr(t, ROLE_TITLE));
				waddstr(w, "]");
			}
		}
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

static void draw_legend(struct tui *t, WINDOW *w, int y, int x, int width,
			const struct hm_layout *L, int ratio)
{
	char lo[32], hi[32];
	const char *scale = _("  log scale"), *cells;
	if (isnan(L->lo)) {
		wattrset(w, tui_attr(t, ROLE_DIM));
		tui_put(t, w, y, x, width,
			_("nothing measured yet: empty cells fill in as they are measured"));
		return;
	}
	if (ratio) {
		mt_hnum(lo, sizeof lo, L->lo, 2);
		mt_hnum(hi, sizeof hi, L->hi, 2);
	} else {
		fmt_mbs_short(lo, sizeof lo, L->lo);
		fmt_mbs_short(hi, sizeof hi, L->hi);
	}
	wattrset(w, tui_attr(t, ROLE_DIM));
	mvwprintw(w, y, x, "%s %6s ", ratio ? C_("tab", "ratio") : _("slow"), lo);
	tui_heat_ramp(t, w, tui_heat_levels(t) <= 6); /* a few levels: twice as wide */
	wattrset(w, tui_attr(t, ROLE_DIM));
	wprintw(w, " %s", hi);
	if (x + width - getcurx(w) > mt_text_cols(scale)) /* within the legend's width, whole words */
		waddstr(w, scale);
	cells = L->text == HM_TEXT_MBS ? _("; MB/s in cells") : _("; GB/s in cells");
	if (!ratio && x + width - getcurx(w) > mt_text_cols(cells) + 1 && L->text != HM_TEXT_NONE)
		waddstr(w, cells);
}

/* A horizontal bar chart of v[0..n) with labels; item cur highlighted;
 * scrolled to keep cur visible in h lines (the first is the title). */
static void draw_bars(struct tui *t, WINDOW *w, int y, int x, int width, int h,
		      const char *title, const double *v, const char *const *labels, size_t n,
		      size_t cur, const int *marks)
{
	double mx = bar_max(v, n);
	int barw = width - 5 - 1 - 7, lines = h - 1;
	size_t top = 0;
	char val[32];
	if (h < 2 || width < 20)
		return;
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y, x, width, title);
	if (n > (size_t)lines)
		top = cur < (size_t)lines / 2 ? 0
		      : cur + (size_t)lines - (size_t)lines / 2 > n ? n - (size_t)lines
								     : cur - (size_t)lines / 2;
	for (size_t i = top; i < n && i < top + (size_t)lines; i++) {
		int yy = y + 1 + (int)(i - top), e = bar_eighths(v[i], mx, barw);
		int mk = -1;
		for (int k = 0; marks && k < 3; k++)
			if (marks[k] == (int)i)
				mk = k;
		wattrset(w, tui_attr(t, i == cur ? ROLE_CURSOR : ROLE_DIM));
		mvwprintw(w, yy, x, "%5s", labels[i]);
		wattrset(w, tui_attr(t, ROLE_BAR));
		waddch(w, ' ');
		for (int c = 0; c < barw; c++) {
			int part = e - c * 8;
			waddstr(w, part >= 8 ? tui_bar_part(t, 8) : part > 0 ? tui_bar_part(t, part) : " ");
		}
		wattrset(w, tui_attr(t, i == cur ? ROLE_CURSOR : ROLE_NORMAL));
		wprintw(w, " %6s", fmt_mbs_short(val, sizeof val, v[i]));
		if (mk >= 0) {
			wattrset(w, tui_attr(t, ROLE_MARK));
			mvwprintw(w, yy, x + 6, "L%d", mk + 1);
		}
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

/* The passport of m (passport.h) in short lines, under title. */
static void draw_passport(struct tui *t, WINDOW *w, int y, int x, int width, int h,
			  const struct mountain *m, const char *title)
{
	struct passport p;
	char rows[9][192], a[32], b[32];
	int n = 0;
	if (passport_compute(m, &p) < 0) {
		wattrset(w, tui_attr(t, ROLE_DIM));
		tui_put(t, w, y, x, width, _("passport: nothing measured yet"));
		return;
	}
	/* TRANSLATORS: the passport's rows: their names in one column, the
	 * figures after them in another (pad every row's name alike) */
	mt_strlcpy(rows[n++], title, sizeof rows[0]);
	mt_hsnprintf(rows[n++], sizeof rows[0], _("peak       %6.0f MB/s stride 1, %s"), p.peak,
		     mt_fmt_size(a, sizeof a, p.peak_size));
	mt_hsnprintf(rows[n++], sizeof rows[0], _("floor      %6.0f MB/s stride %u, %s"), p.floor,
		     p.floor_stride, mt_fmt_size(a, sizeof a, p.floor_size));
	mt_hsnprintf(rows[n++], sizeof rows[0], _("peak/floor %6.2f"), p.ratio);
	mt_hsnprintf(rows[n++], sizeof rows[0], _("ridge      %6.0f MB/s, %.0f %% of the peak"),
		     p.ridge_mid, 100 * p.ridge_mid / p.peak);
	mt_hsnprintf(rows[n++], sizeof rows[0], _("           (%.0f..%.0f %%, stride 1 past it)"),
		     100 * p.ridge_lo / p.peak, 100 * p.ridge_hi / p.peak);
	mt_snprintf(rows[n++], sizeof rows[0],
		    p.row_full ? _("line row   %s full row (strides %u..%u)")
			       : _("line row   %s (strides %u..%u)"),
		    mt_fmt_size(b, sizeof b, p.row_size),
		    p.row_n ? p.row_strides[0] : 0, p.row_n ? p.row_strides[p.row_n - 1] : 0);
	if (p.line_bytes)
		mt_snprintf(rows[n++], sizeof rows[0], _("line       %llu B (flat from stride %llu)"),
			    (unsigned long long)p.line_bytes,
			    (unsigned long long)(p.line_bytes / 8));
	else
		mt_strlcpy(rows[n++], _("line       not visible on that row"), sizeof rows[0]);
	mt_hsnprintf(rows[n++], sizeof rows[0], _("s1/s8      %6.2f"), p.s1_s8);
	for (int k = 0; k < n && k < h; k++) {
		wattrset(w, tui_attr(t, k == 0 ? ROLE_TITLE : ROLE_NORMAL));
		tui_put(t, w, y + k, x, width, rows[k]);
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

/* The stride slice at the cursor's size: the file's full row when it has
 * one at this size (the seed's row_256k: strides 1..15 beside a 5-stride
 * grid), else the grid's row. Returns the count; *cur the cursor's stride. */
static size_t stride_slice(struct mountain_tab *s, const struct mountain *m, double *v,
			   char (*lab)[16], size_t *cur,
			   int *full)
{
	size_t n = m->nstrides < MOUNTAIN_MAX_STRIDES ? m->nstrides : MOUNTAIN_MAX_STRIDES;
	*full = m->full.n && m->full.size == m->sizes[s->row];
	*cur = s->col;
	if (*full)
		n = m->full.n;
	for (size_t c = 0; c < n; c++) {
		unsigned st = *full ? m->full.strides[c] : m->strides[c];
		v[c] = *full ? m->full.mbs[c] : mountain_at(m, s->row, c);
		mt_snprintf(lab[c], sizeof lab[c], "%u", st);
		if (*full && st == m->strides[s->col])
			*cur = c;
	}
	return n;
}

static void draw_slices(struct tui *t, struct mountain_tab *s, WINDOW *w, int y, int x, int width,
			int h, int stacked)
{
	const struct mountain *m = s->m;
	double vs[MOUNTAIN_MAX_SIZES], vc[MOUNTAIN_MAX_STRIDES];
	char ls[MOUNTAIN_MAX_SIZES][16], lc[MOUNTAIN_MAX_STRIDES][16];
	const char *ps[MOUNTAIN_MAX_SIZES], *pc[MOUNTAIN_MAX_STRIDES];
	char t1[192], t2[192], sz[32];
	int full;
	size_t ns = m->nsizes < MOUNTAIN_MAX_SIZES ? m->nsizes : MOUNTAIN_MAX_SIZES;
	size_t cc, nc = stride_slice(s, m, vc, lc, &cc, &full);
	for (size_t r = 0; r < ns; r++) {
		vs[r] = mountain_at(m, r, s->col);
		mt_fmt_size(ls[r], sizeof ls[r], m->sizes[r]);
		ps[r] = ls[r];
	}
	for (size_t c = 0; c < nc; c++)
		pc[c] = lc[c];
	mt_snprintf(t1, sizeof t1, _("size slice at stride %u"), m->strides[s->col]);
	mt_snprintf(t2, sizeof t2,
		    full ? _("stride slice at size %s, full row") : _("stride slice at size %s"),
		    mt_fmt_size(sz, sizeof sz, m->sizes[s->row]));
	if (stacked) {
		int h1 = (int)ns + 1, h2 = h - h1 - 1;
		if (h2 < (int)nc + 1) { /* share the lines */
			h1 = h / 2;
			h2 = h - h1 - 1;
		}
		draw_bars(t, w, y, x, width, h1, t1, vs, ps, ns, s->row,
			  s->mode == MODE_GUESS ? s->marker : NULL);
		draw_bars(t, w, y + h1 + 1, x, width, h2, t2, vc, pc, nc, cc, NULL);
	} else {
		int w1 = width / 2;
		draw_bars(t, w, y, x, w1 - 1, h, t1, vs, ps, ns, s->row,
			  s->mode == MODE_GUESS ? s->marker : NULL);
		draw_bars(t, w, y, x + w1, width - w1, h, t2, vc, pc, nc, cc, NULL);
	}
}

/* Under or beside the heatmap: the slices, or with P the passport of the
 * cursor's mountain. */
static void draw_lower(struct tui *t, struct mountain_tab *s, WINDOW *w, int y, int x, int width,
		       int h, int stacked)
{
	if (s->passport)
		draw_passport(t, w, y, x, width, h, s->m, _("Passport (seed 000, step 5)"));
	else
		draw_slices(t, s, w, y, x, width, h, stacked);
}

static void draw_form(struct tui *t, struct mountain_tab *s, WINDOW *w, int y, int x, int width)
{
	const struct mountain_params *p = &s->params;
	char lo[32], hi[32], line[320], sizes[64], strides[64];
	mt_fmt_size(lo, sizeof lo, p->sizes[0]);
	mt_fmt_size(hi, sizeof hi, p->sizes[p->nsizes - 1]);
	static const char *const names[NFIELDS] = { N_("max stride"), N_("smallest size"),
						    N_("largest size"), N_("tries agreeing") };
	char vals[NFIELDS][64], name[96], val[96];
	unsigned maxs = p->strides[p->nstrides - 1];
	mt_snprintf(vals[0], sizeof vals[0], MT_NGETTEXT("%u word", "%u words", maxs), maxs);
	mt_snprintf(vals[1], sizeof vals[1], "%s", lo);
	mt_snprintf(vals[2], sizeof vals[2], "%s", hi);
	mt_snprintf(vals[3], sizeof vals[3], MT_NGETTEXT("%u fastest", "%u fastest", p->kbest),
		    p->kbest);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y++, x, width,
		_("Knobs for the next r (up/down pick, left/right change, Enter done)"));
	for (int i = 0; i < NFIELDS; i++) {
		mt_snprintf(line, sizeof line, "%s %s %s %s %s", i == s->field ? ">" : " ",
			    mt_text_pad(name, sizeof name, _(names[i]), -14), tui_glyph(t, GL_LEFT),
			    mt_text_pad(val, sizeof val, vals[i], -10), tui_glyph(t, GL_RIGHT));
		wattrset(w, tui_attr(t, i == s->field ? ROLE_CURSOR : ROLE_NORMAL));
		tui_put(t, w, y++, x, width, line);
	}
	wattrset(w, tui_attr(t, ROLE_DIM));
	mt_snprintf(sizes, sizeof sizes, MT_NGETTEXT("%zu size", "%zu sizes", p->nsizes), p->nsizes);
	mt_snprintf(strides, sizeof strides, MT_NGETTEXT("%zu stride", "%zu strides", p->nstrides),
		    p->nstrides);
	/* TRANSLATORS: the grid: "13 sizes x 15 strides, about 1 s" */
	mt_hsnprintf(line, sizeof line, _("%s x %s, about %.0f s"), sizes, strides,
		     ceil(mountain_params_estimate_s(p)));
	tui_put(t, w, y, x, width, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

/* The line above the map: whose mountain, or what r will measure (the grid
 * as the memory a run may take caps it, said), in clauses whose first say
 * the grid and its time: a narrow room says them, never a cut. */
static void info_line(struct tui *t, struct mountain_tab *s, WINDOW *w, int width)
{
	char line[768], lo[32], hi[32], cap[160] = "", note[400], sizes[96], strides[64];
	size_t done = s->m ? mountain_measured(s->m) : 0;
	struct mountain_params q = s->params;
	const struct mountain_params *p = &q;
	mt_error e;
	if (mountain_params_fit_memory(&q, &s->budget, note, sizeof note, &e) == 0 &&
	    q.nsizes < s->params.nsizes && s->budget.job)
		mt_snprintf(cap, sizeof cap, _("; this job's %s caps it"),
			    mt_fmt_size(lo, sizeof lo, s->budget.job));
	else if (q.nsizes < s->params.nsizes)
		mt_strlcpy(cap, _("; the memory caps it"), sizeof cap);
	if (s->m && s->m->source[0]) {
		/* the machine first, then which file: a long hardware line loses
		 * words, the name stays */
		wattrset(w, tui_attr(t, ROLE_TITLE));
		tui_put_source(t, w, 0, 0, width,
			       s->m->hdr.hardware[0] ? s->m->hdr.hardware : s->m->hdr.cpu, s->m->source);
		wattrset(w, tui_attr(t, ROLE_NORMAL));
		return;
	}
	if (tui_running(t, &tab_mountain))
		mt_strlcpy(line,
			   s->single ? _("measuring one cell again: p pauses, x stops; cells fill in live")
			   : s->preview
				   ? _("measuring a first look at this machine: p pauses, x stops; cells "
				       "fill in live")
				   : _("measuring this machine: p pauses, x stops; cells fill in live"),
			   sizeof line);
	else if (done && s->preview && cap[0])
		mt_hsnprintf(line, sizeof line,
			     MT_NGETTEXT("a first look at %zu cell: r measures %zu x %zu, about %.0f s%s",
					 "a first look at %zu cells: r measures %zu x %zu, about %.0f s%s",
					 done),
			     done, p->nsizes, p->nstrides, ceil(mountain_params_estimate_s(p)), cap);
	else if (done && s->preview)
		mt_hsnprintf(line, sizeof line,
			     MT_NGETTEXT("a first look at %zu cell: r measures the full grid of %zu x "
					 "%zu, about %.0f s",
					 "a first look at %zu cells: r measures the full grid of %zu x "
					 "%zu, about %.0f s", done),
			     done, p->nsizes, p->nstrides, ceil(mountain_params_estimate_s(p)));
	else if (done)
		mt_hsnprintf(line, sizeof line,
			     tui_result_unsaved(t, &tab_mountain)
				     ? MT_NGETTEXT("this machine, %zu/%zu cell, unsaved (w); r measures "
						   "again (about %.0f s), f knobs",
						   "this machine, %zu/%zu cells, unsaved (w); r measures "
						   "again (about %.0f s), f knobs",
						   s->m->nsizes * s->m->nstrides)
				     : MT_NGETTEXT("this machine, %zu/%zu cell; r measures again (about "
						   "%.0f s), f knobs",
						   "this machine, %zu/%zu cells; r measures again (about "
						   "%.0f s), f knobs",
						   s->m->nsizes * s->m->nstrides),
			     done, s->m->nsizes * s->m->nstrides, ceil(mountain_params_estimate_s(p)));
	else {
		mt_snprintf(sizes, sizeof sizes, MT_NGETTEXT("%zu size %s..%s", "%zu sizes %s..%s",
							     p->nsizes),
			    p->nsizes, mt_fmt_size(lo, sizeof lo, p->sizes[0]),
			    mt_fmt_size(hi, sizeof hi, p->sizes[p->nsizes - 1]));
		mt_snprintf(strides, sizeof strides,
			    MT_NGETTEXT("%zu stride", "%zu strides", p->nstrides), p->nstrides);
		/* TRANSLATORS: the grid r measures ("13 sizes 16K..64M", "15
		 * strides"), its time, the memory's cap ("; the memory caps
		 * it" or nothing), the tries that must agree */
		mt_hsnprintf(line, sizeof line,
			     MT_NGETTEXT("r measures %s x %s, about %.0f s%s; fastest try, %u agreeing",
					 "r measures %s x %s, about %.0f s%s; fastest try, %u agreeing",
					 p->kbest),
			     sizes, strides, ceil(mountain_params_estimate_s(p)), cap, p->kbest);
	}
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, 0, 0, width, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

/* The cursor cell in words, with how far to trust it: the spread of its
 * fastest tries, the L1 canary's state around it, and its median try
 * when that is well below the fastest (a cell with two speeds). */
static void cell_words(struct mountain_tab *s, char *line, size_t len)
{
	const struct mountain *m = s->m;
	size_t i = s->row * m->nstrides + s->col;
	double v = m->mbs[i], sp = m->spread[i], ca = m->canary[i], ty = m->typical[i];
	char sz[32];
	size_t used;
	mt_snprintf(line, len, _("%s stride %u: "), mt_fmt_size(sz, sizeof sz, m->sizes[s->row]),
		    m->strides[s->col]);
	if (isnan(v)) {
		mt_append(line, len, "%s", _("not measured"));
		return;
	}
	/* each clause a format of its own: its figures in the user's decimals */
#define CELL_SAY(...) (used = strlen(line), mt_hsnprintf(line + used, len - used, __VA_ARGS__))
	CELL_SAY(_("%.0f MB/s"), v);
	if (!isnan(sp))
		CELL_SAY(_(", tries %.1f%% apart"), sp * 100);
	if (!isnan(ca) && ca > 1.15)
		CELL_SAY(_(", core %.2fx slow (canary)"), ca);
	else if (!isnan(ca))
		CELL_SAY("%s", _(", core at full speed"));
	if (isnan(sp) && isnan(ca))
		CELL_SAY("%s", _("; no spread recorded"));
	if (!isnan(ty) && ty < MOUNTAIN_TWO_SPEEDS * v)
		CELL_SAY(_("; median try %.0f MB/s (two speeds)"), ty);
#undef CELL_SAY
}

/* The Latency tab's run when it was measured on the machine of the
 * mountain shown (both here, or both files of one machine: their machine
 * ids, else their host and CPU), else NULL. */
static const struct latency_result *same_machine_latency(const struct tui *t,
							 struct mountain_tab *s)
{
	const struct latency_result *r = tui_latency(t);
	if (!r || !s->m || (s->m->source[0] != 0) != (r->source[0] != 0) ||
	    (s->m->source[0] && !run_header_same_machine(&s->m->hdr, &r->hdr)))
		return NULL;
	return r;
}

/* The level line: where the Latency tab's run of this machine and the
 * mountain's cliffs disagree, which level is read from the run and why
 * (rowlevels.h, the sentences memtop plot writes under the mountain), into
 * line; 0 when they agree or there is no such run. */
static int level_line(const struct tui *t, struct mountain_tab *s, char *line, size_t len)
{
	const struct latency_result *r = same_machine_latency(t, s);
	struct other_levels o;
	struct row_levels rl;
	if (!r)
		return 0;
	plot_latency_levels(r, NULL, 0, &o);
	mt_strlcpy(o.what, _("the Latency tab's run"), sizeof o.what);
	row_levels_find(s->m, &o, &rl);
	line[0] = '\0';
	for (int i = 0; i < rl.ncaptions; i++)
		mt_append(line, len, "%s%s", i ? "; " : "", rl.caption[i]);
	return rl.ncaptions > 0;
}

/* The L1 hit latency in cycles of the Latency tab's run, when it was
 * measured on the machine of the mountain shown (both here, or both files
 * from one host); 0 otherwise. */
static double l1_latency_cycles(const struct tui *t, struct mountain_tab *s)
{
	const struct latency_result *r = same_machine_latency(t, s);
	struct latency_levels lv;
	if (!r)
		return 0;
	latency_detect(r, &lv);
	for (size_t i = 0; i < lv.n; i++)
		if (!lv.lv[i].tlb && lv.lv[i].level == 1)
			return lv.lv[i].cycles;
	return 0;
}

/* The seed's cycles per word where the lesson reads it (src/mountain/
 * cycles.h): the cursor cell, the L1 plateau, the floor; the loads in
 * flight against the Latency tab's L1; where the clock comes from. Each
 * sentence wrapped in width columns from line y, the first ones first, down
 * to line h. Returns the next free line. */
static int draw_reading(struct tui *t, struct mountain_tab *s, WINDOW *w, int y, int x, int width,
			int h)
{
	struct detection d;
	struct cpw_points pt;
	struct cpw_clock clk;
	char txt[5][800], a[32], b[32], c[32], ph[96];
	double lat, l1c;
	int n = 0, most, sofar;
	size_t used;
	if (width < 20)
		return y;
	cpw_clock_of(&s->m->hdr, s->m->source[0] == 0, &clk);
	cliffs_detect(s->m, CLIFFS_RATIO, &d);
	cpw_points_find(s->m, &d, &pt);
	cell_words(s, txt[n], sizeof txt[n]);
	if (!isnan(mountain_at(s->m, s->row, s->col)))
		mt_append(txt[n], sizeof txt[n], "; %s",
			  cpw_phrase(ph, sizeof ph, mountain_at(s->m, s->row, s->col), &clk));
	n++;
	if (level_line(t, s, txt[n], sizeof txt[n]))
		n++;
	if (clk.how != CPW_UNKNOWN && (pt.have_l1 || pt.have_floor)) {
		most = clk.how == CPW_BOUND;
		sofar = tui_running(t, &tab_mountain) && !s->single;
		mt_strlcpy(txt[n],
			   most && sofar ? _("cycles a word at most so far:")
			   : most	 ? _("cycles a word at most:")
			   : sofar	 ? _("cycles a word so far:")
					 : _("cycles a word:"),
			   sizeof txt[n]);
		used = strlen(txt[n]);
		if (pt.have_l1)
			mt_hsnprintf(txt[n] + used, sizeof txt[n] - used,
				     _(" L1 plateau %s (%.0f MB/s, %s, stride 1)"),
				     mtab_cycles_text(a, sizeof a, cpw_cycles(clk.ghz, pt.l1_mbs)), pt.l1_mbs,
				     mt_fmt_size(b, sizeof b, s->m->sizes[pt.l1_row]));
		if (pt.have_l1 && pt.have_floor)
			mt_append(txt[n], sizeof txt[n], ";");
		used = strlen(txt[n]);
		if (pt.have_floor)
			mt_hsnprintf(txt[n] + used, sizeof txt[n] - used,
				     _(" floor %s (%.0f MB/s, %s, stride %u: %.2f ns a word)"),
				     mtab_cycles_text(c, sizeof c, cpw_cycles(clk.ghz, pt.floor_mbs)),
				     pt.floor_mbs, mt_fmt_size(b, sizeof b, s->m->sizes[pt.floor_row]),
				     s->m->strides[pt.floor_col], cpw_ns_per_word(pt.floor_mbs));
		n++;
	}
	lat = l1_latency_cycles(t, s);
	l1c = pt.have_l1 ? cpw_cycles(clk.ghz, pt.l1_mbs) : (double)NAN;
	if (lat > 0 && isfinite(l1c) && clk.how != CPW_BOUND)
		mt_hsnprintf(txt[n++], sizeof txt[n],
			     _("%.1f loads in flight (L1 hit: %.1f cycles, Latency tab)"),
			     cpw_in_flight(lat, l1c), lat);
	if (clk.how != CPW_UNKNOWN || s->m->source[0]) /* here: calibrated when r measures */
		cpw_clock_words(txt[n++], sizeof txt[0], &clk);
	for (int i = 0; i < n && y < h; i++) {
		/* the first sentences first: each a line at least, the room left
		 * over to the ones before the last that need it */
		int give = h - y - (n - 1 - i);
		wattrset(w, tui_attr(t, i == 0 ? ROLE_DIM : ROLE_NORMAL));
		y += tui_wrap(t, w, y, x, width, give < 1 ? 1 : give, txt[i]);
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	return y;
}

/* Nothing to show yet (memtop --idle, or view without a mountain); the
 * book's card when memtop view was given it. */
static void draw_empty(struct tui *t, struct mountain_tab *s, WINDOW *w, int wd, int h)
{
	wattrset(w, tui_attr(t, ROLE_DIM));
	tui_wrap(t, w, 2, 2, wd - 4, 2,
		 tui_measure_hint(t, _("No mountain yet: r measures this machine, o opens a saved one."),
				  1));
	if (s->mode == MODE_FORM)
		draw_form(t, s, w, 4, 2, wd - 2);
	else if (s->card_opened && s->have_card)
		mtab_draw_card_file(t, s, w, 4, 2, wd - 2, h);
}

/* The heatmap (or the ratio map, or both mountains side by side) from line
 * y; leaves s->L laid out. Returns 0, or -1 when not even a cell fits. */
static int draw_maps(struct tui *t, struct mountain_tab *s, WINDOW *w, int y, int wd, int hm_h,
		     int ratio)
{
	const struct mountain *shown = ratio ? s->ratio : s->m;
	if (s->ref && s->ov == OV_SIDE) {
		struct hm_layout L2;
		int half = wd / 2;
		int ri = mountain_size_index(s->ref, s->m->sizes[s->row]);
		int ci = mountain_stride_index(s->ref, s->m->strides[s->col]);
		size_t r2 = ri >= 0 ? (size_t)ri : 0, c2 = ci >= 0 ? (size_t)ci : 0;
		if (hm_layout(s->m, s->ref, half - 1, hm_h, s->row, s->col, &s->L) < 0)
			return -1;
		draw_heatmap(t, s, w, s->m, y, 0, &s->L, 1, 0);
		if (hm_layout(s->ref, s->m, wd - half, hm_h, r2, c2, &L2) == 0) {
			char title[300], name[256];
			draw_heatmap(t, s, w, s->ref, y, half, &L2, 0, 0);
			tui_text(t, name, sizeof name, mt_basename(s->ref->source)); /* file-borne */
			mt_snprintf(title, sizeof title, _("beside: %s"), name);
			wattrset(w, tui_attr(t, ROLE_DIM));
			tui_put(t, w, y + L2.height, half, wd - half, title);
		}
		return 0;
	}
	/* guess mode keeps 4 columns for the markers at the rows' ends */
	if (hm_layout(shown, NULL, s->mode == MODE_GUESS ? wd - 4 : wd, hm_h, s->row, s->col, &s->L) < 0)
		return -1;
	if (ratio)
		s->L.ratio = 1;
	draw_heatmap(t, s, w, shown, y, 0, &s->L, 1, ratio);
	return 0;
}

/* Guess mode's verdicts, wrapped, from line y. */
static void draw_guess_result(struct tui *t, struct mountain_tab *s, WINDOW *w, int y, int wd,
			      int h)
{
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y++, 0, wd, _("Your guess against the data:"));
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (int i = 0; i < 3 && y < h; i++)
		y += tui_wrap(t, w, y, 2, wd - 4, h - y, s->result[i]);
}

/* Beside or under the heatmap (its legend ends above y): the cursor cell's
 * reading and the slices or the passport (the card memtop view was given in
 * their place), the Haswell card beside the bundled reference, both
 * passports beside another mountain. */
static void draw_under(struct tui *t, struct mountain_tab *s, WINDOW *w, int y, int h, int wd,
		       int free_w, int ratio)
{
	if (s->ov != OV_SIDE && free_w >= 34) {
		if (y < h && !ratio) {
			/* a rule between the reading and the slices: two texts side
			 * by side never read as one sentence */
			wattrset(w, tui_attr(t, ROLE_DIM));
			for (int yy = y; yy < h; yy++)
				mvwaddstr(w, yy, s->L.width + 5, tui_glyph(t, GL_VLINE));
			draw_reading(t, s, w, y, 0, s->L.width + 5, h);
		}
		if (s->card_opened && s->have_card && !s->ref)
			mtab_draw_card_file(t, s, w, 1, s->L.width + 6, free_w, h);
		else
			draw_lower(t, s, w, 1, s->L.width + 6, free_w, h - 1, 1);
	} else if (s->ov == OV_SIDE && s->ref && s->ref_bundled && h - y >= 3 &&
		   strcmp(s->m->hdr.hardware, s->ref->hdr.hardware) == 0) {
		/* the bundled reference beside itself (or a copy of it): the
		 * book's card under it,
		 * the slices (or its passport) in the left half */
		mtab_draw_book_card(t, s, w, y, wd / 2, wd - wd / 2, h);
		draw_lower(t, s, w, y, 0, wd / 2 - 1, h - y, 1);
	} else if ((s->passport || s->ref_bundled) && s->ov == OV_SIDE && s->ref && h - y >= 3) {
		/* beside another mountain (the bundled reference beside this
		 * machine's): this mountain's passport against the other's */
		draw_passport(t, w, y, 0, wd / 2 - 1, h - y, s->m, _("Passport of this mountain"));
		draw_passport(t, w, y, wd / 2, wd - wd / 2, h - y, s->ref, _("Passport of the other"));
	} else if (h - y >= 4) {
		if (!ratio) /* the cursor's line, the cycles a word, the clock */
			y = draw_reading(t, s, w, y, 0, wd, y + 3 < h - 2 ? y + 3 : h - 2);
		draw_lower(t, s, w, y, 0, wd, h - y, 0);
	} else if (h - y >= 3) {
		draw_lower(t, s, w, y, 0, wd, h - y, 0);
	}
}

/* The whole area: the line above the map, then the map and its legend, then
 * the knobs, the guess's verdicts, or what goes under and beside the map. */
void mtab_draw_area(struct tui *t, struct mountain_tab *s, WINDOW *w)
{
	int h, wd, y = 1, hm_h;
	int ratio = s->ov == OV_RATIO && s->ratio;
	getmaxyx(w, h, wd);
	werase(w);
	info_line(t, s, w, wd);
	if (!s->m) {
		draw_empty(t, s, w, wd, h);
		return;
	}
	hm_h = (int)(ratio ? s->ratio : s->m)->nsizes + 1;
	if (hm_h > h - 3)
		hm_h = h - 3;
	if (draw_maps(t, s, w, y, wd, hm_h, ratio) < 0)
		return;
	s->hm_y = y;
	s->hm_x = 0;
	y += s->L.height;
	draw_legend(t, w, y, 0,
		    s->ov == OV_SIDE && s->ref		  ? wd / 2
		    : s->card_opened && s->have_card ? s->L.width + 5 /* the card beside */
						     : wd,
		    &s->L, ratio);
	y++;
	if (s->mode == MODE_FORM) {
		/* modal: at the bottom of the area, over whatever is there */
		int fy = h - (NFIELDS + 2) < y ? h - (NFIELDS + 2) : y;
		for (int i = fy; i < h; i++) {
			wmove(w, i, 0);
			wclrtoeol(w);
		}
		draw_form(t, s, w, fy, 2, wd - 2);
	} else if (s->has_result) {
		draw_guess_result(t, s, w, y, wd, h);
	} else {
		draw_under(t, s, w, y, h, wd, wd - s->L.width - 6, ratio);
	}
}
