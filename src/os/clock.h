/* clock: the monotonic nanosecond clock, a cycle counter calibrated against
 * it, and an estimate of the core clock from a chain of dependent adds.
 *
 * The tick counter (x86 TSC, aarch64 CNTVCT) is not the core clock: on the
 * build VMs the TSC runs at 2.445 GHz while the core runs near 2.95 GHz.
 * Cycles that memtop prints are core cycles (ns * core_ghz). */
#ifndef MEMTOP_CLOCK_H
#define MEMTOP_CLOCK_H

#include "arch.h"

#include <stdint.h>
#include <time.h>

/* Monotonic time in nanoseconds (CLOCK_MONOTONIC; vDSO, ~20 ns a read). */
static inline uint64_t mt_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Raw tick counter: TSC on x86-64, CNTVCT_EL0 on aarch64, else the
 * monotonic clock (arch.h's, named MT_ARCH_COUNTER). */
static inline uint64_t mt_ticks(void)
{
	return mt_arch_ticks();
}

struct mt_clock {
	const char *counter;  /* "tsc", "cntvct" or "monotonic" */
	double ticks_per_ns;  /* tick rate of mt_ticks() (GHz) */
	double core_ghz;      /* core clock from dependent adds (0 if unknown) */
	double core_spread;   /* relative spread of the core estimate's tries */
};

/* Calibrate: the tick rate against the monotonic clock over about ms
 * milliseconds, and the core clock from timed chains of dependent adds.
 * Returns 0; on a platform without a counter it still fills the struct with
 * the monotonic clock (ticks_per_ns = 1). Results are cached after the first
 * call (thread-safe); later calls return the cached values. */
int mt_clock_calibrate(struct mt_clock *out, unsigned ms);

/* The core clock now, on the calling thread's CPU, in GHz: the fastest of
 * nine chains of half a million dependent register adds (one a cycle), as
 * sbc-bench's mhz measures it; about 1 ms. Not cached: a worker calls it
 * during its run to see the clock the kernels ran at (turbo moving,
 * throttling, a host stealing cycles). Never fails; 0 only if the
 * monotonic clock did not move. */
double mt_clock_measure(void);

/* The core clock now, on the calling thread's CPU, in GHz, from a short
 * look: the faster of two chains of 393K dependent adds, about 0.2 ms in
 * all and no warm-up chain: the clock right before or right after one
 * timed try, the core still at the speed the try ran it (a chain of
 * 0.2 ms sees the 3.4-4.0 GHz steps this guest's clock takes from one
 * millisecond to the next). Not cached. Never fails; 0 only if the
 * monotonic clock did not move. */
double mt_clock_measure_short(void);

/* Two core clocks agree when they are within this share of each other. */
#define MT_CLOCK_AGREE 0.05

/* (measured - calibrated) / calibrated; 0 when either is unknown (<= 0). */
double mt_clock_drift(double calibrated, double measured);

/* 1 when both clocks are known and measured is more than MT_CLOCK_AGREE
 * above or below calibrated, else 0. */
int mt_clock_disagrees(double calibrated, double measured);

/* Core cycles for ns nanoseconds with the calibrated core clock (or the tick
 * rate when the core estimate is missing). Calibrates on first use. */
double mt_ns_to_cycles(double ns);

#endif
