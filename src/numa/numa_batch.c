/* memtop run numa: Intel MLC's node x node matrices (idle latency, read and
 * triad bandwidth) from the latency and bandwidth labs' own runs on memory
 * bound to each node, a line a node pair as it is measured, the matrices
 * at the end, and where the pages were. */
#include "config.h"

#include "numa.h"
#include "core/batch.h"
#include "core/experiment.h"
#include "core/sysinfo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct batch {
	const struct numa_params *p;
	const struct batch_run *run;
	int csv;
	struct numa_result r;
};

/* The options, with their help: the getopt table and --help both come
 * from it (core/batch.h). */
static const struct batch_option options[] = {
	{ "nodes", 'n', "LIST", "the NUMA nodes to measure, such as 0,1 (default: all)" },
	{ "sysfs-root", 's', "DIR",
	  "print the plan for a recorded machine's /sys tree (as\n"
	  "memtop topo reads it) and measure nothing" },
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
	.tail = "\nThe size is 8 x the largest credible cache the CPU nodes see, at least 256 MB,\n"
		"at most a quarter of the smallest node's memory. GB/s are 10^9 bytes a second,\n"
		"counted as STREAM does (read 1 array a pass, triad 3).\n",
};

/* ---- output ------------------------------------------------------------------- */

/* One node pair's line (or CSV row) once its three runs are in. */
static void print_pair(const struct batch *b, size_t i, size_t j)
{
	const struct numa_result *r = &b->r;
	const struct numa_value *v = r->v[i][j];
	double pl = numa_result_placement(r, i, j);
	char place[64] = "pages not counted here";
	if (b->csv) {
		printf("%d,%d,%.2f,%.3f,%.3f,", r->nodes[i], r->nodes[j], v[NUMA_LAT].v,
		       v[NUMA_READ].v, v[NUMA_TRIAD].v);
		if (isfinite(pl))
			printf("%.4f", pl);
		printf("\n");
		return;
	}
	if (isfinite(pl))
		mt_snprintf(place, sizeof place, "pages on node %d: %.0f %%", r->nodes[j], 100 * pl);
	printf("CPU node %d, memory node %d: latency %.1f ns (CPU %d), read %.1f GB/s, triad "
	       "%.1f GB/s (%d thread%s); %s%s\n",
	       r->nodes[i], r->nodes[j], v[NUMA_LAT].v, v[NUMA_LAT].where, v[NUMA_READ].v,
	       v[NUMA_TRIAD].v, v[NUMA_READ].where, v[NUMA_READ].where == 1 ? "" : "s", place,
	       ((v[NUMA_READ].flags | v[NUMA_TRIAD].flags) & NUMA_F_CHECKED) ? "" : " (!)");
}

static void on_event(const struct job_event *ev, void *ctx)
{
	struct batch *b = ctx;
	int k = numa_result_apply(&b->r, ev);
	if (ev->type == JOB_EV_NOTE)
		batch_note(b->run, ev->text);
	else if (k == NUMA_TRIAD)
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

/* The matrices, then what they say and what could have moved pages. */
static void print_end(const struct batch *b)
{
	const struct numa_result *r = &b->r;
	FILE *m = b->run->meta;
	size_t unbound = 0;
	if (!b->csv) {
		print_matrix(r, NUMA_LAT, "Idle latency (ns a load, random chase):");
		print_matrix(r, NUMA_READ, "Bandwidth, read (GB/s, all CPUs of the CPU node):");
		print_matrix(r, NUMA_TRIAD, "Bandwidth, triad (GB/s, all CPUs of the CPU node):");
	}
	if (r->nnodes == 1)
		fprintf(m, "# one node: local memory only, nothing to compare it with\n");
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
}

/* The nodes, what is left out of the size, and the size. */
static void print_nodes(FILE *m, const struct numa_params *p, int online)
{
	char a[32], cpus[96];
	for (size_t i = 0; i < p->nnodes; i++) {
		const struct numa_node *n = &p->nodes[i];
		numa_cpus_text(n->cpus, n->ncpus, cpus, sizeof cpus);
		fprintf(m, "# node %d: %s%s, %s of memory\n", n->node, n->ncpus ? "CPUs " : "",
			n->ncpus ? cpus : "no CPU this process may use (memory only)",
			n->memory ? mt_fmt_size(a, sizeof a, n->memory) : "unknown");
		for (int l = 1; l <= NUMA_MAX_LEVELS; l++)
			if (n->cache[l] && n->ncpus && !bandwidth_level_credible(n->cache[l], online))
				fprintf(m, "# node %d: its L%d of %s (hwloc) is over %llu MB a CPU here: "
					   "not credible (a guest may report its host's cache), left "
					   "out of the size\n", n->node, l,
					mt_fmt_size(a, sizeof a, n->cache[l]),
					(unsigned long long)(BW_CREDIBLE_PER_CPU >> 20));
	}
	fprintf(m, "# size %s: %s\n", mt_fmt_size(a, sizeof a, p->size), p->size_from);
}

/* What is measured, how, and what could move the pages. */
static void print_plan(const struct batch *b, int online)
{
	const struct numa_params *p = b->p;
	const struct numa_result *r = &b->r;
	FILE *m = b->run->meta;
	print_nodes(m, p, online);
	fprintf(m, "# latency: the latency lab's random chase (%u-byte slots, one random cycle), "
		   "best of %u tries, on the CPU node's last CPU\n", p->lat.random_stride,
		p->lat.tries);
	fprintf(m, "# bandwidth: the bandwidth lab's read (scalar) and triad (%s), a thread on each "
		   "CPU of the CPU node, best of %u..%u tries of %.0f ms; GB/s = 10^9 bytes/s "
		   "counted as STREAM does\n", bandwidth_isa_name(p->bw.isa), p->bw.min_tries,
		p->bw.max_tries, p->bw.try_ns / 1e6);
	fprintf(m, "# memory: bound to the memory node (hwloc, HWLOC_MEMBIND_BIND), first touched "
		   "by the thread that uses it, %llu-byte pages (madvised NOHUGEPAGE; THP %s); "
		   "kernel.numa_balancing %s\n", (unsigned long long)r->page_size,
		r->thp[0] ? r->thp : "absent",
		r->numa_balancing < 0 ? "absent" : r->numa_balancing ? "on" : "off");
	if (b->csv)
		printf("cpu_node,memory_node,latency_ns,read_gbs,triad_gbs,pages_on_node\n");
	fflush(m);
	fflush(stdout);
}

/* --sysfs-root: the plan for a recorded machine, nothing measured. */
static int print_plan_only(const struct numa_params *p, int online, const char *root)
{
	char path[200];
	printf("# the plan for %s (recorded: nothing is measured)\n",
	       mt_printable(path, sizeof path, root, 0));
	print_nodes(stdout, p, online);
	printf("# %zu node pair%s (CPU node > memory node), 3 runs each:", p->ncells,
	       p->ncells == 1 ? "" : "s");
	for (size_t k = 0; k < p->ncells; k++)
		printf("%s %d>%d", k ? "," : "", p->nodes[p->cells[k].cpu].node,
		       p->nodes[p->cells[k].mem].node);
	printf("\n");
	return MT_EXIT_OK;
}

/* ---- options ------------------------------------------------------------------- */

struct opts {
	int want[NUMA_MAX_NODES + 1]; /* --nodes */
	size_t nwant;
	const char *sysfs;            /* --sysfs-root */
};

static int parse(int argc, char **argv, struct batch_cli *cli, struct opts *o)
{
	int ch;
	memset(o, 0, sizeof *o);
	batch_cli_init(cli, "numa", &help);
	while ((ch = batch_next(cli, argc, argv)) > 0) {
		uint64_t v[NUMA_MAX_NODES + 1];
		int n;
		if (ch == 's')
			o->sysfs = optarg;
		if (ch != 'n')
			continue;
		n = mt_parse_u64_list(optarg, 0, 1000000, v, NUMA_MAX_NODES + 1);
		if (n <= 0) {
			batch_bad(cli->exp, "--nodes", optarg, "node numbers separated by commas");
			return MT_EXIT_USAGE;
		}
		for (int i = 0; i < n; i++)
			o->want[i] = (int)v[i];
		o->nwant = (size_t)n;
	}
	if (ch == 0 && o->sysfs && cli->json) {
		mt_warn("run numa: --json: nothing is measured with --sysfs-root (it prints the plan)");
		return MT_EXIT_USAGE;
	}
	return ch < 0 ? cli->rc : -1;
}

/* The nodes (core/topo: this machine's, or a recorded tree's) and the
 * plan. Returns -1 when planned, else the exit code (--sysfs-root: the plan
 * printed). */
static int plan(struct numa_params *p, const struct batch_cli *cli, const struct opts *o)
{
	static struct numa_node all[NUMA_MAX_NODES * 4];
	mt_error e = { "" };
	struct topo *t = NULL;
	size_t n;
	int rc, online;
	if (topo_load(o->sysfs, &t, &e) < 0) {
		mt_warn("run numa: %s", e.msg);
		return o->sysfs ? MT_EXIT_USAGE : MT_EXIT_RUNTIME;
	}
	n = numa_nodes_from_topo(t, all, MT_ARRAY_LEN(all));
	online = o->sysfs ? t->ncpus : mt_online_cpus();
	topo_free(t);
	rc = numa_plan(p, all, n, o->want, o->nwant, online, o->sysfs ? 0 : mt_mem_available(),
		       cli->quick, &e);
	if (rc < 0) {
		mt_warn("run numa: %s", e.msg);
		return rc == -1 ? MT_EXIT_USAGE : MT_EXIT_RUNTIME;
	}
	if (o->sysfs)
		return print_plan_only(p, online, o->sysfs);
	if (!(p->mem = numa_mem_open(&e))) {
		mt_warn("run numa: %s", e.msg);
		return MT_EXIT_RUNTIME;
	}
	numa_params_runs(p);
	return -1;
}

static int numa_batch(int argc, char **argv)
{
	static struct numa_params p; /* outlives the job */
	static struct batch b;       /* big: not on the stack */
	struct opts o;
	struct batch_cli cli;
	struct batch_run run;
	int rc;

	if ((rc = parse(argc, argv, &cli, &o)) >= 0)
		return rc;
	if ((rc = plan(&p, &cli, &o)) >= 0)
		return rc;
	memset(&b, 0, sizeof b);
	b.p = &p;
	b.run = &run;
	b.csv = cli.csv;
	numa_result_init(&b.r, &p);
	/* the worker only starts the labs' runs, each pinned to its CPU node */
	batch_begin(&run, &cli, 0);
	print_plan(&b, mt_online_cpus());
	rc = batch_pump(&run, numa_worker, &p, on_event, &b);
	numa_mem_close(p.mem);
	p.mem = NULL;
	b.r.hdr = run.hdr;
	b.r.elapsed_s = run.elapsed_s;
	if (rc)
		return rc;
	print_end(&b);
	return batch_finish(&run, batch_wants_json(&run) ? numa_result_to_json(&b.r) : NULL);
}

const struct experiment exp_numa = {
	.name = "numa",
	.summary = "node x node idle latency and read/triad GB/s on memory bound to each node (MLC)",
	.batch = numa_batch,
	.kind = &kind_numa,
	.options = options,
};
