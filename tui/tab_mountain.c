/* tab_mountain: tab 1, the memory mountain. A heatmap of read MB/s over
 * sizes (rows) and strides (columns) on a log scale, filling in live; a
 * cursor cell with the size slice at its stride and the stride slice at
 * its size as bar charts; knobs; re-measure one cell; save; a saved run or
 * the bundled reference beside it (side by side or as a ratio); and guess
 * mode, the seed's widget: place L1, L2, L3 markers, then compare. */
#include "config.h"

#include "mountain/card.h"
#include "mountain/cliffs.h"
#include "mountain/cycles.h"
#include "latency/latency.h"
#include "info/info.h"
#include "model.h"
#include "mountain/mountain_json.h"
#include "mountain/passport.h"
#include "core/job.h"
#include "mountain/rowlevels.h"
#include "plot/plot_beside.h"
#include "core/sysinfo.h"
#include "core/topo.h"
#include "result/result.h"
#include "tab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum mode { MODE_NORMAL, MODE_GUESS, MODE_FORM };
enum overlay { OV_NONE, OV_SIDE, OV_RATIO };

static struct {
	struct mountain_params params;
	struct mountain *m;     /* this machine's (or the first file) */
	struct mountain *ref;   /* the one beside it, or NULL */
	int ref_bundled;        /* ref is the bundled reference: the book's card beside it */
	struct mountain_card card; /* the book's Haswell figures (data/ref), when loaded */
	int have_card, card_opened; /* card_opened: memtop view was given the card file */
	struct mountain *ratio; /* m / ref on m's axes (OV_RATIO) */
	enum overlay ov;
	struct mountain_params run_params; /* the running job's (outlives it) */
	int running;
	int single;            /* the run re-measures one cell */
	uint64_t run_t0;
	int preview;           /* the mountain is the first look memtop took on its own */
	size_t row, col;       /* the cursor */
	enum mode mode;
	int marker[3], sel;    /* guess mode: rows of L1, L2, L3 */
	char result[3][200];   /* guess comparison */
	int has_result;
	int field;             /* form: selected knob */
	enum tui_start pending_start; /* the first look or --start: begin at the first draw */
	int passport;          /* P: the passport instead of the slices */
	/* last geometry, for mouse clicks */
	struct hm_layout L;
	int hm_y, hm_x;
} S;

/* ---- helpers ------------------------------------------------------------- */

static void rebuild_ratio(void)
{
	mountain_free(S.ratio);
	S.ratio = NULL;
	if (!S.m || !S.ref)
		return;
	S.ratio = mountain_new(S.m->sizes, S.m->nsizes, S.m->strides, S.m->nstrides);
	if (!S.ratio)
		return;
	for (size_t r = 0; r < S.m->nsizes; r++) {
		int rr = mountain_size_index(S.ref, S.m->sizes[r]);
		for (size_t c = 0; c < S.m->nstrides; c++) {
			int rc = mountain_stride_index(S.ref, S.m->strides[c]);
			double a = mountain_at(S.m, r, c), b;
			if (rr < 0 || rc < 0)
				continue;
			b = mountain_at(S.ref, (size_t)rr, (size_t)rc);
			if (isfinite(a) && isfinite(b) && b > 0)
				S.ratio->mbs[r * S.m->nstrides + c] = a / b;
		}
	}
}

static void clamp_cursor(void)
{
	if (!S.m)
		return;
	if (S.row >= S.m->nsizes)
		S.row = S.m->nsizes - 1;
	if (S.col >= S.m->nstrides)
		S.col = S.m->nstrides - 1;
	for (int i = 0; i < 3; i++)
		if (S.marker[i] >= (int)S.m->nsizes)
			S.marker[i] = (int)S.m->nsizes - 1;
}

static void set_main(struct tui *t, struct mountain *m)
{
	mountain_free(S.m);
	S.m = m;
	tui_result_changed(t, &tab_mountain, 0);
	S.preview = 0;
	S.has_result = 0;
	clamp_cursor();
	if (m && S.col == 0) { /* open on stride 8 when there is one: the book's slice */
		int c = mountain_stride_index(m, 8);
		S.col = c >= 0 ? (size_t)c : m->nstrides - 1;
	}
	for (int i = 0; i < 3 && m; i++)
		S.marker[i] = (int)((m->nsizes - 1) * (size_t)(i + 1) / 4);
	rebuild_ratio();
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

/* Measure grid (the knobs' S.params, or the quick grid for the first look)
 * into a new mountain, or with only_row >= 0 the cell (only_row, only_col)
 * of the mountain on screen again. Returns 0, or -1 with the reason in the
 * status line. */
static int start_run(struct tui *t, const struct mountain_params *grid, int only_row,
		     int only_col)
{
	struct mountain_params *p = &S.run_params;
	struct run_header *hdr = NULL;
	char note[200] = "";
	mt_error e;
	if (!tui_can_measure(t))
		return -1;
	*p = *grid;
	if (only_row >= 0) {
		if (!S.m || S.m->source[0]) {
			tui_message(t, "Enter re-measures a cell of a mountain measured here");
			return -1;
		}
		/* the cell of the mountain on screen, on its own axes */
		if (mountain_params_set_sizes(p, S.m->sizes[0], S.m->sizes[S.m->nsizes - 1], &e) < 0)
			goto fail;
		p->nstrides = S.m->nstrides;
		memcpy(p->strides, S.m->strides, S.m->nstrides * sizeof p->strides[0]);
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
		set_main(t, m);
		hdr = &S.m->hdr;
	}
	if (tui_job_launch(t, &tab_mountain, mountain_worker, p, hdr) < 0)
		return -1;
	S.running = 1;
	S.single = only_row >= 0;
	if (!S.single)
		S.preview = 0;
	S.run_t0 = mt_now_ns();
	if (!S.single)
		tui_set_diag(t, &S.m->hdr.diag);
	if (note[0])
		tui_message(t, "%s", note);
	return 0;
fail:
	tui_message(t, "cannot measure: %s", e.msg);
	return -1;
}

static void on_job_event(struct tui *t, const struct job_event *ev)
{
	if (ev->type == JOB_EV_CELL || ev->type == JOB_EV_UPDATE) {
		if (S.m && mountain_apply(S.m, ev) == 0) {
			if (!S.preview) /* the first look is not asked about nor autosaved */
				tui_result_changed(t, &tab_mountain, 1);
			if (S.ov == OV_RATIO)
				rebuild_ratio();
		}
		tui_dirty(t);
		return;
	}
	if (!tui_job_last(ev) || !S.running)
		return;
	/* the last event: the frame has ended the job and completed the header */
	S.running = 0;
	if (!S.single) {
		S.m->elapsed_s = (double)(mt_now_ns() - S.run_t0) / 1e9;
		tui_set_diag(t, &S.m->hdr.diag);
	}
	rebuild_ratio();
	if (ev->type == JOB_EV_FAILED)
		tui_message(t, "the measurement failed: %s", ev->text);
	else if (ev->type == JOB_EV_CANCELLED)
		tui_message(t, "stopped: %zu of %zu cells measured (w saves them)",
			    mountain_measured(S.m), S.m->nsizes * S.m->nstrides);
	else if (S.single)
		tui_message(t, "re-measured the cell");
	else if (S.preview && first_look_kind(t, S.m))
		tui_dirty(t); /* it said which core kind */
	else if (S.preview)
		tui_message(t, "a first look: %zu cells in %.1f s; r measures the full grid, "
			       "? lists the keys",
			    mountain_measured(S.m), S.m->elapsed_s);
	else
		tui_message(t, "measured %zu cells in %.1f s; w saves, g guesses the caches",
			    mountain_measured(S.m), S.m->elapsed_s);
	tui_dirty(t);
}

/* The first screen measures (tui_autostart): the quick mountain as a first
 * look, or the knobs' grid (--start), at the first draw. */
static void start_pending(struct tui *t)
{
	struct mountain_params quick;
	enum tui_start how = S.pending_start;
	S.pending_start = TUI_START_IDLE;
	if (how == TUI_START_FULL) {
		start_run(t, &S.params, -1, -1);
	} else if (how == TUI_START_PREVIEW) {
		mountain_params_quick(&quick);
		if (start_run(t, &quick, -1, -1) == 0)
			S.preview = 1;
	}
}

/* ---- keys ---------------------------------------------------------------- */

static void confirm_restart(struct tui *t, const char *answer)
{
	if (answer && (answer[0] == 'y' || answer[0] == 'Y'))
		start_run(t, &S.params, -1, -1);
}

static int act_run(struct tui *t, int key)
{
	(void)key;
	if (S.mode == MODE_FORM)
		S.mode = MODE_NORMAL;
	if (tui_result_unsaved(t, &tab_mountain) && !tui_job(t) && !tui_view_mode(t)) {
		tui_prompt(t, "Discard the unsaved mountain and measure again? (y/n) ", "",
			   confirm_restart);
		return 1;
	}
	start_run(t, &S.params, -1, -1);
	return 1;
}

static int act_enter(struct tui *t, int key)
{
	(void)key;
	if (S.mode == MODE_FORM) {
		S.mode = MODE_NORMAL;
		return 1;
	}
	if (S.mode == MODE_GUESS)
		return 0;
	start_run(t, &S.params, (int)S.row, (int)S.col);
	return 1;
}

static void move_cursor(int dr, int dc)
{
	if (!S.m)
		return;
	if (dr < 0 && S.row > 0)
		S.row--;
	if (dr > 0 && S.row + 1 < S.m->nsizes)
		S.row++;
	if (dc < 0 && S.col > 0)
		S.col--;
	if (dc > 0 && S.col + 1 < S.m->nstrides)
		S.col++;
}

/* Knobs: max stride, smallest size, largest size, the fastest tries that
 * must agree. */
#define NFIELDS 4
static void form_change(int dir)
{
	struct mountain_params *p = &S.params;
	uint64_t lo = p->sizes[0], hi = p->sizes[p->nsizes - 1];
	unsigned maxs = p->strides[p->nstrides - 1];
	switch (S.field) {
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

static int act_move(struct tui *t, int key)
{
	int up = key == KEY_UP || key == 'k', down = key == KEY_DOWN || key == 'j';
	int left = key == KEY_LEFT || key == 'h', right = key == KEY_RIGHT || key == 'l';
	if (S.mode == MODE_FORM) {
		if (up && S.field > 0)
			S.field--;
		if (down && S.field < NFIELDS - 1)
			S.field++;
		if (left || right)
			form_change(left ? -1 : 1);
	} else if (S.mode == MODE_GUESS && S.m) {
		int *mk = &S.marker[S.sel];
		if (left)
			S.sel = (S.sel + 2) % 3;
		if (right)
			S.sel = (S.sel + 1) % 3;
		if (up && *mk > 0)
			(*mk)--;
		if (down && *mk + 1 < (int)S.m->nsizes)
			(*mk)++;
		S.row = (size_t)S.marker[S.sel];
		S.has_result = 0;
	} else {
		move_cursor(up ? -1 : down ? 1 : 0, left ? -1 : right ? 1 : 0);
	}
	tui_dirty(t);
	return 1;
}

static int act_page(struct tui *t, int key)
{
	if (!S.m || S.mode != MODE_NORMAL)
		return 0;
	if (key == KEY_HOME)
		S.row = 0;
	else if (key == KEY_END)
		S.row = S.m->nsizes - 1;
	else if (key == KEY_PPAGE)
		S.col = 0;
	else if (key == KEY_NPAGE)
		S.col = S.m->nstrides - 1;
	tui_dirty(t);
	return 1;
}

/* path names the bundled reference (data/m4max.json). */
static int is_bundled(const char *path)
{
	char ref[1024];
	return mountain_reference_path(ref, sizeof ref) && strcmp(ref, path) == 0;
}

/* "14.0 GB/s", "900 MB/s"; with tilde for the book's rounded figures. */
static const char *card_mbs(char *buf, size_t len, double v, int about)
{
	if (isnan(v))
		mt_strlcpy(buf, "-", len);
	else if (v >= 1000)
		mt_snprintf(buf, len, "%s%.1f GB/s", about ? "~" : "", v / 1000);
	else
		mt_snprintf(buf, len, "%s%.0f MB/s", about ? "~" : "", v);
	return buf;
}

/* The sizes L1d/L2/L3 the reference's recorded caches give ("-" where
 * none). */
static void card_caches(const struct mountain *m, char *buf, size_t len)
{
	struct info inf;
	mt_strlcpy(buf, "-", len);
	if (!m->caches || info_from_json(m->caches, &inf, m->source, NULL) < 0)
		return;
	buf[0] = '\0';
	for (int l = 1; l <= 3; l++) {
		char sz[16];
		uint64_t v = info_best_size(&inf, l, NULL);
		mt_append(buf, len, "%s%s", l > 1 ? "/" : "", v ? mt_fmt_size(sz, sizeof sz, v) : "-");
	}
}

/* What the reference's recorded caches say of its line ("128 B") and of
 * its efficiency cores' L1d ("64K"); "-" where they say nothing. */
static void card_recorded(const struct mountain *m, char *line, char *ecore, size_t len)
{
	struct info inf;
	mt_strlcpy(line, "-", len);
	mt_strlcpy(ecore, "-", len);
	if (!m->caches || info_from_json(m->caches, &inf, m->source, NULL) < 0)
		return;
	for (int s = 0; s < inf.nsources; s++)
		for (int i = 0; i < inf.src[s].nlevels; i++) {
			const struct cache_level *lv = &inf.src[s].lv[i];
			char sz[16];
			if (lv->level != 1 || strcmp(lv->type, "instruction") == 0)
				continue;
			if (lv->line > 0 && strcmp(line, "-") == 0)
				mt_snprintf(line, len, "%d B", lv->line);
			if (strcmp(lv->cores, "efficiency") == 0 && lv->size)
				mt_strlcpy(ecore, mt_fmt_size(sz, sizeof sz, lv->size), len);
		}
}

/* The cliffs the stride-8 column of m shows, named L1, L2, ... ("L1"),
 * "-" without such a column. */
static void card_stride8(const struct mountain *m, char *buf, size_t len)
{
	struct cliff cs[CLIFFS_MAX];
	int col = mountain_stride_index(m, CLIFFS_LINE_WORDS), n;
	mt_strlcpy(buf, "-", len);
	if (col < 0)
		return;
	n = cliffs_find(m, (size_t)col, CLIFF_MERGED, CLIFFS_RATIO, cs, CLIFFS_MAX, NULL);
	if (n > 0)
		buf[0] = '\0';
	for (int i = 0; i < n && i < 4; i++)
		mt_append(buf, len, "%sL%d", i ? ", " : "", i + 1);
}

/* The cycles a word at the L1 plateau and the loads in flight (seed 000):
 * the book's from its card file (data/ref/csapp-haswell-card.json), the
 * reference's from its file and its clock (the M4 Max: at most, at the
 * seed's 4.5 GHz bound). Appends their two rows to rows[]. */
static int card_cycle_rows(char rows[][64], int n, const struct mountain *m4)
{
	struct detection d;
	struct cpw_points pt;
	struct cpw_clock c;
	char a[32] = "-", b[32] = "-", f[32] = "-";
	if (S.have_card && S.card.hdr.clock.core_ghz > 0) {
		double hw = cpw_cycles(S.card.hdr.clock.core_ghz, S.card.l1_plateau);
		cpw_fmt(a, sizeof a, hw);
		if (S.card.l1_latency > 0)
			mt_snprintf(f, sizeof f, "%.1f", cpw_in_flight(S.card.l1_latency, hw));
	}
	cpw_clock_of(&m4->hdr, 0, &c);
	cliffs_detect(m4, CLIFFS_RATIO, &d);
	cpw_points_find(m4, &d, &pt);
	if (pt.have_l1 && c.how != CPW_UNKNOWN) {
		char v[16];
		mt_snprintf(b, sizeof b, "%s%s", c.how == CPW_BOUND ? "<= " : "",
			    cpw_fmt(v, sizeof v, cpw_cycles(c.ghz, pt.l1_mbs)));
	}
	mt_snprintf(rows[n++], 64, "%-10s %-11s %s", "c/word L1", a, b);
	mt_snprintf(rows[n++], 64, "%-10s %-11s %s", "in flight", f, "-");
	return n;
}

/* SPEC 3: the book's Haswell figures exist only as a summary, so they are a
 * card beside the bundled reference, never a surface: the book's figures on
 * the left, the passport of the M4 Max reference computed from its file on
 * the right (seed 000's comparison table), the most telling rows first so
 * that a short area keeps them. Lines fit 36 columns. */
static int draw_book_card(struct tui *t, WINDOW *w, int y, int x, int width, int h)
{
	struct passport hw, m4;
	char rows[18][64], a[32], b[32], ecore[32];
	int n = 0, k = 0;
	passport_book_haswell(&hw);
	passport_compute(S.ref, &m4);
	mt_snprintf(rows[n++], sizeof rows[0], "%-10s %-11s %s", "passport", "Haswell", "M4 Max");
	mt_snprintf(rows[n++], sizeof rows[0], "%-10s %-11s %s", "peak",
		    card_mbs(a, sizeof a, hw.peak, 1), card_mbs(b, sizeof b, m4.peak, 0));
	mt_snprintf(rows[n++], sizeof rows[0], "%-10s %-11s %s", "floor",
		    card_mbs(a, sizeof a, hw.floor, 1), card_mbs(b, sizeof b, m4.floor, 0));
	mt_snprintf(rows[n++], sizeof rows[0], "%-10s %-11.1f %.2f", "peak/floor", hw.ratio,
		    m4.ratio);
	mt_snprintf(a, sizeof a, "~%.0f %%", 100 * hw.ridge_mid / hw.peak);
	mt_snprintf(rows[n++], sizeof rows[0], "%-10s %-11s %.0f %%", "ridge/peak", a,
		    m4.ridge_rows ? 100 * m4.ridge_mid / m4.peak : (double)NAN);
	mt_snprintf(a, sizeof a, "~%.0f GB/s", (S.have_card ? S.card.ridge : hw.ridge_mid) / 1000);
	mt_snprintf(rows[n++], sizeof rows[0], "%-10s %-11s %.0f..%.0f GB/s", "ridge", a,
		    m4.ridge_lo / 1000, m4.ridge_hi / 1000);
	mt_snprintf(a, sizeof a, "%llu B", (unsigned long long)hw.line_bytes);
	mt_snprintf(rows[n++], sizeof rows[0], "%-10s %-11s %llu B", "line knee", a,
		    (unsigned long long)m4.line_bytes);
	card_recorded(S.ref, b, ecore, sizeof b);
	mt_snprintf(a, sizeof a, "%llu B",
		    (unsigned long long)(S.have_card && S.card.line ? S.card.line : 0));
	mt_snprintf(rows[n++], sizeof rows[0], "%-10s %-11s %s", "line (OS)",
		    S.have_card && S.card.line ? a : "-", b);
	card_stride8(S.ref, b, sizeof b);
	mt_snprintf(rows[n++], sizeof rows[0], "%-10s %-11s %s", "s8 cliffs",
		    S.have_card && S.card.stride8[0] ? S.card.stride8 : "-", b);
	n = card_cycle_rows(rows, n, S.ref);
	card_caches(S.ref, b, sizeof b);
	mt_snprintf(rows[n++], sizeof rows[0], "%-10s %-11s %s", "caches", "32K/256K/8M", b);
	mt_snprintf(rows[n++], sizeof rows[0], "%-10s %-11s %s", "E-core L1d", "-", ecore);
	mt_snprintf(rows[n++], sizeof rows[0], "%-10s %-11s %s", "clock", "2.1 GHz", "<= 4.5 GHz");
	mt_snprintf(rows[n++], sizeof rows[0], "%-10s %-11s %.2f", "s1/s8", "-", m4.s1_s8);
	mt_strlcpy(rows[n++], "Haswell: the book's figures only", sizeof rows[0]);
	for (; k < n && y + k < h; k++) {
		wattrset(w, tui_attr(t, k == 0 ? ROLE_TITLE : k == n - 1 ? ROLE_DIM : ROLE_NORMAL));
		tui_put(t, w, y + k, x, width, rows[k]);
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	return k;
}

/* The card memtop view was given, alone (data/ref/csapp-haswell-card.json):
 * its own lines (card.h). Returns the lines drawn. */
static int draw_card_file(struct tui *t, WINDOW *w, int y, int x, int width, int h)
{
	char lines[CARD_LINES][CARD_WIDTH + 1];
	int n = card_lines(&S.card, lines, CARD_LINES), i;
	for (i = 0; i < n && y + i < h; i++) {
		wattrset(w, tui_attr(t, i < 2 ? ROLE_TITLE : ROLE_NORMAL));
		tui_put(t, w, y + i, x, width, lines[i]);
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	return i;
}

/* The book's card file: loaded once, when first wanted (a missing or broken
 * file leaves its rows "-", and says so). */
static void want_card(struct tui *t)
{
	mt_error e;
	if (S.have_card)
		return;
	if (card_load_bundled(&S.card, &e) == 0)
		S.have_card = 1;
	else
		tui_message(t, "%s", e.msg);
}

/* m (read from path) becomes the reference beside the shown mountain, in
 * place of the one before (freed), side by side, with the passport card
 * when it is the bundled reference. */
static void set_ref(struct tui *t, struct mountain *m, const char *path)
{
	mountain_free(S.ref);
	S.ref = m;
	S.ref_bundled = is_bundled(path);
	if (S.ref_bundled)
		want_card(t);
	S.ov = OV_SIDE;
	rebuild_ratio();
}

static void open_answer(struct tui *t, const char *answer)
{
	char path[MT_PATH_MAX];
	struct mountain *m;
	mt_error e;
	if (!answer)
		return;
	if (!answer[0]) {
		if (!mountain_reference_path(path, sizeof path)) {
			tui_message(t, "the bundled reference is not installed (MEMTOP_DATA)");
			return;
		}
		answer = path;
	}
	m = result_load_as(answer, &kind_mountain, &e);
	if (!m) {
		tui_message(t, "%s", e.msg);
		return;
	}
	if (!S.m) {
		set_main(t, m);
		return;
	}
	set_ref(t, m, answer);
	tui_message(t, "beside it: %s (m: side by side, ratio, off)", mt_basename(answer));
	tui_dirty(t);
}

static int act_open(struct tui *t, int key)
{
	(void)key;
	tui_prompt(t, "Open a saved mountain (Enter alone: the Apple M4 Max reference): ", "",
		   open_answer);
	return 1;
}

static int act_overlay(struct tui *t, int key)
{
	(void)key;
	if (!S.ref) {
		tui_message(t, "nothing to compare with (o opens a saved mountain)");
		return 1;
	}
	S.ov = (S.ov + 1) % 3;
	if (S.ov == OV_RATIO)
		rebuild_ratio();
	tui_message(t, "%s", S.ov == OV_SIDE    ? "side by side"
			     : S.ov == OV_RATIO ? "ratio: this mountain / the other, on shared cells"
						: "the other mountain is hidden (m shows it)");
	tui_dirty(t);
	return 1;
}

static int act_passport(struct tui *t, int key)
{
	(void)key;
	S.passport = !S.passport;
	tui_message(t, "%s", S.passport ? "passport: P again shows the slices"
					: "slices: P shows the passport");
	tui_dirty(t);
	return 1;
}

static int act_guess(struct tui *t, int key)
{
	(void)key;
	if (!S.m)
		return 1;
	if (S.mode == MODE_GUESS) {
		S.mode = MODE_NORMAL;
		S.has_result = 0;
		return 1;
	}
	S.mode = MODE_GUESS;
	S.sel = 0;
	S.has_result = 0;
	S.row = (size_t)S.marker[0];
	tui_message(t, "guess: j/k move the marker, h/l pick L1/L2/L3, c compares, g leaves");
	return 1;
}

static const struct info *mountain_info(const struct tui *t)
{
	static struct info from_file;
	if (S.m && S.m->source[0] && S.m->caches) {
		if (info_from_json(S.m->caches, &from_file, S.m->source, NULL) == 0)
			return &from_file;
		return NULL;
	}
	if (S.m && S.m->source[0])
		return NULL;
	return tui_info(t);
}

static int act_compare(struct tui *t, int key)
{
	struct detection d;
	const struct info *inf = mountain_info(t);
	int have = 0;
	(void)key;
	if (S.mode != MODE_GUESS) {
		tui_message(t, "g first: place the L1, L2, L3 markers, then c compares");
		return 1;
	}
	memset(&d, 0, sizeof d);
	have = cliffs_detect(S.m, CLIFFS_RATIO, &d) == 0;
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
		guess_sentence(l + 1, S.m->sizes[S.marker[l]], det, best, from && from[0] ? from : "the system",
			       S.result[l], sizeof S.result[l]);
	}
	S.has_result = 1;
	tui_dirty(t);
	return 1;
}

static int act_form(struct tui *t, int key)
{
	(void)key;
	if (tui_view_mode(t)) {
		tui_message(t, "memtop view does not measure: no knobs");
		return 1;
	}
	S.mode = S.mode == MODE_FORM ? MODE_NORMAL : MODE_FORM;
	tui_dirty(t);
	return 1;
}

static int act_escape(struct tui *t, int key)
{
	(void)key;
	if (S.mode == MODE_NORMAL)
		return 0;
	S.mode = MODE_NORMAL;
	S.has_result = 0;
	tui_dirty(t);
	return 1;
}

static const struct keybinding keys[] = {
	{ KEY_UP, "arrows hjkl", "move the cursor cell (guess: move/pick a marker; knobs: "
				 "pick/change)", act_move },
	{ KEY_DOWN, NULL, NULL, act_move },
	{ KEY_LEFT, NULL, NULL, act_move },
	{ KEY_RIGHT, NULL, NULL, act_move },
	{ 'h', NULL, NULL, act_move },
	{ 'j', NULL, NULL, act_move },
	{ 'k', NULL, NULL, act_move },
	{ 'l', NULL, NULL, act_move },
	{ KEY_HOME, "Home End", "first / last size", act_page },
	{ KEY_END, NULL, NULL, act_page },
	{ KEY_PPAGE, "PgUp PgDn", "first / last stride", act_page },
	{ KEY_NPAGE, NULL, NULL, act_page },
	{ 'r', "r", "measure the mountain (the line above the map says what and how long)",
	  act_run },
	{ '\r', "Enter", "re-measure the cursor's cell", act_enter },
	{ '\n', NULL, NULL, act_enter },
	{ KEY_ENTER, NULL, NULL, act_enter },
	{ 'f', "f", "knobs: max stride, size range, tries (arrows change, Enter closes)",
	  act_form },
	{ 'w', "w", "save as JSON (memtop-mountain-HOST-DATE.json)", tui_result_key },
	{ 'o', "o", "open a saved mountain or the Apple M4 Max reference beside this one",
	  act_open },
	{ 'm', "m", "beside: side by side, ratio, off", act_overlay },
	{ 'P', "P", "the passport instead of the slices: peak, floor, ridge, line size row "
		    "(seed 000, step 5)", act_passport },
	{ 'K', "K", "the next runs measure on the next core kind, fastest first (P, E; big, "
		    "LITTLE)", tui_act_kind },
	{ 'g', "g", "guess mode: place L1, L2, L3 where you think the caches end", act_guess },
	{ 'c', "c", "guess mode: compare your guess with the cliffs and sysfs", act_compare },
	{ 27, "Esc", "leave guess mode or the knobs", act_escape },
	{ 0, NULL, NULL, NULL },
};

/* ---- drawing ------------------------------------------------------------- */

static void draw_heatmap(struct tui *t, WINDOW *w, const struct mountain *m, int y, int x,
			 const struct hm_layout *L, int cursor, int ratio)
{
	char lab[32], txt[32];
	wattrset(w, tui_attr(t, ROLE_DIM));
	mvwaddstr(w, y, x, ratio ? "ratio" : " size");
	for (size_t c = L->col0; c < L->col0 + L->ncols; c++)
		mvwprintw(w, y, x + L->label_w + (int)(c - L->col0) * L->cell_w, "%*u",
			  L->cell_w, m->strides[c]);
	for (size_t r = L->row0; r < L->row0 + L->nrows; r++) {
		int yy = y + 1 + (int)(r - L->row0);
		wattrset(w, tui_attr(t, r == S.row && cursor ? ROLE_TITLE : ROLE_DIM));
		mvwprintw(w, yy, x, "%4s ", mt_fmt_size(lab, sizeof lab, m->sizes[r]));
		if (S.mode == MODE_GUESS && cursor) /* markers at the row's end */
			for (int i = 0; i < 3; i++)
				if (S.marker[i] == (int)r) {
					wattrset(w, tui_attr(t, ROLE_MARK));
					mvwprintw(w, yy, x + L->width + 1, "%sL%d%s",
						  tui_glyph(t, GL_LEFT), i + 1, i == S.sel ? "*" : "");
				}
		for (size_t c = L->col0; c < L->col0 + L->ncols; c++) {
			double v = mountain_at(m, r, c);
			double f = hm_frac(L, v);
			int cx = x + L->label_w + (int)(c - L->col0) * L->cell_w;
			int cur = cursor && r == S.row && c == S.col;
			int after = cursor && r == S.row && c > 0 && c - 1 == S.col;
			wattrset(w, tui_attr(t, cur || after ? ROLE_TITLE : ROLE_NORMAL));
			mvwaddstr(w, yy, cx, cur ? "[" : after ? "]" : " ");
			wattrset(w, cur ? tui_attr(t, ROLE_CURSOR) : tui_heat_attr(t, f));
			hm_cell_text(L, v, txt, sizeof txt);
			if (txt[0] && isfinite(v)) {
				if (!tui_colors(t) && txt[0] == ' ') {
					/* monochrome: a density glyph where the text leaves room */
					waddstr(w, tui_heat_glyph(t, f));
					waddstr(w, txt + 1);
				} else {
					waddstr(w, txt);
				}
			} else {
				const char *g = tui_heat_glyph(t, f);
				for (int i = 0; i < L->cell_w - 1; i++)
					waddstr(w, g);
			}
			if (cur && c + 1 == L->col0 + L->ncols) {
				wattrset(w, tui_attr(t, ROLE_TITLE));
				waddstr(w, "]");
			}
		}
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

static void draw_legend(struct tui *t, WINDOW *w, int y, int x, int width,
			const struct hm_layout *L, int ratio)
{
	char lo[32], hi[32];
	int n = tui_heat_levels(t);
	if (isnan(L->lo)) {
		wattrset(w, tui_attr(t, ROLE_DIM));
		tui_put(t, w, y, x, width, "nothing measured yet: empty cells fill in as they are measured");
		return;
	}
	if (ratio) {
		mt_snprintf(lo, sizeof lo, "%.2f", L->lo);
		mt_snprintf(hi, sizeof hi, "%.2f", L->hi);
	} else {
		fmt_mbs_short(lo, sizeof lo, L->lo);
		fmt_mbs_short(hi, sizeof hi, L->hi);
	}
	wattrset(w, tui_attr(t, ROLE_DIM));
	mvwprintw(w, y, x, "%s %6s ", ratio ? "ratio" : "slow", lo);
	for (int i = 0; i < n; i++) {
		double f = n > 1 ? (double)i / (n - 1) : 1;
		wattrset(w, tui_heat_attr(t, f));
		waddstr(w, tui_heat_glyph(t, f));
		if (n <= 6)
			waddstr(w, tui_heat_glyph(t, f));
	}
	wattrset(w, tui_attr(t, ROLE_DIM));
	wprintw(w, " %s", hi);
	if (x + width - getcurx(w) > 11) /* within the legend's width, whole words */
		waddstr(w, "  log scale");
	if (!ratio && x + width - getcurx(w) > 16 && L->text != HM_TEXT_NONE)
		waddstr(w, L->text == HM_TEXT_MBS ? "; MB/s in cells" : "; GB/s in cells");
}

/* A horizontal bar chart of v[0..n) with labels; item cur highlighted;
 * scrolled to keep cur visible in h lines (the first is the title). */
static void draw_bars(struct tui *t, WINDOW *w, int y, int x, int width, int h,
		      const char *title, const double *v, const char *const *labels, size_t n,
		      size_t cur, const int *marks)
{
	double mx = bar_max(v, n);
	int barw = width - 5 - 1 - 7, lines = h - 1;
	size_t top = 0;
	char val[32];
	if (h < 2 || width < 20)
		return;
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y, x, width, title);
	if (n > (size_t)lines)
		top = cur < (size_t)lines / 2 ? 0
		      : cur + (size_t)lines - (size_t)lines / 2 > n ? n - (size_t)lines
								     : cur - (size_t)lines / 2;
	for (size_t i = top; i < n && i < top + (size_t)lines; i++) {
		int yy = y + 1 + (int)(i - top), e = bar_eighths(v[i], mx, barw);
		int mk = -1;
		for (int k = 0; marks && k < 3; k++)
			if (marks[k] == (int)i)
				mk = k;
		wattrset(w, tui_attr(t, i == cur ? ROLE_CURSOR : ROLE_DIM));
		mvwprintw(w, yy, x, "%5s", labels[i]);
		wattrset(w, tui_attr(t, ROLE_BAR));
		waddch(w, ' ');
		for (int c = 0; c < barw; c++) {
			int part = e - c * 8;
			waddstr(w, part >= 8 ? tui_bar_part(t, 8) : part > 0 ? tui_bar_part(t, part) : " ");
		}
		wattrset(w, tui_attr(t, i == cur ? ROLE_CURSOR : ROLE_NORMAL));
		wprintw(w, " %6s", fmt_mbs_short(val, sizeof val, v[i]));
		if (mk >= 0) {
			wattrset(w, tui_attr(t, ROLE_MARK));
			mvwprintw(w, yy, x + 6, "L%d", mk + 1);
		}
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

/* The passport of m (passport.h) in short lines, under title. */
static void draw_passport(struct tui *t, WINDOW *w, int y, int x, int width, int h,
			  const struct mountain *m, const char *title)
{
	struct passport p;
	char rows[9][96], a[32], b[32];
	int n = 0;
	if (passport_compute(m, &p) < 0) {
		wattrset(w, tui_attr(t, ROLE_DIM));
		tui_put(t, w, y, x, width, "passport: nothing measured yet");
		return;
	}
	mt_strlcpy(rows[n++], title, sizeof rows[0]);
	mt_snprintf(rows[n++], sizeof rows[0], "peak       %6.0f MB/s stride 1, %s", p.peak,
		    mt_fmt_size(a, sizeof a, p.peak_size));
	mt_snprintf(rows[n++], sizeof rows[0], "floor      %6.0f MB/s stride %u, %s", p.floor,
		    p.floor_stride, mt_fmt_size(a, sizeof a, p.floor_size));
	mt_snprintf(rows[n++], sizeof rows[0], "peak/floor %6.2f", p.ratio);
	mt_snprintf(rows[n++], sizeof rows[0], "ridge      %6.0f MB/s = %.0f %% of the peak",
		    p.ridge_mid, 100 * p.ridge_mid / p.peak);
	mt_snprintf(rows[n++], sizeof rows[0], "           (%.0f..%.0f %%, stride 1 past it)",
		    100 * p.ridge_lo / p.peak, 100 * p.ridge_hi / p.peak);
	mt_snprintf(rows[n++], sizeof rows[0], "line row   %s%s (strides %u..%u)",
		    mt_fmt_size(b, sizeof b, p.row_size), p.row_full ? " full row" : "",
		    p.row_n ? p.row_strides[0] : 0, p.row_n ? p.row_strides[p.row_n - 1] : 0);
	if (p.line_bytes)
		mt_snprintf(rows[n++], sizeof rows[0], "line       %llu B (flat from stride %llu)",
			    (unsigned long long)p.line_bytes,
			    (unsigned long long)(p.line_bytes / 8));
	else
		mt_strlcpy(rows[n++], "line       not visible on that row", sizeof rows[0]);
	mt_snprintf(rows[n++], sizeof rows[0], "s1/s8      %6.2f", p.s1_s8);
	for (int k = 0; k < n && k < h; k++) {
		wattrset(w, tui_attr(t, k == 0 ? ROLE_TITLE : ROLE_NORMAL));
		tui_put(t, w, y + k, x, width, rows[k]);
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

/* The stride slice at the cursor's size: the file's full row when it has
 * one at this size (the seed's row_256k: strides 1..15 beside a 5-stride
 * grid), else the grid's row. Returns the count; *cur the cursor's stride. */
static size_t stride_slice(const struct mountain *m, double *v, char (*lab)[16], size_t *cur,
			   int *full)
{
	size_t n = m->nstrides < MOUNTAIN_MAX_STRIDES ? m->nstrides : MOUNTAIN_MAX_STRIDES;
	*full = m->full.n && m->full.size == m->sizes[S.row];
	*cur = S.col;
	if (*full)
		n = m->full.n;
	for (size_t c = 0; c < n; c++) {
		unsigned s = *full ? m->full.strides[c] : m->strides[c];
		v[c] = *full ? m->full.mbs[c] : mountain_at(m, S.row, c);
		mt_snprintf(lab[c], sizeof lab[c], "%u", s);
		if (*full && s == m->strides[S.col])
			*cur = c;
	}
	return n;
}

static void draw_slices(struct tui *t, WINDOW *w, int y, int x, int width, int h, int stacked)
{
	const struct mountain *m = S.m;
	double vs[MOUNTAIN_MAX_SIZES], vc[MOUNTAIN_MAX_STRIDES];
	char ls[MOUNTAIN_MAX_SIZES][16], lc[MOUNTAIN_MAX_STRIDES][16];
	const char *ps[MOUNTAIN_MAX_SIZES], *pc[MOUNTAIN_MAX_STRIDES];
	char t1[96], t2[96], sz[32];
	int full;
	size_t ns = m->nsizes < MOUNTAIN_MAX_SIZES ? m->nsizes : MOUNTAIN_MAX_SIZES;
	size_t cc, nc = stride_slice(m, vc, lc, &cc, &full);
	for (size_t r = 0; r < ns; r++) {
		vs[r] = mountain_at(m, r, S.col);
		mt_fmt_size(ls[r], sizeof ls[r], m->sizes[r]);
		ps[r] = ls[r];
	}
	for (size_t c = 0; c < nc; c++)
		pc[c] = lc[c];
	mt_snprintf(t1, sizeof t1, "size slice at stride %u", m->strides[S.col]);
	mt_snprintf(t2, sizeof t2, "stride slice at size %s%s",
		    mt_fmt_size(sz, sizeof sz, m->sizes[S.row]), full ? ", full row" : "");
	if (stacked) {
		int h1 = (int)ns + 1, h2 = h - h1 - 1;
		if (h2 < (int)nc + 1) { /* share the lines */
			h1 = h / 2;
			h2 = h - h1 - 1;
		}
		draw_bars(t, w, y, x, width, h1, t1, vs, ps, ns, S.row,
			  S.mode == MODE_GUESS ? S.marker : NULL);
		draw_bars(t, w, y + h1 + 1, x, width, h2, t2, vc, pc, nc, cc, NULL);
	} else {
		int w1 = width / 2;
		draw_bars(t, w, y, x, w1 - 1, h, t1, vs, ps, ns, S.row,
			  S.mode == MODE_GUESS ? S.marker : NULL);
		draw_bars(t, w, y, x + w1, width - w1, h, t2, vc, pc, nc, cc, NULL);
	}
}

/* Under or beside the heatmap: the slices, or with P the passport of the
 * cursor's mountain. */
static void draw_lower(struct tui *t, WINDOW *w, int y, int x, int width, int h, int stacked)
{
	if (S.passport)
		draw_passport(t, w, y, x, width, h, S.m, "Passport (seed 000, step 5)");
	else
		draw_slices(t, w, y, x, width, h, stacked);
}

static void draw_form(struct tui *t, WINDOW *w, int y, int x, int width)
{
	const struct mountain_params *p = &S.params;
	char lo[32], hi[32], line[160];
	mt_fmt_size(lo, sizeof lo, p->sizes[0]);
	mt_fmt_size(hi, sizeof hi, p->sizes[p->nsizes - 1]);
	const char *names[NFIELDS] = { "max stride", "smallest size", "largest size",
				       "tries agreeing" };
	char vals[NFIELDS][32];
	mt_snprintf(vals[0], sizeof vals[0], "%u words", p->strides[p->nstrides - 1]);
	mt_snprintf(vals[1], sizeof vals[1], "%s", lo);
	mt_snprintf(vals[2], sizeof vals[2], "%s", hi);
	mt_snprintf(vals[3], sizeof vals[3], "%u fastest", p->kbest);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y++, x, width, "Knobs for the next r (up/down pick, left/right change, Enter done)");
	for (int i = 0; i < NFIELDS; i++) {
		mt_snprintf(line, sizeof line, "%s %-14s %s %-10s %s", i == S.field ? ">" : " ",
			    names[i], tui_glyph(t, GL_LEFT), vals[i], tui_glyph(t, GL_RIGHT));
		wattrset(w, tui_attr(t, i == S.field ? ROLE_CURSOR : ROLE_NORMAL));
		tui_put(t, w, y++, x, width, line);
	}
	wattrset(w, tui_attr(t, ROLE_DIM));
	mt_snprintf(line, sizeof line, "%zu sizes x %zu strides, about %.0f s", p->nsizes,
		    p->nstrides, ceil(mountain_params_estimate_s(p)));
	tui_put(t, w, y, x, width, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

/* The line above the map: whose mountain, or what r will measure. */
static void info_line(struct tui *t, WINDOW *w, int width)
{
	char line[512], lo[32], hi[32];
	const struct mountain_params *p = &S.params;
	if (S.m && S.m->source[0]) {
		/* the machine first, then which file: a long hardware line loses
		 * words, the name stays */
		wattrset(w, tui_attr(t, ROLE_TITLE));
		tui_put_source(t, w, 0, 0, width,
			       S.m->hdr.hardware[0] ? S.m->hdr.hardware : S.m->hdr.cpu, S.m->source);
		wattrset(w, tui_attr(t, ROLE_NORMAL));
		return;
	}
	if (tui_job(t) && S.running)
		mt_snprintf(line, sizeof line, "measuring %s: p pauses, x stops; cells fill in live",
			    S.single ? "one cell again" : S.preview ? "a first look at this machine"
								: "this machine");
	else if (S.m && mountain_measured(S.m) && S.preview)
		mt_snprintf(line, sizeof line,
			    "a first look at %zu cells: r measures the full grid of %zu x %zu, "
			    "about %.0f s",
			    mountain_measured(S.m), p->nsizes, p->nstrides,
			    ceil(mountain_params_estimate_s(p)));
	else if (S.m && mountain_measured(S.m))
		mt_snprintf(line, sizeof line,
			    "this machine, %zu/%zu cells%s; r measures again (about %.0f s), f knobs",
			    mountain_measured(S.m), S.m->nsizes * S.m->nstrides,
			    tui_result_unsaved(t, &tab_mountain) ? ", unsaved (w)" : "",
			    ceil(mountain_params_estimate_s(p)));
	else
		mt_snprintf(line, sizeof line,
			    "r measures %zu sizes %s..%s x %zu strides (fastest try, %u agreeing), "
			    "about %.0f s",
			    p->nsizes, mt_fmt_size(lo, sizeof lo, p->sizes[0]),
			    mt_fmt_size(hi, sizeof hi, p->sizes[p->nsizes - 1]), p->nstrides,
			    p->kbest, ceil(mountain_params_estimate_s(p)));
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, 0, 0, width, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

/* The cursor cell in words, with how far to trust it: the spread of its
 * fastest tries, the L1 canary's state around it (SPEC 2.1), and its median try
 * when that is well below the fastest (a cell with two speeds). */
static void cell_words(char *line, size_t len)
{
	const struct mountain *m = S.m;
	size_t i = S.row * m->nstrides + S.col;
	double v = m->mbs[i], sp = m->spread[i], ca = m->canary[i], ty = m->typical[i];
	char sz[32];
	mt_snprintf(line, len, "%s stride %u: ", mt_fmt_size(sz, sizeof sz, m->sizes[S.row]),
		    m->strides[S.col]);
	if (isnan(v)) {
		mt_append(line, len, "not measured");
		return;
	}
	mt_append(line, len, "%.0f MB/s", v);
	if (!isnan(sp))
		mt_append(line, len, ", tries %.1f%% apart", sp * 100);
	if (!isnan(ca) && ca > 1.15)
		mt_append(line, len, ", core %.2fx slow (canary)", ca);
	else if (!isnan(ca))
		mt_append(line, len, ", core at full speed");
	if (isnan(sp) && isnan(ca))
		mt_append(line, len, "; no spread recorded");
	if (!isnan(ty) && ty < MOUNTAIN_TWO_SPEEDS * v)
		mt_append(line, len, "; median try %.0f MB/s (two speeds)", ty);
}

/* The Latency tab's run when it was measured on the machine of the
 * mountain shown (both here, or both files from one host), else NULL. */
static const struct latency_result *same_machine_latency(const struct tui *t)
{
	const struct latency_result *r = tui_latency(t);
	if (!r || !S.m || (S.m->source[0] != 0) != (r->source[0] != 0) ||
	    (S.m->source[0] && strcmp(S.m->hdr.host, r->hdr.host) != 0))
		return NULL;
	return r;
}

/* The level line: where the Latency tab's run of this machine and the
 * mountain's cliffs disagree, which level is read from the run and why
 * (rowlevels.h, the sentences memtop plot writes under the mountain), into
 * line; 0 when they agree or there is no such run. */
static int level_line(const struct tui *t, char *line, size_t len)
{
	const struct latency_result *r = same_machine_latency(t);
	struct other_levels o;
	struct row_levels rl;
	if (!r)
		return 0;
	plot_latency_levels(r, NULL, 0, &o);
	mt_strlcpy(o.what, "the Latency tab's run", sizeof o.what);
	row_levels_find(S.m, &o, &rl);
	line[0] = '\0';
	for (int i = 0; i < rl.ncaptions; i++)
		mt_append(line, len, "%s%s", i ? "; " : "", rl.caption[i]);
	return rl.ncaptions > 0;
}

/* The L1 hit latency in cycles of the Latency tab's run, when it was
 * measured on the machine of the mountain shown (both here, or both files
 * from one host); 0 otherwise. */
static double l1_latency_cycles(const struct tui *t)
{
	const struct latency_result *r = same_machine_latency(t);
	struct latency_levels lv;
	if (!r)
		return 0;
	latency_detect(r, &lv);
	for (size_t i = 0; i < lv.n; i++)
		if (!lv.lv[i].tlb && lv.lv[i].level == 1)
			return lv.lv[i].cycles;
	return 0;
}

/* The seed's cycles per word where the lesson reads it (src/mountain/
 * cycles.h): the cursor cell, the L1 plateau, the floor; the loads in
 * flight against the Latency tab's L1; where the clock comes from. Each
 * sentence wrapped in width columns from line y, the first ones first, down
 * to line h. Returns the next free line. */
static int draw_reading(struct tui *t, WINDOW *w, int y, int x, int width, int h)
{
	struct detection d;
	struct cpw_points pt;
	struct cpw_clock clk;
	char s[5][800], a[32], b[32], c[32], ph[96];
	double lat, l1c;
	int n = 0;
	if (width < 20)
		return y;
	cpw_clock_of(&S.m->hdr, S.m->source[0] == 0, &clk);
	cliffs_detect(S.m, CLIFFS_RATIO, &d);
	cpw_points_find(S.m, &d, &pt);
	cell_words(s[n], sizeof s[n]);
	if (!isnan(mountain_at(S.m, S.row, S.col)))
		mt_append(s[n], sizeof s[n], "; %s",
			  cpw_phrase(ph, sizeof ph, mountain_at(S.m, S.row, S.col), &clk));
	n++;
	if (level_line(t, s[n], sizeof s[n]))
		n++;
	if (clk.how != CPW_UNKNOWN && (pt.have_l1 || pt.have_floor)) {
		mt_snprintf(s[n], sizeof s[n], "cycles a word%s%s:", clk.how == CPW_BOUND ? " at most" : "",
			    S.running && !S.single ? " so far" : "");
		if (pt.have_l1)
			mt_append(s[n], sizeof s[n], " L1 plateau %s (%.0f MB/s, %s, stride 1)",
				  cpw_fmt(a, sizeof a, cpw_cycles(clk.ghz, pt.l1_mbs)), pt.l1_mbs,
				  mt_fmt_size(b, sizeof b, S.m->sizes[pt.l1_row]));
		if (pt.have_floor)
			mt_append(s[n], sizeof s[n], "%s floor %s (%.0f MB/s, %s, stride %u: %.2f ns a word)",
				  pt.have_l1 ? ";" : "", cpw_fmt(c, sizeof c, cpw_cycles(clk.ghz, pt.floor_mbs)),
				  pt.floor_mbs, mt_fmt_size(b, sizeof b, S.m->sizes[pt.floor_row]),
				  S.m->strides[pt.floor_col], cpw_ns_per_word(pt.floor_mbs));
		n++;
	}
	lat = l1_latency_cycles(t);
	l1c = pt.have_l1 ? cpw_cycles(clk.ghz, pt.l1_mbs) : (double)NAN;
	if (lat > 0 && isfinite(l1c) && clk.how != CPW_BOUND)
		mt_snprintf(s[n++], sizeof s[n], "%.1f loads in flight (L1 hit: %.1f cycles, Latency tab)",
			    cpw_in_flight(lat, l1c), lat);
	if (clk.how != CPW_UNKNOWN || S.m->source[0]) /* here: calibrated when r measures */
		cpw_clock_words(s[n++], sizeof s[0], &clk);
	for (int i = 0; i < n && y < h; i++) {
		/* the first sentences first: each a line at least, the room left
		 * over to the ones before the last that need it */
		int give = h - y - (n - 1 - i);
		wattrset(w, tui_attr(t, i == 0 ? ROLE_DIM : ROLE_NORMAL));
		y += tui_wrap(t, w, y, x, width, give < 1 ? 1 : give, s[i]);
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	return y;
}

/* Nothing to show yet (memtop --idle, or view without a mountain); the
 * book's card when memtop view was given it. */
static void draw_empty(struct tui *t, WINDOW *w, int wd, int h)
{
	wattrset(w, tui_attr(t, ROLE_DIM));
	tui_wrap(t, w, 2, 2, wd - 4, 2,
		 "No mountain yet: r measures this machine, o opens a saved one.");
	if (S.mode == MODE_FORM)
		draw_form(t, w, 4, 2, wd - 2);
	else if (S.card_opened && S.have_card)
		draw_card_file(t, w, 4, 2, wd - 2, h);
}

/* The heatmap (or the ratio map, or both mountains side by side) from line
 * y; leaves S.L laid out. Returns 0, or -1 when not even a cell fits. */
static int draw_maps(struct tui *t, WINDOW *w, int y, int wd, int hm_h, int ratio)
{
	const struct mountain *shown = ratio ? S.ratio : S.m;
	if (S.ref && S.ov == OV_SIDE) {
		struct hm_layout L2;
		int half = wd / 2;
		int ri = mountain_size_index(S.ref, S.m->sizes[S.row]);
		int ci = mountain_stride_index(S.ref, S.m->strides[S.col]);
		size_t r2 = ri >= 0 ? (size_t)ri : 0, c2 = ci >= 0 ? (size_t)ci : 0;
		if (hm_layout(S.m, S.ref, half - 1, hm_h, S.row, S.col, &S.L) < 0)
			return -1;
		draw_heatmap(t, w, S.m, y, 0, &S.L, 1, 0);
		if (hm_layout(S.ref, S.m, wd - half, hm_h, r2, c2, &L2) == 0) {
			char title[300], name[256];
			draw_heatmap(t, w, S.ref, y, half, &L2, 0, 0);
			tui_text(t, name, sizeof name, mt_basename(S.ref->source)); /* file-borne */
			mt_snprintf(title, sizeof title, "beside: %s", name);
			wattrset(w, tui_attr(t, ROLE_DIM));
			tui_put(t, w, y + L2.height, half, wd - half, title);
		}
		return 0;
	}
	/* guess mode keeps 4 columns for the markers at the rows' ends */
	if (hm_layout(shown, NULL, S.mode == MODE_GUESS ? wd - 4 : wd, hm_h, S.row, S.col, &S.L) < 0)
		return -1;
	if (ratio)
		S.L.ratio = 1;
	draw_heatmap(t, w, shown, y, 0, &S.L, 1, ratio);
	return 0;
}

/* Guess mode's verdicts, wrapped, from line y. */
static void draw_guess_result(struct tui *t, WINDOW *w, int y, int wd, int h)
{
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y++, 0, wd, "Your guess against the data:");
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (int i = 0; i < 3 && y < h; i++)
		y += tui_wrap(t, w, y, 2, wd - 4, h - y, S.result[i]);
}

/* Beside or under the heatmap (its legend ends above y): the cursor cell's
 * reading and the slices or the passport (the card memtop view was given in
 * their place), the Haswell card beside the bundled reference, both
 * passports beside another mountain. */
static void draw_under(struct tui *t, WINDOW *w, int y, int h, int wd, int free_w, int ratio)
{
	if (S.ov != OV_SIDE && free_w >= 34) {
		if (y < h && !ratio)
			draw_reading(t, w, y, 0, S.L.width + 5, h);
		if (S.card_opened && S.have_card && !S.ref)
			draw_card_file(t, w, 1, S.L.width + 6, free_w, h);
		else
			draw_lower(t, w, 1, S.L.width + 6, free_w, h - 1, 1);
	} else if (S.ov == OV_SIDE && S.ref && S.ref_bundled && h - y >= 3) {
		/* the bundled reference beside: the book's card under it, the
		 * slices (or this mountain's passport) in the left half */
		draw_book_card(t, w, y, wd / 2, wd - wd / 2, h);
		draw_lower(t, w, y, 0, wd / 2 - 1, h - y, 1);
	} else if (S.passport && S.ov == OV_SIDE && S.ref && h - y >= 3) {
		draw_passport(t, w, y, 0, wd / 2 - 1, h - y, S.m, "Passport of this mountain");
		draw_passport(t, w, y, wd / 2, wd - wd / 2, h - y, S.ref, "Passport of the other");
	} else if (h - y >= 4) {
		if (!ratio) /* the cursor's line, the cycles a word, the clock */
			y = draw_reading(t, w, y, 0, wd, y + 3 < h - 2 ? y + 3 : h - 2);
		draw_lower(t, w, y, 0, wd, h - y, 0);
	} else if (h - y >= 3) {
		draw_lower(t, w, y, 0, wd, h - y, 0);
	}
}

static void draw(struct tui *t, WINDOW *w, int full)
{
	int h, wd, y = 1, hm_h;
	int ratio = S.ov == OV_RATIO && S.ratio;
	(void)full;
	if (S.pending_start != TUI_START_IDLE)
		start_pending(t);
	getmaxyx(w, h, wd);
	werase(w);
	info_line(t, w, wd);
	if (!S.m) {
		draw_empty(t, w, wd, h);
		return;
	}
	hm_h = (int)(ratio ? S.ratio : S.m)->nsizes + 1;
	if (hm_h > h - 3)
		hm_h = h - 3;
	if (draw_maps(t, w, y, wd, hm_h, ratio) < 0)
		return;
	S.hm_y = y;
	S.hm_x = 0;
	y += S.L.height;
	draw_legend(t, w, y, 0,
		    S.ov == OV_SIDE && S.ref		  ? wd / 2
		    : S.card_opened && S.have_card ? S.L.width + 5 /* the card beside */
						     : wd,
		    &S.L, ratio);
	y++;
	if (S.mode == MODE_FORM) {
		/* modal: at the bottom of the area, over whatever is there */
		int fy = h - (NFIELDS + 2) < y ? h - (NFIELDS + 2) : y;
		for (int i = fy; i < h; i++) {
			wmove(w, i, 0);
			wclrtoeol(w);
		}
		draw_form(t, w, fy, 2, wd - 2);
	} else if (S.has_result) {
		draw_guess_result(t, w, y, wd, h);
	} else {
		draw_under(t, w, y, h, wd, wd - S.L.width - 6, ratio);
	}
}

static int on_mouse(struct tui *t, int y, int x)
{
	int r = y - S.hm_y - 1, c = x - S.hm_x - S.L.label_w;
	if (!S.m || S.L.cell_w <= 0 || r < 0 || c < 0 || r >= (int)S.L.nrows ||
	    c / S.L.cell_w >= (int)S.L.ncols)
		return 0;
	S.row = S.L.row0 + (size_t)r;
	S.col = S.L.col0 + (size_t)(c / S.L.cell_w);
	if (S.mode == MODE_GUESS)
		S.marker[S.sel] = (int)S.row;
	tui_dirty(t);
	return 1;
}

/* ---- tab hooks ----------------------------------------------------------- */

static int init(struct tui *t)
{
	memset(&S, 0, sizeof S);
	if (tui_quick(t))
		mountain_params_quick(&S.params);
	else
		mountain_params_default(&S.params);
	if (!tui_view_mode(t)) {
		S.pending_start = tui_autostart(t);
		set_main(t, mountain_new(S.params.sizes, S.params.nsizes, S.params.strides,
					 S.params.nstrides));
		if (!S.m)
			return -1;
		if (tui_info(t))
			S.m->caches = info_to_json(tui_info(t));
	}
	return 0;
}

static void fini(struct tui *t)
{
	tui_set_mountain(t, NULL);
	mountain_free(S.m);
	mountain_free(S.ref);
	mountain_free(S.ratio);
	S.m = S.ref = S.ratio = NULL;
}

/* memtop view FILE: a mountain (the first shown, the second beside it), or
 * the book's summary card (shown beside the mountain). */
static int io_take(struct tui *t, void *self, struct result_file *f, mt_error *e)
{
	struct mountain *m;
	(void)self;
	(void)e;
	if (f->kind == &kind_card) {
		S.card = *(const struct mountain_card *)f->r;
		S.have_card = S.card_opened = 1;
		return 0;
	}
	m = f->r;
	f->r = NULL; /* the tab's now */
	if (!m->source[0])
		mt_strlcpy(m->source, f->path, sizeof m->source);
	if (!S.m) {
		set_main(t, m);
	} else if (!S.ref) {
		set_ref(t, m, f->path);
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
	return S.m ? mountain_measured(S.m) : 0;
}

static const void *io_shown(struct tui *t, void *self)
{
	(void)t;
	(void)self;
	return S.m;
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
	.keys = keys,
	.mouse = on_mouse,
	.job_event = on_job_event,
	.result = &io,
};
