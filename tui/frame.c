/* frame: the TUI's event loop, tab bar, status line, help, prompt, side
 * panel placement, signals and autosave; `memtop` and `memtop view`.
 *
 * One loop polls the terminal, the running job's descriptor and a signal
 * self-pipe. Keys redraw at once; job events mark the screen dirty and the
 * loop redraws at most every 100 ms. Every window is drawn in full into
 * ncurses' buffers and sent with one doupdate(), so the terminal receives
 * only what changed (a cursor move repaints two cells). */
#include "config.h"

#include "internal.h"
#include "core/jsonio.h"
#include "mountain/mountain_json.h"
#include "core/sysinfo.h"
#include "tui.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define CTRL_KEY(c) ((c) & 0x1f)
#define KEY_ESC 27

static struct tui *the_tui;          /* for atexit and the signal handler */
static volatile sig_atomic_t got_signal, got_winch;
static int sig_write_fd = -1;

/* ---- frame services (tab.h) ---------------------------------------------- */

#if defined(__linux__) && defined(CPU_SET)
static cpu_set_t ui_mask; /* the UI thread's CPUs at start-up */
static int ui_mask_ok;
#endif

/* Keep the UI thread off the job's CPU while the job runs (when there are
 * two or more CPUs); ui_pin_restore() gives it its CPUs back, so the next
 * job_pick_cpu() sees them all. Best effort. */
static void pin_ui_away(int job_cpu)
{
#if defined(__linux__) && defined(CPU_SET)
	int cpus[256], n = mt_allowed_cpus(cpus, 256);
	cpu_set_t set;
	if (job_cpu < 0 || n < 2)
		return;
	if (!ui_mask_ok)
		ui_mask_ok = sched_getaffinity(0, sizeof ui_mask, &ui_mask) == 0;
	CPU_ZERO(&set);
	for (int i = 0; i < n; i++)
		if (cpus[i] != job_cpu)
			CPU_SET(cpus[i], &set);
	sched_setaffinity(0, sizeof set, &set);
#else
	(void)job_cpu;
#endif
}

static void ui_pin_restore(void)
{
#if defined(__linux__) && defined(CPU_SET)
	if (ui_mask_ok)
		sched_setaffinity(0, sizeof ui_mask, &ui_mask);
#endif
}

int tui_job_launch(struct tui *t, const struct tab *owner, job_fn fn, void *arg,
		   struct run_header *hdr)
{
	struct job_opts o = { job_pick_cpu(), 0 };
	mt_error e;
	job_t *job;
	if (t->job) {
		tui_message(t, "a measurement is already running (x stops it)");
		return -1;
	}
	if (hdr)
		run_header_init(hdr, o.cpu);
	job = job_start(fn, arg, &o, &e);
	if (!job) {
		tui_message(t, "cannot measure: %s", e.msg);
		return -1;
	}
	t->job = job;
	t->job_owner = owner;
	t->job_hdr = hdr;
	pin_ui_away(o.cpu);
	t->dirty = 1;
	return 0;
}

const struct info *tui_info(const struct tui *t)
{
	return t->have_info ? &t->info : NULL;
}

job_t *tui_job(const struct tui *t)
{
	return t->job;
}

void tui_job_toggle_pause(struct tui *t)
{
	if (!t->job) {
		tui_message(t, "nothing is running");
		return;
	}
	if (job_is_paused(t->job))
		job_resume(t->job);
	else
		job_pause(t->job);
	t->dirty = 1;
}

void tui_set_diag(struct tui *t, const struct diag *d)
{
	t->has_diag = d != NULL;
	if (d)
		t->diag = *d;
	t->dirty = 1;
}

void tui_message(struct tui *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof t->msg, fmt, ap);
	va_end(ap);
	t->dirty = 1;
}

void tui_prompt(struct tui *t, const char *question, const char *initial,
		void (*done)(struct tui *t, const char *answer))
{
	t->prompting = 1;
	mt_strlcpy(t->question, question, sizeof t->question);
	mt_strlcpy(t->answer, initial ? initial : "", sizeof t->answer);
	t->apos = strlen(t->answer);
	t->prompt_done = done;
	t->dirty = 1;
}

void tui_result_name(const struct run_header *h, const char *exp, char *buf, size_t len)
{
	char date[32];
	mt_strlcpy(date, h && h->date[0] ? h->date : "run", sizeof date);
	for (char *c = date; *c; c++)
		if (*c == ' ' || *c == ':')
			*c = '-';
	mt_snprintf(buf, len, "memtop-%s-%s-%s.json", exp, h && h->host[0] ? h->host : "host",
		    date);
}

static void save_answer(struct tui *t, const char *answer)
{
	mt_error e;
	if (!answer || !answer[0] || !t->save_fn)
		return;
	if (t->save_fn(t, answer, &e) < 0)
		tui_message(t, "not saved: %s", e.msg);
	else
		tui_message(t, "saved %s", answer);
}

void tui_save_prompt(struct tui *t, const char *def,
		     int (*save)(struct tui *t, const char *path, mt_error *e))
{
	t->save_fn = save;
	tui_prompt(t, "Save as: ", def, save_answer);
}

int tui_save_path(const char *path, const char *dir, const char *name, char *saved, size_t len,
		  mt_error *e)
{
	if (path) {
		if (mt_strlcpy(saved, path, len) < 0)
			return mt_fail(e, "%s: path too long", path);
		return 0;
	}
	if (mt_snprintf(saved, len, "%s/%s", dir, name) < 0)
		return mt_fail(e, "%s: path too long", dir);
	return 0;
}

/* Write a result tab's result to path (nothing measured: fails with
 * io->nothing); clears its unsaved flag. 0, or -1 with e. */
static int result_save_to(struct tui *t, const struct tab_result_io *io, const char *path,
			  mt_error *e)
{
	cJSON *root;
	int rc;
	(void)t;
	if (!io->measured())
		return mt_fail(e, "%s", io->nothing);
	root = io->to_json();
	if (!root)
		return mt_fail(e, "out of memory");
	rc = jsonio_save(path, root, e);
	cJSON_Delete(root);
	if (rc == 0)
		*io->unsaved = 0;
	return rc;
}

/* tui_save_prompt's callback for tui_result_key: the io it remembered. */
static int result_prompt_save(struct tui *t, const char *path, mt_error *e)
{
	return result_save_to(t, t->save_io, path, e);
}

int tui_result_key(struct tui *t, int key)
{
	const struct tab_result_io *io = t->tabs[t->cur]->result;
	char def[200];
	(void)key;
	if (!io)
		return 0;
	if (!io->measured()) {
		tui_message(t, "%s", io->nothing);
		return 1;
	}
	tui_result_name(io->hdr, io->kind, def, sizeof def);
	t->save_io = io;
	tui_save_prompt(t, def, result_prompt_save);
	return 1;
}

/* A result tab's save(): to path, or into dir under the default name. */
static int result_save(struct tui *t, const struct tab_result_io *io, const char *path,
		       const char *dir, char *saved, size_t len, mt_error *e)
{
	char name[200];
	tui_result_name(io->hdr, io->kind, name, sizeof name);
	if (tui_save_path(path, dir, name, saved, len, e) < 0)
		return -1;
	return result_save_to(t, io, saved, e);
}

/* The tab has results not saved yet. */
static int tab_unsaved(struct tui *t, const struct tab *tb)
{
	if (tb->result)
		return *tb->result->unsaved && tb->result->measured() > 0;
	return tb->unsaved && tb->unsaved(t);
}

/* A result tab's open(): 0 not its kind, -1 with e, 1 taken. */
static int result_open(struct tui *t, const struct tab_result_io *io, const cJSON *root,
		       const char *path, mt_error *e)
{
	if (!io->is(root))
		return 0;
	if (*io->running)
		return mt_fail(e, "%s: %s is in progress", path, io->busy);
	if (io->load(root, path, e) < 0)
		return -1;
	if (io->source[0]) /* one result at a time: say which one shows */
		tui_message(t, "%s shows one file: %s, not %s", io->shows, path, io->source);
	io->take();
	*io->unsaved = 0;
	return 1;
}

int tui_can_measure(struct tui *t)
{
	if (tui_view_mode(t)) {
		tui_message(t, "memtop view does not measure (run memtop for this machine)");
		return 0;
	}
	if (tui_job(t)) {
		tui_message(t, "a measurement is already running (x stops it)");
		return 0;
	}
	return 1;
}

void tui_dirty(struct tui *t)
{
	t->dirty = 1;
}

void tui_set_mountain(struct tui *t, const struct mountain *m)
{
	t->mtn = m;
	t->dirty = 1;
}

void tui_set_latency(struct tui *t, const struct latency_result *r)
{
	t->lat = r;
	t->dirty = 1;
}

int tui_view_mode(const struct tui *t)
{
	return t->view;
}

int tui_quick(const struct tui *t)
{
	return t->quick;
}

int tui_autostart(const struct tui *t)
{
	return t->start;
}

/* ---- layout -------------------------------------------------------------- */

static void drop_windows(struct tui *t)
{
	WINDOW **w[] = { &t->bar, &t->area, &t->side, &t->status };
	for (size_t i = 0; i < MT_ARRAY_LEN(w); i++)
		if (*w[i]) {
			delwin(*w[i]);
			*w[i] = NULL;
		}
}

static int want_status_lines(struct tui *t)
{
	char w[4][160];
	if (t->has_diag && diag_warnings(&t->diag, w, 4) > 0)
		return 2;
	return 1;
}

static void layout(struct tui *t)
{
	int side_w = 0;
	getmaxyx(stdscr, t->lines, t->cols);
	drop_windows(t);
	t->too_small = t->cols < TUI_MIN_COLS || t->lines < TUI_MIN_LINES;
	if (t->too_small)
		return;
	t->status_lines = want_status_lines(t);
	/* auto: from 100 columns; i forces it on or off at any width */
	t->side_shown = !t->help && (t->side_on < 0 ? t->cols >= TUI_SIDE_MIN_COLS : t->side_on);
	if (t->side_shown)
		side_w = TUI_SIDE_W;
	t->bar = newwin(1, t->cols, 0, 0);
	t->area = newwin(t->lines - 1 - t->status_lines, t->cols - side_w, 1, 0);
	if (side_w)
		t->side = newwin(t->lines - 1 - t->status_lines, side_w, 1, t->cols - side_w);
	t->status = newwin(t->status_lines, t->cols, t->lines - t->status_lines, 0);
	if (!t->bar || !t->area || !t->status || (side_w && !t->side)) {
		drop_windows(t);
		t->too_small = 1;
	}
	t->full = 1;
}

/* ---- drawing ------------------------------------------------------------- */

/* The tab bar, fitted to the width: the full form is " memtop  1 Mountain
 * 2 Latency ... ? help  q quit"; when that is too wide the hint goes, then
 * the program name, then the tabs other than the current one shrink to
 * their first letters. View mode always says so. */
static void draw_bar(struct tui *t)
{
	WINDOW *w = t->bar;
	const char *hint = "? help  q quit ";
	const char *prefix = t->view ? " memtop view: " : " memtop ";
	int names = 0, shrink = 99, hint_on = 1;
	for (int i = 0; i < t->ntabs; i++)
		names += (int)strlen(t->tabs[i]->name) + 5;
	if ((int)strlen(prefix) + names + (int)strlen(hint) > t->cols)
		hint_on = 0;
	if ((int)strlen(prefix) + names > t->cols)
		prefix = t->view ? " view: " : " ";
	while (shrink > 1) { /* shrink the other tabs' names until they fit */
		int wsum = (int)strlen(prefix);
		for (int i = 0; i < t->ntabs; i++) {
			int n = (int)strlen(t->tabs[i]->name);
			wsum += (i == t->cur || n <= shrink ? n : shrink) + 5;
		}
		if (wsum <= t->cols)
			break;
		shrink = shrink == 99 ? 8 : shrink - 1;
	}
	wbkgdset(w, ' ' | tui_attr(t, ROLE_TAB));
	werase(w);
	wmove(w, 0, 0);
	wattrset(w, tui_attr(t, ROLE_TAB) | A_BOLD);
	waddstr(w, prefix);
	for (int i = 0; i < t->ntabs; i++) {
		int n = (int)strlen(t->tabs[i]->name);
		if (i != t->cur && n > shrink)
			n = shrink;
		wattrset(w, tui_attr(t, i == t->cur ? ROLE_TAB_ACTIVE : ROLE_TAB));
		t->tab_x[i][0] = getcurx(w);
		wprintw(w, " %c %.*s ", t->tabs[i]->key, n, t->tabs[i]->name);
		t->tab_x[i][1] = getcurx(w);
		wattrset(w, tui_attr(t, ROLE_TAB));
		if (getcurx(w) < t->cols - 1)
			waddstr(w, " ");
	}
	wattrset(w, tui_attr(t, ROLE_TAB));
	if (hint_on) {
		int x = t->cols - (int)strlen(hint);
		if (x > getcurx(w))
			mvwaddstr(w, 0, x, hint);
	}
	wnoutrefresh(w);
}

static void progress_bar(struct tui *t, WINDOW *w, double frac, int width)
{
	int e = (int)(frac * width * 8 + 0.5);
	waddstr(w, "[");
	for (int i = 0; i < width; i++) {
		int part = e - i * 8;
		if (part >= 8)
			waddstr(w, tui_utf8(t) ? tui_bar_part(t, 8) : "#");
		else if (part > 0)
			waddstr(w, tui_utf8(t) ? tui_bar_part(t, part) : (part >= 4 ? "#" : "."));
		else
			waddstr(w, tui_utf8(t) ? " " : ".");
	}
	waddstr(w, "]");
}

static void fmt_secs(char *buf, size_t len, double s)
{
	if (s < 0)
		mt_snprintf(buf, len, "?");
	else if (s < 60)
		mt_snprintf(buf, len, "%.0f s", s);
	else
		mt_snprintf(buf, len, "%d min %02d s", (int)(s / 60), (int)s % 60);
}

static void draw_status(struct tui *t)
{
	WINDOW *w = t->status;
	attr_t a = tui_attr(t, ROLE_STATUS);
	wbkgdset(w, ' ' | a);
	werase(w);
	wattrset(w, a);
	wmove(w, 0, 0);
	if (t->confirm_quit) {
		waddnstr(w, " Unsaved results. Save before quitting? y save, n quit without saving, "
			    "Esc stay", t->cols - 1);
	} else if (t->prompting) {
		char line[512];
		mt_snprintf(line, sizeof line, " %s%s", t->question, t->answer);
		/* keep the end (where the typing is) visible */
		size_t n = strlen(line), room = (size_t)(t->cols > 2 ? t->cols - 2 : 1);
		waddstr(w, n > room ? line + (n - room) : line);
		wattrset(w, a | A_REVERSE);
		waddch(w, ' ');
		wattrset(w, a);
	} else if (t->job) {
		struct job_progress p;
		char eta[32], el[32], line[512];
		job_get_progress(t->job, &p);
		waddch(w, ' ');
		progress_bar(t, w, p.fraction, 20);
		fmt_secs(eta, sizeof eta, p.eta_s);
		fmt_secs(el, sizeof el, p.elapsed_s);
		mt_snprintf(line, sizeof line, " %3.0f%%  %llu/%llu cells  ETA %s  (%s)  CPU %d%s%s%s",
			    p.fraction * 100, (unsigned long long)p.cells_done,
			    (unsigned long long)p.cells_total, eta, el, p.cpu,
			    job_is_paused(t->job) ? "  PAUSED (p resumes)" : "", t->msg[0] ? "  " : "",
			    t->msg);
		waddnstr(w, line, t->cols - getcurx(w) - 1);
	} else if (t->msg[0]) {
		char line[300];
		mt_snprintf(line, sizeof line, " %s", t->msg);
		waddnstr(w, line, t->cols - 1);
	} else {
		char line[300] = " ";
		for (int i = 0; i < t->ntabs; i++)
			mt_append(line, sizeof line, "%c %s  ", t->tabs[i]->key, t->tabs[i]->name);
		mt_append(line, sizeof line, "? help  q quit");
		waddnstr(w, line, t->cols - 1);
	}
	if (t->status_lines > 1) {
		char lines[4][160];
		int n = t->has_diag ? diag_warnings(&t->diag, lines, 4) : 0;
		char line[700] = " warning: ";
		wmove(w, 1, 0);
		wattrset(w, a | A_BOLD);
		for (int i = 0; i < n; i++)
			mt_append(line, sizeof line, "%s%s", i ? "; " : "", lines[i]);
		waddnstr(w, line, t->cols - 1);
	}
	wnoutrefresh(w);
}

/* ---- keys ---------------------------------------------------------------- */

static void select_tab(struct tui *t, int i)
{
	if (i < 0 || i >= t->ntabs || i == t->cur)
		return;
	t->cur = i;
	t->full = 1;
	t->dirty = 1;
}

static int act_tab(struct tui *t, int key)
{
	for (int i = 0; i < t->ntabs; i++)
		if (t->tabs[i]->key == key) {
			select_tab(t, i);
			return 1;
		}
	return 0;
}

static int act_next(struct tui *t, int key)
{
	(void)key;
	select_tab(t, (t->cur + 1) % t->ntabs);
	return 1;
}

static int act_prev(struct tui *t, int key)
{
	(void)key;
	select_tab(t, (t->cur + t->ntabs - 1) % t->ntabs);
	return 1;
}

static int act_help(struct tui *t, int key)
{
	(void)key;
	t->help = !t->help;
	t->help_top = 0;
	layout(t);
	t->dirty = 1;
	return 1;
}

static int any_unsaved(struct tui *t)
{
	for (int i = 0; i < t->ntabs; i++)
		if (tab_unsaved(t, t->tabs[i]))
			return 1;
	return 0;
}

static int act_quit(struct tui *t, int key)
{
	(void)key;
	if (any_unsaved(t)) {
		t->confirm_quit = 1;
		t->dirty = 1;
	} else {
		t->quit = 1;
	}
	return 1;
}

static int act_side(struct tui *t, int key)
{
	(void)key;
	t->side_on = !t->side_shown;
	layout(t);
	return 1;
}

static int act_pause(struct tui *t, int key)
{
	(void)key;
	tui_job_toggle_pause(t);
	return 1;
}

static int act_stop(struct tui *t, int key)
{
	(void)key;
	if (!t->job) {
		tui_message(t, "nothing is running");
		return 1;
	}
	job_cancel(t->job);
	tui_message(t, "stopping: the cells measured so far stay");
	return 1;
}

static int act_redraw(struct tui *t, int key)
{
	(void)key;
	clearok(curscr, TRUE);
	t->full = 1;
	t->dirty = 1;
	return 1;
}

/* The frame's own keys; the help lists them first, then the tab's. */
static const struct keybinding frame_keys[] = {
	{ '1', "1..6", "select a tab by number", act_tab },
	{ '2', NULL, NULL, act_tab },
	{ '3', NULL, NULL, act_tab },
	{ '4', NULL, NULL, act_tab },
	{ '5', NULL, NULL, act_tab },
	{ '6', NULL, NULL, act_tab },
	{ '\t', "Tab", "next tab", act_next },
	{ KEY_BTAB, "Shift-Tab", "previous tab", act_prev },
	{ '?', "? F1", "this help (any key closes it)", act_help },
	{ KEY_F(1), NULL, NULL, act_help },
	{ 'p', "p", "pause or resume the running measurement", act_pause },
	{ 'x', "x", "stop the running measurement (measured cells stay)", act_stop },
	{ 'i', "i", "show or hide the Caches side panel (shown from 100 columns)", act_side },
	{ CTRL_KEY('l'), "Ctrl-L", "redraw the screen", act_redraw },
	{ 'q', "q F10", "quit (asks first when results are unsaved)", act_quit },
	{ KEY_F(10), NULL, NULL, act_quit },
	{ 0, NULL, NULL, NULL },
};

static int run_binding(struct tui *t, const struct keybinding *k, int ch)
{
	for (; k && k->action; k++)
		if (k->key == ch)
			return k->action(t, ch);
	return 0;
}

static void prompt_key(struct tui *t, int ch)
{
	void (*done)(struct tui *, const char *) = t->prompt_done;
	size_t n = strlen(t->answer);
	if (ch == KEY_ESC || ch == CTRL_KEY('g')) {
		t->prompting = 0;
		if (done)
			done(t, NULL);
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		char ans[256];
		mt_strlcpy(ans, t->answer, sizeof ans);
		t->prompting = 0;
		if (done)
			done(t, ans);
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == CTRL_KEY('h')) {
		if (n > 0)
			t->answer[n - 1] = 0;
	} else if (ch == CTRL_KEY('u')) {
		t->answer[0] = 0;
	} else if (ch >= 32 && ch < 127 && n + 1 < sizeof t->answer) {
		t->answer[n] = (char)ch;
		t->answer[n + 1] = 0;
	}
	t->dirty = 1;
}

static void save_all(struct tui *t, const char *dir, FILE *report)
{
	for (int i = 0; i < t->ntabs; i++) {
		const struct tab *tb = t->tabs[i];
		char saved[512];
		mt_error e;
		int rc;
		if (!tab_unsaved(t, tb) || (!tb->save && !tb->result))
			continue;
		if (tb->result)
			rc = result_save(t, tb->result, NULL, dir, saved, sizeof saved, &e);
		else
			rc = tb->save(t, NULL, dir, saved, sizeof saved, &e);
		if (rc == 0) {
			if (report)
				fprintf(report, "memtop: saved the %s results to %s\n", tb->name, saved);
		} else if (report) {
			fprintf(report, "memtop: %s\n", e.msg);
		}
	}
}

static void mouse_event(struct tui *t)
{
	MEVENT me;
	int ay, ax, h, w;
	if (getmouse(&me) != OK)
		return;
	if (!(me.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED)))
		return;
	if (t->too_small || t->help)
		return;
	if (me.y == 0) { /* the tab bar: which label */
		for (int i = 0; i < t->ntabs; i++)
			if (me.x >= t->tab_x[i][0] && me.x < t->tab_x[i][1]) {
				select_tab(t, i);
				return;
			}
		return;
	}
	getbegyx(t->area, ay, ax);
	getmaxyx(t->area, h, w);
	if (me.y >= ay && me.y < ay + h && me.x >= ax && me.x < ax + w &&
	    t->tabs[t->cur]->mouse)
		t->tabs[t->cur]->mouse(t, me.y - ay, me.x - ax);
	t->dirty = 1;
}

static void handle_key(struct tui *t, int ch)
{
	const struct tab *tb = t->tabs[t->cur];
	if (ch == KEY_RESIZE) {
		layout(t);
		t->dirty = 1;
		return;
	}
	if (t->too_small && !t->confirm_quit) {
		if (ch == 'q' || ch == KEY_F(10))
			act_quit(t, ch);
		t->dirty = 1;
		return;
	}
	if (t->confirm_quit) {
		if (ch == 'y' || ch == 'Y') {
			t->confirm_quit = 0;
			t->quit = 2; /* save, then quit */
		} else if (ch == 'n' || ch == 'N') {
			t->quit = 1;
		} else if (ch == KEY_ESC) {
			t->confirm_quit = 0;
		}
		t->dirty = 1;
		return;
	}
	if (t->prompting) {
		prompt_key(t, ch);
		return;
	}
	t->msg[0] = 0;
	t->dirty = 1;
	if (t->help) {
		if (ch == KEY_DOWN || ch == 'j')
			t->help_top++;
		else if ((ch == KEY_UP || ch == 'k') && t->help_top > 0)
			t->help_top--;
		else if (ch == KEY_F(10))
			act_quit(t, ch);
		else
			act_help(t, ch);
		return;
	}
	if (ch == KEY_MOUSE) {
		mouse_event(t);
		return;
	}
	if (run_binding(t, tb->keys, ch))
		return;
	if (tb->handle_key && tb->handle_key(t, ch))
		return;
	if (run_binding(t, frame_keys, ch))
		return;
	if (ch != KEY_ESC)
		tui_message(t, "key %s does nothing here (? lists the keys)", keyname(ch));
}

/* ---- help ---------------------------------------------------------------- */

static int help_rows(struct tui *t, WINDOW *w, int y, int top, const char *title,
		     const struct keybinding *k)
{
	int h = getmaxy(w);
	if (y - top >= 0 && y - top < h) {
		wattrset(w, tui_attr(t, ROLE_TITLE));
		mvwaddstr(w, y - top, 2, title);
	}
	y++;
	for (; k && k->action; k++) {
		if (!k->name)
			continue;
		if (y - top >= 0 && y - top < h) {
			wattrset(w, tui_attr(t, ROLE_GOOD));
			mvwprintw(w, y - top, 4, "%-14s", k->name);
			wattrset(w, tui_attr(t, ROLE_NORMAL));
			if (k->action == act_tab) {
				char line[256] = "select a tab:";
				for (int i = 0; i < t->ntabs; i++)
					mt_append(line, sizeof line, " %c %s", t->tabs[i]->key,
						  t->tabs[i]->name);
				waddnstr(w, line, getmaxx(w) - getcurx(w));
			} else {
				waddnstr(w, k->help, getmaxx(w) - getcurx(w));
			}
		}
		y++;
	}
	return y + 1;
}

static void draw_help(struct tui *t)
{
	WINDOW *w = t->area;
	char title[64];
	int y = 0, h = getmaxy(w);
	werase(w);
	mt_snprintf(title, sizeof title, "%s tab", t->tabs[t->cur]->name);
	y = help_rows(t, w, y, t->help_top, "Everywhere", frame_keys);
	y = help_rows(t, w, y, t->help_top, title, t->tabs[t->cur]->keys);
	if (y - t->help_top > h && h > 0) {
		wattrset(w, tui_attr(t, ROLE_DIM));
		mvwaddstr(w, h - 1, 2, "j/k or arrows scroll; any other key closes the help");
	} else if (t->help_top > 0 && y - t->help_top < h - 2) {
		t->help_top = 0;
	}
	wattrset(w, A_NORMAL);
	wnoutrefresh(w);
}

static void draw(struct tui *t)
{
	if (t->too_small) {
		char m[128];
		erase();
		mt_snprintf(m, sizeof m, "memtop needs %dx%d; this terminal is %dx%d (q quits)",
			    TUI_MIN_COLS, TUI_MIN_LINES, t->cols, t->lines);
		mvaddnstr(0, 0, m, t->cols);
		if (t->confirm_quit)
			mvaddnstr(1, 0, "Unsaved results: y save and quit, n quit, Esc stay", t->cols);
		wnoutrefresh(stdscr);
		doupdate();
		t->last_draw_ns = mt_now_ns();
		t->dirty = 0;
		return;
	}
	if (want_status_lines(t) != t->status_lines)
		layout(t);
	if (t->full) {
		werase(stdscr);
		wnoutrefresh(stdscr);
		werase(t->area);
		if (t->side)
			werase(t->side);
	}
	draw_bar(t);
	if (t->help) {
		draw_help(t);
	} else {
		t->tabs[t->cur]->draw(t, t->area, t->full);
		wattrset(t->area, A_NORMAL);
		wnoutrefresh(t->area);
		if (t->side) {
			side_draw(t, t->side);
			wnoutrefresh(t->side);
		}
	}
	draw_status(t);
	doupdate();
	t->full = 0;
	t->dirty = 0;
	t->last_draw_ns = mt_now_ns();
}

/* ---- job events ---------------------------------------------------------- */

/* The job sent its last event: end it (join), put the after-run
 * diagnostics and its CPU tracking into the header it was launched with,
 * and forget it, so that the owner may launch the next one. */
static void end_job(struct tui *t)
{
	struct job_progress p;
	job_get_progress(t->job, &p);
	job_join(t->job, NULL); /* the last event carried the failure, if any */
	if (t->job_hdr)
		diag_end(&t->job_hdr->diag, &p);
	t->job = NULL;
	t->job_hdr = NULL;
	ui_pin_restore();
}

static void pump_job(struct tui *t)
{
	struct job_event ev[128];
	size_t n;
	while (t->job && (n = job_take(t->job, ev, MT_ARRAY_LEN(ev))) > 0) {
		for (size_t i = 0; i < n; i++) {
			const struct tab *owner = t->job_owner;
			int last = tui_job_last(&ev[i]);
			if (ev[i].type == JOB_EV_NOTE)
				tui_message(t, "%s", ev[i].text);
			if (last) {
				end_job(t);
				t->job_owner = NULL;
			}
			if (owner->job_event)
				owner->job_event(t, &ev[i]);
			if (last)
				break;
		}
		t->dirty = 1;
	}
}

/* Cancel the running job and wait for its last event (the owner ends it).
 * Cancel acts within 100 ms; after 5 s the job is left behind so that
 * quitting never hangs. */
static void stop_job(struct tui *t)
{
	uint64_t t0 = mt_now_ns();
	if (!t->job)
		return;
	job_cancel(t->job);
	while (t->job && mt_now_ns() - t0 < 5000000000ull) {
		struct pollfd p = { job_fd(t->job), POLLIN, 0 };
		poll(&p, 1, 200);
		pump_job(t);
	}
	t->job = NULL;
}

/* ---- signals, autosave, terminal restore --------------------------------- */

static void on_signal(int sig)
{
	int saved = errno;
	unsigned char c = (unsigned char)sig;
	if (sig == SIGWINCH)
		got_winch = 1;
	else
		got_signal = sig;
	if (sig_write_fd >= 0 && write(sig_write_fd, &c, 1) < 0) {
		/* the flag is enough */
	}
	errno = saved;
}

static void restore_terminal(void)
{
	if (the_tui && !isendwin())
		endwin();
}

/* $XDG_DATA_HOME/memtop or ~/.local/share/memtop, created. Returns 0/-1. */
static int autosave_dir(char *buf, size_t len, int create)
{
	const char *x = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	char base[512];
	if (x && x[0] == '/')
		mt_strlcpy(base, x, sizeof base);
	else if (home && home[0])
		mt_snprintf(base, sizeof base, "%s/.local/share", home);
	else
		return -1;
	if (mt_snprintf(buf, len, "%s/memtop", base) < 0)
		return -1;
	if (!create)
		return 0;
	/* mkdir -p base/memtop */
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) < 0 && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

/* The newest *.json in the autosave folder, or -1. */
static int newest_autosave(char *out, size_t len)
{
	char dir[512];
	DIR *d;
	struct dirent *de;
	time_t best = 0;
	int found = -1;
	if (autosave_dir(dir, sizeof dir, 0) < 0 || !(d = opendir(dir)))
		return -1;
	while ((de = readdir(d))) {
		char p[1024];
		struct stat st;
		size_t n = strlen(de->d_name);
		if (n < 6 || strcmp(de->d_name + n - 5, ".json") != 0)
			continue;
		if (mt_snprintf(p, sizeof p, "%s/%s", dir, de->d_name) < 0 || stat(p, &st) < 0)
			continue;
		if (found < 0 || st.st_mtime >= best) {
			best = st.st_mtime;
			mt_strlcpy(out, p, len);
			found = 0;
		}
	}
	closedir(d);
	return found;
}

/* ---- the session --------------------------------------------------------- */

struct tui_opts {
	int view, quick, start, no_mouse, no_color, ascii, autosave;
};

static int locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

static int init_tabs(struct tui *t)
{
	static const struct tab *const all[] = {
#define X(n) &tab_##n,
		TUI_TABS
#undef X
	};
	t->ntabs = 0;
	for (size_t i = 0; i < MT_ARRAY_LEN(all) && t->ntabs < TUI_MAX_TABS; i++) {
		int j;
		if (all[i]->init && all[i]->init(t) < 0)
			continue; /* a tab that cannot work here is not shown */
		for (j = t->ntabs; j > 0 && t->tabs[j - 1]->key > all[i]->key; j--)
			t->tabs[j] = t->tabs[j - 1]; /* keep them in key order */
		t->tabs[j] = all[i];
		t->ntabs++;
	}
	return t->ntabs > 0 ? 0 : -1;
}

static void fini_tabs(struct tui *t)
{
	for (int i = 0; i < t->ntabs; i++)
		if (t->tabs[i]->fini)
			t->tabs[i]->fini(t);
}

/* Offer a file to the tabs. Returns 0, or -1 with e set. */
static int open_file(struct tui *t, const char *path, mt_error *e)
{
	cJSON *root = jsonio_load(path, e);
	int took = 0;
	if (!root)
		return -1;
	for (int i = 0; i < t->ntabs && !took; i++) {
		int r;
		if (t->tabs[i]->result)
			r = result_open(t, t->tabs[i]->result, root, path, e);
		else if (t->tabs[i]->open)
			r = t->tabs[i]->open(t, root, path, e);
		else
			continue;
		if (r < 0) {
			cJSON_Delete(root);
			return -1;
		}
		if (r > 0 && !took)
			t->cur = i;
		took |= r > 0;
	}
	cJSON_Delete(root);
	if (!took)
		return mt_fail(e, "%s: not a result memtop can show (no tab reads it)", path);
	return 0;
}

static int loop(struct tui *t)
{
	while (!t->quit) {
		struct pollfd p[3];
		int np = 0, timeout = -1, ch;
		uint64_t now = mt_now_ns();
		if (got_signal)
			break;
		if (t->dirty) {
			uint64_t since = now - t->last_draw_ns;
			if (!t->job || since >= TUI_FRAME_NS) {
				draw(t);
			} else {
				timeout = (int)((TUI_FRAME_NS - since) / 1000000u) + 1;
			}
		}
		if (t->job && timeout < 0)
			timeout = 500; /* the ETA and elapsed time tick */
		p[np++] = (struct pollfd){ 0, POLLIN, 0 };
		p[np++] = (struct pollfd){ t->sigpipe[0], POLLIN, 0 };
		if (t->job && !t->dirty)
			p[np++] = (struct pollfd){ job_fd(t->job), POLLIN, 0 };
		else if (t->job)
			timeout = timeout < 0 ? 100 : timeout;
		if (poll(p, (nfds_t)np, timeout) < 0 && errno != EINTR)
			return -1;
		if (p[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			got_signal = SIGHUP; /* the terminal went away: save and go */
		if (got_signal)
			break;
		if (p[1].revents & POLLIN) { /* drain the self-pipe */
			char buf[64];
			while (read(t->sigpipe[0], buf, sizeof buf) > 0)
				;
		}
		if (got_winch) { /* our own SIGWINCH: poll() never misses it */
			struct winsize ws;
			got_winch = 0;
			if (ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
				resizeterm(ws.ws_row, ws.ws_col);
			handle_key(t, KEY_RESIZE);
		}
		while ((ch = getch()) != ERR) {
			handle_key(t, ch);
			if (t->quit || t->prompting || t->confirm_quit)
				break;
		}
		/* keys redraw at once (a cursor move is two cells) */
		if (t->dirty && !t->quit && (!t->job || mt_now_ns() - t->last_draw_ns >= 20000000u))
			draw(t);
		if (t->job)
			pump_job(t);
		if (t->job && !t->dirty) {
			/* progress line: redraw once per tick even without cells */
			if (mt_now_ns() - t->last_draw_ns >= 500000000u)
				t->dirty = 1;
		}
	}
	return 0;
}

static int session(struct tui_opts *o, int nfiles, char **files)
{
	static struct tui tui;
	struct tui *t = &tui;
	struct sigaction sa;
	char path[1024];
	mt_error e;
	int rc = MT_EXIT_OK, first = -1;

	memset(t, 0, sizeof *t);
	t->view = o->view;
	t->quick = o->quick;
	t->start = o->start && !o->view;
	t->mouse = !o->no_mouse;
	t->no_color = o->no_color || (getenv("NO_COLOR") && getenv("NO_COLOR")[0]);
	t->side_on = -1; /* auto */
	setlocale(LC_ALL, "");
	t->utf8 = !o->ascii && locale_utf8();
	t->ascii = !t->utf8;
	if (info_collect(&t->info, &e) == 0)
		t->have_info = 1;
	if (init_tabs(t) < 0) {
		mt_warn("no tab can run here");
		return MT_EXIT_RUNTIME;
	}
	if (o->view) {
		if (o->autosave) {
			if (newest_autosave(path, sizeof path) < 0) {
				mt_warn("view: no autosave found");
				rc = MT_EXIT_USAGE;
				goto out_tabs;
			}
			if (open_file(t, path, &e) < 0)
				goto bad_file;
			first = t->cur;
		}
		for (int i = 0; i < nfiles; i++) {
			if (open_file(t, files[i], &e) < 0)
				goto bad_file;
			if (first < 0)
				first = t->cur;
		}
		if (nfiles == 0 && !o->autosave) {
			if (!mountain_reference_path(path, sizeof path)) {
				mt_warn("view: the bundled reference data/m4max.json is not installed "
					"(set MEMTOP_DATA to its folder)");
				rc = MT_EXIT_RUNTIME;
				goto out_tabs;
			}
			if (open_file(t, path, &e) < 0)
				goto bad_file;
			/* a run a signal interrupted is one flag away: say so */
			if (newest_autosave(path, sizeof path) == 0)
				tui_message(t, "an autosave is waiting: memtop view --autosave opens %s",
					    path);
		}
		/* the tab of the first file opened (an autosave's, else FILE's) */
		t->cur = first >= 0 ? first : 0;
	}
	if (!isatty(0) || !isatty(1)) {
		mt_warn("the terminal UI needs a terminal (use memtop run for batch mode)");
		rc = MT_EXIT_RUNTIME;
		goto out_tabs;
	}

	/* signals: a flag and a byte in the self-pipe; the loop saves and exits */
	if (pipe(t->sigpipe) < 0) {
		mt_warn("pipe: %s", strerror(errno));
		rc = MT_EXIT_RUNTIME;
		goto out_tabs;
	}
	fcntl(t->sigpipe[0], F_SETFL, O_NONBLOCK);
	fcntl(t->sigpipe[1], F_SETFL, O_NONBLOCK);
	fcntl(t->sigpipe[0], F_SETFD, FD_CLOEXEC);
	fcntl(t->sigpipe[1], F_SETFD, FD_CLOEXEC);
	sig_write_fd = t->sigpipe[1];
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGWINCH, &sa, NULL); /* before initscr: ncurses then leaves it to us */

	the_tui = t;
	atexit(restore_terminal);
	if (!initscr()) {
		mt_warn("cannot start the terminal UI (TERM=%s)", getenv("TERM") ? getenv("TERM") : "");
		rc = MT_EXIT_RUNTIME;
		goto out_pipe;
	}
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	look_init(t);
	if (t->mouse)
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	mouseinterval(0);
	wnoutrefresh(stdscr);
	layout(t);
	t->dirty = 1;

	if (loop(t) < 0)
		rc = MT_EXIT_RUNTIME;
	stop_job(t);
	if (got_signal) {
		char dir[512];
		endwin();
		if (autosave_dir(dir, sizeof dir, 1) == 0)
			save_all(t, dir, stderr);
		else
			fprintf(stderr, "memtop: no folder for the autosave (HOME unset)\n");
		fprintf(stderr, "memtop: %s; `memtop view --autosave` opens the autosave\n",
			strsignal(got_signal));
		rc = MT_EXIT_RUNTIME;
	} else {
		endwin();
		if (t->quit == 2)
			save_all(t, ".", stdout);
	}
	drop_windows(t);
out_pipe:
	sig_write_fd = -1;
	close(t->sigpipe[0]);
	close(t->sigpipe[1]);
out_tabs:
	fini_tabs(t);
	return rc;
bad_file:
	mt_warn("view: %s", e.msg);
	fini_tabs(t);
	return MT_EXIT_USAGE;
}

static void usage_tui(FILE *f)
{
	fprintf(f, "Usage: memtop [--start] [--quick] [--no-mouse] [--no-color] [--ascii]\n"
		   "The terminal UI: measure this machine's memory mountain and read it.\n\n"
		   "  --start     begin measuring at once\n"
		   "  --quick     small runs in every tab (the mountain: 16K..8M, strides 1..8)\n"
		   "  --no-mouse  leave the mouse to the terminal (copy and paste over SSH)\n"
		   "  --no-color  no colours (also NO_COLOR=1); cells differ in glyph density\n"
		   "  --ascii     ASCII glyphs only (the default when the locale is not UTF-8)\n"
		   "  -h, --help  this help\n\n"
		   "Inside, ? lists every key. See memtop(1).\n");
}

static void usage_view(FILE *f)
{
	fprintf(f, "Usage: memtop view [--autosave] [--no-mouse] [--no-color] [--ascii] "
		   "[FILE.json...]\n"
		   "The terminal UI over saved runs, no measuring. With no file it opens the\n"
		   "bundled reference (the seed's Apple M4 Max mountain, data/m4max.json).\n\n"
		   "  --autosave  open the newest autosave (saved when memtop was killed)\n"
		   "  --no-mouse, --no-color, --ascii  as for memtop\n"
		   "  -h, --help  this help\n");
}

static int parse(int argc, char **argv, struct tui_opts *o, int view)
{
	static const struct option lo[] = {
		{ "start", no_argument, NULL, 's' },     { "quick", no_argument, NULL, 'Q' },
		{ "no-mouse", no_argument, NULL, 'M' },  { "no-color", no_argument, NULL, 'C' },
		{ "no-colour", no_argument, NULL, 'C' }, { "ascii", no_argument, NULL, 'A' },
		{ "autosave", no_argument, NULL, 'a' },  { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	memset(o, 0, sizeof *o);
	o->view = view;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 's': o->start = 1; break;
		case 'Q': o->quick = 1; break;
		case 'M': o->no_mouse = 1; break;
		case 'C': o->no_color = 1; break;
		case 'A': o->ascii = 1; break;
		case 'a': o->autosave = 1; break;
		case 'h':
			(view ? usage_view : usage_tui)(stdout);
			return 1;
		default:
			mt_warn("%sunknown option '%s' (see memtop %s--help)", view ? "view: " : "",
				argv[optind - 1], view ? "view " : "");
			return -1;
		}
		if ((c == 's' || c == 'Q' || c == 'a') && view != (c == 'a')) {
			mt_warn("%s%s is not an option here", view ? "view: " : "", argv[optind - 1]);
			return -1;
		}
	}
	return 0;
}

int cmd_tui(int argc, char **argv)
{
	struct tui_opts o;
	int r = parse(argc, argv, &o, 0);
	if (r)
		return r > 0 ? MT_EXIT_OK : MT_EXIT_USAGE;
	if (optind < argc) {
		mt_warn("unexpected argument '%s' (see memtop --help)", argv[optind]);
		return MT_EXIT_USAGE;
	}
	return session(&o, 0, NULL);
}

int cmd_view(int argc, char **argv)
{
	struct tui_opts o;
	int r = parse(argc, argv, &o, 1);
	if (r)
		return r > 0 ? MT_EXIT_OK : MT_EXIT_USAGE;
	return session(&o, argc - optind, argv + optind);
}
