/* memtop info [--json] [--from FILE.json]: cache parameters from every source
 * side by side, with the places they disagree (info.h). */
#include "config.h"

#include "cmd.h"
#include "base/i18n.h"
#include "base/jsonio.h"
#include "base/util.h"
#include "info/info.h"
#include "os/cgroup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct batch_option cmd_info_options[] = {
	{ "json", 'j', "[FILE]",
	  N_("print JSON: {\"sources\":{...},\"notes\":{...},\n"
	     "\"disagreements\":[...]}; with FILE, write that JSON to\n"
	     "FILE (atomically), the table on stdout; FILE - is\n"
	     "stdout, the table then on stderr") },
	{ "from", 'f', "FILE",
	  N_("show the cache information recorded in FILE (the output\n"
	     "of --json, or a result with a \"caches\" field)") },
	BATCH_HELP_HELP,
	BATCH_END,
};

static const struct batch_help help = {
	.head = N_("Usage: memtop info [--json [FILE]] [--from FILE.json]\n"
		   "Cache parameters from every source this system offers, side by side:\n"
		   "sysfs (/sys/devices/system/cpu/cpuN/cache), lscpu -C, sysconf (getconf),\n"
		   "CPUID (x86), sysctl (macOS) and hwloc (which also says which CPUs share\n"
		   "each cache). A source the system lacks is left out;\n"
		   "where sources disagree, each difference is listed.\n\n"),
	.opts = cmd_info_options,
	.col = 19,
	.tail = BATCH_HELP_EXIT,
};

/* The command line: --json [FILE] (*json set; FILE, "-" or a word not
 * starting with '-' after it, into *path) and --from. Returns -1 to go
 * on, else the exit code. */
static int parse(int argc, char **argv, int *json, const char **path, const char **from)
{
	struct batch_cmd c;
	int ch;
	batch_cmd_init(&c, "info", &help);
	while ((ch = batch_cmd_next(&c, argc, argv)) > 0) {
		if (ch == 'f') {
			*from = optarg;
			continue;
		}
		*json = 1;
		*path = optarg;
		/* --json FILE writes it there; --json - is stdout with the table
		 * on stderr (ssh host memtop info --json - > host.json) */
		if (!optarg && optind < argc &&
		    (strcmp(argv[optind], "-") == 0 || argv[optind][0] != '-'))
			*path = argv[optind++];
	}
	if (ch < 0)
		return c.rc;
	if (optind < argc) {
		mt_warn(_("info: unexpected argument '%s' (see memtop info --help)"), argv[optind]);
		return MT_EXIT_USAGE;
	}
	return -1;
}

static int load_from(const char *path, struct info *inf)
{
	mt_error e;
	cJSON *root = jsonio_load(path, &e);
	const cJSON *o;
	int rc;
	if (!root) {
		mt_warn(_("info: %s"), e.msg);
		return MT_EXIT_USAGE;
	}
	o = cJSON_GetObjectItemCaseSensitive(root, "caches");
	if (!o || cJSON_IsNull(o))
		o = root;
	rc = info_from_json(o, inf, path, &e);
	cJSON_Delete(root);
	if (rc < 0) {
		mt_warn(_("info: %s"), e.msg);
		return MT_EXIT_USAGE;
	}
	return MT_EXIT_OK;
}

/* This process's job limits (os/cgroup.h): one line, and a line for each
 * cgroup file that did not parse. */
static void print_job(FILE *f)
{
	const struct mt_limits *l = mt_limits_this();
	char sum[400], text[400];
	mt_limits_summary(l, sum, sizeof sum); /* English: compared */
	mt_limits_summary_text(l, text, sizeof text);
	if (l->known && strcmp(sum, "no limits"))
		fprintf(f, _("\njob: %s (memtop topo: the file of each)\n"), text);
	else
		fprintf(f, _("\njob: %s\n"), text);
	for (int i = 0; i < l->nnotes; i++)
		fprintf(f, "  %s\n", l->notes[i]);
}

/* --json FILE: the table on stdout and the JSON atomically into FILE; with
 * FILE "-" the JSON on stdout and the table on stderr. Returns an exit code. */
static int write_json(const struct info *inf, const char *path, int live)
{
	cJSON *o = info_to_json(inf);
	mt_error e;
	int rc;
	info_print(jsonio_is_stdout(path) ? stderr : stdout, inf);
	if (live)
		print_job(jsonio_is_stdout(path) ? stderr : stdout);
	if (!o) {
		mt_warn("%s", _("info: out of memory"));
		return MT_EXIT_RUNTIME;
	}
	rc = jsonio_write(path, o, &e);
	cJSON_Delete(o);
	if (rc < 0) {
		mt_warn(_("info: %s"), e.msg);
		return MT_EXIT_RUNTIME;
	}
	return MT_EXIT_OK;
}

int cmd_info(int argc, char **argv)
{
	int json = 0, rc;
	const char *from = NULL, *json_path = NULL;
	struct info *inf;
	mt_error e;
	rc = parse(argc, argv, &json, &json_path, &from);
	if (rc >= 0)
		return rc;
	inf = malloc(sizeof *inf);
	if (!inf) {
		mt_warn("%s", _("info: out of memory"));
		return MT_EXIT_RUNTIME;
	}
	if (from) {
		rc = load_from(from, inf);
		if (rc != MT_EXIT_OK)
			goto out;
	} else if (info_collect(inf, &e) < 0) {
		mt_warn(_("info: %s"), e.msg);
		rc = MT_EXIT_RUNTIME;
		goto out;
	}
	rc = MT_EXIT_OK;
	if (json && json_path) {
		rc = write_json(inf, json_path, !from);
	} else if (json) {
		cJSON *o = info_to_json(inf);
		char *text = o ? cJSON_Print(o) : NULL;
		cJSON_Delete(o);
		if (!text) {
			mt_warn("%s", _("info: out of memory"));
			rc = MT_EXIT_RUNTIME;
			goto out;
		}
		printf("%s\n", text);
		free(text);
	} else {
		info_print(stdout, inf);
		if (!from)
			print_job(stdout);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		mt_warn("%s", _("info: cannot write the output"));

		rc = MT_EXIT_RUNTIME;
	}
out:
	free(inf);
	return rc;
}
