#include "config.h"
#include "latency_eta.h"

#include <string.h>

void lat_eta_init(struct lat_eta *t)
{
	memset(t, 0, sizeof *t);
}

void lat_eta_add(struct lat_eta *t, size_t col, double priced_ns, double real_ns)
{
	if (col > LAT_MAX_STRIDES || !(priced_ns > 0) || !(real_ns > 0))
		return;
	t->priced[col] += priced_ns;
	t->real[col] += real_ns;
	t->priced_all += priced_ns;
	t->real_all += real_ns;
}

double lat_eta_point_ns(const struct lat_eta *t, size_t col, double priced_ns)
{
	if (col <= LAT_MAX_STRIDES && t->priced[col] > 0)
		return priced_ns * t->real[col] / t->priced[col];
	if (t->priced_all > 0)
		return priced_ns * t->real_all / t->priced_all;
	return priced_ns;
}
