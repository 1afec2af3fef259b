/* tab_latency: tab 2, load latency by pointer chasing (seed 002). The curves
 * on a log size axis (cycles on a log axis), one glyph per stride plus the
 * random chase, filling in live; the plateaus of the curve the levels are
 * read from drawn as horizontal bands; the detected levels and the sysfs
 * sizes marked under the size axis. The measuring is src/latency.c; this
 * file starts the job and draws. */
#include "config.h"

#include "base/i18n.h"
#include "info/info.h"
#include "machine/machine.h"
#include "latency/latency.h"
#include "os/clock.h"
#include "os/sysinfo.h"
#include "tab.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char curve_glyph[] = "abcdefghijkl";

struct latency_tab {
	struct latency_params p;  /* the running (or last) run's */
	struct latency_result *r;
	int huge;          /* for the next run: LATENCY_HUGE_ON or OFF, */
	int both;          /* or the random chase on both (where THP can be asked for) */
	uint64_t max_size; /* 0: the default */
	int cpu_next;      /* the next run's CPU (the Topology tab's L), -1 the default */
	uint64_t t0;
	uint64_t system[4]; /* [1..3]: L1d, L2, L3 by info_best_size, 0 unknown */
	const char *system_from[4]; /* the source each came from ("cpuid") */
	/* the next run as r will start it (latency_params_sized and _settle,
	 * as memtop run latency makes it): planned when 1, its note, the time
	 * priced once with latency_probe (have_probe) while no run was going */
	struct latency_params next;
	int planned, have_probe;
	struct latency_probe probe;
	double page_ns;
	char next_note[400], next_why[200];
	uint64_t next_asked;
	uint64_t next_job;  /* the job's memory limit the next run was sized in, 0 none */
	char cap[160];      /* the run's sizes capped: " (capped at 96M: this job may use 256M)" */
};

/* text with each space a TUI_GLUE, into buf: a legend's entry that never
 * breaks between its glyph and its words ("*" TUI_GLUE "random"). */
static const char *glued(char *buf, size_t len, const char *text)
{
	mt_strlcpy(buf, text, len);
	for (char *c = buf; *c; c++)
		if (*c == ' ')
			*c = TUI_GLUE[0];
	return buf;
}

static int init(struct tui *t, void *self)
{
	struct latency_tab *s = self;
	s->huge = LATENCY_HUGE_OFF;
	s->both = 1;
	s->cpu_next = -1;
	if (tui_info(t))
		for (int l = 1; l <= 3; l++)
			s->system[l] = info_best_size(tui_info(t), l, &s->system_from[l]);
	return 0;
}

static void fini(struct tui *t, void *self)
{
	struct latency_tab *s = self;
	tui_set_latency(t, NULL);
	latency_result_free(s->r);
	s->r = NULL;
}

/* ---- measuring ------------------------------------------------------------ */

/* The next run's parameters into s->next as r starts it: its sizes for the
 * CPU a job is pinned to, the pages asked, the memory there is now, the
 * time priced with this machine's probe (taken once, while no run is
 * going: a run beside it would slow both). Returns 0, or -1 with the
 * reason in s->next_why. */
static int plan_next(struct tui *t, struct latency_tab *s)
{
	struct latency_params *p = &s->next;
	const struct machine *m = tui_machine(t);
	struct machine_budget budget;
	mt_error e = { "" };
	if (s->planned)
		return 0;
	s->next_why[0] = '\0';
	if (latency_params_sized(p, m, s->cpu_next >= 0 ? s->cpu_next : job_pick_cpu(), tui_quick(t),
				 s->max_size, &e) < 0)
		goto bad;
	if (s->max_size) /* the knob's name, not the command line's flag */
		mt_strlcpy(p->want_max, "the largest array asked", sizeof p->want_max);
	p->hugepages = s->huge;
	if (!s->have_probe && !tui_job(t) && !tui_view_mode(t)) {
		s->page_ns = mt_fresh_page_ns();
		if (p->sizes[p->nsizes - 1] > (1u << 20)) /* as latency_params_settle probes */
			latency_probe(p);
		s->probe = p->probe;
		s->have_probe = 1;
	}
	machine_mem_budget(m, &budget);
	s->next_job = budget.job;
	if (latency_params_settle(p, m, s->both ? -1 : 0, tui_quick(t), 0, &budget, s->next_note,
				  sizeof s->next_note, &s->next_asked, &e) < 0)
		goto bad;
	p->probe = s->probe;
	p->page_ns = s->page_ns;
	s->planned = 1;
	return 0;
bad:
	mt_snprintf(s->next_why, sizeof s->next_why, "%s", e.msg);
	return -1;
}

/* What r will measure and how long it will take, the one figure the help
 * and the status line say ("143 sizes 4K..2G, about 19 s"). */
static const char *next_run_text(struct tui *t, struct latency_tab *s, char *buf, size_t len)
{
	char sz[64];
	if (plan_next(t, s) < 0) {
		mt_snprintf(buf, len, _("cannot measure: %s"), s->next_why);
		return buf;
	}
	latency_sizes_text(&s->next, sz, sizeof sz);
	if (s->have_probe)
		mt_hsnprintf(buf, len, _("%s, about %.0f s"), sz,
			     ceil(latency_params_estimate_s(&s->next)));
	else
		mt_snprintf(buf, len, _("%s (its time priced once no run is going)"), sz);
	return buf;
}

static void start_run(struct tui *t, struct latency_tab *s)
{
	struct latency_result *r;
	struct mt_clock clk;
	char say[160], note[800];
	int cpu = s->cpu_next;
	if (!tui_can_measure(t))
		return;
	if (!s->have_probe)
		s->planned = 0; /* priced now that no run is going */
	next_run_text(t, s, say, sizeof say);
	if (!s->planned) {
		tui_message(t, "%s", say);
		return;
	}
	s->p = s->next;
	s->planned = 0; /* the memory there is, again for the next */
	mt_clock_calibrate(&clk, 0);
	r = latency_result_new(&s->p, clk.core_ghz > 0 ? clk.core_ghz : clk.ticks_per_ns);
	if (!r) {
		tui_message(t, "%s", _("out of memory"));
		return;
	}
	s->cap[0] = '\0';
	if (s->p.sizes[s->p.nsizes - 1] < s->next_asked) { /* memory capped it */
		char a[32], j[32];
		r->capped_from = s->next_asked;
		mt_fmt_size(a, sizeof a, s->p.sizes[s->p.nsizes - 1]);
		if (s->next_job)
			mt_snprintf(s->cap, sizeof s->cap, _(" (capped at %s: this job may use %s)"), a,
				    mt_fmt_size(j, sizeof j, s->next_job));
		else
			mt_snprintf(s->cap, sizeof s->cap, _(" (capped at %s: the memory available)"),
				    a);
	}
	if (tui_info(t))
		r->caches = info_to_json(tui_info(t));
	if (tui_job_launch_on(t, &tab_latency, latency_worker, &s->p, &r->hdr, s->cpu_next) < 0) {
		latency_result_free(r);
		return;
	}
	s->cpu_next = -1;
	latency_result_free(s->r);
	s->r = r;
	tui_set_latency(t, s->r);
	tui_result_changed(t, &tab_latency, 1);
	s->t0 = mt_now_ns();
	tui_set_diag(t, &s->r->hdr.diag);
	latency_text(note, sizeof note, s->next_note);
	if (cpu >= 0 && note[0])
		tui_message(t, _("measuring on CPU %d: %s; %s"), cpu, say, note);
	else if (cpu >= 0)
		tui_message(t, _("measuring on CPU %d: %s"), cpu, say);
	else if (note[0])
		tui_message(t, _("measuring %s; %s"), say, note);
	else
		tui_message(t, _("measuring %s"), say);
	tui_dirty(t);
}

static void levels_summary(struct latency_tab *s, char *buf, size_t len)
{
	struct latency_levels lv;
	char a[32];
	buf[0] = '\0';
	if (!s->r)
		return;
	latency_detect(s->r, &lv);
	for (size_t i = 0; i < lv.n; i++) {
		const struct latency_level *l = &lv.lv[i];
		size_t used;
		if (buf[0])
			mt_append(buf, len, " | ");
		used = strlen(buf);
		mt_fmt_size(a, sizeof a, l->size);
		/* TRANSLATORS: a level of the latency curve: "c" cycles (a
		 * fraction: the genitive singular), "ns" nanoseconds */
		if (l->tlb && l->cycles > 0)
			mt_hsnprintf(buf + used, len - used, _("TLB %s +%.1fc"), a, l->cycles);
		else if (l->tlb)
			mt_hsnprintf(buf + used, len - used, _("TLB %s +%.1fns"), a, l->ns);
		else if (l->cycles > 0)
			mt_hsnprintf(buf + used, len - used, _("L%d %s %.1fc %.2fns"), l->level, a,
				     l->cycles, l->ns);
		else /* no clock (an imported table): ns only */
			mt_hsnprintf(buf + used, len - used, _("L%d %s %.2fns"), l->level, a, l->ns);
	}
	if (lv.has_memory) {
		size_t used;
		if (buf[0])
			mt_append(buf, len, " | ");
		used = strlen(buf);
		mt_hsnprintf(buf + used, len - used, _("mem %.0fns"), lv.memory_ns);
	}
}

static void on_job_event(struct tui *t, void *self, const struct job_event *ev)
{
	struct latency_tab *s = self;
	char sum[256];
	if (ev->type == JOB_EV_CELL || ev->type == JOB_EV_NOTE) {
		if (s->r && latency_apply(s->r, ev) == 0 && ev->type == JOB_EV_CELL)
			tui_result_changed(t, &tab_latency, 1);
		tui_dirty(t);
		return;
	}
	if (!job_event_is_last(ev))
		return;
	/* the last event: the frame has ended the job, completed the header and
	 * shown its diagnostics */
	if (s->r)
		s->r->elapsed_s = (double)(mt_now_ns() - s->t0) / 1e9;
	levels_summary(s, sum, sizeof sum);
	if (ev->type == JOB_EV_FAILED)
		tui_message(t, _("the measurement failed: %s"), ev->text);
	else if (ev->type == JOB_EV_CANCELLED)
		tui_message(t,
			    MT_NGETTEXT("stopped: %zu point measured (w saves them)",
					"stopped: %zu points measured (w saves them)",
					s->r ? latency_measured(s->r) : 0),
			    s->r ? latency_measured(s->r) : 0);
	else {
		char done[512];
		mt_hsnprintf(done, sizeof done, _("done in %.0f s%s: %s"),
			     s->r ? s->r->elapsed_s : 0.0, s->cap, sum);
		tui_message(t, "%s", done);
	}
	tui_dirty(t);
}

/* ---- keys ------------------------------------------------------------------- */

static int act_run(struct tui *t, void *self, int key)
{
	struct latency_tab *s = self;
	if (tui_discard_first(t, &tab_latency, self,
			      _("Discard the unsaved latency curves and measure again?"), act_run, key))
		return 1;
	start_run(t, s);
	return 1;
}

/* The Topology tab's L: the latency measured on the part's first CPU. */
static int measure(struct tui *t, void *self, const struct tab_part *part)
{
	struct latency_tab *s = self;
	if (part->ncpus < 1) {
		tui_message(t, _("%s has no CPU this process may use"), part->what);
		return 0;
	}
	s->cpu_next = part->cpus[0];
	s->planned = 0; /* sized for that CPU's caches */
	act_run(t, s, 'L');
	return 1;
}

/* The next run's pages, as said. */
static const char *pages_mode(const struct latency_tab *s)
{
	return s->both ? _("4K pages, and huge pages for a second random chase")
	       : s->huge == LATENCY_HUGE_ON ? _("huge pages on")
					 : _("huge pages off");
}

static int act_huge(struct tui *t, void *self, int key)
{
	struct latency_tab *s = self;
	(void)key;
	/* both -> off -> on -> both */
	if (s->both) {
		s->both = 0;
		s->huge = LATENCY_HUGE_OFF;
	} else if (s->huge == LATENCY_HUGE_OFF) {
		s->huge = LATENCY_HUGE_ON;
	} else {
		s->both = 1;
		s->huge = LATENCY_HUGE_OFF;
	}
	s->planned = 0;
	tui_message(t, _("next run: %s"), pages_mode(s));
	tui_dirty(t);
	return 1;
}

/* The largest size r measures to when m is left empty ("2G"), as
 * latency_params_sized makes it for this machine. */
static const char *default_max(struct tui *t, char *buf, size_t len)
{
	struct latency_params p;
	mt_error e;
	if (latency_params_sized(&p, tui_machine(t), job_pick_cpu(), tui_quick(t), 0, &e) < 0)
		return mt_fmt_size(buf, len, LATENCY_DEFAULT_MAX);
	return mt_fmt_size(buf, len, p.sizes[p.nsizes - 1]);
}

static void max_answer(struct tui *t, void *self, const char *answer)
{
	struct latency_tab *s = self;
	char why[160], kept[48], lo[16], hi[16], def[16];
	uint64_t v;
	if (!answer)
		return;
	if (!answer[0]) {
		s->max_size = 0;
	} else if (mt_parse_size(answer, &v) < 0 || v < LATENCY_MIN_SIZE || v > LATENCY_MAX_MAX) {
		mt_snprintf(why, sizeof why, _("largest array: %s..%s, not '%.30s'"),
			    mt_fmt_size(lo, sizeof lo, LATENCY_MIN_SIZE),
			    mt_fmt_size(hi, sizeof hi, LATENCY_MAX_MAX), answer);
		if (s->max_size)
			mt_fmt_size(kept, sizeof kept, s->max_size);
		else
			mt_snprintf(kept, sizeof kept, _("the default %s"),
				    default_max(t, def, sizeof def));
		tui_knob_refused(t, why, kept);
		return;
	} else {
		s->max_size = v;
	}
	s->planned = 0;
	tui_dirty(t);
}

static int act_max(struct tui *t, void *self, int key)
{
	struct latency_tab *s = self;
	char cur[32] = "", q[256], lo[16], hi[16], def[16];
	(void)key;
	if (s->max_size)
		mt_fmt_size(cur, sizeof cur, s->max_size);
	mt_snprintf(q, sizeof q, _("Largest array, %s..%s (Enter alone: the default %s): "),
		    mt_fmt_size(lo, sizeof lo, LATENCY_MIN_SIZE),
		    mt_fmt_size(hi, sizeof hi, LATENCY_MAX_MAX), default_max(t, def, sizeof def));
	tui_prompt(t, s, q, cur, max_answer);
	return 1;
}

/* The help's row of r: what the next run measures and its time, the figure
 * the status line then says. */
static const char *say_run(struct tui *t, void *self, char *buf, size_t len)
{
	char next[256];
	mt_snprintf(buf, len, _("measure the latency curves: %s"),
		    next_run_text(t, self, next, sizeof next));
	return buf;
}

static const struct keybinding keys[] = {
	{ 'r', "r", N_("measure the latency curves"), act_run, .say = say_run },
	{ 'H', "H", N_("pages for the next run: both, 4K only, huge only"), act_huge },
	{ 'm', "m", N_("type the largest array for the next run"), act_max },
	TUI_KEY_SAVE("latency"),
	{ 0, NULL, NULL, NULL },
};

/* ---- drawing ---------------------------------------------------------------- */

struct axes {
	int top, left, ph, pw;
	double lx0, lx1, ly0, ly1; /* logs of the size and cycle ranges */
};

static int xcol(const struct axes *a, double size)
{
	double f = (log(size) - a->lx0) / (a->lx1 - a->lx0);
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return a->left + (int)lround(f * (a->pw - 1));
}

static int yrow(const struct axes *a, double cyc)
{
	double f = (log(cyc) - a->ly0) / (a->ly1 - a->ly0);
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return a->top + (a->ph - 1) - (int)lround(f * (a->ph - 1));
}

static void put(WINDOW *w, int y, int x, int wd, const char *s)
{
	if (x >= 0 && x < wd - 1)
		mvwaddnstr(w, y, x, s, wd - 1 - x);
}

/* Curves of r: the strides, the random chase, the random chase on the
 * other page size. */
static int ncurves(const struct latency_result *r)
{
	return (int)latency_ncurves(r);
}

/* Curve k (as ncurves counts) as drawn: cycles, or ns when the clock is
 * unknown (a table imported from another tool). */
static const double *drawn(const struct latency_result *r, int k)
{
	if (k < (int)r->nstrides)
		return r->ghz > 0 ? r->cycles[k] : r->ns[k];
	if (k > (int)r->nstrides)
		return r->ghz > 0 ? r->other_cycles : r->other_ns;
	return r->ghz > 0 ? r->random_cycles : r->random_ns;
}

/* A label at column x of line y: right of x when it fits before the edge,
 * else ending at x; left out when neither fits. */
static void put_label(WINDOW *w, int y, int x, int wd, const char *s)
{
	int n = mt_text_cols(s);
	if (x + n < wd - 1)
		put(w, y, x, wd, s);
	else if (x - n >= 0)
		put(w, y, x - n, wd, s);
}

/* No run yet: what r measures and why two kinds of chase. */
static void draw_intro(struct tui *t, struct latency_tab *s, WINDOW *w, int wd)
{
	char line[512], hi[16];
	int y;
	if (tui_view_mode(t)) /* nothing to measure here: say what opens */
		mt_snprintf(line, sizeof line, "%s",
			    _("Latency by pointer chasing: no latency file opened "
			      "(memtop view FILE.json; memtop run latency --json FILE saves one)."));
	else
		mt_snprintf(line, sizeof line, _("Latency by pointer chasing: no run yet. r measures "
						 "4K..%s (%s; H changes them, m the largest array)."),
			    s->max_size ? mt_fmt_size(hi, sizeof hi, s->max_size)
					: default_max(t, hi, sizeof hi),
			    pages_mode(s));
	wattrset(w, tui_attr(t, ROLE_TITLE));
	y = tui_wrap(t, w, 0, 1, wd - 2, 3, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	tui_wrap(t, w, y + 1, 1, wd - 2, 4,
		 _("Fixed strides 128..4096 B (lat_mem_rd) and one random cycle (multichase): the "
		   "prefetchers follow a fixed stride, so the random chase shows the levels they "
		   "hide."));
}

/* The title (what was measured, from where) and the levels, each in whole
 * words on one or two lines. Returns the lines used. */
static int draw_title(struct tui *t, struct latency_tab *s, WINDOW *w, int wd,
		       const struct latency_result *r)
{
	char line[512], lo[32], hi[32];
	int y;
	mt_snprintf(line, sizeof line, MT_NGETTEXT("%zu size %s..%s, ", "%zu sizes %s..%s, ", r->nsizes),
		    r->nsizes, mt_fmt_size(lo, sizeof lo, r->sizes[0]),
		    mt_fmt_size(hi, sizeof hi, r->sizes[r->nsizes - 1]));
	if (r->nstrides && r->has_random)
		mt_append(line, sizeof line,
			  MT_NGETTEXT("%zu stride + random", "%zu strides + random", r->nstrides),
			  r->nstrides);
	else if (r->nstrides)
		mt_append(line, sizeof line, MT_NGETTEXT("%zu stride", "%zu strides", r->nstrides),
			  r->nstrides);
	else
		mt_append(line, sizeof line, "%s", r->has_random ? _("random chase") : _("no curve"));
	if (r->hugepages != LATENCY_HUGE_UNKNOWN)
		mt_append(line, sizeof line, "%s",
			  r->hugepages == LATENCY_HUGE_ON ? _(", huge pages") : _(", 4K pages"));
	if (r->has_random && r->has_other)
		mt_append(line, sizeof line, "%s",
			  r->other_hugepages == LATENCY_HUGE_ON ? _(" + random on huge pages")
								: _(" + random on 4K pages"));
	mt_append(line, sizeof line,
		  MT_NGETTEXT(": %zu/%zu point", ": %zu/%zu points", r->nsizes * (size_t)ncurves(r)),
		  latency_measured(r), r->nsizes * (size_t)ncurves(r));
	if (latency_doubtful(r))
		mt_append(line, sizeof line, _(", %zu not trusted (~)"), latency_doubtful(r));
	if (tui_result_unsaved(t, &tab_latency))
		mt_append(line, sizeof line, "%s", _(", unsaved (w)"));
	if (r->source[0]) {
		mt_append(line, sizeof line, " (%s)", mt_basename(r->source));
	}
	wattrset(w, tui_attr(t, ROLE_TITLE));
	y = tui_wrap(t, w, 0, 1, wd - 2, 2, line);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	levels_summary(s, line, sizeof line);
	return y + tui_wrap(t, w, y, 1, wd - 2, 2, line[0] ? line : _("levels: not enough points yet"));
}

/* The plot's box between the top lines and, under its size axis, the
 * found and source lines and bottom lines of legend, and its log scales
 * over the measured points; 0, or -1 when the area is too small for a
 * plot. */
static int set_axes(const struct latency_result *r, int h, int wd, int top, int bottom,
		    struct axes *a)
{
	double lo = INFINITY, hi = 0;
	if (h < 10 || wd < 30)
		return -1;
	for (int k = 0; k < ncurves(r); k++) {
		const double *v = drawn(r, k);
		for (size_t i = 0; i < r->nsizes; i++)
			if (isfinite(v[i]) && v[i] > 0) {
				lo = v[i] < lo ? v[i] : lo;
				hi = v[i] > hi ? v[i] : hi;
			}
	}
	a->top = top;
	a->left = 8;
	a->ph = h - top - 3 - bottom;
	a->pw = wd - a->left - 1;
	a->lx0 = log((double)r->sizes[0]);
	a->lx1 = log((double)r->sizes[r->nsizes - 1]);
	if (a->lx1 <= a->lx0)
		a->lx1 = a->lx0 + 1;
	if (!(hi > 0)) {
		lo = 1;
		hi = 10;
	}
	a->ly0 = log(lo * 0.9);
	a->ly1 = log(hi * 1.1);
	if (a->ly1 - a->ly0 < 0.5)
		a->ly1 = a->ly0 + 0.5;
	return 0;
}

/* Cycle labels on the left (ns without a clock), and the plateaus of the
 * curve the levels are read from as horizontal bands. */
static void draw_scale_and_bands(struct tui *t, WINDOW *w, int wd, const struct axes *a,
				 const struct latency_result *r)
{
	/* the curve the levels are read from: on huge pages when both are */
	const double *ref = drawn(r, !r->has_random ? 0
				     : r->has_other && r->other_hugepages == LATENCY_HUGE_ON
					     ? (int)r->nstrides + 1
					     : (int)r->nstrides);
	struct latency_plateau p[LATENCY_MAX_SIZES];
	size_t np;
	char buf[32];
	wattrset(w, tui_attr(t, ROLE_DIM));
	for (int q = 0; q <= 2; q++) {
		int y = a->top + (a->ph - 1) * q / 2;
		double v = exp(a->ly1 - (a->ly1 - a->ly0) * q / 2.0);
		/* TRANSLATORS: the latency plot's axis labels, 7 columns at most:
		 * cycles ("c"), nanoseconds ("ns") */
		mt_hsnprintf(buf, sizeof buf, r->ghz > 0 ? _("%6.0fc") : _("%5.0fns"), v);
		put(w, y, 0, wd, buf);
	}
	np = (r->has_random || r->nstrides)
		     ? latency_segment(r->sizes, ref, r->nsizes, p, LATENCY_MAX_SIZES)
		     : 0;
	for (size_t j = 0; j < np; j++) {
		int y = yrow(a, p[j].level);
		int x0 = xcol(a, (double)r->sizes[p[j].i0]);
		int x1 = xcol(a, (double)r->sizes[p[j].i1]);
		for (int x = x0; x <= x1; x++)
			put(w, y, x, wd, tui_glyph(t, GL_HLINE));
	}
}

/* The curves: one glyph each, the random chase last (on top). */
static void draw_curves(struct tui *t, WINDOW *w, int wd, const struct axes *a,
			const struct latency_result *r)
{
	int nc = ncurves(r);
	for (int k = 0; k < nc; k++) {
		const double *v = drawn(r, k);
		char g[2] = { k < (int)r->nstrides	? curve_glyph[k % 12]
			      : k == (int)r->nstrides ? '*'
						      : '+',
			      '\0' };
		double frac = nc > 1 ? (double)k / (nc - 1) : 1.0;
		for (size_t i = 0; i < r->nsizes; i++) {
			int bad = latency_point_doubtful(r, (size_t)k, i); /* ~: tries disagree */
			if (!isfinite(v[i]) || v[i] <= 0)
				continue;
			wattrset(w, bad ? tui_attr(t, ROLE_WARN)
					: tui_heat_attr(t, frac) |
						  (k >= (int)r->nstrides && r->has_random ? A_BOLD : 0));
			put(w, yrow(a, v[i]), xcol(a, (double)r->sizes[i]), wd, bad ? "~" : g);
		}
	}
}

/* The size axis with ticks every 16x, the levels found and the system's
 * sizes marked under it. */
static void draw_size_axis(struct tui *t, struct latency_tab *s, WINDOW *w, int wd,
			   const struct axes *a,
			   const struct latency_result *r)
{
	struct latency_levels lv;
	char buf[32], sz[16];
	int y = a->top + a->ph;
	wattrset(w, tui_attr(t, ROLE_DIM));
	for (int x = a->left; x < a->left + a->pw; x++)
		put(w, y, x, wd, tui_glyph(t, GL_HLINE));
	for (uint64_t bytes = 4096; bytes <= r->sizes[r->nsizes - 1]; bytes *= 16)
		if (bytes >= r->sizes[0])
			put_label(w, y, xcol(a, (double)bytes), wd, mt_fmt_size(buf, sizeof buf, bytes));
	latency_detect(r, &lv);
	wattrset(w, tui_attr(t, ROLE_GOOD));
	/* TRANSLATORS: the row of the levels found under the size axis, 7
	 * columns at most */
	put(w, y + 1, 0, wd, _("found"));
	for (size_t i = 0; i < lv.n; i++) {
		int x = xcol(a, (double)lv.lv[i].size);
		put(w, y + 1, x, wd, tui_glyph(t, GL_MARK));
		mt_snprintf(buf, sizeof buf, "%s%d", lv.lv[i].tlb ? "T" : "L", lv.lv[i].level);
		put_label(w, y + 1, x + 1, wd, buf);
	}
	wattrset(w, tui_attr(t, ROLE_WARN));
	if (r->source[0]) { /* a file: whose curve, instead of this machine's sizes */
		wattrset(w, tui_attr(t, ROLE_DIM));
		tui_put_source(t, w, y + 2, 0, wd - 1, r->hdr.hardware, r->source);
		return;
	}
	/* the row is named for the source the sizes came from (memtop info's
	 * most trusted: info_best_size); a level from another says its own */
	const char *row = NULL;
	for (int l = 1; l <= 3; l++) {
		int x;
		if (!s->system[l] || (double)s->system[l] > exp(a->lx1) * 1.001)
			continue;
		if (!row) {
			row = s->system_from[l] ? s->system_from[l] : "info";
			put(w, y + 2, 0, wd, row);
		}
		x = xcol(a, (double)s->system[l]);
		put(w, y + 2, x, wd, tui_glyph(t, GL_VLINE));
		mt_snprintf(buf, sizeof buf, "L%d %s", l, mt_fmt_size(sz, sizeof sz, s->system[l]));
		if (tui_info(t) && s->system_from[l] &&
		    info_doubt_of(tui_info(t), s->system_from[l], l, l > 1 ? "unified" : "data"))
			mt_append(buf, sizeof buf, "?"); /* as memtop info marks it */
		if (s->system_from[l] && strcmp(s->system_from[l], row) != 0)
			mt_append(buf, sizeof buf, " %s", s->system_from[l]);
		put_label(w, y + 2, x + 1, wd, buf);
	}
}

static void draw(struct tui *t, void *self, WINDOW *w, int full)
{
	struct latency_tab *s = self;
	const struct latency_result *r = s->r;
	struct axes a;
	int h, wd, top, nleg;
	char line[512], g[96], f[96];
	(void)full;
	getmaxyx(w, h, wd);
	werase(w);
	if (!r) {
		draw_intro(t, s, w, wd);
		return;
	}
	/* the legend, each glyph held to its curve's name (TUI_GLUE) */
	line[0] = '\0';
	for (int k = 0; k < (int)r->nstrides; k++)
		mt_append(line, sizeof line, "%c" TUI_GLUE "%u  ", curve_glyph[k % 12], r->strides[k]);
	if (r->has_random)
		mt_append(line, sizeof line, "*" TUI_GLUE "%s  ",
			  glued(g, sizeof g, C_("tab", "random")));
	if (r->has_random && r->has_other)
		mt_append(line, sizeof line, "+" TUI_GLUE "%s  ",
			  glued(g, sizeof g, r->other_hugepages == LATENCY_HUGE_ON
						     ? _("random, huge pages")
						     : _("random, 4K pages")));
	if (latency_doubtful(r)) {
		mt_hsnprintf(f, sizeof f, _("tries over %.0f %% apart"),
			     LATENCY_DOUBTFUL_SPREAD * 100);
		mt_append(line, sizeof line, "~" TUI_GLUE "%s  ", glued(g, sizeof g, f));
	}
	mt_append(line, sizeof line, "%s",
		  r->ghz > 0 ? _("(cycles up, size across, log-log; bands: plateaus)")
			     : _("(ns up, size across, log-log; bands: plateaus)"));
	nleg = tui_text_height(line, wd - 2) > 1 ? 2 : 1;
	top = draw_title(t, s, w, wd, r);
	if (set_axes(r, h, wd, top, nleg, &a) < 0)
		return;
	draw_scale_and_bands(t, w, wd, &a, r);
	draw_curves(t, w, wd, &a, r);
	draw_size_axis(t, s, w, wd, &a, r);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	tui_wrap(t, w, h - nleg, 1, wd - 2, nleg, line);
}

/* ---- files -------------------------------------------------------------- */

static struct tab_result_now io_now(void *self)
{
	struct latency_tab *s = self;
	return (struct tab_result_now){ .shown = s->r,
					 .measured = s->r ? latency_measured(s->r) : 0 };
}

/* An opened latency run: the tab keeps it (and the side panel reads it). */
static int io_take(struct tui *t, void *self, struct result_file *f, mt_error *e)
{
	struct latency_tab *s = self;
	(void)e;
	latency_result_free(s->r);
	s->r = f->r;
	f->r = NULL;
	tui_set_latency(t, s->r);
	return 0;
}

static const struct tab_result_io io = {
	.kind = &kind_latency,
	.busy = N_("a latency run"),
	.now = io_now,
	.take = io_take,
};

const struct tab tab_latency = {
	.name = N_("Latency"),
	.key = '2',
	.fini = fini,
	.measure = measure,
	TAB_PARTS(latency),
};
