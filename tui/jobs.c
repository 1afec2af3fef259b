/* jobs: the frame's one running job: tui_job_launch() starts it for a tab,
 * jobs_pump() hands its events to the tab and ends it after the last one,
 * jobs_stop() cancels it at exit. The UI thread keeps off the job's CPU
 * while it runs. */
#include "config.h"

#include "internal.h"
#include "result/result.h"
#include "os/platform.h"
#include "os/sysinfo.h"
#include "os/threads.h"

#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int ui_cpus[1024]; /* the UI thread's CPUs before the first job */
static int ui_ncpus;      /* 0: not kept (or the OS cannot tell) */

/* Keep the UI thread off the job's CPU while the job runs (when there are
 * two or more CPUs); ui_pin_restore() gives it its CPUs back, so the next
 * job_pick_cpu() sees them all. Best effort. */
static void pin_ui_away(int job_cpu)
{
	int cpus[MT_ARRAY_LEN(ui_cpus)], n = mt_allowed_cpus(cpus, (int)MT_ARRAY_LEN(cpus)), k = 0;
	if (job_cpu < 0 || n < 2)
		return;
	if (!ui_ncpus)
		ui_ncpus = mt_allowed_cpus(ui_cpus, (int)MT_ARRAY_LEN(ui_cpus));
	for (int i = 0; i < n; i++)
		if (cpus[i] != job_cpu)
			cpus[k++] = cpus[i];
	(void)mt_plat_set_allowed(cpus, k);
}

static void ui_pin_restore(void)
{
	if (ui_ncpus)
		(void)mt_plat_set_allowed(ui_cpus, ui_ncpus);
}

int tui_job_launch(struct tui *t, const struct tab *owner, job_fn fn, void *arg,
		   struct run_header *hdr)
{
	return tui_job_launch_on(t, owner, fn, arg, hdr, -1);
}

int tui_job_launch_on(struct tui *t, const struct tab *owner, job_fn fn, void *arg,
		      struct run_header *hdr, int cpu)
{
	struct job_opts o = { cpu >= 0 ? cpu : job_pick_cpu(), 0 };
	mt_error e;
	job_t *job;
	if (t->job) {
		tui_message(t, _("a measurement is already running (x stops it)"));
		return -1;
	}
	if (hdr)
		run_header_init(hdr, o.cpu);
	job = job_start(fn, arg, &o, &e);
	if (!job) {
		tui_message(t, _("cannot measure: %s"), e.msg);
		return -1;
	}
	t->job = job;
	t->job_owner = owner;
	t->job_hdr = hdr;
	pin_ui_away(o.cpu);
	t->dirty = 1;
	return 0;
}

job_t *tui_job(const struct tui *t)
{
	return t->job;
}

int tui_running(const struct tui *t, const struct tab *tab)
{
	return t->job && tab && t->job_owner == tab;
}

void tui_job_toggle_pause(struct tui *t)
{
	if (!t->job) {
		tui_message(t, _("nothing is running"));
		return;
	}
	if (job_is_paused(t->job))
		job_resume(t->job);
	else
		job_pause(t->job);
	t->dirty = 1;
}

/* A run has ended: its freed memory goes back to the system
 * (mt_plat_heap_release), so that a session does not keep the pages of its
 * runs. When MEMTOP_MEMSTAT names a file (off by default: a soak's
 * accounting), one line is appended to it: the time, the tab that ran, the
 * heap's live and held bytes and the RSS before the release, the release's
 * time, the held bytes and RSS after it, and the threads started and made
 * so far (os/threads: a pinned thread is kept for the run's next start). */
static void heap_after_run(const struct tab *owner)
{
	const char *path = getenv("MEMTOP_MEMSTAT");
	struct mt_heap a, b;
	uint64_t t0;
	FILE *f;
	if (!path || !*path) {
		mt_plat_heap_release();
		return;
	}
	mt_plat_heap(&a);
	t0 = mt_now_ns();
	mt_plat_heap_release();
	t0 = mt_now_ns() - t0;
	mt_plat_heap(&b);
	f = fopen(path, "a");
	if (!f)
		return;
	/* machine text: a line of the stat file bench reads */
	fprintf(f, "%lld %s: live %zu held %zu rss %zu; released in %llu us: held %zu rss %zu; threads %lu made %lu\n",
		(long long)time(NULL), owner ? owner->name : "-", a.live, a.held, a.rss,
		(unsigned long long)(t0 / 1000), b.held, b.rss, mt_threads_started(),
		mt_threads_made());
	fclose(f);
}

/* The job sent its last event: end it (join), put the after-run
 * diagnostics and its CPU tracking into the header it was launched with,
 * show them in the status line, and forget it, so that the owner may
 * launch the next one. */
static void end_job(struct tui *t)
{
	struct job_progress p;
	job_get_progress(t->job, &p);
	job_join(t->job, NULL); /* the last event carried the failure, if any */
	ui_pin_restore(); /* first: diag_end compares the UI thread's CPUs with the start's */
	if (t->job_hdr) {
		diag_end(&t->job_hdr->diag, &p);
		tui_set_diag(t, &t->job_hdr->diag); /* the run's conditions, for every tab */
	}
	t->job = NULL;
	t->job_hdr = NULL;
	heap_after_run(t->job_owner);
}

void jobs_pump(struct tui *t)
{
	struct job_event ev[128];
	size_t n;
	while (t->job && (n = job_take(t->job, ev, MT_ARRAY_LEN(ev))) > 0) {
		for (size_t i = 0; i < n; i++) {
			const struct tab *owner = t->job_owner;
			int last = job_event_is_last(&ev[i]);
			if (ev[i].type == JOB_EV_NOTE) {
				char said[512];
				tui_message(t, "%s", experiment_note_text(said, sizeof said, ev[i].text));
			}
			if (last) {
				end_job(t);
				t->job_owner = NULL;
			}
			if (owner->job_event)
				owner->job_event(t, tui_tab_self(t, owner), &ev[i]);
			if (last)
				break;
		}
		t->dirty = 1;
	}
}

/* Cancel the running job and wait for its last event (the owner ends it).
 * Cancel acts within 100 ms; after 5 s the job is left behind so that
 * quitting never hangs. */
void jobs_stop(struct tui *t)
{
	uint64_t t0 = mt_now_ns();
	if (!t->job)
		return;
	job_cancel(t->job);
	while (t->job && mt_now_ns() - t0 < TUI_STOP_WAIT_NS) {
		struct pollfd p = { job_fd(t->job), POLLIN, 0 };
		poll(&p, 1, 200);
		jobs_pump(t);
	}
	t->job = NULL;
}
