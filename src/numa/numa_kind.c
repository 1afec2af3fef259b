/* numa_kind: the numa result's kind (run/result_kind.h): what memtop run
 * numa --json writes, which always names its experiment. */
#include "config.h"

#include "numa.h"
#include "render/compare_table.h"
#include "run/result_kind.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

RESULT_KIND_FILLED(struct numa_result, numa_result_from_json)
RESULT_KIND_TYPED(struct numa_result, numa_result_to_json)
RESULT_KIND_MEASURED(struct numa_result, numa_result_measured)

/* The local figures of the first CPU node (its own memory): latency on 4 KB
 * and on 2 MB pages, read and triad bandwidth, each named within a fleet's
 * column ("lat 4K": under the kind's name, numa). */
static size_t figures(const void *rv, struct result_figure *out, size_t max)
{
	static const char *const names[NUMA_NMEAS] = { "lat 4K", "read", "triad", "lat 2M" };
	static const char *const units[NUMA_NMEAS] = { "ns", "GB/s", "GB/s", "ns" };
	const struct numa_result *r = rv;
	size_t n = 0;
	for (size_t i = 0; i < r->nnodes; i++) {
		if (!r->v[i][i][NUMA_LAT].have)
			continue;
		for (int k = 0; k < NUMA_NMEAS; k++)
			if (r->v[i][i][k].have)
				result_figure_add(out, max, &n, names[k], r->v[i][i][k].v, units[k]);
		break;
	}
	return n;
}

/* The index of node in r, or -1. */
static int index_of(const struct numa_result *r, int node)
{
	for (size_t i = 0; i < r->nnodes; i++)
		if (r->nodes[i] == node)
			return (int)i;
	return -1;
}

/* One table: run k of every node pair A measured, each file's value for
 * the same node numbers beside A's (a pair a file lacks: "-"). */
static void compare_one(const struct result_file *f, size_t n, int k, const char *title)
{
	const struct numa_result *a = f[0].r;
	struct cmp_table t;
	cmp_begin(&t, title, "cpu>mem", (int)n, 1, k != NUMA_LAT && k != NUMA_LAT_HUGE);
	for (size_t i = 0; i < a->nnodes; i++)
		for (size_t j = 0; j < a->nnodes; j++) {
			double v[CMP_MAX_FILES];
			char label[32];
			if (!a->v[i][j][k].have)
				continue;
			for (size_t m = 0; m < n && m < CMP_MAX_FILES; m++) {
				const struct numa_result *r = f[m].r;
				int x = index_of(r, a->nodes[i]), y = index_of(r, a->nodes[j]);
				v[m] = x >= 0 && y >= 0 && r->v[x][y][k].have ? r->v[x][y][k].v : (double)NAN;
			}
			mt_snprintf(label, sizeof label, "%d>%d", a->nodes[i], a->nodes[j]);
			cmp_row(&t, label, v);
		}
	cmp_end(&t);
}

/* memtop compare of numa results: each file's conditions, then the three
 * matrices as tables of node pairs (CPU node > memory node). */
static int compare(const struct result_file *f, size_t n, const struct result_compare_opts *o)
{
	(void)o;
	for (size_t i = 0; i < n; i++) {
		const struct numa_result *r = f[i].r;
		char size[32];
		compare_print_header((char)('A' + i), f[i].path ? f[i].path : "", &r->hdr);
		printf("   %zu node%s, %s a run\n", r->nnodes, r->nnodes == 1 ? "" : "s",
		       mt_fmt_size(size, sizeof size, r->size));
	}
	printf("\nrows: CPU node > memory node\n");
	compare_one(f, n, NUMA_LAT, "idle latency, ns a load (random chase, 4 KB pages)");
	compare_one(f, n, NUMA_LAT_HUGE, "idle latency, ns a load (2 MB pages, as MLC)");
	compare_one(f, n, NUMA_READ, "read, GB/s (all CPUs of the CPU node)");
	compare_one(f, n, NUMA_TRIAD, "triad, GB/s (all CPUs of the CPU node)");
	return 0;
}

/* How the run measured: its buffer's size a node pair, the CPUs of the
 * largest CPU node (the bandwidth runs use them all), the pages (4 KB; 2
 * MB too where the chase on 2 MB pages ran). */
static void method(const void *rv, struct result_method *m)
{
	const struct numa_result *r = rv;
	int huge = 0;
	mt_fmt_size(m->size, sizeof m->size, r->size);
	for (size_t i = 0; i < r->nnodes; i++) {
		if (r->ncpus[i] > m->threads)
			m->threads = r->ncpus[i];
		for (size_t j = 0; j < r->nnodes; j++)
			huge |= r->v[i][j][NUMA_LAT_HUGE].have;
	}
	m->advice = RESULT_PAGES_4K | (huge ? RESULT_PAGES_HUGE : 0);
	mt_strlcpy(m->pages, huge ? "4 KB and 2 MB pages" : "4 KB pages", sizeof m->pages);
}

const struct result_kind kind_numa = {
	.name = "numa",
	.what = "numa result",
	.tab = "NUMA",
	.seed = NULL,
	.load = kind_load,
	.free = free,
	.measured = kind_measured,
	.to_json = kind_to_json,
	.figures = figures,
	.compare = compare,
	.method = method,
};
