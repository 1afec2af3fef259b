/* tab_lists: tab 6, list layouts. The table lengths x layouts (cycles per
 * cell of the walk) filling in live, and for each layout the new lines per
 * cell at 64- and 128-byte lines and the simulator's misses per cell (the
 * M4 Max's L1d by default) of the latest length measured. The measuring is
 * src/lists.c; this file starts the job and draws. */
#include "config.h"

#include "lists.h"
#include "tab.h"

#include <math.h>
#include <string.h>

/* Column heads that fit 80 columns beside the side panel. */
static const char *const short_names[LIST_NLAYOUTS] = {
	"seq", "stride", "shuffled", "malloc", "holes", "cdr"
};

static struct {
	struct lists_params p; /* outlives the job */
	int running;
	double cyc[LISTS_MAX_LENGTHS][LIST_NLAYOUTS];
	double l64[LIST_NLAYOUTS], l128[LIST_NLAYOUTS], sim[LIST_NLAYOUTS], bare[LIST_NLAYOUTS];
	int have[LISTS_MAX_LENGTHS][LIST_NLAYOUTS], have_lines[LIST_NLAYOUTS];
	size_t lines_len[LIST_NLAYOUTS];
	double work_cyc;
	char note[160];
} S;

static void reset_results(void)
{
	memset(S.have, 0, sizeof S.have);
	memset(S.have_lines, 0, sizeof S.have_lines);
	S.work_cyc = 0;
	S.note[0] = '\0';
}

static int init(struct tui *t)
{
	memset(&S, 0, sizeof S);
	lists_params_default(&S.p);
	if (tui_quick(t))
		S.p.nlengths = 2; /* 4K and 64K cells: a second or two */
	return 0;
}

static void on_job_event(struct tui *t, const struct job_event *ev)
{
	mt_error e;
	if (ev->type == JOB_EV_NOTE) {
		mt_strlcpy(S.note, ev->text, sizeof S.note);
		tui_dirty(t);
		return;
	}
	if (ev->type == JOB_EV_CELL) {
		int r = ev->row, c = ev->col;
		if (ev->kind == LISTS_CELL_WORK) {
			S.work_cyc = ev->value;
		} else if (ev->kind == LISTS_CELL_RESULT && r >= 0 && r < LISTS_MAX_LENGTHS &&
			   c >= 0 && c < LIST_NLAYOUTS) {
			S.cyc[r][c] = ev->value;
			S.have[r][c] = 1;
			S.l64[c] = ev->aux[1];
			S.l128[c] = ev->aux[2];
			S.sim[c] = ev->aux[3];
			S.bare[c] = ev->aux[4];
			S.have_lines[c] = 1;
			S.lines_len[c] = S.p.lengths[r];
		}
		tui_dirty(t);
		return;
	}
	S.running = 0;
	if (job_join(tui_job(t), &e) < 0)
		tui_message(t, "lists failed: %s", e.msg);
	else if (ev->type == JOB_EV_CANCELLED)
		tui_message(t, "lists stopped");
	else
		tui_message(t, "lists done: every layout read 1..n");
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
	S.p.graph = 0;
	job = job_start(lists_worker, &S.p, &o, &e);
	if (!job) {
		tui_message(t, "cannot measure: %s", e.msg);
		return 1;
	}
	if (tui_job_start(t, &tab_lists, job) < 0) {
		job_cancel(job);
		job_join(job, NULL);
		return 1;
	}
	S.running = 1;
	tui_dirty(t);
	return 1;
}

static void work_answer(struct tui *t, const char *answer)
{
	uint64_t v;
	if (!answer)
		return;
	if (mt_parse_u64(answer, 0, 10000, &v) < 0) {
		tui_message(t, "work: expected 0..10000 multiply-adds per cell");
		return;
	}
	S.p.work = (unsigned)v;
	tui_dirty(t);
}

static int act_work(struct tui *t, int key)
{
	char cur[32];
	(void)key;
	if (S.running) {
		tui_message(t, "stop the run first (x)");
		return 1;
	}
	mt_snprintf(cur, sizeof cur, "%u", S.p.work);
	tui_prompt(t, "Work per cell (dependent multiply-adds): ", cur, work_answer);
	return 1;
}

static const struct keybinding keys[] = {
	{ 'r', "r", "walk every layout at every length", act_start },
	{ 'w', "w", "type the work per cell (the core hides misses behind it)", act_work },
	{ 0, NULL, NULL, NULL },
};

static void draw(struct tui *t, WINDOW *w, int full)
{
	int h, wd, y = 0;
	char line[256], cell[24];
	(void)full;
	getmaxyx(w, h, wd);
	werase(w);
	mt_snprintf(line, sizeof line, "walk of (1 2 ... n), cycles per cell, best of %d%s",
		    S.p.tries, S.p.work ? "" : " (bare chain of loads)");
	if (S.p.work)
		mt_append(line, sizeof line, ", %u multiply-adds a cell (alone: %.1f cycles)",
			  S.p.work, S.work_cyc);
	wattrset(w, tui_attr(t, ROLE_TITLE));
	mvwaddnstr(w, y++, 1, line, wd - 2);
	y++;
	mt_snprintf(line, sizeof line, "%8s", "cells");
	for (int l = 0; l < LIST_NLAYOUTS; l++)
		mt_append(line, sizeof line, " %8s", short_names[l]);
	mvwaddnstr(w, y++, 1, line, wd - 2);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	for (size_t i = 0; i < S.p.nlengths && y < h; i++, y++) {
		mt_snprintf(line, sizeof line, "%8zu", S.p.lengths[i]);
		for (int l = 0; l < LIST_NLAYOUTS; l++) {
			if (S.have[i][l])
				mt_snprintf(cell, sizeof cell, " %8.1f", S.cyc[i][l]);
			else
				mt_snprintf(cell, sizeof cell, " %8s", "-");
			mt_append(line, sizeof line, "%s", cell);
		}
		mvwaddnstr(w, y, 1, line, wd - 2);
	}
	y++;
	if (y + 4 >= h)
		return;
	wattrset(w, tui_attr(t, ROLE_TITLE));
	mvwaddnstr(w, y++, 1, "per cell, latest length (sim: (7,8,7) = M4 Max L1d, cold)", wd - 2);
	wattrset(w, tui_attr(t, ROLE_NORMAL));
	{
		static const char *const rows[] = { "lines64", "lines128", "sim miss", "bare cyc" };
		for (int k = 0; k < 4 && y < h; k++, y++) {
			if (k == 3 && !S.p.work)
				break;
			mt_snprintf(line, sizeof line, "%8s", rows[k]);
			for (int l = 0; l < LIST_NLAYOUTS; l++) {
				double v = k == 0 ? S.l64[l] : k == 1 ? S.l128[l] : k == 2 ? S.sim[l]
											  : S.bare[l];
				if (S.have_lines[l] && isfinite(v))
					mt_snprintf(cell, sizeof cell, " %8.3f", v);
				else
					mt_snprintf(cell, sizeof cell, " %8s", "-");
				mt_append(line, sizeof line, "%s", cell);
			}
			mvwaddnstr(w, y, 1, line, wd - 2);
		}
	}
	if (S.note[0] && y + 1 < h) {
		wattrset(w, tui_attr(t, ROLE_WARN));
		mvwaddnstr(w, y + 1, 1, S.note, wd - 2);
		wattrset(w, tui_attr(t, ROLE_NORMAL));
	}
	if (!S.running && !S.have[0][0]) {
		wattrset(w, tui_attr(t, ROLE_DIM));
		mvwaddnstr(w, h - 1, 1, "r walks the lists; w sets the work per cell", wd - 2);
		wattrset(w, tui_attr(t, ROLE_NORMAL));
	}
}

const struct tab tab_lists = {
	.name = "Lists",
	.key = '6',
	.init = init,
	.draw = draw,
	.keys = keys,
	.job_event = on_job_event,
};
