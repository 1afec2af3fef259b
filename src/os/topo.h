/* The machine above the core, from hwloc: packages, dies, NUMA nodes with
 * their memory, L2 and L3 groups, cores, SMT siblings and core types, and
 * where each CPU sits among them. Loaded from this machine or from a
 * recorded Linux /sys tree (hwloc-gather-topology's layout: DIR/sys and
 * DIR/proc). Only the topo files include hwloc.h (through their private
 * topo_hwloc.h); everything here is plain data,
 * CPUs named by their OS index (the N of /sys/devices/system/cpu/cpuN). */
#ifndef MEMTOP_TOPO_H
#define MEMTOP_TOPO_H

#include "base/util.h"

#include <cjson/cJSON.h>
#include <stdint.h>

/* A set of CPUs, ascending OS indices. */
struct topo_set {
	int n;
	int *cpus;
};

/* An L2 or L3 cache and the CPUs that share it. */
struct topo_cache_group {
	uint64_t size; /* bytes */
	struct topo_set cpus;
};

/* One cache as hwloc describes it (every level and type, for memtop info's
 * "hwloc" source). */
struct topo_cache {
	int level;     /* 1, 2, 3, ... */
	char type[16]; /* "data", "instruction", "unified" */
	uint64_t size; /* bytes */
	int ways;      /* associativity; -1 fully associative, 0 unknown */
	int line;      /* bytes, 0 unknown */
	struct topo_set cpus;
};

/* A NUMA node: its OS index, its memory, its tier and its CPUs. hwloc
 * attaches a memory-only node (HBM in flat mode, CXL or NVM memory) beside
 * the CPUs nearest it: those are its cpus, but none of them has it as its
 * local node (local is empty). */
struct topo_node {
	int os_index;
	uint64_t memory;  /* bytes */
	char tier[16];    /* hwloc's subtype: "DRAM", "HBM", "NVM", "SPM" (a DAX range),
			   * "CXL-DRAM", "MCDRAM", "GPUMemory"; "" when hwloc names none */
	struct topo_set cpus;  /* the CPUs near it (hwloc's locality) */
	struct topo_set local; /* the CPUs whose nearest node it is; none: memory-only */
};

/* What the firmware (DMI) and the CPU say about the machine, as hwloc
 * records it (its root object's and first package's infos); "" when not
 * recorded. A recorded tree or XML keeps them, so a plan can say "a VM". */
struct topo_about {
	char sys_vendor[64];   /* DMISysVendor: "QEMU", "Amazon EC2", "Dell Inc." */
	char product[64];      /* DMIProductName */
	char board[64];        /* DMIBoardVendor and DMIBoardName */
	char bios[96];         /* DMIBIOSVendor, DMIBIOSVersion, DMIBIOSDate */
	char cpu_model[96];    /* CPUModel of the first package */
	char cpu_vendor[32];   /* CPUVendor */
};

/* One field of struct topo_about, for the topo files that fill and write
 * it: its key in the JSON's "about", the hwloc infos that make it (in this
 * order, joined by a space; of the first package when pkg, else of the
 * root) and where it lies in the struct. topo_about_fields lists them in
 * the JSON's order, ended by a NULL key. */
struct topo_about_field {
	const char *key;
	const char *hwloc[3]; /* NULL past the last */
	int pkg;
	size_t off, size;
};
extern const struct topo_about_field topo_about_fields[];

/* A core type (hwloc_cpukinds_*): P, E, big, LITTLE. coretypes[] is ordered
 * fastest first. */
struct topo_coretype {
	char name[16]; /* "P"/"E"/"LP-E" (x86 hybrid), "big"/"mid"/"LITTLE" (Arm), "one" */
	int efficiency; /* hwloc's rank: higher is more performant; -1 unknown */
	struct topo_set cpus;
	uint64_t l1d, l2; /* bytes, of its first CPU; 0 when not known */
	char detail[64]; /* what hwloc told apart: "CoreType=IntelCore", "LinuxCapacity=1024", ... */
};

/* Where one CPU sits: indices into the topo's arrays, -1 when not known. */
struct topo_cpu {
	int os;	      /* OS index */
	int allowed;  /* 1 when this process may run there (cgroup and affinity) */
	int core;     /* index among the cores */
	int package;  /* index among the packages */
	int die;      /* index among the dies */
	int node;     /* index into nodes[] */
	int l2, l3;   /* index into l2[] and l3[] */
	int coretype; /* index into coretypes[] */
};

struct topo {
	char source[512]; /* "this machine", the recorded tree's folder or "FILE (an hwloc XML)" */
	int recorded;     /* 0 this machine; 1 a recorded /sys tree; 2 an hwloc XML; 3 a
			   * topology JSON (topo_from_json) */
	struct topo_about about;
	int packages, dies, cores; /* dies: the packages where hwloc lists no die level */
	int ncpus;	  /* logical CPUs (hwloc's PUs), allowed or not */
	int nallowed;	  /* of them, those this process may run on */
	struct topo_cpu *cpus; /* ncpus of them, ascending OS index */
	int nnodes;
	struct topo_node *nodes; /* ascending OS index */
	int nl2, nl3;
	struct topo_cache_group *l2, *l3; /* in hwloc's (logical) order */
	int nsmt;
	struct topo_set *smt; /* the cores with more than one CPU: their CPUs */
	int ncoretypes;
	struct topo_coretype *coretypes; /* fastest first; at least one ("one") */
	int ncaches;
	struct topo_cache *caches; /* every cache, in hwloc's order (deepest level first) */
	int *dist;	/* nnodes x nnodes, row major in nodes[]' order: the distances the OS
			 * gives (the firmware's SLIT, 10 local); NULL when not known */
	struct topo_set offline;  /* CPUs the machine has that hwloc's tree leaves out: offline */
	int offline_known;	  /* 1 when the online list told them (live, a recorded tree);
				   * 0 (an XML): offline or outside the cpuset it was read in */
	struct topo_set unplaced; /* CPUs of the tree in no core (or package) where others
				   * have one: their relations are what else is known */
	char read_around[256];	  /* what of hwloc's tree memtop read around, "" none:
				   * "cores at 2 depths of hwloc's tree (4, each read once)" */
};

enum topo_rel {
	TOPO_REL_SAME_CPU,
	TOPO_REL_SMT,
	TOPO_REL_SAME_L2,
	TOPO_REL_SAME_L3,
	TOPO_REL_SAME_NODE,
	TOPO_REL_SAME_PACKAGE,
	TOPO_REL_OTHER_PACKAGE,
	TOPO_REL_UNKNOWN
};
#define TOPO_NREL (TOPO_REL_UNKNOWN + 1)

/* Loads the topology of this machine (sysfs_root NULL) or of the recorded
 * Linux tree under sysfs_root (a folder holding sys/devices/system/cpu and
 * usually proc/; hwloc's linux backend alone reads it, nothing of this
 * machine is mixed in). Sets *out to a new topo for topo_free. Returns 0,
 * or -1 with e naming the folder or file that is missing or garbled (or
 * hwloc's failure) and *out NULL. */
int topo_load(const char *sysfs_root, struct topo **out, mt_error *e);

/* The same from an hwloc XML topology (as `lstopo --of xml` writes it: a
 * lab's server sent as one file). Returns 0, or -1 with e naming the file
 * and what is wrong (missing, not a regular file, not an hwloc XML,
 * garbled or truncated) and *out NULL. */
int topo_load_xml(const char *path, struct topo **out, mt_error *e);

/* This machine's topology, loaded on the first call (thread-safe) and kept
 * for the life of the process; NULL when hwloc could not load it. */
const struct topo *topo_this_machine(void);

/* Frees t and all it holds; NULL is fine. */
void topo_free(struct topo *t);

/* Sets each node's local CPUs from its CPUs' nodes: those whose nearest
 * node it is (t->nodes[i].local, empty before; the loaders call it once
 * t->cpus is read). Returns 0, or -1 when out of memory. */
int topo_fill_local(struct topo *t);

/* The CPU with OS index cpu, or NULL when t has no such CPU. */
const struct topo_cpu *topo_cpu(const struct topo *t, int cpu);

/* How close CPUs cpu_a and cpu_b are: the nearest thing they share, from
 * the same CPU and SMT siblings (one core) out to other packages.
 * TOPO_REL_UNKNOWN when either is not a CPU of t, or when nothing they
 * share is known. */
enum topo_rel topo_relation(const struct topo *t, int cpu_a, int cpu_b);

/* The words for r: "same CPU", "SMT siblings", "separate cores, same L2",
 * "same L3 group", "same NUMA node", "same package", "other socket",
 * "unknown". Never NULL. */
const char *topo_rel_name(enum topo_rel r);

/* The kind named name (case-insensitive), or -1. */
int topo_coretype_find(const struct topo *t, const char *name);

/* The names of all kinds, ", "-separated, fastest first, into buf. Returns buf. */
const char *topo_coretype_names(const struct topo *t, char *buf, size_t len);

/* The first allowed CPU of kind k (index into kinds[]), or -1 when it has
 * none this process may run on. */
int topo_coretype_first_allowed(const struct topo *t, int k);

/* Where CPU cpu sits, in words: "CPU 3: core type P, L3 group 0, NUMA node
 * 0, package 0" (parts not known are left out). Returns buf ("CPU N: not
 * in the topology" when t has no such CPU). */
const char *topo_place_text(const struct topo *t, int cpu, char *buf, size_t len);

/* The distance between nodes a and b (indices into t->nodes) as the OS
 * gives it (the SLIT: 10 local, 21 a node twice as far ...), 0 when not
 * known. */
int topo_distance(const struct topo *t, int a, int b);

/* What the topology could not place, in one line ("" when nothing): "CPU 5
 * offline", "CPUs 8-9 in no core or package of hwloc's tree (...)". Returns
 * buf. */
const char *topo_unplaced_text(const struct topo *t, char *buf, size_t len);
/* The same for people, in their language (`memtop topo`'s "not placed"
 * line); topo_unplaced_text's English is what the JSON keeps. Returns buf. */
const char *topo_unplaced_human(const struct topo *t, char *buf, size_t len);

/* The CPUs of s as a Linux CPU list ("0-3,8,10-11"; "none" when empty).
 * Returns buf. */
const char *topo_set_text(const struct topo_set *s, char *buf, size_t len);

/* The version of the hwloc library memtop runs with ("2.9.0"). Returns buf. */
const char *topo_hwloc_version(char *buf, size_t len);

/* The folded summary: "2 packages, 4 NUMA nodes, 8 L3 groups of 8 cores
 * (32 MB each), 64 cores, 128 CPUs; core types: one". Returns buf. */
const char *topo_summary(const struct topo *t, char *buf, size_t len);
/* The same for people, in their language ("1 корпус, 2 узла NUMA, ..."):
 * topo_summary's English is what the JSON keeps. Returns buf. */
const char *topo_summary_text(const struct topo *t, char *buf, size_t len);

/* The columns of a topology JSON's "cpu_places" rows. */
#define TOPO_PLACES_ARE "cpu, core, package, die, node, l2_group, l3_group, kind, allowed"

/* The topology as JSON: {"source","summary","packages","dies","numa_nodes",
 * "cores","cpus","allowed_cpus","l2_groups":[{"size","cpus"}],"l3_groups",
 * "core_kinds":[{"name","efficiency","cpus","l1d","l2","detail"}],
 * "nodes":[{"node","tier","cpus","near_cpus","memory"}],"smt_siblings":[[...]],
 * "distances":[[10,21],[21,10]] (null when not known),"offline_cpus":[...],
 * "unplaced_cpus":[...],"not_placed":"...","read_around":"...",
 * "cpu_places_are","cpu_places":[[cpu,core,package,die,node,l2_group,
 * l3_group,kind,allowed]...],"about":{"sys_vendor","product","board","bios",
 * "cpu_model","cpu_vendor"}}: a node's cpus are its own (none for a
 * memory-only node), near_cpus hwloc's locality; a place's parts -1 where
 * not known, its node the node's number, its kind an index into
 * core_kinds. NULL when out of memory. */
cJSON *topo_to_json(const struct topo *t);

/* The topology a JSON of topo_to_json's holds (`memtop topo --json`, a
 * result's "topology"), read strictly: path names the file in errors.
 * Returns 0 with *out a new topo (topo_free; its recorded 3, its source
 * the JSON's), or -1 with e in one line naming the file and the field
 * ("t.json: cpu_places[3][1]: core 40 of 16", "t.json: cpu_places:
 * missing (a memtop topo --json of a memtop before CPU places: write it
 * again)") and *out NULL. */
int topo_from_json(const cJSON *root, const char *path, struct topo **out, mt_error *e);

/* 1 when root has the shape of a topology JSON (its "cpu_places_are" says
 * TOPO_PLACES_ARE), else 0: what `memtop view` tells a topo file by. */
int topo_json_is(const cJSON *root);

/* Where CPU cpu sits, as JSON: {"cpu","kind","l3_group","node","package"}
 * (a part not known is null). NULL when out of memory or cpu is not in t. */
cJSON *topo_place_json(const struct topo *t, int cpu);

#endif
