/* The latency run's time: priced before it starts (latency_price.c, from
 * latency_probe's loads and a model), then what is left priced from what
 * the run has measured so far: each chase's points cost real/priced times
 * their planned price; and the figure the run has said it will take,
 * revised when the run departs from it. */
#ifndef MEMTOP_LATENCY_ETA_H
#define MEMTOP_LATENCY_ETA_H

#include <stddef.h>
#include <stdint.h>

#include "latency.h"

#define LATENCY_ETA_WINDOW 8     /* a column's latest points that price its next */
#define LATENCY_ETA_REVISE 0.15  /* a projection this far off the figure said is said */
#define LATENCY_ETA_SETTLED 0.2  /* ... once this share of the projected run is done */
#define LATENCY_ETA_GAP 0.15     /* ... and this share of the figure said has passed */

#define LATENCY_ETA_COLS (LATENCY_MAX_STRIDES + 2) /* the fixed strides, random, other pages */

/* Per column (each fixed stride, the random chase, then the random chase on
 * the other page size): the ns its latest
 * LATENCY_ETA_WINDOW points were priced at before they ran and what they took
 * (linking, warm-up and every try, retries included), a ring; over the
 * whole run, the sums. Then the figure said for the whole run. */
struct latency_eta {
	double priced[LATENCY_ETA_COLS][LATENCY_ETA_WINDOW], real[LATENCY_ETA_COLS][LATENCY_ETA_WINDOW];
	unsigned seen[LATENCY_ETA_COLS];
	double priced_col[LATENCY_ETA_COLS], real_col[LATENCY_ETA_COLS]; /* each column's sums */
	double priced_all, real_all;
	double fixed_s;     /* s of the run before its first point (its pages), known:
			     * left out of the share LATENCY_ETA_SETTLED weighs */
	double said_s;      /* the announced figure, then each revision */
	double said_at_s;   /* s into the run it was said (0: announced) */
	unsigned revisions;
};

/* Start with nothing measured and said_s (s, the figure announced before
 * the run; 0: none) said. */
void latency_eta_init(struct latency_eta *t, double said_s);

/* A point of column col (< LATENCY_ETA_COLS; others ignored) finished:
 * priced_ns planned, real_ns taken (both > 0, else ignored). */
void latency_eta_add(struct latency_eta *t, size_t col, double priced_ns, double real_ns);

/* ns a point of column col priced at priced_ns is expected to take: its
 * price times the column's real / priced over its latest LATENCY_ETA_WINDOW
 * points (cost-weighted: the largest count most; the latest only, so the
 * small sizes' overheads do not price the large ones and a load that came
 * or went shows within a few points), the whole run's ratio while the
 * column has none, the price itself while nothing is measured. */
double latency_eta_point_ns(const struct latency_eta *t, size_t col, double priced_ns);

/* ns a point of column col priced at priced_ns is expected to take by all
 * of the column's points so far (cost-weighted: the largest count most),
 * the run's ratio while it has none, the price while nothing is measured. */
double latency_eta_point_ns_all(const struct latency_eta *t, size_t col, double priced_ns);

/* The run, elapsed_s in, expects left_s more by the columns' latest points
 * (latency_eta_point_ns) and left_all_s more by all of them
 * (latency_eta_point_ns_all). The projection is the one of the two closest to
 * the figure said last, none when they lie on either side of it (a step
 * the latest points show and the run's whole does not, or the other way:
 * the recorded runs overshot by 16-29 % when the latest points alone
 * revised). When that total departs from the figure said by more than
 * LATENCY_ETA_REVISE of it, the points done (elapsed_s less fixed_s) are at
 * least LATENCY_ETA_SETTLED of the points' total (the first points price
 * little) and LATENCY_ETA_GAP of the figure said has passed since it was said
 * (no flurry of figures while a load comes and goes), the total becomes
 * the figure said (revisions counted) and is returned; else 0. Nothing is
 * revised when no figure was said, nor when the two round up to the same
 * whole second (the figure is said in whole seconds: it would say nothing
 * new). */
double latency_eta_revise(struct latency_eta *t, double elapsed_s, double left_s, double left_all_s);

/* ---- the price before the run (latency_price.c) and what it shares with
 * the worker (latency.c) ------------------------------------------------ */

#define LATENCY_PROBE_FAR (64u << 20) /* latency_probe's far buffer */
#define LATENCY_FIRST_GUESS_NS 2.0    /* a load's ns the worker plans its first point from */

/* Planned loads of a point: warm-up and timed. */
void latency_plan_point(const struct latency_params *p, uint64_t lines, double est_ns,
			uint64_t *warm, uint64_t *timed);

/* Slots of a chase at stride over size bytes (one when the stride is
 * longer: the slot points to itself). */
uint64_t latency_chase_slots(uint64_t size, unsigned stride);

/* ns the point of size i at stride is expected to take: its loads at the
 * model's ns, and linking its chase: every slot, or where the chases grow
 * the slots new since the size before. */
double latency_point_cost_ns(const struct latency_params *p, size_t i, unsigned stride, int random);

/* ns a load along the chase at buf: the best of three stretches of n / 3
 * loads, after n / 4 not timed (a stretch another task's time slice fell
 * into would price the whole run as slow as that slice). */
double latency_probe_walk(void *buf, uint64_t n);

/* The model's ns a load at size (random, else at stride), and its ns to
 * link a slot of that chase (what latency_point_cost_ns sums; memtop run
 * numa prices its one point with them). */
double latency_model_ns(const struct latency_params *p, uint64_t size, int random,
			unsigned stride);
double latency_link_ns(const struct latency_params *p, uint64_t size, unsigned stride, int random);

/* ns the points from size i on are expected to take, priced by the model. */
double latency_points_cost_ns(const struct latency_params *p, size_t from);

#endif
