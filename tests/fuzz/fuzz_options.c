/* Fuzz harness: the command line of `memtop run NAME` (batch_next and the
 * option value parsers the experiments use, the CPU-list grammar among
 * them). The input is argv after NAME,
 * its arguments separated by NUL bytes. */
#include "config.h"

#include "base/cpuspec.h"
#include "fuzz.h"
#include "run/batch.h"

#define MAX_ARGS 64

/* A table like an experiment's: its own options, then the common ones. */
static const struct batch_option options[] = {
	{ "sizes", 'S', "A:B", "sizes" },
	{ "tries", 't', "N", "tries" },
	{ "rounds", 'r', "N", "rounds" },
	{ "cache", 'c', "s,E,b", "cache" },
	{ "lengths", 'l', "LIST", "lengths" },
	{ "ratio", 'R', "X", "ratio" },
	{ "no-real", 'n', NULL, "no real" },
	{ "cpus", 'C', "LIST", "cpus" },
	BATCH_HELP_CPU,
	BATCH_HELP_COMMON("quick", "csv"),
	BATCH_END,
};

static const struct batch_help help = {
	.head = "Usage: memtop run fuzz [OPTIONS]\n\n",
	.opts = options,
	.col = 20,
};

/* What an experiment does with its own options' values. */
static void own_option(struct batch_cli *c, int ch)
{
	uint64_t lo = 0, hi = 0, list[16], u;
	int v, s, E, b;
	double d;
	switch (ch) {
	case 'S': mt_parse_size_range(optarg, &lo, &hi); break;
	case 't': batch_opt_int(c->exp, "--tries", optarg, 1, 100, &v); break;
	case 'r': batch_opt_u64(c->exp, "--rounds", optarg, 1, UINT64_MAX, &u); break;
	case 'c': batch_opt_cache(c->exp, "--cache", optarg, "5,1,5", 20, 64, 12, &s, &E, &b); break;
	case 'l': mt_parse_u64_list(optarg, 1, UINT64_MAX, list, 16); break;
	case 'R': mt_parse_double(optarg, &d); mt_parse_size(optarg, &u); break;
	case 'C': mt_cpuspec_check(optarg, &v, NULL); break;
	default: break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *argv[MAX_ARGS + 2];
	int argc = 1, ch;
	struct batch_cli c;
	if (!text)
		return 0;
	argv[0] = (char *)"fuzz";
	for (size_t i = 0, from = 0; i <= size && argc < MAX_ARGS + 1; i++)
		if (i == size || text[i] == '\0') {
			argv[argc++] = text + from;
			from = i + 1;
		}
	argv[argc] = NULL;
	batch_cli_init(&c, "fuzz", &help, NULL);
	while ((ch = batch_next(&c, argc, argv)) > 0)
		own_option(&c, ch);
	free(text);
	return 0;
}
