/* memtop run transpose: the transpose lab in batch mode. Prints the seed's
 * table of misses (versions down, sizes across), cachelab's pass/fail, then
 * the real machine's naive against blocked timing. */
#include "config.h"

#include "experiment.h"
#include "job.h"
#include "jsonio.h"
#include "transpose.h"
#include "util.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tr_batch {
	const struct tr_plan *p;
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
		"  --json FILE        write the result to FILE (atomically)\n"
		"  -h, --help         this help\n\n"
		"cachelab's limits: 32x32 under 300 misses, 64x64 under 1300, 61x67 under 2000.\n");
}

static void print_row(struct tr_batch *b, int v)
{
	char name[32];
	printf("%-10s", tr_version_name(&b->p->versions[v], name, sizeof name));
	for (int z = 0; z < b->p->nsizes; z++)
		printf("%7llu", (unsigned long long)b->res[v][z].misses);
	printf("\n");
	fflush(stdout);
}

static int is_cachelab_cache(const struct tr_plan *p)
{
	return p->s == 5 && p->E == 1 && p->b == 5;
}

static void print_pass_fail(const struct tr_batch *b)
{
	const struct tr_plan *p = b->p;
	char name[32], lim[16];
	int any = 0;
	for (int z = 0; z < p->nsizes; z++)
		any |= tr_cachelab_limit(p->rows[z], p->cols[z]) > 0;
	if (!any || !is_cachelab_cache(p))
		return;
	printf("\n%-10s", "cachelab");
	for (int z = 0; z < p->nsizes; z++) {
		int l = tr_cachelab_limit(p->rows[z], p->cols[z]);
		if (l)
			mt_snprintf(lim, sizeof lim, "<%d", l);
		else
			mt_strlcpy(lim, "-", sizeof lim);
		printf("%7s", lim);
	}
	printf("\n");
	for (int v = 0; v < p->nversions; v++) {
		printf("%-10s", tr_version_name(&p->versions[v], name, sizeof name));
		for (int z = 0; z < p->nsizes; z++) {
			int l = tr_cachelab_limit(p->rows[z], p->cols[z]);
			printf("%7s", !l ? "-" : b->res[v][z].misses < (uint64_t)l ? "pass" : "FAIL");
		}
		printf("\n");
	}
}

static void on_event(const struct job_event *ev, void *ctx)
{
	struct tr_batch *b = ctx;
	if (ev->type == JOB_EV_NOTE) {
		printf("# %s\n", ev->text);
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
			printf("\n# real machine: N = %zu int32 (%zu MB a matrix), best of %d\n",
			       b->p->real_n, b->p->real_n * b->p->real_n * 4 >> 20, b->p->real_tries);
		} else {
			mt_snprintf(name, sizeof name, "block:%zu", b->p->real_block);
		}
		printf("%-10s%8.3f ns/element%s\n", name, ev->value,
		       b->real_ok[ev->row] ? "" : "  (WRONG RESULT)");
		if (ev->row == 1 && b->real_ns[0] > 0 && ev->value > 0) {
			double up = b->real_ns[0] / ev->value;
			printf("%-10s%8.2fx (the seed's homework asks for at least 2x: %s)\n", "speed-up",
			       up, up >= 2 ? "pass" : "FAIL");
		}
		fflush(stdout);
	}
}

static cJSON *to_json(const struct tr_batch *b, const struct run_header *hdr)
{
	const struct tr_plan *p = b->p;
	cJSON *root = cJSON_CreateObject(), *o, *arr;
	char name[32];
	if (!root)
		return NULL;
	if (run_header_to_json(hdr, root) < 0)
		goto fail;
	cJSON_AddStringToObject(root, "experiment", "transpose");
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

static int parse_cache(const char *s, struct tr_plan *p, mt_error *e)
{
	uint64_t v[3];
	if (mt_parse_u64_list(s, 0, 1u << 20, v, 3) != 3 || v[1] < 1)
		return mt_fail(e, "--cache: expected s,E,b such as 5,1,5, got '%s'", s);
	p->s = (int)v[0];
	p->E = (int)v[1];
	p->b = (int)v[2];
	return 0;
}

static int transpose_batch(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 'z' },
		{ "version", required_argument, NULL, 'v' },
		{ "cache", required_argument, NULL, 'c' },
		{ "no-real", no_argument, NULL, 'N' },
		{ "real-n", required_argument, NULL, 'n' },
		{ "real-block", required_argument, NULL, 'k' },
		{ "tries", required_argument, NULL, 't' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct tr_plan p; /* outlives the job */
	struct tr_batch *b = NULL;
	struct run_header hdr;
	struct job_progress pr;
	const char *json = NULL, *sizes = NULL, *versions = NULL;
	int ch, st, rc = MT_EXIT_RUNTIME, iv;
	uint64_t u;
	job_t *job;
	char name[32];
	mt_error e = { "" };

	tr_plan_default(&p);
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 'z': sizes = optarg; break;
		case 'v': versions = optarg; break;
		case 'c':
			if (parse_cache(optarg, &p, &e) < 0)
				goto usage_error;
			break;
		case 'N': p.real_n = 0; break;
		case 'n':
			if (mt_parse_u64(optarg, 16, 32768, &u) < 0) {
				mt_fail(&e, "--real-n: expected 16..32768, got '%s'", optarg);
				goto usage_error;
			}
			p.real_n = (size_t)u;
			break;
		case 'k':
			if (mt_parse_u64(optarg, 1, 4096, &u) < 0) {
				mt_fail(&e, "--real-block: expected 1..4096, got '%s'", optarg);
				goto usage_error;
			}
			p.real_block = (size_t)u;
			break;
		case 't':
			if (mt_parse_int(optarg, 1, 100, &iv) < 0) {
				mt_fail(&e, "--tries: expected 1..100, got '%s'", optarg);
				goto usage_error;
			}
			p.real_tries = iv;
			break;
		case 'C':
			if (mt_parse_int(optarg, 0, 65535, &p.cpu) < 0) {
				mt_fail(&e, "--cpu: expected a CPU number, got '%s'", optarg);
				goto usage_error;
			}
			break;
		case 'j': json = optarg; break;
		case 'h': usage(stdout); return MT_EXIT_OK;
		default:
			mt_warn("run transpose: unknown option '%s' (see memtop run transpose --help)",
				argv[optind - 1]);
			return MT_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		mt_warn("run transpose: unexpected argument '%s'", argv[optind]);
		return MT_EXIT_USAGE;
	}
	if (sizes) {
		p.nsizes = 0;
		if (parse_list(sizes, add_size, &p, &e) < 0)
			goto usage_error;
	}
	if (versions) {
		p.nversions = 0;
		if (parse_list(versions, add_version, &p, &e) < 0)
			goto usage_error;
	}
	if (p.nsizes == 0 || p.nversions == 0) {
		mt_fail(&e, "--size and --version need at least one item");
		goto usage_error;
	}
	b = calloc(1, sizeof *b);
	if (!b) {
		mt_warn("run transpose: out of memory");
		return MT_EXIT_RUNTIME;
	}
	b->p = &p;
	job = tr_job_start(&p, &e);
	if (!job) {
		mt_warn("run transpose: %s", e.msg);
		free(b);
		return strncmp(e.msg, "cache:", 6) == 0 ? MT_EXIT_USAGE : MT_EXIT_RUNTIME;
	}
	job_get_progress(job, &pr);
	run_header_init(&hdr, pr.cpu);
	run_header_print(stdout, &hdr);
	printf("# transpose: misses on the cache (s,E,b) = (%d,%d,%d), int32, A at 0x%x, B at 0x%x\n",
	       p.s, p.E, p.b, TR_BASE_A, TR_BASE_B);
	printf("%-10s", "version");
	for (int z = 0; z < p.nsizes; z++) {
		char sz[24];
		mt_snprintf(sz, sizeof sz, "%dx%d", p.rows[z], p.cols[z]);
		printf("%7s", sz);
	}
	printf("\n");
	fflush(stdout);
	st = job_pump(job, on_event, b, 1, &e);
	if (st < 0) {
		mt_warn("run transpose: %s", e.msg);
		goto out;
	}
	if (st == 1) {
		mt_warn("run transpose: cancelled; nothing written");
		goto out;
	}
	if (b->wrong) {
		for (int v = 0; v < p.nversions; v++)
			for (int z = 0; z < p.nsizes; z++)
				if (!b->res[v][z].correct)
					printf("# warning: %s on %dx%d did not transpose correctly\n",
					       tr_version_name(&p.versions[v], name, sizeof name),
					       p.rows[z], p.cols[z]);
	}
	if (json) {
		cJSON *root = to_json(b, &hdr);
		if (!root || jsonio_save(json, root, &e) < 0) {
			if (!root)
				mt_fail(&e, "out of memory");
			mt_warn("run transpose: %s", e.msg);
			cJSON_Delete(root);
			goto out;
		}
		cJSON_Delete(root);
		printf("# wrote %s\n", json);
	}
	rc = b->wrong ? MT_EXIT_RUNTIME : MT_EXIT_OK;
out:
	free(b);
	return rc;
usage_error:
	mt_warn("run transpose: %s", e.msg);
	return MT_EXIT_USAGE;
}

const struct experiment exp_transpose = {
	"transpose",
	"matrix transpose on cachelab's cache, and naive vs blocked timed (seed 003)",
	transpose_batch,
};
