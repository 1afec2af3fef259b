/* memtop run matmul: the six loop orders and the blocked one, timed (the
 * seed's stopwatch table, with the class, the book's misses per iteration
 * for this machine's line and the simulator's count for its L1d next to
 * them), or --simulate: the seed's simulator table on an (s, E, b) cache. */
#include "config.h"

#include "clock.h"
#include "experiment.h"
#include "job.h"
#include "jsonio.h"
#include "matmul.h"
#include "sim.h"
#include "util.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Accesses simulated per order next to the stopwatch (a prefix sample when
 * the whole product is bigger). */
#define SIM_SAMPLE_ACCESSES 4000000ull

struct row {
	int have;
	double ms, ns_iter, spread;
	int equal, rank;
	size_t block;
};

struct batch {
	const struct matmul_params *p;
	struct row res[MATMUL_NORDERS];
	struct row sweep[MATMUL_MAX_SWEEP];
	double book[MATMUL_NORDERS];
	struct matmul_sim sim[MATMUL_NORDERS];
	int have_sim, sim_sampled;
	int sweep_head;
	int failed_equal;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: memtop run matmul [OPTIONS]\n"
		"The six loop orders of C += A * B and the blocked ikj, n x n doubles: time per\n"
		"inner-loop iteration, class, misses per iteration (book and simulator).\n\n"
		"  --n N            matrix side (default 512; 100 with --simulate)\n"
		"  --block B        block side of the blocked order (default 32)\n"
		"  --tries N        best of N runs (default 3)\n"
		"  --sweep          also time the blocked order with blocks 8, 16, 32, 64, 128\n"
		"  --race           run the orders interleaved in %.0f ms slices, all advancing\n"
		"                   together on one core (as the TUI tab does); one run each\n"
		"  --simulate       no timing: drive every order through the cache simulator\n"
		"  --cache s,E,b    the simulated cache (default 5,1,5: the book's 1 KB, 32-byte\n"
		"                   lines); matrices at 1 MB-aligned bases A, B, C\n"
		"  --cpu N          pin the measuring thread to CPU N\n"
		"  --json FILE      write the result to FILE (atomically)\n"
		"  -h, --help       this help\n",
		2.0);
}

static void print_row(const struct batch *b, int o)
{
	const struct row *r = &b->res[o];
	printf("%-8s %-5s %9.1f %9.2f %6.1f%%", matmul_order_name(o),
	       matmul_class_name(matmul_order_class(o)), r->ms, r->ns_iter, r->spread * 100);
	printf(" %9.3f", b->book[o]);
	if (b->have_sim)
		printf(" %9.3f  %5.3f %5.3f %5.3f", b->sim[o].per_iter, b->sim[o].per_iter_m[0],
		       b->sim[o].per_iter_m[1], b->sim[o].per_iter_m[2]);
	if (r->rank)
		printf("  #%d", r->rank);
	if (!r->equal)
		printf("  DIFFERS from ijk");
	printf("\n");
}

static void on_event(const struct job_event *ev, void *ctx)
{
	struct batch *b = ctx;
	struct row *r;
	if (ev->type == JOB_EV_NOTE) {
		printf("# %s\n", ev->text);
		return;
	}
	if (ev->type != JOB_EV_CELL)
		return;
	if (ev->kind == MATMUL_CELL_SIM && ev->row >= 0 && ev->row < MATMUL_NORDERS) {
		struct matmul_sim *s = &b->sim[ev->row];
		s->per_iter = ev->value;
		for (int m = 0; m < 3; m++)
			s->per_iter_m[m] = ev->aux[m];
		b->sim_sampled = ev->aux[3] > 0.5;
		return;
	}
	if (ev->kind == MATMUL_CELL_RESULT && ev->row >= 0 && ev->row < MATMUL_NORDERS) {
		r = &b->res[ev->row];
	} else if (ev->kind == MATMUL_CELL_SWEEP && ev->row >= 0 &&
		   (size_t)ev->row < b->p->nsweep) {
		r = &b->sweep[ev->row];
	} else {
		return;
	}
	r->have = 1;
	r->ms = ev->aux[0];
	r->ns_iter = ev->value;
	r->spread = ev->spread;
	r->equal = ev->aux[2] > 0.5;
	r->block = (size_t)ev->aux[3];
	r->rank = (int)ev->aux[4];
	if (!r->equal)
		b->failed_equal = 1;
	if (ev->kind == MATMUL_CELL_RESULT) {
		print_row(b, ev->row);
	} else {
		if (!b->sweep_head) {
			printf("\n%-8s %9s %9s %7s  %s\n", "block", "ms", "ns/iter", "spread",
			       "working set of one i (B block + A, C pieces)");
			b->sweep_head = 1;
		}
		printf("%-8zu %9.1f %9.2f %6.1f%%  %.1f KB%s\n", r->block, r->ms, r->ns_iter,
		       r->spread * 100,
		       (double)((r->block * r->block + 2 * r->block) * sizeof(double)) / 1024,
		       r->equal ? "" : "  DIFFERS from ijk");
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

static int parse_cache(const char *arg, int *s, int *E, int *b)
{
	uint64_t v[3];
	if (mt_parse_u64_list(arg, 0, SIM_MAX_E, v, 3) != 3)
		return -1;
	if (v[0] > SIM_MAX_S || v[1] < 1 || v[2] > 20)
		return -1;
	*s = (int)v[0];
	*E = (int)v[1];
	*b = (int)v[2];
	return 0;
}

static int run_simulate(const struct matmul_params *p, int s, int E, int b, const char *json)
{
	cJSON *root = NULL, *arr, *bases;
	uint64_t base[3];
	double L = (double)(1ull << b) / sizeof(double);
	mt_error e = { "" };
	struct run_header hdr;
	int rc = MT_EXIT_RUNTIME;
	char hx[3][32];

	matmul_model_bases(p->n, base);
	for (int m = 0; m < 3; m++)
		mt_snprintf(hx[m], sizeof hx[m], "0x%llx", (unsigned long long)base[m]);
	run_header_init(&hdr, -1);
	printf("# memtop %s: matmul on the cache simulator\n", hdr.version);
	printf("# cache (s, E, b) = (%d, %d, %d): %llu bytes, %d-byte lines (%.4g doubles), n = %zu\n",
	       s, E, b, (unsigned long long)((1ull << s) * (uint64_t)E * (1ull << b)), 1 << b, L,
	       p->n);
	printf("# A at %s, B at %s, C at %s; misses per inner-loop iteration (n^3 of them)\n",
	       hx[0], hx[1], hx[2]);
	printf("%-8s %-5s %11s %10s %9s  %5s %5s %5s %6s\n", "order", "class", "accesses", "misses",
	       "miss/iter", "A", "B", "C", "book");
	if (json) {
		root = cJSON_CreateObject();
		if (!root || run_header_to_json(&hdr, root) < 0)
			goto oom;
		cJSON_AddNumberToObject(root, "n", (double)p->n);
		cJSON_AddNumberToObject(root, "block", (double)p->block);
		cJSON_AddItemToObject(root, "cache", cache_json(s, E, b));
		bases = cJSON_AddObjectToObject(root, "bases");
		arr = cJSON_AddArrayToObject(root, "results");
		if (!bases || !arr)
			goto oom;
		cJSON_AddStringToObject(bases, "A", hx[0]);
		cJSON_AddStringToObject(bases, "B", hx[1]);
		cJSON_AddStringToObject(bases, "C", hx[2]);
	}
	for (int o = 0; o < MATMUL_NORDERS; o++) {
		struct matmul_sim r;
		double bm[3], book = matmul_book_estimate(o, L, bm);
		if (matmul_simulate(o, p->n, p->block, s, E, b, 0, &r, &e) < 0) {
			mt_warn("run matmul: %s", e.msg);
			rc = MT_EXIT_USAGE;
			goto out;
		}
		printf("%-8s %-5s %11llu %10llu %9.3f  %5.3f %5.3f %5.3f %6.3f\n",
		       o == MATMUL_BLOCKED ? "blocked" : matmul_order_name(o),
		       matmul_class_name(matmul_order_class(o)), (unsigned long long)r.accesses,
		       (unsigned long long)r.misses, r.per_iter, r.per_iter_m[0], r.per_iter_m[1],
		       r.per_iter_m[2], book);
		fflush(stdout);
		if (root) {
			cJSON *it = sim_json(&r);
			if (!it)
				goto oom;
			cJSON_AddStringToObject(it, "order", matmul_order_name(o));
			cJSON_AddStringToObject(it, "class", matmul_class_name(matmul_order_class(o)));
			cJSON_AddNumberToObject(it, "book", book);
			if (o == MATMUL_BLOCKED)
				cJSON_AddNumberToObject(it, "block", (double)p->block);
			cJSON_AddItemToArray(arr, it);
		}
	}
	printf("# book: AB 1 + 1/L, AC 2, BC 2/L misses an iteration for a line of L doubles\n");
	if (root) {
		if (jsonio_save(json, root, &e) < 0) {
			mt_warn("run matmul: %s", e.msg);
			goto out;
		}
		printf("# wrote %s\n", json);
	}
	rc = MT_EXIT_OK;
	goto out;
oom:
	mt_warn("run matmul: out of memory");
out:
	cJSON_Delete(root);
	return rc;
}

static int write_json(const char *path, const struct batch *b, const struct run_header *hdr,
		      const struct matmul_l1d *d, mt_error *e)
{
	const struct matmul_params *p = b->p;
	cJSON *root = cJSON_CreateObject(), *arr;
	int rc = -1;
	if (!root || run_header_to_json(hdr, root) < 0)
		goto oom;
	cJSON_AddNumberToObject(root, "n", (double)p->n);
	cJSON_AddNumberToObject(root, "block", (double)p->block);
	cJSON_AddNumberToObject(root, "tries", p->tries);
	cJSON_AddStringToObject(root, "mode", p->race ? "race" : "table");
	cJSON_AddNumberToObject(root, "line_bytes", d->line);
	if (b->have_sim) {
		cJSON *c = cache_json(d->s, d->E, d->b);
		if (!c)
			goto oom;
		cJSON_AddStringToObject(c, "source", d->from);
		cJSON_AddItemToObject(root, "sim_cache", c);
	}
	arr = cJSON_AddArrayToObject(root, "results");
	if (!arr)
		goto oom;
	for (int o = 0; o < MATMUL_NORDERS; o++) {
		const struct row *r = &b->res[o];
		cJSON *it;
		if (!r->have)
			continue;
		it = cJSON_CreateObject();
		if (!it)
			goto oom;
		cJSON_AddStringToObject(it, "order", matmul_order_name(o));
		cJSON_AddStringToObject(it, "class", matmul_class_name(matmul_order_class(o)));
		cJSON_AddNumberToObject(it, "ms", r->ms);
		cJSON_AddNumberToObject(it, "ns_per_iter", r->ns_iter);
		cJSON_AddNumberToObject(it, "spread", r->spread);
		cJSON_AddBoolToObject(it, "equal", r->equal);
		if (o == MATMUL_BLOCKED)
			cJSON_AddNumberToObject(it, "block", (double)r->block);
		if (r->rank)
			cJSON_AddNumberToObject(it, "finish", r->rank);
		cJSON_AddNumberToObject(it, "book_misses_per_iter", b->book[o]);
		if (b->have_sim) {
			cJSON *sj = cJSON_AddObjectToObject(it, "sim");
			if (!sj)
				goto oom;
			cJSON_AddNumberToObject(sj, "misses_per_iter", b->sim[o].per_iter);
			cJSON_AddNumberToObject(sj, "per_iter_a", b->sim[o].per_iter_m[0]);
			cJSON_AddNumberToObject(sj, "per_iter_b", b->sim[o].per_iter_m[1]);
			cJSON_AddNumberToObject(sj, "per_iter_c", b->sim[o].per_iter_m[2]);
			cJSON_AddBoolToObject(sj, "sampled", b->sim_sampled);
		}
		cJSON_AddItemToArray(arr, it);
	}
	if (p->nsweep) {
		arr = cJSON_AddArrayToObject(root, "sweep");
		if (!arr)
			goto oom;
		for (size_t i = 0; i < p->nsweep; i++) {
			const struct row *r = &b->sweep[i];
			cJSON *it;
			if (!r->have)
				continue;
			it = cJSON_CreateObject();
			if (!it)
				goto oom;
			cJSON_AddNumberToObject(it, "block", (double)r->block);
			cJSON_AddNumberToObject(it, "ms", r->ms);
			cJSON_AddNumberToObject(it, "ns_per_iter", r->ns_iter);
			cJSON_AddNumberToObject(it, "spread", r->spread);
			cJSON_AddBoolToObject(it, "equal", r->equal);
			cJSON_AddItemToArray(arr, it);
		}
	}
	rc = jsonio_save(path, root, e);
	cJSON_Delete(root);
	return rc;
oom:
	cJSON_Delete(root);
	return mt_fail(e, "out of memory");
}

static int matmul_batch(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "n", required_argument, NULL, 'n' },
		{ "block", required_argument, NULL, 'B' },
		{ "tries", required_argument, NULL, 't' },
		{ "sweep", no_argument, NULL, 'w' },
		{ "race", no_argument, NULL, 'r' },
		{ "simulate", no_argument, NULL, 'S' },
		{ "cache", required_argument, NULL, 'c' },
		{ "cpu", required_argument, NULL, 'P' },
		{ "json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const size_t sweep_blocks[] = { 8, 16, 32, 64, 128 };
	static struct matmul_params p; /* outlives the job */
	struct batch b;
	struct run_header hdr;
	struct matmul_l1d d;
	struct job_opts jo = { -1, 0 };
	const char *json = NULL;
	int ch, simulate = 0, have_n = 0, cs = 5, cE = 1, cb = 5, st;
	uint64_t v;
	double L;
	mt_error e = { "" };
	job_t *job;

	matmul_params_default(&p);
	memset(&b, 0, sizeof b);
	b.p = &p;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 'n':
			if (mt_parse_u64(optarg, 1, MATMUL_MAX_N, &v) < 0) {
				mt_warn("run matmul: --n: expected 1..%d, got '%s'", MATMUL_MAX_N, optarg);
				return MT_EXIT_USAGE;
			}
			p.n = (size_t)v;
			have_n = 1;
			break;
		case 'B':
			if (mt_parse_u64(optarg, 1, MATMUL_MAX_N, &v) < 0) {
				mt_warn("run matmul: --block: expected 1..%d, got '%s'", MATMUL_MAX_N,
					optarg);
				return MT_EXIT_USAGE;
			}
			p.block = (size_t)v;
			break;
		case 't':
			if (mt_parse_int(optarg, 1, 100, &p.tries) < 0) {
				mt_warn("run matmul: --tries: expected 1..100, got '%s'", optarg);
				return MT_EXIT_USAGE;
			}
			break;
		case 'w':
			p.nsweep = MT_ARRAY_LEN(sweep_blocks);
			memcpy(p.sweep, sweep_blocks, sizeof sweep_blocks);
			break;
		case 'r': p.race = 1; break;
		case 'S': simulate = 1; break;
		case 'c':
			if (parse_cache(optarg, &cs, &cE, &cb) < 0) {
				mt_warn("run matmul: --cache: expected s,E,b such as 5,1,5, got '%s'",
					optarg);
				return MT_EXIT_USAGE;
			}
			break;
		case 'P':
			if (mt_parse_int(optarg, 0, 65535, &jo.cpu) < 0) {
				mt_warn("run matmul: --cpu: expected a CPU number, got '%s'", optarg);
				return MT_EXIT_USAGE;
			}
			break;
		case 'j': json = optarg; break;
		case 'h': usage(stdout); return MT_EXIT_OK;
		default:
			mt_warn("run matmul: unknown option '%s' (see memtop run matmul --help)",
				argv[optind - 1]);
			return MT_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		mt_warn("run matmul: unexpected argument '%s'", argv[optind]);
		return MT_EXIT_USAGE;
	}
	if (simulate) {
		if (!have_n)
			p.n = 100;
		return run_simulate(&p, cs, cE, cb, json);
	}
	if (p.race && p.nsweep) {
		mt_warn("run matmul: --race and --sweep do not go together");
		return MT_EXIT_USAGE;
	}

	matmul_l1d(&d);
	L = (double)d.line / sizeof(double);
	for (int o = 0; o < MATMUL_NORDERS; o++) {
		double m[3];
		b.book[o] = matmul_book_estimate(o, L, m);
	}
	if (d.s >= 0) { /* the worker simulates each order first, off this thread */
		b.have_sim = 1;
		p.sim_s = d.s;
		p.sim_E = d.E;
		p.sim_b = d.b;
		p.sim_sample = SIM_SAMPLE_ACCESSES;
	}

	job = job_start(matmul_worker, &p, &jo, &e);
	if (!job) {
		mt_warn("run matmul: %s", e.msg);
		return MT_EXIT_RUNTIME;
	}
	{
		struct job_progress pr;
		job_get_progress(job, &pr);
		run_header_init(&hdr, pr.cpu);
	}
	run_header_print(stdout, &hdr);
	printf("# matmul: n = %zu, block %zu, %s; ns per inner-loop iteration (n^3 = %.0f)\n", p.n,
	       p.block, p.race ? "race: all orders interleaved in 2 ms slices, one run each"
			       : "best of tries",
	       (double)p.n * p.n * p.n);
	printf("# book: misses per iteration for a %d-byte line (%.0f doubles)", d.line, L);
	if (b.have_sim) {
		char sz[32];
		int sampled = 2.0 * (double)p.n * p.n * p.n > (double)SIM_SAMPLE_ACCESSES;
		printf("; sim: this L1d (%s: %s, %d-way, %d-byte lines = (%d, %d, %d))%s", d.from,
		       mt_fmt_size(sz, sizeof sz, d.size), d.ways, d.line, d.s, d.E, d.b,
		       sampled ? ", first ~4M accesses of each order" : "");
	}
	printf("\n%-8s %-5s %9s %9s %7s %9s", "order", "class", "ms", "ns/iter", "spread", "book");
	if (b.have_sim)
		printf(" %9s  %5s %5s %5s", "sim", "A", "B", "C");
	printf("\n");
	fflush(stdout);
	st = job_pump(job, on_event, &b, 1, &e);
	diag_end(&hdr.diag);
	if (st < 0) {
		mt_warn("run matmul: %s", e.msg);
		return MT_EXIT_RUNTIME;
	}
	if (st == 1) {
		mt_warn("run matmul: cancelled; nothing written");
		return MT_EXIT_RUNTIME;
	}
	{
		char w[8][160];
		int n = diag_warnings(&hdr.diag, w, 8);
		for (int i = 0; i < n; i++)
			printf("# warning: %s\n", w[i]);
	}
	if (b.res[MATMUL_BLOCKED].have && b.res[MATMUL_IKJ].have &&
	    b.res[MATMUL_BLOCKED].ns_iter > 0)
		printf("# worst/best order %.1fx; blocked vs ikj %.2fx\n",
		       fmax(b.res[MATMUL_JKI].ns_iter, b.res[MATMUL_KJI].ns_iter) /
			       fmin(b.res[MATMUL_KIJ].ns_iter, b.res[MATMUL_IKJ].ns_iter),
		       b.res[MATMUL_IKJ].ns_iter / b.res[MATMUL_BLOCKED].ns_iter);
	if (json) {
		if (write_json(json, &b, &hdr, &d, &e) < 0) {
			mt_warn("run matmul: %s", e.msg);
			return MT_EXIT_RUNTIME;
		}
		printf("# wrote %s\n", json);
	}
	if (b.failed_equal) {
		mt_warn("run matmul: a result differs from ijk's");
		return MT_EXIT_RUNTIME;
	}
	return MT_EXIT_OK;
}

const struct experiment exp_matmul = {
	"matmul",
	"the six matmul loop orders and blocking: time, class, misses (seed 003)",
	matmul_batch,
};
