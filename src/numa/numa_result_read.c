/* numa_result_read: a numa result read back from its JSON, strictly (a
 * missing or mistyped field: one line naming the file and the field). See
 * numa.h. */
#include "config.h"

#include "numa.h"
#include "numa_json.h"
#include "base/i18n.h"
#include "base/jsonio.h"
#include "os/platform.h"
#include "os/sysinfo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
		if (strcmp(run, numa_meas_name[m]) == 0)
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
	numa_result_unplaced(r);
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
