/* tab_mountain: tab 1, the memory mountain. A heatmap of read MB/s over
 * sizes (rows) and strides (columns) on a log scale, filling in live; a
 * cursor cell with the size slice at its stride and the stride slice at
 * its size as bar charts; knobs; re-measure one cell; save; a saved run or
 * the bundled reference beside it (side by side or as a ratio); and guess
 * mode, the seed's widget: place L1, L2, L3 markers, then compare. */
#include "config.h"

#include "info/info.h"
#include "mountain/card.h"
#include "mountain/mountain_json.h"
#include "result/result.h"
#include "tab_mountain.h"

#include <string.h>

struct mountain_tab mtab;

static void draw(struct tui *t, WINDOW *w, int full)
{
	(void)full;
	if (mtab.pending_start != TUI_START_IDLE)
		mtab_start_pending(t);
	mtab_draw_area(t, w);
}

static int on_mouse(struct tui *t, int y, int x)
{
	int r = y - mtab.hm_y - 1, c = x - mtab.hm_x - mtab.L.label_w;
	if (!mtab.m || mtab.L.cell_w <= 0 || r < 0 || c < 0 || r >= (int)mtab.L.nrows ||
	    c / mtab.L.cell_w >= (int)mtab.L.ncols)
		return 0;
	mtab.row = mtab.L.row0 + (size_t)r;
	mtab.col = mtab.L.col0 + (size_t)(c / mtab.L.cell_w);
	if (mtab.mode == MODE_GUESS)
		mtab.marker[mtab.sel] = (int)mtab.row;
	tui_dirty(t);
	return 1;
}

/* ---- tab hooks ----------------------------------------------------------- */

static int init(struct tui *t)
{
	memset(&mtab, 0, sizeof mtab);
	if (tui_quick(t))
		mountain_params_quick(&mtab.params);
	else
		mountain_params_default(&mtab.params);
	if (!tui_view_mode(t)) {
		mtab.pending_start = tui_autostart(t);
		mtab_set_main(t, mountain_new(mtab.params.sizes, mtab.params.nsizes, mtab.params.strides,
					 mtab.params.nstrides));
		if (!mtab.m)
			return -1;
		if (tui_info(t))
			mtab.m->caches = info_to_json(tui_info(t));
	}
	return 0;
}

static void fini(struct tui *t)
{
	tui_set_mountain(t, NULL);
	mountain_free(mtab.m);
	mountain_free(mtab.ref);
	mountain_free(mtab.ratio);
	mtab.m = mtab.ref = mtab.ratio = NULL;
}

/* memtop view FILE: a mountain (the first shown, the second beside it), or
 * the book's summary card (shown beside the mountain). */
static int io_take(struct tui *t, void *self, struct result_file *f, mt_error *e)
{
	struct mountain *m;
	(void)self;
	(void)e;
	if (f->kind == &kind_card) {
		mtab.card = *(const struct mountain_card *)f->r;
		mtab.have_card = mtab.card_opened = 1;
		return 0;
	}
	m = f->r;
	f->r = NULL; /* the tab's now */
	if (!m->source[0])
		mt_strlcpy(m->source, f->path, sizeof m->source);
	if (!mtab.m) {
		mtab_set_main(t, m);
	} else if (!mtab.ref) {
		mtab_set_ref(t, m, f->path);
	} else {
		/* more than two: the first two are shown, and the status line
		 * says which were left out */
		static int left_out;
		left_out++;
		if (left_out == 1)
			tui_message(t, "the Mountain tab shows two files: %s not shown",
				    mt_basename(m->source));
		else
			tui_message(t, "the Mountain tab shows two files: %s and %d more not shown",
				    mt_basename(m->source), left_out - 1);
		mountain_free(m);
	}
	return 0;
}

static size_t io_measured(struct tui *t, void *self)
{
	(void)t;
	(void)self;
	return mtab.m ? mountain_measured(mtab.m) : 0;
}

static const void *io_shown(struct tui *t, void *self)
{
	(void)t;
	(void)self;
	return mtab.m;
}

static const struct tab_result_io io = {
	.kind = &kind_mountain,
	.nothing = "nothing measured to save yet (r measures)",
	.several = 1,
	.measured = io_measured,
	.shown = io_shown,
	.take = io_take,
};

const struct tab tab_mountain = {
	.name = "Mountain",
	.key = '1',
	.init = init,
	.fini = fini,
	.draw = draw,
	.keys = mtab_keys,
	.mouse = on_mouse,
	.job_event = mtab_job_event,
	.result = &io,
};

