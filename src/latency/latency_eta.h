/* The latency run's time left, priced from what the run has measured so
 * far: each chase's points cost real/priced times their planned price. */
#ifndef MEMTOP_LATENCY_ETA_H
#define MEMTOP_LATENCY_ETA_H

#include <stddef.h>

#include "latency.h"

/* Per column (each fixed stride, then the random chase) and over all: the
 * ns the finished points were priced at before they ran, and what they
 * took (linking, warm-up and every try, retries included). */
struct lat_eta {
	double priced[LAT_MAX_STRIDES + 1], real[LAT_MAX_STRIDES + 1];
	double priced_all, real_all;
};

/* Start with nothing measured. */
void lat_eta_init(struct lat_eta *t);

/* A point of column col (< LAT_MAX_STRIDES + 1; others ignored) finished:
 * priced_ns planned, real_ns taken (both > 0, else ignored). */
void lat_eta_add(struct lat_eta *t, size_t col, double priced_ns, double real_ns);

/* ns a point of column col priced at priced_ns is expected to take: its
 * price times the column's real / priced so far (cost-weighted, so the
 * latest and largest points count most: more tries than planned and dearer
 * linking show there), the whole run's ratio while the column has none, the
 * price itself while nothing is measured. */
double lat_eta_point_ns(const struct lat_eta *t, size_t col, double priced_ns);

#endif
