/* text: sentences on the screen in whole words (tab.h: tui_put, tui_wrap).
 * At 80x24 a line that does not fit loses whole words, and says so with the
 * ellipsis glyph; it never ends inside a word (tests/tui_words.sh checks
 * every tab). The layout itself is tui/model.c's text_fit and text_lines,
 * unit-tested without a terminal. */
#include "config.h"

#include "internal.h"
#include "model.h"

#include <string.h>

/* The first n bytes of s at (y, x), each TUI_GLUE a blank. */
static void put_bytes(WINDOW *w, int y, int x, const char *s, int n)
{
	char buf[1024];
	if (n >= (int)sizeof buf)
		n = (int)sizeof buf - 1;
	memcpy(buf, s, (size_t)n);
	buf[n] = '\0';
	for (char *c = buf; *c; c++)
		if (*c == TUI_GLUE[0])
			*c = ' ';
	mvwaddstr(w, y, x, buf);
}

/* The longest start of s made of whole clauses (text_clauses_fit) that
 * takes at most lines lines of width columns: its bytes, 0 when none. */
static int clauses_in_lines(const char *s, int width, int lines)
{
	char buf[1024];
	int off[1], len[1], best = 0, n;
	for (int w = width; w <= width * lines && w < (int)sizeof buf; w += width / 2 + 1) {
		n = text_clauses_fit(s, w);
		if (n <= best || n >= (int)sizeof buf)
			continue;
		memcpy(buf, s, (size_t)n);
		buf[n] = '\0';
		if (text_lines(buf, width, off, len, 1) <= lines)
			best = n;
	}
	return best;
}

int tui_put(struct tui *t, WINDOW *w, int y, int x, int width, const char *s)
{
	const char *ell = tui_glyph(t, GL_ELLIPSIS);
	int cols, n;
	if (width <= 0 || !s)
		return 0;
	if (text_cols(s) <= width) {
		put_bytes(w, y, x, s, (int)strlen(s));
		return text_cols(s);
	}
	/* too long: its first whole clauses, a shorter sentence */
	if ((n = text_clauses_fit(s, width)) > 0) {
		put_bytes(w, y, x, s, n);
		return text_cols(s) - text_cols(s + n);
	}
	n = text_fit(s, width - 1, &cols); /* room for the ellipsis */
	if (n == 0) { /* one word wider than the room: the ellipsis alone */
		mvwaddstr(w, y, x, ell);
		return 1;
	}
	put_bytes(w, y, x, s, n);
	waddstr(w, ell);
	return cols + 1;
}

int tui_wrap(struct tui *t, WINDOW *w, int y, int x, int width, int lines, const char *s)
{
	enum { MAX_LINES = 64 };
	int off[MAX_LINES], len[MAX_LINES], n, shown;
	char buf[1024];
	if (width <= 0 || lines <= 0 || !s)
		return 0;
	n = text_lines(s, width, off, len, MAX_LINES);
	if (n > lines) { /* too long: its first whole clauses that fit, if any */
		int keep = clauses_in_lines(s, width, lines);
		if (keep > 0 && keep < (int)sizeof buf) {
			memcpy(buf, s, (size_t)keep);
			buf[keep] = '\0';
			return tui_wrap(t, w, y, x, width, lines, buf);
		}
	}
	shown = n < lines ? n : lines;
	if (shown > MAX_LINES)
		shown = MAX_LINES;
	for (int i = 0; i < shown; i++) {
		if (i == shown - 1 && n > shown) { /* the last line says the rest is left out */
			tui_put(t, w, y + i, x, width, s + off[i]);
			break;
		}
		mt_snprintf(buf, sizeof buf, "%.*s", len[i], s + off[i]);
		tui_put(t, w, y + i, x, width, buf);
	}
	return shown;
}

int tui_text_height(const char *s, int width)
{
	int off[1], len[1];
	return s && s[0] ? text_lines(s, width, off, len, 1) : 0;
}

int tui_put_source(struct tui *t, WINDOW *w, int y, int x, int width, const char *hardware,
		   const char *path)
{
	char file[300], name[256], hw[512];
	int used, n;
	/* a file's name is file-borne text: printable before the screen */
	tui_text(t, name, sizeof name, mt_basename(path));
	mt_snprintf(file, sizeof file, " (%s)", name);
	tui_text(t, hw, sizeof hw, hardware && hardware[0] ? hardware : _("unknown machine"));
	/* too long: its first clauses, whole ("The seed's figures (seed 000):
	 * Apple M4 Max (aarch64, macOS)"), else the file's name alone */
	n = text_clauses_fit(hw, width - text_cols(file));
	if (n == 0)
		return tui_put(t, w, y, x, width, name);
	hw[n] = '\0';
	used = tui_put(t, w, y, x, width - text_cols(file), hw);
	return used + tui_put(t, w, y, x + used, width - used, file);
}
