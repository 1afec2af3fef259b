/* Unit tests of the command lines: two command lines parsed one after the
 * other in one process (the TUI, the fuzz harness) do not leak into each
 * other; the common options land in the batch_cli; every option in the
 * table (struct batch_option, with its help) of every experiment, of every
 * command memtop --help lists and of memtop itself is in what its --help
 * prints and in its section of man/memtop.1, and its getopt table parses
 * it; the typed rows (run/batch_opts.h) fill their fields, and a bad
 * value stops the parse with exit 2. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "result/result.h"
#include "run/batch.h"
#include "run/experiment.h"
#include "tui/tui.h"

static const struct batch_option table[] = { BATCH_HELP_COMMON("quick", "csv"), BATCH_END };
static const struct batch_help x_help = { .head = "", .opts = table, .col = 10 };

static void second_command_line_starts_fresh(void **state)
{
	struct batch_cli c;
	char *cluster = strdup("-hh");
	char *argv1[] = { (char *)"x", cluster, NULL };
	char *argv2[] = { (char *)"x", (char *)"--quick", (char *)"--csv", NULL };
	(void)state;
	assert_non_null(cluster);
	batch_cli_init(&c, "x", &x_help, NULL);
	assert_int_equal(batch_next(&c, 2, argv1), -1); /* -h: help, mid-cluster */
	assert_int_equal(c.rc, MT_EXIT_OK);
	memset(cluster, 'Z', 3); /* that command line is gone */
	free(cluster);
	batch_cli_init(&c, "x", &x_help, NULL);
	assert_int_equal(batch_next(&c, 3, argv2), 0);
	assert_int_equal(c.rc, MT_EXIT_OK);
	assert_true(c.quick);
	assert_true(c.csv);
	assert_null(c.json);
}

/* The fields the typed rows below fill. */
struct typed {
	int flag, n, calls, mode;
	uint64_t u, size;
	const char *str;
	struct batch_list list;
	struct batch_cpus cpus;
};

static int typed_call(const char *exp, const char *arg, void *params)
{
	(void)exp;
	((struct typed *)params)->calls += arg == NULL;
	return 0;
}

static const struct batch_option typed_table[] = {
	BATCH_OPT_FLAG("flag", 'f', "a flag", struct typed, flag),
	BATCH_OPT_INT("int", 'i', "N", "an int", struct typed, n, 1, 10),
	BATCH_OPT_U64("u64", 'u', "N", "a u64", struct typed, u, 0, 1ull << 40),
	BATCH_OPT_SIZE("size", 's', "SIZE", "a size", struct typed, size, 4096, 1ull << 30,
		       "a size from 4K to 1G"),
	BATCH_OPT_STRING("str", 'S', "S", "a string", struct typed, str),
	BATCH_OPT_LIST("list", 'l', "LIST", "numbers", struct typed, list, 1, 9, 3,
		       "up to 3 numbers 1..9"),
	BATCH_OPT_CPUS("cpus", 'c', "LIST", "CPUs", struct typed, cpus),
	BATCH_OPT_CHOICE("mode", 'm', "M", "a mode", struct typed, mode, "spread", "compact", "auto"),
	BATCH_OPT_CALL("call", 'C', NULL, "a callback flag", typed_call),
	{ "own", 'o', NULL, "the caller's" },
	BATCH_HELP_COMMON("quick", "csv"),
	BATCH_END,
};
static const struct batch_help typed_help = { .head = "", .opts = typed_table, .col = 10 };

/* Parse the n words of argv (argv[0] included) into t: batch_next's
 * returns, 'o' counted in *own. */
static int parse_typed(struct batch_cli *c, struct typed *t, int n, const char **argv, int *own)
{
	int ch;
	memset(t, 0, sizeof *t);
	*own = 0;
	batch_cli_init(c, "x", &typed_help, t);
	while ((ch = batch_next(c, n, (char **)argv)) > 0)
		*own += ch == 'o';
	return ch;
}

static void typed_rows_fill_their_fields(void **state)
{
	const char *good[] = { "x", "--flag", "--int", "7", "--u64", "1099511627776", "--size",
			       "64K", "--str", "hi", "--list", "1,5,9", "--cpus", "0-2,S1:0-3,8",
			       "--call", "--own", "--own", "--mode", "auto", NULL };
	const char *bad[][3] = { { "x", "--int", "11" }, { "x", "--size", "1K" },
				 { "x", "--list", "1,2,3,4" }, { "x", "--cpus", "3-1" },
				 { "x", "--u64", "x" }, { "x", "--mode", "Spread" },
				 { "x", "--cpus", "S" } };
	struct batch_cli c;
	struct typed t;
	int own;
	(void)state;
	assert_int_equal(parse_typed(&c, &t, 19, good, &own), 0);
	assert_int_equal(own, 2);
	assert_int_equal(t.flag, 1);
	assert_int_equal(t.n, 7);
	assert_true(t.u == 1ull << 40 && t.size == 64u << 10);
	assert_string_equal(t.str, "hi");
	assert_true(t.list.n == 3 && t.list.v[0] == 1 && t.list.v[2] == 9);
	/* the list as given, its syntax checked: the machine resolves it */
	assert_string_equal(t.cpus.spec, "0-2,S1:0-3,8");
	assert_true(t.cpus.items == 3 && t.cpus.domains == 1);
	assert_int_equal(t.mode, 2);
	assert_int_equal(t.calls, 1);
	for (size_t i = 0; i < MT_ARRAY_LEN(bad); i++) {
		assert_int_equal(parse_typed(&c, &t, 3, bad[i], &own), -1);
		assert_int_equal(c.rc, MT_EXIT_USAGE);
	}
	/* no params: every row comes back to the caller, as before */
	batch_cli_init(&c, "x", &typed_help, NULL);
	assert_int_equal(batch_next(&c, 3, (char **)bad[0]), 'i');
}

/* The whole of path (NUL-terminated, to free), or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long n;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = calloc(1, (size_t)n + 1)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Send fd (1 or 2) to a new temporary file, named into tmp (its template);
 * returns the fd it was, to give to captured(). */
static int capture(int fd, char *tmp)
{
	int f = mkstemp(tmp), saved;
	assert_true(f >= 0);
	fflush(fd == 1 ? stdout : stderr);
	saved = dup(fd);
	assert_true(saved >= 0 && dup2(f, fd) == fd);
	close(f);
	return saved;
}

/* Give fd back (saved: capture's) and return what was written to it (to
 * free); the file is gone. */
static char *captured(int fd, char *tmp, int saved)
{
	char *text;
	fflush(fd == 1 ? stdout : stderr);
	assert_true(dup2(saved, fd) == fd);
	close(saved);
	text = slurp(tmp);
	unlink(tmp);
	assert_non_null(text);
	return text;
}

/* What `name --help` prints on stdout (to free): experiment x's (`memtop
 * run NAME --help`), else fn's (`memtop COMMAND --help`). */
static char *help_of(const struct experiment *x, int (*fn)(int, char **), const char *name)
{
	char tmp[] = "/tmp/memtop-test-batch-XXXXXX";
	char *argv[] = { (char *)name, (char *)"--help", NULL };
	int saved = capture(1, tmp);
	assert_int_equal(x ? experiment_run(x, 2, argv) : fn(2, argv), 0);
	return captured(1, tmp, saved);
}

/* s has "--NAME" ("-N" for a one-letter name) as a whole option name (not
 * the start of a longer one); in the man page (man 1) every '-' is written
 * "\\-". */
static int has_option(const char *s, const char *name, int man)
{
	char pat[160];
	size_t n = 0;
	for (const char *c = name[1] ? "--" : "-"; *c; c++)
		n += (size_t)snprintf(pat + n, sizeof pat - n, man ? "\\-" : "-");
	for (const char *c = name; *c && n + 3 < sizeof pat; c++)
		n += (size_t)snprintf(pat + n, sizeof pat - n, *c == '-' && man ? "\\-" : "%c", *c);
	for (const char *p = strstr(s, pat); p; p = strstr(p + 1, pat)) {
		char c = p[n];
		if (!(c == '-' || c == '\\' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			return 1;
	}
	return 0;
}

/* The text of man's section HEAD (".SS latency", ".SS memtop levels", ".SH
 * THE TERMINAL UI": up to the next .SS or .SH; to free), or NULL when it
 * has none. */
static char *section(const char *man, const char *title)
{
	char head[128];
	const char *from, *end;
	size_t n = (size_t)snprintf(head, sizeof head, "\n%s", title);
	for (from = strstr(man, head); from; from = strstr(from + 1, head))
		if (from[n] == '\n' || from[n] == ' ')
			break;
	if (!from)
		return NULL;
	from += n;
	end = from + strcspn(from, "\0");
	for (const char *p = strstr(from, "\n.S"); p; p = strstr(p + 1, "\n.S"))
		if (p[3] == 'S' || p[3] == 'H') {
			end = p;
			break;
		}
	return strndup(from, (size_t)(end - from));
}

/* Every option of table o (a command's or an experiment's) parses through
 * its getopt table, is in help, and in one of man's sections in (its own,
 * the common options' sections; NULL-terminated). */
static void table_in_help_and_man(const char *who, const struct batch_option *o,
				  const char *help, const char *const *in)
{
	struct option go[BATCH_MAX_OPTIONS];
	size_t k = 0;
	batch_getopt(o, go, BATCH_MAX_OPTIONS);
	for (; o[k].name; k++) {
		size_t j = 0;
		assert_true(k + 1 < BATCH_MAX_OPTIONS);
		assert_string_equal(go[k].name, o[k].name);
		assert_int_equal(go[k].has_arg, !o[k].arg ? no_argument
						: o[k].arg[0] == '[' ? optional_argument
								     : required_argument);
		if (!o[k].help)
			continue; /* an alias: --out for --json */
		if (!has_option(help, o[k].name, 0))
			fail_msg("%s --help lacks %s", who, o[k].name);
		while (in[j] && !has_option(in[j], o[k].name, 1))
			j++;
		if (!in[j])
			fail_msg("man/memtop.1 lacks %s in %s's section", o[k].name, who);
	}
	assert_null(go[k].name);
}

static void options_in_help_and_man(void **state)
{
	size_t n;
	const struct experiment *const *x = experiment_all(&n);
	const char *data = getenv("MEMTOP_DATA");
	char path[4096], *man, *run;
	(void)state;
	assert_non_null(data);
	snprintf(path, sizeof path, "%s/../man/memtop.1", data);
	assert_non_null(man = slurp(path));
	assert_non_null(run = section(man, ".SS memtop run EXPERIMENT"));
	for (size_t i = 0; i < n; i++) {
		char who[64], *help, *own;
		snprintf(who, sizeof who, "run %s", x[i]->name);
		if (!x[i]->options)
			fail_msg("%s has no option table (its --help is written by hand)", who);
		snprintf(path, sizeof path, ".SS %s", x[i]->name);
		if (!(own = section(man, path)))
			fail_msg("man/memtop.1 has no section %s", path);
		help = help_of(x[i], NULL, x[i]->name);
		table_in_help_and_man(who, x[i]->options, help,
				      (const char *const[]){ own, run, NULL });
		free(help);
		free(own);
	}
	assert_true(n >= 10); /* the whole registry walked */
	free(run);
	free(man);
}

/* The same for every command memtop --help lists (each with its table but
 * run, whose experiments have theirs) and for memtop itself, the terminal
 * UI; view's display options are the UI's, in the UI's section. */
static void commands_in_help_and_man(void **state)
{
	size_t n, tables = 0;
	const struct command *c = cmd_commands(&n);
	const char *data = getenv("MEMTOP_DATA");
	char path[4096], *man, *ui, *intro, *help;
	(void)state;
	assert_non_null(data);
	snprintf(path, sizeof path, "%s/../man/memtop.1", data);
	assert_non_null(man = slurp(path));
	assert_non_null(ui = section(man, ".SH THE TERMINAL UI"));
	assert_non_null(intro = section(man, ".SH COMMANDS")); /* --help, said once */
	for (size_t i = 0; i < n; i++) {
		char *own;
		if (!c[i].options) {
			assert_string_equal(c[i].name, "run");
			continue;
		}
		tables++;
		snprintf(path, sizeof path, ".SS memtop %s", c[i].name);
		if (!(own = section(man, path)))
			fail_msg("man/memtop.1 has no section %s", path);
		help = help_of(NULL, c[i].fn, c[i].name);
		table_in_help_and_man(c[i].name, c[i].options, help,
				      (const char *const[]){ own, intro,
							     strcmp(c[i].name, "view") == 0 ? ui
											    : NULL,
							     NULL });
		free(help);
		free(own);
	}
	assert_int_equal(tables, n - 1);
	help = help_of(NULL, cmd_tui, "memtop");
	table_in_help_and_man("memtop", tui_options, help, (const char *const[]){ ui, intro, NULL });
	free(help);
	free(intro);
	free(ui);
	free(man);
}

/* A bad value of a one-letter option is named as it is spelled (-n; --n is
 * refused), of a longer one as --NAME. */
static void bad_value_names_the_spelling(void **state)
{
	struct p {
		uint64_t n, count;
	} p = { 0, 0 };
	const struct batch_option rows[] = {
		BATCH_OPT_U64("n", 'n', "N", "elements", struct p, n, 1, 10),
		BATCH_OPT_U64("count", 'c', "N", "passes", struct p, count, 1, 10),
	};
	char tmp[] = "/tmp/memtop-test-batch-XXXXXX", *text;
	int saved;
	(void)state;
	saved = capture(2, tmp);
	assert_int_equal(batch_opt_fill("toy", &rows[0], "0", &p), -1);
	assert_int_equal(batch_opt_fill("toy", &rows[1], "11", &p), -1);
	assert_int_equal(batch_opt_fill("toy", &rows[0], "7", &p), 0);
	text = captured(2, tmp, saved);
	assert_non_null(strstr(text, "run toy: -n: "));
	assert_null(strstr(text, "--n:"));
	assert_non_null(strstr(text, "run toy: --count: "));
	assert_int_equal(p.n, 7);
	free(text);
}

/* What experiment NAME says on stderr (to free) for argv (argv[0] its
 * name, NULL-terminated), its exit status into *rc; stdout is kept aside. */
static char *stderr_of(const char *const *argv, int *rc)
{
	char tmp[] = "/tmp/memtop-test-batch-XXXXXX", out[] = "/tmp/memtop-test-batch-XXXXXX";
	const struct experiment *x = experiment_find(argv[0]);
	int n = 0, saved, saved_out;
	assert_non_null(x);
	while (argv[n])
		n++;
	saved_out = capture(1, out);
	saved = capture(2, tmp);
	*rc = experiment_run(x, n, (char **)argv);
	free(captured(1, out, saved_out));
	return captured(2, tmp, saved);
}

/* A CHOICE row takes one of its values, as its index, into its int field;
 * another value (a different case too) is refused in one line naming them
 * all, exit 2, before any machine is asked: bandwidth's --placement,
 * --pages and --loader, cores' --method, numa's --stores, latency's
 * --hugepages. */
static void choice_row_names_its_values(void **state)
{
	static const struct {
		const char *argv[4], *line;
	} bad[] = {
		{ { "bandwidth", "--placement", "sideways" },
		  "memtop: run bandwidth: --placement: expected one of spread, compact, got "
		  "'sideways'\n" },
		{ { "bandwidth", "--pages", "2M" },
		  "memtop: run bandwidth: --pages: expected one of 4k, huge, auto, got '2M'\n" },
		{ { "bandwidth", "--loader", "Read" },
		  "memtop: run bandwidth: --loader: expected one of read, write, got 'Read'\n" },
		{ { "cores", "--method", "cas,rw" },
		  "memtop: run cores: --method: expected one of cas, rw, got 'cas,rw'\n" },
		{ { "numa", "--stores", "" },
		  "memtop: run numa: --stores: expected one of cached, streaming, got ''\n" },
		{ { "latency", "--hugepages", "yes" },
		  "memtop: run latency: --hugepages: expected one of off, on, both, got 'yes'\n" },
	};
	const char *good[] = { "x", "--mode", "compact", NULL };
	struct batch_cli c;
	struct typed t;
	int own, rc;
	(void)state;
	assert_int_equal(parse_typed(&c, &t, 3, good, &own), 0);
	assert_int_equal(t.mode, 1);
	for (size_t i = 0; i < MT_ARRAY_LEN(bad); i++) {
		char *text = stderr_of(bad[i].argv, &rc);
		assert_int_equal(rc, MT_EXIT_USAGE);
		assert_string_equal(text, bad[i].line);
		free(text);
	}
}

/* Every --cpus of every experiment is a CPUS row (bandwidth's, cores',
 * numa's): the one CPU-list grammar, a list it cannot read refused by the
 * parse in one line, exit 2; numa's takes domains too, resolved on the
 * machine planned for. */
static void every_cpus_is_a_cpus_row(void **state)
{
	size_t n, rows = 0;
	const struct experiment *const *x = experiment_all(&n);
	const char *data = getenv("MEMTOP_DATA");
	char xml[4096], want[256], *text;
	int rc;
	(void)state;
	assert_non_null(data);
	for (size_t i = 0; i < n; i++)
		for (const struct batch_option *o = x[i]->options; o->name; o++) {
			const char *argv[] = { x[i]->name, "--cpus", "0-", NULL };
			if (strcmp(o->name, "cpus") != 0)
				continue;
			rows++;
			assert_int_equal(o->type, BATCH_T_CPUS);
			text = stderr_of(argv, &rc);
			snprintf(want, sizeof want,
				 "memtop: run %s: --cpus: '0-' is a range without its end (such as "
				 "0-3), got '0-'\n",
				 x[i]->name);
			assert_int_equal(rc, MT_EXIT_USAGE);
			assert_string_equal(text, want);
			free(text);
		}
	assert_int_equal(rows, 3);
	snprintf(xml, sizeof xml, "%s/../tests/data/topo-hybrid.xml", data);
	{
		const char *n0[] = { "numa", "--cpus", "N0", "--topology", xml, "--plan", NULL };
		const char *n1[] = { "numa", "--cpus", "N1", "--topology", xml, "--plan", NULL };
		text = stderr_of(n0, &rc);
		assert_int_equal(rc, MT_EXIT_OK);
		free(text);
		text = stderr_of(n1, &rc);
		assert_int_equal(rc, MT_EXIT_USAGE);
		assert_string_equal(text, "memtop: run numa: --cpus: expected N1: that machine has "
					  "NUMA node 0, got 'N1'\n");
		free(text);
	}
}

/* The size a typed row's field has, by its type (0: it fills none). */
static size_t type_size(enum batch_type t)
{
	switch (t) {
	case BATCH_T_FLAG:
	case BATCH_T_INT:
	case BATCH_T_CHOICE: return sizeof(int);
	case BATCH_T_STRING: return sizeof(const char *);
	case BATCH_T_U64:
	case BATCH_T_SIZE: return sizeof(uint64_t);
	case BATCH_T_LIST: return sizeof(struct batch_list);
	case BATCH_T_CPUS: return sizeof(struct batch_cpus);
	default: return 0;
	}
}

/* Every row of every experiment's table records its field's size, its
 * type's (the macros check the field's type when the table compiles); a
 * CHOICE has two values or more. */
static void rows_record_their_field(void **state)
{
	size_t n, typed = 0;
	const struct experiment *const *x = experiment_all(&n);
	(void)state;
	for (size_t i = 0; i < n; i++)
		for (const struct batch_option *o = x[i]->options; o->name; o++) {
			if (o->size != type_size(o->type))
				fail_msg("run %s --%s: a field of %zu bytes", x[i]->name, o->name,
					 o->size);
			typed += o->size != 0;
			if (o->type == BATCH_T_CHOICE)
				assert_true(o->choices && o->choices[0] && o->choices[1]);
		}
	assert_true(typed >= 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(second_command_line_starts_fresh),
		cmocka_unit_test(typed_rows_fill_their_fields),
		cmocka_unit_test(bad_value_names_the_spelling),
		cmocka_unit_test(choice_row_names_its_values),
		cmocka_unit_test(every_cpus_is_a_cpus_row),
		cmocka_unit_test(rows_record_their_field),
		cmocka_unit_test(options_in_help_and_man),
		cmocka_unit_test(commands_in_help_and_man),
	};
	return cmocka_run_group_tests_name("batch", tests, NULL, NULL);
}
