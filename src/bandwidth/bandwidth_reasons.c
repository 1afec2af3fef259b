/* bandwidth_reasons: the cells of a table that read what a table should
 * not, each said with its likely reason instead of silence (bandwidth.h):
 * more threads reading slower than fewer, a speed-up past the thread count,
 * the last (DRAM) row reading faster than the row above it. */
#include "config.h"

#include "bandwidth_result.h"
#include "base/i18n.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The reason N threads read slower than fewer: what the result knows of
 * where they ran and of the machine. */
static const char *slower_why(const struct bandwidth_result *r, size_t t)
{
	const struct bandwidth_threads_info *ti = &r->threads[t];
	if (ti->over)
		return _("more threads than CPUs: they take turns on them");
	if (ti->over_quota)
		return _("more threads than the job's cpu quota: they take turns within each period");
	if (strstr(ti->placement, "SMT siblings"))
		return _("SMT siblings share one core's load ports and caches");
	if (r->hdr.has_vm && r->hdr.vm.vm == 1)
		return _("a VM: the host may run these vCPUs as hyperthreads of one core, or give "
			 "their time to other guests");
	return _("the threads contend for a shared level or the memory bus, or another task "
		 "took CPUs");
}

/* The reason N threads read more than N x one: where the working set sits. */
static const char *faster_why(const struct bandwidth_size *sz)
{
	if (sz->per_thread)
		return _("each thread has its own share: one thread alone did not reach its core's "
			 "limit (clock, prefetchers)");
	return _("each thread's share is smaller, and with it more of the working set sits in "
		 "the caches the threads bring with them");
}

/* The size row s in words: "DRAM 256M", "L2 512K". */
static void row_name(const struct bandwidth_size *sz, char *buf, size_t len)
{
	char a[32];
	mt_snprintf(buf, len, "%s%s%s", sz->level, sz->level[0] ? " " : "",
		    mt_fmt_size(a, sizeof a, sz->bytes));
}

/* Appends one sentence to lines (at most cap). */
static void say(char lines[][BANDWIDTH_NOTE_LEN], int cap, int *n, const char *fmt, ...)
	MT_PRINTF(4, 5);
static void say(char lines[][BANDWIDTH_NOTE_LEN], int cap, int *n, const char *fmt, ...)
{
	va_list ap;
	if (*n >= cap)
		return;
	va_start(ap, fmt);
	mt_vhsnprintf(lines[(*n)++], BANDWIDTH_NOTE_LEN, fmt, ap);
	va_end(ap);
}

int bandwidth_odd_cells(const struct bandwidth_result *r, int kernel, char lines[][BANDWIDTH_NOTE_LEN],
			int cap)
{
	int n = 0;
	char row[48], above[48];
	for (size_t s = 0; s < r->nsizes; s++) {
		const struct bandwidth_cell *c = r->cell[s][kernel];
		double best = 0;
		size_t at = 0;
		row_name(&r->sizes[s], row, sizeof row);
		for (size_t t = 0; t < r->nthreads; t++) {
			double x = (double)r->threads[t].threads / r->threads[0].threads;
			if (!c[t].have)
				continue;
			if (best > 0 && c[t].gbs < BANDWIDTH_ODD_SLOWER * best)
				/* TRANSLATORS: the row, the kernel, a thread count and its GB/s, a
				 * smaller count and its GB/s, the likely reason */
				say(lines, cap, &n, _("%s %s: %u threads %.1f GB/s, slower than %u "
						      "threads' %.1f: %s"), row, bandwidth_kernel_name(kernel),
				    r->threads[t].threads, c[t].gbs, r->threads[at].threads, best,
				    slower_why(r, t));
			else if (t > 0 && c[0].have && c[0].gbs > 0 &&
				 c[t].gbs > BANDWIDTH_ODD_FASTER * x * c[0].gbs)
				say(lines, cap, &n, _("%s %s: %u threads %.1f GB/s, %.2fx one "
						      "thread's %.1f, more than %.0fx: %s"), row, bandwidth_kernel_name(kernel),
				    r->threads[t].threads, c[t].gbs, c[t].gbs / c[0].gbs, c[0].gbs, x,
				    faster_why(&r->sizes[s]));
			if (c[t].gbs > best) {
				best = c[t].gbs;
				at = t;
			}
		}
	}
	/* the DRAM row faster than the one above it, at all threads (streaming
	 * stores are slower in the caches than past them: not those) */
	if (r->nsizes >= 2 && r->nthreads && strcmp(r->sizes[r->nsizes - 1].level, "DRAM") == 0 &&
	    kernel != BANDWIDTH_WRITE_NT && kernel != BANDWIDTH_COPY_NT && kernel != BANDWIDTH_TRIAD_NT) {
		size_t s = r->nsizes - 1, t = r->nthreads - 1;
		const struct bandwidth_cell *lo = &r->cell[s][kernel][t], *hi = &r->cell[s - 1][kernel][t];
		row_name(&r->sizes[s], row, sizeof row);
		row_name(&r->sizes[s - 1], above, sizeof above);
		if (lo->have && hi->have && !r->sizes[s].per_thread && lo->gbs > BANDWIDTH_ODD_FASTER * hi->gbs)
			say(lines, cap, &n, _("%s %s: %u threads %.1f GB/s, faster than the %s row's "
					      "%.1f: much of it is still read from a cache (a larger one "
					      "than the plan knew, or the rows' shares differ)"), row, bandwidth_kernel_name(kernel),
			    r->threads[t].threads, lo->gbs, above, hi->gbs);
	}
	return n;
}

const char *bandwidth_lost_said(unsigned lost, unsigned of, int runs, char *buf, size_t len)
{
	if (runs)
		mt_snprintf(buf, len, MT_NGETTEXT("%u of %u bandwidth run: even the best try lost its "
						  "CPU to another task (time slicing on a busy "
						  "host): those GB/s are low",
						  "%u of %u bandwidth runs: even the best try lost "
						  "its CPU to another task (time slicing on a busy "
						  "host): those GB/s are low", of),
			    lost, of);
	else
		mt_snprintf(buf, len, MT_NGETTEXT("%u of %u cell: even the best try lost its CPU to "
						  "another task (time slicing on a busy host): "
						  "those GB/s are low",
						  "%u of %u cells: even the best try lost its CPU "
						  "to another task (time slicing on a busy host): "
						  "those GB/s are low", of),
			    lost, of);
	return buf;
}
