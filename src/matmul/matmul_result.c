/* matmul_result: a matmul run's result and its JSON (matmul.h): what `memtop
 * run matmul --json` writes and the Matmul tab saves and opens. */
#include "config.h"

#include "base/i18n.h"

#include "matmul.h"
#include "base/jsonio.h"
#include "sim/sim.h"

#include <limits.h>
#include <math.h>
#include <string.h>

void matmul_result_init(struct matmul_result *r, const struct matmul_params *p, int line_bytes,
			const char *sim_from)
{
	double m[3];
	memset(r, 0, sizeof *r);
	r->n = p->n;
	r->block = p->block;
	r->tries = p->tries;
	r->race = p->race;
	r->line_bytes = line_bytes > 0 ? line_bytes : 64;
	r->orders = matmul_run_orders(p);
	for (int o = 0; o < MATMUL_NORDERS; o++) {
		r->book[o] = matmul_book_estimate(o, (double)r->line_bytes / sizeof(double), m);
		r->res[o].equal = 1;
	}
	if (p->sim_s >= 0) {
		r->have_sim = 1;
		r->sim_s = p->sim_s;
		r->sim_E = p->sim_E;
		r->sim_b = p->sim_b;
		mt_strlcpy(r->sim_from, sim_from ? sim_from : "", sizeof r->sim_from);
	}
	r->nsweep = p->nsweep;
	for (size_t i = 0; i < p->nsweep && i < MATMUL_MAX_SWEEP; i++) {
		r->sweep[i].block = p->sweep[i];
		r->sweep[i].equal = 1;
	}
}

int matmul_result_apply(struct matmul_result *r, const struct job_event *ev)
{
	struct matmul_row *row;
	struct matmul_ev_result x;
	struct matmul_ev_race race;
	struct matmul_ev_sim sim;
	int o = ev->row;
	if (ev->type != JOB_EV_CELL || o < 0)
		return 0;
	switch (ev->subtype) {
	case MATMUL_CELL_SIM:
		if (o >= MATMUL_NORDERS || JOB_PAYLOAD_GET(ev, struct matmul_ev_sim, &sim) < 0)
			return 0;
		r->have_sim_o[o] = 1;
		r->sim[o] = ev->value;
		for (int m = 0; m < 3; m++)
			r->sim_m[o][m] = sim.per_iter[m];
		r->sim_sampled = sim.sampled;
		return ev->subtype;
	case MATMUL_CELL_RACE:
		if (o >= MATMUL_NORDERS || JOB_PAYLOAD_GET(ev, struct matmul_ev_race, &race) < 0)
			return 0;
		r->frac[o] = race.frac;
		r->run_ns[o] = ev->value;
		r->run_rank[o] = race.rank;
		return ev->subtype;
	case MATMUL_CELL_RESULT:
		if (o >= MATMUL_NORDERS || JOB_PAYLOAD_GET(ev, struct matmul_ev_result, &x) < 0)
			return 0;
		row = &r->res[o];
		r->frac[o] = 1;
		r->run_ns[o] = ev->value;
		r->run_rank[o] = x.rank;
		break;
	case MATMUL_CELL_SWEEP:
		if ((size_t)o >= r->nsweep || JOB_PAYLOAD_GET(ev, struct matmul_ev_result, &x) < 0)
			return 0;
		row = &r->sweep[o];
		break;
	default:
		return 0;
	}
	row->have = 1;
	row->ms = x.ms;
	row->ns_iter = ev->value;
	row->spread = ev->spread;
	row->equal = x.equal;
	row->block = x.block;
	row->rank = x.rank;
	if (!row->equal)
		r->failed_equal = 1;
	return ev->subtype;
}

size_t matmul_result_measured(const struct matmul_result *r)
{
	size_t n = 0;
	for (int o = 0; o < MATMUL_NORDERS; o++)
		n += (size_t)r->res[o].have;
	for (size_t i = 0; i < r->nsweep; i++)
		n += (size_t)r->sweep[i].have;
	return n;
}

/* A timed row appended to arr as {"ms", "ns_per_iter", "spread", "equal"}
 * (the caller adds what the row is). Returns it, or NULL out of memory. */
static cJSON *row_json(cJSON *arr, const struct matmul_row *w)
{
	cJSON *it = cJSON_CreateObject();
	if (!it)
		return NULL;
	cJSON_AddItemToArray(arr, it);
	cJSON_AddNumberToObject(it, "ms", w->ms);
	cJSON_AddNumberToObject(it, "ns_per_iter", w->ns_iter);
	cJSON_AddNumberToObject(it, "spread", w->spread);
	cJSON_AddBoolToObject(it, "equal", w->equal);
	return it;
}

cJSON *matmul_result_to_json(const struct matmul_result *r)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	if (!root || run_header_to_json(&r->hdr, root) < 0 ||
	    !cJSON_AddStringToObject(root, "experiment", "matmul"))
		goto oom;
	cJSON_AddNumberToObject(root, "n", (double)r->n);
	cJSON_AddNumberToObject(root, "block", (double)r->block);
	cJSON_AddNumberToObject(root, "tries", r->tries);
	cJSON_AddStringToObject(root, "mode", r->race ? "race" : "table");
	cJSON_AddNumberToObject(root, "line_bytes", r->line_bytes);
	if (r->have_sim) {
		cJSON *c = sim_geometry_to_json(root, r->sim_s, r->sim_E, r->sim_b);
		if (!c)
			goto oom;
		cJSON_AddNumberToObject(c, "bytes", (double)((1ull << r->sim_s) * (uint64_t)r->sim_E *
							     (1ull << r->sim_b)));
		cJSON_AddStringToObject(c, "source", r->sim_from);
	}
	arr = cJSON_AddArrayToObject(root, "results");
	if (!arr)
		goto oom;
	for (int o = 0; o < MATMUL_NORDERS; o++) {
		const struct matmul_row *w = &r->res[o];
		cJSON *it;
		if (!w->have)
			continue;
		if (!(it = row_json(arr, w)))
			goto oom;
		cJSON_AddStringToObject(it, "order", matmul_order_name(o));
		cJSON_AddStringToObject(it, "class", matmul_class_name(matmul_order_class(o)));
		if (matmul_is_blocked(o))
			cJSON_AddNumberToObject(it, "block", (double)w->block);
		if (w->rank)
			cJSON_AddNumberToObject(it, "finish", w->rank);
		cJSON_AddNumberToObject(it, "book_misses_per_iter", r->book[o]);
		if (r->have_sim && r->have_sim_o[o]) {
			cJSON *sj = cJSON_AddObjectToObject(it, "sim");
			if (!sj)
				goto oom;
			cJSON_AddNumberToObject(sj, "misses_per_iter", r->sim[o]);
			cJSON_AddNumberToObject(sj, "per_iter_a", r->sim_m[o][0]);
			cJSON_AddNumberToObject(sj, "per_iter_b", r->sim_m[o][1]);
			cJSON_AddNumberToObject(sj, "per_iter_c", r->sim_m[o][2]);
			if (!cJSON_AddBoolToObject(sj, "sampled", r->sim_sampled))
				goto oom;
		}
	}
	if (r->nsweep) {
		arr = cJSON_AddArrayToObject(root, "sweep");
		if (!arr)
			goto oom;
		for (size_t i = 0; i < r->nsweep; i++) {
			const struct matmul_row *w = &r->sweep[i];
			cJSON *it;
			if (w->have && (!(it = row_json(arr, w)) ||
					!cJSON_AddNumberToObject(it, "block", (double)w->block)))
				goto oom;
		}
	}
	return root;
oom:
	cJSON_Delete(root);
	return NULL;
}

static int row_from_json(const cJSON *it, const char *where, struct matmul_row *w, mt_error *e)
{
	const cJSON *eq;
	if (jsonio_number(it, "ms", where, &w->ms, e) < 0 ||
	    jsonio_number(it, "ns_per_iter", where, &w->ns_iter, e) < 0)
		return -1;
	w->spread = jsonio_opt_number(it, "spread", NAN);
	eq = cJSON_GetObjectItemCaseSensitive(it, "equal");
	if (!cJSON_IsBool(eq))
		return mt_fail(e, _("%s: field \"equal\" must be true or false"), where);
	w->equal = cJSON_IsTrue(eq);
	w->have = 1;
	return 0;
}

/* One order of "results" (where names it in errors) into r; block is the
 * file's block side, a blocked row's when it names none. Returns 0, or -1
 * with e. */
static int order_from_json(const cJSON *it, const char *where, size_t block,
			   struct matmul_result *r, mt_error *e)
{
	const cJSON *ord = cJSON_GetObjectItemCaseSensitive(it, "order"), *sj;
	struct matmul_row w;
	char at[360];
	int o;
	memset(&w, 0, sizeof w);
	if (!cJSON_IsString(ord) || (o = matmul_order_parse(ord->valuestring)) < 0)
		return mt_fail(e, _("%s: field \"order\" must name an order (ijk .. blocked-kij)"),
			       where);
	if (row_from_json(it, where, &w, e) < 0)
		return -1;
	w.block = matmul_is_blocked(o)
			  ? (size_t)jsonio_opt_int(it, "block", 1, LONG_MAX, (long)block)
			  : 0;
	w.rank = (int)jsonio_opt_int(it, "finish", 0, MATMUL_NORDERS, 0);
	r->orders |= 1u << o;
	r->res[o] = w;
	r->frac[o] = 1;
	r->run_ns[o] = w.ns_iter;
	r->run_rank[o] = w.rank;
	if (!w.equal)
		r->failed_equal = 1;
	r->book[o] = jsonio_opt_number(it, "book_misses_per_iter", r->book[o]);
	sj = cJSON_GetObjectItemCaseSensitive(it, "sim");
	if (!cJSON_IsObject(sj))
		return 0;
	mt_snprintf(at, sizeof at, "%s: sim", where);
	if (jsonio_number(sj, "misses_per_iter", at, &r->sim[o], e) < 0)
		return -1;
	r->sim_m[o][0] = jsonio_opt_number(sj, "per_iter_a", NAN);
	r->sim_m[o][1] = jsonio_opt_number(sj, "per_iter_b", NAN);
	r->sim_m[o][2] = jsonio_opt_number(sj, "per_iter_c", NAN);
	r->sim_sampled = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(sj, "sampled"));
	r->have_sim_o[o] = 1;
	return 0;
}

int matmul_result_from_json(const cJSON *root, const char *file, struct matmul_result *r,
			    mt_error *e)
{
	const char *f = file ? file : "input";
	const cJSON *arr, *it, *mode, *sc, *sw;
	char where[320];
	long n, block, tries, line;
	int i = 0;
	memset(r, 0, sizeof *r);
	if (jsonio_int(root, "n", file, 1, MATMUL_MAX_N, &n, e) < 0 ||
	    jsonio_int(root, "block", file, 1, MATMUL_MAX_N, &block, e) < 0 ||
	    jsonio_int(root, "tries", file, 1, 1000, &tries, e) < 0 ||
	    jsonio_int(root, "line_bytes", file, 8, 4096, &line, e) < 0 ||
	    !(arr = jsonio_array(root, "results", file, e)))
		return -1;
	mode = cJSON_GetObjectItemCaseSensitive(root, "mode");
	if (!cJSON_IsString(mode) ||
	    (strcmp(mode->valuestring, "race") != 0 && strcmp(mode->valuestring, "table") != 0))
		return mt_fail(e, _("%s: field \"mode\" must be \"race\" or \"table\""), f);
	{
		struct matmul_params p;
		matmul_params_default(&p);
		p.n = (size_t)n;
		p.block = (size_t)block;
		p.tries = (int)tries;
		p.race = strcmp(mode->valuestring, "race") == 0;
		p.sim_s = -1;
		matmul_result_init(r, &p, (int)line, NULL);
	}
	run_header_from_json(root, &r->hdr); /* after the init, which clears r */
	switch (sim_geometry_from_json(root, file, &r->sim_s, &r->sim_E, &r->sim_b, e)) {
	case -1:
		return -1;
	case 1:
		r->have_sim = 1;
		sc = cJSON_GetObjectItemCaseSensitive(root, "sim_cache");
		jsonio_opt_string(sc, "source", r->sim_from, sizeof r->sim_from);
		break;
	}
	cJSON_ArrayForEach(it, arr) {
		mt_snprintf(where, sizeof where, "%s: results[%d]", f, i++);
		if (order_from_json(it, where, (size_t)block, r, e) < 0)
			return -1;
	}
	sw = cJSON_GetObjectItemCaseSensitive(root, "sweep");
	if (sw && !cJSON_IsArray(sw))
		return mt_fail(e, _("%s: field \"sweep\" is not an array"), f);
	i = 0;
	cJSON_ArrayForEach(it, sw) {
		struct matmul_row w;
		long b;
		mt_snprintf(where, sizeof where, "%s: sweep[%d]", f, i++);
		memset(&w, 0, sizeof w);
		if (r->nsweep == MATMUL_MAX_SWEEP)
			return mt_fail(e, _("%s: more than %d blocks"), where, MATMUL_MAX_SWEEP);
		if (row_from_json(it, where, &w, e) < 0 ||
		    jsonio_int(it, "block", where, 1, MATMUL_MAX_N, &b, e) < 0)
			return -1;
		w.block = (size_t)b;
		r->sweep[r->nsweep++] = w;
	}
	if (file)
		mt_strlcpy(r->source, file, sizeof r->source);
	return 0;
}
