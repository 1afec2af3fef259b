/* numa_loaded: the loaded-latency curves of memtop run numa --loaded, as
 * Intel MLC's --loaded_latency draws them: which node pairs (the local
 * one, and the farthest remote one or those asked), and each measured by
 * the bandwidth lab's loaded sweep (bandwidth_loaded: one chaser on the
 * latency lab's random chase, injectors on the other CPUs of the CPU node
 * with a delay between their bursts, idle then from long delays to none)
 * on buffers bound to the memory node, the chase on 2 MB pages where the
 * kernel gives them. See numa.h. */
#include "config.h"

#include "numa.h"
#include "base/i18n.h"
#include "numa_int.h"
#include "os/platform.h"
#include "os/sysinfo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The injectors' delays between 8 KB bursts, ns: from a light load to
 * none (saturation), closer where a server's knee usually is. */
static const double full_delays[] = { 25600, 12800, 6400, 3200, 1600, 1200, 800,
				      600,   400,   300,  200,  100,  50,   0 };
static const double quick_delays[] = { 3200, 400, 0 };

/* ---- the plan ---------------------------------------------------------------- */

const char *numa_why_text(int why)
{
	switch (why) {
	/* (stored in the plan's notes as they are; people's through _() where printed) */
	/* TRANSLATORS: why a loaded-latency curve's node pair was chosen */
	case NUMA_WHY_LOCAL: return N_("local");
	case NUMA_WHY_ASKED: return N_("asked");
	case NUMA_WHY_SLIT: return N_("the farthest by the firmware's distances");
	case NUMA_WHY_LATENCY: return N_("the slowest idle latency measured");
	default: return "";
	}
}

static int index_of(const struct numa_params *p, int node)
{
	for (size_t i = 0; i < p->nnodes; i++)
		if (p->nodes[i].node == node)
			return (int)i;
	return -1;
}

/* Add the curve (cpu, mem) unless p has it. Returns 0, or -1 with e when
 * p is full. */
static int add_curve(struct numa_params *p, int cpu, int mem, int why, int dist, mt_error *e)
{
	for (size_t i = 0; i < p->nloaded; i++)
		if (p->loaded[i].pair.cpu == cpu && p->loaded[i].pair.mem == mem)
			return 0;
	if (p->nloaded == NUMA_MAX_CURVES)
		return mt_fail(e, _("--loaded-pairs: more than %d curves at a time"), NUMA_MAX_CURVES);
	p->loaded[p->nloaded].pair.cpu = cpu;
	p->loaded[p->nloaded].pair.mem = mem;
	p->loaded[p->nloaded].why = why;
	p->loaded[p->nloaded].dist = dist;
	p->nloaded++;
	return 0;
}

/* Whether CPU node index c can carry a curve: a chaser and an injector.
 * Returns 0, or -1 with e. */
static int two_cpus(const struct numa_params *p, int c, mt_error *e)
{
	const struct numa_node *n = &p->nodes[c];
	if (n->ncpus >= 2)
		return 0;
	if (n->ncpus == 1)
		return mt_fail(e, _("--loaded: CPU node %d has one CPU this process may use (CPU %d): "
			       "the loaded latency needs a chaser and an injector beside it"),
			       n->node, n->cpus[0]);
	return mt_fail(e, _("--loaded: node %d has no CPU this process may use: no curve from it"),
		       n->node);
}

/* The first CPU node's local pair and its farthest memory node. */
static int default_curves(struct numa_params *p, const int (*dist)[NUMA_MAX_NODES], mt_error *e)
{
	int c = -1, far = -1, known = dist != NULL;
	for (size_t i = 0; i < p->nnodes && c < 0; i++)
		if (p->nodes[i].ncpus > 0)
			c = (int)i;
	if (c < 0)
		return mt_fail(e, _("--loaded: no node has a CPU this process may use"));
	if (two_cpus(p, c, e) < 0 || add_curve(p, c, c, NUMA_WHY_LOCAL, 0, e) < 0)
		return -1;
	if (p->nnodes < 2)
		return 0;
	for (size_t j = 0; known && j < p->nnodes; j++)
		known = dist[c][j] > 0;
	for (size_t j = 0; known && j < p->nnodes; j++)
		if ((int)j != c && (far < 0 || dist[c][j] > dist[c][far]))
			far = (int)j;
	if (far >= 0)
		return add_curve(p, c, far, NUMA_WHY_SLIT, dist[c][far], e);
	return add_curve(p, c, -1, NUMA_WHY_LATENCY, 0, e);
}

int numa_plan_loaded(struct numa_params *p, const int (*dist)[NUMA_MAX_NODES],
		     const struct numa_pair *asked, size_t nasked, mt_error *e)
{
	const double *d = p->quick ? quick_delays : full_delays;
	p->ndelays = p->quick ? MT_ARRAY_LEN(quick_delays) : MT_ARRAY_LEN(full_delays);
	memcpy(p->delays, d, p->ndelays * sizeof *d);
	p->nloaded = 0;
	if (!nasked)
		return default_curves(p, dist, e);
	for (size_t i = 0; i < nasked; i++) {
		int c = index_of(p, asked[i].cpu), m = index_of(p, asked[i].mem);
		if (c < 0 || m < 0)
			return mt_fail(e, _("--loaded-pairs: %d:%d: node %d is not one measured"), asked[i].cpu,
				       asked[i].mem, c < 0 ? asked[i].cpu : asked[i].mem);
		if (two_cpus(p, c, e) < 0)
			return -1;
	}
	for (size_t i = 0; i < nasked; i++) { /* each CPU node's local curve, then those asked */
		int c = index_of(p, asked[i].cpu);
		if (add_curve(p, c, c, NUMA_WHY_LOCAL, 0, e) < 0)
			return -1;
		for (size_t k = 0; k < nasked; k++) {
			int m = index_of(p, asked[k].mem);
			if (index_of(p, asked[k].cpu) == c && m != c &&
			    add_curve(p, c, m, NUMA_WHY_ASKED, dist ? dist[c][m] : 0, e) < 0)
				return -1;
		}
	}
	return 0;
}

int numa_loaded_cpus(const struct numa_params *p, size_t i, int *cpus, int cap)
{
	const struct numa_node *n = &p->nodes[i];
	int chaser = numa_latency_cpu(p, i), k = 0;
	if (chaser < 0 || cap < 1)
		return 0;
	cpus[k++] = chaser;
	for (int j = 0; j < n->ncpus && k < cap; j++)
		if (n->cpus[j] != chaser)
			cpus[k++] = n->cpus[j];
	return k;
}

/* ---- measuring ------------------------------------------------------------------ */

/* The memory node of CPU node c's slowest remote pair measured, -1 none. */
static int slowest(const struct numa_worker *w, int c)
{
	int far = -1;
	for (size_t j = 0; j < w->p->nnodes; j++)
		if ((int)j != c && w->lat[c][j] > 0 && (far < 0 || w->lat[c][j] > w->lat[c][far]))
			far = (int)j;
	return far;
}

/* The buffers of a curve: the chase (2 MB aligned, with its slack, for
 * huge pages) and the injectors', both bound to the memory node. */
struct curve_mem {
	char *base, *lbuf;
	size_t base_len, lbuf_len;
	int bound;
};

static void curve_free(struct numa_worker *w, struct curve_mem *cm)
{
	numa_mem_free(w->p->mem, cm->base, cm->base_len);
	numa_mem_free(w->p->mem, cm->lbuf, cm->lbuf_len);
}

/* The curve's end: how it was measured, where its pages were. */
static int emit_done(struct numa_worker *w, const struct bandwidth_params *b, int c, int m,
		     const struct curve_mem *cm, mt_error *e)
{
	struct numa_ev_loaded_done x = { .why = w->curve->why, .chaser_cpu = b->cpus[0],
					 .injectors = b->ncpus - 1, .huge = b->chase_huge,
					 .huge_share = -1, .on_node = -1 };
	uint64_t rss, huge, p1, o1, a1, p2, o2, a2;
	int node = w->p->nodes[m].node;
	struct job_event ev;
	if (mt_plat_huge_bytes(b->chase_buf, b->chase_bytes, &rss, &huge) == 0 && b->chase_bytes)
		x.huge_share = (double)huge / (double)b->chase_bytes;
	if (numa_mem_count(b->chase_buf, b->chase_bytes, node, &p1, &o1, &a1) == 0 &&
	    numa_mem_count(cm->lbuf, cm->lbuf_len, node, &p2, &o2, &a2) == 0 && p1 + p2 > 0)
		x.on_node = (double)(o1 + o2) / (double)(p1 + p2);
	job_cell(&ev, NUMA_LOADED_DONE, c, m, 0, 0);
	JOB_PAYLOAD_PUT(&ev, struct numa_ev_loaded_done, &x);
	return job_emit(w->job, &ev) < 0 ? mt_fail(e, _("out of memory")) : 0;
}

/* Set b up for curve (c, m): the sweep alone, chaser first, the delays,
 * the buffers bound to m. Returns 0, or -1 with e. */
static int curve_setup(struct numa_worker *w, struct bandwidth_params *b, int c, int m,
		       struct curve_mem *cm, mt_error *e)
{
	const struct numa_params *p = w->p;
	int cpus[NUMA_MAX_NODE_CPUS], n = numa_loaded_cpus(p, (size_t)c, cpus, NUMA_MAX_NODE_CPUS);
	int node = p->nodes[m].node;
	*b = p->bw;
	if (bandwidth_set_cpus(b, cpus, n, p->m, e) < 0)
		return -1;
	b->loaded = 2;
	b->nkernels = 1;
	b->kernels[0] = BANDWIDTH_READ;
	b->chase_stride = p->lat.random_stride ? p->lat.random_stride : 128;
	b->chase_bytes = b->loader_bytes = p->size;
	b->chase_huge = p->huge;
	memcpy(b->delays, p->delays, p->ndelays * sizeof *p->delays);
	b->ndelays = p->ndelays;
	cm->base_len = (size_t)p->size + MT_HUGE_2M;
	cm->lbuf_len = (size_t)bandwidth_loader_bytes(b);
	if (!(cm->base = numa_mem_alloc(p->mem, node, cm->base_len, &cm->bound, e)))
		return -1;
	if (!(cm->lbuf = numa_mem_alloc(p->mem, node, cm->lbuf_len, &cm->bound, e)))
		return -1;
	b->chase_buf = (char *)(((uintptr_t)cm->base + MT_HUGE_2M - 1) & ~(uintptr_t)(MT_HUGE_2M - 1));
	b->loader_buf = cm->lbuf;
	return 0;
}

/* One curve of the plan. Returns 0, 1 cancelled, -1 with e. */
static int run_curve(struct numa_worker *w, const struct numa_curve_plan *cp, mt_error *e)
{
	int c = cp->pair.cpu, m = cp->pair.mem >= 0 ? cp->pair.mem : slowest(w, c), rc;
	struct bandwidth_params *b;
	struct curve_mem cm = { 0 };
	struct numa_got g;
	if (m < 0) {
		job_note(w->job, NUMA_SAYS_NO_REMOTE, w->p->nodes[c].node);
		return 0;
	}
	if (!(b = malloc(sizeof *b)))
		return mt_fail(e, _("out of memory"));
	rc = curve_setup(w, b, c, m, &cm, e);
	if (rc == 0) {
		w->curve = cp;
		w->curve_mem = m;
		rc = numa_run_lab(w, bandwidth_worker, b, b->cpus[0], &g, e);
		if (rc == 0)
			rc = emit_done(w, b, c, m, &cm, e);
		w->curve = NULL;
	}
	curve_free(w, &cm);
	free(b);
	return rc;
}

int numa_run_curves(struct numa_worker *w, mt_error *e)
{
	int rc = 0;
	for (size_t k = 0; k < w->p->nloaded && rc == 0; k++) {
		const struct numa_curve_plan *cp = &w->p->loaded[k];
		int dup = 0;
		/* a curve by latency that found a pair already asked: once */
		for (size_t j = 0; cp->pair.mem < 0 && j < k; j++)
			dup |= w->p->loaded[j].pair.cpu == cp->pair.cpu &&
			       w->p->loaded[j].pair.mem == slowest(w, cp->pair.cpu);
		numa_run_begins_s(w, numa_curve_cost_s(w->p, w->p->probe));
		if (!dup)
			rc = run_curve(w, cp, e);
		numa_run_ends(w);
	}
	return rc;
}
