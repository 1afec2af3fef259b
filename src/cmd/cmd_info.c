/* memtop info [--json] [--from FILE.json]: cache parameters from every source
 * side by side, with the places they disagree (info.h). */
#include "config.h"

#include "cmd.h"
#include "info/info.h"
#include "core/jsonio.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "Usage: memtop info [--json [FILE]] [--from FILE.json]\n"
		   "Cache parameters from every source this system offers, side by side:\n"
		   "sysfs (/sys/devices/system/cpu/cpuN/cache), lscpu -C, sysconf (getconf),\n"
		   "CPUID (x86), sysctl (macOS) and hwloc (which also says which CPUs share\n"
		   "each cache). A source the system lacks is left out;\n"
		   "where sources disagree, each difference is listed.\n\n"
		   "  --json           print JSON: {\"sources\":{...},\"notes\":{...},\n"
		   "                   \"disagreements\":[...]}\n"
		   "  --json FILE      write that JSON to FILE (atomically), the table on\n"
		   "                   stdout; FILE - is stdout, the table then on stderr\n"
		   "  --from FILE      show the cache information recorded in FILE (the output\n"
		   "                   of --json, or a result with a \"caches\" field)\n"
		   "  -h, --help       this help\n\n"
		   "Exit status: 0 ok, 1 runtime failure, 2 bad usage or bad input.\n");
}

static int load_from(const char *path, struct info *inf)
{
	mt_error e;
	cJSON *root = jsonio_load(path, &e);
	const cJSON *o;
	int rc;
	if (!root) {
		mt_warn("info: %s", e.msg);
		return MT_EXIT_USAGE;
	}
	o = cJSON_GetObjectItemCaseSensitive(root, "caches");
	if (!o || cJSON_IsNull(o))
		o = root;
	rc = info_from_json(o, inf, path, &e);
	cJSON_Delete(root);
	if (rc < 0) {
		mt_warn("info: %s", e.msg);
		return MT_EXIT_USAGE;
	}
	return MT_EXIT_OK;
}

/* --json FILE: the table on stdout and the JSON atomically into FILE; with
 * FILE "-" the JSON on stdout and the table on stderr. Returns an exit code. */
static int write_json(const struct info *inf, const char *path)
{
	cJSON *o = info_to_json(inf);
	mt_error e;
	int rc;
	info_print(jsonio_is_stdout(path) ? stderr : stdout, inf);
	if (!o) {
		mt_warn("info: out of memory");
		return MT_EXIT_RUNTIME;
	}
	rc = jsonio_write(path, o, &e);
	cJSON_Delete(o);
	if (rc < 0) {
		mt_warn("info: %s", e.msg);
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
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return MT_EXIT_OK;
		} else if (strcmp(argv[i], "--json") == 0) {
			json = 1;
			/* --json FILE writes it there; --json - is stdout with the
			 * table on stderr (ssh host memtop info --json - > host.json) */
			if (i + 1 < argc && (strcmp(argv[i + 1], "-") == 0 || argv[i + 1][0] != '-'))
				json_path = argv[++i];
		} else if (strncmp(argv[i], "--json=", 7) == 0) {
			json = 1;
			json_path = argv[i] + 7;
		} else if (strcmp(argv[i], "--from") == 0) {
			if (i + 1 >= argc) {
				mt_warn("info: --from needs a file (see memtop info --help)");
				return MT_EXIT_USAGE;
			}
			from = argv[++i];
		} else if (strncmp(argv[i], "--from=", 7) == 0) {
			from = argv[i] + 7;
		} else {
			mt_warn("info: unknown option '%s' (see memtop info --help)", argv[i]);
			return MT_EXIT_USAGE;
		}
	}
	inf = malloc(sizeof *inf);
	if (!inf) {
		mt_warn("info: out of memory");
		return MT_EXIT_RUNTIME;
	}
	if (from) {
		rc = load_from(from, inf);
		if (rc != MT_EXIT_OK)
			goto out;
	} else if (info_collect(inf, &e) < 0) {
		mt_warn("info: %s", e.msg);
		rc = MT_EXIT_RUNTIME;
		goto out;
	}
	rc = MT_EXIT_OK;
	if (json && json_path) {
		rc = write_json(inf, json_path);
	} else if (json) {
		cJSON *o = info_to_json(inf);
		char *text = o ? cJSON_Print(o) : NULL;
		cJSON_Delete(o);
		if (!text) {
			mt_warn("info: out of memory");
			rc = MT_EXIT_RUNTIME;
			goto out;
		}
		printf("%s\n", text);
		free(text);
	} else {
		info_print(stdout, inf);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		mt_warn("info: cannot write the output");
		rc = MT_EXIT_RUNTIME;
	}
out:
	free(inf);
	return rc;
}
