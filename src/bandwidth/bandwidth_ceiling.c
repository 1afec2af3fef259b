/* bandwidth_ceiling: what the core's ports and fills allow, per
 * microarchitecture, and each measured cell as a share of it. See
 * bandwidth.h.
 *
 * Every figure is bytes a cycle of one core and comes from the public
 * source named beside it; a figure its sources do not give is 0 and no
 * ceiling is claimed for what needs it. A core the table lacks has no
 * ceiling at all ("no ceiling known for this core"). */
#include "config.h"

#include "bandwidth_ceiling.h"
#include "bandwidth_kernels.h"
#include "bandwidth_result.h"
#include "base/util.h"
#include "base/i18n.h"
#include "os/platform.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One microarchitecture: L1 loads and stores a cycle and their widths,
 * the L2 and L3 fill bandwidth. A table is the clearest form here. */
static const struct bandwidth_core cores[] = {
	{ "Skylake", "Skylake, Kaby/Coffee/Comet Lake client cores",
	  2, 2, 32, 64, 1, 32, 32, 64, 0,
	  "Intel 64 and IA-32 Architectures Optimization Reference Manual (248966), Skylake "
	  "client microarchitecture: L1D 2 loads (32 B) + 1 store (32 B) a cycle, L2 64 B a "
	  "cycle peak" },
	{ "Skylake-SP", "Skylake-SP, Cascade Lake, Cooper Lake server cores (AVX-512)",
	  2, 2, 64, 128, 1, 64, 64, 64, 16,
	  "Intel Optimization Reference Manual (248966), Skylake Server microarchitecture: L1D "
	  "2 x 64 B loads + 1 x 64 B store a cycle, L2 64 B a cycle peak; L3 to L2 16 B a cycle "
	  "(each way): RRZE-HPC's kerncraft machine models SkylakeSP_Gold-6148.yml and "
	  "CascadelakeSP_Gold-6248_SNC.yml (the ECM model's L3 upstream throughput)" },
	{ "Sunny Cove", "Ice Lake, Tiger Lake (Willow Cove), Rocket Lake (Cypress Cove)",
	  2, 2, 64, 128, 2, 64, 64, 64, 0,
	  "Intel Optimization Reference Manual (248966), Ice Lake client microarchitecture: "
	  "L1D 2 x 64 B loads, 2 stores of 64 B in all a cycle, L2 64 B a cycle" },
	{ "Golden Cove", "Alder/Raptor Lake P-cores, Sapphire Rapids, Emerald Rapids",
	  3, 3, 64, 128, 2, 64, 64, 64, 0,
	  "Intel Optimization Reference Manual (248966), Golden Cove microarchitecture: 3 x 256-bit "
	  "or 2 x 512-bit loads a cycle, 2 stores (64 B) a cycle, L2 64 B a cycle; Chips and "
	  "Cheese, Popping the Hood on Golden Cove (2021): 2 x 64 B loads with AVX-512; loads and "
	  "a store in one cycle (triad: 2 x 64 B loads + 1 x 64 B store, 192 B): the port model of "
	  "OSACA for Sapphire Rapids (RRZE-HPC/OSACA osaca/data/spr.yml; Laukemann, Hager, "
	  "Wellein, arXiv:2409.08108), a 512-bit load on port 2 or 3, a 512-bit store on "
	  "store-data ports 4 and 9 together: a model, not a measured rate" },
	{ "Gracemont", "Alder Lake-N and hybrid E-cores",
	  2, 2, 16, 32, 2, 16, 32, 64, 0,
	  "Intel Optimization Reference Manual (248966), Gracemont microarchitecture: 2 x 128-bit "
	  "loads and 2 x 128-bit stores a cycle, L2 (4 cores) 64 B a cycle" },
	{ "Zen 2", "AMD family 17h Zen 2 (Rome, Matisse, Renoir)",
	  2, 2, 32, 64, 1, 32, 32, 32, 32,
	  "AMD Software Optimization Guide for Family 17h Models 30h+ (56305): 2 x 256-bit loads "
	  "and 1 x 256-bit store a cycle, L2 and L3 32 B a cycle to the core" },
	{ "Zen 3", "AMD family 19h Zen 3 (Milan, Vermeer, Cezanne)",
	  3, 2, 32, 64, 2, 32, 32, 32, 32,
	  "AMD Software Optimization Guide for Family 19h (56665): 3 loads (2 of 256 bits) and 2 "
	  "stores (1 of 256 bits) a cycle, L2 and L3 32 B a cycle" },
	{ "Zen 4", "AMD family 19h Zen 4 (Genoa, Raphael, Phoenix)",
	  3, 2, 32, 64, 2, 32, 32, 32, 32,
	  "AMD Software Optimization Guide for Family 19h Models 10h+ (57647): 2 x 256-bit loads "
	  "(a 512-bit load takes both) and 1 x 256-bit store a cycle, L2 and L3 32 B a cycle; "
	  "Chips and Cheese, AMD's Zen 4 Part 2 (2022)" },
	{ "Zen 5", "AMD family 1Ah Zen 5 (Turin, Granite Ridge, Strix Point)",
	  4, 2, 64, 128, 2, 64, 64, 64, 32,
	  "AMD Software Optimization Guide for the Zen5 Microarchitecture (58455): 4 loads (2 x "
	  "512-bit) and 2 stores (1 x 512-bit) a cycle, L2 64 B a cycle to L1; L3 32 B a cycle; "
	  "Chips and Cheese, AMD's Ryzen 9950X (2024)" },
	{ "Cortex-A55", "Arm Cortex-A55",
	  1, 1, 8, 8, 1, 16, 16, 0, 0,
	  "Cortex-A55 Level 1 memory system, Intel Agilex 5 HPS Technical Reference Manual (814346) "
	  "3.6.3.5: a 64-bit read path and a 128-bit write path" },
	{ "Cortex-A76", "Arm Cortex-A76",
	  2, 2, 16, 32, 2, 16, 32, 32, 0,
	  "Arm Cortex-A76 Core Technical Reference Manual (100798_0300_00_en), A6.1.2 L1 data-side "
	  "memory system: two 128-bit read paths from the L1 to the datapath, a 256-bit write path "
	  "from the datapath to the L1, a 256-bit read interface from the L2; two load/store "
	  "pipelines (stores: 2 x 16 B a cycle with NEON, 32 B in all)" },
	{ "Neoverse N1", "Arm Neoverse N1 (Ampere Altra, Graviton2)",
	  2, 2, 16, 32, 2, 16, 32, 32, 0,
	  "Arm Neoverse N1 Software Optimization Guide: 2 load/store pipelines, 128-bit loads; "
	  "Arm Neoverse N1 Core Technical Reference Manual (101111_0101), L1 data-side memory "
	  "system: two 128-bit read paths, a 256-bit write path from the datapath to the L1 (stores: "
	  "2 x 16 B a cycle with NEON, as LLVM's N1 model from the guide issues a Q-form store on "
	  "either load/store pipeline), a 256-bit read interface from the L2; Chips and Cheese, "
	  "Deep Diving Neoverse N1 (2021): 19.3 B a cycle measured from the L2" },
	{ "Neoverse V1", "Arm Neoverse V1 (Graviton3)",
	  3, 3, 16, 48, 2, 16, 32, 0, 0,
	  "Arm Neoverse V1 Software Optimization Guide: 3 load pipelines of 128 bits (NEON); "
	  "stores: LLVM's Neoverse V1 scheduling model from that guide "
	  "(llvm/lib/Target/AArch64/AArch64SchedNeoverseV1.td: a Q-form store takes one of the two "
	  "load/store pipelines L01 and one of the two store-data pipelines): 2 x 16 B a cycle" },
	{ "Neoverse V2", "Arm Neoverse V2 (NVIDIA Grace, Graviton4)",
	  3, 3, 16, 48, 2, 16, 32, 0, 0,
	  "Arm Neoverse V2 Software Optimization Guide (PJDOC-466751330-593177): 3 load pipelines "
	  "of 128 bits (NEON); stores: Laukemann, Hager, Wellein, Microarchitectural comparison "
	  "and in-core modeling of state-of-the-art CPUs: Grace, Sapphire Rapids, and Genoa "
	  "(arXiv:2409.08108, 2024), its OSACA model (RRZE-HPC/OSACA osaca/data/v2.yml): a store "
	  "takes one of two store-data ports, 128-bit registers: 2 x 16 B a cycle" },
};

/* Which CPUs are which core: x86 by vendor, family and a model range, Arm
 * by implementer and part (MIDR). A table is the clearest form here. */
static const struct {
	const char *vendor;     /* "GenuineIntel", "AuthenticAMD"; NULL: Arm */
	unsigned family, lo, hi; /* x86: family, models lo..hi; Arm: implementer, part, part */
	const char *core;
} ids[] = {
	{ "GenuineIntel", 6, 0x4e, 0x4e, "Skylake" },
	{ "GenuineIntel", 6, 0x5e, 0x5e, "Skylake" },
	{ "GenuineIntel", 6, 0x8e, 0x8e, "Skylake" },
	{ "GenuineIntel", 6, 0x9e, 0x9e, "Skylake" },
	{ "GenuineIntel", 6, 0xa5, 0xa6, "Skylake" },
	{ "GenuineIntel", 6, 0x55, 0x55, "Skylake-SP" },
	{ "GenuineIntel", 6, 0x6a, 0x6a, "Sunny Cove" },
	{ "GenuineIntel", 6, 0x6c, 0x6c, "Sunny Cove" },
	{ "GenuineIntel", 6, 0x7d, 0x7e, "Sunny Cove" },
	{ "GenuineIntel", 6, 0x8c, 0x8d, "Sunny Cove" },
	{ "GenuineIntel", 6, 0xa7, 0xa7, "Sunny Cove" },
	{ "GenuineIntel", 6, 0x97, 0x97, "Golden Cove" },
	{ "GenuineIntel", 6, 0x9a, 0x9a, "Golden Cove" },
	{ "GenuineIntel", 6, 0xb7, 0xb7, "Golden Cove" },
	{ "GenuineIntel", 6, 0xba, 0xba, "Golden Cove" },
	{ "GenuineIntel", 6, 0xbf, 0xbf, "Golden Cove" },
	{ "GenuineIntel", 6, 0x8f, 0x8f, "Golden Cove" },
	{ "GenuineIntel", 6, 0xcf, 0xcf, "Golden Cove" },
	{ "GenuineIntel", 6, 0xbe, 0xbe, "Gracemont" },
	{ "AuthenticAMD", 0x17, 0x30, 0x3f, "Zen 2" },
	{ "AuthenticAMD", 0x17, 0x60, 0x7f, "Zen 2" },
	{ "AuthenticAMD", 0x17, 0x90, 0xaf, "Zen 2" },
	{ "AuthenticAMD", 0x19, 0x00, 0x0f, "Zen 3" },
	{ "AuthenticAMD", 0x19, 0x20, 0x2f, "Zen 3" },
	{ "AuthenticAMD", 0x19, 0x40, 0x5f, "Zen 3" },
	{ "AuthenticAMD", 0x19, 0x10, 0x1f, "Zen 4" },
	{ "AuthenticAMD", 0x19, 0x60, 0x7f, "Zen 4" },
	{ "AuthenticAMD", 0x19, 0xa0, 0xaf, "Zen 4" },
	{ "AuthenticAMD", 0x1a, 0x00, 0xff, "Zen 5" },
	{ NULL, 0x41, 0xd05, 0xd05, "Cortex-A55" },
	{ NULL, 0x41, 0xd0b, 0xd0b, "Cortex-A76" },
	{ NULL, 0x41, 0xd0c, 0xd0c, "Neoverse N1" },
	{ NULL, 0x41, 0xd40, 0xd40, "Neoverse V1" },
	{ NULL, 0x41, 0xd4f, 0xd4f, "Neoverse V2" },
};

const struct bandwidth_core *bandwidth_core_named(const char *name)
{
	for (size_t i = 0; i < MT_ARRAY_LEN(cores); i++)
		if (strcmp(cores[i].name, name) == 0)
			return &cores[i];
	return NULL;
}

const struct bandwidth_core *bandwidth_core_find(const struct bandwidth_cpu_id *id)
{
	if (id->amx && strcmp(id->vendor, "GenuineIntel") == 0 && id->family == 6)
		return bandwidth_core_named("Golden Cove");
	for (size_t i = 0; i < MT_ARRAY_LEN(ids); i++) {
		int x86 = ids[i].vendor != NULL;
		if (x86 ? strcmp(id->vendor, ids[i].vendor) == 0 && id->family == ids[i].family &&
				  id->model >= ids[i].lo && id->model <= ids[i].hi
			: id->implementer == ids[i].family && id->part >= ids[i].lo &&
				  id->part <= ids[i].hi && !id->vendor[0])
			return bandwidth_core_named(ids[i].core);
	}
	return NULL;
}

/* The number after the first ':' of line (base 0: "0x41" and "6"). */
static int field_value(const char *line, unsigned *out)
{
	const char *c = strchr(line, ':');
	char *end;
	unsigned long v;
	if (!c)
		return -1;
	v = strtoul(c + 1, &end, 0);
	if (end == c + 1 || v > 0xffffff)
		return -1;
	*out = (unsigned)v;
	return 0;
}

int bandwidth_cpu_id_parse(const char *text, struct bandwidth_cpu_id *id)
{
	const char *line = text;
	memset(id, 0, sizeof *id);
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[2048]; /* a flags line is about 1.5 KB */
		if (len >= sizeof buf)
			len = sizeof buf - 1;
		memcpy(buf, line, len);
		buf[len] = '\0';
		if (!len) /* the first CPU's block ends at its blank line */
			break;
		if (strncmp(buf, "vendor_id", 9) == 0 && strchr(buf, ':')) {
			const char *v = strchr(buf, ':') + 1;
			while (*v == ' ' || *v == '\t')
				v++;
			mt_printable(id->vendor, sizeof id->vendor, v, 0);
		} else if (strncmp(buf, "cpu family", 10) == 0) {
			field_value(buf, &id->family);
		} else if (strncmp(buf, "model", 5) == 0 && (buf[5] == ' ' || buf[5] == '\t' ||
							      buf[5] == ':')) {
			field_value(buf, &id->model);
		} else if (strncmp(buf, "flags", 5) == 0) {
			id->amx = strstr(buf, " amx_tile") != NULL;
		} else if (strncmp(buf, "CPU implementer", 15) == 0) {
			field_value(buf, &id->implementer);
		} else if (strncmp(buf, "CPU part", 8) == 0) {
			field_value(buf, &id->part);
		}
		line = nl ? nl + 1 : NULL;
	}
	return id->vendor[0] || id->implementer ? 0 : -1;
}

int bandwidth_cpu_id(struct bandwidth_cpu_id *id)
{
	char text[8192];
	memset(id, 0, sizeof *id);
	if (mt_plat_cpuinfo(text, sizeof text) < 0)
		return -1;
	return bandwidth_cpu_id_parse(text, id);
}

void bandwidth_cpu_id_text(const struct bandwidth_cpu_id *id, char *buf, size_t len)
{
	if (id->vendor[0])
		mt_snprintf(buf, len, "%s family 0x%x model 0x%x%s", id->vendor, id->family, id->model,
			    id->amx ? " with AMX" : "");
	else if (id->implementer)
		mt_snprintf(buf, len, "MIDR implementer 0x%x part 0x%x", id->implementer, id->part);
	else
		mt_strlcpy(buf, "an unknown CPU", len);
}

/* Bytes a cycle of the core's loads (stores: st) of width w bytes (8:
 * scalar), 0 unknown. */
static double port_bpc(const struct bandwidth_core *c, unsigned w, int st)
{
	unsigned n = st ? c->stores : (w <= 8 ? c->loads : c->vloads);
	unsigned most = st ? c->store_w : c->load_w, cap = st ? c->store_bpc : c->load_bpc;
	double v;
	if (!n || !most || !cap)
		return 0;
	v = (double)n * (w < most ? w : most);
	return v < cap ? v : cap;
}

double bandwidth_ceiling(const struct bandwidth_core *c, int kernel, const char *level, unsigned width,
			 const char **why)
{
	double ld, stb, l1 = 0, fill = 0;
	*why = "";
	if (!c)
		return 0;
	if (kernel == BANDWIDTH_WRITE_NT || kernel == BANDWIDTH_COPY_NT || kernel == BANDWIDTH_TRIAD_NT) {
		*why = "streaming stores bypass the caches";
		return 0;
	}
	ld = port_bpc(c, kernel == BANDWIDTH_READ ? 8 : width, 0);
	stb = port_bpc(c, width, 1);
	switch (kernel) {
	case BANDWIDTH_READ:
	case BANDWIDTH_READ_VECTOR:
	case BANDWIDTH_LOAD: l1 = ld; break;
	case BANDWIDTH_WRITE:
	case BANDWIDTH_FILL:
	case BANDWIDTH_FILL_ZERO: l1 = stb; break;
	case BANDWIDTH_COPY:
	case BANDWIDTH_COPY_LIB: l1 = ld > 0 && stb > 0 ? 2 / fmax(1 / ld, 1 / stb) : 0; break;
	case BANDWIDTH_TRIAD: l1 = ld > 0 && stb > 0 ? 3 / fmax(2 / ld, 1 / stb) : 0; break;
	default: return 0;
	}
	if (l1 <= 0) {
		*why = kernel == BANDWIDTH_READ || kernel == BANDWIDTH_READ_VECTOR || kernel == BANDWIDTH_LOAD
			       ? "no load figure for this core"
			       : "no store figure for this core";
		return 0;
	}
	if (strcmp(level, "L1") == 0) {
		*why = "the L1 ports";
		return l1;
	}
	if (strcmp(level, "L2") == 0)
		fill = c->l2_bpc;
	else if (strcmp(level, "L3") == 0)
		fill = c->l3_bpc;
	else {
		*why = level[0] ? "memory's bandwidth is the memory system's, not the core's"
				: "a size of no known level";
		return 0;
	}
	if (fill <= 0) {
		*why = "no fill figure for this level";
		return 0;
	}
	*why = strcmp(level, "L2") == 0 ? "the L2 fill" : "the L3 fill";
	return fill < l1 ? fill : l1;
}

double bandwidth_result_ghz(const struct bandwidth_result *r, int *measured)
{
	const struct diag *d = &r->hdr.diag;
	*measured = 1;
	if (r->hdr.has_diag && d->run_ghz_start > 0 && d->run_ghz_end > 0)
		return (d->run_ghz_start + d->run_ghz_end) / 2;
	if (r->hdr.has_diag && (d->run_ghz_start > 0 || d->run_ghz_end > 0))
		return d->run_ghz_start > 0 ? d->run_ghz_start : d->run_ghz_end;
	*measured = 0;
	return r->hdr.clock.core_ghz > 0 ? r->hdr.clock.core_ghz : 0;
}

const char *bandwidth_clock_name(int clock)
{
	switch (clock) {
	/* (the JSON's words; people's through _() where printed) */
	case BANDWIDTH_CLOCK_TRY: return N_("measured around the try");
	case BANDWIDTH_CLOCK_RUN: return N_("measured at the run's start and end");
	default: return N_("calibrated");
	}
}

int bandwidth_try_clocks(const struct bandwidth_result *r, double *lo, double *hi)
{
	int n = 0;
	*lo = *hi = 0;
	for (size_t s = 0; s < r->nsizes; s++)
		for (size_t k = 0; k < BANDWIDTH_NKERNELS; k++)
			for (size_t t = 0; t < r->nthreads; t++) {
				const struct bandwidth_cell *c = &r->cell[s][k][t];
				if (!c->have || !(c->ghz > 0))
					continue;
				*lo = n == 0 || c->ghz < *lo ? c->ghz : *lo;
				*hi = n == 0 || c->ghz > *hi ? c->ghz : *hi;
				n++;
			}
	return n;
}

int bandwidth_cell_share(const struct bandwidth_result *r, size_t si, int kernel, size_t ti,
			 struct bandwidth_share *out)
{
	const struct bandwidth_cell *c = &r->cell[si][kernel][ti];
	int measured;
	double run = bandwidth_result_ghz(r, &measured);
	double ghz = c->ghz > 0 ? c->ghz : run;
	memset(out, 0, sizeof *out);
	out->why = "";
	if (!c->have || ghz <= 0)
		return -1;
	out->ghz = ghz;
	out->clock = c->ghz > 0 ? BANDWIDTH_CLOCK_TRY : measured ? BANDWIDTH_CLOCK_RUN : BANDWIDTH_CLOCK_CALIBRATED;
	out->bpc = c->gbs / ghz / r->threads[ti].threads;
	out->run_ghz = run;
	out->run_bpc = run > 0 ? c->gbs / run / r->threads[ti].threads : 0;
	out->ceiling = bandwidth_ceiling(bandwidth_core_find(&r->cpu), kernel, r->sizes[si].level,
					 r->vector_bytes ? r->vector_bytes : 8, &out->why);
	if (!bandwidth_core_find(&r->cpu))
		out->why = "no ceiling known for this core";
	out->fraction = out->ceiling > 0 ? out->bpc / out->ceiling : 0;
	out->run_fraction = out->ceiling > 0 ? out->run_bpc / out->ceiling : 0;
	return 0;
}

/* The load ports' verdict, in English (the result's JSON) or, human, in the
 * user's language. */
static int ports_verdict(const struct bandwidth_result *r, char *buf, size_t len, int *shared,
			 int human)
{
	const struct bandwidth_core *c = bandwidth_core_find(&r->cpu);
	const char *why;
	double ceil, bpc[2] = { 0, 0 }, worst = 0;
	int n = 0;
	char at[200] = "";
	ceil = bandwidth_ceiling(c, BANDWIDTH_LOAD, "L1", r->vector_bytes ? r->vector_bytes : 8, &why);
	for (int i = 0; i < 2; i++)
		if (r->ports[i].have && r->ports[i].ghz > 0 && !r->ports[i].preempted) {
			bpc[i] = r->ports[i].gbs / r->ports[i].ghz;
			worst = n++ == 0 || bpc[i] < worst ? bpc[i] : worst;
		}
	if (!n || !(ceil > 0))
		return 0;
	*shared = worst < BANDWIDTH_PORTS_SHARED * ceil;
	if (!human) {
		mt_snprintf(buf, len, "load ports: the canary (load over 4K, one thread) read ");
		for (int i = 0, k = 0; i < 2; i++)
			if (bpc[i] > 0)
				mt_append(buf, len, "%s%.1f B/cycle at %.2f GHz %s the table",
					  k++ ? ", " : "", bpc[i], r->ports[i].ghz, i ? "after" : "before");
		mt_append(buf, len, ": %s%.0f %% of %s's %.0f", n > 1 ? "at worst " : "",
			  100 * worst / ceil, c->name, ceil);
		if (*shared)
			mt_append(buf, len, ", under %.0f %%: the core's load ports were shared (a "
				  "tenant on its SMT sibling) or slowed during the run, and the L1 "
				  "fractions are not the core's", 100 * BANDWIDTH_PORTS_SHARED);
		else
			mt_append(buf, len, ": the core's own load rate, no sign of a sharer");
		return 1;
	}
	for (int i = 0; i < 2; i++) {
		char one[96];
		if (!(bpc[i] > 0))
			continue;
		mt_hsnprintf(one, sizeof one,
			     i ? _("%.1f B/cycle at %.2f GHz after the table")
			       : _("%.1f B/cycle at %.2f GHz before the table"),
			     bpc[i], r->ports[i].ghz);
		mt_append(at, sizeof at, "%s%s", at[0] ? ", " : "", one);
	}
	/* TRANSLATORS: the load ports' verdict: the canary's reads, then its share of the
	 * core's L1 load ceiling (core name, bytes a cycle) */
	mt_hsnprintf(buf, len, n > 1 ? _("load ports: the canary (load over 4K, one thread) read "
				      "%s: at worst %.0f %% of %s's %.0f")
				    : _("load ports: the canary (load over 4K, one thread) read "
					"%s: %.0f %% of %s's %.0f"),
		     at, 100 * worst / ceil, c->name, ceil);
	if (*shared) {
		char more[300];
		mt_hsnprintf(more, sizeof more, _(", under %.0f %%: the core's load ports were shared "
						 "(a tenant on its SMT sibling) or slowed during the "
						 "run, and the L1 fractions are not the core's"),
			     100 * BANDWIDTH_PORTS_SHARED);
		mt_append(buf, len, "%s", more);
	} else {
		mt_append(buf, len, "%s", _(": the core's own load rate, no sign of a sharer"));
	}
	return 1;
}

int bandwidth_ports_verdict(const struct bandwidth_result *r, char *buf, size_t len, int *shared)
{
	return ports_verdict(r, buf, len, shared, 0);
}

int bandwidth_ports_verdict_said(const struct bandwidth_result *r, char *buf, size_t len,
				 int *shared)
{
	return ports_verdict(r, buf, len, shared, 1);
}
