/* model_topo_layout: the Topology tab's boxes laid out in a terminal's
 * area (model_topo.h's tv_layout) and drawn as text (tv_render). Each way
 * of drawing (boxes open down to a depth, so many alike siblings before
 * the rest fold into one box) is tried; of those that fit, the one showing
 * most of the outer parts wins, then most of the inner ones. No curses. */
#include "config.h"

#include "base/i18n.h"
#include "model.h"
#include "model_topo.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIN_W     5  /* a box narrower than this is not drawn */
#define SPLIT_MAX 16 /* children a box tries side by side in equal widths */

/* ---- what a box says ------------------------------------------------------------- */

/* One part of a box's title ("Package 0", "NUMA node 1, 64 GB HBM", "L3
 * 32 MB", "Core 3 E") appended to buf. */
static void part_title(const struct topo_view *v, const struct tv_box *x, int p, char *buf,
		       size_t len)
{
	const struct topo *t = v->t;
	char sz[32];
	const char *sep = buf[0] ? ", " : "";
	int i = x->index[p];
	/* TRANSLATORS: the Topology tab's box titles, as lstopo's (Machine,
	 * Package, Die, NUMANode, Core), a noun with a capital */
	mt_append(buf, len, "%s", sep);
	switch (p) {
	case TV_MACHINE: mt_append(buf, len, "%s", _("Machine")); break;
	case TV_PACKAGE: mt_append(buf, len, _("Package %d"), i); break;
	case TV_DIE: mt_append(buf, len, _("Die %d"), i); break;
	case TV_NODE:
		mt_append(buf, len, _("NUMA node %d, %s"), t->nodes[i].os_index,
			  mt_hfmt_mem(sz, sizeof sz, t->nodes[i].memory));
		if (t->nodes[i].tier[0])
			mt_append(buf, len, " %s", t->nodes[i].tier);
		break;
	case TV_L3:
		mt_append(buf, len, "L3 %s", tv_cache_size(t->l3[i].size, sz, sizeof sz));
		break;
	case TV_L2:
		mt_append(buf, len, "L2 %s", tv_cache_size(t->l2[i].size, sz, sizeof sz));
		break;
	default: {
		const struct topo_cpu *c = x->ncpus ? topo_cpu(t, v->cpus[x->cpu0]) : NULL;
		mt_append(buf, len, _("Core %d"), i);
		if (c && c->coretype >= 0 && t->ncoretypes > 1)
			mt_append(buf, len, " %s", t->coretypes[c->coretype].name);
	}
	}
}

/* The innermost part of box b (TV_NODE for a memory-only node), -1 none. */
static int innermost(const struct tv_box *x)
{
	if (x->kind == TV_MEMORY)
		return TV_NODE;
	for (int p = TV_NPART - 1; p >= 0; p--)
		if (x->parts & (1u << p))
			return p;
	return -1;
}

/* n parts of box b's innermost kind, counted in words: "4 cores"; more: "x
 * 4 more cores" (a folded run of alike boxes). Rows by TV_* part, the last
 * for a box of no part. */
static void counted(const struct tv_box *x, int n, int more, char *buf, size_t len)
{
	static const struct mt_plural words[TV_NPART + 1][2] = {
		[TV_MACHINE] = { NN_("%d machine", "%d machines"),
				 NN_("x %d more machine", "x %d more machines") },
		[TV_PACKAGE] = { NN_("%d package", "%d packages"),
				 NN_("x %d more package", "x %d more packages") },
		[TV_DIE] = { NN_("%d die", "%d dies"), NN_("x %d more die", "x %d more dies") },
		[TV_NODE] = { NN_("%d NUMA node", "%d NUMA nodes"),
			      NN_("x %d more NUMA node", "x %d more NUMA nodes") },
		[TV_L3] = { NN_("%d L3 group", "%d L3 groups"),
			    NN_("x %d more L3 group", "x %d more L3 groups") },
		[TV_L2] = { NN_("%d L2 group", "%d L2 groups"),
			    NN_("x %d more L2 group", "x %d more L2 groups") },
		[TV_CORE] = { NN_("%d core", "%d cores"), NN_("x %d more core", "x %d more cores") },
		[TV_NPART] = { NN_("%d box", "%d boxes"), NN_("x %d more box", "x %d more boxes") },
	};
	int p = innermost(x);
	mt_counted(buf, len, &words[p < 0 ? TV_NPART : p][more != 0], n);
}

/* The CPUs and cores of box b's CPUs (or of a folded run, c0..c1), in
 * words: "CPU 3", "CPUs 3,67", "CPUs 0-31". */
static void cpus_line(const struct topo_view *v, const int *cpus, int n, char *buf, size_t len)
{
	int *c = malloc(((size_t)n + 1) * sizeof *c);
	struct topo_set s = { n, c };
	char list[TV_LINE];
	if (!c) {
		buf[0] = '\0';
		return;
	}
	memcpy(c, cpus, (size_t)n * sizeof *c);
	for (int i = 1; i < n; i++) /* few: an insertion sort */
		for (int j = i; j > 0 && c[j - 1] > c[j]; j--) {
			int tmp = c[j];
			c[j] = c[j - 1];
			c[j - 1] = tmp;
		}
	(void)v;
	mt_snprintf(buf, len, MT_NGETTEXT("CPU %s", "CPUs %s", n), topo_set_text(&s, list, sizeof list));
	free(c);
}

/* What is inside box b when it is folded: "2 NUMA nodes, 64 cores, 128 CPUs". */
static void inside_line(const struct topo_view *v, int b, char *buf, size_t len)
{
	const struct tv_box *x = &v->box[b];
	int cores = 0, kids = 0;
	const struct tv_box *first = x->first >= 0 ? &v->box[x->first] : NULL;
	for (int i = 0; i < x->ncpus; i++)
		cores += i == 0 || topo_cpu(v->t, v->cpus[x->cpu0 + i])->core !=
					   topo_cpu(v->t, v->cpus[x->cpu0 + i - 1])->core;
	for (int c = x->first; c >= 0; c = v->box[c].next)
		kids++;
	char w[64];
	buf[0] = '\0';
	if (first && !(first->parts & (1u << TV_CORE))) {
		counted(first, kids, 0, w, sizeof w);
		mt_append(buf, len, "%s, ", w);
	}
	mt_append(buf, len, MT_NGETTEXT("%d core", "%d cores", cores), cores);
	mt_append(buf, len, ", ");
	mt_append(buf, len, MT_NGETTEXT("%d CPU", "%d CPUs", x->ncpus), x->ncpus);
}

/* The title alone of box b into buf. */
static void title_words(const struct topo_view *v, int b, char *buf, size_t len)
{
	const struct tv_box *x = &v->box[b];
	buf[0] = '\0';
	if (x->kind == TV_MORE)
		counted(&v->box[x->hidden0], x->more, 1, buf, len);
	else if (x->kind == TV_MEMORY)
		part_title(v, x, TV_NODE, buf, len);
	else
		for (int p = 0; p < TV_NPART; p++)
			if (x->parts & (1u << p))
				part_title(v, x, p, buf, len);
}

/* The first line box b says inside it: its CPUs (a TV_MORE box's, a
 * core's), what is inside it folded, "memory only"; "" for none. */
static void first_line(const struct topo_view *v, int b, char *buf, size_t len)
{
	const struct tv_box *x = &v->box[b];
	buf[0] = '\0';
	if (x->kind == TV_MORE || (x->kind == TV_BOX && x->first < 0 && x->ncpus))
		cpus_line(v, v->cpus + x->cpu0, x->ncpus, buf, len);
	else if (x->kind == TV_MEMORY)
		mt_strlcpy(buf, _("memory only"), len);
	else if (x->first >= 0 && !x->open)
		inside_line(v, b, buf, len);
}

const char *tv_box_words(const struct topo_view *v, int b, char *buf, size_t len)
{
	char line[TV_LINE];
	title_words(v, b, buf, len);
	if (v->box[b].flat) {
		first_line(v, b, line, sizeof line);
		if (line[0])
			mt_append(buf, len, ": %s", line);
	}
	return buf;
}

/* Box b's title and lines as it would say them whole (open: drawn with
 * what is inside). */
static void box_text(struct topo_view *v, int b)
{
	struct tv_box *x = &v->box[b];
	int n = 0;
	tv_box_words(v, b, x->title, TV_LINE);
	if (x->flat) {
		x->lines = 0;
		return;
	}
	first_line(v, b, x->line[n], TV_LINE);
	n += x->line[n][0] != '\0';
	for (int i = 0; i < x->nfig && n < TV_LINES; i++)
		mt_strlcpy(x->line[n++], x->fig[i], TV_LINE);
	x->lines = n;
}

/* s fitted into width columns into out: in whole clauses where its first
 * clause fits (said shorter, never cut in a clause: "NUMA node 0, 16.0
 * GB, L3 6 MB"; *cut TV_SHORTER, no ellipsis), else in whole words with
 * the ellipsis's column kept (*cut TV_CUT). Returns the columns. */
static int fit(const char *s, int width, char *out, int *cut)
{
	int cols = text_cols(s), n;
	*cut = 0;
	if (cols <= width) {
		mt_strlcpy(out, s, TV_LINE);
		return cols;
	}
	if ((n = text_clauses_fit(s, width)) > 0 && n < TV_LINE) {
		memmove(out, s, (size_t)n);
		out[n] = '\0';
		*cut = TV_SHORTER;
		return text_cols(out);
	}
	n = width > 1 ? text_fit(s, width - 1, &cols) : 0;
	memmove(out, s, (size_t)n);
	out[n] = '\0';
	*cut = TV_CUT;
	return n ? cols + 1 : 1;
}

/* ---- the visible tree ------------------------------------------------------------ */

/* Is box k kept whatever the folding: the cursor's, one around it, one
 * with figures in it? */
static int pinned(const struct topo_view *v, int k)
{
	if (v->box[k].figs_in)
		return 1;
	for (int c = v->cur < v->nbase ? v->cur : v->box[v->cur].more_of; c >= 0;
	     c = v->box[c].parent)
		if (c == k)
			return 1;
	return 0;
}

/* A TV_MORE box for the siblings of a run not drawn (hidden[], n of
 * them) under box b, linked after *last. Its CPUs: from the first hidden
 * one's to the last's (consecutive in v->cpus, a kept one among them
 * included). */
static void add_more(struct topo_view *v, int b, const int *hidden, int n, int *last)
{
	struct tv_box *m = &v->box[v->nbox];
	memset(m, 0, sizeof *m);
	for (int p = 0; p < TV_NPART; p++)
		m->index[p] = -1;
	m->kind = TV_MORE;
	m->parent = m->first = m->next = m->vfirst = m->vnext = -1;
	m->more = n;
	m->more_of = b;
	m->hidden0 = hidden[0];
	m->depth = v->box[b].depth + 1;
	m->want_open = -1;
	m->cpu0 = v->box[hidden[0]].cpu0;
	m->ncpus = v->box[hidden[n - 1]].cpu0 + v->box[hidden[n - 1]].ncpus - m->cpu0;
	if (*last >= 0)
		v->box[*last].vnext = v->nbox;
	else
		v->box[b].vfirst = v->nbox;
	*last = v->nbox++;
}

/* Box b's drawn children: every one, or (alike runs longer than k) the
 * first k of a run, those pinned, and a TV_MORE box for the rest. */
static void visible_children(struct topo_view *v, int b, int k)
{
	int last = -1, *hidden = malloc(((size_t)v->nbase + 1) * sizeof *hidden);
	if (!hidden)
		return;
	v->box[b].vfirst = -1;
	for (int c = v->box[b].first; c >= 0;) {
		int run = 0, kept = 0, nh = 0, e = c;
		while (e >= 0 && v->box[e].shape == v->box[c].shape &&
		       v->box[e].kind == v->box[c].kind)
			e = v->box[e].next, run++;
		for (int x = c; x != e; x = v->box[x].next) {
			if (v->box[b].all || run <= k || kept < k || pinned(v, x)) {
				kept++;
				v->box[x].vnext = -1;
				if (last >= 0)
					v->box[last].vnext = x;
				else
					v->box[b].vfirst = x;
				last = x;
			} else {
				hidden[nh++] = x;
			}
		}
		if (nh)
			add_more(v, b, hidden, nh, &last);
		c = e;
	}
	free(hidden);
}

/* Which boxes are drawn open, for depth d and k alike siblings (wants:
 * the user's choices count; flat: folded boxes among folded siblings
 * without figures drawn as lines), and the visible tree. */
static void decide(struct topo_view *v, int b, int d, int k, int wants, int flat)
{
	struct tv_box *x = &v->box[b];
	int want = wants ? x->want_open : -1, all_folded = 1;
	x->open = x->first >= 0 && (want == 1 || (want == -1 && x->depth < d));
	x->vfirst = -1;
	if (!x->open)
		return;
	visible_children(v, b, k);
	for (int c = x->vfirst; c >= 0; c = v->box[c].vnext) {
		v->box[c].flat = 0;
		if (v->box[c].kind != TV_MORE)
			decide(v, c, d, k, wants, flat);
		all_folded &= !v->box[c].open && v->box[c].nfig == 0;
	}
	for (int c = x->vfirst; c >= 0; c = v->box[c].vnext)
		v->box[c].flat = flat && all_folded;
}

/* ---- sizes and places ------------------------------------------------------------ */

/* The rows of box b's drawn children, each measured in childw columns, in
 * rows of at most limit: the widest row's width into *wide, their height
 * returned (huge when a child does not fit). */
static int flow(struct topo_view *v, int b, int childw, int limit, int *wide);

/* The titles and lines of the boxes drawn inside b that leave words out. */
static int words_left_out(const struct topo_view *v, int b)
{
	int n = 0;
	for (int c = v->box[b].vfirst; c >= 0; c = v->box[c].vnext) {
		char title[TV_LINE];
		/* a line's title whole, what is inside it cut: not counted */
		if (v->box[c].flat)
			title_words(v, c, title, sizeof title);
		n += v->box[c].flat ? strlen(v->box[c].title) < strlen(title)
				    : (v->box[c].title_cut != 0) + words_left_out(v, c);
		for (int i = 0; i < v->box[c].lines; i++)
			n += v->box[c].cut[i] != 0;
	}
	return n;
}

/* Box b measured in at most maxw columns: its w and h (w 0: it does not
 * fit), its title and lines fitted. */
static void measure(struct topo_view *v, int b, int maxw)
{
	struct tv_box *x = &v->box[b];
	int natural, inner = maxw - 2, wide = 0, rows = 0;
	char raw[TV_LINE];
	box_text(v, b);
	if (x->flat) { /* a line: the cursor's mark, then its words */
		natural = text_cols(x->title) + 1;
		x->w = natural < maxw ? natural : maxw;
		x->h = 1;
		if (x->w < MIN_W)
			x->w = x->h = 0;
		mt_strlcpy(raw, x->title, sizeof raw);
		fit(raw, x->w - 1, x->title, &x->title_cut);
		return;
	}
	natural = text_cols(x->title) + 3;
	for (int i = 0; i < x->lines; i++)
		if (text_cols(x->line[i]) + 2 > natural)
			natural = text_cols(x->line[i]) + 2;
	if (maxw < MIN_W) {
		x->w = x->h = 0;
		return;
	}
	if (x->open) {
		int n = 0, alike = 1, best_per = 0;
		for (int c = x->vfirst; c >= 0; c = v->box[c].vnext, n++)
			alike &= v->box[c].kind == TV_BOX &&
				 v->box[c].shape == v->box[x->vfirst].shape;
		rows = flow(v, b, inner, inner, &wide);
		/* alike children side by side in equal widths, as lstopo: all in a
		 * row, or in two or three rows, when that is lower and cuts no word */
		for (int k = 1; alike && n > 1 && n <= SPLIT_MAX && x->depth < 3 && k <= 3; k++) {
			int per = (n + k - 1) / k, cut = words_left_out(v, b), wide2, rows2;
			if (per < 2 || inner / per < MIN_W + 4 ||
			    (k > 1 && per == (n + k - 2) / (k - 1)))
				continue;
			rows2 = flow(v, b, inner / per, inner, &wide2);
			if (rows2 <= rows && words_left_out(v, b) <= cut)
				rows = rows2, wide = wide2, best_per = per;
			else
				flow(v, b, best_per ? inner / best_per : inner, inner, &wide);
		}
		if (wide + 2 > natural)
			natural = wide + 2;
	}
	x->w = natural < maxw ? natural : maxw;
	if (x->w < MIN_W)
		x->w = MIN_W;
	x->h = 2 + x->lines + rows;
	mt_strlcpy(raw, x->title, sizeof raw);
	fit(raw, x->w - 3, x->title, &x->title_cut);
	for (int i = 0; i < x->lines; i++) {
		mt_strlcpy(raw, x->line[i], sizeof raw);
		fit(raw, x->w - 2, x->line[i], &x->cut[i]);
	}
}

static int flow(struct topo_view *v, int b, int childw, int limit, int *wide)
{
	int roww = 0, rowh = 0, rows = 0;
	*wide = 0;
	for (int c = v->box[b].vfirst; c >= 0; c = v->box[c].vnext) {
		measure(v, c, childw);
		if (v->box[c].w == 0)
			return INT_MAX / 4; /* does not fit */
	}
	/* alike siblings side by side take one width: the widest of them */
	for (int c = v->box[b].vfirst; c >= 0; c = v->box[c].vnext)
		for (int d = v->box[c].vnext; d >= 0; d = v->box[d].vnext)
			if (v->box[d].shape == v->box[c].shape &&
			    v->box[d].kind == v->box[c].kind && v->box[d].w > v->box[c].w)
				v->box[c].w = v->box[d].w;
	for (int c = v->box[b].vfirst; c >= 0; c = v->box[c].vnext) {
		const struct tv_box *k = &v->box[c];
		if (roww && (roww + k->w > limit || k->flat)) { /* a line: a row of its own */
			rows += rowh;
			*wide = roww > *wide ? roww : *wide;
			roww = rowh = 0;
		}
		roww += k->w;
		rowh = k->h > rowh ? k->h : rowh;
		if (rows + rowh >= INT_MAX / 8)
			return INT_MAX / 4;
	}
	*wide = roww > *wide ? roww : *wide;
	return rows + rowh;
}

/* Box b and what is inside it placed with its top left at (x, y); its
 * children flow in rows of at most its inner width. */
static void place(struct topo_view *v, int b, int x, int y)
{
	struct tv_box *bx = &v->box[b];
	int inner = bx->w - 2, cx = x + 1, cy = y + 1 + bx->lines, rowh = 0;
	bx->x = x;
	bx->y = y;
	for (int c = bx->vfirst; c >= 0; c = v->box[c].vnext) {
		struct tv_box *k = &v->box[c];
		if (cx > x + 1 && (cx + k->w > x + 1 + inner || k->flat)) {
			cx = x + 1;
			cy += rowh;
			rowh = 0;
		}
		place(v, c, cx, cy);
		cx += k->w;
		rowh = k->h > rowh ? k->h : rowh;
	}
}

/* ---- the layout ------------------------------------------------------------------- */

/* Lays v out open to depth d with k alike siblings (wants: the user's
 * choices count) in width columns. Returns the picture's height (huge when
 * it does not fit), *score what it shows: each drawn box 1000^-depth. */
static int try_layout(struct topo_view *v, int d, int k, int wants, int flat, int width,
		      double *score)
{
	v->nbox = v->nbase;
	for (int b = 0; b < v->nbox; b++)
		v->box[b].w = v->box[b].h = 0;
	v->box[0].flat = 0;
	decide(v, 0, d, k, wants, flat);
	measure(v, 0, width);
	*score = 0;
	if (v->box[0].w == 0)
		return INT_MAX / 4;
	for (int b = 0; b < v->nbox; b++)
		if (v->box[b].kind != TV_MORE && v->box[b].w > 0)
			*score += pow(1000.0, -v->box[b].depth);
	return v->box[0].h;
}

/* The cursor on a drawn box: a TV_MORE box of the last layout (more_of,
 * hidden0 kept before it went) found again, else the nearest drawn box
 * around it. */
static void keep_cursor(struct topo_view *v, int more_of, int hidden0)
{
	int c = v->cur;
	if (more_of >= 0) {
		for (int b = v->nbase; b < v->nbox; b++)
			if (v->box[b].more_of == more_of) {
				v->cur = b;
				return;
			}
		c = v->box[hidden0].w > 0 ? hidden0 : more_of;
	}
	while (c > 0 && v->box[c].w == 0)
		c = v->box[c].parent;
	v->cur = c < 0 ? 0 : c;
}

int tv_layout(struct topo_view *v, int width, int height)
{
	static const int ks[] = { INT_MAX, 8, 4, 2, 1 };
	int more_of = -1, hidden0 = -1, best_d = -1, best_k = 0, best_f = 0, lowest = INT_MAX / 8;
	double best = -1, score;
	if (v->nbox == 0)
		return -1;
	if (v->cur >= v->nbase) {
		more_of = v->box[v->cur].more_of;
		hidden0 = v->box[v->cur].hidden0;
		v->cur = more_of;
	}
	/* what fits and shows most; else (the user's choices, or a small
	 * area) the lowest picture, scrolled to the cursor (tv_scroll) */
	for (int pass = 0; pass < 2 && best < 0; pass++)
		for (int d = v->depth_max; d >= 0; d--)
			for (size_t i = 0; i < MT_ARRAY_LEN(ks); i++)
				for (int flat = 0; flat <= 1; flat++) {
					int h = try_layout(v, d, ks[i], 1, flat, width, &score);
					if (pass == 0 ? h > height || score <= best + 1e-12
						      : h >= lowest)
						continue;
					best = pass == 0 ? score : 0;
					lowest = h;
					best_d = d, best_k = ks[i], best_f = flat;
				}
	if (best < 0) {
		v->nbox = v->nbase;
		for (int b = 0; b < v->nbox; b++)
			v->box[b].w = 0;
		return -1;
	}
	try_layout(v, best_d, best_k, 1, best_f, width, &score);
	v->depth = best_d;
	v->alike = best_k;
	v->flat = best_f;
	place(v, 0, 0, 0);
	v->width = v->box[0].w;
	v->height = v->box[0].h;
	keep_cursor(v, more_of, hidden0);
	return 0;
}

int tv_scroll(const struct topo_view *v, int height)
{
	const struct tv_box *c = &v->box[v->cur];
	int top;
	if (v->height <= height || v->nbox == 0)
		return 0;
	top = c->h > height ? c->y : c->y + c->h / 2 - height / 2;
	if (top > v->height - height)
		top = v->height - height;
	return top < 0 ? 0 : top;
}

/* ---- as text ----------------------------------------------------------------------- */

/* Box b's frame, title and lines into the grid g (v->width x v->height). */
static void render_box(const struct topo_view *v, int b, char *g)
{
	const struct tv_box *x = &v->box[b];
	int W = v->width, corner = b == v->cur ? '*' : '+';
	if (x->flat) { /* '>' marks the cursor's line */
		g[x->y * W + x->x] = b == v->cur ? '>' : ' ';
		memcpy(g + x->y * W + x->x + 1, x->title, strlen(x->title));
		if (x->title_cut == TV_CUT)
			g[x->y * W + x->x + 1 + strlen(x->title)] = '~';
		return;
	}
	for (int i = 0; i < x->w; i++) {
		g[x->y * W + x->x + i] = '-';
		g[(x->y + x->h - 1) * W + x->x + i] = '-';
	}
	for (int j = 0; j < x->h; j++) {
		g[(x->y + j) * W + x->x] = '|';
		g[(x->y + j) * W + x->x + x->w - 1] = '|';
	}
	g[x->y * W + x->x] = g[x->y * W + x->x + x->w - 1] = (char)corner;
	g[(x->y + x->h - 1) * W + x->x] = g[(x->y + x->h - 1) * W + x->x + x->w - 1] = (char)corner;
	memcpy(g + x->y * W + x->x + 2, x->title, strlen(x->title));
	if (x->title_cut == TV_CUT)
		g[x->y * W + x->x + 2 + strlen(x->title)] = '~';
	for (int i = 0; i < x->lines; i++) {
		char *at = g + (x->y + 1 + i) * W + x->x + 1;
		memcpy(at, x->line[i], strlen(x->line[i]));
		if (x->cut[i] == TV_CUT)
			at[strlen(x->line[i])] = '~';
	}
	for (int c = x->vfirst; c >= 0; c = v->box[c].vnext)
		render_box(v, c, g);
}

int tv_render(const struct topo_view *v, char *out, size_t len)
{
	int W = v->width, H = v->height;
	char *g;
	size_t need = (size_t)H * ((size_t)W + 1) + 1;
	if (len < need || v->nbox == 0 || v->box[0].w == 0) {
		if (len)
			out[0] = '\0';
		return -1;
	}
	g = malloc((size_t)W * (size_t)H + 1);
	if (!g)
		return -1;
	memset(g, ' ', (size_t)W * (size_t)H);
	render_box(v, 0, g);
	for (int j = 0; j < H; j++) {
		memcpy(out + (size_t)j * ((size_t)W + 1), g + (size_t)j * (size_t)W, (size_t)W);
		out[(size_t)j * ((size_t)W + 1) + (size_t)W] = '\n';
	}
	out[need - 1] = '\0';
	free(g);
	return 0;
}
