/* tab_numa: tab 9, memory by node (Intel MLC's matrices). The nodes as
 * hwloc sees them (tiers, memory-only nodes, their CPUs, the SLIT's row of
 * each), then the idle
 * latency on 4 KB and on 2 MB pages and the read and triad GB/s as node x
 * node tables, CPU nodes down and memory nodes across, filling in live,
 * with the share of each pair's pages found on its memory node. The
 * measuring is src/numa/; the plan is the machine's (tui_machine), as
 * `memtop run numa` makes it. */
#include "config.h"

#include "numa/numa.h"
#include "model.h"
#include "tab.h"

#include <math.h>
#include <string.h>

struct numa_tab {
	struct numa_params p;  /* outlives the job */
	int planned;           /* p holds a plan (else plan_why says why not) */
	int small_pages;       /* g: the chase on 4 KB pages alone (not on 2 MB too) */
	int all_mixes;         /* M: every traffic mix measured (else reads and triad) */
	int loaded;            /* l: the loaded-latency curves measured too */
	int mix_shown;         /* m: the mix whose bandwidth matrix is drawn (NUMA_MIX_*) */
	int curves_view;       /* v: the curves drawn instead of the matrices */
	int only_node;         /* the Topology tab's N: this node alone (by number), -1 all */
	char plan_why[200];
	char loaded_why[200];  /* why no curve can be measured here ("" they can) */
	struct numa_result r;  /* measured here, or opened (memtop view) */
	struct numa_probe probe; /* the price's inputs, timed as r starts (p.probe) */
};

/* The plan for this machine, as `memtop run numa` makes it. */
static void plan(struct tui *t, struct numa_tab *s)
{
	static struct numa_node all[NUMA_MAX_NODES * 4]; /* the UI thread's alone */
	const struct machine *m = tui_machine(t);
	size_t n = numa_nodes_of(m, -1, all, MT_ARRAY_LEN(all));
	struct machine_budget b;
	mt_error e = { "" };
	int one = s->only_node;
	machine_mem_budget(m, &b);
	s->planned = numa_plan(&s->p, all, n, one >= 0 ? &one : NULL, one >= 0, &b, tui_quick(t),
			       &e) == 0;
	s->p.m = m;
	numa_plan_distances(&s->p, m);
	s->p.huge = !s->small_pages &&
		    (strcmp(m->pages.thp, "always") == 0 || strcmp(m->pages.thp, "madvise") == 0);
	mt_strlcpy(s->plan_why, s->planned ? "" : e.msg, sizeof s->plan_why);
	s->p.mixes = s->all_mixes ? NUMA_MIXES_ALL : NUMA_MIXES_DEFAULT;
	s->loaded_why[0] = '\0';
	if (s->planned &&
	    numa_plan_loaded(&s->p, (const int (*)[NUMA_MAX_NODES])s->p.dist, NULL, 0, &e) < 0) {
		mt_strlcpy(s->loaded_why, e.msg, sizeof s->loaded_why);
		s->p.nloaded = 0;
	}
	if (!s->loaded)
		s->p.nloaded = 0;
	if (s->planned)
		numa_params_runs(&s->p);
	if (!tui_running(t, &tab_numa))
		numa_result_init(&s->r, &s->p);
}

static int init(struct tui *t, void *self)
{
	((struct numa_tab *)self)->only_node = -1;
	plan(t, self);
	return 0;
}

static void fini(struct tui *t, void *self)
{
	struct numa_tab *s = self;
	(void)t;
	numa_mem_close(s->p.mem);
	s->p.mem = NULL;
}

static void on_job_event(struct tui *t, void *self, const struct job_event *ev)
{
	struct numa_tab *s = self;
	if (ev->type == JOB_EV_NOTE && ev->subtype == NUMA_NOTE_REVISED) {
		tui_message(t, "%s", ev->text); /* the time said again: the ETA's figure */
		return;
	}
	if (ev->type == JOB_EV_CELL || ev->type == JOB_EV_NOTE) {
		if (numa_result_apply(&s->r, ev) >= 0)
			tui_result_changed(t, &tab_numa, 1);
		tui_dirty(t);
		return;
	}
	if (ev->type == JOB_EV_UPDATE)
		return;
	numa_mem_close(s->p.mem);
	s->p.mem = NULL;
	if (tui_job_ended(t, ev, N_("numa")))
		tui_message(t, MT_NGETTEXT("done: %zu node pair measured", "done: %zu node pairs measured",
					   s->p.ncells),
			    s->p.ncells);
	tui_dirty(t);
}

static int act_start(struct tui *t, void *self, int key)
{
	struct numa_tab *s = self;
	mt_error e = { "" };
	if (!tui_can_measure(t))
		return 1;
	if (tui_discard_first(t, &tab_numa, self,
			      _("Discard the unsaved NUMA matrices and measure again?"), act_start, key))
		return 1;
	if (key != 'N') /* r: every node again */
		s->only_node = -1;
	plan(t, s);
	if (!s->planned) {
		tui_message(t, _("cannot measure: %s"), s->plan_why);
		return 1;
	}
	if (!(s->p.mem = numa_mem_open(&e))) {
		tui_message(t, _("cannot measure: %s"), e.msg);
		return 1;
	}
	numa_probe(&s->p, &s->probe); /* priced as memtop run numa prices it */
	s->p.probe = &s->probe;
	numa_result_init(&s->r, &s->p);
	tui_result_changed(t, &tab_numa, 1);
	if (tui_job_launch(t, &tab_numa, numa_worker, &s->p, &s->r.hdr) < 0) {
		numa_mem_close(s->p.mem);
		s->p.mem = NULL;
		return 1;
	}
	tui_message(t, _("measuring: about %.0f s"), ceil(numa_estimate_s(&s->p, s->p.probe)));
	tui_dirty(t);
	return 1;
}

/* The Topology tab's N: the part's node alone, its CPUs on its memory. */
static int measure(struct tui *t, void *self, const struct tab_part *part)
{
	struct numa_tab *s = self;
	if (part->node < 0) {
		tui_message(t, _("%s is in no NUMA node"), part->what);
		return 0;
	}
	s->only_node = part->node;
	act_start(t, s, 'N');
	return 1;
}

/* g: the idle latency on 2 MB pages too (as MLC), or on 4 KB pages alone. */
static int act_pages(struct tui *t, void *self, int key)
{
	struct numa_tab *s = self;
	(void)key;
	if (tui_running(t, &tab_numa)) {
		tui_message(t, "%s", _("stop the run first (x)"));
		return 1;
	}
	s->small_pages = !s->small_pages;
	plan(t, s);
	tui_message(t, "%s",
		    s->small_pages ? _("the chase on 4 KB pages alone")
		    : s->p.huge	   ? _("the chase on 4 KB pages, then on 2 MB pages (as MLC)")
				   : _("no 2 MB pages here (THP is off): 4 KB pages alone"));
	tui_dirty(t);
	return 1;
}

/* The running tab refuses a change of plan. Returns 1 when it runs (said). */
static int busy(struct tui *t)
{
	if (!tui_running(t, &tab_numa))
		return 0;
	tui_message(t, "%s", _("stop the run first (x)"));
	return 1;
}

/* m: the next mix's bandwidth matrix. */
static int act_mix(struct tui *t, void *self, int key)
{
	struct numa_tab *s = self;
	(void)key;
	s->mix_shown = (s->mix_shown + 1) % NUMA_NMIX;
	s->curves_view = 0;
	if ((s->r.mixes >> s->mix_shown) & 1)
		tui_message(t, _("the bandwidth matrix shown: %s"), numa_mix_name(s->mix_shown));
	else
		tui_message(t, _("the bandwidth matrix shown: %s (not measured: M measures every mix)"),
			    numa_mix_name(s->mix_shown));
	tui_dirty(t);
	return 1;
}

/* M: every traffic mix measured, or reads and triad. */
static int act_mixes(struct tui *t, void *self, int key)
{
	struct numa_tab *s = self;
	char names[64];
	(void)key;
	if (busy(t))
		return 1;
	s->all_mixes = !s->all_mixes;
	plan(t, s);
	tui_message(t, _("r measures the bandwidth of %s"),
		    numa_mixes_text(s->p.mixes, names, sizeof names));
	tui_dirty(t);
	return 1;
}

/* l: the loaded-latency curves measured too, or not. */
static int act_loaded(struct tui *t, void *self, int key)
{
	struct numa_tab *s = self;
	(void)key;
	if (busy(t))
		return 1;
	s->loaded = !s->loaded;
	plan(t, s);
	if (s->loaded && s->loaded_why[0]) {
		s->loaded = 0;
		tui_message(t, _("no curve here: %s"), s->loaded_why);
	} else {
		tui_message(t, "%s",
			    s->loaded ? _("r measures the loaded-latency curves too (v shows them)")
				      : _("r measures the matrices alone"));
		s->curves_view = s->loaded;
	}
	tui_dirty(t);
	return 1;
}

/* v: the curves or the matrices. */
static int act_view(struct tui *t, void *self, int key)
{
	struct numa_tab *s = self;
	(void)key;
	s->curves_view = !s->curves_view;
	tui_dirty(t);
	return 1;
}

/* ---- files: the frame opens and saves them through .result ---------- */

static const struct tab_result_io io = {
	.kind = &kind_numa,
	.busy = N_("a numa run"),
	.result_at = offsetof(struct numa_tab, r),
	.result_size = sizeof(struct numa_result),
};

static const struct keybinding keys[] = {
	{ 'r', "r", N_("measure every CPU node x memory node: latency and the bandwidth of each mix"),
	  act_start },
	{ 'g', "g", N_("the idle latency on 2 MB pages too, or on 4 KB pages alone"), act_pages },
	{ 'm', "m", N_("the next traffic mix's bandwidth matrix: reads, 3:1, 2:1, 1:1, triad"), act_mix },
	{ 'M', "M", N_("measure every traffic mix, or reads and triad alone"), act_mixes },
	{ 'l', "l", N_("measure the loaded-latency curves too (the local pair and the farthest)"),
	  act_loaded },
	{ 'v', "v", N_("show the loaded-latency curves or the matrices"), act_view },
	TUI_KEY_SAVE("numa"),
	{ 0, NULL, NULL, NULL },
};

/* ---- drawing ----------------------------------------------------------- */

/* The nodes of the plan, one a line: tier, CPUs, memory. Returns the next
 * line. */
static int draw_nodes(struct tui *t, const struct numa_tab *s, WINDOW *w, int y, int h, int wd)
{
	char line[256], a[32];
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (size_t i = 0; i < s->p.nnodes && y < h; i++) {
		const struct numa_node *n = &s->p.nodes[i];
		char cpus[96];
		numa_cpus_text(n->cpus, n->ncpus, cpus, sizeof cpus);
		char mem[64];
		mt_snprintf(mem, sizeof mem, "%s%s%s", n->tier, n->tier[0] ? ", " : "",
			    mt_hfmt_mem(a, sizeof a, n->memory));
		if (n->ncpus)
			mt_snprintf(line, sizeof line, _("node %d: %s, CPUs %s"), n->node, mem, cpus);
		else if (n->own)
			mt_snprintf(line, sizeof line, _("node %d: %s, no CPU memtop may use"), n->node,
				    mem);
		else
			mt_snprintf(line, sizeof line, _("node %d: %s, no CPUs of its own"), n->node, mem);
		for (size_t j = 0; s->p.nnodes > 1 && s->p.dist[i][i] > 0 && j < s->p.nnodes; j++)
			mt_append(line, sizeof line, "%s%d", j ? " " : ", SLIT ", s->p.dist[i][j]);
		tui_put(t, w, y++, 1, wd - 2, line);
	}
	return y;
}

/* The ends of matrix k's measured values into *lo and *hi (NAN: none). */
static void matrix_range(const struct numa_result *r, int k, double *lo, double *hi)
{
	*lo = *hi = NAN;
	for (size_t i = 0; i < r->nnodes; i++)
		for (size_t j = 0; j < r->nnodes; j++) {
			const struct numa_value *v = &r->v[i][j][k];
			if (!v->have || !(v->v > 0))
				continue;
			*lo = isnan(*lo) || v->v < *lo ? v->v : *lo;
			*hi = isnan(*hi) || v->v > *hi ? v->v : *hi;
		}
}

/* One matrix of run k under its title: memory nodes across, CPU nodes
 * down ("-" not measured), each cell in the heat colour of where it sits
 * between the matrix's fastest and slowest (log scale; the fastest end is
 * the Cores tab's: the lowest ns, the most GB/s). Returns the next line. */
static int draw_matrix(struct tui *t, const struct numa_tab *s, WINDOW *w, int y, int h, int wd,
		       int k, const char *title)
{
	const struct numa_result *r = &s->r;
	int gbs = numa_meas_mix(k) >= 0;
	char line[512];
	double lo, hi;
	if (y + 2 >= h)
		return y;
	matrix_range(r, k, &lo, &hi);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y++, 1, wd - 2, title);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	/* TRANSLATORS: the NUMA matrices' corner: CPU nodes down, memory
	 * nodes across; 9 columns at most */
	mt_text_pad(line, sizeof line, _("CPU\\mem"), -9);
	for (size_t j = 0; j < r->nnodes; j++)
		mt_append(line, sizeof line, " %7d", r->nodes[j]);
	mvwaddnstr(w, y++, 1, line, wd - 2);
	for (size_t i = 0; i < r->nnodes && y < h; i++) {
		if (!r->ncpus[i])
			continue; /* a memory-only node: a column, no row */
		mt_snprintf(line, sizeof line, "%-9d", r->nodes[i]);
		mvwaddnstr(w, y, 1, line, wd - 2);
		for (size_t j = 0; j < r->nnodes && 1 + 9 + 8 * (int)j < wd - 1; j++) {
			const struct numa_value *v = &r->v[i][j][k];
			double f = v->have ? hm_log_frac(v->v, lo, hi, 0.5) : (double)NAN;
			int room = wd - 1 - (1 + 9 + 8 * (int)j); /* to column wd - 2, as the title */
			if (v->have)
				mt_hsnprintf(line, sizeof line, " %7.1f", v->v);
			else
				mt_snprintf(line, sizeof line, " %7s", "-");
			wattrset(w, tui_heat_attr(t, gbs && !isnan(f) ? 1 - f : f));
			waddnstr(w, line, room);
		}
		wattrset(w, tui_attr(t, ROLE_NORMAL));
		y++;
	}
	return y + 1;
}

/* The title of mix m's matrix: what it is, its stores, the key that turns
 * to the next. */
static void mix_title(const struct numa_result *r, int m, char *buf, size_t len)
{
	char name[64], title[300];
	if (m == NUMA_MIX_31 || m == NUMA_MIX_21 || m == NUMA_MIX_11)
		mt_snprintf(name, sizeof name, _("%s reads:writes"), numa_mix_name(m));
	else
		mt_strlcpy(name, numa_mix_name(m), sizeof name);
	if (m == NUMA_MIX_READS)
		mt_snprintf(title, sizeof title, _("%s, GB/s (m: the next mix)"), name);
	else if (r->streaming)
		mt_snprintf(title, sizeof title, _("%s, GB/s, streaming stores (m: the next mix)"), name);
	else
		mt_snprintf(title, sizeof title, _("%s, GB/s, cached stores (m: the next mix)"), name);
	if ((r->mixes >> m) & 1)
		mt_strlcpy(buf, title, len);
	else
		mt_snprintf(buf, len, _("%s: not measured, M measures every mix"), title);
}

/* The GB/s and ns the curves reach (0 none). */
static void curves_range(const struct numa_result *r, double *gx, double *ny)
{
	*gx = *ny = 0;
	for (size_t c = 0; c < r->ncurves; c++)
		for (size_t i = 0; i < r->curves[c].npts; i++) {
			*gx = fmax(*gx, r->curves[c].pts[i].gbs);
			*ny = fmax(*ny, r->curves[c].pts[i].ns);
		}
}

/* The curves as MLC draws them, in characters: GB/s across, ns up, a
 * symbol a curve, each knee '#'. Returns the next line. */
static int draw_chart(struct tui *t, const struct numa_result *r, WINDOW *w, int y, int rows,
		      int cols)
{
	static const char sym[] = "*o+x";
	char grid[16][160], line[200], pad[32];
	double gx, ny;
	curves_range(r, &gx, &ny);
	if (rows < 3 || cols < 10 || !(gx > 0) || !(ny > 0))
		return y;
	rows = rows > 16 ? 16 : rows;
	cols = cols > 150 ? 150 : cols;
	for (int i = 0; i < rows; i++) {
		memset(grid[i], ' ', (size_t)cols);
		grid[i][cols] = '\0';
	}
	for (size_t c = 0; c < r->ncurves; c++) {
		const struct numa_curve *cv = &r->curves[c];
		struct numa_knee k;
		numa_knee_find(cv->pts, cv->npts, &k);
		for (size_t i = 0; i < cv->npts; i++) {
			int x = (int)lround(cv->pts[i].gbs / gx * (cols - 1));
			int yy = rows - 1 - (int)lround(cv->pts[i].ns / ny * (rows - 1));
			grid[yy][x] = k.have && i == k.knee ? '#' : sym[c % 4];
		}
	}
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (int i = 0; i < rows; i++) {
		if (i == 0 || i == rows - 1)
			mt_snprintf(line, sizeof line, "%7.0f |%s", i ? 0.0 : ny, grid[i]);
		else
			mt_snprintf(line, sizeof line, "%s |%s",
				    mt_text_pad(pad, sizeof pad, i == rows / 2 ? _("ns") : "", 7), grid[i]);
		mvwaddnstr(w, y++, 1, line, (int)mt_text_cut(line, cols + 9, NULL));
	}
	mt_hsnprintf(line, sizeof line, _("%7s 0 GB/s, to %.1f: the injectors' bandwidth"), "", gx);
	tui_put(t, w, y++, 1, cols + 9, line);
	return y;
}

/* The loaded-latency view: the chart, then a line a curve (its symbol,
 * pair, knee) and Little's law under it. */
static void draw_curves(struct tui *t, const struct numa_tab *s, WINDOW *w, int y, int h, int wd)
{
	static const char sym[] = "*o+x";
	const struct numa_result *r = &s->r;
	char line[400], knee[200], little[240];
	int rows = h - y - 1 - 3 * (int)r->ncurves;
	if (!r->ncurves) {
		wattrset(w, tui_attr(t, ROLE_DIM));
		tui_wrap(t, w, y, 1, wd - 2, 3,
			 s->loaded_why[0] ? s->loaded_why
					  : _("No loaded-latency curve yet: l, then r, measures them."));
		return;
	}
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y++, 1, wd - 2, _("loaded latency: the chaser's ns against the injectors' GB/s"));
	y = draw_chart(t, r, w, y, rows < 12 ? rows : 12, wd - 12);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (size_t c = 0; c < r->ncurves && y < h; c++) {
		const struct numa_curve *cv = &r->curves[c];
		struct numa_knee k;
		numa_knee_find(cv->pts, cv->npts, &k);
		mt_snprintf(line, sizeof line, "%c %d>%d %s: %s", sym[c % 4], r->nodes[cv->cpu],
			    r->nodes[cv->mem], numa_why_text(cv->why),
			    numa_knee_text(cv->pts, &k, knee, sizeof knee));
		y += tui_wrap(t, w, y, 1, wd - 2, 2, line);
		if (y < h && numa_little_text(cv->pts, &k, little, sizeof little)[0])
			y += tui_wrap(t, w, y, 3, wd - 4, 2, little);
	}
}

static void draw(struct tui *t, void *self, WINDOW *w, int full)
{
	struct numa_tab *s = self;
	int h, wd, y = 0;
	char line[300], a[32];
	(void)full;
	getmaxyx(w, h, wd);
	werase(w);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	if (s->r.source[0] || s->planned) {
		mt_snprintf(line, sizeof line,
			    MT_NGETTEXT("memory by node, as Intel MLC: %zu node, %s a run",
					"memory by node, as Intel MLC: %zu nodes, %s a run", s->r.nnodes),
			    s->r.nnodes, mt_fmt_size(a, sizeof a, s->r.size));
		tui_put(t, w, y++, 1, wd - 2, line);
	} else {
		tui_put(t, w, y++, 1, wd - 2, s->plan_why);
	}
	if (s->curves_view) {
		draw_curves(t, s, w, y + 1, h - 2, wd);
		wattrset(w, tui_attr(t, ROLE_NORMAL));
		return;
	}
	if (!s->r.source[0])
		y = draw_nodes(t, s, w, y, h, wd);
	y++;
	mt_fmt_size(a, sizeof a, s->r.lat_size ? s->r.lat_size : s->r.size);
	mt_snprintf(line, sizeof line, _("idle latency at %s, ns (4 KB pages: walks included)"), a);
	y = draw_matrix(t, s, w, y, h, wd, NUMA_LAT, line);
	mt_snprintf(line, sizeof line, _("idle latency at %s, ns (2 MB pages: as MLC)"), a);
	if (s->p.huge || s->r.pages_huge[0])
		y = draw_matrix(t, s, w, y, h, wd, NUMA_LAT_HUGE, line);
	mix_title(&s->r, s->mix_shown, line, sizeof line);
	y = draw_matrix(t, s, w, y, h, wd, numa_mix_meas(s->mix_shown), line);
	wattrset(w, tui_attr(t, ROLE_DIM));
	if (s->r.source[0] && h > 2)
		tui_put_source(t, w, h - 2, 1, wd - 2, s->r.hdr.hardware, s->r.source);
	if (!tui_running(t, &tab_numa) && !numa_result_measured(&s->r) && !s->r.source[0] && s->planned && y < h)
		tui_put(t, w, h - 1, 1, wd - 2,
			tui_measure_hint(t, _("r measures every CPU node x memory node"), 0));
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

const struct tab tab_numa = {
	.name = N_("NUMA"),
	.key = '9',
	.fini = fini,
	.measure = measure,
	TAB_PARTS(numa),
};
