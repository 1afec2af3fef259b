/* memtop compare A.json B.json ...: saved mountains side by side (machines
 * in a lab, before and after), with each run's conditions above its column
 * and ratios against the first file. */
#include "config.h"

#include "cliffs.h"
#include "cmd.h"
#include "mountain_json.h"
#include "util.h"

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
		   "ratio of every file to the first, then the levels each one shows.\n\n"
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
	if (cliffs_detect(m, 1.5, &d) < 0 || d.nlevels == 0)
		printf(" no cliffs");
	for (int i = 0; i < d.nlevels; i++)
		printf(" L%d %s", i + 1, mt_fmt_size(b, sizeof b, d.level[i]));
	if (d.line_bytes)
		printf(", line %llu B", (unsigned long long)d.line_bytes);
	printf("\n");
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
		mt_warn("compare: expected 2 to %d mountain files (see memtop compare --help)", MAX_FILES);
		return MT_EXIT_USAGE;
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
	for (int i = 0; i < nfiles; i++) {
		printf("%c: %s\n", 'A' + i, m[i]->source);
		printf("   %s\n", m[i]->hdr.hardware[0] ? m[i]->hdr.hardware : "(no hardware field)");
		if (m[i]->hdr.has_diag) {
			char w[8][160];
			int n = diag_warnings(&m[i]->hdr.diag, w, 8);
			printf("   build %s; load %.2f before the run\n", m[i]->hdr.build,
			       m[i]->hdr.diag.load_before);
			for (int k = 0; k < n; k++)
				printf("   warning: %s\n", w[k]);
		}
	}
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
