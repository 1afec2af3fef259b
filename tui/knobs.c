/* knobs: a tab's knobs (struct tab_knob, tab.h), the prompts that set a
 * field of the tab's instance: the key asks in the status line with the
 * field's value and its range, the answer is checked on Enter against the
 * row's bounds and written, or refused with the field's name and the value
 * kept. keys.c binds them and writes their help rows. */
#include "config.h"

#include "internal.h"

#include <string.h>

/* The number knob k's field in self: an unsigned integer of k->size bytes. */
static uint64_t field_get(const void *self, const struct tab_knob *k)
{
	const char *p = (const char *)self + k->at;
	uint32_t v32;
	uint64_t v64;
	if (k->size == sizeof v32) {
		memcpy(&v32, p, sizeof v32);
		return v32;
	}
	memcpy(&v64, p, sizeof v64);
	return v64;
}

static void field_put(void *self, const struct tab_knob *k, uint64_t v)
{
	char *p = (char *)self + k->at;
	uint32_t v32 = (uint32_t)v;
	if (k->size == sizeof v32)
		memcpy(p, &v32, sizeof v32);
	else
		memcpy(p, &v, sizeof v);
}

void tui_knob_refused(struct tui *t, const char *why, const char *kept)
{
	tui_message(t, _("%s; still %s"), why, kept);
}

/* The answer to the knob asked last (t->knob): a text knob's to its
 * answer(); a number in the knob's bounds into its field, else refused
 * with its name, its range and the value kept; Esc (answer NULL) and
 * Enter alone leave the field as it was. */
static void knob_answer(struct tui *t, void *self, const char *answer)
{
	const struct tab_knob *k = t->knob;
	char why[200], kept[32];
	uint64_t v;
	t->knob = NULL;
	if (!k)
		return;
	if (k->answer) {
		k->answer(t, self, answer);
		return;
	}
	if (!answer || !answer[0])
		return;
	if (mt_parse_u64(answer, k->lo, k->hi, &v) < 0) {
		/* TRANSLATORS: a knob's name, its range and the answer it refused */
		mt_snprintf(why, sizeof why, _("%s: %llu..%llu, not '%.40s'"), _(k->name),
			    (unsigned long long)k->lo, (unsigned long long)k->hi, answer);
		mt_snprintf(kept, sizeof kept, "%llu", (unsigned long long)field_get(self, k));
		tui_knob_refused(t, why, kept);
		return;
	}
	field_put(self, k, v);
	if (k->set)
		k->set(self);
	tui_dirty(t);
}

int knobs_ask(struct tui *t, void *self, const struct tab_knob *k)
{
	char cur[32], q[sizeof t->question];
	if (k->busy && tui_running(t, t->tabs[t->cur])) {
		tui_message(t, "%s", _(k->busy));
		return 1;
	}
	if (k->answer) {
		cur[0] = '\0';
		if (k->now)
			k->now(self, cur, sizeof cur);
		mt_strlcpy(q, _(k->question), sizeof q);
	} else {
		mt_snprintf(cur, sizeof cur, "%llu", (unsigned long long)field_get(self, k));
		/* TRANSLATORS: a knob's question and its range */
		mt_snprintf(q, sizeof q, _("%s (%llu..%llu): "), _(k->question), (unsigned long long)k->lo,
			    (unsigned long long)k->hi);
	}
	tui_prompt(t, self, q, cur, knob_answer);
	t->knob = k;
	return 1;
}
