/* tab_mountain_run: the Mountain tab's measuring and the mountains it
 * shows: the one on screen (measured here or opened), the one beside it and
 * their ratio; starting a run (the whole grid, the first look, one cell
 * again) and taking its events. */
#include "config.h"

#include "core/job.h"
#include "core/sysinfo.h"
#include "core/topo.h"
#include "info/info.h"
#include "mountain/card.h"
#include "mountain/mountain_json.h"
#include "tab_mountain.h"

#include <math.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------- */

void mtab_rebuild_ratio(void)
{
	mountain_free(mtab.ratio);
	mtab.ratio = NULL;
	if (!mtab.m || !mtab.ref)
		return;
	mtab.ratio = mountain_new(mtab.m->sizes, mtab.m->nsizes, mtab.m->strides, mtab.m->nstrides);
	if (!mtab.ratio)
		return;
	for (size_t r = 0; r < mtab.m->nsizes; r++) {
		int rr = mountain_size_index(mtab.ref, mtab.m->sizes[r]);
		for (size_t c = 0; c < mtab.m->nstrides; c++) {
			int rc = mountain_stride_index(mtab.ref, mtab.m->strides[c]);
			double a = mountain_at(mtab.m, r, c), b;
			if (rr < 0 || rc < 0)
				continue;
			b = mountain_at(mtab.ref, (size_t)rr, (size_t)rc);
			if (isfinite(a) && isfinite(b) && b > 0)
				mtab.ratio->mbs[r * mtab.m->nstrides + c] = a / b;
		}
	}
}

static void clamp_cursor(void)
{
	if (!mtab.m)
		return;
	if (mtab.row >= mtab.m->nsizes)
		mtab.row = mtab.m->nsizes - 1;
	if (mtab.col >= mtab.m->nstrides)
		mtab.col = mtab.m->nstrides - 1;
	for (int i = 0; i < 3; i++)
		if (mtab.marker[i] >= (int)mtab.m->nsizes)
			mtab.marker[i] = (int)mtab.m->nsizes - 1;
}

void mtab_set_main(struct tui *t, struct mountain *m)
{
	mountain_free(mtab.m);
	mtab.m = m;
	tui_result_changed(t, &tab_mountain, 0);
	mtab.preview = 0;
	mtab.has_result = 0;
	clamp_cursor();
	if (m && mtab.col == 0) { /* open on stride 8 when there is one: the book's slice */
		int c = mountain_stride_index(m, 8);
		mtab.col = c >= 0 ? (size_t)c : m->nstrides - 1;
	}
	for (int i = 0; i < 3 && m; i++)
		mtab.marker[i] = (int)((m->nsizes - 1) * (size_t)(i + 1) / 4);
	mtab_rebuild_ratio();
	tui_set_mountain(t, m);
}

/* ---- measuring ----------------------------------------------------------- */


/* On a machine with several core kinds the first look says which it
 * measured (the fastest, K changes it). Returns 1 when it said so. */
static int first_look_kind(struct tui *t, const struct mountain *m)
{
	const struct topo *tp = topo_this_machine();
	if (!tp || tp->nkinds < 2 || !m->hdr.place.kind[0])
		return 0;
	tui_message(t, "a first look on core kind %s%s: %zu cells in %.1f s",
		    m->hdr.place.kind, job_kind() == 0 ? ", the fastest (K: another)" : "",
		    mountain_measured(m), m->elapsed_s);
	return 1;
}

/* Measure grid (the knobs' mtab.params, or the quick grid for the first look)
 * into a new mountain, or with only_row >= 0 the cell (only_row, only_col)
 * of the mountain on screen again. Returns 0, or -1 with the reason in the
 * status line. */
int mtab_start_run(struct tui *t, const struct mountain_params *grid, int only_row,
		     int only_col)
{
	struct mountain_params *p = &mtab.run_params;
	struct run_header *hdr = NULL;
	char note[200] = "";
	mt_error e;
	if (!tui_can_measure(t))
		return -1;
	*p = *grid;
	if (only_row >= 0) {
		if (!mtab.m || mtab.m->source[0]) {
			tui_message(t, "Enter re-measures a cell of a mountain measured here");
			return -1;
		}
		/* the cell of the mountain on screen, on its own axes */
		if (mountain_params_set_sizes(p, mtab.m->sizes[0], mtab.m->sizes[mtab.m->nsizes - 1], &e) < 0)
			goto fail;
		p->nstrides = mtab.m->nstrides;
		memcpy(p->strides, mtab.m->strides, mtab.m->nstrides * sizeof p->strides[0]);
		p->only_row = only_row;
		p->only_col = only_col;
	} else {
		struct mountain *m;
		if (mountain_params_fit_memory(p, mt_mem_available(), note, sizeof note, &e) < 0)
			goto fail;
		m = mountain_new(p->sizes, p->nsizes, p->strides, p->nstrides);
		if (!m) {
			mt_fail(&e, "out of memory");
			goto fail;
		}
		if (tui_info(t))
			m->caches = info_to_json(tui_info(t));
		mtab_set_main(t, m);
		hdr = &mtab.m->hdr;
	}
	if (tui_job_launch(t, &tab_mountain, mountain_worker, p, hdr) < 0)
		return -1;
	mtab.running = 1;
	mtab.single = only_row >= 0;
	if (!mtab.single)
		mtab.preview = 0;
	mtab.run_t0 = mt_now_ns();
	if (!mtab.single)
		tui_set_diag(t, &mtab.m->hdr.diag);
	if (note[0])
		tui_message(t, "%s", note);
	return 0;
fail:
	tui_message(t, "cannot measure: %s", e.msg);
	return -1;
}

void mtab_job_event(struct tui *t, const struct job_event *ev)
{
	if (ev->type == JOB_EV_CELL || ev->type == JOB_EV_UPDATE) {
		if (mtab.m && mountain_apply(mtab.m, ev) == 0) {
			if (!mtab.preview) /* the first look is not asked about nor autosaved */
				tui_result_changed(t, &tab_mountain, 1);
			if (mtab.ov == OV_RATIO)
				mtab_rebuild_ratio();
		}
		tui_dirty(t);
		return;
	}
	if (!tui_job_last(ev) || !mtab.running)
		return;
	/* the last event: the frame has ended the job and completed the header */
	mtab.running = 0;
	if (!mtab.single) {
		mtab.m->elapsed_s = (double)(mt_now_ns() - mtab.run_t0) / 1e9;
		tui_set_diag(t, &mtab.m->hdr.diag);
	}
	mtab_rebuild_ratio();
	if (ev->type == JOB_EV_FAILED)
		tui_message(t, "the measurement failed: %s", ev->text);
	else if (ev->type == JOB_EV_CANCELLED)
		tui_message(t, "stopped: %zu of %zu cells measured (w saves them)",
			    mountain_measured(mtab.m), mtab.m->nsizes * mtab.m->nstrides);
	else if (mtab.single)
		tui_message(t, "re-measured the cell");
	else if (mtab.preview && first_look_kind(t, mtab.m))
		tui_dirty(t); /* it said which core kind */
	else if (mtab.preview)
		tui_message(t, "a first look: %zu cells in %.1f s; r measures the full grid, "
			       "? lists the keys",
			    mountain_measured(mtab.m), mtab.m->elapsed_s);
	else
		tui_message(t, "measured %zu cells in %.1f s; w saves, g guesses the caches",
			    mountain_measured(mtab.m), mtab.m->elapsed_s);
	tui_dirty(t);
}

/* The first screen measures (tui_autostart): the quick mountain as a first
 * look, or the knobs' grid (--start), at the first draw. */
void mtab_start_pending(struct tui *t)
{
	struct mountain_params quick;
	enum tui_start how = mtab.pending_start;
	mtab.pending_start = TUI_START_IDLE;
	if (how == TUI_START_FULL) {
		mtab_start_run(t, &mtab.params, -1, -1);
	} else if (how == TUI_START_PREVIEW) {
		mountain_params_quick(&quick);
		if (mtab_start_run(t, &quick, -1, -1) == 0)
			mtab.preview = 1;
	}
}


/* path names the bundled reference (data/m4max.json). */
static int is_bundled(const char *path)
{
	char ref[1024];
	return mountain_reference_path(ref, sizeof ref) && strcmp(ref, path) == 0;
}

/* The book's card file: loaded once, when first wanted (a missing or broken
 * file leaves its rows "-", and says so). */
static void want_card(struct tui *t)
{
	mt_error e;
	if (mtab.have_card)
		return;
	if (card_load_bundled(&mtab.card, &e) == 0)
		mtab.have_card = 1;
	else
		tui_message(t, "%s", e.msg);
}

/* m (read from path) becomes the reference beside the shown mountain, in
 * place of the one before (freed), side by side, with the passport card
 * when it is the bundled reference. */
void mtab_set_ref(struct tui *t, struct mountain *m, const char *path)
{
	mountain_free(mtab.ref);
	mtab.ref = m;
	mtab.ref_bundled = is_bundled(path);
	if (mtab.ref_bundled)
		want_card(t);
	mtab.ov = OV_SIDE;
	mtab_rebuild_ratio();
}

