/* memtop run transpose: the transpose lab in batch mode. Prints the seed's
 * table of misses (versions down, sizes across), cachelab's pass/fail, then
 * the real machine's naive against blocked timing. */
#include "config.h"

#include "core/batch.h"
#include "core/experiment.h"
#include "core/job.h"
#include "core/jsonio.h"
#include "transpose.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The table on stdout, a row as each version's sizes are in. */
struct printer {
	const struct tr_plan *p;
	const struct batch_run *run;
	int csv;
	struct tr_result res[TR_MAX_VERSIONS][TR_MAX_SIZES];
	int got[TR_MAX_VERSIONS][TR_MAX_SIZES];
	int next_row;      /* rows printed */
	double real_ns[2]; /* naive, blocked; 0 = not measured */
	double real_spread[2];
	int real_ok[2];
	int wrong;         /* simulated results that did not transpose */
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: memtop run transpose [OPTIONS]\n"
		"Cache misses of matrix transpose on cachelab's cache (s,E,b) = (5,1,5), and\n"
		"naive against blocked transpose timed on this machine.\n\n"
		"  --size LIST        sizes ROWSxCOLS, comma-separated (default 32x32,64x64,61x67)\n"
		"  --version LIST     naive, block:K, diagonal, comma-separated\n"
		"                     (default naive,block:8,block:16,diagonal)\n"
		"  --cache s,E,b      the simulated cache (default 5,1,5)\n"
		"  --no-real          skip the real-machine timing\n"
		"  --real-n N         real-machine matrix side (default 4096)\n"
		"  --real-block K     block side of the real blocked version (default 16)\n"
		"  --tries N          real-machine timing: best of N (default 5)\n"
		"  --cpu N            pin the measuring thread to CPU N\n"
		"  --quick            small run for tests: the simulated table, real N = 256, 1 try\n"
		"  --json FILE        write the result to FILE (atomically)\n"
		"  --csv              print CSV, one row a result (the rest goes to stderr)\n"
		"  -h, --help         this help\n\n"
		"cachelab's limits: 32x32 under 300 misses, 64x64 under 1300, 61x67 under 2000.\n");
}

static void print_row(struct printer *b, int v)
{
	char name[32];
	tr_version_name(&b->p->versions[v], name, sizeof name);
	if (b->csv) {
		for (int z = 0; z < b->p->nsizes; z++) {
			const struct tr_result *r = &b->res[v][z];
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
		printf("%7llu", (unsigned long long)b->res[v][z].misses);
	printf("\n");
	fflush(stdout);
}

static int is_cachelab_cache(const struct tr_plan *p)
{
	return p->s == 5 && p->E == 1 && p->b == 5;
}

static void print_pass_fail(const struct printer *b)
{
	FILE *f = b->run->meta;
	const struct tr_plan *p = b->p;
	char name[32], lim[16];
	int any = 0;
	for (int z = 0; z < p->nsizes; z++)
		any |= tr_cachelab_limit(p->rows[z], p->cols[z]) > 0;
	if (!any || !is_cachelab_cache(p))
		return;
	fprintf(f, "\n%-10s", "cachelab");
	for (int z = 0; z < p->nsizes; z++) {
		int l = tr_cachelab_limit(p->rows[z], p->cols[z]);
		if (l)
			mt_snprintf(lim, sizeof lim, "<%d", l);
		else
			mt_strlcpy(lim, "-", sizeof lim);
		fprintf(f, "%7s", lim);
	}
	fprintf(f, "\n");
	for (int v = 0; v < p->nversions; v++) {
		fprintf(f, "%-10s", tr_version_name(&p->versions[v], name, sizeof name));
		for (int z = 0; z < p->nsizes; z++) {
			int l = tr_cachelab_limit(p->rows[z], p->cols[z]);
			fprintf(f, "%7s",
				!l ? "-" : b->res[v][z].misses < (uint64_t)l ? "pass" : "FAIL");
		}
		fprintf(f, "\n");
	}
}

static void on_event(const struct job_event *ev, void *ctx)
{
	struct printer *b = ctx;
	FILE *meta = b->run->meta;
	if (ev->type == JOB_EV_NOTE) {
		batch_note(b->run, ev->text);
		return;
	}
	if (ev->type != JOB_EV_CELL)
		return;
	if (ev->kind == TR_EV_SIM && ev->row >= 0 && ev->row < b->p->nversions && ev->col >= 0 &&
	    ev->col < b->p->nsizes) {
		struct tr_result *r = &b->res[ev->row][ev->col];
		r->misses = (uint64_t)ev->value;
		r->hits = (uint64_t)ev->aux[0];
		r->evictions = (uint64_t)ev->aux[1];
		r->accesses = (uint64_t)ev->aux[2];
		r->correct = ev->aux[3] > 0;
		if (!r->correct)
			b->wrong++;
		b->got[ev->row][ev->col] = 1;
		while (b->next_row < b->p->nversions) {
			int full = 1;
			for (int z = 0; z < b->p->nsizes; z++)
				full &= b->got[b->next_row][z];
			if (!full)
				break;
			print_row(b, b->next_row++);
		}
		if (b->next_row == b->p->nversions && ev->row == b->p->nversions - 1 &&
		    ev->col == b->p->nsizes - 1)
			print_pass_fail(b);
	} else if (ev->kind == TR_EV_REAL && (ev->row == 0 || ev->row == 1)) {
		char name[32];
		b->real_ns[ev->row] = ev->value;
		b->real_spread[ev->row] = ev->spread;
		b->real_ok[ev->row] = ev->aux[3] > 0;
		if (ev->row == 0) {
			mt_strlcpy(name, "naive", sizeof name);
			char sz[32];
			fprintf(meta, "%s# real machine: N = %zu int32 (%s a matrix), best of %d\n",
				b->csv ? "" : "\n", b->p->real_n,
				mt_fmt_size(sz, sizeof sz, (uint64_t)b->p->real_n * b->p->real_n * 4),
				b->p->real_tries);
		} else {
			mt_snprintf(name, sizeof name, "block:%zu", b->p->real_block);
		}
		if (b->csv)
			printf("real,%s,%zu,%zu,,,,,%d,%.4f\n", name, b->p->real_n, b->p->real_n,
			       b->real_ok[ev->row], ev->value);
		else
			printf("%-10s%8.3f ns/element%s\n", name, ev->value,
			       b->real_ok[ev->row] ? "" : "  (WRONG RESULT)");
		if (ev->row == 1 && b->real_ns[0] > 0 && ev->value > 0) {
			double up = b->real_ns[0] / ev->value;
			fprintf(meta, "%s%8.2fx (the seed's homework asks for at least 2x: %s)\n",
				b->csv ? "# speed-up " : "speed-up  ", up, up >= 2 ? "pass" : "FAIL");
		}
		fflush(stdout);
	}
}

static cJSON *to_json(const struct printer *b)
{
	const struct tr_plan *p = b->p;
	cJSON *root = batch_json_root(b->run), *o, *arr;
	char name[32];
	if (!root)
		return NULL;
	o = cJSON_AddObjectToObject(root, "cache");
	if (!o)
		goto fail;
	cJSON_AddNumberToObject(o, "s", p->s);
	cJSON_AddNumberToObject(o, "E", p->E);
	cJSON_AddNumberToObject(o, "b", p->b);
	arr = cJSON_AddArrayToObject(root, "results");
	if (!arr)
		goto fail;
	for (int v = 0; v < p->nversions; v++)
		for (int z = 0; z < p->nsizes; z++) {
			const struct tr_result *r = &b->res[v][z];
			int l = tr_cachelab_limit(p->rows[z], p->cols[z]);
			cJSON *x = cJSON_CreateObject();
			if (!x)
				goto fail;
			cJSON_AddItemToArray(arr, x);
			cJSON_AddStringToObject(x, "version",
						tr_version_name(&p->versions[v], name, sizeof name));
			cJSON_AddNumberToObject(x, "rows", p->rows[z]);
			cJSON_AddNumberToObject(x, "cols", p->cols[z]);
			cJSON_AddNumberToObject(x, "accesses", (double)r->accesses);
			cJSON_AddNumberToObject(x, "hits", (double)r->hits);
			cJSON_AddNumberToObject(x, "misses", (double)r->misses);
			cJSON_AddNumberToObject(x, "evictions", (double)r->evictions);
			cJSON_AddBoolToObject(x, "correct", r->correct);
			if (l && is_cachelab_cache(p)) {
				cJSON_AddNumberToObject(x, "limit", l);
				cJSON_AddBoolToObject(x, "pass", r->misses < (uint64_t)l);
			}
		}
	if (p->real_n && b->real_ns[0] > 0 && b->real_ns[1] > 0) {
		o = cJSON_AddObjectToObject(root, "real");
		if (!o)
			goto fail;
		cJSON_AddNumberToObject(o, "n", (double)p->real_n);
		cJSON_AddNumberToObject(o, "block", (double)p->real_block);
		cJSON_AddNumberToObject(o, "tries", p->real_tries);
		cJSON_AddNumberToObject(o, "naive_ns_per_element", b->real_ns[0]);
		cJSON_AddNumberToObject(o, "blocked_ns_per_element", b->real_ns[1]);
		cJSON_AddNumberToObject(o, "naive_spread", b->real_spread[0]);
		cJSON_AddNumberToObject(o, "blocked_spread", b->real_spread[1]);
		cJSON_AddNumberToObject(o, "speedup", b->real_ns[0] / b->real_ns[1]);
	}
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}

static int parse_list(const char *arg, int (*one)(const char *, struct tr_plan *, mt_error *),
		      struct tr_plan *p, mt_error *e)
{
	char buf[512], *save = NULL, *tok;
	if (mt_strlcpy(buf, arg, sizeof buf) < 0)
		return mt_fail(e, "list too long: '%.40s...'", arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (one(tok, p, e) < 0)
			return -1;
	return 0;
}

static int add_size(const char *s, struct tr_plan *p, mt_error *e)
{
	if (p->nsizes >= TR_MAX_SIZES)
		return mt_fail(e, "--size: at most %d sizes", TR_MAX_SIZES);
	if (tr_size_parse(s, &p->rows[p->nsizes], &p->cols[p->nsizes], e) < 0)
		return -1;
	p->nsizes++;
	return 0;
}

static int add_version(const char *s, struct tr_plan *p, mt_error *e)
{
	if (p->nversions >= TR_MAX_VERSIONS)
		return mt_fail(e, "--version: at most %d versions", TR_MAX_VERSIONS);
	if (tr_version_parse(s, &p->versions[p->nversions], e) < 0)
		return -1;
	p->nversions++;
	return 0;
}

/* Parse argv into cli and p. Returns 0, or -1 when the command ends here
 * with exit code cli->rc (--help: 0; a bad value, said in one line: 2). */
static int parse_args(struct batch_cli *cli, int argc, char **argv, struct tr_plan *p)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 'z' },
		{ "version", required_argument, NULL, 'v' },
		{ "cache", required_argument, NULL, 'c' },
		{ "no-real", no_argument, NULL, 'N' },
		{ "real-n", required_argument, NULL, 'n' },
		{ "real-block", required_argument, NULL, 'k' },
		{ "tries", required_argument, NULL, 't' },
		BATCH_OPTION_CPU,
		BATCH_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	const char *sizes = NULL, *versions = NULL;
	int ch, tries = 0, no_real = 0;
	uint64_t real_n = 0, real_block = 0;
	mt_error e = { "" };

	tr_plan_default(p);
	batch_cli_init(cli, "transpose", usage);
	while ((ch = batch_next(cli, argc, argv, opts)) > 0) {
		switch (ch) {
		case 'z': sizes = optarg; break;
		case 'v': versions = optarg; break;
		case 'c':
			if (batch_opt_cache(cli->exp, "--cache", optarg, "5,1,5", 1 << 20, 1 << 20,
					    1 << 20, &p->s, &p->E, &p->b) < 0)
				return -1;
			break;
		case 'N': no_real = 1; break;
		case 'n':
			if (batch_opt_u64(cli->exp, "--real-n", optarg, 16, 32768, &real_n) < 0)
				return -1;
			break;
		case 'k':
			if (batch_opt_u64(cli->exp, "--real-block", optarg, 1, 4096, &real_block) < 0)
				return -1;
			break;
		case 't':
			if (batch_opt_int(cli->exp, "--tries", optarg, 1, 100, &tries) < 0)
				return -1;
			break;
		}
	}
	if (ch < 0)
		return -1;
	if (cli->quick) {
		p->real_n = 256;
		p->real_tries = 1;
	}
	if (real_n)
		p->real_n = (size_t)real_n;
	if (real_block)
		p->real_block = (size_t)real_block;
	if (tries)
		p->real_tries = tries;
	if (no_real)
		p->real_n = 0;
	if (sizes) {
		p->nsizes = 0;
		if (parse_list(sizes, add_size, p, &e) < 0)
			goto bad;
	}
	if (versions) {
		p->nversions = 0;
		if (parse_list(versions, add_version, p, &e) < 0)
			goto bad;
	}
	if (p->nsizes == 0 || p->nversions == 0) {
		mt_fail(&e, "--size and --version need at least one item");
		goto bad;
	}
	if (tr_plan_check(p, &e) < 0)
		goto bad;
	return 0;
bad:
	mt_warn("run transpose: %s", e.msg);
	cli->rc = MT_EXIT_USAGE;
	return -1;
}

/* The line above the table and its head. */
static void print_plan(const struct batch_run *run, const struct tr_plan *p, int csv)
{
	fprintf(run->meta,
		"# transpose: misses on the cache (s,E,b) = (%d,%d,%d), int32, A at 0x%x, B at 0x%x\n",
		p->s, p->E, p->b, TR_BASE_A, TR_BASE_B);
	fflush(run->meta);
	if (csv) {
		printf("kind,version,rows,cols,accesses,hits,misses,evictions,correct,ns_per_element\n");
	} else {
		printf("%-10s", "version");
		for (int z = 0; z < p->nsizes; z++) {
			char sz[24];
			mt_snprintf(sz, sizeof sz, "%dx%d", p->rows[z], p->cols[z]);
			printf("%7s", sz);
		}
		printf("\n");
	}
	fflush(stdout);
}

/* A warning per simulated version that did not transpose. */
static void print_wrong(const struct batch_run *run, const struct printer *b)
{
	const struct tr_plan *p = b->p;
	char name[32];
	for (int v = 0; v < p->nversions; v++)
		for (int z = 0; z < p->nsizes; z++)
			if (!b->res[v][z].correct)
				fprintf(run->meta, "# warning: %s on %dx%d did not transpose correctly\n",
					tr_version_name(&p->versions[v], name, sizeof name),
					p->rows[z], p->cols[z]);
}

static int transpose_batch(int argc, char **argv)
{
	static struct tr_plan p; /* outlives the job */
	struct printer *b;
	struct batch_cli cli;
	struct batch_run run;
	int rc;

	if (parse_args(&cli, argc, argv, &p) < 0)
		return cli.rc;
	b = calloc(1, sizeof *b);
	if (!b) {
		mt_warn("run transpose: out of memory");
		return MT_EXIT_RUNTIME;
	}
	b->p = &p;
	b->run = &run;
	b->csv = cli.csv;
	batch_begin(&run, &cli, 1);
	print_plan(&run, &p, cli.csv);
	rc = batch_pump(&run, transpose_worker, &p, on_event, b);
	if (rc == 0) {
		if (b->wrong)
			print_wrong(&run, b);
		rc = batch_finish(&run, batch_wants_json(&run) ? to_json(b) : NULL);
		if (rc == MT_EXIT_OK && b->wrong)
			rc = MT_EXIT_RUNTIME;
	}
	free(b);
	return rc;
}

const struct experiment exp_transpose = {
	"transpose",
	"matrix transpose on cachelab's cache, and naive vs blocked timed (seed 003)",
	transpose_batch,
};
