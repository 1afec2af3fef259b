/* experiment: the shape of what `memtop run NAME` can run. An experiment is
 * a folder, src/NAME/; its batch mode is one file there (NAME_batch.c) that
 * defines one `const struct experiment exp_NAME`, declared in its NAME.h,
 * plus one line in the registry of src/result/result.c (result/result.h's
 * experiment_find and experiment_all find them; the kinds of result follow
 * from their .kind). */
#ifndef MEMTOP_EXPERIMENT_H
#define MEMTOP_EXPERIMENT_H

#include <stddef.h>

struct batch_option;     /* run/batch.h */
struct batch_result_run; /* run/batch.h */

struct experiment {
	const char *name;    /* "mountain" */
	const char *summary; /* one line for `memtop run --help` */
	/* `memtop run NAME [options]`: its parts, which batch_run_result
	 * (run/batch.h) runs: parse its options (GNU style, --help prints its
	 * usage), run the job, print its table, write --json atomically. Its
	 * .kind is the kind of the result --json writes (kind_NAME, defined in
	 * NAME_kind.c beside it), or NULL when no reader reads it back. */
	const struct batch_result_run *run;
	/* 1: it takes --each-kind (one run per core kind: machine/plan.h's
	 * batch_each_kind). */
	int each_kind;
	/* Its options with their help (what its --help prints, batch_parse
	 * fills its params from, and tests/test_batch.c holds against the man
	 * page), ending with a zeroed row. Never NULL. */
	const struct batch_option *options;
};

#endif
