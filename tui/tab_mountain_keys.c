/* tab_mountain_keys: the Mountain tab's keys (its keys[] table and their
 * actions): the cursor, the knobs form, measuring, opening a mountain
 * beside this one, the overlay, the passport, and guess mode. */
#include "config.h"

#include "base/i18n.h"
#include "info/info.h"
#include "model.h"
#include "mountain/cliffs.h"
#include "mountain/mountain_json.h"
#include "result/result.h"
#include "tab_mountain.h"

#include <string.h>

/* ---- keys ---------------------------------------------------------------- */

static int act_run(struct tui *t, void *self, int key)
{
	struct mountain_tab *s = self;
	if (s->mode == MODE_FORM)
		s->mode = MODE_NORMAL;
	if (tui_discard_first(t, &tab_mountain, self,
			      _("Discard the unsaved mountain and measure again?"), act_run, key))
		return 1;
	mtab_start_run(t, s, &s->params, -1, -1);
	return 1;
}

static int act_enter(struct tui *t, void *self, int key)
{
	struct mountain_tab *s = self;
	(void)key;
	if (s->mode == MODE_FORM) {
		s->mode = MODE_NORMAL;
		return 1;
	}
	if (s->mode == MODE_GUESS)
		return 0;
	mtab_start_run(t, s, &s->params, (int)s->row, (int)s->col);
	return 1;
}

static void move_cursor(struct mountain_tab *s, int dr, int dc)
{
	if (!s->m)
		return;
	if (dr < 0 && s->row > 0)
		s->row--;
	if (dr > 0 && s->row + 1 < s->m->nsizes)
		s->row++;
	if (dc < 0 && s->col > 0)
		s->col--;
	if (dc > 0 && s->col + 1 < s->m->nstrides)
		s->col++;
}

static void form_change(struct mountain_tab *s, int dir)
{
	struct mountain_params *p = &s->params;
	uint64_t lo = p->sizes[0], hi = p->sizes[p->nsizes - 1];
	unsigned maxs = p->strides[p->nstrides - 1];
	switch (s->field) {
	case 0:
		if ((dir < 0 && maxs > 1) || (dir > 0 && maxs < 64))
			mountain_params_set_max_stride(p, maxs + (unsigned)dir, NULL);
		break;
	case 1:
		if (dir < 0 && lo > 4096)
			lo /= 2;
		else if (dir > 0 && lo * 2 <= hi)
			lo *= 2;
		mountain_params_set_sizes(p, lo, hi, NULL);
		break;
	case 2:
		if (dir < 0 && hi / 2 >= lo)
			hi /= 2;
		else if (dir > 0 && hi < (4ull << 30))
			hi *= 2;
		mountain_params_set_sizes(p, lo, hi, NULL);
		break;
	case 3:
		if (dir < 0 && p->kbest > 1)
			p->kbest--;
		else if (dir > 0 && p->kbest < MOUNTAIN_MAX_KBEST)
			p->kbest++;
		break;
	}
}

static int act_move(struct tui *t, void *self, int key)
{
	struct mountain_tab *s = self;
	int up = key == KEY_UP || key == 'k', down = key == KEY_DOWN || key == 'j';
	int left = key == KEY_LEFT || key == 'h', right = key == KEY_RIGHT || key == 'l';
	if (s->mode == MODE_FORM) {
		if (up && s->field > 0)
			s->field--;
		if (down && s->field < NFIELDS - 1)
			s->field++;
		if (left || right)
			form_change(s, left ? -1 : 1);
	} else if (s->mode == MODE_GUESS && s->m) {
		int *mk = &s->marker[s->sel];
		if (left)
			s->sel = (s->sel + 2) % 3;
		if (right)
			s->sel = (s->sel + 1) % 3;
		if (up && *mk > 0)
			(*mk)--;
		if (down && *mk + 1 < (int)s->m->nsizes)
			(*mk)++;
		s->row = (size_t)s->marker[s->sel];
		s->has_result = 0;
	} else {
		move_cursor(s, up ? -1 : down ? 1 : 0, left ? -1 : right ? 1 : 0);
	}
	tui_dirty(t);
	return 1;
}

static int act_page(struct tui *t, void *self, int key)
{
	struct mountain_tab *s = self;
	if (!s->m || s->mode != MODE_NORMAL)
		return 0;
	if (key == KEY_HOME)
		s->row = 0;
	else if (key == KEY_END)
		s->row = s->m->nsizes - 1;
	else if (key == KEY_PPAGE)
		s->col = 0;
	else if (key == KEY_NPAGE)
		s->col = s->m->nstrides - 1;
	tui_dirty(t);
	return 1;
}


/* The file o asked for, read off the UI thread: the tab's mountain when
 * it has none, else beside it. */
static void open_opened(struct tui *t, void *self, struct result_file *f)
{
	struct mountain_tab *s = self;
	struct mountain *m = f->r;
	f->r = NULL; /* the tab's now */
	if (!s->m) {
		mtab_set_main(t, s, m);
		return;
	}
	mtab_set_ref(t, s, m, f->path);
	tui_message(t, _("beside it: %s (m: side by side, ratio, off)"), mt_basename(f->path));
	tui_dirty(t);
}

static void open_answer(struct tui *t, void *self, const char *answer)
{
	char path[MT_PATH_MAX];
	if (!answer)
		return;
	if (!answer[0]) {
		if (!mountain_reference_path(path, sizeof path)) {
			tui_message(t, "%s", _("the bundled reference is not installed (MEMTOP_DATA)"));
			return;
		}
		answer = path;
	}
	tui_open_file(t, self, answer, &kind_mountain, open_opened);
}

static int act_open(struct tui *t, void *self, int key)
{
	(void)key;
	tui_prompt(t, self, _("Open a saved mountain (Enter alone: the Apple M4 Max reference): "), "",
		   open_answer);
	return 1;
}

static int act_overlay(struct tui *t, void *self, int key)
{
	struct mountain_tab *s = self;
	(void)key;
	if (!s->ref) {
		tui_message(t, "%s", _("nothing to compare with (o opens a saved mountain)"));
		return 1;
	}
	s->ov = (s->ov + 1) % 3;
	if (s->ov == OV_RATIO)
		mtab_rebuild_ratio(s);
	tui_message(t, "%s", s->ov == OV_SIDE    ? _("side by side")
			     : s->ov == OV_RATIO ? _("ratio: this mountain / the other, on shared cells")
						: _("the other mountain is hidden (m shows it)"));
	tui_dirty(t);
	return 1;
}

static int act_passport(struct tui *t, void *self, int key)
{
	struct mountain_tab *s = self;
	(void)key;
	s->passport = !s->passport;
	tui_message(t, "%s", s->passport ? _("passport: P again shows the slices")
					: _("slices: P shows the passport"));
	tui_dirty(t);
	return 1;
}

static int act_guess(struct tui *t, void *self, int key)
{
	struct mountain_tab *s = self;
	(void)key;
	if (!s->m)
		return 1;
	if (s->mode == MODE_GUESS) {
		s->mode = MODE_NORMAL;
		s->has_result = 0;
		return 1;
	}
	s->mode = MODE_GUESS;
	s->sel = 0;
	s->has_result = 0;
	s->row = (size_t)s->marker[0];
	tui_message(t, "%s", _("guess: j/k move the marker, h/l pick L1/L2/L3, c compares, g leaves"));
	return 1;
}

static const struct info *mountain_info(const struct tui *t, struct mountain_tab *s)
{
	if (s->m && s->m->source[0] && s->m->caches) {
		if (info_from_json(s->m->caches, &s->file_info, s->m->source, NULL) == 0)
			return &s->file_info;
		return NULL;
	}
	if (s->m && s->m->source[0])
		return NULL;
	return tui_info(t);
}

static int act_compare(struct tui *t, void *self, int key)
{
	struct mountain_tab *s = self;
	struct detection d;
	const struct info *inf = mountain_info(t, s);
	int have = 0;
	(void)key;
	if (s->mode != MODE_GUESS) {
		tui_message(t, "%s", _("g first: place the L1, L2, L3 markers, then c compares"));
		return 1;
	}
	memset(&d, 0, sizeof d);
	have = cliffs_detect(s->m, CLIFFS_RATIO, &d) == 0;
	for (int l = 0; l < 3; l++) {
		const char *from = "";
		uint64_t best = inf ? info_best_size(inf, l + 1, &from) : 0;
		uint64_t det = 0;
		int idx = -1;
		if (have) {
			if (best)
				cliffs_detect_verdict(&d, best, &idx);
			else if (l < d.nlevels)
				idx = l;
			if (idx >= 0)
				det = d.level[idx];
		}
		guess_sentence(l + 1, s->m->sizes[s->marker[l]], det, best, from && from[0] ? from : _("the system"),
			       s->result[l], sizeof s->result[l]);
	}
	s->has_result = 1;
	tui_dirty(t);
	return 1;
}

static int act_form(struct tui *t, void *self, int key)
{
	struct mountain_tab *s = self;
	(void)key;
	if (tui_view_mode(t)) {
		tui_message(t, "%s", _("memtop view does not measure: no knobs"));
		return 1;
	}
	s->mode = s->mode == MODE_FORM ? MODE_NORMAL : MODE_FORM;
	tui_dirty(t);
	return 1;
}

static int act_escape(struct tui *t, void *self, int key)
{
	struct mountain_tab *s = self;
	(void)key;
	if (s->mode == MODE_NORMAL)
		return 0;
	s->mode = MODE_NORMAL;
	s->has_result = 0;
	tui_dirty(t);
	return 1;
}

const struct keybinding mtab_keys[] = {
	TUI_KEYS_ARROWS_HJKL(N_("move the cursor cell (guess: move/pick a marker; knobs: "
				"pick/change)"), act_move),
	TUI_KEYS_HOME_END(N_("first / last size"), act_page),
	TUI_KEYS_PAGE(N_("first / last stride"), act_page),
	{ 'r', "r", N_("measure the mountain (the line above the map says what and how long)"),
	  act_run },
	{ '\r', "Enter", N_("re-measure the cursor's cell"), act_enter },
	{ '\n', NULL, NULL, act_enter },
	{ KEY_ENTER, NULL, NULL, act_enter },
	{ 'f', "f", N_("knobs: max stride, size range, tries (arrows change, Enter closes)"),
	  act_form },
	TUI_KEY_SAVE("mountain"),
	{ 'o', "o", N_("open a saved mountain or the Apple M4 Max reference beside this one"),
	  act_open },
	{ 'm', "m", N_("beside: side by side, ratio, off"), act_overlay },
	{ 'P', "P", N_("the passport instead of the slices: peak, floor, ridge, line size row "
		       "(seed 000, step 5)"), act_passport },
	{ 'K', "K", N_("the next runs measure on the next core kind, fastest first (P, E; big, "
		       "LITTLE)"), tui_act_coretype },
	{ 'g', "g", N_("guess mode: place L1, L2, L3 where you think the caches end"), act_guess },
	{ 'c', "c", N_("guess mode: compare your guess with the cliffs and sysfs"), act_compare },
	{ 27, "Esc", N_("leave guess mode or the knobs"), act_escape },
	{ 0, NULL, NULL, NULL },
};

