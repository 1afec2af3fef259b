/* keys: the frame's keys[] table, which binds the keys and writes the help
 * screen (the tab's own table follows it there), key dispatch (prompt,
 * quit confirmation, help, mouse, tab keys, frame keys) and the help. */
#include "config.h"

#include "internal.h"
#include "model.h"
#include "os/topo.h"
#include "run/job.h"

#include <string.h>

#define CTRL_KEY(c) ((c) & 0x1f)
#define KEY_ESC 27

static void select_tab(struct tui *t, int i)
{
	if (i < 0 || i >= t->ntabs || i == t->cur)
		return;
	t->cur = i;
	t->full = 1;
	t->dirty = 1;
}

int tui_measure_part(struct tui *t, const struct tab *tab, const struct tab_part *part)
{
	if (!tui_can_measure(t))
		return 1;
	for (int i = 0; i < t->ntabs; i++)
		if (t->tabs[i] == tab)
			select_tab(t, i);
	if (t->tabs[t->cur] != tab || !tab->measure) {
		tui_message(t, _("the %s tab does not measure a part of the machine"), _(tab->name));
		return 1;
	}
	tab->measure(t, tui_tab_self(t, tab), part);
	return 1;
}

static int act_tab(struct tui *t, void *self, int key)
{
	(void)self;
	for (int i = 0; i < t->ntabs; i++)
		if (t->tabs[i]->key == key) {
			select_tab(t, i);
			return 1;
		}
	return 0;
}

static int act_next(struct tui *t, void *self, int key)
{
	(void)self;
	(void)key;
	select_tab(t, (t->cur + 1) % t->ntabs);
	return 1;
}

static int act_prev(struct tui *t, void *self, int key)
{
	(void)self;
	(void)key;
	select_tab(t, (t->cur + t->ntabs - 1) % t->ntabs);
	return 1;
}

static int act_help(struct tui *t, void *self, int key)
{
	(void)self;
	(void)key;
	t->help = !t->help;
	t->help_top = 0;
	frame_layout(t);
	t->dirty = 1;
	return 1;
}

/* The answer to "Save before quitting?": y saves and quits, n quits, Esc
 * stays. */
static void quit_answer(struct tui *t, void *self, int key)
{
	(void)self;
	if (key == 'y')
		t->quit = 2; /* save, then quit */
	else if (key == 'n')
		t->quit = 1;
}

static int act_quit(struct tui *t, void *self, int key)
{
	(void)self;
	(void)key;
	if (files_any_unsaved(t))
		tui_ask(t, NULL, _(TUI_QUIT_QUESTION), quit_answer);
	else
		t->quit = 1;
	return 1;
}

int tui_act_coretype(struct tui *t, void *self, int key)
{
	const struct topo *tp = topo_this_machine();
	int k, cpu;
	(void)self;
	(void)key;
	if (!tp || tp->ncoretypes < 2) {
		tui_message(t, "%s", _("this machine has one core kind: runs measure on it"));
		return 1;
	}
	for (int step = 1; step < tp->ncoretypes; step++) {
		k = (job_coretype() + step) % tp->ncoretypes;
		cpu = job_pick_cpu_of_coretype(k);
		if (cpu >= 0 && job_set_coretype(k) == 0) {
			if (k == 0)
				tui_message(t, _("the next runs measure on core kind %s (CPU %d), the fastest"),
					    tp->coretypes[k].name, cpu);
			else
				tui_message(t, _("the next runs measure on core kind %s (CPU %d)"),
					    tp->coretypes[k].name, cpu);
			return 1;
		}
	}
	tui_message(t, "%s", _("no other core kind has a CPU memtop may use (see taskset -p)"));
	return 1;
}

static int act_side(struct tui *t, void *self, int key)
{
	(void)self;
	(void)key;
	t->side_on = !t->side_shown;
	frame_layout(t);
	return 1;
}

static int act_pause(struct tui *t, void *self, int key)
{
	(void)self;
	(void)key;
	tui_job_toggle_pause(t);
	return 1;
}

static int act_stop(struct tui *t, void *self, int key)
{
	(void)self;
	(void)key;
	if (!t->job) {
		tui_message(t, "%s", _("nothing is running"));
		return 1;
	}
	job_cancel(t->job);
	tui_message(t, "%s", _("stopping: the cells measured so far stay"));
	return 1;
}

static int act_redraw(struct tui *t, void *self, int key)
{
	(void)self;
	(void)key;
	clearok(curscr, TRUE);
	t->full = 1;
	t->dirty = 1;
	return 1;
}

/* The frame's own keys; the help lists them first, then the tab's. */
static const struct keybinding frame_keys[] = {
	{ '1', "1..9 0", N_("select a tab by number (0: the tenth)"), act_tab },
	{ '2', NULL, NULL, act_tab },
	{ '3', NULL, NULL, act_tab },
	{ '4', NULL, NULL, act_tab },
	{ '5', NULL, NULL, act_tab },
	{ '6', NULL, NULL, act_tab },
	{ '7', NULL, NULL, act_tab },
	{ '8', NULL, NULL, act_tab },
	{ '9', NULL, NULL, act_tab },
	{ '0', NULL, NULL, act_tab },
	{ '\t', "Tab", N_("next tab"), act_next },
	{ KEY_BTAB, "Shift-Tab", N_("previous tab"), act_prev },
	{ '?', "? F1", N_("this help (arrows, j/k, PgUp/PgDn scroll; other keys close)"), act_help },
	{ KEY_F(1), NULL, NULL, act_help },
	{ 'p', "p", N_("pause or resume the running measurement"), act_pause },
	{ 'x', "x", N_("stop the running measurement (measured cells stay)"), act_stop },
	{ 'i', "i", N_("show or hide the Caches side panel (shown from 100 columns)"), act_side },
	{ CTRL_KEY('l'), "Ctrl-L", N_("redraw the screen"), act_redraw },
	{ 'q', "q F10", N_("quit (asks first when results are unsaved)"), act_quit },
	{ KEY_F(10), NULL, NULL, act_quit },
	{ 0, NULL, NULL, NULL },
};

/* A keys[] row as it binds and helps: its own key, name and help, or its
 * knob's (the knob's key names itself: "o", in name[2]). The table ends at
 * the row with neither an action nor a knob. */
static int row_key(const struct keybinding *k)
{
	return k->knob ? k->knob->key : k->key;
}

static const char *row_name(const struct keybinding *k, char name[2])
{
	if (!k->knob)
		return k->name ? _(k->name) : NULL;
	name[0] = (char)k->knob->key;
	name[1] = '\0';
	return name;
}

static int row_last(const struct keybinding *k)
{
	return !k || (!k->action && !k->knob);
}

static int run_binding(struct tui *t, void *self, const struct keybinding *k, int ch)
{
	for (; !row_last(k); k++)
		if (row_key(k) == ch)
			return k->knob ? knobs_ask(t, self, k->knob) : k->action(t, self, ch);
	return 0;
}

static void prompt_key(struct tui *t, int ch)
{
	void (*done)(struct tui *, void *, const char *) = t->prompt_done;
	size_t n = strlen(t->answer);
	if (ch == KEY_ESC || ch == CTRL_KEY('g')) {
		t->prompting = 0;
		if (done)
			done(t, t->prompt_self, NULL);
	} else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
		char ans[256];
		mt_strlcpy(ans, t->answer, sizeof ans);
		t->prompting = 0;
		if (done)
			done(t, t->prompt_self, ans);
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
		t->tabs[t->cur]->mouse(t, tui_tab_self(t, t->tabs[t->cur]), me.y - ay, me.x - ax);
	t->dirty = 1;
}

/* A key as the help screen and a user name it ("End", "PgDn", "F7",
 * "Ctrl-X", "'z'"), never curses' KEY_END. Returns buf. */
static const char *key_words(int ch, char *buf, size_t len)
{
	static const struct {
		int key;
		const char *name;
	} named[] = {
		{ KEY_HOME, "Home" },	 { KEY_END, "End" },	   { KEY_PPAGE, "PgUp" },
		{ KEY_NPAGE, "PgDn" },	 { KEY_IC, "Insert" },	   { KEY_DC, "Delete" },
		{ KEY_BACKSPACE, "Backspace" }, { KEY_ENTER, "Enter" }, { KEY_BTAB, "Shift-Tab" },
		{ KEY_UP, N_("Up") },	 { KEY_DOWN, N_("Down") },	   { KEY_LEFT, N_("Left") },
		{ KEY_RIGHT, N_("Right") },	 { KEY_SLEFT, "Shift-Left" }, { KEY_SRIGHT, "Shift-Right" },
		{ '\t', "Tab" },	 { '\n', "Enter" },	   { '\r', "Enter" },
		{ ' ', N_("Space") },	 { 127, "Backspace" },
	};
	for (size_t i = 0; i < MT_ARRAY_LEN(named); i++)
		if (named[i].key == ch) {
			mt_strlcpy(buf, _(named[i].name), len);
			return buf;
		}
	if (ch >= KEY_F(1) && ch <= KEY_F(24))
		mt_snprintf(buf, len, "F%d", ch - KEY_F(0));
	else if (ch > 0 && ch < 32)
		mt_snprintf(buf, len, "Ctrl-%c", '@' + ch);
	else if (ch > 32 && ch < 127)
		mt_snprintf(buf, len, "'%c'", ch);
	else
		mt_snprintf(buf, len, _("key %d"), ch);
	return buf;
}

void keys_handle(struct tui *t, int ch)
{
	char name[32];
	const struct tab *tb = t->tabs[t->cur];
	void *self = tui_tab_self(t, tb);
	if (ch == KEY_RESIZE) {
		frame_layout(t);
		t->dirty = 1;
		return;
	}
	if (t->asking) {
		tui_ask_key(t, ch);
		return;
	}
	if (t->too_small) {
		if (ch == 'q' || ch == KEY_F(10))
			act_quit(t, NULL, ch);
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
		int page = getmaxy(t->area) > 2 ? getmaxy(t->area) - 2 : 1;
		if (ch == KEY_DOWN || ch == 'j')
			t->help_top++;
		else if ((ch == KEY_UP || ch == 'k') && t->help_top > 0)
			t->help_top--;
		else if (ch == KEY_NPAGE)
			t->help_top += page; /* keys_draw_help stops it at the end */
		else if (ch == KEY_PPAGE)
			t->help_top = t->help_top > page ? t->help_top - page : 0;
		else if (ch == KEY_HOME)
			t->help_top = 0;
		else if (ch == KEY_END)
			t->help_top = 1 << 20;
		else if (ch == KEY_F(10))
			act_quit(t, NULL, ch);
		else
			act_help(t, NULL, ch);
		return;
	}
	if (ch == KEY_MOUSE) {
		mouse_event(t);
		return;
	}
	if (run_binding(t, self, tb->keys, ch))
		return;
	if (tb->handle_key && tb->handle_key(t, self, ch))
		return;
	if (run_binding(t, self, frame_keys, ch))
		return;
	if (ch != KEY_ESC)
		tui_message(t, _("%s does nothing here (? lists the keys)"),
			    key_words(ch, name, sizeof name));
}

#define HELP_KEY_X 4   /* the key names' column */
#define HELP_TEXT_X 18 /* the help text's column; wrapped lines start there too */
#define HELP_GLUE '\x1f' /* a space the help's wrap does not break at */

/* Help rows of table k under title, from virtual line y (scrolled by top,
 * drawn only within the first rows lines of w); each text wrapped between
 * words from HELP_TEXT_X. Returns the next virtual line. */
static int help_rows(struct tui *t, WINDOW *w, int y, int top, int rows, const char *title,
		     const struct keybinding *k, void *self)
{
	int width = getmaxx(w) - HELP_TEXT_X - 1;
	if (y - top >= 0 && y - top < rows) {
		wattrset(w, tui_attr(t, ROLE_TITLE));
		mvwaddstr(w, y - top, 2, title);
	}
	y++;
	for (; !row_last(k); k++) {
		char line[256], kname[2];
		const char *name = row_name(k, kname);
		int off[8], len[8], n;
		if (!name)
			continue;
		if (k->action == act_tab) {
			/* "5 False sharing" held together: the wrap breaks between tabs only */
			mt_strlcpy(line, _("select a tab:"), sizeof line);
			for (int i = 0; i < t->ntabs; i++) {
				size_t at = strlen(line) + 1;
				mt_append(line, sizeof line, " %c %s", t->tabs[i]->key, _(t->tabs[i]->name));
				for (size_t c = at; line[c]; c++)
					if (line[c] == ' ')
						line[c] = HELP_GLUE;
			}
		} else if (k->say) {
			k->say(t, self, line, sizeof line);
		} else if (k->arg && k->action == tui_result_key) {
			mt_snprintf(line, sizeof line, _("save as JSON (memtop-%s-HOST-DATE.json)"),
				    k->arg);
		} else if (k->arg && k->action == tui_open_key) {
			mt_snprintf(line, sizeof line, _("open a saved or imported %s"), _(k->arg));
		} else {
			mt_strlcpy(line, _(k->knob ? k->knob->help : k->help), sizeof line);
		}
		/* a name that reaches the text's column puts the text under it */
		if (text_cols(name) > HELP_TEXT_X - HELP_KEY_X - 2) {
			if (y - top >= 0 && y - top < rows) {
				wattrset(w, tui_attr(t, ROLE_GOOD));
				mvwaddstr(w, y - top, HELP_KEY_X, name);
			}
			y++;
			name = NULL;
		}
		n = text_lines(line, width, off, len, 8);
		for (int i = 0; i < n && i < 8; i++, y++) {
			char part[256];
			if (y - top < 0 || y - top >= rows)
				continue;
			if (i == 0 && name) {
				wattrset(w, tui_attr(t, ROLE_GOOD));
				mvwaddstr(w, y - top, HELP_KEY_X, name);
			}
			wattrset(w, tui_attr(t, ROLE_NORMAL));
			mt_snprintf(part, sizeof part, "%.*s", len[i], line + off[i]);
			for (char *c = part; *c; c++)
				if (*c == HELP_GLUE)
					*c = ' ';
			tui_put(t, w, y - top, HELP_TEXT_X, width, part);
		}
	}
	return y + 1;
}

/* The lines the help takes for the current tab (to know whether it
 * scrolls). */
static int help_height(struct tui *t, WINDOW *w)
{
	int y = help_rows(t, w, 0, 0, 0, "", frame_keys, NULL);
	return help_rows(t, w, y, 0, 0, "", t->tabs[t->cur]->keys,
			 tui_tab_self(t, t->tabs[t->cur]));
}

void keys_draw_help(struct tui *t)
{
	WINDOW *w = t->area;
	char title[64];
	int h = getmaxy(w), total = help_height(t, w), rows = total > h ? h - 1 : h, y;
	werase(w);
	if (t->help_top > 0 && total - t->help_top < rows)
		t->help_top = total > rows ? total - rows : 0;
	mt_snprintf(title, sizeof title, _("%s tab"), _(t->tabs[t->cur]->name));
	y = help_rows(t, w, 0, t->help_top, rows, _("Everywhere"), frame_keys, NULL);
	help_rows(t, w, y, t->help_top, rows, title, t->tabs[t->cur]->keys,
		  tui_tab_self(t, t->tabs[t->cur]));
	if (total > h && h > 0) { /* the last line says how to see the rest */
		wattrset(w, tui_attr(t, ROLE_DIM));
		tui_put(t, w, h - 1, 2, getmaxx(w) - 3,
			_("arrows, j/k, PgUp/PgDn scroll; other keys close the help"));
	}
	wattrset(w, A_NORMAL);
	wnoutrefresh(w);
}
