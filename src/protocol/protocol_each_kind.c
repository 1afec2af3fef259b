/* protocol_each_kind: --each-kind, one run of an experiment per core type
 * (protocol.h's protocol_each_kind). */
#include "config.h"

#include "protocol.h"
#include "base/jsonio.h"
#include "machine/machine.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Is argv[i] the option name, alone ("--json" with its value next) or as
 * "--json=VALUE"? Returns 1 (alone), 2 (with =), or 0. */
static int is_opt(const char *arg, const char *name)
{
	size_t len = strlen(name);
	if (strncmp(arg, name, len) != 0)
		return 0;
	return arg[len] == '\0' ? 1 : arg[len] == '=' ? 2 : 0;
}

/* The value of option name in argv (NULL: not given). */
static const char *opt_value(int argc, char **argv, const char *name)
{
	for (int i = 1; i < argc; i++) {
		int k = is_opt(argv[i], name);
		if (k == 1 && i + 1 < argc)
			return argv[i + 1];
		if (k == 2)
			return argv[i] + strlen(name) + 1;
	}
	return NULL;
}

/* argv without --each-kind, --json/--out FILE and --compact, into out
 * (room for argc + 6). Returns the count. */
static int strip(int argc, char **argv, char **out)
{
	int n = 0;
	for (int i = 0; i < argc; i++) {
		int k = i ? (is_opt(argv[i], "--json") | is_opt(argv[i], "--out")) : 0;
		if (i && (strcmp(argv[i], "--each-kind") == 0 || strcmp(argv[i], "--compact") == 0))
			continue;
		if (k == 1) {
			i++;
			continue;
		}
		if (k == 2)
			continue;
		out[n++] = argv[i];
	}
	return n;
}

/* Appends the JSON of the run in path as one line to *all (len *n).
 * Returns 0, or -1 with e. */
static int take_line(const char *path, char **all, size_t *n, mt_error *e)
{
	size_t len;
	char *text = mt_read_file(path, 1 << 28, &len, e), *line, *grown;
	cJSON *j = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (!j)
		return text ? mt_fail(e, _("%s: not JSON"), path) : -1;
	line = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	if (!line)
		return mt_fail(e, _("out of memory"));
	len = strlen(line);
	grown = realloc(*all, *n + len + 2);
	if (!grown) {
		free(line);
		return mt_fail(e, _("out of memory"));
	}
	*all = grown;
	memcpy(*all + *n, line, len);
	(*all)[*n + len] = '\n';
	*n += len + 1;
	(*all)[*n] = '\0';
	free(line);
	return 0;
}

/* The machine argv names (--sysfs-root, --topology: into *owned, for
 * machine_free) or this one, into *m. Returns 0, or -1 with e. */
static int coretypes_machine(int argc, char **argv, const struct machine **m, struct machine **owned,
			 mt_error *e)
{
	const char *root = opt_value(argc, argv, "--sysfs-root"),
		   *xml = opt_value(argc, argv, "--topology");
	*owned = NULL;
	if ((root || xml) && machine_load(root, xml, owned, e) < 0)
		return -1;
	*m = *owned ? *owned : machine_this();
	return 0;
}

/* One run of fn as --cpu-kind name, its JSON to path ("-": stdout, one
 * line; NULL: none). Returns its exit code. */
static int one_coretype(const struct experiment *x, char **base, int n, const char *name,
		    const char *path)
{
	char *argv[64];
	int k = 0;
	for (int i = 0; i < n && k < 56; i++)
		argv[k++] = base[i];
	argv[k++] = (char *)"--cpu-kind";
	argv[k++] = (char *)name;
	if (path) {
		argv[k++] = (char *)"--json";
		argv[k++] = (char *)path;
		argv[k++] = (char *)"--compact";
	}
	argv[k] = NULL;
	fflush(stdout);
	return protocol_run(x, k, argv);
}

int protocol_each_kind(const struct experiment *x, int argc, char **argv)
{
	const char *exp = x->name;
	const char *json = opt_value(argc, argv, "--json");
	const struct machine *m;
	struct machine *owned;
	char *base[64], *all = NULL, tmp[MT_PATH_MAX + 64];
	size_t len = 0;
	int n, rc = MT_EXIT_OK;
	mt_error e = { "" };
	if (!json)
		json = opt_value(argc, argv, "--out");
	if (argc > 56) {
		mt_warn(_("run %s: --each-kind: too many options"), exp);
		return MT_EXIT_USAGE;
	}
	if (opt_value(argc, argv, "--cpu") || opt_value(argc, argv, "--cpu-kind")) {
		mt_warn(_("run %s: --each-kind and --cpu or --cpu-kind: give one of them"), exp);
		return MT_EXIT_USAGE;
	}
	if (coretypes_machine(argc, argv, &m, &owned, &e) < 0) {
		mt_warn(_("run %s: %s"), exp, e.msg);
		return MT_EXIT_USAGE;
	}
	if (json && !jsonio_is_stdout(json)) {
		const char *what;
		char why[MT_PATH_MAX + 64];
		if (jsonio_check_path(json, &what, why, sizeof why) < 0) {
			if (why[0])
				mt_warn(_("run %s: --json: expected %s, got '%s' (%s)"), exp, what,
					json, why);
			else
				mt_warn(_("run %s: --json: expected %s, got '%s'"), exp, what, json);
			rc = MT_EXIT_USAGE;
			goto out;
		}
	}
	n = strip(argc, argv, base);
	if (!m->topo || m->topo->ncoretypes < 2)
		fprintf(json && jsonio_is_stdout(json) ? stderr : stdout,
			_("# --each-kind: this machine has one core kind (%s): one run\n"),
			m->topo ? m->topo->coretypes[0].name : "one");
	for (int k = 0; k < (m->topo ? m->topo->ncoretypes : 1) && rc == MT_EXIT_OK; k++) {
		const char *name = m->topo ? m->topo->coretypes[k].name : "one";
		int some;
		fprintf(json && jsonio_is_stdout(json) ? stderr : stdout,
			_("# --each-kind: core kind %s\n"), name);
		if (!machine_coretype_cpus(m, m->topo ? k : -1, &some, 1)) {
			fprintf(json && jsonio_is_stdout(json) ? stderr : stdout,
				_("# --each-kind: no CPU of kind %s this process may use (taskset, "
				  "cgroup): not measured\n"),
				name);
			continue;
		}
		if (json && !jsonio_is_stdout(json))
			mt_snprintf(tmp, sizeof tmp, "%s.kind-%d" MT_WRITE_TMP_SUFFIX "json", json, k);
		rc = one_coretype(x, base, n, name, !json ? NULL : jsonio_is_stdout(json) ? "-" : tmp);
		if (rc == MT_EXIT_OK && json && !jsonio_is_stdout(json) &&
		    take_line(tmp, &all, &len, &e) < 0) {
			mt_warn(_("run %s: %s"), exp, e.msg);
			rc = MT_EXIT_RUNTIME;
		}
		if (json && !jsonio_is_stdout(json))
			unlink(tmp);
	}
	/* the lines, all or nothing */
	if (rc == MT_EXIT_OK && json && !jsonio_is_stdout(json)) {
		if (mt_write_atomic(json, all, len, &e) < 0) {
			mt_warn(_("run %s: %s"), exp, e.msg);
			rc = MT_EXIT_RUNTIME;
		} else {
			printf(_("# wrote %s: one result a core kind, a line each\n"), MT_PRINTABLE(json));
		}
	}
out:
	free(all);
	machine_free(owned);
	return rc;
}

int protocol_wants_each_kind(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return 0;
		if (strcmp(argv[i], "--each-kind") == 0)
			return 1;
	}
	return 0;
}
