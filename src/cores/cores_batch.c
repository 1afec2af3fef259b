/* memtop run cores: the core-to-core latency matrix, pair by pair, and its
 * summary by relation. */
#include "config.h"

#include "cores.h"
#include "base/util.h"
#include "machine/plan.h"
#include "os/sysinfo.h"
#include "run/batch.h"
#include "run/experiment.h"
#include "run/job.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The widest matrix printed as a table (more CPUs: the pairs and the
 * summary only; the JSON holds it whole). */
#define MATRIX_MAX_PRINT 64

struct printer {
	EXPERIMENT_PRINTER_HEAD; /* run, csv */
	const struct cores_plan *plan; /* the job's */
	int no_topo;
	struct cores_result r;
};

/* The run's params: the job's arg (the plan) first, then the command
 * line's. */
struct run_params {
	struct cores_plan plan;
	struct cores_params p;
	struct batch_cpus list; /* --cpus (list.spec NULL: not given) */
	int sample;         /* 1 --sample, 0 --all, -1 as the machine's size says */
	int all, samples;   /* --all, --samples N (0: not given) */
	int method;         /* --method: CORES_CAS, CORES_RW; -1 not given */
};

/* The options, with their help and the field each fills: the getopt
 * table, --help and the parse all come from it (run/batch_opts.h). The CPU
 * list is the machine's to check (cores_plan_for). */
#define RP struct run_params
static const struct batch_option options[] = {
	BATCH_OPT_CPUS("cpus", 'c', "LIST",
		       "the CPUs to pair, such as 0-3,8, or domains: S0 a package,\n"
		       "N1 a node's CPUs, L3:0, C one CPU a core, P or E, S0:0-7\n"
		       "its first eight (default: every CPU this process may run\n"
		       "on; see taskset(1))",
		       RP, list),
	BATCH_OPT_FLAG("sample", 'S',
		       "one CPU of each core against one of each L3 group, and\n"
		       "the SMT pairs; on a big machine up to " MT_XSTR(CORES_SAMPLE_PER_REL)
		       " pairs of each\n"
		       "relation (the default above " MT_XSTR(CORES_SAMPLE_ABOVE) " CPUs)",
		       RP, sample),
	BATCH_OPT_FLAG("all", 'A', "every pair, however many CPUs", RP, all),
	BATCH_HELP_CPU_KIND,
	BATCH_HELP_TRIES("best of N tries a pair (default 5)"),
	BATCH_OPT_INT("samples", 's', "N",
		      "samples of 100 round trips a try, the fastest kept\n"
		      "(default 100)",
		      RP, samples, 1, 100000),
	BATCH_OPT_CHOICE("method", 'm', "M",
			 "cas: both threads compare-and-swap one line (default; as\n"
			 "c2clat -w); rw: each stores to its own line and reads the\n"
			 "other's (as c2clat's default): a store and a miss a leg",
			 RP, method, "cas", "rw"), /* CORES_CAS, CORES_RW */
	BATCH_HELP_COMMON("small run for tests: 2 tries of 20 samples",
			  "print CSV, one row a pair (the rest goes to stderr)"),
	BATCH_END,
};
#undef RP

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
	if (!cores_result_apply(&b->r, ev) || ev->subtype == 1) /* the second pass: the summary's */
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

/* The defaults, before the options: the sampling as the machine's size
 * says, no CPU list. */
static void defaults(void *params)
{
	struct run_params *rp = params;
	rp->sample = -1;
	rp->list.spec = NULL;
	rp->method = -1;
	rp->all = rp->samples = 0;
}

/* After the options: p, the CPU list and the sampling. Returns 0, or -1
 * (said in one line). */
static int check(struct batch_cli *cli, void *params)
{
	struct run_params *rp = params;
	struct cores_params *p = &rp->p;
	if (rp->all && rp->sample == 1) {
		mt_warn("run cores: --all and --sample: choose one");
		return -1;
	}
	cores_params_default(p, cli->quick);
	if (cli->tries)
		p->tries = cli->tries;
	if (rp->samples)
		p->samples = rp->samples;
	if (rp->method >= 0)
		p->method = rp->method;
	if (rp->all)
		rp->sample = 0;
	return 0;
}

/* The plan as machine/plan.h shows it: the CPUs, the pairs, the time. */
static void describe(const struct machine *m, int cpu, const void *params, const void *printer,
		     struct plan *out)
{
	const struct cores_plan *pl = params; /* the params' first field */
	(void)cpu;
	(void)printer;
	plan_init(out, "cores", m);
	if (pl->said[0])
		plan_note(out, "--cpus %s", pl->said);
	plan_add_threads(out, 2, pl->cpus, pl->n);
	for (size_t k = 0; k < pl->npairs; k++)
		plan_add_pair(out, pl->cpus[pl->pairs[k].ia], pl->cpus[pl->pairs[k].ib]);
	plan_note(out, "%d CPUs, %zu pair%s (%s), then %zu again in reverse order", pl->n,
		  pl->npairs, pl->npairs == 1 ? "" : "s", pl->sampled ? "sampled" : "every pair",
		  cores_second_count(pl));
	out->estimate_s = cores_plan_estimate_s(pl);
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

/* The pairs that behave as SMT siblings though the topology says
 * otherwise: each (at most 8), and what that means on a VM. */
static void print_smt_like(FILE *m, const struct cores_result *r)
{
	const struct cores_plan *pl = &r->plan;
	size_t n = cores_result_count(r, CORES_COUNT_SMT_LIKE), shown = 0;
	if (!n)
		return;
	fprintf(m, "# %zu pair%s as fast as hyperthreads of one core, though the topology says "
		   "separate cores:\n", n, n == 1 ? "" : "s");
	for (size_t k = 0; k < pl->npairs && shown < 8; k++) {
		const struct cores_pair *q = &pl->pairs[k];
		double med = NAN;
		if (!q->smt_like)
			continue;
		for (size_t s = 0; s < r->nsum; s++)
			if (strcmp(r->sum[s].rel, q->rel) == 0)
				med = r->sum[s].ns;
		fprintf(m, "#   CPUs %d and %d: %.1f ns (%s: %.1f ns the median)\n", pl->cpus[q->ia],
			pl->cpus[q->ib], q->ns, q->rel, med);
		shown++;
	}
	if (r->hdr.has_vm && r->hdr.vm.vm == 1)
		fprintf(m, "# a VM%s%s%s: vCPUs that share one host core behave so; the guest's "
			   "topology does not show it\n", r->hdr.vm.name[0] ? " (" : "",
			r->hdr.vm.name, r->hdr.vm.name[0] ? ")" : "");
	else
		fprintf(m, "# SMT siblings the topology does not name, or a shared cache this "
			   "close: check memtop topo\n");
}

/* The second pass: how many pairs moved between the passes, and what it
 * says of the matrix. */
static void print_second(FILE *m, const struct cores_result *r)
{
	const struct cores_plan *pl = &r->plan;
	size_t n = cores_result_count(r, CORES_COUNT_SECOND);
	size_t moved = cores_result_count(r, CORES_COUNT_UNSTEADY);
	if (!n)
		return;
	if (!moved) {
		fprintf(m, "# second pass: %zu pair%s measured again in reverse order, each within "
			   "its spread: steady\n", n, n == 1 ? "" : "s");
		return;
	}
	for (size_t k = 0; k < pl->npairs; k++) {
		const struct cores_pair *q = &pl->pairs[k];
		if (!q->unsteady)
			continue;
		fprintf(m, "# second pass: %zu of %zu pairs measured again moved by more than their "
			   "spread allows (CPUs %d and %d: %.1f ns, then %.1f): %s\n", moved, n,
			pl->cpus[q->ia], pl->cpus[q->ib], q->ns, q->ns2,
			r->hdr.has_vm && r->hdr.vm.vm == 1
				? "the host moves this guest's vCPUs, so the matrix is a snapshot of "
				  "where they were"
				: "another task or a clock change moved them; measure again on a "
				  "quiet machine");
		return;
	}
}

static void print_relations(const struct batch_run *run, const struct cores_result *r)
{
	fprintf(run->meta, "# by relation (the median over its pairs, one-way):\n");
	for (size_t k = 0; k < r->nsum; k++)
		if (r->sum[k].pairs > 1)
			fprintf(run->meta, "#   %-28s %7.1f ns  (%zu pairs, %.1f to %.1f)\n",
				r->sum[k].rel, r->sum[k].ns, r->sum[k].pairs, r->sum[k].lo,
				r->sum[k].hi);
		else
			fprintf(run->meta, "#   %-28s %7.1f ns  (1 pair)\n", r->sum[k].rel,
				r->sum[k].ns);
	if (r->nsum == 1 && strcmp(r->sum[0].rel, "unknown") == 0)
		fprintf(run->meta, "# the topology could not tell how these CPUs are related\n");
	print_smt_like(run->meta, r);
	print_second(run->meta, r);
}

/* The lines above the pairs: how it measures, what it pairs. */
static int head(void *printer)
{
	const struct printer *b = printer;
	const struct batch_run *run = b->run;
	const struct cores_plan *pl = b->plan;
	if (b->no_topo)
		fprintf(run->meta, "# no topology (hwloc could not read this machine): every "
				   "relation is unknown\n");
	if (pl->said[0])
		fprintf(run->meta, "# --cpus %s\n", pl->said);
	fprintf(run->meta, "# cores: %s; one-way ns = round trip / 2\n",
		pl->p.method == CORES_RW
			? "two pinned threads each store to their own line and read the other's (rw)"
			: "one cache line passed between two pinned threads by compare-and-swap");
	fprintf(run->meta,
		"# a try is %d samples of %d round trips on a line of its own page, its fastest "
		"sample; best of %d tries\n"
		"# %d CPUs, %zu pair%s (%s), then %zu again in reverse order\n",
		pl->p.samples, pl->p.rounds, pl->p.tries, pl->n, pl->npairs, pl->npairs == 1 ? "" : "s",
		!pl->sampled ? "every pair"
		: !pl->bounded ? "sampled: one CPU a core against one of each group, and SMT pairs"
			       : "sampled: up to " MT_XSTR(CORES_SAMPLE_PER_REL) " pairs of each "
				 "relation, spread over the machine",
		cores_second_count(pl));
	fflush(run->meta);
	if (b->csv)
		printf("a,b,ns,spread,relation,moved,kept\n");
	else
		printf("%5s %5s %11s %9s  %s\n", "a", "b", "one-way ns", "spread", "relation");
	fflush(stdout);
	return 0;
}

/* The pairs of the plan for machine m. Returns 0, or -1 (said). */
static int make_params(struct batch_cli *cli, const struct machine *m, void *params,
		       void *printer)
{
	struct run_params *rp = params;
	mt_error e;
	(void)printer;
	cli->threads = 2; /* a pair pings and pongs */
	if (rp->list.spec && cli->cpu_coretype) {
		mt_warn("run cores: --cpus and --cpu-kind: give one of them");
		return -1;
	}
	if (cores_plan_for(&rp->plan, &rp->p, m, rp->list.spec,
			   cli->cpu_coretype && m->topo ? topo_coretype_find(m->topo, cli->cpu_coretype) : -1,
			   rp->sample, &e) == 0)
		return 0;
	if (rp->list.spec && !strstr(e.msg, "out of memory"))
		mt_warn("run cores: --cpus: %s, got '%s'", e.msg, rp->list.spec);
	else
		mt_warn("run cores: %s", e.msg);
	if (strstr(e.msg, "out of memory"))
		cli->rc = MT_EXIT_RUNTIME;
	return -1;
}

/* The printer with its result for the plan's pairs. Returns 0, or -1
 * (said: out of memory). */
static int start(struct batch_cli *cli, const struct machine *m, void *params, void *printer)
{
	struct run_params *rp = params;
	struct printer *b = printer;
	mt_error e;
	if (cores_result_init(&b->r, &rp->plan, &e) < 0) {
		mt_warn("run cores: %s", e.msg);
		cli->rc = MT_EXIT_RUNTIME;
		return -1;
	}
	b->plan = &rp->plan;
	b->no_topo = !m->topo;
	return 0;
}

/* Below the pairs: the matrix (not with --csv), the relations. */
static int summary(void *printer)
{
	const struct printer *b = printer;
	if (!b->csv)
		print_matrix(&b->r);
	print_relations(b->run, &b->r);
	return 0;
}

/* The result's memory and the plan's pairs. */
static void release(void *printer, void *params)
{
	cores_result_free(&((struct printer *)printer)->r);
	cores_plan_free(&((struct run_params *)params)->plan);
}

const struct experiment exp_cores = {
	.name = "cores",
	.about = "core-to-core latency: a cache line passed between each pair of CPUs, by relation",
	.options = options,
	.help = &help,
	.params_size = sizeof(struct run_params),
	.printer_size = sizeof(struct printer),
	.defaults = defaults,
	.check = check,
	.make_params = make_params,
	.describe = describe,
	.start = start,
	.pinned = 0, /* the worker only starts and joins the two threads of each pair */
	.head = head,
	.worker = cores_worker, /* on the plan, the params' first field */
	.on_event = on_event,
	.result_at = offsetof(struct printer, r),
	.summary = summary,
	.kind = &kind_cores,
	.release = release,
};
