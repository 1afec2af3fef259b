/* Unit tests of the core clock measured during a run: the header carries it
 * beside the calibrated clock and the tick counter (text and JSON, back and
 * forth), the 5 % rule of the warning on recorded figures, a job's worker
 * measures it at its start and end; and (a timing test) the measured clock
 * lies in a wide band around the calibrated one. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testlib.h"
#include "testjob.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/clock.h"
#include "os/sysinfo.h"
#include "os/threads.h"
#include "run/diag.h"
#include "run/job.h"
#include "run/runhdr.h"

#include <pthread.h>
#include <sched.h>

/* A header as a run on a 4.19 GHz core with a 2.6 GHz TSC records it. */
static void recorded(struct run_header *h, double start, double end)
{
	memset(h, 0, sizeof *h);
	mt_strlcpy(h->version, "0.1.0", sizeof h->version);
	h->clock.counter = "tsc";
	h->clock.ticks_per_ns = 2.6;
	h->clock.core_ghz = 4.19;
	h->has_diag = 1;
	h->diag.load_before = h->diag.load_after = -1;
	h->diag.running_before = h->diag.running_after = -1;
	h->diag.steal_pct = -1;
	h->diag.optimized = 1;
	h->diag.cpu_pinned = h->diag.cpu_first = h->diag.cpu_last = h->diag.run_ghz_cpu = 1;
	h->diag.core_ghz = 4.19;
	h->diag.run_ghz_start = start;
	h->diag.run_ghz_end = end;
}

/* What run_header_print_clock writes for h. */
static void clock_line(const struct run_header *h, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");
	assert_non_null(f);
	run_header_print_clock(f, h);
	fclose(f);
}

static void header_carries_both_clocks(void **state)
{
	struct run_header h, back;
	char line[400];
	cJSON *root = cJSON_CreateObject(), *clock;
	(void)state;
	recorded(&h, 4.18, 4.17);
	clock_line(&h, line, sizeof line);
	assert_string_equal(line, "# core clock measured during the run (dependent adds on CPU 1): "
				  "4.18 GHz at its start, 4.17 at its end; calibrated 4.19 GHz, tsc "
				  "2.600 GHz: they agree within 5 %\n");
	assert_int_equal(run_header_to_json(&h, root), 0);
	clock = cJSON_GetObjectItemCaseSensitive(root, "clock");
	assert_true(cJSON_GetObjectItemCaseSensitive(clock, "run_ghz_start")->valuedouble == 4.18);
	assert_true(cJSON_GetObjectItemCaseSensitive(clock, "run_ghz_end")->valuedouble == 4.17);
	assert_true(cJSON_GetObjectItemCaseSensitive(clock, "core_ghz")->valuedouble == 4.19);
	assert_true(cJSON_GetObjectItemCaseSensitive(clock, "tick_ghz")->valuedouble == 2.6);
	assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(clock, "agree")));
	run_header_from_json(root, &back);
	assert_true(back.diag.run_ghz_start == 4.18 && back.diag.run_ghz_end == 4.17);
	assert_true(back.diag.core_ghz == 4.19 && back.clock.ticks_per_ns == 2.6);
	cJSON_Delete(root);
}

/* A file without the measurement (an older memtop, another tool) says
 * nothing of it, and a clock out of range is no clock. */
static void no_line_without_a_measurement(void **state)
{
	struct run_header h, back;
	char line[400] = "";
	cJSON *root = cJSON_CreateObject(), *clock;
	(void)state;
	recorded(&h, 0, 0);
	clock_line(&h, line, sizeof line);
	assert_string_equal(line, "");
	recorded(&h, 4.1, 4.1);
	assert_int_equal(run_header_to_json(&h, root), 0);
	clock = cJSON_GetObjectItemCaseSensitive(root, "clock");
	cJSON_ReplaceItemInObject(clock, "run_ghz_start", cJSON_CreateNumber(5000));
	cJSON_ReplaceItemInObject(clock, "run_ghz_end", cJSON_CreateNumber(-1));
	run_header_from_json(root, &back);
	assert_true(back.diag.run_ghz_start == 0 && back.diag.run_ghz_end == 0);
	cJSON_Delete(root);
}

/* The rule: more than 5 % either way, both known. */
static const struct {
	double calibrated, measured;
	int disagrees;
} clock_pairs[] = {
	{ 4.0, 4.19, 0 }, { 4.0, 4.21, 1 }, { 4.0, 3.81, 0 },
	{ 4.0, 3.79, 1 }, { 4.0, 0, 0 },    { 0, 4.0, 0 },
};

static void disagreement_rule(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof clock_pairs / sizeof *clock_pairs; i++) {
		double c = clock_pairs[i].calibrated, m = clock_pairs[i].measured;
		assert_int_equal(mt_clock_disagrees(c, m), clock_pairs[i].disagrees);
	}
	assert_true(mt_clock_drift(4.0, 3.0) == -0.25);
	assert_true(mt_clock_drift(0, 3.0) == 0);
}

/* The warning names the measurement furthest from the calibrated clock. */
static void warning_on_recorded_figures(void **state)
{
	struct run_header h;
	char w[8][DIAG_LINE], line[400];
	(void)state;
	recorded(&h, 4.15, 3.70); /* the end 12 % low: throttled */
	assert_int_equal(diag_warnings(&h.diag, w, 8), 1);
	assert_string_equal(w[0], "core clock moved: 4.19 GHz calibrated, 3.70 during the run "
				  "(-12 %): turbo, throttling or a busy host");
	clock_line(&h, line, sizeof line);
	assert_non_null(strstr(line, "3.70 at its end; calibrated 4.19 GHz, tsc 2.600 GHz: "
				     "DISAGREE (over 5 %)"));
	recorded(&h, 4.45, 4.19); /* the start 6 % high: turbo */
	assert_int_equal(diag_warnings(&h.diag, w, 8), 1);
	assert_non_null(strstr(w[0], "4.45 during the run (+6 %)"));
	recorded(&h, 4.0, 4.39); /* both within 5 % */
	assert_int_equal(diag_warnings(&h.diag, w, 8), 0);
	recorded(&h, 0, 3.0); /* only the end known */
	assert_int_equal(diag_warnings(&h.diag, w, 8), 1);
}

static int idle_worker(job_t *job, void *arg, mt_error *e)
{
	(void)job;
	(void)arg;
	(void)e;
	return 0;
}

/* Every job's worker measures the clock on its CPU before and after. */
static void a_job_measures_the_clock(void **state)
{
	struct job_opts o = { job_pick_cpu(), 0 };
	struct job_progress p;
	struct job_event ev[8];
	mt_error e;
	int done = 0;
	job_t *j = job_start(idle_worker, NULL, &o, &e);
	(void)state;
	assert_non_null(j);
	while (!done) {
		size_t n = test_job_wait(j, ev, 8);
		for (size_t i = 0; i < n; i++)
			done |= ev[i].type == JOB_EV_DONE;
	}
	job_get_progress(j, &p);
	assert_true(p.ghz_start > 0 && p.ghz_end > 0);
	assert_int_equal(job_join(j, &e), 0);
}

/* Wait for j's end, take its last progress into p and join it; returns
 * job_join's status. */
static int join_with_progress(job_t *j, struct job_progress *p, mt_error *e)
{
	struct job_event ev[8];
	int done = 0;
	while (!done) {
		size_t n = test_job_wait(j, ev, 8);
		for (size_t i = 0; i < n; i++)
			done |= ev[i].type == JOB_EV_DONE || ev[i].type == JOB_EV_FAILED;
	}
	job_get_progress(j, p);
	return job_join(j, e);
}

/* A stand-in for the clock's measurement that says who called it: the
 * first call returns 7.5 GHz, the second 8.5; each notes its thread and CPU.
 * No timing. */
static struct {
	int calls;
	pthread_t tid[4];
	int cpu[4];
} fake;

static double fake_measure(void)
{
	int i = fake.calls++;
	if (i < 4) {
		fake.tid[i] = pthread_self();
		fake.cpu[i] = sched_getcpu();
	}
	return i == 0 ? 7.5 : 8.5;
}

struct clocked_run {
	int cpu;            /* the first measuring thread's CPU */
	int first_measured; /* that thread was the one the clock's start ran on */
	int worker_measured; /* the worker thread was (must stay 0) */
};

static void *first_thread(void *arg)
{
	struct clocked_run *c = arg;
	c->first_measured = fake.calls == 1 && pthread_equal(fake.tid[0], pthread_self());
	return NULL;
}

static void *second_thread(void *arg)
{
	(void)arg;
	return NULL;
}

/* A worker that measures on two threads of its own, the run's clock passed
 * to both (only the first measures). */
static int clocked_worker(job_t *job, void *arg, mt_error *e)
{
	struct clocked_run *c = arg;
	pthread_t t[2];
	(void)e;
	job_run_clock(job)->measure = fake_measure;
	assert_int_equal(mt_thread_start_clocked(&t[0], c->cpu, first_thread, c,
						 job_run_clock(job)), 0);
	mt_thread_join(t[0]);
	assert_int_equal(mt_thread_start_clocked(&t[1], c->cpu, second_thread, NULL,
						 job_run_clock(job)), 0);
	mt_thread_join(t[1]);
	c->worker_measured = fake.calls > 0 && pthread_equal(fake.tid[0], pthread_self());
	return 0;
}

/* The run's clock comes from the thread that measured, on its CPU, not from
 * the job's worker on the job's CPU: started once (the second thread does
 * not measure again), ended on the same CPU, and carried into the
 * diagnostics and the header's line. On a machine with two CPUs the
 * measuring thread sits on another CPU than the worker. */
static void clock_from_the_measuring_thread(void **state)
{
	int cpus[1024], n = mt_allowed_cpus(cpus, 1024);
	struct clocked_run c = { -1, 0, 0 };
	struct job_opts o = { -1, 0 };
	struct job_progress p;
	struct run_header h, back;
	char line[400], want[64];
	cJSON *root;
	mt_error e;
	job_t *j;
	(void)state;
	memset(&fake, 0, sizeof fake);
	if (n >= 2) {
		o.cpu = cpus[0];
		c.cpu = cpus[n - 1];
	}
	j = job_start(clocked_worker, &c, &o, &e);
	assert_non_null(j);
	assert_int_equal(join_with_progress(j, &p, &e), 0);
	assert_int_equal(fake.calls, 2);
	assert_true(c.first_measured);
	assert_false(c.worker_measured);
	assert_true(p.ghz_start == 7.5 && p.ghz_end == 8.5);
	assert_int_equal(p.ghz_cpu, fake.cpu[0]);
	assert_int_equal(fake.cpu[1], fake.cpu[0]);
	if (n >= 2 && fake.cpu[0] >= 0) {
		assert_int_equal(p.ghz_cpu, c.cpu);
		assert_int_not_equal(p.ghz_cpu, p.cpu);
	}
	recorded(&h, 0, 0);
	diag_end(&h.diag, &p);
	assert_int_equal(h.diag.run_ghz_cpu, p.ghz_cpu);
	clock_line(&h, line, sizeof line);
	mt_snprintf(want, sizeof want, "(dependent adds on CPU %d): 7.50 GHz at its start, 8.50",
		    p.ghz_cpu);
	if (p.ghz_cpu >= 0)
		assert_non_null(strstr(line, want));
	/* the file says where the clock was measured, and reads it back */
	root = cJSON_CreateObject();
	assert_int_equal(run_header_to_json(&h, root), 0);
	run_header_from_json(root, &back);
	assert_int_equal(back.diag.run_ghz_cpu, p.ghz_cpu);
	cJSON_Delete(root);
}

/* Timing: the clock measured now lies within a wide band (0.5..1.5x) of the
 * calibrated one; a busy machine makes it low, never 2x off. */
static void measured_near_calibrated(void **state)
{
	struct mt_clock c;
	double best = 0;
	(void)state;
	mt_clock_calibrate(&c, 0);
	for (int i = 0; i < 5; i++) {
		double g = mt_clock_measure();
		best = g > best ? g : best;
	}
	assert_true(c.core_ghz > 0);
	assert_true(best > 0.5 * c.core_ghz && best < 1.5 * c.core_ghz);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(header_carries_both_clocks),
		cmocka_unit_test(no_line_without_a_measurement),
		cmocka_unit_test(disagreement_rule),
		cmocka_unit_test(warning_on_recorded_figures),
		cmocka_unit_test(a_job_measures_the_clock),
		cmocka_unit_test(clock_from_the_measuring_thread),
		MT_TIMING_TEST(measured_near_calibrated),
	};
	return cmocka_run_group_tests_name("clock", tests, NULL, NULL);
}
