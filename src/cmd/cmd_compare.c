/* memtop compare A.json B.json ...: saved mountains side by side (machines
 * in a lab, before and after), with each run's conditions above its column
 * and ratios against the first file. */
#include "config.h"

#include "mountain/cliffs.h"
#include "cmd.h"
#include "core/jsonio.h"
#include "latency/latency.h"
#include "mountain/mountain_json.h"
#include "core/util.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 8

static void usage(FILE *f)
{
	fprintf(f, "Usage: memtop compare A.json B.json [C.json ...] [--stride N]...\n"
		   "Saved mountains side by side: the size slice at each chosen stride, with the\n"
		   "ratio of every file to the first, then the levels each one shows. Saved\n"
		   "latency runs side by side: the random chase (else the largest shared stride)\n"
		   "at power-of-two sizes, ratios, and the levels of each curve.\n\n"
		   "  --stride N   a stride (words) to show; repeatable (default: 1 and 8, those\n"
		   "               all files have, else the first stride they share)\n"
		   "  -h, --help   this help\n");
}

static int in_all(struct mountain **m, int n, unsigned stride)
{
	for (int i = 0; i < n; i++)
		if (mountain_stride_index(m[i], stride) < 0)
			return 0;
	return 1;
}

/* Over the cells a and b share (same size and stride, both measured): the
 * median of |b - a| / ((a + b) / 2) and the median of b / a. Returns the
 * number of cells. */
static size_t cell_stats(const struct mountain *a, const struct mountain *b, double *diff,
			 double *ratio)
{
	static double d[4096], q[4096];
	size_t n = 0;
	for (size_t r = 0; r < a->nsizes; r++) {
		int rb = mountain_size_index(b, a->sizes[r]);
		for (size_t c = 0; rb >= 0 && c < a->nstrides; c++) {
			int cb = mountain_stride_index(b, a->strides[c]);
			double x, y;
			if (cb < 0 || n == MT_ARRAY_LEN(d))
				continue;
			x = mountain_at(a, r, c);
			y = mountain_at(b, (size_t)rb, (size_t)cb);
			if (isnan(x) || isnan(y) || x <= 0 || y <= 0)
				continue;
			d[n] = fabs(y - x) / ((x + y) / 2);
			q[n] = y / x;
			n++;
		}
	}
	*diff = mt_median(d, n);
	*ratio = mt_median(q, n);
	return n;
}

static void print_levels(const struct mountain *m, char tag)
{
	struct detection d;
	char b[32];
	printf("  %c:", tag);
	if (cliffs_detect(m, CLIFFS_RATIO, &d) < 0 || d.nlevels == 0)
		printf(" no cliffs");
	for (int i = 0; i < d.nlevels; i++)
		printf(" L%d %s", i + 1, mt_fmt_size(b, sizeof b, d.level[i]));
	if (d.line_bytes)
		printf(", line %llu B", (unsigned long long)d.line_bytes);
	printf("\n");
}

/* Which file is which: its path, hardware line, build, load, warnings. */
static void print_header(char tag, const char *source, const struct run_header *h)
{
	printf("%c: %s\n", tag, MT_PRINTABLE(source)); /* a name from a lab's share */
	printf("   %s\n", h->hardware[0] ? h->hardware : "(no hardware field)");
	if (h->has_diag) {
		char w[8][160];
		int n = diag_warnings(&h->diag, w, 8);
		printf("   build %s; load %.2f before the run\n", h->build, h->diag.load_before);
		for (int k = 0; k < n; k++)
			printf("   warning: %s\n", w[k]);
	}
}

/* "latency" when root is a latency result (memtop run latency --json). */
static int is_latency(const cJSON *root)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(root, "experiment");
	return cJSON_IsString(x) && x->valuestring && strcmp(x->valuestring, "latency") == 0;
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

static int latency_size_index(const struct latency_result *r, uint64_t size)
{
	for (size_t i = 0; i < r->nsizes; i++)
		if (r->sizes[i] == size)
			return (int)i;
	return -1;
}

/* Saved latency runs side by side: the chosen curve at the power-of-two
 * sizes every file has, ratios to the first, the median difference over
 * every size they share, and the levels each curve shows. */
static int compare_latency(char **files, int nfiles)
{
	struct latency_result *r[MAX_FILES] = { NULL };
	unsigned stride = 0;
	int rc = MT_EXIT_USAGE;
	double d[LAT_MAX_SIZES], q[LAT_MAX_SIZES];
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
			goto out;
		}
	}
	for (int i = 0; i < nfiles; i++)
		if (!r[i]->has_random)
			stride = 1;
	if (stride) { /* no random chase in some file: the largest shared stride */
		stride = 0;
		for (size_t k = 0; k < r[0]->nstrides; k++) {
			int all = 1;
			for (int i = 1; i < nfiles; i++)
				all &= latency_curve(r[i], r[0]->strides[k]) != NULL;
			if (all)
				stride = r[0]->strides[k];
		}
		if (!stride) {
			mt_warn("compare: the latency files share no curve");
			goto out;
		}
	}
	for (int i = 0; i < nfiles; i++)
		print_header((char)('A' + i), files[i], &r[i]->hdr);
	if (stride)
		printf("\nfixed stride %u B, ns a load\n%7s", stride, "size");
	else
		printf("\nrandom chase, ns a load\n%7s", "size");
	for (int i = 0; i < nfiles; i++)
		printf(" %9c", 'A' + i);
	for (int i = 1; i < nfiles; i++)
		printf(" %6c/A", 'A' + i);
	printf("\n");
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
		if (!all)
			continue;
		printf("%7s", mt_fmt_size(b, sizeof b, size));
		for (int i = 0; i < nfiles; i++)
			printf(" %9.2f", v[i]);
		for (int i = 1; i < nfiles; i++)
			printf(" %8.2f", v[i] / v[0]);
		printf("\n");
	}
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
	rc = MT_EXIT_OK;
out:
	for (int i = 0; i < nfiles; i++)
		latency_result_free(r[i]);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "stride", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct mountain *m[MAX_FILES] = { NULL };
	unsigned show[16];
	int nshow = 0, nfiles = 0, ch, rc = MT_EXIT_USAGE, v;
	mt_error e = { "" };

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 's':
			if (mt_parse_int(optarg, 1, 1 << 20, &v) < 0 || nshow == 16) {
				mt_warn("compare: --stride: expected a positive number of words, got '%s'",
					optarg);
				return MT_EXIT_USAGE;
			}
			show[nshow++] = (unsigned)v;
			break;
		case 'h': usage(stdout); return MT_EXIT_OK;
		default:
			mt_warn("compare: unknown option '%s' (see memtop compare --help)", argv[optind - 1]);
			return MT_EXIT_USAGE;
		}
	}
	if (argc - optind < 2 || argc - optind > MAX_FILES) {
		mt_warn("compare: expected 2 to %d result files (see memtop compare --help)", MAX_FILES);
		return MT_EXIT_USAGE;
	}
	{
		/* the kind of the first file decides: latency runs or mountains */
		cJSON *root = jsonio_load(argv[optind], &e);
		int lat = root && is_latency(root);
		cJSON_Delete(root);
		if (!root) {
			mt_warn("%s", e.msg);
			return MT_EXIT_USAGE;
		}
		if (lat) {
			if (nshow) {
				mt_warn("compare: --stride applies to mountains, %s is a latency run",
					argv[optind]);
				return MT_EXIT_USAGE;
			}
			return compare_latency(argv + optind, argc - optind);
		}
	}
	for (int i = optind; i < argc; i++) {
		if (!(m[nfiles] = mountain_load(argv[i], &e))) {
			mt_warn("%s", e.msg);
			goto out;
		}
		nfiles++;
	}
	for (int i = 0; i < nshow; i++)
		if (!in_all(m, nfiles, show[i])) {
			mt_warn("compare: not every file has stride %u", show[i]);
			goto out;
		}
	if (nshow == 0) {
		if (in_all(m, nfiles, 1))
			show[nshow++] = 1;
		if (in_all(m, nfiles, 8))
			show[nshow++] = 8;
		for (size_t c = 0; nshow == 0 && c < m[0]->nstrides; c++)
			if (in_all(m, nfiles, m[0]->strides[c]))
				show[nshow++] = m[0]->strides[c];
		if (nshow == 0) {
			mt_warn("compare: the files share no stride");
			goto out;
		}
	}
	for (int i = 0; i < nfiles; i++)
		print_header((char)('A' + i), m[i]->source, &m[i]->hdr);
	for (int s = 0; s < nshow; s++) {
		printf("\nstride %u (%u bytes), MB/s\n%7s", show[s], show[s] * 8, "size");
		for (int i = 0; i < nfiles; i++)
			printf(" %9c", 'A' + i);
		for (int i = 1; i < nfiles; i++)
			printf(" %6c/A", 'A' + i);
		printf("\n");
		/* rows: the sizes of A that every file has */
		for (size_t r = 0; r < m[0]->nsizes; r++) {
			double val[MAX_FILES];
			char b[32];
			int all = 1;
			for (int i = 0; i < nfiles && all; i++) {
				int ri = mountain_size_index(m[i], m[0]->sizes[r]);
				if (ri < 0)
					all = 0;
				else
					val[i] = mountain_at(m[i], (size_t)ri,
							     (size_t)mountain_stride_index(m[i], show[s]));
			}
			if (!all)
				continue;
			printf("%7s", mt_fmt_size(b, sizeof b, m[0]->sizes[r]));
			for (int i = 0; i < nfiles; i++)
				if (isnan(val[i]))
					printf(" %9s", "-");
				else
					printf(" %9.0f", val[i]);
			for (int i = 1; i < nfiles; i++)
				if (isnan(val[i]) || isnan(val[0]))
					printf(" %8s", "-");
				else
					printf(" %8.2f", val[i] / val[0]);
			printf("\n");
		}
	}
	printf("\nover every cell the files share:\n");
	for (int i = 1; i < nfiles; i++) {
		double diff, ratio;
		size_t n = cell_stats(m[0], m[i], &diff, &ratio);
		if (n == 0)
			printf("  %c vs A: no common cells\n", 'A' + i);
		else
			printf("  %c vs A: %zu cells, median cell difference %.1f %%, median %c/A %.3f\n",
			       'A' + i, n, diff * 100, 'A' + i, ratio);
	}
	printf("\nlevels by the mountain (merged cliffs at strides >= 8 words):\n");
	for (int i = 0; i < nfiles; i++)
		print_levels(m[i], (char)('A' + i));
	rc = MT_EXIT_OK;
out:
	for (int i = 0; i < nfiles; i++)
		mountain_free(m[i]);
	return rc;
}
