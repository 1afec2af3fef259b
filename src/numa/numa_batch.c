/* memtop run numa: Intel MLC's node x node matrices (idle latency, read and
 * triad bandwidth) from the latency and bandwidth labs' own runs on memory
 * bound to each node, a line a node pair as it is measured, the matrices
 * at the end, and where the pages were. */
#include "config.h"

#include "numa.h"
#include "latency/latency_eta.h"
#include "machine/plan.h"
#include "os/sysinfo.h"
#include "os/vm.h"
#include "run/batch.h"
#include "run/experiment.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NUMA_AGREE 0.05 /* two latencies within this share (or their spreads) agree */

struct printer {
	EXPERIMENT_PRINTER_HEAD; /* run, csv */
	const struct numa_params *p;
	struct numa_result r;
};

struct opts {
	struct batch_list nodes;      /* --nodes as given */
	int want[NUMA_MAX_NODES + 1]; /* ... as node numbers */
	size_t nwant;
	const char *mix, *pairs;      /* --mix, --loaded-pairs */
	struct batch_cpus cpus;       /* --cpus */
	int loaded;                   /* --loaded (--loaded-pairs implies it) */
	unsigned mixes;               /* --mix parsed */
	int streaming;                /* --stores: cached 0, streaming 1 */
	struct numa_pair asked[NUMA_MAX_CURVES]; /* --loaded-pairs, node numbers */
	size_t nasked;
};

/* The run's params: the job's arg first, then the command line's. */
struct run_params {
	struct numa_params p;
	struct opts o;
	struct numa_probe probe; /* the price's inputs (this machine's; p.probe) */
};

/* The options, with their help and the field each fills: the getopt
 * table, --help and the parse all come from it (run/batch_opts.h). */
static const struct batch_option options[] = {
	BATCH_OPT_LIST("nodes", 'n', "LIST", "the NUMA nodes to measure, such as 0,1 (default: all)",
		       struct run_params, o.nodes, 0, 1000000, NUMA_MAX_NODES + 1,
		       N_("node numbers separated by commas")),
	BATCH_OPT_CPUS("cpus", 'C', "LIST",
		       "only these CPUs of each node, such as 0-3,8 (default: all\n"
		       "this process may use)",
		       struct run_params, o.cpus),
	BATCH_HELP_CPU_KIND,
	BATCH_OPT_STRING("mix", 'm', "LIST",
			 "the bandwidth matrices' traffic, as Intel MLC's: reads, 3:1,\n"
			 "2:1, 1:1 (reads:writes), triad, all, or none (default:\n"
			 "reads,triad)",
			 struct run_params, o.mix),
	BATCH_OPT_CHOICE("stores", 's', "KIND",
			 "the mixes' writes: cached (the default: as a program's\n"
			 "stores) or streaming (non-temporal, x86)",
			 struct run_params, o.streaming, "cached", "streaming"),
	BATCH_OPT_FLAG("loaded", 'l',
		       "the loaded-latency curve of the local pair and the farthest:\n"
		       "a chaser and injectors on the other CPUs of the CPU node",
		       struct run_params, o.loaded),
	BATCH_OPT_STRING("loaded-pairs", 'L', "LIST",
			 "curves of these CPU:memory node pairs too, such as 0:1,1:0\n"
			 "(each CPU node's local pair with them; implies --loaded)",
			 struct run_params, o.pairs),
	BATCH_HELP_COMMON("small run for tests: 32 MB, 1..2 tries of 1 ms",
			  "print CSV, one row a node pair (the rest goes to stderr)"),
	BATCH_END,
};

EXPERIMENT_HELP_TAIL(20,
	"Usage: memtop run numa [OPTIONS]\n"
	"Memory by node, as Intel MLC prints it: for each CPU node x memory node, the\n"
	"idle latency of the latency lab's random chase and the GB/s of the bandwidth\n"
	"lab's kernels for each traffic mix asked (read and triad by default) with a\n"
	"thread on each CPU of the CPU node, on memory bound to the memory node (hwloc)\n"
	"and first touched by the thread that uses it; the pages are counted node by\n"
	"node after each run. With --loaded, MLC's loaded-latency curve of node pairs:\n"
	"latency against bandwidth as injectors load the memory, its knee and the\n"
	"misses in flight it implies (Little's law).\n\n",
	"\nThe size is 4 x every cache a CPU node's CPUs reach together (any source's\n"
	"claim, doubted or not), at least 256 MB, at most a quarter of the smallest\n"
	"node's memory. The idle latency is read where memory is: 4 x the last cache\n"
	"its CPU reaches that no doubt is about, or, where a deeper cache's claim is\n"
	"doubted, where a curve from there up to the size settles; on 2 MB pages the\n"
	"size itself beside it where they differ. GB/s are 10^9 bytes a second read +\n"
	"written, counted as MLC and STREAM do (read 1 array a pass, 1:1 2, 2:1, 3:1\n"
	"and triad 3).\n");

/* ---- output ------------------------------------------------------------------- */

/* The CSV column of each mix beyond read and triad (asked ones only). */
static const char *const csv_extra[NUMA_NMIX] = { NULL, "r3w1_gbs", "r2w1_gbs", "r1w1_gbs", NULL };

/* A value for CSV: "%.3f", or nothing when not measured. */
static void csv_value(const struct numa_value *v, const char *fmt)
{
	if (v->have)
		printf(fmt, v->v);
}

static void print_csv(const struct printer *b, size_t i, size_t j)
{
	const struct numa_result *r = &b->r;
	const struct numa_value *v = r->v[i][j];
	double pl = numa_result_placement(r, i, j);
	printf("%d,%d,", r->nodes[i], r->nodes[j]);
	csv_value(&v[NUMA_LAT], "%.2f");
	printf(",");
	csv_value(&v[NUMA_READ], "%.3f");
	printf(",");
	csv_value(&v[NUMA_TRIAD], "%.3f");
	printf(",");
	if (isfinite(pl))
		printf("%.4f", pl);
	printf(",");
	csv_value(&v[NUMA_LAT_HUGE], "%.2f");
	for (int m = 0; m < NUMA_NMIX; m++)
		if (csv_extra[m] && ((r->mixes >> m) & 1)) {
			printf(",");
			csv_value(&v[numa_mix_meas(m)], "%.3f");
		}
	printf("\n");
}


/* Why a curve's pair was chosen, in the user's language. */
static const char *why_said(int why)
{
	const char *w = numa_why_text(why);
	return w[0] ? _(w) : w;
}

/* Why the chase at the run's own size reads slower than where memory is
 * (this machine's: the line is said as it is measured): "" when the two
 * agree within their spreads (or the full one is not in). */
static const char *full_why(const struct numa_value *v)
{
	const struct numa_value *h = &v[NUMA_LAT_HUGE], *f = &v[NUMA_LAT_FULL];
	double within = fmax(NUMA_AGREE, fmax(h->spread, f->spread));
	if (!h->have || !f->have || fabs(f->v - h->v) <= within * h->v)
		return "";
	if (mt_vm_this()->vm == 1)
		return _("in this VM each walk is two-dimensional, the guest's tables through the "
			 "host's, and the host's half grows with the buffer");
	return _("past the TLBs' reach on 2 MB pages each load also walks the page tables");
}

/* One node pair's line (or CSV row) once its runs are in: the latency,
 * then each mix's GB/s ("read" for all reads, as before mixes). */
static void print_pair(const struct printer *b, size_t i, size_t j)
{
	const struct numa_result *r = &b->r;
	const struct numa_value *v = r->v[i][j];
	double pl = numa_result_placement(r, i, j);
	char place[96], huge[400] = "", bw[300] = "", a[32];
	unsigned flags = NUMA_F_CHECKED;
	int threads = 0;
	if (b->csv) {
		print_csv(b, i, j);
		return;
	}
	if (isfinite(pl))
		mt_hsnprintf(place, sizeof place, _("pages on node %d: %.0f %%"), r->nodes[j], 100 * pl);
	else
		mt_strlcpy(place, _("pages not counted here"), sizeof place);
	if (v[NUMA_LAT_HUGE].have)
		mt_happend(huge, sizeof huge, _(", %.1f ns on 2 MB pages"), v[NUMA_LAT_HUGE].v);
	if (full_why(v)[0])
		mt_happend(huge, sizeof huge, _("; at the run's %s: %.1f ns on 2 MB pages, %s"),
			mt_fmt_size(a, sizeof a, r->size), v[NUMA_LAT_FULL].v, full_why(v));
	for (int m = 0; m < NUMA_NMIX; m++) {
		const struct numa_value *x = &v[numa_mix_meas(m)];
		if (!x->have)
			continue;
		if (m == NUMA_MIX_READS)
			/* TRANSLATORS: a node pair's all-reads bandwidth */
			mt_happend(bw, sizeof bw, _(", read %.1f GB/s"), x->v);
		else /* a mix's name: 3:1, 2:1, 1:1, triad */
			mt_happend(bw, sizeof bw, _(", %s %.1f GB/s"), numa_mix_name(m), x->v);
		flags &= x->flags;
		threads = x->where;
	}
	if (threads)
		mt_append(bw, sizeof bw, MT_NGETTEXT(" (%d thread)", " (%d threads)", threads), threads);
	/* TRANSLATORS: a node pair's line: the latency's CPU, then ", ... on 2 MB pages",
	 * the mixes' GB/s, where the pages were and " (!)" for arrays that came out wrong */
	mt_hfprintf(stdout, _("CPU node %d, memory node %d: latency %.1f ns on 4 KB pages (CPU "
			      "%d%s)%s; %s%s\n"),
	       r->nodes[i], r->nodes[j], v[NUMA_LAT].v, v[NUMA_LAT].where, huge, bw, place,
	       (flags & NUMA_F_CHECKED) ? "" : " (!)");
}

/* The measurement a node pair ends with: its last mix, else its latency
 * (at the run's size where that is larger than where it is read). */
static int last_meas(const struct numa_params *p)
{
	for (int m = NUMA_NMIX - 1; m >= 0; m--)
		if ((p->mixes >> m) & 1)
			return numa_mix_meas(m);
	if (!p->huge)
		return NUMA_LAT;
	return p->lat_size < p->size ? NUMA_LAT_FULL : NUMA_LAT_HUGE;
}

/* A note: the result's (where the pages were), said after; where the idle
 * latency is read, said with the matrices. */
static int on_note(const struct job_event *ev, void *ctx)
{
	struct printer *b = ctx;
	numa_result_apply(&b->r, ev);
	return ev->subtype == NUMA_NOTE_LAT_SIZE;
}

static void on_event(const struct job_event *ev, void *ctx)
{
	struct printer *b = ctx;
	if (numa_result_apply(&b->r, ev) == last_meas(b->p))
		print_pair(b, (size_t)ev->row, (size_t)ev->col);
	fflush(stdout);
}

/* One matrix as MLC prints it: memory nodes across, CPU nodes down. */
static void print_matrix(const struct numa_result *r, int k, const char *title)
{
	char cpu[64];
	/* TRANSLATORS: a node x node matrix's heads: memory nodes across, CPU nodes down
	 * (the second in 10 columns) */
	printf("\n%s\n%-10s %s\n%s", title, "", _("memory node"),
	       mt_text_pad(cpu, sizeof cpu, _("CPU node"), -10));
	for (size_t j = 0; j < r->nnodes; j++)
		printf(" %9d", r->nodes[j]);
	printf("\n");
	for (size_t i = 0; i < r->nnodes; i++) {
		if (!r->ncpus[i])
			continue; /* a memory-only node: a column, no row */
		printf("%8d  ", r->nodes[i]);
		for (size_t j = 0; j < r->nnodes; j++) {
			const struct numa_value *v = &r->v[i][j][k];
			if (v->have)
				mt_hfprintf(stdout, " %9.1f", v->v);
			else
				printf(" %9s", "-");
		}
		printf("\n");
	}
}

/* Each mix's matrix. */
static void print_mixes(const struct numa_result *r)
{
	for (int mx = 0; mx < NUMA_NMIX; mx++) {
		char title[320];
		if (!((r->mixes >> mx) & 1))
			continue;
		if (mx == NUMA_MIX_READS)
			mt_strlcpy(title, _("Bandwidth, read (GB/s, all CPUs of the CPU node):"),
				   sizeof title);
		else if (mx == NUMA_MIX_TRIAD)
			mt_strlcpy(title, r->streaming ? _("Bandwidth, triad (GB/s, all CPUs of the CPU "
							   "node, streaming stores):")
						       : _("Bandwidth, triad (GB/s, all CPUs of the CPU "
							   "node):"), sizeof title);
		else
			/* TRANSLATORS: a mix's matrix title; the mix is 3:1, 2:1 or 1:1 */
			mt_snprintf(title, sizeof title,
				    r->streaming ? _("Bandwidth, %s reads:writes (GB/s, all CPUs of the "
						     "CPU node, streaming stores):")
						 : _("Bandwidth, %s reads:writes (GB/s, all CPUs of the "
						     "CPU node, cached stores):"), numa_mix_name(mx));
		print_matrix(r, numa_mix_meas(mx), title);
	}
}

/* One curve as MLC's users read it: each point's delay, GB/s and latency,
 * then its knee and Little's law. */
static void print_curve(const struct numa_result *r, const struct numa_curve *c)
{
	struct numa_knee k;
	char line[600], huge[96] = "";
	char h[3][64], on[96] = "";
	if (c->huge_share >= 0)
		mt_hsnprintf(huge, sizeof huge, _(" (%.0f %% of it on huge pages)"), 100 * c->huge_share);
	if (c->on_node >= 0)
		mt_hsnprintf(on, sizeof on, _("; pages on node %d: %.0f %%"), r->nodes[c->mem],
			     100 * c->on_node);
	/* TRANSLATORS: a loaded-latency curve's title: the pair, why it was chosen, the
	 * chaser's CPU, the injectors, the chase's pages (2 MB or 4 KB) */
	printf(MT_NGETTEXT("\nLoaded latency, CPU node %d > memory node %d (%s): chaser on CPU %d, "
			   "%d injector, the chase on %s pages%s%s\n",
			   "\nLoaded latency, CPU node %d > memory node %d (%s): chaser on CPU %d, "
			   "%d injectors, the chase on %s pages%s%s\n", c->injectors),
	       r->nodes[c->cpu], r->nodes[c->mem], why_said(c->why), c->chaser_cpu,
	       c->injectors, c->huge ? _("2 MB") : _("4 KB"), huge, on);
	/* TRANSLATORS: the loaded-latency curve's column heads (12, 9 and 12 columns) */
	printf("%s %s %s\n", mt_text_pad(h[0], sizeof h[0], _("delay ns"), 12),
	       mt_text_pad(h[1], sizeof h[1], _("GB/s"), 9),
	       mt_text_pad(h[2], sizeof h[2], _("latency ns"), 12));
	for (size_t i = 0; i < c->npts; i++) {
		const struct numa_point *pt = &c->pts[i];
		if (pt->delay_ns < 0)
			mt_hfprintf(stdout, "%s %9.1f %12.1f\n",
				    mt_text_pad(h[0], sizeof h[0], _("idle"), 12), pt->gbs, pt->ns);
		else
			mt_hfprintf(stdout, "%12.0f %9.1f %12.1f%s\n", pt->delay_ns, pt->gbs, pt->ns,
				    pt->preempted ? _(" (chaser lost its CPU in some tries)") : "");
	}
	numa_knee_find(c->pts, c->npts, &k);
	printf("%s\n", numa_knee_text(c->pts, &k, line, sizeof line));
	if (numa_little_text(c->pts, &k, line, sizeof line)[0])
		printf("%s\n", line);
}

/* Each remote pair's latency over its CPU node's own beside the SLIT's
 * ratio, and the bandwidth runs whose best try lost its CPU (said as run
 * bandwidth says it of its cells). */
static void print_ratios(FILE *m, const struct numa_result *r)
{
	char line[400];
	unsigned lost = 0, runs = 0;
	for (size_t i = 0; i < r->nnodes; i++)
		for (size_t j = 0; j < r->nnodes; j++) {
			if (numa_result_ratio_text(r, i, j, line, sizeof line) == 0)
				fprintf(m, "# %s\n", line);
			for (int mx = 0; mx < NUMA_NMIX; mx++) {
				int k = numa_mix_meas(mx);
				runs += r->v[i][j][k].have;
				lost += r->v[i][j][k].have && (r->v[i][j][k].flags & NUMA_F_LOST);
			}
		}
	if (lost)
		fprintf(m, "# %s\n", bandwidth_lost_said(lost, runs, 1, line, sizeof line));
}

/* The matrices, then what they say and what could have moved pages.
 * Returns 0. */
static int summary(void *printer)
{
	const struct printer *b = printer;
	const struct numa_result *r = &b->r;
	FILE *m = b->run->meta;
	size_t unbound = 0;
	char t[400], a[32], c[32], from[640];
	mt_fmt_size(a, sizeof a, r->lat_size ? r->lat_size : r->size);
	if (!b->csv) {
		mt_snprintf(t, sizeof t, _("Idle latency at %s (ns a load, random chase, 4 KB pages: "
					   "page walks included):"), a);
		print_matrix(r, NUMA_LAT, t);
		mt_snprintf(t, sizeof t, _("Idle latency at %s on 2 MB pages (ns a load, as Intel MLC "
					   "measures it):"), a);
		if (b->p->huge)
			print_matrix(r, NUMA_LAT_HUGE, t);
		mt_snprintf(t, sizeof t, _("Latency at the run's %s on 2 MB pages (ns a load: past "
					   "where memory is read):"), mt_fmt_size(c, sizeof c, r->size));
		for (size_t i = 0; i < r->nnodes * r->nnodes; i++)
			if (r->v[i / r->nnodes][i % r->nnodes][NUMA_LAT_FULL].have) {
				print_matrix(r, NUMA_LAT_FULL, t);
				break;
			}
		print_mixes(r);
		for (size_t k = 0; k < r->ncurves; k++)
			print_curve(r, &r->curves[k]);
	}
	/* TRANSLATORS: the size the idle latency is read at, and the rule that chose it */
	fprintf(m, _("# idle latency read at %s: %s\n"), a,
		numa_text(from, sizeof from, r->lat_size_from));
	if (r->nnodes == 1)
		fputs(_("# one node: local memory only, nothing to compare it with\n"), m);
	print_ratios(m, r);
	for (size_t i = 0; i < r->nnodes; i++)
		for (size_t j = 0; j < r->nnodes; j++) {
			double pl = numa_result_placement(r, i, j);
			if (isfinite(pl) && pl < 1)
				mt_hfprintf(m, _("# warning: CPU node %d, memory node %d: only %.1f %% "
						 "of the pages on node %d\n"),
					    r->nodes[i], r->nodes[j], 100 * pl, r->nodes[j]);
		}
	for (size_t i = 0; i < r->nnodes; i++)
		for (size_t j = 0; j < r->nnodes; j++)
			if (r->v[i][j][NUMA_LAT].have && !(r->v[i][j][NUMA_LAT].flags & NUMA_F_BOUND))
				unbound++;
	if (unbound)
		fprintf(m, _("# memory not bound: this system cannot bind it (one node: all of it is "
			     "on node %d)\n"), r->nodes[0]);
	if (r->numa_balancing > 0)
		fprintf(m, _("# warning: kernel.numa_balancing is on (mode %d): it can move pages "
			     "during a run; the pages were counted after each run\n"),
			r->numa_balancing);
	return 0;
}

/* The nodes, their tiers, the SLIT between them, and the size. */
static void print_nodes(FILE *m, const struct numa_params *p, const struct numa_result *r)
{
	char a[32], cpus[96], from[640], slit[NUMA_MAX_NODES * NUMA_MAX_NODES * 8];
	for (size_t i = 0; i < p->nnodes; i++) {
		const struct numa_node *n = &p->nodes[i];
		numa_cpus_text(n->cpus, n->ncpus, cpus, sizeof cpus);
		char what[160];
		if (n->ncpus)
			/* TRANSLATORS: a node's CPUs, such as "CPUs 0-3" (one or many) */
			mt_snprintf(what, sizeof what, _("CPUs %s"), cpus);
		else
			mt_strlcpy(what, n->own ? _("no CPU this process may use (a cpuset keeps its "
						    "CPUs from it)")
						: _("no CPUs of its own (memory only)"), sizeof what);
		/* TRANSLATORS: a node: its tier ("DRAM, " or nothing), its CPUs, its memory */
		fprintf(m, _("# node %d: %s%s%s, %s of memory\n"), n->node, n->tier,
			n->tier[0] ? ", " : "", what,
			n->memory ? mt_hfmt_mem(a, sizeof a, n->memory) : _("unknown"));
	}
	if (p->nnodes > 1 && numa_result_slit_text(r, slit, sizeof slit)[0])
		fprintf(m, _("# SLIT (node distances, 10 local): %s\n"), slit);
	else if (p->nnodes > 1)
		fputs(_("# SLIT: not known (the firmware gives no node distances here)\n"), m);
	fprintf(m, _("# size %s: %s\n"), mt_fmt_size(a, sizeof a, p->size),
		numa_text(from, sizeof from, p->size_from));
	if (p->skipped)
		fprintf(m, MT_NGETTEXT("# %zu of the machine's %zu nodes, spread over it: a run takes "
				       "at most %d (--nodes picks them)\n",
				       "# %zu of the machine's %zu nodes, spread over it: a run takes "
				       "at most %d (--nodes picks them)\n", p->nnodes + p->skipped),
			p->nnodes, p->nnodes + p->skipped, NUMA_MAX_NODES);
}

/* How each mix is measured, its writes' stores, and how GB/s count. */
static void print_bandwidth(FILE *m, const struct numa_params *p)
{
	static const char *const how[NUMA_NMIX] = {
		N_("the scalar read"),
		N_("a copy a = b with a read of c beside it on three 16 KB spans of four, a, b "
		   "and c read on the fourth"),
		N_("a copy a = b with a read of c beside it"),
		N_("a copy a = b"),
		N_("a = b + s c"),
	};
	char names[64];
	if (!p->mixes) {
		fputs(_("# bandwidth: none asked\n"), m);
		return;
	}
	/* TRANSLATORS: then each mix's name, kernel and how it moves its bytes */
	mt_hfprintf(m, _("# bandwidth (%s): the bandwidth lab's kernels (%s), a thread on each CPU "
			 "of the CPU node, best of %u..%u tries of %.0f ms:"),
		numa_mixes_text(p->mixes, names, sizeof names), bandwidth_isa_name(p->bw.isa),
		p->bw.min_tries, p->bw.max_tries, p->bw.try_ns / 1e6);
	for (int mx = 0; mx < NUMA_NMIX; mx++)
		if ((p->mixes >> mx) & 1)
			fprintf(m, " %s %s (%s);", numa_mix_name(mx),
				bandwidth_kernel_name(numa_mix_kernel(mx, p->streaming)), _(how[mx]));
	fputs(_(" GB/s = 10^9 bytes/s read + written, as Intel MLC and STREAM count\n"), m);
	if (p->mixes & ~(1u << NUMA_MIX_READS))
		fputs(p->streaming ? _("# writes: streaming (non-temporal) stores: a stored line is "
				       "not read first (--stores cached: as a program's stores)\n")
				   : _("# writes: cached stores, as a program's: each stored line is "
				       "read first, bytes not counted (--stores streaming: "
				       "non-temporal stores, which do not read it)\n"), m);
}

/* The loaded-latency curves: which pairs and why, and how. */
static void print_loaded(FILE *m, const struct numa_params *p)
{
	char pairs[400] = "";
	for (size_t i = 0; i < p->nloaded; i++) {
		const struct numa_curve_plan *c = &p->loaded[i];
		if (c->pair.mem >= 0)
			mt_append(pairs, sizeof pairs, "%s %d>%d (%s)", i ? "," : "",
				  p->nodes[c->pair.cpu].node, p->nodes[c->pair.mem].node,
				  why_said(c->why));
		else
			/* TRANSLATORS: a curve's pair whose memory node the run finds */
			mt_append(pairs, sizeof pairs, _("%s %d>? (%s, found once measured)"),
				  i ? "," : "", p->nodes[c->pair.cpu].node, why_said(c->why));
	}
	/* TRANSLATORS: the pairs (" 0>0 (local), 0>1 (...)"), then how each curve is
	 * measured; the chase's pages are "2 MB" or "4 KB (THP is off here)" */
	mt_hfprintf(m, _("# loaded latency:%s; a chaser on the CPU node's last CPU (the latency lab's "
			 "random chase, %u-byte slots, on %s pages) and injectors on its other CPUs "
			 "(reads in 8 KB bursts), idle then %zu delays between bursts from %.0f ns to "
			 "none, %u tries of %.0f ms a point, both buffers bound to the memory node\n"),
		    pairs, p->lat.random_stride, p->huge ? _("2 MB") : _("4 KB (THP is off here)"),
		    p->ndelays, p->delays[0], p->bw.loaded_tries, p->bw.point_ns / 1e6);
	fprintf(m, _("# knee: %s\n"), _(numa_knee_rule));
}

/* What is measured, how, and what could move the pages. Returns 0. */
static int head(void *printer)
{
	const struct printer *b = printer;
	const struct numa_params *p = b->p;
	const struct numa_result *r = &b->r;
	FILE *m = b->run->meta;
	print_nodes(m, p, r);
	fprintf(m, _("# latency: the latency lab's random chase (%u-byte slots, one random cycle), "
		     "best of %u tries, on the CPU node's last CPU; %s\n"), p->lat.random_stride,
		p->lat.tries,
		p->huge ? _("on 4 KB pages (page walks included), then on 2 MB pages as Intel MLC "
			    "measures idle latency")
			: _("on 4 KB pages only (page walks included): THP is off here, so no 2 MB "
			    "figure as MLC's"));
	print_bandwidth(m, p);
	/* TRANSLATORS: THP's mode and numa_balancing's (on, off, absent) are the kernel's words */
	fprintf(m, _("# memory: bound to the memory node (hwloc, HWLOC_MEMBIND_BIND), first "
		     "touched by the thread that uses it, %llu-byte pages (madvised NOHUGEPAGE; THP "
		     "%s); kernel.numa_balancing %s\n"), (unsigned long long)r->page_size,
		r->thp[0] ? r->thp : "absent",
		r->numa_balancing < 0 ? "absent" : r->numa_balancing ? "on" : "off");
	if (p->nloaded)
		print_loaded(m, p);
	mt_hfprintf(m, _("# about %.0f s (its steps timed small here: a page %.1f us, a 2 MB page "
			 "%.0f us, a slot linked %.0f ns, %.0f %% of a CPU)\n"),
		ceil(numa_estimate_s(p, p->probe)), p->probe ? p->probe->page_ns / 1e3 : 0,
		p->probe ? p->probe->huge_ns / 1e3 : 0,
		p->probe ? latency_link_ns(&p->probe->lat4, p->size, p->lat.random_stride, 1) : 0,
		p->probe ? 100 * p->probe->share : 100);
	if (b->csv) {
		printf("cpu_node,memory_node,latency_ns,read_gbs,triad_gbs,pages_on_node," /* machine text */
		       "latency_huge_ns");
		for (int mx = 0; mx < NUMA_NMIX; mx++)
			if (csv_extra[mx] && ((p->mixes >> mx) & 1))
				printf(",%s", csv_extra[mx]);
		printf("\n");
	}
	fflush(m);
	fflush(stdout);
	return 0;
}

/* ---- options ------------------------------------------------------------------- */

/* --loaded-pairs "0:1,1:0" into o->asked. Returns 0, or -1 said. */
static int parse_pairs(struct opts *o)
{
	const char *w = o->pairs;
	while (w && *w) {
		char *end;
		long c = strtol(w, &end, 10), m;
		if (end == w || *end != ':' || c < 0 || c > 1000000)
			return batch_bad("numa", "--loaded-pairs", o->pairs,
					 _("CPU node:memory node pairs such as 0:1,1:0"));
		w = end + 1;
		m = strtol(w, &end, 10);
		if (end == w || (*end && *end != ',') || m < 0 || m > 1000000)
			return batch_bad("numa", "--loaded-pairs", o->pairs,
					 _("CPU node:memory node pairs such as 0:1,1:0"));
		if (o->nasked == NUMA_MAX_CURVES) {
			mt_warn(_("run numa: --loaded-pairs: more than %d pairs"), NUMA_MAX_CURVES);
			return -1;
		}
		o->asked[o->nasked].cpu = (int)c;
		o->asked[o->nasked++].mem = (int)m;
		w = *end ? end + 1 : end;
	}
	return 0;
}

/* --mix and --loaded-pairs. Returns 0, or -1 said in one line. */
static int parse_more(struct opts *o)
{
	mt_error e = { "" };
	o->mixes = NUMA_MIXES_DEFAULT;
	if (o->mix && numa_mix_parse(o->mix, &o->mixes, &e) < 0) {
		mt_warn(_("run numa: %s"), e.msg);
		return -1;
	}
	if (o->pairs)
		o->loaded = 1;
	return o->pairs && !*o->pairs ? batch_bad("numa", "--loaded-pairs", o->pairs,
						  _("CPU node:memory node pairs such as 0:1,1:0"))
				      : parse_pairs(o);
}

/* After the options: the nodes wanted, the rest (parse_more). Returns 0,
 * or -1 (said in one line). */
static int check(struct batch_cli *cli, void *params)
{
	struct opts *o = &((struct run_params *)params)->o;
	(void)cli;
	for (size_t i = 0; i < o->nodes.n; i++)
		o->want[i] = (int)o->nodes.v[i];
	o->nwant = o->nodes.n;
	return parse_more(o);
}

/* --cpus (memtop's one CPU-list grammar, its domains resolved on m): each
 * node's CPUs cut to the list (each one this process may use
 * on m), their DRAM floor again. Returns 0, or -1 said. */
static int keep_cpus(struct numa_node *all, size_t n, const char *list, const struct machine *m)
{
	static int want[MT_CPU_LIST_MAX];
	mt_error e = { "" };
	int nw = machine_cpus(m, list, want, MT_CPU_LIST_MAX, NULL, 0, &e);
	if (nw < 0)
		return batch_bad("numa", "--cpus", list, e.msg);
	for (int k = 0; k < nw; k++)
		if (!machine_allows(m, want[k])) {
			mt_warn(_("run numa: --cpus: CPU %d is not one this process may run on "
				  "(offline, absent or outside its taskset)"), want[k]);
			return -1;
		}
	for (size_t i = 0; i < n; i++) {
		struct numa_node *o = &all[i];
		int kept = 0;
		for (int c = 0; c < o->ncpus; c++)
			for (int k = 0; k < nw; k++)
				if (want[k] == o->cpus[c]) {
					o->cpus[kept++] = o->cpus[c];
					break;
				}
		o->ncpus = kept;
		o->floor = kept ? machine_dram_floor(m, o->cpus, kept, o->floor_why, sizeof o->floor_why)
				: 0;
	}
	return 0;
}

/* The mixes, their stores and the curves into p (after numa_plan). Returns
 * 0, or -1 (said). */
static int plan_more(struct numa_params *p, const struct opts *o)
{
	mt_error e = { "" };
	p->mixes = o->mixes;
	p->streaming = o->streaming;
	if (p->streaming && !bandwidth_kernel_fn(BANDWIDTH_COPY_NT, bandwidth_isa_best())) {
		mt_warn(_("run numa: --stores streaming: this CPU or build has no streaming stores "
			  "(%s)"),
			bandwidth_isa_name(bandwidth_isa_best()));
		return -1;
	}
	if (o->loaded && numa_plan_loaded(p, (const int (*)[NUMA_MAX_NODES])p->dist, o->asked,
					   o->nasked, &e) < 0) {
		mt_warn(_("run numa: %s"), e.msg);
		return -1;
	}
	return 0;
}

/* The nodes of machine m and the plan, priced by its steps timed here
 * (a recorded machine, not here: a guess). Returns 0, or -1 (said). */
static int make_params(struct batch_cli *cli, const struct machine *m, void *params,
		       void *printer)
{
	struct numa_params *p = &((struct run_params *)params)->p;
	const struct opts *o = &((struct run_params *)params)->o;
	struct numa_probe *probe = &((struct run_params *)params)->probe;
	int recorded = cli->sysfs_root || cli->topology;
	static struct numa_node all[NUMA_MAX_NODES * 4];
	mt_error e = { "" };
	size_t n = numa_nodes_of(m, cli->cpu_coretype && m->topo ? topo_coretype_find(m->topo, cli->cpu_coretype)
							     : -1,
				 all, MT_ARRAY_LEN(all));
	struct machine_budget b;
	int rc;
	(void)printer;
	if (o->cpus.spec && keep_cpus(all, n, o->cpus.spec, m) < 0)
		return -1;
	machine_mem_budget(m, &b);
	rc = numa_plan(p, all, n, o->want, o->nwant, &b, cli->quick, &e);
	for (size_t i = 0; i < p->nnodes; i++) /* a node's bandwidth runs on all its CPUs */
		if (p->nodes[i].ncpus > cli->threads)
			cli->threads = p->nodes[i].ncpus;
	p->m = m;
	numa_plan_distances(p, m);
	/* idle latency on 2 MB pages too, as MLC takes it, where the kernel gives them */
	p->huge = strcmp(m->pages.thp, "always") == 0 || strcmp(m->pages.thp, "madvise") == 0;
	if (rc < 0) {
		mt_warn(_("run numa: %s"), e.msg);
		if (rc != -1)
			cli->rc = MT_EXIT_RUNTIME;
		return -1;
	}
	if (plan_more(p, o) < 0)
		return -1;
	numa_params_runs(p);
	if (!recorded) {
		numa_probe(p, probe);
		p->probe = probe;
	}
	return 0;
}

/* The plan of the params on m. */
static void describe(const struct machine *m, int cpu, const void *params, const void *printer,
		     struct plan *out)
{
	(void)m;
	(void)cpu;
	(void)printer;
	numa_plan_of(params, out);
}

/* The memory binding opened, the printer with its empty result. Returns 0,
 * or -1 (said). */
static int start(struct batch_cli *cli, const struct machine *m, void *params, void *printer)
{
	struct run_params *rp = params;
	struct printer *b = printer;
	mt_error e = { "" };
	(void)m;
	if (!(rp->p.mem = numa_mem_open(&e))) {
		mt_warn(_("run numa: %s"), e.msg);
		cli->rc = MT_EXIT_RUNTIME;
		return -1;
	}
	b->p = &rp->p;
	numa_result_init(&b->r, &rp->p);
	return 0;
}

/* After the job: the time it took, the result's. */
static void ended(void *printer)
{
	struct printer *b = printer;
	b->r.elapsed_s = b->run->elapsed_s;
}

/* The memory binding plan opened. */
static void release(void *printer, void *params)
{
	struct numa_params *p = &((struct run_params *)params)->p;
	(void)printer;
	numa_mem_close(p->mem);
	p->mem = NULL;
}

const struct experiment exp_numa = {
	.name = "numa",
	.about = N_("node x node idle latency and read/triad GB/s on memory bound to each node (MLC)"),
	EXPERIMENT_PARTS,
	.check = check,
	.make_params = make_params,
	.pinned = 0, /* the worker only starts the labs' runs, each pinned to its CPU node */
	EXPERIMENT_JOB(numa_worker), /* on the numa_params, the params' first field */
	.on_note = on_note,
	.note_forms = (const char *const[]){ NUMA_SAYS_FORMS, NULL },
	.ended = ended,
	EXPERIMENT_RESULT(r, &kind_numa),
	.release = release,
};
