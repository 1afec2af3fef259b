/* memtop run falseshare: threads x layout (packed / padded) -> ms, the
 * packed/padded ratio, and the spacing sweep at two threads. */
#include "config.h"

#include "experiment.h"
#include "falseshare.h"
#include "job.h"
#include "jsonio.h"
#include "sysinfo.h"
#include "util.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

struct batch {
	const struct falseshare_params *p;
	struct falseshare_result r; /* the store the TUI tab shares */
	int sweep_head, ncpus;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: memtop run falseshare [OPTIONS]\n"
		"False sharing: T threads, each adding 1 to its own counter with atomic adds;\n"
		"counters packed 8 bytes apart or padded to separate lines; then a spacing\n"
		"sweep at two threads that shows where the sharing stops.\n\n"
		"  --threads LIST   thread counts (default 1,2,4,8; more than the CPUs is allowed)\n"
		"  --rounds N       increments per thread (default 20000000; the seed: 50000000)\n"
		"  --tries N        best of N (default 3)\n"
		"  --padding BYTES  spacing of the padded layout (default 128: two 64-byte lines,\n"
		"                   so an adjacent-line prefetcher cannot pair them)\n"
		"  --spacings LIST  spacings of the sweep in bytes (default 8,16,32,64,128,256)\n"
		"  --no-sweep       skip the sweep\n"
		"  --json FILE      write the result to FILE (atomically)\n"
		"  -h, --help       this help\n");
}

static void on_event(const struct job_event *ev, void *ctx)
{
	struct batch *b = ctx;
	const struct falseshare_cell *c;
	int kind;
	if (ev->type == JOB_EV_NOTE) {
		printf("# %s\n", ev->text);
		return;
	}
	kind = falseshare_result_apply(&b->r, ev);
	if (!kind)
		return;
	c = kind == FALSESHARE_CELL_TABLE ? &b->r.tab[ev->row][ev->col] : &b->r.swp[ev->row];
	if (kind == FALSESHARE_CELL_TABLE) {
		const struct falseshare_cell *pk = &b->r.tab[ev->row][0], *pd = &b->r.tab[ev->row][1];
		if (!pk->have || !pd->have)
			return;
		printf("%7u%-13s %10.1f %10.1f %7.2fx %9.2f %9.2f%s\n", pk->threads,
		       pk->over ? " (> CPUs)" : "", pk->ms, pd->ms, pd->ms > 0 ? pk->ms / pd->ms : 0,
		       pk->ns_inc, pd->ns_inc, pk->exact && pd->exact ? "" : "  SUM WRONG");
	} else {
		double base = b->r.swp[0].have ? b->r.swp[0].ms : c->ms;
		int bar = base > 0 ? (int)lround(30.0 * c->ms / base) : 0;
		char bars[41];
		if (bar > 40)
			bar = 40;
		if (bar < 0)
			bar = 0;
		memset(bars, '#', (size_t)bar);
		bars[bar] = '\0';
		if (!b->sweep_head) {
			printf("\n# sweep: %u threads, counters SPACING bytes apart, the first at a page "
			       "start\n%7s %10s %9s  %s\n",
			       c->threads, "spacing", "ms", "ns/inc", "(bar: ms against spacing 8)");
			b->sweep_head = 1;
		}
		printf("%7u %10.1f %9.2f  %s%s\n", c->spacing, c->ms, c->ns_inc, bars,
		       c->exact ? "" : "  SUM WRONG");
	}
}

static int parse_list(const char *arg, uint64_t lo, uint64_t hi, unsigned *out, size_t *n)
{
	uint64_t v[FALSESHARE_MAX_LIST];
	int k = mt_parse_u64_list(arg, lo, hi, v, FALSESHARE_MAX_LIST);
	if (k <= 0)
		return -1;
	for (int i = 0; i < k; i++)
		out[i] = (unsigned)v[i];
	*n = (size_t)k;
	return 0;
}

static int write_json(const char *path, const struct batch *b, mt_error *e)
{
	cJSON *root = falseshare_result_to_json(&b->r);
	int rc;
	if (!root)
		return mt_fail(e, "out of memory");
	rc = jsonio_save(path, root, e);
	cJSON_Delete(root);
	return rc;
}

static int falseshare_batch(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threads", required_argument, NULL, 'T' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "tries", required_argument, NULL, 't' },
		{ "padding", required_argument, NULL, 'p' },
		{ "spacings", required_argument, NULL, 's' },
		{ "no-sweep", no_argument, NULL, 'N' },
		{ "json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct falseshare_params p; /* outlives the job */
	struct batch b;
	struct run_header hdr;
	struct job_opts jo = { -1, 0 };
	const char *json = NULL;
	int ch, st;
	uint64_t v;
	mt_error e = { "" };
	job_t *job;

	falseshare_params_default(&p);
	memset(&b, 0, sizeof b);
	b.p = &p;
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 'T':
			if (parse_list(optarg, 1, FALSESHARE_MAX_T, p.threads, &p.nthreads) < 0) {
				mt_warn("run falseshare: --threads: expected numbers 1..%d separated by "
					"commas, got '%s'", FALSESHARE_MAX_T, optarg);
				return MT_EXIT_USAGE;
			}
			break;
		case 'r':
			if (mt_parse_u64(optarg, 1, 10000000000ull, &v) < 0) {
				mt_warn("run falseshare: --rounds: expected 1..10000000000, got '%s'",
					optarg);
				return MT_EXIT_USAGE;
			}
			p.rounds = v;
			break;
		case 't':
			if (mt_parse_int(optarg, 1, 100, &p.tries) < 0) {
				mt_warn("run falseshare: --tries: expected 1..100, got '%s'", optarg);
				return MT_EXIT_USAGE;
			}
			break;
		case 'p':
			if (mt_parse_u64(optarg, 8, FALSESHARE_MAX_SPACING, &v) < 0 || v % 8) {
				mt_warn("run falseshare: --padding: expected a multiple of 8 in 8..%d, "
					"got '%s'", FALSESHARE_MAX_SPACING, optarg);
				return MT_EXIT_USAGE;
			}
			p.padded = (unsigned)v;
			break;
		case 's': {
			int bad = parse_list(optarg, 8, FALSESHARE_MAX_SPACING, p.sweep, &p.nsweep) < 0;
			for (size_t i = 0; !bad && i < p.nsweep; i++)
				bad = p.sweep[i] % 8 != 0;
			if (bad) {
				mt_warn("run falseshare: --spacings: expected multiples of 8 in 8..%d "
					"separated by commas, got '%s'", FALSESHARE_MAX_SPACING, optarg);
				return MT_EXIT_USAGE;
			}
			break;
		}
		case 'N': p.nsweep = 0; break;
		case 'j': json = optarg; break;
		case 'h': usage(stdout); return MT_EXIT_OK;
		default:
			mt_warn("run falseshare: unknown option '%s' (see memtop run falseshare --help)",
				argv[optind - 1]);
			return MT_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		mt_warn("run falseshare: unexpected argument '%s'", argv[optind]);
		return MT_EXIT_USAGE;
	}
	b.ncpus = p.ncpus;
	falseshare_result_init(&b.r, &p);

	job = job_start(falseshare_worker, &p, &jo, &e);
	if (!job) {
		mt_warn("run falseshare: %s", e.msg);
		return MT_EXIT_RUNTIME;
	}
	{
		struct job_progress pr;
		job_get_progress(job, &pr);
		run_header_init(&hdr, pr.cpu);
	}
	run_header_print(stdout, &hdr);
	printf("# falseshare: %llu atomic adds per thread, best of %d; threads pinned "
	       "round-robin over %d CPU%s\n",
	       (unsigned long long)p.rounds, p.tries, b.ncpus, b.ncpus == 1 ? "" : "s");
	printf("# packed: counters %u bytes apart; padded: %u bytes apart\n", p.packed, p.padded);
	printf("%-20s %10s %10s %8s %9s %9s\n", "threads", "packed ms", "padded ms", "ratio",
	       "ns/inc pk", "ns/inc pd");
	fflush(stdout);
	st = job_pump(job, on_event, &b, 1, &e);
	diag_end(&hdr.diag);
	b.r.hdr = hdr;
	if (st < 0) {
		mt_warn("run falseshare: %s", e.msg);
		return MT_EXIT_RUNTIME;
	}
	if (st == 1) {
		mt_warn("run falseshare: cancelled; nothing written");
		return MT_EXIT_RUNTIME;
	}
	if (p.nsweep > 1 && b.r.swp[0].have) {
		/* where the sharing stops: the first spacing at least 1.5x faster
		 * than the packed one; then whether the next doubling still helps
		 * (an adjacent-line prefetcher pairing lines) */
		size_t stop = p.nsweep;
		for (size_t i = 1; i < p.nsweep; i++)
			if (b.r.swp[i].have && b.r.swp[i].ms * 1.5 < b.r.swp[0].ms) {
				stop = i;
				break;
			}
		if (stop == p.nsweep) {
			printf("# the sweep shows no line boundary (packed %.1f ms is as fast as any "
			       "spacing: the threads may share a core or its cache)\n",
			       b.r.swp[0].ms);
		} else {
			printf("# sharing stops at %u bytes apart (%.1fx faster than %u)", p.sweep[stop],
			       b.r.swp[0].ms / b.r.swp[stop].ms, p.sweep[0]);
			if (stop + 1 < p.nsweep && b.r.swp[stop + 1].have &&
			    b.r.swp[stop + 1].ms * 1.2 < b.r.swp[stop].ms)
				printf("; %u is another %.1fx faster: an adjacent-line prefetcher pairs "
				       "lines", p.sweep[stop + 1], b.r.swp[stop].ms / b.r.swp[stop + 1].ms);
			printf("\n");
		}
	}
	{
		char w[8][160];
		int n = diag_warnings(&hdr.diag, w, 8);
		for (int i = 0; i < n; i++)
			printf("# warning: %s\n", w[i]);
	}
	if (json) {
		if (write_json(json, &b, &e) < 0) {
			mt_warn("run falseshare: %s", e.msg);
			return MT_EXIT_RUNTIME;
		}
		printf("# wrote %s\n", json);
	}
	if (b.r.inexact) {
		mt_warn("run falseshare: the counters did not sum to threads x rounds");
		return MT_EXIT_RUNTIME;
	}
	return MT_EXIT_OK;
}

const struct experiment exp_falseshare = {
	"falseshare",
	"false sharing: threads x packed/padded counters, spacing sweep (seed 003)",
	falseshare_batch,
};
