/* tab_topology: what tab_topology.c (the machines shown, the figures put
 * on them, the keys) and tab_topology_draw.c (the boxes, the details, the
 * conditions) share. */
#ifndef MEMTOP_TUI_TAB_TOPOLOGY_H
#define MEMTOP_TUI_TAB_TOPOLOGY_H

#include "numa/numa.h"
#include "os/conditions.h"
#include "model_topo.h"
#include "tab.h"

#define TOPO_TAB_MACHINES 16 /* topology files opened in the tab, at most */
#define TOPO_TAB_CACHE 32    /* cache levels put on the boxes, at most */
#define TOPO_TAB_WHY 8       /* the reasons doubted figures carry */

/* What the tab derives from the frame at each draw (the machine shown,
 * its boxes, the figures on them): kept off the instance, which a draw
 * leaves as it was (tests/test_tui_tabs.c), in one block of its own. */
struct topology_shown {
	/* the machine shown: its topology's handle, its topology (this
	 * machine's, or own: read from the handle's tree), where it comes
	 * from in words, its conditions, why none is shown */
	int shown;
	const struct topo *t;
	struct topo *own;
	char from[300];
	struct mt_conditions cond;
	char why[300];
	struct topo_view v; /* its boxes (and the cursor: v.cur) */
	/* the figures of the runs on it: what tv_figures reads, the reasons
	 * they point at, the runs in words */
	struct tv_cache_fig cache[TOPO_TAB_CACHE];
	size_t ncache;
	struct tv_pair_fig *pairs;
	size_t npairs, pairs_cap;
	struct tv_node_fig nodes[NUMA_MAX_NODES * NUMA_MAX_NODES];
	size_t nnodes;
	char why_text[TOPO_TAB_WHY][320];
	int nwhy;
	char runs[320];
};

struct topology_tab {
	/* the topology files opened here: their topology's handle
	 * (run/runhdr.h), conditions and path */
	int opened[TOPO_TAB_MACHINES];
	struct mt_conditions opened_cond[TOPO_TAB_MACHINES];
	char opened_from[TOPO_TAB_MACHINES][256];
	int nopened;
	int pick;       /* m: which of the machines there are is shown */
	int conditions; /* c: the conditions in place of the boxes */
	int cur;        /* the cursor's box, as the keys left it */
	struct topology_shown *sh; /* made by init */
};

/* tab_topology.c: the machine to show now (its handle, its topology and
 * boxes: s->t is NULL when there is none, s->why says why), and the
 * figures of the runs on it put on its boxes. */
void topology_update(struct tui *t, struct topology_tab *s);

/* tab_topology_draw.c: the tab's area. */
void topology_draw(struct tui *t, struct topology_tab *s, WINDOW *w);

#endif
