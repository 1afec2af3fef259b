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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NUMA_AGREE 0.05 /* two latencies within this share (or their spreads) agree */

struct batch {
	const struct numa_params *p;
	const struct batch_run *run;
	int csv;
	struct numa_result r;
};

struct opts {
	struct batch_list nodes;      /* --nodes as given */
	int want[NUMA_MAX_NODES + 1]; /* ... as node numbers */
	size_t nwant;
};

/* The run's params: the job's arg first, then the command line's. */
struct run_params {
	struct numa_params p;
	struct opts o;
	struct numa_probe probe; /* the price's inputs (this machine's; p.probe) */
};

/* The options, with their help and the field each fills: the getopt
 * table, --help and the parse all come from it (run/batch.h). */
static const struct batch_option options[] = {
	BATCH_OPT_LIST("nodes", 'n', "LIST", "the NUMA nodes to measure, such as 0,1 (default: all)",
		       struct run_params, o.nodes, 0, 1000000, NUMA_MAX_NODES + 1,
		       "node numbers separated by commas"),
	BATCH_HELP_CPU_KIND,
	BATCH_HELP_COMMON("small run for tests: 32 MB, 1..2 tries of 1 ms",
			  "print CSV, one row a node pair (the rest goes to stderr)"),
	BATCH_END,
};

static const struct batch_help help = {
	.head = "Usage: memtop run numa [OPTIONS]\n"
		"Memory by node, as Intel MLC prints it: for each CPU node x memory node, the\n"
		"idle latency of the latency lab's random chase and the GB/s of the bandwidth\n"
		"lab's read and triad with a thread on each CPU of the CPU node, on memory\n"
		"bound to the memory node (hwloc) and first touched by the thread that uses it;\n"
		"the pages are counted node by node after each run.\n\n",
	.opts = options,
	.col = 20,
	.tail = "\nThe size is 4 x every cache a CPU node's CPUs reach together (any source's\n"
		"claim, doubted or not), at least 256 MB, at most a quarter of the smallest\n"
		"node's memory. The idle latency is read where memory is: 4 x the last cache\n"
		"its CPU reaches that no doubt is about, or, where a deeper cache's claim is\n"
		"doubted, where a curve from there up to the size settles; on 2 MB pages the\n"
		"size itself beside it where they differ. GB/s are 10^9 bytes a second,\n"
		"counted as STREAM does (read 1 array a pass, triad 3).\n",
};

/* ---- output ------------------------------------------------------------------- */

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
		return "in this VM each walk is two-dimensional, the guest's tables through the "
		       "host's, and the host's half grows with the buffer";
	return "past the TLBs' reach on 2 MB pages each load also walks the page tables";
}

/* One node pair's line (or CSV row) once its three runs are in. */
static void print_pair(const struct batch *b, size_t i, size_t j)
{
	const struct numa_result *r = &b->r;
	const struct numa_value *v = r->v[i][j];
	double pl = numa_result_placement(r, i, j);
	char place[64] = "pages not counted here", huge[320] = "", a[32];
	if (b->csv) {
		printf("%d,%d,%.2f,%.3f,%.3f,", r->nodes[i], r->nodes[j], v[NUMA_LAT].v,
		       v[NUMA_READ].v, v[NUMA_TRIAD].v);
		if (isfinite(pl))
			printf("%.4f", pl);
		printf(",");
		if (v[NUMA_LAT_HUGE].have)
			printf("%.2f", v[NUMA_LAT_HUGE].v);
		printf("\n");
		return;
	}
	if (isfinite(pl))
		mt_snprintf(place, sizeof place, "pages on node %d: %.0f %%", r->nodes[j], 100 * pl);
	if (v[NUMA_LAT_HUGE].have)
		mt_snprintf(huge, sizeof huge, ", %.1f ns on 2 MB pages", v[NUMA_LAT_HUGE].v);
	if (full_why(v)[0])
		mt_append(huge, sizeof huge, "; at the run's %s: %.1f ns on 2 MB pages, %s",
			  mt_fmt_size(a, sizeof a, r->size), v[NUMA_LAT_FULL].v, full_why(v));
	printf("CPU node %d, memory node %d: latency %.1f ns on 4 KB pages (CPU %d%s), read %.1f "
	       "GB/s, triad %.1f GB/s (%d thread%s); %s%s\n",
	       r->nodes[i], r->nodes[j], v[NUMA_LAT].v, v[NUMA_LAT].where, huge, v[NUMA_READ].v,
	       v[NUMA_TRIAD].v, v[NUMA_READ].where, v[NUMA_READ].where == 1 ? "" : "s", place,
	       ((v[NUMA_READ].flags | v[NUMA_TRIAD].flags) & NUMA_F_CHECKED) ? "" : " (!)");
}

/* A note: the result's (where the pages were), said after; where the idle
 * latency is read, said with the matrices. */
static int on_note(const struct job_event *ev, void *ctx)
{
	struct batch *b = ctx;
	numa_result_apply(&b->r, ev);
	return ev->subtype == NUMA_NOTE_LAT_SIZE;
}

static void on_event(const struct job_event *ev, void *ctx)
{
	struct batch *b = ctx;
	if (numa_result_apply(&b->r, ev) == NUMA_TRIAD)
		print_pair(b, (size_t)ev->row, (size_t)ev->col);
	fflush(stdout);
}

/* One matrix as MLC prints it: memory nodes across, CPU nodes down. */
static void print_matrix(const struct numa_result *r, int k, const char *title)
{
	printf("\n%s\n%-10s %s\n%-10s", title, "", "memory node", "CPU node");
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
				printf(" %9.1f", v->v);
			else
				printf(" %9s", "-");
		}
		printf("\n");
	}
}

/* Each remote pair's latency over its CPU node's own beside the SLIT's
 * ratio, and the bandwidth runs whose best try lost its CPU (said as run
 * bandwidth says it of its cells). */
static void print_ratios(FILE *m, const struct numa_result *r)
{
	char line[200];
	unsigned lost = 0, runs = 0;
	for (size_t i = 0; i < r->nnodes; i++)
		for (size_t j = 0; j < r->nnodes; j++) {
			if (numa_result_ratio_text(r, i, j, line, sizeof line) == 0)
				fprintf(m, "# %s\n", line);
			for (int k = NUMA_READ; k <= NUMA_TRIAD; k++) {
				runs += r->v[i][j][k].have;
				lost += r->v[i][j][k].have && (r->v[i][j][k].flags & NUMA_F_LOST);
			}
		}
	if (lost)
		fprintf(m, "# %s\n", bandwidth_lost_words(lost, runs, "bandwidth runs", line,
							  sizeof line));
}

/* The matrices, then what they say and what could have moved pages.
 * Returns 0. */
static int print_end(void *printer)
{
	const struct batch *b = printer;
	const struct numa_result *r = &b->r;
	FILE *m = b->run->meta;
	size_t unbound = 0;
	char t[200], a[32], c[32];
	mt_fmt_size(a, sizeof a, r->lat_size ? r->lat_size : r->size);
	if (!b->csv) {
		mt_snprintf(t, sizeof t, "Idle latency at %s (ns a load, random chase, 4 KB pages: "
					 "page walks included):", a);
		print_matrix(r, NUMA_LAT, t);
		mt_snprintf(t, sizeof t, "Idle latency at %s on 2 MB pages (ns a load, as Intel MLC "
					 "measures it):", a);
		if (b->p->huge)
			print_matrix(r, NUMA_LAT_HUGE, t);
		mt_snprintf(t, sizeof t, "Latency at the run's %s on 2 MB pages (ns a load: past "
					 "where memory is read):", mt_fmt_size(c, sizeof c, r->size));
		for (size_t i = 0; i < r->nnodes * r->nnodes; i++)
			if (r->v[i / r->nnodes][i % r->nnodes][NUMA_LAT_FULL].have) {
				print_matrix(r, NUMA_LAT_FULL, t);
				break;
			}
		print_matrix(r, NUMA_READ, "Bandwidth, read (GB/s, all CPUs of the CPU node):");
		print_matrix(r, NUMA_TRIAD, "Bandwidth, triad (GB/s, all CPUs of the CPU node):");
	}
	fprintf(m, "# idle latency read at %s: %s\n", a, r->lat_size_from);
	if (r->nnodes == 1)
		fprintf(m, "# one node: local memory only, nothing to compare it with\n");
	print_ratios(m, r);
	for (size_t i = 0; i < r->nnodes; i++)
		for (size_t j = 0; j < r->nnodes; j++) {
			double pl = numa_result_placement(r, i, j);
			if (isfinite(pl) && pl < 1)
				fprintf(m, "# warning: CPU node %d, memory node %d: only %.1f %% of the "
					   "pages on node %d\n", r->nodes[i], r->nodes[j], 100 * pl,
					r->nodes[j]);
		}
	for (size_t i = 0; i < r->nnodes; i++)
		for (size_t j = 0; j < r->nnodes; j++)
			if (r->v[i][j][NUMA_LAT].have && !(r->v[i][j][NUMA_LAT].flags & NUMA_F_BOUND))
				unbound++;
	if (unbound)
		fprintf(m, "# memory not bound: this system cannot bind it (one node: all of it is "
			   "on node %d)\n", r->nodes[0]);
	if (r->numa_balancing > 0)
		fprintf(m, "# warning: kernel.numa_balancing is on (mode %d): it can move pages "
			   "during a run; the pages were counted after each run\n", r->numa_balancing);
	return 0;
}

/* The nodes, their tiers, the SLIT between them, and the size. */
static void print_nodes(FILE *m, const struct numa_params *p, const struct numa_result *r)
{
	char a[32], cpus[96], slit[NUMA_MAX_NODES * NUMA_MAX_NODES * 8];
	for (size_t i = 0; i < p->nnodes; i++) {
		const struct numa_node *n = &p->nodes[i];
		numa_cpus_text(n->cpus, n->ncpus, cpus, sizeof cpus);
		fprintf(m, "# node %d: %s%s%s%s, %s of memory\n", n->node, n->tier,
			n->tier[0] ? ", " : "", n->ncpus ? "CPUs " : "",
			n->ncpus  ? cpus
			: n->own ? "no CPU this process may use (a cpuset keeps its CPUs from it)"
				 : "no CPUs of its own (memory only)",
			n->memory ? mt_fmt_mem(a, sizeof a, n->memory) : "unknown");
	}
	if (p->nnodes > 1 && numa_result_slit_text(r, slit, sizeof slit)[0])
		fprintf(m, "# SLIT (node distances, 10 local): %s\n", slit);
	else if (p->nnodes > 1)
		fprintf(m, "# SLIT: not known (the firmware gives no node distances here)\n");
	fprintf(m, "# size %s: %s\n", mt_fmt_size(a, sizeof a, p->size), p->size_from);
	if (p->skipped)
		fprintf(m, "# %zu of the machine's %zu nodes, spread over it: a run takes at most %d "
			   "(--nodes picks them)\n", p->nnodes, p->nnodes + p->skipped, NUMA_MAX_NODES);
}

/* What is measured, how, and what could move the pages. Returns 0. */
static int print_plan(void *printer)
{
	const struct batch *b = printer;
	const struct numa_params *p = b->p;
	const struct numa_result *r = &b->r;
	FILE *m = b->run->meta;
	print_nodes(m, p, r);
	fprintf(m, "# latency: the latency lab's random chase (%u-byte slots, one random cycle), "
		   "best of %u tries, on the CPU node's last CPU; %s\n", p->lat.random_stride,
		p->lat.tries,
		p->huge ? "on 4 KB pages (page walks included), then on 2 MB pages as Intel MLC "
			  "measures idle latency"
			: "on 4 KB pages only (page walks included): THP is off here, so no 2 MB "
			  "figure as MLC's");
	fprintf(m, "# bandwidth: the bandwidth lab's read (scalar) and triad (%s), a thread on each "
		   "CPU of the CPU node, best of %u..%u tries of %.0f ms; GB/s = 10^9 bytes/s "
		   "counted as STREAM does\n", bandwidth_isa_name(p->bw.isa), p->bw.min_tries,
		p->bw.max_tries, p->bw.try_ns / 1e6);
	fprintf(m, "# memory: bound to the memory node (hwloc, HWLOC_MEMBIND_BIND), first touched "
		   "by the thread that uses it, %llu-byte pages (madvised NOHUGEPAGE; THP %s); "
		   "kernel.numa_balancing %s\n", (unsigned long long)r->page_size,
		r->thp[0] ? r->thp : "absent",
		r->numa_balancing < 0 ? "absent" : r->numa_balancing ? "on" : "off");
	fprintf(m, "# about %.0f s (its steps timed small here: a page %.1f us, a 2 MB page %.0f "
		   "us, a slot linked %.0f ns, %.0f %% of a CPU)\n",
		ceil(numa_estimate_s(p, p->probe)), p->probe ? p->probe->page_ns / 1e3 : 0,
		p->probe ? p->probe->huge_ns / 1e3 : 0,
		p->probe ? latency_link_ns(&p->probe->lat4, p->size, p->lat.random_stride, 1) : 0,
		p->probe ? 100 * p->probe->share : 100);
	if (b->csv)
		printf("cpu_node,memory_node,latency_ns,read_gbs,triad_gbs,pages_on_node,"
		       "latency_huge_ns\n");
	fflush(m);
	fflush(stdout);
	return 0;
}

/* ---- options ------------------------------------------------------------------- */

/* Parse argv into cli and params' options. Returns 0, or -1 when the
 * command ends here with exit code cli->rc (--help: 0; bad: 2, said). */
static int parse(struct batch_cli *cli, int argc, char **argv, void *params)
{
	struct opts *o = &((struct run_params *)params)->o;
	memset(o, 0, sizeof *o);
	batch_cli_init(cli, "numa", &help, params);
	if (batch_parse(cli, argc, argv) < 0)
		return -1;
	for (size_t i = 0; i < o->nodes.n; i++)
		o->want[i] = (int)o->nodes.v[i];
	o->nwant = o->nodes.n;
	return 0;
}

/* The nodes of machine m and the plan, priced by its steps timed here
 * (recorded: a machine not here, a guess). Returns -1 when planned, else
 * the exit code (--plan: the plan printed). */
static int plan(struct numa_params *p, struct batch_cli *cli, const struct opts *o,
		const struct machine *m, int recorded, struct numa_probe *probe)
{
	static struct numa_node all[NUMA_MAX_NODES * 4];
	mt_error e = { "" };
	size_t n = numa_nodes_of(m, cli->cpu_coretype && m->topo ? topo_coretype_find(m->topo, cli->cpu_coretype)
							     : -1,
				 all, MT_ARRAY_LEN(all));
	struct machine_budget b;
	int rc;
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
		mt_warn("run numa: %s", e.msg);
		return rc == -1 ? MT_EXIT_USAGE : MT_EXIT_RUNTIME;
	}
	numa_params_runs(p);
	if (!recorded) {
		numa_probe(p, probe);
		p->probe = probe;
	}
	if (cli->plan) {
		struct plan pl;
		numa_plan_of(p, m, &pl);
		return plan_finish(cli, &pl);
	}
	if (!(p->mem = numa_mem_open(&e))) {
		mt_warn("run numa: %s", e.msg);
		return MT_EXIT_RUNTIME;
	}
	return -1;
}

/* The machine, the nodes and the plan (--plan: printed), then the printer
 * with its empty result. Returns -1 to run, else the exit code (said). */
static int prepare(struct batch_cli *cli, void *params, void *printer,
		   const struct batch_run *run)
{
	struct run_params *rp = params;
	struct batch *b = printer;
	const struct machine *m;
	struct machine *owned = NULL;
	int rc;

	if ((rc = machine_for_run(cli, &m, &owned)) >= 0)
		return rc;
	if ((rc = plan(&rp->p, cli, &rp->o, m, owned != NULL, &rp->probe)) >= 0) {
		machine_free(owned);
		return rc;
	}
	b->p = &rp->p;
	b->run = run;
	b->csv = cli->csv;
	numa_result_init(&b->r, &rp->p);
	return -1;
}

/* After the job: the time it took, the result's. */
static void ended(void *printer)
{
	struct batch *b = printer;
	b->r.elapsed_s = b->run->elapsed_s;
}

/* The printer's result, its run header first. */
static void *result(void *printer)
{
	return &((struct batch *)printer)->r;
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
	.about = "node x node idle latency and read/triad GB/s on memory bound to each node (MLC)",
	.options = options,
	.params_size = sizeof(struct run_params),
	.printer_size = sizeof(struct batch),
	.parse = parse,
	.prepare = prepare,
	.pinned = 0, /* the worker only starts the labs' runs, each pinned to its CPU node */
	.head = print_plan,
	.worker = numa_worker, /* on the numa_params, the params' first field */
	.on_note = on_note,
	.on_event = on_event,
	.ended = ended,
	.result = result,
	.summary = print_end,
	.kind = &kind_numa,
	.release = release,
};
