/* model_topo: the Topology tab's picture, computed without curses so the
 * unit tests check it (tests/test_tui_model.c): the machine as nested boxes
 * as lstopo draws it (packages, dies, NUMA nodes with their memory and
 * tier, L3 groups, L2 groups shared by several cores, cores with their
 * CPUs; memory-only nodes beside the CPUs nearest them), a box whose CPUs
 * are its parent's merged into its parent, alike siblings past a few
 * folded into one box ("x 62 more cores"), laid out to fit a terminal's
 * area; on each box what memtop measured there (tv_figures); the cursor's
 * box in words (tv_details). tab_topology.c draws it. */
#ifndef MEMTOP_TUI_MODEL_TOPO_H
#define MEMTOP_TUI_MODEL_TOPO_H

#include <stddef.h>
#include <stdint.h>

#include "base/util.h"
#include "os/topo.h"

/* The parts of a machine a box may be (several at once when their CPUs are
 * the same: "Package 0, NUMA node 0"). */
enum tv_part { TV_MACHINE, TV_PACKAGE, TV_DIE, TV_NODE, TV_L3, TV_L2, TV_CORE, TV_NPART };

/* What a box is: a part of the machine (its parts), a memory-only NUMA
 * node, or alike siblings folded into one. */
enum tv_kind { TV_BOX, TV_MEMORY, TV_MORE };

#define TV_FIGS 4    /* figure lines a box holds */
#define TV_LINES 6   /* lines drawn inside a box, at most */
#define TV_LINE 384  /* bytes of a line (Cyrillic takes two a letter) */
#define TV_SHORTER 1 /* a title or line said in its first whole clauses */
#define TV_CUT 2     /* a title or line cut between words: the ellipsis follows */

struct tv_box {
	enum tv_kind kind;
	unsigned parts;          /* bit p: it is part p (TV_BOX) */
	int index[TV_NPART];     /* each part's index (a node: into t->nodes; -1 none) */
	int parent, first, next; /* the tree (-1: none); a TV_MORE box is in none */
	int depth;               /* the machine's 0 */
	int cpu0, ncpus;         /* its CPUs: v->cpus[cpu0 .. cpu0 + ncpus), OS numbers */
	unsigned shape;          /* what is inside, as a hash: alike siblings share it */
	int more;                /* TV_MORE: the siblings it stands for */
	int more_of;             /* TV_MORE: the box whose children they are */
	int hidden0;             /* TV_MORE: the first of them */
	/* what memtop measured on it (tv_figures): a line each, doubted ones
	 * with '?' and why */
	char fig[TV_FIGS][TV_LINE];
	int nfig, doubt;
	char why[320];
	int figs_in;             /* figures on it or on a box inside it */
	/* the user's choice: -1 as the layout likes, 0 folded, 1 open; all:
	 * every child drawn (a TV_MORE box of it opened) */
	int want_open, all;
	/* the layout (tv_layout): drawn when w > 0 */
	int open;                    /* drawn with what is inside */
	int flat;                    /* drawn as one line "title: what is inside", no frame
				      * (a folded box among folded siblings) */
	int x, y, w, h;
	char title[TV_LINE];         /* in the top border, in whole words */
	int title_cut;               /* 0 whole; TV_SHORTER its first whole clauses; TV_CUT
				      * words left out: the ellipsis follows */
	char line[TV_LINES][TV_LINE]; /* inside, under the title */
	int cut[TV_LINES];           /* as title_cut */
	int lines;
	/* the visible tree of the layout: the first child drawn, the next */
	int vfirst, vnext;
};

struct topo_view {
	const struct topo *t;
	int *cpus;          /* the CPUs in box order: a box's are consecutive */
	int *at;            /* where t->cpus[i] is in cpus */
	struct tv_box *box; /* the machine's boxes, then the layout's TV_MORE boxes */
	int nbox, nbase, cap;
	int cur;            /* the cursor's box */
	int depth_max;      /* the deepest box */
	/* the layout's choice: boxes open down to this depth, this many alike
	 * siblings drawn before the rest are folded */
	int depth, alike, flat;
	int width, height;  /* the picture's, once laid out */
	int ascii;          /* box lines in ASCII (+ - |), not UTF-8 */
};

/* The boxes of topology t (kept by pointer: it must outlive v). Returns 0,
 * or -1 with e (memory). */
int tv_build(struct topo_view *v, const struct topo *t, mt_error *e);
void tv_free(struct topo_view *v);

/* What memtop measured, for tv_figures: a cache level on a CPU (a latency
 * run's level, its size and ns a load; a mountain's cliff, ns NAN); level
 * 0 is memory (the curve's last plateau); from says which run ("latency",
 * "mountain"). */
struct tv_cache_fig {
	int cpu, level;
	uint64_t size;
	double ns;
	int doubt;
	const char *from;
	const char *why; /* when doubted */
};
/* The one-way ns between two CPUs (a core-to-core pair). */
struct tv_pair_fig {
	int a, b;
	double ns;
	int doubt;
};
/* A node pair of a numa run: idle latency and read GB/s (NAN: not
 * measured), CPU node and memory node by number. */
struct tv_node_fig {
	int cpu_node, mem_node;
	double ns, gbs;
	int doubt;
	const char *why;
};
struct tv_figures {
	const struct tv_cache_fig *cache;
	size_t ncache;
	const struct tv_pair_fig *pairs;
	size_t npairs;
	const struct tv_node_fig *nodes;
	size_t nnodes;
};

/* Puts f on the boxes it was measured on (replacing what they had): a
 * cache level on the core (L1, L2), the L2 group, the L3 group of its CPU,
 * memory on its node; each pair on the innermost box holding both CPUs,
 * the box's median over its pairs ("c2c 42 ns, 16 pairs": the core-to-core
 * median of that relation); a node's local and remote latency and
 * bandwidth on its box, a memory-only node's as reached from the CPU nodes.
 * A doubted figure is marked '?' and its box says why. */
void tv_figures(struct topo_view *v, const struct tv_figures *f);

/* Lays v out in width x height cells: of the ways that fit (boxes open to
 * a depth, so many alike siblings drawn before the rest fold into one box,
 * folded boxes among folded siblings drawn as a line each), the one that
 * shows most of the outer parts, then of the inner ones; the user's
 * choices (want_open) kept; the cursor's box, the boxes around it and those
 * holding figures never folded into a TV_MORE box; titles and lines fitted
 * in whole words. When nothing fits (the user opened more than the height
 * holds, or the area is small), the lowest picture, taller than height: it
 * is drawn scrolled (tv_scroll). Returns 0, or -1 when not even the
 * machine's box fits the width (then nothing is drawn). */
int tv_layout(struct topo_view *v, int width, int height);

/* The first row of v's picture drawn in height rows: 0 when it fits,
 * else one that shows the cursor's box (its middle, or its top when it is
 * taller). */
int tv_scroll(const struct topo_view *v, int height);

/* The picture as text lines (what tab_topology.c draws, in ASCII: + - |
 * for the box lines, the cursor's box's corners '*', '~' where words were
 * left out), each ending in '\n'. Returns 0, or -1 when out is too small. */
int tv_render(const struct topo_view *v, char *out, size_t len);

/* The cursor moved: dir -1 the box before it in reading order, +1 the one
 * after, -2 the box around it, +2 the first box inside it (opening it).
 * Among the drawn boxes; returns 1 when it moved. */
int tv_move(struct topo_view *v, int dir);

/* Enter on the cursor's box: open it or fold it; a TV_MORE box shows the
 * siblings it stood for. Returns 1 when something changed. */
int tv_toggle(struct topo_view *v);

/* A figure's line in tv_details (the tab draws those lines as measured). */
#define TV_MEASURED _("measured: %s")

/* The cursor's box in words, a line each into lines (at most max):
 * what it is, its CPUs, its memory, cache sizes, the figures measured on
 * it with why a doubted one is doubted. Returns the count. */
int tv_details(const struct topo_view *v, char lines[][TV_LINE], int max);

/* The box's CPUs this process may use (at most cap), ascending; what the
 * Topology tab's keys measure on. Returns the count. */
int tv_box_cpus(const struct topo_view *v, int b, int *cpus, int cap);

/* The NUMA node (its number) of box b or of the box around it, -1 none. */
int tv_box_node(const struct topo_view *v, int b);

/* Box b's title as it says it whole ("Package 0, NUMA node 0, 63 GB"; a
 * flat box's "title: what is inside"; its drawn title is this, or its start
 * in whole words). Returns buf. */
const char *tv_box_words(const struct topo_view *v, int b, char *buf, size_t len);

/* A cache's size as caches are sold: "32 MB", "1280 KB" ("size not
 * known" for 0). Returns buf. */
const char *tv_cache_size(uint64_t bytes, char *buf, size_t len);

/* The box's name in words ("L3 group 1", "NUMA node 0", "core 5"). */
const char *tv_box_name(const struct topo_view *v, int b, char *buf, size_t len);

#endif
