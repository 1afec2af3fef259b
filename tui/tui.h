/* tui: the entry points of the terminal UI, for src/main.c. This header
 * does not include curses (main.c is engine-side); the frame and tabs use
 * tui/tab.h. */
#ifndef MEMTOP_TUI_H
#define MEMTOP_TUI_H

struct batch_option; /* run/batch.h */

/* `memtop [--idle | --start] [--quick] [--no-mouse] [--no-color] [--ascii]`:
 * the TUI measuring this machine (a first look at once, see tab.h's
 * tui_autostart). argv[0] is "memtop". Returns an exit code: 0 ok,
 * 1 runtime failure (no terminal, curses failed), 2 bad usage. */
int cmd_tui(int argc, char **argv);

/* `memtop view [OPTIONS] [FILE.json...]`: the same tabs over saved runs,
 * no measuring; with no file the bundled reference (data/m4max.json);
 * --autosave opens the newest autosave. argv[0] is "view". Returns 0, 1,
 * or 2 (bad option, unreadable or malformed file, with a one-line error). */
int cmd_view(int argc, char **argv);

/* Their options with their help (each --help is written from its table;
 * tests/test_batch.c holds them against man/memtop.1). */
extern const struct batch_option tui_options[];
extern const struct batch_option tui_view_options[];

#endif
