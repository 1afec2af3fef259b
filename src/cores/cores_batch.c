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
/* --sample's help names them whole (a message the catalogue can match) */
_Static_assert(CORES_SAMPLE_PER_REL == 48 && CORES_SAMPLE_ABOVE == 32, "--sample's help");

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
		       "the SMT pairs; on a big machine up to 48 pairs of each\n"
		       "relation (the default above 32 CPUs)",
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

EXPERIMENT_HELP(18,
	"Usage: memtop run cores [OPTIONS]\n"
	"Core-to-core latency: for each pair of CPUs, two threads pinned one to each\n"
	"pass one cache line back and forth with compare-and-swap; the figure is the\n"
	"one-way time, round trip / 2, the best of several tries. A fresh page for\n"
	"every pair; a try in which a thread moved is thrown away.\n\n");

/* The relations' names as the topology gives them (os/topo_place.c: the
 * result's words, compared and stored as they are), marked here for the
 * catalogue: people read them through rel_said. */
static const char *const rel_words[] = {
	/* TRANSLATORS: how two CPUs are related (the cores table's last column) */
	N_("same CPU"), N_("SMT siblings"), N_("separate cores, same L2"), N_("same L3 group"),
	N_("same NUMA node"), N_("same package"), N_("other socket"), N_("unknown"),
};

/* A relation's name in the user's language (a name it does not know, as
 * it is). */
static const char *rel_said(const char *rel)
{
	(void)rel_words;
	return rel[0] ? _(rel) : rel;
}

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
		mt_hfprintf(stdout, "%5d %5d %11.1f %7.1f %%  %s%s\n", pl->cpus[q->ia], pl->cpus[q->ib],
			    q->ns, 100 * q->spread, rel_said(q->rel),
			    q->moved ? _("  (a thread moved)") : "");
	} else {
		printf("%5d %5d %11s %9s  %s\n", pl->cpus[q->ia], pl->cpus[q->ib], "-", "",
		       rel_said(q->rel));
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
		mt_warn(_("run cores: --all and --sample: choose one"));
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
	(void)m;
	(void)cpu;
	(void)printer;
	if (pl->said[0])
		plan_note(out, "--cpus %s", pl->said);
	plan_add_threads(out, 2, pl->cpus, pl->n);
	for (size_t k = 0; k < pl->npairs; k++)
		plan_add_pair(out, pl->cpus[pl->pairs[k].ia], pl->cpus[pl->pairs[k].ib]);
	plan_say_n(out, "%d CPUs, %zu pair (%s), then %zu again in reverse order",
		   "%d CPUs, %zu pairs (%s), then %zu again in reverse order", pl->npairs, pl->n,
		   pl->npairs, plan_words(out, pl->sampled ? N_("sampled") : N_("every pair")),
		   cores_second_count(pl));
	out->estimate_s = cores_plan_estimate_s(pl);
}

/* The matrix as a table (one-way ns; '-' where not measured). */
static void print_matrix(const struct cores_result *r)
{
	const struct cores_plan *pl = &r->plan;
	char cpu[32];
	if (pl->n > MATRIX_MAX_PRINT) {
		printf(MT_NGETTEXT("\n# the matrix has %d CPU: too wide to print (the JSON holds it)\n",
				   "\n# the matrix has %d CPUs: too wide to print (the JSON holds it)\n",
				   pl->n),
		       pl->n);
		return;
	}
	/* TRANSLATORS: the matrix's title, then the head of its first column (5 columns) */
	printf(_("\n# one-way ns (round trip / 2)\n%s"), mt_text_pad(cpu, sizeof cpu, _("CPU"), 5));
	for (int j = 0; j < pl->n; j++)
		printf(" %6d", pl->cpus[j]);
	printf("\n");
	for (int i = 0; i < pl->n; i++) {
		printf("%5d", pl->cpus[i]);
		for (int j = 0; j < pl->n; j++) {
			double v = cores_result_ns(r, i, j);
			if (isfinite(v))
				mt_hfprintf(stdout, " %6.1f", v);
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
	fprintf(m, MT_NGETTEXT("# %zu pair as fast as hyperthreads of one core, though the topology "
			       "says separate cores:\n",
			       "# %zu pairs as fast as hyperthreads of one core, though the topology "
			       "says separate cores:\n", n),
		n);
	for (size_t k = 0; k < pl->npairs && shown < 8; k++) {
		const struct cores_pair *q = &pl->pairs[k];
		double med = NAN;
		if (!q->smt_like)
			continue;
		for (size_t s = 0; s < r->nsum; s++)
			if (strcmp(r->sum[s].rel, q->rel) == 0)
				med = r->sum[s].ns;
		mt_hfprintf(m, _("#   CPUs %d and %d: %.1f ns (%s: %.1f ns the median)\n"),
			    pl->cpus[q->ia], pl->cpus[q->ib], q->ns, rel_said(q->rel), med);
		shown++;
	}
	if (r->hdr.has_vm && r->hdr.vm.vm == 1 && r->hdr.vm.name[0])
		/* TRANSLATORS: the hypervisor's name */
		fprintf(m, _("# a VM (%s): vCPUs that share one host core behave so; the guest's "
			     "topology does not show it\n"), r->hdr.vm.name);
	else if (r->hdr.has_vm && r->hdr.vm.vm == 1)
		fputs(_("# a VM: vCPUs that share one host core behave so; the guest's topology "
			"does not show it\n"), m);
	else
		fputs(_("# SMT siblings the topology does not name, or a shared cache this close: "
			"check memtop topo\n"), m);
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
		fprintf(m, MT_NGETTEXT("# second pass: %zu pair measured again in reverse order, each "
				       "within its spread: steady\n",
				       "# second pass: %zu pairs measured again in reverse order, each "
				       "within its spread: steady\n", n),
			n);
		return;
	}
	for (size_t k = 0; k < pl->npairs; k++) {
		const struct cores_pair *q = &pl->pairs[k];
		if (!q->unsteady)
			continue;
		/* TRANSLATORS: the count is of the pairs measured again (the second figure) */
		mt_hfprintf(m, MT_NGETTEXT("# second pass: %zu of %zu pair measured again moved by "
					   "more than their spread allows (CPUs %d and %d: %.1f ns, "
					   "then %.1f): %s\n",
					   "# second pass: %zu of %zu pairs measured again moved by "
					   "more than their spread allows (CPUs %d and %d: %.1f ns, "
					   "then %.1f): %s\n", n),
			    moved, n, pl->cpus[q->ia], pl->cpus[q->ib], q->ns, q->ns2,
			    r->hdr.has_vm && r->hdr.vm.vm == 1
				    ? _("the host moves this guest's vCPUs, so the matrix is a snapshot "
					"of where they were")
				    : _("another task or a clock change moved them; measure again on "
					"a quiet machine"));
		return;
	}
}

static void print_relations(const struct batch_run *run, const struct cores_result *r)
{
	fputs(_("# by relation (the median over its pairs, one-way):\n"), run->meta);
	for (size_t k = 0; k < r->nsum; k++) {
		char rel[96];
		mt_text_pad(rel, sizeof rel, rel_said(r->sum[k].rel), -28);
		if (r->sum[k].pairs > 1)
			/* TRANSLATORS: a relation (28 columns), its median, its pairs' count and
			 * range */
			mt_hfprintf(run->meta, MT_NGETTEXT("#   %s %7.1f ns  (%zu pair, %.1f to %.1f)\n",
							   "#   %s %7.1f ns  (%zu pairs, %.1f to %.1f)\n",
							   r->sum[k].pairs),
				    rel, r->sum[k].ns, r->sum[k].pairs, r->sum[k].lo, r->sum[k].hi);
		else
			mt_hfprintf(run->meta, _("#   %s %7.1f ns  (1 pair)\n"), rel, r->sum[k].ns);
	}
	if (r->nsum == 1 && strcmp(r->sum[0].rel, "unknown") == 0)
		fputs(_("# the topology could not tell how these CPUs are related\n"), run->meta);
	print_smt_like(run->meta, r);
	print_second(run->meta, r);
}

/* The lines above the pairs: how it measures, what it pairs. */
static int head(void *printer)
{
	const struct printer *b = printer;
	const struct batch_run *run = b->run;
	const struct cores_plan *pl = b->plan;
	char cpus[64], pairs[64], h[3][64];
	if (b->no_topo)
		fputs(_("# no topology (hwloc could not read this machine): every relation is "
			"unknown\n"), run->meta);
	if (pl->said[0])
		fprintf(run->meta, "# --cpus %s\n", pl->said); /* machine text */
	fprintf(run->meta, _("# cores: %s; one-way ns = round trip / 2\n"),
		pl->p.method == CORES_RW
			? _("two pinned threads each store to their own line and read the other's (rw)")
			: _("one cache line passed between two pinned threads by compare-and-swap"));
	fprintf(run->meta,
		_("# a try is %d samples of %d round trips on a line of its own page, its fastest "
		  "sample; best of %d tries\n"),
		pl->p.samples, pl->p.rounds, pl->p.tries);
	mt_snprintf(cpus, sizeof cpus, MT_NGETTEXT("%d CPU", "%d CPUs", pl->n), pl->n);
	mt_snprintf(pairs, sizeof pairs, MT_NGETTEXT("%zu pair", "%zu pairs", pl->npairs), pl->npairs);
	if (!pl->sampled)
		/* TRANSLATORS: "# 8 CPUs, 28 pairs (every pair), then 28 again in reverse order" */
		fprintf(run->meta, _("# %s, %s (every pair), then %zu again in reverse order\n"), cpus,
			pairs, cores_second_count(pl));
	else if (!pl->bounded)
		fprintf(run->meta, _("# %s, %s (sampled: one CPU a core against one of each group, "
				     "and SMT pairs), then %zu again in reverse order\n"),
			cpus, pairs, cores_second_count(pl));
	else
		fprintf(run->meta, _("# %s, %s (sampled: up to %d pairs of each relation, spread "
				     "over the machine), then %zu again in reverse order\n"),
			cpus, pairs, CORES_SAMPLE_PER_REL, cores_second_count(pl));
	fflush(run->meta);
	if (b->csv)
		printf("a,b,ns,spread,relation,moved,kept\n"); /* machine text */
	else
		/* TRANSLATORS: the pairs' table heads: CPUs a and b, the figure (11 columns),
		 * the spread (9), the relation */
		printf("%5s %5s %s %s  %s\n", "a", "b",
		       mt_text_pad(h[0], sizeof h[0], _("one-way ns"), 11),
		       mt_text_pad(h[1], sizeof h[1], _("spread"), 9), _("relation"));
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
		mt_warn(_("run cores: --cpus and --cpu-kind: give one of them"));
		return -1;
	}
	if (cores_plan_for(&rp->plan, &rp->p, m, rp->list.spec,
			   cli->cpu_coretype && m->topo ? topo_coretype_find(m->topo, cli->cpu_coretype) : -1,
			   rp->sample, &e) == 0)
		return 0;
	if (rp->list.spec && !strstr(e.msg, "out of memory"))
		mt_warn(_("run cores: --cpus: %s, got '%s'"), e.msg, rp->list.spec);
	else
		mt_warn(_("run cores: %s"), e.msg);
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
		mt_warn(_("run cores: %s"), e.msg);
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
	.about = N_("core-to-core latency: a cache line passed between each pair of CPUs, by relation"),
	.note_forms = (const char *const[]){ CORES_SAYS_NO_TRY, NULL },
	EXPERIMENT_PARTS,
	.defaults = defaults,
	.check = check,
	.make_params = make_params,
	.pinned = 0, /* the worker only starts and joins the two threads of each pair */
	EXPERIMENT_JOB(cores_worker), /* on the plan, the params' first field */
	EXPERIMENT_RESULT(r, &kind_cores),
	.release = release,
};
