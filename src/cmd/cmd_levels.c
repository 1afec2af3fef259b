/* memtop levels FILE.json [--json OUT]: the latency level finder on a saved
 * latency run (memtop run latency --json) or an imported table (memtop
 * import): the same levels, in the same words, as run latency prints. */
#include "config.h"

#include "cmd.h"
#include "base/i18n.h"
#include "info/info.h"
#include "latency/latency.h"
#include "result/result.h"

#include <stdio.h>
#include <string.h>

const struct batch_option cmd_levels_options[] = {
	CMD_HELP_JSON(N_("also write the levels as JSON to OUT (atomically);\n"
			 "OUT '-' is stdout, and the text then goes to stderr")),
	BATCH_HELP_HELP,
	BATCH_END,
};

static const struct batch_help help = {
	.head = N_("Usage: memtop levels FILE.json [--json OUT]\n"
		   "Read the cache levels, TLB steps and memory latency off a saved latency run\n"
		   "(memtop run latency --json) or an imported one (memtop import), as run\n"
		   "latency does: the random chase is the main evidence, read by a penalised\n"
		   "piecewise-constant fit of ln(latency); see memtop(1).\n\n"),
	.opts = cmd_levels_options,
	.col = 15,
	.tail = BATCH_HELP_EXIT,
};

/* {"source","format","levels","memory",...} of lv. NULL when out of memory. */
static cJSON *levels_json(const char *path, const struct latency_result *r,
			  const struct latency_levels *lv)
{
	cJSON *root = cJSON_CreateObject();
	if (!root)
		return NULL;
	if (!cJSON_AddStringToObject(root, "source", path) ||
	    (r->format[0] && !cJSON_AddStringToObject(root, "format", r->format)) ||
	    (r->ghz > 0 && !cJSON_AddNumberToObject(root, "ghz", r->ghz)) ||
	    latency_levels_to_json(lv, root) < 0) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

/* The options; returns -1 to go on, else the exit code. */
static int parse(int argc, char **argv, const char **file, const char **json)
{
	struct batch_cmd c;
	int ch;
	batch_cmd_init(&c, "levels", &help);
	while ((ch = batch_cmd_next(&c, argc, argv)) > 0)
		*json = optarg; /* --json, the one option */
	if (ch < 0)
		return c.rc;
	if (optind != argc - 1) {
		mt_warn("%s", _("levels: expected one latency file (see memtop levels --help)"));
		return MT_EXIT_USAGE;
	}
	if (*json && cmd_json_refuse(*json, "levels") < 0)
		return MT_EXIT_USAGE;
	*file = argv[optind];
	return -1;
}

int cmd_levels(int argc, char **argv)
{
	const char *file = NULL, *json = NULL;
	struct latency_result *r;
	struct latency_levels lv;
	static struct info inf;
	mt_error e = { "" };
	int rc = parse(argc, argv, &file, &json);
	if (rc >= 0)
		return rc;
	r = result_load_as(file, &kind_latency, &e);
	if (!r) {
		mt_warn("%s", e.msg);
		return MT_EXIT_USAGE;
	}
	latency_detect(r, &lv);
	/* held against the caches recorded with the run, when it has them */
	latency_levels_print(cmd_json_is_stdout(json) ? stderr : stdout, &lv,
			     r->caches && info_from_json(r->caches, &inf, file, NULL) == 0 ? &inf
											  : NULL);
	rc = MT_EXIT_OK;
	if (json) {
		cJSON *root = levels_json(file, r, &lv);
		if (!root || cmd_write_json(json, root, &e) < 0) {
			mt_warn(_("levels: %s"), root ? e.msg : _("out of memory"));

			rc = MT_EXIT_RUNTIME;
		}
		cJSON_Delete(root);
	}
	latency_result_free(r);
	return rc;
}
