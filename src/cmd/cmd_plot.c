/* memtop plot FILE.json [FILE2.json] --svg OUT | --png OUT: pictures for
 * slides and reports (src/plot/plot.h). */
#include "config.h"

#include "cmd.h"
#include "base/i18n.h"
#include "base/i18n.h"
#include "base/util.h"
#include "latency/latency.h"
#include "mountain/mountain.h"
#include "plot/plot.h"
#include "plot/plot_beside.h"
#include "result/result.h"

#include <stdio.h>
#include <string.h>

const struct batch_option cmd_plot_options[] = {
	{ "svg", 's', "OUT", N_("write the SVG to OUT (atomically; '-' is stdout)") },
	{ "png", 'p', "OUT",
	  N_("also render it to a PNG with rsvg-convert (apt-get install\n"
	     "librsvg2-bin)") },
	{ "latency", 'l', "FILE",
	  N_("a mountain's rows follow this latency run's levels where\n"
	     "the two disagree, said under it; without it, the newest\n"
	     "latency run beside the file of the same host and CPU") },
	BATCH_HELP_HELP,
	BATCH_END,
};

static const struct batch_help help = {
	.head = N_("Usage: memtop plot FILE.json [FILE2.json] [--svg OUT] [--png OUT]\n"
		   "                   [--latency FILE]\n"
		   "Pictures for slides and reports, drawn by memtop as SVG:\n"
		   "  a mountain      the book's surface: size and stride on the floor, read\n"
		   "                  throughput up, coloured by the cache level of each size\n"
		   "  a latency run   the curves on log axes with the levels found marked\n"
		   "  a lab result    matmul, false sharing or lists as bar charts\n"
		   "  a bandwidth result  GB/s per level and kernel (log) against the\n"
		   "                  core's ceilings at the clock the run measured\n"
		   "Two files of one kind: mountains, lab and bandwidth results side by side\n"
		   "on one scale, latency runs overlaid. Every picture names each file's\n"
		   "machine.\n\n"),
	.opts = cmd_plot_options,
	.col = 18,
	.tail = BATCH_HELP_EXIT,
};

/* The command line: the files and where the pictures go. Returns 0, 1
 * (--help printed) or -1 (said). */
static int parse(int argc, char **argv, const char **svg, const char **png, const char **lat,
		 int *first)
{
	struct batch_cmd c;
	int ch;
	batch_cmd_init(&c, "plot", &help);
	while ((ch = batch_cmd_next(&c, argc, argv)) > 0) {
		if (ch == 's')
			*svg = optarg;
		else if (ch == 'p')
			*png = optarg;
		else
			*lat = optarg;
	}
	if (ch < 0)
		return c.rc == MT_EXIT_OK ? 1 : -1;
	if (argc - optind < 1 || argc - optind > PLOT_MAX_FILES) {
		mt_warn("%s", _("plot: expected one or two result files (see memtop plot --help)"));
		return -1;
	}
	if (!*svg && !*png) {
		mt_warn("%s", _("plot: say where the picture goes: --svg OUT (- for stdout) or "
				"--png OUT"));
		return -1;
	}
	if (*png && strcmp(*png, "-") == 0) {
		mt_warn("%s", _("plot: --png: expected a file, got '-' (a PNG is not for a "
				"terminal)"));
		return -1;
	}
	if ((*svg && cmd_out_refuse(*svg, "--svg", "plot") < 0) ||
	    (*png && cmd_out_refuse(*png, "--png", "plot") < 0))
		return -1;
	*first = optind;
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	struct result_file in[PLOT_MAX_FILES];
	const char *svg_out = NULL, *png_out = NULL, *lat = NULL, *text;
	struct latency_result *lr = NULL;
	struct svg s;
	mt_error e = { "" };
	int first, n, rc = parse(argc, argv, &svg_out, &png_out, &lat, &first);
	if (rc)
		return rc > 0 ? MT_EXIT_OK : MT_EXIT_USAGE;
	memset(in, 0, sizeof in);
	n = argc - first;
	rc = MT_EXIT_USAGE;
	for (int i = 0; i < n; i++)
		if (result_file_load(argv[first + i], &in[i], &e) < 0)
			goto fail;
	if (lat && in[0].kind != &kind_mountain) {
		mt_fail(&e, _("--latency %s: the levels of a mountain only; %s is a %s"), lat,

			in[0].path, in[0].kind->what);
		goto fail;
	}
	if (lat && !(lr = result_load_as(lat, &kind_latency, &e)))
		goto fail;
	if (plot_draw_beside(in, (size_t)n, lr, lat, &s, &e) < 0) {
		rc = (n == 2 && in[0].kind != in[1].kind) || !in[0].kind->plot ? MT_EXIT_USAGE
									  : MT_EXIT_RUNTIME;
		svg_free(&s);
		goto fail;
	}
	rc = MT_EXIT_RUNTIME;
	text = svg_finish(&s, &e);
	if (!text || (svg_out && plot_write_svg(svg_out, text, &e) < 0) ||
	    (png_out && plot_write_png(png_out, text, &e) < 0)) {
		svg_free(&s);
		goto fail;
	}
	svg_free(&s);
	latency_result_free(lr);
	for (int i = 0; i < n; i++)
		result_file_free(&in[i]);
	return MT_EXIT_OK;
fail:
	mt_warn(_("plot: %s"), e.msg);
	latency_result_free(lr);
	for (int i = 0; i < n; i++)
		result_file_free(&in[i]);
	return rc;
}
