/* tab_topology: tab 10 (key 0), the machine as nested boxes (as lstopo
 * draws it, fitted to the terminal: model_topo.c), and on each box what
 * memtop measured there in this session or in the files opened: the cache
 * levels of a latency run and a mountain on the core and the L3 group of
 * their CPU, the core-to-core median of each relation on the box it stands
 * for, a numa run's local and remote latency and bandwidth on each node;
 * the conditions beside it. Its keys measure the part under the cursor in
 * the other tabs (latency on its CPU, cores among its CPUs, numa for its
 * node). The machine shown is this one (memtop), a topology file opened
 * (memtop view topo.json, o) or the machine an opened result was measured
 * on (m goes through them). This file picks the machine and gathers the
 * figures; tab_topology_draw.c draws. */
#include "config.h"

#include "cores/cores.h"
#include "latency/latency.h"
#include "mountain/cliffs.h"
#include "mountain/mountain.h"
#include "tab_topology.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int init(struct tui *t, void *self)
{
	struct topology_tab *s = self;
	(void)t;
	if (!(s->sh = calloc(1, sizeof *s->sh)))
		return -1; /* out of memory: the tab is not shown */
	s->sh->shown = -1;
	return 0;
}

static void fini(struct tui *t, void *self)
{
	struct topology_tab *s = self;
	(void)t;
	tv_free(&s->sh->v);
	topo_free(s->sh->own);
	free(s->sh->pairs);
	free(s->sh);
	s->sh = NULL;
}

/* ---- which machine ------------------------------------------------------------- */

/* Are the topologies of handles a and b one machine: the same tree, or
 * the same summary, places and firmware (a run under another taskset)? */
static int same_machine(int a, int b)
{
	static const char *const keys[] = { "summary", "cpus", "cores", "about" };
	const cJSON *x = run_topology_json(a), *y = run_topology_json(b);
	if (a == b)
		return a > 0;
	if (!x || !y)
		return 0;
	for (size_t i = 0; i < MT_ARRAY_LEN(keys); i++) {
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(x, keys[i]),
			    *q = cJSON_GetObjectItemCaseSensitive(y, keys[i]);
		if (!p || !q || !cJSON_Compare(p, q, 1))
			return 0;
	}
	return 1;
}

/* The machines the tab can show: this one (when memtop measures here), the
 * topology files opened, the machines of the results shown in the tabs. */
struct machines {
	int h[TOPO_TAB_MACHINES * 2];
	char from[TOPO_TAB_MACHINES * 2][300];
	struct mt_conditions cond[TOPO_TAB_MACHINES * 2];
	int n;
};

static void add_machine(struct machines *m, int h, const char *from,
			const struct mt_conditions *cond)
{
	if (h <= 0 || m->n >= (int)MT_ARRAY_LEN(m->h))
		return;
	for (int i = 0; i < m->n; i++)
		if (same_machine(m->h[i], h))
			return;
	m->h[m->n] = h;
	mt_strlcpy(m->from[m->n], from, sizeof m->from[m->n]);
	m->cond[m->n++] = *cond;
}

static void result_machine(void *ctx, const struct result_kind *kind, const void *r,
			   const char *source)
{
	const struct run_header *h = result_kind_header(r);
	char from[300];
	if (source[0])
		mt_snprintf(from, sizeof from, _("the machine of a %s (%s)"), _(kind->what),
			    tui_path(source, 40));
	else
		mt_snprintf(from, sizeof from, _("the machine of a %s"), _(kind->what));
	add_machine(ctx, h->topology, from, &h->cond);
}

static void list_machines(struct tui *t, struct topology_tab *s, struct machines *m)
{
	m->n = 0;
	if (!tui_view_mode(t) && tui_machine(t)->topo)
		add_machine(m, run_topology_this(), _("this machine"), &tui_machine(t)->cond);
	for (int i = 0; i < s->nopened; i++)
		add_machine(m, s->opened[i], s->opened_from[i], &s->opened_cond[i]);
	tui_each_result(t, result_machine, m);
}

/* Shows the machine of handle h (this machine's topology as the session
 * has it, else read from the handle's tree): its boxes built anew. */
static void show(struct tui *t, struct topology_tab *s, int h, const char *from,
		 const struct mt_conditions *cond)
{
	mt_error e = { "" };
	if (h == s->sh->shown)
		return;
	tv_free(&s->sh->v);
	topo_free(s->sh->own);
	s->sh->own = NULL;
	s->sh->t = NULL;
	s->sh->shown = h;
	s->sh->cond = *cond;
	mt_strlcpy(s->sh->from, from, sizeof s->sh->from);
	if (h == run_topology_this() && tui_machine(t)->topo)
		s->sh->t = tui_machine(t)->topo;
	else if (topo_from_json(run_topology_json(h), from, &s->sh->own, &e) == 0)
		s->sh->t = s->sh->own;
	else
		mt_strlcpy(s->sh->why, e.msg, sizeof s->sh->why);
	if (s->sh->t && tv_build(&s->sh->v, s->sh->t, &e) < 0) {
		mt_strlcpy(s->sh->why, e.msg, sizeof s->sh->why);
		s->sh->t = NULL;
	}
	s->sh->v.ascii = !tui_utf8(t);
}

/* ---- the figures of the runs on it --------------------------------------------- */

/* A reason kept in the tab (figures point at it); when full, the last
 * one kept is given again (a doubt is never left without one). */
static const char *keep_why(struct topology_tab *s, const char *why)
{
	if (s->sh->nwhy >= TOPO_TAB_WHY)
		return s->sh->why_text[TOPO_TAB_WHY - 1];
	mt_strlcpy(s->sh->why_text[s->sh->nwhy], why, sizeof s->sh->why_text[0]);
	return s->sh->why_text[s->sh->nwhy++];
}

static void add_cache(struct topology_tab *s, int cpu, int level, uint64_t size, double ns,
		      const char *from, const char *why)
{
	struct tv_cache_fig *c;
	if (s->sh->ncache >= TOPO_TAB_CACHE)
		return;
	c = &s->sh->cache[s->sh->ncache++];
	*c = (struct tv_cache_fig){ cpu, level, size, ns, why != NULL, from, why };
}

/* A latency run's cache levels and memory on its CPU's boxes. */
static void latency_figs(struct topology_tab *s, const struct latency_result *r)
{
	struct latency_levels lv;
	if (!r->hdr.place.known)
		return;
	latency_detect(r, &lv);
	for (size_t i = 0; i < lv.n; i++) {
		const struct latency_level *l = &lv.lv[i];
		const char *why = NULL;
		char text[320];
		if (l->tlb)
			continue;
		if (l->partial) {
			mt_snprintf(text, sizeof text,
				    _("the latency curve is still short of the next "
				      "level at its step (the cache may end up to %llu KB further)"),
				    (unsigned long long)((l->step_end - l->size) >> 10));
			why = keep_why(s, text);
		} else if (l->inconsistent) {
			why = keep_why(s, _("the latency run's strides disagree on the way size"));
		}
		add_cache(s, r->hdr.place.cpu, l->level, l->size, l->ns,
			  lv.over_l1 ? N_("latency, over L1") : N_("latency"), why);
	}
	if (lv.has_memory)
		add_cache(s, r->hdr.place.cpu, 0, 0, lv.memory_ns, N_("latency"), NULL);
}

/* A mountain's cliffs (sizes, no latency) on its CPU's boxes. */
static void mountain_figs(struct topology_tab *s, const struct mountain *m)
{
	struct detection d;
	if (!m->hdr.place.known || cliffs_detect(m, 1.5, &d) < 0)
		return;
	for (int i = 0; i < d.nlevels && i < 3; i++) {
		char text[320];
		mt_hsnprintf(text, sizeof text, _("the mountain shows this cliff on %.0f %% of its strides"),
			     100 * d.confidence[i]);
		add_cache(s, m->hdr.place.cpu, i + 1, d.size[i], (double)NAN, N_("mountain"),
			  d.confidence[i] < 0.5 ? keep_why(s, text) : NULL);
	}
}

/* A core-to-core run's pairs. */
static void cores_figs(struct topology_tab *s, const struct cores_result *r)
{
	const struct cores_plan *pl = &r->plan;
	if (s->sh->npairs + pl->npairs > s->sh->pairs_cap) {
		size_t cap = s->sh->npairs + pl->npairs + 64;
		struct tv_pair_fig *p = realloc(s->sh->pairs, cap * sizeof *p);
		if (!p)
			return;
		s->sh->pairs = p;
		s->sh->pairs_cap = cap;
	}
	for (size_t k = 0; k < pl->npairs; k++) {
		const struct cores_pair *q = &pl->pairs[k];
		if (q->have)
			s->sh->pairs[s->sh->npairs++] =
				(struct tv_pair_fig){ pl->cpus[q->ia], pl->cpus[q->ib], q->ns,
						      q->unsteady || q->smt_like ||
							      q->spread > 0.10 };
	}
}

/* A numa run's node pairs: idle latency (on 2 MB pages where it has them,
 * as MLC) and read GB/s. */
static void numa_figs(struct topology_tab *s, const struct numa_result *r)
{
	for (size_t i = 0; i < r->nnodes; i++)
		for (size_t j = 0; j < r->nnodes && s->sh->nnodes < MT_ARRAY_LEN(s->sh->nodes); j++) {
			const struct numa_value *lat = r->v[i][j][NUMA_LAT_HUGE].have
							       ? &r->v[i][j][NUMA_LAT_HUGE]
							       : &r->v[i][j][NUMA_LAT];
			const struct numa_value *bw = &r->v[i][j][NUMA_READ];
			double on = numa_result_placement(r, i, j);
			const char *why = NULL;
			char text[320];
			if (!lat->have && !bw->have)
				continue;
			mt_hsnprintf(text, sizeof text,
				     _("only %.0f %% of the numa run's pages were on the node"), 100 * on);
			if ((lat->flags | bw->flags) & (NUMA_F_MOVED | NUMA_F_LOST))
				why = keep_why(s, _("the numa run lost its CPU, or moved off it"));
			else if (isfinite(on) && on < 0.9)
				why = keep_why(s, text);
			s->sh->nodes[s->sh->nnodes++] =
				(struct tv_node_fig){ r->nodes[i],
						      r->nodes[j],
						      lat->have ? lat->v : (double)NAN,
						      bw->have ? bw->v : (double)NAN,
						      why != NULL,
						      why };
		}
}

/* One tab's result: its figures when it was measured on the machine shown. */
static void result_figs(void *ctx, const struct result_kind *kind, const void *r,
			const char *source)
{
	struct topology_tab *s = ctx;
	const struct run_header *h = result_kind_header(r);
	(void)source;
	if (!same_machine(h->topology, s->sh->shown))
		return;
	if (kind == &kind_latency)
		latency_figs(s, r);
	else if (kind == &kind_mountain)
		mountain_figs(s, r);
	else if (kind == &kind_cores)
		cores_figs(s, r);
	else if (kind == &kind_numa)
		numa_figs(s, r);
	else
		return;
	mt_append(s->sh->runs, sizeof s->sh->runs, "%s%s", s->sh->runs[0] ? ", " : "", kind->name);
}

void topology_update(struct tui *t, struct topology_tab *s)
{
	int pick;
	struct machines *m = calloc(1, sizeof *m);
	struct tv_figures f;
	if (!m)
		return;
	list_machines(t, s, m);
	if (m->n == 0) {
		show(t, s, 0, "", &tui_machine(t)->cond);
		mt_strlcpy(s->sh->why,
			   tui_view_mode(t)
				   ? _("no machine to show: memtop view opens a topology (memtop "
				       "topo --json) or a result of this memtop, which carries its "
				       "machine")
				   : _("hwloc could not read this machine's topology"),
			   sizeof s->sh->why);
		free(m);
		return;
	}
	pick = (s->pick % m->n + m->n) % m->n;
	show(t, s, m->h[pick], m->from[pick], &m->cond[pick]);
	free(m);
	s->sh->ncache = s->sh->npairs = s->sh->nnodes = 0;
	s->sh->nwhy = 0;
	s->sh->runs[0] = '\0';
	if (!s->sh->t)
		return;
	tui_each_result(t, result_figs, s);
	f = (struct tv_figures){ s->sh->cache, s->sh->ncache, s->sh->pairs, s->sh->npairs, s->sh->nodes, s->sh->nnodes };
	tv_figures(&s->sh->v, &f);
}

/* ---- keys ----------------------------------------------------------------------- */

static int act_move(struct tui *t, void *self, int key)
{
	struct topology_tab *s = self;
	int dir = key == KEY_UP || key == 'k'     ? -1
		  : key == KEY_DOWN || key == 'j' ? 1
		  : key == KEY_LEFT || key == 'h' ? -2
						  : 2;
	if (!s->sh->t)
		return 1;
	if (key == KEY_HOME)
		s->sh->v.cur = 0;
	else
		tv_move(&s->sh->v, dir); /* a box it opens is laid out at the next draw */
	s->cur = s->sh->v.cur;
	tui_dirty(t);
	return 1;
}

static int act_toggle(struct tui *t, void *self, int key)
{
	struct topology_tab *s = self;
	(void)key;
	if (s->sh->t)
		tv_toggle(&s->sh->v);
	s->cur = s->sh->v.cur;
	tui_dirty(t);
	return 1;
}

static int act_machine(struct tui *t, void *self, int key)
{
	struct topology_tab *s = self;
	(void)key;
	s->pick++;
	topology_update(t, s);
	tui_message(t, _("shown: %s"), s->sh->t ? s->sh->from : _("no machine"));
	tui_dirty(t);
	return 1;
}

static int act_conditions(struct tui *t, void *self, int key)
{
	struct topology_tab *s = self;
	(void)key;
	s->conditions = !s->conditions;
	tui_dirty(t);
	return 1;
}

/* L, C, N: the part under the cursor measured in the Latency, Cores or
 * NUMA tab (this machine's parts alone). */
static int act_measure(struct tui *t, void *self, int key)
{
	struct topology_tab *s = self;
	int *cpus, n;
	char what[64];
	struct tab_part part;
	if (!s->sh->t || !tui_can_measure(t))
		return 1;
	if (s->sh->shown != run_topology_this()) {
		tui_message(t, "%s", _("the machine shown is not this one: m shows this machine"));
		return 1;
	}
	cpus = calloc((size_t)s->sh->t->ncpus + 1, sizeof *cpus);
	if (!cpus)
		return 1;
	n = tv_box_cpus(&s->sh->v, s->sh->v.cur, cpus, s->sh->t->ncpus);
	part = (struct tab_part){ tv_box_name(&s->sh->v, s->sh->v.cur, what, sizeof what), cpus, n,
				  tv_box_node(&s->sh->v, s->sh->v.cur) };
	if (key != 'N' && n == 0)
		tui_message(t, _("%s has no CPU this process may use"), what);
	else if (key == 'N' && part.node < 0)
		tui_message(t, _("%s is in no NUMA node hwloc names"), what);
	else
		tui_measure_part(t,
				 key == 'L'   ? &tab_latency
				 : key == 'C' ? &tab_cores
					      : &tab_numa,
				 &part);
	free(cpus);
	return 1;
}

/* ---- files: topologies opened ----------------------------------------------------- */

/* A topology file (kind_topo: a run header with its topology and
 * conditions): kept among the machines, and shown. */
static int io_take(struct tui *t, void *self, struct result_file *f, mt_error *e)
{
	struct topology_tab *s = self;
	const struct run_header *h = f->r;
	struct machines *m;
	int i = s->nopened < TOPO_TAB_MACHINES ? s->nopened++ : TOPO_TAB_MACHINES - 1;
	s->opened[i] = h->topology;
	s->opened_cond[i] = h->cond;
	mt_snprintf(s->opened_from[i], sizeof s->opened_from[i], _("%s (memtop topo)"),
		    tui_path(f->path, 40));
	m = calloc(1, sizeof *m);
	if (!m)
		return mt_fail(e, "%s", _("out of memory"));
	list_machines(t, s, m);
	for (int k = 0; k < m->n; k++)
		if (same_machine(m->h[k], h->topology))
			s->pick = k;
	free(m);
	s->sh->shown = -1; /* built again, even when one alike was shown */
	return 0;
}

/* Nothing to save: the tab shows, it never measures itself. */
static struct tab_result_now io_now(void *self)
{
	(void)self;
	return (struct tab_result_now){ NULL, 0 };
}

static const struct tab_result_io io = {
	.kind = &kind_topo,
	.nothing = N_("nothing to save here (memtop topo --json writes a topology)"),
	.now = io_now,
	.take = io_take,
};

static const struct keybinding keys[] = {
	TUI_KEYS_ARROWS_HJKL(N_("the box before or after, around or inside (opening it)"), act_move),
	{ KEY_HOME, "Home", N_("the machine's box"), act_move },
	{ '\r', "Enter", N_("open the box under the cursor, or fold it"), act_toggle },
	{ '\n', NULL, NULL, act_toggle },
	{ KEY_ENTER, NULL, NULL, act_toggle },
	{ 'L', "L", N_("measure the latency on the box's first CPU (Latency tab)"), act_measure },
	{ 'C', "C", N_("measure core to core among the box's CPUs (Cores tab)"), act_measure },
	{ 'N', "N", N_("measure the box's NUMA node (NUMA tab)"), act_measure },
	{ 'm', "m", N_("show the next machine: this one, topologies and results opened"), act_machine },
	{ 'c', "c", N_("list the conditions in place of the boxes, or the boxes again"),
	  act_conditions },
	TUI_KEY_OPEN("topology (memtop topo --json)"),
	{ 0, NULL, NULL, NULL },
};

static void draw(struct tui *t, void *self, WINDOW *w, int full)
{
	struct topology_tab *s = self;
	(void)full;
	topology_update(t, s);
	topology_draw(t, s, w);
}

static void on_job_event(struct tui *t, void *self, const struct job_event *ev)
{
	(void)t;
	(void)self;
	(void)ev; /* the tab starts no job of its own */
}

const struct tab tab_topology = {
	.name = N_("Topology"),
	.brief = N_("Topo"),
	.key = '0',
	.fini = fini,
	TAB_PARTS(topology),
};
