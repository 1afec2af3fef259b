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
 * width (F). The
 * simulation itself is src/labs/transpose.c; this file only records its
 * accesses and draws them. */
#include "config.h"

#include "labs/algae.h"
#include "labs/transpose.h"
#include "sim/sim.h"
#include "tab.h"

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
	struct transpose_result real; /* the real machine's timings and their conditions */
	struct transpose_result res;  /* what w saves: built by io_shown, or an opened file */
	int from_file;                /* res is a file opened and not changed since */
	struct tr_result last;        /* the current simulation's counters */
	int s, E, b;
	int rows, cols;
	struct tr_version v;
	int size_i, version_i;   /* preset cycled by z / v (-1: typed) */
	struct step *tape;       /* every access of the current run */
	size_t n, cap, pos;      /* accesses recorded; shown up to pos */
	int correct;
	char error[160];
	int sets;                /* S: draw each element's cache set */
	int algae;               /* a: the algae table instead of the matrices */
	struct algae_params ap;  /* its cache and struct width */
	uint64_t sweep[TR_SWEEP_N]; /* B: misses of CHK-4's blocks at this size */
	int have_sweep;
	/* real machine */
	struct tr_plan plan;
	int real_running;
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
	S.last = r;
	S.pos = S.n;
	S.have_sweep = 0;
	S.from_file = 0;
}

static int init(struct tui *t)
{
	mt_error e;
	(void)t;
	memset(&S, 0, sizeof S);
	S.s = 5, S.E = 1, S.b = 5;
	S.rows = S.cols = 32;
	S.version_i = 3;
	algae_params_default(&S.ap);
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
		if (transpose_result_apply(&S.real, ev) == TR_EV_REAL) {
			S.from_file = 0;
			tui_result_changed(t, &tab_transpose, 1);
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
		tui_message(t, "real machine: %d versions timed, N = %zu", S.plan.nreal,
			    S.plan.real_n);
	tui_dirty(t);
}

/* r: naive, block:16 and buffer:16 (CHK-2: does reading the block row into
 * locals help on a real cache?); R: the homework's table, naive and
 * block:K, buffer:K for K = 4 .. 128. */
static int act_real(struct tui *t, int key)
{
	mt_error e;
	if (!tui_can_measure(t))
		return 1;
	tr_plan_default(&S.plan);
	S.plan.nsizes = 0; /* the simulated cells are already here */
	S.plan.nversions = 0;
	if (key == 'R')
		tr_plan_real_sweep(&S.plan);
	else
		tr_version_parse("buffer:16", &S.plan.real[S.plan.nreal++], &e);
	if (tui_quick(t))
		S.plan.real_n = 1024;
	if (tr_plan_check(&S.plan, &e) < 0) {
		tui_message(t, "cannot measure: %s", e.msg);
		return 1;
	}
	transpose_result_init(&S.real, &S.plan);
	if (tui_job_launch(t, &tab_transpose, transpose_worker, &S.plan, &S.real.hdr) < 0)
		return 1;
	S.real_running = 1;
	tui_message(t, "timing %d versions of the real transpose, N = %zu, best of %d",
		    S.plan.nreal, S.plan.real_n, S.plan.real_tries);
	tui_dirty(t);
	return 1;
}

/* B: CHK-4's blocks 4 .. 24 on this size and cache (simulated at once). */
static int act_sweep(struct tui *t, int key)
{
	struct tr_version v = { TR_BLOCK, 0, 0 };
	mt_error e;
	(void)key;
	for (int i = 0; i < TR_SWEEP_N; i++) {
		struct tr_result r;
		v.br = v.bc = tr_sweep_sides[i];
		if (tr_simulate(&v, S.rows, S.cols, S.s, S.E, S.b, NULL, NULL, &r, &e) < 0) {
			tui_message(t, "%s", e.msg);
			return 1;
		}
		S.sweep[i] = r.misses;
	}
	S.have_sweep = 1;
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

static int act_algae(struct tui *t, int key)
{
	(void)key;
	return toggle(t, &S.algae,
		      "algae: c sets its cache (7,1,4 doubles it), F the fields a struct; "
		      "a goes back",
		      "the transpose again");
}

static int act_sets(struct tui *t, int key)
{
	(void)key;
	return toggle(t, &S.sets,
		      "each element shows its cache set; the last access's set stands out",
		      "each element shows its latest access");
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
	if (S.algae) { /* the algae table's own cache (7,1,4 doubles the book's) */
		S.ap.s = (int)v[0], S.ap.E = (int)v[1], S.ap.b = (int)v[2];
		tui_dirty(t);
		return;
	}
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

static void fields_answer(struct tui *t, const char *answer)
{
	int f;
	if (!answer)
		return;
	if (mt_parse_int(answer, 2, ALGAE_MAX_FIELDS, &f) < 0) {
		tui_message(t, "fields: expected 2..%d", ALGAE_MAX_FIELDS);
		return;
	}
	S.ap.fields = f;
	tui_dirty(t);
}

static int act_prompt(struct tui *t, int key)
{
	char cur[64];
	if (key == 'c' && S.algae) {
		mt_snprintf(cur, sizeof cur, "%d,%d,%d", S.ap.s, S.ap.E, S.ap.b);
		tui_prompt(t, "Algae cache s,E,b (the book's 6,1,4; doubled 7,1,4): ", cur,
			   cache_answer);
	} else if (key == 'F') {
		mt_snprintf(cur, sizeof cur, "%d", S.ap.fields);
		tui_prompt(t, "Int fields a struct (2: x, y): ", cur, fields_answer);
	} else if (key == 'c') {
		mt_snprintf(cur, sizeof cur, "%d,%d,%d", S.s, S.E, S.b);
		tui_prompt(t, "Cache s,E,b: ", cur, cache_answer);
	} else if (key == 'Z') {
		mt_snprintf(cur, sizeof cur, "%dx%d", S.rows, S.cols);
		tui_prompt(t, "Size ROWSxCOLS: ", cur, size_answer);
	} else {
		tui_prompt(t, "Version (naive, block:K, block:RxC, buffer:K, diagonal): ",
			   tr_version_name(&S.v, cur, sizeof cur), version_answer);
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
	{ 'V', "V", "type a version (block:K, block:RxC such as block:16x4, buffer:K)",
	  act_prompt },
	{ 'Z', "Z", "type a size ROWSxCOLS", act_prompt },
	{ 'c', "c", "type the cache s,E,b (cachelab's is 5,1,5; in the algae table, its own)",
	  act_prompt },
	{ 'a', "a", "the algae table: array of structs against struct of arrays (CHK-5)",
	  act_algae },
	{ 'F', "F", "algae: int fields a struct (the homework: 5 or more)", act_prompt },
	{ 'S', "S", "sets: each element's cache set instead of its latest access (CHK-4)",
	  act_sets },
	{ 'B', "B", "block sweep: misses of block:4, 8, 12, 16, 20, 24 at this size (CHK-4)",
	  act_sweep },
	{ 'r', "r", "time naive, block:16 and buffer:16 on this machine (N = 4096)", act_real },
	{ 'R', "R", "time the homework's table: naive, block:K and buffer:K, K = 4 .. 128",
	  act_real },
	{ 'w', "w", "save as JSON (memtop-transpose-HOST-DATE.json)", tui_result_key },
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

/* Set view: each element's cache set (its glyph: 0-9, a-z, A-Z by set
 * modulo 62), so that the rows of A and B that land in the same sets show. */
static void set_states(uint8_t *a, uint8_t *b)
{
	for (int i = 0; i < S.rows; i++)
		for (int j = 0; j < S.cols; j++) {
			a[(size_t)i * (size_t)S.cols + (size_t)j] =
				(uint8_t)tr_set_of(0, i, j, S.rows, S.cols, S.s, S.b);
			b[(size_t)j * (size_t)S.rows + (size_t)i] =
				(uint8_t)tr_set_of(1, j, i, S.rows, S.cols, S.s, S.b);
		}
}

static char set_glyph(unsigned set)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	return digits[set % (sizeof digits - 1)];
}

/* What one character of a matrix shows: the latest access's state (the
 * worst of the elements it stands for), or in set view the set of its first
 * element; the cursor's element wins. */
struct cell_look {
	const uint8_t *st;
	int rows, cols, cur_r, cur_c, hot; /* hot: the last access's set, -1 none */
};

static void draw_cell(struct tui *t, WINDOW *w, int y, int x, const struct cell_look *L, int r,
		      int c, int ky, int kx)
{
	static const char glyph[] = " .ox";
	static const enum tui_role role[] = { ROLE_DIM, ROLE_GOOD, ROLE_WARN, ROLE_BAD };
	int best = 0, here = 0;
	for (int i = r; i < r + ky && i < L->rows; i++)
		for (int j = c; j < c + kx && j < L->cols; j++) {
			int v = L->st[(size_t)i * (size_t)L->cols + (size_t)j];
			if (v > best)
				best = v;
			here |= i == L->cur_r && j == L->cur_c;
		}
	if (S.sets) {
		int set = L->st[(size_t)r * (size_t)L->cols + (size_t)c];
		wattrset(w, tui_attr(t, here ? ROLE_CURSOR : set == L->hot ? ROLE_BAD : ROLE_DIM));
		mvwaddch(w, y, x, (chtype)set_glyph((unsigned)set));
		return;
	}
	wattrset(w, here ? tui_attr(t, ROLE_CURSOR) : tui_attr(t, role[best]));
	mvwaddch(w, y, x, (chtype)glyph[best]);
}

static void draw_matrix(struct tui *t, WINDOW *w, int y, int x, int h, int wd, const char *title,
			const struct cell_look *L)
{
	int kx = 1, ky = 1; /* elements per character across and down */
	while ((L->cols + kx - 1) / kx > wd)
		kx++;
	while ((L->rows + ky - 1) / ky > h - 1)
		ky++;
	wattrset(w, tui_attr(t, ROLE_TITLE));
	if (kx > 1 || ky > 1) {
		char ttl[64];
		mt_snprintf(ttl, sizeof ttl, "%s (%dx%d elements a character)", title, ky, kx);
		tui_put(t, w, y, x, wd, ttl);
	} else {
		tui_put(t, w, y, x, wd, title);
	}
	for (int r = 0; r < L->rows; r += ky)
		for (int c = 0; c < L->cols; c += kx)
			draw_cell(t, w, y + 1 + r / ky, x + c / kx, L, r, c, ky, kx);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

/* The title, the counters up to pos with cachelab's verdict, the last
 * access. Returns the next line, or -1 when the simulation failed. */
static int draw_head(struct tui *t, WINDOW *w, int wd, const struct step *cur)
{
	uint64_t hits = 0, misses = 0, ev = 0;
	char line[256], vname[32];
	int y = 0, limit = tr_cachelab_limit(S.rows, S.cols);
	for (size_t k = 0; k < S.pos; k++) {
		hits += (S.tape[k].flags & SIM_HIT) != 0;
		misses += (S.tape[k].flags & SIM_MISS) != 0;
		ev += (S.tape[k].flags & SIM_EVICT) != 0;
	}
	mt_snprintf(line, sizeof line, "cache (%d,%d,%d)  %dx%d  %s", S.s, S.E, S.b, S.rows, S.cols,
		    tr_version_name(&S.v, vname, sizeof vname));
	wattrset(w, tui_attr(t, ROLE_TITLE));
	mvwaddnstr(w, y++, 1, line, wd - 2);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	if (S.error[0]) {
		wattrset(w, tui_attr(t, ROLE_BAD));
		tui_wrap(t, w, y + 1, 1, wd - 2, 3, S.error);
		wattrset(w, tui_attr(t, ROLE_NORMAL));
		return -1;
	}
	mt_snprintf(line, sizeof line, "%zu/%zu  hits %llu  misses %llu  evictions %llu", S.pos, S.n,
		    (unsigned long long)hits, (unsigned long long)misses, (unsigned long long)ev);
	mvwaddnstr(w, y, 1, line, wd - 2);
	if (limit && S.s == 5 && S.E == 1 && S.b == 5 && S.pos == S.n) {
		int pass = misses < (uint64_t)limit;
		mt_snprintf(line, sizeof line, "  cachelab <%d %s", limit, pass ? "pass" : "FAIL");
		wattrset(w, tui_attr(t, pass ? ROLE_GOOD : ROLE_BAD));
		tui_put(t, w, y, getcurx(w), wd - 2 - getcurx(w), line);
		wattrset(w, tui_attr(t, ROLE_NORMAL));
	}
	y++;
	if (cur) {
		mt_snprintf(line, sizeof line, "last: %s %c[%d][%d] %s%s, set %llu",
			    cur->is_store ? "store" : "load", cur->matrix ? 'B' : 'A', cur->row,
			    cur->col, cur->flags & SIM_HIT ? "hit" : "miss",
			    cur->flags & SIM_EVICT ? " eviction" : "",
			    (unsigned long long)tr_set_of(cur->matrix, cur->row, cur->col, S.rows,
							  S.cols, S.s, S.b));
		mvwaddnstr(w, y, 1, line, wd - 2);
	}
	if (!S.correct && S.pos == S.n) {
		wattrset(w, tui_attr(t, ROLE_BAD));
		tui_put(t, w, y, getcurx(w), wd - 2 - getcurx(w), "  (B is not A transposed!)");
		wattrset(w, tui_attr(t, ROLE_NORMAL));
	}
	return y + 1;
}

/* The lines under the matrices: the legend, the block sweep (B), the real
 * machine's versions. Returns how many lines they take. */
static int bottom_lines(char lines[4][256], int wd)
{
	int n = 0, best = 0;
	if (S.sets)
		mt_snprintf(lines[n++], 256, "each element: its cache set (0-9a-z...); the last "
					     "access's set stands out");
	else
		mt_strlcpy(lines[n++], ". hit   o miss   x miss with eviction   (latest access of "
				       "each element)", 256);
	if (S.have_sweep) {
		mt_strlcpy(lines[n], "sweep:", 256);
		for (int i = 0; i < TR_SWEEP_N; i++) {
			mt_append(lines[n], 256, " block:%d %llu", tr_sweep_sides[i],
				  (unsigned long long)S.sweep[i]);
			if (S.sweep[i] < S.sweep[best])
				best = i;
		}
		mt_append(lines[n++], 256, "; fewest: block:%d", tr_sweep_sides[best]);
	}
	(void)wd;
	return n;
}

/* The real machine's versions: ns per element of each, then the speed-up
 * of the fastest over naive against the homework's 2x. */
static int real_lines(char lines[3][256])
{
	char name[32];
	int n = 0, best = -1, have = 0;
	mt_snprintf(lines[0], 256, "real N = %zu, ns/element:", S.plan.real_n);
	lines[1][0] = '\0';
	for (int i = 0; i < S.plan.nreal; i++) {
		int row = i && S.plan.nreal > 7 && i > 6 ? 1 : 0; /* the sweep's buffers: line 2 */
		if (!(S.real.real_ns[i] > 0))
			continue;
		have = 1;
		mt_append(lines[row], 256, " %s %.2f", tr_version_name(&S.plan.real[i], name,
									sizeof name),
			  S.real.real_ns[i]);
		if (i > 0 && (best < 0 || S.real.real_ns[i] < S.real.real_ns[best]))
			best = i;
	}
	if (!have && !S.real_running) {
		mt_strlcpy(lines[0], "real machine (N = 4096): r times naive, block:16, buffer:16; "
				     "R a block sweep", 256);
		return 1;
	}
	n = lines[1][0] ? 2 : 1;
	if (S.real_running)
		mt_append(lines[0], 256, " ...");
	else if (best > 0 && S.real.real_ns[0] > 0)
		mt_snprintf(lines[n++], 256, "speed-up %.2fx (%s; >= 2x: %s)",
			    S.real.real_ns[0] / S.real.real_ns[best],
			    tr_version_name(&S.plan.real[best], name, sizeof name),
			    S.real.real_ns[0] / S.real.real_ns[best] >= 2 ? "pass" : "FAIL");
	return n;
}

/* The algae table on its cache: reads, misses, rate, what each case does. */
static void draw_algae(struct tui *t, WINDOW *w, int h, int wd)
{
	char line[256];
	int y = 0;
	mt_snprintf(line, sizeof line,
		    "algae: 16x16 grid of %d-int structs, cache (%d,%d,%d) = %llu bytes, %d-byte "
		    "blocks",
		    S.ap.fields, S.ap.s, S.ap.E, S.ap.b,
		    (unsigned long long)(((uint64_t)1 << S.ap.s) * (uint64_t)S.ap.E << S.ap.b),
		    1 << S.ap.b);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y++, 1, wd - 2, line);
	mt_snprintf(line, sizeof line, "%-15s %5s %6s %5s  %s", "case", "reads", "misses", "rate",
		    "what");
	mvwaddnstr(w, ++y, 1, line, wd - 2);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (int i = 0; i < ALGAE_CASES && ++y < h; i++) {
		struct algae_result r;
		mt_error e;
		if (algae_run(i, &S.ap, &r, &e) < 0) {
			tui_wrap(t, w, y, 1, wd - 2, h - y, e.msg);
			return;
		}
		mt_snprintf(line, sizeof line, "%-15s %5llu %6llu %4.0f%%  %s", r.name,
			    (unsigned long long)r.reads, (unsigned long long)r.misses,
			    100.0 * (double)r.misses / (double)r.reads, r.what);
		tui_put(t, w, y, 1, wd - 2, line); /* "what" loses whole words at 80 */
	}
	wattrset(w, tui_attr(t, ROLE_DIM));
	if (y + 2 < h)
		tui_wrap(t, w, y + 2, 1, wd - 2, h - y - 2,
			 "c: its cache (7,1,4 doubles the book's 1 KB); F: fields a struct; a: the "
			 "transpose");
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

/* Lines lines[0..n) wrapped in whole words in width columns, from line y;
 * count_only: just the lines they take. Returns that count. */
static int wrapped(struct tui *t, WINDOW *w, int y, int width, char lines[][256], int n,
		   int count_only)
{
	int used = 0;
	for (int i = 0; i < n; i++) {
		int k = tui_text_height(lines[i], width);
		if (!count_only)
			tui_wrap(t, w, y + used, 1, width, k, lines[i]);
		used += k;
	}
	return used;
}

static void draw(struct tui *t, WINDOW *w, int full)
{
	int h, wd, y, half, nb, nr;
	char bl[4][256], rl[3][256];
	uint8_t *a, *b;
	const struct step *cur = S.pos ? &S.tape[S.pos - 1] : NULL;
	(void)full;
	getmaxyx(w, h, wd);
	werase(w);
	if (S.algae) {
		draw_algae(t, w, h, wd);
		return;
	}
	if ((y = draw_head(t, w, wd, cur)) < 0)
		return;
	nb = bottom_lines(bl, wd);
	nr = real_lines(rl);
	nb = wrapped(t, w, 0, wd - 2, bl, nb, 1); /* the lines they take, wrapped */
	nr = wrapped(t, w, 0, wd - 2, rl, nr, 1);
	a = malloc((size_t)S.rows * (size_t)S.cols);
	b = malloc((size_t)S.rows * (size_t)S.cols);
	if (a && b && h - y - nb - nr > 2) {
		int hot = S.sets && cur ? (int)(tr_set_of(cur->matrix, cur->row, cur->col, S.rows,
							  S.cols, S.s, S.b) & 0xff) : -1;
		struct cell_look la = { a, S.rows, S.cols, cur && !cur->matrix ? cur->row : -1,
					cur && !cur->matrix ? cur->col : -1, hot };
		struct cell_look lb = { b, S.cols, S.rows, cur && cur->matrix ? cur->row : -1,
					cur && cur->matrix ? cur->col : -1, hot };
		if (S.sets)
			set_states(a, b);
		else
			states(a, b);
		half = (wd - 3) / 2;
		draw_matrix(t, w, y, 1, h - y - nb - nr, half, "A", &la);
		draw_matrix(t, w, y, 2 + half, h - y - nb - nr, half, "B (= A^T)", &lb);
	}
	free(a);
	free(b);
	wattrset(w, tui_attr(t, ROLE_DIM));
	wrapped(t, w, h - nb - nr, wd - 2, bl, bottom_lines(bl, wd), 0);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	wrapped(t, w, h - nr, wd - 2, rl, real_lines(rl), 0);
}

/* ---- files: the frame opens and saves them through .result ---------- */

static size_t io_measured(struct tui *t, void *self)
{
	(void)t;
	(void)self;
	if (S.from_file)
		return transpose_result_measured(&S.res);
	return (S.error[0] ? 0 : 1) + transpose_result_measured(&S.real);
}

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
static const void *io_shown(struct tui *t, void *self)
{
	(void)t;
	(void)self;
	if (S.from_file)
		return &S.res;
	S.res = S.real;
	if (!S.res.hdr.date[0])
		sim_header(&S.res.hdr);
	S.res.s = S.s;
	S.res.E = S.E;
	S.res.b = S.b;
	S.res.nversions = S.res.nsizes = 1;
	S.res.versions[0] = S.v;
	S.res.rows[0] = S.rows;
	S.res.cols[0] = S.cols;
	memset(S.res.have, 0, sizeof S.res.have);
	S.res.sim[0][0] = S.last;
	S.res.have[0][0] = !S.error[0];
	return &S.res;
}

static int io_running(struct tui *t, void *self)
{
	(void)t;
	(void)self;
	return S.real_running;
}

/* An opened result: its cache and its first version and size the tab
 * draws (one that fits the tab), its real timings shown; w saves it back
 * as it was until something changes. */
static int io_take(struct tui *t, void *self, struct result_file *f, mt_error *e)
{
	const struct transpose_result *r = f->r;
	(void)self;
	(void)e;
	S.s = r->s;
	S.E = r->E;
	S.b = r->b;
	for (int z = 0; z < r->nsizes; z++)
		if (r->nversions && r->rows[z] <= TAB_MAX_SIDE && r->cols[z] <= TAB_MAX_SIDE) {
			S.v = r->versions[0];
			S.rows = r->rows[z];
			S.cols = r->cols[z];
			S.version_i = S.size_i = -1;
			break;
		}
	resimulate();
	S.real = *r;
	S.plan.real_n = r->real_n;
	S.plan.real_tries = r->real_tries;
	S.plan.nreal = r->nreal;
	memcpy(S.plan.real, r->real, sizeof S.plan.real);
	S.res = *r;
	S.from_file = 1;
	tui_dirty(t);
	return 0;
}

static const struct tab_result_io io = {
	.kind = &kind_transpose,
	.nothing = "nothing simulated to save (the cache or size is not valid)",
	.busy = "the real-machine timing",
	.measured = io_measured,
	.shown = io_shown,
	.running = io_running,
	.take = io_take,
};

const struct tab tab_transpose = {
	.name = "Transpose",
	.key = '4',
	.init = init,
	.fini = fini,
	.draw = draw,
	.keys = keys,
	.job_event = on_job_event,
	.result = &io,
};
