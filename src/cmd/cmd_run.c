/* memtop run EXPERIMENT [options]: dispatch to the experiment's batch mode. */
#include "config.h"

#include "cmd.h"
#include "base/i18n.h"
#include "base/util.h"
#include "result/result.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	size_t n;
	const struct experiment *const *ex = experiment_all(&n);
	fputs(_("Usage: memtop run EXPERIMENT [OPTIONS]\n"
		"Measure one experiment; the table prints row by row as it is measured.\n\n"),
	      f);
	/* the list's head as it is in every language: scripts read the names
	 * under it (tests/lib.sh's experiments) */
	fputs("Experiments:\n", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %-11s %s\n", ex[i]->name, _(ex[i]->about));
	fputs(_("\n`memtop run EXPERIMENT --help` lists its options.\n"), f);
}

int cmd_run(int argc, char **argv)
{
	const struct experiment *x;
	if (argc < 2) {
		usage(stderr);
		return MT_EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return MT_EXIT_OK;
	}
	x = experiment_find(argv[1]);
	if (!x) {
		mt_warn(_("run: unknown experiment '%s' (see memtop run --help)"), argv[1]);

		return MT_EXIT_USAGE;
	}
	return experiment_run(x, argc - 1, argv + 1);
}
