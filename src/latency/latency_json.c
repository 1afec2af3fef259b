/* latency_json: a latency result as JSON and back (latency.h), for runs
 * measured here and for tables imported from other tools. */
#include "config.h"

#include "base/i18n.h"

#include "latency.h"
#include "base/jsonio.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NS_SCALE 1e3 /* ns kept to the picosecond */

static cJSON *num_or_null(double x, double scale)
{
	return isnan(x) ? cJSON_CreateNull() : cJSON_CreateNumber(round(x * scale) / scale);
}

/* v[0..n) as written (to the picosecond; NAN stays). */
static void as_written(double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[i] = round(v[i] * NS_SCALE) / NS_SCALE;
}

/* The levels as a reader of the file finds them: detected on the curves as
 * written, so that the file read back writes the same levels. */
static void detect_as_written(const struct latency_result *r, struct latency_levels *lv)
{
	struct latency_result *w = malloc(sizeof *w);
	if (!w) { /* out of memory: the levels of the unrounded curves */
		latency_detect(r, lv);
		return;
	}
	*w = *r; /* its pointers (caches) are only read */
	for (size_t k = 0; k < w->nstrides; k++) {
		as_written(w->ns[k], w->nsizes);
		as_written(w->cycles[k], w->nsizes);
	}
	as_written(w->random_ns, w->nsizes);
	as_written(w->random_cycles, w->nsizes);
	as_written(w->other_ns, w->nsizes);
	latency_detect(w, lv);
	free(w);
}

static cJSON *curve_json(const double *v, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; a && i < n; i++)
		cJSON_AddItemToArray(a, num_or_null(v[i], NS_SCALE));
	return a;
}

#define SPREAD_SCALE 1e4 /* a spread kept to 0.01 % */

/* Whether any point of r has its tries recorded (a run measured here). */
static int has_record(const struct latency_result *r)
{
	for (size_t i = 0; i < r->nsizes; i++) {
		for (size_t k = 0; k < r->nstrides; k++)
			if (r->tries[k][i])
				return 1;
		if (r->has_random && r->random_tries[i])
			return 1;
	}
	return 0;
}

/* One curve's record: spreads (null where the tries are not known) or
 * tries. */
static cJSON *record_json(const double *spread, const unsigned *tries, size_t n, int want_tries)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; a && i < n; i++) {
		if (want_tries)
			cJSON_AddItemToArray(a, cJSON_CreateNumber(tries[i]));
		else
			cJSON_AddItemToArray(a, tries[i] ? num_or_null(spread[i], SPREAD_SCALE)
							 : cJSON_CreateNull());
	}
	return a;
}

static const char *huge_name(int h)
{
	return h == LATENCY_HUGE_ON ? "on" : h == LATENCY_HUGE_OFF ? "off" : "unknown";
}

/* strides, sizes, and the cycles and ns of each fixed stride (no "cycles"
 * when the clock is unknown). */
static int fixed_json(const struct latency_result *r, cJSON *root)
{
	cJSON *a = NULL, *c, *st, *sz;
	if (!(st = cJSON_AddArrayToObject(root, "strides")) ||
	    !(sz = cJSON_AddArrayToObject(root, "sizes")) ||
	    (r->ghz > 0 && !(a = cJSON_AddArrayToObject(root, "cycles"))) ||
	    !(c = cJSON_AddArrayToObject(root, "ns")))
		return -1;
	for (size_t k = 0; k < r->nstrides; k++)
		cJSON_AddItemToArray(st, cJSON_CreateNumber(r->strides[k]));
	for (size_t i = 0; i < r->nsizes; i++)
		cJSON_AddItemToArray(sz, cJSON_CreateNumber((double)r->sizes[i]));
	for (size_t k = 0; k < r->nstrides; k++) {
		if (r->ghz > 0)
			cJSON_AddItemToArray(a, curve_json(r->cycles[k], r->nsizes));
		cJSON_AddItemToArray(c, curve_json(r->ns[k], r->nsizes));
	}
	if (has_record(r)) { /* each point's spread and tries, one row per stride */
		cJSON *sp, *tr;
		if (!(sp = cJSON_AddArrayToObject(root, "spread")) ||
		    !(tr = cJSON_AddArrayToObject(root, "tries")))
			return -1;
		for (size_t k = 0; k < r->nstrides; k++) {
			cJSON_AddItemToArray(sp, record_json(r->spread[k], r->tries[k], r->nsizes, 0));
			cJSON_AddItemToArray(tr, record_json(r->spread[k], r->tries[k], r->nsizes, 1));
		}
	}
	return 0;
}

/* random {stride, sizes, ns, cycles, ns_over_l1} and random_other. */
static int random_json(const struct latency_result *r, cJSON *root)
{
	cJSON *rnd, *a, *o;
	if (!r->has_random)
		return 0;
	if (!(rnd = cJSON_AddObjectToObject(root, "random")))
		return -1;
	cJSON_AddNumberToObject(rnd, "stride", r->random_stride);
	if (r->tlb_locality)
		cJSON_AddNumberToObject(rnd, "tlb_locality", (double)r->tlb_locality);
	if (!(a = cJSON_AddArrayToObject(rnd, "sizes")))
		return -1;
	for (size_t i = 0; i < r->nsizes; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)r->sizes[i]));
	cJSON_AddItemToObject(rnd, "ns", curve_json(r->random_ns, r->nsizes));
	if (r->ghz > 0)
		cJSON_AddItemToObject(rnd, "cycles", curve_json(r->random_cycles, r->nsizes));
	if (r->ns_over_l1)
		cJSON_AddTrueToObject(rnd, "ns_over_l1");
	if (has_record(r)) {
		cJSON_AddItemToObject(rnd, "spread",
				      record_json(r->random_spread, r->random_tries, r->nsizes, 0));
		cJSON_AddItemToObject(rnd, "tries",
				      record_json(r->random_spread, r->random_tries, r->nsizes, 1));
	}
	if (r->has_other) {
		if (!(o = cJSON_AddObjectToObject(root, "random_other")))
			return -1;
		cJSON_AddStringToObject(o, "hugepages", huge_name(r->other_hugepages));
		cJSON_AddItemToObject(o, "ns", curve_json(r->other_ns, r->nsizes));
		if (r->ghz > 0)
			cJSON_AddItemToObject(o, "cycles", curve_json(r->other_cycles, r->nsizes));
		if (has_record(r)) {
			cJSON_AddItemToObject(o, "spread", record_json(r->other_spread,
								       r->other_tries, r->nsizes, 0));
			cJSON_AddItemToObject(o, "tries", record_json(r->other_spread,
								      r->other_tries, r->nsizes, 1));
		}
		if (r->other_pages[0])
			cJSON_AddStringToObject(o, "pages", r->other_pages);
		if (r->other_share >= 0)
			cJSON_AddNumberToObject(o, "huge_share", round(r->other_share * 1e4) / 1e4);
	}
	return 0;
}

cJSON *latency_to_json(const struct latency_result *r)
{
	cJSON *root = cJSON_CreateObject();
	struct latency_levels lv;
	if (!root)
		return NULL;
	if (run_header_to_json(&r->hdr, root) < 0)
		goto fail;
	cJSON_AddStringToObject(root, "experiment", "latency");
	if (cJSON_GetObjectItemCaseSensitive(root, "ghz"))
		cJSON_ReplaceItemInObjectCaseSensitive(root, "ghz", cJSON_CreateNumber(r->ghz));
	else
		cJSON_AddNumberToObject(root, "ghz", r->ghz);
	if (r->format[0])
		cJSON_AddStringToObject(root, "format", r->format);
	if (fixed_json(r, root) < 0 || random_json(r, root) < 0)
		goto fail;
	cJSON_AddStringToObject(root, "hugepages", huge_name(r->hugepages));
	cJSON_AddStringToObject(root, "pages", r->pages);
	if (r->capped_from)
		cJSON_AddNumberToObject(root, "capped_from", (double)r->capped_from);
	if (r->memory_probe_ns > 0)
		cJSON_AddNumberToObject(root, "memory_probe_ns", round(r->memory_probe_ns * 100) / 100);
	if (r->elapsed_s > 0)
		cJSON_AddNumberToObject(root, "elapsed_s", round(r->elapsed_s * 100) / 100);
	if (r->caches) {
		cJSON *c = cJSON_Duplicate(r->caches, 1);
		if (!c)
			goto fail;
		cJSON_AddItemToObject(root, "caches", c);
	}
	detect_as_written(r, &lv);
	if (latency_levels_to_json(&lv, root) < 0)
		goto fail;
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}

/* ---- reading --------------------------------------------------------------- */

/* Read an array of n numbers or nulls (NAN). */
static int read_curve(const cJSON *arr, const char *file, const char *what, size_t n, double *out,
		      mt_error *e)
{
	size_t i = 0;
	const cJSON *it;
	if (!cJSON_IsArray(arr))
		return mt_fail(e, _("%s: %s is not an array"), file, what);
	if ((size_t)cJSON_GetArraySize(arr) != n)
		return mt_fail(e, _("%s: %s has %d values, expected %zu"), file, what,
			       cJSON_GetArraySize(arr), n);
	cJSON_ArrayForEach(it, arr)
	{
		if (cJSON_IsNull(it))
			out[i] = NAN;
		else if (cJSON_IsNumber(it) && isfinite(it->valuedouble) && it->valuedouble >= 0)
			out[i] = it->valuedouble;
		else
			return mt_fail(e, _("%s: %s value %zu is not a number"), file, what, i + 1);
		i++;
	}
	return 0;
}

static void fill_nan(double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		v[i] = NAN;
}

#define MAX_TRIES 1000000

/* One curve's record from spread and tries (both or neither, n values
 * each; a spread is null exactly where the tries are 0). what names the
 * curve ("row 2", "random"). */
static int read_record(const cJSON *sp, const cJSON *tr, const char *file, const char *what,
		       size_t n, double *spread, unsigned *tries, mt_error *e)
{
	double t[LATENCY_MAX_SIZES];
	char name[64];
	mt_snprintf(name, sizeof name, "spread %s", what);
	if (read_curve(sp, file, name, n, spread, e) < 0)
		return -1;
	mt_snprintf(name, sizeof name, "tries %s", what);
	if (read_curve(tr, file, name, n, t, e) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (isnan(t[i]) || t[i] != floor(t[i]) || t[i] > MAX_TRIES)
			return mt_fail(e, _("%s: tries %s value %zu is not a count 0..%d"), file, what,
				       i + 1, MAX_TRIES);
		tries[i] = (unsigned)t[i];
		if (isnan(spread[i]) != (tries[i] == 0))
			return mt_fail(e, _("%s: spread %s value %zu: null exactly where tries is 0"),
				       file, what, i + 1);
	}
	return 0;
}

/* spread and tries of the fixed strides: both or neither, one row per
 * stride. */
static int read_fixed_record(const cJSON *root, const char *file, struct latency_result *r,
			     mt_error *e)
{
	const cJSON *sp = cJSON_GetObjectItemCaseSensitive(root, "spread");
	const cJSON *tr = cJSON_GetObjectItemCaseSensitive(root, "tries");
	char what[32];
	if (!sp && !tr)
		return 0;
	if (!cJSON_IsArray(sp) || !cJSON_IsArray(tr) ||
	    (size_t)cJSON_GetArraySize(sp) != r->nstrides ||
	    (size_t)cJSON_GetArraySize(tr) != r->nstrides)
		return mt_fail(e, _("%s: spread and tries need %zu rows each (one per stride)"), file,
			       r->nstrides);
	for (size_t k = 0; k < r->nstrides; k++) {
		mt_snprintf(what, sizeof what, "row %zu", k + 1);
		if (read_record(cJSON_GetArrayItem(sp, (int)k), cJSON_GetArrayItem(tr, (int)k), file,
				what, r->nsizes, r->spread[k], r->tries[k], e) < 0)
			return -1;
	}
	return 0;
}

/* sizes and strides: increasing positive numbers. */
static int read_axes(const cJSON *sizes, const cJSON *strides, const char *file,
		     struct latency_result *r, mt_error *e)
{
	const cJSON *it;
	size_t i = 0;
	r->nsizes = (size_t)cJSON_GetArraySize(sizes);
	r->nstrides = (size_t)cJSON_GetArraySize(strides);
	if (r->nsizes == 0 || r->nsizes > LATENCY_MAX_SIZES)
		return mt_fail(e, _("%s: sizes has %zu values, expected 1..%d"), file, r->nsizes,
			       LATENCY_MAX_SIZES);
	if (r->nstrides > LATENCY_MAX_STRIDES)
		return mt_fail(e, _("%s: strides has %zu values, at most %d"), file, r->nstrides,
			       LATENCY_MAX_STRIDES);
	cJSON_ArrayForEach(it, sizes)
	{
		if (!cJSON_IsNumber(it) || it->valuedouble < 1 || it->valuedouble > 1e15 ||
		    (i && it->valuedouble <= (double)r->sizes[i - 1]))
			return mt_fail(e, _("%s: sizes value %zu is not an increasing size"), file, i + 1);
		r->sizes[i++] = (uint64_t)it->valuedouble;
	}
	i = 0;
	cJSON_ArrayForEach(it, strides)
	{
		if (!cJSON_IsNumber(it) || it->valuedouble < 8 || it->valuedouble > 1e9 ||
		    (i && it->valuedouble <= r->strides[i - 1]))
			return mt_fail(e, _("%s: strides value %zu is not an increasing stride"), file,
				       i + 1);
		r->strides[i++] = (unsigned)it->valuedouble;
	}
	return 0;
}

/* ns and cycles, one row per stride (cycles from ns x ghz when absent). */
static int read_fixed(const cJSON *root, const char *file, struct latency_result *r, mt_error *e)
{
	const cJSON *cyc = cJSON_GetObjectItemCaseSensitive(root, "cycles");
	const cJSON *ns = jsonio_array(root, "ns", file, e);
	char what[64];
	if (!ns)
		return -1;
	if ((size_t)cJSON_GetArraySize(ns) != r->nstrides)
		return mt_fail(e, _("%s: ns needs %zu rows (one per stride), got %d"), file, r->nstrides,
			       cJSON_GetArraySize(ns));
	if (cyc && (!cJSON_IsArray(cyc) || (size_t)cJSON_GetArraySize(cyc) != r->nstrides))
		return mt_fail(e, _("%s: cycles needs %zu rows (one per stride)"), file, r->nstrides);
	for (size_t k = 0; k < LATENCY_MAX_STRIDES; k++) {
		fill_nan(r->ns[k], LATENCY_MAX_SIZES);
		fill_nan(r->cycles[k], LATENCY_MAX_SIZES);
	}
	for (size_t k = 0; k < r->nstrides; k++) {
		mt_snprintf(what, sizeof what, "ns row %zu", k + 1);
		if (read_curve(cJSON_GetArrayItem(ns, (int)k), file, what, r->nsizes, r->ns[k], e) < 0)
			return -1;
		mt_snprintf(what, sizeof what, "cycles row %zu", k + 1);
		if (cyc && read_curve(cJSON_GetArrayItem(cyc, (int)k), file, what, r->nsizes,
				      r->cycles[k], e) < 0)
			return -1;
		for (size_t i = 0; !cyc && r->ghz > 0 && i < r->nsizes; i++)
			r->cycles[k][i] = r->ns[k][i] * r->ghz;
	}
	return 0;
}

static int read_huge(const cJSON *o, const char *key, const char *file, int *out, mt_error *e)
{
	char hp[16] = "";
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!v) {
		*out = LATENCY_HUGE_OFF; /* memtop's runs before there was a choice */
		return 0;
	}
	jsonio_opt_string(o, key, hp, sizeof hp);
	*out = strcmp(hp, "on") == 0	    ? LATENCY_HUGE_ON
	       : strcmp(hp, "off") == 0	    ? LATENCY_HUGE_OFF
	       : strcmp(hp, "unknown") == 0 ? LATENCY_HUGE_UNKNOWN
					    : -1;
	return *out < 0 ? mt_fail(e, _("%s: %s must be \"on\", \"off\" or \"unknown\""), file, key) : 0;
}

/* random_other: the random chase with the other page size. */
static int read_other(const cJSON *root, const char *file, struct latency_result *r, mt_error *e)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "random_other"), *cyc, *v;
	fill_nan(r->other_ns, LATENCY_MAX_SIZES);
	fill_nan(r->other_cycles, LATENCY_MAX_SIZES);
	r->other_share = -1;
	if (!o || cJSON_IsNull(o))
		return 0;
	if (!cJSON_IsObject(o) || !r->has_random)
		return mt_fail(e, _("%s: random_other needs an object and a random chase"), file);
	if (read_huge(o, "hugepages", file, &r->other_hugepages, e) < 0)
		return -1;
	if (r->other_hugepages == LATENCY_HUGE_UNKNOWN || r->other_hugepages == r->hugepages)
		return mt_fail(e, _("%s: random_other.hugepages must be the other page size"), file);
	if (read_curve(cJSON_GetObjectItemCaseSensitive(o, "ns"), file, "random_other.ns", r->nsizes,
		       r->other_ns, e) < 0)
		return -1;
	cyc = cJSON_GetObjectItemCaseSensitive(o, "cycles");
	if (cyc && read_curve(cyc, file, "random_other.cycles", r->nsizes, r->other_cycles, e) < 0)
		return -1;
	for (size_t i = 0; !cyc && r->ghz > 0 && i < r->nsizes; i++)
		r->other_cycles[i] = r->other_ns[i] * r->ghz;
	if ((cJSON_GetObjectItemCaseSensitive(o, "spread") ||
	     cJSON_GetObjectItemCaseSensitive(o, "tries")) &&
	    read_record(cJSON_GetObjectItemCaseSensitive(o, "spread"),
			cJSON_GetObjectItemCaseSensitive(o, "tries"), file, "random_other", r->nsizes,
			r->other_spread, r->other_tries, e) < 0)
		return -1;
	jsonio_opt_string(o, "pages", r->other_pages, sizeof r->other_pages);
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "huge_share"))) {
		if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble <= 1))
			return mt_fail(e, _("%s: random_other.huge_share is not a number from 0 to 1"),
				       file);
		r->other_share = v->valuedouble;
	}
	r->has_other = 1;
	return 0;
}

/* random: {stride, sizes, ns, cycles, ns_over_l1}. */
static int read_random(const cJSON *root, const char *file, struct latency_result *r, mt_error *e)
{
	const cJSON *rnd = cJSON_GetObjectItemCaseSensitive(root, "random"), *rs, *cyc, *over;
	long st;
	fill_nan(r->random_ns, LATENCY_MAX_SIZES);
	fill_nan(r->random_cycles, LATENCY_MAX_SIZES);
	if (!rnd || cJSON_IsNull(rnd))
		return 0;
	if (!cJSON_IsObject(rnd))
		return mt_fail(e, _("%s: random is not an object"), file);
	if (!(rs = jsonio_array(rnd, "sizes", file, e)))
		return -1;
	if ((size_t)cJSON_GetArraySize(rs) != r->nsizes)
		return mt_fail(e, _("%s: random.sizes has %d values, expected %zu"), file,
			       cJSON_GetArraySize(rs), r->nsizes);
	if (read_curve(cJSON_GetObjectItemCaseSensitive(rnd, "ns"), file, "random.ns", r->nsizes,
		       r->random_ns, e) < 0)
		return -1;
	cyc = cJSON_GetObjectItemCaseSensitive(rnd, "cycles");
	if (cyc && read_curve(cyc, file, "random.cycles", r->nsizes, r->random_cycles, e) < 0)
		return -1;
	for (size_t i = 0; !cyc && r->ghz > 0 && i < r->nsizes; i++)
		r->random_cycles[i] = r->random_ns[i] * r->ghz;
	if ((cJSON_GetObjectItemCaseSensitive(rnd, "spread") ||
	     cJSON_GetObjectItemCaseSensitive(rnd, "tries")) &&
	    read_record(cJSON_GetObjectItemCaseSensitive(rnd, "spread"),
			cJSON_GetObjectItemCaseSensitive(rnd, "tries"), file, "random", r->nsizes,
			r->random_spread, r->random_tries, e) < 0)
		return -1;
	over = cJSON_GetObjectItemCaseSensitive(rnd, "ns_over_l1");
	if (over && !cJSON_IsBool(over))
		return mt_fail(e, _("%s: random.ns_over_l1 is not true or false"), file);
	r->ns_over_l1 = cJSON_IsTrue(over);
	st = jsonio_opt_int(rnd, "stride", 1, UINT_MAX, 128);
	r->random_stride = (unsigned)st;
	r->tlb_locality = (uint64_t)jsonio_opt_int(rnd, "tlb_locality", 0, LONG_MAX, 0);
	r->has_random = 1;
	return 0;
}

struct latency_result *latency_from_json(const cJSON *root, const char *file, mt_error *e)
{
	struct latency_result *r = calloc(1, sizeof *r);
	const cJSON *sizes, *strides;
	if (!file)
		file = "input";
	if (!r) {
		mt_fail(e, _("out of memory"));
		return NULL;
	}
	run_header_from_json(root, &r->hdr);
	if (jsonio_number(root, "ghz", file, &r->ghz, e) < 0)
		goto fail;
	if (!(sizes = jsonio_array(root, "sizes", file, e)) ||
	    !(strides = jsonio_array(root, "strides", file, e)) ||
	    read_axes(sizes, strides, file, r, e) < 0 || read_fixed(root, file, r, e) < 0 ||
	    read_fixed_record(root, file, r, e) < 0 ||
	    read_huge(root, "hugepages", file, &r->hugepages, e) < 0 ||
	    read_random(root, file, r, e) < 0 || read_other(root, file, r, e) < 0)
		goto fail;
	if (r->nstrides == 0 && !r->has_random) {
		mt_fail(e, _("%s: no curve: neither strides nor a random chase"), file);
		goto fail;
	}
	jsonio_opt_string(root, "pages", r->pages, sizeof r->pages);
	jsonio_opt_string(root, "format", r->format, sizeof r->format);
	r->capped_from = (uint64_t)jsonio_opt_int(root, "capped_from", 0, LONG_MAX, 0);
	r->memory_probe_ns = jsonio_opt_number(root, "memory_probe_ns", 0);
	if (!(r->memory_probe_ns > 0 && r->memory_probe_ns < 1e7))
		r->memory_probe_ns = 0;
	r->elapsed_s = jsonio_opt_number(root, "elapsed_s", 0);
	mt_strlcpy(r->source, file, sizeof r->source);
	{
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(root, "caches");
		if (cJSON_IsObject(c) && !(r->caches = cJSON_Duplicate(c, 1))) {
			mt_fail(e, _("%s: out of memory"), file);
			goto fail;
		}
	}
	return r;
fail:
	latency_result_free(r);
	return NULL;
}
