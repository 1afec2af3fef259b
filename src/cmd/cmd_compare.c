/* memtop compare A.json B.json ...: saved results side by side (machines
 * in a lab, before and after, or against the seed's figures with --seed),
 * with each run's conditions above its column and ratios against the first
 * file. This file parses the command line, tells the kind of the first
 * file and hands over to the part for that kind (compare.h); saved latency
 * runs are compared here. */
#include "config.h"

#include "cmd.h"
#include "compare.h"
#include "compare_table.h"
#include "core/datadir.h"
#include "core/jsonio.h"
#include "core/util.h"
#include "labs/falseshare.h"
#include "labs/lists.h"
#include "labs/matmul.h"
#include "latency/latency.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES COMPARE_MAX_FILES

static void usage(FILE *f)
{
	fprintf(f, "Usage: memtop compare A.json B.json [C.json ...] [--stride N]... [--seed]\n"
		   "Saved results of one kind side by side, with the ratio of every file to the\n"
		   "first. Mountains: the size slice at each chosen stride, the levels each one\n"
		   "shows and its passport (peak, floor, ridge, line size row). Latency runs: the\n"
		   "random chase (else the largest shared stride) at power-of-two sizes and the\n"
		   "levels of each curve. Matmul, falseshare and lists results: their tables\n"
		   "row by row. The first file decides the kind.\n\n"
		   "  --stride N   a stride (words) to show; repeatable (default: 1 and 8, those\n"
		   "               all files have, else the first stride they share)\n"
		   "  --seed       add the seed's Apple M4 Max figures of the first file's kind\n"
		   "               (data/m4max.json, data/ref/KIND-m4max.json) as the last file;\n"
		   "               one file is then enough\n"
		   "  -h, --help   this help\n");
}

/* Which file is which: its path, hardware line, build, load, warnings. */
void compare_print_header(char tag, const char *source, const struct run_header *h)
{
	char line[600], path[MT_PATH_MAX], lead[4] = { tag, ':', ' ', '\0' };
	/* the path is a name from a lab's share: printable first */
	cmp_wrapped(stdout, 3, lead, mt_printable(path, sizeof path, source, 0));
	cmp_wrapped(stdout, 3, NULL, h->hardware[0] ? h->hardware : "(no hardware field)");
	if (h->has_diag) {
		char w[8][160];
		int n = diag_warnings(&h->diag, w, 8);
		mt_snprintf(line, sizeof line, "build %s; load %.2f before the run", h->build,
			    h->diag.load_before);
		cmp_wrapped(stdout, 3, NULL, line);
		for (int k = 0; k < n; k++) {
			mt_snprintf(line, sizeof line, "warning: %s", w[k]);
			cmp_wrapped(stdout, 3, NULL, line);
		}
	}
}

/* "latency" when root is a latency result (memtop run latency --json). */
static int is_latency(const cJSON *root)
{
	const char *ex = jsonio_experiment(root);
	return ex && strcmp(ex, "latency") == 0;
}

/* The curve compared: the random chase when every file has it, else the
 * largest stride they share. Sets *stride (0: random). Returns the values
 * of r at sizes[i] (ns), or NULL when r lacks it. */
static const double *latency_curve(const struct latency_result *r, unsigned stride)
{
	if (stride == 0)
		return r->has_random ? r->random_ns : NULL;
	for (size_t k = 0; k < r->nstrides; k++)
		if (r->strides[k] == stride)
			return r->ns[k];
	return NULL;
}

/* The index of size in r's sizes, or -1 when r has no such size. */
static int latency_size_index(const struct latency_result *r, uint64_t size)
{
	for (size_t i = 0; i < r->nsizes; i++)
		if (r->sizes[i] == size)
			return (int)i;
	return -1;
}

/* Loads each of files[0..nfiles) as a latency result into r[]; on failure
 * warns with the file named and returns -1 (what was loaded stays in r[]
 * for the caller to free). */
static int load_latency_files(char **files, int nfiles, struct latency_result **r)
{
	mt_error e = { "" };
	for (int i = 0; i < nfiles; i++) {
		cJSON *root = jsonio_load(files[i], &e);
		if (root && !is_latency(root)) {
			mt_fail(&e, "%s: not a latency result (compare files of one kind)", files[i]);
			cJSON_Delete(root);
			root = NULL;
		}
		if (root) {
			r[i] = latency_from_json(root, files[i], &e);
			cJSON_Delete(root);
		}
		if (!r[i]) {
			mt_warn("%s", e.msg);
			return -1;
		}
	}
	return 0;
}

/* The curve to compare: 0 (the random chase) when every file has it, else
 * the largest fixed stride every file has; warns and returns -1 when they
 * share no curve. */
static int shared_stride(struct latency_result **r, int nfiles, unsigned *stride)
{
	int fixed = 0;
	*stride = 0;
	for (int i = 0; i < nfiles; i++)
		if (!r[i]->has_random)
			fixed = 1;
	if (!fixed)
		return 0;
	for (size_t k = 0; k < r[0]->nstrides; k++) {
		int all = 1;
		for (int i = 1; i < nfiles; i++)
			all &= latency_curve(r[i], r[0]->strides[k]) != NULL;
		if (all)
			*stride = r[0]->strides[k];
	}
	if (!*stride) {
		mt_warn("compare: the latency files share no curve");
		return -1;
	}
	return 0;
}

/* Prints the table of the stride's curve at the power-of-two sizes every
 * file has, with ratios to the first. */
static void latency_table(struct latency_result **r, int nfiles, unsigned stride)
{
	struct cmp_table t;
	char title[64];
	if (stride)
		mt_snprintf(title, sizeof title, "fixed stride %u B, ns a load", stride);
	else
		mt_snprintf(title, sizeof title, "random chase, ns a load");
	cmp_begin(&t, title, nfiles, 2, 0);
	for (size_t s = 0; s < r[0]->nsizes; s++) {
		uint64_t size = r[0]->sizes[s];
		double v[MAX_FILES];
		char b[32];
		int all = (size & (size - 1)) == 0; /* powers of two: a readable table */
		for (int i = 0; i < nfiles && all; i++) {
			int k = latency_size_index(r[i], size);
			v[i] = k < 0 ? (double)NAN : latency_curve(r[i], stride)[k];
			all = !isnan(v[i]);
		}
		if (all)
			cmp_row(&t, mt_fmt_size(b, sizeof b, size), v);
	}
	cmp_end(&t);
}

/* Prints, for each file after the first, the median relative difference and
 * the median ratio to the first over every size both have. */
static void latency_differences(struct latency_result **r, int nfiles, unsigned stride)
{
	double d[LAT_MAX_SIZES], q[LAT_MAX_SIZES];
	printf("\nover every size the files share:\n");
	for (int i = 1; i < nfiles; i++) {
		size_t n = 0;
		for (size_t s = 0; s < r[0]->nsizes; s++) {
			int k = latency_size_index(r[i], r[0]->sizes[s]);
			double x = latency_curve(r[0], stride)[s], y;
			if (k < 0)
				continue;
			y = latency_curve(r[i], stride)[k];
			if (isnan(x) || isnan(y) || x <= 0 || y <= 0)
				continue;
			d[n] = fabs(y - x) / ((x + y) / 2);
			q[n] = y / x;
			n++;
		}
		if (n == 0)
			printf("  %c vs A: no common sizes\n", 'A' + i);
		else
			printf("  %c vs A: %zu sizes, median difference %.1f %%, median %c/A %.3f\n",
			       'A' + i, n, mt_median(d, n) * 100, 'A' + i, mt_median(q, n));
	}
}

/* Prints the levels each file's latency curve shows (TLB steps left out). */
static void latency_levels_each(struct latency_result **r, int nfiles)
{
	printf("\nlevels by the latency curve:\n");
	for (int i = 0; i < nfiles; i++) {
		struct latency_levels lv;
		char b[32];
		latency_detect(r[i], &lv);
		const char *sep = " ";
		printf("  %c:", 'A' + i);
		if (lv.n == 0 && !lv.has_memory)
			printf(" no levels");
		for (size_t k = 0; k < lv.n; k++)
			if (!lv.lv[k].tlb) {
				printf("%sL%d %s %.1f ns", sep, lv.lv[k].level,
				       mt_fmt_size(b, sizeof b, lv.lv[k].size), lv.lv[k].ns);
				sep = ", ";
			}
		if (lv.has_memory)
			printf("%smemory %.1f ns", sep, lv.memory_ns);
		printf("\n");
	}
}

/* Saved latency runs side by side: the chosen curve at the power-of-two
 * sizes every file has, ratios to the first, the median difference over
 * every size they share, and the levels each curve shows. Returns
 * MT_EXIT_OK, or MT_EXIT_USAGE (warned) for a bad file or no shared curve. */
static int compare_latency(char **files, int nfiles)
{
	struct latency_result *r[MAX_FILES] = { NULL };
	unsigned stride = 0;
	int rc = MT_EXIT_USAGE;
	if (load_latency_files(files, nfiles, r) < 0 || shared_stride(r, nfiles, &stride) < 0)
		goto out;
	for (int i = 0; i < nfiles; i++)
		compare_print_header((char)('A' + i), files[i], &r[i]->hdr);
	latency_table(r, nfiles, stride);
	latency_differences(r, nfiles, stride);
	latency_levels_each(r, nfiles);
	rc = MT_EXIT_OK;
out:
	for (int i = 0; i < nfiles; i++)
		latency_result_free(r[i]);
	return rc;
}

const char *compare_kind_name(enum compare_kind k)
{
	static const char *const names[] = { "mountain", "latency",   "matmul",
					     "falseshare", "lists", "other" };
	return names[k];
}

/* The kind of a parsed result: its "experiment" field, else the shape of a
 * lab result written before results carried one, else a mountain. */
static enum compare_kind kind_of(const cJSON *root)
{
	if (is_latency(root))
		return COMPARE_LATENCY;
	if (matmul_result_is(root))
		return COMPARE_MATMUL;
	if (falseshare_result_is(root))
		return COMPARE_FALSESHARE;
	if (lists_result_is(root))
		return COMPARE_LISTS;
	if (jsonio_experiment(root) || cJSON_GetObjectItemCaseSensitive(root, "mode"))
		return COMPARE_OTHER;
	return COMPARE_MOUNTAIN;
}

/* The command line: the files, the strides, --seed. */
struct compare_args {
	char *files[MAX_FILES + 1];
	int nfiles, seed, nshow;
	unsigned show[COMPARE_MAX_STRIDES];
	char seed_path[4096];
};

/* Parse argv into a. Returns 0, or an exit code + 1 when the command ends
 * here (--help: 0 + 1; a usage error, said in one line: 2 + 1). */
static int parse_args(int argc, char **argv, struct compare_args *a)
{
	static const struct option opts[] = {
		{ "stride", required_argument, NULL, 's' },
		{ "seed", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, v, need;
	memset(a, 0, sizeof *a);
	mt_getopt_reset();
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 's':
			if (mt_parse_int(optarg, 1, 1 << 20, &v) < 0 ||
			    a->nshow == COMPARE_MAX_STRIDES) {
				mt_warn("compare: --stride: expected a positive number of words, got '%s'",
					optarg);
				return MT_EXIT_USAGE + 1;
			}
			a->show[a->nshow++] = (unsigned)v;
			break;
		case 'S': a->seed = 1; break;
		case 'h': usage(stdout); return MT_EXIT_OK + 1;
		default:
			mt_warn("compare: unknown option '%s' (see memtop compare --help)", argv[optind - 1]);
			return MT_EXIT_USAGE + 1;
		}
	}
	a->nfiles = argc - optind;
	need = a->seed ? 1 : 2;
	if (a->nfiles < need || a->nfiles + a->seed > MAX_FILES) {
		mt_warn("compare: expected %d to %d result files (see memtop compare --help)", need,
			MAX_FILES - a->seed);
		return MT_EXIT_USAGE + 1;
	}
	for (int i = 0; i < a->nfiles; i++)
		a->files[i] = argv[optind + i];
	return 0;
}

/* --seed: the bundled seed figures of this kind become the last file.
 * Returns 0, or -1 when there are none (said in one line). */
static int add_seed(struct compare_args *a, enum compare_kind k)
{
	char name[64];
	const char *path;
	if (k == COMPARE_MOUNTAIN)
		mt_strlcpy(name, "m4max.json", sizeof name);
	else
		mt_snprintf(name, sizeof name, "ref/%s-m4max.json", compare_kind_name(k));
	path = k == COMPARE_LATENCY ? NULL : mt_data_path(name, a->seed_path, sizeof a->seed_path);
	if (!path) {
		mt_warn("compare: --seed: the seed gives no %s figures to compare with (no %s in "
			"MEMTOP_DATA or the installed data)",
			compare_kind_name(k), k == COMPARE_LATENCY ? "latency file" : name);
		return -1;
	}
	a->files[a->nfiles++] = a->seed_path;
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	static struct compare_args a; /* a path of 4 KB: not on the stack */
	enum compare_kind kind;
	mt_error e = { "" };
	cJSON *root;
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc - 1;
	if (!(root = jsonio_load(a.files[0], &e))) {
		mt_warn("%s", e.msg);
		return MT_EXIT_USAGE;
	}
	kind = kind_of(root);
	cJSON_Delete(root);
	if (a.seed && add_seed(&a, kind) < 0)
		return MT_EXIT_USAGE;
	if (a.nshow && kind != COMPARE_MOUNTAIN) {
		mt_warn("compare: --stride applies to mountains, %s is a %s result", a.files[0],
			compare_kind_name(kind));
		return MT_EXIT_USAGE;
	}
	switch (kind) {
	case COMPARE_MOUNTAIN:
		return compare_mountains(a.files, a.nfiles, a.show, a.nshow);
	case COMPARE_LATENCY:
		return compare_latency(a.files, a.nfiles);
	case COMPARE_OTHER:
		mt_warn("%s: memtop compare reads mountain, latency, matmul, falseshare and lists "
			"results, not this one", a.files[0]);
		return MT_EXIT_USAGE;
	default:
		return compare_labs(kind, a.files, a.nfiles);
	}
}
