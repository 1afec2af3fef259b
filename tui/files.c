/* files: results on disk for the frame: the save prompt, the lab tabs'
 * result files (tab_result_io), saving every unsaved tab (on quit or into
 * the autosave folder on a signal), the autosave folder, and offering a
 * file to the tabs (memtop view). */
#include "config.h"

#include "internal.h"
#include "core/jsonio.h"

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
int files_tab_unsaved(struct tui *t, const struct tab *tb)
{
	if (tb->result)
		return *tb->result->unsaved && tb->result->measured() > 0;
	return tb->unsaved && tb->unsaved(t);
}

int files_any_unsaved(struct tui *t)
{
	for (int i = 0; i < t->ntabs; i++)
		if (files_tab_unsaved(t, t->tabs[i]))
			return 1;
	return 0;
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
		tui_message(t, "%s shows one file: %s, not %s", io->shows, mt_basename(path),
			    mt_basename(io->source));
	io->take();
	*io->unsaved = 0;
	return 1;
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
		if (!files_tab_unsaved(t, tb) || (!tb->save && !tb->result))
			continue;
		if (tb->result)
			rc = result_save(t, tb->result, NULL, dir, saved, sizeof saved, &e);
		else
			rc = tb->save(t, NULL, dir, saved, sizeof saved, &e);
		if (rc == 0) {
			saved_n++;
			if (report)
				fprintf(report, "memtop: saved the %s results to %s\n", tb->name,
					MT_PRINTABLE(saved));
		} else {
			(*failed)++;
			if (report)
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

/* Offer a file to the tabs. Returns 0, or -1 with e set. */
int files_open(struct tui *t, const char *path, mt_error *e)
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
