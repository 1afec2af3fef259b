/* cmd: the subcommands of the memtop binary. Each is one file src/cmd/cmd_NAME.c
 * (the TUI's in tui/) with one entry in main.c's table. Every command takes
 * argv with argv[0] = its name, prints its own --help, and returns an exit
 * code: 0 ok, 1 runtime failure, 2 bad usage or bad input. */
#ifndef MEMTOP_CMD_H
#define MEMTOP_CMD_H

#include <cjson/cJSON.h>

#include "base/util.h"
#include "run/batch.h"

/* One command of `memtop COMMAND`, as main.c dispatches to it and
 * `memtop --help` lists it (the table is commands.c, linked into memtop
 * and tests/test_batch beside the terminal UI's library). */
struct command {
	const char *name;                  /* "levels" */
	const char *summary;               /* its line in memtop --help */
	int (*fn)(int argc, char **argv);  /* argv[0] is name */
	const struct batch_option *options; /* what its --help lists, or NULL (run:
					     * each experiment has its table) */
};

/* Every command, in memtop --help's order; *n gets the count. */
const struct command *cmd_commands(size_t *n);

/* Each command's options with their help (cmd_NAME.c): its --help is
 * written from its table, and tests/test_batch.c holds every option of it
 * against that --help and man/memtop.1. */
extern const struct batch_option cmd_cliffs_options[], cmd_compare_options[],
	cmd_import_options[], cmd_info_options[], cmd_levels_options[], cmd_plot_options[],
	cmd_report_options[], cmd_sim_options[], cmd_topo_options[];

int cmd_run(int argc, char **argv);
int cmd_cliffs(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_levels(int argc, char **argv);
int cmd_topo(int argc, char **argv);

/* --json OUT of a command that prints text and may also write it as JSON
 * (levels, topo): its help a whole sentence, marked N_() where it is given:
 * "also write the levels as JSON to OUT (atomically);\nOUT '-' is stdout,
 * and the text then goes to stderr". */
#define CMD_HELP_JSON(help) { "json", 'j', "OUT", help }


/* --json PATH: "-" is stdout (the human text then goes to stderr). */
int cmd_json_is_stdout(const char *path);

/* --json PATH of command who, refused before any work when it cannot be
 * written (jsonio_check_path): one line, "memtop: WHO: --json: expected a
 * file in an existing folder, got 'PATH' (reason)". Returns 0, or -1 (the
 * command exits 2). */
int cmd_json_refuse(const char *path, const char *who);

/* The same for any writer's FLAG ("--html", "--svg"): every command
 * refuses an output it cannot write before it works, exit 2. */
int cmd_out_refuse(const char *path, const char *flag, const char *who);

/* Write root to path atomically, or print it on stdout for "-". Returns 0,
 * or -1 with e = "PATH: reason". */
int cmd_write_json(const char *path, const cJSON *root, mt_error *e);
int cmd_plot(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* The bundled references a fleet's comparison or report adds as rows
 * labelled as such (cmd_refs.c). */
#define CMD_MAX_REFS 32
struct cmd_refs {
	char path[CMD_MAX_REFS][MT_PATH_MAX];
	size_t n;
};

/* --ref WHICH: "all" (data/m4max.json and every JSON file in data/ref) or one
 * bundled file by name ("m4max", "intel-n100-latency") into r. Returns 0,
 * or -1 with one line said ("CMD: --ref: expected ..."). */
int cmd_refs_add(struct cmd_refs *r, const char *cmd, const char *which);

/* The results of the files from index nlab on (the references added after
 * the user's files) as references: named "ref: NAME", never counted in a
 * group's medians nor flagged. */
struct result_set;
void cmd_refs_mark(struct result_set *s, size_t nlab);

#endif
