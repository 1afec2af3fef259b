/* bandwidth_json: a bandwidth result's JSON, its writer and its strict
 * reader (a missing or mistyped field is one line naming the file and the
 * field). See bandwidth.h. */
#include "config.h"

#include "bandwidth_result.h"
#include "base/i18n.h"
#include "base/jsonio.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#define COUNTING                                                                            \
	"STREAM's: each array a kernel names moves once a pass (read, load, write: 1; "     \
	"copy: 2; triad: 3); write-allocate reads not counted"

/* ---- writing ---------------------------------------------------------------- */

static int sizes_to_json(const struct bandwidth_result *r, cJSON *root)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "sizes");
	if (!arr)
		return -1;
	for (size_t i = 0; i < r->nsizes; i++) {
		cJSON *it = cJSON_CreateObject();
		if (!it)
			return -1;
		cJSON_AddItemToArray(arr, it);
		cJSON_AddNumberToObject(it, "size", (double)r->sizes[i].bytes);
		cJSON_AddStringToObject(it, "level", r->sizes[i].level);
		cJSON_AddBoolToObject(it, "per_thread", r->sizes[i].per_thread);
		if (!cJSON_AddStringToObject(it, "from", r->sizes[i].from))
			return -1;
	}
	arr = cJSON_AddArrayToObject(root, "threads");
	if (!arr)
		return -1;
	for (size_t i = 0; i < r->nthreads; i++) {
		cJSON *it = cJSON_CreateObject();
		if (!it)
			return -1;
		cJSON_AddItemToArray(arr, it);
		cJSON_AddNumberToObject(it, "threads", r->threads[i].threads);
		cJSON_AddStringToObject(it, "cpus", r->threads[i].cpus);
		cJSON_AddStringToObject(it, "placement", r->threads[i].placement);
		if (!cJSON_AddBoolToObject(it, "oversubscribed", r->threads[i].over) ||
		    !cJSON_AddBoolToObject(it, "over_quota", r->threads[i].over_quota))
			return -1;
	}
	return 0;
}

/* A number rounded to 3 decimals, or null when not positive. */
static void add_or_null(cJSON *o, const char *k, double v)
{
	if (v > 0)
		cJSON_AddNumberToObject(o, k, round(v * 1000) / 1000);
	else
		cJSON_AddNullToObject(o, k);
}

/* A result's bytes a cycle, ceiling and fraction (derived: not read back),
 * from the GB/s as written (to 3 decimals), so that the file read back
 * writes the same figures. */
static void share_to_json(const struct bandwidth_result *r, size_t s, int k, size_t t, cJSON *it)
{
	struct bandwidth_share sh;
	double gbs = r->cell[s][k][t].gbs, written = round(gbs * 1000) / 1000;
	if (bandwidth_cell_share(r, s, k, t, &sh) < 0)
		return;
	sh.bpc *= written / gbs;
	sh.fraction *= written / gbs;
	sh.run_bpc *= written / gbs;
	sh.run_fraction *= written / gbs;
	add_or_null(it, "bytes_per_cycle", sh.bpc);
	cJSON_AddStringToObject(it, "bytes_per_cycle_clock", bandwidth_clock_name(sh.clock));
	add_or_null(it, "bytes_per_cycle_run", sh.run_bpc);
	add_or_null(it, "ceiling_bpc", sh.ceiling);
	add_or_null(it, "ceiling_fraction", sh.fraction);
	add_or_null(it, "ceiling_fraction_run", sh.run_fraction);
}

/* Which core measured and what the ceilings are counted with. */
static int ceiling_to_json(const struct bandwidth_result *r, cJSON *root)
{
	const struct bandwidth_core *c = bandwidth_core_find(&r->cpu);
	cJSON *id = cJSON_AddObjectToObject(root, "cpu_id"), *ce;
	int measured;
	double ghz = bandwidth_result_ghz(r, &measured);
	if (!id || !(ce = cJSON_AddObjectToObject(root, "ceiling")))
		return -1;
	cJSON_AddStringToObject(id, "vendor", r->cpu.vendor);
	cJSON_AddNumberToObject(id, "family", r->cpu.family);
	cJSON_AddNumberToObject(id, "model", r->cpu.model);
	cJSON_AddNumberToObject(id, "implementer", r->cpu.implementer);
	cJSON_AddNumberToObject(id, "part", r->cpu.part);
	cJSON_AddBoolToObject(id, "amx", r->cpu.amx);
	if (c) {
		cJSON_AddStringToObject(ce, "core", c->name);
		cJSON_AddStringToObject(ce, "source", c->source);
	} else {
		cJSON_AddNullToObject(ce, "core");
		cJSON_AddStringToObject(ce, "note", "no ceiling known for this core");
	}
	double lo, hi;
	add_or_null(ce, "ghz", ghz);
	bandwidth_try_clocks(r, &lo, &hi);
	add_or_null(ce, "try_ghz_min", lo);
	add_or_null(ce, "try_ghz_max", hi);
	return cJSON_AddStringToObject(ce, "clock", measured ? "measured during the run"
							     : "calibrated") ? 0 : -1;
}

/* What backed the table's buffer: "pages": {asked, used, thp,
 * buffer_bytes, huge_bytes (null: not known)}; none for a run without a
 * buffer of its own (loaded only, a caller's). */
static int pages_to_json(const struct bandwidth_result *r, cJSON *root)
{
	cJSON *o;
	if (!r->pages.buffer_bytes)
		return 0;
	if (!(o = cJSON_AddObjectToObject(root, "pages")))
		return -1;
	cJSON_AddStringToObject(o, "asked", bandwidth_pages_name(r->pages.asked));
	cJSON_AddStringToObject(o, "used", r->pages.used == BANDWIDTH_PAGES_HUGE ? "huge" : "4k");
	cJSON_AddStringToObject(o, "thp", r->pages.thp);
	cJSON_AddNumberToObject(o, "buffer_bytes", (double)r->pages.buffer_bytes);
	if (r->pages.huge_bytes >= 0)
		return cJSON_AddNumberToObject(o, "huge_bytes", (double)r->pages.huge_bytes) ? 0 : -1;
	return cJSON_AddNullToObject(o, "huge_bytes") ? 0 : -1;
}

/* The load ports' canaries: "ports": {"canary": "load", "bytes": 4096,
 * "before": {"gbs", "ghz"} or null, "after": the same, and derived (not
 * read back) "verdict" (null: nothing to say) and "shared"}; none when
 * neither was measured. */
static int ports_to_json(const struct bandwidth_result *r, cJSON *root)
{
	static const char *const when[2] = { "before", "after" };
	char line[400];
	int shared = 0;
	cJSON *o;
	if (!r->ports[0].have && !r->ports[1].have)
		return 0;
	if (!(o = cJSON_AddObjectToObject(root, "ports")))
		return -1;
	cJSON_AddStringToObject(o, "canary", "load");
	cJSON_AddNumberToObject(o, "bytes", BANDWIDTH_PORTS_BYTES);
	for (int i = 0; i < 2; i++) {
		cJSON *w;
		if (!r->ports[i].have) {
			cJSON_AddNullToObject(o, when[i]);
			continue;
		}
		if (!(w = cJSON_AddObjectToObject(o, when[i])))
			return -1;
		cJSON_AddNumberToObject(w, "gbs", r->ports[i].gbs);
		add_or_null(w, "ghz", r->ports[i].ghz);
		cJSON_AddNumberToObject(w, "preemptions", r->ports[i].preempted);
	}
	if (!bandwidth_ports_verdict(r, line, sizeof line, &shared))
		return cJSON_AddNullToObject(o, "verdict") ? 0 : -1;
	cJSON_AddStringToObject(o, "verdict", line);
	return cJSON_AddBoolToObject(o, "shared", shared) ? 0 : -1;
}

static int results_to_json(const struct bandwidth_result *r, cJSON *root)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "results");
	if (!arr)
		return -1;
	for (size_t s = 0; s < r->nsizes; s++)
		for (size_t ki = 0; ki < r->nkernels; ki++)
			for (size_t t = 0; t < r->nthreads; t++) {
				int k = r->kernels[ki];
				const struct bandwidth_cell *c = &r->cell[s][k][t];
				cJSON *it;
				if (!c->have)
					continue;
				if (!(it = cJSON_CreateObject()))
					return -1;
				cJSON_AddItemToArray(arr, it);
				cJSON_AddStringToObject(it, "kernel", bandwidth_kernel_name(k));
				cJSON_AddNumberToObject(it, "size", (double)r->sizes[s].bytes);
				cJSON_AddNumberToObject(it, "threads", r->threads[t].threads);
				cJSON_AddNumberToObject(it, "gbs", round(c->gbs * 1000) / 1000);
				cJSON_AddNumberToObject(it, "spread", round(c->spread * 10000) / 10000);
				cJSON_AddNumberToObject(it, "tries", c->tries);
				cJSON_AddNumberToObject(it, "canary", round(c->canary * 1000) / 1000);
				cJSON_AddNumberToObject(it, "bytes_per_pass", c->pass_bytes);
				cJSON_AddBoolToObject(it, "measured_twice", c->twice);
				cJSON_AddNumberToObject(it, "preemptions", c->preempted);
				cJSON_AddBoolToObject(it, "uneven", c->uneven);
				add_or_null(it, "try_ghz", c->ghz);
				share_to_json(r, s, k, t, it);
				if (!cJSON_AddBoolToObject(it, "checked", c->checked))
					return -1;
			}
	return 0;
}

static int loaded_to_json(const struct bandwidth_result *r, cJSON *root)
{
	cJSON *setup, *arr;
	if (!r->loaded)
		return 0;
	setup = cJSON_AddObjectToObject(root, "loaded_setup");
	arr = cJSON_AddArrayToObject(root, "loaded");
	if (!setup || !arr)
		return -1;
	cJSON_AddNumberToObject(setup, "chase_bytes", (double)r->chase_bytes);
	cJSON_AddNumberToObject(setup, "chase_stride", r->chase_stride);
	cJSON_AddNumberToObject(setup, "loaders", r->loaders);
	cJSON_AddNumberToObject(setup, "chaser_cpu", r->chaser_cpu);
	cJSON_AddStringToObject(setup, "loader", r->loader_write ? "write" : "read");
	for (size_t i = 0; i < r->npts; i++) {
		const struct bandwidth_point *pt = &r->pts[i];
		cJSON *it;
		if (!pt->have)
			continue;
		if (!(it = cJSON_CreateObject()))
			return -1;
		cJSON_AddItemToArray(arr, it);
		if (pt->idle)
			cJSON_AddNullToObject(it, "delay_ns");
		else
			cJSON_AddNumberToObject(it, "delay_ns", pt->delay_ns);
		cJSON_AddNumberToObject(it, "gbs", round(pt->gbs * 1000) / 1000);
		cJSON_AddNumberToObject(it, "latency_ns", round(pt->latency_ns * 100) / 100);
		cJSON_AddNumberToObject(it, "spread", round(pt->spread * 10000) / 10000);
		cJSON_AddNumberToObject(it, "tries", pt->tries);
		cJSON_AddNumberToObject(it, "preempted_tries", pt->preempted);
		if (!cJSON_AddBoolToObject(it, "idle", pt->idle))
			return -1;
	}
	return 0;
}

cJSON *bandwidth_result_to_json(const struct bandwidth_result *r)
{
	cJSON *root = cJSON_CreateObject(), *k;
	if (!root || run_header_to_json(&r->hdr, root) < 0 ||
	    !cJSON_AddStringToObject(root, "experiment", "bandwidth") ||
	    !cJSON_AddStringToObject(root, "isa", bandwidth_isa_name(r->isa)) ||
	    !cJSON_AddNumberToObject(root, "vector_bytes", r->vector_bytes) ||
	    !cJSON_AddStringToObject(root, "counting", COUNTING) ||
	    !cJSON_AddNumberToObject(root, "cpus", r->ncpus) ||
	    !(k = cJSON_AddArrayToObject(root, "kernels")))
		goto oom;
	for (size_t i = 0; i < r->nkernels; i++) {
		cJSON *s = cJSON_CreateString(bandwidth_kernel_name(r->kernels[i]));
		if (!s)
			goto oom;
		cJSON_AddItemToArray(k, s);
	}
	if (sizes_to_json(r, root) < 0 || ceiling_to_json(r, root) < 0 ||
	    pages_to_json(r, root) < 0 || ports_to_json(r, root) < 0 ||
	    results_to_json(r, root) < 0 ||
	    loaded_to_json(r, root) < 0)
		goto oom;
	return root;
oom:
	cJSON_Delete(root);
	return NULL;
}

int bandwidth_result_is(const cJSON *root)
{
	const char *ex = jsonio_experiment(root);
	return ex && strcmp(ex, "bandwidth") == 0;
}

/* ---- reading ---------------------------------------------------------------- */

/* File-borne text is shown on terminals: control characters become '?'. */
static void printable(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static int sizes_from_json(const cJSON *root, const char *f, struct bandwidth_result *r,
			   mt_error *e)
{
	const cJSON *arr, *it;
	char where[320];
	int i = 0;
	if (!(arr = jsonio_array(root, "sizes", f, e)))
		return -1;
	cJSON_ArrayForEach(it, arr) {
		struct bandwidth_size *sz = &r->sizes[r->nsizes];
		double v;
		mt_snprintf(where, sizeof where, "%s: sizes[%d]", f, i++);
		if (r->nsizes == BANDWIDTH_MAX_SIZES)
			return mt_fail(e, _("%s: more than %d sizes"), where, BANDWIDTH_MAX_SIZES);
		if (!cJSON_IsObject(it) || jsonio_number(it, "size", where, &v, e) < 0)
			return mt_fail(e, _("%s: field \"size\" must be a number"), where);
		if (v < 1 || v > 1e15)
			return mt_fail(e, _("%s: field \"size\" out of range"), where);
		sz->bytes = (uint64_t)v;
		sz->per_thread = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "per_thread"));
		jsonio_opt_string(it, "level", sz->level, sizeof sz->level);
		jsonio_opt_string(it, "from", sz->from, sizeof sz->from);
		printable(sz->level);
		printable(sz->from);
		r->nsizes++;
	}
	if (!(arr = jsonio_array(root, "threads", f, e)))
		return -1;
	i = 0;
	cJSON_ArrayForEach(it, arr) {
		struct bandwidth_threads_info *t = &r->threads[r->nthreads];
		long n;
		mt_snprintf(where, sizeof where, "%s: threads[%d]", f, i++);
		if (r->nthreads == BANDWIDTH_MAX_TLIST)
			return mt_fail(e, _("%s: more than %d thread counts"), where, BANDWIDTH_MAX_TLIST);
		if (!cJSON_IsObject(it) || jsonio_int(it, "threads", where, 1, BANDWIDTH_MAX_THREADS, &n, e) < 0)
			return mt_fail(e, _("%s: field \"threads\" must be 1..%d"), where, BANDWIDTH_MAX_THREADS);
		t->threads = (unsigned)n;
		t->over = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "oversubscribed"));
		t->over_quota = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "over_quota"));
		jsonio_opt_string(it, "cpus", t->cpus, sizeof t->cpus);
		jsonio_opt_string(it, "placement", t->placement, sizeof t->placement);
		printable(t->cpus);
		printable(t->placement);
		r->nthreads++;
	}
	return 0;
}

/* Index of size bytes in r, or -1. */
static int size_index(const struct bandwidth_result *r, double bytes)
{
	for (size_t i = 0; i < r->nsizes; i++)
		if ((double)r->sizes[i].bytes == bytes)
			return (int)i;
	return -1;
}

/* Add kernel k to r's columns unless it is there. */
static void add_kernel(struct bandwidth_result *r, int k)
{
	for (size_t i = 0; i < r->nkernels; i++)
		if (r->kernels[i] == k)
			return;
	if (r->nkernels < BANDWIDTH_NKERNELS)
		r->kernels[r->nkernels++] = k;
}

/* A result's optional "try_ghz" (files before it have none): the core
 * clock around the cell's best try, a number of GHz in (0, 1000) or null
 * (not measured). Returns 0, or -1 with e naming it when it is something
 * else. */
static int try_ghz_from_json(const cJSON *it, const char *where, double *ghz, mt_error *e)
{
	const cJSON *g = cJSON_GetObjectItemCaseSensitive(it, "try_ghz");
	*ghz = 0;
	if (!g || cJSON_IsNull(g))
		return 0;
	if (!cJSON_IsNumber(g) || !(g->valuedouble > 0 && g->valuedouble < 1000))
		return mt_fail(e, _("%s: field \"try_ghz\" must be a clock in GHz (0 < GHz < 1000) "
				  "or null"), where);
	*ghz = g->valuedouble;
	return 0;
}

static int results_from_json(const cJSON *root, const char *f, struct bandwidth_result *r,
			     mt_error *e)
{
	const cJSON *arr, *it;
	char where[320];
	int i = 0;
	if (!(arr = jsonio_array(root, "results", f, e)))
		return -1;
	cJSON_ArrayForEach(it, arr) {
		const cJSON *kn = cJSON_GetObjectItemCaseSensitive(it, "kernel");
		struct bandwidth_cell *c;
		double size;
		long th;
		int k, si, ti;
		mt_snprintf(where, sizeof where, "%s: results[%d]", f, i++);
		if (!cJSON_IsObject(it))
			return mt_fail(e, _("%s: not an object"), where);
		if (!cJSON_IsString(kn) || (k = bandwidth_kernel_parse(kn->valuestring)) < 0)
			return mt_fail(e, _("%s: field \"kernel\" must name a kernel (read, "
				       "read_vector, load, write, write_nt, copy, copy_nt, triad, "
				       "triad_nt)"), where);
		if (jsonio_number(it, "size", where, &size, e) < 0 ||
		    jsonio_int(it, "threads", where, 1, BANDWIDTH_MAX_THREADS, &th, e) < 0)
			return -1;
		if ((si = size_index(r, size)) < 0)
			return mt_fail(e, _("%s: size %.0f is not in \"sizes\""), where, size);
		if ((ti = bandwidth_result_tindex(r, (unsigned)th)) < 0)
			return mt_fail(e, _("%s: threads %ld is not in \"threads\""), where, th);
		c = &r->cell[si][k][ti];
		if (jsonio_number(it, "gbs", where, &c->gbs, e) < 0)
			return -1;
		if (!isfinite(c->gbs) || c->gbs < 0)
			return mt_fail(e, _("%s: field \"gbs\" must be a number >= 0"), where);
		c->have = 1;
		c->spread = jsonio_opt_number(it, "spread", NAN);
		c->canary = jsonio_opt_number(it, "canary", NAN);
		c->tries = (int)jsonio_opt_int(it, "tries", 0, INT_MAX, 0);
		c->pass_bytes = jsonio_opt_number(it, "bytes_per_pass", 0);
		c->twice = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "measured_twice"));
		c->preempted = (int)jsonio_opt_int(it, "preemptions", 0, INT_MAX, 0);
		c->uneven = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "uneven"));
		if (try_ghz_from_json(it, where, &c->ghz, e) < 0)
			return -1;
		c->checked = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(it, "checked"));
		if (!c->checked)
			r->wrong = 1;
		add_kernel(r, k);
	}
	return 0;
}

static int loaded_from_json(const cJSON *root, const char *f, struct bandwidth_result *r,
			    mt_error *e)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "loaded"), *it;
	const cJSON *setup = cJSON_GetObjectItemCaseSensitive(root, "loaded_setup");
	char where[320], loader[16] = "";
	int i = 0;
	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr))
		return mt_fail(e, _("%s: field \"loaded\" is not an array"), f);
	r->loaded = 1;
	r->chaser_cpu = -1;
	if (cJSON_IsObject(setup)) {
		r->chaser_cpu = (int)jsonio_opt_int(setup, "chaser_cpu", -1, INT_MAX, -1);
		r->chase_bytes = (uint64_t)jsonio_opt_int(setup, "chase_bytes", 0, LONG_MAX, 0);
		r->chase_stride = (unsigned)jsonio_opt_int(setup, "chase_stride", 0, INT_MAX, 0);
		r->loaders = (unsigned)jsonio_opt_int(setup, "loaders", 0, BANDWIDTH_MAX_THREADS, 0);
		jsonio_opt_string(setup, "loader", loader, sizeof loader);
		r->loader_write = strcmp(loader, "write") == 0;
	}
	cJSON_ArrayForEach(it, arr) {
		struct bandwidth_point *pt = &r->pts[r->npts];
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(it, "delay_ns");
		mt_snprintf(where, sizeof where, "%s: loaded[%d]", f, i++);
		if (r->npts == MT_ARRAY_LEN(r->pts))
			return mt_fail(e, _("%s: more than %zu points"), where, MT_ARRAY_LEN(r->pts));
		if (!cJSON_IsObject(it) || jsonio_number(it, "gbs", where, &pt->gbs, e) < 0 ||
		    jsonio_number(it, "latency_ns", where, &pt->latency_ns, e) < 0)
			return mt_fail(e, _("%s: fields \"gbs\" and \"latency_ns\" must be numbers"), where);
		if (!cJSON_IsNull(d) && !cJSON_IsNumber(d))
			return mt_fail(e, _("%s: field \"delay_ns\" must be a number or null"), where);
		pt->have = 1;
		pt->idle = cJSON_IsNull(d);
		pt->delay_ns = pt->idle ? -1 : d->valuedouble;
		pt->spread = jsonio_opt_number(it, "spread", NAN);
		pt->tries = (int)jsonio_opt_int(it, "tries", 0, INT_MAX, 0);
		pt->preempted = (int)jsonio_opt_int(it, "preempted_tries", 0, INT_MAX, 0);
		r->npts++;
	}
	return 0;
}

/* The optional "pages" (files before it have none: asked -1, not known).
 * Returns 0, or -1 with e naming a field that is there but wrong. */
static int pages_from_json(const cJSON *root, const char *f, struct bandwidth_pages *pg, mt_error *e)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "pages"), *h;
	char asked[16] = "", used[16] = "";
	memset(pg, 0, sizeof *pg);
	pg->asked = -1;
	pg->huge_bytes = -1;
	if (!o)
		return 0;
	h = cJSON_GetObjectItemCaseSensitive(o, "huge_bytes");
	jsonio_opt_string(o, "asked", asked, sizeof asked);
	jsonio_opt_string(o, "used", used, sizeof used);
	if (!cJSON_IsObject(o) || (pg->asked = bandwidth_pages_parse(asked)) < 0 ||
	    (strcmp(used, "4k") && strcmp(used, "huge")))
		return mt_fail(e, _("%s: field \"pages\": an object with \"asked\" (4k, huge or "
				  "auto) and \"used\" (4k or huge)"), f);
	pg->used = strcmp(used, "huge") == 0 ? BANDWIDTH_PAGES_HUGE : BANDWIDTH_PAGES_4K;
	jsonio_opt_string(o, "thp", pg->thp, sizeof pg->thp);
	printable(pg->thp);
	pg->buffer_bytes = (uint64_t)jsonio_opt_int(o, "buffer_bytes", 0, LONG_MAX, 0);
	if (cJSON_IsNumber(h) && h->valuedouble >= 0 && h->valuedouble <= (double)pg->buffer_bytes)
		pg->huge_bytes = (int64_t)h->valuedouble;
	else if (h && !cJSON_IsNull(h))
		return mt_fail(e, _("%s: field \"pages.huge_bytes\": a number of bytes up to "
				  "buffer_bytes, or null"), f);
	return 0;
}

/* The optional "ports" (files before it have none): "before" and "after"
 * each null or {"gbs": a number > 0, "ghz": a number > 0 or null}.
 * Returns 0, or -1 with e naming the field that is there but wrong. */
static int ports_from_json(const cJSON *root, const char *f, struct bandwidth_result *r,
			   mt_error *e)
{
	static const char *const when[2] = { "before", "after" };
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "ports");
	if (!o)
		return 0;
	if (!cJSON_IsObject(o))
		return mt_fail(e, _("%s: field \"ports\" must be an object"), f);
	for (int i = 0; i < 2; i++) {
		const cJSON *w = cJSON_GetObjectItemCaseSensitive(o, when[i]), *g, *h;
		if (!w || cJSON_IsNull(w))
			continue;
		g = cJSON_GetObjectItemCaseSensitive(w, "gbs");
		h = cJSON_GetObjectItemCaseSensitive(w, "ghz");
		if (!cJSON_IsObject(w) || !cJSON_IsNumber(g) || !(g->valuedouble > 0) ||
		    !isfinite(g->valuedouble) ||
		    !(cJSON_IsNull(h) || (cJSON_IsNumber(h) && h->valuedouble > 0 &&
					  h->valuedouble < 1000)))
			return mt_fail(e, _("%s: field \"ports.%s\": null or an object with \"gbs\" (a "
					  "number > 0) and \"ghz\" (0 < GHz < 1000, or null)"), f, when[i]);
		r->ports[i].have = 1;
		r->ports[i].gbs = g->valuedouble;
		r->ports[i].ghz = cJSON_IsNull(h) ? 0 : h->valuedouble;
		r->ports[i].preempted = (int)jsonio_opt_int(w, "preemptions", 0, INT_MAX, 0);
	}
	return 0;
}

/* The optional "cpu_id" (files before it have none: no ceilings). */
static void cpu_id_from_json(const cJSON *root, struct bandwidth_cpu_id *id)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "cpu_id");
	double v[4];
	static const char *const keys[4] = { "family", "model", "implementer", "part" };
	memset(id, 0, sizeof *id);
	if (!cJSON_IsObject(o))
		return;
	for (int i = 0; i < 4; i++) {
		v[i] = jsonio_opt_number(o, keys[i], 0);
		if (!(v[i] >= 0 && v[i] <= 0xffffff))
			v[i] = 0;
	}
	jsonio_opt_string(o, "vendor", id->vendor, sizeof id->vendor);
	id->amx = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "amx"));
	id->family = (unsigned)v[0];
	id->model = (unsigned)v[1];
	id->implementer = (unsigned)v[2];
	id->part = (unsigned)v[3];
}

int bandwidth_result_from_json(const cJSON *root, const char *file, struct bandwidth_result *r,
			       mt_error *e)
{
	const char *f = file ? file : "input";
	const cJSON *kernels, *it;
	char isa[32] = "";
	memset(r, 0, sizeof *r);
	if (!bandwidth_result_is(root))
		return mt_fail(e, _("%s: not a bandwidth result (\"experiment\": \"bandwidth\")"), f);
	run_header_from_json(root, &r->hdr);
	jsonio_opt_string(root, "isa", isa, sizeof isa);
	r->isa = bandwidth_isa_parse(isa);
	if (r->isa < 0)
		r->isa = BANDWIDTH_ISA_SCALAR;
	r->vector_bytes = (unsigned)jsonio_opt_int(root, "vector_bytes", 0, INT_MAX, 0);
	r->ncpus = (int)jsonio_opt_int(root, "cpus", 0, INT_MAX, 0);
	cpu_id_from_json(root, &r->cpu);
	kernels = cJSON_GetObjectItemCaseSensitive(root, "kernels");
	if (!cJSON_IsArray(kernels))
		kernels = NULL;
	cJSON_ArrayForEach(it, kernels) {
		int k = cJSON_IsString(it) ? bandwidth_kernel_parse(it->valuestring) : -1;
		if (k >= 0)
			add_kernel(r, k); /* the columns in the run's order */
	}
	if (pages_from_json(root, f, &r->pages, e) < 0 || ports_from_json(root, f, r, e) < 0 ||
	    sizes_from_json(root, f, r, e) < 0 ||
	    results_from_json(root, f, r, e) < 0 || loaded_from_json(root, f, r, e) < 0)
		return -1;
	if (file) {
		mt_strlcpy(r->source, file, sizeof r->source);
		printable(r->source);
	}
	return 0;
}
