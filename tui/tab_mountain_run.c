/* tab_mountain_run: the Mountain tab's measuring and the mountains it
 * shows: the one on screen (measured here or opened), the one beside it and
 * their ratio; starting a run (the whole grid, the first look, one cell
 * again) and taking its events. */
#include "config.h"

#include "base/i18n.h"
#include "info/info.h"
#include "mountain/card.h"
#include "mountain/mountain_json.h"
#include "os/sysinfo.h"
#include "os/topo.h"
#include "run/job.h"
#include "tab_mountain.h"

#include <math.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------- */

void mtab_rebuild_ratio(struct mountain_tab *s)
{
	mountain_free(s->ratio);
	s->ratio = NULL;
	if (!s->m || !s->ref)
		return;
	s->ratio = mountain_new(s->m->sizes, s->m->nsizes, s->m->strides, s->m->nstrides);
	if (!s->ratio)
		return;
	for (size_t r = 0; r < s->m->nsizes; r++) {
		int rr = mountain_size_index(s->ref, s->m->sizes[r]);
		for (size_t c = 0; c < s->m->nstrides; c++) {
			int rc = mountain_stride_index(s->ref, s->m->strides[c]);
			double a = mountain_at(s->m, r, c), b;
			if (rr < 0 || rc < 0)
				continue;
			b = mountain_at(s->ref, (size_t)rr, (size_t)rc);
			if (isfinite(a) && isfinite(b) && b > 0)
				s->ratio->mbs[r * s->m->nstrides + c] = a / b;
		}
	}
}

static void clamp_cursor(struct mountain_tab *s)
{
	if (!s->m)
		return;
	if (s->row >= s->m->nsizes)
		s->row = s->m->nsizes - 1;
	if (s->col >= s->m->nstrides)
		s->col = s->m->nstrides - 1;
	for (int i = 0; i < 3; i++)
		if (s->marker[i] >= (int)s->m->nsizes)
			s->marker[i] = (int)s->m->nsizes - 1;
}

void mtab_set_main(struct tui *t, struct mountain_tab *s, struct mountain *m)
{
	mountain_free(s->m);
	s->m = m;
	tui_result_changed(t, &tab_mountain, 0);
	s->preview = 0;
	s->has_result = 0;
	clamp_cursor(s);
	if (m && s->col == 0) { /* open on stride 8 when there is one: the book's slice */
		int c = mountain_stride_index(m, 8);
		s->col = c >= 0 ? (size_t)c : m->nstrides - 1;
	}
	for (int i = 0; i < 3 && m; i++)
		s->marker[i] = (int)((m->nsizes - 1) * (size_t)(i + 1) / 4);
	mtab_rebuild_ratio(s);
	tui_set_mountain(t, m);
}

/* ---- measuring ----------------------------------------------------------- */


/* On a machine with several core types the first look says which it
 * measured (the fastest, K changes it). Returns 1 when it said so. */
static int first_look_kind(struct tui *t, const struct mountain *m)
{
	const struct topo *tp = topo_this_machine();
	char say[256];
	size_t n = mountain_measured(m);
	if (!tp || tp->ncoretypes < 2 || !m->hdr.place.kind[0])
		return 0;
	if (job_coretype() == 0)
		mt_hsnprintf(say, sizeof say,
			     MT_NGETTEXT("a first look on core kind %s, the fastest (K: another): "
					 "%zu cell in %.1f s",
					 "a first look on core kind %s, the fastest (K: another): "
					 "%zu cells in %.1f s", n),
			     m->hdr.place.kind, n, m->elapsed_s);
	else
		mt_hsnprintf(say, sizeof say,
			     MT_NGETTEXT("a first look on core kind %s: %zu cell in %.1f s",
					 "a first look on core kind %s: %zu cells in %.1f s", n),
			     m->hdr.place.kind, n, m->elapsed_s);
	tui_message(t, "%s", say);
	return 1;
}

/* Measure grid (the knobs' s->params, or the quick grid for the first look)
 * into a new mountain, or with only_row >= 0 the cell (only_row, only_col)
 * of the mountain on screen again. Returns 0, or -1 with the reason in the
 * status line. */
int mtab_start_run(struct tui *t, struct mountain_tab *s, const struct mountain_params *grid,
		   int only_row,
		     int only_col)
{
	struct mountain_params *p = &s->run_params;
	struct run_header *hdr = NULL;
	char note[400] = "";
	mt_error e;
	if (!tui_can_measure(t))
		return -1;
	*p = *grid;
	if (only_row >= 0) {
		if (!s->m || s->m->source[0]) {
			tui_message(t, "%s", _("Enter re-measures a cell of a mountain measured here"));
			return -1;
		}
		/* the cell of the mountain on screen, on its own axes */
		if (mountain_params_set_sizes(p, s->m->sizes[0], s->m->sizes[s->m->nsizes - 1], &e) < 0)
			goto fail;
		p->nstrides = s->m->nstrides;
		memcpy(p->strides, s->m->strides, s->m->nstrides * sizeof p->strides[0]);
		p->only_row = only_row;
		p->only_col = only_col;
	} else {
		struct mountain *m;
		machine_mem_budget(tui_machine(t), &s->budget);
		if (mountain_params_fit_memory(p, &s->budget, note, sizeof note, &e) < 0)
			goto fail;
		m = mountain_new(p->sizes, p->nsizes, p->strides, p->nstrides);
		if (!m) {
			mt_fail(&e, "%s", _("out of memory"));
			goto fail;
		}
		if (tui_info(t))
			m->caches = info_to_json(tui_info(t));
		mtab_set_main(t, s, m);
		hdr = &s->m->hdr;
	}
	if (tui_job_launch(t, &tab_mountain, mountain_worker, p, hdr) < 0)
		return -1;
	s->single = only_row >= 0;
	if (!s->single)
		s->preview = 0;
	s->run_t0 = mt_now_ns();
	if (!s->single)
		tui_set_diag(t, &s->m->hdr.diag);
	if (note[0])
		tui_message(t, "%s", note);
	return 0;
fail:
	tui_message(t, _("cannot measure: %s"), e.msg);
	return -1;
}

void mtab_job_event(struct tui *t, void *self, const struct job_event *ev)
{
	struct mountain_tab *s = self;
	char say[256];
	size_t n;
	if (ev->type == JOB_EV_CELL || ev->type == JOB_EV_UPDATE) {
		if (s->m && mountain_apply(s->m, ev) == 0) {
			if (!s->preview) /* the first look is not asked about nor autosaved */
				tui_result_changed(t, &tab_mountain, 1);
			if (s->ov == OV_RATIO)
				mtab_rebuild_ratio(s);
		}
		tui_dirty(t);
		return;
	}
	if (!job_event_is_last(ev))
		return;
	/* the last event: the frame has ended the job, completed the header and
	 * shown its diagnostics */
	if (!s->single)
		s->m->elapsed_s = (double)(mt_now_ns() - s->run_t0) / 1e9;
	mtab_rebuild_ratio(s);
	n = mountain_measured(s->m);
	if (ev->type == JOB_EV_FAILED) {
		tui_message(t, _("the measurement failed: %s"), ev->text);
	} else if (ev->type == JOB_EV_CANCELLED) {
		tui_message(t,
			    MT_NGETTEXT("stopped: %zu of %zu cells measured (w saves them)",
					"stopped: %zu of %zu cells measured (w saves them)",
					s->m->nsizes * s->m->nstrides),
			    n, s->m->nsizes * s->m->nstrides);
	} else if (s->single) {
		tui_message(t, "%s", _("re-measured the cell"));
	} else if (s->preview && first_look_kind(t, s->m)) {
		tui_dirty(t); /* it said which core type */
	} else {
		if (s->preview)
			mt_hsnprintf(say, sizeof say,
				     MT_NGETTEXT("a first look: %zu cell in %.1f s; r measures the "
						 "full grid, ? lists the keys",
						 "a first look: %zu cells in %.1f s; r measures the "
						 "full grid, ? lists the keys", n),
				     n, s->m->elapsed_s);
		else
			mt_hsnprintf(say, sizeof say,
				     MT_NGETTEXT("measured %zu cell in %.1f s; w saves, g guesses "
						 "the caches",
						 "measured %zu cells in %.1f s; w saves, g guesses "
						 "the caches", n),
				     n, s->m->elapsed_s);
		tui_message(t, "%s", say);
	}
	tui_dirty(t);
}

/* The first screen measures (tui_autostart): the quick mountain as a first
 * look, or the knobs' grid (--start), at the first draw. */
void mtab_start_pending(struct tui *t, struct mountain_tab *s)
{
	struct mountain_params quick;
	enum tui_start how = s->pending_start;
	s->pending_start = TUI_START_IDLE;
	if (how == TUI_START_FULL) {
		mtab_start_run(t, s, &s->params, -1, -1);
	} else if (how == TUI_START_PREVIEW) {
		mountain_params_quick(&quick);
		if (mtab_start_run(t, s, &quick, -1, -1) == 0)
			s->preview = 1;
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
static void want_card(struct tui *t, struct mountain_tab *s)
{
	mt_error e;
	if (s->have_card)
		return;
	if (card_load_bundled(&s->card, &e) == 0)
		s->have_card = 1;
	else
		tui_message(t, "%s", e.msg);
}

/* m (read from path) becomes the reference beside the shown mountain, in
 * place of the one before (freed), side by side, with the passport card
 * when it is the bundled reference. */
void mtab_set_ref(struct tui *t, struct mountain_tab *s, struct mountain *m, const char *path)
{
	mountain_free(s->ref);
	s->ref = m;
	s->ref_bundled = is_bundled(path);
	if (s->ref_bundled)
		want_card(t, s);
	s->ov = OV_SIDE;
	mtab_rebuild_ratio(s);
}

