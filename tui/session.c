/* session: `memtop` and `memtop view`: options, the tabs' start and end,
 * signals (a flag and a byte in a self-pipe), curses start and the
 * terminal's restore, the event loop (poll on the terminal, the running
 * job and the signal pipe), and the autosave on the way out. */
#include "config.h"

#include "internal.h"
#include "os/datadir.h"
#include "os/platform.h"
#include "run/batch.h"
#include "tui.h"

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static struct tui *the_tui;          /* for atexit and the signal handler */
static volatile sig_atomic_t got_signal, got_winch;
static int sig_write_fd = -1;

struct tui_opts {
	int view, quick, start, idle, no_mouse, no_color, ascii, autosave;
};

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

static int locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

/* A tab's place in the bar: its key's digit, 0 after 9 (the tenth, as on
 * a keyboard's row). */
static int tab_order(const struct tab *tb)
{
	return tb->key == '0' ? 10 : tb->key - '0';
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
		struct tab_slot *sl = &t->slot[t->ntabs];
		int j;
		sl->tab = all[i];
		if (all[i]->state_size && !(sl->self = calloc(1, all[i]->state_size))) {
			memset(sl, 0, sizeof *sl);
			continue; /* out of memory: the tab is not shown */
		}
		if (all[i]->init && all[i]->init(t, sl->self) < 0) {
			free(sl->self); /* a tab that cannot work here is not shown */
			memset(sl, 0, sizeof *sl);
			continue;
		}
		for (j = t->ntabs; j > 0 && tab_order(t->tabs[j - 1]) > tab_order(all[i]); j--)
			t->tabs[j] = t->tabs[j - 1]; /* keep them in key order, 0 last */
		t->tabs[j] = all[i];
		t->ntabs++;
	}
	return t->ntabs > 0 ? 0 : -1;
}

static void fini_tabs(struct tui *t)
{
	for (int i = 0; i < t->ntabs; i++)
		if (t->tabs[i]->fini)
			t->tabs[i]->fini(t, tui_tab_self(t, t->tabs[i]));
	for (int i = 0; i < TUI_MAX_TABS; i++) {
		free(t->slot[i].self);
		memset(&t->slot[i], 0, sizeof t->slot[i]);
	}
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
				frame_draw(t);
			} else {
				timeout = (int)((TUI_FRAME_NS - since) / 1000000u) + 1;
			}
		}
		if (t->job && timeout < 0)
			timeout = TUI_TICK_MS; /* the ETA and elapsed time tick */
		p[np++] = (struct pollfd){ 0, POLLIN, 0 };
		p[np++] = (struct pollfd){ t->sigpipe[0], POLLIN, 0 };
		if (t->job && !t->dirty)
			p[np++] = (struct pollfd){ job_fd(t->job), POLLIN, 0 };
		else if (t->job)
			timeout = timeout < 0 ? (int)(TUI_FRAME_NS / 1000000u) : timeout;
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
		saving_reap(t); /* a save written off this thread has ended */
		loading_reap(t); /* a file read off this thread: to its tab */
		if (got_winch) { /* our own SIGWINCH: poll() never misses it */
			struct winsize ws;
			got_winch = 0;
			if (ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
				resizeterm(ws.ws_row, ws.ws_col);
			keys_handle(t, KEY_RESIZE);
		}
		while ((ch = getch()) != ERR) {
			keys_handle(t, ch);
			if (t->quit || t->prompting || t->asking)
				break;
		}
		/* keys redraw at once (a cursor move is two cells) */
		if (t->dirty && !t->quit && (!t->job || mt_now_ns() - t->last_draw_ns >= TUI_KEY_FRAME_NS))
			frame_draw(t);
		if (t->job)
			jobs_pump(t);
		if (t->job && !t->dirty) {
			/* progress line: redraw once per tick even without cells */
			if (mt_now_ns() - t->last_draw_ns >= TUI_TICK_MS * 1000000ull)
				t->dirty = 1;
		}
	}
	return 0;
}

/* The session's options into t (NO_COLOR, the locale's UTF-8). */
static void set_options(struct tui *t, const struct tui_opts *o)
{
	memset(t, 0, sizeof *t);
	t->view = o->view;
	t->quick = o->quick;
	/* the first screen measures: a first look at the quick mountain, the
	 * full grid with --start, nothing with --idle or in memtop view */
	t->start = o->view || o->idle ? TUI_START_IDLE
		   : o->start	     ? TUI_START_FULL
				     : TUI_START_PREVIEW;
	t->mouse = !o->no_mouse;
	t->no_color = o->no_color || (getenv("NO_COLOR") && getenv("NO_COLOR")[0]);
	t->side_on = -1; /* auto */
	/* the locale was set once by main (mt_i18n_init: LC_NUMERIC stays "C") */
	t->utf8 = !o->ascii && locale_utf8();
	t->ascii = !t->utf8;
}

/* memtop view with no file: every lesson's numbers without a measuring
 * machine, each labelled as the seed's (their "hardware" says so): the M4
 * Max mountain (seed 000) and lab results (seed 003). */
static const char *const bundled[] = {
	"m4max.json", "ref/matmul-m4max.json", "ref/falseshare-m4max.json", "ref/lists-m4max.json",
};

/* Open the bundled references; the mountain must be there, a lab file that
 * is not installed is left out. Returns 0, or -1 with e. */
static int open_bundled(struct tui *t, mt_error *e)
{
	char path[1024];
	if (!mt_data_path(bundled[0], path, sizeof path))
		return mt_fail(e, _("the bundled reference data/%s is not installed (set MEMTOP_DATA "
				    "to its folder)"), bundled[0]);
	if (files_open(t, path, e) < 0)
		return -1;
	for (size_t i = 1; i < MT_ARRAY_LEN(bundled); i++)
		if (mt_data_path(bundled[i], path, sizeof path) && files_open(t, path, e) < 0)
			return -1;
	return 0;
}

/* memtop view: the newest autosave (--autosave), then the files, or the
 * bundled references when there are none; the tab of the first one opened
 * becomes the current one. Returns 0, or an exit code with the line said. */
static int open_view_files(struct tui *t, const struct tui_opts *o, int nfiles, char **files)
{
	char path[MT_PATH_MAX];
	mt_error e;
	int first = -1;
	if (o->autosave) {
		if (files_newest_autosave(path, sizeof path) < 0) {
			mt_warn("%s", _("view: no autosave found"));
			return MT_EXIT_USAGE;
		}
		if (files_open(t, path, &e) < 0)
			goto bad_file;
		first = t->cur;
	}
	for (int i = 0; i < nfiles; i++) {
		if (files_open(t, files[i], &e) < 0)
			goto bad_file;
		if (first < 0)
			first = t->cur;
	}
	if (nfiles == 0 && !o->autosave) {
		if (open_bundled(t, &e) < 0)
			goto bad_file;
		/* a run a signal interrupted is one flag away: say so */
		if (files_newest_autosave(path, sizeof path) == 0) {
			tui_message(t, _("an autosave is waiting: memtop view --autosave opens %s"),
				    mt_basename(path));
		}
	}
	t->cur = first >= 0 ? first : 0;
	return 0;
bad_file:
	mt_warn(_("view: %s"), e.msg);
	return MT_EXIT_USAGE;
}

/* SIGINT, SIGTERM, SIGHUP: a flag and a byte in the self-pipe (the loop
 * saves and exits); SIGWINCH likewise, installed before initscr so that
 * ncurses leaves it to us. Returns 0, or -1 (said). */
static int install_signals(struct tui *t)
{
	struct sigaction sa;
	if (pipe(t->sigpipe) < 0) {
		mt_warn(_("pipe: %s"), strerror(errno));
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(t->sigpipe[i], F_SETFL, O_NONBLOCK);
		fcntl(t->sigpipe[i], F_SETFD, FD_CLOEXEC);
	}
	sig_write_fd = t->sigpipe[1];
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGWINCH, &sa, NULL);
	return 0;
}

static void remove_signal_pipe(struct tui *t)
{
	sig_write_fd = -1;
	close(t->sigpipe[0]);
	close(t->sigpipe[1]);
}

/* Curses on, with the terminal restored at exit whatever happens. Returns
 * 0, or -1 (said). */
static int start_curses(struct tui *t)
{
	the_tui = t;
	atexit(restore_terminal);
	if (!initscr()) {
		mt_warn(_("cannot start the terminal UI (TERM=%s)"), getenv("TERM") ? getenv("TERM") : "");
		return -1;
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
	frame_layout(t);
	t->dirty = 1;
	return 0;
}

/* After the loop: stop the job, leave curses, wait for the files still
 * being read (a second at most: then abandoned) and the saves still being
 * written (saving_finish), end their threads, and save what is unsaved:
 * into the autosave folder after a signal (exit code 1), or into the
 * current folder when the user said so on quitting. Returns the exit
 * code. */
static int finish(struct tui *t, int rc)
{
	uint64_t since;
	jobs_stop(t);
	endwin();
	since = mt_now_ns(); /* the reads' and the saves' waits run together */
	loading_finish(t, stderr, since);
	saving_finish(t, stderr, since);
	filework_end(t);
	if (got_signal) {
		char dir[512];
		int saved = 0, failed = 0;
		if (files_autosave_dir(dir, sizeof dir, 1) == 0)
			saved = files_save_all(t, dir, stderr, &failed);
		else
			fprintf(stderr, _("memtop: no folder for the autosave (%s)\n"),
				getenv("HOME") ? MT_PRINTABLE(strerror(errno)) : _("HOME unset"));
		/* say what happened: an autosave that failed is not one to open */
		if (saved)
			fprintf(stderr, _("memtop: %s; `memtop view --autosave` opens the autosave\n"),
				strsignal(got_signal));
		else if (failed)
			fprintf(stderr, _("memtop: %s; nothing could be autosaved\n"),
				strsignal(got_signal));
		else
			fprintf(stderr, _("memtop: %s; nothing was unsaved\n"), strsignal(got_signal));
		rc = MT_EXIT_RUNTIME;
	} else if (t->quit == 2) {
		int failed;
		files_save_all(t, ".", stdout, &failed);
	}
	frame_drop_windows(t);
	return rc;
}

static int session(struct tui_opts *o, int nfiles, char **files)
{
	static struct tui tui;
	struct tui *t = &tui;
	int rc = MT_EXIT_OK;

	set_options(t, o);
	mt_plat_heap_long_lived(); /* a session runs many jobs: their buffers go back when freed */
	t->machine = machine_this(); /* built once: every tab plans from it */
	t->have_info = 1;
	if (init_tabs(t) < 0) {
		mt_warn("%s", _("no tab can run here"));
		return MT_EXIT_RUNTIME;
	}
	if (o->view && (rc = open_view_files(t, o, nfiles, files)) != 0)
		goto out_tabs;
	if (!isatty(0) || !isatty(1)) {
		mt_warn("%s", _("the terminal UI needs a terminal (use memtop run for batch mode)"));
		rc = MT_EXIT_RUNTIME;
		goto out_tabs;
	}
	if (install_signals(t) < 0) {
		rc = MT_EXIT_RUNTIME;
		goto out_tabs;
	}
	if (start_curses(t) < 0) {
		rc = MT_EXIT_RUNTIME;
		goto out_pipe;
	}
	rc = finish(t, loop(t) < 0 ? MT_EXIT_RUNTIME : MT_EXIT_OK);
out_pipe:
	remove_signal_pipe(t);
out_tabs:
	fini_tabs(t);
	return rc;
}

/* How the screen is drawn: memtop's and memtop view's options alike. */
#define TUI_DISPLAY_OPTIONS                                                                \
	{ "no-mouse", 'M', NULL, N_("leave the mouse to the terminal (copy and paste over SSH)") }, \
	{ "no-color", 'C', NULL, N_("no colours (also NO_COLOR=1); cells differ in glyph density") }, \
	{ "no-colour", 'C', NULL, NULL },                                                  \
	{ "ascii", 'A', NULL, N_("ASCII glyphs only (the default when the locale is not UTF-8)") }

const struct batch_option tui_options[] = {
	{ "idle", 'I', NULL, N_("open without measuring (r starts when you are ready)") },
	{ "start", 's', NULL, N_("begin with the full grid instead of the first look") },
	{ "quick", 'Q', NULL, N_("small runs in every tab (r measures the quick mountain too)") },
	TUI_DISPLAY_OPTIONS,
	BATCH_HELP_HELP,
	BATCH_END,
};

const struct batch_option tui_view_options[] = {
	{ "autosave", 'a', NULL, N_("open the newest autosave (saved when memtop was killed)") },
	TUI_DISPLAY_OPTIONS,
	BATCH_HELP_HELP,
	BATCH_END,
};

static const struct batch_help help_tui = {
	.head = N_("Usage: memtop [--idle | --start] [--quick] [--no-mouse] [--no-color] [--ascii]\n"
		   "The terminal UI: measure this machine's memory mountain and read it.\n"
		   "It starts with a first look: the quick mountain (16K..8M, strides 1, 2, 4, 8,\n"
		   "about a second), then r measures the full grid (16K..128M, strides 1..15).\n\n"),
	.opts = tui_options,
	.col = 14,
	.tail = N_("\nInside, ? lists every key. See memtop(1).\n"),
};

static const struct batch_help help_view = {
	.head = N_("Usage: memtop view [--autosave] [--no-mouse] [--no-color] [--ascii] "
		   "[FILE.json...]\n"
		   "The terminal UI over saved runs, no measuring. With no file it opens the\n"
		   "bundled references: the seed's Apple M4 Max mountain (data/m4max.json) and\n"
		   "its matmul, false sharing and lists figures (data/ref/*-m4max.json).\n\n"),
	.opts = tui_view_options,
	.col = 14,
};

static int parse(int argc, char **argv, struct tui_opts *o, int view)
{
	struct batch_cmd c;
	int ch;
	memset(o, 0, sizeof *o);
	o->view = view;
	batch_cmd_init(&c, view ? "view" : "", view ? &help_view : &help_tui);
	while ((ch = batch_cmd_next(&c, argc, argv)) > 0) {
		switch (ch) {
		case 's': o->start = 1; break;
		case 'I': o->idle = 1; break;
		case 'Q': o->quick = 1; break;
		case 'M': o->no_mouse = 1; break;
		case 'C': o->no_color = 1; break;
		case 'A': o->ascii = 1; break;
		default: o->autosave = 1; break; /* 'a' */
		}
	}
	if (ch < 0)
		return c.rc == MT_EXIT_OK ? 1 : -1;
	if (o->idle && o->start) {
		mt_warn("%s", _("--idle and --start contradict each other (see memtop --help)"));
		return -1;
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
		mt_warn(_("unexpected argument '%s' (see memtop --help)"), argv[optind]);
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
