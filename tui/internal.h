/* internal: the frame's state and the functions its files share (frame,
 * layout, services, jobs, status, keys, files, session, look, side). Tabs
 * use tui/tab.h. */
#ifndef MEMTOP_TUI_INTERNAL_H
#define MEMTOP_TUI_INTERNAL_H

#include <signal.h>
#include <stdatomic.h>

#include "info/info.h"
#include "tab.h"

#define TUI_MAX_TABS 10
#define TUI_HEAT_MAX 16
#define TUI_MIN_COLS 80
#define TUI_MIN_LINES 24
#define TUI_SIDE_MIN_COLS 100 /* side panel shown from this width */
#define TUI_SIDE_W 34
#define TUI_FRAME_NS 100000000ull /* at most one redraw per 100 ms while streaming */
#define TUI_KEY_FRAME_NS 20000000ull /* keys redraw at once, but at most every 20 ms */
#define TUI_TICK_MS 500               /* the ETA and elapsed time tick while a job runs */
#define TUI_STOP_WAIT_NS 5000000000ull /* quitting waits this long for a job to stop */
#define TUI_SAVES_MAX 4 /* saves being written at once (saving.c) */
#define TUI_LOADS_MAX 4 /* files being read at once (loading.c) */
#define TUI_FILEWORK_MAX (TUI_SAVES_MAX + TUI_LOADS_MAX) /* file threads (filework.c) */
#define TUI_READ_WAIT_NS 1000000000ull /* quitting waits this long for a file being read */
/* q with unsaved results asks this (tui_ask; keys.c) */
#define TUI_QUIT_QUESTION \
	N_("Unsaved results. Save before quitting? y save, n quit without saving, Esc stay")

struct tui_save; /* one save being written (saving.c) */
struct tui_load; /* one file being read (loading.c) */
struct filework; /* the file threads (filework.c) */

/* What the frame keeps of each tab it shows (files.c). */
struct tab_slot {
	const struct tab *tab; /* NULL: a free slot */
	void *self;            /* its state instance (struct tab's state_size), or NULL */
	int unsaved;           /* its result is measured and not saved */
	char source[MT_PATH_MAX]; /* the file its result came from, "" when measured */
};

struct tui {
	/* options */
	int view, quick, start, mouse, no_color, ascii;
	/* terminal */
	int utf8, ncolors;
	attr_t role[ROLE_COUNT];
	attr_t heat[TUI_HEAT_MAX];
	int nheat;
	/* tabs */
	const struct tab *tabs[TUI_MAX_TABS];
	int ntabs, cur;
	struct tab_slot slot[TUI_MAX_TABS]; /* in any order: slot_of() finds a tab's */
	int tab_x[TUI_MAX_TABS][2]; /* tab bar: each label's columns, for clicks */
	int bar_numbers; /* tab bar: every label numbered (else the current one only) */
	/* windows: tab bar, tab area, side panel, status (1 or 2 lines); the
	 * area's last other size and the hidden side panel, kept (layout.c:
	 * the help toggles between them) */
	WINDOW *bar, *area, *side, *status, *area_spare, *side_spare;
	int side_on; /* -1 auto (from 100 columns), 0 off, 1 on */
	int side_shown, too_small, status_lines;
	int lines, cols;
	/* the running job */
	job_t *job;
	const struct tab *job_owner;
	struct run_header *job_hdr; /* filled by tui_job_launch, ended with the job */
	struct diag diag;
	int has_diag;
	/* status line */
	char msg[512];
	/* prompt */
	int prompting;
	char question[512], answer[256];
	size_t apos;
	void (*prompt_done)(struct tui *t, void *self, const char *answer);
	void *prompt_self; /* what prompt_done receives as self */
	const struct tab_knob *knob; /* the knob the prompt asks for (knobs.c) */
	const struct tab *save_tab; /* whose result the save prompt saves (tui_result_key) */
	struct tui_save *saves[TUI_SAVES_MAX]; /* being written off the UI thread (saving.c) */
	struct tui_load *loads[TUI_LOADS_MAX]; /* being read off the UI thread (loading.c) */
	struct filework *work; /* their threads, made at the first (filework.c) */
	/* a one-key question (tui_ask: the quit's "Save before quitting?",
	 * tui_discard_first's "Discard ...?"): its text in question, its
	 * answer's callback; self is prompt_self */
	int asking;
	void (*ask_done)(struct tui *t, void *self, int key);
	/* asking "Discard the unsaved ...?" (tui_discard_first): the action to
	 * run again on y, its key, and 1 while it runs past the question */
	int (*again_go)(struct tui *t, void *self, int key);
	int again_key, discard_ok;
	/* help */
	int help, help_top;
	/* drawing */
	int dirty, full, bytes_guard;
	uint64_t last_draw_ns;
	/* caches */
	const struct mountain *mtn;
	const struct latency_result *lat;
	const struct machine *machine; /* this machine, built once (machine_this) */
	int have_info;
	/* the Caches panel: the caches recorded in the viewed mountain's file,
	 * read again when side_parsed is not that file's */
	struct info side_info;
	const cJSON *side_parsed;
	int side_ok;
	/* exit */
	int quit;
	int sigpipe[2];
};

/* layout.c: windows for the terminal's size (too_small when below 80x24);
 * their removal. frame.c: one frame drawn and sent. */
void frame_layout(struct tui *t);
void frame_drop_windows(struct tui *t);
void frame_draw(struct tui *t);

/* services.c: the frame's record of tab (its instance, whether its result
 * is saved, the file it came from), or NULL for a tab it does not show. */
struct tab_slot *tui_slot_of(struct tui *t, const struct tab *tab);

/* jobs.c: hand the running job's waiting events to its tab, ending the job
 * after its last; cancel it and wait (at most 5 s) for its end. */
void jobs_pump(struct tui *t);
void jobs_stop(struct tui *t);

/* status.c: lines the status needs (2 with diagnostics); the tab bar; the
 * status line. */
int status_lines_wanted(struct tui *t);
void status_draw_bar(struct tui *t);
void status_draw(struct tui *t);

/* keys.c: one key (or KEY_RESIZE, KEY_MOUSE) to the prompt, the help, the
 * tab or the frame; the help screen, from the keys[] tables. */
void keys_handle(struct tui *t, int ch);
void keys_draw_help(struct tui *t);

/* files.c: the tab has results not saved yet / any tab has; save every
 * unsaved tab into dir under default names, each line of the outcome on
 * report (may be NULL); the autosave folder ($XDG_DATA_HOME/memtop or
 * ~/.local/share/memtop, created when create; 0 or -1) and its newest
 * *.json (0 or -1); offer the file at path to the tabs (0, or -1 with e:
 * unreadable, broken, or no tab reads it). */
int files_tab_unsaved(struct tui *t, const struct tab *tb);
int files_any_unsaved(struct tui *t);
/* The run header of the result tab shows when it came from a file (its
 * path into *source), else NULL (measured here, or nothing shown). */
const struct run_header *files_shown_header(struct tui *t, const struct tab *tab,
					     const char **source);
/* Save every unsaved result into dir, one line each on report (NULL:
 * silent); returns how many were saved, *failed how many could not be. */
int files_save_all(struct tui *t, const char *dir, FILE *report, int *failed);
int files_autosave_dir(char *buf, size_t len, int create);
int files_newest_autosave(char *out, size_t len);
int files_open(struct tui *t, const char *path, mt_error *e);

/* saving.c: the save prompt's file written on a thread of the file pool
 * (filework.c: a slow disk never holds a key). saving_start takes root
 * (freed whatever happens) and writes it to path; was_unsaved is the tab's
 * mark before (the caller marks it saved); 0, or -1 with e (TUI_SAVES_MAX
 * still being written, no thread). saving_reap, on each turn of the loop
 * (the thread wakes it through the self-pipe): each save ended is said in
 * the status line ("saved PATH", "not saved: reason"; a failed one puts
 * its tab's mark back).
 * saving_finish, after the loop: waits for them until TUI_STOP_WAIT_NS
 * after since (mt_now_ns), failures and those not waited for each a line
 * on report (those are left to their threads, which free them). */
int saving_start(struct tui *t, const struct tab *tab, cJSON *root, const char *path,
		 int was_unsaved, mt_error *e);
void saving_reap(struct tui *t);
void saving_finish(struct tui *t, FILE *report, uint64_t since);

/* filework.c: a file's read or write on a thread of the pool (the
 * threads are made as needed, at most TUI_FILEWORK_MAX, and kept for the
 * next job, each named TUI_FILEWORK_NAME: tests/soak.sh tells them from a
 * run's MT_RUN_THREAD_NAME). A job is embedded first in its owner's
 * record; run(job) runs on the thread and touches nothing of the UI's;
 * drop(job) frees a job abandoned before it ended (on its thread). */
#define TUI_FILEWORK_NAME "memtop-file"
struct filework_job {
	void (*run)(struct filework_job *j);
	void (*drop)(struct filework_job *j);
	char path[MT_PATH_MAX];     /* the file it reads or writes */
	atomic_int done;            /* set by the thread once run has returned */
	int abandoned;              /* under the pool's lock */
	struct filework_job *next;  /* the queue */
};
/* filework_start: queue j for a thread (one made when every one is busy);
 * its end wakes the loop through the self-pipe. 0, or -1 with e (no
 * thread could be made, or the pool has ended). filework_done: j has
 * ended (its results may be read). filework_abandon, at the end: 1 when j
 * is the caller's to free (ended, or never started: taken out of the
 * queue), 0 when its thread still runs it and frees it (drop) when it
 * returns. filework_end, after the loop, once every job is reaped or
 * abandoned: the pipe retired (no thread writes to it after this
 * returns), the idle threads joined, those still running an abandoned job
 * left to the process's end. filework_threads_made: threads made in all. */
int filework_start(struct tui *t, struct filework_job *j, mt_error *e);
/* filework_new: a new zeroed record of size bytes (its owner's, which
 * starts with its job) for a job on path with run and drop; the caller
 * fills the rest, then filework_start. Returns it, or NULL with e ("out of
 * memory", "PATH: path too long"; nothing left allocated). */
void *filework_new(size_t size, const char *path, void (*run)(struct filework_job *j),
		   void (*drop)(struct filework_job *j), mt_error *e);
/* One kind of file job's records (the saves, the loads) as
 * filework_finish walks them: n slots; job(t, i) the job of slot i, NULL
 * when it is empty; ended(t, i, report) reaps slot i, whose job has ended
 * (its outcome said on report, or dropped), and empties it; left(t, i,
 * report) says on report that slot i's job is still going, empties the
 * slot and gives the job up (filework_abandon). */
struct filework_slots {
	int n;
	struct filework_job *(*job)(struct tui *t, int i);
	void (*ended)(struct tui *t, int i, FILE *report);
	void (*left)(struct tui *t, int i, FILE *report);
};
/* filework_finish, after the loop: each job of s that ends is reaped
 * (ended) until none is left or wait_ns after since (mt_now_ns) have
 * passed, looking every 20 ms; each one still going then is left. */
void filework_finish(struct tui *t, const struct filework_slots *s, FILE *report,
		     uint64_t since, uint64_t wait_ns);
int filework_done(const struct filework_job *j);
int filework_abandon(struct tui *t, struct filework_job *j);
void filework_end(struct tui *t);
unsigned filework_threads_made(const struct tui *t);

/* loading.c: the open prompts' files read off the UI thread (tab.h's
 * tui_open_file). loading_reap, on each turn of the loop: each file read
 * is handed to its tab's done, or "not opened: reason" said. loading_busy:
 * one is still being read. loading_finish, after the loop: waits for them
 * until TUI_READ_WAIT_NS after since (mt_now_ns), then abandons the rest,
 * a line each on report ("PATH: still being read; abandoned").
 * loading_check_regular: 0 when path is a regular file, else -1 with e
 * saying what it is (a FIFO, a device, a folder): opened without waiting
 * for a FIFO's writer. */
void loading_reap(struct tui *t);
int loading_busy(const struct tui *t);
void loading_finish(struct tui *t, FILE *report, uint64_t since);
int loading_check_regular(const char *path, mt_error *e);

/* services.c: a key while a one-key question (tui_ask) is asked: y or n
 * (either case) answers it, Esc or Ctrl-G answers 0; any other key leaves
 * it asked. */
void tui_ask_key(struct tui *t, int ch);

/* knobs.c: knob k of the selected tab (its instance self), its key
 * pressed: its busy said while the tab's run is in progress, else its
 * question asked (the answer is written into self). Returns 1. */
int knobs_ask(struct tui *t, void *self, const struct tab_knob *k);

/* look.c: colours and glyphs for t's terminal (after initscr). */
void look_init(struct tui *t);

/* side.c: draw the Caches panel into w. */
void side_draw(struct tui *t, WINDOW *w);

#endif
