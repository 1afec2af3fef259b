/* memtop: measure the memory hierarchy of this machine and teach how to read
 * it. This file only dispatches to the subcommands. */
#include "config.h"

#include "cmd.h"
#include "tui/tui.h"
#include "experiment.h"
#include "core/util.h"

#include <stdio.h>
#include <string.h>

struct command {
	const char *name;
	const char *summary;
	int (*fn)(int argc, char **argv);
};

static const struct command commands[] = {
	{ "run", "run one experiment in batch mode (memtop run --help)", cmd_run },
	{ "cliffs", "find cache boundaries in a saved mountain", cmd_cliffs },
	{ "compare", "saved results side by side (--seed: the seed's figures)", cmd_compare },
	{ "sim", "cache simulator, output compatible with cachelab's csim-ref", cmd_sim },
	{ "info", "cache parameters from every source side by side", cmd_info },
	{ "topo", "packages, NUMA nodes, L3 groups, cores and core kinds (hwloc)", cmd_topo },
	{ "import", "lmbench, tinymembench, ramlat or CS:APP output into memtop JSON", cmd_import },
	{ "levels", "cache levels, TLB steps and memory read off a saved latency run", cmd_levels },
	{ "view", "the terminal UI over saved runs (no file: the seed's references)", cmd_view },
	{ "plot", "a saved result as an SVG picture (mountain, latency, labs)", cmd_plot },
	{ "report", "a lab's or a class's results as one HTML page (--html OUT)", cmd_report },
};

static void usage(FILE *f)
{
	size_t n;
	const struct experiment *const *ex = experiment_all(&n);
	fprintf(f, "Usage: memtop [--idle | --start] [--quick] [--no-mouse] [--no-color] [--ascii]\n"
		   "       memtop COMMAND [OPTIONS]\n"
		   "Measure the memory hierarchy of this machine and show how to read it.\n\n"
		   "Commands:\n");
	for (size_t i = 0; i < MT_ARRAY_LEN(commands); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nExperiments for `memtop run`:");
	for (size_t i = 0; i < n; i++)
		fprintf(f, " %s", ex[i]->name);
	fprintf(f, "\n\n  -h, --help     this help; `memtop COMMAND --help` for a command's\n"
		   "  -V, --version  the version\n\n"
		   "Exit status: 0 ok, 1 runtime failure, 2 bad usage or bad input.\n"
		   "See memtop(1).\n");
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return cmd_tui(argc, argv); /* no command: the terminal UI */
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return MT_EXIT_OK;
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("memtop %s\n", PACKAGE_VERSION);
		return MT_EXIT_OK;
	}
	if (argv[1][0] == '-')
		return cmd_tui(argc, argv); /* memtop --idle, --quick ...: the terminal UI */
	for (size_t i = 0; i < MT_ARRAY_LEN(commands); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	mt_warn("unknown command '%s' (see memtop --help)", argv[1]);
	return MT_EXIT_USAGE;
}
