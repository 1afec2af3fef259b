/* Private to the topo files (src/os/topo*.c): the hwloc side of loading a
 * topology. The only header that includes hwloc.h; nothing outside
 * src/os/topo*.c includes it (topo.h is plain data). */
#ifndef MEMTOP_TOPO_HWLOC_H
#define MEMTOP_TOPO_HWLOC_H

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

/* This machine's online CPUs (/sys/devices/system/cpu/online) into online.
 * Returns 0, or -1 (online left empty) when the kernel does not say. */
int topo_online_here(hwloc_bitmap_t online);

/* Copies h's packages, dies, cores, NUMA nodes, CPUs (allowed ones ANDed
 * with this thread's affinity when live), L2/L3 groups, SMT siblings, every
 * cache, the nodes' distances and what the tree could not place (the CPUs
 * it leaves out that online, when not NULL or empty, does not list; CPUs in
 * no core or package) into t. Objects of a type at several depths (cores
 * under their threads' own L1 on one core, above them on another) are all
 * read, in the tree's order, and said in t->read_around. Core kinds are
 * topo_coretypes.c's. Returns 0, or -1 when out of memory or when h has no
 * CPU (t then holds what was copied, for topo_free). */
int topo_hw_copy(struct topo *t, hwloc_topology_t h, int live, hwloc_const_bitmap_t online);

/* t->dist: the distances between t's nodes hwloc has from the OS (the
 * firmware's SLIT: NUMA latency, 10 local), in t->nodes' order, when hwloc
 * has a matrix of that kind over all of them; left NULL otherwise. Needs
 * t's nodes. Returns 0, or -1 when out of memory. */
int topo_copy_distances(struct topo *t, hwloc_topology_t h);

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
