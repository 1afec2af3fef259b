/* Unit tests of the bandwidth lab's worker: it streams a checked table;
 * the pages it asks for, uses and says; the core clock around each try
 * (from the first measuring thread, each cell divided by the clock around
 * its own try, the run clock read strictly); the load ports' canary and its
 * verdict; the loaded sweep; a cancel stops the threads, between short
 * tries and within a fill. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bandwidth/bandwidth.h"
#include "os/clock.h"
#include "os/platform.h"
#include "os/sysinfo.h"
#include "os/threads.h"
#include "run/job.h"
#include "testjob.h"
#include "testlib.h"

/* Run p to its end, applying every event to r; returns the cells seen. */
static int run_job(struct bandwidth_params *p, struct bandwidth_result *r, int *notes)
{
	struct job_opts o = { -1, 0 };
	struct job_event ev[64];
	mt_error e;
	job_t *job;
	int ended = 0, cells = 0;
	bandwidth_result_init(r, p);
	*notes = 0;
	job = job_start(bandwidth_worker, p, &o, &e);
	assert_non_null(job);
	while (!ended) {
		size_t n = test_job_wait(job, ev, 64);
		for (size_t i = 0; i < n; i++) {
			if (ev[i].type == JOB_EV_CELL)
				cells++;
			if (ev[i].type == JOB_EV_NOTE)
				(*notes)++;
			else if (ev[i].type != JOB_EV_CELL && ev[i].type != JOB_EV_UPDATE)
				ended = ev[i].type;
			bandwidth_result_apply(r, &ev[i]);
		}
	}
	assert_int_equal(job_join(job, &e), 0);
	assert_int_equal(ended, JOB_EV_DONE);
	return cells;
}

static void worker_streams_checked_table(void **state)
{
	static struct bandwidth_params p;
	static struct bandwidth_result r, back;
	mt_error e;
	cJSON *j;
	int notes;
	(void)state;
	bandwidth_params_default(&p, NULL);
	assert_int_equal(bandwidth_set_sizes(&p, (const uint64_t[]){ 16384, 300000 }, 2, &e), 0);
	p.threads[0] = 1;
	p.threads[1] = 3; /* oversubscribed on a machine with fewer CPUs: still exact */
	p.nthreads = 2;
	p.min_tries = p.max_tries = 1;
	p.try_ns = 1e5;
	assert_int_equal(run_job(&p, &r, &notes), (int)(2 * p.nkernels * 2));
	assert_int_equal(r.wrong, 0);
	for (size_t s = 0; s < 2; s++)
		for (size_t k = 0; k < p.nkernels; k++)
			for (size_t t = 0; t < 2; t++) {
				const struct bandwidth_cell *c = &r.cell[s][p.kernels[k]][t];
				struct bandwidth_layout l;
				bandwidth_layout(p.kernels[k], &p.sizes[s], p.threads[t], 1, &l);
				assert_true(c->have && c->checked && c->gbs > 0);
				assert_true(c->pass_bytes == (double)(l.pass_bytes * p.threads[t]));
			}
	/* JSON round trip: the same cells come back */
	j = bandwidth_result_to_json(&r);
	assert_non_null(j);
	assert_true(bandwidth_result_is(j));
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), 0);
	assert_int_equal(back.nsizes, 2);
	assert_int_equal(back.nthreads, 2);
	assert_int_equal(back.nkernels, p.nkernels);
	assert_int_equal(bandwidth_result_measured(&back), bandwidth_result_measured(&r));
	assert_true(fabs(back.cell[1][BANDWIDTH_TRIAD][1].gbs - r.cell[1][BANDWIDTH_TRIAD][1].gbs) < 0.001);
	/* a broken file names the field */
	cJSON_ReplaceItemInObject(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "results"), 0), "kernel",
				  cJSON_CreateString("stream"));
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), -1);
	assert_non_null(strstr(e.msg, "t.json: results[0]: field \"kernel\""));
	cJSON_Delete(j);
}

/* --pages: the words; what each resolves to under each THP mode; the
 * result keeps what was asked, what was used and, from the worker's note,
 * how much was huge; the JSON says it and reads it back; a file without it
 * does not say; a wrong one is refused naming the field. */
static void pages_asked_used_and_said(void **state)
{
	static struct bandwidth_params p;
	static struct bandwidth_result r, back;
	static const struct {
		int asked;
		const char *thp;
		int used;
	} cases[] = {
		{ BANDWIDTH_PAGES_4K, "always", BANDWIDTH_PAGES_4K },     { BANDWIDTH_PAGES_4K, "madvise", BANDWIDTH_PAGES_4K },
		{ BANDWIDTH_PAGES_HUGE, "madvise", BANDWIDTH_PAGES_HUGE }, { BANDWIDTH_PAGES_HUGE, "never", BANDWIDTH_PAGES_HUGE },
		{ BANDWIDTH_PAGES_AUTO, "always", BANDWIDTH_PAGES_HUGE }, { BANDWIDTH_PAGES_AUTO, "madvise", BANDWIDTH_PAGES_HUGE },
		{ BANDWIDTH_PAGES_AUTO, "never", BANDWIDTH_PAGES_4K },    { BANDWIDTH_PAGES_AUTO, "", BANDWIDTH_PAGES_4K },
	};
	struct job_event ev;
	mt_error e;
	cJSON *j, *pg;
	(void)state;
	assert_int_equal(bandwidth_pages_parse("4k"), BANDWIDTH_PAGES_4K);
	assert_int_equal(bandwidth_pages_parse("huge"), BANDWIDTH_PAGES_HUGE);
	assert_int_equal(bandwidth_pages_parse("auto"), BANDWIDTH_PAGES_AUTO);
	assert_int_equal(bandwidth_pages_parse("2m"), -1);
	assert_int_equal(bandwidth_pages_parse("4K"), -1);
	assert_null(bandwidth_pages_name(3));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(bandwidth_pages_used(cases[i].asked, cases[i].thp), cases[i].used);
	bandwidth_params_default(&p, NULL);
	assert_int_equal(p.pages, BANDWIDTH_PAGES_4K); /* the default */
	assert_int_equal(bandwidth_set_sizes(&p, (const uint64_t[]){ 1 << 20, 3 << 20 }, 2, &e), 0);
	p.pages_asked = BANDWIDTH_PAGES_AUTO;
	p.pages = BANDWIDTH_PAGES_HUGE;
	/* the largest layout and a page of slack, in whole 2 MB */
	assert_int_equal(bandwidth_buffer_bytes(&p) % (2u << 20), 0);
	assert_true(bandwidth_buffer_bytes(&p) >= bandwidth_table_bytes(&p) + 4096);
	assert_true(bandwidth_buffer_bytes(&p) < bandwidth_table_bytes(&p) + 4096 + (2u << 20));
	bandwidth_result_init(&r, &p);
	assert_true(r.pages.asked == BANDWIDTH_PAGES_AUTO && r.pages.used == BANDWIDTH_PAGES_HUGE);
	assert_true(r.pages.huge_bytes == -1); /* before the note */
	memset(&ev, 0, sizeof ev);
	ev.type = JOB_EV_NOTE;
	ev.subtype = BANDWIDTH_NOTE_PAGES;
	ev.value = 2u << 20;
	assert_int_equal(bandwidth_result_apply(&r, &ev), 0); /* a note, not a cell */
	assert_true(r.pages.huge_bytes == 2u << 20);
	j = bandwidth_result_to_json(&r);
	assert_non_null(j);
	pg = cJSON_GetObjectItem(j, "pages");
	assert_string_equal(cJSON_GetObjectItem(pg, "asked")->valuestring, "auto");
	assert_string_equal(cJSON_GetObjectItem(pg, "used")->valuestring, "huge");
	assert_true(cJSON_GetObjectItem(pg, "huge_bytes")->valuedouble == 2u << 20);
	assert_true(cJSON_GetObjectItem(pg, "buffer_bytes")->valuedouble ==
		    (double)bandwidth_buffer_bytes(&p));
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), 0);
	assert_true(back.pages.asked == BANDWIDTH_PAGES_AUTO && back.pages.used == BANDWIDTH_PAGES_HUGE);
	assert_true(back.pages.huge_bytes == 2u << 20);
	assert_true(back.pages.buffer_bytes == bandwidth_buffer_bytes(&p));
	/* more huge than the buffer: refused, naming the field */
	cJSON_SetNumberValue(cJSON_GetObjectItem(pg, "huge_bytes"), 1e12);
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), -1);
	assert_non_null(strstr(e.msg, "t.json: field \"pages.huge_bytes\""));
	cJSON_ReplaceItemInObject(pg, "huge_bytes", cJSON_CreateNull());
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), 0);
	assert_true(back.pages.huge_bytes == -1); /* null: not known */
	cJSON_ReplaceItemInObject(pg, "used", cJSON_CreateString("2m"));
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), -1);
	assert_non_null(strstr(e.msg, "t.json: field \"pages\""));
	/* a file from before: no "pages", nothing said */
	cJSON_DeleteItemFromObject(j, "pages");
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), 0);
	assert_true(back.pages.asked == -1 && back.pages.huge_bytes == -1);
	cJSON_Delete(j);
}

static void worker_loaded_sweep(void **state)
{
	static struct bandwidth_params p;
	static struct bandwidth_result r;
	int notes;
	(void)state;
	bandwidth_params_default(&p, NULL);
	p.loaded = 2;
	p.chase_bytes = p.loader_bytes = 4 << 20;
	p.delays[0] = 2000;
	p.delays[1] = 0;
	p.ndelays = 2;
	p.point_ns = 2e6; /* short tries: what is asserted does not hang on their length */
	p.loaded_tries = 2;
	if (p.ncpus < 2) {
		assert_int_equal(run_job(&p, &r, &notes), 0);
		assert_int_equal(notes, 1); /* "needs 2 CPUs" */
		return;
	}
	assert_int_equal(run_job(&p, &r, &notes), 3);
	assert_true(r.pts[0].have && r.pts[0].idle);
	assert_true(r.pts[0].gbs == 0);
	assert_true(r.pts[0].latency_ns > 0);
	assert_true(r.pts[1].have && !r.pts[1].idle && r.pts[1].delay_ns == 2000);
	assert_true(r.pts[2].have && r.pts[2].delay_ns == 0);
	/* Every loaded point was measured while the loaders moved bytes: a try
	 * goes on until they have, however long a busy machine keeps them off
	 * their CPU (a fixed 20 ms window, or 0.6 ms after a preempted
	 * calibration, saw none 3 times in 50 beside stress-ng --cpu 4). */
	assert_true(r.pts[1].gbs > 0);
	assert_true(r.pts[2].gbs > 0);
}

static void cancel_stops_threads(void **state)
{
	static struct bandwidth_params p;
	mt_error e;
	(void)state;
	bandwidth_params_default(&p, NULL);
	assert_int_equal(bandwidth_set_sizes(&p, (const uint64_t[]){ 64ull << 20 }, 1, &e), 0);
	p.min_tries = p.max_tries = 100;
	p.try_ns = 1e9; /* minutes */
	/* seconds, as the other cancel tests allow: a ThreadSanitizer build took 2 s */
	assert_true(test_job_cancel_after(bandwidth_worker, &p, 200) < 5000000000ull);
}

/* Short runs for the clock's tests: the read kernel at 16K, threads
 * threads, one timed try of 0.1 ms a cell. */
static void short_read_params(struct bandwidth_params *p, unsigned threads)
{
	mt_error e;
	bandwidth_params_default(p, NULL);
	assert_int_equal(bandwidth_set_sizes(p, (const uint64_t[]){ 16384 }, 1, &e), 0);
	p->kernels[0] = BANDWIDTH_READ;
	p->nkernels = 1;
	p->threads[0] = threads;
	p->nthreads = 1;
	p->min_tries = p->max_tries = 1;
	p->try_ns = 1e5;
}

/* A stand-in for the clock's measurement: notes the thread and CPU of each
 * call; 6.5 GHz at the start, 7.5 at the end. No timing. */
static struct {
	int calls;
	pthread_t tid[8];
	int cpu[8];
	pthread_t worker;
} fake_clock;

static double fake_measure(void)
{
	int i = fake_clock.calls++;
	if (i < 8) {
		fake_clock.tid[i] = pthread_self();
		fake_clock.cpu[i] = sched_getcpu();
	}
	return i == 0 ? 6.5 : 7.5;
}

/* The lab's worker with the fake clock in the job's run clock. */
static int worker_with_fake_clock(job_t *job, void *arg, mt_error *e)
{
	fake_clock.worker = pthread_self();
	job_run_clock(job)->measure = fake_measure;
	return bandwidth_worker(job, arg, e);
}

/* The clock a bandwidth run turns into bytes a cycle is measured on its
 * first measuring thread, on that thread's CPU (--cpus), once at the start
 * of the run and once at its end, never on the job's worker: with two
 * CPUs the job sits on one and the threads on the other (the 103 % shares
 * of the last session came from a clock taken on the job's CPU). */
static void clock_from_the_first_measuring_thread(void **state)
{
	static struct bandwidth_params p;
	int cpus[1024], n = mt_allowed_cpus(cpus, 1024), done = 0;
	struct job_opts o = { -1, 0 };
	struct job_progress pr;
	struct job_event ev[64];
	mt_error e;
	job_t *job;
	(void)state;
	memset(&fake_clock, 0, sizeof fake_clock);
	short_read_params(&p, 2);
	p.kernels[1] = BANDWIDTH_WRITE;
	p.nkernels = 2;
	if (n >= 2) {
		o.cpu = cpus[0];
		p.cpus[0] = cpus[n - 1];
		p.cpus[1] = cpus[0];
		p.ncpus = 2;
	}
	job = job_start(worker_with_fake_clock, &p, &o, &e);
	assert_non_null(job);
	while (!done) {
		size_t k = test_job_wait(job, ev, 64);
		for (size_t i = 0; i < k; i++)
			done |= ev[i].type == JOB_EV_DONE || ev[i].type == JOB_EV_FAILED;
	}
	job_get_progress(job, &pr);
	assert_int_equal(job_join(job, &e), 0);
	/* many tries started many threads: the clock was taken once, then at the end */
	assert_int_equal(fake_clock.calls, 2);
	assert_false(pthread_equal(fake_clock.tid[0], fake_clock.worker));
	assert_true(pr.ghz_start == 6.5 && pr.ghz_end == 7.5);
	assert_int_equal(pr.ghz_cpu, fake_clock.cpu[0]);
	assert_int_equal(fake_clock.cpu[1], fake_clock.cpu[0]);
	if (n >= 2 && fake_clock.cpu[0] >= 0) {
		assert_int_equal(pr.ghz_cpu, p.cpus[0]);
		assert_int_not_equal(pr.ghz_cpu, pr.cpu);
	}
}

/* A stand-in for the short look at the clock around a try: call i is
 * the (i % 2 ? after : before) of try i / 2, before 2.0 + i / 2 GHz and
 * after 2.5 + i / 2, so a try's mean is 2.25 + its number (2.0 + or
 * 2.5 + it when the other look lost its CPU on a busy machine and was
 * left out); notes the thread of each call. No timing. */
static struct {
	int calls;
	int on_worker; /* calls made on the job's worker thread */
} fake_try;

static double fake_measure_try(void)
{
	int i = fake_try.calls++;
	fake_try.on_worker += pthread_equal(pthread_self(), fake_clock.worker) != 0;
	return (i % 2 ? 2.5 : 2.0) + i / 2;
}

/* Whether ghz is what one try's fake looks give: their mean (2.25 + n),
 * or one of them (2.0 + n, 2.5 + n) when the other was left out. */
static int fake_look(double ghz)
{
	double f = ghz - 2.0 - (int)(ghz - 2.0);
	return ghz >= 2.0 && (f == 0 || f == 0.25 || f == 0.5);
}

static int worker_with_fake_try_clock(job_t *job, void *arg, mt_error *e)
{
	fake_clock.worker = pthread_self();
	job_run_clock(job)->measure = fake_measure;
	job_run_clock(job)->measure_try = fake_measure_try;
	return bandwidth_worker(job, arg, e);
}

/* A one-thread cell's bytes a cycle divide by the clock measured right
 * before and after its best try on the measuring thread (the mean of that
 * try's two looks), not by the run's start and end (6.5 and 7.5 here); the
 * run's figure stays beside it; a two-thread cell takes no look; the JSON
 * says each cell's clock and reads it back. */
static void cell_divides_by_clock_around_its_try(void **state)
{
	static struct bandwidth_params p;
	static struct bandwidth_result r, back;
	struct job_opts o = { -1, 0 };
	struct job_event ev[64];
	struct bandwidth_share sh;
	const struct bandwidth_cell *c;
	mt_error e;
	job_t *job;
	cJSON *j;
	int ended = 0, pair;
	(void)state;
	memset(&fake_clock, 0, sizeof fake_clock);
	memset(&fake_try, 0, sizeof fake_try);
	short_read_params(&p, 1);
	p.threads[1] = 2;
	p.nthreads = 2;
	bandwidth_result_init(&r, &p);
	job = job_start(worker_with_fake_try_clock, &p, &o, &e);
	assert_non_null(job);
	while (!ended) {
		size_t n = test_job_wait(job, ev, 64);
		for (size_t i = 0; i < n; i++) {
			if (ev[i].type == JOB_EV_DONE || ev[i].type == JOB_EV_FAILED)
				ended = ev[i].type;
			bandwidth_result_apply(&r, &ev[i]);
		}
	}
	assert_int_equal(job_join(job, &e), 0);
	assert_int_equal(ended, JOB_EV_DONE);
	r.hdr.has_diag = 1;
	r.hdr.diag.run_ghz_start = 6.5;
	r.hdr.diag.run_ghz_end = 7.5;
	/* the ports' canary, the one-thread cell, the canary again: one timed
	 * try each (two if doubtful and measured again), a look before and
	 * after each try, all on the measuring thread */
	assert_true(fake_try.calls >= 6 && fake_try.calls <= 12 && fake_try.calls % 2 == 0);
	assert_int_equal(fake_try.on_worker, 0);
	c = &r.cell[0][BANDWIDTH_READ][0];
	assert_true(c->have);
	pair = (int)(c->ghz - 2.0);
	assert_true(pair >= 1 && 2 * pair < fake_try.calls - 2 && fake_look(c->ghz));
	/* the canaries before and after the table, each at the clock around its try */
	assert_true(r.ports[0].have && r.ports[0].gbs > 0 && fake_look(r.ports[0].ghz));
	assert_true(r.ports[0].ghz < c->ghz);
	assert_true(r.ports[1].have && (int)(r.ports[1].ghz - 2.0) == fake_try.calls / 2 - 1 &&
		    fake_look(r.ports[1].ghz));
	assert_int_equal(bandwidth_cell_share(&r, 0, BANDWIDTH_READ, 0, &sh), 0);
	assert_int_equal(sh.clock, BANDWIDTH_CLOCK_TRY);
	assert_true(sh.ghz == c->ghz && sh.bpc == c->gbs / c->ghz);
	assert_true(sh.run_ghz == 7.0 && sh.run_bpc == c->gbs / 7.0);
	assert_string_equal(bandwidth_clock_name(sh.clock), "measured around the try");
	/* two threads: no look, the run's clock */
	assert_true(r.cell[0][BANDWIDTH_READ][1].have && r.cell[0][BANDWIDTH_READ][1].ghz == 0);
	assert_int_equal(bandwidth_cell_share(&r, 0, BANDWIDTH_READ, 1, &sh), 0);
	assert_true(sh.clock == BANDWIDTH_CLOCK_RUN && sh.ghz == 7.0);
	/* the JSON: each cell's clock, read back the same */
	j = bandwidth_result_to_json(&r);
	assert_non_null(j);
	assert_true(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "results"), 0),
					"try_ghz")->valuedouble == c->ghz);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(
		cJSON_GetArrayItem(cJSON_GetObjectItem(j, "results"), 1), "try_ghz")));
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), 0);
	assert_true(back.cell[0][BANDWIDTH_READ][0].ghz == c->ghz && back.cell[0][BANDWIDTH_READ][1].ghz == 0);
	cJSON_Delete(j);
}

/* The load ports' verdict from fake canary figures (no timing): a canary
 * at 90 % of the load ceiling is the core's own rate, one under 70 %
 * (after the table here) says the ports were shared or slowed and the L1
 * fractions are not the core's; the line goes at the boundary; nothing
 * without a ceiling or a clock; the JSON writes the canaries and the
 * verdict and reads them back strictly. */
static void ports_canary_verdict(void **state)
{
	static struct bandwidth_params p;
	static struct bandwidth_result r, back;
	char line[400];
	int shared = -1;
	mt_error e;
	cJSON *j, *o;
	(void)state;
	bandwidth_params_default(&p, NULL);
	assert_int_equal(bandwidth_set_sizes(&p, (const uint64_t[]){ 24576 }, 1, &e), 0);
	p.threads[0] = 1;
	p.nthreads = 1;
	p.isa = BANDWIDTH_ISA_AVX512;
	bandwidth_result_init(&r, &p);
	r.vector_bytes = 64;
	bandwidth_cpu_id_parse("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\n", &r.cpu);
	assert_int_equal(bandwidth_ports_verdict(&r, line, sizeof line, &shared), 0); /* none yet */
	{
		struct job_event ev;
		struct bandwidth_ev_ports x = { .when = 0, .gbs = 460.8, .ghz = 4.0 };
		memset(&ev, 0, sizeof ev);
		ev.type = JOB_EV_NOTE;
		ev.subtype = BANDWIDTH_NOTE_PORTS;
		JOB_PAYLOAD_PUT(&ev, struct bandwidth_ev_ports, &x);
		assert_int_equal(bandwidth_result_apply(&r, &ev), 0);
	}
	assert_true(r.ports[0].have && r.ports[0].gbs == 460.8 && r.ports[0].ghz == 4.0);
	assert_int_equal(bandwidth_ports_verdict(&r, line, sizeof line, &shared), 1);
	assert_int_equal(shared, 0);
	assert_string_equal(line, "load ports: the canary (load over 4K, one thread) read 115.2 "
			    "B/cycle at 4.00 GHz before the table: 90 % of Golden Cove's 128: the "
			    "core's own load rate, no sign of a sharer");
	r.ports[1] = (struct bandwidth_ports){ .have = 1, .gbs = 230.4, .ghz = 4.0 }; /* 57.6 B/cycle */
	assert_int_equal(bandwidth_ports_verdict(&r, line, sizeof line, &shared), 1);
	assert_int_equal(shared, 1);
	assert_string_equal(line, "load ports: the canary (load over 4K, one thread) read 115.2 "
			    "B/cycle at 4.00 GHz before the table, 57.6 B/cycle at 4.00 GHz after the "
			    "table: at worst 45 % of Golden Cove's 128, under 70 %: the core's load "
			    "ports were shared (a tenant on its SMT sibling) or slowed during the run, "
			    "and the L1 fractions are not the core's");
	r.ports[1].gbs = 0.70 * 128 * 4.0 * 1.001; /* just over the line */
	assert_int_equal(bandwidth_ports_verdict(&r, line, sizeof line, &shared), 1);
	assert_int_equal(shared, 0);
	r.ports[1].gbs = 0.70 * 128 * 4.0 * 0.999; /* just under it */
	assert_int_equal(bandwidth_ports_verdict(&r, line, sizeof line, &shared), 1);
	assert_int_equal(shared, 1);
	r.ports[1].preempted = 1; /* that try lost its CPU: no verdict from it */
	assert_int_equal(bandwidth_ports_verdict(&r, line, sizeof line, &shared), 1);
	assert_int_equal(shared, 0);
	assert_null(strstr(line, "after the table"));
	r.ports[1].preempted = 0;
	/* the JSON: both canaries and the verdict, read back the same */
	r.ports[1].gbs = 230.4;
	j = bandwidth_result_to_json(&r);
	assert_non_null(j);
	o = cJSON_GetObjectItem(j, "ports");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(o, "shared")));
	assert_non_null(strstr(cJSON_GetObjectItem(o, "verdict")->valuestring, "were shared"));
	assert_true(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "after"), "gbs")->valuedouble == 230.4);
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), 0);
	assert_true(back.ports[0].have && back.ports[0].gbs == 460.8 && back.ports[0].ghz == 4.0);
	assert_true(back.ports[1].have && back.ports[1].gbs == 230.4);
	cJSON_ReplaceItemInObject(o, "before", cJSON_CreateString("fast"));
	assert_int_equal(bandwidth_result_from_json(j, "t.json", &back, &e), -1);
	assert_string_equal(e.msg, "t.json: field \"ports.before\": null or an object with \"gbs\" "
			    "(a number > 0) and \"ghz\" (0 < GHz < 1000, or null)");
	cJSON_Delete(j);
	/* no clock around the canary, or no ceiling known: nothing to say */
	r.ports[0].ghz = r.ports[1].ghz = 0;
	assert_int_equal(bandwidth_ports_verdict(&r, line, sizeof line, &shared), 0);
	r.ports[0].ghz = r.ports[1].ghz = 4.0;
	bandwidth_cpu_id_parse("CPU implementer\t: 0x61\nCPU part\t: 0x023\n", &r.cpu);
	assert_int_equal(bandwidth_ports_verdict(&r, line, sizeof line, &shared), 0);
}

/* The load ports' canaries come before and after the lab's own table
 * (two notes beside the pages one), never in a caller's buffer (memtop run
 * numa's sub-runs pass the lab's notes on as their own). */
static void no_canary_in_a_callers_buffer(void **state)
{
	static struct bandwidth_params p;
	static struct bandwidth_result r;
	int notes;
	char *buf;
	(void)state;
	short_read_params(&p, 1);
	assert_int_equal(run_job(&p, &r, &notes), 1);
	assert_int_equal(notes, 3);
	assert_true(r.ports[0].have && r.ports[1].have);
	p.buf_bytes = ((size_t)bandwidth_table_bytes(&p) / 4096 + 1) * 4096;
	buf = aligned_alloc(4096, p.buf_bytes);
	assert_non_null(buf);
	p.buf = buf;
	assert_int_equal(run_job(&p, &r, &notes), 1);
	assert_int_equal(notes, 0);
	assert_false(r.ports[0].have || r.ports[1].have);
	free(buf);
}

/* "try_ghz" read strictly: absent or null is none (files before it), a
 * clock is kept, anything else fails naming the result and the field. */
static void try_clock_read_strictly(void **state)
{
	static struct bandwidth_result r;
	static const char *const bad[] = { "\"x\"", "0", "-3", "1e9", "true", "[]" };
	const char *head = "{\"experiment\":\"bandwidth\",\"sizes\":[{\"size\":16384}],"
			   "\"threads\":[{\"threads\":1}],\"results\":[{\"kernel\":\"read\","
			   "\"size\":16384,\"threads\":1,\"gbs\":100";
	char text[400];
	mt_error e;
	cJSON *j;
	(void)state;
	for (int i = 0; i < 3; i++) {
		static const char *const tail[] = { "", ",\"try_ghz\":null", ",\"try_ghz\":3.75" };
		mt_snprintf(text, sizeof text, "%s%s}]}", head, tail[i]);
		j = cJSON_Parse(text);
		assert_int_equal(bandwidth_result_from_json(j, "f.json", &r, &e), 0);
		assert_true(r.cell[0][BANDWIDTH_READ][0].ghz == (i == 2 ? 3.75 : 0));
		cJSON_Delete(j);
	}
	for (size_t i = 0; i < MT_ARRAY_LEN(bad); i++) {
		mt_snprintf(text, sizeof text, "%s,\"try_ghz\":%s}]}", head, bad[i]);
		j = cJSON_Parse(text);
		assert_int_equal(bandwidth_result_from_json(j, "f.json", &r, &e), -1);
		assert_string_equal(e.msg, "f.json: results[0]: field \"try_ghz\" must be a clock in "
				    "GHz (0 < GHz < 1000) or null");
		cJSON_Delete(j);
	}
}

/* The worker run by a job that is cancelled before the worker starts. */
static int cancelled_first(job_t *job, void *arg, mt_error *e)
{
	job_cancel(job);
	return bandwidth_worker(job, arg, e);
}

/* Tries far shorter than the worker's 50 ms wait (0.1 ms, at 4 KB): each
 * try looks at the job when it ends, so a job cancelled before the first
 * try measures no cell. When only a try longer than the wait saw a stop, a
 * table of short tries ran to its end (q in the TUI once waited seconds). */
static void cancel_between_short_tries(void **state)
{
	static struct bandwidth_params p;
	struct job_opts o = { -1, 0 };
	struct job_event ev[64];
	int cells = 0, ended = 0;
	mt_error e;
	job_t *job;
	(void)state;
	bandwidth_params_default(&p, NULL);
	assert_int_equal(bandwidth_set_sizes(&p, (const uint64_t[]){ 4096 }, 1, &e), 0);
	p.min_tries = p.max_tries = 3;
	p.try_ns = 1e5;
	job = job_start(cancelled_first, &p, &o, &e);
	assert_non_null(job);
	while (!ended) {
		size_t n = test_job_wait(job, ev, 64);
		for (size_t i = 0; i < n; i++) {
			cells += ev[i].type == JOB_EV_CELL;
			ended |= ev[i].type == JOB_EV_CANCELLED || ev[i].type == JOB_EV_DONE ||
				 ev[i].type == JOB_EV_FAILED;
		}
	}
	assert_int_equal(job_join(job, &e), 1);
	assert_int_equal(cells, 0);
}

/* A run cancelled before its first cell (cancelled_first): the worker
 * fills one stretch of the first cell's array and stops there (the DRAM
 * row's fill, hundreds of MB, held a stop ~0.3 s before it went in
 * stretches). */
static void cancelled_fill_stops_after_a_stretch(void **state)
{
	static struct bandwidth_params p;
	struct job_opts o = { -1, 0 };
	struct bandwidth_layout lay;
	const double *a;
	mt_error e;
	job_t *job;
	char *buf;
	(void)state;
	short_read_params(&p, 1);
	assert_int_equal(bandwidth_set_sizes(&p, (const uint64_t[]){ 16u << 20 }, 1, &e), 0);
	p.buf_bytes = ((size_t)bandwidth_table_bytes(&p) / 4096 + 1) * 4096;
	buf = aligned_alloc(4096, p.buf_bytes);
	assert_non_null(buf);
	memset(buf, 0, p.buf_bytes);
	p.buf = buf;
	job = job_start(cancelled_first, &p, &o, &e);
	assert_non_null(job);
	assert_int_equal(job_join(job, &e), 1);
	bandwidth_layout(BANDWIDTH_READ, &p.sizes[0], 1, 1, &lay);
	assert_true(lay.n > 3 * BANDWIDTH_FILL_STRETCH);
	a = (const double *)(const void *)(buf + lay.array_off[0]);
	assert_true(a[0] == -1.0);
	assert_true(a[BANDWIDTH_FILL_STRETCH - 1] == -1.0 - (double)((BANDWIDTH_FILL_STRETCH - 1) % 1000));
	assert_true(a[BANDWIDTH_FILL_STRETCH] == 0.0); /* the next stretch never filled */
	assert_true(a[lay.n - 1] == 0.0);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(worker_streams_checked_table),
		cmocka_unit_test(pages_asked_used_and_said),
		cmocka_unit_test(clock_from_the_first_measuring_thread),
		cmocka_unit_test(cell_divides_by_clock_around_its_try),
		cmocka_unit_test(try_clock_read_strictly),
		cmocka_unit_test(ports_canary_verdict),
		cmocka_unit_test(no_canary_in_a_callers_buffer),
		cmocka_unit_test(worker_loaded_sweep),
		cmocka_unit_test(cancel_stops_threads),
		cmocka_unit_test(cancel_between_short_tries),
		cmocka_unit_test(cancelled_fill_stops_after_a_stretch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
