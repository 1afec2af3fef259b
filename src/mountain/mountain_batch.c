/* memtop run mountain: the memory mountain in batch mode. Prints the table
 * row by row as the seed's program does (sizes down, strides across, MB/s),
 * with the run header above and the time it took below. */
#include "config.h"

#include "base/i18n.h"

#include "base/jsonio.h"
#include "info/info.h"
#include "os/clock.h"
#include "run/batch.h"
#include "run/experiment.h"
#include "run/job.h"
#include "mountain.h"
#include "mountain_json.h"
#include "base/util.h"
#include "machine/plan.h"
#include "os/sysinfo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A pass over a row this small is a few hundred loads at the largest
 * strides (32 KB at stride 15: 273), so the call and loop set-up around
 * each pass are a visible share of its time: the smallest row is
 * overhead-bound only up to here. */
#define OVERHEAD_BOUND_BYTES (32u << 10)

/* The table on stdout, filled in row by row as the cells stream in. */
struct printer {
	EXPERIMENT_PRINTER_HEAD; /* run, csv */
	struct mountain *m;
	const struct mountain_params *p; /* the job's */
	size_t next_row;   /* rows printed so far (in order) */
	unsigned redone;   /* cells measured twice */
	char note[400];    /* what fitting the grid in memory changed, or "" */
};

/* The command line as given, before it becomes parameters. */
struct args {
	const char *sizes, *strides;
	int max_stride, tries, try_us, cell_ms, cell_max_ms, seed_settings, profile;
	double tolerance; /* percent, -1 not given */
};

/* The run's params: the job's arg first, then the command line it is made
 * from (with the machine). */
struct run_params {
	struct mountain_params p;
	struct args a;
};

/* --tolerance PCT: a percentage 0..100 into the args' tolerance. */
static int parse_tolerance(const char *exp, const char *arg, void *params)
{
	struct args *a = &((struct run_params *)params)->a;
	if (mt_parse_double(arg, &a->tolerance) < 0 || a->tolerance < 0 || a->tolerance > 100)
		return batch_bad(exp, "--tolerance", arg, _("a percentage 0..100"));
	return 0;
}

/* The options, with their help and the field each fills: the getopt
 * table, --help and the parse all come from it (run/batch_opts.h). */
#define RP struct run_params
static const struct batch_option options[] = {
	BATCH_OPT_STRING("sizes", 'S', "A:B",
			 "sizes doubling from A to B (default 16K:128M)", RP, a.sizes),
	BATCH_OPT_INT("max-stride", 'm', "N",
		      "strides 1..N words of 8 bytes (default 15)", RP, a.max_stride, 1,
		      MOUNTAIN_MAX_STRIDES),
	BATCH_OPT_STRING("strides", 's', "LIST",
			 "exactly these strides, e.g. 1,2,4,8,15", RP, a.strides),
	BATCH_OPT_INT("tries", 't', "N",
		      "a cell ends when its N fastest tries agree (default 3);\n"
		      "with --seed-settings: exactly N tries (default 5)",
		      RP, a.tries, 1, MOUNTAIN_MAX_KBEST),
	BATCH_OPT_CALL("tolerance", 'T', "PCT",
		       "... within PCT % (default 1; 0: never, try --cell-max-ms)",
		       parse_tolerance),
	BATCH_OPT_INT("try-us", 'L', "US",
		      "length of one try in microseconds (default 4; one pass\n"
		      "when a pass is longer)",
		      RP, a.try_us, 1, 1000000),
	BATCH_OPT_INT("cell-ms", 'C', "MS",
		      "try each cell at least MS milliseconds (default 1)", RP, a.cell_ms, 1,
		      60000),
	BATCH_OPT_INT("cell-max-ms", 'X', "MS",
		      "... and at most MS milliseconds (default 20)", RP, a.cell_max_ms, 1,
		      600000),
	BATCH_OPT_FLAG("seed-settings", 'D',
		       "the seed's method: 8M accesses a try, 5 tries, no adaptivity", RP,
		       a.seed_settings),
	BATCH_OPT_FLAG("profile", 'P', "after each row, a note: where its time went", RP,
		       a.profile),
	BATCH_HELP_CPU,
	BATCH_HELP_EACH_KIND,
	BATCH_HELP_COMMON(N_("small grid for tests: 16K..8M, strides 1, 2, 4, 8"),
			  N_("print CSV instead of the table")),
	BATCH_END,
};
#undef RP

EXPERIMENT_HELP(21,
	N_("Usage: memtop run mountain [OPTIONS]\n"
	   "Read throughput (MB/s) over working-set size x stride: the memory mountain.\n"
	   "\n"));

static void print_head(const struct printer *b)
{
	const struct mountain *m = b->m;
	if (b->csv) {
		printf("size_bytes");
		for (size_t c = 0; c < m->nstrides; c++)
			printf(",s%u", m->strides[c]);
		printf("\n");
		return;
	}
	char pad[64];
	/* TRANSLATORS: the mountain table's first column (working-set sizes
	 * 16K..128M), 7 wide */
	printf("%s", mt_text_pad(pad, sizeof pad, _("size"), 7));
	for (size_t c = 0; c < m->nstrides; c++) { /* as wide as the row's " %8.0f" */
		char h[16];
		mt_snprintf(h, sizeof h, "s%u", m->strides[c]);
		printf(" %8s", h);
	}
	/* TRANSLATORS: the last column: the widest spread between a row's tries */
	printf("  %s\n", _("spread"));
}

static void print_row(const struct printer *b, size_t r)
{
	const struct mountain *m = b->m;
	char sz[32];
	double worst = 0;
	if (b->csv) {
		printf("%llu", (unsigned long long)m->sizes[r]);
		for (size_t c = 0; c < m->nstrides; c++)
			printf(",%.1f", mountain_at(m, r, c));
		printf("\n");
		return;
	}
	printf("%7s", mt_fmt_size(sz, sizeof sz, m->sizes[r]));
	for (size_t c = 0; c < m->nstrides; c++) {
		double s = m->spread[r * m->nstrides + c];
		printf(" %8.0f", mountain_at(m, r, c));
		if (isfinite(s) && s > worst)
			worst = s;
	}
	mt_hfprintf(stdout, "  %5.1f%%\n", worst * 100);
}

/* Rows are measured in order and a row's second looks come before the next
 * row's first cell: a row is final when the next row starts or the job ends. */
static void flush_rows(struct printer *b, size_t upto)
{
	while (b->next_row < upto && b->next_row < b->m->nsizes)
		print_row(b, b->next_row++);
}

static void on_event(const struct job_event *ev, void *ctx)
{
	struct printer *b = ctx;
	switch (ev->type) {
	case JOB_EV_CELL:
	case JOB_EV_UPDATE:
		if (mountain_apply(b->m, ev) < 0)
			return;
		if (ev->type == JOB_EV_UPDATE)
			b->redone++;
		flush_rows(b, (size_t)ev->row);
		break;
	case JOB_EV_DONE:
		flush_rows(b, b->m->nsizes);
		break;
	default:
		break;
	}
}

static int parse_strides(const char *s, struct mountain_params *p, mt_error *e)
{
	uint64_t v[MOUNTAIN_MAX_STRIDES];
	int n = mt_parse_u64_list(s, 1, MOUNTAIN_MAX_STRIDES, v, MOUNTAIN_MAX_STRIDES);
	if (n < 0)
		return mt_fail(e, _("--strides: expected increasing numbers 1..%d separated by "
				    "commas, got '%s'"), MOUNTAIN_MAX_STRIDES, s);
	for (int i = 0; i < n; i++) {
		if (i && v[i] <= v[i - 1])
			return mt_fail(e, _("--strides: expected increasing numbers, got '%s'"), s);
		p->strides[i] = (unsigned)v[i];
	}
	p->nstrides = (size_t)n;
	return 0;
}

/* The defaults, before the options: no tolerance given. */
static void defaults(void *params)
{
	struct args *a = &((struct run_params *)params)->a;
	a->tolerance = -1;
}

/* The parameters the args describe on machine m, shrunk to fit in memory
 * (the printer's note says so); the fresh page's cost probed for the
 * estimate when the run measures. Returns 0, or -1 with one line said. */
static int make_params(struct batch_cli *cli, const struct machine *m, void *params,
		       void *printer)
{
	const struct args *a = &((struct run_params *)params)->a;
	struct mountain_params *p = &((struct run_params *)params)->p;
	char *note = ((struct printer *)printer)->note;
	size_t len = sizeof ((struct printer *)printer)->note;
	int probe = !cli->plan;
	mt_error e = { "" };
	struct machine_budget budget;
	if (cli->quick) /* --quick --seed-settings: the quick grid, the seed's method */
		mountain_params_quick(p);
	else
		mountain_params_default(p);
	if (a->seed_settings)
		mountain_params_seed_method(p);
	if (a->sizes) {
		uint64_t lo = p->sizes[0], hi = p->sizes[p->nsizes - 1];
		if (mt_parse_size_range(a->sizes, &lo, &hi) < 0) {
			batch_bad(cli->exp, "--sizes", a->sizes, _("A:B such as 16K:128M"));
			return -1;
		}
		if (mountain_params_set_sizes(p, lo, hi, &e) < 0)
			goto bad;
	}
	if (a->max_stride && mountain_params_set_max_stride(p, (unsigned)a->max_stride, &e) < 0)
		goto bad;
	if (a->strides && parse_strides(a->strides, p, &e) < 0)
		goto bad;
	if (a->tries && a->seed_settings)
		p->min_tries = p->max_tries = (unsigned)a->tries;
	else if (a->tries)
		p->kbest = (unsigned)a->tries;
	if (a->tolerance >= 0)
		p->tolerance = a->tolerance / 100.0;
	if (a->try_us)
		p->try_ns = a->try_us * 1e3;
	if (a->cell_ms)
		p->cell_ns = a->cell_ms * 1e6;
	if (a->cell_max_ms)
		p->cell_max_ns = a->cell_max_ms * 1e6;
	if (p->cell_max_ns < p->cell_ns)
		p->cell_max_ns = p->cell_ns;
	p->profile = a->profile;
	p->page_ns = probe ? mt_fresh_page_ns() : 0; /* for the estimate */
	/* a grid this machine (or this job) cannot hold even shrunk is bad input */
	machine_mem_budget(m, &budget);
	if (mountain_params_fit_memory(p, &budget, note, len, &e) < 0)
		goto bad;
	return 0;
bad:
	mt_warn(_("run mountain: %s"), e.msg);
	return -1;
}

/* The lines above the table: the grid, the tries, the time it will take. */
static void print_plan(const struct batch_run *run, const struct mountain_params *p,
		       const char *note)
{
	char lo[32], hi[32], how[192], grid[128];
	if (note[0])
		batch_note(run, _(note));
	if (p->fixed_accesses)
		mt_hsnprintf(how, sizeof how,
			     MT_NGETTEXT("best of %u tries of %llu reads (the seed's settings)",
					 "best of %u tries of %llu reads (the seed's settings)",
					 p->max_tries),
			     p->max_tries, (unsigned long long)p->fixed_accesses);
	else
		mt_hsnprintf(how, sizeof how,
			     MT_NGETTEXT("fastest try of %.0f us, when the %u fastest agree within %g %%",
					 "fastest try of %.0f us, when the %u fastest agree within %g %%",
					 p->kbest),
			     p->try_ns / 1e3, p->kbest, p->tolerance * 100);
	/* TRANSLATORS: "14 sizes 16K..128M x 15 strides" (the count of strides
	 * picks the form) */
	mt_snprintf(grid, sizeof grid,
		    MT_NGETTEXT("%zu sizes %s..%s x %zu strides", "%zu sizes %s..%s x %zu strides",
				p->nstrides),
		    p->nsizes, mt_fmt_size(lo, sizeof lo, p->sizes[0]),
		    mt_fmt_size(hi, sizeof hi, p->sizes[p->nsizes - 1]), p->nstrides);
	mt_hfprintf(run->meta, _("# mountain: %s, read MB/s, %s (about %.0f s)\n"), grid, how,
		    ceil(mountain_params_estimate_s(p)));
	fflush(run->meta);
}

/* Cells whose median try is well below their fastest: the smallest and
 * largest size and stride among them into the counts. Returns how many. */
static size_t two_speed_cells(const struct mountain *m, size_t *r0, size_t *r1, size_t *c0,
			      size_t *c1)
{
	size_t n = 0;
	*r0 = *c0 = SIZE_MAX;
	*r1 = *c1 = 0;
	for (size_t r = 0; r < m->nsizes; r++)
		for (size_t c = 0; c < m->nstrides; c++) {
			double v = mountain_at(m, r, c), ty = m->typical[r * m->nstrides + c];
			if (isnan(ty) || isnan(v) || ty >= MOUNTAIN_TWO_SPEEDS * v)
				continue;
			n++;
			*r0 = r < *r0 ? r : *r0;
			*r1 = r > *r1 ? r : *r1;
			*c0 = c < *c0 ? c : *c0;
			*c1 = c > *c1 ? c : *c1;
		}
	return n;
}

/* The lines below the table: the time it took, the second looks, the cells
 * that ran at two speeds. */
static void print_summary(const struct printer *b, const struct mountain_params *p)
{
	char s0[32], s1[32];
	size_t r0, r1, c0, c1, two = two_speed_cells(b->m, &r0, &r1, &c0, &c1);
	if (b->redone)
		mt_hfprintf(b->run->meta,
			    MT_NGETTEXT("# measured in %.1f s; %u doubtful cell measured twice\n",
					"# measured in %.1f s; %u doubtful cells measured twice\n",
					b->redone),
			    b->m->elapsed_s, b->redone);
	else
		mt_hfprintf(b->run->meta, _("# measured in %.1f s\n"), b->m->elapsed_s);
	if (two)
		mt_hfprintf(b->run->meta,
			    MT_NGETTEXT("# %zu cells (%s..%s, strides %u..%u) ran at two speeds: their "
					"median try is %.0f %% or more below the fastest, which the "
					"table shows (memtop(1), Two speeds)\n",
					"# %zu cells (%s..%s, strides %u..%u) ran at two speeds: their "
					"median try is %.0f %% or more below the fastest, which the "
					"table shows (memtop(1), Two speeds)\n",
					two),
			    two, mt_fmt_size(s0, sizeof s0, b->m->sizes[r0]),
			    mt_fmt_size(s1, sizeof s1, b->m->sizes[r1]), b->m->strides[c0],
			    b->m->strides[c1], (1 - MOUNTAIN_TWO_SPEEDS) * 100);
	if (p->sizes[0] <= OVERHEAD_BOUND_BYTES) /* said of small rows only, not of 1G */
		fprintf(b->run->meta,
			_("# the %s row is overhead-bound: read cliffs from the rows below it\n"),
			mt_fmt_size(s0, sizeof s0, p->sizes[0]));
}

/* The plan as machine/plan.h shows it: the worker, the grid's sizes with
 * where each sits for the worker's CPU, the strides in a note; in the
 * user's language unless it is --plan --json's (out->human). */
static void describe(const struct machine *m, int cpu, const void *params, const void *printer,
		     struct plan *out)
{
	const struct mountain_params *p = params; /* the params' first field */
	const char *note = ((const struct printer *)printer)->note;
	char where[16], why[160], st[160] = "";
	out->worker_cpu = cpu;
	if (cpu >= 0)
		plan_add_threads(out, 1, &cpu, 1);
	for (size_t i = 0; i < p->nsizes; i++) {
		mt_snprintf(why, sizeof why,
			    plan_words_n(out, "a row of the grid, read at %zu strides",
					 "a row of the grid, read at %zu strides", p->nstrides),
			    p->nstrides);
		plan_add_size(out, cpu >= 0 ? machine_level_name(m, p->sizes[i], &cpu, 1, where,
								 sizeof where)
					    : "",
			      p->sizes[i], 1, 0, why);
	}
	for (size_t i = 0; i < p->nstrides; i++)
		mt_append(st, sizeof st, "%s%u", i ? "," : "", p->strides[i]);
	plan_say(out, N_("strides (8-byte words): %s"), st);
	if (cpu >= 0 && p->sizes[p->nsizes - 1] < machine_dram_floor(m, &cpu, 1, NULL, 0))
		plan_say(out,
			 N_("the largest row (the seed's grid ends at 128M) is under %d x the "
			    "caches CPU %d reaches: its cliff into memory may not show; --sizes "
			    "16K:SIZE goes further"),
			  MACHINE_DRAM_FACTOR, cpu);
	if (note[0]) /* a fixed note is in the catalogue; a note with figures stays English */
		plan_note(out, "%s", plan_words(out, note));
	out->estimate_s = mountain_params_estimate_s(p);
}

/* The printer with its empty mountain. Returns 0, or -1 (said: out of
 * memory). */
static int start(struct batch_cli *cli, const struct machine *mc, void *params, void *printer)
{
	struct run_params *rp = params;
	struct printer *b = printer;

	b->p = &rp->p;
	b->m = mountain_new(rp->p.sizes, rp->p.nsizes, rp->p.strides, rp->p.nstrides);
	if (!b->m) {
		mt_warn(_("run mountain: out of memory"));
		cli->rc = MT_EXIT_RUNTIME;
		return -1;
	}
	b->m->caches = info_to_json(&mc->info);
	return 0;
}

/* Above the table: the plan's lines, the table's head. */
static int head(void *printer)
{
	const struct printer *b = printer;
	print_plan(b->run, b->p, b->note);
	print_head(b);
	return 0;
}

/* After the job: the time it took, the mountain's. */
static void ended(void *printer)
{
	struct printer *b = printer;
	b->m->elapsed_s = b->run->elapsed_s;
}

/* Below the table (print_summary). */
static int summary(void *printer)
{
	const struct printer *b = printer;
	print_summary(b, b->p);
	return 0;
}

/* The mountain. */
static void release(void *printer, void *params)
{
	(void)params;
	mountain_free(((struct printer *)printer)->m);
}

const struct experiment exp_mountain = {
	.name = "mountain",
	.about = N_("read throughput over working-set size x stride (seed 000)"),
	EXPERIMENT_PARTS,
	.each_coretype = 1,
	.defaults = defaults,
	.make_params = make_params,
	.pinned = 1,
	EXPERIMENT_JOB(mountain_worker), /* on the mountain_params, the params' first field */
	.ended = ended,
	.note_forms = (const char *const[]){ MOUNTAIN_NOTE_FORMS, NULL },
	EXPERIMENT_RESULT(m, &kind_mountain),
	.result_is_pointer = 1,
	.release = release,
};
