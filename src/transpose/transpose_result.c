/* transpose_result: a transpose run's result and its JSON (transpose.h):
 * what `memtop run transpose --json` writes and the Transpose tab saves and
 * opens. */
#include "config.h"

#include "base/i18n.h"

#include "transpose.h"
#include "base/jsonio.h"

#include <math.h>
#include <string.h>

void transpose_result_init(struct transpose_result *r, const struct transpose_plan *p)
{
	memset(r, 0, sizeof *r);
	r->s = p->s;
	r->E = p->E;
	r->b = p->b;
	r->nversions = p->nversions;
	memcpy(r->versions, p->versions, sizeof r->versions);
	r->nsizes = p->nsizes;
	memcpy(r->rows, p->rows, sizeof r->rows);
	memcpy(r->cols, p->cols, sizeof r->cols);
	r->real_n = p->real_n;
	r->real_tries = p->real_tries;
	r->nreal = p->nreal;
	memcpy(r->real, p->real, sizeof r->real);
}

int transpose_result_apply(struct transpose_result *r, const struct job_event *ev)
{
	struct transpose_ev_sim sim;
	struct transpose_ev_real real;
	if (ev->type != JOB_EV_CELL)
		return 0;
	if (ev->subtype == TRANSPOSE_EV_SIM && ev->row >= 0 && ev->row < r->nversions && ev->col >= 0 &&
	    ev->col < r->nsizes && JOB_PAYLOAD_GET(ev, struct transpose_ev_sim, &sim) == 0) {
		struct transpose_counts *x = &r->sim[ev->row][ev->col];
		x->misses = (uint64_t)ev->value;
		x->hits = sim.hits;
		x->evictions = sim.evictions;
		x->accesses = sim.accesses;
		x->correct = sim.correct;
		r->have[ev->row][ev->col] = 1;
		return TRANSPOSE_EV_SIM;
	}
	if (ev->subtype == TRANSPOSE_EV_REAL && ev->row >= 0 && ev->row < r->nreal &&
	    JOB_PAYLOAD_GET(ev, struct transpose_ev_real, &real) == 0) {
		r->real_ns[ev->row] = ev->value;
		r->real_spread[ev->row] = ev->spread;
		r->real_ok[ev->row] = real.correct;
		return TRANSPOSE_EV_REAL;
	}
	return 0;
}

size_t transpose_result_measured(const struct transpose_result *r)
{
	size_t n = 0;
	for (int v = 0; v < r->nversions; v++)
		for (int z = 0; z < r->nsizes; z++)
			n += r->have[v][z] != 0;
	for (int i = 0; i < r->nreal; i++)
		n += r->real_ns[i] > 0;
	return n;
}

int transpose_result_best(const struct transpose_result *r)
{
	int best = -1;
	for (int i = 1; i < r->nreal; i++)
		if (r->real_ns[i] > 0 && (best < 0 || r->real_ns[i] < r->real_ns[best]))
			best = i;
	return best;
}

/* ---- writing ----------------------------------------------------------------- */

static cJSON *real_json(const struct transpose_result *r)
{
	cJSON *o = cJSON_CreateObject(), *arr;
	char name[32];
	int best = transpose_result_best(r);
	if (!o || !(arr = cJSON_AddArrayToObject(o, "versions")))
		goto fail;
	cJSON_AddNumberToObject(o, "n", (double)r->real_n);
	cJSON_AddNumberToObject(o, "tries", r->real_tries);
	for (int i = 0; i < r->nreal; i++) {
		cJSON *x = cJSON_CreateObject();
		if (!x || !(r->real_ns[i] > 0)) {
			cJSON_Delete(x);
			continue;
		}
		cJSON_AddItemToArray(arr, x);
		cJSON_AddStringToObject(x, "version", transpose_version_name(&r->real[i], name, sizeof name));
		cJSON_AddNumberToObject(x, "ns_per_element", r->real_ns[i]);
		cJSON_AddNumberToObject(x, "spread", r->real_spread[i]);
		cJSON_AddBoolToObject(x, "correct", r->real_ok[i]);
	}
	cJSON_AddNumberToObject(o, "naive_ns_per_element", r->real_ns[0]);
	if (best >= 0) {
		cJSON_AddStringToObject(o, "best", transpose_version_name(&r->real[best], name, sizeof name));
		cJSON_AddNumberToObject(o, "best_ns_per_element", r->real_ns[best]);
		cJSON_AddNumberToObject(o, "speedup", r->real_ns[0] / r->real_ns[best]);
	}
	return o;
fail:
	cJSON_Delete(o);
	return NULL;
}

/* One simulated cell as a row of "results". NULL when out of memory. */
static cJSON *sim_row(const struct transpose_result *r, int v, int z)
{
	const struct transpose_counts *x = &r->sim[v][z];
	int l = transpose_cachelab_limit(r->rows[z], r->cols[z]);
	cJSON *o = cJSON_CreateObject();
	char name[32];
	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "version", transpose_version_name(&r->versions[v], name, sizeof name));
	cJSON_AddNumberToObject(o, "rows", r->rows[z]);
	cJSON_AddNumberToObject(o, "cols", r->cols[z]);
	cJSON_AddNumberToObject(o, "accesses", (double)x->accesses);
	cJSON_AddNumberToObject(o, "hits", (double)x->hits);
	cJSON_AddNumberToObject(o, "misses", (double)x->misses);
	cJSON_AddNumberToObject(o, "evictions", (double)x->evictions);
	cJSON_AddBoolToObject(o, "correct", x->correct);
	if (l && r->s == 5 && r->E == 1 && r->b == 5) { /* cachelab's cache: its limit */
		cJSON_AddNumberToObject(o, "limit", l);
		cJSON_AddBoolToObject(o, "pass", x->misses < (uint64_t)l);
	}
	return o;
}

cJSON *transpose_result_to_json(const struct transpose_result *r)
{
	cJSON *root = cJSON_CreateObject(), *o, *arr, *x;
	if (!root || run_header_to_json(&r->hdr, root) < 0 ||
	    !cJSON_AddStringToObject(root, "experiment", "transpose") ||
	    !(o = cJSON_AddObjectToObject(root, "cache")))
		goto fail;
	cJSON_AddNumberToObject(o, "s", r->s);
	cJSON_AddNumberToObject(o, "E", r->E);
	cJSON_AddNumberToObject(o, "b", r->b);
	if (!(arr = cJSON_AddArrayToObject(root, "results")))
		goto fail;
	for (int v = 0; v < r->nversions; v++)
		for (int z = 0; z < r->nsizes; z++) {
			if (!r->have[v][z])
				continue;
			if (!(x = sim_row(r, v, z)))
				goto fail;
			cJSON_AddItemToArray(arr, x);
		}
	if (r->real_n && r->real_ns[0] > 0) {
		if (!(x = real_json(r)))
			goto fail;
		cJSON_AddItemToObject(root, "real", x);
	}
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}

/* ---- reading ------------------------------------------------------------------ */

/* The version named by it's "version" in list[0..*n), added when new.
 * Returns its index, or -1 with e. */
static int version_index(const cJSON *it, const char *where, struct transpose_version *list, int *n,
			 int max, mt_error *e)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(it, "version");
	struct transpose_version v;
	char a[32], b[32];
	mt_error pe;
	if (!cJSON_IsString(name))
		return mt_fail(e, _("%s: field \"version\" is missing or not a string"), where);
	if (transpose_version_parse(name->valuestring, &v, &pe) < 0)
		return mt_fail(e, "%s: %s", where, pe.msg);
	for (int i = 0; i < *n; i++)
		if (strcmp(transpose_version_name(&list[i], a, sizeof a), transpose_version_name(&v, b, sizeof b)) == 0)
			return i;
	if (*n == max)
		return mt_fail(e, _("%s: more than %d versions"), where, max);
	list[*n] = v;
	return (*n)++;
}

/* A count of a results row: a whole number, 0 or more. */
static int count_field(const cJSON *it, const char *key, const char *where, uint64_t *out,
		       mt_error *e)
{
	double v;
	if (jsonio_number(it, key, where, &v, e) < 0)
		return -1;
	if (!(v >= 0 && v <= 9007199254740992.0) || v != floor(v))
		return mt_fail(e, _("%s: field \"%s\" must be a whole number, 0 or more"), where, key);
	*out = (uint64_t)v;
	return 0;
}

/* One row of "results" (where names it) into r. Returns 0, or -1 with e. */
static int sim_from_json(const cJSON *it, const char *where, struct transpose_result *r,
			 mt_error *e)
{
	long rows, cols;
	int v, z;
	struct transpose_counts x;
	const cJSON *ok = cJSON_GetObjectItemCaseSensitive(it, "correct");
	if ((v = version_index(it, where, r->versions, &r->nversions, TRANSPOSE_MAX_VERSIONS, e)) < 0 ||
	    jsonio_int(it, "rows", where, 1, TRANSPOSE_MAX_BLOCK, &rows, e) < 0 ||
	    jsonio_int(it, "cols", where, 1, TRANSPOSE_MAX_BLOCK, &cols, e) < 0 ||
	    count_field(it, "accesses", where, &x.accesses, e) < 0 ||
	    count_field(it, "hits", where, &x.hits, e) < 0 ||
	    count_field(it, "misses", where, &x.misses, e) < 0 ||
	    count_field(it, "evictions", where, &x.evictions, e) < 0)
		return -1;
	if (!cJSON_IsBool(ok))
		return mt_fail(e, _("%s: field \"correct\" must be true or false"), where);
	x.correct = cJSON_IsTrue(ok);
	for (z = 0; z < r->nsizes; z++)
		if (r->rows[z] == rows && r->cols[z] == cols)
			break;
	if (z == r->nsizes) {
		if (z == TRANSPOSE_MAX_SIZES)
			return mt_fail(e, _("%s: more than %d sizes"), where, TRANSPOSE_MAX_SIZES);
		r->rows[z] = (int)rows;
		r->cols[z] = (int)cols;
		r->nsizes++;
	}
	if (r->have[v][z])
		return mt_fail(e, _("%s: a second row for this version and size"), where);
	r->sim[v][z] = x;
	r->have[v][z] = 1;
	return 0;
}

/* The optional "real" object into r. Returns 0, or -1 with e. */
static int real_from_json(const cJSON *root, const char *f, struct transpose_result *r,
			  mt_error *e)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "real"), *arr, *it;
	char where[MT_PATH_MAX + 40];
	long n, tries;
	int i = 0;
	if (!o)
		return 0;
	mt_snprintf(where, sizeof where, "%s: real", f);
	if (jsonio_int(o, "n", where, 1, 1L << 20, &n, e) < 0 ||
	    jsonio_int(o, "tries", where, 1, 1000, &tries, e) < 0 ||
	    !(arr = jsonio_array(o, "versions", where, e)))
		return -1;
	r->real_n = (size_t)n;
	r->real_tries = (int)tries;
	cJSON_ArrayForEach(it, arr) {
		const cJSON *ok = cJSON_GetObjectItemCaseSensitive(it, "correct");
		int k;
		double ns;
		mt_snprintf(where, sizeof where, "%s: real.versions[%d]", f, i++);
		if ((k = version_index(it, where, r->real, &r->nreal, TRANSPOSE_MAX_REAL, e)) < 0 ||
		    jsonio_number(it, "ns_per_element", where, &ns, e) < 0)
			return -1;
		if (!(ns > 0) || !isfinite(ns))
			return mt_fail(e, _("%s: field \"ns_per_element\" must be a positive number"),
				       where);
		if (!cJSON_IsBool(ok))
			return mt_fail(e, _("%s: field \"correct\" must be true or false"), where);
		r->real_ns[k] = ns;
		r->real_spread[k] = jsonio_opt_number(it, "spread", 0);
		r->real_ok[k] = cJSON_IsTrue(ok);
	}
	if (r->nreal == 0)
		return mt_fail(e, _("%s: real.versions is empty"), f);
	return 0;
}

int transpose_result_from_json(const cJSON *root, const char *file, struct transpose_result *r,
			       mt_error *e)
{
	const char *f = file ? file : "input";
	const cJSON *cache, *arr, *it;
	char where[MT_PATH_MAX + 40];
	long s, E, b;
	int i = 0;
	memset(r, 0, sizeof *r);
	run_header_from_json(root, &r->hdr);
	cache = cJSON_GetObjectItemCaseSensitive(root, "cache");
	if (!cJSON_IsObject(cache))
		return mt_fail(e, _("%s: field \"cache\" is missing or not an object"), f);
	mt_snprintf(where, sizeof where, "%s: cache", f);
	if (jsonio_int(cache, "s", where, 0, 30, &s, e) < 0 ||
	    jsonio_int(cache, "E", where, 1, 1L << 16, &E, e) < 0 ||
	    jsonio_int(cache, "b", where, 0, 30, &b, e) < 0 ||
	    !(arr = jsonio_array(root, "results", f, e)))
		return -1;
	r->s = (int)s;
	r->E = (int)E;
	r->b = (int)b;
	cJSON_ArrayForEach(it, arr) {
		mt_snprintf(where, sizeof where, "%s: results[%d]", f, i++);
		if (sim_from_json(it, where, r, e) < 0)
			return -1;
	}
	if (real_from_json(root, f, r, e) < 0)
		return -1;
	mt_strlcpy(r->source, f, sizeof r->source);
	return 0;
}
