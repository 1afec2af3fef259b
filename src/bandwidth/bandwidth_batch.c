/* memtop run bandwidth: GB/s per (kernel, size, threads), a row per size
 * and thread count as soon as its kernels are measured; then, with
 * --loaded, latency against the bandwidth other cores draw. */
#include "config.h"

#include "bandwidth.h"
#include "machine/plan.h"
#include "os/sysinfo.h"
#include "run/batch.h"
#include "run/experiment.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOUBTFUL_SPREAD 0.05
#define DOUBTFUL_CANARY 1.15

struct printer {
	EXPERIMENT_PRINTER_HEAD; /* run, csv */
	const struct bandwidth_params *p;
	int loaded_head;
	size_t per_line; /* kernels a line: all, or fewer on a narrow terminal */
	int row_si, row_ti; /* the row waiting for its second looks; -1 none */
	unsigned redone;
	struct bandwidth_result r; /* the store the TUI tab shares */
	char notes[5][BANDWIDTH_NOTE_LEN]; /* the sizes' plan's and --cpus's, above the table */
	int nnotes;
};

struct opts {
	const char *threads, *kernels, *sizes, *levels, *isa;
	struct batch_cpus cpus;
	struct batch_list delays;
	int placement, pages, loader; /* their choices' index (BANDWIDTH_SPREAD, BANDWIDTH_PAGES_4K,
				       * read 0, write 1); -1 not given */
	int tries, try_ms, loaded, loaded_only; /* loaded: 2 after the parse with --loaded-only */
};

/* The run's params: the job's arg first, then the command line's. */
struct run_params {
	struct bandwidth_params p;
	struct opts o;
};

/* The options, with their help and the field each fills: the getopt
 * table, --help and the parse all come from it (run/batch_opts.h). */
#define RP struct run_params
static const struct batch_option options[] = {
	BATCH_OPT_STRING("kernels", 'k', "LIST",
			 "read, read_vector, load, write, write_nt, copy, copy_nt,\n"
			 "triad, triad_nt, and the C library's fill, fill_zero\n"
			 "(memset) and copy_lib (memcpy) (default: all this CPU has;\n"
			 "the _nt kernels need x86 streaming stores); also the\n"
			 "reads:writes mixes r2w1 and r3w1 (and _nt), on request",
			 RP, o.kernels),
	BATCH_OPT_STRING("sizes", 'S', "LIST",
			 "working sets such as 32K,1M,512M, each all threads' together\n"
			 "(default: half of each cache level, DRAM at 4x every cache\n"
			 "the threads reach together)",
			 RP, o.sizes),
	BATCH_OPT_STRING("levels", 'V', "LIST",
			 "only these rows of the planned sizes: L1, L2, L3, DRAM (not\n"
			 "with --sizes)",
			 RP, o.levels),
	BATCH_OPT_STRING("threads", 'T', "LIST",
			 "increasing thread counts (default: 1, one a package, a node,\n"
			 "an L3 group, a core, all CPUs allowed, doubling between);\n"
			 "more threads than CPUs is marked oversubscribed",
			 RP, o.threads),
	BATCH_OPT_CPUS("cpus", 'C', "LIST",
		       "CPUs to pin the threads to, in order, such as 0-3,8, or\n"
		       "domains: S0 a package, N1 a node's CPUs, L3:0, C one CPU\n"
		       "a core, P or E, S0:0-7 its first eight (default: those\n"
		       "allowed)",
		       RP, o.cpus),
	BATCH_HELP_CPU_KIND,
	BATCH_OPT_CHOICE("placement", 'P', "P",
			 "spread (the default: one thread a node, an L3 group, a core\n"
			 "in turn, SMT siblings last) or compact (SMT siblings first)",
			 RP, o.placement, "spread", "compact"), /* BANDWIDTH_SPREAD, _COMPACT */
	BATCH_OPT_STRING("isa", 'I', "NAME",
			 "vector kernels: scalar, sse2, avx2, avx512, neon (default:\n"
			 "the widest this CPU has)",
			 RP, o.isa),
	BATCH_HELP_TRIES("best of at most N tries (default 9, at least 3)"),
	BATCH_OPT_INT("try-ms", 'L', "N", "length of a try (default 4)", RP, o.try_ms, 1, 1000),
	BATCH_OPT_CHOICE("pages", 'g', "P",
			 "the table buffer's pages: 4k (the default: each level's\n"
			 "figure includes the TLB's cost), huge (transparent huge\n"
			 "pages), auto (huge where THP is in always or madvise mode)",
			 RP, o.pages, "4k", "huge", "auto"), /* BANDWIDTH_PAGES_4K, _HUGE, _AUTO */
	BATCH_OPT_FLAG("loaded", 'l',
		       "after the table, the loaded latency: a random chase on the\n"
		       "first CPU while the others stream with a delay between bursts",
		       RP, o.loaded),
	BATCH_OPT_FLAG("loaded-only", 'O', "the loaded latency alone", RP, o.loaded_only),
	BATCH_OPT_CHOICE("loader", 'W', "KIND", "the loaders read (default) or write", RP,
			 o.loader, "read", "write"),
	BATCH_OPT_LIST("delays", 'D', "LIST",
		       "ns between the loaders' 8 KB bursts (default\n"
		       "25600,12800,...,100,0); idle is always measured first",
		       RP, o.delays, 0, 100000000, BANDWIDTH_MAX_LOADED,
		       "ns 0..100000000 separated by commas (at most " MT_XSTR(BANDWIDTH_MAX_LOADED) ")"),
	BATCH_HELP_COMMON("small run for tests: 1..2 tries of 1 ms, threads 1 and 2,\n"
			  "sizes cut to 16M, 3 delays",
			  "print CSV, one row a cell (the rest goes to stderr)"),
	BATCH_END,
};
#undef RP

EXPERIMENT_HELP_TAIL(19,
	"Usage: memtop run bandwidth [OPTIONS]\n"
	"How fast each level feeds one core and all cores: GB/s of six kernels at one\n"
	"size per cache level and DRAM, over thread counts; with --loaded, latency while\n"
	"other cores stream (after Intel MLC).\n"
	"\n",
	"\nGB/s are 10^9 bytes a second, counted as STREAM counts them: each array a\n"
	"kernel names moves once a pass (read, write: 1; copy: 2; triad: 3); the read\n"
	"a write-allocate cache makes of each stored line is not counted.\n");

/* ---- output ------------------------------------------------------------------ */

/* Kernels a line of the table: all of them, or on a terminal narrower
 * than the table as many as fit (the rest of a row on lines under it;
 * --csv is the wide form for scripts). */
static size_t kernels_per_line(const struct bandwidth_result *r)
{
	int cols = mt_term_columns(stdout), room = cols - 1 - 20;
	size_t per = room > 12 ? (size_t)room / 12 : 1;
	return cols > 0 && 20 + 12 * (int)r->nkernels > cols - 1 ? per : r->nkernels;
}

/* After kernel k of a row: a new line, indented under the first kernel
 * (a comment line "#" first for the lines on meta), when the line holds
 * b->per_line. */
static void fold(const struct printer *b, FILE *f, size_t k, int indent, int comment)
{
	if (b->per_line && (k + 1) % b->per_line == 0 && k + 1 < b->r.nkernels)
		fprintf(f, comment ? "\n#%*s" : "\n%*s", comment ? indent - 1 : indent, "");
}

static void print_head(struct printer *b)
{
	const struct bandwidth_result *r = &b->r;
	char hs[64], ht[64];
	if (b->csv) {
		printf("kind,size,level,threads,kernel,gbs,spread,tries,canary,checked," /* machine text */
		       "bytes_per_pass,delay_ns,latency_ns\n");
		return;
	}
	if (!r->nkernels)
		return;
	b->per_line = kernels_per_line(r);
	/* TRANSLATORS: the bandwidth table's first two column heads (12 and 7 columns) */
	printf("%s %s", mt_text_pad(hs, sizeof hs, _("size"), -12),
	       mt_text_pad(ht, sizeof ht, _("threads"), 7));
	for (size_t k = 0; k < r->nkernels; k++) {
		printf(" %11s", bandwidth_kernel_name(r->kernels[k]));
		fold(b, stdout, k, 20, 0);
	}
	printf("\n");
}

/* The waiting row (size and thread index), with its second looks in. */
static void flush_row(struct printer *b)
{
	const struct bandwidth_result *r = &b->r;
	int si = b->row_si;
	size_t ti = (size_t)b->row_ti;
	char name[48], mark[8];
	if (si < 0)
		return;
	b->row_si = b->row_ti = -1;
	if (b->csv) {
		for (size_t k = 0; k < r->nkernels; k++) {
			const struct bandwidth_cell *c = &r->cell[si][r->kernels[k]][ti];
			if (c->have)
				printf("table,%llu,%s,%u,%s,%.3f,%.4f,%d,%.3f,%d,%.0f,,\n", /* machine text */
				       (unsigned long long)r->sizes[si].bytes, r->sizes[si].level,
				       r->threads[ti].threads, bandwidth_kernel_name(r->kernels[k]),
				       c->gbs, c->spread, c->tries, c->canary, c->checked, c->pass_bytes);
		}
		return;
	}
	bandwidth_size_name(name, sizeof name, &r->sizes[si]);
	printf("%-12s %4u%-3s", name, r->threads[ti].threads,
	       r->threads[ti].over || r->threads[ti].over_quota ? "(!)" : "");
	for (size_t k = 0; k < r->nkernels; k++) {
		const struct bandwidth_cell *c = &r->cell[si][r->kernels[k]][ti];
		if (!c->have) {
			printf(" %10s ", "-");
			fold(b, stdout, k, 20, 0);
			continue;
		}
		mt_snprintf(mark, sizeof mark, "%s%s", !c->checked ? "!" : "",
			    c->spread > DOUBTFUL_SPREAD || c->canary > DOUBTFUL_CANARY || c->preempted ||
					    c->uneven ? "~" : " ");
		mt_hfprintf(stdout, " %10.1f%s", c->gbs, mark);
		fold(b, stdout, k, 20, 0);
	}
	printf("\n");
}

static void print_point(struct printer *b, const struct bandwidth_point *pt)
{
	char d[32];
	char h[5][64];
	if (b->csv) {
		mt_snprintf(d, sizeof d, "%.0f", pt->delay_ns);
		printf("loaded,,,,,%.3f,%.4f,%d,,,,%s,%.2f\n", /* machine text */
		       pt->gbs, pt->spread, pt->tries,
		       pt->idle ? "" : d, pt->latency_ns);
		return;
	}
	flush_row(b);
	if (!b->loaded_head) {
		/* TRANSLATORS: the loaded-latency table's column heads (10, 9, 12, 8 and 9
		 * columns): the loaders' delay between bursts, their bandwidth, the
		 * chaser's latency, the tries' spread, tries whose CPU another task took */
		printf("\n%s %s %s %s %s\n", mt_text_pad(h[0], sizeof h[0], _("delay ns"), 10),
		       mt_text_pad(h[1], sizeof h[1], _("GB/s"), 9),
		       mt_text_pad(h[2], sizeof h[2], _("latency ns"), 12),
		       mt_text_pad(h[3], sizeof h[3], _("spread"), 8),
		       mt_text_pad(h[4], sizeof h[4], _("lost CPU"), 9));
		b->loaded_head = 1;
	}
	if (pt->idle)
		/* TRANSLATORS: the loaded-latency table's first row: no load */
		mt_text_pad(d, sizeof d, _("idle"), 10);
	else
		mt_snprintf(d, sizeof d, "%10.0f", pt->delay_ns);
	mt_hfprintf(stdout, "%s %9.2f %12.1f %7.0f%% %5d/%-3d\n", d, pt->gbs, pt->latency_ns,
		    pt->spread * 100, pt->preempted, pt->tries);
}

/* Whether every kernel of the pending row has its cell. */
static int row_complete(const struct printer *b)
{
	const struct bandwidth_result *r = &b->r;
	if (b->row_si < 0)
		return 0;
	for (size_t k = 0; k < r->nkernels; k++)
		if (!r->cell[b->row_si][r->kernels[k]][b->row_ti].have)
			return 0;
	return 1;
}

/* A note, said after: the table's last row before it, its part of the
 * result (the pages). */
static int on_note(const struct job_event *ev, void *ctx)
{
	struct printer *b = ctx;
	if (row_complete(b)) /* the table's last row before the note after it */
		flush_row(b);
	bandwidth_result_apply(&b->r, ev); /* the pages note is also the result's */
	return 0;
}

static void on_event(const struct job_event *ev, void *ctx)
{
	struct printer *b = ctx;
	struct bandwidth_ev_table x;
	int kind = bandwidth_result_apply(&b->r, ev);
	if (kind == BANDWIDTH_EV_LOADED) {
		print_point(b, &b->r.pts[ev->row]);
	} else if (kind == BANDWIDTH_EV_TABLE && JOB_PAYLOAD_GET(ev, struct bandwidth_ev_table, &x) == 0) {
		b->redone += ev->type == JOB_EV_UPDATE;
		if (ev->type == JOB_EV_CELL &&
		    (ev->row != b->row_si || x.thread_index != b->row_ti)) {
			flush_row(b);
			b->row_si = ev->row;
			b->row_ti = x.thread_index;
		}
	}
	fflush(stdout);
}

/* The header lines that say what is measured and where each size and
 * thread count came from. */
static void print_plan(const struct printer *b, char notes[][BANDWIDTH_NOTE_LEN], int nnotes)
{
	const struct bandwidth_params *p = b->p;
	FILE *m = b->run->meta;
	char name[48];
	char text[BANDWIDTH_TEXT_LEN];
	for (int i = 0; i < nnotes; i++)
		batch_note(b->run, bandwidth_text(text, sizeof text, notes[i]));
	if (p->loaded != 2) {
		mt_hfprintf(m, _("# bandwidth: GB/s (10^9 bytes/s), best of %u..%u tries of %.0f ms; "
				 "vector kernels: %s (%u-byte registers)\n"),
			p->min_tries, p->max_tries, p->try_ns / 1e6, bandwidth_isa_name(p->isa),
			bandwidth_isa_width(p->isa));
		fputs(_("# bytes counted as STREAM does: read, load, write 1 array a pass, copy 2, "
			"triad 3; write-allocate reads not counted\n"), m);
		for (size_t i = 0; i < p->nsizes; i++) {
			bandwidth_size_name(name, sizeof name, &p->sizes[i]);
			/* TRANSLATORS: a size row of the plan ("L2 512K") and where it came from */
			fprintf(m, _("# size %s: %s\n"), name,
				bandwidth_text(text, sizeof text, p->sizes[i].from));
		}
		for (size_t i = 0; i < p->nthreads; i++) {
			char place[BANDWIDTH_NOTE_LEN];
			bandwidth_placement_said(p, b->r.threads[i].threads, place, sizeof place);
			/* TRANSLATORS: a thread step and where its threads run */
			fprintf(m, MT_NGETTEXT("# %u thread: %s\n", "# %u threads: %s\n",
					       b->r.threads[i].threads),
				b->r.threads[i].threads, place);
		}
		fprintf(m, _("# pages: %s (--pages %s)\n"), p->pages == BANDWIDTH_PAGES_HUGE
				? _("transparent huge pages, the buffer 2 MB aligned")
				: _("4 KB, huge pages advised off"), bandwidth_pages_name(p->pages_asked));
		fprintf(m, _("# ~ marks a cell whose tries disagreed by over 5 %%, or whose best try "
			     "ran with a slow canary, lost its CPU to another task or had one thread "
			     "held up; ! a cell whose arrays came out WRONG\n"));
	}
	if (p->loaded) {
		char a[32];
		int nl = p->ncpus - 1;
		mt_fmt_size(a, sizeof a, p->chase_bytes);
		if (p->loader_write)
			fprintf(m, MT_NGETTEXT("# loaded latency: a random chase over %s (%u-byte slots, "
					       "4 KB pages) on CPU %d, while %d loader write (vector "
					       "stores) in 8 KB bursts with a delay between them\n",
					       "# loaded latency: a random chase over %s (%u-byte slots, "
					       "4 KB pages) on CPU %d, while %d loaders write (vector "
					       "stores) in 8 KB bursts with a delay between them\n", nl),
				a, p->chase_stride, p->ncpus > 0 ? p->cpus[0] : -1, nl);
		else
			fprintf(m, MT_NGETTEXT("# loaded latency: a random chase over %s (%u-byte slots, "
					       "4 KB pages) on CPU %d, while %d loader read (vector "
					       "loads) in 8 KB bursts with a delay between them\n",
					       "# loaded latency: a random chase over %s (%u-byte slots, "
					       "4 KB pages) on CPU %d, while %d loaders read (vector "
					       "loads) in 8 KB bursts with a delay between them\n", nl),
				a, p->chase_stride, p->ncpus > 0 ? p->cpus[0] : -1, nl);
	}
	fflush(m);
}

/* ---- options ------------------------------------------------------------------ */

/* Parse a size list such as 32K,1M,512M. Returns the count, or -1. */
static int parse_sizes(const char *s, uint64_t *out, size_t cap)
{
	char item[64];
	size_t n = 0;
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t l = comma ? (size_t)(comma - s) : strlen(s);
		if (l == 0 || l >= sizeof item || n == cap)
			return -1;
		memcpy(item, s, l);
		item[l] = '\0';
		if (mt_parse_size(item, &out[n++]) < 0)
			return -1;
		if (!comma)
			return (int)n;
		s = comma + 1;
	}
}

static int cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x < y) - (x > y);
}

/* The options that change the CPUs (said gets --cpus's domains in words,
 * machine_cpus), ISA and kernels. Returns 0 or prints one line and
 * returns -1. */
static int apply_cpus(struct bandwidth_params *p, const struct opts *o, const char *exp,
		      const struct machine *m, char *said, size_t len)
{
	char what[160], bad[80];
	mt_error e = { "" };
	if (o->cpus.spec) {
		static int list[BANDWIDTH_MAX_CPUS];
		int n = machine_cpus(m, o->cpus.spec, list, BANDWIDTH_MAX_CPUS, said, len, &e);
		if (n < 0)
			return batch_bad(exp, "--cpus", o->cpus.spec, e.msg);
		if (bandwidth_set_cpus(p, list, n, m, &e) < 0) {
			mt_warn(_("run %s: %s"), exp, e.msg);
			return -1;
		}
	}
	if (o->placement >= 0) {
		bandwidth_order_cpus(p, o->placement);
		bandwidth_count_groups(p);
	}
	if (o->isa) {
		int isa = bandwidth_isa_parse(o->isa);
		if (isa < 0)
			return batch_bad(exp, "--isa", o->isa, _("scalar, sse2, avx2, avx512 or neon"));
		if (!bandwidth_isa_supported(isa)) {
			mt_warn(_("run %s: --isa: this CPU or build has no %s"), exp, bandwidth_isa_name(isa));
			return -1;
		}
		p->isa = isa;
		p->nkernels = 0;
		for (int k = 0; k < BANDWIDTH_NTABLE; k++)
			if (bandwidth_kernel_fn(k, isa))
				p->kernels[p->nkernels++] = k;
	}
	if (o->kernels) {
		int n = bandwidth_parse_kernels(o->kernels, p->kernels, BANDWIDTH_NKERNELS, bad, sizeof bad);
		if (n < 0) {
			mt_snprintf(what, sizeof what, _("kernels read, read_vector, load, write, "
							 "write_nt, copy, copy_nt, triad, triad_nt, fill, "
							 "fill_zero, copy_lib, r2w1, r2w1_nt, r3w1, r3w1_nt, "
							 "each once (bad: '%s')"),
				    bad);
			return batch_bad(exp, "--kernels", o->kernels, what);
		}
		p->nkernels = (size_t)n;
		for (int i = 0; i < n; i++)
			if (!bandwidth_kernel_fn(p->kernels[i], p->isa)) {
				mt_warn(_("run %s: --kernels: %s has no %s kernel"), exp,
					bandwidth_isa_name(p->isa), bandwidth_kernel_name(p->kernels[i]));
				return -1;
			}
	}
	return 0;
}

/* --pages: what was asked (BANDWIDTH_PAGES_*) and what that is here.
 * Returns 0, or prints one line and returns -1 (huge pages asked where THP
 * is off). */
static int apply_pages(struct bandwidth_params *p, int asked, const char *exp,
		       const struct machine *m)
{
	const char *thp = m->pages.thp;
	p->pages_asked = asked;
	p->pages = bandwidth_pages_used(asked, thp);
	if (asked == BANDWIDTH_PAGES_HUGE && strcmp(thp, "always") && strcmp(thp, "madvise")) {
		if (thp[0])
			mt_warn(_("run %s: --pages huge: transparent huge pages are off here (THP %s); "
				  "--pages auto takes 4 KB pages then"), exp, thp);
		else
			mt_warn(_("run %s: --pages huge: transparent huge pages are absent here (THP "
				  "absent); --pages auto takes 4 KB pages then"), exp);
		return -1;
	}
	return 0;
}

/* The options for threads, tries and the loaded latency. */
static int apply_rest(struct bandwidth_params *p, const struct opts *o, const char *exp,
		      const struct machine *m)
{
	char what[96];
	if (o->threads) {
		int n = bandwidth_parse_threads(o->threads, p->threads, BANDWIDTH_MAX_TLIST);
		if (n < 0) {
			mt_snprintf(what, sizeof what, _("increasing thread counts 1..%d separated by "
							 "commas (at most %d)"),
				    BANDWIDTH_MAX_THREADS, BANDWIDTH_MAX_TLIST);
			return batch_bad(exp, "--threads", o->threads, what);
		}
		p->nthreads = (size_t)n;
	}
	if (o->tries) {
		p->max_tries = (unsigned)o->tries;
		if (p->min_tries > p->max_tries)
			p->min_tries = p->max_tries;
	}
	if (o->try_ms)
		p->try_ns = o->try_ms * 1e6;
	if (o->loaded)
		p->loaded = o->loaded;
	if (o->pages >= 0 && apply_pages(p, o->pages, exp, m) < 0)
		return -1;
	if (o->loader >= 0)
		p->loader_write = o->loader == 1;
	if (o->delays.n) {
		for (size_t i = 0; i < o->delays.n; i++)
			p->delays[i] = (double)o->delays.v[i];
		qsort(p->delays, o->delays.n, sizeof *p->delays, cmp_desc);
		p->ndelays = o->delays.n;
	}
	return 0;
}

/* The sizes: given, or planned from machine m's levels. Returns the notes
 * written, or -1 (printed; *rc the exit code). */
static int apply_sizes(struct bandwidth_params *p, const struct opts *o, const char *exp,
		       const struct machine *m, char notes[][BANDWIDTH_NOTE_LEN], int nnotes, int *rc)
{
	mt_error e = { "" };
	struct machine_budget budget;
	int k;
	*rc = MT_EXIT_USAGE;
	if (o->sizes && o->levels)
		return batch_bad(exp, "--levels", o->levels, _("either --sizes or --levels"));
	if (o->sizes) {
		uint64_t v[BANDWIDTH_MAX_SIZES + 1];
		int n = parse_sizes(o->sizes, v, BANDWIDTH_MAX_SIZES + 1);
		if (n <= 0)
			return batch_bad(exp, "--sizes", o->sizes, _("sizes such as 32K,1M,512M"));
		if (bandwidth_set_sizes(p, v, (size_t)n, &e) < 0) {
			mt_warn(_("run %s: %s, got '%s'"), exp, e.msg, o->sizes);
			return -1;
		}
		machine_mem_budget(m, &budget);
		if (budget.bytes && p->chase_bytes > budget.bytes / BANDWIDTH_MEM_SHARE)
			p->chase_bytes = p->loader_bytes = budget.bytes / BANDWIDTH_MEM_SHARE;
		return 0;
	}
	k = bandwidth_plan_sizes(p, m, NULL, 0, notes, nnotes, &e);
	if (k < 0) {
		mt_warn(_("run %s: %s"), exp, e.msg);
		*rc = MT_EXIT_RUNTIME;
	} else if (o->levels && bandwidth_keep_levels(p, o->levels, &e) < 0) {
		mt_warn(_("run %s: --levels: %s"), exp, e.msg);
		return -1;
	}
	return k;
}

/* The params' defaults before the options: the choices not given (-1). */
static void defaults(void *params)
{
	struct opts *o = &((struct run_params *)params)->o;
	o->placement = o->pages = o->loader = -1;
}

/* Sizes given (--sizes) whose table the memory budget cannot hold (the
 * planned ones are capped to it): -1, said; else 0. */
static int fits(const struct bandwidth_params *p, const struct machine *m, const struct opts *o)
{
	struct machine_budget b;
	char a[32], c[32];
	uint64_t need = bandwidth_buffer_bytes(p);
	if (!o->sizes || p->loaded == 2)
		return 0;
	machine_mem_budget(m, &b);
	if (!b.bytes || need <= b.bytes)
		return 0;
	mt_warn(_("run bandwidth: --sizes: the table needs %s, more than the %s a run may take "
		  "(%s)"),
		mt_fmt_size(a, sizeof a, need), mt_fmt_size(c, sizeof c, b.bytes & ~0xfffffull),
		b.who);
	return -1;
}

/* The parameters from machine m and the options (--tries and
 * --loaded-only into them first), in the order they win:
 * the defaults, the CPUs, the sizes, --quick, then the rest (the notes in
 * the printer's notes, their count in its nnotes); the most threads at
 * once into cli->threads. Returns 0, or -1 (said). */
static int make_params(struct batch_cli *cli, const struct machine *m, void *params,
		       void *printer)
{
	struct bandwidth_params *p = &((struct run_params *)params)->p;
	struct opts *o = &((struct run_params *)params)->o;
	char (*notes)[BANDWIDTH_NOTE_LEN] = ((struct printer *)printer)->notes;
	int *nnotes = &((struct printer *)printer)->nnotes;
	char said[BANDWIDTH_NOTE_LEN - 8] = "";
	int rc;
	o->tries = cli->tries;
	if (o->loaded_only)
		o->loaded = 2;
	bandwidth_params_default(p, m);
	if (cli->cpu_coretype && m->topo) { /* --cpu-kind: its CPUs alone */
		static int kc[BANDWIDTH_MAX_CPUS];
		int n = machine_coretype_cpus(m, topo_coretype_find(m->topo, cli->cpu_coretype), kc, BANDWIDTH_MAX_CPUS);
		if (o->cpus.spec) {
			mt_warn(_("run bandwidth: --cpus and --cpu-kind: give one of them"));
			return -1;
		}
		bandwidth_use_cpus(p, m, kc, n);
	}
	if (apply_cpus(p, o, cli->exp, m, said, sizeof said) < 0)
		return -1;
	if ((*nnotes = apply_sizes(p, o, cli->exp, m, notes, 4, &rc)) < 0) {
		cli->rc = rc;
		return -1;
	}
	if (said[0]) /* the domains of --cpus, said back */
		mt_snprintf(notes[(*nnotes)++], BANDWIDTH_NOTE_LEN, "--cpus %s", said);
	if (cli->quick)
		bandwidth_params_quick(p, m);
	if (apply_rest(p, o, cli->exp, m) < 0)
		return -1;
	bandwidth_count_groups(p);
	if (p->nthreads) /* increasing: the last is the most */
		cli->threads = (int)p->threads[p->nthreads - 1];
	return fits(p, m, o);
}

/* The plan of the params on m, with the notes make_params kept. */
static void describe(const struct machine *m, int cpu, const void *params, const void *printer,
		     struct plan *out)
{
	const struct printer *b = printer;
	(void)m;
	(void)cpu;
	bandwidth_plan_of(params, b->notes, b->nnotes, out);
}

/* The printer with its empty result. Returns 0. */
static int start(struct batch_cli *cli, const struct machine *m, void *params, void *printer)
{
	struct run_params *rp = params;
	struct printer *b = printer;
	(void)cli;
	(void)m;
	b->row_si = b->row_ti = -1;
	b->p = &rp->p;
	bandwidth_result_init(&b->r, &rp->p);
	return 0;
}

/* Above the table: the plan's lines, the table's head. */
static int head(void *printer)
{
	struct printer *b = printer;
	print_plan(b, b->notes, b->nnotes);
	print_head(b);
	return 0;
}

/* After the job, however it ended: the row it left. */
static void ended(void *printer)
{
	flush_row(printer);
}

/* Below the table: the cells measured twice, the summary (not with
 * --csv). Returns 0. */
static int summary(void *printer)
{
	const struct printer *b = printer;
	if (b->redone)
		fprintf(b->run->meta, MT_NGETTEXT("# %u doubtful cell measured twice (the better kept)\n",
						  "# %u doubtful cells measured twice (the better kept)\n",
						  b->redone),
			b->redone);
	if (!b->csv)
		bandwidth_summary_print(b->run->meta, &b->r, b->csv, b->per_line);
	return 0;
}

/* A kernel whose arrays came out wrong fails the run (exit 1), said. */
static int verdict(const void *printer)
{
	if (!((const struct printer *)printer)->r.wrong)
		return MT_EXIT_OK;
	mt_warn(_("run bandwidth: a kernel's arrays came out WRONG (marked !)"));
	return MT_EXIT_RUNTIME;
}

const struct experiment exp_bandwidth = {
	.name = "bandwidth",
	.about = N_("read/write/copy/triad GB/s per level over threads, loaded latency"),
	EXPERIMENT_PARTS,
	.defaults = defaults,
	.make_params = make_params,
	.pinned = 0, /* the worker only starts and joins the measuring threads (no --cpu) */
	EXPERIMENT_JOB(bandwidth_worker), /* on the bandwidth_params, the params' first field */
	.on_note = on_note,
	.note_forms = (const char *const[]){ BANDWIDTH_SAYS_FORMS, NULL },
	.ended = ended,
	EXPERIMENT_RESULT(r, &kind_bandwidth),
	.verdict = verdict,
};
