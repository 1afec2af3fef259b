/* clock: calibration of the tick counter and the core clock. */
#include "config.h"

#include "clock.h"
#include "barrier.h"
#include "util.h"

#include <pthread.h>
#include <string.h>

static pthread_once_t calib_once = PTHREAD_ONCE_INIT;
static struct mt_clock calib;
static unsigned calib_ms = 50;

/* 256 dependent register-register adds: one a cycle on every core memtop
 * targets. (Not `add $1, reg`: Golden Cove folds immediate adds at rename
 * and runs such a chain several a cycle.) The loop counter runs in
 * parallel, so iterations * 256 is the cycle count. Returns the elapsed
 * nanoseconds. */
static __attribute__((noinline)) uint64_t add_chain(uint64_t iterations)
{
	uint64_t t0 = mt_now_ns(), x = 0, one = 1;
	mt_launder(one);
	for (uint64_t i = 0; i < iterations; i++) {
#if defined(__x86_64__)
#define ADD8 "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t" \
	     "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
#define ADD64 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8
		__asm__ __volatile__(ADD64 ADD64 ADD64 ADD64 : "+r"(x) : "r"(one));
#elif defined(__aarch64__)
#define ADD8 "add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\t" \
	     "add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\t"
#define ADD64 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8 ADD8
		__asm__ __volatile__(ADD64 ADD64 ADD64 ADD64 : "+r"(x) : "r"(one));
#else
		x = x * 3 + 1;
		mt_launder(x);
#endif
	}
	mt_sink(x);
	return mt_now_ns() - t0;
}

static void calibrate(void)
{
	struct mt_clock c;
	uint64_t t0, k0, t1, k1;
	double best = 0, worst = 0;
	memset(&c, 0, sizeof c);
#if defined(__x86_64__) || defined(__i386__)
	c.counter = "tsc";
#elif defined(__aarch64__)
	c.counter = "cntvct";
#else
	c.counter = "monotonic";
#endif
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

#if defined(__x86_64__) || defined(__aarch64__)
	/* Core clock: best of several 1-2 ms chains (the fastest is the one
	 * nobody interrupted). */
	{
		const uint64_t iters = 8192; /* 2M adds: ~0.7 ms at 3 GHz */
		add_chain(iters / 8);        /* wake the core up */
		for (int i = 0; i < 9; i++) {
			uint64_t ns = add_chain(iters);
			double ghz = (double)(iters * 256) / (double)ns;
			if (ghz > best)
				best = ghz;
			if (worst == 0 || ghz < worst)
				worst = ghz;
		}
		c.core_ghz = best;
		c.core_spread = best > 0 ? (best - worst) / best : 0;
	}
#endif
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
