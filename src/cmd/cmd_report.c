/* memtop report FILES... --html OUT: a lab's or a class's results as one
 * self-contained HTML page (fleet/fleet.h, report_html): the grouped table
 * with what stands out, then each machine's details and pictures. */
#include "config.h"

#include "cmd.h"
#include "base/i18n.h"
#include "fleet/fleet.h"
#include "result/result_set.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct batch_option cmd_report_options[] = {
	{ "html", 'o', "OUT", N_("write the page to OUT (atomically)") },
	{ "ref", 'r', "NAME",
	  N_("add a bundled reference as a row labelled so: m4max (the\n"
	     "seed's Apple M4 Max), a name in the data folder's ref/\n"
	     "without .json (csapp-corei7h-mountain, intel-n100-latency,\n"
	     "...), or all; repeatable") },
	{ "title", 't', "TEXT", N_("the page's title (default: memtop report: N machines)") },
	BATCH_HELP_HELP,
	BATCH_END,
};

static const struct batch_help help = {
	.head = N_("Usage: memtop report FILES... --html OUT [--ref NAME|all]... [--title TEXT]\n"
		   "A lab's or a class's results as one self-contained HTML page (no network, no\n"
		   "external script or font; readable printed and in a dark theme): the\n"
		   "machines grouped as memtop compare --fleet groups them, a row each with its\n"
		   "headline figures (those that stand out from their group in red, with a\n"
		   "reading), then each machine's details and pictures (its mountain, latency\n"
		   "curve, lab bars). FILES are results (memtop run ... --json), one a file or\n"
		   "many a file, one a line (--json - --compact under pdsh, clush, parallel).\n\n"),
	.opts = cmd_report_options,
	.col = 19,
	/* the number written out, so that the catalogue has the whole text */
	.tail = N_("\nUp to 200 results. "
		   "Exit status: 0 ok, 1 runtime failure, 2 bad usage or bad\n"
		   "input (a file or line that is not a result: nothing written).\n"),
};
_Static_assert(FLEET_MAX_RESULTS == 200, "memtop report --help says 200 results");

struct report_args {
	const char *html, *title;
	char *files[FLEET_MAX_RESULTS + CMD_MAX_REFS];
	size_t nfiles, nlab; /* files given, then the references */
	struct cmd_refs refs;
};

/* Parse argv into a. Returns 0, or an exit code + 1 when the command ends
 * here (--help, or a usage error said in one line). */
static int parse(int argc, char **argv, struct report_args *a)
{
	struct batch_cmd c;
	int ch;
	batch_cmd_init(&c, "report", &help);
	while ((ch = batch_cmd_next(&c, argc, argv)) > 0) {
		if (ch == 'o')
			a->html = optarg;
		else if (ch == 't')
			a->title = optarg;
		else if (cmd_refs_add(&a->refs, "report", optarg) < 0)
			return MT_EXIT_USAGE + 1;
	}
	if (ch < 0)
		return c.rc + 1;
	if (!a->html) {
		mt_warn("%s", _("report: say where the page goes: --html OUT"));
		return MT_EXIT_USAGE + 1;
	}
	if (cmd_out_refuse(a->html, "--html", "report") < 0)
		return MT_EXIT_USAGE + 1;
	if (optind >= argc && a->refs.n == 0) {
		mt_warn("%s", _("report: expected result files (see memtop report --help)"));
		return MT_EXIT_USAGE + 1;
	}
	if ((size_t)(argc - optind) > FLEET_MAX_RESULTS) {
		mt_warn(_("report: %d files: memtop report reads at most %d results"),
			argc - optind, FLEET_MAX_RESULTS);
		return MT_EXIT_USAGE + 1;
	}
	for (int i = optind; i < argc; i++)
		a->files[a->nfiles++] = argv[i];
	a->nlab = a->nfiles;
	for (size_t i = 0; i < a->refs.n; i++)
		a->files[a->nfiles++] = a->refs.path[i];
	return 0;
}

/* The page into a new string (*text, *len). Returns 0, or -1 out of memory. */
static int render(const struct fleet *f, const char *title, char **text, size_t *len)
{
	FILE *o = open_memstream(text, len);
	int rc;
	if (!o)
		return -1;
	rc = report_html(o, f, title);
	if (fclose(o) != 0)
		rc = -1;
	return rc;
}

int cmd_report(int argc, char **argv)
{
	static struct report_args a;
	static struct result_set s;
	struct fleet f;
	mt_error e = { "" };
	char title[200], *text = NULL, nm[64], ng[64], nr[64];
	size_t len = 0;
	int rc;
	memset(&a, 0, sizeof a);
	if ((rc = parse(argc, argv, &a)))
		return rc - 1;
	if (result_set_load_skip(&s, a.files, a.nfiles, FLEET_MAX_RESULTS + a.refs.n, &e) < 0) {
		mt_warn("%s", e.msg);
		return MT_EXIT_USAGE;
	}
	if (s.n > FLEET_MAX_RESULTS && s.e[FLEET_MAX_RESULTS].file < a.nlab) {
		mt_warn(_("report: more than %d results in the files given; memtop report reads at "
			  "most %d"),
			FLEET_MAX_RESULTS, FLEET_MAX_RESULTS);
		result_set_free(&s);
		return MT_EXIT_USAGE;
	}
	cmd_refs_mark(&s, a.nlab);
	rc = MT_EXIT_USAGE;
	if (fleet_build(&f, &s, &e) < 0) {
		mt_warn(_("report: %s"), e.msg);
		goto out;
	}
	mt_snprintf(title, sizeof title,
		    MT_NGETTEXT("memtop report: %zu machine", "memtop report: %zu machines", f.n),
		    f.n);
	rc = MT_EXIT_RUNTIME;
	if (render(&f, a.title ? a.title : title, &text, &len) < 0)
		mt_warn("%s", _("report: out of memory while writing the page"));
	else if (mt_write_atomic(a.html, text, len, &e) < 0)
		mt_warn(_("report: %s"), e.msg);
	else
		rc = MT_EXIT_OK;
	if (rc == MT_EXIT_OK) { /* as every writer says what it wrote */
		mt_snprintf(nm, sizeof nm, MT_NGETTEXT("%zu machine", "%zu machines", f.n), f.n);
		mt_snprintf(ng, sizeof ng, MT_NGETTEXT("%zu group", "%zu groups", f.ngroups),
			    f.ngroups);
		mt_snprintf(nr, sizeof nr, MT_NGETTEXT("%zu result", "%zu results", s.n), s.n);
		/* TRANSLATORS: the file, then "3 machines", "2 groups", "5 results" */
		printf(_("wrote %s: %s, %s, %s\n"), MT_PRINTABLE(a.html), nm, ng, nr);
	}

	free(text);
	fleet_free(&f);
out:
	result_set_free(&s);
	return rc;
}
