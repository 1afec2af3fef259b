/* tab_transpose: tab 4, the transpose lab. The simulator's knobs (cache
 * s, E, b; matrix size; version), A and B drawn element by element with
 * the outcome of their latest access (hit, miss, miss with eviction), a
 * position in the access sequence to step through with the counters at that
 * point, cachelab's pass/fail, and the real machine's N = 4096 naive against
 * blocked timing (a job on the pinned worker). The simulation itself is
 * src/transpose.c; this file only records its accesses and draws them. */
#include "config.h"

#include "sim/sim.h"
#include "tab.h"
#include "labs/transpose.h"

#include <stdlib.h>
#include <string.h>

#define TAB_MAX_SIDE 256 /* the tab draws matrices up to 256 x 256 */

struct step {
	uint16_t row, col;
	uint8_t matrix, is_store, flags;
};

static const char *const sizes[] = { "32x32", "64x64", "61x67", "16x16", "8x8" };
static const char *const versions[] = { "naive", "block:8", "block:16", "diagonal" };

static struct {
	struct run_header real_hdr; /* the real-machine timing's conditions */
	int s, E, b;
	int rows, cols;
	struct tr_version v;
	int size_i, version_i;   /* preset cycled by z / v (-1: typed) */
	struct step *tape;       /* every access of the current run */
	size_t n, cap, pos;      /* accesses recorded; shown up to pos */
	int correct;
	char error[160];
	/* real machine */
	struct tr_plan plan;
	int real_running;
	double real_ns[2];
	int real_have[2];
} S;

/* ---- simulation ---------------------------------------------------------- */

static void record(void *ctx, int matrix, int row, int col, int is_store, unsigned flags)
{
	struct step *st;
	(void)ctx;
	if (S.n == S.cap) {
		size_t cap = S.cap ? S.cap * 2 : 4096;
		struct step *p = realloc(S.tape, cap * sizeof *p);
		if (!p)
			return; /* the tape stops short; counters say how far it got */
		S.tape = p;
		S.cap = cap;
	}
	st = &S.tape[S.n++];
	st->matrix = (uint8_t)matrix;
	st->row = (uint16_t)row;
	st->col = (uint16_t)col;
	st->is_store = (uint8_t)is_store;
	st->flags = (uint8_t)flags;
}

static void resimulate(void)
{
	struct tr_result r = { 0, 0, 0, 0, 0 };
	mt_error e;
	S.n = 0;
	S.error[0] = 0;
	if (tr_simulate(&S.v, S.rows, S.cols, S.s, S.E, S.b, record, NULL, &r, &e) < 0) {
		mt_strlcpy(S.error, e.msg, sizeof S.error);
		S.n = 0;
	}
	S.correct = r.correct;
	S.pos = S.n;
}

static int init(struct tui *t)
{
	mt_error e;
	(void)t;
	memset(&S, 0, sizeof S);
	S.s = 5, S.E = 1, S.b = 5;
	S.rows = S.cols = 32;
	S.version_i = 3;
	tr_version_parse(versions[S.version_i], &S.v, &e);
	resimulate();
	return 0;
}

static void fini(struct tui *t)
{
	(void)t;
	free(S.tape);
	S.tape = NULL;
	S.n = S.cap = 0;
}

/* ---- the real machine ---------------------------------------------------- */

static void on_job_event(struct tui *t, const struct job_event *ev)
{
	if (ev->type == JOB_EV_CELL) {
		if (ev->kind == TR_EV_REAL && (ev->row == 0 || ev->row == 1)) {
			S.real_ns[ev->row] = ev->value;
			S.real_have[ev->row] = 1;
		}
		tui_dirty(t);
		return;
	}
	if (!tui_job_last(ev))
		return;
	S.real_running = 0;
	if (ev->type == JOB_EV_FAILED)
		tui_message(t, "the real-machine timing failed: %s", ev->text);
	else if (ev->type == JOB_EV_CANCELLED)
		tui_message(t, "real-machine timing stopped");
	else
		tui_message(t, "real machine: naive %.2f, blocked %.2f ns per element",
			    S.real_ns[0], S.real_ns[1]);
	tui_dirty(t);
}

static int act_real(struct tui *t, int key)
{
	mt_error e;
	(void)key;
	if (!tui_can_measure(t))
		return 1;
	tr_plan_default(&S.plan);
	S.plan.nsizes = 0; /* the simulated cells are already here */
	S.plan.nversions = 1;
	if (tui_quick(t))
		S.plan.real_n = 1024;
	if (tr_plan_check(&S.plan, &e) < 0) {
		tui_message(t, "cannot measure: %s", e.msg);
		return 1;
	}
	if (tui_job_launch(t, &tab_transpose, transpose_worker, &S.plan, &S.real_hdr) < 0)
		return 1;
	S.real_have[0] = S.real_have[1] = 0;
	S.real_running = 1;
	tui_message(t, "timing the real transpose, N = %zu, best of %d", S.plan.real_n,
		    S.plan.real_tries);
	tui_dirty(t);
	return 1;
}

/* ---- knobs --------------------------------------------------------------- */

static int act_cycle(struct tui *t, int key)
{
	mt_error e;
	if (key == 'v') {
		S.version_i = (S.version_i + 1) % (int)MT_ARRAY_LEN(versions);
		tr_version_parse(versions[S.version_i], &S.v, &e);
	} else {
		S.size_i = (S.size_i + 1) % (int)MT_ARRAY_LEN(sizes);
		tr_size_parse(sizes[S.size_i], &S.rows, &S.cols, &e);
	}
	resimulate();
	tui_dirty(t);
	return 1;
}

static void cache_answer(struct tui *t, const char *answer)
{
	uint64_t v[3];
	struct sim_cache *c;
	mt_error e;
	if (!answer)
		return;
	if (mt_parse_u64_list(answer, 0, 1u << 20, v, 3) != 3) {
		tui_message(t, "expected s,E,b such as 5,1,5");
		return;
	}
	c = sim_new((int)v[0], (int)v[1], (int)v[2], &e);
	if (!c) {
		tui_message(t, "%s", e.msg);
		return;
	}
	sim_free(c);
	S.s = (int)v[0], S.E = (int)v[1], S.b = (int)v[2];
	resimulate();
	tui_dirty(t);
}

static void size_answer(struct tui *t, const char *answer)
{
	int r, c;
	mt_error e;
	if (!answer)
		return;
	if (tr_size_parse(answer, &r, &c, &e) < 0) {
		tui_message(t, "%s", e.msg);
		return;
	}
	if (r > TAB_MAX_SIDE || c > TAB_MAX_SIDE) {
		tui_message(t, "the tab draws up to %dx%d (memtop run transpose takes any size)",
			    TAB_MAX_SIDE, TAB_MAX_SIDE);
		return;
	}
	S.rows = r, S.cols = c;
	resimulate();
	tui_dirty(t);
}

static void version_answer(struct tui *t, const char *answer)
{
	struct tr_version v;
	mt_error e;
	if (!answer)
		return;
	if (tr_version_parse(answer, &v, &e) < 0) {
		tui_message(t, "%s", e.msg);
		return;
	}
	S.v = v;
	resimulate();
	tui_dirty(t);
}

static int act_prompt(struct tui *t, int key)
{
	char cur[64];
	if (key == 'c') {
		mt_snprintf(cur, sizeof cur, "%d,%d,%d", S.s, S.E, S.b);
		tui_prompt(t, "Cache s,E,b: ", cur, cache_answer);
	} else if (key == 'Z') {
		mt_snprintf(cur, sizeof cur, "%dx%d", S.rows, S.cols);
		tui_prompt(t, "Size ROWSxCOLS: ", cur, size_answer);
	} else {
		tui_prompt(t, "Version (naive, block:K, diagonal): ", tr_version_name(&S.v, cur,
			   sizeof cur), version_answer);
	}
	return 1;
}

/* ---- stepping ------------------------------------------------------------ */

static int act_step(struct tui *t, int key)
{
	size_t page = (size_t)S.cols * 2;
	switch (key) {
	case KEY_LEFT: case 'h':
		if (S.pos)
			S.pos--;
		break;
	case KEY_RIGHT: case 'l':
		if (S.pos < S.n)
			S.pos++;
		break;
	case KEY_PPAGE:
		S.pos = S.pos > page ? S.pos - page : 0;
		break;
	case KEY_NPAGE:
		S.pos = S.pos + page < S.n ? S.pos + page : S.n;
		break;
	case KEY_HOME:
		S.pos = 0;
		break;
	case KEY_END:
		S.pos = S.n;
		break;
	case 'n': /* just past the next miss */
		while (S.pos < S.n && !(S.tape[S.pos].flags & SIM_MISS))
			S.pos++;
		if (S.pos < S.n)
			S.pos++;
		break;
	default:
		return 0;
	}
	tui_dirty(t);
	return 1;
}

static const struct keybinding keys[] = {
	{ KEY_RIGHT, "Left Right h l", "one access back / forward", act_step },
	{ KEY_LEFT, NULL, NULL, act_step },
	{ 'h', NULL, NULL, act_step },
	{ 'l', NULL, NULL, act_step },
	{ KEY_PPAGE, "PgUp PgDn", "two rows of accesses back / forward", act_step },
	{ KEY_NPAGE, NULL, NULL, act_step },
	{ KEY_HOME, "Home End", "before the first access / after the last", act_step },
	{ KEY_END, NULL, NULL, act_step },
	{ 'n', "n", "step to just after the next miss", act_step },
	{ 'v', "v", "next version: naive, block:8, block:16, diagonal", act_cycle },
	{ 'z', "z", "next size: 32x32, 64x64, 61x67, 16x16, 8x8", act_cycle },
	{ 'V', "V", "type a version (block:K for any K)", act_prompt },
	{ 'Z', "Z", "type a size ROWSxCOLS", act_prompt },
	{ 'c', "c", "type the cache s,E,b (cachelab's is 5,1,5)", act_prompt },
	{ 'r', "r", "time naive against blocked transpose on this machine (N = 4096)", act_real },
	{ 0, NULL, NULL, NULL },
};

/* ---- drawing ------------------------------------------------------------- */

/* State of each element after pos accesses: 0 untouched, 1 hit, 2 miss,
 * 3 miss with eviction (the latest access wins). */
static void states(uint8_t *a, uint8_t *b)
{
	memset(a, 0, (size_t)S.rows * (size_t)S.cols);
	memset(b, 0, (size_t)S.rows * (size_t)S.cols);
	for (size_t k = 0; k < S.pos; k++) {
		const struct step *st = &S.tape[k];
		uint8_t v = st->flags & SIM_HIT ? 1 : st->flags & SIM_EVICT ? 3 : 2;
		if (st->matrix == 0)
			a[(size_t)st->row * (size_t)S.cols + st->col] = v;
		else
			b[(size_t)st->row * (size_t)S.rows + st->col] = v;
	}
}

static void draw_matrix(struct tui *t, WINDOW *w, int y, int x, int h, int wd, const char *title,
			const uint8_t *st, int rows, int cols, int cur_r, int cur_c)
{
	static const char glyph[] = " .ox";
	static const enum tui_role role[] = { ROLE_DIM, ROLE_GOOD, ROLE_WARN, ROLE_BAD };
	int kx = 1, ky = 1; /* elements per character across and down */
	while ((cols + kx - 1) / kx > wd)
		kx++;
	while ((rows + ky - 1) / ky > h - 1)
		ky++;
	wattrset(w, tui_attr(t, ROLE_TITLE));
	if (kx > 1 || ky > 1) {
		char ttl[64];
		mt_snprintf(ttl, sizeof ttl, "%s (%dx%d elements a character)", title, ky, kx);
		mvwaddnstr(w, y, x, ttl, wd);
	} else {
		mvwaddnstr(w, y, x, title, wd);
	}
	for (int r = 0; r < rows; r += ky)
		for (int c = 0; c < cols; c += kx) {
			int best = 0, here = 0;
			for (int i = r; i < r + ky && i < rows; i++)
				for (int j = c; j < c + kx && j < cols; j++) {
					int v = st[(size_t)i * (size_t)cols + (size_t)j];
					if (v > best)
						best = v;
					if (i == cur_r && j == cur_c)
						here = 1;
				}
			wattrset(w, here ? tui_attr(t, ROLE_CURSOR) : tui_attr(t, role[best]));
			mvwaddch(w, y + 1 + r / ky, x + c / kx, (chtype)glyph[best]);
		}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

static void draw(struct tui *t, WINDOW *w, int full)
{
	int h, wd, y = 0, limit, half;
	uint64_t hits = 0, misses = 0, ev = 0;
	char line[256], vname[32];
	uint8_t *a, *b;
	const struct step *cur = S.pos ? &S.tape[S.pos - 1] : NULL;
	(void)full;
	getmaxyx(w, h, wd);
	werase(w);
	for (size_t k = 0; k < S.pos; k++) {
		hits += (S.tape[k].flags & SIM_HIT) != 0;
		misses += (S.tape[k].flags & SIM_MISS) != 0;
		ev += (S.tape[k].flags & SIM_EVICT) != 0;
	}
	mt_snprintf(line, sizeof line,
		    "cache (%d,%d,%d)  %dx%d  %s", S.s, S.E, S.b, S.rows, S.cols,
		    tr_version_name(&S.v, vname, sizeof vname));
	wattrset(w, tui_attr(t, ROLE_TITLE));
	mvwaddnstr(w, y++, 1, line, wd - 2);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	if (S.error[0]) {
		wattrset(w, tui_attr(t, ROLE_BAD));
		mvwaddnstr(w, y + 1, 1, S.error, wd - 2);
		wattrset(w, tui_attr(t, ROLE_NORMAL));
		return;
	}
	mt_snprintf(line, sizeof line, "%zu/%zu  hits %llu  misses %llu  evictions %llu",
		    S.pos, S.n, (unsigned long long)hits, (unsigned long long)misses,
		    (unsigned long long)ev);
	mvwaddnstr(w, y, 1, line, wd - 2);
	limit = tr_cachelab_limit(S.rows, S.cols);
	if (limit && S.s == 5 && S.E == 1 && S.b == 5 && S.pos == S.n) {
		int pass = misses < (uint64_t)limit;
		mt_snprintf(line, sizeof line, "  cachelab <%d %s", limit, pass ? "pass" : "FAIL");
		wattrset(w, tui_attr(t, pass ? ROLE_GOOD : ROLE_BAD));
		if (wd - 2 - getcurx(w) > 0)
			waddnstr(w, line, wd - 2 - getcurx(w));
		wattrset(w, tui_attr(t, ROLE_NORMAL));
	}
	y++;
	if (cur) {
		mt_snprintf(line, sizeof line, "last: %s %c[%d][%d] %s%s", cur->is_store ? "store" : "load",
			    cur->matrix ? 'B' : 'A', cur->row, cur->col,
			    cur->flags & SIM_HIT ? "hit" : "miss",
			    cur->flags & SIM_EVICT ? " eviction" : "");
		mvwaddnstr(w, y, 1, line, wd - 2);
	}
	if (!S.correct && S.pos == S.n) {
		wattrset(w, tui_attr(t, ROLE_BAD));
		if (wd - 2 - getcurx(w) > 0)
			waddnstr(w, "  (B is not A transposed!)", wd - 2 - getcurx(w));
		wattrset(w, tui_attr(t, ROLE_NORMAL));
	}
	y++;
	a = malloc((size_t)S.rows * (size_t)S.cols);
	b = malloc((size_t)S.rows * (size_t)S.cols);
	if (a && b && h - y - 3 > 2) {
		states(a, b);
		half = (wd - 3) / 2;
		draw_matrix(t, w, y, 1, h - y - 3, half, "A", a, S.rows, S.cols,
			    cur && !cur->matrix ? cur->row : -1, cur && !cur->matrix ? cur->col : -1);
		draw_matrix(t, w, y, 2 + half, h - y - 3, half, "B (= A^T)", b, S.cols, S.rows,
			    cur && cur->matrix ? cur->row : -1, cur && cur->matrix ? cur->col : -1);
	}
	free(a);
	free(b);
	wattrset(w, tui_attr(t, ROLE_DIM));
	mvwaddnstr(w, h - 3, 1, ". hit   o miss   x miss with eviction   (latest access of each element)",
		   wd - 2);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	if (S.real_have[0] && S.real_have[1]) {
		double up = S.real_ns[0] / S.real_ns[1];
		mt_snprintf(line, sizeof line,
			    "real N = %zu: naive %.2f ns/element, block:%zu %.2f, speed-up %.2fx (>= 2x: %s)",
			    S.plan.real_n, S.real_ns[0], S.plan.real_block, S.real_ns[1], up,
			    up >= 2 ? "pass" : "FAIL");
	} else if (S.real_running) {
		mt_snprintf(line, sizeof line, "real machine: timing N = %zu ...%s", S.plan.real_n,
			    S.real_have[0] ? " naive done" : "");
	} else {
		mt_snprintf(line, sizeof line, "real machine: r times naive against blocked, N = 4096");
	}
	mvwaddnstr(w, h - 2, 1, line, wd - 2);
}

const struct tab tab_transpose = {
	.name = "Transpose",
	.key = '4',
	.init = init,
	.fini = fini,
	.draw = draw,
	.keys = keys,
	.job_event = on_job_event,
};
