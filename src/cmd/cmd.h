/* cmd: the subcommands of the memtop binary. Each is one file src/cmd/cmd_NAME.c
 * (the TUI's in tui/) with one entry in main.c's table. Every command takes
 * argv with argv[0] = its name, prints its own --help, and returns an exit
 * code: 0 ok, 1 runtime failure, 2 bad usage or bad input. */
#ifndef MEMTOP_CMD_H
#define MEMTOP_CMD_H

int cmd_run(int argc, char **argv);
int cmd_cliffs(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_info(int argc, char **argv);

#endif
