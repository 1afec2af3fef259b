/* status: the tab bar at the top and the status line at the bottom
 * (progress, ETA, the job's CPU, messages, the prompt, diagnostics in
 * words on a second line). */
#include "config.h"

#include "internal.h"

#include <string.h>

void tui_set_diag(struct tui *t, const struct diag *d)
{
	t->has_diag = d != NULL;
	if (d)
		t->diag = *d;
	t->dirty = 1;
}

/* A message longer than the status line (a path in it, say) takes the
 * second line too, in whole words, until the next key. */
static int msg_wraps(const struct tui *t)
{
	return t->msg[0] && !t->job && !t->prompting && !t->confirm_quit &&
	       tui_text_height(t->msg, t->cols - 2) > 1;
}

int status_lines_wanted(struct tui *t)
{
	char w[4][160];
	if ((t->has_diag && diag_warnings(&t->diag, w, 4) > 0) || msg_wraps(t))
		return 2;
	return 1;
}

/* Columns of tab i's label: " 1 Mountain " named, " 1 " by number only. */
static int label_cols(const struct tui *t, int i, int named)
{
	return named ? (int)strlen(t->tabs[i]->name) + 4 : 3;
}

/* Which labels carry their names in room columns (gap columns between
 * labels): all when they fit; else the current one and the others from the
 * shortest name up, each whole, the rest by number only. Returns the columns
 * the labels take. */
static int bar_names(const struct tui *t, int room, int gap, int *named)
{
	int used = 0;
	for (int i = 0; i < t->ntabs; i++) {
		named[i] = i == t->cur;
		used += label_cols(t, i, named[i]) + (i ? gap : 0);
	}
	for (;;) { /* name the shortest unnamed label that still fits */
		int best = -1;
		for (int i = 0; i < t->ntabs; i++)
			if (!named[i] && (best < 0 || strlen(t->tabs[i]->name) <
							     strlen(t->tabs[best]->name)))
				best = i;
		if (best < 0 || used - 3 + label_cols(t, best, 1) > room)
			break;
		used += label_cols(t, best, 1) - 3;
		named[best] = 1;
	}
	return used;
}

/* The columns of every label named, with gap columns between them. */
static int all_named(const struct tui *t, int gap)
{
	int used = 0;
	for (int i = 0; i < t->ntabs; i++)
		used += label_cols(t, i, 1) + (i ? gap : 0);
	return used;
}

/* The tab bar, fitted to the width in whole words: the full form is
 * " memtop  1 Mountain   2 Latency ...   ? help  q quit"; when that is too
 * wide the hint goes, then the gaps between labels, then the program name
 * (view mode still says "view:"), then the other tabs' names (longest
 * first), leaving their numbers. */
void status_draw_bar(struct tui *t)
{
	WINDOW *w = t->bar;
	const char *hint = "? help  q quit ";
	const char *prefix = t->view ? " memtop view: " : " memtop ";
	int named[TUI_MAX_TABS], gap = 1, hint_on = 1, all = 1;
	if ((int)strlen(prefix) + all_named(t, gap) + (int)strlen(hint) > t->cols)
		hint_on = 0;
	if ((int)strlen(prefix) + all_named(t, gap) > t->cols)
		gap = 0;
	if ((int)strlen(prefix) + all_named(t, gap) > t->cols)
		prefix = t->view ? " view:" : "";
	bar_names(t, t->cols - (int)strlen(prefix), gap, named);
	wbkgdset(w, ' ' | tui_attr(t, ROLE_TAB));
	werase(w);
	wmove(w, 0, 0);
	wattrset(w, tui_attr(t, ROLE_TAB) | A_BOLD);
	waddstr(w, prefix);
	for (int i = 0; i < t->ntabs; i++) {
		all &= named[i];
		if (i && gap) {
			wattrset(w, tui_attr(t, ROLE_TAB));
			waddstr(w, " ");
		}
		wattrset(w, tui_attr(t, i == t->cur ? ROLE_TAB_ACTIVE : ROLE_TAB));
		t->tab_x[i][0] = getcurx(w);
		if (named[i])
			wprintw(w, " %c %s ", t->tabs[i]->key, t->tabs[i]->name);
		else
			wprintw(w, " %c ", t->tabs[i]->key);
		t->tab_x[i][1] = getcurx(w);
	}
	wattrset(w, tui_attr(t, ROLE_TAB));
	if (hint_on && all) {
		int x = t->cols - (int)strlen(hint);
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
		mt_snprintf(buf, len, "%.0f s", s);
	else
		mt_snprintf(buf, len, "%d min %02d s", (int)(s / 60), (int)s % 60);
}

void status_draw(struct tui *t)
{
	WINDOW *w = t->status;
	attr_t a = tui_attr(t, ROLE_STATUS);
	wbkgdset(w, ' ' | a);
	werase(w);
	wattrset(w, a);
	wmove(w, 0, 0);
	if (t->confirm_quit) {
		waddnstr(w, " Unsaved results. Save before quitting? y save, n quit without saving, "
			    "Esc stay", t->cols - 1);
	} else if (t->prompting) {
		char line[512];
		mt_snprintf(line, sizeof line, " %s%s", t->question, t->answer);
		/* keep the end (where the typing is) visible */
		size_t n = strlen(line), room = (size_t)(t->cols > 2 ? t->cols - 2 : 1);
		waddstr(w, n > room ? line + (n - room) : line);
		wattrset(w, a | A_REVERSE);
		waddch(w, ' ');
		wattrset(w, a);
	} else if (t->job) {
		struct job_progress p;
		char eta[32], el[32], line[512];
		job_get_progress(t->job, &p);
		waddch(w, ' ');
		progress_bar(t, w, p.fraction, 20);
		fmt_secs(eta, sizeof eta, p.eta_s);
		fmt_secs(el, sizeof el, p.elapsed_s);
		mt_snprintf(line, sizeof line, " %3.0f%%  %llu/%llu cells  ETA %s  (%s)  CPU %d%s%s%s",
			    p.fraction * 100, (unsigned long long)p.cells_done,
			    (unsigned long long)p.cells_total, eta, el, p.cpu,
			    job_is_paused(t->job) ? "  PAUSED (p resumes)" : "", t->msg[0] ? "  " : "",
			    t->msg);
		tui_put(t, w, 0, getcurx(w), t->cols - getcurx(w) - 1, line);
	} else if (t->msg[0]) {
		tui_wrap(t, w, 0, 1, t->cols - 2, t->status_lines, t->msg);
	} else {
		/* the tabs that fit whole, then the hint (never cut mid-word) */
		static const char hint[] = "? help  q quit";
		char line[300] = " ", item[64];
		for (int i = 0; i < t->ntabs; i++) {
			mt_snprintf(item, sizeof item, "%c %s  ", t->tabs[i]->key, t->tabs[i]->name);
			if ((int)(strlen(line) + strlen(item) + strlen(hint)) < t->cols)
				mt_append(line, sizeof line, "%s", item);
		}
		mt_append(line, sizeof line, "%s", hint);
		waddnstr(w, line, t->cols - 1);
	}
	if (t->status_lines > 1 && !msg_wraps(t)) {
		char lines[4][160];
		int n = t->has_diag ? diag_warnings(&t->diag, lines, 4) : 0;
		char line[700] = " warning: ";
		wmove(w, 1, 0);
		wattrset(w, a | A_BOLD);
		for (int i = 0; i < n; i++)
			mt_append(line, sizeof line, "%s%s", i ? "; " : "", lines[i]);
		tui_put(t, w, 1, 0, t->cols - 1, line);
	}
	wnoutrefresh(w);
}
