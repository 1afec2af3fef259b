/* Unit tests of cores: the CPU list, the pair plan (every pair, and the
 * sample on a made-up machine of two L3 groups of four SMT cores), the
 * summary by relation (exact medians), the JSON round trip (exact), the
 * reader's errors, and the worker on two CPUs (one cell a pair, figures
 * above zero, a cancel that ends it promptly). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "testlib.h"

#include <math.h>
#include <string.h>

#include "cores/cores.h"
#include "import/import.h"
#include "os/sysinfo.h"
#include "run/job.h"
#include "testjob.h"

/* A cancel ends a run of minutes within this on any healthy machine. */
#define CANCEL_BOUND_NS 5000000000ull

static void cpu_lists(void **state)
{
	static int allowed[] = { 0, 1, 2, 3, 8, 9 };
	struct machine m = { .allowed = allowed, .nallowed = 6 };
	int cpus[16];
	mt_error e;
	(void)state;
	assert_int_equal(cores_parse_cpus("0-3,8", &m, cpus, 16, NULL, 0, &e), 5);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[3], 3);
	assert_int_equal(cpus[4], 8);
	assert_int_equal(cores_parse_cpus("9,1,0", &m, cpus, 16, NULL, 0, &e), 3);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[1], 1);
	assert_int_equal(cpus[2], 9);
	/* the one grammar (mt_parse_cpu_list): a CPU twice is refused */
	assert_int_equal(cores_parse_cpus("9,1,1,0-1", &m, cpus, 16, NULL, 0, &e), -1);
	assert_string_equal(e.msg, "CPU 1 is given twice");
	assert_int_equal(cores_parse_cpus("0,7", &m, cpus, 16, NULL, 0, &e), -1);
	assert_non_null(strstr(e.msg, "CPU 7 "));
	assert_int_equal(cores_parse_cpus("3-1", &m, cpus, 16, NULL, 0, &e), -1);
	assert_non_null(strstr(e.msg, "3-1"));
	assert_int_equal(cores_parse_cpus("x", &m, cpus, 16, NULL, 0, &e), -1);
	assert_int_equal(cores_parse_cpus("0-", &m, cpus, 16, NULL, 0, &e), -1);
	assert_string_equal(e.msg, "'0-' is a range without its end (such as 0-3)");
	assert_int_equal(cores_parse_cpus("1,", &m, cpus, 16, NULL, 0, &e), -1);
	assert_int_equal(cores_parse_cpus(",", &m, cpus, 16, NULL, 0, &e), -1);
	assert_int_equal(cores_parse_cpus("", &m, cpus, 16, NULL, 0, &e), -1);
	assert_int_equal(cores_parse_cpus("0-3,8-9", &m, cpus, 4, NULL, 0, &e), -1);
	assert_int_equal(cores_parse_cpus("100-101", NULL, cpus, 16, NULL, 0, &e), 2);
}

/* A made-up machine: CPU i on core i / 2 (SMT pairs), L3 group i / 8. */
static void machine(struct cores_place *pc, int n)
{
	for (int i = 0; i < n; i++) {
		pc[i].cpu = i;
		pc[i].core = i / 2;
		pc[i].group = i / 8;
		mt_snprintf(pc[i].text, sizeof pc[i].text, "core %d, L3 group %d", i / 2, i / 8);
	}
}

static const char *made_up_relation(const void *ctx, int a, int b)
{
	(void)ctx;
	if (a / 2 == b / 2)
		return "SMT siblings";
	return a / 8 == b / 8 ? "same L3 group" : "other L3 group";
}

static void plan_every_pair(void **state)
{
	static struct cores_place pc[16];
	static struct cores_plan pl;
	struct cores_params p;
	mt_error e;
	(void)state;
	cores_params_default(&p, 1);
	machine(pc, 16);
	assert_int_equal(cores_plan_make(&pl, &p, pc, 16, 0, made_up_relation, NULL, &e), 0);
	assert_int_equal(pl.npairs, 16 * 15 / 2);
	assert_int_equal(pl.pairs[0].ia, 0);
	assert_int_equal(pl.pairs[0].ib, 1);
	assert_string_equal(pl.pairs[0].rel, "SMT siblings");
	assert_int_equal(pl.pairs[1].ib, 2);
	assert_string_equal(pl.pairs[1].rel, "same L3 group");
	assert_int_equal(pl.pairs[119].ia, 14);
	assert_int_equal(pl.pairs[119].ib, 15);
	assert_false(pl.sampled);
	cores_plan_free(&pl);
	assert_int_equal(cores_plan_make(&pl, &p, pc, 1, 0, made_up_relation, NULL, &e), -1);
	assert_non_null(strstr(e.msg, "two CPUs"));
}

/* Sampled: 8 cores against the 2 groups' first cores (0 and 8): 16 minus
 * the two self pairs minus (0, 8) counted twice = 13, plus the 8 SMT
 * pairs = 21; every relation of the machine among them. */
static void plan_sampled(void **state)
{
	static struct cores_place pc[16];
	static struct cores_plan pl;
	struct cores_params p;
	int smt = 0, same = 0, other = 0;
	mt_error e;
	(void)state;
	cores_params_default(&p, 0);
	machine(pc, 16);
	assert_int_equal(cores_plan_make(&pl, &p, pc, 16, 1, made_up_relation, NULL, &e), 0);
	assert_true(pl.sampled);
	assert_int_equal(pl.npairs, 21);
	for (size_t k = 0; k < pl.npairs; k++) {
		const struct cores_pair *q = &pl.pairs[k];
		assert_true(q->ia < q->ib);
		smt += strcmp(q->rel, "SMT siblings") == 0;
		same += strcmp(q->rel, "same L3 group") == 0;
		other += strcmp(q->rel, "other L3 group") == 0;
		for (size_t m = 0; m < k; m++)
			assert_false(pl.pairs[m].ia == q->ia && pl.pairs[m].ib == q->ib);
	}
	assert_int_equal(smt, 8);
	assert_int_equal(same, 6);  /* 2, 4, 6 with 0; 10, 12, 14 with 8 */
	assert_int_equal(other, 7); /* 0-8, 2/4/6 with 8, 10/12/14 with 0 */
	assert_string_equal(pl.place[9], "core 4, L3 group 1");
	cores_plan_free(&pl);
	/* unknown places: every CPU its own core and group, so every pair */
	cores_places(NULL, (const int[]){ 0, 1, 2, 3 }, 4, pc);
	assert_int_equal(cores_plan_make(&pl, &p, pc, 4, 1, NULL, NULL, &e), 0);
	assert_int_equal(pl.npairs, 6);
	assert_string_equal(pl.pairs[0].rel, "unknown");
	cores_plan_free(&pl);
}

/* The flags of a made-up result: a pair of "same L3 group" at SMT speed
 * is SMT-like; a pair whose second pass is twice its first is unsteady;
 * within its spread it is not; they come back from the JSON. */
static void pairs_flagged(void **state)
{
	static struct cores_place pc[16];
	static struct cores_plan pl;
	static struct cores_result r, back;
	struct cores_params p;
	mt_error e;
	cJSON *j;
	(void)state;
	cores_params_default(&p, 1);
	machine(pc, 16);
	assert_int_equal(cores_plan_make(&pl, &p, pc, 16, 0, made_up_relation, NULL, &e), 0);
	assert_int_equal(cores_result_init(&r, &pl, &e), 0);
	cores_plan_free(&pl);
	for (size_t k = 0; k < r.plan.npairs; k++) {
		struct cores_pair *q = &r.plan.pairs[k];
		int smt = strcmp(q->rel, "SMT siblings") == 0;
		struct job_event ev = { .type = JOB_EV_CELL, .row = (int)k };
		ev.value = smt ? 8 : strcmp(q->rel, "same L3 group") == 0 ? 60 : 120;
		if (q->ia == 2 && q->ib == 4) /* same L3 group, at SMT speed */
			ev.value = 9;
		ev.spread = 0.01;
		JOB_PAYLOAD_PUT(&ev, struct cores_ev_pair, &((struct cores_ev_pair){ .kept = 2 }));
		assert_int_equal(cores_result_apply(&r, &ev), 1);
		if (k == 5 || k == 6) { /* measured again: twice, then within 1 % */
			ev.subtype = 1;
			ev.value = k == 5 ? 2 * ev.value : 1.01 * ev.value;
			JOB_PAYLOAD_PUT(&ev, struct cores_ev_pair, &((struct cores_ev_pair){ .kept = 2 }));
			assert_int_equal(cores_result_apply(&r, &ev), 1);
		}
	}
	assert_int_equal(cores_result_count(&r, CORES_COUNT_SMT_LIKE), 1);
	assert_int_equal(cores_result_count(&r, CORES_COUNT_SECOND), 2);
	assert_int_equal(cores_result_count(&r, CORES_COUNT_UNSTEADY), 1);
	assert_true(r.plan.pairs[5].unsteady && !r.plan.pairs[6].unsteady);
	for (size_t k = 0; k < r.plan.npairs; k++)
		assert_int_equal(r.plan.pairs[k].smt_like, r.plan.pairs[k].ia == 2 && r.plan.pairs[k].ib == 4);
	j = cores_result_to_json(&r);
	assert_non_null(j);
	assert_int_equal(cores_result_from_json(j, "t.json", &back, &e), 0);
	assert_int_equal(cores_result_count(&back, CORES_COUNT_UNSTEADY), 1);
	assert_int_equal(cores_result_count(&back, CORES_COUNT_SMT_LIKE), 1);
	cJSON_Delete(j);
	cores_result_free(&back);
	cores_result_free(&r);
}

/* A big made-up machine (576 CPUs, 72 L3 groups): one CPU a core against
 * each group would be 20,000 pairs; the sample takes up to
 * CORES_SAMPLE_PER_REL of each relation instead, every relation there,
 * spread over the CPUs, in well under a minute. */
static void plan_sampled_big(void **state)
{
	static struct cores_place pc[576];
	static struct cores_plan pl;
	struct cores_params p;
	size_t smt = 0, same = 0, other = 0;
	int low = 0, high = 0;
	mt_error e;
	(void)state;
	cores_params_default(&p, 0);
	machine(pc, 576);
	assert_int_equal(cores_plan_make(&pl, &p, pc, 576, 1, made_up_relation, NULL, &e), 0);
	assert_true(pl.sampled && pl.bounded);
	for (size_t k = 0; k < pl.npairs; k++) {
		const struct cores_pair *q = &pl.pairs[k];
		smt += strcmp(q->rel, "SMT siblings") == 0;
		same += strcmp(q->rel, "same L3 group") == 0;
		other += strcmp(q->rel, "other L3 group") == 0;
		low += q->ia < 288;
		high += q->ia >= 288;
	}
	assert_int_equal(smt, CORES_SAMPLE_PER_REL);
	assert_int_equal(same, CORES_SAMPLE_PER_REL);
	assert_int_equal(other, CORES_SAMPLE_PER_REL);
	assert_int_equal(pl.npairs, 3 * CORES_SAMPLE_PER_REL);
	assert_true(low > 0 && high > 0); /* spread over the machine */
	assert_true(cores_plan_estimate_s(&pl) < 60);
	cores_plan_free(&pl);
}

/* A result over the made-up machine's 16 CPUs with three pairs of each
 * relation measured at known figures. */
static void made_up_result(struct cores_result *r)
{
	static struct cores_place pc[16];
	static struct cores_plan pl;
	static const double ns[] = { 10, 12, 11, 30, 40, 20, 100, 90, 95, 80 };
	struct cores_params p;
	mt_error e;
	size_t m = 0;
	cores_params_default(&p, 1);
	machine(pc, 16);
	assert_int_equal(cores_plan_make(&pl, &p, pc, 16, 1, made_up_relation, NULL, &e), 0);
	assert_int_equal(cores_result_init(r, &pl, &e), 0);
	cores_plan_free(&pl);
	for (const char *rel = "SMT siblings"; rel; ) {
		size_t want = strcmp(rel, "SMT siblings") == 0 ? 3 : strcmp(rel, "same L3 group") == 0
										  ? 3 : 4;
		for (size_t k = 0; k < r->plan.npairs && want; k++) {
			struct job_event ev = { .type = JOB_EV_CELL, .row = (int)k };
			if (strcmp(r->plan.pairs[k].rel, rel) != 0)
				continue;
			ev.value = ns[m++];
			ev.spread = 0.01 * (double)m;
			JOB_PAYLOAD_PUT(&ev, struct cores_ev_pair,
					&((struct cores_ev_pair){ .kept = 2 }));
			assert_int_equal(cores_result_apply(r, &ev), 1);
			want--;
		}
		rel = strcmp(rel, "SMT siblings") == 0 ? "same L3 group"
		      : strcmp(rel, "same L3 group") == 0 ? "other L3 group" : NULL;
	}
}

static void summary_by_relation(void **state)
{
	static struct cores_result r;
	struct job_event bad = { .type = JOB_EV_CELL, .row = 21 };
	(void)state;
	made_up_result(&r);
	assert_int_equal(cores_result_measured(&r), 10);
	assert_int_equal(r.nsum, 3);
	assert_string_equal(r.sum[0].rel, "SMT siblings");
	assert_true(r.sum[0].ns == 11.0);
	assert_int_equal(r.sum[0].pairs, 3);
	assert_string_equal(r.sum[1].rel, "same L3 group");
	assert_true(r.sum[1].ns == 30.0);
	assert_string_equal(r.sum[2].rel, "other L3 group");
	assert_true(r.sum[2].ns == 92.5); /* median of 80 90 95 100 */
	assert_int_equal(r.sum[2].pairs, 4);
	assert_int_equal(cores_result_apply(&r, &bad), 0);
	/* the matrix is symmetric, its diagonal empty */
	assert_true(cores_result_ns(&r, 0, 1) == 10.0);
	assert_true(cores_result_ns(&r, 1, 0) == 10.0);
	assert_true(isnan(cores_result_ns(&r, 3, 3)));
	assert_true(isnan(cores_result_ns(&r, 0, 16)));
	cores_result_free(&r);
}

static void json_round_trip(void **state)
{
	static struct cores_result r, back;
	cJSON *j, *j2;
	char *s1, *s2;
	mt_error e;
	(void)state;
	made_up_result(&r);
	mt_strlcpy(r.hdr.host, "testhost", sizeof r.hdr.host);
	j = cores_result_to_json(&r);
	assert_non_null(j);
	assert_true(cores_result_is(j));
	assert_int_equal(cores_result_from_json(j, "m.json", &back, &e), 0);
	assert_int_equal(back.plan.n, 16);
	assert_int_equal(back.plan.npairs, 10);
	assert_int_equal(cores_result_measured(&back), 10);
	assert_int_equal(back.nsum, 3);
	assert_true(back.sum[2].ns == 92.5);
	assert_string_equal(back.plan.place[9], "core 4, L3 group 1");
	assert_string_equal(back.source, "m.json");
	assert_int_equal(back.plan.p.method, CORES_CAS);
	assert_string_equal(cJSON_GetObjectItem(j, "method")->valuestring, "cas");
	j2 = cores_result_to_json(&back);
	s1 = cJSON_PrintUnformatted(j);
	s2 = cJSON_PrintUnformatted(j2);
	assert_string_equal(s1, s2);
	free(s1);
	free(s2);
	cJSON_Delete(j2);
	cJSON_Delete(j);
	cores_result_free(&back);
	cores_result_free(&r);
}

/* One reader error: the text parsed, then its message checked. */
static void bad(const char *text, const char *says)
{
	static struct cores_result r;
	cJSON *j = cJSON_Parse(text);
	mt_error e;
	assert_non_null(j);
	assert_int_equal(cores_result_from_json(j, "c.json", &r, &e), -1);
	if (!strstr(e.msg, says))
		fail_msg("'%s' does not say '%s'", e.msg, says);
	assert_non_null(strstr(e.msg, "c.json"));
	cores_result_free(&r);
	cJSON_Delete(j);
}

static void reader_errors(void **state)
{
	(void)state;
	bad("{\"pairs\":[]}", "\"cpus\" is missing");
	bad("{\"cpus\":[0],\"pairs\":[]}", "2..4096 CPUs");
	bad("{\"cpus\":[1,0],\"pairs\":[]}", "cpus[1]");
	bad("{\"cpus\":[0,1]}", "\"pairs\" is missing");
	bad("{\"cpus\":[0,1],\"pairs\":[{\"a\":0,\"b\":2,\"ns\":5}]}", "pairs[0]: CPU 2");
	bad("{\"cpus\":[0,1],\"pairs\":[{\"a\":0,\"b\":1,\"ns\":-5}]}", "pairs[0]: field \"ns\"");
	bad("{\"cpus\":[0,1],\"pairs\":[{\"a\":0,\"b\":1,\"ns\":5},{\"a\":1,\"b\":0,\"ns\":5}]}",
	    "already pairs[0]");
	bad("{\"cpus\":[0,1],\"pairs\":[{\"a\":1,\"b\":1,\"ns\":5}]}", "itself");
	bad("{\"cpus\":[0,1],\"pairs\":[{\"b\":1,\"ns\":5}]}", "pairs[0]: field \"a\" is missing");
	bad("{\"cpus\":[0,1],\"matrix_ns\":[[null,1]],\"pairs\":[]}", "\"matrix_ns\" must be 2 rows");
	bad("{\"cpus\":[0,1],\"matrix_ns\":[[null,1],[1]],\"pairs\":[]}", "matrix_ns row 1");
	bad("{\"cpus\":[0,1],\"matrix_ns\":[[null,1],[\"x\",null]],\"pairs\":[]}", "matrix_ns row 1");
	bad("{\"cpus\":[0,1],\"places\":[\"a\"],\"pairs\":[]}", "\"places\"");
	bad("{\"cpus\":[0,1],\"method\":\"x\",\"pairs\":[]}", "\"method\" must be");
}

/* core-to-core-latency's CSV: the lower triangle read exactly, both ways;
 * its second matrix left out; a garbled or short one refused by line. */
static void import_csv(void **state)
{
	static const char ok[] = ",,\r\n41.5,,\r\n42.25,40,\r\n\n,,\n9,,\n9,9,\n";
	struct cores_result *r = NULL;
	mt_error e;
	(void)state;
	assert_true(import_c2c_detect(ok));
	assert_false(import_c2c_detect("size,s1,s2\n16k,1,2\n"));
	assert_int_equal(import_detect(ok), IMPORT_C2C);
	assert_int_equal(import_c2c(ok, "c.csv", &r, &e), 0);
	assert_int_equal(r->plan.n, 3);
	assert_int_equal(cores_result_measured(r), 3);
	assert_true(cores_result_ns(r, 1, 0) == 41.5);
	assert_true(cores_result_ns(r, 0, 1) == 41.5);
	assert_true(cores_result_ns(r, 2, 1) == 40.0);
	assert_true(cores_result_ns(r, 2, 0) == 42.25);
	assert_int_equal(r->nsum, 1);
	assert_string_equal(r->sum[0].rel, "unknown");
	assert_true(r->sum[0].ns == 41.5);
	assert_non_null(strstr(r->origin, "second matrix"));
	cores_result_free(r);
	free(r);
	assert_int_equal(import_c2c(",,\n41.5,,\n42,x,\n", "c.csv", &r, &e), -1);
	assert_string_equal(e.msg, "c.csv: line 3: field 2: expected the ns of CPUs 2 and 1, a "
				   "number above 0, got '42,x,'");
	assert_int_equal(import_c2c(",,\n41.5,,\n", "c.csv", &r, &e), -1);
	assert_non_null(strstr(e.msg, "ends after 2 of its 3 rows"));
	assert_int_equal(import_c2c(",,\n41.5,,\n42,1,\nhello\n", "c.csv", &r, &e), -1);
	assert_non_null(strstr(e.msg, "line 4: expected nothing after the matrix"));
	assert_int_equal(import_c2c(",,\n41.5,2,\n42,1,\n", "c.csv", &r, &e), -1);
	assert_non_null(strstr(e.msg, "line 2: field 2 is on or above the diagonal"));
	assert_int_equal(import_c2c(",,\n41.5,\n42,1,\n", "c.csv", &r, &e), -1);
	assert_non_null(strstr(e.msg, "line 2: expected 3 comma-separated fields"));
	assert_null(r);
}

/* Two CPUs this process may run on, or a skip. */
static int two_cpus(int *cpus)
{
	int all[MT_MAX_CPUS];
	int n = mt_allowed_cpus(all, MT_MAX_CPUS);
	if (n < 2)
		return 0;
	cpus[0] = all[0];
	cpus[1] = all[1];
	return 1;
}

/* Why the tests that pair two CPUs cannot run here, or NULL. */
static const char *pair_skip(void)
{
	int cpus[2] = { -1, -1 };
	return two_cpus(cpus) ? NULL : "fewer than two CPUs to pair";
}

static void one_pair_measured(void **state)
{
	struct cores_params p;
	double ns, spread;
	int cpus[2] = { -1, -1 }, moved, kept, cancelled;
	mt_error e;
	(void)state;
	assert_true(two_cpus(cpus));
	cores_params_default(&p, 1);
	assert_int_equal(cores_pingpong(cpus[0], cpus[1], &p, NULL, &ns, &spread, &moved, &kept,
					&cancelled, &e), 0);
	assert_int_equal(cancelled, 0);
	assert_int_equal(moved + kept, p.tries);
	assert_true(kept > 0);
	assert_true(ns > 0 && isfinite(ns));
	assert_true(spread >= 0);
	/* each thread storing to its own line and reading the other's */
	p.method = CORES_RW;
	assert_int_equal(cores_pingpong(cpus[0], cpus[1], &p, NULL, &ns, &spread, &moved, &kept,
					&cancelled, &e), 0);
	assert_true(kept > 0);
	assert_true(ns > 0 && isfinite(ns));
	assert_int_equal(cores_pingpong(cpus[0], cpus[0], &p, NULL, &ns, &spread, &moved, &kept,
					&cancelled, &e), -1);
}

static void worker_streams_pairs(void **state)
{
	static struct cores_place pc[2];
	static struct cores_plan pl;
	static struct cores_result r;
	struct cores_params p;
	struct job_opts o = { -1, 0 };
	struct job_event ev[16];
	int cpus[2] = { -1, -1 }, cells = 0, ended = 0;
	mt_error e;
	job_t *job;
	(void)state;
	assert_true(two_cpus(cpus));
	cores_params_default(&p, 1);
	cores_places(NULL, cpus, 2, pc);
	assert_int_equal(cores_plan_make(&pl, &p, pc, 2, 0, NULL, NULL, &e), 0);
	assert_int_equal(cores_result_init(&r, &pl, &e), 0);
	job = job_start(cores_worker, &pl, &o, &e);
	assert_non_null(job);
	while (!ended) {
		size_t n = test_job_wait(job, ev, 16);
		for (size_t i = 0; i < n; i++) {
			cells += cores_result_apply(&r, &ev[i]);
			ended |= ev[i].type == JOB_EV_DONE || ev[i].type == JOB_EV_FAILED ||
				 ev[i].type == JOB_EV_CANCELLED;
		}
	}
	assert_int_equal(job_join(job, &e), 0);
	assert_int_equal(cells, 2); /* the pair, then again in the second pass */
	assert_int_equal(cores_result_measured(&r), 1);
	assert_int_equal(cores_result_count(&r, CORES_COUNT_SECOND), 1);
	assert_true(r.plan.pairs[0].ns2 > 0);
	assert_true(cores_result_ns(&r, 0, 1) > 0);
	assert_true(cores_result_ns(&r, 0, 1) == cores_result_ns(&r, 1, 0));
	assert_int_equal(r.nsum, 1);
	cores_result_free(&r);
	cores_plan_free(&pl);
}

static void cancel_is_prompt(void **state)
{
	static struct cores_place pc[2];
	static struct cores_plan pl;
	struct cores_params p;
	int cpus[2] = { -1, -1 };
	mt_error e;
	(void)state;
	assert_true(two_cpus(cpus));
	cores_params_default(&p, 0);
	p.tries = 100;
	p.samples = 100000; /* minutes of tries */
	cores_places(NULL, cpus, 2, pc);
	assert_int_equal(cores_plan_make(&pl, &p, pc, 2, 0, NULL, NULL, &e), 0);
	assert_true(test_job_cancel_after(cores_worker, &pl, 200) < CANCEL_BOUND_NS);
	cores_plan_free(&pl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpu_lists),
		cmocka_unit_test(plan_every_pair),
		cmocka_unit_test(plan_sampled),
		cmocka_unit_test(plan_sampled_big),
		cmocka_unit_test(pairs_flagged),
		cmocka_unit_test(summary_by_relation),
		cmocka_unit_test(json_round_trip),
		cmocka_unit_test(reader_errors),
		cmocka_unit_test(import_csv),
		MT_SKIP_IF(pair_skip(), one_pair_measured),
		MT_SKIP_IF(pair_skip(), worker_streams_pairs),
		MT_SKIP_IF(pair_skip(), cancel_is_prompt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
