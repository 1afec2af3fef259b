/* tab: the interface between the TUI frame (tui/services.c, jobs.c, files.c
 * and the drawing in frame.c) and its tabs.
 *
 * A tab is a file tui/tab_NAME.c that defines `const struct tab tab_NAME`
 * plus ONE line `X(NAME) \` in TUI_TABS below (and its file in TUI_SOURCES
 * of Makefile.am); a large tab splits by what the parts do into
 * tab_NAME_PART.c files sharing a private tab_NAME.h (tab_mountain.h). A
 * tab keeps its state in the instance the frame allocates (struct tab's
 * state_size), and every callback of the tab receives it as self: none
 * keeps state in a file-level variable, so two instances share nothing.
 *
 * The frame owns: the event loop (poll on the terminal, the running job and
 * the signal pipe), the one running job, the tab bar, the status line
 * (progress bar, cells done, ETA, diagnostics in words, messages), the help
 * screen (built from the same keys[] tables that bind the keys), the
 * prompt line, colours and glyphs, the Caches side panel, quit/autosave.
 *
 * A tab owns: its area (a WINDOW the frame hands to draw()), its keys, the
 * events of the jobs it starts, and its results (unsaved/save).
 *
 * Drawing: the frame calls draw() at most ~10 times a second, and only
 * after tui_dirty() or a key/resize. Each time, werase(area) and draw the
 * whole area: ncurses sends the terminal only the difference (a cursor
 * move costs a few cells). Sentences go through tui_put() / tui_wrap(),
 * which keep words whole at 80x24; tables and glyphs clip to the area's
 * width (mvwaddnstr): text that runs past the right edge wraps onto the
 * next line. Never call refresh()
 * or doupdate(): the frame does wnoutrefresh + doupdate once per frame.
 *
 * Colour is never the only carrier of a value: use tui_heat_glyph() (glyph
 * density) or text alongside tui_heat_attr().
 *
 * A minimal tab, its state in the instance the frame allocates:
 *
 *   struct lists_tab { struct lists_params p; struct run_header hdr; double cells[8][4]; };
 *   static int act_run(struct tui *t, void *self, int key) {
 *           struct lists_tab *s = self;
 *           if (tui_can_measure(t))
 *                   tui_job_launch(t, &tab_lists, lists_worker, &s->p, &s->hdr);
 *           return 1;
 *   }
 *   static const struct keybinding keys[] = {
 *           { 'r', "r", "measure the list layouts", act_run }, { 0, NULL, NULL, NULL } };
 *   static void ev(struct tui *t, void *self, const struct job_event *e) {
 *           struct lists_tab *s = self;
 *           if (e->type == JOB_EV_CELL) {
 *                   s->cells[e->row][e->col] = e->value;
 *                   tui_result_changed(t, &tab_lists, 1);
 *           } else if (e->type == JOB_EV_FAILED) tui_message(t, "failed: %s", e->text);
 *           tui_dirty(t);
 *   }
 *   static void draw(struct tui *t, void *self, WINDOW *w, int full) { ...mvwprintw(w, y, x, ...)... }
 *   const struct tab tab_lists = { .name = "Lists", .key = '6', .draw = draw,
 *           .keys = keys, .job_event = ev, .state_size = sizeof(struct lists_tab),
 *           .result = &io }; (io: a struct tab_result_io, below: its kind, what it shows)
 *
 * In `memtop view` (tui_view_mode()) a tab that cannot show saved files
 * should return -1 from init() so it is not shown. */
#ifndef MEMTOP_TUI_TAB_H
#define MEMTOP_TUI_TAB_H

#include <curses.h>
#include <cjson/cJSON.h>
#include <stddef.h>

#include "base/i18n.h"
#include "base/jsonio.h"
#include "base/util.h"
#include "machine/machine.h"
#include "mountain/mountain.h"
#include "run/diag.h"
#include "run/job.h"
#include "run/result_kind.h"
#include "run/runhdr.h"

struct tui; /* the frame; tabs use it only through the functions below */
struct latency_result; /* latency/latency.h */
struct info;           /* info/info.h */
struct tab_result_io; /* below */

/* A part of the machine another tab is asked to measure (the Topology
 * tab's keys: struct tab's measure). */
struct tab_part {
	const char *what;  /* in words: "core 5", "L3 group 1", "NUMA node 0" */
	const int *cpus;   /* its CPUs this process may use, ascending */
	int ncpus;
	int node;          /* its NUMA node, by number; -1 none */
};

/* One knob of a tab (git's OPT_INTEGER, for a prompt): its key asks in
 * the status line for a new value of a field of the tab's instance, the
 * field's value as the answer's initial text, and on Enter writes an
 * answer in lo..hi into it, else keeps the value it had and says so with
 * the field's name and range; the same row writes its line of the help
 * (TUI_KEY_KNOB). A text knob hands its answer to answer() instead, which
 * checks it the same way (tui_knob_refused). A static const table in the
 * tab, named from its keys[]; its help, question, busy and name are
 * marked N_() (the frame shows them through _()). */
struct tab_knob {
	int key;              /* a printable character; the help names it */
	const char *help;     /* its help row: "type the atomic adds a thread" */
	/* A number's question, the range added: "Atomic adds a thread" asks
	 * "Atomic adds a thread (1000..1000000000): "; a text's in full. */
	const char *question;
	/* Said instead of asking while the tab's run is in progress
	 * (tui_running): "stop the run first (x)"; NULL: it asks anyway. */
	const char *busy;
	/* A number: the field, an unsigned integer of size bytes (4 or 8) at
	 * offset at into the tab's state, its bounds, its name as the tab
	 * writes it elsewhere ("atomic adds a thread": a bad answer says
	 * "atomic adds a thread: 1000..1000000000, not '5'; still 20000000"),
	 * and set(self), when not NULL, what else changes once it took a new
	 * value (the frame redraws). */
	size_t at, size;
	uint64_t lo, hi;
	const char *name;
	void (*set)(void *self);
	/* A text: its value now as the answer's initial text (now NULL: ""),
	 * written into buf (len bytes) and returned; and answer(t, self, text
	 * or NULL on Esc). */
	const char *(*now)(const void *self, char *buf, size_t len);
	void (*answer)(struct tui *t, void *self, const char *answer);
};

/* The rows of a knob table: a number (ST: the tab's state struct, F: the
 * field in it, a.b for a nested one) or a text. */
#define TAB_KNOB_NUM(key, help, question, busy, st, f, lo, hi, name, set)                    \
	{ key, help, question, busy, offsetof(st, f), sizeof(((st *)0)->f), lo, hi, name, set, \
	  NULL, NULL }
#define TAB_KNOB_TEXT(key, help, question, busy, now, answer) \
	{ key, help, question, busy, 0, 0, 0, 0, NULL, NULL, now, answer }

/* One key binding and, when name is set, one row of the help screen
 * (htop's keys[] idea: the table that binds the keys writes the help).
 * Rows with name == NULL only bind (e.g. 'k' next to KEY_UP). End the table
 * with a zero row. The action receives the selected tab's instance as self
 * (struct tab's state_size) and returns 1 when it used the key. A knob's
 * row (TUI_KEY_KNOB) has no action: the knob binds, asks and helps. */
struct keybinding {
	int key;          /* a character or a KEY_* code */
	const char *name; /* as the help writes it: "r", "Enter", "arrows hjkl" */
	const char *help; /* what it does, lower case, no full stop */
	int (*action)(struct tui *t, void *self, int key);
	const struct tab_knob *knob; /* or the knob the row binds */
	/* Optional: the help's text now, when it holds a figure that is the
	 * tab's to work out ("measure the latency curves: 143 sizes 4K..2G,
	 * about 19 s": the figure the key then says), written into buf (len
	 * bytes) and returned; self is the tab's instance. help is then its
	 * text where no instance is at hand. */
	const char *(*say)(struct tui *t, void *self, char *buf, size_t len);
	/* TUI_KEY_SAVE's kind (printed as it is) or TUI_KEY_OPEN's what (a
	 * phrase from the catalogue): the frame's help says the row whole in
	 * the user's language around it; NULL for every other row. */
	const char *arg;
};

/* The keys[] row of a knob, a row of the tab's knob table: knobs[0]. */
#define TUI_KEY_KNOB(knob) { 0, NULL, NULL, NULL, &(knob) }

/* The rows of a keys[] table that bind the four arrows and h j k l to one
 * action (which tells them apart by key), under one help row "arrows hjkl". */
#define TUI_KEYS_ARROWS_HJKL(help, action) \
	{ KEY_UP, N_("arrows hjkl"), help, action }, { KEY_DOWN, NULL, NULL, action }, \
	{ KEY_LEFT, NULL, NULL, action }, { KEY_RIGHT, NULL, NULL, action }, \
	{ 'h', NULL, NULL, action }, { 'j', NULL, NULL, action }, \
	{ 'k', NULL, NULL, action }, { 'l', NULL, NULL, action }

/* The rows that bind Home and End to one action, under one help row
 * "Home End"; likewise PgUp and PgDn under "PgUp PgDn". */
#define TUI_KEYS_HOME_END(help, action) \
	{ KEY_HOME, "Home End", help, action }, { KEY_END, NULL, NULL, action }
#define TUI_KEYS_PAGE(help, action) \
	{ KEY_PPAGE, "PgUp PgDn", help, action }, { KEY_NPAGE, NULL, NULL, action }

/* The save key of a tab whose struct tab's result saves files of the kind
 * named kind (a string literal, the kind's name): w asks for the name,
 * memtop-KIND-HOST-DATE.json by default (tui_result_key). */
#define TUI_KEY_SAVE(kind) \
	{ 'w', "w", "save as JSON (memtop-" kind "-HOST-DATE.json)", tui_result_key, NULL, NULL, kind }
/* A tab's open key: o opens a saved result of its kind (tui_open_key);
 * what reaches the catalogue by this macro (po/Makevars' keywords). */
#define TUI_KEY_OPEN(what) \
	{ 'o', "o", "open a saved or imported " what, tui_open_key, NULL, NULL, what }

struct tab {
	/* the tab bar's label: "Mountain", marked N_() (the frame shows it
	 * through _(); the name itself is compared with a result kind's tab) */
	const char *name;
	const char *brief; /* its label when the bar is short of room, a whole
			    * word ("Sharing"), marked N_(); NULL: the name */
	char key;         /* '1'..'9', then '0' (the tenth): the key that selects it */

	/* Once, before curses starts and before open() (the options such as
	 * tui_view_mode() are known; colours are not: ask them in draw()).
	 * self is the tab's zeroed instance (state_size). Return 0, or -1 to
	 * hide the tab (it cannot work here; fini is not called then, so free
	 * what init took first). Optional. */
	int (*init)(struct tui *t, void *self);
	/* At exit, after any job has ended. Free everything self holds (the
	 * frame frees self itself). Optional. */
	void (*fini)(struct tui *t, void *self);

	/* Draw into area (getmaxyx gives its size). full = 1: the window was
	 * just erased (resize, tab switch, help closed). */
	void (*draw)(struct tui *t, void *self, WINDOW *area, int full);

	/* The tab's keys, tried before the frame's. Leave the frame's keys
	 * alone (1..9 and 0, Tab, Shift-Tab, ?, F1, p, x, i, Ctrl-L, q, F10, Esc when
	 * unused): an action that returns 0 passes the key on. */
	const struct keybinding *keys;
	/* Optional: keys not in keys[] (forms, modes). Return 1 if used. */
	int (*handle_key)(struct tui *t, void *self, int ch);
	/* Optional: a mouse click at (y, x) inside the area. Return 1 if used. */
	int (*mouse)(struct tui *t, void *self, int y, int x);

	/* Every event of a job this tab started with tui_job_launch(), oldest
	 * first. By the last one (JOB_EV_DONE, _FAILED with the reason in text,
	 * _CANCELLED) the frame has already ended the job, completed the run
	 * header it was launched with and shown its diagnostics; the tab may
	 * launch the next job. */
	void (*job_event)(struct tui *t, void *self, const struct job_event *ev);

	/* The tab's results on disk, through their result kind (src/result/):
	 * the frame saves (the w key, tui_result_key), autosaves, asks before
	 * quitting, and opens (memtop view, files of every kind whose .tab is
	 * this tab's name) through it. NULL: the tab saves and opens nothing. */
	const struct tab_result_io *result;

	/* Optional: measure part, a part of the machine the Topology tab's
	 * cursor is on (its CPUs, its node), as this tab's run (latency on its
	 * first CPU, core-to-core among its CPUs, numa for its node); the
	 * frame has selected this tab and checked that it may measure
	 * (tui_measure_part). Return 1 when it used the part, 0 when it has
	 * nothing to measure there (it says why). */
	int (*measure)(struct tui *t, void *self, const struct tab_part *part);

	/* The size of the tab's state: the frame allocates one zeroed instance
	 * before init and frees it after fini; every callback above (and the
	 * keys' actions, the prompts' answers, the result callbacks) receives
	 * it as self, and tui_tab_self() gives it. 0: the tab has no state
	 * (self is then NULL). */
	size_t state_size;
};

/* The fields of a struct tab whose file names its parts the usual way: the
 * callbacks init, draw, keys and on_job_event, its struct tab_result_io
 * io, its state struct NAME_tab. After the name and key:
 *   const struct tab tab_lists = { .name = "Lists", .key = '6', TAB_PARTS(lists) };
 * A tab whose parts are named otherwise (the Mountain tab's, split over
 * files) spells the fields out. */
#define TAB_PARTS(NAME) \
	.init = init, .draw = draw, .keys = keys, .job_event = on_job_event, .result = &io, \
	.state_size = sizeof(struct NAME##_tab)

/* ---- the tab table: one line X(NAME) \ per tab ------------------------- */
#define TUI_TABS \
	X(mountain) \
	X(latency) \
	X(matmul) \
	X(transpose) \
	X(falseshare) \
	X(lists) \
	X(bandwidth) \
	X(cores) \
	X(numa) \
	X(topology) \
	/* one X(NAME) line per tab above this one; any order (sorted by key) */

#define X(n) extern const struct tab tab_##n;
TUI_TABS
#undef X

/* ---- frame services for tabs ------------------------------------------ */

/* The one way a tab measures: take the run header into hdr (load and
 * runnable tasks before the worker exists, the CPU it will be pinned to;
 * hdr NULL: none, e.g. re-measuring one cell), start fn(arg) pinned to a CPU
 * the UI then keeps away from, and hand its events to owner->job_event().
 * The frame owns the job: it ends it after the last event, completes hdr
 * (after-run diagnostics, the CPUs the worker was seen on) and shows its
 * diagnostics in the status line (tui_set_diag). arg and hdr must
 * outlive the job. Returns 0, or -1 with the reason in the status line
 * (another job is running, the thread could not start); nothing is left
 * running then. */
int tui_job_launch(struct tui *t, const struct tab *owner, job_fn fn, void *arg,
		   struct run_header *hdr);

/* tui_job_launch with the worker pinned to CPU cpu (one this process may
 * run on; -1: picked as tui_job_launch picks). */
int tui_job_launch_on(struct tui *t, const struct tab *owner, job_fn fn, void *arg,
		      struct run_header *hdr, int cpu);

/* Asks tab to measure part (the Topology tab's keys): when this session
 * may measure (tui_can_measure says why not), tab is selected and its
 * measure called; a tab without one says so. Returns 1 (the key is used). */
int tui_measure_part(struct tui *t, const struct tab *tab, const struct tab_part *part);

/* Each result a tab shows now, measured in this session or opened (the
 * Topology tab puts them on the machine): each(ctx, kind, r, source) for
 * every tab whose result has something measured, r an instance of kind,
 * source the file it came from ("" when measured here). */
void tui_each_result(struct tui *t,
		     void (*each)(void *ctx, const struct result_kind *kind, const void *r,
				  const char *source),
		     void *ctx);

/* At the last event of a tab's run: says "WHAT failed: why" (FAILED) or
 * "WHAT stopped" (CANCELLED) in the status line. Returns 1 when the run
 * ended well (DONE: the tab then says what it measured), else 0. */
int tui_job_ended(struct tui *t, const struct job_event *ev, const char *what);

/* The running job, or NULL. */
job_t *tui_job(const struct tui *t);
/* 1 while tab's run is in progress: from the tui_job_launch that started
 * its job to that job's last event, which tab->job_event already sees as
 * 0 (the frame knows the job's owner; no tab keeps a flag of its own). */
int tui_running(const struct tui *t, const struct tab *tab);
/* Pause/resume the running job (status line says so). */
void tui_job_toggle_pause(struct tui *t);

/* Diagnostics of the current/last run for the status line (copied;
 * diag_warnings() turns them into words). NULL clears. */
void tui_set_diag(struct tui *t, const struct diag *d);

/* A one-line message in the status line until the next key (made printable;
 * its figures in the user's decimal separator, as mt_hsnprintf). */
void tui_message(struct tui *t, const char *fmt, ...) MT_PRINTF(2, 3);

/* K (the Mountain tab's key): the next runs measure on the next core type
 * of this machine, fastest first and round, one with a CPU memtop may use;
 * says which in the status line (or that there is one kind). Returns 1. */
int tui_act_coretype(struct tui *t, void *self, int key);

/* Ask for a line of text in the status line (modal: keys go to the prompt;
 * jobs keep streaming). done(t, self, answer) gets self as given here (the
 * asking tab's instance) and the text, or NULL on Esc. */
void tui_prompt(struct tui *t, void *self, const char *question, const char *initial,
		void (*done)(struct tui *t, void *self, const char *answer));


/* Open the result file at path off the UI thread (loading.c; a slow or
 * stalled disk never holds a key): the status line says "opening PATH".
 * Once it is read as a result of kind want, done(t, self, f) gets it on
 * the UI thread (f->path is the path asked; take f->r, setting it NULL, or
 * leave it to be freed after done). A file that cannot be read, is not a
 * regular file (a FIFO, a device, a folder: refused without waiting) or
 * is not a want is said instead, "not opened: reason", and done is not
 * called. A second open for the same self and done while one is read
 * replaces it (the first is dropped when it comes). done runs under the
 * rules of the moment it comes (a run started since, a file shown since),
 * as if the open were asked then. Returns 0, or -1 (said). */
int tui_open_file(struct tui *t, void *self, const char *path, const struct result_kind *want,
		  void (*done)(struct tui *t, void *self, struct result_file *f));

/* The default name of a result: "memtop-KIND-HOST-DATE.json" from its
 * header (blanks and colons of the date as '-'; "host"/"run" when the
 * header is empty). */
void tui_result_name(const struct run_header *h, const char *kind, char *buf, size_t len);

/* What a tab's result is now (struct tab_result_io's now). */
struct tab_result_now {
	/* The result w saves: an instance of the io's kind (what kind->to_json
	 * and result_kind_header take), or NULL when there is none. */
	const void *shown;
	/* Cells measured (or read) so far; 0: nothing to save. */
	size_t measured;
};

/* A tab's results as files of its result kind (run/result_kind.h): what
 * a tab points its struct tab's result at, so that the frame does the file
 * handling (open, unsaved, save, autosave, the save key, quit). A static
 * const in the tab; every callback receives the tab's state instance as
 * self (struct tab's state_size). The frame keeps whether the result is
 * saved (tui_result_changed) and which file it came from. */
struct tab_result_io {
	/* The kind the tab saves: its to_json writes the file, its name makes
	 * the default name memtop-NAME-HOST-DATE.json from the result's header. */
	const struct result_kind *kind;
	/* Said when nothing is measured ("no finished race to save yet (r
	 * races)"); NULL: "nothing measured to save yet (r measures)". */
	const char *nothing;
	/* What is in progress while the tab's run is (tui_running): "a race"
	 * (open says "PATH: a race is in progress"; a tab that shows several
	 * files opens one beside its run). */
	const char *busy;
	/* 1: the tab shows several files at once (the Mountain tab: a second
	 * mountain beside the first, the card); 0: one at a time, and opening
	 * another says which one shows. */
	int several;
	/* What the result is now: either now() says (a tab that holds its
	 * result another way: a pointer, a result built when saved), */
	struct tab_result_now (*now)(void *self);
	/* or, with now NULL, the frame reads it from the instance, which holds
	 * the result by value at result_at (offsetof into struct tab's state);
	 * the kind's measured gives the cells it holds (0: nothing to save). */
	size_t result_at;
	/* Opening f (loaded; f->kind is kind or another kind shown by this
	 * tab, e.g. the card in the Mountain tab): take it and return 0,
	 * either keeping f->r (set f->r to NULL; free it with f->kind->free
	 * when done) or copying what it needs (the frame frees f); -1 with e
	 * when it cannot. */
	int (*take)(struct tui *t, void *self, struct result_file *f, mt_error *e);
	/* Or, with take NULL, the frame copies f->r (result_size bytes) into
	 * the instance at result_at, then calls opened(self) (may be NULL)
	 * for what else the tab resets (its cursor, its knobs). */
	size_t result_size;
	void (*opened)(void *self);
};

/* The state instance the frame allocated for tab (struct tab's
 * state_size), or NULL when it has none. */
void *tui_tab_self(struct tui *t, const struct tab *tab);

/* The tab's result changed: unsaved 1 when a new result was measured (it
 * is asked about on quit and autosaved; the file it came from is
 * forgotten), 0 when it is as on disk. */
void tui_result_changed(struct tui *t, const struct tab *tab, int unsaved);

/* The tab's result is measured and not saved (for the tab's own lines:
 * "unsaved (w)"). */
int tui_result_unsaved(struct tui *t, const struct tab *tab);

/* A knob's answer refused, said in the status line: why names the field
 * as the tab does and what it takes ("largest array: 4K..64G, not
 * '99999T'"), kept the value the field keeps ("2G"): "...; still 2G". */
void tui_knob_refused(struct tui *t, const char *why, const char *kept);

/* Ask a question answered by one key in the status line (modal; jobs keep
 * streaming): y (or Y) calls done(t, self, 'y'), n (or N) done(t, self,
 * 'n'), Esc done(t, self, 0), at once, nothing echoed, no Enter; any other
 * key leaves the question asked. question says its answers ("(y/n)"). */
void tui_ask(struct tui *t, void *self, const char *question,
	     void (*done)(struct tui *t, void *self, int key));

/* Before a new run (or an opened file) throws tab's unsaved result away:
 * ask question ("Discard the unsaved matrix and measure again?") with
 * " (y/n)" through tui_ask and, on y, call go(t, self, key) again (the
 * action that asked), past the question. Returns 1 when it
 * asked (the action returns at once), 0 to go on (nothing unsaved, a job
 * running, memtop view, or the answer was y). */
int tui_discard_first(struct tui *t, const struct tab *tab, void *self, const char *question,
		      int (*go)(struct tui *t, void *self, int key), int key);

/* The action of a tab's save key ({ 'w', "w", "save as JSON ...",
 * tui_result_key }): for the selected tab's result, "nothing ..." when
 * nothing is measured, else ask "Save as: " with the default name and say
 * "saved PATH" or "not saved: why". Returns 1 (the key is used). */
int tui_result_key(struct tui *t, void *self, int key);

/* The open key (TUI_KEY_OPEN): "Open a saved WHAT: " (the io kind's what),
 * the file read off the UI thread into the tab that shows its kind, as
 * memtop view FILE would; an unsaved result is asked about first. */
int tui_open_key(struct tui *t, void *self, int key);

/* Before a tab starts measuring: 1 when it may; else says why not (memtop
 * view, or a measurement already running) and returns 0. */
int tui_can_measure(struct tui *t);

/* What an empty tab says: live ("r measures ...") when this memtop
 * measures, else in memtop view what opens a file (opens: the tab has
 * an o key). Never advertises a key that then refuses. */
const char *tui_measure_hint(const struct tui *t, const char *live, int opens);

/* The area needs redrawing (the frame redraws at most ~10 times a second). */
void tui_dirty(struct tui *t);

/* The mountain the Caches side panel reads (NULL: none). The pointer must
 * stay valid until replaced. */
void tui_set_mountain(struct tui *t, const struct mountain *m);

/* The latency result the Caches side panel reads its second detected
 * column from (NULL: none); the panel runs latency_detect() on it at each
 * draw, so a result filling in live needs no further calls. The pointer must
 * stay valid until replaced. */
void tui_set_latency(struct tui *t, const struct latency_result *r);
/* The latency result set with tui_set_latency (the Latency tab's, the one
 * the side panel reads), or NULL: the Mountain tab reads its L1 hit cycles
 * for the loads in flight, and its detected levels are the sizes other
 * tabs (Bandwidth) plan from. */
const struct latency_result *tui_latency(const struct tui *t);

/* This machine's `memtop info`, collected once by the frame at start-up
 * (the machine's: tui_machine). */
const struct info *tui_info(const struct tui *t);

/* This machine as every plan sees it (machine/machine.h), built once at
 * start-up: the tabs plan their runs from it. Never NULL. */
const struct machine *tui_machine(const struct tui *t);

/* Options of this session. */
int tui_view_mode(const struct tui *t);  /* `memtop view`: no measuring */
int tui_quick(const struct tui *t);      /* --quick: the quick grid */
/* What the first screen measures: the quick mountain as a first look (the
 * default), the full grid (--start), or nothing (--idle, memtop view). */
enum tui_start { TUI_START_IDLE, TUI_START_PREVIEW, TUI_START_FULL };
enum tui_start tui_autostart(const struct tui *t);

/* ---- text in whole words ----------------------------------------------- */

/* A space that tui_put and tui_wrap print as a blank but never break a
 * line at: "a" TUI_GLUE "128" keeps a glyph with the name it stands for. */
#define TUI_GLUE "\x1f"

/* Print s at (y, x) in at most width columns, in whole words: when it does
 * not fit, the words that do are printed and the ellipsis glyph marks the
 * cut (a single word wider than width: the ellipsis alone). Never ends
 * inside a word. Uses the window's current attribute. Returns the columns
 * used. */
int tui_put(struct tui *t, WINDOW *w, int y, int x, int width, const char *s);

/* Wrap s over at most lines lines from (y, x), width columns each, breaking
 * between words; when s needs more lines, the last one shown ends with the
 * ellipsis. Returns the lines used. */
int tui_wrap(struct tui *t, WINDOW *w, int y, int x, int width, int lines, const char *s);

/* The lines tui_wrap needs for s in width columns (0 for an empty s). */
int tui_text_height(const char *s, int width);

/* Whose figures a file holds, as one line: its hardware field first (too
 * long, its first whole clauses: text_clauses_fit), then the file's name
 * without its folders in parentheses; no room for a clause: the name
 * alone. Never an ellipsis. Returns the columns used. */
int tui_put_source(struct tui *t, WINDOW *w, int y, int x, int width, const char *hardware,
		   const char *path);

/* ---- colours and glyphs, indexed by meaning --------------------------- */

enum tui_role {
	ROLE_NORMAL,
	ROLE_TITLE,      /* headings */
	ROLE_TAB,        /* tab bar */
	ROLE_TAB_ACTIVE, /* the selected tab */
	ROLE_STATUS,     /* status line */
	ROLE_CURSOR,     /* the cursor cell / selected row */
	ROLE_GOOD,       /* matching, done */
	ROLE_WARN,       /* one step off, diagnostics */
	ROLE_BAD,        /* not visible, failed */
	ROLE_DIM,        /* unmeasured, secondary text */
	ROLE_BAR,        /* bar charts */
	ROLE_MARK,       /* markers (guess mode) */
	ROLE_COUNT
};

/* The attribute for a meaning (colour where there is colour, bold/reverse/
 * underline in monochrome). */
attr_t tui_attr(const struct tui *t, enum tui_role r);

/* Heat scale: frac in [0, 1] (0 coolest/lowest); NAN = unmeasured. The
 * attribute (a palette colour, or A_NORMAL in monochrome) and a glyph whose
 * density rises with frac (" .:+#" in ASCII, " ░▒▓█" in UTF-8; for NAN a
 * blank). Glyph strings are static. */
attr_t tui_heat_attr(const struct tui *t, double frac);
const char *tui_heat_glyph(const struct tui *t, double frac);
/* Levels in the heat palette (legend width). */
int tui_heat_levels(const struct tui *t);
/* A heat legend's strip at w's cursor: each level, coolest first, its
 * glyph in its attribute, twice when twice (a wider strip for a short
 * palette); the attribute is left at the last level's. */
void tui_heat_ramp(const struct tui *t, WINDOW *w, int twice);

enum tui_glyph {
	GL_BLOCK,   /* full block / '#' */
	GL_HLINE,   /* ─ / '-' */
	GL_VLINE,   /* │ / '|' */
	GL_MARK,    /* ▼ / 'v' */
	GL_LEFT,    /* ◀ / '<' */
	GL_RIGHT,   /* ▶ / '>' */
	GL_ELLIPSIS,/* … / '~' */
	GL_TIMES,   /* × / 'x' */
	GL_TL,      /* ┌ / '+': a box's corners, top left ... */
	GL_TR,      /* ┐ / '+' */
	GL_BL,      /* └ / '+' */
	GL_BR,      /* ┘ / '+' */
	GL_COUNT
};
/* The glyph g for t's terminal: UTF-8 or its ASCII stand-in (static). */
const char *tui_glyph(const struct tui *t, enum tui_glyph g);
/* Eighths of a block for bar ends: n in 0..8 (ASCII: ' ' below 4, '#'). */
const char *tui_bar_part(const struct tui *t, int eighths);
int tui_utf8(const struct tui *t);   /* glyphs are UTF-8 */

/* Text from a file for the screen: s made printable (mt_printable; every
 * non-ASCII character '?' too when the terminal is not UTF-8) into buf
 * (size len; a smaller len cuts it with "..."). Returns buf. */
const char *tui_text(const struct tui *t, char *buf, size_t len, const char *s);

/* A file's name in a line that has room columns for it: the path when it
 * fits, else its base name (the part that tells files apart). */
const char *tui_path(const char *path, int room);
int tui_colors(const struct tui *t); /* 0 (monochrome), 8 or 256 */

#endif
