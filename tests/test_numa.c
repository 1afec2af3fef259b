/* Unit tests of memtop run numa: the plan over fake node lists (2 and 4
 * nodes, a memory-only node, --nodes, the size from credible caches and
 * the memory cap), exact; the CPU list text; the result's JSON round trip
 * (values, spreads, placement, runs, a row of nulls) and the reader's
 * one-line errors naming the field. No NUMA machine is needed. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numa/numa.h"
#include "testlib.h"

#define MB (1ull << 20)
#define GB (1ull << 30)


/* The memory budget of bytes available (0: not known). */
static const struct machine_budget *avail(uint64_t bytes)
{
	static struct machine_budget b;
	MT_BUDGET(b, bytes, 0);
	return &b;
}

static struct numa_params P; /* big: not on the stack */

/* A node with ncpus CPUs from cpu0 on, memory bytes and an L2 and L3. */
static struct numa_node node(int id, int cpu0, int ncpus, uint64_t memory, uint64_t l2,
			     uint64_t l3)
{
	struct numa_node n;
	memset(&n, 0, sizeof n);
	n.node = id;
	for (int i = 0; i < ncpus; i++)
		n.cpus[i] = cpu0 + i;
	n.ncpus = ncpus;
	n.own = ncpus;
	n.memory = memory;
	if (ncpus) { /* as machine_dram_floor says it: 4 x the largest cache reached */
		char a[32];
		uint64_t c = l3 > l2 ? l3 : l2;
		n.floor = 4 * c;
		mt_snprintf(n.floor_why, sizeof n.floor_why, "4 x the L%d %s (test)", l3 > l2 ? 3 : 2,
			    mt_fmt_size(a, sizeof a, c));
		n.trusted = c; /* no doubt about either (plan_latency_size doubts one) */
		n.trusted_level = l3 > l2 ? 3 : 2;
	}
	return n;
}

static void plan_two_nodes(void **state)
{
	struct numa_node all[2];
	mt_error e = { "" };
	(void)state;
	all[0] = node(0, 0, 2, 16 * GB, 2 * MB, 32 * MB);
	all[1] = node(1, 2, 2, 16 * GB, 2 * MB, 32 * MB);
	assert_int_equal(numa_plan(&P, all, 2, NULL, 0, avail(64 * GB), 0, &e), 0);
	assert_int_equal(P.nnodes, 2);
	assert_int_equal(P.ncells, 4);
	assert_int_equal(P.cells[0].cpu, 0);
	assert_int_equal(P.cells[0].mem, 0);
	assert_int_equal(P.cells[1].cpu, 0);
	assert_int_equal(P.cells[1].mem, 1);
	assert_int_equal(P.cells[2].cpu, 1);
	assert_int_equal(P.cells[2].mem, 0);
	assert_int_equal(P.cells[3].cpu, 1);
	assert_int_equal(P.cells[3].mem, 1);
	assert_int_equal(P.size, 256 * MB); /* 4 x 32M = 128M, at least 256M */
	assert_string_equal(P.size_from, "4 x the L3 32M (test), at least 256M");
	assert_int_equal(numa_latency_cpu(&P, 0), 1);
	assert_int_equal(numa_latency_cpu(&P, 1), 3);
}

/* The price: each run from the steps timed (here given), the whole the sum
 * of its runs; a page's costs scale with the size; a busy machine's
 * bandwidth cells take their most tries and are measured twice; with
 * nothing timed, a guess by size. */
/* P's mixes priced by their reads and writes (1:1 writes a byte for each
 * read: dearer than reads alone), every mix asked and two curves in the
 * estimate, each curve at least its points' time. */
static void price_mixes_and_curves(const struct numa_probe *q)
{
	mt_error e = { "" };
	double rd = numa_run_cost_s(&P, q, 0, NUMA_READ), sum = 0, curve;
	assert_true(numa_run_cost_s(&P, q, 0, NUMA_R1W1) > rd);
	assert_true(numa_run_cost_s(&P, q, 0, NUMA_R3W1) > rd);
	P.mixes = NUMA_MIXES_ALL;
	for (size_t k = 0; k < P.ncells; k++) {
		sum += numa_run_cost_s(&P, q, k, NUMA_LAT);
		for (int m = 0; m < NUMA_NMIX; m++)
			sum += numa_run_cost_s(&P, q, k, numa_mix_meas(m));
	}
	assert_true(fabs(numa_estimate_s(&P, q) - sum) < 1e-9 * sum);
	assert_int_equal(numa_plan_loaded(&P, NULL, NULL, 0, &e), 0);
	assert_int_equal(P.nloaded, 2); /* node 0's local pair, its remote one by latency */
	curve = numa_curve_cost_s(&P, q);
	assert_true(curve > (double)(P.ndelays + 2) * 0.015);
	assert_true(fabs(numa_estimate_s(&P, q) - (sum + 2 * curve)) < 1e-9 * sum);
	P.mixes = NUMA_MIXES_DEFAULT;
	P.nloaded = 0;
}

static void price(void **state)
{
	struct numa_node all[2];
	struct numa_probe q;
	mt_error e = { "" };
	double lat, bw, sum;
	(void)state;
	all[0] = node(0, 0, 2, 16 * GB, 2 * MB, 32 * MB);
	all[1] = node(1, 2, 2, 16 * GB, 2 * MB, 32 * MB);
	assert_int_equal(numa_plan(&P, all, 2, NULL, 0, avail(64 * GB), 0, &e), 0);
	numa_params_runs(&P);
	memset(&q, 0, sizeof q);
	q.have = 1;
	q.page_ns = 1000, q.touch_ns = 4000, q.touch_threads = 2, q.count_ns = 0, q.free_ns = 0;
	q.read_ns = 0.1, q.write_ns = 0.2, q.share = 1;
	q.lat4 = P.lat;
	lat = numa_run_cost_s(&P, &q, 0, NUMA_LAT);
	bw = numa_run_cost_s(&P, &q, 0, NUMA_READ);
	/* the chase at lat_size (4 x the L3: 128M): 32768 pages at 1 us; the
	 * bandwidth at the run's 256M: the first touch 65536 x 4 us over 2
	 * threads */
	assert_int_equal(P.lat_size, 128 * MB);
	assert_true(lat > 32768 * 1e-6);
	assert_true(bw > 65536 * 4e-6);
	sum = 0;
	for (size_t k = 0; k < P.ncells; k++)
		sum += numa_run_cost_s(&P, &q, k, NUMA_LAT) + numa_run_cost_s(&P, &q, k, NUMA_READ) +
		       numa_run_cost_s(&P, &q, k, NUMA_TRIAD);
	P.huge = 0;
	assert_true(fabs(numa_estimate_s(&P, &q) - sum) < 1e-9 * sum);
	price_mixes_and_curves(&q);
	q.busy = 1;
	assert_true(numa_run_cost_s(&P, &q, 0, NUMA_READ) > 1.9 * bw - 2 * 65536 * 4e-6);
	q.have = 0; /* nothing timed: a guess by size, 2 s a GB */
	assert_true(fabs(numa_run_cost_s(&P, &q, 0, NUMA_LAT) - 0.125 * 2.0) < 1e-9);
	assert_true(fabs(numa_run_cost_s(&P, &q, 0, NUMA_READ) - 0.25 * 2.0) < 1e-9);
}

/* Four nodes, the last with memory only (CXL-like): no row of its own, a
 * column like the others; its 1 GB caps the size at a quarter. */
static void plan_four_nodes_one_memory_only(void **state)
{
	struct numa_node all[4];
	mt_error e = { "" };
	size_t rows[4] = { 0 }, cols[4] = { 0 };
	(void)state;
	for (int i = 0; i < 3; i++)
		all[i] = node(i, 8 * i, 8, 32 * GB, 1 * MB, 64 * MB);
	all[3] = node(3, 0, 0, 1 * GB, 0, 0);
	assert_int_equal(numa_plan(&P, all, 4, NULL, 0, avail(0), 0, &e), 0);
	assert_int_equal(P.ncells, 12);
	for (size_t k = 0; k < P.ncells; k++) {
		rows[P.cells[k].cpu]++;
		cols[P.cells[k].mem]++;
		if (k)
			assert_true(P.cells[k].cpu * 4 + P.cells[k].mem >
				    P.cells[k - 1].cpu * 4 + P.cells[k - 1].mem);
	}
	for (int i = 0; i < 3; i++)
		assert_int_equal(rows[i], 4);
	assert_int_equal(rows[3], 0);
	for (int j = 0; j < 4; j++)
		assert_int_equal(cols[j], 3);
	assert_int_equal(P.size, 256 * MB); /* 4 x 64M = 256M: 1G / 4 holds it */
	assert_string_equal(P.size_from, "4 x the L3 64M (test)");
	assert_int_equal(numa_latency_cpu(&P, 2), 23);
	assert_int_equal(numa_latency_cpu(&P, 3), -1);
}

static void plan_nodes_option(void **state)
{
	struct numa_node all[4];
	mt_error e = { "" };
	int want[3];
	(void)state;
	for (int i = 0; i < 3; i++)
		all[i] = node(i, 8 * i, 8, 32 * GB, 1 * MB, 16 * MB);
	all[3] = node(3, 0, 0, 8 * GB, 0, 0);
	want[0] = 2;
	want[1] = 0;
	assert_int_equal(numa_plan(&P, all, 4, want, 2, avail(0), 0, &e), 0);
	assert_int_equal(P.nnodes, 2);
	assert_int_equal(P.nodes[0].node, 2); /* in the order given */
	assert_int_equal(P.nodes[1].node, 0);
	assert_int_equal(P.ncells, 4);
	assert_int_equal(P.size, 256 * MB); /* 4 x 16M = 64M: at least 256M */
	assert_string_equal(P.size_from, "4 x the L3 16M (test), at least 256M");
	want[0] = 5;
	assert_int_equal(numa_plan(&P, all, 4, want, 1, avail(0), 0, &e), -1);
	assert_string_equal(e.msg, "--nodes: no node 5 (nodes here: 0, 1, 2, 3)");
	want[0] = 1;
	want[1] = 1;
	assert_int_equal(numa_plan(&P, all, 4, want, 2, avail(0), 0, &e), -1);
	assert_string_equal(e.msg, "--nodes: node 1 given twice");
	want[0] = 3;
	assert_int_equal(numa_plan(&P, all, 4, want, 1, avail(0), 0, &e), -1);
	assert_string_equal(e.msg, "--nodes: node 3 has no CPUs of its own (memory only)");
	all[2].ncpus = 0; /* its 8 CPUs outside this process's cpuset */
	want[1] = 2;
	assert_int_equal(numa_plan(&P, all, 4, want, 2, avail(0), 0, &e), -1);
	assert_string_equal(e.msg, "--nodes: node 3 has no CPUs of its own (memory only); node 2: "
				   "no CPU this process may use (a cpuset keeps its CPUs from it)");
	want[0] = 2;
	assert_int_equal(numa_plan(&P, all, 4, want, 1, avail(0), 0, &e), -1);
	assert_string_equal(e.msg, "--nodes: node 2: no CPU this process may use (a cpuset keeps "
				   "its CPUs from it)");
	all[2].ncpus = 8;
	want[0] = 3; /* a memory node is measured from a CPU node */
	want[1] = 1;
	assert_int_equal(numa_plan(&P, all, 4, want, 2, avail(0), 0, &e), 0);
	assert_int_equal(P.ncells, 2);
	assert_int_equal(P.cells[0].cpu, 1);
	assert_int_equal(P.cells[1].cpu, 1);
}

/* A guest's L3 of its host (480 MB on 2 CPUs) counts, doubted or not: 4 x
 * 480M, cut to a quarter of the node's 6G and said to be under the floor;
 * quick is 32 MB, said the same; too little memory is -2. */
static void plan_size_rules(void **state)
{
	struct numa_node one = node(0, 0, 2, 6 * GB, 2 * MB, 480 * MB);
	mt_error e = { "" };
	(void)state;
	assert_int_equal(numa_plan(&P, &one, 1, NULL, 0, avail(20 * GB), 0, &e), 0);
	assert_int_equal(P.ncells, 1);
	assert_int_equal(P.size, 1536 * MB);
	assert_string_equal(P.size_from, "4 x the L3 480M (test), cut from 1920M to 1536M: 1/4 of "
					 "the smallest node's memory; under 1920M, 4 x the caches "
					 "the CPUs reach: part of it may be served from a cache");
	assert_int_equal(numa_plan(&P, &one, 1, NULL, 0, avail(20 * GB), 1, &e), 0);
	assert_int_equal(P.size, 32 * MB);
	assert_string_equal(P.size_from, "--quick; under 1920M, 4 x the caches the CPUs reach: "
					 "part of it may be served from a cache");
	assert_int_equal(numa_plan(&P, &one, 1, NULL, 0, avail(600 * MB), 0, &e), 0);
	assert_int_equal(P.size, 150 * MB); /* 600M / 4, down to 2 MB */
	assert_int_equal(numa_plan(&P, &one, 1, NULL, 0, avail(40 * MB), 0, &e), -2);
	assert_string_equal(e.msg, "not enough memory: 1/4 of what a run may take (40M of memory "
				   "available) is under 16M");
	/* a job's cgroup: the size cut to a quarter of what it leaves, said */
	{
		struct machine_budget job;
		MT_BUDGET(job, 200 * MB, 256 * MB);
		assert_int_equal(numa_plan(&P, &one, 1, NULL, 0, &job, 0, &e), 0);
		assert_int_equal(P.size, 50 * MB);
		assert_string_equal(P.size_from,
				    "4 x the L3 480M (test), cut from 1920M to 50M: 1/4 of what a "
				    "run may take (this job may use 256M (its cgroup)); under "
				    "1920M, 4 x the caches the CPUs reach: part of it may be "
				    "served from a cache");
	}
}

/* Where the idle latency is read: past the caches trusted (4 x a trusted
 * 32M L3: 128M, under the run's 256M); a guest's L3 claim of 480M doubted,
 * the trusted 2M L2 starts a curve whose top is the run's size, and with
 * no 2 MB pages for that curve the run's size it is; --quick: its size. */
static void plan_latency_size(void **state)
{
	struct numa_node two[2] = { node(0, 0, 2, 16 * GB, 2 * MB, 32 * MB),
				    node(1, 2, 2, 16 * GB, 2 * MB, 32 * MB) };
	struct numa_node one = node(0, 0, 2, 6 * GB, 2 * MB, 480 * MB);
	mt_error e = { "" };
	(void)state;
	assert_int_equal(numa_plan(&P, two, 2, NULL, 0, avail(64 * GB), 0, &e), 0);
	assert_int_equal(P.size, 256 * MB);
	assert_int_equal(P.lat_size, 128 * MB);
	assert_int_equal(P.lat_curve, 0);
	assert_string_equal(P.lat_size_from, "4 x the L3 32M, past the caches trusted");
	one.trusted = 2 * MB;
	one.trusted_level = 2;
	one.doubted = 1;
	assert_int_equal(numa_plan(&P, &one, 1, NULL, 0, avail(20 * GB), 0, &e), 0);
	assert_int_equal(P.size, 1536 * MB);
	assert_int_equal(P.lat_curve, 1);
	assert_int_equal(P.curve_from, 8 * MB);
	assert_int_equal(P.lat_size, P.size); /* until the worker's curve finds it */
	assert_string_equal(P.lat_size_from,
			    "where the latency settles on a curve from 8M (4 x the L2 2M, the last "
			    "cache trusted) to 1536M (a deeper cache's claim is doubted: it sets "
			    "the curve's top)");
	P.huge = 0;
	numa_params_runs(&P);
	assert_int_equal(P.lat_curve, 0);
	assert_int_equal(P.lat_size, P.size);
	assert_int_equal(P.lat.sizes[0], P.size);
	assert_int_equal(numa_plan(&P, &one, 1, NULL, 0, avail(20 * GB), 1, &e), 0);
	assert_int_equal(P.lat_size, 32 * MB);
	assert_int_equal(P.lat_curve, 0);
	assert_string_equal(P.lat_size_from, "--quick: the run's size");
}

static void cpus_text(void **state)
{
	static const int a[] = { 0, 1, 2, 3, 8, 10, 11 };
	char buf[64];
	(void)state;
	numa_cpus_text(a, 7, buf, sizeof buf);
	assert_string_equal(buf, "0-3,8,10,11");
	numa_cpus_text(a, 1, buf, sizeof buf);
	assert_string_equal(buf, "0");
	numa_cpus_text(a, 0, buf, sizeof buf);
	assert_string_equal(buf, "");
}

static struct numa_result R, B;

/* A cell event as the worker emits it. */
static void cell(int kind, int row, int col, double v, double pages, double on, int where)
{
	struct job_event ev;
	job_cell(&ev, kind, row, col, v, 0.01 * (kind + 1));
	JOB_PAYLOAD_PUT(&ev, struct numa_ev_cell,
			&((struct numa_ev_cell){ .tries = 5,
						 .flags = NUMA_F_BOUND | (kind == NUMA_READ || kind == NUMA_TRIAD ? NUMA_F_CHECKED : 0),
						 .pages = pages,
						 .on = on,
						 .absent = 0,
						 .where = where }));
	assert_int_equal(numa_result_apply(&R, &ev), kind);
}

/* Two nodes, node 1 memory only: a 2 x 2 matrix whose second row is null. */
static void make_result(void)
{
	struct numa_node all[2];
	mt_error e = { "" };
	all[0] = node(0, 0, 2, 16 * GB, 2 * MB, 32 * MB);
	all[1] = node(1, 0, 0, 16 * GB, 0, 0);
	assert_int_equal(numa_plan(&P, all, 2, NULL, 0, avail(0), 0, &e), 0);
	numa_result_init(&R, &P);
	for (int j = 0; j < 2; j++) {
		cell(NUMA_LAT, 0, j, 100.0 + 50 * j, 1000, 1000 - 10 * j, 1);
		cell(NUMA_READ, 0, j, 15.5 - 5 * j, 2000, 2000, 2);
		cell(NUMA_TRIAD, 0, j, 28.25 - 8 * j, 3000, 3000, 2);
		cell(NUMA_LAT_HUGE, 0, j, 90.0 + 40 * j, 0, 0, 1); /* its pages not counted */
		cell(NUMA_LAT_FULL, 0, j, 300.0 + 40 * j, 0, 0, 1);
	}
}

static void json_round_trip(void **state)
{
	mt_error e = { "" };
	cJSON *j, *j2;
	char *a, *b;
	(void)state;
	make_result();
	assert_float_equal(numa_result_placement(&R, 0, 1), 5990.0 / 6000, 1e-12);
	assert_true(isnan(numa_result_placement(&R, 1, 0)));
	j = numa_result_to_json(&R);
	assert_non_null(j);
	assert_true(numa_result_is(j));
	assert_int_equal(numa_result_from_json(j, "r.json", &B, &e), 0);
	assert_int_equal(B.nnodes, 2);
	assert_int_equal(B.nodes[1], 1);
	assert_int_equal(B.ncpus[0], 2);
	assert_int_equal(B.ncpus[1], 0);
	assert_string_equal(B.cpus[0], "0,1");
	assert_int_equal(B.lat_cpu[0], 1);
	assert_int_equal(B.lat_cpu[1], -1);
	for (int k = 0; k < NUMA_NMEAS; k++)
		for (int m = 0; m < 2; m++) {
			assert_int_equal(B.v[0][m][k].have, k <= NUMA_LAT_FULL); /* no other mix asked */
			if (k > NUMA_LAT_FULL)
				continue;
			assert_float_equal(B.v[0][m][k].v, R.v[0][m][k].v, 1e-9);
			assert_float_equal(B.v[0][m][k].spread, R.v[0][m][k].spread, 1e-12);
			assert_int_equal(B.v[0][m][k].flags, R.v[0][m][k].flags);
			assert_int_equal(B.v[0][m][k].where, R.v[0][m][k].where);
			assert_false(B.v[1][m][k].have);
		}
	assert_float_equal(numa_result_placement(&B, 0, 1), 5990.0 / 6000, 1e-12);
	assert_int_equal(B.size, R.size);
	assert_int_equal(B.lat_size, R.lat_size);
	assert_string_equal(B.lat_size_from, R.lat_size_from);
	j2 = numa_result_to_json(&B);
	a = cJSON_PrintUnformatted(j);
	b = cJSON_PrintUnformatted(j2);
	assert_string_equal(a, b); /* a second trip changes nothing */
	assert_non_null(strstr(a, "\"latency_ns\":[[100,150],[null,null]]"));
	assert_non_null(strstr(a, "\"latency_full_ns\":[[300,340],[null,null]]"));
	assert_non_null(strstr(a, "\"latency_size\":134217728,"));
	assert_non_null(strstr(a, "\"bandwidth_gbs\":{\"read\":[[15.5,10.5],[null,null]],"
				  "\"triad\":[[28.25,20.25],[null,null]]}"));
	assert_non_null(strstr(a, "\"placement\":[{\"cpu_node\":0,\"memory_node\":0,"
				  "\"pages_on_node\":1},"));
	free(a);
	free(b);
	cJSON_Delete(j);
	cJSON_Delete(j2);
}

/* The SLIT beside the measured ratios: node 1 (memory only) 2.1x as far
 * by the firmware's table, 1.4x as slow on 2 MB pages (130 / 90 ns); the
 * SLIT, the ratios and the page they were taken on in the JSON, read back;
 * no SLIT: said so. */
static void slit_and_ratios(void **state)
{
	mt_error e = { "" };
	char buf[200], *a;
	cJSON *j;
	int huge;
	(void)state;
	make_result();
	P.dist[0][0] = P.dist[1][1] = 10;
	P.dist[0][1] = P.dist[1][0] = 21;
	numa_result_init(&R, &P);
	for (int k = 0; k < 2; k++) {
		cell(NUMA_LAT, 0, k, 100.0 + 50 * k, 1000, 1000, 1);
		cell(NUMA_LAT_HUGE, 0, k, 90.0 + 40 * k, 0, 0, 1);
	}
	assert_float_equal(numa_result_ratio(&R, 0, 1, &huge), 130.0 / 90, 1e-12);
	assert_int_equal(huge, 1);
	assert_float_equal(numa_result_slit_ratio(&R, 0, 1), 2.1, 1e-12);
	assert_true(isnan(numa_result_ratio(&R, 1, 0, &huge)));
	assert_string_equal(numa_result_slit_text(&R, buf, sizeof buf), "0: 10 21; 1: 21 10");
	assert_int_equal(numa_result_ratio_text(&R, 0, 1, buf, sizeof buf), 0);
	assert_string_equal(buf, "CPU node 0, memory node 1: 1.4x local on 2 MB pages, SLIT says 2.1x");
	assert_int_equal(numa_result_ratio_text(&R, 0, 0, buf, sizeof buf), -1); /* local */
	assert_int_equal(numa_result_ratio_text(&R, 1, 0, buf, sizeof buf), -1); /* not measured */
	j = numa_result_to_json(&R);
	a = cJSON_PrintUnformatted(j);
	assert_non_null(strstr(a, "\"distances\":[[10,21],[21,10]],\"latency_ratio\":[[1,1.444],"
				  "[null,null]],\"slit_ratio\":[[1,2.1],[2.1,1]],"
				  "\"latency_ratio_page\":2097152"));
	assert_int_equal(numa_result_from_json(j, "r.json", &B, &e), 0);
	assert_int_equal(B.have_dist, 1);
	assert_int_equal(B.dist[1][0], 21);
	free(a);
	cJSON_Delete(j);
	/* on 4 KB pages where there is no 2 MB figure; no SLIT known */
	memset(P.dist, 0, sizeof P.dist);
	numa_result_init(&R, &P);
	for (int k = 0; k < 2; k++)
		cell(NUMA_LAT, 0, k, 100.0 + 50 * k, 1000, 1000, 1);
	assert_int_equal(numa_result_ratio_text(&R, 0, 1, buf, sizeof buf), 0);
	assert_string_equal(buf, "CPU node 0, memory node 1: 1.5x local on 4 KB pages, no SLIT");
	assert_string_equal(numa_result_slit_text(&R, buf, sizeof buf), "");
	j = numa_result_to_json(&R);
	a = cJSON_PrintUnformatted(j);
	assert_non_null(strstr(a, "\"distances\":null,"));
	free(a);
	cJSON_Delete(j);
}

/* The smallest file reads: a placement without runs. */
static void json_minimal(void **state)
{
	static const char *text =
		"{\"experiment\":\"numa\",\"nodes\":[0],\"latency_ns\":[[122.0]],"
		"\"bandwidth_gbs\":{\"read\":[[15.4]],\"triad\":[[28.0]]},"
		"\"placement\":[{\"cpu_node\":0,\"memory_node\":0,\"pages_on_node\":1.0}],"
		"\"numa_balancing\":false}";
	cJSON *j = cJSON_Parse(text);
	mt_error e = { "" };
	(void)state;
	assert_int_equal(numa_result_from_json(j, "m.json", &B, &e), 0);
	assert_float_equal(B.v[0][0][NUMA_LAT].v, 122.0, 0);
	assert_float_equal(B.v[0][0][NUMA_TRIAD].v, 28.0, 0);
	assert_float_equal(numa_result_placement(&B, 0, 0), 1.0, 0);
	assert_int_equal(B.numa_balancing, 0);
	cJSON_Delete(j);
}

/* Each bad file fails with one line naming the file and the field. */
static void json_bad(void **state)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "{\"experiment\":\"latency\"}", "b.json: not a numa result (\"experiment\": \"numa\")" },
		{ "{\"experiment\":\"numa\",\"nodes\":[]}", "b.json: nodes: empty" },
		{ "{\"experiment\":\"numa\",\"nodes\":[0,0]}", "b.json: nodes[1]: node 0 given twice" },
		{ "{\"experiment\":\"numa\",\"nodes\":[-1]}",
		  "b.json: nodes[0]: expected a node number 0..1000000" },
		{ "{\"experiment\":\"numa\",\"nodes\":[0,1],\"latency_ns\":[[1,2],[3]],"
		  "\"bandwidth_gbs\":{}}",
		  "b.json: latency_ns row 1: expected 2 values" },
		{ "{\"experiment\":\"numa\",\"nodes\":[0],\"latency_ns\":[[-4]],"
		  "\"bandwidth_gbs\":{}}",
		  "b.json: latency_ns row 0: value 0 must be a positive number or null" },
		{ "{\"experiment\":\"numa\",\"nodes\":[0],\"latency_ns\":[[4]]}",
		  "b.json: bandwidth_gbs: expected an object {\"read\", \"triad\"}" },
		{ "{\"experiment\":\"numa\",\"nodes\":[0],\"latency_ns\":[[4]],"
		  "\"bandwidth_gbs\":{\"read\":[[1]]}}",
		  "b.json: bandwidth_gbs.triad: expected 1 rows (one a node)" },
		{ "{\"experiment\":\"numa\",\"nodes\":[0],\"latency_ns\":[[4]],"
		  "\"bandwidth_gbs\":{\"read\":[[1]],\"triad\":[[1]]},"
		  "\"placement\":[{\"cpu_node\":0,\"memory_node\":0,\"pages_on_node\":2}]}",
		  "b.json: placement[0]: field \"pages_on_node\" must be 0..1 or null" },
		{ "{\"experiment\":\"numa\",\"nodes\":[0],\"latency_ns\":[[4]],"
		  "\"bandwidth_gbs\":{\"read\":[[1]],\"triad\":[[1]]},"
		  "\"placement\":[{\"cpu_node\":7,\"memory_node\":0}]}",
		  "b.json: placement[0]: a node that is not in \"nodes\"" },
		{ "{\"experiment\":\"numa\",\"nodes\":[0],\"latency_ns\":[[4]],"
		  "\"bandwidth_gbs\":{\"read\":[[1]],\"triad\":[[1]]},"
		  "\"runs\":[{\"cpu_node\":0,\"memory_node\":0,\"run\":\"copy\"}]}",
		  "b.json: runs[0]: field \"run\" must be latency, read, triad, latency_huge, "
		  "latency_full, 3:1, 2:1 or 1:1" },
		{ "{\"experiment\":\"numa\",\"nodes\":[0],\"latency_ns\":[[4]],\"mixes\":[\"1:1\"],"
		  "\"bandwidth_gbs\":{\"read\":[[1]],\"triad\":[[1]]}}",
		  "b.json: bandwidth_gbs.1:1: expected 1 rows (one a node)" },
		{ "{\"experiment\":\"numa\",\"nodes\":[0],\"latency_ns\":[[4]],\"mixes\":[\"4:1\"],"
		  "\"bandwidth_gbs\":{}}",
		  "b.json: mixes[0]: expected reads, 3:1, 2:1, 1:1 or triad" },
		{ "{\"experiment\":\"numa\",\"nodes\":[0],\"latency_ns\":[[4]],\"mixes\":[],"
		  "\"bandwidth_gbs\":{},\"loaded\":[{\"cpu_node\":0,\"memory_node\":0,"
		  "\"points\":[{\"delay_ns\":0,\"gbs\":0,\"latency_ns\":90}]}]}",
		  "b.json: loaded[0]: points[0]: field \"delay_ns\" must be null (the first point is "
		  "the idle one)" },
		{ "{\"experiment\":\"numa\",\"nodes\":[0],\"latency_ns\":[[4]],\"mixes\":[],"
		  "\"bandwidth_gbs\":{},\"loaded\":[{\"cpu_node\":0,\"memory_node\":3,"
		  "\"points\":[]}]}",
		  "b.json: loaded[0]: a node that is not in \"nodes\"" },
		{ "{\"experiment\":\"numa\",\"nodes\":[0],\"latency_ns\":[[4]],\"mixes\":[],"
		  "\"bandwidth_gbs\":{},\"loaded\":[{\"cpu_node\":0,\"memory_node\":0,"
		  "\"points\":[{\"delay_ns\":null,\"gbs\":0,\"latency_ns\":90},"
		  "{\"delay_ns\":100,\"gbs\":-2,\"latency_ns\":90}]}]}",
		  "b.json: loaded[0]: points[1]: field \"gbs\" must be 0..1000000 (0 for the idle point)" },
		{ "{\"experiment\":\"numa\",\"nodes\":[0,1],\"latency_ns\":[[4,5],[6,7]],"
		  "\"bandwidth_gbs\":{\"read\":[[1,1],[1,1]],\"triad\":[[1,1],[1,1]]},"
		  "\"distances\":[[10,21],[21]]}",
		  "b.json: distances row 1: expected 2 values" },
		{ "{\"experiment\":\"numa\",\"nodes\":[0],\"latency_ns\":[[4]],"
		  "\"bandwidth_gbs\":{\"read\":[[1]],\"triad\":[[1]]},\"distances\":[[\"ten\"]]}",
		  "b.json: distances row 0: value 0 must be an integer 1..1000000" },
		{ "{\"experiment\":\"numa\",\"nodes\":[0],\"latency_ns\":[[4]],"
		  "\"bandwidth_gbs\":{\"read\":[[1]],\"triad\":[[1]]},\"distances\":{}}",
		  "b.json: distances: expected 1 rows (one a node) or null" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cJSON *j = cJSON_Parse(bad[i].text);
		mt_error e = { "" };
		assert_non_null(j);
		assert_int_equal(numa_result_from_json(j, "b.json", &B, &e), -1);
		assert_string_equal(e.msg, bad[i].msg);
		cJSON_Delete(j);
	}
}

/* A result with every mix and a curve: each mix's matrix, the curve's
 * points and pages come back from the JSON, twice the same; a file with
 * no "mixes" (before them) reads as reads and triad. */
/* What a result with mixes and curves writes: the mixes and the stores,
 * a mix's cells, its curve's knee. */
static const char *const mixes_json[] = {
	"\"mixes\":[\"reads\",\"3:1\",\"2:1\",\"1:1\",\"triad\"],\"stores\":\"streaming\"",
	"\"3:1\":[[null,9.5],[null,null]]",
	"\"knee\":{\"found\":true,",
};

static void json_mixes_and_curves(void **state)
{
	mt_error e = { "" };
	struct job_event ev;
	cJSON *j, *j2;
	char *a, *b;
	(void)state;
	make_result();
	R.mixes = NUMA_MIXES_ALL;
	R.streaming = 1;
	cell(NUMA_R3W1, 0, 1, 9.5, 100, 100, 2);
	cell(NUMA_R2W1, 0, 0, 12.25, 100, 100, 2);
	cell(NUMA_R1W1, 0, 0, 11.0, 100, 100, 2);
	for (int i = 0; i < 3; i++) {
		job_cell(&ev, NUMA_LOADED, 0, 1, 100.0 + 50 * i * i, 0.02);
		JOB_PAYLOAD_PUT(&ev, struct numa_ev_loaded,
				&((struct numa_ev_loaded){ .point = i, .why = NUMA_WHY_LATENCY,
							   .delay_ns = i ? 800.0 / i : -1, .gbs = 5.0 * i,
							   .tries = 15, .preempted = i == 2 }));
		assert_int_equal(numa_result_apply(&R, &ev), NUMA_LOADED);
	}
	job_cell(&ev, NUMA_LOADED_DONE, 0, 1, 0, 0);
	JOB_PAYLOAD_PUT(&ev, struct numa_ev_loaded_done,
			&((struct numa_ev_loaded_done){ .why = NUMA_WHY_LATENCY, .chaser_cpu = 1,
							.injectors = 1, .huge = 1, .huge_share = 0.5,
							.on_node = 1 }));
	assert_int_equal(numa_result_apply(&R, &ev), NUMA_LOADED_DONE);
	assert_int_equal(R.ncurves, 1);
	assert_int_equal(numa_result_measured(&R), 10 + 3 + 3);
	j = numa_result_to_json(&R);
	assert_non_null(j);
	assert_int_equal(numa_result_from_json(j, "m.json", &B, &e), 0);
	assert_int_equal(B.mixes, NUMA_MIXES_ALL);
	assert_int_equal(B.streaming, 1);
	assert_float_equal(B.v[0][1][NUMA_R3W1].v, 9.5, 0);
	assert_float_equal(B.v[0][0][NUMA_R2W1].v, 12.25, 0);
	assert_false(B.v[0][1][NUMA_R2W1].have);
	assert_int_equal(B.ncurves, 1);
	assert_non_null(numa_result_curve(&B, 0, 1));
	assert_null(numa_result_curve(&B, 0, 0));
	assert_int_equal(B.curves[0].npts, 3);
	assert_int_equal(B.curves[0].why, NUMA_WHY_LATENCY);
	assert_int_equal(B.curves[0].chaser_cpu, 1);
	assert_float_equal(B.curves[0].huge_share, 0.5, 0);
	assert_float_equal(B.curves[0].pts[0].delay_ns, -1, 0);
	assert_float_equal(B.curves[0].pts[2].ns, 300, 0);
	assert_float_equal(B.curves[0].pts[2].gbs, 10, 0);
	assert_int_equal(B.curves[0].pts[2].preempted, 1);
	j2 = numa_result_to_json(&B);
	a = cJSON_PrintUnformatted(j);
	b = cJSON_PrintUnformatted(j2);
	assert_string_equal(a, b);
	MT_ASSERT_HOLDS(a, mixes_json);
	free(a);
	free(b);
	cJSON_Delete(j);
	cJSON_Delete(j2);
	/* before mixes: reads and triad, cached */
	j = cJSON_Parse("{\"experiment\":\"numa\",\"nodes\":[0],\"latency_ns\":[[122.0]],"
			"\"bandwidth_gbs\":{\"read\":[[15.4]],\"triad\":[[28.0]]}}");
	assert_int_equal(numa_result_from_json(j, "old.json", &B, &e), 0);
	assert_int_equal(B.mixes, NUMA_MIXES_DEFAULT);
	assert_int_equal(B.streaming, 0);
	assert_int_equal(B.ncurves, 0);
	cJSON_Delete(j);
}

/* The curves planned: the first CPU node's local pair and its farthest
 * (by the distances given, else found by latency), those asked with each
 * CPU node's local pair first; a CPU node of one CPU refused. */
static void plan_loaded(void **state)
{
	static const int dist[NUMA_MAX_NODES][NUMA_MAX_NODES] = {
		{ 10, 16, 32, 32 }, { 16, 10, 32, 32 }, { 32, 32, 10, 16 }, { 32, 32, 16, 10 },
	};
	struct numa_node all[4];
	struct numa_pair asked[2] = { { 2, 0 }, { 0, 3 } };
	mt_error e = { "" };
	(void)state;
	for (int i = 0; i < 4; i++)
		all[i] = node(i, 4 * i, 4, 32 * GB, 1 * MB, 32 * MB);
	assert_int_equal(numa_plan(&P, all, 4, NULL, 0, avail(0), 0, &e), 0);
	assert_int_equal(numa_plan_loaded(&P, dist, NULL, 0, &e), 0);
	assert_int_equal(P.nloaded, 2);
	assert_int_equal(P.loaded[0].pair.cpu, 0);
	assert_int_equal(P.loaded[0].pair.mem, 0);
	assert_int_equal(P.loaded[0].why, NUMA_WHY_LOCAL);
	assert_int_equal(P.loaded[1].pair.mem, 2); /* 32: the first of the farthest */
	assert_int_equal(P.loaded[1].why, NUMA_WHY_SLIT);
	assert_int_equal(P.loaded[1].dist, 32);
	assert_int_equal(P.ndelays, 14);
	assert_float_equal(P.delays[0], 25600, 0);
	assert_float_equal(P.delays[13], 0, 0);
	assert_int_equal(numa_plan_loaded(&P, NULL, NULL, 0, &e), 0); /* no distances */
	assert_int_equal(P.loaded[1].pair.mem, -1);
	assert_int_equal(P.loaded[1].why, NUMA_WHY_LATENCY);
	assert_int_equal(numa_plan_loaded(&P, dist, asked, 2, &e), 0);
	assert_int_equal(P.nloaded, 4); /* 2>2 2>0 0>0 0>3 */
	assert_int_equal(P.loaded[0].pair.cpu, 2);
	assert_int_equal(P.loaded[0].why, NUMA_WHY_LOCAL);
	assert_int_equal(P.loaded[1].pair.mem, 0);
	assert_int_equal(P.loaded[1].why, NUMA_WHY_ASKED);
	assert_int_equal(P.loaded[2].pair.cpu, 0);
	assert_int_equal(P.loaded[3].pair.mem, 3);
	{
		int cpus[8];
		assert_int_equal(numa_loaded_cpus(&P, 1, cpus, 8), 4);
		assert_int_equal(cpus[0], 7); /* the chaser: the latency's CPU, the node's last */
		assert_int_equal(cpus[1], 4);
		assert_int_equal(cpus[3], 6);
	}
	asked[0].cpu = 9;
	assert_int_equal(numa_plan_loaded(&P, NULL, asked, 1, &e), -1);
	assert_string_equal(e.msg, "--loaded-pairs: 9:0: node 9 is not one measured");
	/* one node of one CPU: refused, nothing planned */
	all[0] = node(0, 3, 1, 32 * GB, 1 * MB, 32 * MB);
	assert_int_equal(numa_plan(&P, all, 1, NULL, 0, avail(0), 0, &e), 0);
	assert_int_equal(numa_plan_loaded(&P, NULL, NULL, 0, &e), -1);
	assert_string_equal(e.msg, "--loaded: CPU node 0 has one CPU this process may use (CPU 3): "
				   "the loaded latency needs a chaser and an injector beside it");
	/* one node of two: its local curve alone */
	all[0] = node(0, 0, 2, 32 * GB, 1 * MB, 32 * MB);
	assert_int_equal(numa_plan(&P, all, 1, NULL, 0, avail(0), 1, &e), 0);
	assert_int_equal(numa_plan_loaded(&P, NULL, NULL, 0, &e), 0);
	assert_int_equal(P.nloaded, 1);
	assert_int_equal(P.ndelays, 3); /* --quick */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plan_two_nodes),
		cmocka_unit_test(plan_four_nodes_one_memory_only),
		cmocka_unit_test(plan_nodes_option),
		cmocka_unit_test(plan_size_rules),
		cmocka_unit_test(price),
		cmocka_unit_test(plan_latency_size),
		cmocka_unit_test(cpus_text),
		cmocka_unit_test(json_round_trip),
		cmocka_unit_test(slit_and_ratios),
		cmocka_unit_test(json_minimal),
		cmocka_unit_test(json_bad),
		cmocka_unit_test(json_mixes_and_curves),
		cmocka_unit_test(plan_loaded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
