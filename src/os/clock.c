/* clock: calibration of the tick counter and the core clock. */
#include "config.h"

#include "clock.h"
#include "barrier.h"
#include "base/util.h"

#include <pthread.h>
#include <string.h>

static pthread_once_t calib_once = PTHREAD_ONCE_INIT;
static struct mt_clock calib;
static unsigned calib_ms = 50;

/* 256 dependent register-register adds: one a cycle on every core memtop
 * targets. (Not adds of a constant: Golden Cove folds immediate adds at
 * rename and runs such a chain several a cycle; `one` is laundered, so the
 * compiler knows nothing of it and adds a register.) mt_launder after each
 * add keeps the chain in one register, dependent, and whole: the compiler
 * can neither fold the adds into a multiply nor drop them (gcc and clang
 * -O2 emit 256 `add reg, reg` a turn: see tests/cli_clock.sh). The loop
 * counter runs in parallel, so iterations * 256 is the cycle count.
 * Returns the elapsed nanoseconds. */
#define ADD1 x += one; mt_launder(x);
#define ADD8 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1 ADD1
#define ADD64 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8
static MT_KERNEL uint64_t add_chain(uint64_t iterations)
{
	uint64_t t0, x = 0, one = 1;
	mt_launder(one);
	t0 = mt_now_ns();
	for (uint64_t i = 0; i < iterations; i++) {
		ADD64 ADD64 ADD64 ADD64
	}
	mt_sink(x);
	return mt_now_ns() - t0;
}

/* The core clock from tries chains of iterations turns each: the fastest
 * (the one nobody interrupted), and the slowest into *worst (may be NULL).
 * A short warm-up chain first wakes the core up. */
static double chain_ghz(uint64_t iterations, int tries, double *worst)
{
	double best = 0, low = 0;
	add_chain(iterations / 8);
	for (int i = 0; i < tries; i++) {
		uint64_t ns = add_chain(iterations);
		double ghz = ns ? (double)(iterations * 256) / (double)ns : 0;
		if (ghz > best)
			best = ghz;
		if (low == 0 || ghz < low)
			low = ghz;
	}
	if (worst)
		*worst = low;
	return best;
}

double mt_clock_measure(void)
{
	return chain_ghz(2048, 9, NULL); /* 9 x 0.5M adds: ~1.1 ms at 4 GHz */
}

double mt_clock_measure_short(void)
{
	double best = 0;
	for (int i = 0; i < 2; i++) { /* 2 x 393K adds: ~0.2 ms at 4 GHz, no warm-up */
		uint64_t ns = add_chain(1536);
		double ghz = ns ? (double)(1536 * 256) / (double)ns : 0;
		if (ghz > best)
			best = ghz;
	}
	return best;
}

double mt_clock_drift(double calibrated, double measured)
{
	if (!(calibrated > 0) || !(measured > 0))
		return 0;
	return (measured - calibrated) / calibrated;
}

int mt_clock_disagrees(double calibrated, double measured)
{
	double d = mt_clock_drift(calibrated, measured);
	return d > MT_CLOCK_AGREE || d < -MT_CLOCK_AGREE;
}

static void calibrate(void)
{
	struct mt_clock c;
	uint64_t t0, k0, t1, k1;
	double worst = 0;
	memset(&c, 0, sizeof c);
	c.counter = MT_ARCH_COUNTER;
	/* Tick rate: ticks over a busy-waited stretch of monotonic time. */
	t0 = mt_now_ns();
	k0 = mt_ticks();
	do {
		t1 = mt_now_ns();
	} while (t1 - t0 < (uint64_t)calib_ms * 1000000ull);
	k1 = mt_ticks();
	c.ticks_per_ns = (double)(k1 - k0) / (double)(t1 - t0);
	if (c.ticks_per_ns <= 0)
		c.ticks_per_ns = 1;

	/* Core clock: best of several 1-2 ms chains (the fastest is the one
	 * nobody interrupted). */
	c.core_ghz = chain_ghz(8192, 9, &worst); /* 2M adds a chain: ~0.5 ms at 4 GHz */
	c.core_spread = c.core_ghz > 0 ? (c.core_ghz - worst) / c.core_ghz : 0;
	calib = c;
}

int mt_clock_calibrate(struct mt_clock *out, unsigned ms)
{
	if (ms)
		calib_ms = ms;
	pthread_once(&calib_once, calibrate);
	*out = calib;
	return 0;
}

double mt_ns_to_cycles(double ns)
{
	struct mt_clock c;
	mt_clock_calibrate(&c, 0);
	return ns * (c.core_ghz > 0 ? c.core_ghz : c.ticks_per_ns);
}
