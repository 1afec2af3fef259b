/* memtop levels FILE.json [--json OUT]: the latency level finder on a saved
 * latency run (memtop run latency --json) or an imported table (memtop
 * import): the same levels, in the same words, as run latency prints. */
#include "config.h"

#include "cmd.h"
#include "info/info.h"
#include "latency/latency.h"
#include "result/result.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: memtop levels FILE.json [--json OUT]\n"
		"Read the cache levels, TLB steps and memory latency off a saved latency run\n"
		"(memtop run latency --json) or an imported one (memtop import), as run\n"
		"latency does: the random chase is the main evidence, read by a penalised\n"
		"piecewise-constant fit of ln(latency); see memtop(1).\n\n"
		"  --json OUT   also write the levels as JSON to OUT (atomically); OUT '-'\n"
		"               is stdout, and the text then goes to stderr\n"
		"  -h, --help   this help\n\n"
		"Exit status: 0 ok, 1 runtime failure, 2 bad usage or bad input.\n");
}

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
	static const struct option opts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;
	mt_getopt_reset();
	while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (ch) {
		case 'j': *json = optarg; break;
		case 'h': usage(stdout); return MT_EXIT_OK;
		case ':':
			mt_warn("levels: %s needs a value (see memtop levels --help)", argv[optind - 1]);
			return MT_EXIT_USAGE;
		default:
			mt_warn("levels: unknown option '%s' (see memtop levels --help)",
				argv[optind - 1]);
			return MT_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		mt_warn("levels: expected one latency file (see memtop levels --help)");
		return MT_EXIT_USAGE;
	}
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
			mt_warn("levels: %s", root ? e.msg : "out of memory");
			rc = MT_EXIT_RUNTIME;
		}
		cJSON_Delete(root);
	}
	latency_result_free(r);
	return rc;
}
