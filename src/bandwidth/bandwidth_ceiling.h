/* bandwidth_ceiling: what each core's data paths allow (bytes a cycle, each
 * figure with its public source), the CPU's identity they are looked up
 * by, and a kernel's ceiling at a level (bandwidth_ceiling.c). */
#ifndef MEMTOP_BANDWIDTH_CEILING_H
#define MEMTOP_BANDWIDTH_CEILING_H

#include <stddef.h>

/* ---- ceilings: what the core allows (bandwidth_ceiling.c) ---------------- */

/* One microarchitecture's data paths, bytes a cycle of one core, each
 * from the public source in `source`; 0 where the sources give no figure. */
struct bandwidth_core {
	const char *name;      /* "Golden Cove" */
	const char *cores;     /* which products have it, in words */
	unsigned loads;        /* scalar loads a cycle */
	unsigned vloads;       /* vector loads a cycle */
	unsigned load_w;       /* the widest load's bytes (wider ones are split) */
	unsigned load_bpc;     /* all loads' bytes a cycle at most */
	unsigned stores;       /* stores a cycle */
	unsigned store_w, store_bpc;
	unsigned l2_bpc;       /* L2 to L1 fill */
	unsigned l3_bpc;       /* L3 to L2 fill */
	const char *source;
};

/* Which CPU this is: x86 CPUID vendor, family and model (from
 * /proc/cpuinfo, which shows them decoded), or the Arm MIDR's implementer
 * and part. */
struct bandwidth_cpu_id {
	char vendor[16];       /* "GenuineIntel", "AuthenticAMD"; "" on Arm */
	unsigned family, model;
	unsigned implementer, part;
	int amx;               /* x86 flags name amx_tile (Sapphire Rapids and later) */
};

/* Read the first CPU's block of /proc/cpuinfo text ("vendor_id", "cpu
 * family", "model"; "CPU implementer", "CPU part") into id. Returns 0, or -1
 * (id zero) when the text names neither an x86 vendor nor an implementer. */
int bandwidth_cpu_id_parse(const char *text, struct bandwidth_cpu_id *id);

/* This machine's (/proc/cpuinfo). Returns 0, or -1 with id zero. */
int bandwidth_cpu_id(struct bandwidth_cpu_id *id);

/* "GenuineIntel family 0x6 model 0x8f", "MIDR implementer 0x41 part 0xd0c"
 * or "an unknown CPU". */
void bandwidth_cpu_id_text(const struct bandwidth_cpu_id *id, char *buf, size_t len);

/* The table's core for id, or NULL: no ceiling known for this core. An
 * Intel CPU whose flags name AMX is taken for a Golden Cove server core
 * whatever its model says: a guest's CPUID model is the hypervisor's
 * choice (a KVM guest on Sapphire Rapids class hosts was seen reporting
 * model 0xa7, Rocket Lake, which has no AMX). */
const struct bandwidth_core *bandwidth_core_find(const struct bandwidth_cpu_id *id);

/* The table's core called name ("Zen 5"), or NULL. */
const struct bandwidth_core *bandwidth_core_named(const char *name);

/* The ceiling of kernel at level ("L1", "L2", "L3"; anything else has
 * none) with vector registers of width bytes, in bytes a cycle of one core
 * counted as the kernels count (STREAM's way): at L1 the load ports
 * (read), the store ports (write), both at once (copy: 2 / max(1/load,
 * 1/store); triad: 3 / max(2/load, 1/store)); at L2 and L3 the lesser of
 * that and the level's fill (a cached store's line is filled too). 0 when
 * there is none, *why saying why ("streaming stores bypass the caches",
 * "no store figure for this core", ...) or, when there is, what limits it
 * ("the L1 ports", "the L2 fill"). */
double bandwidth_ceiling(const struct bandwidth_core *c, int kernel, const char *level, unsigned width,
			 const char **why);

#endif
