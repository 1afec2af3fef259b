/* numa_json: what a numa result's JSON writer (numa_result.c) and its
 * reader (numa_result_read.c) share, and the parts written and read beside
 * them: the loaded-latency curves (numa_curve_json.c). */
#ifndef MEMTOP_NUMA_JSON_H
#define MEMTOP_NUMA_JSON_H

#include <cjson/cJSON.h>

#include "numa.h"

/* Each measure's name in the JSON ("latency", "read", "triad", "3:1", ...:
 * numa_result.c). */
extern const char *const numa_meas_name[NUMA_NMEAS];

/* Every node pair of r not placed yet (NAN): its pages' share on the
 * memory node not known. */
void numa_result_unplaced(struct numa_result *r);

/* r's curves as "loaded" [{cpu_node, memory_node, why, chaser_cpu,
 * injectors, huge_pages, huge_share, pages_on_node, points [{delay_ns (null
 * idle), gbs, latency_ns, spread, tries, preempted}], knee {found, rule,
 * gbs, latency_ns, fraction_of_peak, latency_ratio, lines_in_flight}, peak
 * {...}}] into root (nothing when r has none). Returns 0, or -1 out of
 * memory. */
int numa_curves_to_json(const struct numa_result *r, cJSON *root);

/* "loaded" of root (optional: files before it have none) into r's curves,
 * strictly: a missing or mistyped field, a node not in "nodes", a pair
 * twice, no idle point first: one line naming file f and the field.
 * Returns 0, or -1 with e. */
int numa_curves_from_json(const cJSON *root, const char *f, struct numa_result *r, mt_error *e);

#endif
