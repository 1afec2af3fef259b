/* Unit tests of the tabs' instances (tui/tab.h): every tab keeps its state
 * in the instance the frame allocates (struct tab's state_size) and its
 * callbacks receive it, so two frames' instances of one tab share nothing.
 * Each tab is set up twice in memtop view (nothing measures), every key of
 * its keys[] table is pressed in the first frame only (a prompt answered),
 * and the second instance must be byte for byte as it was, and draw the
 * same screen as before, while the first one changed. Drawing goes to a
 * curses screen on /dev/null (TERM vt100, 80x24), so state a tab kept
 * outside its instance (a file-level S) would show in the second's screen. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cores/cores.h"
#include "os/clock.h"
#include "tui/internal.h"

#define X(n) &tab_##n,
static const struct tab *const all_tabs[] = { TUI_TABS };
#undef X

/* A frame that shows tab alone with the instance self, in memtop view. */
static void frame_of(struct tui *t, const struct tab *tab, void *self)
{
	memset(t, 0, sizeof *t);
	t->view = 1;
	t->tabs[0] = tab;
	t->ntabs = 1;
	t->slot[0].tab = tab;
	t->slot[0].self = self;
	t->sigpipe[0] = t->sigpipe[1] = -1; /* no loop to wake */
}

/* Press every key of tab's table in t, one after another (the keys that
 * act on the machine or the disk, the next core type and the save prompt,
 * left out; a prompt a key asks is answered with answer); after each, the
 * instance other (of size n) must still equal other0. Returns how many
 * keys changed t's instance. */
static int press_every_key(struct tui *t, const struct tab *tab, const char *answer,
			   const void *other, const void *other0, size_t n)
{
	void *self = tui_tab_self(t, tab), *before = malloc(n);
	int changed = 0;
	assert_non_null(before);
	for (const struct keybinding *k = tab->keys; k && (k->action || k->knob); k++) {
		if (k->action == tui_act_coretype || k->action == tui_result_key)
			continue;
		memcpy(before, self, n);
		if (k->knob) /* a knob's row: the knob asks */
			knobs_ask(t, self, k->knob);
		else
			k->action(t, self, k->key);
		if (t->prompting) {
			t->prompting = 0;
			t->prompt_done(t, t->prompt_self, answer);
		}
		changed += memcmp(before, self, n) != 0;
		assert_memory_equal(other, other0, n);
	}
	free(before);
	return changed;
}

/* The Cores tab's keys move a cursor over pairs, and in memtop view there
 * are none until a result is opened: open one of CPUs 0 and 1 (no pair
 * measured) into t's instance, as memtop view does. */
static void open_cores(struct tui *t)
{
	int cpus[2] = { 0, 1 };
	struct cores_place pc[2];
	struct cores_params p;
	struct cores_plan pl;
	struct result_file f = { &kind_cores, NULL, "two-cpus.json" };
	mt_error e;
	memset(&pl, 0, sizeof pl);
	cores_params_default(&p, 1);
	cores_places(NULL, cpus, 2, pc);
	assert_int_equal(cores_plan_make(&pl, &p, pc, 2, 0, NULL, NULL, &e), 0);
	assert_non_null(f.r = calloc(1, sizeof(struct cores_result)));
	assert_int_equal(cores_result_init(f.r, &pl, &e), 0);
	assert_int_equal(tab_cores.result->take(t, tui_tab_self(t, &tab_cores), &f, &e), 0);
	assert_null(f.r); /* the tab's now */
	cores_plan_free(&pl);
}

#define SCREEN_LINES 22 /* the tab area of an 80x24 terminal */
#define SCREEN_COLS 80

/* The text tab draws for self in w (every line, blanks included). */
static void screen_of(struct tui *t, const struct tab *tab, void *self, WINDOW *w, char *out)
{
	werase(w);
	tab->draw(t, self, w, 1);
	for (int y = 0; y < SCREEN_LINES; y++)
		mvwinnstr(w, y, 0, out + y * (SCREEN_COLS + 1), SCREEN_COLS);
}

static void instances_share_nothing(void **state)
{
	WINDOW *w = newwin(SCREEN_LINES, SCREEN_COLS, 1, 0);
	static char before[SCREEN_LINES * (SCREEN_COLS + 1)], after[sizeof before];
	(void)state;
	assert_non_null(w);
	for (size_t i = 0; i < sizeof all_tabs / sizeof all_tabs[0]; i++) {
		const struct tab *tab = all_tabs[i];
		struct tui *ta = calloc(1, sizeof *ta), *tb = calloc(1, sizeof *tb);
		void *a = calloc(1, tab->state_size), *b = calloc(1, tab->state_size);
		void *b0 = malloc(tab->state_size);
		int changed;
		assert_true(tab->state_size > 0); /* every tab has an instance */
		assert_true(ta && tb && a && b && b0);
		frame_of(ta, tab, a);
		frame_of(tb, tab, b);
		look_init(ta);
		look_init(tb);
		assert_ptr_equal(tui_tab_self(ta, tab), a);
		assert_ptr_equal(tui_tab_self(tb, tab), b);
		if (tab->init) {
			assert_int_equal(tab->init(ta, a), 0);
			assert_int_equal(tab->init(tb, b), 0);
		}
		if (tab == &tab_cores)
			open_cores(ta);
		memcpy(b0, b, tab->state_size);
		memset(before, 0, sizeof before);
		memset(after, 0, sizeof after);
		screen_of(tb, tab, b, w, before);
		changed = press_every_key(ta, tab, "2048", b, b0, tab->state_size);
		loading_finish(ta, stderr, mt_now_ns()); /* an open's answer is read off the thread */
		filework_end(ta);
		screen_of(tb, tab, b, w, after);
		assert_memory_equal(before, after, sizeof before);
		print_message("# %s: %d of its keys changed the first instance, none the second\n",
			      tab->name, changed);
		assert_true(changed > 0);
		if (tab->fini) {
			tab->fini(ta, a);
			tab->fini(tb, b);
		}
		free(a);
		free(b);
		free(b0);
		free(ta);
		free(tb);
	}
	delwin(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(instances_share_nothing),
	};
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr;
	int rc;
	if (!out || !in || !(scr = newterm("vt100", out, in))) {
		fprintf(stderr, "test_tui_tabs: no curses screen on /dev/null (vt100)\n");
		return 1;
	}
	resizeterm(SCREEN_LINES + 2, SCREEN_COLS);
	rc = cmocka_run_group_tests_name("tui_tabs", tests, NULL, NULL);
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	return rc;
}
