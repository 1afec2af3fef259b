/* saving: the save prompt's file written off the UI thread. The result's
 * JSON tree is made on the UI thread (it reads the tab); a thread of the
 * file pool (filework.c) writes it (jsonio_save: a temporary file beside
 * the path, fsync, rename), so that a slow or stalled disk (a network home
 * folder, a busy drive, a frozen file system) never holds the answer to a
 * key. The thread wakes the loop through the self-pipe; saving_reap() then
 * says "saved PATH" or "not saved: reason". Quitting waits a bounded time
 * for saves still being written; one still going then is named "not
 * saved" on stderr: memtop ends before its rename, so the path is never
 * written half (its temporary file may stay). */
#include "config.h"

#include "internal.h"
#include "base/jsonio.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tui_save {
	struct filework_job job; /* first: the pool's job is the save */
	cJSON *root; /* the result as made on the UI thread; freed at reap */
	const struct tab *tab;
	int was_unsaved; /* the tab's mark before the save: back to it if it fails */
	int rc;      /* jsonio_save's, with e; read once the job is done */
	mt_error e;
};

/* On a thread of the pool: the file written. */
static void save_run(struct filework_job *j)
{
	struct tui_save *s = (struct tui_save *)(void *)j;
	s->rc = jsonio_save(s->job.path, s->root, &s->e);
}

static void save_free(struct tui_save *s)
{
	cJSON_Delete(s->root);
	free(s);
}

/* A save abandoned at the end, freed by its thread once it is written. */
static void save_drop(struct filework_job *j)
{
	save_free((struct tui_save *)(void *)j);
}

int saving_start(struct tui *t, const struct tab *tab, cJSON *root, const char *path,
		 int was_unsaved, mt_error *e)
{
	struct tui_save *s;
	int slot = -1;
	for (int i = TUI_SAVES_MAX - 1; i >= 0; i--)
		if (!t->saves[i])
			slot = i;
	if (slot < 0) {
		mt_fail(e,
			MT_NGETTEXT("%d save is still being written (a slow disk): try again",
				    "%d saves are still being written (a slow disk): try again",
				    TUI_SAVES_MAX),
			TUI_SAVES_MAX);
		goto fail;
	}
	if (!(s = filework_new(sizeof *s, path, save_run, save_drop, e)))
		goto fail;
	s->root = root;
	s->tab = tab;
	s->was_unsaved = was_unsaved;
	if (filework_start(t, &s->job, e) < 0) {
		free(s);
		goto fail;
	}
	t->saves[slot] = s;
	return 0;
fail:
	cJSON_Delete(root);
	return -1;
}

/* The save in slot i has ended: its outcome said (the status line,
 * or a line on report when not NULL), its tab's mark back to what it was
 * before when it failed (unless the tab's result changed since), and its
 * slot freed. */
static void reap_one(struct tui *t, int i, FILE *report)
{
	struct tui_save *s = t->saves[i];
	struct tab_slot *sl = tui_slot_of(t, s->tab);
	if (s->rc < 0 && sl && !sl->unsaved)
		sl->unsaved = s->was_unsaved;
	if (report && s->rc < 0)
		fprintf(report, _("memtop: not saved: %s\n"), MT_PRINTABLE(s->e.msg));
	else if (!report && s->rc < 0)
		tui_message(t, _("not saved: %s"), s->e.msg);
	else if (!report)
		tui_message(t, _("saved %s"), s->job.path);
	save_free(s);
	t->saves[i] = NULL;
	t->dirty = 1;
}

void saving_reap(struct tui *t)
{
	for (int i = 0; i < TUI_SAVES_MAX; i++)
		if (t->saves[i] && filework_done(&t->saves[i]->job))
			reap_one(t, i, NULL);
}

static struct filework_job *save_job(struct tui *t, int i)
{
	return t->saves[i] ? &t->saves[i]->job : NULL;
}

/* A save still being written at the end: the process ends with its
 * thread, before the rename (unless the kernel is already in it): the
 * path is never written half; the temporary file stays (an unlink from
 * here would stall on the same disk). */
static void save_left(struct tui *t, int i, FILE *report)
{
	struct tui_save *s = t->saves[i];
	fprintf(report,
		_("memtop: %s: not saved: still being written when memtop quit, %llu s later "
		  "(never half-written: the path keeps what it had unless a rename already "
		  "begun completes; a temporary %s%s* may stay beside it)\n"),
		MT_PRINTABLE(s->job.path), (unsigned long long)(TUI_STOP_WAIT_NS / 1000000000ull),
		MT_PRINTABLE(mt_basename(s->job.path)), MT_WRITE_TMP_SUFFIX);
	t->saves[i] = NULL;
	if (filework_abandon(t, &s->job))
		save_free(s); /* never started */
}

void saving_finish(struct tui *t, FILE *report, uint64_t since)
{
	static const struct filework_slots saves = { TUI_SAVES_MAX, save_job, reap_one,
						     save_left };
	filework_finish(t, &saves, report, since, TUI_STOP_WAIT_NS);
}
