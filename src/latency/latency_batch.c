/* memtop run latency: load latency by pointer chasing in batch mode. Prints
 * the curves row by row as they are measured (size, then cycles and ns for
 * each stride and the random chase), then the levels as seed 002 does. */
#include "config.h"

#include "base/i18n.h"

#include "base/jsonio.h"
#include "os/clock.h"
#include "run/batch.h"
#include "run/experiment.h"
#include "run/job.h"
#include "latency.h"
#include "latency_history.h"
#include "base/util.h"
#include "info/info.h"
#include "machine/plan.h"
#include "os/sysinfo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The curves on stdout, a row as soon as all its chases are measured. */
struct printer {
	EXPERIMENT_PRINTER_HEAD; /* run, csv */
	struct latency_result *r;
	size_t ncol;
	size_t row_cells[LATENCY_MAX_SIZES];
	size_t next_row;
	double revised_s, revised_at; /* the last LATENCY_NOTE_REVISED: s in all, s in */
	unsigned revisions;
	const struct latency_params *p;
	double announced; /* the run's figure: LATENCY_NOTE_PRICED's, whole s */
	int headed;       /* the plan lines and the table's heading printed */
	const struct machine *m; /* planned for (its caches beside the levels) */
	char note[600];          /* the capped sizes or the pages left out, "" none */
	uint64_t asked;          /* the largest size asked for */
	char hist_path[MT_PATH_MAX]; /* the state file ("" none kept) */
	char hist_key[320];
	struct latency_history hist; /* the last runs of this key here, newest first */
	size_t retried;          /* points measured again (LATENCY_NOTE_RETRIED) */
	char retried_text[160];
	size_t updated;          /* of them sent lower (JOB_EV_UPDATE) */
};

/* The command line as given, before it becomes parameters. */
struct args {
	const char *strides;
	uint64_t max_size; /* --max-size, 0 not given */
	int only_random, no_random, huge, tries;
	int both; /* 1 --hugepages both, 0 off or on, -1 not given */
	int hugepages; /* --hugepages: off 0, on 1, both 2; -1 not given */
	uint64_t tlb_locality; /* 0: not given */
};

/* The params: the worker's first (its job gets this pointer), then the
 * command line as given (what the options' rows fill). */
struct run_params {
	struct latency_params p;
	struct args a;
};

/* The options, with their help and the field of struct args each fills:
 * the getopt table, --help and the parse all come from it (run/batch_opts.h). */
static const struct batch_option options[] = {
	BATCH_OPT_STRING("strides", 's', "LIST",
			 "fixed strides in bytes (default 128,256,512,1024,2048,4096)", struct args,
			 strides),
	BATCH_OPT_SIZE("max-size", 'M', "SIZE",
		       "largest array, 4K..64G (default: 512M, or 4 x every\n"
		       "cache the CPU reaches when that is more: --plan says\n"
		       "which; capped to half the free memory)",
		       struct args, max_size, 0, UINT64_MAX, "a size such as 64M"),
	BATCH_OPT_FLAG("random", 'r', "only the random chase (no fixed strides)", struct args,
		       only_random),
	BATCH_OPT_FLAG("no-random", 'R', "only the fixed strides", struct args, no_random),
	BATCH_OPT_CHOICE("hugepages", 'H', "on|off|both",
			 "the pages under the chases: 4 KB (off), transparent huge\n"
			 "pages (on), or both: the random chase again on huge\n"
			 "pages, the cache sizes read from it and the page walks'\n"
			 "cost from the 4 KB one (default both where THP can be\n"
			 "asked for, else off; --quick: off)",
			 struct args, hugepages, "off", "on", "both"),
	BATCH_OPT_SIZE("tlb-locality", 'T', "SIZE",
		       "the random chase group by group of SIZE bytes (as\n"
		       "multichase -T): no page walks, the caches' and the\n"
		       "memory's latency alone (default: one cycle over all)",
		       struct args, tlb_locality, LATENCY_PAGE, 64ull << 30,
		       "a size from 4K to 64G, such as 256K"),
	BATCH_OPT_INT("tries", 't', "N", "best of N timed tries a point (default 3)", struct args,
		      tries, 1, 100),
	BATCH_HELP_CPU,
	BATCH_HELP_EACH_KIND,
	BATCH_HELP_COMMON(N_("small run for tests: 4K..8M, strides 128 and 4096 + random"),
			  N_("print the curves as CSV (the rest goes to stderr)")),
	BATCH_END,
};

EXPERIMENT_HELP(21,
	N_("Usage: memtop run latency [OPTIONS]\n"
	   "Load latency by pointer chasing (seed 002, after lmbench's lat_mem_rd):\n"
	   "cycles and ns a load over array size, per stride and for a random chase,\n"
	   "then the cache levels, way sizes and TLB steps read from the curves.\n\n"));

/* The other page size's random chase in CSV column names. */
static const char *other_name(const struct latency_result *r)
{
	return r->other_hugepages == LATENCY_HUGE_ON ? "random_huge" : "random_4k";
}

/* One cell of the table's head: s right-aligned in width columns (not
 * bytes: a translated word), after a space when sep. */
static void head_cell(const char *s, int width, int sep)
{
	char buf[96];
	printf("%s%s", sep ? " " : "", mt_text_pad(buf, sizeof buf, s, width));
}

static void print_head(const struct printer *b)
{
	const struct latency_result *r = b->r;
	char s[40];
	if (b->csv) {
		printf("size_bytes");
		for (size_t k = 0; k < r->nstrides; k++)
			printf(",cycles_s%u,ns_s%u,spread_s%u,tries_s%u,trusted_s%u", r->strides[k],
			       r->strides[k], r->strides[k], r->strides[k], r->strides[k]);
		if (r->has_random)
			/* machine text: CSV */
			printf(",cycles_random,ns_random,spread_random,tries_random,trusted_random");
		if (r->has_random && r->has_other)
			printf(",cycles_%s,ns_%s,spread_%s,tries_%s,trusted_%s", other_name(r),
			       other_name(r), other_name(r), other_name(r), other_name(r));
		printf("\n");
		return;
	}
	/* TRANSLATORS: the latency table's head, columns 8 and 7 wide: size
	 * (bytes), then for each stride (s128 ...) and the random chase its
	 * cycles and ns a load */
	const char *ns = _("ns"), *cyc = _("cycles");
	head_cell(_("size"), 8, 0);
	for (size_t k = 0; k < r->nstrides; k++) {
		mt_snprintf(s, sizeof s, "s%u", r->strides[k]);
		head_cell(s, 8, 1);
		head_cell(ns, 7, 1);
	}
	if (r->has_random) {
		/* TRANSLATORS: the random chase's column, 8 wide */
		head_cell(_("random"), 8, 1);
		head_cell(ns, 7, 1);
	}
	if (r->has_random && r->has_other) {
		/* TRANSLATORS: the second random chase's column, on huge pages
		 * or on 4 KB pages, 8 wide */
		head_cell(r->other_hugepages == LATENCY_HUGE_ON ? _("rnd huge") : _("rnd 4K"), 8, 1);
		head_cell(ns, 7, 1);
	}
	printf("\n");
	head_cell(_("bytes"), 8, 0);
	for (size_t k = 0; k < r->nstrides + (r->has_random ? 1 + r->has_other : 0); k++) {
		head_cell(cyc, 8, 1);
		head_cell("", 7, 1);
	}
	printf("\n");
}

static void print_row(const struct printer *b, size_t i)
{
	latency_print_row(stdout, b->r, i, b->csv);
}

static void print_plan(const struct batch_run *run, const struct latency_params *p, double ghz,
		       double about_s);

/* The plan's lines and the table's heading, once: when the run has priced
 * itself (its pages in), or at its end when it never did. */
static void head_once(struct printer *b, double about_s)
{
	char said[1200];
	if (b->headed)
		return;
	b->headed = 1;
	b->announced = ceil(about_s);
	print_plan(b->run, b->p, b->r->ghz, b->announced);
	if (b->note[0]) /* what the memory capped, before the table (and again after it) */
		batch_note(b->run, latency_text(said, sizeof said, b->note));
	print_head(b);
	fflush(stdout);
}

static void on_event(const struct job_event *ev, void *ctx)
{
	struct printer *b = ctx;
	if (ev->type == JOB_EV_UPDATE) { /* a point that moved, measured again: lower */
		b->updated += latency_apply(b->r, ev) == 0;
		return;
	}
	if (ev->type != JOB_EV_CELL || latency_apply(b->r, ev) < 0)
		return;
	b->row_cells[ev->row]++;
	while (b->next_row < b->r->nsizes && b->row_cells[b->next_row] == b->ncol)
		print_row(b, b->next_row++);
}

/* The run's own notes, not said as they come: its figure (the plan's lines
 * and the table's heading follow it), a revision (said in the closing line,
 * not between the table's rows; the TUI says it as it comes), the pages
 * (the result's). Returns 1 for those, 0 for a note to say. */
static int on_note(const struct job_event *ev, void *ctx)
{
	struct printer *b = ctx;
	struct latency_ev_revised rev;
	if (ev->subtype == LATENCY_NOTE_PRICED) {
		head_once(b, ev->value);
		return 1;
	}
	if (ev->subtype == LATENCY_NOTE_RETRIED) {
		b->retried = (size_t)ev->value;
		mt_strlcpy(b->retried_text, ev->text, sizeof b->retried_text);
		return 1;
	}
	/* the params' note as the worker says it (cut to an event's length):
	 * said whole with the plan's lines */
	if (ev->subtype == 0 && b->note[0] && strncmp(ev->text, b->note, strlen(ev->text)) == 0)
		return 1;
	if (ev->subtype == LATENCY_NOTE_REVISED && JOB_PAYLOAD_GET(ev, struct latency_ev_revised, &rev) == 0) {
		b->revised_s = ev->value;
		b->revised_at = rev.at_s;
		b->revisions++;
		return 1;
	}
	return latency_apply(b->r, ev) == 0;
}

static int parse_strides(const char *s, struct latency_params *p, mt_error *e)
{
	uint64_t v[LATENCY_MAX_STRIDES];
	int n = mt_parse_u64_list(s, 8, 1u << 20, v, LATENCY_MAX_STRIDES);
	if (n < 0)
		return mt_fail(e, _("--strides: expected up to %d increasing byte counts 8..1M "
				    "separated by commas, got '%s'"),
			       LATENCY_MAX_STRIDES, s);
	for (int i = 0; i < n; i++) {
		if (i && v[i] <= v[i - 1])
			return mt_fail(e, _("--strides: must be increasing, got '%s'"), s);
		if (v[i] % 8)
			return mt_fail(e, _("--strides: %llu is not a multiple of 8 bytes"),
				       (unsigned long long)v[i]);
		p->strides[i] = (unsigned)v[i];
	}
	p->nstrides = (size_t)n;
	return 0;
}

/* This machine's key in the history: host, CPU model, the core type of
 * cpu, the curve the levels will be read from, the sizes. */
static void history_key(const struct latency_params *p, const struct machine *m, int cpu,
			char *buf, size_t len)
{
	char host[64] = "", model[128], lo[32], hi[32];
	const struct topo_cpu *tc = m->topo && cpu >= 0 ? topo_cpu(m->topo, cpu) : NULL;
	size_t c = latency_main_curve(p);
	if (gethostname(host, sizeof host) != 0)
		host[0] = '\0';
	host[sizeof host - 1] = '\0';
	mt_cpu_model(model, sizeof model);
	mt_snprintf(buf, len, "%s|%s|%s|%s%s|%zu sizes %s..%s", host, model,
		    tc && tc->coretype >= 0 && tc->coretype < m->topo->ncoretypes
			    ? m->topo->coretypes[tc->coretype].name
			    : "-",
		    c == p->nstrides + 1 ? "random, huge pages"
		    : c == p->nstrides	 ? (p->hugepages == LATENCY_HUGE_ON ? "random, huge pages"
									 : "random")
					 : "fixed stride",
		    p->tlb_locality ? ", TLB-local" : "", p->nsizes, mt_fmt_size(lo, sizeof lo, p->sizes[0]),
		    mt_fmt_size(hi, sizeof hi, p->sizes[p->nsizes - 1]));
}

/* The last runs here, and the newest one's main curve for the worker to
 * measure again where it moves. A history that cannot be read is said and
 * left aside (this run replaces it). */
static void history_load(struct printer *b, struct latency_params *p, int cpu)
{
	mt_error e = { "" };
	b->hist.n = 0;
	if (!latency_history_path(b->hist_path, sizeof b->hist_path)) {
		b->hist_path[0] = '\0';
		return;
	}
	history_key(p, b->m, cpu, b->hist_key, sizeof b->hist_key);
	if (latency_history_load(b->hist_path, b->hist_key, &b->hist, &e) < 0)
		mt_warn(_("run latency: the last runs here are not read: %s"), e.msg);
	p->has_prev = b->hist.n > 0 &&
		      latency_history_curve(&b->hist.run[0], p->sizes, p->nsizes, p->prev_ns) > 0;
}

/* The levels against the last runs here: whether they differ and under
 * what conditions; then this run kept for the next. */
static void history_compare(FILE *f, const struct printer *b, struct latency_levels *lv)
{
	struct latency_history_run cur;
	char diff[400], now[160], then[160];
	mt_error e = { "" };
	if (!b->hist_path[0])
		return;
	latency_history_of(b->r, lv, b->hist_key, &cur);
	if (b->retried)
		mt_hfprintf(f, MT_NGETTEXT("# %zu point moved by %.0f %% or more from the last run "
					   "here: measured again, %s (%zu read lower)\n",
					   "# %zu points moved by %.0f %% or more from the last run "
					   "here: measured again, %s (%zu read lower)\n",
					   b->retried),
			    b->retried, LATENCY_MOVED * 100, b->retried_text, b->updated);
	if (b->hist.n && latency_history_differs(&b->hist.run[0], &cur, diff, sizeof diff))
		fprintf(f, _("# levels differ from the last run here (%s): %s; this run: %s; the "
			     "last: %s\n"), b->hist.run[0].date, diff,
			latency_history_conditions(&cur, now, sizeof now),
			latency_history_conditions(&b->hist.run[0], then, sizeof then));
	else if (b->hist.n)
		fprintf(f, _("# levels as the last run here (%s)\n"), b->hist.run[0].date);
	if (latency_measured(b->r) == b->r->nsizes * latency_ncurves(b->r) && /* a whole run */
	    latency_history_save(b->hist_path, &cur, &e) < 0)
		mt_warn(_("run latency: this run is not kept for the next: %s"), e.msg);
}

/* The levels, held against the cache sizes this machine reports (inf may
 * be NULL) and against the last runs here. */
static void print_levels(FILE *f, const struct printer *b, const struct info *inf)
{
	struct latency_levels lv;
	latency_detect(b->r, &lv);
	latency_history_mark(&b->hist, &lv);
	latency_levels_print(f, &lv, inf);
	history_compare(f, b, &lv);
}

/* The args' defaults, before the options: huge pages off, --hugepages
 * not given. */
static void defaults(void *params)
{
	struct args *a = &((struct run_params *)params)->a;
	a->huge = LATENCY_HUGE_OFF;
	a->both = a->hugepages = -1;
}

/* After the options: --hugepages into huge and both, then the args that
 * exclude each other. Returns 0, or -1 (said in one line). */
static int check(struct batch_cli *cli, void *params)
{
	struct args *a = &((struct run_params *)params)->a;
	(void)cli;
	if (a->hugepages >= 0) { /* --hugepages off 0, on 1, both 2 */
		a->huge = a->hugepages == 1 ? LATENCY_HUGE_ON : LATENCY_HUGE_OFF;
		a->both = a->hugepages == 2;
	}
	if (a->only_random && a->no_random) {
		mt_warn(_("run latency: --random and --no-random exclude each other"));
		return -1;
	}
	if (a->both == 1 && a->no_random) {
		mt_warn(_("run latency: --hugepages both chases at random on both page sizes; "
			  "drop --no-random"));
		return -1;
	}
	if (a->tlb_locality && a->no_random) {
		mt_warn(_("run latency: --tlb-locality shapes the random chase; drop --no-random"));
		return -1;
	}
	if (a->only_random && a->strides) {
		mt_warn(_("run latency: --random measures no fixed stride; drop --strides"));
		return -1;
	}
	return 0;
}

/* The parameters a describes on machine m for the worker's CPU cpu
 * (latency_params_sized, the options, latency_params_settle: the Latency
 * tab makes its runs the same way), capped to the memory this run may take
 * (machine_mem_budget: the job's cgroup limit where there is one; note says
 * so in the printer's note; its asked is the largest size asked for). On
 * this machine the estimate is priced with latency_probe. Returns 0, or -1
 * with one line said. */
static int make_params(struct batch_cli *cli, const struct machine *m, void *params,
		       void *printer)
{
	const struct args *a = &((struct run_params *)params)->a;
	struct latency_params *p = &((struct run_params *)params)->p;
	struct printer *b = printer;
	char *note = b->note;
	size_t len = sizeof b->note;
	uint64_t *asked = &b->asked;
	int cpu = cli->cpu, probe = !cli->sysfs_root && !cli->topology;
	mt_error e = { "" };
	uint64_t max = a->max_size;
	struct machine_budget budget;
	note[0] = '\0';
	if (latency_params_sized(p, m, cpu, cli->quick, max, &e) < 0)
		goto bad;
	if (a->strides && parse_strides(a->strides, p, &e) < 0)
		goto bad;
	if (a->only_random)
		p->nstrides = 0;
	if (a->no_random)
		p->random = 0;
	if (p->random && p->nstrides && p->strides[0] < p->random_stride)
		p->random_stride = p->strides[0];
	if (a->tries)
		p->tries = (unsigned)a->tries;
	p->tlb_locality = a->tlb_locality;
	p->hugepages = a->huge;
	/* a run this machine cannot hold even capped is bad input */
	machine_mem_budget(m, &budget);
	if (latency_params_settle(p, m, a->both == 1 ? 1 : a->both < 0 && !p->tlb_locality ? -1 : 0,
				  cli->quick, probe, &budget, note, len, asked, &e) < 0)
		goto bad;
	return 0;
bad:
	mt_warn(_("run latency: %s"), e.msg);
	return -1;
}

/* The plan as machine/plan.h shows it: the worker, the sizes, the largest
 * and where it sits for the worker's CPU; in the user's language unless
 * it is --plan --json's (plan_words). */
static void describe(const struct machine *m, int cpu, const void *params, const void *printer,
		     struct plan *out)
{
	const struct latency_params *p = params; /* the params' first field */
	const char *note = ((const struct printer *)printer)->note;
	char why[300], lo[32], hi[32], where[16], sz[64], said[1200];
	uint64_t max = p->sizes[p->nsizes - 1];
	mt_fmt_size(hi, sizeof hi, max);
	out->worker_cpu = cpu;
	if (cpu >= 0)
		plan_add_threads(out, 1, &cpu, 1);
	latency_sizes_words(p, out->human, sz, sizeof sz);
	if (p->why_max[0])
		mt_snprintf(why, sizeof why,
			    plan_words(out, N_("%s (lat_mem_rd's steps), each chased alone; %s")),
			    sz, p->why_max);
	else
		mt_snprintf(why, sizeof why,
			    plan_words(out, N_("%s (lat_mem_rd's steps), each chased alone")), sz);
	plan_add_size(out, cpu >= 0 ? machine_level_name(m, max, &cpu, 1, where, sizeof where) : "",
		      max, 1, 0, why);
	if (cpu >= 0 && max < machine_dram_floor(m, &cpu, 1, NULL, 0))
		plan_say(out,
			 N_("the largest size (%s) is under %d x the caches CPU %d reaches: the "
			    "curve may end in a cache, not in memory"),
			  hi, MACHINE_DRAM_FACTOR, cpu);
	if (p->random && p->other)
		plan_say(out,
			 N_("the random chase again on huge pages, in a second buffer of %s: the "
			    "caches read from it, the page walks' cost from the 4 KB one"),
			  mt_fmt_size(lo, sizeof lo, latency_buffer_bytes(p)));
	if (note[0]) /* the people's words where the plan is read, English in its JSON */
		plan_note(out, "%s", out->human ? latency_text(said, sizeof said, note) : note);
	out->estimate_s = latency_params_estimate_s(p);
}

/* The lines above the table: sizes, chases, tries, the time it will take. */
static void print_plan(const struct batch_run *run, const struct latency_params *p, double ghz,
		       double about_s)
{
	char lo[32], sizes[64], strides[96], tries[48];
	const char *pages;
	latency_sizes_text(p, sizes, sizeof sizes);
	if (p->random)
		mt_snprintf(strides, sizeof strides,
			    MT_NGETTEXT("%zu fixed stride + random chase",
					"%zu fixed strides + random chase", p->nstrides),
			    p->nstrides);
	else
		mt_snprintf(strides, sizeof strides,
			    MT_NGETTEXT("%zu fixed stride", "%zu fixed strides", p->nstrides),
			    p->nstrides);
	mt_snprintf(tries, sizeof tries, MT_NGETTEXT("best of %u try", "best of %u tries", p->tries),
		    p->tries);
	pages = p->random && p->other ? _("huge pages off, and on for a second random chase")
		: p->hugepages == LATENCY_HUGE_ON ? _("huge pages on")
						  : _("huge pages off");
	/* TRANSLATORS: sizes, strides, tries, pages: the clauses above */
	mt_hfprintf(run->meta, _("# latency: %s, %s, %s, %s (about %.0f s)\n"), sizes, strides,
		    tries, pages, about_s);
	mt_hfprintf(run->meta,
		    _("# cycles = ns x %.3f GHz (core clock from dependent adds, not the TSC)\n"),
		    ghz);
	if (p->random && p->tlb_locality)
		fprintf(run->meta,
			_("# random: the same lines at stride %u in a random order, group by group "
			  "of %s (TLB locality: no page walks)\n"),
			p->random_stride, mt_fmt_size(lo, sizeof lo, p->tlb_locality));
	else if (p->random)
		fprintf(run->meta, _("# random: the same lines at stride %u in one random cycle\n"),
			p->random_stride);
	fflush(run->meta);
}

/* The closing line: the time taken, the figure announced, the last
 * revision of it, the pages. */
static void print_timing(const struct batch_run *run, const struct printer *b, double announced)
{
	char rev[160] = "", pages[320], other[320];
	if (b->revisions == 1)
		mt_hsnprintf(rev, sizeof rev, _("; revised at %.0f s to about %.0f s"), b->revised_at,
			     ceil(b->revised_s));
	else if (b->revisions > 1)
		mt_hsnprintf(rev, sizeof rev,
			     MT_NGETTEXT("; revised %u time, last at %.0f s to about %.0f s",
					 "; revised %u times, last at %.0f s to about %.0f s",
					 b->revisions),
			     b->revisions, b->revised_at, ceil(b->revised_s));
	/* TRANSLATORS: the last %s%s%s is what the kernel backed the buffers
	 * with (the result's own words, kept in English) */
	mt_hfprintf(run->meta, _("# measured in %.1f s (announced: about %.0f s%s); %s%s%s\n"),
		    b->r->elapsed_s, announced, rev, latency_text(pages, sizeof pages, b->r->pages),
		    b->r->other_pages[0] ? "; " : "",
		    latency_text(other, sizeof other, b->r->other_pages));
}

/* The result to fill, on machine m (its caches beside the levels), and
 * this key's history. Returns 0, or -1 (said: out of memory). */
static int start(struct batch_cli *cli, const struct machine *m, void *params, void *printer)
{
	struct run_params *rp = params;
	struct printer *b = printer;
	struct mt_clock clk;
	int cpu = cli->cpu;

	b->m = m;
	mt_clock_calibrate(&clk, 0);
	b->r = latency_result_new(&rp->p, clk.core_ghz > 0 ? clk.core_ghz : clk.ticks_per_ns);
	if (!b->r) {
		mt_warn(_("run latency: out of memory"));
		cli->rc = MT_EXIT_RUNTIME;
		return -1;
	}
	b->p = &rp->p;
	b->ncol = latency_ncurves(b->r);
	if (rp->p.sizes[rp->p.nsizes - 1] < b->asked) /* memory capped it */
		b->r->capped_from = b->asked;
	b->r->caches = info_to_json(&b->m->info);
	history_load(b, &rp->p, cpu);
	return 0;
}

static void ended(void *printer)
{
	struct printer *b = printer;
	b->r->elapsed_s = b->run->elapsed_s;
}

/* After the table: the points not trusted, the levels, the time it took
 * against the figure said, the note. */
static int summary(void *printer)
{
	struct printer *b = printer;
	size_t nd;
	head_once(b, latency_params_estimate_s(b->p)); /* a run that never priced itself */
	nd = latency_doubtful(b->r);
	if (nd)
		mt_hfprintf(b->run->meta,
			    MT_NGETTEXT("# ~ %zu of %zu points not trusted: their two best tries "
					"still differ by more than %.0f %% after as many tries again "
					"(another task had the CPU; the latency may read high)\n",
					"# ~ %zu of %zu points not trusted: their two best tries "
					"still differ by more than %.0f %% after as many tries again "
					"(another task had the CPU; the latency may read high)\n",
					latency_measured(b->r)),
			    nd, latency_measured(b->r), LATENCY_DOUBTFUL_SPREAD * 100);
	if (b->r->has_other && b->r->other_share >= 0 && b->r->other_share < 0.5)
		mt_hfprintf(b->run->meta,
			    _("# the second chase got %.0f %% of its buffer on huge pages (the "
			      "kernel's choice, or a layer under it that drops the hint): the levels "
			      "are read from the 4 KB one\n"),
			    100 * b->r->other_share);
	print_levels(b->run->meta, b, &b->m->info);
	print_timing(b->run, b, b->announced);
	if (b->note[0]) {
		char said[1200];
		batch_note(b->run, latency_text(said, sizeof said, b->note));
	}
	return 0;
}

static void release(void *printer, void *params)
{
	struct printer *b = printer;
	(void)params;
	latency_result_free(b->r);
}

const struct experiment exp_latency = {
	.name = "latency",
	.about = N_("load latency by pointer chasing, levels, way size, TLB (seed 002)"),
	EXPERIMENT_PARTS,
	.each_coretype = 1,
	.options_at = offsetof(struct run_params, a), /* the rows name struct args */
	.defaults = defaults,
	.check = check,
	.make_params = make_params,
	.pinned = 1,
	.worker = latency_worker, /* on the latency_params, the params' first field */
	.on_note = on_note,
	.note_forms = (const char *const[]){ LATENCY_SAYS_FORMS, NULL },
	.on_event = on_event,
	.ended = ended,
	EXPERIMENT_RESULT(r, &kind_latency),
	.result_is_pointer = 1,
	.release = release,
};
