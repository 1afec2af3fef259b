/* layout: the frame's windows for the terminal's size (tab bar, tab area,
 * Caches side panel from 100 columns, status line of 1 or 2 lines), or
 * too_small below 80x24; and their removal. */
#include "config.h"

#include "internal.h"

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
