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
	int only_node;         /* the Topology tab's N: this node alone (by number), -1 all */
	char plan_why[200];
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
	if (tui_job_ended(t, ev, "numa"))
		tui_message(t, "done: %zu node pair%s measured", s->p.ncells, s->p.ncells == 1 ? "" : "s");
	tui_dirty(t);
}

static int act_start(struct tui *t, void *self, int key)
{
	struct numa_tab *s = self;
	mt_error e = { "" };
	if (!tui_can_measure(t))
		return 1;
	if (tui_discard_first(t, &tab_numa, self,
			      "Discard the unsaved NUMA matrices and measure again?", act_start, key))
		return 1;
	if (key != 'N') /* r: every node again */
		s->only_node = -1;
	plan(t, s);
	if (!s->planned) {
		tui_message(t, "cannot measure: %s", s->plan_why);
		return 1;
	}
	if (!(s->p.mem = numa_mem_open(&e))) {
		tui_message(t, "cannot measure: %s", e.msg);
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
	tui_message(t, "measuring: about %.0f s", ceil(numa_estimate_s(&s->p, s->p.probe)));
	tui_dirty(t);
	return 1;
}

/* The Topology tab's N: the part's node alone, its CPUs on its memory. */
static int measure(struct tui *t, void *self, const struct tab_part *part)
{
	struct numa_tab *s = self;
	if (part->node < 0) {
		tui_message(t, "%s is in no NUMA node", part->what);
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
		tui_message(t, "stop the run first (x)");
		return 1;
	}
	s->small_pages = !s->small_pages;
	plan(t, s);
	tui_message(t, s->small_pages ? "the chase on 4 KB pages alone"
		    : s->p.huge ? "the chase on 4 KB pages, then on 2 MB pages (as MLC)"
				: "no 2 MB pages here (THP is off): 4 KB pages alone");
	tui_dirty(t);
	return 1;
}

/* ---- files: the frame opens and saves them through .result ---------- */

static const struct tab_result_io io = {
	.kind = &kind_numa,
	.busy = "a numa run",
	.result_at = offsetof(struct numa_tab, r),
	.result_size = sizeof(struct numa_result),
};

static const struct keybinding keys[] = {
	{ 'r', "r", "measure every CPU node x memory node: latency, read, triad", act_start },
	{ 'g', "g", "the idle latency on 2 MB pages too, or on 4 KB pages alone", act_pages },
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
		mt_snprintf(line, sizeof line, "node %d: %s%s%s, %s", n->node, n->tier,
			    n->tier[0] ? ", " : "", mt_fmt_mem(a, sizeof a, n->memory),
			    n->ncpus ? "CPUs " : n->own ? "no CPU memtop may use" : "no CPUs of its own");
		mt_append(line, sizeof line, "%s", n->ncpus ? cpus : "");
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
	int gbs = k == NUMA_READ || k == NUMA_TRIAD;
	char line[512];
	double lo, hi;
	if (y + 2 >= h)
		return y;
	matrix_range(r, k, &lo, &hi);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	tui_put(t, w, y++, 1, wd - 2, title);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	mt_snprintf(line, sizeof line, "%-9s", "CPU\\mem");
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
				mt_snprintf(line, sizeof line, " %7.1f", v->v);
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
		mt_snprintf(line, sizeof line, "memory by node, as Intel MLC: %zu node%s, %s a run",
			    s->r.nnodes, s->r.nnodes == 1 ? "" : "s",
			    mt_fmt_size(a, sizeof a, s->r.size));
		tui_put(t, w, y++, 1, wd - 2, line);
	} else {
		tui_put(t, w, y++, 1, wd - 2, s->plan_why);
	}
	if (!s->r.source[0])
		y = draw_nodes(t, s, w, y, h, wd);
	y++;
	mt_fmt_size(a, sizeof a, s->r.lat_size ? s->r.lat_size : s->r.size);
	mt_snprintf(line, sizeof line, "idle latency at %s, ns (4 KB pages: walks included)", a);
	y = draw_matrix(t, s, w, y, h, wd, NUMA_LAT, line);
	mt_snprintf(line, sizeof line, "idle latency at %s, ns (2 MB pages: as MLC)", a);
	if (s->p.huge || s->r.pages_huge[0])
		y = draw_matrix(t, s, w, y, h, wd, NUMA_LAT_HUGE, line);
	y = draw_matrix(t, s, w, y, h, wd, NUMA_READ, "read, GB/s");
	y = draw_matrix(t, s, w, y, h, wd, NUMA_TRIAD, "triad, GB/s");
	wattrset(w, tui_attr(t, ROLE_DIM));
	if (s->r.source[0] && h > 2)
		tui_put_source(t, w, h - 2, 1, wd - 2, s->r.hdr.hardware, s->r.source);
	if (!tui_running(t, &tab_numa) && !numa_result_measured(&s->r) && !s->r.source[0] && s->planned && y < h)
		tui_put(t, w, h - 1, 1, wd - 2,
			tui_measure_hint(t, "r measures every CPU node x memory node", 0));
	wattrset(w, tui_attr(t, ROLE_NORMAL));
}

const struct tab tab_numa = {
	.name = "NUMA",
	.key = '9',
	.fini = fini,
	.measure = measure,
	TAB_PARTS(numa),
};
