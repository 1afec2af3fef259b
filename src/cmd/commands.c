/* commands: the table of memtop's commands (cmd.h), apart from main.c so
 * that tests/test_batch can walk it; it names the terminal UI's commands,
 * so it links with tui/ (libmemtui.a), never into libmemtop.a. */
#include "config.h"

#include "cmd.h"
#include "base/i18n.h"
#include "base/util.h"
#include "tui/tui.h"

static const struct command commands[] = {
	{ "run", N_("run one experiment in batch mode (memtop run --help)"), cmd_run, NULL },
	{ "cliffs", N_("find cache boundaries in a saved mountain"), cmd_cliffs,
	  cmd_cliffs_options },
	{ "compare", N_("saved results side by side (--seed: the seed's figures)"), cmd_compare,
	  cmd_compare_options },
	{ "sim", N_("cache simulator, output compatible with cachelab's csim-ref"), cmd_sim,
	  cmd_sim_options },
	{ "info", N_("cache parameters from every source side by side"), cmd_info,
	  cmd_info_options },
	{ "topo", N_("packages, NUMA nodes, L3 groups, cores and core kinds (hwloc)"), cmd_topo,
	  cmd_topo_options },
	{ "import", N_("lmbench, tinymembench, ramlat or CS:APP output into memtop JSON"),
	  cmd_import, cmd_import_options },
	{ "levels", N_("cache levels, TLB steps and memory read off a saved latency run"),
	  cmd_levels, cmd_levels_options },
	{ "view", N_("the terminal UI over saved runs (no file: the seed's references)"), cmd_view,
	  tui_view_options },
	{ "plot", N_("a saved result as an SVG picture (mountain, latency, labs)"), cmd_plot,
	  cmd_plot_options },
	{ "report", N_("a lab's or a class's results as one HTML page (--html OUT)"), cmd_report,
	  cmd_report_options },
};

const struct command *cmd_commands(size_t *n)
{
	*n = MT_ARRAY_LEN(commands);
	return commands;
}
