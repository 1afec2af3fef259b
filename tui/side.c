/* side: the Caches side panel. Every `info` source level by level (this
 * machine's, or the caches recorded in a viewed file), the levels the
 * mountain shows (cliffs at strides of at least 8 words), the levels the
 * latency curve shows (tab 2, live while it measures) and the line size
 * from the mountain's stride slice. Each source value is marked against the
 * mountain and then against the latency levels, with ONE rule
 * (cliffs_detect_verdict): '=' matching, '~' one step off, '?' not
 * visible; a value info_doubts() finds no cache can have gets a '?', as
 * memtop info and memtop topo mark it. */
#include "config.h"

#include "mountain/cliffs.h"
#include "run/job.h"
#include "run/runhdr.h"
#include "internal.h"
#include "latency/latency.h"
#include "model.h"

#include <string.h>

static const char *const level_names[3] = { "L1d", "L2", "L3" };

/* The info to show: the viewed mountain's recorded caches, else this
 * machine's (never this machine's under another machine's mountain). */
static const struct info *panel_info(struct tui *t, const char **whose)
{
	const struct mountain *m = t->mtn;
	if (m && m->source[0] && m->caches) {
		if (t->side_parsed != m->caches) {
			t->side_parsed = m->caches;
			t->side_ok = info_from_json(m->caches, &t->side_info, m->source, NULL) == 0;
		}
		*whose = _("recorded with the run");
		return t->side_ok ? &t->side_info : NULL;
	}
	if (m && m->source[0]) {
		*whose = _("none recorded in the file");
		return NULL;
	}
	*whose = _("this machine");
	return t->have_info && t->machine ? &t->machine->info : NULL;
}

/* A mark (model.h's side_mark_of): '=' matching, '~' one step off, '!' the
 * level found at another size, 'x' not found. */
static void mark(struct tui *t, WINDOW *w, enum side_mark v)
{
	static const char ch[] = { '=', '~', 'x', '!' }; /* '?' is doubt's, everywhere */
	static const enum tui_role role[] = { ROLE_GOOD, ROLE_WARN, ROLE_BAD, ROLE_WARN };
	wattrset(w, tui_attr(t, role[v]));
	waddch(w, (chtype)ch[v]);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

/* The latency result may be judged against inf: both this machine's, or
 * the viewed mountain's file and the latency file from one machine (their
 * machine ids; files without them: the same host and CPU), or this
 * machine's caches and a latency file saved on this machine. */
static int latency_comparable(const struct tui *t, const struct latency_result *r)
{
	const struct mountain *m = t->mtn;
	if (m && m->source[0])
		return run_header_same_machine(&m->hdr, &r->hdr);
	if (r->source[0]) /* a file: this machine's when its machine id (else host) is */
		return run_header_this_machine(&r->hdr);
	return 1;
}

/* One detected row ("mountain", "latency"): each level's column as
 * side_columns places it (idx), "-" where nothing was found for it. */
static void detected_row(struct tui *t, WINDOW *w, int y, const char *name,
			 const struct detection *d, const int idx[3], int have)
{
	char b[32], pad[64];
	wattrset(w, tui_attr(t, ROLE_TITLE));
	mvwaddstr(w, y, 2, mt_text_pad(pad, sizeof pad, _(name), -9));
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (int l = 0; l < 3; l++) {
		wmove(w, y, 11 + 7 * l);
		if (!have)
			waddstr(w, "..");
		else if (idx[l] >= 0)
			waddstr(w, mt_fmt_size(b, sizeof b, d->level[idx[l]]));
		else
			waddstr(w, "-");
	}
}

/* What the panel judges against: the mountain's cliffs and the latency
 * curve's levels, each with whether it is there to show, and the column
 * each level is read from (side_columns). */
struct side_found {
	struct detection d, ld;
	int have_det, have_lat, latency_judge;
	int idx[3], lidx[3];
};

/* Fills f from the viewed mountain and the latency result (read again at
 * each draw, so the latency levels fill in live: latency_detect works on a
 * partial result), their columns against inf's most trusted sizes (inf may
 * be NULL). Never fails: what is missing stays unset. */
static void side_detect(struct tui *t, const struct info *inf, struct side_found *f)
{
	const struct mountain *m = t->mtn;
	struct latency_levels lv;
	uint64_t ref[3] = { 0, 0, 0 }, none[3] = { 0, 0, 0 };
	memset(f, 0, sizeof *f);
	for (int l = 0; inf && l < 3; l++)
		ref[l] = info_best_size(inf, l + 1, NULL);
	if (m && mountain_measured(m) > 0 && cliffs_detect(m, CLIFFS_RATIO, &f->d) == 0)
		f->have_det = 1;
	if (t->lat && latency_measured(t->lat) >= 4) {
		latency_detect(t->lat, &lv);
		latency_as_detection(&lv, &f->ld);
		f->have_lat = 1;
		f->latency_judge = latency_comparable(t, t->lat);
	}
	side_columns(&f->d, ref, f->idx);
	side_columns(&f->ld, f->latency_judge ? ref : none, f->lidx);
}

/* The title row, whose caches these are and what the marks judge against;
 * returns the next free row. */
static int side_header(struct tui *t, WINDOW *w, int wd, const char *whose,
		       const struct side_found *f)
{
	int y = 0;
	char pad[64];
	const char *marks;
	wattrset(w, tui_attr(t, ROLE_TITLE));
	/* TRANSLATORS: the side panel's title, 9 columns at most */
	mvwaddstr(w, y, 2, mt_text_pad(pad, sizeof pad, _("Caches"), -9));
	for (int l = 0; l < 3; l++)
		wprintw(w, "%-7s", level_names[l]);
	y++;
	wattrset(w, tui_attr(t, ROLE_DIM));
	tui_put(t, w, y++, 2, wd - 3, whose);
	marks = f->have_det && f->latency_judge ? _("marks: mountain, then latency")
		: f->have_det			? _("marks: against the mountain")
		: f->latency_judge		? _("marks: against the latency")
						: _("latency: another machine's");
	if (f->have_det || f->have_lat)
		tui_put(t, w, y++, 2, wd - 3, marks);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	return y;
}

/* One row per info source from row y (while rows last): each level's size,
 * a '?' where info doubts it, then its marks; returns the next free row. */
static int source_rows(struct tui *t, WINDOW *w, int y, int h, const struct info *inf,
		       const struct side_found *f)
{
	char b[32];
	for (int s = 0; inf && s < inf->nsources && y < h; s++) {
		const char *name = inf->src[s].name;
		mvwprintw(w, y, 2, "%-9.9s", name);
		for (int l = 0; l < 3; l++) {
			uint64_t v = info_size(inf, name, l + 1, "data");
			wmove(w, y, 11 + 7 * l);
			if (!v) {
				waddstr(w, "-");
				continue;
			}
			wprintw(w, "%s", mt_fmt_size(b, sizeof b, v));
			if (info_doubt_of(inf, name, l + 1, l ? "unified" : "data")) {
				wattrset(w, tui_attr(t, ROLE_BAD));
				waddch(w, '?');
				wattrset(w, tui_attr(t, ROLE_NORMAL));
			}
			if (f->have_det)
				mark(t, w, side_mark_of(&f->d, f->idx, l, v));
			if (f->have_lat && f->latency_judge)
				mark(t, w, side_mark_of(&f->ld, f->lidx, l, v));
		}
		y++;
	}
	return y;
}

/* The line row at y: the mountain's stride slice beside the first L1 line
 * size any source gives, marked. */
static void line_row(struct tui *t, WINDOW *w, int y, const struct info *inf,
		     const struct side_found *f)
{
	int line = 0;
	for (int s = 0; inf && s < inf->nsources && !line; s++)
		for (int i = 0; i < inf->src[s].nlevels && !line; i++)
			if (inf->src[s].lv[i].level == 1)
				line = inf->src[s].lv[i].line;
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	{
		char pad[64];
		/* TRANSLATORS: the side panel's row of the cache line, 9 columns at most */
		mvwaddstr(w, y, 2, mt_text_pad(pad, sizeof pad, _("line"), -9));
	}
	if (f->have_det && f->d.line_bytes)
		wprintw(w, _("%llu B slice"), (unsigned long long)f->d.line_bytes);
	else
		waddstr(w, _("? slice"));
	if (line) {
		wprintw(w, _(", info %d B "), line);
		if (f->have_det && f->d.line_bytes)
			mark(t, w, f->d.line_bytes == (uint64_t)line ? SIDE_MATCH
				   : guess_steps(f->d.line_bytes, (uint64_t)line) == 1
				       ? SIDE_ONE_STEP
				       : SIDE_ELSEWHERE);
	}
}

/* The legend of the marks, the doubt line and the sources' disagreements
 * from row y, as far as rows h allow. */
static void side_footer(struct tui *t, WINDOW *w, int y, int h, int wd, const struct info *inf)
{
	if (y < h) {
		wmove(w, y++, 2);
		mark(t, w, SIDE_MATCH);
		waddstr(w, _(" match  "));
		mark(t, w, SIDE_ONE_STEP);
		waddstr(w, _(" one step off"));
	}
	if (y < h) {
		wmove(w, y++, 2);
		mark(t, w, SIDE_ELSEWHERE);
		waddstr(w, _(" at another size  "));
		mark(t, w, SIDE_NOT_SEEN);
		waddstr(w, _(" not seen"));
	}
	if (inf && inf->ndoubts > 0 && y < h) {
		wattrset(w, tui_attr(t, ROLE_BAD));
		mvwaddch(w, y, 2, '?');
		wattrset(w, tui_attr(t, ROLE_NORMAL));
		waddstr(w, _(" doubtful (memtop info: why)")); /* fits the panel */
		y++;
	}
	if (inf && inf->ndis > 0 && y + 1 < h) {
		y++;
		wattrset(w, tui_attr(t, ROLE_WARN));
		mvwaddstr(w, y++, 2, _("sources disagree:"));
		wattrset(w, tui_attr(t, ROLE_NORMAL));
		for (int i = 0; i < inf->ndis && y < h; i++) /* in whole words */
			y += tui_wrap(t, w, y, 2, wd - 3, h - y, inf->dis[i]);
	}
}

/* Where the shown run measured (the mountain's, else the latency run's
 * recorded place), else where the next run will (this machine's CPU a job
 * is pinned to), in whole words from row y; returns the next free row. */
static int where_rows(struct tui *t, WINDOW *w, int y, int h, int wd)
{
	struct run_place next;
	const struct run_place *p = NULL;
	int runs = 0;
	char text[200], line[240];
	if (t->mtn && t->mtn->hdr.place.known)
		p = &t->mtn->hdr.place;
	else if (t->lat && t->lat->hdr.place.known)
		p = &t->lat->hdr.place;
	else if (!(t->mtn && t->mtn->source[0])) {
		run_place_init(&next, job_pick_cpu());
		p = next.known ? &next : NULL;
		runs = 1;
	}
	if (!p || y >= h)
		return y;
	run_place_text(p, text, sizeof text);
	mt_snprintf(line, sizeof line, runs ? _("runs on %s") : _("measured on %s"), text);
	wattrset(w, tui_attr(t, ROLE_DIM));
	y += tui_wrap(t, w, y, 2, wd - 3, h - y, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	return y;
}

/* The conditions the figures were taken under, in one wrapped line: those
 * of the file shown (its header's; "not recorded" for an import or an older file), else this
 * machine's; then the job's limits when there are some ("job: cgroup memory
 * 768M, cpu quota 0.5 CPU"). Returns the next free row. */
static int conditions_rows(struct tui *t, WINDOW *w, int y, int h, int wd,
			   const struct run_header *shown)
{
	const struct run_header *hdr = shown;
	const struct mt_conditions *c = NULL;
	const struct mt_limits *job = NULL;
	char sum[200], lim[300], line[560];
	if (!hdr && t->mtn && t->mtn->source[0])
		hdr = &t->mtn->hdr;
	else if (!hdr && t->lat && t->lat->source[0])
		hdr = &t->lat->hdr;
	if (hdr) {
		c = &hdr->cond;
		job = hdr->has_job ? &hdr->job : NULL;
	} else if (t->machine) {
		c = &t->machine->cond;
		job = &t->machine->limits;
	}
	if (!c || y >= h)
		return y;
	mt_conditions_summary(c, sum, sizeof sum);
	if (c->have)
		mt_snprintf(line, sizeof line, _("conditions: %s"), sum);
	else
		mt_strlcpy(line, sum, sizeof line);
	/* the English summary is compared, the user's language shown */
	if (job && job->known && (strcmp(mt_limits_summary(job, lim, sizeof lim), "no limits") ||
				  job->nnotes)) {
		mt_limits_summary_text(job, lim, sizeof lim);
		mt_append(line, sizeof line,
			  job->nnotes ? _("; job: %s (a cgroup file did not parse: memtop topo)")
				      : _("; job: %s"), lim);
	}
	wattrset(w, tui_attr(t, ROLE_DIM));
	y += tui_wrap(t, w, y, 2, wd - 3, h - y, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	return y;
}

/* The file another tab (Cores, Bandwidth, ...) shows, whose machine these
 * caches are not: which file, and whose. Returns the next free row. */
static int shown_rows(struct tui *t, WINDOW *w, int y, int h, int wd,
		      const struct run_header *shown, const char *source)
{
	const char *base = strrchr(source, '/');
	char line[600];
	if (y >= h)
		return y;
	mt_snprintf(line, sizeof line, _("the tab shows %s, of %s: these caches are not its machine's"),
		    base ? base + 1 : source,
		    shown->host[0] ? shown->host : shown->cpu[0] ? shown->cpu : _("another machine"));
	wattrset(w, tui_attr(t, ROLE_DIM));
	y += tui_wrap(t, w, y, 2, wd - 3, h - y, MT_PRINTABLE(line));
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	return y;
}

void side_draw(struct tui *t, WINDOW *w)
{
	const char *whose = "", *source = NULL;
	const struct info *inf = panel_info(t, &whose);
	const struct tab *cur = t->tabs[t->cur];
	const struct run_header *shown = cur != &tab_mountain && cur != &tab_latency
						 ? files_shown_header(t, cur, &source)
						 : NULL;
	struct side_found f;
	int y, h, wd;
	getmaxyx(w, h, wd);
	werase(w);
	wattrset(w, tui_attr(t, ROLE_DIM));
	for (int i = 0; i < h; i++)
		mvwaddstr(w, i, 0, tui_glyph(t, GL_VLINE));
	side_detect(t, inf, &f);
	y = side_header(t, w, wd, whose, &f);
	y = source_rows(t, w, y, h, inf, &f);
	if (!inf && y < h)
		mvwaddstr(w, y++, 2, _("(no cache information)"));
	/* the detected levels, matched to the most trusted source */
	if (y < h)
		/* TRANSLATORS: the side panel's rows, 9 columns at most */
		detected_row(t, w, y++, N_("mountain"), &f.d, f.idx, f.have_det);
	if (y < h)
		detected_row(t, w, y++, N_("latency"), &f.ld, f.lidx, f.have_lat);
	if (f.have_det && y < h) {
		wattrset(w, tui_attr(t, ROLE_DIM));
		mvwprintw(w, y++, 2, MT_NGETTEXT("%d cliff at stride", "%d cliffs at stride",
						 f.d.nlevels), f.d.nlevels);
		for (size_t i = 0; i < f.d.nstrides_used && getcurx(w) < wd - 4; i++)
			wprintw(w, " %u", f.d.strides_used[i]);
	}
	if (y < h)
		line_row(t, w, y++, inf, &f);
	if (shown)
		y = shown_rows(t, w, y, h, wd, shown, source);
	else
		y = where_rows(t, w, y, h, wd);
	y = conditions_rows(t, w, y, h, wd, shown);
	side_footer(t, w, y + 1, h, wd, inf);
	wattrset(w, A_NORMAL);
}
