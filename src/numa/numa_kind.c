/* numa_kind: the numa result's kind (run/result_kind.h): what memtop run
 * numa --json writes, which always names its experiment. */
#include "config.h"

#include "numa.h"
#include "base/i18n.h"
#include "render/compare_table.h"
#include "run/result_kind.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

RESULT_KIND_STRUCT(struct numa_result, numa_result_from_json, numa_result_to_json,
		   numa_result_measured)

/* The local figures of the first CPU node (its own memory): latency on 4 KB
 * and on 2 MB pages, read and triad bandwidth (and the other mixes where
 * measured), each named within a fleet's
 * column ("lat 4K": under the kind's name, numa). */
static size_t figures(const void *rv, struct result_figure *out, size_t max)
{
	/* by measurement; the chase at the run's whole size is no fleet figure */
	static const char *const names[NUMA_NMEAS] = {
		[NUMA_LAT] = "lat 4K", [NUMA_READ] = "read", [NUMA_TRIAD] = "triad",
		[NUMA_LAT_HUGE] = "lat 2M", [NUMA_R3W1] = "3:1", [NUMA_R2W1] = "2:1", [NUMA_R1W1] = "1:1"
	};
	static const char *const units[NUMA_NMEAS] = {
		[NUMA_LAT] = "ns", [NUMA_READ] = "GB/s", [NUMA_TRIAD] = "GB/s", [NUMA_LAT_HUGE] = "ns",
		[NUMA_R3W1] = "GB/s", [NUMA_R2W1] = "GB/s", [NUMA_R1W1] = "GB/s"
	};
	const struct numa_result *r = rv;
	size_t n = 0;
	for (size_t i = 0; i < r->nnodes; i++) {
		if (!r->v[i][i][NUMA_LAT].have)
			continue;
		for (int k = 0; k < NUMA_NMEAS; k++)
			if (names[k] && r->v[i][i][k].have)
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
	int any = k <= NUMA_LAT_HUGE; /* the matrices before mixes: always, as before */
	for (size_t m = 0; m < n && !any; m++) {
		const struct numa_result *r = f[m].r;
		for (size_t i = 0; i < r->nnodes; i++)
			for (size_t j = 0; j < r->nnodes; j++)
				any |= r->v[i][j][k].have;
	}
	if (!any)
		return;
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

/* A figure of what curve c says (what: 0 idle ns, 1 knee ns, 2 peak ns, 3
 * knee GB/s, 4 peak GB/s), NAN where it has none. */
static double curve_figure(const struct numa_curve *c, int what)
{
	struct numa_knee k;
	if (!c || !c->npts)
		return NAN;
	numa_knee_find(c->pts, c->npts, &k);
	switch (what) {
	case 0: return c->pts[0].ns;
	case 1: return k.have ? c->pts[k.knee].ns : (double)NAN;
	case 2: return k.peak ? c->pts[k.peak].ns : (double)NAN;
	case 3: return k.have ? c->pts[k.knee].gbs : (double)NAN;
	default: return k.peak ? c->pts[k.peak].gbs : (double)NAN;
	}
}

/* One figure (curve_figure's what) of A's loaded-latency curves, each
 * file's for the same node numbers beside. Nothing when A has no curve. */
static void compare_curves(const struct result_file *f, size_t n, int what)
{
	static const char *const title[] = {
		N_("loaded latency: idle, ns a load"), N_("loaded latency: at the knee, ns a load"),
		N_("loaded latency: at the peak, ns a load"),
		N_("loaded latency: the knee's GB/s (injectors)"),
		N_("loaded latency: the peak's GB/s (injectors)"),
	};
	const struct numa_result *a = f[0].r;
	struct cmp_table t;
	if (!a->ncurves)
		return;
	cmp_begin(&t, _(title[what]), "cpu>mem", (int)n, 1, what >= 3);
	for (size_t c = 0; c < a->ncurves; c++) {
		const struct numa_curve *ca = &a->curves[c];
		double v[CMP_MAX_FILES];
		char label[32];
		for (size_t m = 0; m < n && m < CMP_MAX_FILES; m++) {
			const struct numa_result *r = f[m].r;
			int x = index_of(r, a->nodes[ca->cpu]), y = index_of(r, a->nodes[ca->mem]);
			v[m] = x >= 0 && y >= 0 ? curve_figure(numa_result_curve(r, x, y), what)
						: (double)NAN;
		}
		mt_snprintf(label, sizeof label, "%d>%d", a->nodes[ca->cpu], a->nodes[ca->mem]);
		cmp_row(&t, label, v);
	}
	cmp_end(&t);
}

/* memtop compare of numa results: each file's conditions, then the
 * matrices (latency, each mix) as tables of node pairs (CPU node > memory
 * node), then the loaded-latency curves' knees and peaks. */
static int compare(const struct result_file *f, size_t n, const struct result_compare_opts *o)
{
	(void)o;
	for (size_t i = 0; i < n; i++) {
		const struct numa_result *r = f[i].r;
		char size[32];
		compare_print_header((char)('A' + i), f[i].path ? f[i].path : "", &r->hdr);
		/* TRANSLATORS: a numa result's nodes and its buffer's size a node pair */
		printf(MT_NGETTEXT("   %zu node, %s a run\n", "   %zu nodes, %s a run\n", r->nnodes),
		       r->nnodes, mt_fmt_size(size, sizeof size, r->size));
	}
	printf(_("\nrows: CPU node > memory node\n"));
	compare_one(f, n, NUMA_LAT, _("idle latency, ns a load (random chase, 4 KB pages)"));
	compare_one(f, n, NUMA_LAT_HUGE, _("idle latency, ns a load (2 MB pages, as MLC)"));
	for (int m = 0; m < NUMA_NMIX; m++) {
		char title[240];
		if (m == NUMA_MIX_READS)
			mt_strlcpy(title, _("read, GB/s (all CPUs of the CPU node)"), sizeof title);
		else if (m == NUMA_MIX_TRIAD)
			mt_strlcpy(title, _("triad, GB/s (all CPUs of the CPU node)"), sizeof title);
		else
			/* TRANSLATORS: a mix's name: 3:1, 2:1 or 1:1 */
			mt_snprintf(title, sizeof title,
				    _("%s reads:writes, GB/s (all CPUs of the CPU node)"),
				    numa_mix_name(m));
		compare_one(f, n, numa_mix_meas(m), title);
	}
	for (int w = 1; w <= 4; w++) /* the knee's and the peak's (idle: the 2 MB matrix's) */
		compare_curves(f, n, w);
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
	.plot = numa_plot,
	.method = method,
};
