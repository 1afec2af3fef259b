/* job: worker thread, event queue with a wake-up pipe, pause/resume/cancel.
 * See job.h for the contracts. */
#include "config.h"
#include "base/i18n.h"

#include "job.h"
#include "os/clock.h"
#include "os/sysinfo.h"
#include "os/threads.h"
#include "os/topo.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

enum { ST_RUN = 0, ST_PAUSE = 1, ST_CANCEL = 2 };

struct job {
	pthread_t thread;
	job_fn fn;
	void *arg;
	int cpu;
	int wake[2]; /* [0] read end handed out by job_fd, [1] written by worker */

	pthread_mutex_t lock; /* guards everything below but `state` */
	pthread_cond_t cond;
	struct job_event *q;
	size_t q_head, q_len, q_cap;
	int notified;

	_Atomic int state;
	int was_paused;    /* the worker has waited since its last job_check */
	uint64_t t_start, pause_started, paused_ns;
	uint64_t cells_done, cells_total;
	const char *unit; /* what a cell is ("pair"), a static string; NULL "cell" */
	double units_done, units_total;
	int cpu_first, cpu_last, cpu_moved; /* where the worker was seen */
	double ghz_start, ghz_end; /* core clock on the worker's CPU around fn */
	int ghz_cpu;       /* where those were measured, -1 unknown */
	struct mt_run_clock clock; /* the measuring threads' (job_run_clock) */
	int finished;
	uint64_t t_cancel, t_returned, t_last; /* job_cancel's first call, the
				  worker's return, its last event (MEMTOP_STOPSTAT) */
	uint64_t cpu_cancel; /* the process's CPU time at job_cancel's first call */
	int status;        /* 0 done, 1 cancelled, -1 failed */
	mt_error err;
};

/* The CPU time all of the process's threads have used, in ns. */
static uint64_t process_cpu_ns(void)
{
	struct rusage u;
	if (getrusage(RUSAGE_SELF, &u) != 0)
		return 0;
	return (uint64_t)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000000000u +
	       (uint64_t)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1000u;
}

static void wake_reader(job_t *j)
{
	/* Called with the lock held. One byte stands for "events waiting". */
	if (!j->notified) {
		char c = 1;
		ssize_t w;
		do {
			w = write(j->wake[1], &c, 1);
		} while (w < 0 && errno == EINTR);
		j->notified = 1;
	}
}

static int push_locked(job_t *j, const struct job_event *ev)
{
	if (j->q_len == j->q_cap) {
		size_t ncap = j->q_cap ? j->q_cap * 2 : 256;
		struct job_event *nq = malloc(ncap * sizeof *nq);
		if (!nq)
			return -1;
		for (size_t i = 0; i < j->q_len; i++)
			nq[i] = j->q[(j->q_head + i) % j->q_cap];
		free(j->q);
		j->q = nq;
		j->q_cap = ncap;
		j->q_head = 0;
	}
	j->q[(j->q_head + j->q_len) % j->q_cap] = *ev;
	j->q_len++;
	wake_reader(j);
	return 0;
}

/* Where the worker runs now; called by the worker with the lock held. */
static void sample_cpu_locked(job_t *j)
{
	int c = job_current_cpu();
	if (c < 0)
		return;
	if (j->cpu_first < 0)
		j->cpu_first = c;
	else if (c != j->cpu_last)
		j->cpu_moved = 1;
	j->cpu_last = c;
}

int job_populate(job_t *j, void *p, size_t len)
{
	for (size_t off = 0; off < len; off += MT_POPULATE_STEP) {
		(void)mt_populate((char *)p + off, len - off < MT_POPULATE_STEP ? len - off
									: MT_POPULATE_STEP);
		if (job_check(j) == JOB_CANCELLED)
			return JOB_CANCELLED;
	}
	return JOB_GO;
}

int job_emit(job_t *j, const struct job_event *ev)
{
	int rc;
	pthread_mutex_lock(&j->lock);
	sample_cpu_locked(j);
	rc = push_locked(j, ev);
	if (rc == 0 && ev->type == JOB_EV_CELL)
		j->cells_done++;
	pthread_mutex_unlock(&j->lock);
	return rc;
}

int job_note(job_t *j, const char *fmt, ...)
{
	struct job_event ev;
	va_list ap;
	memset(&ev, 0, sizeof ev);
	ev.type = JOB_EV_NOTE;
	va_start(ap, fmt);
	vsnprintf(ev.text, sizeof ev.text, fmt, ap);
	va_end(ap);
	return job_emit(j, &ev);
}

void job_set_progress(job_t *j, double done, double total)
{
	pthread_mutex_lock(&j->lock);
	j->units_done = done;
	j->units_total = total;
	pthread_mutex_unlock(&j->lock);
}

void job_set_total(job_t *j, uint64_t total)
{
	pthread_mutex_lock(&j->lock);
	j->cells_total = total;
	pthread_mutex_unlock(&j->lock);
}

void job_set_unit(job_t *j, const char *unit)
{
	pthread_mutex_lock(&j->lock);
	j->unit = unit;
	pthread_mutex_unlock(&j->lock);
}

struct mt_run_clock *job_run_clock(job_t *j)
{
	return j ? &j->clock : NULL;
}

void job_payload_put(struct job_event *ev, const char *type, const void *src, size_t size)
{
	memset(ev->payload, 0, sizeof ev->payload);
	memcpy(ev->payload, src, size);
	ev->payload_type = type;
}

int job_payload_get(const struct job_event *ev, const char *type, void *dst, size_t size)
{
	if (!ev->payload_type || strcmp(ev->payload_type, type) != 0) {
		memset(dst, 0, size);
		return -1;
	}
	memcpy(dst, ev->payload, size);
	return 0;
}

void job_cell(struct job_event *ev, int subtype, int row, int col, double value, double spread)
{
	memset(ev, 0, sizeof *ev);
	ev->type = JOB_EV_CELL;
	ev->subtype = subtype;
	ev->row = row;
	ev->col = col;
	ev->value = value;
	ev->spread = spread;
}

double job_spread(double best, double second)
{
	return isfinite(second) && best > 0 ? (second - best) / best : 0;
}

int job_event_is_last(const struct job_event *ev)
{
	return ev->type == JOB_EV_DONE || ev->type == JOB_EV_FAILED ||
	       ev->type == JOB_EV_CANCELLED;
}

int job_current_cpu(void)
{
	return mt_plat_current_cpu();
}

int job_check(job_t *j)
{
	int st = atomic_load_explicit(&j->state, memory_order_relaxed);
	int resumed;
	if (st == ST_RUN && !j->was_paused)
		return JOB_GO;
	if (st == ST_CANCEL)
		return JOB_CANCELLED;
	pthread_mutex_lock(&j->lock);
	while (atomic_load(&j->state) == ST_PAUSE) {
		if (!j->pause_started)
			j->pause_started = mt_now_ns();
		j->was_paused = 1;
		pthread_cond_wait(&j->cond, &j->lock);
	}
	if (j->pause_started) {
		j->paused_ns += mt_now_ns() - j->pause_started;
		j->pause_started = 0;
	}
	resumed = j->was_paused;
	j->was_paused = 0;
	pthread_mutex_unlock(&j->lock);
	if (atomic_load(&j->state) == ST_CANCEL)
		return JOB_CANCELLED;
	return resumed ? JOB_RESUMED : JOB_GO;
}

static void *job_main(void *p)
{
	job_t *j = p;
	struct job_event ev;
	mt_error e = { "" };
	int rc;
	double ghz;
	uint64_t returned;
	pthread_mutex_lock(&j->lock);
	sample_cpu_locked(j);
	pthread_mutex_unlock(&j->lock);
	ghz = mt_clock_measure(); /* outside the lock: a reader may take progress */
	pthread_mutex_lock(&j->lock);
	j->ghz_start = ghz;
	j->ghz_cpu = j->cpu_first;
	pthread_mutex_unlock(&j->lock);
	rc = j->fn(j, j->arg, &e);
	returned = mt_now_ns();
	memset(&ev, 0, sizeof ev);
	/* a run that measured on threads of its own: its clock is theirs */
	ghz = mt_run_clock_end(&j->clock) == 0 ? j->clock.ghz_end : mt_clock_measure();
	pthread_mutex_lock(&j->lock);
	j->ghz_end = ghz;
	sample_cpu_locked(j);
	if (mt_run_clock_taken(&j->clock)) {
		j->ghz_start = j->clock.ghz_start;
		j->ghz_cpu = j->clock.cpu;
	}
	if (rc != 0) {
		j->status = -1;
		j->err = e;
		ev.type = JOB_EV_FAILED;
		mt_strlcpy(ev.text, e.msg[0] ? e.msg : "measurement failed", sizeof ev.text);
	} else if (atomic_load(&j->state) == ST_CANCEL) {
		j->status = 1;
		ev.type = JOB_EV_CANCELLED;
	} else {
		j->status = 0;
		ev.type = JOB_EV_DONE;
	}
	j->finished = 1;
	j->t_returned = returned;
	j->t_last = mt_now_ns();
	(void)push_locked(j, &ev); /* if this fails, finished still tells */
	wake_reader(j);
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

static int pick_coretype; /* set and read by the thread that starts jobs */

int job_set_coretype(int type)
{
	const struct topo *t = topo_this_machine();
	if (!t || type < 0 || type >= t->ncoretypes)
		return -1;
	pick_coretype = type;
	return 0;
}

int job_coretype(void)
{
	return pick_coretype;
}

int job_pick_cpu_of_coretype(int type)
{
	const struct topo *t = topo_this_machine();
	int cpus[1024], any = -1;
	int n = mt_allowed_cpus(cpus, (int)MT_ARRAY_LEN(cpus));
	int cur = job_current_cpu();
	if (!t || type < 0 || type >= t->ncoretypes)
		return -1;
	/* the highest of the type that is not ours (CPU 0 takes the interrupts) */
	for (int i = n - 1; i >= 0; i--) {
		const struct topo_cpu *c = topo_cpu(t, cpus[i]);
		if (!c || c->coretype != type)
			continue;
		if (cpus[i] != cur)
			return cpus[i];
		any = cpus[i];
	}
	return any;
}

int job_pick_cpu(void)
{
	int cpus[1024];
	int n = mt_allowed_cpus(cpus, (int)MT_ARRAY_LEN(cpus));
	int cur = job_current_cpu();
	int of_coretype = job_pick_cpu_of_coretype(pick_coretype);
	if (n <= 0)
		return -1;
	if (of_coretype >= 0)
		return of_coretype;
	if (n == 1)
		return cpus[0];
	/* The highest allowed CPU that is not ours: CPU 0 takes most
	 * interrupts and housekeeping on Linux. */
	for (int i = n - 1; i >= 0; i--)
		if (cpus[i] != cur)
			return cpus[i];
	return cpus[0];
}

job_t *job_start(job_fn fn, void *arg, const struct job_opts *o, mt_error *e)
{
	job_t *j = calloc(1, sizeof *j);
	int rc;
	if (!j) {
		mt_fail(e, _("out of memory"));
		return NULL;
	}
	j->fn = fn;
	j->arg = arg;
	j->cpu = o && o->cpu >= 0 ? o->cpu : job_pick_cpu();
	j->cells_total = o ? o->total : 0;
	j->cpu_first = j->cpu_last = j->ghz_cpu = -1;
	mt_run_clock_init(&j->clock);
	j->wake[0] = j->wake[1] = -1;
	atomic_init(&j->state, ST_RUN);
	if (pipe(j->wake) < 0) {
		mt_fail(e, _("pipe: %s"), strerror(errno));
		goto fail;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(j->wake[i], F_SETFL, fcntl(j->wake[i], F_GETFL) | O_NONBLOCK);
		fcntl(j->wake[i], F_SETFD, FD_CLOEXEC);
	}
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->cond, NULL);
	if (!mt_plat_can_pin()) {
		j->cpu = -1;
	} else if (j->cpu >= 0 && !mt_cpu_allowed(j->cpu)) {
		mt_fail(e, _("CPU %d is not online or not allowed for this process"), j->cpu);
		goto fail_sync;
	}
	j->t_start = mt_now_ns();
	rc = mt_thread_start(&j->thread, j->cpu, job_main, j);
	if (rc != 0) {
		mt_fail(e, _("cannot start the measuring thread: %s"), strerror(rc));
		goto fail_sync;
	}
	return j;
fail_sync:
	pthread_mutex_destroy(&j->lock);
	pthread_cond_destroy(&j->cond);
fail:
	if (j->wake[0] >= 0)
		close(j->wake[0]);
	if (j->wake[1] >= 0)
		close(j->wake[1]);
	free(j);
	return NULL;
}

int job_fd(const job_t *j)
{
	return j->wake[0];
}

size_t job_take(job_t *j, struct job_event *out, size_t max)
{
	size_t n = 0;
	char buf[64];
	pthread_mutex_lock(&j->lock);
	while (read(j->wake[0], buf, sizeof buf) > 0)
		;
	j->notified = 0;
	while (n < max && j->q_len) {
		out[n++] = j->q[j->q_head];
		j->q_head = (j->q_head + 1) % j->q_cap;
		j->q_len--;
	}
	if (j->q_len)
		wake_reader(j);
	pthread_mutex_unlock(&j->lock);
	return n;
}

void job_pause(job_t *j)
{
	int expect = ST_RUN;
	atomic_compare_exchange_strong(&j->state, &expect, ST_PAUSE);
}

void job_resume(job_t *j)
{
	int expect = ST_PAUSE;
	pthread_mutex_lock(&j->lock);
	atomic_compare_exchange_strong(&j->state, &expect, ST_RUN);
	pthread_cond_broadcast(&j->cond);
	pthread_mutex_unlock(&j->lock);
}

void job_cancel(job_t *j)
{
	pthread_mutex_lock(&j->lock);
	if (!j->t_cancel) {
		j->t_cancel = mt_now_ns();
		j->cpu_cancel = process_cpu_ns();
	}
	atomic_store(&j->state, ST_CANCEL);
	pthread_cond_broadcast(&j->cond);
	pthread_mutex_unlock(&j->lock);
}

int job_is_paused(const job_t *j)
{
	return atomic_load(&((job_t *)j)->state) == ST_PAUSE;
}

void job_get_progress(const job_t *cj, struct job_progress *p)
{
	job_t *j = (job_t *)cj;
	uint64_t now = mt_now_ns(), paused;
	pthread_mutex_lock(&j->lock);
	paused = j->paused_ns + (j->pause_started ? now - j->pause_started : 0);
	p->cells_done = j->cells_done;
	p->cells_total = j->cells_total;
	p->unit = j->unit ? j->unit : "cell";
	p->units_done = j->units_done;
	p->units_total = j->units_total;
	p->cpu = j->cpu;
	p->cpu_first = j->cpu_first;
	p->cpu_last = j->cpu_last;
	p->cpu_moved = j->cpu_moved;
	p->ghz_start = j->ghz_start;
	p->ghz_end = j->ghz_end;
	p->ghz_cpu = j->ghz_cpu;
	if (!j->finished && mt_run_clock_taken(&j->clock)) {
		p->ghz_start = j->clock.ghz_start;
		p->ghz_cpu = j->clock.cpu;
	}
	p->holding = j->pause_started != 0;
	p->finished = j->finished;
	pthread_mutex_unlock(&j->lock);
	p->elapsed_s = (double)(now - j->t_start - paused) / 1e9;
	if (p->units_total > 0)
		p->fraction = p->units_done / p->units_total;
	else if (p->cells_total > 0)
		p->fraction = (double)p->cells_done / (double)p->cells_total;
	else
		p->fraction = 0;
	if (p->fraction > 1)
		p->fraction = 1;
	p->eta_s = p->fraction > 0.02 ? p->elapsed_s * (1 - p->fraction) / p->fraction : -1;
	if (p->finished) {
		p->fraction = 1;
		p->eta_s = 0;
	}
}

void job_progress_cells(const struct job_progress *p, char *buf, size_t len)
{
	unsigned long long done = p->cells_done, total = p->cells_total;
	int pairs = p->unit && strcmp(p->unit, "pair") == 0;
	/* TRANSLATORS: progress: cells done of all the run's cells */
	if (total && pairs)
		mt_snprintf(buf, len, MT_NGETTEXT("%llu/%llu pair", "%llu/%llu pairs", total), done,
			    total);
	else if (total)
		mt_snprintf(buf, len, MT_NGETTEXT("%llu/%llu cell", "%llu/%llu cells", total), done,
			    total);
	else if (pairs)
		mt_snprintf(buf, len, MT_NGETTEXT("%llu pair", "%llu pairs", done), done);
	else
		mt_snprintf(buf, len, MT_NGETTEXT("%llu cell", "%llu cells", done), done);
}

/* MEMTOP_STOPSTAT=FILE: a line for a job cancelled before its worker
 * returned, the ms from the first job_cancel to the worker's return, to
 * its last event (the run's end clock taken), to job_join's start (the
 * reader took the last event), to its thread's end (t_thread) and to the
 * kept threads drained, and the CPU time all the process's threads used
 * meanwhile (near the wall time: memtop's own work; far under it: memtop
 * waited, for a CPU or for the kernel): where a stop's time goes
 * (bench/stops reads it). Unset: nothing. */
static void stop_stat(const job_t *j, uint64_t t_join, uint64_t t_thread)
{
	const char *path = getenv("MEMTOP_STOPSTAT");
	uint64_t drained = mt_now_ns();
	FILE *f;
	if (!path || !*path || !j->t_cancel || j->t_cancel > j->t_returned)
		return;
	if (!(f = fopen(path, "a")))
		return;
	/* machine text: bench/stops reads it */
	fprintf(f, "stop: worker returned %.1f ms, last event %.1f, join %.1f, thread ended %.1f, "
		   "drained %.1f; CPU %.1f ms; %llu/%llu cells\n",
		(double)(j->t_returned - j->t_cancel) / 1e6, (double)(j->t_last - j->t_cancel) / 1e6,
		(double)(t_join - j->t_cancel) / 1e6, (double)(t_thread - j->t_cancel) / 1e6,
		(double)(drained - j->t_cancel) / 1e6,
		(double)(process_cpu_ns() - j->cpu_cancel) / 1e6, (unsigned long long)j->cells_done,
		(unsigned long long)j->cells_total);
	fclose(f);
}

int job_join(job_t *j, mt_error *e)
{
	int status;
	uint64_t t_join = mt_now_ns(), t_thread;
	mt_thread_join(j->thread);
	t_thread = mt_now_ns();
	mt_thread_pool_drain(); /* the run's kept threads: none outlives it */
	stop_stat(j, t_join, t_thread);
	status = j->status;
	if (status < 0 && e)
		*e = j->err;
	close(j->wake[0]);
	close(j->wake[1]);
	pthread_mutex_destroy(&j->lock);
	pthread_cond_destroy(&j->cond);
	free(j->q);
	free(j);
	return status;
}
