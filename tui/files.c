/* files: results on disk for the frame, every tab's through its result
 * kind (tab_result_io): what is unsaved and the question before it is
 * thrown away (tui_discard_first), the save key, saving every unsaved tab
 * (on quit or into the autosave folder on a signal), the autosave folder,
 * and handing a file to the tab that shows its kind (memtop view). */
#include "config.h"

#include "internal.h"
#include "base/jsonio.h"
#include "result/result.h"

#include <dirent.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

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

void tui_result_changed(struct tui *t, const struct tab *tab, int unsaved)
{
	struct tab_slot *sl = tui_slot_of(t, tab);
	if (!sl)
		return;
	sl->unsaved = unsaved;
	if (unsaved)
		sl->source[0] = '\0';
}

int tui_result_unsaved(struct tui *t, const struct tab *tab)
{
	return files_tab_unsaved(t, tab);
}

/* The answer to "Discard the unsaved ... ?": y runs the action again, past
 * the question this time. */
static void discard_answer(struct tui *t, void *self, int key)
{
	int (*go)(struct tui *, void *, int) = t->again_go;
	t->again_go = NULL;
	if (key != 'y' || !go)
		return;
	t->discard_ok = 1;
	go(t, self, t->again_key);
	t->discard_ok = 0;
}

int tui_discard_first(struct tui *t, const struct tab *tab, void *self, const char *question,
		      int (*go)(struct tui *t, void *self, int key), int key)
{
	char q[sizeof t->question];
	if (t->discard_ok || !tui_result_unsaved(t, tab) || t->job || tui_view_mode(t))
		return 0;
	t->again_go = go;
	t->again_key = key;
	mt_snprintf(q, sizeof q, _("%s (y/n)"), question);
	tui_ask(t, self, q, discard_answer);
	return 1;
}

/* What tab's result is now: its io's now(), or read from the instance
 * (the io's result_at; the cells its kind's measured counts). */
static struct tab_result_now result_now(const struct tab *tab, void *self)
{
	const struct tab_result_io *io = tab->result;
	const char *base = self;
	struct tab_result_now n;
	if (io->now)
		return io->now(self);
	n.shown = base + io->result_at;
	n.measured = io->kind->measured ? io->kind->measured(n.shown) : 1;
	return n;
}

void tui_each_result(struct tui *t,
		     void (*each)(void *ctx, const struct result_kind *kind, const void *r,
				  const char *source),
		     void *ctx)
{
	for (int i = 0; i < TUI_MAX_TABS; i++) {
		struct tab_slot *sl = &t->slot[i];
		struct tab_result_now n;
		if (!sl->tab || !sl->tab->result || !sl->self)
			continue;
		n = result_now(sl->tab, sl->self);
		if (n.shown && n.measured)
			each(ctx, sl->tab->result->kind, n.shown, sl->source);
	}
}

const struct run_header *files_shown_header(struct tui *t, const struct tab *tab,
					     const char **source)
{
	struct tab_slot *sl = tab && tab->result ? tui_slot_of(t, tab) : NULL;
	struct tab_result_now n;
	if (!sl || !sl->self || !sl->source[0])
		return NULL;
	n = result_now(tab, sl->self);
	if (!n.shown || !n.measured)
		return NULL;
	*source = sl->source;
	return result_kind_header(n.shown);
}

/* What saving io's result says when nothing is measured: its nothing, or
 * the words most tabs use. */
static const char *nothing_said(const struct tab_result_io *io)
{
	return _(io->nothing ? io->nothing : N_("nothing measured to save yet (r measures)"));
}

/* Tab's result as a JSON tree (*root, the caller's); nothing measured:
 * fails with its io's nothing. 0, or -1 with e. */
static int result_json(struct tui *t, const struct tab *tab, cJSON **root, mt_error *e)
{
	const struct tab_result_io *io = tab->result;
	struct tab_result_now now = result_now(tab, tui_tab_self(t, tab));
	if (!now.shown || !now.measured)
		return mt_fail(e, "%s", nothing_said(io));
	*root = io->kind->to_json(now.shown);
	if (!*root)
		return mt_fail(e, _("out of memory"));
	return 0;
}

/* Write tab's result to path, here and now (the autosave); marks it saved.
 * 0, or -1 with e. */
static int result_save_to(struct tui *t, const struct tab *tab, const char *path, mt_error *e)
{
	cJSON *root;
	int rc;
	if (result_json(t, tab, &root, e) < 0)
		return -1;
	rc = jsonio_save(path, root, e);
	cJSON_Delete(root);
	if (rc == 0)
		tui_result_changed(t, tab, 0);
	return rc;
}

/* The default name of tab's result (memtop-KIND-HOST-DATE.json). */
static void result_default_name(struct tui *t, const struct tab *tab, char *buf, size_t len)
{
	const struct tab_result_io *io = tab->result;
	const void *r = result_now(tab, tui_tab_self(t, tab)).shown;
	tui_result_name(r ? result_kind_header(r) : NULL, io->kind->name, buf, len);
}

/* The save prompt's answer: the selected tab's result, as it is now,
 * written there off the UI thread (saving.c says "saved PATH" when it is
 * written, or why not, and then puts the tab's unsaved mark back). */
static void save_answer(struct tui *t, void *self, const char *answer)
{
	(void)self;
	mt_error e;
	cJSON *root;
	struct tab_slot *sl;
	if (!answer || !answer[0] || !t->save_tab)
		return;
	sl = tui_slot_of(t, t->save_tab);
	if (result_json(t, t->save_tab, &root, &e) < 0 ||
	    saving_start(t, t->save_tab, root, answer, sl && sl->unsaved, &e) < 0) {
		tui_message(t, _("not saved: %s"), e.msg);
		return;
	}
	tui_result_changed(t, t->save_tab, 0);
	tui_message(t, _("saving %s"), answer);
}

int tui_result_key(struct tui *t, void *self, int key)
{
	const struct tab *tab = t->tabs[t->cur];
	char def[200];
	(void)self; /* the selected tab's: the one whose result is saved */
	(void)key;
	if (!tab->result)
		return 0;
	if (!result_now(tab, tui_tab_self(t, tab)).measured) {
		tui_message(t, "%s", nothing_said(tab->result));
		return 1;
	}
	result_default_name(t, tab, def, sizeof def);
	t->save_tab = tab;
	tui_prompt(t, NULL, _("Save as: "), def, save_answer);
	return 1;
}

/* Autosave: tab's result into dir under its default name. 0, or -1 with e. */
static int result_save(struct tui *t, const struct tab *tab, const char *dir, char *saved,
		       size_t len, mt_error *e)
{
	char name[200];
	result_default_name(t, tab, name, sizeof name);
	if (mt_snprintf(saved, len, "%s/%s", dir, name) < 0)
		return mt_fail(e, _("%s: path too long"), dir);
	return result_save_to(t, tab, saved, e);
}

/* The tab has results not saved yet. */
int files_tab_unsaved(struct tui *t, const struct tab *tb)
{
	struct tab_slot *sl = tui_slot_of(t, tb);
	return tb->result && sl && sl->unsaved && result_now(tb, sl->self).measured > 0;
}

int files_any_unsaved(struct tui *t)
{
	for (int i = 0; i < t->ntabs; i++)
		if (files_tab_unsaved(t, t->tabs[i]))
			return 1;
	return 0;
}

int files_save_all(struct tui *t, const char *dir, FILE *report, int *failed)
{
	int saved_n = 0;
	*failed = 0;
	for (int i = 0; i < t->ntabs; i++) {
		const struct tab *tb = t->tabs[i];
		char saved[512];
		mt_error e;
		int rc;
		if (!files_tab_unsaved(t, tb))
			continue;
		rc = result_save(t, tb, dir, saved, sizeof saved, &e);
		if (rc == 0) {
			saved_n++;
			if (report)
				fprintf(report, _("memtop: saved the %s results to %s\n"), _(tb->name),
					MT_PRINTABLE(saved));
		} else {
			(*failed)++;
			if (report)
				/* machine text: the program's name */
				fprintf(report, "memtop: %s\n", MT_PRINTABLE(e.msg));
		}
	}
	return saved_n;
}

/* $XDG_DATA_HOME/memtop or ~/.local/share/memtop, created. Returns 0/-1. */
int files_autosave_dir(char *buf, size_t len, int create)
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
int files_newest_autosave(char *out, size_t len)
{
	char dir[512];
	DIR *d;
	struct dirent *de;
	time_t best = 0;
	int found = -1;
	if (files_autosave_dir(dir, sizeof dir, 0) < 0 || !(d = opendir(dir)))
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

/* The shown tab that shows kind k, or -1. */
static int tab_of(struct tui *t, const struct result_kind *k)
{
	for (int i = 0; k->tab && i < t->ntabs; i++)
		if (t->tabs[i]->result && strcmp(t->tabs[i]->name, k->tab) == 0)
			return i;
	return -1;
}

/* Hand f to the tab at index i. Returns 0, or -1 with e. */
static int give(struct tui *t, int i, struct result_file *f, mt_error *e)
{
	const struct tab *tab = t->tabs[i];
	const struct tab_result_io *io = tab->result;
	struct tab_slot *sl = tui_slot_of(t, tab);
	void *self = tui_tab_self(t, tab);
	if (!io->several && tui_running(t, tab))
		return mt_fail(e, _("%s: %s is in progress"), f->path, _(io->busy));
	if (io->take && io->take(t, self, f, e) < 0)
		return -1;
	if (!io->take) { /* the instance holds its result by value */
		memcpy((char *)self + io->result_at, f->r, io->result_size);
		if (io->opened)
			io->opened(self);
	}
	if (!io->several && sl->source[0]) /* one result at a time: say which one shows */
		tui_message(t, _("the %s tab shows one file: %s, not %s"), _(tab->name),
			    mt_basename(f->path), mt_basename(sl->source));
	sl->unsaved = 0;
	mt_strlcpy(sl->source, f->path, sizeof sl->source);
	t->cur = i;
	return 0;
}

int files_open(struct tui *t, const char *path, mt_error *e)
{
	struct result_file f;
	int i, rc;
	if (result_file_load(path, &f, e) < 0)
		return -1;
	i = tab_of(t, f.kind);
	if (i < 0) {
		mt_fail(e, _("%s: not a result memtop can show (no tab reads a %s)"), path,
			_(f.kind->what));
		result_file_free(&f);
		return -1;
	}
	rc = give(t, i, &f, e);
	result_file_free(&f);
	return rc;
}

/* The file the open key asked for, read: into the tab that shows its
 * kind (the selected one), as memtop view FILE would. */
static void open_opened(struct tui *t, void *self, struct result_file *f)
{
	mt_error e = { "" };
	int i = tab_of(t, f->kind);
	(void)self;
	if (i < 0)
		tui_message(t, _("not opened: %s: no tab shows a %s"), f->path, _(f->kind->what));
	else if (give(t, i, f, &e) < 0)
		tui_message(t, _("not opened: %s"), e.msg);
	else
		tui_message(t, _("opened %s"), mt_basename(f->path));
	tui_dirty(t);
}

static void open_answer(struct tui *t, void *self, const char *answer)
{
	const struct tab *tab = t->tabs[t->cur];
	if (answer && answer[0])
		tui_open_file(t, self, answer, tab->result->kind, open_opened);
}

int tui_open_key(struct tui *t, void *self, int key)
{
	const struct tab *tab = t->tabs[t->cur];
	char q[sizeof t->question];
	if (!tab->result)
		return 0;
	if (tui_discard_first(t, tab, self, _("Discard the unsaved result and open a file?"),
			      tui_open_key, key))
		return 1;
	mt_snprintf(q, sizeof q, _("Open a saved %s: "), _(tab->result->kind->what));
	tui_prompt(t, self, q, "", open_answer);
	return 1;
}
