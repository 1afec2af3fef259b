/* batch_opts: the option parser of every command, `memtop run NAME`'s
 * (batch_cli_init, batch_next, batch_parse) and the other commands'
 * (batch_cmd_init, batch_cmd_next): one table of rows a command (struct
 * batch_option, with their help), from which getopt's table (batch_getopt)
 * and --help (batch_help, batch_usage) are written; the common options of
 * `memtop run` (--json, --cpu, --plan, ...) and their checks; the one-line
 * errors, "memtop: run NAME: --opt: expected ..., got '...'" and
 * "memtop: WHO: unknown option '--x' (see memtop WHO --help)", exit 2.
 *
 * An experiment's options are data, as git's OPT_INTEGER(s, l, &v, h): each
 * row may say what its value is and which field of the experiment's params
 * it fills (BATCH_OPT_INT, _CHOICE, _CPUS, ...: the field's type is checked
 * when the table compiles), and batch_next() fills it, with the one-line
 * error on a bad value. The rows without a type (BATCH_T_NONE) are returned
 * by batch_next() to the experiment's switch. The experiment's parse
 * function then keeps only its cross-checks. Curses-free, like the rest of
 * src/. */
#ifndef MEMTOP_BATCH_OPTS_H
#define MEMTOP_BATCH_OPTS_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/i18n.h"

/* What an option's value is, and the field it fills (at the row's offset
 * into the params given to batch_cli_init). */
enum batch_type {
	BATCH_T_NONE = 0, /* the experiment's own: batch_next() returns its value */
	BATCH_T_FLAG,     /* int: set to 1 */
	BATCH_T_STRING,   /* const char *: the value as given (parsed later) */
	BATCH_T_INT,      /* int in min..max */
	BATCH_T_U64,      /* uint64_t in min..max */
	BATCH_T_SIZE,     /* uint64_t: a size such as 256K (mt_parse_size) in min..max */
	BATCH_T_LIST,     /* struct batch_list: numbers min..max separated by commas */
	BATCH_T_CPUS,     /* struct batch_cpus: a CPU list of the one grammar, checked */
	BATCH_T_CALL,     /* the row's call: an option of its own grammar */
	BATCH_T_CHOICE,   /* int: the index of the value in the row's choices */
};

/* A callback option's parser: arg (NULL for a flag) into the params (all
 * of them: it may fill several fields). Returns 0, or -1 when arg is bad, after saying so
 * in one line (batch_bad(exp, ...)). */
typedef int (*batch_call_fn)(const char *exp, const char *arg, void *params);

#define BATCH_LIST_MAX 64 /* the numbers of a BATCH_T_LIST, at most */
/* A BATCH_T_LIST's numbers: n of them (0: the option was not given). */
struct batch_list {
	uint64_t v[BATCH_LIST_MAX];
	size_t n;
};

/* A BATCH_T_CPUS's list, in memtop's one CPU-list grammar (base/cpuspec.h:
 * "0-3,8", "0-15:2", S0 a package, N1 a node's CPUs, L3:0, C, P or E,
 * S0:0-7 ...), its syntax checked by the parse; what its domains hold is
 * the machine's: machine/machine.h's machine_cpus resolves spec on the
 * run's machine (this one or a recorded one), which the parse does not
 * know yet. */
struct batch_cpus {
	const char *spec; /* as given; NULL: the option was not given */
	int items;        /* its items (3 for "0-3,S1,8") */
	int domains;      /* how many of them are domains (S1: 1) */
};

/* getopt values of the common options; an experiment's own options use
 * printable characters. */
enum {
	BATCH_OPT_HELP = 'h',
	BATCH_OPT_JSON = 0x100,
	BATCH_OPT_CPU,
	BATCH_OPT_QUICK,
	BATCH_OPT_CSV,
	BATCH_OPT_COMPACT,
	BATCH_OPT_CPU_KIND,
	BATCH_OPT_PLAN,
	BATCH_OPT_SYSFS_ROOT,
	BATCH_OPT_TOPOLOGY,
	BATCH_OPT_TRIES,
};

/* One option of a command with its help, as git's OPT_* and tmux's
 * cmd_entry keep them: the table getopt parses (batch_getopt) and the
 * --help (batch_usage) are both written from it, so they cannot drift, and
 * tests/test_batch.c checks every option of every experiment's and every
 * command's table is in its --help and in its section of man/memtop.1. End
 * a table with BATCH_END. An experiment's own option may also say what its
 * value is and the field of its params it fills (run/batch_opts.h's
 * BATCH_OPT_* rows): batch_next() fills it then. */
struct batch_option {
	const char *name; /* "lengths": the option --lengths; one letter: -s */
	int val;          /* getopt's value: a printable character for a command's own */
	const char *arg;  /* its value in the help ("LIST"), NULL for a flag; "[FILE]":
			   * optional, given as --json=FILE or read by the command
			   * from the word after it */
	const char *help; /* what it does; each '\n' starts a line under it; NULL:
			   * an alias left out of --help (--out for --json) */
	enum batch_type type; /* BATCH_T_NONE (0): batch_next() returns val */
	size_t off;           /* the field's offset in the params */
	uint64_t min, max;    /* an INT's (>= 0), U64's, SIZE's or LIST's bounds */
	const char *what;     /* a SIZE's, LIST's or CPUS's "expected ..." */
	batch_call_fn call;   /* a CALL's parser */
	size_t cap;           /* a LIST's most numbers (<= BATCH_LIST_MAX) */
	size_t size;          /* sizeof the field (0: none), as its type's: the row's macro
			       * checks the type when the table compiles */
	const char *const *choices; /* a CHOICE's values, NULL-terminated */
};
#define BATCH_END { NULL, 0, NULL, NULL, BATCH_T_NONE, 0, 0, 0, NULL, NULL, 0, 0, NULL }
#define BATCH_MAX_OPTIONS 48 /* a table's entries, its end included */

/* The common options, once: --cpu and --cpu-kind for an experiment
 * measuring on a pinned worker; then --quick (what the experiment's quick run is: its help),
 * --json, --out, --compact, --csv (what a CSV row is: its help), --help. */
#define BATCH_HELP_CPU                                                                  \
	{ "cpu", BATCH_OPT_CPU, "N", N_("pin the measuring thread to CPU N") },            \
	{ "cpu-kind", BATCH_OPT_CPU_KIND, "NAME",                                      \
	  N_("pin it to a CPU of kind NAME (P, E, big...: memtop topo)") }
/* --cpu-kind for an experiment measuring on threads of its own (bandwidth,
 * cores, numa): all of them on CPUs of that kind. */
#define BATCH_HELP_CPU_KIND                                                             \
	{ "cpu-kind", BATCH_OPT_CPU_KIND, "NAME",                                      \
	  N_("measure on the CPUs of kind NAME only (P, E, big...: memtop topo)") }
/* --each-kind, for an experiment that takes it (.each_coretype: latency,
 * mountain): one run on each core kind, which the protocol takes before
 * the parse (protocol/protocol_each_kind.c). */
#define BATCH_HELP_EACH_KIND                                                            \
	{ "each-kind", 'K', NULL,                                                      \
	  N_("one run on each core kind (P and E, big and LITTLE), one\n"             \
	     "after the other; with --json, one result a line") }
#define BATCH_HELP_HELP { "help", BATCH_OPT_HELP, NULL, N_("this help") }
/* --tries N (1..BATCH_MAX_TRIES), what a try is in the experiment's words:
 * batch_next parses it into cli->tries. */
#define BATCH_MAX_TRIES 100
#define BATCH_HELP_TRIES(help) { "tries", BATCH_OPT_TRIES, "N", help }
#define BATCH_HELP_COMMON(quick, csv)                                                   \
	{ "plan", BATCH_OPT_PLAN, NULL,                                                \
	  N_("print what the run would measure (sizes and their levels,\n"            \
	     "threads and their CPUs, pairs, nodes) and measure nothing;\n"           \
	     "with --json, the plan as JSON") },                                       \
	{ "sysfs-root", BATCH_OPT_SYSFS_ROOT, "DIR",                                   \
	  N_("plan for the recorded Linux tree DIR (memtop topo's)\n"                  \
	     "instead of this machine (implies --plan)") },                            \
	{ "topology", BATCH_OPT_TOPOLOGY, "FILE",                                      \
	  N_("plan for the machine an hwloc XML describes (lstopo\n"                   \
	     "--of xml FILE, on a server; implies --plan)") },                         \
	{ "quick", BATCH_OPT_QUICK, NULL, quick },                                     \
	{ "json", BATCH_OPT_JSON, "FILE",                                              \
	  N_("write the result to FILE (atomically); - for stdout") },                 \
	{ "out", BATCH_OPT_JSON, "FILE", NULL },                                       \
	{ "compact", BATCH_OPT_COMPACT, NULL,                                          \
	  N_("the JSON on one line (one line a host under pdsh)") },                   \
	{ "csv", BATCH_OPT_CSV, NULL, csv },                                           \
	BATCH_HELP_HELP

/* The getopt table of opts into out (room for max entries, the last the
 * zero row). Returns out; a table longer than max is cut (an assert in
 * tests/test_batch.c keeps them shorter). */
const struct option *batch_getopt(const struct batch_option *opts, struct option *out, size_t max);

/* A command's --help on f: head (its usage line and what it does, ending
 * with a blank line), then one entry per option of opts with help: "  --NAME
 * ARG" ("-N ARG" for a one-letter name), the help from column col (its
 * further lines under it; the lines are wrapped for that column, within
 * 80), "-h, --help" for help. */
void batch_usage(FILE *f, const char *head, const struct batch_option *opts, int col);

/* A command's --help as data beside its option table, so that no command
 * writes a usage function of its own: what batch_help prints on -h/--help. */
struct batch_help {
	const char *head; /* its usage line(s) and what it does, ending with a blank line */
	const struct batch_option *opts; /* its options, parsed and listed */
	int col;          /* the column the options' help starts at */
	const char *tail; /* what follows the options (from a '\n'), or NULL */
};

/* The exit status line most commands' --help ends with, after a blank line. */
#define BATCH_HELP_EXIT N_("\nExit status: 0 ok, 1 runtime failure, 2 bad usage or bad input.\n")

/* h's --help on f: batch_usage of its head, options and column, then its
 * tail. */
void batch_help(FILE *f, const struct batch_help *h);

/* The command line of a command other than `memtop run NAME` (cliffs,
 * compare, import, info, levels, plot, report, sim, topo, view and the
 * terminal UI), parsed against its option table. */
struct batch_cmd {
	const char *who;                  /* "levels": "memtop: levels: ..." */
	const struct batch_help *help;    /* its --help */
	const struct batch_option *opts;  /* help->opts */
	int rc;                           /* the exit code when batch_cmd_next returned -1 */
};

/* Start parsing argv (argv[0] is the command) against help's options.
 * Resets getopt. */
void batch_cmd_init(struct batch_cmd *c, const char *who, const struct batch_help *help);

/* The next option (its value, optarg set; one-letter names are short
 * options), GNU style: the arguments that are not options are left from
 * optind on when it returns 0. -h/--help prints the usage on stdout; an
 * unknown option, a missing value and a value given to a flag are one line
 * ("memtop: WHO: unknown option '--x' (see memtop WHO --help)"). Returns
 * the option's value (> 0), 0 at the end, or -1 when the caller must
 * return c->rc (0 after --help, 2). */
int batch_cmd_next(struct batch_cmd *c, int argc, char **argv);

/* The command line of one `memtop run NAME`. */
struct batch_cli {
	const char *exp;       /* "matmul": the NAME in messages */
	char who[48];          /* "run matmul" */
	const struct batch_help *help; /* the experiment's --help */
	const char *json;      /* --json FILE, or NULL; "-" is stdout */
	int json_fd;           /* --json -: the real stdout, kept for the JSON (else -1) */
	int cpu;               /* --cpu N, a CPU of --cpu-kind NAME, or -1 */
	const char *cpu_coretype;  /* --cpu-kind NAME, or NULL */
	int cpu_given;         /* --cpu was given */
	const char *cpu_arg;   /* --cpu's value, as given (NULL: none) */
	const char *coretype_arg;  /* --cpu-kind's value, as given (NULL: none) */
	int plan;              /* --plan, or a recorded machine: the plan, nothing measured */
	const char *sysfs_root; /* --sysfs-root DIR: a recorded /sys tree, or NULL */
	const char *topology;  /* --topology FILE: an hwloc XML, or NULL */
	int quick;             /* --quick */
	int csv;               /* --csv */
	int compact;           /* --compact: the JSON on one line */
	int tries;             /* --tries N (BATCH_HELP_TRIES), 0 when not given */
	int threads;           /* the most threads the run measures with at once (the
				* experiment's .make_params sets it; 0: one): the header
				* sets the job's CPU quota against it */
	void *params;          /* the fields its typed options fill, or NULL */
	int rc;                /* the exit code when batch_next() returned -1 */
	struct option getopt[BATCH_MAX_OPTIONS]; /* getopt's table of its options */
};

/* Start parsing argv (argv[0] is NAME) for experiment exp against its
 * help's option table (its own options and the common ones), the typed
 * ones (run/batch_opts.h) into params (NULL when it has none: they are
 * returned as the others). Resets getopt. */
void batch_cli_init(struct batch_cli *c, const char *exp, const struct batch_help *help,
		    void *params);

/* The next option of the experiment's own (its getopt value, optarg set)
 * that is not typed; fills the typed ones' fields (a bad value: one line,
 * -1 with c->rc 2). Handles the common options itself, and the errors:
 * unknown option, missing value, value given to a flag, an argument that
 * is not an option, --cpu not a CPU this process may use, --cpu-kind not a
 * core type of this machine
 * (naming those there are) or one with no CPU this process may use, both
 * --cpu and --cpu-kind, --json in a folder that does not exist or
 * cannot be written, --json - with --csv (both would write stdout), --compact
 * without --json, --sysfs-root with --topology, --csv with a plan (--plan,
 * --sysfs-root, --topology: they set c->plan; on a recorded machine --cpu
 * and --cpu-kind are the machine's to check: protocol/protocol.c's
 * machine_for_run). With
 * --json - it then points stdout at stderr (line-buffered) and keeps the
 * real stdout in c->json_fd for batch_finish(). Returns the option's value
 * (> 0); 0 when all of argv is parsed and fine; -1 when the caller must
 * return c->rc: --help printed (0), or one line printed on stderr (2; 1 when
 * stdout could not be kept). */
int batch_next(struct batch_cli *c, int argc, char **argv);

/* All of argv through batch_next(), for an experiment whose own options
 * are all typed (one without a type is passed over: --each-kind, taken
 * before the parse). Returns 0, or -1 when the caller must return c->rc. */
int batch_parse(struct batch_cli *c, int argc, char **argv);

/* Print "memtop: run EXP: OPT: expected WHAT, got 'ARG'" on stderr. Always
 * returns -1. */
int batch_bad(const char *exp, const char *opt, const char *arg, const char *what);

/* Parse arg as an integer in [min, max] for option opt ("--tries"). Returns
 * 0 with *out, or prints "memtop: run EXP: --tries: expected 1..100, got
 * 'x'" and returns -1. */
int batch_opt_int(const char *exp, const char *opt, const char *arg, int min, int max, int *out);

/* Same for a 64-bit unsigned integer. */
int batch_opt_u64(const char *exp, const char *opt, const char *arg, uint64_t min, uint64_t max,
		  uint64_t *out);

/* Parse a cache geometry "s,E,b" (s <= max_s, 1 <= E <= max_e, b <= max_b).
 * Returns 0 with the three, or prints "expected s,E,b such as EXAMPLE, got
 * '...'" and returns -1. */
int batch_opt_cache(const char *exp, const char *opt, const char *arg, const char *example,
		    int max_s, int max_e, int max_b, int *s, int *E, int *b);

/* The rows, as git's OPT_*: NAME, its getopt value VAL, ARG and HELP as in
 * struct batch_option (HELP is always the 4th argument: po/Makevars's
 * xgettext keywords take it from there), then the field (ST: the params'
 * struct, F: the field in it, a.b for a nested one), its bounds (a LIST's:
 * of each number, then how many at most) and, for SIZE and LIST, what a
 * good value is in the error ("a size from 4K to 64G"); for INT and U64 the
 * error says "MIN..MAX", for CHOICE "one of a, b, c", for CPUS what is
 * wrong in the list. A CALL's fn gets arg NULL when the row's ARG is NULL
 * (a flag). A CHOICE's values follow its field: the field gets the index
 * of the one given ("--placement compact" with "spread", "compact": 1), so
 * it is left as it was when the option is not given.
 *
 * Each row records its field's size, and its macro checks the field's type
 * when the table compiles, as git's OPT_INTEGER checks sizeof and
 * signedness: an INT, FLAG or CHOICE row on a field that is not an int, a
 * U64 or SIZE row on one that is not a uint64_t, a STRING's not a const
 * char *, a LIST's not a struct batch_list, a CPUS's not a struct
 * batch_cpus, fails the build ("static assertion failed: a BATCH_OPT_*
 * row on a field that is not int"). */
#define BATCH_FIELD(st, f, T)                                                           \
	(offsetof(st, f) +                                                             \
	 0 * sizeof(struct {                                                           \
		 _Static_assert(_Generic(((st *)0)->f, T: 1, default: 0),              \
				"a BATCH_OPT_* row on a field that is not " #T);       \
		 int ok_;                                                              \
	 }))
#define BATCH_ROW_(n_, v_, a_, h_, t_, st, f, T)                                        \
	.name = n_, .val = v_, .arg = a_, .help = h_, .type = t_,                      \
	.off = BATCH_FIELD(st, f, T), .size = sizeof(((st *)0)->f)
#define BATCH_OPT_FLAG(n_, v_, h_, st, f)                                               \
	{ BATCH_ROW_(n_, v_, NULL, h_, BATCH_T_FLAG, st, f, int) }
#define BATCH_OPT_STRING(n_, v_, a_, h_, st, f)                                         \
	{ BATCH_ROW_(n_, v_, a_, h_, BATCH_T_STRING, st, f, const char *) }
#define BATCH_OPT_INT(n_, v_, a_, h_, st, f, lo, hi)                                    \
	{ BATCH_ROW_(n_, v_, a_, h_, BATCH_T_INT, st, f, int), .min = lo, .max = hi }
#define BATCH_OPT_U64(n_, v_, a_, h_, st, f, lo, hi)                                    \
	{ BATCH_ROW_(n_, v_, a_, h_, BATCH_T_U64, st, f, uint64_t), .min = lo, .max = hi }
#define BATCH_OPT_SIZE(n_, v_, a_, h_, st, f, lo, hi, what_)                            \
	{ BATCH_ROW_(n_, v_, a_, h_, BATCH_T_SIZE, st, f, uint64_t), .min = lo, .max = hi, \
	  .what = what_ }
#define BATCH_OPT_LIST(n_, v_, a_, h_, st, f, lo, hi, n, what_)                         \
	{ BATCH_ROW_(n_, v_, a_, h_, BATCH_T_LIST, st, f, struct batch_list), .min = lo,  \
	  .max = hi, .what = what_, .cap = n }
#define BATCH_OPT_CPUS(n_, v_, a_, h_, st, f)                                           \
	{ BATCH_ROW_(n_, v_, a_, h_, BATCH_T_CPUS, st, f, struct batch_cpus) }
#define BATCH_OPT_CHOICE(n_, v_, a_, h_, st, f, ...)                                    \
	{ BATCH_ROW_(n_, v_, a_, h_, BATCH_T_CHOICE, st, f, int),                      \
	  .choices = (const char *const[]){ __VA_ARGS__, NULL } }
#define BATCH_OPT_CALL(n_, v_, a_, h_, fn)                                              \
	{ .name = n_, .val = v_, .arg = a_, .help = h_, .type = BATCH_T_CALL, .call = fn }

/* Fill the field of params that row o names from its value arg (o's type
 * not BATCH_T_NONE; params not NULL). Returns 0, or -1 with one line said
 * on stderr ("memtop: run EXP: --NAME: expected ..., got 'ARG'"; a
 * CHOICE's "expected one of spread, compact, got 'ARG'"; a CPUS's
 * "memtop: run EXP: --NAME: WHY, got 'ARG'"; a one-letter NAME as it is
 * spelled, -N); the field is left as it was then, but for a callback's. */
int batch_opt_fill(const char *exp, const struct batch_option *o, const char *arg, void *params);

#endif
