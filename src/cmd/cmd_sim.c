/* memtop sim -s S -E E -b B -t TRACE [-v]: replay a valgrind-lackey trace on
 * an (s, E, b) LRU cache and print what cachelab's csim-ref prints, byte for
 * byte: "hits:H misses:M evictions:E\n"; with -v first one line per record,
 * "OP ADDR,SIZE" then " miss", " eviction", " hit" for each of its accesses
 * and a trailing " " before the newline ("M 12,1 miss eviction hit \n"). */
#include "config.h"

#include "cmd.h"
#include "sim/sim.h"
#include "sim/trace.h"
#include "core/util.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 4096

static void usage(FILE *f)
{
	fprintf(f, "Usage: memtop sim [-hv] -s S -E E -b B -t TRACE\n"
		   "Replay a valgrind-lackey memory trace on an LRU cache; the output is\n"
		   "cachelab's csim-ref's, byte for byte.\n\n"
		   "  -s S      set index bits (S = 2^s sets), 0..%d\n"
		   "  -E E      lines per set (associativity), 1..%d\n"
		   "  -b B      block offset bits (B = 2^b bytes a block), 0..%d\n"
		   "  -t TRACE  the trace file (\"-\" reads standard input)\n"
		   "  -v        print each record with its hits, misses and evictions\n"
		   "  -h, --help  this help\n\n"
		   "Trace lines: \" L ADDR,SIZE\" load, \" S\" store, \" M\" load then store,\n"
		   "\"I\" ignored. Exit status: 0 ok, 1 read failure, 2 bad usage, a trace that is\n"
		   "missing or malformed.\n",
		SIM_MAX_S, SIM_MAX_E, SIM_MAX_B);
}

/* " miss", " miss eviction" or " hit" for one access's flags. */
static void put_result(unsigned r, FILE *out)
{
	if (r & SIM_HIT) {
		fputs(" hit", out);
		return;
	}
	fputs(" miss", out);
	if (r & SIM_EVICT)
		fputs(" eviction", out);
}

static int parse_geom(const char *opt, const char *arg, int max, int min, int *out)
{
	if (mt_parse_int(arg, min, max, out) < 0) {
		mt_warn("sim: -%s must be an integer in %d..%d, got '%s'", opt, min, max, arg);
		return -1;
	}
	return 0;
}

int cmd_sim(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	int s = -1, E = -1, b = -1, verbose = 0, opt, rc = MT_EXIT_OK;
	const char *path = NULL;
	struct sim_cache *c = NULL;
	struct trace_reader *tr = NULL;
	struct trace_rec *recs = NULL;
	struct sim_stats st;
	mt_error err;
	long n;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":hvs:E:b:t:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			usage(stdout);
			return MT_EXIT_OK;
		case 'v':
			verbose = 1;
			break;
		case 's':
			if (parse_geom("s", optarg, SIM_MAX_S, 0, &s) < 0)
				return MT_EXIT_USAGE;
			break;
		case 'E':
			if (parse_geom("E", optarg, SIM_MAX_E, 1, &E) < 0)
				return MT_EXIT_USAGE;
			break;
		case 'b':
			if (parse_geom("b", optarg, SIM_MAX_B, 0, &b) < 0)
				return MT_EXIT_USAGE;
			break;
		case 't':
			path = optarg;
			break;
		case ':':
			mt_warn("sim: option -%c needs a value (see memtop sim --help)", optopt);
			return MT_EXIT_USAGE;
		default:
			if (optopt)
				mt_warn("sim: unknown option -%c (see memtop sim --help)", optopt);
			else
				mt_warn("sim: unknown option '%s' (see memtop sim --help)",
					argv[optind - 1]);
			return MT_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		mt_warn("sim: unexpected argument '%s' (see memtop sim --help)", argv[optind]);
		return MT_EXIT_USAGE;
	}
	if (s < 0 || E < 0 || b < 0 || !path) {
		mt_warn("sim: -s, -E, -b and -t are required (see memtop sim --help)");
		return MT_EXIT_USAGE;
	}
	c = sim_new(s, E, b, &err);
	if (!c) {
		mt_warn("sim: %s", err.msg);
		return MT_EXIT_USAGE;
	}
	recs = malloc(BATCH * sizeof(*recs));
	if (!recs) {
		mt_warn("sim: out of memory");
		rc = MT_EXIT_RUNTIME;
		goto out;
	}
	tr = trace_open(path, &err);
	if (!tr) { /* a file named on the command line that is not there: bad usage */
		mt_warn("%s", err.msg);
		rc = MT_EXIT_USAGE;
		goto out;
	}
	while ((n = trace_read(tr, recs, BATCH, &err)) > 0) {
		const struct trace_rec *r = recs, *end = recs + n;
		if (!verbose) {
			for (; r < end; r++) {
				if (r->op == 'M') {
					sim_access(c, r->addr, 0);
					sim_access(c, r->addr, 1);
				} else {
					sim_access(c, r->addr, r->op == 'S');
				}
			}
			continue;
		}
		for (; r < end; r++) {
			printf("%c %llx,%u", r->op, (unsigned long long)r->addr, (unsigned)r->size);
			if (r->op == 'M') {
				put_result(sim_access(c, r->addr, 0), stdout);
				put_result(sim_access(c, r->addr, 1), stdout);
			} else {
				put_result(sim_access(c, r->addr, r->op == 'S'), stdout);
			}
			fputs(" \n", stdout);
		}
	}
	if (n < 0) {
		fflush(stdout);
		mt_warn("%s", err.msg);
		rc = n == TRACE_READ_ERROR ? MT_EXIT_RUNTIME : MT_EXIT_USAGE;
		goto out;
	}
	sim_stats(c, &st);
	printf("hits:%llu misses:%llu evictions:%llu\n", (unsigned long long)st.hits,
	       (unsigned long long)st.misses, (unsigned long long)st.evictions);
	if (fflush(stdout) != 0) {
		mt_warn("sim: cannot write the output");
		rc = MT_EXIT_RUNTIME;
	}
out:
	trace_close(tr);
	free(recs);
	sim_free(c);
	return rc;
}
