/* experiment: the shape of what `memtop run NAME` can run. An experiment's
 * batch mode is one file (src/LAYER/NAME_batch.c) that defines one `const
 * struct experiment exp_NAME`, declared in its folder's NAME.h, plus one
 * line in src/cmd/experiment.c's registry (cmd/experiment.h finds them). */
#ifndef MEMTOP_EXPERIMENT_H
#define MEMTOP_EXPERIMENT_H

#include <stddef.h>

struct result_kind;   /* core/result_kind.h */
struct batch_option; /* core/batch.h */

struct experiment {
	const char *name;    /* "mountain" */
	const char *summary; /* one line for `memtop run --help` */
	/* `memtop run NAME [options]`: argv[0] is NAME. Parses its options
	 * (GNU style, --help prints its usage and returns 0), runs through the
	 * job API, prints its table, writes --json atomically. Returns an exit
	 * code: 0 ok, 1 runtime failure, 2 bad usage or input. */
	int (*batch)(int argc, char **argv);
	/* The kind of the result its --json writes (kind_NAME, defined in
	 * NAME_kind.c beside it), or NULL when no reader reads it back. */
	const struct result_kind *kind;
	/* Its options with their help (what its --help prints, parses and
	 * tests/test_batch.c holds against the man page), or NULL while its
	 * usage is still written by hand. */
	const struct batch_option *options;
};

#endif
