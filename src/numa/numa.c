/* numa: the plan (nodes, cells, the size) and the worker that runs the
 * latency and bandwidth labs' own workers on bound memory. See numa.h. */
#include "config.h"

#include "numa.h"
#include "numa_int.h"
#include "machine/plan.h"
#include "os/threads.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#define SIZE_ALIGN (2ull << 20)
#define PAGE 4096u
#define WAIT_MS 50 /* the worker checks its own job this often while a lab's run runs */

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
		return mt_fail(e, "--nodes: %zu nodes, at most %d at a time (nodes here: %s)", n,
			       NUMA_MAX_NODES, here);
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
			return mt_fail(e, "--nodes: no node %d (nodes here: %s)", want[i], here);
		for (size_t j = 0; j < i; j++)
			if (p->nodes[j].node == all[k].node)
				return mt_fail(e, "--nodes: node %d given twice", all[k].node);
		p->nodes[i] = all[k];
	}
	p->nnodes = n;
	return 0;
}

/* The size from the nodes' floors and the memory (see numa_plan). */
static int plan_size(struct numa_params *p, uint64_t avail, int quick, mt_error *e)
{
	uint64_t floor = 0, cap = avail ? avail / BANDWIDTH_MEM_SHARE : UINT64_MAX;
	const char *why = "";
	char a[32], b[32], c[32];
	for (size_t i = 0; i < p->nnodes; i++) {
		const struct numa_node *n = &p->nodes[i];
		if (n->memory && n->memory / BANDWIDTH_MEM_SHARE < cap)
			cap = n->memory / BANDWIDTH_MEM_SHARE;
		if (n->ncpus > 0 && n->floor > floor) {
			floor = n->floor;
			why = n->floor_why;
		}
	}
	p->size = quick ? NUMA_QUICK_SIZE : floor;
	if (quick)
		mt_snprintf(p->size_from, sizeof p->size_from, "--quick");
	else if (floor)
		mt_snprintf(p->size_from, sizeof p->size_from, "%s", why);
	else
		mt_strlcpy(p->size_from, "no cache size known", sizeof p->size_from);
	if (!quick && p->size < BANDWIDTH_DRAM_MIN) {
		p->size = BANDWIDTH_DRAM_MIN;
		mt_append(p->size_from, sizeof p->size_from, ", at least %s",
			  mt_fmt_size(a, sizeof a, BANDWIDTH_DRAM_MIN));
	}
	if (p->size > cap) {
		mt_snprintf(c, sizeof c, "%s", mt_fmt_size(b, sizeof b, p->size));
		p->size = cap / SIZE_ALIGN * SIZE_ALIGN;
		mt_append(p->size_from, sizeof p->size_from, ", cut from %s to %s: 1/%d of the memory",
			  c, mt_fmt_size(a, sizeof a, p->size), BANDWIDTH_MEM_SHARE);
	}
	p->size = (p->size + SIZE_ALIGN - 1) / SIZE_ALIGN * SIZE_ALIGN;
	if (p->size > cap)
		p->size = cap / SIZE_ALIGN * SIZE_ALIGN;
	if (p->size < floor)
		mt_append(p->size_from, sizeof p->size_from,
			  "; under %s, %d x the caches the CPUs reach: part of it may be served "
			  "from a cache", mt_fmt_size(a, sizeof a, floor), MACHINE_DRAM_FACTOR);
	if (p->size < NUMA_MIN_SIZE) {
		mt_fail(e, "not enough memory: 1/%d of it is under %s", BANDWIDTH_MEM_SHARE,
			mt_fmt_size(a, sizeof a, NUMA_MIN_SIZE));
		return -2;
	}
	return 0;
}

int numa_plan(struct numa_params *p, const struct numa_node *all, size_t nall, const int *want,
	      size_t nwant, uint64_t avail, int quick, mt_error *e)
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
		mt_fail(e, "no NUMA node has a CPU this process may use as its own (node%s %s: "
			   "memory only here; a cpuset may allow CPUs whose own node it does not)",
			p->nnodes == 1 ? "" : "s", names);
		return -2;
	}
	if (p->ncells == 0) {
		nodes_text(p->nodes, p->nnodes, names, sizeof names);
		return mt_fail(e, "--nodes: node%s %s ha%s no CPU this process may use",
			       p->nnodes == 1 ? "" : "s", names, p->nnodes == 1 ? "s" : "ve");
	}
	return plan_size(p, avail, quick, e);
}

void numa_params_runs(struct numa_params *p)
{
	struct latency_params *l = &p->lat;
	struct bandwidth_params *b = &p->bw;
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

/* The runs of p's matrices a node pair takes: latency (twice with 2 MB
 * pages), one a mix. */
static int runs_a_pair(const struct numa_params *p)
{
	int n = 1 + (p->huge != 0);
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
		char mem[24], dist[24] = "", inj[96];
		if (c->pair.mem >= 0)
			mt_snprintf(mem, sizeof mem, "%d", p->nodes[c->pair.mem].node);
		else
			mt_strlcpy(mem, "?", sizeof mem);
		if (c->dist > 0)
			mt_snprintf(dist, sizeof dist, ", distance %d", c->dist);
		numa_cpus_text(cpus + 1, n - 1, inj, sizeof inj);
		plan_note(out, "loaded latency %d>%s (%s%s): chaser on CPU %d, %d injector%s on CPU%s "
			       "%s, idle and %zu delays, about %.0f s", p->nodes[c->pair.cpu].node, mem,
			  numa_why_text(c->why), dist, cpus[0], n - 1, n == 2 ? "" : "s",
			  n == 2 ? "" : "s", inj, p->ndelays, numa_loaded_estimate_s(p));
	}
}

void numa_plan_of(const struct numa_params *p, const struct machine *m, struct plan *out)
{
	char why[300], mixes[64];
	plan_init(out, "numa", m);
	mt_snprintf(why, sizeof why, "each run's buffer, bound to the memory node: %s",
		    p->size_from);
	plan_add_size(out, "DRAM", p->size, 0, 0, why);
	for (size_t i = 0; i < p->nnodes; i++) {
		const struct numa_node *n = &p->nodes[i];
		struct plan_node pn;
		memset(&pn, 0, sizeof pn);
		pn.node = n->node;
		mt_strlcpy(pn.tier, n->tier, sizeof pn.tier);
		pn.memory = n->memory;
		pn.ncpus = n->ncpus;
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
	plan_note(out, "%d runs a node pair: latency on 4 KB pages%s%s%s (%s stores)",
		  runs_a_pair(p), p->huge ? ", latency on 2 MB pages (as MLC)" : "",
		  p->mixes ? ", bandwidth " : "", numa_mixes_text(p->mixes, mixes, sizeof mixes),
		  p->streaming ? "streaming" : "cached");
	if (p->skipped)
		plan_note(out, "%zu of the machine's %zu nodes, spread over it: a run takes at most "
			       "%d (--nodes picks them)", p->nnodes, p->nnodes + p->skipped,
			  NUMA_MAX_NODES);
	loaded_notes(p, out);
	out->estimate_s = (double)p->ncells * runs_a_pair(p) * (p->quick ? 0.3 : 2.0) +
			  (double)p->nloaded * numa_loaded_estimate_s(p);
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
		} else { /* no nodes known: one node 0 with every allowed CPU */
			o->memory = m->mem_total;
			o->ncpus = m->nallowed < NUMA_MAX_NODE_CPUS ? m->nallowed : NUMA_MAX_NODE_CPUS;
			memcpy(o->cpus, m->allowed, (size_t)o->ncpus * sizeof *o->cpus);
		}
		of_coretype(m, kind, o);
		if (o->ncpus > 0)
			o->floor = machine_dram_floor(m, o->cpus, o->ncpus, o->floor_why,
						      sizeof o->floor_why);
	}
	return n;
}

/* ---- one lab's run as a job of its own ------------------------------------------ */

/* A point of the loaded sweep (a BANDWIDTH_EV_LOADED cell) as a NUMA_LOADED
 * cell of w's curve, on to w's job. */
static void pass_point(struct numa_worker *w, const struct job_event *in)
{
	struct bandwidth_ev_loaded x;
	struct job_event ev;
	if (JOB_PAYLOAD_GET(in, struct bandwidth_ev_loaded, &x) < 0)
		return;
	job_cell(&ev, NUMA_LOADED, w->curve->pair.cpu, w->curve_mem, in->value, in->spread);
	JOB_PAYLOAD_PUT(&ev, struct numa_ev_loaded,
			&((struct numa_ev_loaded){ .point = in->row, .why = w->curve->why,
						   .delay_ns = x.delay_ns, .gbs = x.gbs,
						   .spread = in->spread, .tries = x.tries,
						   .preempted = x.preempted }));
	(void)job_emit(w->job, &ev);
}

/* Take sub's events into g (a note goes on to w's job; a curve's points
 * too). Returns 1 after the last event, else 0. */
static int take_events(struct numa_worker *w, job_t *sub, struct numa_got *g)
{
	struct job_event ev[16];
	size_t n = job_take(sub, ev, MT_ARRAY_LEN(ev));
	int last = 0;
	for (size_t i = 0; i < n; i++) {
		switch (ev[i].type) {
		case JOB_EV_CELL:
		case JOB_EV_UPDATE:
			if (w->curve && ev[i].subtype == BANDWIDTH_EV_LOADED) {
				pass_point(w, &ev[i]);
				break;
			}
			g->have = 1;
			g->cell = ev[i];
			break;
		case JOB_EV_NOTE:
			/* the latency run's own figures: the numa run says its own */
			if (ev[i].subtype == LATENCY_NOTE_PRICED || ev[i].subtype == LATENCY_NOTE_REVISED)
				break;
			if (ev[i].subtype == LATENCY_NOTE_PAGES) { /* said once for each page size */
				int huge = strstr(ev[i].text, "huge pages on") != NULL;
				ev[i].subtype = huge ? NUMA_NOTE_PAGES_HUGE : NUMA_NOTE_PAGES;
				if (w->pages_said & (1 << huge))
					break;
				w->pages_said |= 1 << huge;
			}
			(void)job_emit(w->job, &ev[i]);
			break;
		default: /* done, failed, cancelled: the last */
			last = 1;
		}
	}
	return last;
}

int numa_run_lab(struct numa_worker *w, job_fn fn, void *arg, int cpu, struct numa_got *g, mt_error *e)
{
	struct job_progress pg;
	job_t *sub;
	int last = 0, paused = 0;
	memset(g, 0, sizeof *g);
	if (!(sub = numa_mem_job_start(w->p->mem, fn, arg, cpu, &g->moved, e)))
		return -1;
	while (!last) {
		struct pollfd pfd = { job_fd(sub), POLLIN, 0 };
		(void)poll(&pfd, 1, WAIT_MS);
		last = take_events(w, sub, g);
		job_get_progress(sub, &pg);
		g->moved |= pg.cpu_moved;
		job_set_progress(w->job, w->done + pg.fraction * (w->curve ? NUMA_CURVE_RUNS : 1),
				 w->total);
		if (!paused && job_is_paused(w->job)) {
			job_pause(sub);
			paused = 1;
		}
		if (job_check(w->job) == JOB_CANCELLED) /* blocks while paused */
			job_cancel(sub);
		else if (paused) {
			job_resume(sub);
			paused = 0;
		}
	}
	return job_join(sub, e);
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
	if (what == NUMA_LAT || what == NUMA_LAT_HUGE) {
		struct latency_ev_point lat;
		if (JOB_PAYLOAD_GET(&g->cell, struct latency_ev_point, &lat) < 0)
			return mt_fail(e, "the latency lab gave a cell without its figures");
		x.tries = (int)lat.tries;
		if (what == NUMA_LAT_HUGE || !(w->lat[c->cpu][c->mem] > 0))
			w->lat[c->cpu][c->mem] = g->cell.value;
	} else {
		struct bandwidth_ev_table bw;
		if (JOB_PAYLOAD_GET(&g->cell, struct bandwidth_ev_table, &bw) < 0)
			return mt_fail(e, "the bandwidth lab gave a cell without its figures");
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
	return job_emit(w->job, &ev) < 0 ? mt_fail(e, "out of memory") : 0;
}

/* The latency of pair c on 4 KB pages, or (huge) on 2 MB pages: the
 * buffer bound to the memory node with 2 MB of slack, the chase in its 2
 * MB-aligned part, which the lab advises as it is asked. Returns 0, 1
 * cancelled, -1 with e. */
static int run_latency(struct numa_worker *w, const struct numa_pair *c, int huge, mt_error *e)
{
	struct latency_params lp = w->p->lat;
	int cpu = numa_latency_cpu(w->p, (size_t)c->cpu), rc, bound;
	size_t len = (size_t)latency_buffer_bytes(&lp) + (huge ? MT_HUGE_2M : 0);
	char *base;
	struct numa_got g;
	base = numa_mem_alloc(w->p->mem, w->p->nodes[c->mem].node, len, &bound, e);
	if (!base)
		return -1;
	lp.hugepages = huge ? LATENCY_HUGE_ON : LATENCY_HUGE_OFF;
	lp.buf_bytes = (size_t)latency_buffer_bytes(&lp);
	lp.buf = huge ? (char *)(((uintptr_t)base + MT_HUGE_2M - 1) & ~(uintptr_t)(MT_HUGE_2M - 1))
		      : base;
	rc = numa_run_lab(w, latency_worker, &lp, cpu, &g, e);
	if (rc == 0 && !g.have)
		rc = mt_fail(e, "the latency lab gave no figure");
	if (rc == 0)
		rc = emit(w, c, huge ? NUMA_LAT_HUGE : NUMA_LAT, &g, lp.buf, lp.buf_bytes, cpu, bound,
			  e);
	numa_mem_free(w->p->mem, base, len);
	return rc;
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
	return rc ? mt_fail(e, "cannot start a thread to touch the memory: %s", strerror(rc)) : 0;
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
		return mt_fail(e, "out of memory");
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
		rc = mt_fail(e, "the bandwidth lab gave no figure");
	if (rc == 0)
		rc = emit(w, c, numa_mix_meas(mix), &g, b->buf, b->buf_bytes, cn->ncpus, bound, e);
	numa_mem_free(w->p->mem, b->buf, b->buf_bytes);
out:
	free(b);
	return rc;
}

int numa_worker(job_t *job, void *arg, mt_error *e)
{
	struct numa_worker w;
	int rc = 0;
	memset(&w, 0, sizeof w);
	w.job = job;
	w.p = arg;
	if (!w.p->mem || w.p->ncells == 0)
		return mt_fail(e, "numa: nothing to measure");
	w.total = (double)w.p->ncells * runs_a_pair(w.p) + (double)w.p->nloaded * NUMA_CURVE_RUNS;
	job_set_total(job, (uint64_t)w.total);
	for (size_t i = 0; i < w.p->ncells && rc == 0; i++) {
		const struct numa_pair *c = &w.p->cells[i];
		if ((rc = run_latency(&w, c, 0, e)) == 0)
			w.done++;
		if (rc == 0 && w.p->huge && (rc = run_latency(&w, c, 1, e)) == 0)
			w.done++;
		for (int m = 0; m < NUMA_NMIX && rc == 0; m++)
			if (((w.p->mixes >> m) & 1) && (rc = run_bandwidth(&w, c, m, e)) == 0)
				w.done++;
		job_set_progress(job, w.done, w.total);
	}
	if (rc == 0 && w.p->nloaded)
		rc = numa_run_curves(&w, e);
	return rc < 0 ? -1 : 0;
}
