/* algae_batch: `memtop run algae`: the book's seven cases on the simulated
 * cache (--cache s,E,b, --fields F), and with --real N the one-field pass
 * over N structs timed on the real machine (algae.h). */
#include "config.h"

#include "algae.h"
#include "base/i18n.h"
#include "base/jsonio.h"
#include "machine/plan.h"
#include "run/batch.h"
#include "run/diag.h"
#include "run/experiment.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The run's params: the job's arg first, then --real as given (from the
 * default). */
struct run_params {
	struct algae_params p;
	uint64_t real;
};

/* --cache s,E,b: the simulated cache. */
static int parse_cache(const char *exp, const char *arg, void *params)
{
	struct algae_params *p = &((struct run_params *)params)->p;
	return batch_opt_cache(exp, "--cache", arg, "7,1,4", SIM_MAX_S, SIM_MAX_E, 20, &p->s,
			       &p->E, &p->b);
}

/* The options, with their help and the field each fills: the getopt
 * table, --help and the parse all come from it (run/batch_opts.h). */
static const struct batch_option options[] = {
	BATCH_OPT_CALL("cache", 'c', "s,E,b",
		       "the simulated cache (default 6,1,4; 7,1,4 doubles it)", parse_cache),
	BATCH_OPT_INT("fields", 'f', "F", "int fields a struct (default 2: x, y; the homework: 5+)",
		      struct run_params, p.fields, 2, ALGAE_MAX_FIELDS),
	BATCH_OPT_U64("real", 'r', "N",
		      "also time a pass over one field of N structs of F fields,\n"
		      "array of structs against struct of arrays (the homework:\n"
		      "1000)",
		      struct run_params, real, 1, ALGAE_MAX_REAL),
	BATCH_HELP_TRIES("real machine: best of N (default 5)"),
	{ "cpu", BATCH_OPT_CPU, "N", N_("pin the measuring thread to CPU N (with --real)") },
	BATCH_HELP_COMMON(N_("accepted for symmetry (the simulation is always small)"),
			  N_("print CSV (the header goes to stderr)")),
	BATCH_END,
};

EXPERIMENT_HELP(19,
	N_("Usage: memtop run algae [OPTIONS]\n"
	   "Array of structs against struct of arrays: a 16x16 grid of {int x, y} read\n"
	   "on a 1 KB direct-mapped cache with 16-byte blocks (CS:APP 6.18-6.20), and\n"
	   "the one-field pass over both layouts (CHK-5). Simulated, so it is exact and\n"
	   "instant; --real also times the one-field pass on this machine.\n"
	   "\n"));

/* The result, and the real machine's pair as it streams in. */
struct printer {
	EXPERIMENT_PRINTER_HEAD; /* run, csv */
	const struct algae_params *p;
	struct algae_result r[ALGAE_CASES];
	double real_ns[2], real_spread[2];
	int real_same;
};

/* The result's JSON: the cache, the cases, the real machine's pair.
 * NULL when out of memory. */
static cJSON *to_json(void *printer)
{
	const struct printer *b = printer;
	cJSON *root = batch_json_root(b->run), *arr, *x;
	if (!root)
		return NULL;
	x = cJSON_AddObjectToObject(root, "cache");
	arr = cJSON_AddArrayToObject(root, "results");
	if (!x || !arr)
		goto oom;
	cJSON_AddNumberToObject(x, "s", b->p->s);
	cJSON_AddNumberToObject(x, "E", b->p->E);
	cJSON_AddNumberToObject(x, "b", b->p->b);
	cJSON_AddNumberToObject(root, "fields", b->p->fields);
	for (int i = 0; i < ALGAE_CASES; i++) {
		if (!(x = cJSON_CreateObject()))
			goto oom;
		cJSON_AddItemToArray(arr, x);
		cJSON_AddStringToObject(x, "case", b->r[i].name);
		cJSON_AddNumberToObject(x, "reads", (double)b->r[i].reads);
		cJSON_AddNumberToObject(x, "misses", (double)b->r[i].misses);
	}
	if (b->p->real_n && b->real_ns[1] > 0) {
		if (!(x = cJSON_AddObjectToObject(root, "real")))
			goto oom;
		cJSON_AddNumberToObject(x, "structs", (double)b->p->real_n);
		cJSON_AddNumberToObject(x, "tries", b->p->tries);
		cJSON_AddNumberToObject(x, "aos_ns_per_element", b->real_ns[0]);
		cJSON_AddNumberToObject(x, "soa_ns_per_element", b->real_ns[1]);
		cJSON_AddNumberToObject(x, "aos_spread", b->real_spread[0]);
		cJSON_AddNumberToObject(x, "soa_spread", b->real_spread[1]);
		cJSON_AddBoolToObject(x, "same_sum", b->real_same);
	}
	return root;
oom:
	cJSON_Delete(root);
	return NULL;
}

/* The defaults, before the options (--real's at the params'). */
static void defaults(void *params)
{
	struct run_params *rp = params;
	algae_params_default(&rp->p);
	rp->real = rp->p.real_n;
}

/* After the options: them into p, the cache checked. Returns 0, or -1
 * (said in one line). */
static int check(struct batch_cli *cli, void *params)
{
	struct run_params *rp = params;
	struct algae_params *p = &rp->p;
	p->real_n = (size_t)rp->real;
	if (cli->tries)
		p->tries = cli->tries;
	{ /* the geometry now: a usage error, not a failed run */
		mt_error e = { "" };
		struct sim_cache *c = sim_new(p->s, p->E, p->b, &e);
		if (!c) {
			mt_warn(_("run algae: --cache: %s"), e.msg);
			return -1;
		}
		sim_free(c);
	}
	return 0;
}

/* The simulated table, a row a case. Returns 0, or -1 with e. */
static int print_table(struct printer *b, int csv, mt_error *e)
{
	const struct algae_params *p = b->p;
	/* TRANSLATORS: the ints a struct, (s,E,b), the cache's bytes, ways, block */
	fprintf(b->run->meta,
		_("# algae: 16x16 grid of %d-int structs on the cache (s,E,b) = (%d,%d,%d): %llu "
		  "bytes, %d-way, %d-byte blocks\n"),
		p->fields, p->s, p->E, p->b,
		(unsigned long long)(((uint64_t)1 << p->s) * (uint64_t)p->E << p->b), p->E,
		1 << p->b);
	fflush(b->run->meta);
	if (csv) {
		/* machine text: CSV */
		printf("case,reads,misses,miss_rate\n");
	} else {
		/* TRANSLATORS: the table's heads: 16, 6, 7 and 6 columns at most, then
		 * the last one's words */
		static const char *const h[] = { N_("case"), N_("reads"), N_("misses"), N_("rate"),
						 N_("what") };
		static const int w[] = { -16, 6, 7, 6 };
		char buf[64];
		for (size_t k = 0; k < 4; k++)
			printf("%s%s", k ? " " : "", mt_text_pad(buf, sizeof buf, _(h[k]), w[k]));
		printf("  %s\n", _(h[4]));
	}
	for (int i = 0; i < ALGAE_CASES; i++) {
		const struct algae_result *r = &b->r[i];
		double rate;
		if (algae_run(i, p, &b->r[i], e) < 0)
			return -1;
		rate = (double)r->misses / (double)r->reads;
		if (csv)
			/* machine text: CSV */
			printf("%s,%llu,%llu,%.4f\n", r->name, (unsigned long long)r->reads,
			       (unsigned long long)r->misses, rate);
		else
			printf(_("%-16s %6llu %7llu %5.0f%%  %s\n"), r->name,
			       (unsigned long long)r->reads,
			       (unsigned long long)r->misses, 100.0 * rate, _(r->what));
	}
	fflush(stdout);
	return 0;
}

/* The real machine's two rows: array of structs, then struct of arrays
 * with how much faster the one field goes. */
static void on_event(const struct job_event *ev, void *ctx)
{
	struct printer *b = ctx;
	struct algae_ev_real x;
	int v = ev->row;
	if (ev->type != JOB_EV_CELL || ev->subtype != ALGAE_EV_REAL || v < 0 || v > 1 ||
	    JOB_PAYLOAD_GET(ev, struct algae_ev_real, &x) < 0)
		return;
	b->real_ns[v] = ev->value;
	b->real_spread[v] = ev->spread;
	if (v == 0)
		/* TRANSLATORS: the structs, the fields a struct, the tries */
		fprintf(b->run->meta,
			MT_NGETTEXT("\n# real machine: one int field of %zu structs of %d fields, "
				    "best of %d\n",
				    "\n# real machine: one int field of %zu structs of %d fields, "
				    "best of %d\n",
				    b->p->real_n),
			b->p->real_n, b->p->fields, b->p->tries);
	fflush(b->run->meta);
	b->real_same = x.same;
	/* machine text: the case names, as the JSON and CSV spell them */
	mt_hfprintf(stdout, _("%-16s %8.3f ns/element"), v ? "soa-one-field" : "aos-one-field",
		    ev->value);
	if (v == 1 && b->real_ns[0] > 0 && ev->value > 0)
		mt_hfprintf(stdout,
			    b->real_same ? _("  %.2fx faster") : _("  %.2fx faster  (SUMS DIFFER)"),
			    b->real_ns[0] / ev->value);
	printf("\n");
	fflush(stdout);
}

/* p as a plan: the simulated grid (no machine in it) and the real
 * machine's structs with where they sit for the worker. */
static void describe(const struct machine *m, int cpu, const void *params, const void *printer,
		     struct plan *out)
{
	const struct algae_params *p = params;
	char where[16], why[160];
	uint64_t bytes = (uint64_t)p->real_n * (uint64_t)p->fields * 4;
	(void)printer;
	plan_say(out,
		 N_("the 16 x 16 grid through the simulated cache (%d, %d, %d): nothing of the "
		    "machine in it"),
		 p->s, p->E, p->b);
	if (!p->real_n)
		return;
	out->worker_cpu = cpu;
	if (cpu >= 0)
		plan_add_threads(out, 1, &cpu, 1);
	mt_snprintf(why, sizeof why,
		    plan_words_n(out, "%zu struct of %d ints, as structs and as arrays",
				 "%zu structs of %d ints, as structs and as arrays", p->real_n),
		    p->real_n, p->fields);
	plan_add_size(out, cpu >= 0 ? machine_level_name(m, bytes, &cpu, 1, where, sizeof where) : "",
		      bytes, 1, 0, why);
}

/* The printer for params. Returns 0. */
static int start(struct batch_cli *cli, const struct machine *m, void *params, void *printer)
{
	struct printer *b = printer;
	(void)cli;
	(void)m;
	b->p = params;
	return 0;
}

/* The simulated table, all of it (print_table). Returns 0, or
 * MT_EXIT_USAGE (said: the cache cannot be simulated). */
static int head(void *printer)
{
	mt_error e = { "" };
	if (print_table(printer, ((struct printer *)printer)->csv, &e) == 0)
		return 0;
	mt_warn(_("run algae: %s"), e.msg);
	return MT_EXIT_USAGE;
}

/* A job only to time the one-field pass (--real). */
static int has_job(const void *params)
{
	return ((const struct algae_params *)params)->real_n > 0;
}

const struct experiment exp_algae = {
	.name = "algae",
	.about = N_("array of structs against struct of arrays on a 1 KB cache (seed 003)"),

	EXPERIMENT_PARTS,
	.defaults = defaults,
	.check = check,
	.pinned = 1,
	.has_job = has_job,
	EXPERIMENT_JOB(algae_worker),
	.to_json = to_json, /* no kind: memtop reads the result nowhere */
};
