/* bandwidth_threads: what the table's measuring threads (bandwidth.c) and
 * the loaded latency's (bandwidth_loaded.c) share, below both: a pinned
 * thread started on the run's clock, the spin that lets an oversubscribed
 * thread run, and the arrays' known values. */
#include "config.h"

#include "bandwidth_worker.h"
#include "base/i18n.h"
#include "bandwidth_int.h"
#include "os/arch.h"
#include "os/platform.h"
#include "os/threads.h"

#include <sched.h>
#include <string.h>

int bandwidth_thread_start(pthread_t *tid, int cpu, void *(*fn)(void *), void *arg,
		    struct mt_run_clock *clock, mt_error *e)
{
	int rc = mt_thread_start_clocked(tid, cpu, fn, arg, clock);
	if (rc != 0)
		return mt_fail(e, _("bandwidth: cannot start a thread: %s"), strerror(rc));
	return 0;
}

void bandwidth_relax(unsigned *spins)
{
	mt_arch_relax();
	if ((++*spins & 1023u) == 0)
		sched_yield(); /* oversubscribed: let the thread we wait for run */
}

void bandwidth_fill(double *a, double *b, double *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (a)
			a[i] = -1.0 - (double)(i % 1000);
		if (b)
			b[i] = (double)(i % 1024);
		if (c)
			c[i] = (double)((i / 8) % 512);
	}
}
