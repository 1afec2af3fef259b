/* services: the small services every file of the frame and every tab
 * calls (tab.h, internal.h): the status line's message, the options of the
 * session, the redraw flag, the Caches panel's inputs, a tab's instance,
 * the prompt. It calls no other file of tui/ but look.c (text made
 * printable), so that the frame's files call each other one way only. */
#include "config.h"

#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void tui_message(struct tui *t, const char *fmt, ...)
{
	char raw[sizeof t->msg];
	va_list ap;
	va_start(ap, fmt);
	mt_vhsnprintf(raw, sizeof raw, fmt, ap); /* for people: their decimal separator */
	va_end(ap);
	/* messages quote paths and fields of files: made printable here, once */
	tui_text(t, t->msg, sizeof t->msg, raw);
	t->dirty = 1;
}

const char *tui_measure_hint(const struct tui *t, const char *live, int opens)
{
	if (!tui_view_mode(t))
		return live;
	/* one line at 80 columns: the tabs lay out as they do with the live hint */
	return opens ? _("memtop view: o opens a saved file (memtop alone measures)")
		     : _("memtop view shows saved files only (memtop alone measures)");
}

int tui_can_measure(struct tui *t)
{
	if (tui_view_mode(t)) {
		tui_message(t, _("memtop view does not measure (run memtop for this machine)"));
		return 0;
	}
	if (t->job) {
		tui_message(t, _("a measurement is already running (x stops it)"));
		return 0;
	}
	return 1;
}

void tui_ask(struct tui *t, void *self, const char *question,
	     void (*done)(struct tui *t, void *self, int key))
{
	t->asking = 1;
	t->prompting = 0;
	mt_strlcpy(t->question, question, sizeof t->question);
	t->answer[0] = '\0';
	t->ask_done = done;
	t->prompt_self = self;
	t->dirty = 1;
}

void tui_ask_key(struct tui *t, int ch)
{
	void (*done)(struct tui *, void *, int) = t->ask_done;
	int key = ch == 'y' || ch == 'Y' ? 'y' : ch == 'n' || ch == 'N' ? 'n' : 0;
	if (!key && ch != 27 /* Esc */ && ch != ('g' & 0x1f) /* Ctrl-G */)
		return; /* another key: the question stays */
	t->asking = 0;
	t->ask_done = NULL;
	t->dirty = 1;
	if (done)
		done(t, t->prompt_self, key);
}

int tui_job_ended(struct tui *t, const struct job_event *ev, const char *what)
{
	if (ev->type == JOB_EV_FAILED)
		tui_message(t, _("%s failed: %s"), _(what), ev->text);
	else if (ev->type == JOB_EV_CANCELLED)
		tui_message(t, _("%s stopped"), _(what));
	return ev->type == JOB_EV_DONE;
}

void tui_dirty(struct tui *t)
{
	t->dirty = 1;
}

void tui_set_mountain(struct tui *t, const struct mountain *m)
{
	t->mtn = m;
	t->dirty = 1;
}

void tui_set_latency(struct tui *t, const struct latency_result *r)
{
	t->lat = r;
	t->dirty = 1;
}

const struct latency_result *tui_latency(const struct tui *t)
{
	return t->lat;
}

const struct info *tui_info(const struct tui *t)
{
	return t->have_info && t->machine ? &t->machine->info : NULL;
}

const struct machine *tui_machine(const struct tui *t)
{
	return t->machine ? t->machine : machine_this();
}

int tui_view_mode(const struct tui *t)
{
	return t->view;
}

int tui_quick(const struct tui *t)
{
	return t->quick;
}

enum tui_start tui_autostart(const struct tui *t)
{
	return (enum tui_start)t->start;
}

struct tab_slot *tui_slot_of(struct tui *t, const struct tab *tab)
{
	for (int i = 0; i < TUI_MAX_TABS; i++)
		if (t->slot[i].tab == tab)
			return &t->slot[i];
	return NULL;
}

void *tui_tab_self(struct tui *t, const struct tab *tab)
{
	struct tab_slot *sl = tui_slot_of(t, tab);
	return sl ? sl->self : NULL;
}

void tui_prompt(struct tui *t, void *self, const char *question, const char *initial,
		void (*done)(struct tui *t, void *self, const char *answer))
{
	t->prompting = 1;
	mt_strlcpy(t->question, question, sizeof t->question);
	mt_strlcpy(t->answer, initial ? initial : "", sizeof t->answer);
	t->apos = strlen(t->answer);
	t->prompt_done = done;
	t->prompt_self = self;
	t->dirty = 1;
}
