/* cores_result: the core-to-core result, its summary by relation and its
 * JSON. See cores.h. */
#include "config.h"

#include "cores.h"
#include "base/i18n.h"
#include "base/jsonio.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ONE_WAY "one-way ns = round trip / 2"

/* The n x n index of the plan's pairs. Returns 0 or -1 (memory). */
static int build_index(struct cores_result *r)
{
	size_t n = (size_t)r->plan.n;
	free(r->at);
	r->at = malloc(n * n * sizeof *r->at);
	if (!r->at)
		return -1;
	for (size_t k = 0; k < n * n; k++)
		r->at[k] = -1;
	for (size_t k = 0; k < r->plan.npairs; k++) {
		const struct cores_pair *q = &r->plan.pairs[k];
		r->at[(size_t)q->ia * n + (size_t)q->ib] = (int)k;
		r->at[(size_t)q->ib * n + (size_t)q->ia] = (int)k;
	}
	return 0;
}

int cores_result_init(struct cores_result *r, const struct cores_plan *pl, mt_error *e)
{
	memset(r, 0, sizeof *r);
	r->plan = *pl;
	r->plan.pairs = NULL;
	if (pl->npairs) {
		r->plan.pairs = malloc(pl->npairs * sizeof *pl->pairs);
		if (!r->plan.pairs)
			goto oom;
		memcpy(r->plan.pairs, pl->pairs, pl->npairs * sizeof *pl->pairs);
	}
	if (build_index(r) < 0)
		goto oom;
	return 0;
oom:
	cores_result_free(r);
	return mt_fail(e, _("cores: out of memory for %zu pairs"), pl->npairs);
}

void cores_result_free(struct cores_result *r)
{
	cores_plan_free(&r->plan);
	free(r->at);
	free(r->sum);
	r->at = NULL;
	r->sum = NULL;
	r->nsum = 0;
}

size_t cores_result_measured(const struct cores_result *r)
{
	size_t n = 0;
	for (size_t k = 0; k < r->plan.npairs; k++)
		n += r->plan.pairs[k].have != 0;
	return n;
}

double cores_result_ns(const struct cores_result *r, int i, int j)
{
	int k;
	if (!r->at || i < 0 || j < 0 || i >= r->plan.n || j >= r->plan.n || i == j)
		return NAN;
	k = r->at[(size_t)i * (size_t)r->plan.n + (size_t)j];
	return k >= 0 && r->plan.pairs[k].have ? r->plan.pairs[k].ns : (double)NAN;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int cmp_summary(const void *a, const void *b)
{
	const struct cores_summary *x = a, *y = b;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return strcmp(x->rel, y->rel);
}

/* The median of the measured pairs of relation rel ("" every pair; tmp:
 * room for all), their fastest and slowest into *lo and *hi. Returns how
 * many. */
static size_t median_of(const struct cores_result *r, const char *rel, double *tmp, double *med,
			double *lo, double *hi)
{
	size_t n = 0;
	for (size_t k = 0; k < r->plan.npairs; k++)
		if (r->plan.pairs[k].have && (!rel[0] || strcmp(r->plan.pairs[k].rel, rel) == 0))
			tmp[n++] = r->plan.pairs[k].ns;
	qsort(tmp, n, sizeof *tmp, cmp_double);
	*med = n == 0 ? (double)NAN : n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
	*lo = n ? tmp[0] : (double)NAN;
	*hi = n ? tmp[n - 1] : (double)NAN;
	return n;
}

int cores_result_overall(const struct cores_result *r, struct cores_summary *out)
{
	double *tmp = malloc((r->plan.npairs ? r->plan.npairs : 1) * sizeof *tmp);
	memset(out, 0, sizeof *out);
	mt_strlcpy(out->rel, "all pairs", sizeof out->rel);
	if (!tmp)
		return -1;
	out->pairs = median_of(r, "", tmp, &out->ns, &out->lo, &out->hi);
	free(tmp);
	return 0;
}

/* The pairs' flags: unsteady (the passes differ by more than
 * CORES_STEADY and 3 x their spreads), SMT-like (not SMT siblings by the
 * topology, yet at most CORES_SMT_MEDIAN x its relation's median and
 * CORES_SMT_FASTEST x the fastest pair). */
static void flag_pairs(struct cores_result *r)
{
	double fastest = INFINITY;
	for (size_t k = 0; k < r->plan.npairs; k++)
		if (r->plan.pairs[k].have && r->plan.pairs[k].ns < fastest)
			fastest = r->plan.pairs[k].ns;
	for (size_t k = 0; k < r->plan.npairs; k++) {
		struct cores_pair *q = &r->plan.pairs[k];
		double lo, hi, med = NAN;
		q->unsteady = q->smt_like = 0;
		if (!q->have)
			continue;
		if (q->have2) {
			lo = fmin(q->ns, q->ns2);
			hi = fmax(q->ns, q->ns2);
			q->unsteady = (hi - lo) / lo > fmax(CORES_STEADY, 3 * (q->spread + q->spread2));
		}
		for (size_t m = 0; m < r->nsum; m++)
			if (strcmp(r->sum[m].rel, q->rel) == 0)
				med = r->sum[m].ns;
		q->smt_like = strcmp(q->rel, topo_rel_name(TOPO_REL_SMT)) != 0 &&
			      strcmp(q->rel, topo_rel_name(TOPO_REL_SAME_CPU)) != 0 && isfinite(med) &&
			      q->ns <= CORES_SMT_MEDIAN * med && q->ns <= CORES_SMT_FASTEST * fastest;
	}
}

size_t cores_result_count(const struct cores_result *r, int which)
{
	size_t n = 0;
	for (size_t k = 0; k < r->plan.npairs; k++) {
		const struct cores_pair *q = &r->plan.pairs[k];
		n += which == CORES_COUNT_SECOND ? q->have2
		     : which == CORES_COUNT_UNSTEADY ? q->unsteady
						     : q->smt_like;
	}
	return n;
}

int cores_result_summarise(struct cores_result *r)
{
	double *tmp = NULL;
	free(r->sum);
	r->sum = NULL;
	r->nsum = 0;
	if (r->plan.npairs == 0)
		return 0;
	r->sum = calloc(r->plan.npairs, sizeof *r->sum);
	tmp = malloc(r->plan.npairs * sizeof *tmp);
	if (!r->sum || !tmp) {
		free(r->sum);
		free(tmp);
		r->sum = NULL;
		return -1;
	}
	for (size_t k = 0; k < r->plan.npairs; k++) {
		const struct cores_pair *q = &r->plan.pairs[k];
		struct cores_summary *s = &r->sum[r->nsum];
		int seen = 0;
		if (!q->have)
			continue;
		for (size_t m = 0; m < r->nsum && !seen; m++)
			seen = strcmp(r->sum[m].rel, q->rel) == 0;
		if (seen)
			continue;
		mt_strlcpy(s->rel, q->rel, sizeof s->rel);
		s->pairs = median_of(r, q->rel, tmp, &s->ns, &s->lo, &s->hi);
		r->nsum++;
	}
	free(tmp);
	qsort(r->sum, r->nsum, sizeof *r->sum, cmp_summary);
	flag_pairs(r);
	return 0;
}

int cores_result_apply(struct cores_result *r, const struct job_event *ev)
{
	struct cores_pair *q;
	struct cores_ev_pair x;
	if (ev->type != JOB_EV_CELL || ev->row < 0 || (size_t)ev->row >= r->plan.npairs ||
	    JOB_PAYLOAD_GET(ev, struct cores_ev_pair, &x) < 0)
		return 0;
	q = &r->plan.pairs[ev->row];
	if (ev->subtype == 1) { /* the second pass */
		q->ns2 = ev->value;
		q->spread2 = ev->spread;
		q->have2 = x.kept > 0 && isfinite(q->ns2) && q->ns2 > 0;
	} else {
		q->ns = ev->value;
		q->spread = ev->spread;
		q->moved = x.moved;
		q->kept = x.kept;
		q->have = q->kept > 0 && isfinite(q->ns) && q->ns > 0;
	}
	cores_result_summarise(r);
	return 1;
}

/* ---- JSON ------------------------------------------------------------------ */

/* matrix_ns: n rows of n, null where not measured. Returns 0 or -1. */
static int matrix_to_json(const struct cores_result *r, cJSON *root)
{
	cJSON *m = cJSON_AddArrayToObject(root, "matrix_ns");
	if (!m)
		return -1;
	for (int i = 0; i < r->plan.n; i++) {
		cJSON *row = cJSON_CreateArray();
		if (!row)
			return -1;
		cJSON_AddItemToArray(m, row);
		for (int j = 0; j < r->plan.n; j++) {
			double v = cores_result_ns(r, i, j);
			cJSON *c = isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
			if (!c)
				return -1;
			cJSON_AddItemToArray(row, c);
		}
	}
	return 0;
}

/* pairs and summary. Returns 0 or -1. */
static int pairs_to_json(const struct cores_result *r, cJSON *root)
{
	cJSON *pa = cJSON_AddArrayToObject(root, "pairs"), *su;
	if (!pa)
		return -1;
	for (size_t k = 0; k < r->plan.npairs; k++) {
		const struct cores_pair *q = &r->plan.pairs[k];
		cJSON *it;
		if (!q->have)
			continue;
		if (!(it = cJSON_CreateObject()))
			return -1;
		cJSON_AddItemToArray(pa, it);
		cJSON_AddNumberToObject(it, "a", r->plan.cpus[q->ia]);
		cJSON_AddNumberToObject(it, "b", r->plan.cpus[q->ib]);
		cJSON_AddNumberToObject(it, "ns", q->ns);
		cJSON_AddNumberToObject(it, "spread", q->spread);
		cJSON_AddStringToObject(it, "relation", q->rel);
		cJSON_AddNumberToObject(it, "moved", q->moved);
		if (q->have2) {
			cJSON_AddNumberToObject(it, "ns_second", q->ns2);
			cJSON_AddNumberToObject(it, "spread_second", q->spread2);
			cJSON_AddBoolToObject(it, "unsteady", q->unsteady);
		}
		if (q->smt_like)
			cJSON_AddBoolToObject(it, "smt_like", 1);
		if (!cJSON_AddNumberToObject(it, "kept", q->kept))
			return -1;
	}
	if (!(su = cJSON_AddArrayToObject(root, "summary")))
		return -1;
	for (size_t k = 0; k < r->nsum; k++) {
		cJSON *it = cJSON_CreateObject();
		if (!it)
			return -1;
		cJSON_AddItemToArray(su, it);
		cJSON_AddStringToObject(it, "relation", r->sum[k].rel);
		cJSON_AddNumberToObject(it, "ns", r->sum[k].ns);
		cJSON_AddNumberToObject(it, "min", r->sum[k].lo);
		cJSON_AddNumberToObject(it, "max", r->sum[k].hi);
		if (!cJSON_AddNumberToObject(it, "pairs", (double)r->sum[k].pairs))
			return -1;
	}
	return 0;
}

cJSON *cores_result_to_json(const struct cores_result *r)
{
	cJSON *root = cJSON_CreateObject(), *cpus, *pl;
	int places = 0;
	if (!root || run_header_to_json(&r->hdr, root) < 0 ||
	    !cJSON_AddStringToObject(root, "experiment", "cores") ||
	    !cJSON_AddStringToObject(root, "one_way", ONE_WAY))
		goto oom;
	if (r->origin[0] && !cJSON_AddStringToObject(root, "origin", r->origin))
		goto oom;
	cJSON_AddStringToObject(root, "method", cores_method_name(r->plan.p.method));
	cJSON_AddNumberToObject(root, "tries", r->plan.p.tries);
	cJSON_AddNumberToObject(root, "samples", r->plan.p.samples);
	cJSON_AddNumberToObject(root, "round_trips", r->plan.p.rounds);
	cJSON_AddBoolToObject(root, "sampled", r->plan.sampled);
	if (!(cpus = cJSON_AddArrayToObject(root, "cpus")))
		goto oom;
	for (int i = 0; i < r->plan.n; i++) {
		cJSON *c = cJSON_CreateNumber(r->plan.cpus[i]);
		if (!c)
			goto oom;
		cJSON_AddItemToArray(cpus, c);
		places |= r->plan.place[i][0] != '\0';
	}
	if (places) {
		if (!(pl = cJSON_AddArrayToObject(root, "places")))
			goto oom;
		for (int i = 0; i < r->plan.n; i++) {
			cJSON *s = cJSON_CreateString(r->plan.place[i]);
			if (!s)
				goto oom;
			cJSON_AddItemToArray(pl, s);
		}
	}
	if (matrix_to_json(r, root) < 0 || pairs_to_json(r, root) < 0)
		goto oom;
	return root;
oom:
	cJSON_Delete(root);
	return NULL;
}

int cores_result_is(const cJSON *root)
{
	const char *ex = jsonio_experiment(root);
	return ex && strcmp(ex, "cores") == 0;
}

/* cpus: 2..CORES_MAX_CPUS ascending CPU numbers; places when present. */
static int cpus_from_json(const cJSON *root, const char *f, struct cores_plan *pl, mt_error *e)
{
	const cJSON *arr = jsonio_array(root, "cpus", f, e), *it, *places;
	int n = 0;
	if (!arr)
		return -1;
	if (cJSON_GetArraySize(arr) < 2 || cJSON_GetArraySize(arr) > CORES_MAX_CPUS)
		return mt_fail(e, _("%s: field \"cpus\" must hold 2..%d CPUs, it holds %d"), f,
			       CORES_MAX_CPUS, cJSON_GetArraySize(arr));
	cJSON_ArrayForEach(it, arr) {
		double v = cJSON_IsNumber(it) ? it->valuedouble : -1;
		if (v != floor(v) || v < 0 || v > (1 << 20) || (n > 0 && v <= pl->cpus[n - 1]))
			return mt_fail(e, _("%s: cpus[%d] must be a CPU number above the one before it"), f,
				       n);
		pl->cpus[n++] = (int)v;
	}
	pl->n = n;
	places = cJSON_GetObjectItemCaseSensitive(root, "places");
	if (places && (!cJSON_IsArray(places) || cJSON_GetArraySize(places) != n))
		return mt_fail(e, _("%s: field \"places\" must be %d strings, one a CPU"), f, n);
	for (int i = 0; places && i < n; i++) {
		const cJSON *s = cJSON_GetArrayItem(places, i);
		if (!cJSON_IsString(s))
			return mt_fail(e, _("%s: places[%d] is not a string"), f, i);
		mt_printable(pl->place[i], sizeof pl->place[i], s->valuestring, 0);
	}
	return 0;
}

/* The index of cpu in pl->cpus, or -1. */
static int cpu_index(const struct cores_plan *pl, long cpu)
{
	for (int i = 0; i < pl->n; i++)
		if (pl->cpus[i] == cpu)
			return i;
	return -1;
}

/* One pair; where names it in errors. */
static int pair_from_json(const cJSON *it, const char *where, const struct cores_plan *pl,
			  struct cores_pair *q, mt_error *e)
{
	long a, b;
	if (!cJSON_IsObject(it))
		return mt_fail(e, _("%s: not an object"), where);
	memset(q, 0, sizeof *q);
	if (jsonio_int(it, "a", where, 0, 1 << 20, &a, e) < 0 ||
	    jsonio_int(it, "b", where, 0, 1 << 20, &b, e) < 0 ||
	    jsonio_number(it, "ns", where, &q->ns, e) < 0)
		return -1;
	if (!(q->ns > 0) || !isfinite(q->ns))
		return mt_fail(e, _("%s: field \"ns\" must be above 0"), where);
	q->ia = cpu_index(pl, a < b ? a : b);
	q->ib = cpu_index(pl, a < b ? b : a);
	if (q->ia < 0 || q->ib < 0)
		return mt_fail(e, _("%s: CPU %ld is not in \"cpus\""), where, q->ia < 0 ? (a < b ? a : b)
										  : (a < b ? b : a));
	if (a == b)
		return mt_fail(e, _("%s: a pair of CPU %ld with itself"), where, a);
	q->spread = jsonio_opt_number(it, "spread", 0);
	if (!isfinite(q->spread) || q->spread < 0)
		q->spread = 0;
	q->moved = (int)jsonio_opt_int(it, "moved", 0, 1000, 0);
	q->kept = (int)jsonio_opt_int(it, "kept", 0, 1000, 0);
	jsonio_opt_string(it, "relation", q->rel, sizeof q->rel);
	if (!q->rel[0])
		mt_strlcpy(q->rel, "unknown", sizeof q->rel);
	q->ns2 = jsonio_opt_number(it, "ns_second", 0);
	q->have2 = q->ns2 > 0 && isfinite(q->ns2);
	q->spread2 = jsonio_opt_number(it, "spread_second", 0);
	if (!isfinite(q->spread2) || q->spread2 < 0)
		q->spread2 = 0;
	q->have = 1;
	return 0;
}

/* matrix_ns, when present: n rows of n values, each null or a number. */
static int matrix_check(const cJSON *root, const char *f, int n, mt_error *e)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(root, "matrix_ns"), *row, *v;
	int i = 0;
	if (!m)
		return 0;
	if (!cJSON_IsArray(m) || cJSON_GetArraySize(m) != n)
		return mt_fail(e, _("%s: field \"matrix_ns\" must be %d rows, one a CPU"), f, n);
	cJSON_ArrayForEach(row, m) {
		if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != n)
			return mt_fail(e, _("%s: matrix_ns row %d must hold %d values"), f, i, n);
		cJSON_ArrayForEach(v, row)
			if (!cJSON_IsNull(v) && !cJSON_IsNumber(v))
				return mt_fail(e, _("%s: matrix_ns row %d holds a value that is neither "
						  "a number nor null"), f, i);
		i++;
	}
	return 0;
}

/* pairs: into pl->pairs (no pair twice). */
static int pairs_from_json(const cJSON *root, const char *f, struct cores_plan *pl, mt_error *e)
{
	const cJSON *arr = jsonio_array(root, "pairs", f, e), *it;
	char where[MT_PATH_MAX + 32];
	if (!arr)
		return -1;
	pl->pairs = calloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof *pl->pairs);
	if (!pl->pairs)
		return mt_fail(e, _("%s: out of memory"), f);
	cJSON_ArrayForEach(it, arr) {
		struct cores_pair *q = &pl->pairs[pl->npairs];
		mt_snprintf(where, sizeof where, "%s: pairs[%zu]", f, pl->npairs);
		if (pair_from_json(it, where, pl, q, e) < 0)
			return -1;
		for (size_t k = 0; k < pl->npairs; k++)
			if (pl->pairs[k].ia == q->ia && pl->pairs[k].ib == q->ib)
				return mt_fail(e, _("%s: CPUs %d and %d are already pairs[%zu]"), where,
					       pl->cpus[q->ia], pl->cpus[q->ib], k);
		pl->npairs++;
	}
	return 0;
}

/* "method", when present: "cas" or "rw" (absent: cas, the files before it). */
static int method_from_json(const cJSON *root, const char *f, int *method, mt_error *e)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(root, "method");
	*method = CORES_CAS;
	if (!m)
		return 0;
	if (cJSON_IsString(m) && strcmp(m->valuestring, "cas") == 0)
		return 0;
	if (cJSON_IsString(m) && strcmp(m->valuestring, "rw") == 0) {
		*method = CORES_RW;
		return 0;
	}
	return mt_fail(e, _("%s: field \"method\" must be \"cas\" or \"rw\""), f);
}

int cores_result_from_json(const cJSON *root, const char *file, struct cores_result *r,
			   mt_error *e)
{
	const char *f = file ? file : "input";
	memset(r, 0, sizeof *r);
	if (!cJSON_IsObject(root))
		return mt_fail(e, _("%s: not a JSON object"), f);
	run_header_from_json(root, &r->hdr);
	jsonio_opt_string(root, "origin", r->origin, sizeof r->origin);
	r->plan.p.tries = (int)jsonio_opt_int(root, "tries", 0, 1000, 0);
	r->plan.p.samples = (int)jsonio_opt_int(root, "samples", 0, INT_MAX, 0);
	r->plan.p.rounds = (int)jsonio_opt_int(root, "round_trips", 0, INT_MAX, 0);
	r->plan.sampled = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "sampled"));
	if (method_from_json(root, f, &r->plan.p.method, e) < 0)
		return -1;
	if (cpus_from_json(root, f, &r->plan, e) < 0 || matrix_check(root, f, r->plan.n, e) < 0 ||
	    pairs_from_json(root, f, &r->plan, e) < 0)
		return -1;
	if (build_index(r) < 0 || cores_result_summarise(r) < 0)
		return mt_fail(e, _("%s: out of memory"), f);
	if (file)
		mt_strlcpy(r->source, file, sizeof r->source);
	return 0;
}
