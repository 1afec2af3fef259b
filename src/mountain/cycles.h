/* cycles: cycles per 8-byte word read off a mountain (seed 000, "cycles per
 * word"; CS:APP exercise 6.21). Reading B MB/s on a core clocked at F GHz
 * costs F * 1000 / B * 8 core cycles a word: the book's Haswell reads about
 * 12000 MB/s in L1 at 2.1 GHz, 1.4 cycles a word, so against its 4-cycle L1
 * latency about three loads are in flight; the seed's M4 Max reads 89500
 * MB/s at most 4.5 GHz (Apple publishes no clock), 0.40 cycles a word, and
 * its floor, 9304 MB/s, 3.9 cycles a word, under a nanosecond a line.
 *
 * The lesson reads it at three places, all here: a cell (the cursor's), the
 * L1 plateau (the best stride-1 rate at the sizes below the L1 cliff, the
 * smallest row left out: it is overhead-bound) and the floor (the slowest
 * cell, the smallest row left out too). The clock is the one memtop
 * calibrated with the run, the one a saved file carries (its core clock, or
 * for an imported table the TSC rate its program stated: not a core clock,
 * and said so), or a file's upper bound with its reason; else unknown, and
 * no cycles are printed. */
#ifndef MEMTOP_CYCLES_H
#define MEMTOP_CYCLES_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

#include "cliffs.h"
#include "mountain.h"
#include "run/runhdr.h"

/* Where the core clock of a reading comes from. */
enum cpw_how {
	CPW_UNKNOWN,  /* no clock: cycles cannot be said */
	CPW_MEASURED, /* calibrated by memtop with the run, on this machine */
	CPW_FILE,     /* the core clock a saved file carries */
	CPW_BOUND,    /* only an upper bound (cycles are then at most ...) */
};

struct cpw_clock {
	enum cpw_how how;
	double ghz;     /* 0 when unknown */
	char why[200];  /* the file's note ("unknown: Apple does not publish it ..."), or "" */
	int tsc;        /* CPW_FILE: the rate of the time-stamp counter the file's program
			 * stated (CS:APP's), not a core clock */
};

/* The clock of a run with header h; measured_here: the run was measured
 * by this memtop (else it came from a file). Never fails. */
void cpw_clock_of(const struct run_header *h, int measured_here, struct cpw_clock *c);

/* Core cycles a word (8 bytes) at mbs MB/s and ghz GHz; NAN when either is
 * not positive and finite. */
double cpw_cycles(double ghz, double mbs);

/* Nanoseconds a word at mbs MB/s (8000 / mbs); NAN when mbs is not positive. */
double cpw_ns_per_word(double mbs);

/* The two places on a mountain the lesson reads. */
struct cpw_points {
	int have_l1;          /* an L1 cliff and a measured stride-1 cell below it */
	double l1_mbs;        /* the best stride-1 rate below the L1 cliff */
	size_t l1_row;        /* its row; the rows read: l1_first..l1_last */
	size_t l1_first, l1_last;
	int have_floor;
	double floor_mbs;     /* the slowest measured cell (the smallest row left out) */
	size_t floor_row, floor_col;
};

/* Find them on m with the detection d (cliffs_detect; d NULL or without a
 * level: no L1 plateau). Needs a stride of 1 word for the plateau. Never
 * fails: what it cannot find it leaves have_* = 0. */
void cpw_points_find(const struct mountain *m, const struct detection *d, struct cpw_points *p);

/* "0.40", "1.4", "19": the precision the seed prints (two digits). buf. */
const char *cpw_fmt(char *buf, size_t len, double cycles);

/* One phrase for mbs under clock c: "1.4 cycles a word at 2.10 GHz",
 * "at most 0.40 cycles a word (4.5 GHz bound)", "cycles a word unknown
 * (no core clock)". Returns buf. */
const char *cpw_phrase(char *buf, size_t len, double mbs, const struct cpw_clock *c);

/* Where the clock came from, in words: "core 3.40 GHz, calibrated with the
 * run", "core 2.10 GHz, from the file", "core clock unknown: NOTE; NOTE's
 * bound 4.5 GHz", "core clock unknown: the file carries none". Returns buf. */
const char *cpw_clock_words(char *buf, size_t len, const struct cpw_clock *c);

/* Loads in flight: an L1 hit's latency in cycles over the cycles a word at
 * the L1 plateau; NAN when either is unknown. */
double cpw_in_flight(double l1_latency_cycles, double l1_cycles_per_word);

/* The reading as `memtop cliffs` prints it, a few lines on f: the clock and
 * where it comes from, the L1 plateau and the floor in cycles a word, and
 * the loads in flight when l1_latency_cycles (an L1 hit from a latency run
 * of the same machine) is > 0. m measured_here: its clock was calibrated
 * with the run (else it comes from the file). */
void cpw_report(FILE *f, const struct mountain *m, int measured_here, const struct detection *d,
		double l1_latency_cycles);

/* The same as a JSON object: core_ghz (null when unknown), clock
 * ("measured", "file", "bound", "unknown"), note, and for the L1 plateau and
 * the floor their MB/s, size, stride and cycles a word (null when
 * unknown). NULL when out of memory. */
cJSON *cpw_to_json(const struct mountain *m, int measured_here, const struct detection *d);

#endif
