/* Unit tests of the job API: cells arrive exactly once and in order,
 * progress only grows, pause holds the worker, cancel acts at the worker's
 * next check (counted in cells, not milliseconds: bench/ times it), a
 * failing worker reports its message, a cell's payload is read back as the
 * struct put and as no other. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testlib.h"

#include <math.h>
#include <poll.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "os/clock.h"
#include "os/platform.h"
#include "os/sysinfo.h"
#include "os/threads.h"
#include "run/diag.h"
#include "run/job.h"

#include <stdlib.h>
#include <sys/mman.h>

#define CELLS 500

/* The payload of counting_worker's cells. */
struct count_cell {
	int index;     /* the cell's number */
	double twice;  /* 2 x index */
};

/* A struct of the same size and layout, to be refused. */
struct other_cell {
	int index;
	double twice;
};

struct counting {
	int spin_ms;            /* busy work per cell */
	atomic_int started;     /* cells begun: each after a job_check() that let it */
	int endless;            /* cells until cancelled, not CELLS */
};

static void spin(int us)
{
	uint64_t t0 = mt_now_ns();
	while (mt_now_ns() - t0 < (uint64_t)us * 1000)
		;
}

static int counting_worker(job_t *job, void *arg, mt_error *e)
{
	struct counting *c = arg;
	(void)e;
	for (int i = 0; i < CELLS || c->endless; i++) {
		struct job_event ev;
		if (job_check(job) == JOB_CANCELLED)
			return 0;
		atomic_fetch_add(&c->started, 1);
		spin(c->spin_ms);
		job_cell(&ev, 0, i / 10, i % 10, i, 0);
		JOB_PAYLOAD_PUT(&ev, struct count_cell, &((struct count_cell){ i, 2.0 * i }));
		job_emit(job, &ev);
		job_set_progress(job, i + 1, CELLS);
	}
	return 0;
}

/* Waits (no time limit but a hang guard of a minute) until pred(j, c) or
 * the guard runs out; returns pred's last answer. Events, not a window: a
 * busy machine may keep the worker off its CPU for long. */
static int wait_until(int (*pred)(job_t *, struct counting *), job_t *j, struct counting *c)
{
	uint64_t t0 = mt_now_ns();
	while (!pred(j, c) && mt_now_ns() - t0 < 60000000000ull)
		usleep(1000);
	return pred(j, c);
}

static int three_started(job_t *j, struct counting *c)
{
	(void)j;
	return atomic_load(&c->started) >= 3;
}

static int holding(job_t *j, struct counting *c)
{
	struct job_progress p;
	(void)c;
	job_get_progress(j, &p);
	return p.holding;
}

static void every_cell_once_progress_grows(void **state)
{
	struct counting c = { 20, 0, 0 };
	struct job_opts o = { -1, CELLS };
	static int seen[CELLS];
	struct job_event evs[32];
	double last_fraction = 0;
	uint64_t last_done = 0;
	int ended = 0, cells = 0;
	mt_error e;
	job_t *j;
	(void)state;
	memset(seen, 0, sizeof seen);
	j = job_start(counting_worker, &c, &o, &e);
	assert_non_null(j);
	while (!ended) {
		struct pollfd p = { job_fd(j), POLLIN, 0 };
		struct job_progress pr;
		size_t n;
		assert_true(poll(&p, 1, 2000) >= 0);
		job_get_progress(j, &pr);
		assert_true(pr.fraction >= last_fraction);
		assert_true(pr.cells_done >= last_done);
		assert_true(pr.cells_total == CELLS);
		last_fraction = pr.fraction;
		last_done = pr.cells_done;
		n = job_take(j, evs, 32);
		for (size_t i = 0; i < n; i++) {
			if (evs[i].type == JOB_EV_CELL) {
				int k = (int)evs[i].value;
				struct count_cell x;
				assert_int_equal(JOB_PAYLOAD_GET(&evs[i], struct count_cell, &x), 0);
				assert_int_equal(x.index, k);
				assert_true(x.twice == 2.0 * k);
				assert_int_equal(k, cells); /* in order */
				assert_int_equal(evs[i].row * 10 + evs[i].col, k);
				seen[k]++;
				cells++;
			} else {
				assert_int_equal(evs[i].type, JOB_EV_DONE);
				ended = 1;
			}
		}
	}
	assert_int_equal(cells, CELLS);
	for (int i = 0; i < CELLS; i++)
		assert_int_equal(seen[i], 1);
	assert_int_equal(job_join(j, &e), 0);
}

/* job_cell: a CELL with the five figures and every other byte zero;
 * job_spread: (second - best) / best, 0 without a finite second or a
 * positive best. */
static void cell_and_spread(void **state)
{
	struct job_event ev, zero;
	(void)state;
	memset(&ev, 0xa5, sizeof ev);
	job_cell(&ev, 3, 4, 5, 6.5, 0.25);
	assert_int_equal(ev.type, JOB_EV_CELL);
	assert_int_equal(ev.subtype, 3);
	assert_int_equal(ev.row, 4);
	assert_int_equal(ev.col, 5);
	assert_true(ev.value == 6.5);
	assert_true(ev.spread == 0.25);
	memset(&zero, 0, sizeof zero);
	assert_memory_equal(ev.text, zero.text, sizeof ev.text);
	assert_memory_equal(ev.payload, zero.payload, sizeof ev.payload);
	assert_int_equal(JOB_PAYLOAD_GET(&ev, struct count_cell, &(struct count_cell){ 0 }), -1);
	assert_true(job_spread(2.0, 3.0) == 0.5);
	assert_true(job_spread(2.0, 2.0) == 0.0);
	assert_true(job_spread(2.0, INFINITY) == 0.0);
	assert_true(job_spread(2.0, NAN) == 0.0);
	assert_true(job_spread(0.0, 1.0) == 0.0);
}

/* A payload reads back as the struct put, field for field, the bytes after
 * it zeroed; read as another struct (even one of the same layout), or from
 * an event that carries none, it gives -1 and zeroes. */
static void payload_is_read_as_put(void **state)
{
	struct job_event ev;
	struct count_cell in = { 7, 14.5 }, out;
	struct other_cell other = { 1, 1 };
	(void)state;
	memset(&ev, 0, sizeof ev);
	assert_int_equal(JOB_PAYLOAD_GET(&ev, struct count_cell, &out), -1);
	assert_int_equal(out.index, 0);
	memset(ev.payload, 0xff, sizeof ev.payload);
	JOB_PAYLOAD_PUT(&ev, struct count_cell, &in);
	assert_string_equal(ev.payload_type, "struct count_cell");
	for (size_t i = sizeof in; i < sizeof ev.payload; i++)
		assert_int_equal(ev.payload[i], 0);
	assert_int_equal(JOB_PAYLOAD_GET(&ev, struct count_cell, &out), 0);
	assert_int_equal(out.index, 7);
	assert_true(out.twice == 14.5);
	assert_int_equal(JOB_PAYLOAD_GET(&ev, struct other_cell, &other), -1);
	assert_int_equal(other.index, 0);
	assert_true(other.twice == 0);
}

/* A cancel acts at the worker's next job_check(): after job_cancel()
 * returns, at most the one cell whose check had already passed begins. */
static void cancel_at_the_next_check(void **state)
{
	struct counting c = { 1000, 0, 1 }; /* 1 ms a cell, until cancelled */
	struct job_opts o = { -1, CELLS };
	mt_error e;
	int at_cancel;
	job_t *j;
	(void)state;
	j = job_start(counting_worker, &c, &o, &e);
	assert_non_null(j);
	assert_true(wait_until(three_started, j, &c)); /* inside the run */
	job_cancel(j);
	at_cancel = atomic_load(&c.started);
	assert_int_equal(job_join(j, &e), 1); /* cancelled */
	assert_true(atomic_load(&c.started) - at_cancel <= 1);
}

/* Pause holds the worker at its next check, with no cell while held, and
 * resume lets it go on. The worker runs until cancelled, so however late
 * the pause comes it is inside the run; each step waits for its event. */
static void pause_holds_the_worker(void **state)
{
	struct counting c = { 1000, 0, 1 };
	struct job_opts o = { -1, CELLS };
	struct job_progress a, b;
	mt_error e;
	job_t *j;
	(void)state;
	j = job_start(counting_worker, &c, &o, &e);
	assert_non_null(j);
	assert_true(wait_until(three_started, j, &c));
	job_pause(j);
	assert_true(job_is_paused(j));
	/* the worker reaches its next check (1 ms of work away) and holds */
	assert_true(wait_until(holding, j, &c));
	job_get_progress(j, &a);
	usleep(100000);
	job_get_progress(j, &b);
	assert_true(b.holding);
	assert_true(a.cells_done == b.cells_done); /* nothing while paused */
	assert_int_equal(atomic_load(&c.started), (int)b.cells_done); /* none begun either */
	job_resume(j);
	assert_false(job_is_paused(j));
	c.started = 0;
	assert_true(wait_until(three_started, j, &c)); /* it goes on */
	job_cancel(j);
	assert_int_equal(job_join(j, &e), 1);
}

static int failing_worker(job_t *job, void *arg, mt_error *e)
{
	(void)job;
	(void)arg;
	return mt_fail(e, "no memory for %d cells", 7);
}

static void failure_carries_the_message(void **state)
{
	struct job_opts o = { -1, 0 };
	struct job_event ev;
	mt_error e = { "" };
	job_t *j;
	(void)state;
	j = job_start(failing_worker, NULL, &o, &e);
	assert_non_null(j);
	for (int i = 0; i < 200 && job_take(j, &ev, 1) == 0; i++)
		usleep(5000);
	assert_int_equal(ev.type, JOB_EV_FAILED);
	assert_string_equal(ev.text, "no memory for 7 cells");
	assert_int_equal(job_join(j, &e), -1);
	assert_string_equal(e.msg, "no memory for 7 cells");
}

static int where_worker(job_t *job, void *arg, mt_error *e)
{
	(void)job;
	(void)e;
	*(int *)arg = job_current_cpu();
	return 0;
}

static void pinned_to_the_chosen_cpu(void **state)
{
	int cpu = job_pick_cpu(), ran = -2;
	struct job_opts o = { cpu, 0 };
	mt_error e;
	job_t *j;
	(void)state;
	j = job_start(where_worker, &ran, &o, &e);
	assert_non_null(j);
	assert_int_equal(job_join(j, &e), 0);
	assert_int_equal(ran, cpu);
	/* a CPU this process may not use is refused with a message */
	o.cpu = 4095;
	assert_null(job_start(where_worker, &ran, &o, &e));
	assert_non_null(strstr(e.msg, "CPU 4095"));
}

/* The one test of a job's last event, every type in turn: the batch loop and
 * the TUI end the job on exactly DONE, FAILED and CANCELLED. */
static void last_event_types(void **state)
{
	static const int last[] = { JOB_EV_DONE, JOB_EV_FAILED, JOB_EV_CANCELLED };
	static const int more[] = { JOB_EV_CELL, JOB_EV_UPDATE, JOB_EV_NOTE, 0, 99 };
	struct job_event ev;
	(void)state;
	memset(&ev, 0, sizeof ev);
	for (size_t i = 0; i < MT_ARRAY_LEN(last); i++) {
		ev.type = last[i];
		assert_int_equal(job_event_is_last(&ev), 1);
	}
	for (size_t i = 0; i < MT_ARRAY_LEN(more); i++) {
		ev.type = more[i];
		assert_int_equal(job_event_is_last(&ev), 0);
	}
}

/* The progress lines' count: out of the total, or without one when the
 * worker gave none (the False sharing and Lists tabs said "6/0 cells"),
 * in the unit the worker named (the Cores tab said "0 cells" of pairs). */
static void progress_cells_text(void **state)
{
	struct job_progress p;
	char buf[64];
	(void)state;
	memset(&p, 0, sizeof p);
	p.cells_done = 6;
	p.cells_total = 10;
	job_progress_cells(&p, buf, sizeof buf);
	assert_string_equal(buf, "6/10 cells");
	p.cells_total = 0;
	job_progress_cells(&p, buf, sizeof buf);
	assert_string_equal(buf, "6 cells");
	/* what a cell is, as the worker said (core-to-core: pairs), one or more */
	p.unit = "pair";
	p.cells_done = 0;
	p.cells_total = 1;
	job_progress_cells(&p, buf, sizeof buf);
	assert_string_equal(buf, "0/1 pair");
	p.cells_done = 3;
	p.cells_total = 28;
	job_progress_cells(&p, buf, sizeof buf);
	assert_string_equal(buf, "3/28 pairs");
	p.cells_total = 0;
	p.cells_done = 1;
	job_progress_cells(&p, buf, sizeof buf);
	assert_string_equal(buf, "1 pair");
}

static void *set_flag(void *arg)
{
	*(int *)arg = 1;
	return NULL;
}

struct where {
	pthread_t self;
	int cpu;
	int slept;
};

static void *note_where(void *arg)
{
	struct where *w = arg;
	mt_nap(20 * 1000 * 1000); /* mt_thread_join must wait for this */
	w->self = pthread_self();
	w->cpu = mt_plat_current_cpu();
	w->slept = 1;
	return NULL;
}

/* A thread pinned to a CPU is kept when its function returns: the next
 * start for that CPU runs on it (one thread made for three starts), on
 * that CPU, and mt_thread_join waits for the function; after
 * mt_thread_pool_drain the next start makes a new thread. An unpinned start
 * (-1) is never kept: two starts make two threads. */
static void pinned_threads_are_kept(void **state)
{
	unsigned long made0 = mt_threads_made(), started0 = mt_threads_started();
	struct where a = { 0 }, b = { 0 }, c = { 0 };
	int cpus[8], cpu;
	pthread_t t;
	(void)state;
	if (!mt_plat_can_pin() || mt_allowed_cpus(cpus, 8) < 1)
		skip(); /* no thread affinity: nothing is pinned, nothing kept */
	cpu = cpus[0];
	mt_thread_pool_drain();
	made0 = mt_threads_made();
	started0 = mt_threads_started();
	assert_int_equal(mt_thread_start(&t, cpu, note_where, &a), 0);
	assert_int_equal(mt_thread_join(t), 0);
	assert_int_equal(a.slept, 1);
	assert_int_equal(mt_thread_start(&t, cpu, note_where, &b), 0);
	assert_int_equal(mt_thread_join(t), 0);
	assert_int_equal(b.slept, 1);
	assert_true(pthread_equal(a.self, b.self));
	assert_int_equal(b.cpu, cpu);
	assert_int_equal(mt_threads_made(), made0 + 1);
	assert_int_equal(mt_threads_started(), started0 + 2);
	mt_thread_pool_drain();
	assert_int_equal(mt_thread_start(&t, cpu, note_where, &c), 0);
	assert_int_equal(mt_thread_join(t), 0);
	assert_int_equal(c.cpu, cpu);
	assert_int_equal(mt_threads_made(), made0 + 2);
	mt_thread_pool_drain();
	memset(&a, 0, sizeof a);
	assert_int_equal(mt_thread_start(&t, -1, note_where, &a), 0);
	assert_int_equal(mt_thread_join(t), 0);
	assert_int_equal(mt_thread_start(&t, -1, note_where, &b), 0);
	assert_int_equal(mt_thread_join(t), 0);
	assert_int_equal(a.slept + b.slept, 2);
	assert_int_equal(mt_threads_made(), made0 + 4);
	assert_int_equal(mt_threads_started(), started0 + 5);
}

/* A run's threads end with it: a job whose function starts pinned threads
 * leaves none kept once job_join returns (a thread started after it is a
 * new one). */
static int start_pinned(job_t *job, void *arg, mt_error *e)
{
	struct where w = { 0 };
	pthread_t t;
	(void)job;
	if (mt_thread_start(&t, *(int *)arg, note_where, &w) != 0)
		return mt_fail(e, "cannot start a thread");
	mt_thread_join(t);
	return w.slept ? 0 : mt_fail(e, "joined before the function returned");
}

static void job_ends_its_threads(void **state)
{
	struct job_opts o = { -1, 0 };
	struct where w = { 0 };
	unsigned long made0;
	int cpus[8], cpu;
	mt_error e;
	pthread_t t;
	job_t *j;
	(void)state;
	if (!mt_plat_can_pin() || mt_allowed_cpus(cpus, 8) < 1)
		skip();
	cpu = cpus[0];
	mt_thread_pool_drain();
	made0 = mt_threads_made();
	j = job_start(start_pinned, &cpu, &o, &e);
	assert_non_null(j);
	assert_int_equal(job_join(j, &e), 0);
	assert_int_equal(mt_threads_made(), made0 + 2); /* the job's and its measuring thread */
	assert_int_equal(mt_thread_start(&t, cpu, note_where, &w), 0);
	assert_int_equal(mt_thread_join(t), 0);
	assert_int_equal(mt_threads_made(), made0 + 3); /* none was kept past job_join */
	mt_thread_pool_drain();
}

/* Every thread of a run carries MT_RUN_THREAD_NAME (tests/soak.sh counts
 * them to see that a stop ended the run): the job's worker and the
 * measuring threads it starts, pinned (kept) or not; the thread that
 * started the job keeps its own name. */
struct names {
	char worker[16], pinned[16], loose[16];
};

static void *note_name(void *arg)
{
	char *name = arg;
	if (pthread_getname_np(pthread_self(), name, 16) != 0)
		name[0] = '\0';
	return NULL;
}

static int start_named(job_t *job, void *arg, mt_error *e)
{
	struct names *n = arg;
	int cpus[8], cpu = -1;
	pthread_t t;
	(void)job;
	note_name(n->worker);
	if (mt_plat_can_pin() && mt_allowed_cpus(cpus, 8) > 0)
		cpu = cpus[0];
	if (mt_thread_start(&t, cpu, note_name, n->pinned) != 0)
		return mt_fail(e, "cannot start a pinned thread");
	mt_thread_join(t);
	if (mt_thread_start(&t, -1, note_name, n->loose) != 0)
		return mt_fail(e, "cannot start a thread");
	mt_thread_join(t);
	return 0;
}

static void run_threads_carry_the_name(void **state)
{
	struct job_opts o = { -1, 0 };
	struct names n;
	char mine[16], after[16];
	mt_error e;
	job_t *j;
	(void)state;
	memset(&n, 0, sizeof n);
	assert_int_equal(pthread_getname_np(pthread_self(), mine, sizeof mine), 0);
	assert_string_not_equal(mine, MT_RUN_THREAD_NAME);
	j = job_start(start_named, &n, &o, &e);
	assert_non_null(j);
	assert_int_equal(job_join(j, &e), 0);
	assert_string_equal(n.worker, MT_RUN_THREAD_NAME);
	assert_string_equal(n.pinned, MT_RUN_THREAD_NAME);
	assert_string_equal(n.loose, MT_RUN_THREAD_NAME);
	assert_int_equal(pthread_getname_np(pthread_self(), after, sizeof after), 0);
	assert_string_equal(after, mine);
	mt_thread_pool_drain();
}

/* A measuring thread whose CPU is refused (offline, or taken from the
 * process mid-run: here CPU 1023, which no machine this runs on has)
 * starts unpinned, is counted, and the run's diagnostics say so. */
static void refused_cpu_starts_unpinned(void **state)
{
	unsigned long before = mt_threads_unpinned();
	char w[8][DIAG_LINE];
	struct diag d;
	pthread_t t;
	int ran = 0, n, said = 0;
	(void)state;
	if (!mt_plat_can_pin() || sysconf(_SC_NPROCESSORS_CONF) >= 1024)
		skip(); /* no thread affinity (nothing pinned, nothing refused), or a CPU 1023 */
	diag_begin(&d, -1);
	assert_int_equal(mt_thread_start(&t, 1023, set_flag, &ran), 0);
	mt_thread_join(t);
	assert_int_equal(ran, 1);
	assert_int_equal(mt_threads_unpinned(), before + 1);
	diag_end(&d, NULL);
	assert_int_equal(d.unpinned, 1);
	n = diag_warnings(&d, w, 8);
	for (int i = 0; i < n; i++)
		said |= strcmp(w[i], "1 measuring thread could not be pinned: its CPU went offline "
				     "or was taken away during the run, and the kernel placed it") == 0;
	assert_true(said);
}

/* job_populate over three stretches and a half: a job cancelled first
 * stops after the first stretch (no page of the others resident: mincore;
 * where the kernel gives pages, exactly the first stretch's), a job going
 * on asks for them all. */
struct populated {
	int cancelled_rc, go_rc;
	size_t in_first, in_rest, pages_first;
};

static int populate_worker(job_t *job, void *arg, mt_error *e)
{
	struct populated *r = arg;
	const size_t len = 3 * MT_POPULATE_STEP + MT_POPULATE_STEP / 2;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = len / page;
	char *p = mt_map_2m(len, 0), *q = mt_map_2m(len, 0);
	unsigned char *vec = malloc(pages);
	(void)e;
	if (!p || !q || !vec)
		return -1;
	r->go_rc = job_populate(job, q, len);
	job_cancel(job);
	r->cancelled_rc = job_populate(job, p, len);
	r->pages_first = MT_POPULATE_STEP / page;
	if (mincore(p, len, vec) == 0)
		for (size_t i = 0; i < pages; i++) {
			if (i < r->pages_first)
				r->in_first += vec[i] & 1;
			else
				r->in_rest += vec[i] & 1;
		}
	free(vec);
	munmap(p, len);
	munmap(q, len);
	return 0;
}

static void populate_stops_after_a_stretch(void **state)
{
	static struct populated r;
	struct job_opts o = { -1, 0 };
	mt_error e;
	job_t *job;
	(void)state;
	memset(&r, 0, sizeof r);
	job = job_start(populate_worker, &r, &o, &e);
	assert_non_null(job);
	assert_int_equal(job_join(job, &e), 1);
	assert_int_equal(r.go_rc, JOB_GO);
	assert_int_equal(r.cancelled_rc, JOB_CANCELLED);
	assert_int_equal(r.in_rest, 0);
	assert_true(r.in_first == 0 || r.in_first == r.pages_first); /* 0: the kernel declined */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_cell_once_progress_grows),
		cmocka_unit_test(progress_cells_text),
		cmocka_unit_test(cell_and_spread),
		cmocka_unit_test(payload_is_read_as_put),
		cmocka_unit_test(last_event_types),
		cmocka_unit_test(cancel_at_the_next_check),
		cmocka_unit_test(pause_holds_the_worker),
		cmocka_unit_test(failure_carries_the_message),
		cmocka_unit_test(refused_cpu_starts_unpinned),
		cmocka_unit_test(pinned_threads_are_kept),
		cmocka_unit_test(job_ends_its_threads),
		cmocka_unit_test(run_threads_carry_the_name),
		cmocka_unit_test(populate_stops_after_a_stretch),
		MT_SKIP_IF(job_pick_cpu() < 0 ? "no CPU to pin a job to" : NULL,
			   pinned_to_the_chosen_cpu),
	};
	return cmocka_run_group_tests_name("job", tests, NULL, NULL);
}
