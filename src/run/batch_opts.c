/* batch_opts: see batch_opts.h. */
#include "config.h"
#include "base/i18n.h"

#include "batch_opts.h"
#include "job.h"
#include "base/cpuspec.h"
#include "base/jsonio.h"
#include "base/util.h"
#include "os/platform.h"
#include "os/topo.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* A number option's value into its int or uint64_t field. Returns 0 or -1
 * (said: "expected MIN..MAX"). */
static int fill_number(const char *exp, const struct batch_option *o, const char *opt,
		       const char *arg, void *field)
{
	uint64_t v;
	int i;
	if (o->type == BATCH_T_INT) {
		if (batch_opt_int(exp, opt, arg, (int)o->min, (int)o->max, &i) < 0)
			return -1;
		memcpy(field, &i, sizeof i);
		return 0;
	}
	if (batch_opt_u64(exp, opt, arg, o->min, o->max, &v) < 0)
		return -1;
	memcpy(field, &v, sizeof v);
	return 0;
}

/* A size, a list of numbers or a CPU list into its field. Returns 0 or -1
 * (said: "expected WHAT"; a CPU list's fault, "WHY, got 'ARG'"). */
static int fill_parsed(const char *exp, const struct batch_option *o, const char *opt,
		       const char *arg, void *field)
{
	struct batch_list list; /* the parse's, copied on success */
	struct batch_cpus cpus = { arg, 0, 0 };
	mt_error e = { "" };
	uint64_t v;
	int n;
	switch (o->type) {
	case BATCH_T_SIZE:
		if (mt_parse_size(arg, &v) < 0 || v < o->min || v > o->max)
			return batch_bad(exp, opt, arg, _(o->what));
		memcpy(field, &v, sizeof v);
		return 0;
	case BATCH_T_LIST:
		n = mt_parse_u64_list(arg, o->min, o->max, list.v,
				      o->cap && o->cap < BATCH_LIST_MAX ? o->cap : BATCH_LIST_MAX);
		if (n <= 0)
			return batch_bad(exp, opt, arg, _(o->what));
		list.n = (size_t)n;
		memcpy(field, &list, sizeof list);
		return 0;
	default: /* BATCH_T_CPUS */
		if ((cpus.items = mt_cpuspec_check(arg, &cpus.domains, &e)) < 0) {
			mt_warn(_("run %s: %s: %s, got '%s'"), exp, opt, e.msg, arg);
			return -1;
		}
		memcpy(field, &cpus, sizeof cpus);
		return 0;
	}
}

/* A CHOICE's value into its int field: its index in the row's choices.
 * Returns 0 or -1 (said: "expected one of a, b, c"). */
static int fill_choice(const char *exp, const struct batch_option *o, const char *opt,
		       const char *arg, void *field)
{
	char list[200] = "", what[256];
	int i;
	for (i = 0; o->choices[i]; i++) {
		if (strcmp(arg, o->choices[i]) == 0) {
			memcpy(field, &i, sizeof i);
			return 0;
		}
		if (o->choices[i + 1]) /* all but the last */
			mt_append(list, sizeof list, "%s%s", i ? ", " : "", o->choices[i]);
	}
	/* TRANSLATORS: what a CHOICE option takes: its values but the last
	 * ("a, b"), then the last ("c"): "one of a, b, c" */
	if (i > 1)
		mt_snprintf(what, sizeof what, _("one of %s, %s"), list, o->choices[i - 1]);
	else /* TRANSLATORS: what a CHOICE option of one value takes */
		mt_snprintf(what, sizeof what, _("one of %s"), i ? o->choices[0] : "");
	return batch_bad(exp, opt, arg, what);
}

int batch_opt_fill(const char *exp, const struct batch_option *o, const char *arg, void *params)
{
	char opt[64];
	void *field = (char *)params + o->off;
	int one = 1;
	/* as the user spelled it: a one-letter name is a short option only */
	mt_snprintf(opt, sizeof opt, "%s%s", o->name[1] ? "--" : "-", o->name);
	switch (o->type) {
	case BATCH_T_FLAG: memcpy(field, &one, sizeof one); return 0;
	case BATCH_T_STRING: memcpy(field, &arg, sizeof arg); return 0;
	case BATCH_T_INT:
	case BATCH_T_U64: return fill_number(exp, o, opt, arg, field);
	case BATCH_T_SIZE:
	case BATCH_T_LIST:
	case BATCH_T_CPUS: return fill_parsed(exp, o, opt, arg, field);
	case BATCH_T_CHOICE: return fill_choice(exp, o, opt, arg, field);
	case BATCH_T_CALL: return o->call(exp, o->arg ? arg : NULL, params);
	default: return 0;
	}
}

void batch_cli_init(struct batch_cli *c, const char *exp, const struct batch_help *help,
		    void *params)
{
	memset(c, 0, sizeof *c);
	batch_getopt(help->opts, c->getopt, BATCH_MAX_OPTIONS);
	c->exp = exp;
	mt_snprintf(c->who, sizeof c->who, "run %s", exp);
	c->help = help;
	c->params = params;
	c->cpu = -1;
	c->json_fd = -1;
	mt_getopt_reset();
}

const struct option *batch_getopt(const struct batch_option *opts, struct option *out, size_t max)
{
	size_t n = 0;
	for (; opts[n].name && n + 1 < max; n++) {
		out[n].name = opts[n].name;
		out[n].has_arg = !opts[n].arg ? no_argument
				 : opts[n].arg[0] == '[' ? optional_argument : required_argument;
		out[n].flag = NULL;
		out[n].val = opts[n].val;
	}
	memset(&out[n], 0, sizeof out[n]);
	return out;
}

/* The one-letter spelling of a long option o of table t ('h' for --help),
 * or 0. */
static char short_of(const struct batch_option *t, const struct batch_option *o)
{
	if (o->val == BATCH_OPT_HELP)
		return 'h';
	for (; o->name[1] && t->name; t++)
		if (t->val == o->val && !t->name[1])
			return t->name[0];
	return 0;
}

/* A help text in the user's language: its translation where the catalogue
 * has one (gettext("") would be the catalogue's header: "" stays ""). */
static const char *help_text(const char *s)
{
	return s && s[0] ? _(s) : s;
}

void batch_usage(FILE *f, const char *head, const struct batch_option *opts, int col)
{
	const struct batch_option *t = opts;
	fputs(help_text(head), f);
	for (; opts->name; opts++) {
		char lead[64], sh[8] = "";
		const char *h = help_text(opts->help), *nl;
		if (!h)
			continue;
		if (short_of(t, opts))
			mt_snprintf(sh, sizeof sh, "-%c, ", short_of(t, opts));
		mt_snprintf(lead, sizeof lead, "  %s%s%s%s%s", sh, opts->name[1] ? "--" : "-",
			    opts->name, opts->arg ? " " : "", opts->arg ? opts->arg : "");
		if ((int)strlen(lead) >= col - 1)
			fprintf(f, "%s\n%*s", lead, col, "");
		else
			fprintf(f, "%-*s", col, lead);
		while ((nl = strchr(h, '\n'))) {
			fprintf(f, "%.*s\n%*s", (int)(nl - h), h, col, "");
			h = nl + 1;
		}
		fprintf(f, "%s\n", h);
	}
}

void batch_help(FILE *f, const struct batch_help *h)
{
	batch_usage(f, h->head, h->opts, h->col);
	if (h->tail)
		fputs(help_text(h->tail), f);
}

int batch_bad(const char *exp, const char *opt, const char *arg, const char *what)
{
	mt_warn(_("run %s: %s: expected %s, got '%s'"), exp, opt, what, arg);
	return -1;
}

int batch_opt_int(const char *exp, const char *opt, const char *arg, int min, int max, int *out)
{
	char what[64];
	if (mt_parse_int(arg, min, max, out) == 0)
		return 0;
	mt_snprintf(what, sizeof what, "%d..%d", min, max);
	return batch_bad(exp, opt, arg, what);
}

int batch_opt_u64(const char *exp, const char *opt, const char *arg, uint64_t min, uint64_t max,
		  uint64_t *out)
{
	char what[64];
	if (mt_parse_u64(arg, min, max, out) == 0)
		return 0;
	mt_snprintf(what, sizeof what, "%llu..%llu", (unsigned long long)min,
		    (unsigned long long)max);
	return batch_bad(exp, opt, arg, what);
}

int batch_opt_cache(const char *exp, const char *opt, const char *arg, const char *example,
		    int max_s, int max_e, int max_b, int *s, int *E, int *b)
{
	uint64_t v[3];
	char what[64];
	if (mt_parse_u64_list(arg, 0, (uint64_t)max_e, v, 3) == 3 && v[0] <= (uint64_t)max_s &&
	    v[1] >= 1 && v[2] <= (uint64_t)max_b) {
		*s = (int)v[0];
		*E = (int)v[1];
		*b = (int)v[2];
		return 0;
	}
	mt_snprintf(what, sizeof what, _("s,E,b such as %s"), example);
	return batch_bad(exp, opt, arg, what);
}

/* --cpu: one of the CPUs this process may run on. */
static int parse_cpu(struct batch_cli *c, const char *arg)
{
	int cpus[1024], n = mt_allowed_cpus(cpus, (int)MT_ARRAY_LEN(cpus));
	char what[96];
	if (n <= 0) {
		mt_strlcpy(what, _("a CPU number"), sizeof what);
	} else {
		int contiguous = cpus[n - 1] - cpus[0] == n - 1;
		if (contiguous)
			mt_snprintf(what, sizeof what, _("a CPU this process may use, %d..%d"),
				    cpus[0],
				    cpus[n - 1]);
		else
			mt_strlcpy(what, _("a CPU this process may use (see taskset -p)"),
				   sizeof what);
	}
	if (mt_parse_int(arg, 0, 65535, &c->cpu) == 0) {
		if (n <= 0)
			return 0;
		for (int i = 0; i < n; i++)
			if (cpus[i] == c->cpu)
				return 0;
	}
	return batch_bad(c->exp, "--cpu", arg, what);
}

/* --cpu-kind NAME: the worker's CPU is one of that kind this process may
 * use, and later jobs pick from it too. */
static int parse_coretype(struct batch_cli *c, const char *arg)
{
	const struct topo *t = topo_this_machine();
	char names[160], what[256];
	int k = topo_coretype_find(t, arg);
	if (!t) {
		mt_warn(_("run %s: --cpu-kind: hwloc could not read this machine's topology"),
			c->exp);
		return -1;
	}
	if (k < 0) {
		mt_snprintf(what, sizeof what,
			    _("a core kind of this machine (%s: see memtop topo)"),
			    topo_coretype_names(t, names, sizeof names));
		return batch_bad(c->exp, "--cpu-kind", arg, what);
	}
	c->cpu = job_pick_cpu_of_coretype(k);
	if (c->cpu < 0) {
		mt_snprintf(what, sizeof what,
			    _("a kind with a CPU this process may use (%s's CPUs are not "
			      "allowed: see taskset -p)"),
			    t->coretypes[k].name);
		return batch_bad(c->exp, "--cpu-kind", arg, what);
	}
	c->cpu_coretype = t->coretypes[k].name;
	return job_set_coretype(k);
}

/* --json: the result can be written there (its folder exists and is
 * writable, and the path is not a folder): said before measuring, not after. */
static int check_json_path(const struct batch_cli *c)
{
	char why[4200];
	const char *what;
	if (jsonio_is_stdout(c->json) && c->csv)
		return batch_bad(c->exp, "--json", c->json,
				 _("a file when --csv is given (both would write stdout)"));
	if (jsonio_check_path(c->json, &what, why, sizeof why) == 0)
		return 0;
	if (!why[0])
		return batch_bad(c->exp, "--json", c->json, what);
	mt_warn(_("run %s: --json: expected %s, got '%s' (%s)"), c->exp, what, c->json, why);
	return -1;
}

/* --json -: keep the real stdout for the JSON in c->json_fd and send what
 * the experiment prints there (its table, the "# ..." lines) to stderr, a
 * line at a time so that a watcher over ssh sees the rows as they come.
 * Nothing has been written to stdout yet. Returns 0, or -1 (said). */
static int keep_stdout(struct batch_cli *c)
{
	fflush(stdout);
	c->json_fd = dup(STDOUT_FILENO);
	if (c->json_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		mt_warn(_("run %s: --json -: cannot keep stdout for the JSON: %s"), c->exp,
			strerror(errno));
		if (c->json_fd >= 0)
			close(c->json_fd);
		c->json_fd = -1;
		return -1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	return 0;
}

/* --plan, --sysfs-root, --topology: which machine, and a plan for it.
 * Returns 0, or -1 (said). */
static int check_plan(struct batch_cli *c)
{
	if (c->sysfs_root && c->topology) {
		mt_warn(_("run %s: --sysfs-root and --topology: give one of them"), c->exp);
		return -1;
	}
	if (c->sysfs_root || c->topology)
		c->plan = 1; /* a recorded machine is planned, never measured */
	if (c->plan && c->csv) {
		mt_warn(_("run %s: --csv: a plan has no table (--json gives it as JSON)"), c->exp);
		return -1;
	}
	return 0;
}

/* --cpu and --cpu-kind, checked against this machine (a recorded one's are
 * machine_for_run's). Returns 0, or -1 (said). */
static int check_cpu(struct batch_cli *c)
{
	if (c->cpu_arg && c->coretype_arg) {
		mt_warn(_("run %s: --cpu and --cpu-kind: give one of them"), c->exp);
		return -1;
	}
	if (c->sysfs_root || c->topology)
		return 0;
	if (c->cpu_arg) {
		if (parse_cpu(c, c->cpu_arg) < 0)
			return -1;
		c->cpu_given = 1;
	}
	return c->coretype_arg ? parse_coretype(c, c->coretype_arg) : 0;
}

int batch_parse(struct batch_cli *c, int argc, char **argv)
{
	int ch;
	while ((ch = batch_next(c, argc, argv)) > 0)
		continue;
	return ch;
}

/* Is name (up to len characters) one of opts' long options? */
static const struct option *find_long(const struct option *opts, const char *name, size_t len)
{
	for (; opts->name; opts++)
		if (strlen(opts->name) == len && strncmp(opts->name, name, len) == 0)
			return opts;
	return NULL;
}

/* getopt's short options for the table lo: ":h", then each one-letter name
 * whose value is its letter ("s": -s), with ':' after it when it takes a
 * value. */
static void shorts_of(const struct option *lo, char *out, size_t size)
{
	size_t n = 2;
	out[0] = ':';
	out[1] = 'h';
	for (; lo->name && n + 3 < size; lo++) {
		if (lo->name[1] != '\0' || lo->val != lo->name[0] || lo->val == 'h')
			continue;
		out[n++] = lo->name[0];
		if (lo->has_arg == required_argument)
			out[n++] = ':';
	}
	out[n] = '\0';
}

/* 1, having said so, when getopt_long matched long option li of lo (-1:
 * none) and its name has one letter: "--s" is refused as getopt refuses an
 * unknown option (one-letter names are short options only: -s). Else 0. */
static int one_letter_long(const char *who, const struct option *lo, int li)
{
	if (li < 0 || lo[li].name[1] != '\0')
		return 0;
	if (who[0])
		mt_warn(_("%s: unknown option '--%s' (see memtop %s --help)"), who, lo[li].name,
			who);
	else
		mt_warn(_("unknown option '--%s' (see memtop --help)"), lo[li].name);
	return 1;
}

/* The one-line message for what getopt_long refused (ch is '?' or ':'),
 * "memtop: WHO: ..." ("run matmul", "levels"; "" for memtop itself). */
static void bad_option(const char *who, int ch, char **argv, const struct option *opts)
{
	const char *arg = argv[optind - 1];
	int is_long = arg && strncmp(arg, "--", 2) == 0;
	char pre[64] = "", see[64] = "";
	if (who[0]) {
		mt_snprintf(pre, sizeof pre, "%s: ", who);
		mt_snprintf(see, sizeof see, "%s ", who);
	}
	if (ch == ':') {
		if (is_long)
			mt_warn(_("%s%s: expected a value, got nothing"), pre, arg);
		else
			mt_warn(_("%s-%c: expected a value, got nothing"), pre, optopt);
		return;
	}
	if (is_long) {
		const char *eq = strchr(arg, '=');
		if (eq && find_long(opts, arg + 2, (size_t)(eq - arg - 2))) {
			mt_warn(_("%s%.*s: expected no value, got '%s'"), pre, (int)(eq - arg), arg,
				eq + 1);
			return;
		}
		mt_warn(_("%sunknown option '%s' (see memtop %s--help)"), pre, arg, see);
		return;
	}
	mt_warn(_("%sunknown option '-%c' (see memtop %s--help)"), pre, optopt ? optopt : '?', see);
}

void batch_cmd_init(struct batch_cmd *c, const char *who, const struct batch_help *help)
{
	c->who = who;
	c->help = help;
	c->opts = help->opts;
	c->rc = MT_EXIT_OK;
	mt_getopt_reset();
}

int batch_cmd_next(struct batch_cmd *c, int argc, char **argv)
{
	struct option lo[BATCH_MAX_OPTIONS];
	char shorts[3 * BATCH_MAX_OPTIONS + 3];
	int ch, li = -1;
	batch_getopt(c->opts, lo, BATCH_MAX_OPTIONS);
	shorts_of(lo, shorts, sizeof shorts);
	ch = getopt_long(argc, argv, shorts, lo, &li);
	c->rc = MT_EXIT_OK;
	if (one_letter_long(c->who, lo, li)) {
		c->rc = MT_EXIT_USAGE;
		return -1;
	}
	switch (ch) {
	case -1: return 0;
	case BATCH_OPT_HELP: batch_help(stdout, c->help); return -1;
	case '?':
	case ':':
		bad_option(c->who, ch, argv, lo);
		c->rc = MT_EXIT_USAGE;
		return -1;
	default: return ch;
	}
}

/* The row of c's options whose value is val when it is typed and c has
 * params to fill, else NULL. */
static const struct batch_option *typed_row(const struct batch_cli *c, int val)
{
	for (const struct batch_option *o = c->help->opts; c->params && o->name; o++)
		if (o->val == val)
			return o->type != BATCH_T_NONE ? o : NULL;
	return NULL;
}

int batch_next(struct batch_cli *c, int argc, char **argv)
{
	const struct batch_option *o;
	const struct option *opts = c->getopt;
	char shorts[3 * BATCH_MAX_OPTIONS + 3];
	int ch, li = -1;
	c->rc = MT_EXIT_USAGE;
	shorts_of(opts, shorts, sizeof shorts);
	while ((ch = getopt_long(argc, argv, shorts, opts, &li)) != -1) {
		if (one_letter_long(c->who, opts, li))
			return -1;
		li = -1;
		switch (ch) {
		case BATCH_OPT_HELP:
			batch_help(stdout, c->help);
			c->rc = MT_EXIT_OK;
			return -1;
		case BATCH_OPT_JSON: c->json = optarg; break;
		case BATCH_OPT_QUICK: c->quick = 1; break;
		case BATCH_OPT_CSV: c->csv = 1; break;
		case BATCH_OPT_COMPACT: c->compact = 1; break;
		case BATCH_OPT_CPU: c->cpu_arg = optarg; break;
		case BATCH_OPT_CPU_KIND: c->coretype_arg = optarg; break;
		case BATCH_OPT_PLAN: c->plan = 1; break;
		case BATCH_OPT_SYSFS_ROOT: c->sysfs_root = optarg; break;
		case BATCH_OPT_TOPOLOGY: c->topology = optarg; break;
		case BATCH_OPT_TRIES:
			if (batch_opt_int(c->exp, "--tries", optarg, 1, BATCH_MAX_TRIES,
					  &c->tries) < 0)
				return -1;
			break;
		case '?':
		case ':':
			bad_option(c->who, ch, argv, opts);
			return -1;
		default:
			if (!(o = typed_row(c, ch)))
				return ch;
			if (batch_opt_fill(c->exp, o, optarg, c->params) < 0)
				return -1;
			break;
		}
	}
	if (optind < argc) {
		mt_warn(_("run %s: unexpected argument '%s' (see memtop run %s --help)"), c->exp,
			argv[optind], c->exp);
		return -1;
	}
	if (check_plan(c) < 0 || check_cpu(c) < 0)
		return -1;
	if (c->json && check_json_path(c) < 0)
		return -1;
	if (c->compact && !c->json) {
		mt_warn(_("run %s: --compact: expected --json FILE with it (it shapes the JSON)"),
			c->exp);
		return -1;
	}
	if (jsonio_is_stdout(c->json) && keep_stdout(c) < 0) {
		c->rc = MT_EXIT_RUNTIME;
		return -1;
	}
	c->rc = MT_EXIT_OK;
	return 0;
}
