/* layout: the frame's windows for the terminal's size (tab bar, tab area,
 * Caches side panel from 100 columns, status line of 1 or 2 lines), or
 * too_small below 80x24; and their removal. */
#include "config.h"

#include "internal.h"

void frame_drop_windows(struct tui *t)
{
	WINDOW **w[] = { &t->bar, &t->area, &t->side, &t->status, &t->area_spare, &t->side_spare };
	for (size_t i = 0; i < MT_ARRAY_LEN(w); i++)
		if (*w[i]) {
			delwin(*w[i]);
			*w[i] = NULL;
		}
}

static int sized(WINDOW *w, int h, int wd)
{
	int oh, ow;
	if (!w)
		return 0;
	getmaxyx(w, oh, ow);
	return oh == h && ow == wd;
}

/* *w becomes an h x wd window at (y, x): the one it is when it has that
 * size already (moved there), else a new one (*w NULL when curses cannot).
 * A layout that did not change size allocates nothing: each of a window's
 * lines is an allocation the width of the terminal, and a sanitizer build
 * holds what is freed for a while (its quarantine), so re-making the same
 * windows on each help toggle kept its size class's memory growing. */
static void place(WINDOW **w, int h, int wd, int y, int x)
{
	int oy, ox;
	if (sized(*w, h, wd)) {
		getbegyx(*w, oy, ox);
		if ((oy == y && ox == x) || mvwin(*w, y, x) == OK)
			return;
	}
	if (*w)
		delwin(*w);
	*w = newwin(h, wd, y, x);
}

/* The tab area, h x wd at (1, 0): the help hides the side panel, so the
 * area toggles between two widths; the other one is kept in area_spare
 * (and the hidden side panel in side_spare). */
static void place_area(struct tui *t, int h, int wd)
{
	WINDOW *w;
	if (!sized(t->area, h, wd)) {
		w = t->area_spare;
		t->area_spare = t->area;
		t->area = w;
	}
	place(&t->area, h, wd, 1, 0);
}

void frame_layout(struct tui *t)
{
	int side_w = 0, area_h;
	getmaxyx(stdscr, t->lines, t->cols);
	t->too_small = t->cols < TUI_MIN_COLS || t->lines < TUI_MIN_LINES;
	if (t->too_small) {
		frame_drop_windows(t);
		return;
	}
	t->status_lines = status_lines_wanted(t);
	/* auto: from 100 columns; i forces it on or off at any width */
	t->side_shown = !t->help && (t->side_on < 0 ? t->cols >= TUI_SIDE_MIN_COLS : t->side_on);
	if (t->side_shown)
		side_w = TUI_SIDE_W;
	area_h = t->lines - 1 - t->status_lines;
	place(&t->bar, 1, t->cols, 0, 0);
	place_area(t, area_h, t->cols - side_w);
	if (side_w) { /* the side panel hidden by the help comes back */
		if (!t->side) {
			t->side = t->side_spare;
			t->side_spare = NULL;
		}
		place(&t->side, area_h, side_w, 1, t->cols - side_w);
	} else if (t->side) {
		if (t->side_spare)
			delwin(t->side_spare);
		t->side_spare = t->side;
		t->side = NULL;
	}
	place(&t->status, t->status_lines, t->cols, t->lines - t->status_lines, 0);
	if (!t->bar || !t->area || !t->status || (side_w && !t->side)) {
		frame_drop_windows(t);
		t->too_small = 1;
	}
	t->full = 1;
}
