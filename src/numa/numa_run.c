/* numa_run: one lab's run as a job of its own under the numa job: its
 * events taken (a curve's points passed on), its pause and cancel passed
 * down, the numa job's progress in the seconds each run is priced at
 * (numa_price.c). See numa_int.h. */
#include "config.h"

#include "numa.h"
#include "numa_int.h"
#include "os/clock.h"

#include <poll.h>
#include <string.h>

#define WAIT_MS 50 /* the worker checks its own job this often while a lab's run runs */

/* ---- one lab's run as a job of its own ------------------------------------------ */

/* A point of the loaded sweep (a BANDWIDTH_EV_LOADED cell) as a NUMA_LOADED
 * cell of w's curve, on to w's job. */
static void pass_point(struct numa_worker *w, const struct job_event *in)
{
	struct bandwidth_ev_loaded x;
	struct job_event ev;
	if (JOB_PAYLOAD_GET(in, struct bandwidth_ev_loaded, &x) < 0)
		return;
	job_cell(&ev, NUMA_LOADED, w->curve->pair.cpu, w->curve_mem, in->value, in->spread);
	JOB_PAYLOAD_PUT(&ev, struct numa_ev_loaded,
			&((struct numa_ev_loaded){ .point = in->row, .why = w->curve->why,
						   .delay_ns = x.delay_ns, .gbs = x.gbs,
						   .spread = in->spread, .tries = x.tries,
						   .preempted = x.preempted }));
	(void)job_emit(w->job, &ev);
}

/* Take sub's events into g (a note goes on to w's job; a curve's points
 * too). Returns 1 after the last event, else 0. */
static int take_events(struct numa_worker *w, job_t *sub, struct numa_got *g)
{
	struct job_event ev[16];
	size_t n = job_take(sub, ev, MT_ARRAY_LEN(ev));
	int last = 0;
	for (size_t i = 0; i < n; i++) {
		switch (ev[i].type) {
		case JOB_EV_CELL:
		case JOB_EV_UPDATE:
			if (w->curve && ev[i].subtype == BANDWIDTH_EV_LOADED) {
				pass_point(w, &ev[i]);
				break;
			}
			g->have = 1;
			g->cell = ev[i];
			break;
		case JOB_EV_NOTE:
			/* the latency run's own figures: the numa run says its own */
			if (ev[i].subtype == LATENCY_NOTE_PRICED || ev[i].subtype == LATENCY_NOTE_REVISED)
				break;
			if (ev[i].subtype == LATENCY_NOTE_PAGES) { /* said once for each page size */
				int huge = strstr(ev[i].text, "huge pages on") != NULL;
				ev[i].subtype = huge ? NUMA_NOTE_PAGES_HUGE : NUMA_NOTE_PAGES;
				if (w->pages_said & (1 << huge))
					break;
				w->pages_said |= 1 << huge;
			}
			(void)job_emit(w->job, &ev[i]);
			break;
		default: /* done, failed, cancelled: the last */
			last = 1;
		}
	}
	return last;
}

/* The job's progress in seconds (struct numa_worker): the run going counts its
 * time so far, up to 95 % of its price, so the ETA is the price's. */
static void progress(struct numa_worker *w)
{
	double in = (double)(mt_now_ns() - w->run_t0) / 1e9, cap = 0.95 * w->run_s * w->factor;
	job_set_progress(w->job, w->done_s + (in < cap ? in : cap),
			 w->done_s + w->run_s * w->factor + w->left_s * w->factor);
}

/* Start a run priced at price s: its price leaves what is left. */
void numa_run_begins_s(struct numa_worker *w, double price)
{
	w->run_s = price;
	w->left_s -= w->run_s;
	w->run_t0 = mt_now_ns();
	progress(w);
}

/* The run going has ended: its real time counts. */
void numa_run_ends(struct numa_worker *w)
{
	w->done_s += (double)(mt_now_ns() - w->run_t0) / 1e9;
	w->run_s = 0;
	progress(w);
}

/* Start run what of cell k (numa_run_cost_s). */
void numa_run_begins(struct numa_worker *w, size_t k, int what)
{
	numa_run_begins_s(w, numa_run_cost_s(w->p, w->p->probe, k, what));
}

int numa_run_lab(struct numa_worker *w, job_fn fn, void *arg, int cpu, struct numa_got *g,
		 mt_error *e)
{
	struct job_progress pg;
	job_t *sub;
	int last = 0, paused = 0;
	memset(g, 0, sizeof *g);
	if (!(sub = numa_mem_job_start(w->p->mem, fn, arg, cpu, &g->moved, e)))
		return -1;
	while (!last) {
		struct pollfd pfd = { job_fd(sub), POLLIN, 0 };
		(void)poll(&pfd, 1, WAIT_MS);
		last = take_events(w, sub, g);
		job_get_progress(sub, &pg);
		g->moved |= pg.cpu_moved;
		progress(w);
		if (!paused && job_is_paused(w->job)) {
			job_pause(sub);
			paused = 1;
		}
		if (job_check(w->job) == JOB_CANCELLED) /* blocks while paused */
			job_cancel(sub);
		else if (paused) {
			job_resume(sub);
			paused = 0;
		}
	}
	return job_join(sub, e);
}
