/* side: the Caches side panel. Every `info` source level by level (this
 * machine's, or the caches recorded in a viewed file), the levels the
 * mountain shows (cliffs at strides of at least 8 words) and the line size
 * from its stride slice, each source value marked against the mountain:
 * '=' matching, '~' one step off, '?' not visible. */
#include "config.h"

#include "cliffs.h"
#include "internal.h"
#include "model.h"

#include <string.h>

static const char *const level_names[3] = { "L1d", "L2", "L3" };

/* The info to show: the viewed mountain's recorded caches, else this
 * machine's (never this machine's under another machine's mountain). */
static const struct info *panel_info(struct tui *t, const char **whose)
{
	static struct info from_file;
	static const cJSON *parsed;
	static int ok;
	const struct mountain *m = t->mtn;
	if (m && m->source[0] && m->caches) {
		if (parsed != m->caches) {
			parsed = m->caches;
			ok = info_from_json(m->caches, &from_file, m->source, NULL) == 0;
		}
		*whose = "recorded with the run";
		return ok ? &from_file : NULL;
	}
	if (m && m->source[0]) {
		*whose = "none recorded in the file";
		return NULL;
	}
	*whose = "this machine";
	return t->have_info ? &t->info : NULL;
}

static void mark(struct tui *t, WINDOW *w, enum level_verdict v)
{
	static const char ch[] = { '=', '~', '?' };
	static const enum tui_role role[] = { ROLE_GOOD, ROLE_WARN, ROLE_BAD };
	wattrset(w, tui_attr(t, role[v]));
	waddch(w, (chtype)ch[v]);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

void side_draw(struct tui *t, WINDOW *w)
{
	const struct mountain *m = t->mtn;
	const char *whose = "";
	const struct info *inf = panel_info(t, &whose);
	struct detection d;
	int have_det = 0, y = 0, h, wd;
	char b[32];
	getmaxyx(w, h, wd);
	werase(w);
	wattrset(w, tui_attr(t, ROLE_DIM));
	for (int i = 0; i < h; i++)
		mvwaddstr(w, i, 0, tui_glyph(t, GL_VLINE));
	memset(&d, 0, sizeof d);
	if (m && mountain_measured(m) > 0 && cliffs_detect(m, 1.5, &d) == 0)
		have_det = 1;

	wattrset(w, tui_attr(t, ROLE_TITLE));
	mvwprintw(w, y, 2, "%-9s", "Caches");
	for (int l = 0; l < 3; l++)
		wprintw(w, "%-7s", level_names[l]);
	y++;
	wattrset(w, tui_attr(t, ROLE_DIM));
	mvwprintw(w, y++, 2, "%.*s", wd - 3, whose);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
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
			if (have_det)
				mark(t, w, side_verdict(&d, v, NULL));
		}
		y++;
	}
	if (!inf && y < h)
		mvwprintw(w, y++, 2, "(no cache information)");
	/* the mountain's own levels, matched to the most trusted source */
	if (y < h) {
		wattrset(w, tui_attr(t, ROLE_TITLE));
		mvwprintw(w, y, 2, "%-9s", "mountain");
		wattrset(w, tui_attr(t, ROLE_NORMAL));
		for (int l = 0; l < 3; l++) {
			uint64_t ref = inf ? info_best_size(inf, l + 1, NULL) : 0;
			int idx = -1;
			wmove(w, y, 11 + 7 * l);
			if (!have_det) {
				waddstr(w, "..");
				continue;
			}
			if (ref)
				side_verdict(&d, ref, &idx);
			else if (l < d.nlevels)
				idx = l;
			if (idx >= 0)
				waddstr(w, mt_fmt_size(b, sizeof b, d.level[idx]));
			else
				waddstr(w, "-");
		}
		y++;
	}
	if (have_det && y < h) {
		wattrset(w, tui_attr(t, ROLE_DIM));
		mvwprintw(w, y++, 2, "%d cliff%s at stride", d.nlevels, d.nlevels == 1 ? "" : "s");
		for (size_t i = 0; i < d.nstrides_used && getcurx(w) < wd - 4; i++)
			wprintw(w, " %u", d.strides_used[i]);
	}
	if (y < h) {
		int line = 0;
		for (int s = 0; inf && s < inf->nsources && !line; s++)
			for (int i = 0; i < inf->src[s].nlevels && !line; i++)
				if (inf->src[s].lv[i].level == 1)
					line = inf->src[s].lv[i].line;
		wattrset(w, tui_attr(t, ROLE_NORMAL));
		mvwprintw(w, y, 2, "line     ");
		if (have_det && d.line_bytes)
			wprintw(w, "%llu B slice", (unsigned long long)d.line_bytes);
		else
			waddstr(w, "? slice");
		if (line) {
			wprintw(w, ", info %d B ", line);
			if (have_det && d.line_bytes)
				mark(t, w, d.line_bytes == (uint64_t)line     ? LV_MATCH
					   : guess_steps(d.line_bytes, (uint64_t)line) == 1 ? LV_ONE_STEP
											      : LV_NOT_VISIBLE);
		}
		y++;
	}
	y++;
	if (y < h) {
		wmove(w, y++, 2);
		mark(t, w, LV_MATCH);
		waddstr(w, " match ");
		mark(t, w, LV_ONE_STEP);
		waddstr(w, " 1 step off ");
		mark(t, w, LV_NOT_VISIBLE);
		waddstr(w, " not seen");
	}
	if (inf && inf->ndis > 0 && y + 1 < h) {
		y++;
		wattrset(w, tui_attr(t, ROLE_WARN));
		mvwprintw(w, y++, 2, "sources disagree:");
		wattrset(w, tui_attr(t, ROLE_NORMAL));
		for (int i = 0; i < inf->ndis && y < h; i++) {
			const char *s = inf->dis[i];
			size_t n = strlen(s), col = (size_t)(wd - 3);
			for (size_t off = 0; off < n && y < h; off += col)
				mvwprintw(w, y++, 2, "%.*s", (int)col, s + off);
		}
	}
	wattrset(w, A_NORMAL);
}
