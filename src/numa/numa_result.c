/* numa_result: the one store of a numa run (batch, view, compare) and its
 * JSON writer; its strict reader is numa_result_read.c. See numa.h. */
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

const char *const numa_meas_name[NUMA_NMEAS] = {
	"latency", "read", "triad", "latency_huge", "latency_full", "3:1", "2:1", "1:1",
};

void numa_result_unplaced(struct numa_result *r)
{
	for (size_t i = 0; i < NUMA_MAX_NODES; i++)
		for (size_t j = 0; j < NUMA_MAX_NODES; j++)
			r->placed[i][j] = NAN;
}

void numa_result_init(struct numa_result *r, const struct numa_params *p)
{
	memset(r, 0, sizeof *r);
	numa_result_unplaced(r);
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
		c->how = d;
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
	v->ev = x;
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
	    !cJSON_AddStringToObject(o, "run", numa_meas_name[k]) ||
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
