/* memtop run falseshare: threads x layout (packed / padded) -> ms, the
 * packed/padded ratio, and the spacing sweep at two threads. */
#include "config.h"

#include "machine/plan.h"
#include "run/batch.h"
#include "run/experiment.h"
#include "falseshare.h"
#include "base/i18n.h"
#include "base/jsonio.h"
#include "base/util.h"
#include "os/sysinfo.h"
#include "run/job.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The table on stdout, a row as both layouts of a thread count are in. */
struct printer {
	EXPERIMENT_PRINTER_HEAD; /* run, csv */
	const struct falseshare_params *p;
	struct falseshare_result r; /* the store the TUI tab shares */
	int sweep_head, ncpus;
};

/* The run's params: the job's arg first, then the options as given. */
struct run_params {
	struct falseshare_params p;
	const char *threads, *spacings; /* --threads, --spacings, or NULL */
	uint64_t rounds, padding;       /* --rounds, --padding; 0: not given */
	int no_sweep;                   /* --no-sweep */
};

/* --padding BYTES: a multiple of 8 in 8..FALSESHARE_MAX_SPACING. */
static int parse_padding(const char *exp, const char *arg, void *params)
{
	struct run_params *rp = params;
	char what[200];
	if (mt_parse_u64(arg, 8, FALSESHARE_MAX_SPACING, &rp->padding) < 0 || rp->padding % 8) {
		mt_snprintf(what, sizeof what, _("a multiple of 8 in 8..%d"),
			    FALSESHARE_MAX_SPACING);
		return batch_bad(exp, "--padding", arg, what);
	}
	return 0;
}

/* The options, with their help and the field each fills: the getopt
 * table, --help and the parse all come from it (run/batch_opts.h). */
#define RP struct run_params
static const struct batch_option options[] = {
	BATCH_OPT_STRING("threads", 'T', "LIST",
			 "thread counts (default 1,2,4,8; more than the CPUs is allowed)", RP,
			 threads),
	BATCH_OPT_U64("rounds", 'r', "N",
		      "atomic adds a thread (default 20000000; the seed: 50000000)", RP, rounds,
		      1, 10000000000ull),
	BATCH_HELP_TRIES("best of N (default 3)"),
	BATCH_OPT_CALL("padding", 'p', "BYTES",
		       "spacing of the padded layout (default 128: two 64-byte lines,\n"
		       "so an adjacent-line prefetcher cannot pair them)",
		       parse_padding),
	BATCH_OPT_STRING("spacings", 's', "LIST",
			 "spacings of the sweep in bytes (default 8,16,32,64,128,256)", RP,
			 spacings),
	BATCH_OPT_FLAG("no-sweep", 'N', N_("skip the sweep"), RP, no_sweep),
	BATCH_HELP_COMMON(N_("small run for tests: threads 1,2, 200000 atomic adds a thread, 1 "
			     "try,\nspacings 8,128"),
			  N_("print CSV, one row a cell (the rest goes to stderr)")),
	BATCH_END,
};
#undef RP

EXPERIMENT_HELP_TAIL(19,
	N_("Usage: memtop run falseshare [OPTIONS]\n"
	   "False sharing: T threads, each adding 1 to its own counter with atomic adds;\n"
	   "counters packed 8 bytes apart or padded to separate lines; then a spacing\n"
	   "sweep at two threads that shows where the sharing stops.\n"
	   "\n"),
	N_("\nThe counting threads are pinned round-robin over the CPUs this process may\n"
	   "use (see taskset(1)); there is no --cpu.\n"));

static void on_event(const struct job_event *ev, void *ctx)
{
	struct printer *b = ctx;
	const struct falseshare_cell *c;
	int kind;
	kind = falseshare_result_apply(&b->r, ev);
	if (!kind)
		return;
	c = kind == FALSESHARE_CELL_TABLE ? &b->r.tab[ev->row][ev->col] : &b->r.swp[ev->row];
	if (b->csv) {
		printf("%s,%u,%s,%u,%.3f,%.4f,%.3f,%d,%d\n",
		       kind == FALSESHARE_CELL_TABLE ? "table" : "sweep", c->threads,
		       kind == FALSESHARE_CELL_SWEEP ? "" : ev->col ? "padded" : "packed", c->spacing,
		       c->ms, c->spread, c->ns_inc, c->over, c->exact);
		return;
	}
	if (kind == FALSESHARE_CELL_TABLE) {
		const struct falseshare_cell *pk = &b->r.tab[ev->row][0], *pd = &b->r.tab[ev->row][1];
		if (!pk->have || !pd->have)
			return;
		char over[64];
		/* TRANSLATORS: after a thread count: more threads than CPUs; 13 columns */
		mt_text_pad(over, sizeof over, pk->over ? _(" (> CPUs)") : "", -13);
		mt_hfprintf(stdout, _("%7u%s %10.1f %10.1f %7.2fx %9.2f %9.2f%s\n"), pk->threads,
			    over,
			    pk->ms, pd->ms, pd->ms > 0 ? pk->ms / pd->ms : 0, pk->ns_inc,
			    pd->ns_inc, pk->exact && pd->exact ? "" : _("  SUM WRONG"));
	} else {
		double base = b->r.swp[0].have ? b->r.swp[0].ms : c->ms;
		int bar = base > 0 ? (int)lround(30.0 * c->ms / base) : 0;
		char bars[41];
		if (bar > 40)
			bar = 40;
		if (bar < 0)
			bar = 0;
		memset(bars, '#', (size_t)bar);
		bars[bar] = '\0';
		if (!b->sweep_head) {
			char h1[64], h2[64], h3[64];
			printf(MT_NGETTEXT(
				       "\n# sweep: %u threads, counters SPACING bytes apart, the "
				       "first at a page start\n",
				       "\n# sweep: %u threads, counters SPACING bytes apart, the "
				       "first at a page start\n",
				       c->threads),
			       c->threads);
			/* TRANSLATORS: the sweep's heads: 7, 10 and 9 columns at most */
			printf("%s %s %s  %s\n", mt_text_pad(h1, sizeof h1, _("spacing"), 7),
			       mt_text_pad(h2, sizeof h2, _("ms"), 10),
			       mt_text_pad(h3, sizeof h3, _("ns/inc"), 9),
			       _("(bar: ms against spacing 8)"));
			b->sweep_head = 1;
		}
		mt_hfprintf(stdout, "%7u %10.1f %9.2f  %s%s\n", c->spacing, c->ms, c->ns_inc, bars,
			    c->exact ? "" : _("  SUM WRONG"));
	}
}

static int parse_list(const char *arg, uint64_t lo, uint64_t hi, unsigned *out, size_t *n)
{
	uint64_t v[FALSESHARE_MAX_LIST];
	int k = mt_parse_u64_list(arg, lo, hi, v, FALSESHARE_MAX_LIST);
	if (k <= 0)
		return -1;
	for (int i = 0; i < k; i++)
		out[i] = (unsigned)v[i];
	*n = (size_t)k;
	return 0;
}

/* p as a plan: each thread count with the CPUs its threads take. */
static void describe(const struct machine *m, int cpu, const void *params, const void *printer,
		     struct plan *out)
{
	const struct falseshare_params *p = params;
	int cpus[FALSESHARE_MAX_T];
	(void)m;
	(void)cpu;
	(void)printer;
	for (size_t i = 0; i < p->nthreads; i++) {
		int n = (int)p->threads[i], k = p->ncpus > 0 && n > p->ncpus ? p->ncpus : n;
		for (int t = 0; t < k && p->ncpus > 0; t++)
			cpus[t] = p->cpus[t % p->ncpus];
		plan_add_threads(out, n, cpus, p->ncpus > 0 ? k : 0);
		if (p->ncpus > 0 && n > p->ncpus)
			plan_say_n(out, "%d thread on %d CPUs: oversubscribed",
				   "%d threads on %d CPUs: oversubscribed", (unsigned long)n, n,
				   p->ncpus);
	}
	plan_say(out,
		 N_("counters: packed %u bytes apart, padded %u; %llu atomic adds a thread, best of "
		    "%d"),
		 p->packed, p->padded, (unsigned long long)p->rounds, p->tries);
}

/* The CPUs of machine m the threads take, and the most threads at once.
 * Returns 0. */
static int make_params(struct batch_cli *cli, const struct machine *m, void *params,
		       void *printer)
{
	struct falseshare_params *p = params;
	(void)printer;
	p->ncpus = m->nallowed < FALSESHARE_MAX_CPUS ? m->nallowed : FALSESHARE_MAX_CPUS;
	memcpy(p->cpus, m->allowed, (size_t)p->ncpus * sizeof *p->cpus);
	for (size_t i = 0; i < p->nthreads; i++) /* the job's CPU quota is set against it */
		if ((int)p->threads[i] > cli->threads)
			cli->threads = (int)p->threads[i];
	return 0;
}

/* The options given into p, over --quick's values: the two lists (bad:
 * said, -1), then the rest. Returns 0 or -1. */
static int apply_args(struct batch_cli *cli, const struct run_params *rp,
		      struct falseshare_params *p)
{
	char what[200];
	if (cli->quick) { /* the options given explicitly win */
		static const unsigned qt[] = { 1, 2 }, qs[] = { 8, 128 };
		memcpy(p->threads, qt, sizeof qt);
		p->nthreads = MT_ARRAY_LEN(qt);
		memcpy(p->sweep, qs, sizeof qs);
		p->nsweep = MT_ARRAY_LEN(qs);
		p->rounds = 200000;
		p->tries = 1;
	}
	if (rp->threads &&
	    parse_list(rp->threads, 1, FALSESHARE_MAX_T, p->threads, &p->nthreads) < 0) {
		mt_snprintf(what, sizeof what, _("numbers 1..%d separated by commas"),
			    FALSESHARE_MAX_T);
		return batch_bad(cli->exp, "--threads", rp->threads, what);
	}
	if (rp->spacings) {
		int bad = parse_list(rp->spacings, 8, FALSESHARE_MAX_SPACING, p->sweep, &p->nsweep) < 0;
		for (size_t i = 0; !bad && i < p->nsweep; i++)
			bad = p->sweep[i] % 8 != 0;
		if (bad) {
			mt_snprintf(what, sizeof what,
				    _("multiples of 8 in 8..%d separated by commas"),
				    FALSESHARE_MAX_SPACING);
			return batch_bad(cli->exp, "--spacings", rp->spacings, what);
		}
	}
	if (rp->rounds)
		p->rounds = rp->rounds;
	if (cli->tries)
		p->tries = cli->tries;
	if (rp->padding)
		p->padded = (unsigned)rp->padding;
	if (rp->no_sweep)
		p->nsweep = 0;
	return 0;
}

/* The defaults, before the options (the options that are not the
 * params' as not given). */
static void defaults(void *params)
{
	struct run_params *rp = params;
	falseshare_params_default(&rp->p, NULL);
	rp->threads = rp->spacings = NULL;
	rp->rounds = rp->padding = 0;
	rp->no_sweep = 0;
}

/* After the options: them into the params, --quick under the ones given
 * (apply_args). Returns 0, or -1 (said in one line). */
static int check(struct batch_cli *cli, void *params)
{
	struct run_params *rp = params;
	return apply_args(cli, rp, &rp->p);
}

/* The printer for params, its result empty. Returns 0. */
static int start(struct batch_cli *cli, const struct machine *m, void *params, void *printer)
{
	struct printer *b = printer;
	const struct falseshare_params *p = params;
	(void)cli;
	(void)m;
	b->p = p;
	b->ncpus = p->ncpus;
	falseshare_result_init(&b->r, p);
	return 0;
}

/* The lines above the table and its head. */
static int head(void *printer)
{
	const struct printer *b = printer;
	/* TRANSLATORS: the atomic adds, the tries, the CPUs (the plural follows
	 * the CPUs) */
	fprintf(b->run->meta,
		MT_NGETTEXT("# falseshare: %llu atomic adds a thread, best of %d; threads pinned "
			    "round-robin over %d CPU\n",
			    "# falseshare: %llu atomic adds a thread, best of %d; threads pinned "
			    "round-robin over %d CPUs\n",
			    b->ncpus),
		(unsigned long long)b->p->rounds, b->p->tries, b->ncpus);
	fprintf(b->run->meta, _("# packed: counters %u bytes apart; padded: %u bytes apart\n"),
		b->p->packed, b->p->padded);
	if (b->csv) {
		/* machine text: CSV */
		printf("kind,threads,layout,spacing,ms,spread,ns_per_increment,oversubscribed,"
		       "exact\n");
	} else {
		/* TRANSLATORS: the table's heads: 20, 10, 10, 8, 9 and 9 columns at most */
		static const char *const h[] = { N_("threads"), N_("packed ms"), N_("padded ms"),
						 N_("ratio"),	N_("ns/inc pk"), N_("ns/inc pd") };
		static const int w[] = { -20, 10, 10, 8, 9, 9 };
		char buf[64];
		for (size_t i = 0; i < MT_ARRAY_LEN(h); i++)
			printf("%s%s", i ? " " : "", mt_text_pad(buf, sizeof buf, _(h[i]), w[i]));
		printf("\n");
	}
	return 0;
}

/* Where the sweep says the sharing stops (falseshare_sweep_verdict). */
static int summary(void *printer)
{
	const struct printer *b = printer;
	char line[512];
	if (falseshare_sweep_verdict(&b->r, line, sizeof line))
		fprintf(b->run->meta, "# %s\n", line);
	return 0;
}

/* A sum that came out wrong fails the run (exit 1), said in one line. */
static int verdict(const void *printer)
{
	const struct printer *b = printer;
	if (!b->r.inexact)
		return MT_EXIT_OK;
	mt_warn("%s", _("run falseshare: the counters did not sum to threads x rounds"));
	return MT_EXIT_RUNTIME;
}

const struct experiment exp_falseshare = {
	.name = "falseshare",
	.about = N_("false sharing: threads x packed/padded counters, spacing sweep (seed 003)"),

	EXPERIMENT_PARTS,
	.defaults = defaults,
	.check = check,
	.make_params = make_params,
	.pinned = 0, /* the worker only starts and joins the counting threads (no --cpu) */
	EXPERIMENT_JOB(falseshare_worker),
	EXPERIMENT_RESULT(r, &kind_falseshare),
	.verdict = verdict,
};
