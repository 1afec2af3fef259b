/* numa_price: what a numa run will take, priced before it starts from a few
 * of its own steps timed small on this machine (numa_probe: a page faulted
 * in by the kernel and by a thread touching it, a 2 MB page,
 * a page counted and unmapped, the latency lab's probe on both page sizes,
 * a pass of reads and writes), each run's steps counted as the workers
 * take them (numa_run_cost_s: the chases, each mix's bandwidth; a loaded
 * curve's points and buffers, numa_curve_cost_s). The worker sets its progress in these
 * seconds, so the ETA is the same figure, and says it again after the
 * first node pair. See numa.h. */
#include "config.h"

#include "numa.h"
#include "latency/latency_eta.h"
#include "os/barrier.h"
#include "os/clock.h"
#include "os/sysinfo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define PROBE_BYTES (8u << 20)   /* the pages' probes: 2048 pages of 4 KB, 4 of 2 MB */
#define PROBE_PASS (64u << 20)   /* the passes' probe: past a guest's share of an L3 */
#define PAGE 4096u

/* ---- the probes ----------------------------------------------------------- */

/* ns a 4 KB page takes to fault in when touched from user space, as the
 * bandwidth runs' first touch does, on this thread (no thread of its own:
 * the run's first thread beside this one is its job's), or -1. */
static double probe_touch(void)
{
	char *buf = mt_map_2m(PROBE_BYTES, 0);
	uint64_t t0;
	if (!buf)
		return -1;
	t0 = mt_now_ns();
	for (size_t off = 0; off < PROBE_BYTES; off += PAGE)
		buf[off] = 0;
	t0 = mt_now_ns() - t0;
	munmap(buf, PROBE_BYTES);
	return (double)t0 / (PROBE_BYTES / PAGE);
}

/* The kernel's populate of a fresh buffer (huge: on 2 MB pages), ns a page
 * of its size, and what counting its pages by node and unmapping it took,
 * ns a 4 KB page; -1 where it could not be had. */
static void probe_pages(const struct numa_params *p, int huge, double *fault_ns, double *count_ns,
			double *free_ns)
{
	char *buf = mt_map_2m(PROBE_BYTES, huge);
	uint64_t t0, pages, on, absent;
	*fault_ns = *count_ns = *free_ns = -1;
	if (!buf)
		return;
	t0 = mt_now_ns();
	(void)mt_populate(buf, PROBE_BYTES);
	for (size_t off = 0; off < PROBE_BYTES; off += PAGE)
		buf[off] = 1;
	*fault_ns = (double)(mt_now_ns() - t0) / (PROBE_BYTES / (huge ? MT_HUGE_2M : PAGE));
	t0 = mt_now_ns();
	if (numa_mem_count(buf, PROBE_BYTES, p->nodes[p->cells[0].mem].node, &pages, &on,
			   &absent) == 0)
		*count_ns = (double)(mt_now_ns() - t0) / (PROBE_BYTES / PAGE);
	t0 = mt_now_ns();
	munmap(buf, PROBE_BYTES);
	*free_ns = (double)(mt_now_ns() - t0) / (PROBE_BYTES / PAGE);
}

/* ns a byte of one thread's reads and of its writes over PROBE_PASS bytes,
 * the best of two passes each. */
static void probe_pass(double *read_ns, double *write_ns)
{
	double *a = mt_map_2m(PROBE_PASS, 0);
	size_t n = PROBE_PASS / sizeof *a;
	*read_ns = *write_ns = -1;
	if (!a)
		return;
	memset(a, 0, PROBE_PASS);
	for (int k = 0; k < 2; k++) {
		uint64_t t0 = mt_now_ns();
		double s0 = 0, s1 = 0, s2 = 0, s3 = 0, w;
		for (size_t i = 0; i + 4 <= n; i += 4) {
			s0 += a[i], s1 += a[i + 1], s2 += a[i + 2], s3 += a[i + 3];
		}
		mt_sink((long)(s0 + s1 + s2 + s3));
		w = (double)(mt_now_ns() - t0) / PROBE_PASS;
		*read_ns = *read_ns < 0 || w < *read_ns ? w : *read_ns;
		t0 = mt_now_ns();
		double *b = a;
		mt_launder(b);
		memset(b, k + 1, PROBE_PASS);
		w = (double)(mt_now_ns() - t0) / PROBE_PASS;
		*write_ns = *write_ns < 0 || w < *write_ns ? w : *write_ns;
	}
	munmap(a, PROBE_PASS);
}

void numa_probe(const struct numa_params *p, struct numa_probe *q)
{
	double lp;
	int running = 0;
	uint64_t wall;
	clock_t cpu;
	memset(q, 0, sizeof *q);
	if (p->ncells == 0 || p->nodes[p->cells[0].cpu].ncpus <= 0)
		return;
	q->touch_threads = 1;
	q->touch_ns = probe_touch();
	probe_pages(p, 0, &q->page_ns, &q->count_ns, &q->free_ns);
	if (p->huge)
		probe_pages(p, 1, &q->huge_ns, &lp, &lp);
	/* the share of a CPU this thread gets now: the best of a few tries
	 * (the passes', the latency lab's walks) leaves out what another task
	 * took, a run's whole length does not */
	wall = mt_now_ns();
	cpu = clock();
	probe_pass(&q->read_ns, &q->write_ns);
	q->lat4 = p->lat;
	q->lat4.hugepages = LATENCY_HUGE_OFF;
	latency_probe(&q->lat4);
	if (p->huge) {
		q->lat2 = p->lat;
		q->lat2.hugepages = LATENCY_HUGE_ON;
		latency_probe(&q->lat2);
	}
	wall = mt_now_ns() - wall;
	q->share = wall > 0 ? (double)(clock() - cpu) / CLOCKS_PER_SEC * 1e9 / (double)wall : 1;
	q->share = q->share > 1 ? 1 : q->share < 0.05 ? 0.05 : q->share;
	/* a busy machine: the bandwidth's tries seldom agree (each cell takes
	 * its most tries and is measured again at its row's end) */
	q->busy = mt_load(&lp, &running) == 0 && p->m && lp > (double)p->m->nallowed;
	q->have = q->touch_ns > 0 && q->page_ns > 0 && q->read_ns > 0 && q->write_ns > 0;
}

/* ---- the price ------------------------------------------------------------ */

/* Seconds of one latency run over size bytes on huge or 4 KB pages: its pages, its
 * chase linked as the lab prices it, its loads as the worker plans them (a
 * warm-up from its first guess of LATENCY_FIRST_GUESS_NS a load, then the
 * tries) at the lab's model's ns on this CPU share, the pages counted and
 * unmapped. */
static double latency_cost_s(const struct numa_probe *q, int huge, uint64_t size)
{
	const struct latency_params *l = huge ? &q->lat2 : &q->lat4;
	uint64_t lines = latency_chase_slots(size, l->random_stride), warm, timed, w2;
	double pages = (double)size / PAGE, ns, s;
	ns = latency_model_ns(l, size, 1, l->random_stride);
	latency_plan_point(l, lines, LATENCY_FIRST_GUESS_NS, &warm, &timed);
	latency_plan_point(l, lines, ns, &w2, &timed);
	s = (double)lines * latency_link_ns(l, size, l->random_stride, 1) / 1e9;
	s += (double)(warm + timed) * ns / q->share / 1e9;
	s += huge && q->huge_ns > 0 ? (double)size / MT_HUGE_2M * q->huge_ns / 1e9
				    : pages * q->page_ns / 1e9;
	return s + pages * (fmax(q->count_ns, 0) + fmax(q->free_ns, 0)) / 1e9;
}

double numa_chase_cost_s(const struct numa_params *p, const struct numa_probe *q, uint64_t size,
			 int huge)
{
	if (!q || !q->have) /* nothing timed here (a recorded machine): a guess */
		return (double)size / (1u << 30) * (p->quick ? 0.3 : 2.0);
	return latency_cost_s(q, huge, size);
}

/* Seconds of one bandwidth run of p in mix (NUMA_MIX_*) with the CPU
 * node's threads: their first touch, then each cell as the lab measures
 * it: the arrays filled, the sizing pass and the tries (3, or on a busy
 * machine 9 and the cell again), each pass its reads and writes
 * (numa_mix_bytes; a byte written priced at 2.5 read: the line read
 * first, then written back), the arrays checked; then the pages counted
 * and unmapped. */
static double bandwidth_cost_s(const struct numa_params *p, const struct numa_probe *q,
			       unsigned threads, int mix)
{
	unsigned arrays = bandwidth_kernel_arrays(numa_mix_kernel(mix, p->streaming));
	uint64_t rd, wr;
	double pages = (double)p->size / PAGE, bytes = (double)p->size;
	double passes = q->busy ? 1 + p->bw.max_tries : 1 + p->bw.min_tries;
	double par = threads > 1 ? (double)threads : 1; /* the passes' threads, side by side */
	double pass, cell, touch;
	numa_mix_bytes(mix, (size_t)(p->size / (arrays ? arrays : 1) / sizeof(double)), &rd, &wr);
	pass = ((double)rd + 2.5 * (double)wr) * q->read_ns / q->share / par;
	cell = bytes * q->write_ns + passes * pass + bytes * q->read_ns * (wr ? 2 : 1);
	touch = pages * q->touch_ns * q->touch_threads / (threads ? threads : 1);
	return (touch + (q->busy ? 2 : 1) * cell + pages * (fmax(q->count_ns, 0) +
							   fmax(q->free_ns, 0))) / 1e9;
}

double numa_run_cost_s(const struct numa_params *p, const struct numa_probe *q, size_t cell,
		       int what)
{
	unsigned threads = (unsigned)p->nodes[p->cells[cell].cpu].ncpus;
	uint64_t lat_size = p->lat_size && !p->lat_curve ? p->lat_size : p->size;
	if (!q || !q->have) /* nothing timed here (a recorded machine): a guess */
		return (double)(what == NUMA_LAT || what == NUMA_LAT_HUGE ? lat_size : p->size) /
		       (1u << 30) * (p->quick ? 0.3 : 2.0);
	switch (what) {
	case NUMA_LAT:
		return latency_cost_s(q, 0, lat_size);
	case NUMA_LAT_HUGE:
		return latency_cost_s(q, 1, lat_size);
	case NUMA_LAT_FULL:
		return latency_cost_s(q, 1, p->size);
	default:
		return bandwidth_cost_s(p, q, threads, numa_meas_mix(what));
	}
}

/* Each point of a curve (the injectors' ramp of 10 ms, the chaser's
 * calibration and tries, the idle point twice at least) as the lab times
 * it; then its buffers: without q bound, touched and linked at about 1
 * GB/s; with q the chase's pages populated and linked, the injectors'
 * first touched, both counted and unmapped. */
double numa_curve_cost_s(const struct numa_params *p, const struct numa_probe *q)
{
	double tries = p->quick ? 3 : 15, point = p->quick ? 0.005 : 0.004; /* the lab's */
	double s = ((double)p->ndelays + 2) * (0.015 + tries * point), pages = (double)p->size / PAGE;
	unsigned stride = p->lat.random_stride ? p->lat.random_stride : 128;
	const struct latency_params *l;
	if (!q || !q->have)
		return s + 2.0 * (double)p->size / 1e9;
	l = p->huge ? &q->lat2 : &q->lat4;
	s += (double)latency_chase_slots(p->size, stride) * latency_link_ns(l, p->size, stride, 1) /
	     1e9;
	s += p->huge && q->huge_ns > 0 ? (double)p->size / MT_HUGE_2M * q->huge_ns / 1e9
				       : pages * q->page_ns / 1e9;
	s += pages * q->touch_ns / 1e9;
	return s + 2 * pages * (fmax(q->count_ns, 0) + fmax(q->free_ns, 0)) / 1e9;
}

double numa_estimate_s(const struct numa_params *p, const struct numa_probe *q)
{
	double s = 0;
	for (size_t k = 0; k < p->ncells; k++) {
		s += numa_run_cost_s(p, q, k, NUMA_LAT);
		for (int m = 0; m < NUMA_NMIX; m++)
			if ((p->mixes >> m) & 1)
				s += numa_run_cost_s(p, q, k, numa_mix_meas(m));
		if (p->huge)
			s += numa_run_cost_s(p, q, k, NUMA_LAT_HUGE);
		if (p->huge && (p->lat_curve || (p->lat_size && p->lat_size < p->size)))
			s += numa_run_cost_s(p, q, k, NUMA_LAT_FULL);
	}
	if (p->huge && p->lat_curve)
		for (uint64_t at = p->curve_from; at && at <= p->size; at *= 2)
			s += numa_chase_cost_s(p, q, at, 1);
	return s + (double)p->nloaded * numa_curve_cost_s(p, q);
}
