/* loading: the open prompts' files read and parsed off the UI thread. A
 * result file is up to 4 MB of JSON (0.3 s to parse here, 0.6 s under
 * ASan), and a network home folder or a stalled disk may hold its read for
 * good: a thread of the pool (filework.c) checks that the path is a
 * regular file, reads, parses and loads it (result_load_as), and wakes
 * the loop; loading_reap() then hands the result to the tab that asked,
 * on the UI thread. Quitting waits a short, bounded time for a read, then
 * abandons it and says which. */
#include "config.h"

#include "internal.h"
#include "result/result.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct tui_load {
	struct filework_job job; /* first: the pool's job is the load */
	/* asked on the UI thread, read-only on the thread (and job.path) */
	const struct result_kind *want;
	void *self;
	void (*done)(struct tui *t, void *self, struct result_file *f);
	int replaced; /* a later open for the same self and done: dropped at reap */
	/* the thread's, read once the job is done */
	struct result_file f;
	mt_error e;
	int rc;
};

int loading_check_regular(const char *path, mt_error *e)
{
	struct stat st;
	const char *what;
	/* O_NONBLOCK: a FIFO with no writer is not waited for; O_NOCTTY: a
	 * terminal named never becomes ours */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), rc;
	if (fd < 0)
		return mt_fail(e, "%s: %s", path, strerror(errno));
	rc = fstat(fd, &st);
	close(fd);
	if (rc < 0)
		return mt_fail(e, "%s: %s", path, strerror(errno));
	if (S_ISREG(st.st_mode))
		return 0;
	what = S_ISDIR(st.st_mode)			   ? N_("a folder")
	       : S_ISFIFO(st.st_mode)			   ? N_("a FIFO (named pipe)")
	       : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? N_("a device")
	       : S_ISSOCK(st.st_mode)			   ? N_("a socket")
							   : N_("not a regular file");
	return mt_fail(e, _("%s: %s, not a result file"), path, _(what));
}

/* On a thread of the pool: the file checked, read and loaded. */
static void load_run(struct filework_job *j)
{
	struct tui_load *l = (struct tui_load *)(void *)j;
	l->rc = -1;
	if (loading_check_regular(l->job.path, &l->e) < 0)
		return;
	if (!(l->f.r = result_load_as(l->job.path, l->want, &l->e)))
		return;
	l->f.kind = l->want;
	l->f.path = l->job.path;
	l->rc = 0;
}

static void load_free(struct tui_load *l)
{
	result_file_free(&l->f);
	free(l);
}

/* An abandoned load, freed by its thread once it has read the file. */
static void load_drop(struct filework_job *j)
{
	load_free((struct tui_load *)(void *)j);
}

int tui_open_file(struct tui *t, void *self, const char *path, const struct result_kind *want,
		  void (*done)(struct tui *t, void *self, struct result_file *f))
{
	struct tui_load *l = NULL;
	mt_error e;
	int slot = -1;
	for (int i = TUI_LOADS_MAX - 1; i >= 0; i--)
		if (!t->loads[i])
			slot = i;
	if (slot < 0) {
		mt_fail(&e,
			MT_NGETTEXT("%d file is still being read (a slow disk): try again",
				    "%d files are still being read (a slow disk): try again",
				    TUI_LOADS_MAX),
			TUI_LOADS_MAX);
		goto fail;
	}
	if (!(l = filework_new(sizeof *l, path, load_run, load_drop, &e)))
		goto fail;
	l->want = want;
	l->self = self;
	l->done = done;
	if (filework_start(t, &l->job, &e) < 0)
		goto fail;
	for (int i = 0; i < TUI_LOADS_MAX; i++) /* the latest open asked wins */
		if (t->loads[i] && t->loads[i]->self == self && t->loads[i]->done == done)
			t->loads[i]->replaced = 1;
	t->loads[slot] = l;
	tui_message(t, _("opening %s"), path);
	return 0;
fail:
	free(l);
	tui_message(t, _("not opened: %s"), e.msg);
	return -1;
}

void loading_reap(struct tui *t)
{
	for (int i = 0; i < TUI_LOADS_MAX; i++) {
		struct tui_load *l = t->loads[i];
		if (!l || !filework_done(&l->job))
			continue;
		t->loads[i] = NULL; /* done may open again */
		/* replaced: a later open asked for the same place, and that one shows */
		if (!l->replaced && l->rc < 0)
			tui_message(t, _("not opened: %s"), l->e.msg);
		else if (!l->replaced)
			l->done(t, l->self, &l->f);
		load_free(l);
		t->dirty = 1;
	}
}

int loading_busy(const struct tui *t)
{
	for (int i = 0; i < TUI_LOADS_MAX; i++)
		if (t->loads[i])
			return 1;
	return 0;
}

static struct filework_job *load_job(struct tui *t, int i)
{
	return t->loads[i] ? &t->loads[i]->job : NULL;
}

/* A read that ended at the end: nothing shows it now. */
static void load_ended(struct tui *t, int i, FILE *report)
{
	(void)report;
	load_free(t->loads[i]);
	t->loads[i] = NULL;
}

/* A read still going at the end: said, and left to its thread. */
static void load_left(struct tui *t, int i, FILE *report)
{
	struct tui_load *l = t->loads[i];
	t->loads[i] = NULL;
	fprintf(report, _("memtop: %s: still being read after %llu ms; abandoned\n"),
		MT_PRINTABLE(l->job.path), (unsigned long long)(TUI_READ_WAIT_NS / 1000000ull));
	if (filework_abandon(t, &l->job))
		load_free(l);
}

void loading_finish(struct tui *t, FILE *report, uint64_t since)
{
	static const struct filework_slots loads = { TUI_LOADS_MAX, load_job, load_ended,
						     load_left };
	filework_finish(t, &loads, report, since, TUI_READ_WAIT_NS);
}
