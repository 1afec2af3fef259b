/* The distances between NUMA nodes (topo_hwloc.h): the matrix hwloc has
 * from the OS, which on Linux is the firmware's SLIT (ACPI's System
 * Locality Information Table, /sys/devices/system/node/nodeN/distance):
 * relative latency, 10 for a node's own memory. numactl -H and lstopo
 * --distances print the same matrix. */
#include "config.h"

#include "topo_hwloc.h"

#include <stdlib.h>

/* The index into t->nodes of the node with OS index os, or -1. */
static int node_at(const struct topo *t, unsigned os)
{
	for (int i = 0; i < t->nnodes; i++)
		if (t->nodes[i].os_index == (int)os)
			return i;
	return -1;
}

/* See topo_hwloc.h. */
int topo_copy_distances(struct topo *t, hwloc_topology_t h)
{
	struct hwloc_distances_s *d[4];
	unsigned nr = MT_ARRAY_LEN(d);
	int rc = 0;
	t->dist = NULL;
	if (t->nnodes < 1 ||
	    hwloc_distances_get_by_type(h, HWLOC_OBJ_NUMANODE, &nr, d,
					HWLOC_DISTANCES_KIND_FROM_OS | HWLOC_DISTANCES_KIND_MEANS_LATENCY,
					0) < 0)
		return 0;
	if (nr > MT_ARRAY_LEN(d))
		nr = MT_ARRAY_LEN(d);
	/* the first matrix over every node (hwloc keeps the OS's whole) */
	for (unsigned k = 0; k < nr && !t->dist && rc == 0; k++) {
		unsigned n = d[k]->nbobjs;
		int *at;
		if (n != (unsigned)t->nnodes)
			continue;
		at = calloc(n, sizeof *at);
		t->dist = calloc((size_t)n * n, sizeof *t->dist);
		if (!at || !t->dist) {
			rc = -1;
		} else {
			for (unsigned i = 0; i < n; i++)
				at[i] = d[k]->objs[i] ? node_at(t, d[k]->objs[i]->os_index) : -1;
			for (unsigned i = 0; i < n && t->dist; i++)
				for (unsigned j = 0; j < n && t->dist; j++) {
					uint64_t v = d[k]->values[i * n + j];
					if (at[i] < 0 || at[j] < 0 || v == 0 || v > 1000000) {
						free(t->dist); /* a node it does not name: none */
						t->dist = NULL;
					} else {
						t->dist[at[i] * t->nnodes + at[j]] = (int)v;
					}
				}
		}
		free(at);
	}
	for (unsigned k = 0; k < nr; k++)
		hwloc_distances_release(h, d[k]);
	return rc;
}
