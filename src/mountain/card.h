/* card: a machine's mountain as a summary card, for a machine whose surface
 * was never published as numbers: the book's Haswell (CS:APP 3e, Fig. 6.41)
 * exists only as a picture, so memtop shows its figures as a card,
 * never as an invented surface. The card is a file (data/ref/
 * csapp-haswell-card.json): "experiment": "card", the run header's fields
 * (hardware, source, clock), "cache_sizes" {l1d, l2, l3, line},
 * "l1_latency_cycles", "mbs" {peak, l1_plateau, ridge, floor} and
 * "stride8_cliffs" (what its stride-8 slice shows, as seed 000's table
 * says). */
#ifndef MEMTOP_CARD_H
#define MEMTOP_CARD_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "base/util.h"
#include "run/runhdr.h"

#define CARD_LINES 8
#define CARD_WIDTH 34 /* columns of card_lines(): beside a heatmap at 80 */

struct mountain_card {
	struct run_header hdr; /* hardware, clock (the book's 2.1 GHz) */
	char source[400];      /* where the figures come from */
	uint64_t l1d, l2, l3, line; /* bytes, 0 unknown */
	double l1_latency;     /* cycles of an L1 hit, 0 unknown */
	double peak, l1_plateau, ridge, floor; /* MB/s, 0 unknown */
	char stride8[32];      /* the cliffs the stride-8 slice shows ("L1, L2, L3"), "" unknown */
};

/* root is a card ("experiment": "card"). */
int card_is(const cJSON *root);

/* Read a card; file names it in errors ("FILE: field \"mbs\" is missing").
 * Every MB/s figure must be a positive number. Returns 0, or -1 with e. */
int card_from_json(const cJSON *root, const char *file, struct mountain_card *c, mt_error *e);

/* Load the bundled card data/ref/csapp-haswell-card.json (os/datadir.h).
 * Returns 0, or -1 with e (not installed, or broken). */
int card_load_bundled(struct mountain_card *c, mt_error *e);

/* The card as at most CARD_LINES lines of at most CARD_WIDTH columns
 * (ASCII): the title (two lines), clock and caches, line and peak, ridge,
 * floor with peak/floor, the cycles per word at the L1 plateau and the loads
 * in flight against the L1 latency (seed 000). Returns the number of lines
 * (<= max). */
int card_lines(const struct mountain_card *c, char lines[][CARD_WIDTH + 1], int max);

/* The summary card's result kind (card_kind.c; run/result_kind.h). */
struct result_kind;
extern const struct result_kind kind_card;

#endif
