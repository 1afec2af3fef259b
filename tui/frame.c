/* frame: the services tabs use (tab.h), the layout of the windows (tab
 * bar, tab area, Caches side panel, status line) and one frame's drawing.
 *
 * Every window is drawn in full into ncurses' buffers and sent with one
 * doupdate(), so the terminal receives only what changed (a cursor move
 * repaints two cells). The loop (session.c) redraws after keys at once and
 * at most every 100 ms while a job streams. */
#include "config.h"

#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void tui_message(struct tui *t, const char *fmt, ...)
{
	char raw[sizeof t->msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	/* messages quote paths and fields of files: made printable here, once */
	tui_text(t, t->msg, sizeof t->msg, raw);
	t->dirty = 1;
}

int tui_can_measure(struct tui *t)
{
	if (tui_view_mode(t)) {
		tui_message(t, "memtop view does not measure (run memtop for this machine)");
		return 0;
	}
	if (tui_job(t)) {
		tui_message(t, "a measurement is already running (x stops it)");
		return 0;
	}
	return 1;
}

void tui_dirty(struct tui *t)
{
	t->dirty = 1;
}

void tui_set_mountain(struct tui *t, const struct mountain *m)
{
	t->mtn = m;
	t->dirty = 1;
}

void tui_set_latency(struct tui *t, const struct latency_result *r)
{
	t->lat = r;
	t->dirty = 1;
}

const struct latency_result *tui_latency(const struct tui *t)
{
	return t->lat;
}

const struct info *tui_info(const struct tui *t)
{
	return t->have_info ? &t->info : NULL;
}

int tui_view_mode(const struct tui *t)
{
	return t->view;
}

int tui_quick(const struct tui *t)
{
	return t->quick;
}

enum tui_start tui_autostart(const struct tui *t)
{
	return (enum tui_start)t->start;
}

void frame_drop_windows(struct tui *t)
{
	WINDOW **w[] = { &t->bar, &t->area, &t->side, &t->status };
	for (size_t i = 0; i < MT_ARRAY_LEN(w); i++)
		if (*w[i]) {
			delwin(*w[i]);
			*w[i] = NULL;
		}
}

void frame_layout(struct tui *t)
{
	int side_w = 0;
	getmaxyx(stdscr, t->lines, t->cols);
	frame_drop_windows(t);
	t->too_small = t->cols < TUI_MIN_COLS || t->lines < TUI_MIN_LINES;
	if (t->too_small)
		return;
	t->status_lines = status_lines_wanted(t);
	/* auto: from 100 columns; i forces it on or off at any width */
	t->side_shown = !t->help && (t->side_on < 0 ? t->cols >= TUI_SIDE_MIN_COLS : t->side_on);
	if (t->side_shown)
		side_w = TUI_SIDE_W;
	t->bar = newwin(1, t->cols, 0, 0);
	t->area = newwin(t->lines - 1 - t->status_lines, t->cols - side_w, 1, 0);
	if (side_w)
		t->side = newwin(t->lines - 1 - t->status_lines, side_w, 1, t->cols - side_w);
	t->status = newwin(t->status_lines, t->cols, t->lines - t->status_lines, 0);
	if (!t->bar || !t->area || !t->status || (side_w && !t->side)) {
		frame_drop_windows(t);
		t->too_small = 1;
	}
	t->full = 1;
}

void frame_draw(struct tui *t)
{
	if (t->too_small) {
		char m[128];
		erase();
		mt_snprintf(m, sizeof m, "memtop needs %dx%d; this terminal is %dx%d (q quits)",
			    TUI_MIN_COLS, TUI_MIN_LINES, t->cols, t->lines);
		mvaddnstr(0, 0, m, t->cols);
		if (t->confirm_quit)
			mvaddnstr(1, 0, "Unsaved results: y save and quit, n quit, Esc stay", t->cols);
		wnoutrefresh(stdscr);
		doupdate();
		t->last_draw_ns = mt_now_ns();
		t->dirty = 0;
		return;
	}
	if (status_lines_wanted(t) != t->status_lines)
		frame_layout(t);
	if (t->full) {
		werase(stdscr);
		wnoutrefresh(stdscr);
		werase(t->area);
		if (t->side)
			werase(t->side);
	}
	status_draw_bar(t);
	if (t->help) {
		keys_draw_help(t);
	} else {
		t->tabs[t->cur]->draw(t, tui_tab_self(t, t->tabs[t->cur]), t->area, t->full);
		wattrset(t->area, A_NORMAL);
		wnoutrefresh(t->area);
		if (t->side) {
			side_draw(t, t->side);
			wnoutrefresh(t->side);
		}
	}
	status_draw(t);
	doupdate();
	t->full = 0;
	t->dirty = 0;
	t->last_draw_ns = mt_now_ns();
}
