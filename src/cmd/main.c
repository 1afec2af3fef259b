/* memtop: measure the memory hierarchy of this machine and teach how to read
 * it. This file only dispatches to the subcommands. */
#include "config.h"

#include "cmd.h"
#include "base/i18n.h"
#include "base/util.h"
#include "result/result.h"
#include "tui/tui.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* memtop's own options besides the terminal UI's (tui_options) */
static const struct batch_option options[] = {
	{ "help", BATCH_OPT_HELP, NULL, N_("this help; `memtop COMMAND --help` for a command's") },
	{ "V", 'V', NULL, NULL },
	{ "version", 'V', NULL, N_("the version") },
	BATCH_END,
};

static void usage(FILE *f)
{
	size_t n, ncmd;
	const struct experiment *const *ex = experiment_all(&n);
	const struct command *cmd = cmd_commands(&ncmd);
	/* TRANSLATORS: options and brackets as they are; memtop under memtop */
	fputs(_("Usage: memtop [--idle | --start] [--quick] [--no-mouse] [--no-color] [--ascii]\n"
		"       memtop COMMAND [OPTIONS]\n"),
	      f);
	fputs(_("Measure the memory hierarchy of this machine and show how to read it.\n"), f);
	fputs(_("\nCommands:\n"), f);
	for (size_t i = 0; i < ncmd; i++)
		fprintf(f, "  %-10s %s\n", cmd[i].name, _(cmd[i].summary));
	fputs(_("\nExperiments for `memtop run`:"), f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, " %s", ex[i]->name);
	batch_usage(f, "\n\n", options, 17);
	fputs(_(BATCH_HELP_EXIT), f);
	fputs(_("See memtop(1).\n"), f);
}

/* Where memtop's message catalogues are: the build tree's po/locale when
 * this is the memtop a `make` just built there (so ./memtop in a checkout
 * speaks the catalogues of that checkout), else the installed localedir. */
static const char *catalogues(const char *argv0)
{
	char self[PATH_MAX], built[PATH_MAX];
	if (argv0 && strchr(argv0, '/') && realpath(argv0, self) &&
	    realpath(MEMTOP_BUILDDIR "/memtop", built) && strcmp(self, built) == 0)
		return MEMTOP_BUILDDIR "/po/locale";
	return MEMTOP_LOCALEDIR;
}

int main(int argc, char **argv)
{
	const struct command *cmd;
	size_t n;
	mt_i18n_init(catalogues(argv[0])); /* the one place: before any thread */
	if (argc < 2)
		return cmd_tui(argc, argv); /* no command: the terminal UI */
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return MT_EXIT_OK;
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		/* machine text: the program's name and version, as scripts read it */
		printf("memtop %s\n", PACKAGE_VERSION);
		return MT_EXIT_OK;
	}
	if (argv[1][0] == '-')
		return cmd_tui(argc, argv); /* memtop --idle, --quick ...: the terminal UI */
	cmd = cmd_commands(&n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(argv[1], cmd[i].name) == 0)
			return cmd[i].fn(argc - 1, argv + 1);
	mt_warn(_("unknown command '%s' (see memtop --help)"), argv[1]);
	return MT_EXIT_USAGE;
}
