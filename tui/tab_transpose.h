/* tab_transpose.h: what the Transpose tab's two files share (tui/ only):
 *   tab_transpose.c       the struct tab: the simulation, keys, real-machine
 *                         timing, the result io
 *   tab_transpose_draw.c  the area: the matrices, the counters, the algae table
 * tab_transpose.c calls the drawing; the drawing reads the state and calls
 * nothing back. */
#ifndef MEMTOP_TUI_TAB_TRANSPOSE_H
#define MEMTOP_TUI_TAB_TRANSPOSE_H

#include "algae/algae.h"
#include "transpose/transpose.h"
#include "tab.h"

#define TAB_MAX_SIDE 256 /* the tab draws matrices up to 256 x 256 */

/* One access of the simulation, as the tab records it. */
struct step {
	uint16_t row, col;
	uint8_t matrix, is_store, flags;
};

struct transpose_tab {
	struct transpose_result real; /* the real machine's timings and their conditions */
	struct transpose_result res;  /* what w saves: built by shown(), or an opened file */
	int from_file;                /* res is a file opened and not changed since */
	struct transpose_counts last;        /* the current simulation's counters */
	int s, E, b;
	int rows, cols;
	struct transpose_version v;
	int size_i, version_i;   /* preset cycled by z / v (-1: typed) */
	struct step *tape;       /* every access of the current run */
	size_t n, cap, pos;      /* accesses recorded; shown up to pos */
	int correct;
	char error[160];
	int sets;                /* S: draw each element's cache set */
	int algae;               /* a: the algae table instead of the matrices */
	struct algae_params ap;  /* its cache and struct width */
	uint64_t sweep[TRANSPOSE_SWEEP_N]; /* B: misses of CHK-4's blocks at this size */
	int have_sweep;
	/* real machine */
	struct transpose_plan plan;
};

/* tab_transpose_draw.c: the tab's draw (struct tab's draw). */
void ttab_draw(struct tui *t, void *self, WINDOW *w, int full);

#endif
