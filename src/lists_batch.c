/* memtop run lists: the list layouts walked (cycles per cell), new lines per
 * cell for 64- and 128-byte lines, simulator misses per cell; or --graph:
 * the graph homework, naive against blocked. */
#include "config.h"

#include "clock.h"
#include "experiment.h"
#include "job.h"
#include "jsonio.h"
#include "lists.h"
#include "sim.h"
#include "util.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

struct res {
	int have;
	double cyc, ns, spread, l64, l128, sim, bare;
};

struct batch {
	const struct lists_params *p;
	struct res r[LISTS_MAX_LENGTHS][LIST_NLAYOUTS];
	double work_cyc;
	int have_graph, graph_same;
	double naive_ms, blocked_ms;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: memtop run lists [OPTIONS]\n"
		"The same list (1 2 ... n) of 16-byte cells laid out six ways and walked:\n"
		"sequential, stride (a new 128-byte line each cell), shuffled, malloc (with\n"
		"16..256-byte allocations in between), holes (a second malloc list built into\n"
		"freed noise), cdr (cdr-coding: values with two code bits, no next pointers).\n\n"
		"  --lengths LIST      cells, e.g. 4096,64K,1M (default 4096,65536,1M,4M)\n"
		"  --layouts LIST      layouts to run (default all six)\n"
		"  --work N            N dependent multiply-adds on each cell's value: the\n"
		"                      out-of-order core hides the misses behind the work\n"
		"  --tries N           best of N (default 3)\n"
		"  --sim-cache s,E,b   replay each walk's trace through this cache (default\n"
		"                      7,8,7: the M4 Max's L1d, 128 KB, 8-way, 128-byte lines)\n"
		"  --no-sim            no simulator replay\n"
		"  --graph             only the graph homework: G[j][i] |= G[i][j], naive\n"
		"                      against blocked over the upper half\n"
		"  --graph-n N         graph side (default 4096)\n"
		"  --graph-block B     block side (default 64)\n"
		"  --json FILE         write the result to FILE (atomically)\n"
		"  -h, --help          this help\n");
}

static void on_event(const struct job_event *ev, void *ctx)
{
	struct batch *b = ctx;
	struct res *r;
	if (ev->type == JOB_EV_NOTE) {
		printf("# %s\n", ev->text);
		return;
	}
	if (ev->type != JOB_EV_CELL)
		return;
	if (ev->kind == LISTS_CELL_WORK) {
		b->work_cyc = ev->value;
		printf("# work alone: %.1f cycles per cell (%u multiply-adds)\n", ev->value,
		       b->p->work);
		return;
	}
	if (ev->kind == LISTS_CELL_GRAPH) {
		b->have_graph = 1;
		b->naive_ms = ev->value;
		b->blocked_ms = ev->aux[0];
		b->graph_same = ev->aux[1] > 0.5;
		printf("%-28s %10.1f\n%-28s %10.1f\n# blocked is %.2fx faster; same result: %s\n",
		       "naive (G[j][i] |= G[i][j])", ev->value, "blocked upper half", ev->aux[0],
		       ev->aux[0] > 0 ? ev->value / ev->aux[0] : 0, b->graph_same ? "yes" : "NO");
		return;
	}
	if (ev->kind != LISTS_CELL_RESULT || ev->row < 0 || ev->row >= LISTS_MAX_LENGTHS ||
	    ev->col < 0 || ev->col >= LIST_NLAYOUTS)
		return;
	r = &b->r[ev->row][ev->col];
	r->have = 1;
	r->cyc = ev->value;
	r->ns = ev->aux[0];
	r->spread = ev->spread;
	r->l64 = ev->aux[1];
	r->l128 = ev->aux[2];
	r->sim = ev->aux[3];
	r->bare = ev->aux[4];
	printf("%9zu  %-10s %9.1f %8.2f %6.1f%% %8.3f %8.3f", b->p->lengths[ev->row],
	       list_layout_name(ev->col), r->cyc, r->ns, r->spread * 100, r->l64, r->l128);
	if (isfinite(r->sim))
		printf(" %9.3f", r->sim);
	else
		printf(" %9s", "-");
	if (b->p->work)
		printf(" %8.1f %8.1f", r->bare, r->bare + b->work_cyc - r->cyc);
	printf("\n");
}

static int parse_lengths(const char *arg, struct lists_params *p)
{
	char buf[512], *save = NULL, *tok;
	size_t k = 0;
	if (mt_strlcpy(buf, arg, sizeof buf) < 0)
		return -1;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;
		if (k == LISTS_MAX_LENGTHS || mt_parse_size(tok, &v) < 0 || v < 1 ||
		    v > LISTS_MAX_CELLS)
			return -1;
		p->lengths[k++] = (size_t)v;
	}
	if (k == 0)
		return -1;
	p->nlengths = k;
	return 0;
}

static int parse_layouts(const char *arg, unsigned *mask)
{
	char buf[256], *save = NULL, *tok;
	*mask = 0;
	if (mt_strlcpy(buf, arg, sizeof buf) < 0)
		return -1;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int l = list_layout_parse(tok);
		if (l < 0)
			return -1;
		*mask |= 1u << l;
	}
	return *mask ? 0 : -1;
}

static int write_json(const char *path, const struct batch *b, const struct run_header *hdr,
		      mt_error *e)
{
	const struct lists_params *p = b->p;
	cJSON *root = cJSON_CreateObject(), *arr;
	int rc;
	if (!root || run_header_to_json(hdr, root) < 0)
		goto oom;
	if (p->graph) {
		cJSON *g = cJSON_AddObjectToObject(root, "graph");
		if (!g)
			goto oom;
		cJSON_AddNumberToObject(g, "n", (double)p->graph_n);
		cJSON_AddNumberToObject(g, "block", (double)p->graph_block);
		cJSON_AddNumberToObject(g, "naive_ms", b->naive_ms);
		cJSON_AddNumberToObject(g, "blocked_ms", b->blocked_ms);
		cJSON_AddNumberToObject(g, "speedup",
					b->blocked_ms > 0 ? b->naive_ms / b->blocked_ms : 0);
		cJSON_AddBoolToObject(g, "same", b->graph_same);
	} else {
		cJSON_AddNumberToObject(root, "work", p->work);
		cJSON_AddNumberToObject(root, "tries", p->tries);
		cJSON_AddNumberToObject(root, "core_ghz", hdr->clock.core_ghz);
		if (p->work)
			cJSON_AddNumberToObject(root, "work_cycles_per_cell", b->work_cyc);
		if (p->sim_s >= 0) {
			cJSON *c = cJSON_AddObjectToObject(root, "sim_cache");
			if (!c)
				goto oom;
			cJSON_AddNumberToObject(c, "s", p->sim_s);
			cJSON_AddNumberToObject(c, "E", p->sim_E);
			cJSON_AddNumberToObject(c, "b", p->sim_b);
		}
		arr = cJSON_AddArrayToObject(root, "results");
		if (!arr)
			goto oom;
		for (size_t i = 0; i < p->nlengths; i++)
			for (int l = 0; l < LIST_NLAYOUTS; l++) {
				const struct res *r = &b->r[i][l];
				cJSON *it;
				if (!r->have)
					continue;
				it = cJSON_CreateObject();
				if (!it)
					goto oom;
				cJSON_AddStringToObject(it, "layout", list_layout_name(l));
				cJSON_AddNumberToObject(it, "cells", (double)p->lengths[i]);
				cJSON_AddNumberToObject(it, "cycles_per_cell", r->cyc);
				cJSON_AddNumberToObject(it, "ns_per_cell", r->ns);
				cJSON_AddNumberToObject(it, "spread", r->spread);
				cJSON_AddNumberToObject(it, "new_lines_64", r->l64);
				cJSON_AddNumberToObject(it, "new_lines_128", r->l128);
				if (isfinite(r->sim))
					cJSON_AddNumberToObject(it, "sim_misses_per_cell", r->sim);
				if (p->work)
					cJSON_AddNumberToObject(it, "bare_cycles_per_cell", r->bare);
				cJSON_AddItemToArray(arr, it);
			}
	}
	rc = jsonio_save(path, root, e);
	cJSON_Delete(root);
	return rc;
oom:
	cJSON_Delete(root);
	return mt_fail(e, "out of memory");
}

static void print_pivot(const struct batch *b)
{
	const struct lists_params *p = b->p;
	printf("\n# cycles per cell (the seed's table)\n%9s", "cells");
	for (int l = 0; l < LIST_NLAYOUTS; l++)
		if (p->layouts & (1u << l))
			printf(" %10s", list_layout_name(l));
	printf("\n");
	for (size_t i = 0; i < p->nlengths; i++) {
		printf("%9zu", p->lengths[i]);
		for (int l = 0; l < LIST_NLAYOUTS; l++) {
			if (!(p->layouts & (1u << l)))
				continue;
			if (b->r[i][l].have)
				printf(" %10.1f", b->r[i][l].cyc);
			else
				printf(" %10s", "-");
		}
		printf("\n");
	}
}

static int lists_batch(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "lengths", required_argument, NULL, 'L' },
		{ "layouts", required_argument, NULL, 'l' },
		{ "work", required_argument, NULL, 'w' },
		{ "tries", required_argument, NULL, 't' },
		{ "sim-cache", required_argument, NULL, 'c' },
		{ "no-sim", no_argument, NULL, 'N' },
		{ "graph", no_argument, NULL, 'g' },
		{ "graph-n", required_argument, NULL, 'G' },
		{ "graph-block", required_argument, NULL, 'B' },
		{ "json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct lists_params p; /* outlives the job */
	struct batch b;
	struct run_header hdr;
	struct job_opts jo = { -1, 0 };
	const char *json = NULL;
	int ch, st;
	uint64_t v, vs[3];
	mt_error e = { "" };
	job_t *job;

	lists_params_default(&p);
	memset(&b, 0, sizeof b);
	b.p = &p;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 'L':
			if (parse_lengths(optarg, &p) < 0) {
				mt_warn("run lists: --lengths: expected cell counts 1..%llu such as "
					"4096,64K,1M separated by commas, got '%s'",
					(unsigned long long)LISTS_MAX_CELLS, optarg);
				return MT_EXIT_USAGE;
			}
			break;
		case 'l':
			if (parse_layouts(optarg, &p.layouts) < 0) {
				mt_warn("run lists: --layouts: expected names from sequential, stride, "
					"shuffled, malloc, holes, cdr, got '%s'", optarg);
				return MT_EXIT_USAGE;
			}
			break;
		case 'w':
			if (mt_parse_u64(optarg, 0, 10000, &v) < 0) {
				mt_warn("run lists: --work: expected 0..10000, got '%s'", optarg);
				return MT_EXIT_USAGE;
			}
			p.work = (unsigned)v;
			break;
		case 't':
			if (mt_parse_int(optarg, 1, 100, &p.tries) < 0) {
				mt_warn("run lists: --tries: expected 1..100, got '%s'", optarg);
				return MT_EXIT_USAGE;
			}
			break;
		case 'c':
			if (mt_parse_u64_list(optarg, 0, SIM_MAX_E, vs, 3) != 3 || vs[0] > SIM_MAX_S ||
			    vs[1] < 1 || vs[2] > 20) {
				mt_warn("run lists: --sim-cache: expected s,E,b such as 7,8,7, got '%s'",
					optarg);
				return MT_EXIT_USAGE;
			}
			p.sim_s = (int)vs[0];
			p.sim_E = (int)vs[1];
			p.sim_b = (int)vs[2];
			break;
		case 'N': p.sim_s = -1; break;
		case 'g': p.graph = 1; break;
		case 'G':
			if (mt_parse_u64(optarg, 1, 65536, &v) < 0) {
				mt_warn("run lists: --graph-n: expected 1..65536, got '%s'", optarg);
				return MT_EXIT_USAGE;
			}
			p.graph_n = (size_t)v;
			break;
		case 'B':
			if (mt_parse_u64(optarg, 1, 65536, &v) < 0) {
				mt_warn("run lists: --graph-block: expected 1..65536, got '%s'", optarg);
				return MT_EXIT_USAGE;
			}
			p.graph_block = (size_t)v;
			break;
		case 'j': json = optarg; break;
		case 'h': usage(stdout); return MT_EXIT_OK;
		default:
			mt_warn("run lists: unknown option '%s' (see memtop run lists --help)",
				argv[optind - 1]);
			return MT_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		mt_warn("run lists: unexpected argument '%s'", argv[optind]);
		return MT_EXIT_USAGE;
	}
	if (p.sim_s >= 0) { /* check the geometry now: a usage error, not a failed run */
		struct sim_cache *c = sim_new(p.sim_s, p.sim_E, p.sim_b, &e);
		if (!c) {
			mt_warn("run lists: --sim-cache: %s", e.msg);
			return MT_EXIT_USAGE;
		}
		sim_free(c);
	}

	job = job_start(lists_worker, &p, &jo, &e);
	if (!job) {
		mt_warn("run lists: %s", e.msg);
		return MT_EXIT_RUNTIME;
	}
	{
		struct job_progress pr;
		job_get_progress(job, &pr);
		run_header_init(&hdr, pr.cpu);
	}
	run_header_print(stdout, &hdr);
	if (p.graph) {
		printf("# graph homework: %zu x %zu 0/1 bytes, block %zu, best of %d\n%-28s %10s\n",
		       p.graph_n, p.graph_n, p.graph_block, p.tries, "version", "ms");
	} else {
		printf("# lists: walk (1 2 ... n), best of %d; cycles = ns x %.2f GHz (calibrated core "
		       "clock)\n",
		       p.tries, hdr.clock.core_ghz);
		if (p.sim_s >= 0)
			printf("# sim: each walk's loads (value, next) replayed cold through (%d, %d, %d) "
			       "= %llu KB, %d-way, %d-byte lines\n",
			       p.sim_s, p.sim_E, p.sim_b,
			       (unsigned long long)(((1ull << p.sim_s) * (uint64_t)p.sim_E
						     << p.sim_b) >> 10),
			       p.sim_E, 1 << p.sim_b);
		printf("%9s  %-10s %9s %8s %7s %8s %8s %9s", "cells", "layout", "cyc/cell", "ns/cell",
		       "spread", "lines64", "lines128", "sim miss");
		if (p.work)
			printf(" %8s %8s", "bare", "hidden");
		printf("\n");
	}
	fflush(stdout);
	st = job_pump(job, on_event, &b, 1, &e);
	diag_end(&hdr.diag);
	if (st < 0) {
		mt_warn("run lists: %s", e.msg);
		return MT_EXIT_RUNTIME;
	}
	if (st == 1) {
		mt_warn("run lists: cancelled; nothing written");
		return MT_EXIT_RUNTIME;
	}
	if (!p.graph)
		print_pivot(&b);
	{
		char w[8][160];
		int n = diag_warnings(&hdr.diag, w, 8);
		for (int i = 0; i < n; i++)
			printf("# warning: %s\n", w[i]);
	}
	if (json) {
		if (write_json(json, &b, &hdr, &e) < 0) {
			mt_warn("run lists: %s", e.msg);
			return MT_EXIT_RUNTIME;
		}
		printf("# wrote %s\n", json);
	}
	if (p.graph && b.have_graph && !b.graph_same) {
		mt_warn("run lists: the blocked graph differs from the naive one");
		return MT_EXIT_RUNTIME;
	}
	return MT_EXIT_OK;
}

const struct experiment exp_lists = {
	"lists",
	"linked-list cell layouts, cdr-coding, the graph homework (seed 003)",
	lists_batch,
};
