/* tab_transpose: tab 4, the transpose lab. The simulator's knobs (cache
 * s, E, b; matrix size; version, block:RxC and buffer:K included), A and B
 * drawn element by element with the outcome of their latest access (hit,
 * miss, miss with eviction) or, with S, with the cache set each element
 * lands in (CHK-4: where the rows of A and B compete), a position in the
 * access sequence to step through with the counters at that point,
 * cachelab's pass/fail, the simulated block sweep (B, CHK-4's blocks), and
 * the real machine's versions timed (r: naive, block:16, buffer:16; R: the
 * homework's table by block size; a job on the pinned worker); and with a
 * the algae table (array of structs against struct of arrays, CS:APP
 * 6.18-6.20 and CHK-5's one-field pass) on its own cache (c) and struct
 * width (F). The simulation itself is src/transpose/transpose.c; this file
 * records its accesses and takes the keys, tab_transpose_draw.c draws. */
#include "config.h"

#include "algae/algae.h"
#include "base/i18n.h"
#include "sim/sim.h"
#include "transpose/transpose.h"
#include "tab_transpose.h"

#include <stdlib.h>
#include <string.h>

static const char *const sizes[] = { "32x32", "64x64", "61x67", "16x16", "8x8" };
static const char *const versions[] = { "naive", "block:8", "block:16", "diagonal" };

/* ---- simulation ---------------------------------------------------------- */

static void record(void *ctx, int matrix, int row, int col, int is_store, unsigned flags)
{
	struct transpose_tab *s = ctx;
	struct step *st;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4096;
		struct step *p = realloc(s->tape, cap * sizeof *p);
		if (!p)
			return; /* the tape stops short; counters say how far it got */
		s->tape = p;
		s->cap = cap;
	}
	st = &s->tape[s->n++];
	st->matrix = (uint8_t)matrix;
	st->row = (uint16_t)row;
	st->col = (uint16_t)col;
	st->is_store = (uint8_t)is_store;
	st->flags = (uint8_t)flags;
}

static void resimulate(struct transpose_tab *s)
{
	struct transpose_counts r = { 0, 0, 0, 0, 0 };
	mt_error e;
	s->n = 0;
	s->error[0] = 0;
	if (transpose_simulate(&s->v, s->rows, s->cols, s->s, s->E, s->b, record, s, &r, &e) < 0) {
		mt_strlcpy(s->error, e.msg, sizeof s->error);
		s->n = 0;
	}
	s->correct = r.correct;
	s->last = r;
	s->pos = s->n;
	s->have_sweep = 0;
	s->from_file = 0;
}

static int init(struct tui *t, void *self)
{
	struct transpose_tab *s = self;
	mt_error e;
	(void)t;
	s->s = 5, s->E = 1, s->b = 5;
	s->rows = s->cols = 32;
	s->version_i = 3;
	algae_params_default(&s->ap);
	transpose_version_parse(versions[s->version_i], &s->v, &e);
	resimulate(s);
	return 0;
}

static void fini(struct tui *t, void *self)
{
	struct transpose_tab *s = self;
	(void)t;
	free(s->tape);
	s->tape = NULL;
	s->n = s->cap = 0;
}

/* ---- the real machine ---------------------------------------------------- */

static void on_job_event(struct tui *t, void *self, const struct job_event *ev)
{
	struct transpose_tab *s = self;
	if (ev->type == JOB_EV_CELL) {
		if (transpose_result_apply(&s->real, ev) == TRANSPOSE_EV_REAL) {
			s->from_file = 0;
			tui_result_changed(t, &tab_transpose, 1);
		}
		tui_dirty(t);
		return;
	}
	if (!job_event_is_last(ev))
		return;
	if (tui_job_ended(t, ev, _("real-machine timing")))
		tui_message(t,
			    MT_NGETTEXT("real machine: %d version timed, N = %zu",
					"real machine: %d versions timed, N = %zu", s->plan.nreal),
			    s->plan.nreal, s->plan.real_n);
	tui_dirty(t);
}

/* r: naive, block:16 and buffer:16 (CHK-2: does reading the block row into
 * locals help on a real cache?); R: the homework's table, naive and
 * block:K, buffer:K for K = 4 .. 128. */
static int act_real(struct tui *t, void *self, int key)
{
	struct transpose_tab *s = self;
	mt_error e;
	if (!tui_can_measure(t))
		return 1;
	if (tui_discard_first(t, &tab_transpose, self,
			      _("Discard the unsaved transpose timings and measure again?"), act_real,
			      key))
		return 1;
	transpose_plan_default(&s->plan);
	s->plan.nsizes = 0; /* the simulated cells are already here */
	s->plan.nversions = 0;
	if (key == 'R')
		transpose_plan_real_sweep(&s->plan);
	else
		transpose_version_parse("buffer:16", &s->plan.real[s->plan.nreal++], &e);
	if (tui_quick(t))
		s->plan.real_n = 1024;
	if (transpose_plan_check(&s->plan, &e) < 0) {
		tui_message(t, _("cannot measure: %s"), e.msg);
		return 1;
	}
	transpose_result_init(&s->real, &s->plan);
	if (tui_job_launch(t, &tab_transpose, transpose_worker, &s->plan, &s->real.hdr) < 0)
		return 1;
	tui_message(t,
		    MT_NGETTEXT("timing %d version of the real transpose, N = %zu, best of %d",
				"timing %d versions of the real transpose, N = %zu, best of %d",
				s->plan.nreal),
		    s->plan.nreal, s->plan.real_n, s->plan.real_tries);
	tui_dirty(t);
	return 1;
}

/* B: CHK-4's blocks 4 .. 24 on this size and cache (simulated at once). */
static int act_sweep(struct tui *t, void *self, int key)
{
	struct transpose_tab *s = self;
	struct transpose_version v = { TRANSPOSE_BLOCK, 0, 0 };
	mt_error e;
	(void)key;
	for (int i = 0; i < TRANSPOSE_SWEEP_N; i++) {
		struct transpose_counts r;
		v.br = v.bc = transpose_sweep_sides[i];
		if (transpose_simulate(&v, s->rows, s->cols, s->s, s->E, s->b, NULL, NULL, &r, &e) < 0) {
			tui_message(t, "%s", e.msg);
			return 1;
		}
		s->sweep[i] = r.misses;
	}
	s->have_sweep = 1;
	tui_dirty(t);
	return 1;
}

/* Flips *flag and says what the view shows now (on or off). Returns 1
 * (the key is used). */
static int toggle(struct tui *t, int *flag, const char *on, const char *off)
{
	*flag = !*flag;
	tui_message(t, "%s", *flag ? on : off);
	tui_dirty(t);
	return 1;
}

static int act_algae(struct tui *t, void *self, int key)
{
	struct transpose_tab *s = self;
	(void)key;
	return toggle(t, &s->algae,
		      _("algae: c sets its cache (7,1,4 doubles it), F the fields a struct; "
			"a goes back"),
		      _("the transpose again"));
}

static int act_sets(struct tui *t, void *self, int key)
{
	struct transpose_tab *s = self;
	(void)key;
	return toggle(t, &s->sets,
		      _("each element shows its cache set; the last access's set stands out"),
		      _("each element shows its latest access"));
}

/* ---- knobs --------------------------------------------------------------- */

static int act_cycle(struct tui *t, void *self, int key)
{
	struct transpose_tab *s = self;
	mt_error e;
	if (key == 'v') {
		s->version_i = (s->version_i + 1) % (int)MT_ARRAY_LEN(versions);
		transpose_version_parse(versions[s->version_i], &s->v, &e);
	} else {
		s->size_i = (s->size_i + 1) % (int)MT_ARRAY_LEN(sizes);
		transpose_size_parse(sizes[s->size_i], &s->rows, &s->cols, &e);
	}
	resimulate(s);
	tui_dirty(t);
	return 1;
}

static void cache_answer(struct tui *t, void *self, const char *answer)
{
	struct transpose_tab *s = self;
	uint64_t v[3];
	struct sim_cache *c;
	char why[200], kept[32];
	mt_error e;
	if (!answer)
		return;
	if (s->algae)
		mt_snprintf(kept, sizeof kept, "%d,%d,%d", s->ap.s, s->ap.E, s->ap.b);
	else
		mt_snprintf(kept, sizeof kept, "%d,%d,%d", s->s, s->E, s->b);
	if (mt_parse_u64_list(answer, 0, 1u << 20, v, 3) != 3) {
		mt_snprintf(why, sizeof why,
			    _("cache s,E,b: three numbers such as 5,1,5, not '%.30s'"), answer);
		tui_knob_refused(t, why, kept);
		return;
	}
	c = sim_new((int)v[0], (int)v[1], (int)v[2], &e);
	if (!c) {
		mt_snprintf(why, sizeof why, _("cache s,E,b: %s"), e.msg);
		tui_knob_refused(t, why, kept);
		return;
	}
	sim_free(c);
	if (s->algae) { /* the algae table's own cache (7,1,4 doubles the book's) */
		s->ap.s = (int)v[0], s->ap.E = (int)v[1], s->ap.b = (int)v[2];
		tui_dirty(t);
		return;
	}
	s->s = (int)v[0], s->E = (int)v[1], s->b = (int)v[2];
	resimulate(s);
	tui_dirty(t);
}

static void size_answer(struct tui *t, void *self, const char *answer)
{
	struct transpose_tab *s = self;
	int r, c;
	char why[200], kept[32];
	mt_error e;
	if (!answer)
		return;
	mt_snprintf(kept, sizeof kept, "%dx%d", s->rows, s->cols);
	if (transpose_size_parse(answer, &r, &c, &e) < 0) {
		tui_knob_refused(t, e.msg, kept);
		return;
	}
	if (r > TAB_MAX_SIDE || c > TAB_MAX_SIDE) {
		mt_snprintf(why, sizeof why, _("size: 1x1..%dx%d in the tab (memtop run transpose "
					       "takes more), not '%.20s'"),
			    TAB_MAX_SIDE, TAB_MAX_SIDE, answer);
		tui_knob_refused(t, why, kept);
		return;
	}
	s->rows = r, s->cols = c;
	resimulate(s);
	tui_dirty(t);
}

static void version_answer(struct tui *t, void *self, const char *answer)
{
	struct transpose_tab *s = self;
	struct transpose_version v;
	char kept[64];
	mt_error e;
	if (!answer)
		return;
	if (transpose_version_parse(answer, &v, &e) < 0) {
		tui_knob_refused(t, e.msg, transpose_version_name(&s->v, kept, sizeof kept));
		return;
	}
	s->v = v;
	resimulate(s);
	tui_dirty(t);
}

static void fields_answer(struct tui *t, void *self, const char *answer)
{
	struct transpose_tab *s = self;
	int f;
	char why[200], kept[16];
	if (!answer)
		return;
	if (mt_parse_int(answer, 2, ALGAE_MAX_FIELDS, &f) < 0) {
		mt_snprintf(why, sizeof why, _("int fields a struct: 2..%d, not '%.20s'"),
			    ALGAE_MAX_FIELDS, answer);
		mt_snprintf(kept, sizeof kept, "%d", s->ap.fields);
		tui_knob_refused(t, why, kept);
		return;
	}
	s->ap.fields = f;
	tui_dirty(t);
}

static int act_prompt(struct tui *t, void *self, int key)
{
	struct transpose_tab *s = self;
	char cur[64];
	if (key == 'c' && s->algae) {
		mt_snprintf(cur, sizeof cur, "%d,%d,%d", s->ap.s, s->ap.E, s->ap.b);
		tui_prompt(t, s, _("Algae cache s,E,b (the book's 6,1,4; doubled 7,1,4): "), cur,
			   cache_answer);
	} else if (key == 'F') {
		mt_snprintf(cur, sizeof cur, "%d", s->ap.fields);
		tui_prompt(t, s, _("Int fields a struct (2: x, y): "), cur, fields_answer);
	} else if (key == 'c') {
		mt_snprintf(cur, sizeof cur, "%d,%d,%d", s->s, s->E, s->b);
		tui_prompt(t, s, _("Cache s,E,b: "), cur, cache_answer);
	} else if (key == 'Z') {
		mt_snprintf(cur, sizeof cur, "%dx%d", s->rows, s->cols);
		tui_prompt(t, s, _("Size ROWSxCOLS: "), cur, size_answer);
	} else {
		tui_prompt(t, s, _("Version (naive, block:K, block:RxC, buffer:K, diagonal): "),
			   transpose_version_name(&s->v, cur, sizeof cur), version_answer);
	}
	return 1;
}

/* ---- stepping ------------------------------------------------------------ */

static int act_step(struct tui *t, void *self, int key)
{
	struct transpose_tab *s = self;
	size_t page = (size_t)s->cols * 2;
	switch (key) {
	case KEY_LEFT: case 'h':
		if (s->pos)
			s->pos--;
		break;
	case KEY_RIGHT: case 'l':
		if (s->pos < s->n)
			s->pos++;
		break;
	case KEY_PPAGE:
		s->pos = s->pos > page ? s->pos - page : 0;
		break;
	case KEY_NPAGE:
		s->pos = s->pos + page < s->n ? s->pos + page : s->n;
		break;
	case KEY_HOME:
		s->pos = 0;
		break;
	case KEY_END:
		s->pos = s->n;
		break;
	case 'n': /* just past the next miss */
		while (s->pos < s->n && !(s->tape[s->pos].flags & SIM_MISS))
			s->pos++;
		if (s->pos < s->n)
			s->pos++;
		break;
	default:
		return 0;
	}
	tui_dirty(t);
	return 1;
}

static const struct keybinding keys[] = {
	{ KEY_RIGHT, "Left Right h l", N_("one access back / forward"), act_step },
	{ KEY_LEFT, NULL, NULL, act_step },
	{ 'h', NULL, NULL, act_step },
	{ 'l', NULL, NULL, act_step },
	TUI_KEYS_PAGE(N_("two rows of accesses back / forward"), act_step),
	TUI_KEYS_HOME_END(N_("before the first access / after the last"), act_step),
	{ 'n', "n", N_("step to just after the next miss"), act_step },
	{ 'v', "v", N_("next version: naive, block:8, block:16, diagonal"), act_cycle },
	{ 'z', "z", N_("next size: 32x32, 64x64, 61x67, 16x16, 8x8"), act_cycle },
	{ 'V', "V", N_("type a version (block:K, block:RxC such as block:16x4, buffer:K)"),
	  act_prompt },
	{ 'Z', "Z", N_("type a size ROWSxCOLS"), act_prompt },
	{ 'c', "c", N_("type the cache s,E,b (cachelab's is 5,1,5; in the algae table, its own)"),
	  act_prompt },
	{ 'a', "a", N_("the algae table: array of structs against struct of arrays (CHK-5)"),
	  act_algae },
	{ 'F', "F", N_("algae: int fields a struct (the homework: 5 or more)"), act_prompt },
	{ 'S', "S", N_("sets: each element's cache set instead of its latest access (CHK-4)"),
	  act_sets },
	{ 'B', "B", N_("block sweep: misses of block:4, 8, 12, 16, 20, 24 at this size (CHK-4)"),
	  act_sweep },
	{ 'r', "r", N_("time naive, block:16 and buffer:16 on this machine (N = 4096)"), act_real },
	{ 'R', "R", N_("time the homework's table: naive, block:K and buffer:K, K = 4 .. 128"),
	  act_real },
	TUI_KEY_SAVE("transpose"),
	{ 0, NULL, NULL, NULL },
};

/* ---- drawing ------------------------------------------------------------- */
/* ---- files: the frame opens and saves them through .result ---------- */

/* The header of a result with no real-machine timing: the simulation's
 * machine and date only (a simulation has no timing conditions). */
static void sim_header(struct run_header *h)
{
	memset(h, 0, sizeof *h);
	mt_strlcpy(h->version, PACKAGE_VERSION, sizeof h->version);
	mt_hostname(h->host, sizeof h->host);
	mt_now_text(h->date, sizeof h->date, 0);
}

/* The result w saves: the opened file as it was, else the current
 * simulation (its version and size) and the real machine's timings. */
static const struct transpose_result *shown(struct transpose_tab *s)
{
	if (s->from_file)
		return &s->res;
	s->res = s->real;
	if (!s->res.hdr.date[0])
		sim_header(&s->res.hdr);
	s->res.s = s->s;
	s->res.E = s->E;
	s->res.b = s->b;
	s->res.nversions = s->res.nsizes = 1;
	s->res.versions[0] = s->v;
	s->res.rows[0] = s->rows;
	s->res.cols[0] = s->cols;
	memset(s->res.have, 0, sizeof s->res.have);
	s->res.sim[0][0] = s->last;
	s->res.have[0][0] = !s->error[0];
	return &s->res;
}

/* What w saves (shown), the cells it holds: an opened file its own; else
 * the simulation one when it ran, and each real timing one. */
static struct tab_result_now io_now(void *self)
{
	struct transpose_tab *s = self;
	size_t n = s->from_file ? transpose_result_measured(&s->res)
				: (s->error[0] ? 0 : 1) + transpose_result_measured(&s->real);
	return (struct tab_result_now){ .shown = shown(s), .measured = n };
}

/* An opened result: its cache and its first version and size the tab
 * draws (one that fits the tab), its real timings shown; w saves it back
 * as it was until something changes. */
static int io_take(struct tui *t, void *self, struct result_file *f, mt_error *e)
{
	struct transpose_tab *s = self;
	const struct transpose_result *r = f->r;
	(void)e;
	s->s = r->s;
	s->E = r->E;
	s->b = r->b;
	for (int z = 0; z < r->nsizes; z++)
		if (r->nversions && r->rows[z] <= TAB_MAX_SIDE && r->cols[z] <= TAB_MAX_SIDE) {
			s->v = r->versions[0];
			s->rows = r->rows[z];
			s->cols = r->cols[z];
			s->version_i = s->size_i = -1;
			break;
		}
	resimulate(s);
	s->real = *r;
	s->plan.real_n = r->real_n;
	s->plan.real_tries = r->real_tries;
	s->plan.nreal = r->nreal;
	memcpy(s->plan.real, r->real, sizeof s->plan.real);
	s->res = *r;
	s->from_file = 1;
	tui_dirty(t);
	return 0;
}

static const struct tab_result_io io = {
	.kind = &kind_transpose,
	.nothing = N_("nothing simulated to save (the cache or size is not valid)"),
	.busy = N_("the real-machine timing"),
	.now = io_now,
	.take = io_take,
};

const struct tab tab_transpose = {
	.name = N_("Transpose"),
	.key = '4',
	.init = init,
	.fini = fini,
	.draw = ttab_draw,
	.keys = keys,
	.job_event = on_job_event,
	.result = &io,
	.state_size = sizeof(struct transpose_tab),
};

