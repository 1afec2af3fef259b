/* memtop run transpose: the transpose lab in batch mode. Prints the seed's
 * table of misses (versions down, sizes across), cachelab's pass/fail, the
 * fewest misses per size (CHK-4's sweep), where the rows of A and B land in
 * the cache's sets (--sets), then the real machine's versions timed (the
 * homework's table with --real-sweep). */
#include "config.h"

#include "base/i18n.h"

#include "base/jsonio.h"
#include "base/util.h"
#include "machine/plan.h"
#include "run/batch.h"
#include "run/experiment.h"
#include "run/job.h"
#include "transpose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPEEDUP_GOAL 2.0 /* the seed's homework: at least twice the naive speed */
#define SETS_BAR_MAX 64  /* draw a bar of sets up to this many sets */

/* The table on stdout, a row as each version's sizes are in. */
struct printer {
	EXPERIMENT_PRINTER_HEAD; /* run, csv */
	const struct transpose_plan *p;
	const struct extra *x;
	struct transpose_result r; /* what --json writes */
	int next_row; /* rows printed */
	int wrong; /* simulated results that did not transpose */
};

/* The options that are not the plan's. */
struct extra {
	int sets; /* --sets: the set map and the misses by set */
	char note[320]; /* the default real N capped to the memory a run may take, or "" */
};

/* The options as given, before they become the plan. */
struct args {
	const char *sizes, *versions, *reals, *trace_dir;
	int no_real, sweep, real_sweep;
	uint64_t real_n, real_block;
};

/* The run's params: the job's arg (the plan) first, then the rest of the
 * command line. */
struct run_params {
	struct transpose_plan p;
	struct extra x;
	struct args a;
};

/* --cache s,E,b: the simulated cache, the plan's. */
static int parse_cache(const char *exp, const char *arg, void *params)
{
	struct transpose_plan *p = &((struct run_params *)params)->p;
	return batch_opt_cache(exp, "--cache", arg, "5,1,5", 1 << 20, 1 << 20, 1 << 20, &p->s,
			       &p->E, &p->b);
}

/* The options, with their help and the field each fills: the getopt
 * table, --help and the parse all come from it (run/batch_opts.h). */
#define RP struct run_params
static const struct batch_option options[] = {
	BATCH_OPT_STRING("size", 'z', "LIST",
			 "sizes ROWSxCOLS, comma-separated (default 32x32,64x64,61x67)", RP,
			 a.sizes),
	BATCH_OPT_STRING("version", 'v', "LIST",
			 "naive, block:K, block:RxC (R rows by C columns of A),\n"
			 "buffer:K, buffer:RxC (each block row of A read into\n"
			 "locals first), diagonal; comma-separated (default\n"
			 "naive,block:8,block:16,diagonal)",
			 RP, a.versions),
	BATCH_OPT_FLAG("sweep", 'w',
		       "also block:4, 8, 12, 16, 20, 24 (CHK-4), and the fewest\n"
		       "misses per size",
		       RP, a.sweep),
	BATCH_OPT_FLAG("sets", 'S',
		       "where each row of A and B lands in the cache's sets, and\n"
		       "each version's misses by set",
		       RP, x.sets),
	BATCH_OPT_CALL("cache", 'c', "s,E,b", "the simulated cache (default 5,1,5)", parse_cache),
	BATCH_OPT_STRING("trace-out", 'T', "DIR",
			 "write each simulated run's accesses to DIR as a\n"
			 "valgrind-lackey trace (memtop sim -t replays it)",
			 RP, a.trace_dir),
	BATCH_OPT_FLAG("no-real", 'N', "skip the real-machine timing", RP, a.no_real),
	BATCH_OPT_U64("real-n", 'n', "N", "real-machine matrix side (default 4096)", RP, a.real_n,
		      16, 32768),
	BATCH_OPT_STRING("real-version", 'V', "LIST", "the versions timed (default naive,block:16)",
			 RP, a.reals),
	BATCH_OPT_U64("real-block", 'k', "K", "the real blocked version's side (block:K)", RP,
		      a.real_block, 1, TRANSPOSE_MAX_BLOCK),
	BATCH_OPT_FLAG("real-sweep", 'R', "time naive, block:K and buffer:K for K = 4 .. 128", RP,
		       a.real_sweep),
	BATCH_HELP_TRIES("real-machine timing: best of N after one untimed run\n"
			 "(default 5)"),
	BATCH_HELP_CPU,
	BATCH_HELP_COMMON(N_("small run for tests: the simulated table, real N = 256,\n"
			     "best of 3"),
			  N_("print CSV, one row a result (the rest goes to stderr)")),
	BATCH_END,
};
#undef RP

EXPERIMENT_HELP_TAIL(22,
	N_("Usage: memtop run transpose [OPTIONS]\n"
	   "Cache misses of matrix transpose on cachelab's cache (s,E,b) = (5,1,5), and\n"
	   "transpose versions timed on this machine.\n\n"),
	N_("\ncachelab's limits: 32x32 under 300 misses, 64x64 under 1300, 61x67 under "
	   "2000.\n"));

static int is_cachelab_cache(const struct transpose_plan *p)
{
	return p->s == 5 && p->E == 1 && p->b == 5;
}

static void print_row(struct printer *b, int v)
{
	char name[32];
	transpose_version_name(&b->p->versions[v], name, sizeof name);
	if (b->csv) {
		for (int z = 0; z < b->p->nsizes; z++) {
			const struct transpose_counts *r = &b->r.sim[v][z];
			/* machine text: CSV */
			printf("sim,%s,%d,%d,%llu,%llu,%llu,%llu,%d,\n", name, b->p->rows[z],
			       b->p->cols[z], (unsigned long long)r->accesses,
			       (unsigned long long)r->hits, (unsigned long long)r->misses,
			       (unsigned long long)r->evictions, r->correct);
		}
		fflush(stdout);
		return;
	}
	printf("%-10s", name);
	for (int z = 0; z < b->p->nsizes; z++)
		printf("%7llu", (unsigned long long)b->r.sim[v][z].misses);
	printf("\n");
	fflush(stdout);
}

static void print_pass_fail(const struct printer *b)
{
	FILE *f = b->run->meta;
	const struct transpose_plan *p = b->p;
	char name[32], lim[16];
	int any = 0;
	for (int z = 0; z < p->nsizes; z++)
		any |= transpose_cachelab_limit(p->rows[z], p->cols[z]) > 0;
	if (!any || !is_cachelab_cache(p))
		return;
	fprintf(f, "\n%-10s", "cachelab"); /* the lab's name */
	for (int z = 0; z < p->nsizes; z++) {
		int l = transpose_cachelab_limit(p->rows[z], p->cols[z]);
		if (l)
			mt_snprintf(lim, sizeof lim, "<%d", l);
		else
			mt_strlcpy(lim, "-", sizeof lim);
		fprintf(f, "%7s", lim);
	}
	fprintf(f, "\n");
	for (int v = 0; v < p->nversions; v++) {
		fprintf(f, "%-10s", transpose_version_name(&p->versions[v], name, sizeof name));
		for (int z = 0; z < p->nsizes; z++) {
			int l = transpose_cachelab_limit(p->rows[z], p->cols[z]);
			char cell[64];
			/* TRANSLATORS: the cachelab verdict under its limit, 7 wide */
			fprintf(f, "%s",
				mt_text_pad(cell, sizeof cell,
					    !l ? "-" : b->r.sim[v][z].misses < (uint64_t)l ? _("pass")
											: _("FAIL"),
					    7));
		}
		fprintf(f, "\n");
	}
}

/* The version with the fewest misses at each size (CHK-4: which block gets
 * 61x67 under 2000). */
static void print_fewest(const struct printer *b)
{
	const struct transpose_plan *p = b->p;
	char name[32];
	if (p->nversions < 2)
		return;
	/* TRANSLATORS: followed by "SIZE VERSION MISSES" for each size, "; " apart */
	fprintf(b->run->meta, "%s", _("# fewest misses:"));
	for (int z = 0; z < p->nsizes; z++) {
		int best = 0;
		for (int v = 1; v < p->nversions; v++)
			if (b->r.sim[v][z].misses < b->r.sim[best][z].misses)
				best = v;
		fprintf(b->run->meta, "%s %dx%d %s %llu", z ? ";" : "", p->rows[z], p->cols[z],
			transpose_version_name(&p->versions[best], name, sizeof name),
			(unsigned long long)b->r.sim[best][z].misses);
	}
	fprintf(b->run->meta, "\n");
}

static void on_sim(struct printer *b, const struct job_event *ev)
{
	transpose_result_apply(&b->r, ev);
	if (!b->r.sim[ev->row][ev->col].correct)
		b->wrong++;
	while (b->next_row < b->p->nversions) {
		int full = 1;
		for (int z = 0; z < b->p->nsizes; z++)
			full &= b->r.have[b->next_row][z];
		if (!full)
			break;
		print_row(b, b->next_row++);
	}
	if (b->next_row == b->p->nversions && ev->row == b->p->nversions - 1 &&
	    ev->col == b->p->nsizes - 1) {
		print_pass_fail(b);
		if (!b->csv)
			print_fewest(b);
	}
}

/* One real version's row; the naive one first, the others with their
 * speed-up over it. */
static void on_real(struct printer *b, const struct job_event *ev)
{
	const struct transpose_plan *p = b->p;
	char name[32], sz[32];
	int i = ev->row;
	transpose_result_apply(&b->r, ev);
	transpose_version_name(&p->real[i], name, sizeof name);
	if (i == 0)
		fprintf(b->run->meta,
			MT_NGETTEXT("%s# real machine: N = %zu int32 (%s a matrix), best of %d after "
				    "one untimed run\n",
				    "%s# real machine: N = %zu int32 (%s a matrix), best of %d after "
				    "one untimed run\n",
				    p->real_tries),
			b->csv ? "" : "\n", p->real_n,
			mt_fmt_size(sz, sizeof sz, (uint64_t)p->real_n * p->real_n * 4), p->real_tries);
	if (i == 0 && b->x->note[0])
		fprintf(b->run->meta, "# %s\n", b->x->note);
	fflush(b->run->meta);
	if (b->csv) {
		/* machine text: CSV */
		printf("real,%s,%zu,%zu,,,,,%d,%.4f\n", name, p->real_n, p->real_n, b->r.real_ok[i],
		       ev->value);
	} else {
		mt_hfprintf(stdout, _("%-10s%8.3f ns/element"), name, ev->value);
		if (i > 0 && b->r.real_ns[0] > 0 && ev->value > 0)
			mt_hfprintf(stdout, " %7.2fx", b->r.real_ns[0] / ev->value);
		printf("%s\n", b->r.real_ok[i] ? "" : _("  (WRONG RESULT)"));
	}
	fflush(stdout);
}

static void on_event(const struct job_event *ev, void *ctx)
{
	struct printer *b = ctx;
	if (ev->type != JOB_EV_CELL)
		return;
	else if (ev->subtype == TRANSPOSE_EV_SIM && ev->row >= 0 && ev->row < b->p->nversions &&
		 ev->col >= 0 && ev->col < b->p->nsizes)
		on_sim(b, ev);
	else if (ev->subtype == TRANSPOSE_EV_REAL && ev->row >= 0 && ev->row < b->p->nreal)
		on_real(b, ev);
}

/* The homework's verdict: the fastest version against naive. */
static void print_speedup(const struct printer *b)
{
	char name[32];
	int best = transpose_result_best(&b->r);
	double up;
	if (best < 0 || !(b->r.real_ns[0] > 0))
		return;
	up = b->r.real_ns[0] / b->r.real_ns[best];
	mt_hfprintf(b->run->meta,
		    b->csv ? _("# speed-up %8.2fx (%s; the seed's homework asks for at least 2x: %s)\n")
			   : _("speed-up   %8.2fx (%s; the seed's homework asks for at least 2x: %s)\n"),
		    up, transpose_version_name(&b->p->real[best], name, sizeof name),
		    up >= SPEEDUP_GOAL ? _("pass") : _("FAIL"));
}

/* ---- the set map (--sets) ------------------------------------------------- */

/* One matrix row's line: its first address, the sets it touches and a bar
 * of the sets ('#': touched) when there are few enough. */
static void print_set_row(const struct transpose_plan *p, int matrix, int row, int rows, int cols)
{
	int len = matrix ? rows : cols, nsets = 1 << p->s;
	uint64_t first = transpose_set_of(matrix, row, 0, rows, cols, p->s, p->b);
	uint64_t last = transpose_set_of(matrix, row, len - 1, rows, cols, p->s, p->b);
	char bar[SETS_BAR_MAX + 1];
	/* TRANSLATORS: a set map's line: A or B, its row, its first address,
	 * the cache sets it touches */
	printf(_("%c row %3d 0x%06llx sets %3llu..%-3llu"), matrix ? 'B' : 'A', row,
	       (unsigned long long)transpose_addr(matrix, row, 0, rows, cols), (unsigned long long)first,
	       (unsigned long long)last);
	if (nsets > SETS_BAR_MAX) {
		printf("\n");
		return;
	}
	memset(bar, '.', (size_t)nsets);
	bar[nsets] = '\0';
	for (int c = 0; c < len; c++)
		bar[transpose_set_of(matrix, row, c, rows, cols, p->s, p->b)] = '#';
	printf(" %s\n", bar);
}

/* Every row of A and B of size z with its sets, then each version's misses
 * by set: where the rows of A and B compete (CHK-4's last misses). */
static int print_sets(const struct transpose_plan *p, int z)
{
	static uint64_t misses[1u << TRANSPOSE_SETS_MAX_S];
	int rows = p->rows[z], cols = p->cols[z], nsets = 1 << p->s;
	char name[32];
	mt_error e = { "" };
	printf(_("\n# sets of %dx%d on (%d,%d,%d): rows of A are %d bytes from 0x%x, rows of B %d "
		 "bytes from 0x%llx\n"),
	       rows, cols, p->s, p->E, p->b, cols * 4, TRANSPOSE_BASE_A, rows * 4,
	       (unsigned long long)transpose_base_b(rows, cols));
	for (int r = 0; r < rows; r++)
		print_set_row(p, 0, r, rows, cols);
	for (int r = 0; r < cols; r++)
		print_set_row(p, 1, r, rows, cols);
	printf("%s", _("# misses by set (set 0 first)\n"));
	for (int v = 0; v < p->nversions; v++) {
		if (transpose_misses_by_set(&p->versions[v], rows, cols, p->s, p->E, p->b, misses, &e) < 0) {
			mt_warn(_("run transpose: --sets: %s"), e.msg);
			return -1;
		}
		printf("%-11s", transpose_version_name(&p->versions[v], name, sizeof name));
		for (int s = 0; s < nsets; s++)
			printf(" %llu", (unsigned long long)misses[s]);
		printf("\n");
	}
	return 0;
}

/* ---- the command line ------------------------------------------------------ */

typedef int (*item_fn)(const char *, struct transpose_plan *, mt_error *);

static int parse_list(const char *arg, item_fn one, struct transpose_plan *p, mt_error *e)
{
	char buf[512], *save = NULL, *tok;
	if (mt_strlcpy(buf, arg, sizeof buf) < 0)
		return mt_fail(e, _("list too long: '%.40s...'"), arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (one(tok, p, e) < 0)
			return -1;
	return 0;
}

static int add_size(const char *s, struct transpose_plan *p, mt_error *e)
{
	if (p->nsizes >= TRANSPOSE_MAX_SIZES)
		return mt_fail(e, _("--size: at most %d sizes"), TRANSPOSE_MAX_SIZES);
	if (transpose_size_parse(s, &p->rows[p->nsizes], &p->cols[p->nsizes], e) < 0)
		return -1;
	p->nsizes++;
	return 0;
}

static int add_version(const char *s, struct transpose_plan *p, mt_error *e)
{
	if (p->nversions >= TRANSPOSE_MAX_VERSIONS)
		return mt_fail(e, _("--version: at most %d versions"), TRANSPOSE_MAX_VERSIONS);
	if (transpose_version_parse(s, &p->versions[p->nversions], e) < 0)
		return -1;
	p->nversions++;
	return 0;
}

static int add_real(const char *s, struct transpose_plan *p, mt_error *e)
{
	if (p->nreal >= TRANSPOSE_MAX_REAL)
		return mt_fail(e, _("--real-version: at most %d versions"), TRANSPOSE_MAX_REAL);
	if (transpose_version_parse(s, &p->real[p->nreal], e) < 0)
		return -1;
	p->nreal++;
	return 0;
}

/* --sweep: CHK-4's blocks after the versions asked for. */
static int add_sweep(struct transpose_plan *p, mt_error *e)
{
	for (int i = 0; i < TRANSPOSE_SWEEP_N; i++) {
		if (p->nversions >= TRANSPOSE_MAX_VERSIONS)
			return mt_fail(e, _("--sweep: at most %d versions in all"),
				       TRANSPOSE_MAX_VERSIONS);
		p->versions[p->nversions].method = TRANSPOSE_BLOCK;
		p->versions[p->nversions].br = p->versions[p->nversions].bc = transpose_sweep_sides[i];
		p->nversions++;
	}
	return 0;
}

/* The default real N halved until its two matrices fit half of what a run
 * may take on this machine (its memory, its job's cgroup; an N given is
 * checked by transpose_plan_check, not changed); note says so ("" when it
 * fits). */
static void fit_real(struct transpose_plan *p, char *note, size_t len)
{
	struct machine_budget b;
	size_t n = p->real_n;
	char a[32], c[32];
	note[0] = '\0';
	machine_mem_budget(machine_this(), &b);
	while (b.bytes && n > 256 && 8 * (uint64_t)n * n > b.bytes / 2)
		n /= 2;
	if (n == p->real_n)
		return;
	mt_snprintf(note, len, "%s: the real machine's N capped at %zu (A and B %s), the default "
			       "%zu would be %s",
		    b.who, n, mt_fmt_size(a, sizeof a, 8 * (uint64_t)n * n), p->real_n,
		    mt_fmt_size(c, sizeof c, 8 * (uint64_t)p->real_n * p->real_n));
	p->real_n = n;
}

/* Apply the options to p (defaults first, --quick under the ones given;
 * the default real N fitted to the memory, said in note). Returns 0, or -1
 * with e. */
static int make_plan(const struct batch_cli *cli, const struct args *a, struct transpose_plan *p,
		     char *note, size_t len, mt_error *e)
{
	mt_error de = { "" };
	if (cli->quick) {
		p->real_n = 256;
		p->real_tries = 3;
	}
	if (a->real_n)
		p->real_n = (size_t)a->real_n;
	if (a->real_block)
		p->real[1].br = p->real[1].bc = (int)a->real_block;
	if (a->real_sweep)
		transpose_plan_real_sweep(p);
	if (cli->tries)
		p->real_tries = cli->tries;
	if (a->no_real)
		p->real_n = 0;
	if (a->sizes && (p->nsizes = 0, parse_list(a->sizes, add_size, p, e) < 0))
		return -1;
	if (a->versions && (p->nversions = 0, parse_list(a->versions, add_version, p, e) < 0))
		return -1;
	if (a->reals && (p->nreal = 0, parse_list(a->reals, add_real, p, e) < 0))
		return -1;
	if (a->sweep && add_sweep(p, e) < 0)
		return -1;
	if (p->nsizes == 0 || p->nversions == 0 || (p->real_n && p->nreal == 0))
		return mt_fail(e, _("--size, --version and --real-version need at least one item"));
	if (!a->real_n && p->real_n)
		fit_real(p, note, len);
	if (transpose_plan_check(p, e) < 0)
		return -1;
	/* the folder last, once the rest is known good: made as mkdir -p would */
	if (a->trace_dir && mt_mkdir_p(a->trace_dir, &de) < 0)
		return mt_fail(e, _("--trace-out: %s"), de.msg);
	p->trace_dir = a->trace_dir;
	return 0;
}

/* The defaults, before the options: the plan's, no args, no extras. */
static void defaults(void *params)
{
	struct run_params *rp = params;
	memset(&rp->a, 0, sizeof rp->a);
	memset(&rp->x, 0, sizeof rp->x);
	transpose_plan_default(&rp->p);
}

/* After the options: the plan made from them (make_plan). Returns 0, or
 * -1 (said in one line). */
static int check(struct batch_cli *cli, void *params)
{
	struct run_params *rp = params;
	mt_error e = { "" };
	if (make_plan(cli, &rp->a, &rp->p, rp->x.note, sizeof rp->x.note, &e) < 0) {
		mt_warn(_("run transpose: %s"), e.msg);
		return -1;
	}
	return 0;
}

/* The line above the table and its head. */
static int head(void *printer)
{
	const struct printer *b = printer;
	const struct batch_run *run = b->run;
	const struct transpose_plan *p = b->p;
	int csv = b->csv;
	fprintf(run->meta,
		_("# transpose: misses on the cache (s,E,b) = (%d,%d,%d), int32, A at 0x%x, B at "
		  "0x%x\n"),
		p->s, p->E, p->b, TRANSPOSE_BASE_A, TRANSPOSE_BASE_B);
	if (p->trace_dir)
		fprintf(run->meta,
			_("# traces: %s/transpose-VERSION-RxC.trace (memtop sim -s %d -E %d -b %d -t "
			  "FILE replays one)\n"),
			p->trace_dir, p->s, p->E, p->b);
	fflush(run->meta);
	if (csv) {
		/* machine text: CSV */
		printf("kind,version,rows,cols,accesses,hits,misses,evictions,correct,ns_per_element\n");
	} else {
		char h[64];
		/* TRANSLATORS: the simulated table's first column (naive,
		 * block:8 ...), 10 wide; the sizes follow */
		printf("%s", mt_text_pad(h, sizeof h, _("version"), -10));
		for (int z = 0; z < p->nsizes; z++) {
			char sz[24];
			mt_snprintf(sz, sizeof sz, "%dx%d", p->rows[z], p->cols[z]);
			printf("%7s", sz);
		}
		printf("\n");
	}
	fflush(stdout);
	return 0;
}

/* A warning per simulated version that did not transpose. */
static void print_wrong(const struct batch_run *run, const struct printer *b)
{
	const struct transpose_plan *p = b->p;
	char name[32];
	for (int v = 0; v < p->nversions; v++)
		for (int z = 0; z < p->nsizes; z++)
			if (!b->r.sim[v][z].correct)
				fprintf(run->meta, _("# warning: %s on %dx%d did not transpose correctly\n"),
					transpose_version_name(&p->versions[v], name, sizeof name),
					p->rows[z], p->cols[z]);
}

/* After the run: the homework's verdict, the set maps, wrong results.
 * Returns 0, or MT_EXIT_RUNTIME (said) when a set map could not be made. */
static int summary(void *printer)
{
	const struct printer *b = printer;
	print_speedup(b);
	for (int z = 0; b->x->sets && !b->csv && z < b->p->nsizes; z++)
		if (print_sets(b->p, z) < 0)
			return MT_EXIT_RUNTIME;
	if (b->wrong)
		print_wrong(b->run, b);
	return 0;
}

/* p as a plan: the simulated sizes (no machine in them), and the real
 * machine's two N x N int32 matrices with where they sit for the worker. */
static void describe(const struct machine *m, int cpu, const void *params, const void *printer,
		     struct plan *out)
{
	const struct transpose_plan *p = &((const struct run_params *)params)->p;
	const char *note = ((const struct run_params *)params)->x.note;
	char where[16], why[160];
	(void)printer;
	plan_say_n(out,
		   "%d simulated sizes on the cachelab cache: nothing of the machine in them",
		   "%d simulated sizes on the cachelab cache: nothing of the machine in them",
		   (unsigned long)p->nsizes, p->nsizes);
	if (!p->real_n)
		return;
	if (note[0]) /* with figures: English, as the JSON keeps it */
		plan_note(out, "%s", note);
	out->worker_cpu = cpu;
	if (cpu >= 0)
		plan_add_threads(out, 1, &cpu, 1);
	mt_snprintf(why, sizeof why,
		    plan_words(out, N_("A and B, %zu x %zu int32 each, transposed on the real "
				       "machine")),
		    p->real_n, p->real_n);
	plan_add_size(out, cpu >= 0 ? machine_level_name(m, 8 * (uint64_t)p->real_n * p->real_n,
							 &cpu, 1, where, sizeof where)
				    : "",
		      8 * (uint64_t)p->real_n * p->real_n, 1, 0, why);
}

/* The printer with its empty result. Returns 0. */
static int start(struct batch_cli *cli, const struct machine *m, void *params, void *printer)
{
	struct run_params *rp = params;
	struct printer *b = printer;
	(void)cli;
	(void)m;
	b->p = &rp->p;
	b->x = &rp->x;
	transpose_result_init(&b->r, &rp->p);
	return 0;
}

/* A simulated version that did not transpose fails the run (exit 1; the
 * warnings said it). */
static int verdict(const void *printer)
{
	return ((const struct printer *)printer)->wrong ? MT_EXIT_RUNTIME : MT_EXIT_OK;
}

const struct experiment exp_transpose = {
	.name = "transpose",
	.about = N_("matrix transpose on cachelab's cache, and its versions timed (seed 003)"),
	EXPERIMENT_PARTS,
	.defaults = defaults,
	.check = check,
	.pinned = 1,
	EXPERIMENT_JOB(transpose_worker), /* on the transpose_plan, the params' first field */
	EXPERIMENT_RESULT(r, &kind_transpose),
	.verdict = verdict,
};
