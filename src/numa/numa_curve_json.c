/* numa_curve_json: the loaded-latency curves of a numa result in its JSON
 * ("loaded"), written with what each says (its knee and Little's law, for
 * readers; the reader finds them again from the points) and read back
 * strictly. See numa.h. */
#include "config.h"

#include "numa.h"
#include "base/i18n.h"
#include "numa_json.h"
#include "base/jsonio.h"

#include <math.h>
#include <string.h>

static const char *const why_key[] = { "local", "asked", "slit", "latency" };

/* One point: {"delay_ns" (null idle), "gbs", "latency_ns", "spread",
 * "tries", "preempted"}. */
static cJSON *point_to_json(const struct numa_point *pt)
{
	cJSON *o = cJSON_CreateObject();
	if (!o ||
	    !cJSON_AddItemToObject(o, "delay_ns", pt->delay_ns < 0 ? cJSON_CreateNull()
							       : cJSON_CreateNumber(pt->delay_ns)) ||
	    !cJSON_AddNumberToObject(o, "gbs", pt->gbs) ||
	    !cJSON_AddNumberToObject(o, "latency_ns", pt->ns) ||
	    !cJSON_AddNumberToObject(o, "spread", pt->spread) ||
	    !cJSON_AddNumberToObject(o, "tries", pt->tries) ||
	    !cJSON_AddNumberToObject(o, "preempted", pt->preempted)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* What the curve says: {"found", "gbs", "latency_ns", "fraction_of_peak",
 * "latency_ratio", "lines_in_flight"} for the knee, the same for the peak. */
static int knee_to_json(const struct numa_curve *c, cJSON *o)
{
	struct numa_knee k;
	cJSON *kn, *pk;
	numa_knee_find(c->pts, c->npts, &k);
	if (!(kn = cJSON_AddObjectToObject(o, "knee")) || !(pk = cJSON_AddObjectToObject(o, "peak")) ||
	    !cJSON_AddBoolToObject(kn, "found", k.have) || !cJSON_AddStringToObject(kn, "rule", numa_knee_rule))
		return -1;
	if (k.have && (!cJSON_AddNumberToObject(kn, "gbs", c->pts[k.knee].gbs) ||
		       !cJSON_AddNumberToObject(kn, "latency_ns", c->pts[k.knee].ns) ||
		       !cJSON_AddNumberToObject(kn, "fraction_of_peak", k.frac) ||
		       !cJSON_AddNumberToObject(kn, "latency_ratio", k.ratio) ||
		       !cJSON_AddNumberToObject(kn, "lines_in_flight", k.inflight_knee)))
		return -1;
	if (k.peak && (!cJSON_AddNumberToObject(pk, "gbs", c->pts[k.peak].gbs) ||
		       !cJSON_AddNumberToObject(pk, "latency_ns", c->pts[k.peak].ns) ||
		       !cJSON_AddNumberToObject(pk, "latency_ratio", k.peak_ratio) ||
		       !cJSON_AddNumberToObject(pk, "lines_in_flight", k.inflight_peak)))
		return -1;
	return 0;
}

static cJSON *curve_to_json(const struct numa_result *r, const struct numa_curve *c)
{
	cJSON *o = cJSON_CreateObject(), *pts;
	int why = c->why >= 0 && c->why < (int)MT_ARRAY_LEN(why_key) ? c->why : 0;
	if (!o || !cJSON_AddNumberToObject(o, "cpu_node", r->nodes[c->cpu]) ||
	    !cJSON_AddNumberToObject(o, "memory_node", r->nodes[c->mem]) ||
	    !cJSON_AddStringToObject(o, "why", why_key[why]) ||
	    !cJSON_AddItemToObject(o, "chaser_cpu", c->chaser_cpu >= 0 ? cJSON_CreateNumber(c->chaser_cpu)
								   : cJSON_CreateNull()) ||
	    !cJSON_AddNumberToObject(o, "injectors", c->injectors) ||
	    !cJSON_AddBoolToObject(o, "huge_pages", c->huge) ||
	    !cJSON_AddItemToObject(o, "huge_share", c->huge_share >= 0 ? cJSON_CreateNumber(c->huge_share)
								   : cJSON_CreateNull()) ||
	    !cJSON_AddItemToObject(o, "pages_on_node", c->on_node >= 0 ? cJSON_CreateNumber(c->on_node)
								   : cJSON_CreateNull()) ||
	    !(pts = cJSON_AddArrayToObject(o, "points")) || knee_to_json(c, o) < 0) {
		cJSON_Delete(o);
		return NULL;
	}
	for (size_t i = 0; i < c->npts; i++) {
		cJSON *x = point_to_json(&c->pts[i]);
		if (!x) {
			cJSON_Delete(o);
			return NULL;
		}
		cJSON_AddItemToArray(pts, x);
	}
	return o;
}

int numa_curves_to_json(const struct numa_result *r, cJSON *root)
{
	cJSON *arr;
	if (!r->ncurves)
		return 0;
	if (!(arr = cJSON_AddArrayToObject(root, "loaded")))
		return -1;
	for (size_t i = 0; i < r->ncurves; i++) {
		cJSON *x = curve_to_json(r, &r->curves[i]);
		if (!x)
			return -1;
		cJSON_AddItemToArray(arr, x);
	}
	return 0;
}

/* ---- reading -------------------------------------------------------------------- */

static int node_index(const struct numa_result *r, double node)
{
	for (size_t i = 0; i < r->nnodes; i++)
		if ((double)r->nodes[i] == node)
			return (int)i;
	return -1;
}

/* One point (where names it). Returns 0, or -1 with e. */
static int point_from_json(const cJSON *it, const char *where, int idle, struct numa_point *pt,
			   mt_error *e)
{
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(it, "delay_ns");
	if (!cJSON_IsObject(it) || jsonio_number(it, "gbs", where, &pt->gbs, e) < 0 ||
	    jsonio_number(it, "latency_ns", where, &pt->ns, e) < 0)
		return mt_fail(e, "%s: expected {\"delay_ns\", \"gbs\", \"latency_ns\", ...}", where);
	if (!isfinite(pt->gbs) || pt->gbs < 0 || pt->gbs > 1e6 || (idle && pt->gbs != 0))
		return mt_fail(e, _("%s: field \"gbs\" must be 0..1000000 (0 for the idle point)"), where);
	if (!isfinite(pt->ns) || pt->ns <= 0 || pt->ns > 1e9)
		return mt_fail(e, _("%s: field \"latency_ns\" must be a positive number of ns"), where);
	if (idle ? !cJSON_IsNull(d) : !(cJSON_IsNumber(d) && d->valuedouble >= 0 && d->valuedouble <= 1e9))
		return mt_fail(e, idle ? _("%s: field \"delay_ns\" must be null (the first point is "
					   "the idle one)")
				       : _("%s: field \"delay_ns\" must be 0..1e9 ns"), where);
	pt->delay_ns = idle ? -1 : d->valuedouble;
	pt->spread = jsonio_opt_number(it, "spread", 0);
	if (!isfinite(pt->spread) || pt->spread < 0)
		pt->spread = 0;
	pt->tries = (int)jsonio_opt_int(it, "tries", 0, 1000000, 0);
	pt->preempted = (int)jsonio_opt_int(it, "preempted", 0, 1000000, 0);
	return 0;
}

/* The curve's pair, why and how measured. Returns 0, or -1 with e. */
static int curve_head(const cJSON *it, const char *where, const struct numa_result *r,
		      struct numa_curve *c, mt_error *e)
{
	double cn, mn;
	char why[16] = "";
	if (!cJSON_IsObject(it) || jsonio_number(it, "cpu_node", where, &cn, e) < 0 ||
	    jsonio_number(it, "memory_node", where, &mn, e) < 0)
		return mt_fail(e, "%s: expected {\"cpu_node\", \"memory_node\", \"points\", ...}", where);
	if ((c->cpu = node_index(r, cn)) < 0 || (c->mem = node_index(r, mn)) < 0)
		return mt_fail(e, _("%s: a node that is not in \"nodes\""), where);
	if (numa_result_curve(r, c->cpu, c->mem))
		return mt_fail(e, _("%s: a second curve of node pair %.0f>%.0f"), where, cn, mn);
	jsonio_opt_string(it, "why", why, sizeof why);
	for (size_t k = 0; k < MT_ARRAY_LEN(why_key); k++)
		if (strcmp(why, why_key[k]) == 0)
			c->why = (int)k;
	c->chaser_cpu = (int)jsonio_opt_int(it, "chaser_cpu", 0, MT_MAX_CPUS, -1);
	c->injectors = (int)jsonio_opt_int(it, "injectors", 0, MT_MAX_CPUS, 0);
	c->huge = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "huge_pages"));
	c->huge_share = jsonio_opt_number(it, "huge_share", -1);
	c->on_node = jsonio_opt_number(it, "pages_on_node", -1);
	if (!(c->huge_share >= 0 && c->huge_share <= 1))
		c->huge_share = -1;
	if (!(c->on_node >= 0 && c->on_node <= 1))
		c->on_node = -1;
	c->done = 1;
	return 0;
}

static int curve_from_json(const cJSON *it, const char *where, struct numa_result *r,
			   struct numa_curve *c, mt_error *e)
{
	const cJSON *pts, *p;
	char at[MT_PATH_MAX + 64];
	memset(c, 0, sizeof *c);
	if (curve_head(it, where, r, c, e) < 0)
		return -1;
	pts = cJSON_GetObjectItemCaseSensitive(it, "points");
	if (!cJSON_IsArray(pts) || cJSON_GetArraySize(pts) < 1 || cJSON_GetArraySize(pts) > NUMA_MAX_POINTS)
		return mt_fail(e, _("%s: points: expected 1..%d points, the idle one first"), where,
			       NUMA_MAX_POINTS);
	cJSON_ArrayForEach(p, pts) {
		mt_snprintf(at, sizeof at, "%s: points[%zu]", where, c->npts);
		if (point_from_json(p, at, c->npts == 0, &c->pts[c->npts], e) < 0)
			return -1;
		c->npts++;
	}
	return 0;
}

int numa_curves_from_json(const cJSON *root, const char *f, struct numa_result *r, mt_error *e)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "loaded"), *it;
	char where[MT_PATH_MAX + 32];
	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) > NUMA_MAX_CURVES)
		return mt_fail(e, _("%s: loaded: expected an array of at most %d curves"), f,
			       NUMA_MAX_CURVES);
	cJSON_ArrayForEach(it, arr) {
		struct numa_curve c;
		mt_snprintf(where, sizeof where, "%s: loaded[%zu]", f, r->ncurves);
		if (curve_from_json(it, where, r, &c, e) < 0)
			return -1;
		r->curves[r->ncurves++] = c;
	}
	return 0;
}
