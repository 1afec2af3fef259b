/* memtop run cores: the core-to-core latency matrix, pair by pair, and its
 * summary by relation. */
#include "config.h"

#include "cores.h"
#include "core/batch.h"
#include "core/experiment.h"
#include "core/job.h"
#include "core/sysinfo.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The widest matrix printed as a table (more CPUs: the pairs and the
 * summary only; the JSON holds it whole). */
#define MATRIX_MAX_PRINT 64

struct printer {
	const struct batch_run *run;
	int csv;
	struct cores_result r;
};

/* The options, with their help: the getopt table and --help both come
 * from it (core/batch.h). */
static const struct batch_option options[] = {
	{ "cpus", 'c', "LIST",
	  "the CPUs to pair, such as 0-3,8 (default: every CPU this\n"
	  "process may run on; see taskset(1))" },
	{ "sample", 'S', NULL,
	  "one CPU of each core against one of each L3 group, and\n"
	  "the SMT pairs (the default above " MT_XSTR(CORES_SAMPLE_ABOVE) " CPUs)" },
	{ "all", 'A', NULL, "every pair, however many CPUs" },
	{ "tries", 't', "N", "best of N tries a pair (default 5)" },
	{ "samples", 's', "N",
	  "samples of 100 round trips a try, the fastest kept\n"
	  "(default 100)" },
	{ "method", 'm', "M",
	  "cas: both threads compare-and-swap one line (default; as\n"
	  "c2clat -w); rw: each stores to its own line and reads the\n"
	  "other's (as c2clat's default): a store and a miss a leg" },
	BATCH_HELP_COMMON("small run for tests: 2 tries of 20 samples",
			  "print CSV, one row a pair (the rest goes to stderr)"),
	BATCH_END,
};

static const struct batch_help help = {
	.head = "Usage: memtop run cores [OPTIONS]\n"
		"Core-to-core latency: for each pair of CPUs, two threads pinned one to each\n"
		"pass one cache line back and forth with compare-and-swap; the figure is the\n"
		"one-way time, round trip / 2, the best of several tries. A fresh page for\n"
		"every pair; a try in which a thread moved is thrown away.\n\n",
	.opts = options,
	.col = 18,
};

static void on_event(const struct job_event *ev, void *ctx)
{
	struct printer *b = ctx;
	const struct cores_pair *q;
	const struct cores_plan *pl = &b->r.plan;
	if (ev->type == JOB_EV_NOTE) {
		batch_note(b->run, ev->text);
		return;
	}
	if (!cores_result_apply(&b->r, ev))
		return;
	q = &pl->pairs[ev->row];
	if (b->csv) {
		printf("%d,%d,%.2f,%.4f,%s,%d,%d\n", pl->cpus[q->ia], pl->cpus[q->ib], q->ns,
		       q->spread, q->rel, q->moved, q->kept);
	} else if (q->have) {
		printf("%5d %5d %11.1f %7.1f %%  %s%s\n", pl->cpus[q->ia], pl->cpus[q->ib], q->ns,
		       100 * q->spread, q->rel, q->moved ? "  (a thread moved)" : "");
	} else {
		printf("%5d %5d %11s %9s  %s\n", pl->cpus[q->ia], pl->cpus[q->ib], "-", "", q->rel);
	}
	fflush(stdout);
}

/* Parse argv into cli, p, the CPUs and the sampling. Returns 0, or -1 when
 * the command ends here with exit code cli->rc. */
static int parse_args(struct batch_cli *cli, int argc, char **argv, struct cores_params *p,
		      int *cpus, int *n, int *sample)
{
	static int allowed[MT_MAX_CPUS];
	const char *list = NULL, *method = NULL;
	int ch, tries = 0, samples = 0, nallowed, all = 0;
	mt_error e;
	*sample = -1;
	batch_cli_init(cli, "cores", &help);
	while ((ch = batch_next(cli, argc, argv)) > 0) {
		switch (ch) {
		case 'c': list = optarg; break;
		case 'S': *sample = 1; break;
		case 'A': all = 1; break;
		case 'm':
			if (strcmp(optarg, "cas") != 0 && strcmp(optarg, "rw") != 0)
				return batch_bad(cli->exp, "--method", optarg, "cas or rw");
			method = optarg;
			break;
		case 't':
			if (batch_opt_int(cli->exp, "--tries", optarg, 1, 100, &tries) < 0)
				return -1;
			break;
		case 's':
			if (batch_opt_int(cli->exp, "--samples", optarg, 1, 100000, &samples) < 0)
				return -1;
			break;
		}
	}
	if (ch < 0)
		return -1;
	cli->rc = MT_EXIT_USAGE;
	if (all && *sample == 1) {
		mt_warn("run cores: --all and --sample: choose one");
		return -1;
	}
	cores_params_default(p, cli->quick);
	if (tries)
		p->tries = tries;
	if (samples)
		p->samples = samples;
	if (method)
		p->method = strcmp(method, "rw") == 0 ? CORES_RW : CORES_CAS;
	nallowed = mt_allowed_cpus(allowed, MT_MAX_CPUS);
	if (list) {
		*n = cores_parse_cpus(list, allowed, nallowed, cpus, CORES_MAX_CPUS, &e);
		if (*n < 0) {
			mt_warn("run cores: --cpus: %s, got '%s'", e.msg, list);
			return -1;
		}
	} else {
		*n = nallowed < CORES_MAX_CPUS ? nallowed : CORES_MAX_CPUS;
		memcpy(cpus, allowed, (size_t)*n * sizeof *cpus);
	}
	if (*n < 2) {
		mt_warn("run cores: %s one CPU (%d): core-to-core latency needs two or more",
			list ? "--cpus names" : "this process may run on", *n > 0 ? cpus[0] : 0);
		return -1;
	}
	if (*sample < 0)
		*sample = !all && *n > CORES_SAMPLE_ABOVE;
	cli->rc = MT_EXIT_OK;
	return 0;
}

/* The matrix as a table (one-way ns; '-' where not measured). */
static void print_matrix(const struct cores_result *r)
{
	const struct cores_plan *pl = &r->plan;
	if (pl->n > MATRIX_MAX_PRINT) {
		printf("\n# the matrix has %d CPUs: too wide to print (the JSON holds it)\n", pl->n);
		return;
	}
	printf("\n# one-way ns (round trip / 2)\n%5s", "CPU");
	for (int j = 0; j < pl->n; j++)
		printf(" %6d", pl->cpus[j]);
	printf("\n");
	for (int i = 0; i < pl->n; i++) {
		printf("%5d", pl->cpus[i]);
		for (int j = 0; j < pl->n; j++) {
			double v = cores_result_ns(r, i, j);
			if (isfinite(v))
				printf(" %6.1f", v);
			else
				printf(" %6s", "-");
		}
		printf("\n");
	}
}

static void print_summary(const struct batch_run *run, const struct cores_result *r)
{
	fprintf(run->meta, "# by relation (the median over its pairs, one-way):\n");
	for (size_t k = 0; k < r->nsum; k++)
		fprintf(run->meta, "#   %-28s %7.1f ns  (%zu pair%s)\n", r->sum[k].rel, r->sum[k].ns,
			r->sum[k].pairs, r->sum[k].pairs == 1 ? "" : "s");
	if (r->nsum == 1 && strcmp(r->sum[0].rel, "unknown") == 0)
		fprintf(run->meta, "# the topology could not tell how these CPUs are related\n");
}

/* The lines above the pairs: how it measures, what it pairs. */
static void print_head(const struct batch_run *run, const struct cores_plan *pl, int csv)
{
	fprintf(run->meta, "# cores: %s; one-way ns = round trip / 2\n",
		pl->p.method == CORES_RW
			? "two pinned threads each store to their own line and read the other's (rw)"
			: "one cache line passed between two pinned threads by compare-and-swap");
	fprintf(run->meta,
		"# a try is %d samples of %d round trips on a line of its own page, its fastest "
		"sample; best of %d tries\n"
		"# %d CPUs, %zu pairs (%s)\n",
		pl->p.samples, pl->p.rounds, pl->p.tries, pl->n, pl->npairs,
		pl->sampled ? "sampled: one CPU a core against one of each group, and SMT pairs"
			    : "every pair");
	fflush(run->meta);
	if (csv)
		printf("a,b,ns,spread,relation,moved,kept\n");
	else
		printf("%5s %5s %11s %9s  %s\n", "a", "b", "one-way ns", "spread", "relation");
	fflush(stdout);
}

static int cores_batch(int argc, char **argv)
{
	static int cpus[CORES_MAX_CPUS];
	static struct cores_place places[CORES_MAX_CPUS];
	static struct cores_plan plan; /* outlives the job */
	struct cores_params p;
	struct printer b;
	struct batch_cli cli;
	struct batch_run run;
	struct topo *topo = NULL;
	int n = 0, sample = 0, rc;
	mt_error e, te;

	if (parse_args(&cli, argc, argv, &p, cpus, &n, &sample) < 0)
		return cli.rc;
	if (topo_load(NULL, &topo, &te) < 0)
		topo = NULL; /* the relations are "unknown" then; said below */
	cores_places(topo, cpus, n, places);
	memset(&b, 0, sizeof b);
	rc = cores_plan_make(&plan, &p, places, n, sample, NULL, topo, &e);
	topo_free(topo);
	if (rc < 0 || cores_result_init(&b.r, &plan, &e) < 0) {
		mt_warn("run cores: %s", e.msg);
		cores_plan_free(&plan);
		return MT_EXIT_RUNTIME;
	}
	b.run = &run;
	b.csv = cli.csv;
	/* The worker only starts and joins the two threads of each pair. */
	batch_begin(&run, &cli, 0);
	if (!topo)
		fprintf(run.meta, "# no topology (%s): every relation is unknown\n", te.msg);
	print_head(&run, &plan, cli.csv);
	rc = batch_pump(&run, cores_worker, &plan, on_event, &b);
	if (rc == 0) {
		b.r.hdr = run.hdr;
		if (!cli.csv)
			print_matrix(&b.r);
		print_summary(&run, &b.r);
		rc = batch_finish(&run, batch_wants_json(&run) ? cores_result_to_json(&b.r) : NULL);
	}
	cores_result_free(&b.r);
	cores_plan_free(&plan);
	return rc;
}

const struct experiment exp_cores = {
	.name = "cores",
	.summary = "core-to-core latency: a cache line passed between each pair of CPUs, by relation",
	.batch = cores_batch,
	.kind = &kind_cores,
	.options = options,
};
