/* tab_topology_draw: the Topology tab's area: a line saying which machine
 * it is, the boxes as model_topo laid them out (box lines, titles and
 * lines; the cursor's box in the cursor's colour, figures measured in the
 * good colour, doubted ones in the warning colour), the cursor's box in
 * words and the keys that measure it, and the conditions: beside the boxes
 * from 120 columns, else in one line under them (c lists them all). */
#include "config.h"

#include "model.h"
#include "tab_topology.h"

#include <string.h>

#define SIDE_FROM    120 /* the details and conditions beside the boxes from this width */
#define SIDE_W       44  /* ... in this many columns */
#define NARROW_LINES 3   /* the details under the boxes, narrower */

/* Where the picture is drawn: its row 0 at the area's row y0, rows
 * top .. top + rows of it shown (scrolled to the cursor, tv_scroll). */
struct view_port {
	int y0, top, rows;
};

/* Puts glyph or text s at the picture's (row, col), when that row is shown. */
static void put_at(WINDOW *w, const struct view_port *p, int row, int col, const char *s)
{
	if (row >= p->top && row < p->top + p->rows)
		mvwaddstr(w, p->y0 + row - p->top, col, s);
}

/* A line (a flat box): the cursor's mark, then its words. */
static void draw_line(struct tui *t, const struct tv_box *x, int cur, WINDOW *w,
		      const struct view_port *p)
{
	wattrset(w, tui_attr(t, cur ? ROLE_CURSOR : x->kind == TV_MORE ? ROLE_DIM : ROLE_NORMAL));
	put_at(w, p, x->y, x->x, cur ? tui_glyph(t, GL_RIGHT) : " ");
	put_at(w, p, x->y, x->x + 1, x->title);
	if (x->title_cut == TV_CUT)
		put_at(w, p, x->y, x->x + 1 + text_cols(x->title), tui_glyph(t, GL_ELLIPSIS));
}

/* Box b's frame, title and lines, then what is drawn inside it. */
static void draw_box(struct tui *t, struct topology_tab *s, WINDOW *w, int b,
		     const struct view_port *p)
{
	const struct tv_box *x = &s->sh->v.box[b];
	int y = x->y, xl = x->x, cur = b == s->sh->v.cur;
	attr_t frame = tui_attr(t, cur ? ROLE_CURSOR : x->kind == TV_MORE ? ROLE_DIM : ROLE_NORMAL);
	if (x->flat) {
		draw_line(t, x, cur, w, p);
		return;
	}
	wattrset(w, frame);
	for (int i = 1; i < x->w - 1; i++) {
		put_at(w, p, y, xl + i, tui_glyph(t, GL_HLINE));
		put_at(w, p, y + x->h - 1, xl + i, tui_glyph(t, GL_HLINE));
	}
	for (int j = 1; j < x->h - 1; j++) {
		put_at(w, p, y + j, xl, tui_glyph(t, GL_VLINE));
		put_at(w, p, y + j, xl + x->w - 1, tui_glyph(t, GL_VLINE));
	}
	put_at(w, p, y, xl, tui_glyph(t, GL_TL));
	put_at(w, p, y, xl + x->w - 1, tui_glyph(t, GL_TR));
	put_at(w, p, y + x->h - 1, xl, tui_glyph(t, GL_BL));
	put_at(w, p, y + x->h - 1, xl + x->w - 1, tui_glyph(t, GL_BR));
	wattrset(w, cur ? frame : tui_attr(t, x->kind == TV_MORE ? ROLE_DIM : ROLE_TITLE));
	put_at(w, p, y, xl + 2, x->title);
	if (x->title_cut == TV_CUT)
		put_at(w, p, y, xl + 2 + text_cols(x->title), tui_glyph(t, GL_ELLIPSIS));
	for (int i = 0; i < x->lines; i++) {
		/* the figures are the last lines: measured, or doubted ('?') */
		int fig = i >= x->lines - x->nfig && x->kind != TV_MORE;
		int doubted = fig && strchr(x->line[i], '?');
		wattrset(w, tui_attr(t, doubted ? ROLE_WARN : fig ? ROLE_GOOD : ROLE_NORMAL));
		put_at(w, p, y + 1 + i, xl + 1, x->line[i]);
		if (x->cut[i] == TV_CUT)
			put_at(w, p, y + 1 + i, xl + 1 + text_cols(x->line[i]),
			       tui_glyph(t, GL_ELLIPSIS));
	}
	for (int c = x->vfirst; c >= 0; c = s->sh->v.box[c].vnext)
		draw_box(t, s, w, c, p);
}

/* The keys that measure the cursor's box, in words. */
static void keys_line(struct tui *t, struct topology_tab *s, char *buf, size_t len)
{
	if (tui_view_mode(t) || s->sh->shown != run_topology_this())
		mt_strlcpy(buf,
			   _("Enter opens or folds a box; m shows the next machine; c the "
			     "conditions; ? every key"),
			   len);
	else
		mt_strlcpy(buf,
			   _("Enter opens or folds; L latency, C cores, N numa on this box; m "
			     "next machine; c conditions"),
			   len);
}

/* The conditions, a line each "label: value" from row y, in width columns
 * from x, at most rows. Returns the next row. */
static int draw_conditions(struct tui *t, struct topology_tab *s, WINDOW *w, int y, int x,
			   int width, int rows)
{
	char line[300];
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y++, x, width,
		s->sh->cond.have ? _("Conditions (what moves memory figures):")
				 : _("Conditions: not recorded for this machine"));
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (int i = 0; s->sh->cond.have && i < COND_NFIELDS && rows > 1; i++, rows--) {
		const struct cond_value *v = mt_conditions_field(&s->sh->cond, i);
		char text[200];
		tui_text(t, text, sizeof text, v->text);
		if (v->known)
			mt_snprintf(line, sizeof line, "%s: %s", mt_conditions_label(i), text);
		else
			mt_snprintf(line, sizeof line, _("%s: not known: %s"), mt_conditions_label(i),
				    text);
		tui_put(t, w, y++, x, width, line);
	}
	return y;
}

/* The cursor's box in words from row y, at most rows lines of width. */
static int draw_details(struct tui *t, struct topology_tab *s, WINDOW *w, int y, int x, int width,
			int rows, int wrap)
{
	char lines[12][TV_LINE];
	int n = tv_details(&s->sh->v, lines, 12);
	/* a figure's line: what TV_MEASURED says before its figure */
	size_t measured = strcspn(TV_MEASURED, "%");
	for (int i = 0; i < n && rows > 0; i++) {
		int used;
		wattrset(w, tui_attr(t, i == 0                                  ? ROLE_TITLE
					: strncmp(lines[i], "? ", 2) == 0       ? ROLE_WARN
					: strncmp(lines[i], TV_MEASURED, measured) == 0 ? ROLE_GOOD
										: ROLE_NORMAL));
		used = wrap ? tui_wrap(t, w, y, x, width, rows, lines[i])
			    : (tui_put(t, w, y, x, width, lines[i]), 1);
		y += used;
		rows -= used;
	}
	return y;
}

/* Nothing to show: why, and what would show something. */
static void draw_none(struct tui *t, struct topology_tab *s, WINDOW *w, int h, int wd)
{
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_wrap(t, w, 0, 1, wd - 2, 3,
		 _("Topology: the machine as nested boxes (packages, NUMA "
		   "nodes, L3 groups, cores, CPUs), with what memtop measured on each part."));
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	tui_wrap(t, w, 4, 1, wd - 2, 4, s->sh->why);
	wattrset(w, tui_attr(t, ROLE_DIM));
	tui_wrap(t, w, h - 2, 1, wd - 2, 2,
		 _("o opens a topology (memtop topo --json) or m the "
		   "machine of an opened result."));
}

/* The line at the top: whose machine, its summary, the runs on it. */
static void draw_head(struct tui *t, struct topology_tab *s, WINDOW *w, int wd)
{
	char line[1600], sum[1024], from[320];
	topo_summary_text(s->sh->t, sum, sizeof sum);
	mt_snprintf(line, sizeof line, "%s: %s", tui_text(t, from, sizeof from, s->sh->from), sum);
	if (s->sh->runs[0])
		mt_append(line, sizeof line, _("; measured here: %s"), s->sh->runs);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, 0, 1, wd - 2, line);
}

void topology_draw(struct tui *t, struct topology_tab *s, WINDOW *w)
{
	int h, wd, side, pw, ph, below;
	char keys[200], sum[256], line[320];
	getmaxyx(w, h, wd);
	werase(w);
	if (!s->sh->t) {
		draw_none(t, s, w, h, wd);
		return;
	}
	side = wd >= SIDE_FROM ? SIDE_W : 0;
	below = side ? 0 : NARROW_LINES + 2; /* details, the conditions' line, the keys */
	pw = wd - (side ? side + 1 : 0);
	ph = h - 1 - below;
	draw_head(t, s, w, wd);
	keys_line(t, s, keys, sizeof keys);
	if (s->conditions) {
		draw_conditions(t, s, w, 1, 1, pw - 2, ph);
	} else if (tv_layout(&s->sh->v, pw, ph) == 0) {
		struct view_port port = { 1, tv_scroll(&s->sh->v, ph), ph };
		draw_box(t, s, w, 0, &port);
	} else {
		wattrset(w, tui_attr(t, ROLE_WARN));
		mt_snprintf(line, sizeof line,
			    "The machine's boxes need more room than %d x %d: a "
			    "larger terminal shows them (c lists the conditions).",
			    pw, ph);
		tui_wrap(t, w, 2, 1, pw - 2, 3, line);
	}
	if (side) {
		int y = draw_details(t, s, w, 1, pw + 1, side - 1, h / 2 - 2, 1);
		wattrset(w, tui_attr(t, ROLE_DIM));
		y += tui_wrap(t, w, y + 1, pw + 1, side - 1, 3, keys) + 2;
		if (!s->conditions)
			draw_conditions(t, s, w, y, pw + 1, side - 1, h - y);
		return;
	}
	draw_details(t, s, w, 1 + ph, 1, wd - 2, NARROW_LINES, 0);
	wattrset(w, tui_attr(t, ROLE_DIM));
	mt_snprintf(line, sizeof line, _("conditions: %s"),
		    s->sh->cond.have ? mt_conditions_summary(&s->sh->cond, sum, sizeof sum)
				     : _("not recorded"));
	tui_put(t, w, h - 2, 1, wd - 2, line);
	tui_put(t, w, h - 1, 1, wd - 2, keys);
}
