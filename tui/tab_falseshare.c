/* tab_falseshare: tab 5, false sharing. The table threads x layout (packed
 * 8 bytes apart, padded to separate lines) filling in live with the
 * packed/padded ratio, and the spacing sweep at two threads as a bar chart.
 * The measuring is src/falseshare.c; this file starts the job and draws. */
#include "config.h"

#include "falseshare.h"
#include "tab.h"

#include <math.h>
#include <string.h>

static struct {
	struct falseshare_params p; /* outlives the job */
	int running;
	double ms[FALSESHARE_MAX_LIST][2];
	int have[FALSESHARE_MAX_LIST][2], over[FALSESHARE_MAX_LIST];
	double sweep[FALSESHARE_MAX_LIST];
	int have_sweep[FALSESHARE_MAX_LIST];
	int inexact;
} S;

static void reset_results(void)
{
	memset(S.have, 0, sizeof S.have);
	memset(S.have_sweep, 0, sizeof S.have_sweep);
	memset(S.over, 0, sizeof S.over);
	S.inexact = 0;
}

static int init(struct tui *t)
{
	memset(&S, 0, sizeof S);
	falseshare_params_default(&S.p); /* the CPU list: the UI thread sees them all */
	if (tui_quick(t))
		S.p.rounds = 2000000;
	return 0;
}

static void on_job_event(struct tui *t, const struct job_event *ev)
{
	mt_error e;
	if (ev->type == JOB_EV_CELL) {
		int r = ev->row;
		if (r < 0 || r >= FALSESHARE_MAX_LIST)
			return;
		if (ev->kind == FALSESHARE_CELL_TABLE && (ev->col == 0 || ev->col == 1)) {
			S.ms[r][ev->col] = ev->value;
			S.have[r][ev->col] = 1;
			S.over[r] = ev->aux[2] > 0.5;
		} else if (ev->kind == FALSESHARE_CELL_SWEEP) {
			S.sweep[r] = ev->value;
			S.have_sweep[r] = 1;
		}
		if (ev->aux[3] < 0.5)
			S.inexact = 1;
		tui_dirty(t);
		return;
	}
	if (ev->type == JOB_EV_NOTE)
		return;
	S.running = 0;
	if (job_join(tui_job(t), &e) < 0)
		tui_message(t, "false sharing failed: %s", e.msg);
	else if (ev->type == JOB_EV_CANCELLED)
		tui_message(t, "false sharing stopped");
	else
		tui_message(t, S.inexact ? "done: a sum was WRONG" : "done: every sum exact");
	tui_dirty(t);
}

static int act_start(struct tui *t, int key)
{
	job_t *job;
	struct job_opts o = { -1, 0 };
	mt_error e;
	(void)key;
	if (tui_view_mode(t)) {
		tui_message(t, "memtop view does not measure (run memtop for this machine)");
		return 1;
	}
	if (tui_job(t)) {
		tui_message(t, "a measurement is already running");
		return 1;
	}
	reset_results();
	job = job_start(falseshare_worker, &S.p, &o, &e);
	if (!job) {
		tui_message(t, "cannot measure: %s", e.msg);
		return 1;
	}
	if (tui_job_start(t, &tab_falseshare, job) < 0) {
		job_cancel(job);
		job_join(job, NULL);
		return 1;
	}
	S.running = 1;
	tui_dirty(t);
	return 1;
}

static void rounds_answer(struct tui *t, const char *answer)
{
	uint64_t v;
	if (!answer)
		return;
	if (mt_parse_u64(answer, 1000, 1000000000ull, &v) < 0) {
		tui_message(t, "rounds: expected 1000..1000000000");
		return;
	}
	S.p.rounds = v;
	tui_dirty(t);
}

static int act_rounds(struct tui *t, int key)
{
	char cur[32];
	(void)key;
	if (S.running) {
		tui_message(t, "stop the run first (x)");
		return 1;
	}
	mt_snprintf(cur, sizeof cur, "%llu", (unsigned long long)S.p.rounds);
	tui_prompt(t, "Increments per thread: ", cur, rounds_answer);
	return 1;
}

static const struct keybinding keys[] = {
	{ 'r', "r", "measure: threads 1, 2, 4, 8 x packed/padded, then the spacing sweep",
	  act_start },
	{ 'o', "o", "type the increments per thread", act_rounds },
	{ 0, NULL, NULL, NULL },
};

static void draw(struct tui *t, WINDOW *w, int full)
{
	int h, wd, y = 0;
	char line[256];
	double top = 0;
	(void)full;
	getmaxyx(w, h, wd);
	werase(w);
	mt_snprintf(line, sizeof line,
		    "%llu atomic adds per thread, best of %d; packed %u bytes apart, padded %u; "
		    "%d CPUs",
		    (unsigned long long)S.p.rounds, S.p.tries, S.p.packed, S.p.padded, S.p.ncpus);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	mvwaddnstr(w, y++, 1, line, wd - 2);
	y++;
	mt_snprintf(line, sizeof line, "%-16s %11s %11s %8s", "threads", "packed ms", "padded ms",
		    "ratio");
	mvwaddnstr(w, y++, 1, line, wd - 2);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (size_t i = 0; i < S.p.nthreads && y < h; i++, y++) {
		char a[16], b[16], r[16];
		if (S.have[i][0])
			mt_snprintf(a, sizeof a, "%11.1f", S.ms[i][0]);
		else
			mt_snprintf(a, sizeof a, "%11s", "-");
		if (S.have[i][1])
			mt_snprintf(b, sizeof b, "%11.1f", S.ms[i][1]);
		else
			mt_snprintf(b, sizeof b, "%11s", "-");
		if (S.have[i][0] && S.have[i][1] && S.ms[i][1] > 0)
			mt_snprintf(r, sizeof r, "%7.2fx", S.ms[i][0] / S.ms[i][1]);
		else
			r[0] = '\0';
		mt_snprintf(line, sizeof line, "%5u%-11s %s %s %s", S.p.threads[i],
			    S.p.ncpus > 0 && S.p.threads[i] > (unsigned)S.p.ncpus ? " (> CPUs)" : "",
			    a, b, r);
		mvwaddnstr(w, y, 1, line, wd - 2);
	}
	y++;
	if (y + 2 >= h)
		return;
	for (size_t i = 0; i < S.p.nsweep; i++)
		if (S.have_sweep[i] && S.sweep[i] > top)
			top = S.sweep[i];
	wattrset(w, tui_attr(t, ROLE_TITLE));
	mt_snprintf(line, sizeof line, "spacing sweep, %u threads (ms): the sharing stops where "
		    "the bars drop", S.p.sweep_threads);
	mvwaddnstr(w, y++, 1, line, wd - 2);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (size_t i = 0; i < S.p.nsweep && y < h; i++, y++) {
		int bw = wd - 2 - 20, cells;
		mt_snprintf(line, sizeof line, "%5u B %9s", S.p.sweep[i], "-");
		if (S.have_sweep[i])
			mt_snprintf(line, sizeof line, "%5u B %9.1f", S.p.sweep[i], S.sweep[i]);
		mvwaddnstr(w, y, 1, line, wd - 2);
		if (!S.have_sweep[i] || top <= 0 || bw < 4)
			continue;
		cells = (int)lround(S.sweep[i] / top * bw);
		wattrset(w, tui_attr(t, ROLE_BAR));
		for (int k = 0; k < cells; k++)
			mvwaddstr(w, y, 19 + k, tui_glyph(t, GL_BLOCK));
		wattrset(w, tui_attr(t, ROLE_NORMAL));
	}
	if (!S.running && !S.have[0][0]) {
		wattrset(w, tui_attr(t, ROLE_DIM));
		mvwaddnstr(w, h - 1, 1, "r measures; o sets the increments per thread", wd - 2);
		wattrset(w, tui_attr(t, ROLE_NORMAL));
	}
}

const struct tab tab_falseshare = {
	.name = "False sharing",
	.key = '5',
	.init = init,
	.draw = draw,
	.keys = keys,
	.job_event = on_job_event,
};
