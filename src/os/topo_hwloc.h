/* Private to the topo files (src/core/topo*.c): the hwloc side of loading a
 * topology. The only header that includes hwloc.h; nothing outside
 * src/core/topo*.c includes it (topo.h is plain data). */
#ifndef MEMTOP_CORE_TOPO_HWLOC_H
#define MEMTOP_CORE_TOPO_HWLOC_H

#include "topo.h"

#include <hwloc.h>

/* The tree under root has sys/devices/system/cpu, its online list (when
 * recorded) parses, and a folder for every CPU the list names; online is
 * set to that list (left empty when not recorded). Returns 0, or -1 with e
 * naming what is missing or garbled. */
int topo_check_tree(const char *root, hwloc_bitmap_t online, mt_error *e);

/* The file at path can be handed to hwloc as an XML topology: a regular
 * file of at most TOPO_XML_MAX bytes whose start names a <topology>.
 * Returns 0, or -1 with e naming the file and what is wrong. */
int topo_check_xml(const char *path, mt_error *e);
#define TOPO_XML_MAX (64 << 20)

/* Loads hwloc's topology of this machine (root and xml NULL), of root
 * (hwloc's linux backend alone, reading nothing of this machine) or of the
 * hwloc XML file xml. Returns it, or NULL with e set. The caller destroys
 * it. */
hwloc_topology_t topo_hw_load(const char *root, const char *xml, mt_error *e);

/* Copies h's packages, dies, cores, NUMA nodes, CPUs (allowed ones ANDed
 * with this thread's affinity when live), L2/L3 groups, SMT siblings and
 * every cache into t. Core kinds are topo_coretypes.c's. Returns 0, or -1 when
 * out of memory or when h has no CPU (t then holds what was copied, for
 * topo_free). */
int topo_hw_copy(struct topo *t, hwloc_topology_t h, int live);

/* s = the CPUs of bm, ascending (s->cpus allocated, NULL when bm is
 * empty). Returns 0, or -1 when out of memory. */
int topo_set_from(hwloc_const_bitmap_t bm, struct topo_set *s);

/* The size in bytes of pu's nearest ancestor cache of type ty, or 0 (pu
 * NULL included). */
uint64_t topo_ancestor_size(hwloc_obj_t pu, hwloc_obj_type_t ty);

/* Fills t->coretypes from hwloc's CPU kinds, fastest first (one kind, "one",
 * when hwloc gives fewer than two), named from CoreType or by rank. Needs
 * t's CPUs. Returns 0, or -1 when out of memory. */
int topo_copy_coretypes(struct topo *t, hwloc_topology_t h);

/* Marks each CPU of t with the first kind that lists it. */
void topo_mark_coretypes(struct topo *t);

/* On Arm, when every CPU under root ("" this machine) shows its MIDR and
 * there are fewer CPU parts than hwloc's kinds, makes the kinds one per part
 * (big, LITTLE) and re-marks the CPUs; otherwise leaves t alone. Returns 0,
 * or -1 when out of memory. */
int topo_regroup_by_part(struct topo *t, hwloc_topology_t h, const char *root);

#endif
