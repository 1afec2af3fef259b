/* numa_json: the parts of a numa result's JSON written and read beside
 * numa_result.c: the loaded-latency curves (numa_curve_json.c). */
#ifndef MEMTOP_NUMA_JSON_H
#define MEMTOP_NUMA_JSON_H

#include <cjson/cJSON.h>

#include "numa.h"

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
