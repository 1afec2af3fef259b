#include "config.h"

#include "base/i18n.h"
#include "latency_eta.h"

#include <math.h>
#include <string.h>

void latency_eta_init(struct latency_eta *t, double said_s)
{
	memset(t, 0, sizeof *t);
	t->said_s = said_s > 0 ? said_s : 0;
}

void latency_eta_add(struct latency_eta *t, size_t col, double priced_ns, double real_ns)
{
	unsigned slot;
	if (col >= LATENCY_ETA_COLS || !(priced_ns > 0) || !(real_ns > 0))
		return;
	slot = t->seen[col]++ % LATENCY_ETA_WINDOW;
	t->priced[col][slot] = priced_ns;
	t->real[col][slot] = real_ns;
	t->priced_col[col] += priced_ns;
	t->real_col[col] += real_ns;
	t->priced_all += priced_ns;
	t->real_all += real_ns;
}

double latency_eta_point_ns(const struct latency_eta *t, size_t col, double priced_ns)
{
	if (col < LATENCY_ETA_COLS && t->seen[col] > 0) {
		double p = 0, r = 0;
		for (unsigned k = 0; k < LATENCY_ETA_WINDOW && k < t->seen[col]; k++) {
			p += t->priced[col][k];
			r += t->real[col][k];
		}
		return priced_ns * r / p;
	}
	if (t->priced_all > 0)
		return priced_ns * t->real_all / t->priced_all;
	return priced_ns;
}

double latency_eta_point_ns_all(const struct latency_eta *t, size_t col, double priced_ns)
{
	if (col < LATENCY_ETA_COLS && t->priced_col[col] > 0)
		return priced_ns * t->real_col[col] / t->priced_col[col];
	if (t->priced_all > 0)
		return priced_ns * t->real_all / t->priced_all;
	return priced_ns;
}

double latency_eta_revise(struct latency_eta *t, double elapsed_s, double left_s, double left_all_s)
{
	double a = elapsed_s + left_s, b = elapsed_s + left_all_s, total;
	double fixed = t->fixed_s > 0 && t->fixed_s < elapsed_s ? t->fixed_s : 0;
	if (!(t->said_s > 0) || !(elapsed_s >= 0) || !(left_s >= 0) || !(left_all_s >= 0) ||
	    (a - t->said_s) * (b - t->said_s) < 0)
		return 0;
	total = fabs(a - t->said_s) < fabs(b - t->said_s) ? a : b;
	if (elapsed_s - fixed < LATENCY_ETA_SETTLED * (total - fixed) ||
	    elapsed_s < t->said_at_s + LATENCY_ETA_GAP * t->said_s ||
	    fabs(total - t->said_s) <= LATENCY_ETA_REVISE * t->said_s ||
	    ceil(total) == ceil(t->said_s)) /* said in whole seconds: nothing new */
		return 0;
	t->said_s = total;
	t->said_at_s = elapsed_s;
	t->revisions++;
	return total;
}
