/* cores: the ping-pong of one pair and the worker. See cores.h. */
#include "config.h"

#include "cores.h"
#include "base/i18n.h"
#include "os/clock.h"
#include "os/sysinfo.h"
#include "os/threads.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define CORES_MAX_TRIES 100
/* The coordinator's looks at the job (pause, cancel) while a try runs, and
 * the measuring threads' looks at the stop flag while they wait. */
#define CHECK_EVERY_NS 50000000ull
/* Failed spins between two looks at the stop flag, and between two offers
 * of the CPU to the other thread (spin_wait). */
#define SPINS_PER_LOOK 65536u
#define SPINS_PER_YIELD 1024u

/* One pair's shared state; the flags on their own lines, the ping-pong line
 * on its own page. */
struct pong {
	_Alignas(128) atomic_int touched; /* the first thread has touched the line */
	_Alignas(128) atomic_int stop;
	_Alignas(128) struct mt_waitgroup go;   /* try k may start when k + 1 are "done" */
	_Alignas(128) struct mt_waitgroup done; /* each thread's end of each try */
	_Atomic uint64_t *line, *line2; /* this try's; line2: the second thread's (CORES_RW) */
	unsigned char *mem;             /* a fresh page a try, each at its own address */
	size_t page;
	const struct cores_params *p;
	int cpu[2];
	double rt_ns[CORES_MAX_TRIES];      /* the first thread's fastest sample, a round trip */
	atomic_int moved[CORES_MAX_TRIES];  /* a thread was seen off its CPU in try k */
};

struct pong_arg {
	struct pong *g;
	int role; /* 0: the first thread (touches the line, times), 1: the second */
};

/* The n-th spin of a wait: every SPINS_PER_YIELD the CPU is offered to the
 * other thread (the two may share one CPU: oversubscribed, or CPUs taken
 * away mid-run; without it each round trip waited out a time slice, and
 * a run cut to one CPU had not ended after 120 s), every SPINS_PER_LOOK
 * the stop flag is read. On two CPUs a round trip takes far fewer spins.
 * Returns -1 when stopped. */
static int spin_wait(struct pong *g, unsigned n)
{
	if (n % SPINS_PER_YIELD == 0)
		sched_yield();
	return n % SPINS_PER_LOOK == 0 && atomic_load_explicit(&g->stop, memory_order_relaxed)
		       ? -1
		       : 0;
}

/* Wait for *line == from, then swap it to to. Returns 0, or -1 when the
 * stop flag was raised meanwhile. */
static int swap_when(struct pong *g, uint64_t from, uint64_t to)
{
	unsigned n = 0;
	for (;;) {
		uint64_t v = atomic_load_explicit(g->line, memory_order_relaxed);
		if (v == from && atomic_compare_exchange_strong_explicit(
					 g->line, &v, to, memory_order_acq_rel, memory_order_relaxed))
			return 0;
		if (spin_wait(g, ++n) < 0)
			return -1;
	}
}

/* Wait for *line == v (CORES_RW). Returns 0, or -1 when stopped. */
static int wait_for(struct pong *g, _Atomic uint64_t *line, uint64_t v)
{
	unsigned n = 0;
	while (atomic_load_explicit(line, memory_order_acquire) != v)
		if (spin_wait(g, ++n) < 0)
			return -1;
	return 0;
}

/* One round trip from the first thread, round *i (advanced): CAS, the line
 * from 2i to 2i+1 (the second thread answers 2i+2); RW, i+1 stored on the
 * first line, answered on the second. Returns 0, -1 when stopped. */
static int ping_round(struct pong *g, uint64_t *i)
{
	if (g->p->method == CORES_RW) {
		*i += 1;
		atomic_store_explicit(g->line, *i, memory_order_release);
		return wait_for(g, g->line2, *i);
	}
	*i += 2;
	return swap_when(g, *i - 2, *i - 1);
}

/* The first thread's try: samples of rounds round trips, each timed (*i
 * counts the rounds so far, as the line's values do). Returns the fastest
 * sample's ns a round trip, or NAN when stopped. */
static double ping(struct pong *g, uint64_t *i)
{
	const struct cores_params *p = g->p;
	double best = INFINITY;
	for (int s = 0; s < p->samples; s++) {
		uint64_t t0 = mt_now_ns(), t1;
		for (int r = 0; r < p->rounds; r++)
			if (ping_round(g, i) < 0)
				return NAN;
		if (p->method == CORES_CAS && wait_for(g, g->line, *i) < 0) /* the last answer */
			return NAN;
		t1 = mt_now_ns();
		if ((double)(t1 - t0) < best)
			best = (double)(t1 - t0);
	}
	return best / p->rounds;
}

/* The second thread's try: answers every ping. Returns 0, -1 when stopped. */
static int pong(struct pong *g, uint64_t *i)
{
	uint64_t n = (uint64_t)g->p->samples * (uint64_t)g->p->rounds;
	for (uint64_t k = 0; k < n; k++) {
		if (g->p->method == CORES_RW) {
			*i += 1;
			if (wait_for(g, g->line, *i) < 0)
				return -1;
			atomic_store_explicit(g->line2, *i, memory_order_release);
		} else {
			*i += 2;
			if (swap_when(g, *i - 1, *i) < 0)
				return -1;
		}
	}
	return 0;
}

/* Spin (the core comes up to speed after pinning: c2clat PR #5). */
static void warm_up(long ns)
{
	uint64_t end = mt_now_ns() + (uint64_t)(ns > 0 ? ns : 0);
	while (mt_now_ns() < end)
		;
}

static void *pong_main(void *arg)
{
	struct pong_arg *pa = arg;
	struct pong *g = pa->g;
	if (pa->role == 0) { /* first touch: the pages are the first thread's */
		for (int k = 0; k < g->p->tries; k++)
			memset(g->mem + (size_t)k * g->page, 0, 256);
		atomic_store(&g->touched, 1);
	}
	warm_up(g->p->warm_ns);
	while (pa->role == 1 && !atomic_load(&g->touched) && !atomic_load(&g->stop))
		mt_nap(100000);
	for (int k = 0; k < g->p->tries; k++) {
		uint64_t i = 0; /* a try starts on its own line at 0 */
		int c0, c1;
		while (mt_waitgroup_wait(&g->go, k + 1, CHECK_EVERY_NS) < k + 1)
			if (atomic_load(&g->stop))
				return NULL;
		if (atomic_load(&g->stop))
			return NULL;
		c0 = job_current_cpu();
		if (pa->role == 0)
			g->rt_ns[k] = ping(g, &i);
		else if (pong(g, &i) < 0)
			return NULL;
		c1 = job_current_cpu();
		if ((c0 >= 0 && c0 != g->cpu[pa->role]) || (c1 >= 0 && c1 != g->cpu[pa->role]))
			atomic_store(&g->moved[k], 1);
		mt_waitgroup_done(&g->done);
	}
	return NULL;
}

/* Release the tries one by one, checking the job between them and while
 * one runs. Returns the tries finished; *cancelled set on a cancel. */
static int run_tries(struct pong *g, job_t *job, int *cancelled)
{
	int k;
	for (k = 0; k < g->p->tries; k++) {
		if (job && job_check(job) == JOB_CANCELLED)
			break;
		/* try k's line on page k: a line's home in the L3 (a mesh stop, a
		 * slice) follows its address, and so does its transfer time */
		g->line = (_Atomic uint64_t *)(void *)(g->mem + (size_t)k * g->page);
		g->line2 = (_Atomic uint64_t *)(void *)(g->mem + (size_t)k * g->page + 128);
		mt_waitgroup_done(&g->go);
		while (mt_waitgroup_wait(&g->done, 2 * (k + 1), CHECK_EVERY_NS) < 2 * (k + 1))
			if (job && job_check(job) == JOB_CANCELLED)
				goto cancel;
	}
	if (k == g->p->tries)
		return k;
cancel:
	*cancelled = 1;
	return k;
}

/* The best try and the spread from the second best, over the tries no
 * thread moved in. */
static void best_of(const struct pong *g, int tries, double *ns, double *spread, int *moved,
		    int *kept)
{
	double best = INFINITY, second = INFINITY;
	*moved = *kept = 0;
	for (int k = 0; k < tries; k++) {
		double v = g->rt_ns[k] / 2; /* one-way = round trip / 2 */
		if (atomic_load(&g->moved[k])) {
			(*moved)++;
			continue;
		}
		if (!isfinite(v))
			continue;
		(*kept)++;
		if (v < best) {
			second = best;
			best = v;
		} else if (v < second) {
			second = v;
		}
	}
	*ns = isfinite(best) ? best : (double)NAN;
	*spread = job_spread(best, second);
}

/* Start the two threads; *started gets how many did. Returns 0 or -1. */
static int start_pair(struct pong *g, struct pong_arg *pa, pthread_t *tid, int *started,
		      mt_error *e)
{
	for (int r = 0; r < 2; r++) {
		int prc;
		pa[r].g = g;
		pa[r].role = r;
		prc = mt_thread_start(&tid[r], g->cpu[r], pong_main, &pa[r]);
		if (prc != 0)
			return mt_fail(e, _("cores: cannot start a thread on CPU %d: %s"), g->cpu[r],
				       strerror(prc));
		(*started)++;
	}
	return 0;
}

int cores_pingpong(int a, int b, const struct cores_params *p, job_t *job, double *ns,
		   double *spread, int *moved, int *kept, int *cancelled, mt_error *e)
{
	size_t page = (size_t)mt_page_size();
	struct pong *g = NULL;
	struct pong_arg pa[2];
	pthread_t tid[2];
	void *mem = MAP_FAILED;
	int started = 0, rc = -1, done;
	*ns = NAN;
	*spread = 0;
	*moved = *kept = *cancelled = 0;
	if (a == b || a < 0 || b < 0 || p->tries < 1 || p->tries > CORES_MAX_TRIES ||
	    p->samples < 1 || p->rounds < 1)
		return mt_fail(e, _("cores: bad pair %d, %d or parameters"), a, b);
	if (posix_memalign((void **)&g, 128, sizeof *g) != 0)
		return mt_fail(e, _("cores: out of memory"));
	memset(g, 0, sizeof *g);
	if (mt_waitgroup_init(&g->go, e) < 0)
		goto free_g;
	if (mt_waitgroup_init(&g->done, e) < 0)
		goto free_go;
	/* a fresh page for every pair, touched first by the first thread */
	mem = mmap(NULL, page * (size_t)p->tries, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		mt_fail(e, _("cores: cannot map a page: %s"), strerror(errno));
		goto free_done;
	}
	g->mem = mem; /* line2 128 bytes on: its own line, not an adjacent-line pair */
	g->page = page;
	g->p = p;
	g->cpu[0] = a;
	g->cpu[1] = b;
	if (start_pair(g, pa, tid, &started, e) == 0) {
		done = run_tries(g, job, cancelled);
		best_of(g, done, ns, spread, moved, kept);
		rc = 0;
	}
	atomic_store(&g->stop, 1);
	for (int r = 0; r < started; r++)
		mt_thread_join(tid[r]);
	munmap(mem, page * (size_t)p->tries);
free_done:
	mt_waitgroup_destroy(&g->done);
free_go:
	mt_waitgroup_destroy(&g->go);
free_g:
	free(g);
	return rc;
}

/* Pair k of pl measured and emitted as a cell of kind pass (0 the first,
 * 1 the second). Returns 0, 1 when cancelled, or -1 with e. */
static int one_pair(job_t *job, const struct cores_plan *pl, size_t k, int pass, mt_error *e)
{
	const struct cores_pair *q = &pl->pairs[k];
	int a = pl->cpus[q->ia], b = pl->cpus[q->ib], moved, kept, cancelled;
	struct job_event ev;
	double ns, spread;
	if (job_check(job) == JOB_CANCELLED)
		return 1;
	if (cores_pingpong(a, b, &pl->p, job, &ns, &spread, &moved, &kept, &cancelled, e) < 0)
		return -1;
	if (cancelled)
		return 1;
	if (kept == 0)
		job_note(job, CORES_SAYS_NO_TRY, a, b, moved, pl->p.tries);
	job_cell(&ev, pass, (int)k, 0, ns, spread);
	JOB_PAYLOAD_PUT(&ev, struct cores_ev_pair,
			&((struct cores_ev_pair){ .moved = moved, .kept = kept }));
	return job_emit(job, &ev) < 0 ? mt_fail(e, _("cores: out of memory")) : 0;
}

int cores_worker(job_t *job, void *arg, mt_error *e)
{
	const struct cores_plan *pl = arg;
	size_t second = cores_second_count(pl), total = pl->npairs + second;
	int rc = 0;
	job_set_total(job, total);
	job_set_unit(job, "pair");
	for (size_t k = 0; k < pl->npairs && rc == 0; k++) {
		rc = one_pair(job, pl, k, 0, e);
		job_set_progress(job, (double)(k + 1), (double)total);
	}
	/* the second pass: some pairs again, in reverse order */
	for (size_t j = 0; j < second && rc == 0; j++) {
		rc = one_pair(job, pl, cores_second_pair(pl, j), 1, e);
		job_set_progress(job, (double)(pl->npairs + j + 1), (double)total);
	}
	return rc < 0 ? -1 : 0;
}
