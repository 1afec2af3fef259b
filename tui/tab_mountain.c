/* tab_mountain: tab 1, the memory mountain. A heatmap of read MB/s over
 * sizes (rows) and strides (columns) on a log scale, filling in live; a
 * cursor cell with the size slice at its stride and the stride slice at
 * its size as bar charts; knobs; re-measure one cell; save; a saved run or
 * the bundled reference beside it (side by side or as a ratio); and guess
 * mode, the seed's widget: place L1, L2, L3 markers, then compare. */
#include "config.h"

#include "base/i18n.h"
#include "info/info.h"
#include "mountain/card.h"
#include "mountain/mountain_json.h"
#include "result/result.h"
#include "tab_mountain.h"

#include <string.h>

static void draw(struct tui *t, void *self, WINDOW *w, int full)
{
	struct mountain_tab *s = self;
	(void)full;
	if (s->pending_start != TUI_START_IDLE)
		mtab_start_pending(t, s);
	mtab_draw_area(t, s, w);
}

static int on_mouse(struct tui *t, void *self, int y, int x)
{
	struct mountain_tab *s = self;
	int r = y - s->hm_y - 1, c = x - s->hm_x - s->L.label_w;
	if (!s->m || s->L.cell_w <= 0 || r < 0 || c < 0 || r >= (int)s->L.nrows ||
	    c / s->L.cell_w >= (int)s->L.ncols)
		return 0;
	s->row = s->L.row0 + (size_t)r;
	s->col = s->L.col0 + (size_t)(c / s->L.cell_w);
	if (s->mode == MODE_GUESS)
		s->marker[s->sel] = (int)s->row;
	tui_dirty(t);
	return 1;
}

/* ---- tab hooks ----------------------------------------------------------- */

static int init(struct tui *t, void *self)
{
	struct mountain_tab *s = self;
	if (tui_quick(t))
		mountain_params_quick(&s->params);
	else
		mountain_params_default(&s->params);
	machine_mem_budget(tui_machine(t), &s->budget);
	if (!tui_view_mode(t)) {
		s->pending_start = tui_autostart(t);
		mtab_set_main(t, s, mountain_new(s->params.sizes, s->params.nsizes, s->params.strides,
					 s->params.nstrides));
		if (!s->m)
			return -1;
		if (tui_info(t))
			s->m->caches = info_to_json(tui_info(t));
	}
	return 0;
}

static void fini(struct tui *t, void *self)
{
	struct mountain_tab *s = self;
	tui_set_mountain(t, NULL);
	mountain_free(s->m);
	mountain_free(s->ref);
	mountain_free(s->ratio);
	s->m = s->ref = s->ratio = NULL;
}

/* memtop view FILE: a mountain (the first shown, the second beside it), or
 * the book's summary card (shown beside the mountain). */
static int io_take(struct tui *t, void *self, struct result_file *f, mt_error *e)
{
	struct mountain_tab *s = self;
	struct mountain *m;
	(void)e;
	if (f->kind == &kind_card) {
		s->card = *(const struct mountain_card *)f->r;
		s->have_card = s->card_opened = 1;
		return 0;
	}
	m = f->r;
	f->r = NULL; /* the tab's now */
	if (!m->source[0])
		mt_strlcpy(m->source, f->path, sizeof m->source);
	if (!s->m) {
		mtab_set_main(t, s, m);
	} else if (!s->ref) {
		mtab_set_ref(t, s, m, f->path);
	} else {
		/* more than two: the first two are shown, and the status line
		 * says which were left out */
		int left_out = ++s->left_out;
		if (left_out == 1)
			tui_message(t, _("the Mountain tab shows two files: %s not shown"),
				    mt_basename(m->source));
		else
			tui_message(t,
				    MT_NGETTEXT("the Mountain tab shows two files: %s and %d more "
						"not shown",
						"the Mountain tab shows two files: %s and %d more "
						"not shown", left_out - 1),
				    mt_basename(m->source), left_out - 1);
		mountain_free(m);
	}
	return 0;
}

static struct tab_result_now io_now(void *self)
{
	struct mountain_tab *s = self;
	return (struct tab_result_now){ .shown = s->m,
					 .measured = s->m ? mountain_measured(s->m) : 0 };
}

static const struct tab_result_io io = {
	.kind = &kind_mountain,
	.several = 1,
	.now = io_now,
	.take = io_take,
};

const struct tab tab_mountain = {
	.name = N_("Mountain"),
	.key = '1',
	.init = init,
	.fini = fini,
	.draw = draw,
	.keys = mtab_keys,
	.mouse = on_mouse,
	.job_event = mtab_job_event,
	.result = &io,
	.state_size = sizeof(struct mountain_tab),
};

