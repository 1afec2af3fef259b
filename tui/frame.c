/* frame: one frame's drawing (the tab bar, the selected tab's area or the
 * help, the Caches side panel, the status line).
 *
 * Every window is drawn in full into ncurses' buffers and sent with one
 * doupdate(), so the terminal receives only what changed (a cursor move
 * repaints two cells). The loop (session.c) redraws after keys at once and
 * at most every 100 ms while a job streams. */
#include "config.h"

#include "internal.h"


void frame_draw(struct tui *t)
{
	if (t->too_small) {
		char m[128];
		erase();
		mt_snprintf(m, sizeof m, _("memtop needs %dx%d; this terminal is %dx%d (q quits)"),
			    TUI_MIN_COLS, TUI_MIN_LINES, t->cols, t->lines);
		mvaddnstr(0, 0, m, (int)mt_text_cut(m, t->cols, NULL));
		if (t->asking) /* the question in whole words on the lines there are */
			tui_wrap(t, stdscr, 1, 0, t->cols, t->lines - 1, t->question);
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
