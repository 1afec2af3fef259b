/* batch_opts: an experiment's options as data, as git's OPT_INTEGER(s, l,
 * &v, h): each row of its option table (struct batch_option, run/batch.h)
 * may say what its value is and which field of the experiment's params it
 * fills, and batch_next() fills it, with the one-line error ("memtop: run
 * NAME: --opt: expected ..., got '...'", exit 2) on a bad value. The rows
 * without a type (BATCH_T_NONE) are returned by batch_next() to the
 * experiment's switch, as before. The experiment's parse function then
 * keeps only its cross-checks. Curses-free, like the rest of src/. */
#ifndef MEMTOP_BATCH_OPTS_H
#define MEMTOP_BATCH_OPTS_H

#include <stddef.h>
#include <stdint.h>

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
	BATCH_T_CPUS,     /* struct batch_cpus: a CPU list "0-3,8" (mt_parse_cpu_list) */
	BATCH_T_CALL,     /* the row's call: an option of its own grammar */
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

#define BATCH_CPUS_MAX 1024 /* the CPUs of a BATCH_T_CPUS, at most */
/* A BATCH_T_CPUS's CPUs: n of them (0: the option was not given). */
struct batch_cpus {
	int cpu[BATCH_CPUS_MAX];
	int n;
};

/* The rows, as git's OPT_*: NAME, its getopt value VAL, ARG and HELP as in
 * struct batch_option, then the field (ST: the params' struct, F: the
 * field in it, a.b for a nested one), its bounds (a LIST's: of each
 * number, then how many at most) and, for SIZE, LIST and CPUS, what a good
 * value is in the error ("a size from 4K to 64G"); for INT and U64 the
 * error says "MIN..MAX". A CALL's fn gets arg NULL when the row's arg is
 * NULL (a flag). */
#define BATCH_OPT_FLAG(name, val, help, st, f)                                          \
	{ name, val, NULL, help, BATCH_T_FLAG, offsetof(st, f), 0, 0, NULL, NULL }
#define BATCH_OPT_STRING(name, val, arg, help, st, f)                                   \
	{ name, val, arg, help, BATCH_T_STRING, offsetof(st, f), 0, 0, NULL, NULL }
#define BATCH_OPT_INT(name, val, arg, help, st, f, lo, hi)                              \
	{ name, val, arg, help, BATCH_T_INT, offsetof(st, f), lo, hi, NULL, NULL }
#define BATCH_OPT_U64(name, val, arg, help, st, f, lo, hi)                              \
	{ name, val, arg, help, BATCH_T_U64, offsetof(st, f), lo, hi, NULL, NULL }
#define BATCH_OPT_SIZE(name, val, arg, help, st, f, lo, hi, what)                       \
	{ name, val, arg, help, BATCH_T_SIZE, offsetof(st, f), lo, hi, what, NULL }
#define BATCH_OPT_LIST(name, val, arg, help, st, f, lo, hi, n, what)                    \
	{ name, val, arg, help, BATCH_T_LIST, offsetof(st, f), lo, hi, what, NULL, n }
#define BATCH_OPT_CPUS(name, val, arg, help, st, f, what)                               \
	{ name, val, arg, help, BATCH_T_CPUS, offsetof(st, f), 0, 0, what, NULL }
#define BATCH_OPT_CALL(name, val, arg, help, fn)                                        \
	{ name, val, arg, help, BATCH_T_CALL, 0, 0, 0, NULL, fn }

struct batch_option; /* run/batch.h */

/* Fill the field of params that row o names from its value arg (o's type
 * not BATCH_T_NONE; params not NULL). Returns 0, or -1 with one line said
 * on stderr ("memtop: run EXP: --NAME: expected ..., got 'ARG'"; a
 * one-letter NAME as it is spelled, -N); the field is left as it was then,
 * but for a callback's. */
int batch_opt_fill(const char *exp, const struct batch_option *o, const char *arg, void *params);

#endif
