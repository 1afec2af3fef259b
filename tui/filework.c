/* filework: the threads that read and write the user's files off the UI
 * thread (loading.c's opens, saving.c's saves), so that a slow or stalled
 * disk never holds the answer to a key. A job goes to a thread that waits
 * for one, or to a new thread when every thread made so far is busy (at
 * most TUI_FILEWORK_MAX, one for each save and each open that may be
 * going at once: a job never queues behind a stalled one). A thread is
 * kept when its job ends and waits for the next, so a session makes a
 * handful of threads however many files it opens and saves. They are
 * named memtop-file: a thread still there when no run goes is one of them.
 *
 * A thread that ends a job marks it done and wakes the loop through the
 * self-pipe, holding the pool's lock; filework_end retires the pipe under
 * the same lock before the loop closes it, so no thread ever writes to a
 * closed (or reused) descriptor. A job abandoned at the end is freed by
 * its thread when it returns (its drop), never by the UI. */
#include "config.h"

#include "internal.h"
#include "os/clock.h"
#include "os/platform.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct filework_thread {
	pthread_t id;
	struct filework *w;
	struct filework_job *job; /* the job it runs, or NULL (under the lock) */
	int left;                 /* it has left its loop: joinable at once */
};

struct filework {
	pthread_mutex_t lock;
	pthread_cond_t wake; /* a job queued, or the end */
	int wake_fd;         /* the self-pipe's write end; -1 once retired */
	int stopping;        /* the threads leave once the queue is empty */
	int nthreads;        /* made and not joined */
	int outstanding;     /* jobs queued or running */
	unsigned made;       /* threads made in all */
	struct filework_job *head, *tail;
	struct filework_thread th[TUI_FILEWORK_MAX];
};

/* Under w's lock: say that a job ended (one byte; a full pipe already
 * wakes the loop). */
static void wake_loop(struct filework *w)
{
	char c = 'f';
	if (w->wake_fd >= 0 && write(w->wake_fd, &c, 1) < 0) {
		/* full: the loop will read it anyway */
	}
}

static void *worker_main(void *p)
{
	struct filework_thread *me = p;
	struct filework *w = me->w;
	mt_plat_thread_name(TUI_FILEWORK_NAME);
	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct filework_job *j;
		while (!w->head && !w->stopping)
			pthread_cond_wait(&w->wake, &w->lock);
		if (!w->head)
			break;
		j = w->head;
		w->head = j->next;
		if (!w->head)
			w->tail = NULL;
		me->job = j;
		pthread_mutex_unlock(&w->lock);
		j->run(j);
		pthread_mutex_lock(&w->lock);
		me->job = NULL;
		w->outstanding--;
		if (j->abandoned) {
			j->drop(j);
		} else {
			atomic_store(&j->done, 1);
			wake_loop(w);
		}
	}
	me->left = 1;
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

/* The pool, made at the first job (t->work). NULL when out of memory. */
static struct filework *pool(struct tui *t)
{
	struct filework *w = t->work;
	int have_lock = 0;
	if (w)
		return w;
	if (!(w = calloc(1, sizeof *w)))
		return NULL;
	if (pthread_mutex_init(&w->lock, NULL) != 0)
		goto fail;
	have_lock = 1;
	if (pthread_cond_init(&w->wake, NULL) != 0)
		goto fail;
	w->wake_fd = t->sigpipe[1];
	t->work = w;
	return w;
fail:
	if (have_lock)
		pthread_mutex_destroy(&w->lock);
	free(w);
	return NULL;
}

/* Under w's lock: a thread more for the jobs outstanding, when each has
 * none. 0, or -1 (no thread could be made, or TUI_FILEWORK_MAX are). */
static int enough_threads(struct filework *w)
{
	struct filework_thread *th;
	if (w->outstanding < w->nthreads)
		return 0;
	if (w->nthreads >= TUI_FILEWORK_MAX)
		return -1;
	th = &w->th[w->nthreads];
	memset(th, 0, sizeof *th);
	th->w = w;
	if (pthread_create(&th->id, NULL, worker_main, th) != 0)
		return -1;
	w->nthreads++;
	w->made++;
	return 0;
}

int filework_start(struct tui *t, struct filework_job *j, mt_error *e)
{
	struct filework *w = pool(t);
	int rc = 0;
	atomic_store(&j->done, 0);
	j->abandoned = 0;
	j->next = NULL;
	if (!w)
		return mt_fail(e, _("out of memory"));
	pthread_mutex_lock(&w->lock);
	if (w->stopping || enough_threads(w) < 0) {
		rc = mt_fail(e, _("cannot start a thread for it"));
	} else {
		if (w->tail)
			w->tail->next = j;
		else
			w->head = j;
		w->tail = j;
		w->outstanding++;
		pthread_cond_signal(&w->wake);
	}
	pthread_mutex_unlock(&w->lock);
	return rc;
}

void *filework_new(size_t size, const char *path, void (*run)(struct filework_job *j),
		   void (*drop)(struct filework_job *j), mt_error *e)
{
	struct filework_job *j = calloc(1, size);
	if (!j) {
		mt_fail(e, _("out of memory"));
		return NULL;
	}
	if (mt_strlcpy(j->path, path, sizeof j->path) < 0) {
		mt_fail(e, _("%s: path too long"), path);
		free(j);
		return NULL;
	}
	j->run = run;
	j->drop = drop;
	return j;
}

int filework_done(const struct filework_job *j)
{
	return atomic_load(&j->done);
}

unsigned filework_threads_made(const struct tui *t)
{
	unsigned n;
	if (!t->work)
		return 0;
	pthread_mutex_lock(&t->work->lock);
	n = t->work->made;
	pthread_mutex_unlock(&t->work->lock);
	return n;
}

int filework_abandon(struct tui *t, struct filework_job *j)
{
	struct filework *w = t->work;
	struct filework_job **p = &w->head, *prev = NULL;
	int yours = 1;
	pthread_mutex_lock(&w->lock);
	while (*p && *p != j) {
		prev = *p;
		p = &(*p)->next;
	}
	if (*p) { /* still queued: no thread has it */
		*p = j->next;
		if (w->tail == j)
			w->tail = prev;
		w->outstanding--;
	} else if (!atomic_load(&j->done)) {
		j->abandoned = 1; /* its thread drops it when run returns */
		yours = 0;
	}
	pthread_mutex_unlock(&w->lock);
	return yours;
}

void filework_end(struct tui *t)
{
	struct filework *w = t->work;
	int detached = 0;
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->wake_fd = -1; /* the loop has gone: no thread writes to the pipe now */
	w->stopping = 1;
	pthread_cond_broadcast(&w->wake);
	pthread_mutex_unlock(&w->lock);
	for (int i = 0; i < w->nthreads; i++) {
		int busy;
		pthread_mutex_lock(&w->lock);
		busy = w->th[i].job != NULL;
		pthread_mutex_unlock(&w->lock);
		if (busy) { /* an abandoned job on a stalled disk: left to the process's end */
			pthread_detach(w->th[i].id);
			detached++;
		} else {
			pthread_join(w->th[i].id, NULL);
		}
	}
	if (detached)
		return; /* their threads still use w: kept (t->work) to the process's end */
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w);
	t->work = NULL;
}

/* Reap each of s's jobs that has ended; 1 when one is still going. */
static int reap_ended(struct tui *t, const struct filework_slots *s, FILE *report)
{
	int going = 0;
	for (int i = 0; i < s->n; i++) {
		struct filework_job *j = s->job(t, i);
		if (j && filework_done(j))
			s->ended(t, i, report);
		else if (j)
			going = 1;
	}
	return going;
}

void filework_finish(struct tui *t, const struct filework_slots *s, FILE *report,
		     uint64_t since, uint64_t wait_ns)
{
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	while (reap_ended(t, s, report) && mt_now_ns() - since < wait_ns)
		nanosleep(&nap, NULL);
	(void)reap_ended(t, s, report); /* those that ended as the wait did */
	for (int i = 0; i < s->n; i++)
		if (s->job(t, i))
			s->left(t, i, report);
}
