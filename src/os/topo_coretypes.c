/* The topo's core types (topo_hwloc.h): hwloc's CPU kinds fastest first,
 * named P/E/LP-E from CoreType or by rank (P/E on x86, big/mid/LITTLE
 * elsewhere), and on Arm regrouped one per CPU part when hwloc splits finer. */
#include "config.h"

#include "topo_hwloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* 1 when the machine is an x86 (its packages' CPUVendor or the root's
 * Architecture say so), so that two kinds are P and E rather than big and
 * LITTLE. */
static int is_x86(hwloc_topology_t h)
{
	hwloc_obj_t root = hwloc_get_root_obj(h);
	const char *arch = hwloc_obj_get_info_by_name(root, "Architecture");
	hwloc_obj_t p = hwloc_get_obj_by_type(h, HWLOC_OBJ_PACKAGE, 0);
	const char *vendor = p ? hwloc_obj_get_info_by_name(p, "CPUVendor") : NULL;
	if (arch && (strstr(arch, "x86") || strstr(arch, "86_64") ||
		     (arch[0] == 'i' && strstr(arch, "86"))))
		return 1;
	return vendor && (!strcmp(vendor, "GenuineIntel") || !strcmp(vendor, "AuthenticAMD") ||
			  !strcmp(vendor, "HygonGenuine"));
}

/* The name of the kind at rank i of n (0 the fastest) when hwloc gave no
 * CoreType: P/E(/LP-E) on x86, big/mid/LITTLE elsewhere, midN between them
 * beyond three. */
static void rank_name(char *buf, size_t len, int i, int n, int x86)
{
	if (n == 1)
		mt_strlcpy(buf, "one", len);
	else if (i == 0)
		mt_strlcpy(buf, x86 ? "P" : "big", len);
	else if (i == n - 1)
		mt_strlcpy(buf, x86 ? (n == 3 ? "LP-E" : "E") : "LITTLE", len);
	else if (n == 3)
		mt_strlcpy(buf, x86 ? "E" : "mid", len);
	else
		mt_snprintf(buf, len, "mid%d", i);
}

/* Fills kind k from hwloc's infos: its name from CoreType when hwloc read
 * one (IntelCore P, IntelAtom E, IntelLowPower LP-E) and the first info as
 * its detail. Returns 1 when the name came from CoreType, else 0. */
static int coretype_infos(struct topo_coretype *k, const struct hwloc_info_s *infos, unsigned ninfos)
{
	int named = 0;
	for (unsigned j = 0; j < ninfos; j++) {
		const char *v = infos[j].value ? infos[j].value : "";
		if (j == 0)
			mt_snprintf(k->detail, sizeof k->detail, "%s=%s", infos[j].name, v);
		if (strcmp(infos[j].name, "CoreType"))
			continue;
		named = 1;
		if (!strcmp(v, "IntelCore"))
			mt_strlcpy(k->name, "P", sizeof k->name);
		else if (!strcmp(v, "IntelAtom"))
			mt_strlcpy(k->name, "E", sizeof k->name);
		else if (!strcmp(v, "IntelLowPower"))
			mt_strlcpy(k->name, "LP-E", sizeof k->name);
		else
			named = 0;
	}
	return named;
}

/* See topo_hwloc.h. */
int topo_copy_coretypes(struct topo *t, hwloc_topology_t h)
{
	int nk = hwloc_cpukinds_get_nr(h, 0), x86 = is_x86(h), rc = -1;
	hwloc_bitmap_t bm = hwloc_bitmap_alloc();
	if (!bm)
		return -1;
	if (nk < 1)
		nk = 1;
	t->coretypes = calloc((size_t)nk, sizeof *t->coretypes);
	if (!t->coretypes)
		goto out;
	for (int i = 0; i < nk; i++) {
		struct topo_coretype *k = &t->coretypes[i];
		struct hwloc_info_s *infos = NULL;
		unsigned ninfos = 0;
		int eff = -1;
		/* hwloc ranks its kinds least performant first; ours go fastest first */
		/* one kind is the whole machine, whatever CPUs hwloc gave it */
		if (hwloc_cpukinds_get_nr(h, 0) < 2 ||
		    hwloc_cpukinds_get_info(h, (unsigned)(nk - 1 - i), bm, &eff, &ninfos, &infos,
					    0) < 0)
			hwloc_bitmap_copy(bm, hwloc_topology_get_topology_cpuset(h));
		k->efficiency = eff;
		if (!coretype_infos(k, infos, ninfos) || nk == 1)
			rank_name(k->name, sizeof k->name, i, nk, x86);
		t->ncoretypes = i + 1;
		if (topo_set_from(bm, &k->cpus) < 0)
			goto out;
		if (k->cpus.n > 0) {
			hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(h, (unsigned)k->cpus.cpus[0]);
			k->l1d = pu ? topo_ancestor_size(pu, HWLOC_OBJ_L1CACHE) : 0;
			k->l2 = pu ? topo_ancestor_size(pu, HWLOC_OBJ_L2CACHE) : 0;
		}
	}
	rc = 0;
out:
	hwloc_bitmap_free(bm);
	return rc;
}

/* See topo_hwloc.h. */
void topo_mark_coretypes(struct topo *t)
{
	for (int k = 0; k < t->ncoretypes; k++)
		for (int j = 0; j < t->coretypes[k].cpus.n; j++) {
			struct topo_cpu *c = (struct topo_cpu *)topo_cpu(t, t->coretypes[k].cpus.cpus[j]);
			if (c && c->coretype < 0)
				c->coretype = k;
		}
}

/* The implementer and part number of CPU cpu (implementer << 12 | part)
 * from its MIDR_EL1 register as Linux shows it under root ("" this
 * machine), or -1 when it does not (not an Arm, or an older kernel). */
static long midr_part(const char *root, int cpu)
{
	char path[4096], *text, *end;
	mt_error e;
	unsigned long long v;
	mt_snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpu%d/regs/identification/midr_el1",
		    root, cpu);
	text = mt_read_file(path, 64, NULL, &e);
	if (!text)
		return -1;
	errno = 0;
	v = strtoull(text, &end, 16);
	if (errno || end == text)
		v = ~0ull;
	free(text);
	return v == ~0ull ? -1 : (long)((((v >> 24) & 0xff) << 12) | ((v >> 4) & 0xfff));
}

/* The kinds of the Arm CPU parts of t (parts[i] for t->cpus[i], m of them
 * in first-seen order in uniq[]), fastest first: each ranked by its slowest
 * CPU's kind in hwloc's finer split (by capacity or frequency), as hwloc
 * itself does from 2.12 on. Returns the new array, or NULL. */
static struct topo_coretype *part_coretypes(const struct topo *t, hwloc_topology_t h, const long *parts,
				    const long *uniq, int m)
{
	struct topo_coretype *k = calloc((size_t)m, sizeof *k);
	int *slowest = calloc((size_t)m, sizeof *slowest);
	if (!k || !slowest)
		goto fail;
	for (int g = 0; g < m; g++) {
		k[g].cpus.cpus = calloc((size_t)t->ncpus, sizeof(int));
		if (!k[g].cpus.cpus)
			goto fail;
		for (int i = 0; i < t->ncpus; i++) {
			if (parts[i] != uniq[g])
				continue;
			k[g].cpus.cpus[k[g].cpus.n++] = t->cpus[i].os;
			slowest[g] = t->cpus[i].coretype > slowest[g] ? t->cpus[i].coretype : slowest[g];
		}
		k[g].efficiency = t->coretypes[slowest[g]].efficiency;
		mt_snprintf(k[g].detail, sizeof k[g].detail, "CPUPart=0x%03lx", uniq[g] & 0xfff);
	}
	/* fastest first: insertion sort by the slowest member's rank (m is small) */
	for (int a = 1; a < m; a++)
		for (int b = a; b > 0 && slowest[b] < slowest[b - 1]; b--) {
			struct topo_coretype tk = k[b];
			int ts = slowest[b];
			k[b] = k[b - 1], slowest[b] = slowest[b - 1];
			k[b - 1] = tk, slowest[b - 1] = ts;
		}
	for (int g = 0; g < m; g++) {
		hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(h, (unsigned)k[g].cpus.cpus[0]);
		k[g].l1d = topo_ancestor_size(pu, HWLOC_OBJ_L1CACHE);
		k[g].l2 = topo_ancestor_size(pu, HWLOC_OBJ_L2CACHE);
		rank_name(k[g].name, sizeof k[g].name, g, m, 0);
	}
	free(slowest);
	return k;
fail:
	for (int g = 0; k && g < m; g++)
		free(k[g].cpus.cpus);
	free(k);
	free(slowest);
	return NULL;
}

/* See topo_hwloc.h. hwloc before 2.12 splits Arm kinds by capacity, which
 * differs core to core on some chips (NVIDIA GB10: five kinds for its X925
 * and A725 cores). */
int topo_regroup_by_part(struct topo *t, hwloc_topology_t h, const char *root)
{
	long *parts = calloc((size_t)t->ncpus + 1, sizeof *parts);
	long *uniq = calloc((size_t)t->ncoretypes + 1, sizeof *uniq);
	struct topo_coretype *k = NULL;
	int m = 0, rc = -1;
	if (!parts || !uniq)
		goto out;
	rc = 0;
	if (t->ncoretypes < 2 || is_x86(h))
		goto out;
	for (int i = 0; i < t->ncpus; i++) {
		int seen = 0;
		parts[i] = midr_part(root, t->cpus[i].os);
		if (parts[i] < 0 || t->cpus[i].coretype < 0)
			goto out;
		for (int g = 0; g < m; g++)
			seen |= uniq[g] == parts[i];
		if (!seen && m >= t->ncoretypes - 1)
			goto out; /* as many parts as kinds: hwloc's split stands */
		if (!seen)
			uniq[m++] = parts[i];
	}
	k = part_coretypes(t, h, parts, uniq, m);
	if (!k) {
		rc = -1;
		goto out;
	}
	for (int i = 0; i < t->ncoretypes; i++)
		free(t->coretypes[i].cpus.cpus);
	free(t->coretypes);
	t->coretypes = k;
	t->ncoretypes = m;
	for (int i = 0; i < t->ncpus; i++)
		t->cpus[i].coretype = -1;
	topo_mark_coretypes(t);
out:
	free(parts);
	free(uniq);
	return rc;
}
