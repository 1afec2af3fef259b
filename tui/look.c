/* look: colours and glyphs, one table indexed by meaning (htop's colour
 * schemes): each role has a colour pair and a monochrome attribute, each
 * glyph a UTF-8 form and an ASCII twin. */
#include "config.h"

#include "internal.h"

#include <math.h>
#include <string.h>

struct role_look {
	short fg, bg;   /* 8-colour pair (-1 = terminal default) */
	attr_t color;   /* extra attribute with colour */
	attr_t mono;    /* attribute without colour */
};

static const struct role_look roles[ROLE_COUNT] = {
	[ROLE_NORMAL] = { -1, -1, A_NORMAL, A_NORMAL },
	[ROLE_TITLE] = { COLOR_CYAN, -1, A_BOLD, A_BOLD },
	[ROLE_TAB] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE },
	[ROLE_TAB_ACTIVE] = { COLOR_BLACK, COLOR_WHITE, A_BOLD, A_BOLD | A_UNDERLINE },
	[ROLE_STATUS] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE },
	[ROLE_CURSOR] = { COLOR_BLACK, COLOR_YELLOW, A_BOLD, A_REVERSE | A_BOLD },
	[ROLE_GOOD] = { COLOR_GREEN, -1, A_BOLD, A_BOLD },
	[ROLE_WARN] = { COLOR_YELLOW, -1, A_BOLD, A_UNDERLINE },
	[ROLE_BAD] = { COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE },
	[ROLE_DIM] = { COLOR_BLUE, -1, A_BOLD, A_DIM },
	[ROLE_BAR] = { COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
	[ROLE_MARK] = { COLOR_MAGENTA, -1, A_BOLD, A_BOLD | A_REVERSE },
};

/* Heat palettes, low (slow) to high (fast). */
static const short heat256[TUI_HEAT_MAX] = { 17, 18, 19, 20, 26, 32, 38, 44,
					     43, 42, 106, 148, 184, 214, 208, 196 };
static const short heat8[6] = { COLOR_BLUE, COLOR_MAGENTA, COLOR_CYAN,
				COLOR_GREEN, COLOR_YELLOW, COLOR_RED };

#define PAIR_HEAT0 (ROLE_COUNT + 1)

void look_init(struct tui *t)
{
	t->ncolors = 0;
	if (!t->no_color && has_colors() && start_color() == OK) {
		use_default_colors();
		t->ncolors = COLORS >= 256 && COLOR_PAIRS >= PAIR_HEAT0 + TUI_HEAT_MAX ? 256 : 8;
		if (COLORS < 8 || COLOR_PAIRS < PAIR_HEAT0 + 6)
			t->ncolors = 0;
	}
	for (int r = 0; r < ROLE_COUNT; r++) {
		if (t->ncolors) {
			init_pair((short)(r + 1), roles[r].fg, roles[r].bg);
			t->role[r] = COLOR_PAIR(r + 1) | roles[r].color;
		} else {
			t->role[r] = roles[r].mono;
		}
	}
	if (t->ncolors == 256) {
		t->nheat = TUI_HEAT_MAX;
		for (int i = 0; i < t->nheat; i++) {
			short fg = i >= 9 ? 16 : 231; /* black on light, white on dark */
			init_pair((short)(PAIR_HEAT0 + i), fg, heat256[i]);
			t->heat[i] = COLOR_PAIR(PAIR_HEAT0 + i);
		}
	} else if (t->ncolors == 8) {
		t->nheat = 6;
		for (int i = 0; i < t->nheat; i++) {
			short fg = i >= 2 ? COLOR_BLACK : COLOR_WHITE;
			init_pair((short)(PAIR_HEAT0 + i), fg, heat8[i]);
			t->heat[i] = COLOR_PAIR(PAIR_HEAT0 + i);
		}
	} else {
		t->nheat = 4; /* glyph density carries it: its 4 steps, each a glyph of its own */
		for (int i = 0; i < t->nheat; i++)
			t->heat[i] = A_NORMAL;
	}
}

attr_t tui_attr(const struct tui *t, enum tui_role r)
{
	return r < ROLE_COUNT ? t->role[r] : A_NORMAL;
}

int tui_heat_levels(const struct tui *t)
{
	return t->nheat;
}

void tui_heat_ramp(const struct tui *t, WINDOW *w, int twice)
{
	int n = tui_heat_levels(t);
	for (int i = 0; i < n; i++) {
		double f = n > 1 ? (double)i / (n - 1) : 1;
		wattrset(w, tui_heat_attr(t, f));
		waddstr(w, tui_heat_glyph(t, f));
		if (twice)
			waddstr(w, tui_heat_glyph(t, f));
	}
}

attr_t tui_heat_attr(const struct tui *t, double frac)
{
	if (isnan(frac) || !t->ncolors)
		return A_NORMAL;
	int l = (int)lround(frac * (t->nheat - 1));
	l = l < 0 ? 0 : l >= t->nheat ? t->nheat - 1 : l;
	return t->heat[l];
}

static const char *const density_utf8[5] = { " ", "\u2591", "\u2592", "\u2593", "\u2588" };
static const char *const density_ascii[5] = { " ", ".", ":", "+", "#" };

const char *tui_heat_glyph(const struct tui *t, double frac)
{
	if (isnan(frac))
		return " ";
	int l = 1 + (int)lround(frac * 3); /* a measured cell is never blank */
	l = l < 1 ? 1 : l > 4 ? 4 : l;
	return t->utf8 ? density_utf8[l] : density_ascii[l];
}

static const char *const glyphs[GL_COUNT][2] = {
	[GL_BLOCK] = { "\u2588", "#" },   [GL_HLINE] = { "\u2500", "-" },
	[GL_VLINE] = { "\u2502", "|" },   [GL_MARK] = { "\u25bc", "v" },
	[GL_LEFT] = { "\u25c0", "<" },    [GL_RIGHT] = { "\u25b6", ">" },
	[GL_ELLIPSIS] = { "\u2026", "~" }, [GL_TIMES] = { "\u00d7", "x" },
	[GL_TL] = { "\u250c", "+" },     [GL_TR] = { "\u2510", "+" },
	[GL_BL] = { "\u2514", "+" },     [GL_BR] = { "\u2518", "+" },
};

const char *tui_glyph(const struct tui *t, enum tui_glyph g)
{
	if (g >= GL_COUNT)
		return "?";
	return glyphs[g][t->utf8 ? 0 : 1];
}

static const char *const eighths[9] = { " ", "\u258f", "\u258e", "\u258d", "\u258c",
					"\u258b", "\u258a", "\u2589", "\u2588" };

const char *tui_bar_part(const struct tui *t, int n)
{
	n = n < 0 ? 0 : n > 8 ? 8 : n;
	if (t->utf8)
		return eighths[n];
	return n >= 4 ? "#" : " ";
}

const char *tui_text(const struct tui *t, char *buf, size_t len, const char *s)
{
	return mt_printable(buf, len, s, tui_utf8(t) ? 0 : MT_PRINT_ASCII);
}

const char *tui_path(const char *path, int room)
{
	return room >= 0 && strlen(path) <= (size_t)room ? path : mt_basename(path);
}

int tui_utf8(const struct tui *t)
{
	return t->utf8;
}

int tui_colors(const struct tui *t)
{
	return t->ncolors;
}
