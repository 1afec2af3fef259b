/* cmd: the subcommands of the memtop binary. Each is one file src/cmd/cmd_NAME.c
 * (the TUI's in tui/) with one entry in main.c's table. Every command takes
 * argv with argv[0] = its name, prints its own --help, and returns an exit
 * code: 0 ok, 1 runtime failure, 2 bad usage or bad input. */
#ifndef MEMTOP_CMD_H
#define MEMTOP_CMD_H

#include <cjson/cJSON.h>

#include "core/util.h"

int cmd_run(int argc, char **argv);
int cmd_cliffs(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_levels(int argc, char **argv);
int cmd_topo(int argc, char **argv);

/* --json PATH: "-" is stdout (the human text then goes to stderr). */
int cmd_json_is_stdout(const char *path);

/* Write root to path atomically, or print it on stdout for "-". Returns 0,
 * or -1 with e = "PATH: reason". */
int cmd_write_json(const char *path, const cJSON *root, mt_error *e);
int cmd_plot(int argc, char **argv);

#endif
