/* tab_mountain.h: what the Mountain tab's files share (tui/ only; other
 * tabs and the frame use tui/tab.h). The tab is split by what the parts do:
 *   tab_mountain.c       the struct tab: hooks, the result io, draw's entry, mouse
 *   tab_mountain_keys.c  the keys[] table and its actions (cursor, knobs, guess)
 *   tab_mountain_run.c   measuring, and the mountains shown (main, beside, ratio)
 *   tab_mountain_draw.c  the area: heatmap, legend, slices, passport, reading
 *   tab_mountain_card.c  the book's Haswell card beside the bundled reference
 * Calls go one way, down this list's dependencies: the top file calls keys,
 * run and draw; keys calls run; draw calls card; nothing calls back up. */
#ifndef MEMTOP_TUI_TAB_MOUNTAIN_H
#define MEMTOP_TUI_TAB_MOUNTAIN_H

#include "info/info.h"
#include "machine/machine.h"
#include "model.h"
#include "mountain/card.h"
#include "mountain/mountain.h"
#include "tab.h"

/* Knobs of the form: max stride, smallest size, largest size, the fastest
 * tries that must agree. */
#define NFIELDS 4

enum mode { MODE_NORMAL, MODE_GUESS, MODE_FORM };
enum overlay { OV_NONE, OV_SIDE, OV_RATIO };

struct mountain_tab {
	struct mountain_params params;
	struct mountain *m;     /* this machine's (or the first file) */
	struct mountain *ref;   /* the one beside it, or NULL */
	int ref_bundled;        /* ref is the bundled reference: the book's card beside it */
	struct mountain_card card; /* the book's Haswell figures (data/ref), when loaded */
	int have_card, card_opened; /* card_opened: memtop view was given the card file */
	struct mountain *ratio; /* m / ref on m's axes (OV_RATIO) */
	enum overlay ov;
	struct mountain_params run_params; /* the running job's (outlives it) */
	int single;            /* the run re-measures one cell */
	uint64_t run_t0;
	int preview;           /* the mountain is the first look memtop took on its own */
	size_t row, col;       /* the cursor */
	enum mode mode;
	int marker[3], sel;    /* guess mode: rows of L1, L2, L3 */
	char result[3][200];   /* guess comparison */
	int has_result;
	int field;             /* form: selected knob */
	enum tui_start pending_start; /* the first look or --start: begin at the first draw */
	int passport;          /* P: the passport instead of the slices */
	/* last geometry, for mouse clicks */
	struct hm_layout L;
	int hm_y, hm_x;
	int left_out;          /* files memtop view gave past the two shown */
	struct info file_info; /* the caches recorded in the file shown (c reads them) */
	struct machine_budget budget; /* the memory a run may take (at the start, then at each
				       * run's): the title says the grid r measures, capped */
};

/* ---- tab_mountain_run.c --------------------------------------------------- */

/* Rebuild the ratio map (m / ref on m's axes; none without both). */
void mtab_rebuild_ratio(struct mountain_tab *s);
/* m (may be NULL) becomes the mountain shown, in place of the one before
 * (freed): saved, the cursor on stride 8, the guess markers spread, the
 * Caches panel told. */
void mtab_set_main(struct tui *t, struct mountain_tab *s, struct mountain *m);
/* m (read from path) becomes the reference beside the shown mountain, in
 * place of the one before (freed), side by side, with the passport card
 * when it is the bundled reference. */
void mtab_set_ref(struct tui *t, struct mountain_tab *s, struct mountain *m, const char *path);
/* Measure grid into a new mountain, or with only_row >= 0 the cell
 * (only_row, only_col) of the mountain on screen again. Returns 0, or -1
 * with the reason in the status line. */
int mtab_start_run(struct tui *t, struct mountain_tab *s, const struct mountain_params *grid,
		   int only_row, int only_col);
/* The first screen's measurement (tui_autostart), at the first draw. */
void mtab_start_pending(struct tui *t, struct mountain_tab *s);
/* The tab's job_event: cells fill in; the last event ends the run. */
void mtab_job_event(struct tui *t, void *self, const struct job_event *ev);

/* ---- tab_mountain_keys.c -------------------------------------------------- */

/* The tab's keys, ending with a zero row. */
extern const struct keybinding mtab_keys[];

/* ---- tab_mountain_card.c -------------------------------------------------- */

/* The book's card beside the bundled reference (s->ref) from line y, in
 * width columns, down to line h. Returns the lines drawn. */
int mtab_draw_book_card(struct tui *t, struct mountain_tab *s, WINDOW *w, int y, int x,
			int width, int h);
/* The cycles a word for people, as cpw_fmt writes them ("0.40", "3.9",
 * "12"; "?" unknown) with the user's decimal separator. Returns buf. */
const char *mtab_cycles_text(char *buf, size_t len, double cycles);
/* The card file memtop view was given, alone. Returns the lines drawn. */
int mtab_draw_card_file(struct tui *t, struct mountain_tab *s, WINDOW *w, int y, int x,
			int width, int h);

/* ---- tab_mountain_draw.c -------------------------------------------------- */

/* Draw the whole area w. */
void mtab_draw_area(struct tui *t, struct mountain_tab *s, WINDOW *w);

#endif
