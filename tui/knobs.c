/* knobs: a tab's knobs (struct tab_knob, tab.h), the prompts that set a
 * field of the tab's instance: the key asks in the status line with the
 * field's value, the answer is checked against the row's bounds and
 * written. keys.c binds them and writes their help rows. */
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

/* The answer to the knob asked last (t->knob): a text knob's to its
 * answer(); a number in the knob's bounds into its field, else its bad
 * said; Esc (answer NULL) leaves the field as it was. */
static void knob_answer(struct tui *t, void *self, const char *answer)
{
	const struct tab_knob *k = t->knob;
	uint64_t v;
	t->knob = NULL;
	if (!k)
		return;
	if (k->answer) {
		k->answer(t, self, answer);
		return;
	}
	if (!answer)
		return;
	if (mt_parse_u64(answer, k->lo, k->hi, &v) < 0) {
		tui_message(t, "%s", k->bad);
		return;
	}
	field_put(self, k, v);
	if (k->set)
		k->set(self);
	tui_dirty(t);
}

int knobs_ask(struct tui *t, void *self, const struct tab_knob *k)
{
	char cur[32];
	if (k->busy && tui_running(t, t->tabs[t->cur])) {
		tui_message(t, "%s", k->busy);
		return 1;
	}
	if (k->answer)
		mt_strlcpy(cur, k->initial ? k->initial : "", sizeof cur);
	else
		mt_snprintf(cur, sizeof cur, "%llu", (unsigned long long)field_get(self, k));
	tui_prompt(t, self, k->question, cur, knob_answer);
	t->knob = k;
	return 1;
}
