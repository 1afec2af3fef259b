/* batch_run: one run of `memtop run NAME` once its options are parsed
 * (batch.h): the run header, the job pumped with its progress line and
 * Ctrl-C, the end of the job, the warnings after it, and the result's JSON
 * written; the real stdout kept with --json - given back. */
#include "config.h"
#include "base/i18n.h"

#include "batch.h"
#include "diag.h"
#include "os/sysinfo.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --json -: stdout is the real one again (after the table is printed);
 * *fd is the one keep_stdout() kept. */
static void restore_stdout(int *fd)
{
	if (*fd < 0)
		return;
	fflush(stdout);
	dup2(*fd, STDOUT_FILENO);
	close(*fd);
	*fd = -1;
}

void batch_cli_stdout(struct batch_cli *c)
{
	restore_stdout(&c->json_fd);
}

void batch_begin(struct batch_run *r, const struct batch_cli *c, int pinned)
{
	char quota[400];
	r->cli = c;
	r->json_fd = c->json_fd;
	r->meta = c->csv ? stderr : stdout;
	r->cpu = !pinned ? -1 : c->cpu >= 0 ? c->cpu : job_pick_cpu();
	run_header_init(&r->hdr, r->cpu);
	r->hdr.quick = c->quick ? 1 : 2; /* what compare names first of a run's method */
	run_header_print(r->meta, &r->hdr);
	if (mt_limits_quota_note(&r->hdr.job, c->threads > 0 ? c->threads : 1, quota, sizeof quota))
		fprintf(r->meta, _("# warning: %s\n"), quota);
	fflush(r->meta);
}

/* ---- the loop of a batch run: events, the progress bar, Ctrl-C ---------- */

static volatile sig_atomic_t pump_stop;

static void pump_signal(int sig)
{
	(void)sig;
	pump_stop = 1;
}

/* The progress line of j on stderr: bar, percent, cells, ETA. */
static void draw_progress(const job_t *j, int *drawn)
{
	struct job_progress p;
	char bar[31], cells[64];
	int fill;
	job_get_progress(j, &p);
	job_progress_cells(&p, cells, sizeof cells);
	fill = (int)(p.fraction * 30.0 + 0.5);
	for (int i = 0; i < 30; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[30] = '\0';
	if (p.eta_s >= 0) {
		fputc('\r', stderr);
		/* TRANSLATORS: the progress line: bar, percent, cells done, time left */
		mt_hfprintf(stderr, _("[%s] %3.0f%%  %s  ETA %.0fs "), bar, p.fraction * 100, cells,
			    ceil(p.eta_s));
		fputs("\033[K", stderr);
	} else {
		fprintf(stderr, "\r[%s] %3.0f%%  %s \033[K", bar, p.fraction * 100, cells);
	}
	fflush(stderr);
	*drawn = 1;
}

static void clear_progress(int *drawn)
{
	if (*drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		*drawn = 0;
	}
}

/* Waits on j, passes each event to cb, draws a progress line on stderr when
 * it is a terminal, cancels the job on SIGINT/SIGTERM; then puts the job's
 * final progress in *last and joins it. Returns as job_join() does: 0 done,
 * 1 cancelled, -1 failed with e set. */
static int pump(job_t *j, job_event_cb cb, void *ctx, struct job_progress *last, mt_error *e)
{
	struct sigaction sa, old_int, old_term;
	struct job_event evs[64];
	int tty = isatty(2);
	int drawn = 0, ended = 0;
	uint64_t last_draw = 0;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = pump_signal;
	sigemptyset(&sa.sa_mask);
	pump_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);

	while (!ended) {
		struct pollfd pfd = { .fd = job_fd(j), .events = POLLIN };
		size_t n;
		int r = poll(&pfd, 1, 100);
		if (r < 0 && errno != EINTR)
			break;
		if (pump_stop) {
			job_cancel(j);
			pump_stop = 0;
		}
		n = job_take(j, evs, MT_ARRAY_LEN(evs));
		if (n) {
			clear_progress(&drawn);
			for (size_t i = 0; i < n; i++) {
				ended |= job_event_is_last(&evs[i]);
				cb(&evs[i], ctx);
			}
			fflush(stdout);
		}
		if (tty && !ended && mt_now_ns() - last_draw > 100000000ull) {
			draw_progress(j, &drawn);
			last_draw = mt_now_ns();
		}
	}
	clear_progress(&drawn);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	job_get_progress(j, last); /* final once the last event was taken */
	return job_join(j, e);
}

/* "run EXP: cancelled after D of T cells; nothing written" (pairs for cores). */
static void say_cancelled(const char *exp, const struct job_progress *p)
{
	unsigned long long done = p->cells_done, total = p->cells_total;
	if (p->unit && strcmp(p->unit, "pair") == 0)
		mt_warn(MT_NGETTEXT("run %s: cancelled after %llu of %llu pair; nothing written",
				    "run %s: cancelled after %llu of %llu pairs; nothing written",
				    total),
			exp, done, total);
	else
		mt_warn(MT_NGETTEXT("run %s: cancelled after %llu of %llu cell; nothing written",
				    "run %s: cancelled after %llu of %llu cells; nothing written",
				    total),
			exp, done, total);
}

int batch_pump(struct batch_run *r, job_fn fn, void *arg, job_event_cb cb, void *ctx)
{
	struct job_opts o = { r->cpu, 0 };
	struct job_progress last;
	mt_error e = { "" };
	uint64_t t0 = mt_now_ns();
	job_t *job = job_start(fn, arg, &o, &e);
	int st;
	if (!job) {
		mt_warn(_("run %s: %s"), r->cli->exp, e.msg);
		return MT_EXIT_RUNTIME;
	}
	st = pump(job, cb, ctx, &last, &e);
	r->elapsed_s = (double)(mt_now_ns() - t0) / 1e9;
	diag_end(&r->hdr.diag, &last);
	if (st == 0)
		return 0;
	if (st == 1 && last.cells_total)
		say_cancelled(r->cli->exp, &last);
	else if (st == 1)
		mt_warn(_("run %s: cancelled; nothing written"), r->cli->exp);
	else
		mt_warn(_("run %s: %s"), r->cli->exp, e.msg);
	return MT_EXIT_RUNTIME;
}

void batch_end_inline(struct batch_run *r)
{
	diag_end(&r->hdr.diag, NULL);
}

void batch_note(const struct batch_run *r, const char *text)
{
	fprintf(r->meta, "# %s\n", text);
}

/* One "# warning: ..." line on r->meta per diagnostic after the run. */
static void print_warnings(const struct batch_run *r)
{
	char w[8][DIAG_LINE];
	int n = diag_warnings(&r->hdr.diag, w, 8);
	run_header_print_clock(r->meta, &r->hdr);
	for (int i = 0; i < n; i++)
		fprintf(r->meta, _("# warning: %s\n"), w[i]);
}

cJSON *batch_json_root(const struct batch_run *r)
{
	cJSON *root = cJSON_CreateObject();
	if (!root)
		return NULL;
	if (run_header_to_json(&r->hdr, root) < 0 ||
	    !cJSON_AddStringToObject(root, "experiment", r->cli->exp)) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

int batch_finish(struct batch_run *r, cJSON *root)
{
	mt_error e = { "" };
	const char *path = r->cli->json;
	int rc;
	print_warnings(r);
	if (!path) {
		cJSON_Delete(root);
		return 0;
	}
	if (!root) {
		mt_warn(_("run %s: %s: out of memory; nothing written"), r->cli->exp, path);
		return MT_EXIT_RUNTIME;
	}
	if (jsonio_is_stdout(path)) {
		fputs(_("# the JSON result goes to stdout\n"), r->meta);
		restore_stdout(&r->json_fd);
	}
	rc = jsonio_write_as(path, root, r->cli->compact, &e);
	cJSON_Delete(root);
	if (rc < 0) {
		mt_warn(_("run %s: %s"), r->cli->exp, e.msg);
		return MT_EXIT_RUNTIME;
	}
	if (!jsonio_is_stdout(path))
		fprintf(r->meta, _("# wrote %s\n"), path);
	return 0;
}
