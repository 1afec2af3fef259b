/* saving: the save prompt's file written off the UI thread. The result's
 * JSON tree is made on the UI thread (it reads the tab); a thread of its own
 * writes it (jsonio_save: a temporary file beside the path, fsync, rename),
 * so that a slow or stalled disk (a network home folder, a busy drive, a
 * frozen file system) never holds the answer to a key. The thread wakes the
 * loop through the self-pipe; saving_reap() then says "saved PATH" or "not
 * saved: reason". Quitting waits a bounded time for saves still being
 * written. */
#include "config.h"

#include "internal.h"
#include "core/clock.h"
#include "core/jsonio.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct tui_save {
	pthread_t thread;
	cJSON *root; /* the result as made on the UI thread; freed at reap */
	char path[MT_PATH_MAX];
	const struct tab *tab;
	int was_unsaved; /* the tab's mark before the save: back to it if it fails */
	atomic_int wake_fd; /* the self-pipe's write end; -1 once the loop has gone */
	int rc;      /* jsonio_save's, with e */
	mt_error e;
	atomic_int done; /* set by the thread after rc and e */
};

static void *save_main(void *p)
{
	struct tui_save *s = p;
	char c = 's';
	int fd;
	s->rc = jsonio_save(s->path, s->root, &s->e);
	atomic_store(&s->done, 1);
	fd = atomic_load(&s->wake_fd);
	if (fd >= 0 && write(fd, &c, 1) < 0) {
		/* a full pipe already wakes the loop: nothing is lost */
	}
	return NULL;
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
		mt_fail(e, "%d saves are still being written (a slow disk): try again", TUI_SAVES_MAX);
		goto fail;
	}
	s = calloc(1, sizeof *s);
	if (!s) {
		mt_fail(e, "out of memory");
		goto fail;
	}
	if (mt_strlcpy(s->path, path, sizeof s->path) < 0) {
		mt_fail(e, "%s: path too long", path);
		free(s);
		goto fail;
	}
	s->root = root;
	s->tab = tab;
	s->was_unsaved = was_unsaved;
	atomic_store(&s->wake_fd, t->sigpipe[1]);
	if (pthread_create(&s->thread, NULL, save_main, s) != 0) {
		mt_fail(e, "cannot start a thread to write it");
		free(s);
		goto fail;
	}
	t->saves[slot] = s;
	return 0;
fail:
	cJSON_Delete(root);
	return -1;
}

/* The save in slot i has ended: joined, its outcome said (the status line,
 * or a line on report when not NULL), its tab's mark back to what it was
 * before when it failed (unless the tab's result changed since), and its
 * slot freed. */
static void reap_one(struct tui *t, int i, FILE *report)
{
	struct tui_save *s = t->saves[i];
	struct tab_slot *sl = tui_slot_of(t, s->tab);
	pthread_join(s->thread, NULL);
	if (s->rc < 0 && sl && !sl->unsaved)
		sl->unsaved = s->was_unsaved;
	if (report && s->rc < 0)
		fprintf(report, "memtop: not saved: %s\n", MT_PRINTABLE(s->e.msg));
	else if (!report && s->rc < 0)
		tui_message(t, "not saved: %s", s->e.msg);
	else if (!report)
		tui_message(t, "saved %s", s->path);
	cJSON_Delete(s->root);
	free(s);
	t->saves[i] = NULL;
	t->dirty = 1;
}

void saving_reap(struct tui *t)
{
	for (int i = 0; i < TUI_SAVES_MAX; i++)
		if (t->saves[i] && atomic_load(&t->saves[i]->done))
			reap_one(t, i, NULL);
}

int saving_busy(const struct tui *t)
{
	for (int i = 0; i < TUI_SAVES_MAX; i++)
		if (t->saves[i])
			return 1;
	return 0;
}

void saving_finish(struct tui *t, FILE *report)
{
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	uint64_t t0 = mt_now_ns();
	while (saving_busy(t) && mt_now_ns() - t0 < TUI_STOP_WAIT_NS) {
		for (int i = 0; i < TUI_SAVES_MAX; i++)
			if (t->saves[i] && atomic_load(&t->saves[i]->done))
				reap_one(t, i, report);
		if (saving_busy(t))
			nanosleep(&nap, NULL);
	}
	for (int i = 0; i < TUI_SAVES_MAX; i++) {
		if (!t->saves[i])
			continue;
		/* left to the disk (the path is never written half) and to the
		 * process's end; it no longer wakes a loop that has gone */
		atomic_store(&t->saves[i]->wake_fd, -1);
		fprintf(report, "memtop: %s: still being written after %llu s; not waited for\n",
			MT_PRINTABLE(t->saves[i]->path),
			(unsigned long long)(TUI_STOP_WAIT_NS / 1000000000ull));
		t->saves[i] = NULL;
	}
}
