/* conditions_differ: which recorded settings differ between two machines,
 * ordered by how much each is known to move a kind of figure, each with
 * its public source (conditions.h). The table below is the one place the
 * ranking lives: compare's "differs in" block and the fleet's readings
 * read it. */
#include "config.h"

#include "conditions.h"
#include "base/util.h"

#include <string.h>

/* One setting: what it moves, its source, and its rank for each family
 * (1 first; 0: it does not move those figures). A table is the clearest
 * form: a row a setting. */
static const struct effect {
	const char *field;
	const char *moves;
	const char *source;
	int rank[COND_FAM_SIZE + 1]; /* ANY, DRAM_BW, MEM_NS, CLOCKED, C2C, SIZE */
} effects[] = {
	{ "hypervisor",
	  "everything: a VM's vCPUs share host cores and caches, the host moves them, and each "
	  "TLB miss walks two page tables",
	  "Intel SDM vol. 3, EPT (two-dimensional page walks); AMD APM vol. 2, nested paging",
	  { 1, 3, 3, 3, 3, 1 } },
	{ "snc",
	  "DRAM bandwidth and latency: a node's memory is nearer and has fewer channels (SNC on "
	  "Xeon, NPS on EPYC)",
	  "Intel Xeon Scalable tuning guide, Sub-NUMA Clustering; AMD EPYC 9004 NPS tuning guide"
	  " (58008)",
	  { 2, 1, 1, 0, 5, 2 } },
	{ "dimms",
	  "DRAM bandwidth: the channels populated and the DIMMs' speed set its peak",
	  "AMD EPYC and Intel Xeon memory population guides; JEDEC DDR5 (JESD79-5)",
	  { 3, 2, 2, 0, 0, 0 } },
	{ "microcode",
	  "core-to-core latency and what mitigations cost",
	  "core-to-core-latency issues #107 and #115: one AGESA update moved a 9950X's cross-CCD"
	  " latency from 190-230 ns to 94-98 ns",
	  { 4, 0, 6, 6, 1, 0 } },
	{ "bios",
	  "core-to-core latency, memory timings and power limits the firmware sets",
	  "core-to-core-latency issues #107 and #115 (AGESA)",
	  { 5, 5, 5, 0, 2, 0 } },
	{ "governor",
	  "L1 and L2 figures: the core clock they scale with",
	  "Linux Documentation/admin-guide/pm/cpufreq.rst",
	  { 6, 0, 0, 1, 6, 0 } },
	{ "boost",
	  "L1 and L2 figures: turbo on or off sets the clock",
	  "Linux Documentation/admin-guide/pm/cpufreq.rst (boost)",
	  { 7, 0, 0, 2, 7, 0 } },
	{ "freq",
	  "L1 and L2 figures: the clock's limits",
	  "Linux cpufreq (cpuinfo_max_freq)",
	  { 8, 0, 0, 3, 0, 0 } },
	{ "thp",
	  "the TLB steps of a latency curve, and memory latency on 4 KB pages",
	  "Linux Documentation/admin-guide/mm/transhuge.rst",
	  { 9, 6, 4, 0, 0, 3 } },
	{ "thp_defrag",
	  "whether huge pages are had when asked",
	  "Linux Documentation/admin-guide/mm/transhuge.rst (defrag)",
	  { 10, 0, 7, 0, 0, 0 } },
	{ "smt",
	  "per-core bandwidth and the SMT pairs of a core-to-core matrix: siblings share a "
	  "core's ports and caches",
	  "Intel 64 and IA-32 Optimization Reference Manual, Hyper-Threading",
	  { 11, 4, 0, 4, 4, 0 } },
	{ "numa_balancing",
	  "where pages sit during a run: it moves them between nodes",
	  "Linux Documentation/admin-guide/sysctl/kernel.rst (numa_balancing)",
	  { 12, 7, 8, 0, 0, 0 } },
	{ "mitigations",
	  "what kernel entry and context switches cost",
	  "Linux Documentation/admin-guide/hw-vuln/",
	  { 13, 0, 0, 0, 0, 0 } },
	{ "kernel",
	  "page allocation, THP and scheduling",
	  "the kernels' release notes",
	  { 14, 0, 0, 0, 0, 0 } },
	{ "compiler",
	  "the code of the kernels memtop measures with",
	  "memtop's build line",
	  { 15, 0, 0, 5, 0, 0 } },
	{ "product",
	  "the machine itself",
	  "DMI (SMBIOS) system strings",
	  { 16, 0, 0, 0, 0, 0 } },
	{ "board",
	  "the machine itself",
	  "DMI (SMBIOS) board strings",
	  { 17, 0, 0, 0, 0, 0 } },
};

static int field_index(const char *name)
{
	for (int i = 0; i < COND_NFIELDS; i++)
		if (strcmp(mt_conditions_name(i), name) == 0)
			return i;
	return -1;
}

int mt_conditions_differ(const struct mt_conditions *a, const struct mt_conditions *b,
			 enum cond_family fam, struct cond_diff *out, int cap)
{
	int n = 0;
	if (!a->have || !b->have)
		return 0;
	/* by rank: the table's rows in the order of their rank for fam */
	for (int rank = 1; rank <= (int)MT_ARRAY_LEN(effects); rank++)
		for (size_t e = 0; e < MT_ARRAY_LEN(effects) && n < cap; e++) {
			const struct effect *x = &effects[e];
			int i = field_index(x->field);
			const struct cond_value *va, *vb;
			if (x->rank[fam] != rank || i < 0)
				continue;
			va = mt_conditions_field(a, i);
			vb = mt_conditions_field(b, i);
			if (!va->known || !vb->known || strcmp(va->text, vb->text) == 0)
				continue;
			out[n].field = i;
			out[n].name = x->field;
			out[n].label = mt_conditions_label(i);
			out[n].moves = x->moves;
			out[n].source = x->source;
			mt_strlcpy(out[n].a, va->text, sizeof out[n].a);
			mt_strlcpy(out[n].b, vb->text, sizeof out[n].b);
			n++;
		}
	return n;
}
