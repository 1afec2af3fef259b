/* numa_result: the one store of a numa run (batch, view, compare), its
 * JSON writer and its strict reader. See numa.h. */
#include "config.h"

#include "numa.h"
#include "base/i18n.h"
#include "numa_json.h"
#include "base/jsonio.h"
#include "os/platform.h"
#include "os/sysinfo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const meas_name[NUMA_NMEAS] = { "latency", "read", "triad", "latency_huge",
						   "latency_full", "3:1", "2:1", "1:1" };

static void unplaced(struct numa_result *r)
{
	for (size_t i = 0; i < NUMA_MAX_NODES; i++)
		for (size_t j = 0; j < NUMA_MAX_NODES; j++)
			r->placed[i][j] = NAN;
}

void numa_result_init(struct numa_result *r, const struct numa_params *p)
{
	memset(r, 0, sizeof *r);
	unplaced(r);
	r->nnodes = p->nnodes;
	for (size_t i = 0; i < p->nnodes; i++) {
		r->nodes[i] = p->nodes[i].node;
		r->ncpus[i] = p->nodes[i].ncpus;
		numa_cpus_text(p->nodes[i].cpus, p->nodes[i].ncpus, r->cpus[i], sizeof r->cpus[i]);
		r->lat_cpu[i] = numa_latency_cpu(p, i);
	}
	r->have_dist = p->nnodes > 0;
	for (size_t i = 0; i < p->nnodes; i++)
		for (size_t j = 0; j < p->nnodes; j++) {
			r->dist[i][j] = p->dist[i][j];
			r->have_dist &= p->dist[i][j] > 0;
		}
	r->size = p->size;
	mt_strlcpy(r->size_from, p->size_from, sizeof r->size_from);
	r->lat_size = p->lat_size;
	mt_strlcpy(r->lat_size_from, p->lat_size_from, sizeof r->lat_size_from);
	r->stride = p->lat.random_stride;
	mt_strlcpy(r->isa, bandwidth_isa_name(p->bw.isa) ? bandwidth_isa_name(p->bw.isa) : "",
		   sizeof r->isa);
	(void)mt_plat_numa_balancing(&r->numa_balancing); /* -1: none */
	mt_thp_mode(r->thp, sizeof r->thp);
	r->page_size = mt_page_size();
	r->mixes = p->mixes;
	r->streaming = p->streaming;
}

/* The curve of pair (cpu, mem) in r, a new one when r has none and room. */
static struct numa_curve *curve_at(struct numa_result *r, int cpu, int mem)
{
	struct numa_curve *c;
	for (size_t i = 0; i < r->ncurves; i++)
		if (r->curves[i].cpu == cpu && r->curves[i].mem == mem)
			return &r->curves[i];
	if (r->ncurves == NUMA_MAX_CURVES)
		return NULL;
	c = &r->curves[r->ncurves++];
	memset(c, 0, sizeof *c);
	c->cpu = cpu;
	c->mem = mem;
	c->chaser_cpu = -1;
	c->huge_share = c->on_node = -1;
	return c;
}

const struct numa_curve *numa_result_curve(const struct numa_result *r, int cpu, int mem)
{
	for (size_t i = 0; i < r->ncurves; i++)
		if (r->curves[i].cpu == cpu && r->curves[i].mem == mem)
			return &r->curves[i];
	return NULL;
}

/* A curve's event (NUMA_LOADED, NUMA_LOADED_DONE). Returns its subtype, or
 * -1 when it is not one of r's. */
static int apply_curve(struct numa_result *r, const struct job_event *ev)
{
	struct numa_ev_loaded x;
	struct numa_ev_loaded_done d;
	struct numa_curve *c = curve_at(r, ev->row, ev->col);
	if (!c)
		return -1;
	if (ev->subtype == NUMA_LOADED_DONE) {
		if (JOB_PAYLOAD_GET(ev, struct numa_ev_loaded_done, &d) < 0)
			return -1;
		c->why = d.why;
		c->chaser_cpu = d.chaser_cpu;
		c->injectors = d.injectors;
		c->huge = d.huge;
		c->huge_share = d.huge_share;
		c->on_node = d.on_node;
		c->done = 1;
		return NUMA_LOADED_DONE;
	}
	if (JOB_PAYLOAD_GET(ev, struct numa_ev_loaded, &x) < 0 || x.point < 0 ||
	    x.point >= NUMA_MAX_POINTS)
		return -1;
	c->why = x.why;
	c->pts[x.point] = (struct numa_point){ .delay_ns = x.delay_ns, .gbs = x.gbs, .ns = ev->value,
					       .spread = x.spread, .tries = x.tries,
					       .preempted = x.preempted };
	if ((size_t)x.point >= c->npts)
		c->npts = (size_t)x.point + 1;
	return NUMA_LOADED;
}

int numa_result_apply(struct numa_result *r, const struct job_event *ev)
{
	struct numa_value *v;
	struct numa_ev_cell x;
	if (ev->type == JOB_EV_NOTE) {
		if (ev->subtype == NUMA_NOTE_PAGES)
			mt_strlcpy(r->pages, ev->text, sizeof r->pages);
		else if (ev->subtype == NUMA_NOTE_PAGES_HUGE)
			mt_strlcpy(r->pages_huge, ev->text, sizeof r->pages_huge);
		else if (ev->subtype == NUMA_NOTE_LAT_SIZE && ev->value > 0) {
			r->lat_size = (uint64_t)ev->value;
			mt_strlcpy(r->lat_size_from, ev->text, sizeof r->lat_size_from);
		}
		return -1;
	}
	if (ev->type != JOB_EV_CELL || ev->row < 0 || ev->col < 0 || (size_t)ev->row >= r->nnodes ||
	    (size_t)ev->col >= r->nnodes)
		return -1;
	if (ev->subtype == NUMA_LOADED || ev->subtype == NUMA_LOADED_DONE)
		return apply_curve(r, ev);
	if (ev->subtype < 0 || ev->subtype >= NUMA_NMEAS ||
	    JOB_PAYLOAD_GET(ev, struct numa_ev_cell, &x) < 0)
		return -1;
	v = &r->v[ev->row][ev->col][ev->subtype];
	v->have = 1;
	v->v = ev->value;
	v->spread = ev->spread;
	v->tries = x.tries;
	v->flags = x.flags;
	v->pages = x.pages;
	v->on = x.on;
	v->absent = x.absent;
	v->where = x.where;
	return ev->subtype;
}

size_t numa_result_measured(const struct numa_result *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nnodes; i++)
		for (size_t j = 0; j < r->nnodes; j++)
			for (int k = 0; k < NUMA_NMEAS; k++)
				n += r->v[i][j][k].have;
	for (size_t c = 0; c < r->ncurves; c++)
		n += r->curves[c].npts;
	return n;
}

double numa_result_placement(const struct numa_result *r, size_t cpu, size_t mem)
{
	double pages = 0, on = 0;
	for (int k = 0; k < NUMA_NMEAS; k++) {
		const struct numa_value *v = &r->v[cpu][mem][k];
		if (v->have && v->absent >= 0) {
			pages += v->pages;
			on += v->on;
		}
	}
	return pages > 0 ? on / pages : r->placed[cpu][mem];
}

/* ---- the SLIT and the measured ratios ------------------------------------------- */

double numa_result_ratio(const struct numa_result *r, size_t cpu, size_t mem, int *huge)
{
	for (int h = 1; h >= 0; h--) {
		int k = h ? NUMA_LAT_HUGE : NUMA_LAT;
		const struct numa_value *a = &r->v[cpu][mem][k], *o = &r->v[cpu][cpu][k];
		if (a->have && o->have && a->v > 0 && o->v > 0) {
			*huge = h;
			return a->v / o->v;
		}
	}
	*huge = 0;
	return NAN;
}

double numa_result_slit_ratio(const struct numa_result *r, size_t cpu, size_t mem)
{
	if (!r->have_dist || r->dist[cpu][cpu] <= 0)
		return NAN;
	return (double)r->dist[cpu][mem] / r->dist[cpu][cpu];
}

const char *numa_result_slit_text(const struct numa_result *r, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; r->have_dist && i < r->nnodes; i++) {
		mt_append(buf, len, "%s%d:", i ? "; " : "", r->nodes[i]);
		for (size_t j = 0; j < r->nnodes; j++)
			mt_append(buf, len, " %d", r->dist[i][j]);
	}
	return buf;
}

int numa_result_ratio_text(const struct numa_result *r, size_t cpu, size_t mem, char *buf,
			   size_t len)
{
	int huge;
	double x = numa_result_ratio(r, cpu, mem, &huge), s = numa_result_slit_ratio(r, cpu, mem);
	if (cpu == mem || !isfinite(x))
		return -1;
	/* TRANSLATORS: a remote pair's idle latency over its CPU node's own, beside the
	 * firmware's distances' ratio; the pages are "2 MB" or "4 KB" */
	if (isfinite(s))
		mt_hsnprintf(buf, len, _("CPU node %d, memory node %d: %.1fx local on %s pages, SLIT "
					 "says %.1fx"),
			     r->nodes[cpu], r->nodes[mem], x, huge ? _("2 MB") : _("4 KB"), s);
	else
		mt_hsnprintf(buf, len, _("CPU node %d, memory node %d: %.1fx local on %s pages, no "
					 "SLIT"),
			     r->nodes[cpu], r->nodes[mem], x, huge ? _("2 MB") : _("4 KB"));
	return 0;
}

/* ---- writing --------------------------------------------------------------------- */

static cJSON *num_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

/* The nodes x nodes matrix of run k's values (spread: their spreads). */
static cJSON *matrix_to_json(const struct numa_result *r, int k, int spread)
{
	cJSON *m = cJSON_CreateArray();
	for (size_t i = 0; m && i < r->nnodes; i++) {
		cJSON *row = cJSON_CreateArray();
		if (!row) {
			cJSON_Delete(m);
			return NULL;
		}
		cJSON_AddItemToArray(m, row);
		for (size_t j = 0; j < r->nnodes; j++) {
			const struct numa_value *v = &r->v[i][j][k];
			cJSON *x = num_or_null(!v->have ? (double)NAN : spread ? v->spread : v->v);
			if (!x) {
				cJSON_Delete(m);
				return NULL;
			}
			cJSON_AddItemToArray(row, x);
		}
	}
	return m;
}

/* One run's details: {"cpu_node","memory_node","run","tries","checked",
 * "lost_cpu","moved","cpu"|"threads","pages","pages_on_node","pages_absent"}. */
static cJSON *run_to_json(const struct numa_result *r, size_t i, size_t j, int k)
{
	const struct numa_value *v = &r->v[i][j][k];
	int lat = k == NUMA_LAT || k == NUMA_LAT_HUGE || k == NUMA_LAT_FULL; /* one thread */
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddNumberToObject(o, "cpu_node", r->nodes[i]) ||
	    !cJSON_AddNumberToObject(o, "memory_node", r->nodes[j]) ||
	    !cJSON_AddStringToObject(o, "run", meas_name[k]) ||
	    !cJSON_AddNumberToObject(o, "tries", v->tries) ||
	    !cJSON_AddBoolToObject(o, "moved", (v->flags & NUMA_F_MOVED) != 0) ||
	    !cJSON_AddBoolToObject(o, "bound", (v->flags & NUMA_F_BOUND) != 0) ||
	    !cJSON_AddNumberToObject(o, lat ? "cpu" : "threads", v->where) ||
	    (!lat && (!cJSON_AddBoolToObject(o, "checked", (v->flags & NUMA_F_CHECKED) != 0) ||
		      !cJSON_AddBoolToObject(o, "lost_cpu", (v->flags & NUMA_F_LOST) != 0))) ||
	    (v->absent >= 0 && (!cJSON_AddNumberToObject(o, "pages", v->pages) ||
				!cJSON_AddNumberToObject(o, "pages_on_node", v->on) ||
				!cJSON_AddNumberToObject(o, "pages_absent", v->absent)))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* "placement" (a pair each) and "runs" (a measurement each). */
static int places_to_json(const struct numa_result *r, cJSON *root)
{
	cJSON *pl = cJSON_AddArrayToObject(root, "placement");
	cJSON *runs = cJSON_AddArrayToObject(root, "runs");
	if (!pl || !runs)
		return -1;
	for (size_t i = 0; i < r->nnodes; i++)
		for (size_t j = 0; j < r->nnodes; j++) {
			cJSON *o;
			int any = 0;
			for (int k = 0; k < NUMA_NMEAS; k++)
				any |= r->v[i][j][k].have && k != NUMA_LAT_HUGE;
			if (!any)
				continue;
			if (!(o = cJSON_CreateObject()))
				return -1;
			cJSON_AddItemToArray(pl, o);
			if (!cJSON_AddNumberToObject(o, "cpu_node", r->nodes[i]) ||
			    !cJSON_AddNumberToObject(o, "memory_node", r->nodes[j]) ||
			    !cJSON_AddItemToObject(o, "pages_on_node",
						   num_or_null(numa_result_placement(r, i, j))))
				return -1;
			for (int k = 0; k < NUMA_NMEAS; k++) {
				cJSON *x;
				if (!r->v[i][j][k].have)
					continue;
				if (!(x = run_to_json(r, i, j, k)))
					return -1;
				cJSON_AddItemToArray(runs, x);
			}
		}
	return 0;
}

/* nodes, cpus, threads, latency_cpu. */
static int nodes_to_json(const struct numa_result *r, cJSON *root)
{
	cJSON *n = cJSON_AddArrayToObject(root, "nodes"), *c = cJSON_AddArrayToObject(root, "cpus");
	cJSON *t = cJSON_AddArrayToObject(root, "threads");
	cJSON *l = cJSON_AddArrayToObject(root, "latency_cpu");
	if (!n || !c || !t || !l)
		return -1;
	for (size_t i = 0; i < r->nnodes; i++) {
		cJSON *a = cJSON_CreateNumber(r->nodes[i]), *b = cJSON_CreateString(r->cpus[i]);
		cJSON *x = cJSON_CreateNumber(r->ncpus[i]);
		cJSON *y = r->lat_cpu[i] >= 0 ? cJSON_CreateNumber(r->lat_cpu[i]) : cJSON_CreateNull();
		if (a)
			cJSON_AddItemToArray(n, a);
		if (b)
			cJSON_AddItemToArray(c, b);
		if (x)
			cJSON_AddItemToArray(t, x);
		if (y)
			cJSON_AddItemToArray(l, y);
		if (!a || !b || !x || !y)
			return -1;
	}
	return 0;
}

/* A nodes x nodes matrix of ratios (slit: the SLIT's, else the measured
 * ones), null where there is none. */
static cJSON *ratios_to_json(const struct numa_result *r, int slit)
{
	cJSON *m = cJSON_CreateArray();
	for (size_t i = 0; m && i < r->nnodes; i++) {
		cJSON *row = cJSON_CreateArray();
		if (!row || !cJSON_AddItemToArray(m, row)) {
			cJSON_Delete(row);
			cJSON_Delete(m);
			return NULL;
		}
		for (size_t j = 0; j < r->nnodes; j++) {
			int huge;
			double x = slit ? numa_result_slit_ratio(r, i, j)
					: r->ncpus[i] ? numa_result_ratio(r, i, j, &huge) : (double)NAN;
			cJSON *v = num_or_null(isfinite(x) ? round(x * 1000) / 1000 : x);
			if (!v || !cJSON_AddItemToArray(row, v)) {
				cJSON_Delete(v);
				cJSON_Delete(m);
				return NULL;
			}
		}
	}
	return m;
}

/* "distances" (the SLIT, null unknown), "latency_ratio", "slit_ratio" and
 * "latency_ratio_page". Returns 0, or -1 out of memory. */
static int slit_to_json(const struct numa_result *r, cJSON *root)
{
	int huge = 0;
	cJSON *d;
	for (size_t i = 0; i < r->nnodes && !huge; i++)
		for (size_t j = 0; j < r->nnodes && !huge; j++)
			(void)numa_result_ratio(r, i, j, &huge);
	if (!r->have_dist) {
		d = cJSON_CreateNull();
	} else {
		d = cJSON_CreateArray();
		for (size_t i = 0; d && i < r->nnodes; i++)
			if (!cJSON_AddItemToArray(d, cJSON_CreateIntArray(r->dist[i], (int)r->nnodes))) {
				cJSON_Delete(d);
				d = NULL;
			}
	}
	if (!d || !cJSON_AddItemToObject(root, "distances", d)) {
		cJSON_Delete(d);
		return -1;
	}
	return cJSON_AddItemToObject(root, "latency_ratio", ratios_to_json(r, 0)) &&
			       cJSON_AddItemToObject(root, "slit_ratio", ratios_to_json(r, 1)) &&
			       cJSON_AddNumberToObject(root, "latency_ratio_page", huge ? MT_HUGE_2M : 4096)
		       ? 0
		       : -1;
}

/* Was any pair measured in run k? */
static int measured(const struct numa_result *r, int k)
{
	for (size_t i = 0; i < r->nnodes; i++)
		for (size_t j = 0; j < r->nnodes; j++)
			if (r->v[i][j][k].have)
				return 1;
	return 0;
}

/* "bandwidth_gbs" and "bandwidth_spread": a matrix for each mix, read and
 * triad always (null where not measured: older readers need them), the
 * others where asked; "mixes" their names, "stores" the writes' kind. */
static int mixes_to_json(const struct numa_result *r, cJSON *root)
{
	cJSON *bw = cJSON_AddObjectToObject(root, "bandwidth_gbs");
	cJSON *bs = cJSON_AddObjectToObject(root, "bandwidth_spread");
	cJSON *names = cJSON_AddArrayToObject(root, "mixes");
	if (!bw || !bs || !names ||
	    !cJSON_AddStringToObject(root, "stores", r->streaming ? "streaming" : "cached"))
		return -1;
	for (int m = 0; m < NUMA_NMIX; m++) {
		int k = numa_mix_meas(m), asked = (r->mixes >> m) & 1;
		cJSON *x;
		if (!asked && m != NUMA_MIX_READS && m != NUMA_MIX_TRIAD)
			continue;
		if (!cJSON_AddItemToObject(bw, numa_mix_key(m), matrix_to_json(r, k, 0)) ||
		    !cJSON_AddItemToObject(bs, numa_mix_key(m), matrix_to_json(r, k, 1)))
			return -1;
		if (asked && (!(x = cJSON_CreateString(numa_mix_name(m)))))
			return -1;
		if (asked)
			cJSON_AddItemToArray(names, x);
	}
	return 0;
}

/* Where the idle latency was read, and (when measured) the chase on 2 MB
 * pages at the run's size: latency_size, latency_size_from,
 * latency_full_ns, latency_full_spread. Returns 0, -1 out of memory. */
static int lat_size_to_json(const struct numa_result *r, cJSON *root)
{
	if (r->lat_size && (!cJSON_AddNumberToObject(root, "latency_size", (double)r->lat_size) ||
			    !cJSON_AddStringToObject(root, "latency_size_from", r->lat_size_from)))
		return -1;
	if (measured(r, NUMA_LAT_FULL) &&
	    (!cJSON_AddItemToObject(root, "latency_full_ns", matrix_to_json(r, NUMA_LAT_FULL, 0)) ||
	     !cJSON_AddItemToObject(root, "latency_full_spread",
				    matrix_to_json(r, NUMA_LAT_FULL, 1))))
		return -1;
	return 0;
}

cJSON *numa_result_to_json(const struct numa_result *r)
{
	cJSON *root = cJSON_CreateObject();
	if (!root || run_header_to_json(&r->hdr, root) < 0 ||
	    !cJSON_AddStringToObject(root, "experiment", "numa") || nodes_to_json(r, root) < 0 ||
	    !cJSON_AddNumberToObject(root, "size", (double)r->size) ||
	    !cJSON_AddStringToObject(root, "size_from", r->size_from) ||
	    !cJSON_AddNumberToObject(root, "chase_stride", r->stride) ||
	    !cJSON_AddStringToObject(root, "isa", r->isa) ||
	    !cJSON_AddItemToObject(root, "latency_ns", matrix_to_json(r, NUMA_LAT, 0)) ||
	    !cJSON_AddItemToObject(root, "latency_spread", matrix_to_json(r, NUMA_LAT, 1)) ||
	    mixes_to_json(r, root) < 0 || places_to_json(r, root) < 0 ||
	    slit_to_json(r, root) < 0 ||
	    !cJSON_AddItemToObject(root, "numa_balancing",
				   r->numa_balancing < 0 ? cJSON_CreateNull()
							 : cJSON_CreateBool(r->numa_balancing > 0)) ||
	    !cJSON_AddNumberToObject(root, "numa_balancing_mode", r->numa_balancing) ||
	    !cJSON_AddStringToObject(root, "thp", r->thp) ||
	    !cJSON_AddNumberToObject(root, "page_size", (double)r->page_size) ||
	    !cJSON_AddStringToObject(root, "pages", r->pages) ||
	    lat_size_to_json(r, root) < 0 ||
	    (measured(r, NUMA_LAT_HUGE) &&
	     (!cJSON_AddItemToObject(root, "latency_huge_ns", matrix_to_json(r, NUMA_LAT_HUGE, 0)) ||
	      !cJSON_AddItemToObject(root, "latency_huge_spread",
				     matrix_to_json(r, NUMA_LAT_HUGE, 1)) ||
	      !cJSON_AddStringToObject(root, "pages_huge", r->pages_huge))) ||
	    numa_curves_to_json(r, root) < 0 ||
	    !cJSON_AddNumberToObject(root, "elapsed_s", r->elapsed_s)) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

int numa_result_is(const cJSON *root)
{
	const char *ex = jsonio_experiment(root);
	return ex && strcmp(ex, "numa") == 0;
}

/* ---- reading ----------------------------------------------------------------------- */

static int node_at(const struct numa_result *r, double node)
{
	for (size_t i = 0; i < r->nnodes; i++)
		if ((double)r->nodes[i] == node)
			return (int)i;
	return -1;
}

/* "nodes" and the per-node lists beside it. */
static int nodes_from_json(const cJSON *root, const char *f, struct numa_result *r, mt_error *e)
{
	const cJSON *arr = jsonio_array(root, "nodes", f, e), *it, *c, *t, *l;
	if (!arr)
		return -1;
	cJSON_ArrayForEach(it, arr) {
		size_t i = r->nnodes;
		if (i == NUMA_MAX_NODES)
			return mt_fail(e, _("%s: nodes: more than %d"), f, NUMA_MAX_NODES);
		if (!cJSON_IsNumber(it) || it->valuedouble < 0 || it->valuedouble > 1e6 ||
		    it->valuedouble != floor(it->valuedouble))
			return mt_fail(e, _("%s: nodes[%zu]: expected a node number 0..1000000"), f, i);
		if (node_at(r, it->valuedouble) >= 0)
			return mt_fail(e, _("%s: nodes[%zu]: node %.0f given twice"), f, i, it->valuedouble);
		r->nodes[i] = (int)it->valuedouble;
		r->lat_cpu[i] = -1;
		r->nnodes++;
	}
	if (r->nnodes == 0)
		return mt_fail(e, _("%s: nodes: empty"), f);
	c = cJSON_GetObjectItemCaseSensitive(root, "cpus");
	t = cJSON_GetObjectItemCaseSensitive(root, "threads");
	l = cJSON_GetObjectItemCaseSensitive(root, "latency_cpu");
	for (size_t i = 0; i < r->nnodes; i++) {
		const cJSON *ci = cJSON_IsArray(c) ? cJSON_GetArrayItem(c, (int)i) : NULL;
		const cJSON *ti = cJSON_IsArray(t) ? cJSON_GetArrayItem(t, (int)i) : NULL;
		const cJSON *li = cJSON_IsArray(l) ? cJSON_GetArrayItem(l, (int)i) : NULL;
		if (cJSON_IsString(ci))
			mt_printable(r->cpus[i], sizeof r->cpus[i], ci->valuestring, 0);
		if (cJSON_IsNumber(ti) && ti->valuedouble >= 0 && ti->valuedouble <= MT_MAX_CPUS)
			r->ncpus[i] = (int)ti->valuedouble;
		if (cJSON_IsNumber(li) && li->valuedouble >= 0 && li->valuedouble < MT_MAX_CPUS)
			r->lat_cpu[i] = (int)li->valuedouble;
	}
	return 0;
}

/* A nodes x nodes matrix at m (named what) into run k's values or spreads:
 * numbers (> 0 for values, >= 0 for spreads) or null. Required unless
 * spread. */
static int matrix_from_json(const cJSON *m, const char *f, const char *what,
			    struct numa_result *r, int k, int spread, mt_error *e)
{
	if (!m && spread)
		return 0;
	if (!cJSON_IsArray(m) || (size_t)cJSON_GetArraySize(m) != r->nnodes)
		return mt_fail(e, _("%s: %s: expected %zu rows (one a node)"), f, what, r->nnodes);
	for (size_t i = 0; i < r->nnodes; i++) {
		const cJSON *row = cJSON_GetArrayItem(m, (int)i);
		if (!cJSON_IsArray(row) || (size_t)cJSON_GetArraySize(row) != r->nnodes)
			return mt_fail(e, _("%s: %s row %zu: expected %zu values"), f, what, i, r->nnodes);
		for (size_t j = 0; j < r->nnodes; j++) {
			const cJSON *x = cJSON_GetArrayItem(row, (int)j);
			struct numa_value *v = &r->v[i][j][k];
			if (cJSON_IsNull(x))
				continue;
			if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble) ||
			    (spread ? x->valuedouble < 0 : x->valuedouble <= 0) || x->valuedouble > 1e9)
				return mt_fail(e, spread ? _("%s: %s row %zu: value %zu must be a "
							     "non-negative number or null")
							 : _("%s: %s row %zu: value %zu must be a "
							     "positive number or null"),
					       f, what, i, j);
			if (spread)
				v->spread = x->valuedouble;
			else
				v->have = 1, v->v = x->valuedouble, v->absent = -1;
		}
	}
	return 0;
}

/* "mixes" (optional: files before it measured reads and triad) into
 * r->mixes, "stores" into r->streaming. Returns 0, or -1 with e. */
static int mixes_from_json(const cJSON *root, const char *f, struct numa_result *r, mt_error *e)
{
	const cJSON *names = cJSON_GetObjectItemCaseSensitive(root, "mixes"), *it;
	char stores[16] = "";
	int n = 0;
	r->mixes = names ? 0 : NUMA_MIXES_DEFAULT;
	if (names && !cJSON_IsArray(names))
		return mt_fail(e, _("%s: mixes: expected an array of mix names"), f);
	cJSON_ArrayForEach(it, names) {
		int found = -1;
		for (int m = 0; m < NUMA_NMIX && cJSON_IsString(it); m++)
			if (strcmp(it->valuestring, numa_mix_name(m)) == 0)
				found = m;
		if (found < 0)
			return mt_fail(e, _("%s: mixes[%d]: expected reads, 3:1, 2:1, 1:1 or triad"), f, n);
		r->mixes |= 1u << found;
		n++;
	}
	jsonio_opt_string(root, "stores", stores, sizeof stores);
	r->streaming = strcmp(stores, "streaming") == 0;
	return 0;
}

/* The matrix of one mix under bandwidth_gbs and bandwidth_spread: required
 * when the file measured it. */
static int mix_from_json(const cJSON *bw, const cJSON *bs, const char *f, struct numa_result *r,
			 int m, mt_error *e)
{
	char what[48], spread[48];
	const char *key = numa_mix_key(m);
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(bw, key);
	int k = numa_mix_meas(m);
	mt_snprintf(what, sizeof what, "bandwidth_gbs.%s", key);
	mt_snprintf(spread, sizeof spread, "bandwidth_spread.%s", key);
	if (!x && !((r->mixes >> m) & 1))
		return 0;
	return matrix_from_json(x, f, what, r, k, 0, e) < 0 ||
			       matrix_from_json(bs ? cJSON_GetObjectItemCaseSensitive(bs, key) : NULL, f,
						spread, r, k, 1, e) < 0
		       ? -1
		       : 0;
}

static int matrices_from_json(const cJSON *root, const char *f, struct numa_result *r,
			      mt_error *e)
{
	const cJSON *bw = cJSON_GetObjectItemCaseSensitive(root, "bandwidth_gbs");
	const cJSON *bs = cJSON_GetObjectItemCaseSensitive(root, "bandwidth_spread");
	const cJSON *huge = cJSON_GetObjectItemCaseSensitive(root, "latency_huge_ns");
	const cJSON *full = cJSON_GetObjectItemCaseSensitive(root, "latency_full_ns");
	if (!cJSON_IsObject(bw))
		return mt_fail(e, _("%s: bandwidth_gbs: expected an object {\"read\", \"triad\"}"), f);
	if (bs && !cJSON_IsObject(bs))
		return mt_fail(e, _("%s: bandwidth_spread: expected an object"), f);
	if (mixes_from_json(root, f, r, e) < 0 ||
	    matrix_from_json(cJSON_GetObjectItemCaseSensitive(root, "latency_ns"), f, "latency_ns", r,
			     NUMA_LAT, 0, e) < 0 ||
	    matrix_from_json(cJSON_GetObjectItemCaseSensitive(root, "latency_spread"), f,
			     "latency_spread", r, NUMA_LAT, 1, e) < 0)
		return -1;
	for (int m = 0; m < NUMA_NMIX; m++)
		if (mix_from_json(bw, bs, f, r, m, e) < 0)
			return -1;
	if (huge && (matrix_from_json(huge, f, "latency_huge_ns", r, NUMA_LAT_HUGE, 0, e) < 0 ||
		     matrix_from_json(cJSON_GetObjectItemCaseSensitive(root, "latency_huge_spread"), f,
				      "latency_huge_spread", r, NUMA_LAT_HUGE, 1, e) < 0))
		return -1;
	if (full && (matrix_from_json(full, f, "latency_full_ns", r, NUMA_LAT_FULL, 0, e) < 0 ||
		     matrix_from_json(cJSON_GetObjectItemCaseSensitive(root, "latency_full_spread"), f,
				      "latency_full_spread", r, NUMA_LAT_FULL, 1, e) < 0))
		return -1;
	return 0;
}

/* One entry of "runs" (details of a measured value; optional fields). */
static int run_from_json(const cJSON *it, const char *where, struct numa_result *r, mt_error *e)
{
	double cn, mn;
	char run[16] = "";
	int i, j, k = -1;
	struct numa_value *v;
	if (!cJSON_IsObject(it) || jsonio_number(it, "cpu_node", where, &cn, e) < 0 ||
	    jsonio_number(it, "memory_node", where, &mn, e) < 0)
		return mt_fail(e, "%s: expected {\"cpu_node\", \"memory_node\", \"run\", ...}", where);
	if ((i = node_at(r, cn)) < 0 || (j = node_at(r, mn)) < 0)
		return mt_fail(e, _("%s: a node that is not in \"nodes\""), where);
	jsonio_opt_string(it, "run", run, sizeof run);
	for (int m = 0; m < NUMA_NMEAS; m++)
		if (strcmp(run, meas_name[m]) == 0)
			k = m;
	if (k < 0)
		return mt_fail(e, _("%s: field \"run\" must be latency, read, triad, latency_huge, "
			       "latency_full, 3:1, 2:1 or 1:1"), where);
	v = &r->v[i][j][k];
	if (!v->have)
		return mt_fail(e, _("%s: no value in the matrix for this run"), where);
	v->tries = (int)jsonio_opt_int(it, "tries", 0, 1000000, 0);
	v->where = (int)jsonio_opt_int(it, k == NUMA_LAT || k == NUMA_LAT_HUGE || k == NUMA_LAT_FULL
						   ? "cpu"
						   : "threads",
				       0, MT_MAX_CPUS, 0);
	v->flags = (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "checked")) ? NUMA_F_CHECKED : 0) |
		   (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "lost_cpu")) ? NUMA_F_LOST : 0) |
		   (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "moved")) ? NUMA_F_MOVED : 0) |
		   (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "bound")) ? NUMA_F_BOUND : 0);
	v->pages = (double)jsonio_opt_int(it, "pages", 0, 1L << 40, -1);
	v->on = (double)jsonio_opt_int(it, "pages_on_node", 0, 1L << 40, -1);
	v->absent = (double)jsonio_opt_int(it, "pages_absent", 0, 1L << 40, -1);
	if (v->pages < 0 || v->on < 0 || v->absent < 0 || v->on + v->absent > v->pages)
		v->pages = v->on = 0, v->absent = -1;
	return 0;
}

/* "placement": the share of each pair's pages on its memory node. */
static int placement_from_json(const cJSON *root, const char *f, struct numa_result *r,
			       mt_error *e)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "placement"), *it;
	char where[MT_PATH_MAX + 32];
	int n = 0;
	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr))
		return mt_fail(e, _("%s: placement: expected an array"), f);
	cJSON_ArrayForEach(it, arr) {
		double cn, mn;
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(it, "pages_on_node");
		int i, j;
		mt_snprintf(where, sizeof where, "%s: placement[%d]", f, n++);
		if (!cJSON_IsObject(it) || jsonio_number(it, "cpu_node", where, &cn, e) < 0 ||
		    jsonio_number(it, "memory_node", where, &mn, e) < 0)
			return mt_fail(e, "%s: expected {\"cpu_node\", \"memory_node\", "
				       "\"pages_on_node\"}", where);
		if ((i = node_at(r, cn)) < 0 || (j = node_at(r, mn)) < 0)
			return mt_fail(e, _("%s: a node that is not in \"nodes\""), where);
		if (cJSON_IsNull(x))
			continue;
		if (!cJSON_IsNumber(x) || !(x->valuedouble >= 0 && x->valuedouble <= 1))
			return mt_fail(e, _("%s: field \"pages_on_node\" must be 0..1 or null"), where);
		r->placed[i][j] = x->valuedouble;
	}
	return 0;
}

static int runs_from_json(const cJSON *root, const char *f, struct numa_result *r, mt_error *e)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "runs"), *it;
	char where[MT_PATH_MAX + 32];
	int n = 0;
	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr))
		return mt_fail(e, _("%s: runs: expected an array"), f);
	cJSON_ArrayForEach(it, arr) {
		mt_snprintf(where, sizeof where, "%s: runs[%d]", f, n++);
		if (run_from_json(it, where, r, e) < 0)
			return -1;
	}
	return 0;
}

/* "distances", when there: nodes x nodes positive integers (the SLIT). */
static int distances_from_json(const cJSON *root, const char *f, struct numa_result *r,
			       mt_error *e)
{
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(root, "distances");
	if (!d || cJSON_IsNull(d))
		return 0; /* not known, or a file from before memtop said it */
	if (!cJSON_IsArray(d) || (size_t)cJSON_GetArraySize(d) != r->nnodes)
		return mt_fail(e, _("%s: distances: expected %zu rows (one a node) or null"), f,
			       r->nnodes);
	for (size_t i = 0; i < r->nnodes; i++) {
		const cJSON *row = cJSON_GetArrayItem(d, (int)i);
		if (!cJSON_IsArray(row) || (size_t)cJSON_GetArraySize(row) != r->nnodes)
			return mt_fail(e, _("%s: distances row %zu: expected %zu values"), f, i, r->nnodes);
		for (size_t j = 0; j < r->nnodes; j++) {
			const cJSON *x = cJSON_GetArrayItem(row, (int)j);
			if (!cJSON_IsNumber(x) || x->valuedouble < 1 || x->valuedouble > 1000000 ||
			    x->valuedouble != floor(x->valuedouble))
				return mt_fail(e, _("%s: distances row %zu: value %zu must be an integer "
					       "1..1000000"), f, i, j);
			r->dist[i][j] = (int)x->valuedouble;
		}
	}
	r->have_dist = 1;
	return 0;
}

static void rest_from_json(const cJSON *root, struct numa_result *r)
{
	const cJSON *nb = cJSON_GetObjectItemCaseSensitive(root, "numa_balancing");
	r->size = (uint64_t)jsonio_opt_int(root, "size", 0, 1L << 50, 0);
	jsonio_opt_string(root, "size_from", r->size_from, sizeof r->size_from);
	r->lat_size = (uint64_t)jsonio_opt_int(root, "latency_size", 0, 1L << 50, 0);
	jsonio_opt_string(root, "latency_size_from", r->lat_size_from, sizeof r->lat_size_from);
	r->stride = (unsigned)jsonio_opt_int(root, "chase_stride", 0, 1 << 20, 0);
	jsonio_opt_string(root, "isa", r->isa, sizeof r->isa);
	r->numa_balancing = (int)jsonio_opt_int(root, "numa_balancing_mode", -1, 1000,
						cJSON_IsBool(nb) ? cJSON_IsTrue(nb) : -1);
	jsonio_opt_string(root, "thp", r->thp, sizeof r->thp);
	r->page_size = (uint64_t)jsonio_opt_int(root, "page_size", 0, 1L << 40, 0);
	jsonio_opt_string(root, "pages", r->pages, sizeof r->pages);
	jsonio_opt_string(root, "pages_huge", r->pages_huge, sizeof r->pages_huge);
	r->elapsed_s = jsonio_opt_number(root, "elapsed_s", 0);
	if (!isfinite(r->elapsed_s) || r->elapsed_s < 0)
		r->elapsed_s = 0;
}

int numa_result_from_json(const cJSON *root, const char *file, struct numa_result *r,
			  mt_error *e)
{
	const char *f = file ? file : "input";
	memset(r, 0, sizeof *r);
	unplaced(r);
	if (!numa_result_is(root))
		return mt_fail(e, _("%s: not a numa result (\"experiment\": \"numa\")"), f);
	run_header_from_json(root, &r->hdr);
	if (nodes_from_json(root, f, r, e) < 0 || matrices_from_json(root, f, r, e) < 0 ||
	    placement_from_json(root, f, r, e) < 0 || runs_from_json(root, f, r, e) < 0 ||
	    distances_from_json(root, f, r, e) < 0 || numa_curves_from_json(root, f, r, e) < 0)
		return -1;
	rest_from_json(root, r);
	if (file)
		mt_printable(r->source, sizeof r->source, file, 0);
	return 0;
}
