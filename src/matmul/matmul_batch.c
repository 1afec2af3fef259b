/* memtop run matmul: the six loop orders and the blocked one, timed (the
 * seed's stopwatch table, with the class, the book's misses per iteration
 * for this machine's line and the simulator's count for its L1d next to
 * them), or --simulate: the seed's simulator table on an (s, E, b) cache. */
#include "config.h"

#include "base/i18n.h"

#include "base/jsonio.h"
#include "machine/plan.h"
#include "os/clock.h"
#include "run/batch.h"
#include "run/experiment.h"
#include "run/job.h"
#include "matmul.h"
#include "base/util.h"
#include "info/info.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Accesses simulated per order next to the stopwatch (a prefix sample when
 * the whole product is bigger). */
#define SIM_SAMPLE_ACCESSES 4000000ull

/* The command line as given, before it becomes parameters. */
struct args {
	int simulate, sweep, cs, cE, cb;
	uint64_t n, block; /* 0: not given */
	const char *bases; /* --bases as given, NULL: 1 MB-aligned */
};

/* The run's params: the job's arg first, then the command line's. */
struct run_params {
	struct matmul_params p;
	struct args a;
};

/* --simulate's table, all of it made in the head (no job). */
struct sim_table {
	uint64_t base[3];           /* where A, B and C start */
	char hx[3][32], where[160]; /* the bases in hex, and how they were placed */
	cJSON *root, *arr;          /* its JSON with --json ("results"); NULL: out of memory */
};

/* The table on stdout, a row as each order finishes. */
struct printer {
	EXPERIMENT_PRINTER_HEAD; /* run, csv */
	const struct matmul_params *p;
	const struct args *a;
	struct matmul_result r; /* the store the TUI tab shares (src/matmul.h) */
	struct matmul_l1d d;    /* this machine's L1d, simulated beside the stopwatch */
	struct sim_table sim;   /* --simulate's */
	int sweep_head;
};

/* --blocked LIST: these orders' blocked versions too. */
static int parse_blocked(const char *exp, const char *arg, void *params)
{
	unsigned v;
	if (matmul_blocked_parse(arg, &v) < 0)
		return batch_bad(exp, "--blocked", arg,
				 "orders from ijk, jik, jki, kji, kij, ikj, or all");
	((struct run_params *)params)->p.orders |= v;
	return 0;
}

/* --cache s,E,b: the simulated cache. */
static int parse_cache(const char *exp, const char *arg, void *params)
{
	struct args *a = &((struct run_params *)params)->a;
	return batch_opt_cache(exp, "--cache", arg, "5,1,5", SIM_MAX_S, SIM_MAX_E, 20, &a->cs,
			       &a->cE, &a->cb);
}

/* The options, with their help and the field each fills: the getopt
 * table, --help and the parse all come from it (run/batch_opts.h). */
#define RP struct run_params
static const struct batch_option options[] = {
	BATCH_OPT_U64("n", 'n', "N", "matrix side (default 512; 100 with --simulate)", RP, a.n, 1,
		      MATMUL_MAX_N),
	BATCH_OPT_U64("block", 'B', "B", "block side of the blocked orders (default 32)", RP,
		      a.block, 1, MATMUL_MAX_N),
	BATCH_OPT_CALL("blocked", 'b', "LIST",
		       "also the blocked versions of these orders (ijk, jik, jki,\n"
		       "kji, kij; ikj is the blocked order itself; all): their\n"
		       "middle and inner loops cut into B x B tiles, as the\n"
		       "seed's blocked ikj (rows blocked-jki, ...)",
		       parse_blocked),
	BATCH_HELP_TRIES("best of N runs (default 3)"),
	BATCH_OPT_FLAG("sweep", 'w', "also time the blocked order with blocks 8, 16, 32, 64, 128",
		       RP, a.sweep),
	BATCH_OPT_FLAG("race", 'r',
		       "run the orders interleaved in 2 ms slices, all advancing\n"
		       "together on one core (as the TUI tab does); one run each",
		       RP, p.race),
	BATCH_OPT_FLAG("simulate", 'S', "no timing: drive every order through the cache simulator",
		       RP, a.simulate),
	BATCH_OPT_CALL("cache", 'c', "s,E,b",
		       "the simulated cache (default 5,1,5: the book's 1 KB, 32-byte\n"
		       "lines); matrices at 1 MB-aligned bases A, B, C",
		       parse_cache),
	BATCH_OPT_STRING("bases", 'A', "A,B,C",
			 "with --simulate: where A, B and C start (addresses, multiples\n"
			 "of 8: 0x100000,2M,3145728); packed: one after another, as\n"
			 "malloc puts them (the conflict misses depend on it)",
			 RP, a.bases),
	BATCH_HELP_CPU,
	BATCH_HELP_COMMON(N_("small run for tests: n = 64 (48 with --simulate), 1 try"),
			  N_("print CSV, one row a result (the rest goes to stderr)")),
	BATCH_END,
};
#undef RP

EXPERIMENT_HELP(19,
	N_("Usage: memtop run matmul [OPTIONS]\n"
	   "The six loop orders of C += A * B and the blocked ikj, n x n doubles: time per\n"
	   "inner-loop iteration, class, misses per iteration (book and simulator).\n"
	   "\n"));

/* One CSV row: kind "order" (the seven) or "sweep" (the blocked order's
 * block sweep); empty fields where the value does not apply. */
static void print_csv(const struct printer *b, const char *kind, int o, const struct matmul_row *r)
{
	printf("%s,%s,%s,", kind, matmul_order_name(o), matmul_class_name(matmul_order_class(o)));
	if (matmul_is_blocked(o))
		printf("%zu", r->block);
	printf(",%.3f,%.4f,%.4f,%.4f,", r->ms, r->ns_iter, r->spread, b->r.book[o]);
	if (b->r.have_sim && r == &b->r.res[o])
		printf("%.4f", b->r.sim[o]);
	printf(",");
	if (r->rank)
		printf("%d", r->rank);
	printf(",%d\n", r->equal);
}

static void print_row(const struct printer *b, int o)
{
	const struct matmul_row *r = &b->r.res[o];
	if (b->csv) {
		print_csv(b, "order", o, r);
		return;
	}
	/* the table is for people: its figures in their decimal separator */
	mt_hfprintf(stdout, "%-11s %-5s %9.1f %9.2f %6.1f%%", matmul_order_name(o),
		    matmul_class_name(matmul_order_class(o)), r->ms, r->ns_iter, r->spread * 100);
	mt_hfprintf(stdout, " %9.3f", b->r.book[o]);
	if (b->r.have_sim)
		mt_hfprintf(stdout, " %9.3f  %5.3f %5.3f %5.3f", b->r.sim[o], b->r.sim_m[o][0],
			    b->r.sim_m[o][1], b->r.sim_m[o][2]);
	if (r->rank)
		printf("  #%d", r->rank);
	if (!r->equal)
		printf("  %s", _("DIFFERS from ijk"));
	printf("\n");
}

/* A column of a table's head: s in |width| columns (not bytes: a
 * translated word), right-aligned for width > 0, left for < 0 (as %*s). */
static const char *col(char *buf, size_t len, const char *s, int width)
{
	return mt_text_pad(buf, len, s, width);
}

static void on_event(const struct job_event *ev, void *ctx)
{
	struct printer *b = ctx;
	const struct matmul_row *r;
	int kind;
	kind = matmul_result_apply(&b->r, ev);
	if (kind == MATMUL_CELL_RESULT)
		r = &b->r.res[ev->row];
	else if (kind == MATMUL_CELL_SWEEP)
		r = &b->r.sweep[ev->row];
	else
		return;
	if (kind == MATMUL_CELL_RESULT) {
		print_row(b, ev->row);
	} else if (b->csv) {
		print_csv(b, "sweep", MATMUL_BLOCKED, r);
	} else {
		if (!b->sweep_head) {
			char c1[64], c2[64], c3[64], c4[64];
			/* TRANSLATORS: the block sweep's head: block (8 wide), ms,
			 * ns/iter (9), spread (7), then what one i of the loop reads */
			printf("\n%s %s %s %s  %s\n", col(c1, sizeof c1, _("block"), -8),
			       col(c2, sizeof c2, _("ms"), 9), col(c3, sizeof c3, _("ns/iter"), 9),
			       col(c4, sizeof c4, _("spread"), 7),
			       _("working set of one i (B block + A, C pieces)"));
			b->sweep_head = 1;
		}
		/* a block past n is clipped to n: its working set is n's */
		size_t bl = r->block < b->r.n ? r->block : b->r.n;
		mt_hfprintf(stdout, _("%-8zu %9.1f %9.2f %6.1f%%  %.1f KB%s%s\n"), r->block, r->ms,
			    r->ns_iter, r->spread * 100,
			    (double)((bl * bl + 2 * bl) * sizeof(double)) / 1024,
			    bl < r->block ? _("  (the block clipped to n)") : "",
			    r->equal ? "" : _("  DIFFERS from ijk"));
	}
}

static cJSON *sim_json(const struct matmul_sim *s)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "accesses", (double)s->accesses);
	cJSON_AddNumberToObject(o, "misses", (double)s->misses);
	cJSON_AddNumberToObject(o, "misses_per_iter", s->per_iter);
	cJSON_AddNumberToObject(o, "misses_a", (double)s->miss[0]);
	cJSON_AddNumberToObject(o, "misses_b", (double)s->miss[1]);
	cJSON_AddNumberToObject(o, "misses_c", (double)s->miss[2]);
	cJSON_AddNumberToObject(o, "per_iter_a", s->per_iter_m[0]);
	cJSON_AddNumberToObject(o, "per_iter_b", s->per_iter_m[1]);
	cJSON_AddNumberToObject(o, "per_iter_c", s->per_iter_m[2]);
	cJSON_AddBoolToObject(o, "sampled", s->steps_done < s->steps);
	return o;
}

static cJSON *cache_json(int s, int E, int b)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "s", s);
	cJSON_AddNumberToObject(o, "E", E);
	cJSON_AddNumberToObject(o, "b", b);
	cJSON_AddNumberToObject(o, "bytes", (double)((1ull << s) * (uint64_t)E * (1ull << b)));
	return o;
}

/* The --simulate result's JSON skeleton: the header, the cache, the bases;
 * *arr gets its empty "results". NULL when out of memory. */
static cJSON *simulate_json(const struct batch_run *run, const struct matmul_params *p, int s,
			    int E, int b, char hx[3][32], cJSON **arr)
{
	cJSON *root = batch_json_root(run), *bases, *cache = cache_json(s, E, b);
	if (!root || !cache)
		goto oom;
	cJSON_AddStringToObject(root, "mode", "simulate");
	cJSON_AddNumberToObject(root, "n", (double)p->n);
	cJSON_AddNumberToObject(root, "block", (double)p->block);
	cJSON_AddItemToObject(root, "cache", cache);
	cache = NULL;
	bases = cJSON_AddObjectToObject(root, "bases");
	*arr = cJSON_AddArrayToObject(root, "results");
	if (!bases || !*arr)
		goto oom;
	cJSON_AddStringToObject(bases, "A", hx[0]);
	cJSON_AddStringToObject(bases, "B", hx[1]);
	cJSON_AddStringToObject(bases, "C", hx[2]);
	return root;
oom:
	cJSON_Delete(cache);
	cJSON_Delete(root);
	return NULL;
}

/* One order's simulated row, on stdout and into arr (NULL: no JSON).
 * Returns 0, or -1 out of memory. */
static int simulate_row(const struct matmul_params *p, int o, const struct matmul_sim *r,
			double book, int csv, cJSON *arr)
{
	const char *name = matmul_order_name(o);
	const char *cls = matmul_class_name(matmul_order_class(o));
	cJSON *it;
	if (csv)
		/* machine text: CSV */
		printf("%s,%s,%llu,%llu,%.4f,%.4f,%.4f,%.4f,%.4f\n", name, cls,
		       (unsigned long long)r->accesses, (unsigned long long)r->misses, r->per_iter,
		       r->per_iter_m[0], r->per_iter_m[1], r->per_iter_m[2], book);
	else
		mt_hfprintf(stdout,
			    _("%-11s %-5s %11llu %10llu %9.3f  %5.3f %5.3f %5.3f %6.3f\n"), name,
			    cls, (unsigned long long)r->accesses, (unsigned long long)r->misses,
			    r->per_iter, r->per_iter_m[0], r->per_iter_m[1], r->per_iter_m[2], book);
	fflush(stdout);
	if (!arr)
		return 0;
	if (!(it = sim_json(r)))
		return -1;
	cJSON_AddStringToObject(it, "order", matmul_order_name(o));
	cJSON_AddStringToObject(it, "class", cls);
	cJSON_AddNumberToObject(it, "book", book);
	if (matmul_is_blocked(o))
		cJSON_AddNumberToObject(it, "block", (double)p->block);
	cJSON_AddItemToArray(arr, it);
	return 0;
}


/* --bases: "packed" (one after another, as an allocator puts them), or
 * A,B,C as byte addresses (decimal, 0x hex, or sizes such as 1M), each a
 * multiple of 8 below 1 TB. Returns 1 packed, 0 given, -1 bad. */
static int parse_bases(const char *arg, size_t n, uint64_t base[3])
{
	char buf[128], *save = NULL, *tok;
	int k = 0;
	if (strcmp(arg, "packed") == 0) {
		matmul_model_bases_packed(n, base);
		return 1;
	}
	if (mt_strlcpy(buf, arg, sizeof buf) < 0)
		return -1;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		uint64_t v;
		if (k == 3)
			return -1;
		if (strncmp(tok, "0x", 2) == 0) {
			v = strtoull(tok + 2, &end, 16);
			if (end == tok + 2 || *end)
				return -1;
		} else if (mt_parse_size(tok, &v) < 0) {
			return -1;
		}
		if (v % sizeof(double) || v >= (1ull << 40))
			return -1;
		base[k++] = v;
	}
	return k == 3 ? 0 : -1;
}

/* --simulate, before the run: where A, B and C start. Returns 0, or -1
 * (said: --bases is bad). */
static int sim_prepare(struct printer *pr, const struct batch_cli *cli)
{
	const struct args *a = pr->a;
	struct sim_table *t = &pr->sim;
	int how = 2; /* 2: 1 MB-aligned, 1 packed, 0 given */

	if (a->bases && (how = parse_bases(a->bases, pr->p->n, t->base)) < 0) {
		batch_bad(cli->exp, "--bases", a->bases,
			  _("packed, or three addresses A,B,C, multiples of 8 (0x100000,2M,3M)"));
		return -1;
	}
	if (!a->bases)
		matmul_model_bases(pr->p->n, t->base);
	for (int m = 0; m < 3; m++)
		mt_snprintf(t->hx[m], sizeof t->hx[m], "0x%llx", (unsigned long long)t->base[m]);
	mt_snprintf(t->where, sizeof t->where, "%s",
		    how == 2 ? "each 1 MB-aligned"
		    : how == 1 ? "one after another, as malloc puts them"
			       : "as --bases put them");
	return 0;
}

/* --simulate: every order through the (s, E, b) cache, no timing: the
 * lines above the table, its rows (and its JSON, with --json), the book's
 * line. Returns 0, or MT_EXIT_USAGE (said: the cache cannot be simulated). */
static int sim_run(struct printer *pr)
{
	const struct matmul_params *p = pr->p;
	const struct batch_run *run = pr->run;
	struct sim_table *t = &pr->sim;
	const int s = pr->a->cs, E = pr->a->cE, b = pr->a->cb;
	double L = (double)(1ull << b) / sizeof(double);
	mt_error e = { "" };
	int oom = 0;

	fprintf(run->meta, "%s", _("# matmul on the cache simulator\n"));
	mt_hfprintf(run->meta,
		    _("# cache (s, E, b) = (%d, %d, %d): %llu bytes, %d-byte lines (%.4g doubles), "
		      "n = %zu\n"),
		    s, E, b, (unsigned long long)((1ull << s) * (uint64_t)E * (1ull << b)), 1 << b, L,
		    p->n);
	fprintf(run->meta, _("# A at %s, B at %s, C at %s (%s): the conflict misses depend on "
			     "where they start (--bases A,B,C or --bases packed moves them)\n"),
		t->hx[0], t->hx[1], t->hx[2], t->where);
	fprintf(run->meta, "%s", _("# misses per inner-loop iteration (n^3 of them)\n"));
	fflush(run->meta);
	if (pr->csv)
		/* machine text: CSV */
		printf("order,class,accesses,misses,misses_per_iter,per_iter_a,per_iter_b,"
		       "per_iter_c,book\n");
	else
	{
		char c[6][64];
		/* TRANSLATORS: the simulated table's head: order (11 wide, left),
		 * class (5, left), accesses (11), misses (10), misses an
		 * iteration (9), then A, B, C and the book's estimate (6) */
		printf("%s %s %s %s %s  %5s %5s %5s %s\n", col(c[0], sizeof c[0], _("order"), -11),
		       col(c[1], sizeof c[1], _("class"), -5), col(c[2], sizeof c[2], _("accesses"), 11),
		       col(c[3], sizeof c[3], _("misses"), 10),
		       col(c[4], sizeof c[4], _("miss/iter"), 9), "A", "B", "C",
		       col(c[5], sizeof c[5], _("book"), 6));
	}
	if (batch_wants_json(run))
		oom = !(t->root = simulate_json(run, p, s, E, b, t->hx, &t->arr));
	for (int o = 0; o < MATMUL_NORDERS && !oom; o++) {
		struct matmul_sim r;
		double bm[3], book = matmul_book_estimate(o, L, bm);
		if (!(p->orders & (1u << o)))
			continue;
		if (matmul_simulate_at(o, p->n, p->block, s, E, b, 0, t->base, &r, &e) < 0) {
			mt_warn(_("run matmul: %s"), e.msg);
			return MT_EXIT_USAGE;
		}
		oom = simulate_row(p, o, &r, book, pr->csv, t->arr) < 0;
	}
	fprintf(run->meta, "%s",
		_("# book: AB 1 + 1/L, AC 2, BC 2/L misses an iteration for a line of L doubles\n"));
	if (oom) {
		cJSON_Delete(t->root);
		t->root = NULL;
	}
	return 0;
}

/* After the options: --quick's and --simulate's sizes under the ones
 * given explicitly, --block and --sweep, --bases only with --simulate. Returns 0, or -1
 * (said). */
static int check(struct batch_cli *cli, void *params)
{
	struct matmul_params *p = &((struct run_params *)params)->p;
	struct args *a = &((struct run_params *)params)->a;
	static const size_t sweep_blocks[] = { 8, 16, 32, 64, 128 };
	if (cli->quick) {
		p->n = a->simulate ? 48 : 64;
		p->tries = 1;
	} else if (a->simulate) {
		p->n = 100;
	}
	if (a->n)
		p->n = (size_t)a->n;
	if (a->block)
		p->block = (size_t)a->block;
	if (a->sweep) {
		p->nsweep = MT_ARRAY_LEN(sweep_blocks);
		memcpy(p->sweep, sweep_blocks, sizeof sweep_blocks);
	}
	if (cli->tries)
		p->tries = cli->tries;
	if (a->bases && !a->simulate) {
		mt_warn(_("run matmul: --bases places the simulated matrices: it needs --simulate"));
		return -1;
	}
	return 0;
}

/* The defaults, before the options: p's and a's (the book's cache). */
static void defaults(void *params)
{
	struct matmul_params *p = &((struct run_params *)params)->p;
	struct args *a = &((struct run_params *)params)->a;
	matmul_params_default(p);
	memset(a, 0, sizeof *a);
	a->cs = 5; /* the book's cache: (5, 1, 5) */
	a->cE = 1;
	a->cb = 5;
}

/* The lines above the table: n, block, method, the book's line and the
 * simulated L1d. */
static int print_plan(const struct printer *b)
{
	const struct batch_run *run = b->run;
	const struct matmul_l1d *d = &b->d;
	const struct matmul_params *p = b->p;
	char c[7][64];
	mt_hfprintf(run->meta,
		    _("# matmul: n = %zu, block %zu, %s; ns per inner-loop iteration (n^3 = %.0f)\n"),
		    p->n, p->block,
		    p->race ? _("race: all orders interleaved in 2 ms slices, one run each")
			    : _("best of tries"),
		    (double)p->n * p->n * p->n);
	if (b->r.have_sim) {
		char sz[32];
		int sampled = 2.0 * (double)p->n * p->n * p->n > (double)SIM_SAMPLE_ACCESSES;
		if (sampled)
			mt_hfprintf(run->meta,
				    _("# book: misses per iteration for a %d-byte line (%.0f doubles); "
				      "sim: this L1d (%s: %s, %d-way, %d-byte lines = (%d, %d, %d)), "
				      "first ~4M accesses of each order\n"),
				    d->line, (double)d->line / sizeof(double), d->from,
				    mt_fmt_size(sz, sizeof sz, d->size), d->ways, d->line, d->s, d->E,
				    d->b);
		else
			mt_hfprintf(run->meta,
				    _("# book: misses per iteration for a %d-byte line (%.0f doubles); "
				      "sim: this L1d (%s: %s, %d-way, %d-byte lines = (%d, %d, %d))\n"),
				    d->line, (double)d->line / sizeof(double), d->from,
				    mt_fmt_size(sz, sizeof sz, d->size), d->ways, d->line, d->s, d->E,
				    d->b);
	} else {
		mt_hfprintf(run->meta,
			    _("# book: misses per iteration for a %d-byte line (%.0f doubles)\n"),
			    d->line, (double)d->line / sizeof(double));
	}
	fflush(run->meta);
	if (b->csv) {
		/* machine text: CSV */
		printf("kind,order,class,block,ms,ns_per_iter,spread,book_misses_per_iter,"
		       "sim_misses_per_iter,finish,equal\n");
	} else {
		/* TRANSLATORS: the timed table's head: order (11 wide, left), class
		 * (5, left), ms (9), ns an iteration (9), spread (7), the book's
		 * misses (9), the simulator's (9) */
		printf("%s %s %s %s %s %s", col(c[0], sizeof c[0], _("order"), -11),
		       col(c[1], sizeof c[1], _("class"), -5), col(c[2], sizeof c[2], _("ms"), 9),
		       col(c[3], sizeof c[3], _("ns/iter"), 9), col(c[4], sizeof c[4], _("spread"), 7),
		       col(c[5], sizeof c[5], _("book"), 9));
		if (b->r.have_sim)
			printf(" %s  %5s %5s %5s", col(c[6], sizeof c[6], _("sim"), 9), "A", "B", "C");
		printf("\n");
	}
	fflush(stdout);
	return 0;
}

/* What the table says about itself: the worst order against the best, the
 * blocked ikj against ikj, and what blocking gave each other order run
 * blocked (the lesson: blocking jki gives much less). */
static int summary(void *printer)
{
	const struct printer *b = printer;
	const struct batch_run *run = b->run;
	const struct matmul_row *res = b->r.res;
	if (b->a->simulate)
		return 0;
	if (res[MATMUL_BLOCKED].have && res[MATMUL_IKJ].have && res[MATMUL_BLOCKED].ns_iter > 0)
		mt_hfprintf(run->meta, _("# worst/best order %.1fx; blocked vs ikj %.2fx\n"),
			fmax(res[MATMUL_JKI].ns_iter, res[MATMUL_KJI].ns_iter) /
				fmin(res[MATMUL_KIJ].ns_iter, res[MATMUL_IKJ].ns_iter),
			res[MATMUL_IKJ].ns_iter / res[MATMUL_BLOCKED].ns_iter);
	for (int o = MATMUL_B_IJK; o < MATMUL_NORDERS; o++) {
		int base = matmul_base_order(o);
		if (res[o].have && res[base].have && res[o].ns_iter > 0)
			mt_hfprintf(run->meta,
				    res[base].ns_iter / res[o].ns_iter >= 1.5
					    ? _("# %s vs %s %.2fx (blocking gains a lot)\n")
					    : _("# %s vs %s %.2fx (blocking gains little)\n"),
				    matmul_order_name(o), matmul_order_name(base),
				    res[base].ns_iter / res[o].ns_iter);
	}
	return 0;
}

/* p as a plan: the worker and the three n x n matrices of doubles, with
 * where they sit for the worker's CPU (a --simulate run measures nothing
 * of the machine: its cache is the one given). */
static void describe(const struct machine *m, int cpu, const void *params, const void *printer,
		     struct plan *out)
{
	const struct matmul_params *p = &((const struct run_params *)params)->p;
	int simulate = ((const struct run_params *)params)->a.simulate;
	char where[16], why[200];
	uint64_t bytes = 3 * (uint64_t)p->n * p->n * sizeof(double);
	(void)printer;
	if (simulate) {
		mt_snprintf(why, sizeof why,
			    plan_words(out, N_("A, B and C, %zu x %zu doubles each, through the "
						 "simulated cache only")),
			    p->n, p->n);
		plan_add_size(out, "", bytes, 1, 0, why);
		return;
	}
	out->worker_cpu = cpu;
	if (cpu >= 0)
		plan_add_threads(out, 1, &cpu, 1);
	mt_snprintf(why, sizeof why,
		    plan_words_n(out, "A, B and C, %zu x %zu doubles each; best of %d",
				 "A, B and C, %zu x %zu doubles each; best of %d", (unsigned long)p->tries),
		    p->n, p->n, p->tries);
	plan_add_size(out, cpu >= 0 ? machine_level_name(m, bytes, &cpu, 1, where, sizeof where) : "",
		      bytes, 1, 0, why);
}

/* The printer: for --simulate where the matrices start, else the L1d
 * simulated beside the stopwatch and the empty result. Returns 0, or -1
 * (said). */
static int start(struct batch_cli *cli, const struct machine *m, void *params, void *printer)
{
	struct matmul_params *p = &((struct run_params *)params)->p;
	const struct args *a = &((struct run_params *)params)->a;
	struct printer *b = printer;

	b->p = p;
	b->a = a;
	if (a->simulate)
		return sim_prepare(b, cli);
	if (p->race && p->nsweep) {
		mt_warn(_("run matmul: --race and --sweep do not go together"));
		return -1;
	}
	matmul_l1d(&m->info, &b->d);
	if (b->d.s >= 0) { /* the worker simulates each order first, off this thread */
		p->sim_s = b->d.s;
		p->sim_E = b->d.E;
		p->sim_b = b->d.b;
		p->sim_sample = SIM_SAMPLE_ACCESSES;
	}
	matmul_result_init(&b->r, p, b->d.line, b->d.from);
	return 0;
}

/* The lines above the table and its head (--simulate: all of its table). */
static int head(void *printer)
{
	struct printer *b = printer;
	return b->a->simulate ? sim_run(b) : print_plan(b);
}

/* A job to time the orders (none for --simulate). */
static int has_job(const void *params)
{
	return !((const struct run_params *)params)->a.simulate;
}

/* The result's JSON: the timed one (matmul_result_to_json), or
 * --simulate's, made with its table (NULL: out of memory). */
static cJSON *to_json(void *printer)
{
	struct printer *b = printer;
	cJSON *root = b->sim.root;
	if (!b->a->simulate)
		return matmul_result_to_json(&b->r);
	b->sim.root = NULL; /* the caller's now */
	return root;
}

/* --simulate's JSON, when the run ended before writing it. */
static void release(void *printer, void *params)
{
	(void)params;
	cJSON_Delete(((struct printer *)printer)->sim.root);
}

/* A product that differs from ijk's fails the run (exit 1), said in one
 * line. */
static int verdict(const void *printer)
{
	const struct printer *b = printer;
	if (!b->r.failed_equal)
		return MT_EXIT_OK;
	mt_warn(_("run matmul: a result differs from ijk's"));
	return MT_EXIT_RUNTIME;
}

const struct experiment exp_matmul = {
	.name = "matmul",
	.about = N_("the six matmul loop orders and blocking: time, class, misses (seed 003)"),
	EXPERIMENT_PARTS,
	.defaults = defaults,
	.check = check,
	.pinned = 1,
	.has_job = has_job,
	EXPERIMENT_JOB(matmul_worker), /* on the matmul_params, the params' first field */
	EXPERIMENT_RESULT(r, &kind_matmul),
	.to_json = to_json, /* --simulate's is not the kind's */
	.verdict = verdict,
	.release = release,
};
