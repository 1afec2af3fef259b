/* memtop import FILE [FILE2] --json OUT: other benchmarks' output into
 * memtop JSON (src/import/import.h), for memtop levels, cliffs, compare and
 * view. Bad input exits 2 with one line naming the file and line; nothing
 * is written then. */
#include "config.h"

#include "cmd.h"
#include "base/i18n.h"
#include "import/import.h"
#include "mountain/mountain_json.h"

#include <stdio.h>
#include <string.h>

struct import_cli {
	struct import_opts o;
	const char *file, *file2, *json;
};

const struct batch_option cmd_import_options[] = {
	{ "json", 'j', "OUT", N_("write the result to OUT (atomically); '-' is stdout") },
	{ "format", 'f', "F",
	  N_("auto (default), lmbench, tinymembench, ramlat, csapp,\n"
	     "table, c2c") },
	{ "units", 'u', "U",
	  N_("a table's throughput unit when the file does not say:\n"
	     "MB/s, GB/s, MiB/s or GiB/s") },
	{ "chase", 'c', "fixed|random",
	  N_("lmbench: lat_mem_rd -t printed a random chase\n"
	     "(its output looks the same; default fixed)") },
	{ "name", 'n', "TEXT", N_("the result's \"hardware\" (default: where it came from)") },
	BATCH_HELP_HELP,
	BATCH_END,
};

static const struct batch_help help = {
	.head = N_("Usage: memtop import FILE [FILE2] --json OUT [OPTIONS]\n"
		   "Read what another benchmark printed and write it as memtop JSON:\n"
		   "  lmbench       lat_mem_rd's '\"stride=N' blocks: one curve per stride\n"
		   "  tinymembench  its latency table: the single random read, in ns over L1\n"
		   "  ramlat        sbc-bench's ramlat table: the 1xPTR column\n"
		   "  csapp         CS:APP's \"Memory mountain (MB/sec)\" table: a mountain\n"
		   "  table         a plain mountain table: 's1 s2 ...' (or 'size,s1,s2,...')\n"
		   "                over rows '128m T T ...', text or CSV: a mountain\n"
		   "  c2c           core-to-core-latency's --csv matrix (one-way ns of each pair\n"
		   "                of its CPUs): a core-to-core result\n"
		   "The format is told from the content. FILE2: the same run on the other\n"
		   "pages (tinymembench's table without and with huge pages in two files).\n\n"),
	.opts = cmd_import_options,
	.col = 22,
	.tail = BATCH_HELP_EXIT,
};

/* One option; returns -1 to go on, else the exit code. */
static int option(int ch, const char *arg, struct import_cli *c)
{
	switch (ch) {
	case 'j': c->json = arg; return -1;
	case 'n': c->o.name = arg; return -1;
	case 'u': {
		double scale;
		if (import_units_scale(arg, &scale) == 0) {
			c->o.units = arg;
			return -1;
		}
		mt_warn(_("import: --units: expected MB/s, GB/s, MiB/s or GiB/s, got '%s'"), arg);
		return MT_EXIT_USAGE;
	}
	case 'f':
		if (import_format_parse(arg, &c->o.format) == 0)
			return -1;
		mt_warn(_("import: --format: expected auto, lmbench, tinymembench, ramlat, csapp, "
			  "table or c2c, got '%s'"),
			arg);
		return MT_EXIT_USAGE;
	case 'c':
		if (strcmp(arg, "fixed") == 0 || strcmp(arg, "random") == 0) {
			c->o.lmbench_random = strcmp(arg, "random") == 0;
			return -1;
		}
		mt_warn(_("import: --chase: expected fixed or random, got '%s'"), arg);
		return MT_EXIT_USAGE;
	default: return MT_EXIT_USAGE;
	}
}

/* The command line; returns -1 to go on, else the exit code. */
static int parse(int argc, char **argv, struct import_cli *c)
{
	struct batch_cmd b;
	int ch, rc;
	batch_cmd_init(&b, "import", &help);
	while ((ch = batch_cmd_next(&b, argc, argv)) > 0)
		if ((rc = option(ch, optarg, c)) >= 0)
			return rc;
	if (ch < 0)
		return b.rc;
	if (optind >= argc || argc - optind > 2) {
		mt_warn("%s", _("import: expected one file, or two of one run (see memtop import "
				"--help)"));
		return MT_EXIT_USAGE;
	}
	if (!c->json) {
		mt_warn("%s", _("import: --json OUT is needed (where to write the result; '-' is "
				"stdout)"));
		return MT_EXIT_USAGE;
	}
	if (cmd_json_refuse(c->json, "import") < 0)
		return MT_EXIT_USAGE;
	c->file = argv[optind];
	c->file2 = optind + 1 < argc ? argv[optind + 1] : NULL;
	return -1;
}

/* "tinymembench: 17 sizes 1K..64M, random chase (ns over L1) on 4 KB and huge pages" */
static void summary(FILE *f, const struct import_cli *c, const struct import_result *res)
{
	char a[32], b[32], cpus[64];
	if (res->cores) {
		const struct cores_result *r = res->cores;
		/* TRANSLATORS: the file, the format's name, "8 CPUs", the pairs, the median */
		mt_snprintf(cpus, sizeof cpus, MT_NGETTEXT("%d CPUs", "%d CPUs", r->plan.n),
			    r->plan.n);
		mt_hfprintf(f,
			    MT_NGETTEXT("%s: %s, %s, %zu pairs (one-way ns); median %.1f ns\n",
					"%s: %s, %s, %zu pairs (one-way ns); median %.1f ns\n",
					cores_result_measured(r)),
			    c->file, import_format_name(res->format), cpus,
			    cores_result_measured(r), r->nsum ? r->sum[0].ns : 0.0);
		return;
	}
	if (res->mtn) {
		const struct mountain *m = res->mtn;
		/* TRANSLATORS: the file, the format's name, the sizes (16K..64M as the
		 * option grammar writes them), the strides */
		fprintf(f,
			MT_NGETTEXT("%s: %s mountain, %zu sizes %s..%s x %zu strides\n",
				    "%s: %s mountain, %zu sizes %s..%s x %zu strides\n",
				    m->nstrides),
			c->file, import_format_name(res->format), m->nsizes,
			mt_fmt_size(a, sizeof a, m->sizes[0]),
			mt_fmt_size(b, sizeof b, m->sizes[m->nsizes - 1]), m->nstrides);
		return;
	}
	fprintf(f, MT_NGETTEXT("%s: %s, %zu sizes %s..%s", "%s: %s, %zu sizes %s..%s",
			       res->lat->nsizes),
		c->file, import_format_name(res->format), res->lat->nsizes,
		mt_fmt_size(a, sizeof a, res->lat->sizes[0]),
		mt_fmt_size(b, sizeof b, res->lat->sizes[res->lat->nsizes - 1]));
	if (res->lat->nstrides)
		fprintf(f,
			MT_NGETTEXT(", %zu fixed stride", ", %zu fixed strides",
				    res->lat->nstrides),
			res->lat->nstrides);
	if (res->lat->has_random)
		/* TRANSLATORS: a clause after the sizes; then " (ns over L1)" or nothing,
		 * then the pages it was measured on or nothing */
		fprintf(f, _(", random chase%s%s"), res->lat->ns_over_l1 ? _(" (ns over L1)") : "",
			res->lat->has_other ? _(" on 4 KB and huge pages")
			: res->lat->hugepages == LATENCY_HUGE_OFF
				? _(" on 4 KB pages (as the file says)")
			: res->lat->hugepages == LATENCY_HUGE_ON
				? _(" on huge pages (as the file says)")
				: "");
	fprintf(f, "\n");
}

int cmd_import(int argc, char **argv)
{
	struct import_cli c;
	struct import_result res;
	mt_error e = { "" };
	cJSON *root;
	int rc;
	memset(&c, 0, sizeof c);
	if ((rc = parse(argc, argv, &c)) >= 0)
		return rc;
	if (import_file(c.file, &c.o, &res, &e) < 0 ||
	    (c.file2 && import_add_pages(&res, c.file2, &c.o, &e) < 0)) {
		mt_warn("%s", e.msg);
		import_result_free(&res);
		return MT_EXIT_USAGE;
	}
	root = res.lat	   ? latency_to_json(res.lat)
	       : res.mtn ? mountain_to_json(res.mtn)
			 : cores_result_to_json(res.cores);
	rc = MT_EXIT_OK;
	if (!root || cmd_write_json(c.json, root, &e) < 0) {
		mt_warn(_("import: %s"), root ? e.msg : _("out of memory"));
		rc = MT_EXIT_RUNTIME;
	} else {
		FILE *f = cmd_json_is_stdout(c.json) ? stderr : stdout;
		summary(f, &c, &res);
		if (!cmd_json_is_stdout(c.json))
			fprintf(f, _("wrote %s\n"), c.json);

	}
	cJSON_Delete(root);
	import_result_free(&res);
	return rc;
}
