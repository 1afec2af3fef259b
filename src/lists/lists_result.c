/* lists_result: a lists run's result and its JSON (lists.h): what `memtop
 * run lists --json` writes and the Lists tab saves and opens. */
#include "config.h"

#include "lists.h"
#include "base/i18n.h"
#include "base/jsonio.h"
#include "sim/sim.h"

#include <math.h>
#include <string.h>

void lists_result_init(struct lists_result *r, const struct lists_params *p)
{
	memset(r, 0, sizeof *r);
	r->nlengths = p->nlengths;
	memcpy(r->lengths, p->lengths, sizeof r->lengths);
	r->layouts = p->layouts;
	r->work = p->work;
	r->tries = p->tries;
	r->sim_s = p->sim_s;
	r->sim_E = p->sim_E;
	r->sim_b = p->sim_b;
	r->graph = p->graph;
	r->graph_n = p->graph_n;
	r->graph_block = p->graph_block;
}

int lists_result_apply(struct lists_result *r, const struct job_event *ev)
{
	struct lists_cell_result *c;
	struct lists_ev_result x;
	if (ev->type != JOB_EV_CELL)
		return 0;
	if (ev->subtype == LISTS_CELL_WORK) {
		r->work_cyc = ev->value;
		return ev->subtype;
	}
	if ((ev->subtype == LISTS_CELL_HIST || ev->subtype == LISTS_CELL_MODE) && ev->row >= 0 &&
	    (size_t)ev->row < r->nlengths && lists_hist_slot(ev->col) >= 0) {
		struct lists_hist *h = &r->hist[ev->row][lists_hist_slot(ev->col)];
		struct lists_ev_hist bin;
		struct lists_ev_mode mode;
		if (ev->subtype == LISTS_CELL_HIST &&
		    JOB_PAYLOAD_GET(ev, struct lists_ev_hist, &bin) == 0 && bin.bin >= 0 &&
		    bin.bin < LISTS_HIST_BINS) {
			h->count[bin.bin] = (uint64_t)ev->value;
		} else if (ev->subtype == LISTS_CELL_MODE &&
			   JOB_PAYLOAD_GET(ev, struct lists_ev_mode, &mode) == 0) {
			h->have = 1;
			h->mode = (int64_t)ev->value;
			h->mode_count = mode.count;
			h->sampled = mode.sampled;
			h->total = mode.total;
		}
		return ev->subtype;
	}
	if (ev->subtype == LISTS_CELL_GRAPH) {
		struct lists_ev_graph g;
		if (JOB_PAYLOAD_GET(ev, struct lists_ev_graph, &g) < 0)
			return 0;
		r->have_graph = 1;
		r->naive_ms = ev->value;
		r->blocked_ms = g.blocked_ms;
		r->graph_same = g.same;
		return ev->subtype;
	}
	if (ev->subtype != LISTS_CELL_RESULT || ev->row < 0 || (size_t)ev->row >= r->nlengths ||
	    ev->col < 0 || ev->col >= LIST_NLAYOUTS || JOB_PAYLOAD_GET(ev, struct lists_ev_result, &x) < 0)
		return 0;
	c = &r->c[ev->row][ev->col];
	c->have = 1;
	c->cyc = ev->value;
	c->ns = x.ns;
	c->spread = ev->spread;
	c->l64 = x.lines64;
	c->l128 = x.lines128;
	c->sim = x.sim;
	c->bare = x.bare_cyc;
	return ev->subtype;
}

size_t lists_result_measured(const struct lists_result *r)
{
	size_t n = (size_t)r->have_graph;
	for (size_t i = 0; i < r->nlengths; i++)
		for (int l = 0; l < LIST_NLAYOUTS; l++)
			n += (size_t)r->c[i][l].have;
	return n;
}

/* "neighbours": {"mode": bytes, "mode_count", "sampled", "total", "bins":
 * [{"from", "to", "count"}, ...]} (non-empty bins; from..to as
 * lists_hist_bounds). Returns 0, or -1 out of memory. */
static int hist_to_json(const struct lists_hist *h, cJSON *it)
{
	cJSON *o = cJSON_AddObjectToObject(it, "neighbours"), *arr;
	if (!o || !(arr = cJSON_AddArrayToObject(o, "bins")))
		return -1;
	cJSON_AddNumberToObject(o, "mode", (double)h->mode);
	cJSON_AddNumberToObject(o, "mode_count", (double)h->mode_count);
	cJSON_AddNumberToObject(o, "sampled", (double)h->sampled);
	cJSON_AddNumberToObject(o, "total", (double)h->total);
	for (int b = 0; b < LISTS_HIST_BINS; b++) {
		int64_t lo, hi;
		cJSON *x;
		if (!h->count[b])
			continue;
		if (!(x = cJSON_CreateObject()))
			return -1;
		cJSON_AddItemToArray(arr, x);
		lists_hist_bounds(b, &lo, &hi);
		cJSON_AddNumberToObject(x, "from", (double)lo);
		cJSON_AddNumberToObject(x, "to", (double)hi);
		if (!cJSON_AddNumberToObject(x, "count", (double)h->count[b]))
			return -1;
	}
	return 0;
}

cJSON *lists_result_to_json(const struct lists_result *r)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	if (!root || run_header_to_json(&r->hdr, root) < 0 ||
	    !cJSON_AddStringToObject(root, "experiment", "lists"))
		goto oom;
	if (r->graph) {
		cJSON *g = cJSON_AddObjectToObject(root, "graph");
		if (!g)
			goto oom;
		cJSON_AddNumberToObject(g, "n", (double)r->graph_n);
		cJSON_AddNumberToObject(g, "block", (double)r->graph_block);
		cJSON_AddNumberToObject(g, "naive_ms", r->naive_ms);
		cJSON_AddNumberToObject(g, "blocked_ms", r->blocked_ms);
		cJSON_AddNumberToObject(g, "speedup",
					r->blocked_ms > 0 ? r->naive_ms / r->blocked_ms : 0);
		if (!cJSON_AddBoolToObject(g, "same", r->graph_same))
			goto oom;
		return root;
	}
	cJSON_AddNumberToObject(root, "work", r->work);
	cJSON_AddNumberToObject(root, "tries", r->tries);
	cJSON_AddNumberToObject(root, "core_ghz", r->hdr.clock.core_ghz);
	if (r->work)
		cJSON_AddNumberToObject(root, "work_cycles_per_cell", r->work_cyc);
	if (r->sim_s >= 0 && !sim_geometry_to_json(root, r->sim_s, r->sim_E, r->sim_b))
		goto oom;
	arr = cJSON_AddArrayToObject(root, "results");
	if (!arr)
		goto oom;
	for (size_t i = 0; i < r->nlengths; i++)
		for (int l = 0; l < LIST_NLAYOUTS; l++) {
			const struct lists_cell_result *c = &r->c[i][l];
			cJSON *it;
			if (!c->have)
				continue;
			it = cJSON_CreateObject();
			if (!it)
				goto oom;
			cJSON_AddItemToArray(arr, it);
			cJSON_AddStringToObject(it, "layout", list_layout_name(l));
			cJSON_AddNumberToObject(it, "cells", (double)r->lengths[i]);
			cJSON_AddNumberToObject(it, "cycles_per_cell", c->cyc);
			cJSON_AddNumberToObject(it, "ns_per_cell", c->ns);
			cJSON_AddNumberToObject(it, "spread", c->spread);
			if (isfinite(c->l64))
				cJSON_AddNumberToObject(it, "new_lines_64", c->l64);
			if (isfinite(c->l128) && !cJSON_AddNumberToObject(it, "new_lines_128", c->l128))
				goto oom;
			if (isfinite(c->sim)) {
				cJSON_AddNumberToObject(it, "sim_misses_per_cell", c->sim);
				cJSON_AddNumberToObject(it, "sim_misses",
							round(c->sim * (double)r->lengths[i]));
			}
			if (lists_hist_slot(l) >= 0 && r->hist[i][lists_hist_slot(l)].have &&
			    hist_to_json(&r->hist[i][lists_hist_slot(l)], it) < 0)
				goto oom;
			if (r->work)
				cJSON_AddNumberToObject(it, "bare_cycles_per_cell", c->bare);
		}
	return root;
oom:
	cJSON_Delete(root);
	return NULL;
}

/* The optional "neighbours" of a malloc or holes row (hist_to_json's
 * shape). Returns 0, or -1 with e naming the field. */
static int hist_from_json(const cJSON *it, const char *where, struct lists_hist *h, mt_error *e)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(it, "neighbours"), *arr, *x;
	char at[400];
	long mode;
	int i = 0;
	memset(h, 0, sizeof *h);
	if (!o)
		return 0;
	mt_snprintf(at, sizeof at, "%s: neighbours", where);
	if (!(arr = jsonio_array(o, "bins", at, e)) ||
	    jsonio_int(o, "mode", at, -(1L << 62), 1L << 62, &mode, e) < 0)
		return -1;
	h->mode = mode;
	/* counts: 0 when absent or not a count (never a cast of -1 or 3e94) */
	h->mode_count = (uint64_t)jsonio_opt_int(o, "mode_count", 0, 1L << 62, 0);
	h->sampled = (uint64_t)jsonio_opt_int(o, "sampled", 0, 1L << 62, 0);
	h->total = (uint64_t)jsonio_opt_int(o, "total", 0, 1L << 62, 0);
	cJSON_ArrayForEach(x, arr) {
		double from, to, count;
		mt_snprintf(at, sizeof at, "%s: neighbours.bins[%d]", where, i++);
		if (jsonio_number(x, "from", at, &from, e) < 0 ||
		    jsonio_number(x, "to", at, &to, e) < 0 ||
		    jsonio_number(x, "count", at, &count, e) < 0)
			return -1;
		if (!(count >= 0 && count <= 0x1p62 && fabs(from) <= 0x1p62 && fabs(to) <= 0x1p62))
			return mt_fail(e, _("%s: from, to or count out of range"), at);
		/* the bin's end nearer zero names it (lists_hist_bounds) */
		h->count[lists_hist_bin((int64_t)(from < 0 ? to : from))] = (uint64_t)count;
	}
	h->have = 1;
	return 0;
}

/* One walk of "results" (where names it in errors) into its length's row
 * and layout's column of r. Returns 0, or -1 with e. */
static int walk_from_json(const cJSON *it, const char *where, struct lists_result *r,
			  mt_error *e)
{
	const cJSON *lay = cJSON_GetObjectItemCaseSensitive(it, "layout");
	struct lists_cell_result c;
	long cells;
	size_t row;
	int l;
	memset(&c, 0, sizeof c);
	if (!cJSON_IsString(lay) || (l = list_layout_parse(lay->valuestring)) < 0)
		return mt_fail(e, _("%s: field \"layout\" must name a layout (sequential .. cdr)"),
			       where);
	if (jsonio_int(it, "cells", where, 1, (long)LISTS_MAX_CELLS, &cells, e) < 0 ||
	    jsonio_number(it, "cycles_per_cell", where, &c.cyc, e) < 0)
		return -1;
	/* new lines a cell: a reference may lack them (the seed gives them for
	 * its largest list only) */
	c.l64 = jsonio_opt_number(it, "new_lines_64", NAN);
	c.l128 = jsonio_opt_number(it, "new_lines_128", NAN);
	c.have = 1;
	c.ns = jsonio_opt_number(it, "ns_per_cell", NAN);
	c.spread = jsonio_opt_number(it, "spread", NAN);
	c.sim = jsonio_opt_number(it, "sim_misses_per_cell", NAN);
	c.bare = jsonio_opt_number(it, "bare_cycles_per_cell", c.cyc);
	for (row = 0; row < r->nlengths && r->lengths[row] != (size_t)cells; row++)
		;
	if (row == r->nlengths) {
		if (r->nlengths == LISTS_MAX_LENGTHS)
			return mt_fail(e, _("%s: more than %d lengths"), where, LISTS_MAX_LENGTHS);
		r->lengths[r->nlengths++] = (size_t)cells;
	}
	r->layouts |= 1u << l;
	r->c[row][l] = c;
	if (lists_hist_slot(l) >= 0)
		return hist_from_json(it, where, &r->hist[row][lists_hist_slot(l)], e);
	return 0;
}

int lists_result_from_json(const cJSON *root, const char *file, struct lists_result *r,
			   mt_error *e)
{
	const char *f = file ? file : "input";
	const cJSON *arr, *it, *g;
	char where[320];
	long v;
	int i = 0;
	memset(r, 0, sizeof *r);
	run_header_from_json(root, &r->hdr);
	r->sim_s = -1;
	g = cJSON_GetObjectItemCaseSensitive(root, "graph");
	if (g) {
		long n, b;
		mt_snprintf(where, sizeof where, "%s: graph", f);
		if (jsonio_int(g, "n", where, 1, 1L << 20, &n, e) < 0 ||
		    jsonio_int(g, "block", where, 1, 1L << 20, &b, e) < 0 ||
		    jsonio_number(g, "naive_ms", where, &r->naive_ms, e) < 0 ||
		    jsonio_number(g, "blocked_ms", where, &r->blocked_ms, e) < 0)
			return -1;
		r->graph = r->have_graph = 1;
		r->graph_n = (size_t)n;
		r->graph_block = (size_t)b;
		r->graph_same = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(g, "same"));
		goto done;
	}
	if (jsonio_int(root, "work", file, 0, 1000000, &v, e) < 0)
		return -1;
	r->work = (unsigned)v;
	if (jsonio_int(root, "tries", file, 1, 1000, &v, e) < 0 ||
	    !(arr = jsonio_array(root, "results", file, e)))
		return -1;
	r->tries = (int)v;
	r->work_cyc = jsonio_opt_number(root, "work_cycles_per_cell", 0);
	if (!(r->hdr.clock.core_ghz > 0))
		r->hdr.clock.core_ghz = jsonio_opt_number(root, "core_ghz", 0);
	if (sim_geometry_from_json(root, file, &r->sim_s, &r->sim_E, &r->sim_b, e) < 0)
		return -1;
	cJSON_ArrayForEach(it, arr) {
		mt_snprintf(where, sizeof where, "%s: results[%d]", f, i++);
		if (walk_from_json(it, where, r, e) < 0)
			return -1;
	}
done:
	if (file)
		mt_strlcpy(r->source, file, sizeof r->source);
	return 0;
}
