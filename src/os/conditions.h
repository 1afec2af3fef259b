/* conditions: the settings of a machine that move memory figures and that
 * users of MLC, likwid and core-to-core-latency trace their surprises to,
 * read once (no root needed) and recorded in every result's header and
 * JSON ("conditions"): nodes per package (SNC or NPS), the microcode, the
 * firmware (DMI: BIOS vendor, version and date, board), the cpufreq
 * governor and boost, SMT, the hypervisor, the kernel's mitigations,
 * automatic NUMA balancing, transparent huge pages and their defrag, the
 * DIMMs where EDAC shows them, the kernel and the compiler. Each is read
 * from the Linux tree under a root ("" this machine, or a recorded /sys
 * tree's folder), or on macOS from sysctl (the model, the kernel, unified
 * memory, SMT, the core types, a VM), never guessed: what cannot be read
 * is said, with why. */
#ifndef MEMTOP_CONDITIONS_H
#define MEMTOP_CONDITIONS_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "topo.h"
#include "vm.h"

#define COND_TEXT 96
#define COND_MAX_DIMMS 64

/* One value: its words, or why there are none. */
struct cond_value {
	int known;             /* 1: text holds the value */
	char text[COND_TEXT];  /* "performance", "0xb4", "4 of 4: ..."; or why not known:
				* "no cpufreq (a VM without a driver)" */
};

struct mt_conditions {
	int have;                   /* read (0: an older file without them) */
	int packages, nodes;        /* from the topology (0 unknown): nodes all of them */
	int cpu_nodes;              /* the nodes with CPUs of their own (SNC/NPS counts these) */
	struct cond_value snc;      /* "2 nodes a package (SNC2 or NPS2)", "1 node a package" */
	struct cond_value microcode;
	struct cond_value bios;     /* "American Megatrends 2.1 03/02/2024" */
	struct cond_value board;    /* "Supermicro X13DEI" */
	struct cond_value product;  /* "PowerEdge R760"; a VM's "Standard PC (Q35...)" */
	struct cond_value governor; /* "performance" (every policy), "schedutil on 8, ..." */
	struct cond_value freq;     /* "max 3.70 GHz, min 1.50 GHz" */
	struct cond_value boost;    /* "on", "off" */
	struct cond_value smt;      /* "on", "off", "notsupported" */
	struct cond_value hypervisor; /* "KVM", "none" */
	struct cond_value mitigations; /* "12 mitigated, 3 vulnerable: retbleed, ..." */
	struct cond_value numa_balancing; /* "0", "1" */
	struct cond_value thp;      /* "madvise" */
	struct cond_value thp_defrag;
	struct cond_value dimms;    /* "8 DIMMs, 256 GB, DDR5" or "not readable without root ..." */
	int ndimms;                 /* DIMMs EDAC lists (0: none or not readable) */
	uint64_t dimm_bytes;        /* their size together */
	int channels;               /* memory channels they populate (0: not said) */
	struct cond_value kernel;   /* "6.1.0-18-amd64" */
	struct cond_value compiler; /* the compiler that built the kernels */
};

/* Read the conditions of the Linux tree under root ("" this machine; a
 * recorded tree: what it recorded; NULL an hwloc XML: the topology's and
 * the DMI strings hwloc kept), with the topology t (packages and nodes;
 * NULL unknown) and the hypervisor vm (NULL unknown), into c. Never
 * fails: each value absent says why. */
void mt_conditions_read(const char *root, const struct topo *t, const struct mt_vm *vm,
			struct mt_conditions *c);

/* This machine's, read on the first call (thread-safe). Never NULL. */
const struct mt_conditions *mt_conditions_this(void);

/* The conditions as JSON: {"packages","nodes","cpu_nodes","snc","microcode","bios",
 * "board","product","governor","freq","boost","smt","hypervisor",
 * "mitigations","numa_balancing","thp","thp_defrag","dimms","dimm_count",
 * "dimm_bytes","dimm_channels","kernel","compiler"}, each value a string or, not known,
 * {"unknown": why}. NULL when out of memory. */
cJSON *mt_conditions_to_json(const struct mt_conditions *c);

/* Read that shape back (o NULL or not an object: c->have 0, "conditions
 * unknown"). Strings made printable; unknown keys ignored. */
void mt_conditions_from_json(const cJSON *o, struct mt_conditions *c);

/* Why the DIMMs are not known on this machine when EDAC lists none, from
 * what is so here: EDAC's folder there (edac), DMI tables there (dmi),
 * running as root, dmidecode installed. "no EDAC (...); dmidecode -t
 * memory lists them as root", "...; no DMI for dmidecode either". Returns
 * buf. */
const char *mt_conditions_dimms_why(char *buf, size_t len, int edac, int dmi, int is_root,
				    int have_dmidecode);

/* SMT's state in words from the kernel's smt/control word: "on", "off",
 * "off (forced at boot)", "not supported" ("notsupported"); NULL for
 * "notimplemented" (the kernel cannot tell: not known) and any other. */
const char *mt_conditions_smt_words(const char *control);

/* The one-line summary the side panel shows: "VM (KVM), governor
 * performance, SNC off, THP madvise". Returns buf. */
const char *mt_conditions_summary(const struct mt_conditions *c, char *buf, size_t len);

/* The names of the conditions, in the order mt_conditions_field gives
 * them (the table compare's "differs in" reads). */
#define COND_NFIELDS 17
const char *mt_conditions_name(int i);

/* What a reader calls field i ("memory" for "dimms"; NULL out of range). */
const char *mt_conditions_label(int i);

/* Field i of c (NULL when i is out of range). */
const struct cond_value *mt_conditions_field(const struct mt_conditions *c, int i);

/* ---- what differs, and what it moves (conditions_differ.c) ------------- */

/* The figures a difference is judged against. */
enum cond_family {
	COND_FAM_ANY,      /* memtop compare A B: every field, most telling first */
	COND_FAM_DRAM_BW,  /* DRAM bandwidth */
	COND_FAM_MEM_NS,   /* memory latency */
	COND_FAM_CLOCKED,  /* L1 and L2 figures, the clock's */
	COND_FAM_C2C,      /* core-to-core latency */
	COND_FAM_SIZE,     /* a cache size read off a curve */
};

/* A field that differs between two machines' conditions. */
struct cond_diff {
	int field;            /* mt_conditions_field's index */
	const char *name;     /* "dimms" */
	const char *label;    /* what a reader calls it: "memory" */
	const char *moves;    /* what it is known to move: "DRAM bandwidth: the channels
			       * populated set its peak" */
	const char *source;   /* the public source saying so */
	char a[COND_TEXT], b[COND_TEXT]; /* the two values */
};

/* The fields that differ between a and b (both known in each), ordered by
 * how much they are known to move figures of family fam (fields that do
 * not move them left out, but for COND_FAM_ANY), into out (at most cap).
 * Returns how many; 0 when nothing recorded differs (or a has none). */
int mt_conditions_differ(const struct mt_conditions *a, const struct mt_conditions *b,
			 enum cond_family fam, struct cond_diff *out, int cap);

#endif
