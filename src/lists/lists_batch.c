/* memtop run lists: the list layouts walked (cycles per cell), new lines per
 * cell for 64- and 128-byte lines, simulator misses per cell; or --graph:
 * the graph homework, naive against blocked. */
#include "config.h"

#include "base/i18n.h"
#include "base/jsonio.h"
#include "os/clock.h"
#include "run/batch.h"
#include "run/experiment.h"
#include "run/job.h"
#include "lists.h"
#include "base/util.h"
#include "machine/plan.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The table on stdout, a row as each walk is measured. */
struct printer {
	EXPERIMENT_PRINTER_HEAD; /* run, csv */
	const struct lists_params *p;
	struct lists_result r; /* the store the TUI tab shares (src/lists.h) */
};

static void on_event(const struct job_event *ev, void *ctx)
{
	struct printer *b = ctx;
	const struct lists_cell_result *r;
	int kind;
	kind = lists_result_apply(&b->r, ev);
	if (kind == LISTS_CELL_WORK) {
		/* TRANSLATORS: a fraction of cycles (genitive singular: такта), then the
		 * count of multiply-adds */
		mt_hfprintf(b->run->meta,
			    MT_NGETTEXT("# work alone: %.1f cycles per cell (%u multiply-add)\n",
					"# work alone: %.1f cycles per cell (%u multiply-adds)\n",
					b->p->work),
			    ev->value, b->p->work);
		return;
	}
	if (kind == LISTS_CELL_GRAPH) {
		double blocked = b->r.blocked_ms;
		if (b->csv) {
			/* machine text: CSV */
			printf("%zu,%zu,%.3f,%.3f,%.4f,%d\n", b->p->graph_n, b->p->graph_block,
			       ev->value, blocked, blocked > 0 ? ev->value / blocked : 0,
			       b->r.graph_same);
			return;
		}
		{
			char l1[96], l2[96];
			mt_text_pad(l1, sizeof l1, _("naive (G[j][i] |= G[i][j])"), -28);
			mt_text_pad(l2, sizeof l2, _("blocked upper half"), -28);
			mt_hfprintf(stdout, "%s %10.1f\n%s %10.1f\n", l1, ev->value, l2, blocked);
			mt_hfprintf(stdout,
				    b->r.graph_same
					    ? _("# blocked is %.2fx faster; same result: yes\n")
					    : _("# blocked is %.2fx faster; same result: NO\n"),
				    blocked > 0 ? ev->value / blocked : 0);
		}
		return;
	}
	if (kind != LISTS_CELL_RESULT)
		return;
	r = &b->r.c[ev->row][ev->col];
	if (b->csv) {
		/* machine text: CSV */
		printf("%zu,%s,%.3f,%.4f,%.4f,%.4f,%.4f,", b->p->lengths[ev->row],
		       list_layout_name(ev->col), r->cyc, r->ns, r->spread, r->l64, r->l128);
		if (isfinite(r->sim))
			printf("%.4f", r->sim);
		printf(",");
		if (b->p->work)
			printf("%.3f", r->bare);
		printf("\n");
		return;
	}
	mt_hfprintf(stdout, _("%9zu  %-10s %9.1f %8.2f %6.1f%% %8.3f %8.3f"),
		    b->p->lengths[ev->row],
		    list_layout_name(ev->col), r->cyc, r->ns, r->spread * 100, r->l64, r->l128);
	if (isfinite(r->sim))
		mt_hfprintf(stdout, " %9.3f", r->sim);
	else
		printf(" %9s", "-");
	if (b->p->work)
		mt_hfprintf(stdout, " %8.1f %8.1f", r->bare, r->bare + b->r.work_cyc - r->cyc);
	printf("\n");
}

static int parse_lengths(const char *arg, struct lists_params *p)
{
	char buf[512], *save = NULL, *tok;
	size_t k = 0;
	if (mt_strlcpy(buf, arg, sizeof buf) < 0)
		return -1;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;
		if (k == LISTS_MAX_LENGTHS || mt_parse_size(tok, &v) < 0 || v < 1 ||
		    v > LISTS_MAX_CELLS)
			return -1;
		p->lengths[k++] = (size_t)v;
	}
	if (k == 0)
		return -1;
	p->nlengths = k;
	return 0;
}

static int parse_layouts(const char *arg, unsigned *mask)
{
	char buf[256], *save = NULL, *tok;
	*mask = 0;
	if (mt_strlcpy(buf, arg, sizeof buf) < 0)
		return -1;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int l = list_layout_parse(tok);
		if (l < 0)
			return -1;
		*mask |= 1u << l;
	}
	return *mask ? 0 : -1;
}

static void print_pivot(const struct printer *b)
{
	const struct lists_params *p = b->p;
	FILE *f = b->run->meta;
	char head[64];
	fputs(_("\n# cycles per cell (the seed's table)\n"), f);
	/* TRANSLATORS: a column's head, 9 columns at most */
	fputs(mt_text_pad(head, sizeof head, _("cells"), 9), f);
	for (int l = 0; l < LIST_NLAYOUTS; l++)
		if (p->layouts & (1u << l))
			fprintf(f, " %10s", list_layout_name(l));
	fprintf(f, "\n");
	for (size_t i = 0; i < p->nlengths; i++) {
		fprintf(f, "%9zu", p->lengths[i]);
		for (int l = 0; l < LIST_NLAYOUTS; l++) {
			if (!(p->layouts & (1u << l)))
				continue;
			if (b->r.c[i][l].have)
				mt_hfprintf(f, " %10.1f", b->r.c[i][l].cyc);
			else
				fprintf(f, " %10s", "-");
		}
		fprintf(f, "\n");
	}
}

/* "+32..64", "-64K..128K": the bytes a bin's distances span in magnitude. */
static const char *bin_label(int bin, char *buf, size_t len)
{
	int64_t lo, hi;
	char a[32], b[32];
	lists_hist_bounds(bin, &lo, &hi);
	if (lo < 0) {
		int64_t t = -hi;
		hi = -lo;
		lo = t;
	}
	mt_snprintf(buf, len, "%c%s..%s", bin < LISTS_HIST_POW ? '-' : '+',
		    mt_fmt_size(a, sizeof a, (uint64_t)lo), mt_fmt_size(b, sizeof b, (uint64_t)hi));
	return buf;
}

/* The neighbour distances of the malloc and holes lists at the largest
 * length each was measured at (the lesson: "соседи отстоят чаще всего на
 * плюс-минус 64 КБ" with Zig's smp_allocator). */
static void print_neighbours(const struct printer *b)
{
	FILE *f = b->run->meta;
	for (int slot = 0; slot < 2; slot++) {
		int lay = slot ? LIST_HOLES : LIST_MALLOC, row = -1;
		const struct lists_hist *h;
		char lab[48];
		for (size_t i = 0; i < b->r.nlengths; i++)
			if (b->r.hist[i][slot].have)
				row = (int)i;
		if (row < 0)
			continue;
		h = &b->r.hist[row][slot];
		/* TRANSLATORS: the layout's name (malloc, holes), the cells */
		fprintf(f,
			MT_NGETTEXT("\n# %s list at %zu cells: distance to the next cell (|d| "
				    "from..to bytes)\n",
				    "\n# %s list at %zu cells: distance to the next cell (|d| "
				    "from..to bytes)\n",
				    b->r.lengths[row]),
			list_layout_name(lay), b->r.lengths[row]);
		/* TRANSLATORS: the distance, how many neighbours of the first N, the share */
		mt_hfprintf(
			f,
			MT_NGETTEXT("# most often %+lld bytes: %llu of the first %llu neighbours "
				    "(%.1f %%)\n",
				    "# most often %+lld bytes: %llu of the first %llu neighbours "
				    "(%.1f %%)\n",
				    h->sampled),
			(long long)h->mode, (unsigned long long)h->mode_count,
			(unsigned long long)h->sampled,
			h->sampled ? 100.0 * (double)h->mode_count / (double)h->sampled : 0);
		for (int k = 0; k < LISTS_HIST_BINS && h->total; k++) {
			int bin = k < LISTS_HIST_POW ? LISTS_HIST_POW - 1 - k : k; /* -big .. +big */
			double share = (double)h->count[bin] / (double)h->total;
			if (!h->count[bin])
				continue;
			mt_hfprintf(f, "# %14s %5.1f %% ", bin_label(bin, lab, sizeof lab),
				    100 * share);
			for (int c = 0; c < (int)(share * 40 + 0.5); c++)
				fputc('#', f);
			fprintf(f, "\n");
		}
	}
}

/* --quick: 4096 and 16384 cells, one try, graph side 256. */
static void quick_params(struct lists_params *p)
{
	p->lengths[0] = 4096;
	p->lengths[1] = 16384;
	p->nlengths = 2;
	p->tries = 1;
	p->graph_n = 256;
}

/* Before measuring: the simulated cache exists, the trace folder is there
 * (made when missing) and can be written (usage errors, not failed runs). Returns 0, or -1 said in one
 * line. */
static int check_outputs(const struct lists_params *p)
{
	mt_error e = { "" };
	if (p->sim_s >= 0) {
		struct sim_cache *c = sim_new(p->sim_s, p->sim_E, p->sim_b, &e);
		if (!c) {
			mt_warn(_("run lists: --sim-cache: %s"), e.msg);
			return -1;
		}
		sim_free(c);
	}
	/* the folder last, once the rest is known good: made as mkdir -p would */
	if (p->trace_dir && mt_mkdir_p(p->trace_dir, &e) < 0) {
		mt_warn(_("run lists: --trace-out: %s"), e.msg);
		return -1;
	}
	return 0;
}

/* p as a plan: the worker, each length's cells as a working set (16-byte
 * cells laid out one after the other; the stride layout takes a line a
 * cell) with where it sits for the worker's CPU. */
static void describe(const struct machine *m, int cpu, const void *params, const void *printer,
		     struct plan *out)
{
	const struct lists_params *p = params;
	char where[16], why[160];
	(void)printer;
	out->worker_cpu = cpu;
	if (cpu >= 0)
		plan_add_threads(out, 1, &cpu, 1);
	for (size_t i = 0; i < p->nlengths && !p->graph; i++) {
		uint64_t bytes = (uint64_t)p->lengths[i] * 16;
		mt_snprintf(why, sizeof why,
			    plan_words_n(out,
					 "%zu cell of 16 bytes (the stride layout: a line a cell, "
					 "4 to 8 x more)",
					 "%zu cells of 16 bytes (the stride layout: a line a cell, "
					 "4 to 8 x more)",
					 p->lengths[i]),
			    p->lengths[i]);
		plan_add_size(out, cpu >= 0 ? machine_level_name(m, bytes, &cpu, 1, where, sizeof where)
					    : "",
			      bytes, 1, 0, why);
	}
	if (p->graph)
		plan_add_size(out, "", (uint64_t)p->graph_n * p->graph_n, 1, 0,
			      plan_words(out, N_("the graph homework's N x N bytes")));
}

/* The memory's limit on machine m: half of what a run may take. Returns
 * 0. */
static int make_params(struct batch_cli *cli, const struct machine *m, void *params,
		       void *printer)
{
	struct lists_params *p = params;
	struct machine_budget budget;
	(void)cli;
	(void)printer;
	machine_mem_budget(m, &budget);
	p->mem_limit = budget.bytes / 2;
	return 0;
}

/* After the options: --quick's values under the ones given explicitly
 * (lengths, tries and graph_n when set), then the outputs checked. Returns
 * 0, or -1 (said in one line). */
static int finish_args(struct batch_cli *cli, struct lists_params *p, const char *lengths,
		       uint64_t graph_n)
{
	if (cli->quick) /* the options given explicitly win */
		quick_params(p);
	if (lengths && parse_lengths(lengths, p) < 0) {
		char what[160];
		mt_snprintf(what, sizeof what,
			    _("cell counts 1..%llu such as 4096,64K,1M separated by commas"),
			    (unsigned long long)LISTS_MAX_CELLS);
		return batch_bad(cli->exp, "--lengths", lengths, what);
	}
	if (check_outputs(p) < 0)
		return -1;
	if (cli->tries)
		p->tries = cli->tries;
	if (graph_n)
		p->graph_n = (size_t)graph_n;
	return 0;
}

/* The run's params: the job's arg first, then the options that are not
 * the params' as given (--work and --graph-block start at the defaults). */
struct run_params {
	struct lists_params p;
	const char *lengths; /* --lengths, or NULL */
	uint64_t graph_n;    /* --graph-n, 0: not given */
	uint64_t work, graph_block;
};

/* --layouts LIST: the layouts to run. */
static int parse_layouts_opt(const char *exp, const char *arg, void *params)
{
	if (parse_layouts(arg, &((struct run_params *)params)->p.layouts) < 0)
		return batch_bad(exp, "--layouts", arg,
				 _("names from sequential, stride, shuffled, malloc, holes, cdr"));
	return 0;
}

/* --sim-cache s,E,b: the cache the walks are replayed through. */
static int parse_sim_cache(const char *exp, const char *arg, void *params)
{
	struct lists_params *p = &((struct run_params *)params)->p;
	return batch_opt_cache(exp, "--sim-cache", arg, "7,8,7", SIM_MAX_S, SIM_MAX_E, 20,
			       &p->sim_s, &p->sim_E, &p->sim_b);
}

/* --no-sim (a flag: arg NULL): no replay. */
static int parse_no_sim(const char *exp, const char *arg, void *params)
{
	(void)exp;
	(void)arg;
	((struct run_params *)params)->p.sim_s = -1;
	return 0;
}

/* The options, with their help and the field each fills: the getopt
 * table, --help and the parse all come from it (run/batch_opts.h). */
#define RP struct run_params
static const struct batch_option options[] = {
	BATCH_OPT_STRING("lengths", 'L', "LIST",
			 "cells, e.g. 4096,64K,1M (default 4096,65536,1M,4M)", RP, lengths),
	BATCH_OPT_CALL("layouts", 'l', "LIST", "layouts to run (default all six)",
		       parse_layouts_opt),
	BATCH_OPT_U64("work", 'w', "N",
		      "N dependent multiply-adds on each cell's value: the\n"
		      "out-of-order core hides the misses behind the work",
		      RP, work, 0, 10000),
	BATCH_HELP_TRIES("best of N (default 3)"),
	BATCH_OPT_CALL("sim-cache", 'c', "s,E,b",
		       "replay each walk's trace through this cache (default\n"
		       "7,8,7: the M4 Max's L1d, 128 KB, 8-way, 128-byte lines)",
		       parse_sim_cache),
	BATCH_OPT_CALL("no-sim", 'N', NULL, N_("no simulator replay"), parse_no_sim),
	BATCH_OPT_STRING("trace-out", 'T', "DIR",
			 "write each walk's loads to DIR as a valgrind-lackey\n"
			 "trace, lists-LAYOUT-N.trace (memtop sim -t replays\n"
			 "it: 2 lines a cell, about 40 bytes a cell)",
			 RP, p.trace_dir),
	BATCH_OPT_FLAG("graph", 'g',
		       "only the graph homework: G[j][i] |= G[i][j], naive\n"
		       "against blocked over the upper half",
		       RP, p.graph),
	BATCH_OPT_U64("graph-n", 'G', "N", "graph side (default 4096)", RP, graph_n, 1, 65536),
	BATCH_OPT_U64("graph-block", 'B', "B", "block side (default 64)", RP, graph_block, 1,
		      65536),
	BATCH_HELP_CPU,
	BATCH_HELP_COMMON(N_("small run for tests: 4096 and 16384 cells, 1 try\n"
			     "(graph side 256)"),
			  N_("print CSV, one row a walk (the rest goes to stderr)")),
	BATCH_END,
};
#undef RP

EXPERIMENT_HELP(22,
	N_("Usage: memtop run lists [OPTIONS]\n"
	   "The same list (1 2 ... n) of 16-byte cells laid out six ways and walked:\n"
	   "sequential, stride (a new 128-byte line each cell), shuffled, malloc (with\n"
	   "16..256-byte allocations in between), holes (a second malloc list built into\n"
	   "freed noise), cdr (cdr-coding: values with two code bits, no next pointers).\n"
	   "\n"));

/* The defaults, before the options (the options that are not the params'
 * as not given; --work and --graph-block at the params' defaults). */
static void defaults(void *params)
{
	struct run_params *rp = params;

	lists_params_default(&rp->p);
	rp->lengths = NULL;
	rp->graph_n = 0;
	rp->work = rp->p.work;
	rp->graph_block = rp->p.graph_block;
}

/* After the options: them into the params, --quick under the ones given
 * explicitly (finish_args). Returns 0, or -1 (said in one line). */
static int check(struct batch_cli *cli, void *params)
{
	struct run_params *rp = params;

	rp->p.work = (unsigned)rp->work;
	rp->p.graph_block = (size_t)rp->graph_block;
	return finish_args(cli, &rp->p, rp->lengths, rp->graph_n);
}

/* The walks' table head, in columns: each head padded to its column. */
static void print_head(unsigned work)
{
	/* TRANSLATORS: the walks' table heads, each at most as wide as its
	 * column: 9, 10, 9, 8, 7, 8, 8, 9 (and 8, 8 with --work) */
	static const char *const h[] = { N_("cells"),	 N_("layout"),	 N_("cyc/cell"),
					 N_("ns/cell"),	 N_("spread"),	 N_("lines64"),
					 N_("lines128"), N_("sim miss"), N_("bare"),
					 N_("hidden") };
	static const int w[] = { 9, -10, 9, 8, 7, 8, 8, 9, 8, 8 };
	char buf[64];
	for (size_t i = 0; i < (work ? 10u : 8u); i++)
		printf("%s%s", i == 0 ? "" : i == 1 ? "  " : " ",
		       mt_text_pad(buf, sizeof buf, _(h[i]), w[i]));
	printf("\n");
}

/* The lines above the table and its head: the graph homework's, or the
 * walks' with the simulated cache. */
static int head(void *printer)
{
	const struct printer *b = printer;
	const struct batch_run *run = b->run;
	const struct lists_params *p = b->p;
	int csv = b->csv;
	if (p->graph) {
		/* TRANSLATORS: the graph's side twice, the block's side, the tries */
		fprintf(run->meta,
			MT_NGETTEXT(
				"# graph homework: %zu x %zu 0/1 bytes, block %zu, best of %d\n",
				"# graph homework: %zu x %zu 0/1 bytes, block %zu, best of %d\n",
				p->tries),
			p->graph_n, p->graph_n, p->graph_block, p->tries);
		if (csv) {
			/* machine text: CSV */
			printf("n,block,naive_ms,blocked_ms,speedup,same\n");
		} else {
			char h1[96], h2[64];
			/* TRANSLATORS: the graph table's heads: 28 and 10 columns at most */
			printf("%s %s\n", mt_text_pad(h1, sizeof h1, _("version"), -28),
			       mt_text_pad(h2, sizeof h2, _("ms"), 10));
		}
		return 0;
	}
	mt_hfprintf(run->meta,
		    MT_NGETTEXT("# lists: walk (1 2 ... n), best of %d; cycles = ns x %.2f GHz "
				"(calibrated core clock)\n",
				"# lists: walk (1 2 ... n), best of %d; cycles = ns x %.2f GHz "
				"(calibrated core clock)\n",
				p->tries),
		    p->tries, run->hdr.clock.core_ghz);
	if (p->sim_s >= 0)
		/* TRANSLATORS: (s, E, b), the cache's size, its ways, its line */
		fprintf(run->meta,
			_("# sim: each walk's loads (value, next) replayed cold through (%d, %d, "
			  "%d) = %llu KB, %d-way, %d-byte lines\n"),
			p->sim_s, p->sim_E, p->sim_b,
			(unsigned long long)(((1ull << p->sim_s) * (uint64_t)p->sim_E << p->sim_b) >>
					     10),
			p->sim_E, 1 << p->sim_b);
	if (p->trace_dir)
		fprintf(run->meta,
			_("# traces: %s/lists-LAYOUT-N.trace (memtop sim -s %d -E %d -b %d "
			  "-t FILE replays one)\n"),
			p->trace_dir, p->sim_s >= 0 ? p->sim_s : 7, p->sim_s >= 0 ? p->sim_E : 8,
			p->sim_s >= 0 ? p->sim_b : 7);
	if (csv) {
		/* machine text: CSV */
		printf("cells,layout,cycles_per_cell,ns_per_cell,spread,new_lines_64,"
		       "new_lines_128,sim_misses_per_cell,bare_cycles_per_cell\n");
	} else {
		print_head(p->work);
	}
	return 0;
}

/* The printer for params, its result empty. Returns 0. */
static int start(struct batch_cli *cli, const struct machine *m, void *params, void *printer)
{
	struct printer *b = printer;
	(void)cli;
	(void)m;
	b->p = params;
	lists_result_init(&b->r, params);
	return 0;
}

/* Below the walks' table: the pivot by layout, and the neighbours'. */
static int summary(void *printer)
{
	const struct printer *b = printer;
	if (b->p->graph)
		return 0;
	print_pivot(b);
	if (!b->csv)
		print_neighbours(b);
	return 0;
}

/* A blocked graph that differs from the naive one fails the run (exit 1),
 * said in one line. */
static int verdict(const void *printer)
{
	const struct printer *b = printer;
	if (!b->p->graph || !b->r.have_graph || b->r.graph_same)
		return MT_EXIT_OK;
	mt_warn("%s", _("run lists: the blocked graph differs from the naive one"));
	return MT_EXIT_RUNTIME;
}

const struct experiment exp_lists = {
	.name = "lists",
	.about = N_("linked-list cell layouts, cdr-coding, the graph homework (seed 003)"),
	.note_forms = (const char *const[]){ LISTS_SAYS_SKIPPED, NULL },
	EXPERIMENT_PARTS,
	.defaults = defaults,
	.check = check,
	.make_params = make_params,
	.pinned = 1,
	EXPERIMENT_JOB(lists_worker),
	EXPERIMENT_RESULT(r, &kind_lists),
	.verdict = verdict,
};
