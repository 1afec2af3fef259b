/* status: the tab bar at the top and the status line at the bottom
 * (progress, ETA, the job's CPU, messages, the prompt, diagnostics in
 * words on a second line). */
#include "config.h"

#include "internal.h"
#include "model.h"

#include <string.h>

void tui_set_diag(struct tui *t, const struct diag *d)
{
	t->has_diag = d != NULL;
	if (d)
		t->diag = *d;
	t->dirty = 1;
}

#define STATUS_MAX_LINES 4 /* the progress or message, the message below it, warnings */

/* The run's warnings as one sentence into buf (" warning: a; b"), "" when
 * there are none. */
static const char *warn_text(const struct tui *t, char *buf, size_t len)
{
	char lines[4][DIAG_LINE];
	int n = t->has_diag ? diag_warnings(&t->diag, lines, 4) : 0;
	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		/* TRANSLATORS: the status line's warnings: "warning: a; b" */
		mt_append(buf, len, "%s%s", i ? "; " : _("warning: "), lines[i]);
	return buf;
}

/* The lines the message takes below the first: while a run shows its
 * progress on the first line, all of the message (in whole words); else
 * the rest of it, when it does not fit the first line. A prompt or a
 * question takes the first line alone. */
static int msg_lines_below(const struct tui *t)
{
	int h;
	if (!t->msg[0] || t->prompting || t->asking)
		return 0;
	h = tui_text_height(t->msg, t->cols - 2);
	return t->job ? h : h - 1;
}

int status_lines_wanted(struct tui *t)
{
	char warn[4 * DIAG_LINE];
	int n = 1 + msg_lines_below(t) + tui_text_height(warn_text(t, warn, sizeof warn),
						       t->cols - 2);
	return n < STATUS_MAX_LINES ? n : STATUS_MAX_LINES;
}

/* A tab's label at a level of detail: 2 its name ("False sharing"), 1 its
 * brief name when it has one ("Sharing"), 0 its number alone. */
static const char *label_name(const struct tui *t, int i, int level)
{
	const struct tab *tab = t->tabs[i];
	if (level == 0)
		return NULL;
	return _(level == 1 && tab->brief ? tab->brief : tab->name);
}

/* Whether tab i's label shows its number: always, but in the last layout
 * of a bar too narrow for every number and name (eight tabs and "view:" at
 * 80 columns), where only the current tab's does. */
static int label_numbered(const struct tui *t, int i)
{
	return t->bar_numbers || i == t->cur;
}

/* Columns of tab i's label: " 1 Mountain " padded (pad 1), "1 Mountain"
 * tight (pad 0); " 1 " / "1" by number only; "Mountain" unnumbered. */
static int label_cols(const struct tui *t, int i, int level, int pad)
{
	const char *n = label_name(t, i, level);
	if (!label_numbered(t, i) && n)
		return text_cols(n) + 2 * pad;
	return (n ? text_cols(n) + 2 : 1) + 2 * pad;
}

/* Which labels carry a name in room columns (gap columns between labels):
 * the current one at cur_level; the others first briefly, from the
 * shortest up, each whole, then in full where that still fits; the rest by
 * number only. Returns the columns the labels take. */
static int fit_names(const struct tui *t, int room, int pad, int gap, int cur_level, int *level)
{
	int used = 0;
	for (int i = 0; i < t->ntabs; i++) {
		level[i] = i == t->cur ? cur_level : 0;
		used += label_cols(t, i, level[i], pad) + (i ? gap : 0);
	}
	for (int want = 1; want <= 2; want++)
		for (;;) { /* raise the shortest label that still fits */
			int best = -1, grow = 0;
			for (int i = 0; i < t->ntabs; i++) {
				if (level[i] >= want)
					continue;
				int g = label_cols(t, i, want, pad) - label_cols(t, i, level[i], pad);
				if (best < 0 || g < grow)
					best = i, grow = g;
			}
			if (best < 0 || used + grow > room)
				break;
			used += grow;
			level[best] = want;
		}
	return used;
}

/* fit_names with the current label in full, or brief when that leaves
 * another label with its number alone. */
static void bar_names(const struct tui *t, int room, int pad, int gap, int *level)
{
	fit_names(t, room, pad, gap, 2, level);
	for (int i = 0; i < t->ntabs; i++)
		if (level[i] == 0 && t->tabs[t->cur]->brief) {
			fit_names(t, room, pad, gap, 1, level);
			return;
		}
}

/* The columns of every label named in full, with their gaps. */
static int all_named(const struct tui *t, int pad, int gap)
{
	int used = 0;
	for (int i = 0; i < t->ntabs; i++)
		used += label_cols(t, i, 2, pad) + (i ? gap : 0);
	return used;
}

/* The tab bar, fitted to the width in whole words. The first layout that
 * holds every name in full wins: " memtop  1 Mountain   2 Latency ...
 * ? help  q quit"; without the hint; without the gaps; with the short
 * prefix (view mode still says "view:"); labels tight, one space apart.
 * In the last layout the other tabs take brief names; when one would still
 * keep its number alone, the others are named without their numbers
 * (eight tabs and "view:" at 80 columns); then numbers. */
void status_draw_bar(struct tui *t)
{
	static const struct {
		int long_prefix, pad, gap, hint;
	} layouts[] = { { 1, 1, 1, 1 }, { 1, 1, 1, 0 }, { 1, 1, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 } };
	WINDOW *w = t->bar;
	const char *hint = _("? help  q quit ");
	const char *prefix = "";
	int level[TUI_MAX_TABS], pad = 0, gap = 1, hint_on = 0, all = 1;
	t->bar_numbers = 1;
	for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
		/* TRANSLATORS: the tab bar's start in memtop view (a short one
		 * where the bar is short of room) */
		prefix = layouts[l].long_prefix ? (t->view ? _(" memtop view: ") : " memtop ")
						: (t->view ? _(" view:") : "");
		pad = layouts[l].pad;
		gap = layouts[l].gap;
		hint_on = layouts[l].hint;
		int need = text_cols(prefix) + all_named(t, pad, gap) +
			   (hint_on ? text_cols(hint) : 0) + (pad ? 0 : 1);
		if (need <= t->cols)
			break;
	}
	bar_names(t, t->cols - text_cols(prefix) - (pad ? 0 : 1), pad, gap, level);
	for (int i = 0; i < t->ntabs && t->bar_numbers; i++)
		if (level[i] == 0) { /* a tab by its number alone: name them unnumbered */
			t->bar_numbers = 0;
			bar_names(t, t->cols - text_cols(prefix) - (pad ? 0 : 1), pad, gap, level);
		}
	wbkgdset(w, ' ' | tui_attr(t, ROLE_TAB));
	werase(w);
	wmove(w, 0, 0);
	wattrset(w, tui_attr(t, ROLE_TAB) | A_BOLD);
	waddstr(w, prefix);
	if (!pad)
		waddstr(w, " ");
	for (int i = 0; i < t->ntabs; i++) {
		const char *n = label_name(t, i, level[i]);
		all &= level[i] == 2;
		if (i && gap) {
			wattrset(w, tui_attr(t, ROLE_TAB));
			waddstr(w, " ");
		}
		wattrset(w, tui_attr(t, i == t->cur ? ROLE_TAB_ACTIVE : ROLE_TAB));
		t->tab_x[i][0] = getcurx(w);
		if (label_numbered(t, i) || !n)
			wprintw(w, "%s%c%s%s%s", pad ? " " : "", t->tabs[i]->key, n ? " " : "",
				n ? n : "", pad ? " " : "");
		else
			wprintw(w, "%s%s%s", pad ? " " : "", n, pad ? " " : "");
		t->tab_x[i][1] = getcurx(w);
	}
	wattrset(w, tui_attr(t, ROLE_TAB));
	if (hint_on && all) {
		int x = t->cols - text_cols(hint);
		if (x > getcurx(w))
			mvwaddstr(w, 0, x, hint);
	}
	wnoutrefresh(w);
}

static void progress_bar(struct tui *t, WINDOW *w, double frac, int width)
{
	int e = (int)(frac * width * 8 + 0.5);
	waddstr(w, "[");
	for (int i = 0; i < width; i++) {
		int part = e - i * 8;
		if (part >= 8)
			waddstr(w, tui_utf8(t) ? tui_bar_part(t, 8) : "#");
		else if (part > 0)
			waddstr(w, tui_utf8(t) ? tui_bar_part(t, part) : (part >= 4 ? "#" : "."));
		else
			waddstr(w, tui_utf8(t) ? " " : ".");
	}
	waddstr(w, "]");
}

static void fmt_secs(char *buf, size_t len, double s)
{
	if (s < 0)
		mt_snprintf(buf, len, "?");
	else if (s < 60)
		mt_hsnprintf(buf, len, _("%.0f s"), s);
	else
		mt_snprintf(buf, len, _("%d min %02d s"), (int)(s / 60), (int)s % 60);
}

void status_draw(struct tui *t)
{
	WINDOW *w = t->status;
	attr_t a = tui_attr(t, ROLE_STATUS);
	char warn[4 * DIAG_LINE];
	int y = 1; /* the next line free for the warnings */
	int below = msg_lines_below(t) < t->status_lines - 1 ? msg_lines_below(t)
							      : t->status_lines - 1;
	wbkgdset(w, ' ' | a);
	werase(w);
	wattrset(w, a);
	wmove(w, 0, 0);
	if (t->asking) {
		tui_put(t, w, 0, 1, t->cols - 2, t->question);
	} else if (t->prompting) {
		char line[512];
		const char *from = line;
		int room = t->cols > 2 ? t->cols - 2 : 1;
		mt_snprintf(line, sizeof line, " %s%s", t->question, t->answer);
		/* keep the end (where the typing is) visible: whole characters
		 * dropped from the start, counted in columns */
		while (text_cols(from) > room)
			from += wrap_at(from, 1);
		waddstr(w, from);
		wattrset(w, a | A_REVERSE);
		waddch(w, ' ');
		wattrset(w, a);
	} else if (t->job) {
		struct job_progress p;
		char eta[32], el[32], cells[64], line[512];
		job_get_progress(t->job, &p);
		waddch(w, ' ');
		progress_bar(t, w, p.fraction, 20);
		fmt_secs(eta, sizeof eta, p.eta_s);
		fmt_secs(el, sizeof el, p.elapsed_s);
		job_progress_cells(&p, cells, sizeof cells);
		/* TRANSLATORS: the progress: percent done, cells, time left,
		 * time taken, the CPU the run is pinned to */
		mt_hsnprintf(line, sizeof line, _(" %3.0f%%  %s  ETA %s  (%s)  CPU %d"), p.fraction * 100,
			     cells, eta, el, p.cpu);
		if (job_is_paused(t->job))
			mt_append(line, sizeof line, "%s", _("  PAUSED (p resumes)"));
		tui_put(t, w, 0, getcurx(w), t->cols - getcurx(w) - 1, line);
		if (t->msg[0]) /* the message below the progress, in whole words */
			y = 1 + tui_wrap(t, w, 1, 1, t->cols - 2, below, t->msg);
	} else if (t->msg[0]) {
		y = tui_wrap(t, w, 0, 1, t->cols - 2, 1 + below, t->msg);
	} else {
		/* the frame's keys that fit whole, the hint last (the tab bar
		 * above already names the tabs) */
		const char *hint = _("? help  q quit");
		char line[300] = " ", item[64];
		if (t->tabs[t->ntabs - 1]->key == '0')
			mt_strlcpy(item, _("1..9 0 tabs  "), sizeof item);
		else
			mt_snprintf(item, sizeof item, _("1..%c tabs  "), t->tabs[t->ntabs - 1]->key);
		const char *items[] = { item, _("Tab next  ") };
		for (size_t i = 0; i < sizeof items / sizeof items[0]; i++)
			if (text_cols(line) + text_cols(items[i]) + text_cols(hint) < t->cols)
				mt_append(line, sizeof line, "%s", items[i]);
		mt_append(line, sizeof line, "%s", hint);
		waddnstr(w, line, (int)mt_text_cut(line, t->cols - 1, NULL));
	}
	if (y < t->status_lines && warn_text(t, warn, sizeof warn)[0]) {
		/* the warnings under the rest, in whole words */
		wattrset(w, a | A_BOLD);
		tui_wrap(t, w, y, 1, t->cols - 2, t->status_lines - y, warn);
	}
	wnoutrefresh(w);
}
