/* numa: the plan (nodes, cells, the size) and the worker that runs the
 * latency and bandwidth labs' own workers on bound memory. See numa.h. */
#include "config.h"

#include "numa.h"
#include "base/i18n.h"
#include "numa_int.h"
#include "machine/plan.h"
#include "os/threads.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#define NUMA_LAT_MIN (4ull << 20) /* the idle latency's size at least (a curve's first) */
#define SIZE_ALIGN (2ull << 20)
#define PAGE 4096u

/* ---- the plan ---------------------------------------------------------------- */

static int node_index(const struct numa_node *all, size_t nall, int node)
{
	for (size_t i = 0; i < nall; i++)
		if (all[i].node == node)
			return (int)i;
	return -1;
}

/* "0, 1" (the nodes there are) into buf. */
static void nodes_text(const struct numa_node *all, size_t nall, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < nall; i++)
		mt_append(buf, len, "%s%d", i ? ", " : "", all[i].node);
}

/* Select the nodes want names (all when nwant is 0) into p. */
static int select_nodes(struct numa_params *p, const struct numa_node *all, size_t nall,
			const int *want, size_t nwant, mt_error *e)
{
	char here[200];
	size_t n = nwant ? nwant : nall;
	nodes_text(all, nall, here, sizeof here);
	if (nwant > NUMA_MAX_NODES)
		return mt_fail(e, MT_NGETTEXT("--nodes: %zu nodes, at most %d at a time (nodes here: "
					      "%s)", "--nodes: %zu nodes, at most %d at a time (nodes "
					      "here: %s)", n),
			       n, NUMA_MAX_NODES, here);
	if (!nwant && nall > NUMA_MAX_NODES) {
		/* more nodes than a run takes: NUMA_MAX_NODES of them, spread over
		 * the machine, said in the plan */
		for (size_t i = 0; i < NUMA_MAX_NODES; i++)
			p->nodes[i] = all[i * nall / NUMA_MAX_NODES];
		p->nnodes = NUMA_MAX_NODES;
		p->skipped = nall - NUMA_MAX_NODES;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		int k = nwant ? node_index(all, nall, want[i]) : (int)i;
		if (k < 0)
			return mt_fail(e, _("--nodes: no node %d (nodes here: %s)"), want[i], here);
		for (size_t j = 0; j < i; j++)
			if (p->nodes[j].node == all[k].node)
				return mt_fail(e, _("--nodes: node %d given twice"), all[k].node);
		p->nodes[i] = all[k];
	}
	p->nnodes = n;
	return 0;
}

/* Where the idle latency is read (see numa_plan): past the caches the
 * first CPU node's latency CPU reaches that memtop trusts; where a deeper
 * claim is doubted, on a curve up to size that the worker measures. */
static void lat_size_plan(struct numa_params *p, int quick)
{
	const struct numa_node *n = NULL;
	uint64_t at;
	char a[32], b[32], t[32];
	for (size_t i = 0; i < p->nnodes && !n; i++)
		if (p->nodes[i].ncpus > 0)
			n = &p->nodes[i];
	p->lat_size = p->size;
	p->lat_curve = 0;
	if (quick || !n) {
		mt_strlcpy(p->lat_size_from, quick ? N_("--quick: the run's size") : N_("the run's size"),
			   sizeof p->lat_size_from);
		return;
	}
	at = (uint64_t)MACHINE_DRAM_FACTOR * (n->trusted ? n->trusted : SIZE_ALIGN);
	at = (at + SIZE_ALIGN - 1) / SIZE_ALIGN * SIZE_ALIGN;
	if (at < NUMA_LAT_MIN)
		at = NUMA_LAT_MIN;
	if (at >= p->size) {
		mt_strlcpy(p->lat_size_from, N_("the run's size: the caches it trusts reach as far"),
			   sizeof p->lat_size_from);
		return;
	}
	if (n->doubted) {
		p->lat_curve = 1;
		p->curve_from = at;
		mt_snprintf(p->lat_size_from, sizeof p->lat_size_from, NUMA_LAT_CURVE,
			    mt_fmt_size(a, sizeof a, at), MACHINE_DRAM_FACTOR,
			    n->trusted_level, mt_fmt_size(b, sizeof b, n->trusted),
			    mt_fmt_size(t, sizeof t, p->size));
		return;
	}
	p->lat_size = at;
	mt_snprintf(p->lat_size_from, sizeof p->lat_size_from, NUMA_LAT_PAST, MACHINE_DRAM_FACTOR,
		    n->trusted_level, mt_fmt_size(a, sizeof a, n->trusted));
}

/* The size from the nodes' floors and the memory (see numa_plan). */
static int plan_size(struct numa_params *p, const struct machine_budget *b, int quick,
		     mt_error *e)
{
	uint64_t floor = 0, cap = b->bytes ? b->bytes / BANDWIDTH_MEM_SHARE : UINT64_MAX;
	const char *why = "", *of = N_("the memory");
	char a[32], c[32], run[280], was[sizeof p->size_from];
	for (size_t i = 0; i < p->nnodes; i++) {
		const struct numa_node *n = &p->nodes[i];
		if (n->memory && n->memory / BANDWIDTH_MEM_SHARE < cap) {
			cap = n->memory / BANDWIDTH_MEM_SHARE;
			of = N_("the smallest node's memory");
		}
		if (n->ncpus > 0 && n->floor > floor) {
			floor = n->floor;
			why = n->floor_why;
		}
	}
	if (b->bytes && cap == b->bytes / BANDWIDTH_MEM_SHARE) {
		mt_snprintf(run, sizeof run, NUMA_SIZE_OF_RUN, b->who);
		of = run;
	}
	p->size = quick ? NUMA_QUICK_SIZE : floor;
	if (quick)
		mt_snprintf(p->size_from, sizeof p->size_from, "--quick");
	else if (floor)
		mt_snprintf(p->size_from, sizeof p->size_from, "%s", why);
	else
		mt_strlcpy(p->size_from, N_("no cache size known"), sizeof p->size_from);
	if (!quick && p->size < BANDWIDTH_DRAM_MIN) {
		p->size = BANDWIDTH_DRAM_MIN;
		mt_strlcpy(was, p->size_from, sizeof was);
		mt_snprintf(p->size_from, sizeof p->size_from, NUMA_SIZE_AT_LEAST, was,
			    mt_fmt_size(a, sizeof a, BANDWIDTH_DRAM_MIN));
	}
	if (p->size > cap) {
		mt_snprintf(c, sizeof c, "%s", mt_fmt_size(a, sizeof a, p->size));
		p->size = cap / SIZE_ALIGN * SIZE_ALIGN;
		mt_strlcpy(was, p->size_from, sizeof was);
		mt_snprintf(p->size_from, sizeof p->size_from, NUMA_SIZE_CUT, was, c,
			    mt_fmt_size(a, sizeof a, p->size), BANDWIDTH_MEM_SHARE, of);
	}
	p->size = (p->size + SIZE_ALIGN - 1) / SIZE_ALIGN * SIZE_ALIGN;
	if (p->size > cap)
		p->size = cap / SIZE_ALIGN * SIZE_ALIGN;
	if (p->size < floor)
		mt_append(p->size_from, sizeof p->size_from, "; " NUMA_SIZE_UNDER,
			  mt_fmt_size(a, sizeof a, floor), MACHINE_DRAM_FACTOR);
	if (p->size < NUMA_MIN_SIZE) {
		mt_fail(e, _("not enough memory: 1/%d of %s is under %s"), BANDWIDTH_MEM_SHARE,
			numa_text(was, sizeof was, of), mt_fmt_size(a, sizeof a, NUMA_MIN_SIZE));
		return -2;
	}
	lat_size_plan(p, quick);
	return 0;
}

/* --nodes named only nodes without a CPU this process may use: each said,
 * a memory-only node as one (no CPUs of its own), a node whose CPUs a
 * cpuset keeps from this process as that. Returns -1 with e. */
static int no_cpus(const struct numa_params *p, mt_error *e)
{
	char own[200] = "", cut[200] = "";
	int nown = 0, ncut = 0;
	for (size_t i = 0; i < p->nnodes; i++) {
		char *b = p->nodes[i].own ? cut : own;
		mt_append(b, 200, "%s%d", b[0] ? ", " : "", p->nodes[i].node);
		nown += !p->nodes[i].own;
		ncut += p->nodes[i].own > 0;
	}
	if (nown)
		mt_fail(e, MT_NGETTEXT("--nodes: node %s has no CPUs of its own (memory only)",
				       "--nodes: nodes %s have no CPUs of their own (memory only)", nown),
			own);
	else
		e->msg[0] = '\0';
	if (ncut) {
		char more[300];
		mt_snprintf(more, sizeof more,
			    MT_NGETTEXT("node %s: no CPU this process may use (a cpuset keeps its "
					"CPUs from it)",
					"nodes %s: no CPU this process may use (a cpuset keeps "
					"their CPUs from it)", ncut),
			    cut);
		mt_append(e->msg, sizeof e->msg, "%s%s", nown ? "; " : "--nodes: ", more);
	}
	return -1;
}

int numa_plan(struct numa_params *p, const struct numa_node *all, size_t nall, const int *want,
	      size_t nwant, const struct machine_budget *b, int quick, mt_error *e)
{
	char names[200];
	memset(p, 0, sizeof *p);
	p->quick = quick;
	p->mixes = NUMA_MIXES_DEFAULT;
	if (select_nodes(p, all, nall, want, nwant, e) < 0)
		return -1;
	for (size_t i = 0; i < p->nnodes; i++)
		for (size_t j = 0; p->nodes[i].ncpus > 0 && j < p->nnodes; j++) {
			p->cells[p->ncells].cpu = (int)i;
			p->cells[p->ncells].mem = (int)j;
			p->ncells++;
		}
	if (p->ncells == 0 && !nwant) {
		nodes_text(p->nodes, p->nnodes, names, sizeof names);
		mt_fail(e, MT_NGETTEXT("no NUMA node has a CPU this process may use as its own (node "
				       "%s: memory only here; a cpuset may allow CPUs whose own node "
				       "it does not)",
				       "no NUMA node has a CPU this process may use as its own (nodes "
				       "%s: memory only here; a cpuset may allow CPUs whose own node "
				       "it does not)", p->nnodes),
			names);
		return -2;
	}
	if (p->ncells == 0)
		return no_cpus(p, e);
	return plan_size(p, b, quick, e);
}

void numa_plan_distances(struct numa_params *p, const struct machine *m)
{
	const struct topo *t = m ? m->topo : NULL;
	int at[NUMA_MAX_NODES];
	for (size_t i = 0; i < p->nnodes; i++) {
		at[i] = -1;
		for (int k = 0; t && k < t->nnodes; k++)
			if (t->nodes[k].os_index == p->nodes[i].node)
				at[i] = k;
	}
	for (size_t i = 0; i < p->nnodes; i++)
		for (size_t j = 0; j < p->nnodes; j++)
			p->dist[i][j] = topo_distance(t, at[i], at[j]);
}

void numa_params_runs(struct numa_params *p)
{
	struct latency_params *l = &p->lat;
	struct bandwidth_params *b = &p->bw;
	if (p->lat_curve && !p->huge) { /* the curve runs on 2 MB pages */
		p->lat_curve = 0;
		p->lat_size = p->size;
		mt_strlcpy(p->lat_size_from,
			   N_("the run's size: no 2 MB pages here (THP never) for the curve that finds "
			      "where memory is"),
			   sizeof p->lat_size_from);
	}
	if (p->quick)
		latency_params_quick(l);
	else
		latency_params_default(l);
	l->nsizes = 1;
	l->sizes[0] = p->size;
	l->nstrides = 0; /* the random chase alone */
	l->target_s = 0;
	bandwidth_params_default(b, p->m);
	b->nsizes = 1;
	b->sizes[0].bytes = p->size;
	b->sizes[0].per_thread = 0;
	mt_strlcpy(b->sizes[0].level, "DRAM", sizeof b->sizes[0].level);
	mt_strlcpy(b->sizes[0].from, p->size_from, sizeof b->sizes[0].from);
	b->nkernels = 1;
	b->kernels[0] = BANDWIDTH_READ;
	b->nthreads = 1;
	b->loaded = 0;
	if (p->quick)
		bandwidth_params_quick(b, p->m);
	b->sizes[0].bytes = p->size; /* --quick cuts sizes: ours is already planned */
}

/* The runs of a node pair: what each cell wants of the worker (the
 * latency, on 2 MB pages too, and at the run's size; one a mix). */
static size_t runs_a_pair(const struct numa_params *p)
{
	size_t n = 1 + (size_t)(p->huge != 0) +
		   (size_t)(p->huge && (p->lat_curve || p->lat_size < p->size));
	for (int m = 0; m < NUMA_NMIX; m++)
		n += (p->mixes >> m) & 1;
	return n;
}

/* The loaded-latency curves in the plan's notes: each pair and why, its
 * CPUs (the chaser first), the points. */
static void loaded_notes(const struct numa_params *p, struct plan *out)
{
	for (size_t i = 0; i < p->nloaded; i++) {
		const struct numa_curve_plan *c = &p->loaded[i];
		int cpus[NUMA_MAX_NODE_CPUS], n = numa_loaded_cpus(p, (size_t)c->pair.cpu, cpus,
								     NUMA_MAX_NODE_CPUS);
		char mem[24], dist[64] = "", inj[96];
		if (c->pair.mem >= 0)
			mt_snprintf(mem, sizeof mem, "%d", p->nodes[c->pair.mem].node);
		else
			mt_strlcpy(mem, "?", sizeof mem);
		if (c->dist > 0)
			mt_snprintf(dist, sizeof dist, plan_words(out, N_(", distance %d")), c->dist);
		numa_cpus_text(cpus + 1, n - 1, inj, sizeof inj);
		plan_say_n(out,
			   "loaded latency %d>%s (%s%s): chaser on CPU %d, %d injector on CPU %s, "
			   "idle and %zu delays, about %.0f s",
			   "loaded latency %d>%s (%s%s): chaser on CPU %d, %d injectors on CPUs %s, "
			   "idle and %zu delays, about %.0f s",
			   (unsigned long)(n - 1), p->nodes[c->pair.cpu].node, mem,
			   numa_why_text(c->why)[0] ? plan_words(out, numa_why_text(c->why)) : "", dist,
			   cpus[0], n - 1, inj, p->ndelays, numa_curve_cost_s(p, p->probe));
	}
}

const char *numa_text(char *out, size_t len, const char *stored)
{
	static const char *const forms[] = { NUMA_FORMS, MACHINE_FORMS, NULL };
	return mt_gettext_stored(out, len, MT_PRINTABLE(stored), forms);
}

void numa_plan_of(const struct numa_params *p, struct plan *out)
{
	char why[480], mixes[64], from[480], a[32];
	mt_snprintf(why, sizeof why,
		    plan_words(out, N_("each run's buffer, bound to the memory node: %s")),
		    out->human ? numa_text(from, sizeof from, p->size_from) : p->size_from);
	plan_add_size(out, "DRAM", p->size, 0, 0, why);
	for (size_t i = 0; i < p->nnodes; i++) {
		const struct numa_node *n = &p->nodes[i];
		struct plan_node pn;
		memset(&pn, 0, sizeof pn);
		pn.node = n->node;
		mt_strlcpy(pn.tier, n->tier, sizeof pn.tier);
		pn.memory = n->memory;
		pn.ncpus = n->ncpus;
		pn.own = n->own;
		numa_cpus_text(n->cpus, n->ncpus, pn.cpus, sizeof pn.cpus);
		plan_add_node(out, &pn);
		if (n->ncpus > 0)
			plan_add_threads(out, n->ncpus, n->cpus, n->ncpus);
	}
	for (size_t k = 0; k < p->ncells; k++) {
		const struct numa_node *c = &p->nodes[p->cells[k].cpu], *mem = &p->nodes[p->cells[k].mem];
		plan_add_pair(out, c->node, mem->node);
	}
	out->pairs_nodes = 1;
	if (p->lat_curve && p->huge)
		plan_say(out, N_("idle latency read %s"),
			 out->human ? numa_text(from, sizeof from, p->lat_size_from) : p->lat_size_from);
	else if (p->lat_curve)
		plan_say(out, N_("idle latency read at %s: the run's size: no 2 MB pages here for the curve"),
			 mt_fmt_size(a, sizeof a, p->lat_size));
	else
		plan_say(out, N_("idle latency read at %s: %s"), mt_fmt_size(a, sizeof a, p->lat_size),
			 out->human ? numa_text(from, sizeof from, p->lat_size_from) : p->lat_size_from);
	plan_say_n(out, "%zu runs a node pair: latency on 4 KB pages%s%s%s%s (%s stores)",
		   "%zu runs a node pair: latency on 4 KB pages%s%s%s%s (%s stores)",
		   runs_a_pair(p), runs_a_pair(p),
		   p->huge ? plan_words(out, N_(", latency on 2 MB pages (as MLC)")) : "",
		   p->huge && (p->lat_curve || p->lat_size < p->size)
			   ? plan_words(out, N_(", latency on 2 MB pages at the run's size"))
			   : "",
		   p->mixes ? plan_words(out, N_(", bandwidth ")) : "",
		   numa_mixes_text(p->mixes, mixes, sizeof mixes),
		   plan_words(out, p->streaming ? N_("streaming") : N_("cached")));
	if (p->skipped)
		plan_say(out,
			 N_("%zu of the machine's %zu nodes, spread over it: a run takes at most %d "
			    "(--nodes picks them)"),
			 p->nnodes, p->nnodes + p->skipped,
			  NUMA_MAX_NODES);
	loaded_notes(p, out);
	out->estimate_s = numa_estimate_s(p, p->probe);
}

int numa_latency_cpu(const struct numa_params *p, size_t i)
{
	const struct numa_node *n = &p->nodes[i];
	return n->ncpus > 0 ? n->cpus[n->ncpus - 1] : -1;
}

void numa_cpus_text(const int *cpus, int n, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int i = 0; i < n;) {
		int j = i;
		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j - i >= 2)
			mt_append(buf, len, "%s%d-%d", i ? "," : "", cpus[i], cpus[j]);
		else
			for (int k = i; k <= j; k++)
				mt_append(buf, len, "%s%d", k ? "," : "", cpus[k]);
		i = j + 1;
	}
}

/* ---- the nodes from the topology ------------------------------------------------ */

/* Keeps the CPUs of o of core type kind (>= 0). */
static void of_coretype(const struct machine *m, int kind, struct numa_node *o)
{
	int k = 0;
	for (int i = 0; i < o->ncpus && kind >= 0 && m->topo; i++) {
		const struct topo_cpu *c = topo_cpu(m->topo, o->cpus[i]);
		if (c && c->coretype == kind)
			o->cpus[k++] = o->cpus[i];
	}
	if (kind >= 0 && m->topo)
		o->ncpus = k;
}

/* The caches one CPU of o reaches that memtop trusts: the largest level a
 * source claims that no doubt is about (one cache of it), and whether a
 * deeper level's claim is doubted. */
static void trusted_caches(const struct machine *m, struct numa_node *o)
{
	o->trusted = 0;
	o->trusted_level = 0;
	o->doubted = 0;
	for (int l = 1; l <= MACHINE_MAX_LEVELS; l++) {
		const struct machine_level *lv = &m->lv[l];
		if (!lv->claim)
			continue;
		if (lv->credible && !lv->doubt[0]) {
			o->trusted = lv->credible;
			o->trusted_level = l;
			o->doubted = 0;
		} else {
			o->doubted = 1;
		}
	}
}

size_t numa_nodes_of(const struct machine *m, int kind, struct numa_node *out, size_t cap)
{
	const struct topo *t = m->topo;
	size_t n = 0;
	int nn = t ? t->nnodes : 0;
	for (int i = 0; i < (nn > 0 ? nn : 1) && n < cap; i++) {
		struct numa_node *o = &out[n++];
		memset(o, 0, sizeof *o);
		if (nn > 0) {
			o->node = t->nodes[i].os_index;
			o->memory = t->nodes[i].memory;
			mt_strlcpy(o->tier, t->nodes[i].tier, sizeof o->tier);
			o->ncpus = machine_node_cpus(m, i, o->cpus, NUMA_MAX_NODE_CPUS);
			o->own = t->nodes[i].local.n;
		} else { /* no nodes known: one node 0 with every allowed CPU */
			o->memory = m->mem_total;
			o->ncpus = m->nallowed < NUMA_MAX_NODE_CPUS ? m->nallowed : NUMA_MAX_NODE_CPUS;
			memcpy(o->cpus, m->allowed, (size_t)o->ncpus * sizeof *o->cpus);
			o->own = o->ncpus;
		}
		of_coretype(m, kind, o);
		if (o->ncpus > 0)
			o->floor = machine_dram_floor(m, o->cpus, o->ncpus, o->floor_why,
						      sizeof o->floor_why);
		trusted_caches(m, o);
	}
	return n;
}

/* ---- placement and cells --------------------------------------------------------- */

/* Emit the cell of run `what` for pair c from g, with the pages of buf.
 * Returns 0, or -1 with e set. */
static int emit(struct numa_worker *w, const struct numa_pair *c, int what, const struct numa_got *g,
		const void *buf, size_t len, int where, int bound, mt_error *e)
{
	const struct numa_node *mem = &w->p->nodes[c->mem];
	struct job_event ev;
	struct numa_ev_cell x = { .flags = (g->moved ? NUMA_F_MOVED : 0) | (bound ? NUMA_F_BOUND : 0),
				  .where = where };
	uint64_t pages, on, absent;
	job_cell(&ev, what, c->cpu, c->mem, g->cell.value, g->cell.spread);
	if (what == NUMA_LAT || what == NUMA_LAT_HUGE || what == NUMA_LAT_FULL) {
		struct latency_ev_point lat;
		if (JOB_PAYLOAD_GET(&g->cell, struct latency_ev_point, &lat) < 0)
			return mt_fail(e, _("the latency lab gave a cell without its figures"));
		x.tries = (int)lat.tries;
		if (what == NUMA_LAT_HUGE || !(w->lat[c->cpu][c->mem] > 0))
			w->lat[c->cpu][c->mem] = g->cell.value;
	} else {
		struct bandwidth_ev_table bw;
		if (JOB_PAYLOAD_GET(&g->cell, struct bandwidth_ev_table, &bw) < 0)
			return mt_fail(e, _("the bandwidth lab gave a cell without its figures"));
		x.tries = bw.tries;
		x.flags |= (bw.flags & BANDWIDTH_CHECKED) ? NUMA_F_CHECKED : 0;
		x.flags |= bw.preempted > 0 ? NUMA_F_LOST : 0;
	}
	if (numa_mem_count(buf, len, mem->node, &pages, &on, &absent) == 0) {
		x.pages = (double)pages;
		x.on = (double)on;
		x.absent = (double)absent;
	} else {
		x.absent = -1;
	}
	JOB_PAYLOAD_PUT(&ev, struct numa_ev_cell, &x);
	return job_emit(w->job, &ev) < 0 ? mt_fail(e, _("out of memory")) : 0;
}

/* The chase for pair c at size, on 2 MB pages (huge) or 4 KB ones: the
 * buffer bound to the memory node with 2 MB of slack, the chase in its 2
 * MB-aligned part, which the lab advises as it is asked. Emits cell `what`
 * (NUMA_LAT, NUMA_LAT_HUGE, NUMA_LAT_FULL), or with what < 0 only gives its
 * ns a load in *ns. Returns 0, 1 cancelled, -1 with e. */
static int chase_at(struct numa_worker *w, const struct numa_pair *c, uint64_t size, int huge,
		    int what, double *ns, mt_error *e)
{
	struct latency_params lp = w->p->lat;
	int cpu = numa_latency_cpu(w->p, (size_t)c->cpu), rc, bound;
	size_t len;
	char *base;
	struct numa_got g;
	lp.sizes[0] = size;
	len = (size_t)latency_buffer_bytes(&lp) + (huge ? MT_HUGE_2M : 0);
	base = numa_mem_alloc(w->p->mem, w->p->nodes[c->mem].node, len, &bound, e);
	if (!base)
		return -1;
	lp.hugepages = huge ? LATENCY_HUGE_ON : LATENCY_HUGE_OFF;
	lp.buf_bytes = (size_t)latency_buffer_bytes(&lp);
	lp.buf = huge ? (char *)(((uintptr_t)base + MT_HUGE_2M - 1) & ~(uintptr_t)(MT_HUGE_2M - 1))
		      : base;
	rc = numa_run_lab(w, latency_worker, &lp, cpu, &g, e);
	if (rc == 0 && !g.have)
		rc = mt_fail(e, _("the latency lab gave no figure"));
	if (rc == 0 && ns)
		*ns = g.cell.value;
	if (rc == 0 && what >= 0)
		rc = emit(w, c, what, &g, lp.buf, lp.buf_bytes, cpu, bound, e);
	numa_mem_free(w->p->mem, base, len);
	return rc;
}

/* The latency of pair c for cell what: at lat_size on 4 KB pages
 * (NUMA_LAT) or 2 MB pages (NUMA_LAT_HUGE), at the run's size on 2 MB
 * pages (NUMA_LAT_FULL). Returns 0, 1 cancelled, -1 with e. */
static int run_latency(struct numa_worker *w, const struct numa_pair *c, int what, mt_error *e)
{
	return chase_at(w, c, what == NUMA_LAT_FULL ? w->p->size : w->p->lat_size,
			what != NUMA_LAT, what, NULL, e);
}

/* lat_curve: the chase on 2 MB pages of the first CPU node's own memory
 * from curve_from up, doubling, to the run's size (the doubted claim sets
 * that top), until two sizes an octave apart read as slow as memory and
 * within LATENCY_MEMORY_FLAT of each other: the latency lab's memory
 * plateau, whose top is where the idle latency is read. Says it in a
 * NUMA_NOTE_LAT_SIZE note. Returns 0, 1 cancelled, -1 with e. */
static int find_lat_size(struct numa_worker *w, mt_error *e)
{
	struct numa_params *p = w->p;
	const struct numa_pair *c = &p->cells[0];
	double prev = 0, v = 0;
	uint64_t s, at = p->size;
	char a[32], b[32], c3[32], why[sizeof p->lat_size_from];
	int rc = 0;
	for (size_t i = 0; i < p->ncells; i++)
		if (p->cells[i].cpu == p->cells[i].mem) {
			c = &p->cells[i];
			break;
		}
	for (s = p->curve_from; s <= p->size && rc == 0; s *= 2, prev = v) {
		numa_run_begins_s(w, numa_chase_cost_s(p, p->probe, s, 1));
		rc = chase_at(w, c, s, 1, -1, &v, e);
		numa_run_ends(w);
		if (rc != 0)
			break;
		if (prev >= LATENCY_MEMORY_NS && v >= LATENCY_MEMORY_NS &&
		    fmax(v, prev) <= LATENCY_MEMORY_FLAT * fmin(v, prev)) {
			at = s;
			break;
		}
	}
	if (rc != 0)
		return rc;
	p->lat_size = at;
	p->lat_curve = 0; /* found: the cells are at lat_size now, priced so */
	w->left_s = numa_estimate_s(p, p->probe);
	if (at < p->size) {
		char x[3][32]; /* whole numbers: the same in every locale */
		mt_snprintf(x[0], sizeof x[0], "%.0f", prev);
		mt_snprintf(x[1], sizeof x[1], "%.0f", v);
		mt_snprintf(x[2], sizeof x[2], "%.0f", (LATENCY_MEMORY_FLAT - 1) * 100);
		mt_snprintf(why, sizeof why, NUMA_LAT_SETTLED, x[0], mt_fmt_size(a, sizeof a, at / 2),
			    x[1], mt_fmt_size(b, sizeof b, at), x[2],
			    mt_fmt_size(c3, sizeof c3, p->curve_from));
	} else {
		mt_snprintf(why, sizeof why, NUMA_LAT_UNSETTLED, mt_fmt_size(c3, sizeof c3, p->curve_from));
	}
	mt_strlcpy(p->lat_size_from, why, sizeof p->lat_size_from);
	{
		struct job_event ev;
		memset(&ev, 0, sizeof ev);
		ev.type = JOB_EV_NOTE;
		ev.subtype = NUMA_NOTE_LAT_SIZE;
		ev.value = (double)at;
		mt_strlcpy(ev.text, why, sizeof ev.text);
		return job_emit(w->job, &ev) < 0 ? mt_fail(e, _("out of memory")) : 0;
	}
}


struct toucher {
	char *from;
	size_t len;
};

static void *touch_main(void *arg)
{
	struct toucher *t = arg;
	for (size_t off = 0; off < t->len; off += PAGE)
		t->from[off] = 0;
	return NULL;
}

/* First touch of the bandwidth buffer: each thread's slice from a thread
 * on that thread's CPU (the lab puts thread i on cpus[i % ncpus]). */
static int first_touch(const struct bandwidth_params *b, char *buf, size_t len, mt_error *e)
{
	struct bandwidth_layout lay;
	unsigned n = b->threads[0];
	pthread_t tid[BANDWIDTH_MAX_THREADS];
	struct toucher t[BANDWIDTH_MAX_THREADS];
	unsigned started = 0;
	int rc = 0;
	bandwidth_layout(b->kernels[0], &b->sizes[0], n, 1, &lay);
	for (unsigned i = 0; i < n; i++) {
		t[i].from = buf + (size_t)i * lay.slice_stride;
		t[i].len = i + 1 == n ? len - (size_t)i * lay.slice_stride : lay.slice_stride;
		if ((rc = mt_thread_start(&tid[i], b->cpus[i % (unsigned)b->ncpus], touch_main,
					  &t[i])) != 0)
			break;
		started++;
	}
	for (unsigned i = 0; i < started; i++)
		mt_thread_join(tid[i]);
	return rc ? mt_fail(e, _("cannot start a thread to touch the memory: %s"), strerror(rc)) : 0;
}

/* The bandwidth of mix (NUMA_MIX_*) for pair c: its kernel (with
 * streaming stores where p asks) on every CPU of the CPU node. */
static int run_bandwidth(struct numa_worker *w, const struct numa_pair *c, int mix, mt_error *e)
{
	const struct numa_node *cn = &w->p->nodes[c->cpu];
	struct bandwidth_params *b = malloc(sizeof *b);
	struct numa_got g;
	int rc = -1, bound;
	if (!b)
		return mt_fail(e, _("out of memory"));
	*b = w->p->bw;
	b->kernels[0] = numa_mix_kernel(mix, w->p->streaming);
	b->threads[0] = (unsigned)cn->ncpus;
	if (bandwidth_set_cpus(b, cn->cpus, cn->ncpus, w->p->m, e) < 0)
		goto out;
	bandwidth_order_cpus(b, BANDWIDTH_SPREAD);
	bandwidth_count_groups(b);
	b->buf_bytes = (size_t)bandwidth_table_bytes(b) + PAGE;
	b->buf = numa_mem_alloc(w->p->mem, w->p->nodes[c->mem].node, b->buf_bytes, &bound, e);
	if (!b->buf)
		goto out;
	if (first_touch(b, b->buf, b->buf_bytes, e) == 0)
		rc = numa_run_lab(w, bandwidth_worker, b, cn->cpus[0], &g, e);
	if (rc == 0 && !g.have)
		rc = mt_fail(e, _("the bandwidth lab gave no figure"));
	if (rc == 0)
		rc = emit(w, c, numa_mix_meas(mix), &g, b->buf, b->buf_bytes, cn->ncpus, bound, e);
	numa_mem_free(w->p->mem, b->buf, b->buf_bytes);
out:
	free(b);
	return rc;
}



/* After the first node pair, with pairs left: the time said again, what is
 * left priced at the first pair's real time (took) over its price. Returns 0, or
 * -1 out of memory. */
static int say_revised(struct numa_worker *w, double priced, double took)
{
	struct job_event ev;
	if (w->left_s <= 0 || priced <= 0)
		return 0;
	w->factor = took / priced;
	memset(&ev, 0, sizeof ev);
	ev.type = JOB_EV_NOTE;
	ev.subtype = NUMA_NOTE_REVISED;
	ev.value = w->done_s + w->left_s * w->factor;
	mt_snprintf(ev.text, sizeof ev.text, NUMA_SAYS_REVISED, ceil(ev.value), took, priced);
	return job_emit(w->job, &ev);
}

int numa_worker(job_t *job, void *arg, mt_error *e)
{
	struct numa_worker w;
	double first = 0, first_at = 0;
	int rc = 0;
	memset(&w, 0, sizeof w);
	w.job = job;
	w.p = arg;
	w.factor = 1;
	if (!w.p->mem || w.p->ncells == 0)
		return mt_fail(e, _("numa: nothing to measure"));
	w.left_s = numa_estimate_s(w.p, w.p->probe);
	if (w.p->lat_curve && w.p->huge && (rc = find_lat_size(&w, e)) != 0)
		return rc < 0 ? -1 : 0;
	job_set_total(job, (uint64_t)w.p->ncells * runs_a_pair(w.p)); /* cells */
	for (size_t i = 0; i < w.p->ncells && rc == 0; i++) {
		const struct numa_pair *c = &w.p->cells[i];
		static const int lat[] = { NUMA_LAT, NUMA_LAT_HUGE, NUMA_LAT_FULL };
		if (i == 0) /* the first pair's price and start (the curve's time before it) */
			first = w.left_s, first_at = w.done_s;
		for (size_t k = 0; k < MT_ARRAY_LEN(lat) && rc == 0; k++) {
			if (k > 0 && !w.p->huge)
				break;
			if (lat[k] == NUMA_LAT_FULL && w.p->lat_size >= w.p->size)
				break;
			numa_run_begins(&w, i, lat[k]);
			rc = run_latency(&w, c, lat[k], e);
			numa_run_ends(&w);
		}
		for (int m = 0; m < NUMA_NMIX && rc == 0; m++) {
			if (!((w.p->mixes >> m) & 1))
				continue;
			numa_run_begins(&w, i, numa_mix_meas(m));
			rc = run_bandwidth(&w, c, m, e);
			numa_run_ends(&w);
		}
		if (rc == 0 && i == 0 && i + 1 < w.p->ncells &&
		    say_revised(&w, first - w.left_s, w.done_s - first_at) < 0)
			rc = mt_fail(e, _("out of memory"));
	}
	if (rc == 0 && w.p->nloaded)
		rc = numa_run_curves(&w, e);
	return rc < 0 ? -1 : 0;
}
