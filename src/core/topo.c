/* The machine above the core, from hwloc (topo.h). The only file that
 * includes hwloc.h: it loads hwloc's topology once, copies what memtop uses
 * into plain arrays and lets hwloc go. */
#include "config.h"

#include "topo.h"

#include <hwloc.h>

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define TOPO_MAX_CPU 65536 /* the largest OS index a CPU list may name */

/* ---- the recorded tree: checked before hwloc sees it ---------------------- */

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Parses a Linux CPU list ("0-3,8,10-11\n") into bm. Returns 0, or -1 on
 * anything else (an empty list included). */
static int parse_cpu_list(const char *s, hwloc_bitmap_t bm)
{
	const char *p = s;
	int any = 0;
	hwloc_bitmap_zero(bm);
	while (*p && *p != '\n') {
		char *end;
		long a, b;
		if (!isdigit((unsigned char)*p))
			return -1;
		errno = 0;
		a = strtol(p, &end, 10);
		b = a;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -1;
			b = strtol(end + 1, &end, 10);
		}
		if (errno || a > b || b >= TOPO_MAX_CPU)
			return -1;
		if (hwloc_bitmap_set_range(bm, (unsigned)a, (int)b) < 0)
			return -1;
		any = 1;
		p = end;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
	}
	if (*p == '\n' && p[1] != '\0')
		return -1;
	return any ? 0 : -1;
}

/* The tree under root has sys/devices/system/cpu, its online list (when
 * recorded) parses, and a folder for every CPU the list names; online is
 * set to that list (left empty when not recorded). Returns 0, or -1 with e
 * naming what is missing or garbled. */
static int check_tree(const char *root, hwloc_bitmap_t online, mt_error *e)
{
	char path[4096];
	char *text = NULL;
	mt_error re;
	unsigned cpu;
	hwloc_bitmap_zero(online);
	if (!is_dir(root))
		return mt_fail(e, "%s: not a folder", root);
	mt_snprintf(path, sizeof path, "%s/sys/devices/system/cpu", root);
	if (!is_dir(path))
		return mt_fail(e, "%s: no sys/devices/system/cpu in it: not a recorded Linux /sys "
				  "tree", root);
	mt_snprintf(path, sizeof path, "%s/sys/devices/system/cpu/online", root);
	text = mt_read_file(path, 1 << 16, NULL, &re);
	if (!text) {
		mt_snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpu0", root);
		if (!is_dir(path))
			return mt_fail(e, "%s: missing (and no online list)", path);
		return 0;
	}
	if (parse_cpu_list(text, online) < 0) {
		free(text);
		return mt_fail(e, "%s/sys/devices/system/cpu/online: not a CPU list", root);
	}
	free(text);
	hwloc_bitmap_foreach_begin(cpu, online) {
		mt_snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpu%u", root, cpu);
		if (!is_dir(path))
			return mt_fail(e, "%s: missing (the online list names CPU %u)", path, cpu);
	} hwloc_bitmap_foreach_end();
	return 0;
}

/* ---- hwloc, with the environment it reads set for a recorded tree ------- */

static const char *const env_names[] = { "HWLOC_FSROOT", "HWLOC_COMPONENTS" };
#define NENV (sizeof env_names / sizeof env_names[0])

/* Sets the hwloc variables that make it read root alone (its linux backend,
 * no x86 CPUID of this machine: "linux,stop"), keeping the old values in
 * saved[]. Returns 0, or -1 when out of memory. */
static int env_push(const char *root, char *saved[NENV])
{
	const char *values[NENV] = { root, "linux,stop" };
	for (size_t i = 0; i < NENV; i++) {
		const char *old = getenv(env_names[i]);
		saved[i] = old ? strdup(old) : NULL;
		if ((old && !saved[i]) || setenv(env_names[i], values[i], 1) < 0)
			return -1;
	}
	return 0;
}

/* Puts back what env_push changed and frees saved[]. */
static void env_pop(char *saved[NENV])
{
	for (size_t i = 0; i < NENV; i++) {
		if (saved[i])
			setenv(env_names[i], saved[i], 1);
		else
			unsetenv(env_names[i]);
		free(saved[i]);
		saved[i] = NULL;
	}
}

/* Loads hwloc's topology of this machine (root NULL) or of root. Returns
 * it, or NULL with e set. */
static hwloc_topology_t hw_load(const char *root, mt_error *e)
{
	hwloc_topology_t h = NULL;
	char *saved[NENV] = { NULL, NULL };
	int pushed = 0;
	if (hwloc_topology_init(&h) < 0) {
		mt_fail(e, "hwloc: cannot start: %s", strerror(errno));
		return NULL;
	}
	/* instruction caches too (hwloc drops them by default): memtop info lists them */
	if (hwloc_topology_set_flags(h, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED) < 0 ||
	    hwloc_topology_set_icache_types_filter(h, HWLOC_TYPE_FILTER_KEEP_ALL) < 0)
		goto fail;
	if (root) {
		if (env_push(root, saved) < 0)
			goto fail;
		pushed = 1;
	}
	if (hwloc_topology_load(h) < 0)
		goto fail;
	if (pushed)
		env_pop(saved);
	return h;
fail:
	mt_fail(e, "hwloc: cannot load the topology of %s: %s", root ? root : "this machine",
		strerror(errno));
	if (pushed)
		env_pop(saved);
	hwloc_topology_destroy(h);
	return NULL;
}

/* ---- copying hwloc's objects into the topo -------------------------------- */

static int set_from(hwloc_const_bitmap_t bm, struct topo_set *s)
{
	int w = hwloc_bitmap_weight(bm), i = 0;
	unsigned cpu;
	s->n = 0;
	s->cpus = NULL;
	if (w <= 0)
		return 0;
	s->cpus = calloc((size_t)w, sizeof *s->cpus);
	if (!s->cpus)
		return -1;
	hwloc_bitmap_foreach_begin(cpu, bm) {
		if (i < w)
			s->cpus[i++] = (int)cpu;
	} hwloc_bitmap_foreach_end();
	s->n = i;
	return 0;
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct topo_cpu *x = a, *y = b;
	return (x->os > y->os) - (x->os < y->os);
}

static int cmp_node(const void *a, const void *b)
{
	const struct topo_node *x = a, *y = b;
	return (x->os_index > y->os_index) - (x->os_index < y->os_index);
}

/* pu's nearest ancestor of type ty, or NULL. */
static hwloc_obj_t ancestor(hwloc_obj_t pu, hwloc_obj_type_t ty)
{
	hwloc_obj_t o = pu ? pu->parent : NULL;
	while (o && o->type != ty)
		o = o->parent;
	return o;
}

/* The logical index of pu's ancestor of type ty, or -1. */
static int ancestor_index(hwloc_obj_t pu, hwloc_obj_type_t ty)
{
	hwloc_obj_t o = ancestor(pu, ty);
	return o ? (int)o->logical_index : -1;
}

/* The size of pu's ancestor cache of type ty, or 0. */
static uint64_t ancestor_size(hwloc_obj_t pu, hwloc_obj_type_t ty)
{
	hwloc_obj_t o = ancestor(pu, ty);
	return o && o->attr ? (uint64_t)o->attr->cache.size : 0;
}

/* The index into t->nodes of the node local to pu (its nearest ancestor's
 * first memory child), or -1. */
static int pu_node(const struct topo *t, hwloc_obj_t pu)
{
	hwloc_obj_t o = pu, m;
	while (o && !o->memory_arity)
		o = o->parent;
	if (!o)
		return -1;
	m = o->memory_first_child;
	while (m && m->type != HWLOC_OBJ_NUMANODE)
		m = m->memory_first_child;
	if (!m)
		return -1;
	for (int i = 0; i < t->nnodes; i++)
		if (t->nodes[i].os_index == (int)m->os_index)
			return i;
	return -1;
}

static int copy_nodes(struct topo *t, hwloc_topology_t h)
{
	int n = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_NUMANODE);
	if (n <= 0)
		return 0;
	t->nodes = calloc((size_t)n, sizeof *t->nodes);
	if (!t->nodes)
		return -1;
	for (int i = 0; i < n; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(h, HWLOC_OBJ_NUMANODE, (unsigned)i);
		if (!o)
			return -1;
		t->nodes[i].os_index = (int)o->os_index;
		t->nodes[i].memory = o->attr ? o->attr->numanode.local_memory : 0;
		t->nnodes = i + 1;
		if (set_from(o->cpuset, &t->nodes[i].cpus) < 0)
			return -1;
	}
	qsort(t->nodes, (size_t)t->nnodes, sizeof *t->nodes, cmp_node);
	return 0;
}

static int copy_caches(hwloc_topology_t h, hwloc_obj_type_t ty, struct topo_cache_group **out,
		       int *nout)
{
	int n = hwloc_get_nbobjs_by_type(h, ty);
	*out = NULL;
	*nout = 0;
	if (n <= 0)
		return 0;
	*out = calloc((size_t)n, sizeof **out);
	if (!*out)
		return -1;
	for (int i = 0; i < n; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(h, ty, (unsigned)i);
		if (!o)
			return -1;
		(*out)[i].size = o->attr ? o->attr->cache.size : 0;
		*nout = i + 1;
		if (set_from(o->cpuset, &(*out)[i].cpus) < 0)
			return -1;
	}
	return 0;
}

/* Every cache object of h (any level and type) into t->caches. */
static int copy_all_caches(struct topo *t, hwloc_topology_t h)
{
	int n = 0;
	for (int d = 0; d < hwloc_topology_get_depth(h); d++)
		if (hwloc_obj_type_is_cache(hwloc_get_depth_type(h, d)))
			n += hwloc_get_nbobjs_by_depth(h, d);
	if (n <= 0)
		return 0;
	t->caches = calloc((size_t)n, sizeof *t->caches);
	if (!t->caches)
		return -1;
	for (int d = 0; d < hwloc_topology_get_depth(h); d++) {
		if (!hwloc_obj_type_is_cache(hwloc_get_depth_type(h, d)))
			continue;
		for (unsigned i = 0; i < (unsigned)hwloc_get_nbobjs_by_depth(h, d) && t->ncaches < n;
		     i++) {
			hwloc_obj_t o = hwloc_get_obj_by_depth(h, d, i);
			struct topo_cache *c = &t->caches[t->ncaches];
			if (!o || !o->attr)
				continue;
			c->level = (int)o->attr->cache.depth;
			mt_strlcpy(c->type, o->attr->cache.type == HWLOC_OBJ_CACHE_DATA ? "data"
					    : o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION
						? "instruction"
						: "unified",
				   sizeof c->type);
			c->size = o->attr->cache.size;
			c->ways = o->attr->cache.associativity;
			c->line = (int)o->attr->cache.linesize;
			t->ncaches++;
			if (set_from(o->cpuset, &c->cpus) < 0)
				return -1;
		}
	}
	return 0;
}

static int copy_smt(struct topo *t, hwloc_topology_t h)
{
	if (t->cores <= 0)
		return 0;
	t->smt = calloc((size_t)t->cores, sizeof *t->smt);
	if (!t->smt)
		return -1;
	for (int i = 0; i < t->cores; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(h, HWLOC_OBJ_CORE, (unsigned)i);
		if (!o)
			return -1;
		if (hwloc_bitmap_weight(o->cpuset) < 2)
			continue;
		if (set_from(o->cpuset, &t->smt[t->nsmt]) < 0)
			return -1;
		t->nsmt++;
	}
	return 0;
}

/* The CPUs this thread may run on (sched_getaffinity) into bm. Returns 0, or
 * -1 when the kernel will not say. */
static int affinity(hwloc_bitmap_t bm)
{
	cpu_set_t set;
	hwloc_bitmap_zero(bm);
	if (sched_getaffinity(0, sizeof set, &set) < 0)
		return -1;
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			hwloc_bitmap_set(bm, (unsigned)i);
	return 0;
}

static int copy_cpus(struct topo *t, hwloc_topology_t h, int live)
{
	int n = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PU);
	hwloc_bitmap_t allowed = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(h));
	hwloc_bitmap_t mine = hwloc_bitmap_alloc();
	int rc = -1;
	if (n <= 0 || !allowed || !mine)
		goto out;
	if (live && affinity(mine) == 0)
		hwloc_bitmap_and(allowed, allowed, mine);
	t->cpus = calloc((size_t)n, sizeof *t->cpus);
	if (!t->cpus)
		goto out;
	for (int i = 0; i < n; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(h, HWLOC_OBJ_PU, (unsigned)i);
		struct topo_cpu *c = &t->cpus[i];
		if (!pu)
			goto out;
		c->os = (int)pu->os_index;
		c->allowed = hwloc_bitmap_isset(allowed, pu->os_index);
		c->core = ancestor_index(pu, HWLOC_OBJ_CORE);
		c->package = ancestor_index(pu, HWLOC_OBJ_PACKAGE);
		c->die = ancestor_index(pu, HWLOC_OBJ_DIE);
		c->l2 = ancestor_index(pu, HWLOC_OBJ_L2CACHE);
		c->l3 = ancestor_index(pu, HWLOC_OBJ_L3CACHE);
		c->node = pu_node(t, pu);
		c->kind = -1;
		t->nallowed += c->allowed;
	}
	t->ncpus = n;
	qsort(t->cpus, (size_t)n, sizeof *t->cpus, cmp_cpu);
	rc = 0;
out:
	hwloc_bitmap_free(allowed);
	hwloc_bitmap_free(mine);
	return rc;
}

/* ---- core kinds --------------------------------------------------------------- */

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
static int kind_infos(struct topo_kind *k, const struct hwloc_info_s *infos, unsigned ninfos)
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

static int copy_kinds(struct topo *t, hwloc_topology_t h)
{
	int nk = hwloc_cpukinds_get_nr(h, 0), x86 = is_x86(h), rc = -1;
	hwloc_bitmap_t bm = hwloc_bitmap_alloc();
	if (!bm)
		return -1;
	if (nk < 1)
		nk = 1;
	t->kinds = calloc((size_t)nk, sizeof *t->kinds);
	if (!t->kinds)
		goto out;
	for (int i = 0; i < nk; i++) {
		struct topo_kind *k = &t->kinds[i];
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
		if (!kind_infos(k, infos, ninfos) || nk == 1)
			rank_name(k->name, sizeof k->name, i, nk, x86);
		t->nkinds = i + 1;
		if (set_from(bm, &k->cpus) < 0)
			goto out;
		if (k->cpus.n > 0) {
			hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(h, (unsigned)k->cpus.cpus[0]);
			k->l1d = pu ? ancestor_size(pu, HWLOC_OBJ_L1CACHE) : 0;
			k->l2 = pu ? ancestor_size(pu, HWLOC_OBJ_L2CACHE) : 0;
		}
	}
	rc = 0;
out:
	hwloc_bitmap_free(bm);
	return rc;
}

/* Marks each CPU with the kind it belongs to. */
static void mark_kinds(struct topo *t)
{
	for (int k = 0; k < t->nkinds; k++)
		for (int j = 0; j < t->kinds[k].cpus.n; j++) {
			struct topo_cpu *c = (struct topo_cpu *)topo_cpu(t, t->kinds[k].cpus.cpus[j]);
			if (c && c->kind < 0)
				c->kind = k;
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
static struct topo_kind *part_kinds(const struct topo *t, hwloc_topology_t h, const long *parts,
				    const long *uniq, int m)
{
	struct topo_kind *k = calloc((size_t)m, sizeof *k);
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
			slowest[g] = t->cpus[i].kind > slowest[g] ? t->cpus[i].kind : slowest[g];
		}
		k[g].efficiency = t->kinds[slowest[g]].efficiency;
		mt_snprintf(k[g].detail, sizeof k[g].detail, "CPUPart=0x%03lx", uniq[g] & 0xfff);
	}
	/* fastest first: insertion sort by the slowest member's rank (m is small) */
	for (int a = 1; a < m; a++)
		for (int b = a; b > 0 && slowest[b] < slowest[b - 1]; b--) {
			struct topo_kind tk = k[b];
			int ts = slowest[b];
			k[b] = k[b - 1], slowest[b] = slowest[b - 1];
			k[b - 1] = tk, slowest[b - 1] = ts;
		}
	for (int g = 0; g < m; g++) {
		hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(h, (unsigned)k[g].cpus.cpus[0]);
		k[g].l1d = ancestor_size(pu, HWLOC_OBJ_L1CACHE);
		k[g].l2 = ancestor_size(pu, HWLOC_OBJ_L2CACHE);
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

/* On Arm, hwloc before 2.12 splits kinds by capacity, which differs core to
 * core on some chips (NVIDIA GB10: five kinds for its X925 and A725 cores);
 * when every CPU shows its MIDR and there are fewer parts than kinds, the
 * kinds become one per part (big, LITTLE). Returns 0, or -1 when out of
 * memory. */
static int regroup_by_part(struct topo *t, hwloc_topology_t h, const char *root)
{
	long *parts = calloc((size_t)t->ncpus + 1, sizeof *parts);
	long *uniq = calloc((size_t)t->nkinds + 1, sizeof *uniq);
	struct topo_kind *k = NULL;
	int m = 0, rc = -1;
	if (!parts || !uniq)
		goto out;
	rc = 0;
	if (t->nkinds < 2 || is_x86(h))
		goto out;
	for (int i = 0; i < t->ncpus; i++) {
		int seen = 0;
		parts[i] = midr_part(root, t->cpus[i].os);
		if (parts[i] < 0 || t->cpus[i].kind < 0)
			goto out;
		for (int g = 0; g < m; g++)
			seen |= uniq[g] == parts[i];
		if (!seen && m >= t->nkinds - 1)
			goto out; /* as many parts as kinds: hwloc's split stands */
		if (!seen)
			uniq[m++] = parts[i];
	}
	k = part_kinds(t, h, parts, uniq, m);
	if (!k) {
		rc = -1;
		goto out;
	}
	for (int i = 0; i < t->nkinds; i++)
		free(t->kinds[i].cpus.cpus);
	free(t->kinds);
	t->kinds = k;
	t->nkinds = m;
	for (int i = 0; i < t->ncpus; i++)
		t->cpus[i].kind = -1;
	mark_kinds(t);
out:
	free(parts);
	free(uniq);
	return rc;
}

/* Copies everything memtop uses out of h into t. Returns 0, or -1 when out
 * of memory or when h has no CPU. */
static int copy_all(struct topo *t, hwloc_topology_t h, const char *root)
{
	t->packages = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PACKAGE);
	t->dies = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_DIE);
	t->cores = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_CORE);
	if (t->packages < 0 || t->dies < 0 || t->cores < 0)
		return -1;
	if (copy_nodes(t, h) < 0 || copy_cpus(t, h, !root) < 0)
		return -1;
	if (copy_caches(h, HWLOC_OBJ_L2CACHE, &t->l2, &t->nl2) < 0 ||
	    copy_caches(h, HWLOC_OBJ_L3CACHE, &t->l3, &t->nl3) < 0)
		return -1;
	if (copy_smt(t, h) < 0 || copy_kinds(t, h) < 0 || copy_all_caches(t, h) < 0)
		return -1;
	mark_kinds(t);
	return regroup_by_part(t, h, root ? root : "");
}

/* hwloc's CPUs are the ones the tree's online list names. Returns 0, or -1
 * with e saying how they differ. */
static int check_cpus(const struct topo *t, hwloc_const_bitmap_t online, const char *root,
		      mt_error *e)
{
	hwloc_bitmap_t got = hwloc_bitmap_alloc();
	int same;
	if (!got)
		return mt_fail(e, "out of memory");
	for (int i = 0; i < t->ncpus; i++)
		hwloc_bitmap_set(got, (unsigned)t->cpus[i].os);
	same = hwloc_bitmap_iszero(online) || hwloc_bitmap_isequal(got, online);
	hwloc_bitmap_free(got);
	if (!same)
		return mt_fail(e, "%s/sys/devices/system/cpu: hwloc found %d CPUs, the online list "
				  "names %d (a garbled tree)", root, t->ncpus,
			       hwloc_bitmap_weight(online));
	return 0;
}

int topo_load(const char *sysfs_root, struct topo **out, mt_error *e)
{
	hwloc_bitmap_t online = hwloc_bitmap_alloc();
	hwloc_topology_t h = NULL;
	struct topo *t = NULL;
	*out = NULL;
	if (!online) {
		mt_fail(e, "out of memory");
		goto fail;
	}
	if (sysfs_root && check_tree(sysfs_root, online, e) < 0)
		goto fail;
	h = hw_load(sysfs_root, e);
	if (!h)
		goto fail;
	t = calloc(1, sizeof *t);
	if (!t || copy_all(t, h, sysfs_root) < 0) {
		mt_fail(e, "%s: hwloc found no CPU (or memory ran out)",
			sysfs_root ? sysfs_root : "this machine");
		goto fail;
	}
	if (sysfs_root && check_cpus(t, online, sysfs_root, e) < 0)
		goto fail;
	if (sysfs_root)
		mt_strlcpy(t->source, sysfs_root, sizeof t->source);
	else if (getenv("HWLOC_XMLFILE") && *getenv("HWLOC_XMLFILE"))
		mt_snprintf(t->source, sizeof t->source, "this machine as HWLOC_XMLFILE=%s describes it",
			    getenv("HWLOC_XMLFILE"));
	else
		mt_strlcpy(t->source, "this machine", sizeof t->source);
	hwloc_topology_destroy(h);
	hwloc_bitmap_free(online);
	*out = t;
	return 0;
fail:
	topo_free(t);
	if (h)
		hwloc_topology_destroy(h);
	hwloc_bitmap_free(online);
	return -1;
}

static struct topo *this_machine;

static void load_this_machine(void)
{
	mt_error e;
	if (topo_load(NULL, &this_machine, &e) < 0)
		this_machine = NULL;
}

const struct topo *topo_this_machine(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, load_this_machine);
	return this_machine;
}

void topo_free(struct topo *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->nnodes; i++)
		free(t->nodes[i].cpus.cpus);
	for (int i = 0; i < t->nl2; i++)
		free(t->l2[i].cpus.cpus);
	for (int i = 0; i < t->nl3; i++)
		free(t->l3[i].cpus.cpus);
	for (int i = 0; i < t->nsmt; i++)
		free(t->smt[i].cpus);
	for (int i = 0; i < t->nkinds; i++)
		free(t->kinds[i].cpus.cpus);
	for (int i = 0; i < t->ncaches; i++)
		free(t->caches[i].cpus.cpus);
	free(t->caches);
	free(t->nodes);
	free(t->l2);
	free(t->l3);
	free(t->smt);
	free(t->kinds);
	free(t->cpus);
	free(t);
}

/* ---- questions ------------------------------------------------------------------ */

const struct topo_cpu *topo_cpu(const struct topo *t, int cpu)
{
	int lo = 0, hi = t ? t->ncpus - 1 : -1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (t->cpus[mid].os == cpu)
			return &t->cpus[mid];
		if (t->cpus[mid].os < cpu)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

enum topo_rel topo_relation(const struct topo *t, int cpu_a, int cpu_b)
{
	const struct topo_cpu *a = topo_cpu(t, cpu_a), *b = topo_cpu(t, cpu_b);
	if (!a || !b)
		return TOPO_REL_UNKNOWN;
	if (a->os == b->os)
		return TOPO_REL_SAME_CPU;
	if (a->core >= 0 && a->core == b->core)
		return TOPO_REL_SMT;
	if (a->l2 >= 0 && a->l2 == b->l2)
		return TOPO_REL_SAME_L2;
	if (a->l3 >= 0 && a->l3 == b->l3)
		return TOPO_REL_SAME_L3;
	/* a node shared across sockets (one node, two packages) is still "other socket" */
	if (a->package >= 0 && b->package >= 0 && a->package != b->package)
		return TOPO_REL_OTHER_PACKAGE;
	if (a->node >= 0 && a->node == b->node)
		return TOPO_REL_SAME_NODE;
	if (a->package >= 0 && a->package == b->package)
		return TOPO_REL_SAME_PACKAGE;
	return TOPO_REL_UNKNOWN;
}

const char *topo_rel_name(enum topo_rel r)
{
	/* a table is the clearest form */
	static const char *const names[TOPO_NREL] = {
		[TOPO_REL_SAME_CPU] = "same CPU",
		[TOPO_REL_SMT] = "SMT siblings",
		[TOPO_REL_SAME_L2] = "separate cores, same L2",
		[TOPO_REL_SAME_L3] = "same L3 group",
		[TOPO_REL_SAME_NODE] = "same NUMA node",
		[TOPO_REL_SAME_PACKAGE] = "same package",
		[TOPO_REL_OTHER_PACKAGE] = "other socket",
		[TOPO_REL_UNKNOWN] = "unknown",
	};
	if ((int)r < 0 || r >= TOPO_NREL)
		return names[TOPO_REL_UNKNOWN];
	return names[r];
}

int topo_kind_find(const struct topo *t, const char *name)
{
	for (int k = 0; t && name && k < t->nkinds; k++)
		if (!strcasecmp(t->kinds[k].name, name))
			return k;
	return -1;
}

const char *topo_kind_names(const struct topo *t, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int k = 0; t && k < t->nkinds; k++)
		mt_append(buf, len, "%s%s", k ? ", " : "", t->kinds[k].name);
	return buf;
}

int topo_kind_first_allowed(const struct topo *t, int k)
{
	if (!t || k < 0 || k >= t->nkinds)
		return -1;
	for (int j = 0; j < t->kinds[k].cpus.n; j++) {
		const struct topo_cpu *c = topo_cpu(t, t->kinds[k].cpus.cpus[j]);
		if (c && c->allowed)
			return c->os;
	}
	return -1;
}

const char *topo_place_text(const struct topo *t, int cpu, char *buf, size_t len)
{
	const struct topo_cpu *c = topo_cpu(t, cpu);
	const char *sep = ": ";
	mt_snprintf(buf, len, "CPU %d", cpu);
	if (!c) {
		mt_append(buf, len, ": not in the topology");
		return buf;
	}
	if (c->kind >= 0) {
		mt_append(buf, len, "%score kind %s", sep, t->kinds[c->kind].name);
		sep = ", ";
	}
	if (c->l3 >= 0) {
		mt_append(buf, len, "%sL3 group %d", sep, c->l3);
		sep = ", ";
	}
	if (c->node >= 0) {
		mt_append(buf, len, "%sNUMA node %d", sep, t->nodes[c->node].os_index);
		sep = ", ";
	}
	if (c->package >= 0)
		mt_append(buf, len, "%spackage %d", sep, c->package);
	return buf;
}

const char *topo_set_text(const struct topo_set *s, char *buf, size_t len)
{
	buf[0] = '\0';
	if (s->n == 0)
		mt_strlcpy(buf, "none", len);
	for (int i = 0; i < s->n;) {
		int j = i;
		while (j + 1 < s->n && s->cpus[j + 1] == s->cpus[j] + 1)
			j++;
		if (j == i)
			mt_append(buf, len, "%s%d", i ? "," : "", s->cpus[i]);
		else
			mt_append(buf, len, "%s%d-%d", i ? "," : "", s->cpus[i], s->cpus[j]);
		i = j + 1;
	}
	return buf;
}

const char *topo_hwloc_version(char *buf, size_t len)
{
#ifdef HWLOC_VERSION
	mt_strlcpy(buf, HWLOC_VERSION, len); /* the release built against */
#else
	unsigned v = hwloc_get_api_version();
	mt_snprintf(buf, len, "API %u.%u", v >> 16, (v >> 8) & 0xff);
#endif
	return buf;
}

/* ---- the summary ------------------------------------------------------------------ */

/* bytes as "32 MB", "1280 KB" or "512 B" (binary units, as caches are sold). */
static const char *size_words(char *buf, size_t len, uint64_t b)
{
	if (b && b % (1024 * 1024) == 0)
		mt_snprintf(buf, len, "%llu MB", (unsigned long long)(b >> 20));
	else if (b && b % 1024 == 0)
		mt_snprintf(buf, len, "%llu KB", (unsigned long long)(b >> 10));
	else
		mt_snprintf(buf, len, "%llu B", (unsigned long long)b);
	return buf;
}

/* The number of distinct cores among the CPUs of s. */
static int cores_in(const struct topo *t, const struct topo_set *s)
{
	int n = 0;
	for (int i = 0; i < s->n; i++) {
		const struct topo_cpu *c = topo_cpu(t, s->cpus[i]);
		int seen = 0;
		for (int j = 0; j < i && c; j++) {
			const struct topo_cpu *d = topo_cpu(t, s->cpus[j]);
			seen |= d && d->core == c->core;
		}
		n += c && !seen;
	}
	return n;
}

static const char *plural(int n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* "8 L3 groups of 8 cores (32 MB each)" into buf (appended). */
static void l3_words(const struct topo *t, char *buf, size_t len)
{
	int cmin = 1 << 30, cmax = 0;
	uint64_t smin = UINT64_MAX, smax = 0;
	char a[32], b[32];
	for (int i = 0; i < t->nl3; i++) {
		int c = cores_in(t, &t->l3[i].cpus);
		cmin = c < cmin ? c : cmin;
		cmax = c > cmax ? c : cmax;
		smin = t->l3[i].size < smin ? t->l3[i].size : smin;
		smax = t->l3[i].size > smax ? t->l3[i].size : smax;
	}
	mt_append(buf, len, "%d L3 %s of ", t->nl3, plural(t->nl3, "group", "groups"));
	if (cmin == cmax)
		mt_append(buf, len, "%d %s", cmin, plural(cmin, "core", "cores"));
	else
		mt_append(buf, len, "%d-%d cores", cmin, cmax);
	if (smin == smax)
		mt_append(buf, len, " (%s%s)", size_words(a, sizeof a, smin),
			  t->nl3 > 1 ? " each" : "");
	else
		mt_append(buf, len, " (%s to %s)", size_words(a, sizeof a, smin),
			  size_words(b, sizeof b, smax));
}

const char *topo_summary(const struct topo *t, char *buf, size_t len)
{
	buf[0] = '\0';
	mt_append(buf, len, "%d %s, ", t->packages, plural(t->packages, "package", "packages"));
	if (t->dies > t->packages)
		mt_append(buf, len, "%d dies, ", t->dies);
	mt_append(buf, len, "%d NUMA %s, ", t->nnodes, plural(t->nnodes, "node", "nodes"));
	if (t->nl3 > 0)
		l3_words(t, buf, len);
	else
		mt_append(buf, len, "no L3");
	mt_append(buf, len, ", %d %s, %d %s", t->cores, plural(t->cores, "core", "cores"), t->ncpus,
		  plural(t->ncpus, "CPU", "CPUs"));
	if (t->nallowed < t->ncpus)
		mt_append(buf, len, " (%d allowed)", t->nallowed);
	mt_append(buf, len, "; core %s: ", plural(t->nkinds, "kind", "kinds"));
	for (int k = 0; k < t->nkinds; k++) {
		const struct topo_kind *kd = &t->kinds[k];
		if (t->nkinds == 1) {
			mt_append(buf, len, "%s", kd->name);
			break;
		}
		mt_append(buf, len, "%s%s (%d %s, %d %s)", k ? ", " : "", kd->name,
			  cores_in(t, &kd->cpus), plural(cores_in(t, &kd->cpus), "core", "cores"),
			  kd->cpus.n, plural(kd->cpus.n, "CPU", "CPUs"));
	}
	return buf;
}

/* ---- JSON ----------------------------------------------------------------------- */

static cJSON *set_json(const struct topo_set *s)
{
	return cJSON_CreateIntArray(s->cpus ? s->cpus : (const int[]){ 0 }, s->n);
}

/* Adds key: [{"size","cpus"}] of the n groups g to o. Returns 0 or -1. */
static int groups_json(cJSON *o, const char *key, const struct topo_cache_group *g, int n)
{
	cJSON *a = cJSON_AddArrayToObject(o, key);
	for (int i = 0; a && i < n; i++) {
		cJSON *x = cJSON_CreateObject();
		if (!x || !cJSON_AddItemToArray(a, x) ||
		    !cJSON_AddNumberToObject(x, "size", (double)g[i].size) ||
		    !cJSON_AddItemToObject(x, "cpus", set_json(&g[i].cpus)))
			return -1;
	}
	return a ? 0 : -1;
}

static int kinds_json(cJSON *o, const struct topo *t)
{
	cJSON *a = cJSON_AddArrayToObject(o, "core_kinds");
	for (int i = 0; a && i < t->nkinds; i++) {
		const struct topo_kind *k = &t->kinds[i];
		cJSON *x = cJSON_CreateObject();
		if (!x || !cJSON_AddItemToArray(a, x) || !cJSON_AddStringToObject(x, "name", k->name) ||
		    !cJSON_AddNumberToObject(x, "efficiency", k->efficiency) ||
		    !cJSON_AddItemToObject(x, "cpus", set_json(&k->cpus)) ||
		    !cJSON_AddNumberToObject(x, "l1d", (double)k->l1d) ||
		    !cJSON_AddNumberToObject(x, "l2", (double)k->l2) ||
		    !cJSON_AddStringToObject(x, "detail", k->detail))
			return -1;
	}
	return a ? 0 : -1;
}

static int nodes_json(cJSON *o, const struct topo *t)
{
	cJSON *a = cJSON_AddArrayToObject(o, "nodes");
	for (int i = 0; a && i < t->nnodes; i++) {
		cJSON *x = cJSON_CreateObject();
		if (!x || !cJSON_AddItemToArray(a, x) ||
		    !cJSON_AddNumberToObject(x, "node", t->nodes[i].os_index) ||
		    !cJSON_AddItemToObject(x, "cpus", set_json(&t->nodes[i].cpus)) ||
		    !cJSON_AddNumberToObject(x, "memory", (double)t->nodes[i].memory))
			return -1;
	}
	return a ? 0 : -1;
}

static int smt_json(cJSON *o, const struct topo *t)
{
	cJSON *a = cJSON_AddArrayToObject(o, "smt_siblings");
	for (int i = 0; a && i < t->nsmt; i++)
		if (!cJSON_AddItemToArray(a, set_json(&t->smt[i])))
			return -1;
	return a ? 0 : -1;
}

cJSON *topo_to_json(const struct topo *t)
{
	cJSON *o = cJSON_CreateObject();
	char sum[1024];
	if (!o || !cJSON_AddStringToObject(o, "source", t->source) ||
	    !cJSON_AddStringToObject(o, "summary", topo_summary(t, sum, sizeof sum)) ||
	    !cJSON_AddNumberToObject(o, "packages", t->packages) ||
	    !cJSON_AddNumberToObject(o, "dies", t->dies) ||
	    !cJSON_AddNumberToObject(o, "numa_nodes", t->nnodes) ||
	    !cJSON_AddNumberToObject(o, "cores", t->cores) ||
	    !cJSON_AddNumberToObject(o, "cpus", t->ncpus) ||
	    !cJSON_AddNumberToObject(o, "allowed_cpus", t->nallowed) ||
	    groups_json(o, "l2_groups", t->l2, t->nl2) < 0 ||
	    groups_json(o, "l3_groups", t->l3, t->nl3) < 0 || kinds_json(o, t) < 0 ||
	    nodes_json(o, t) < 0 || smt_json(o, t) < 0) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* Adds key: v to o, or null when v < 0. Returns 0 or -1. */
static int add_index(cJSON *o, const char *key, int v)
{
	return (v >= 0 ? cJSON_AddNumberToObject(o, key, v) : cJSON_AddNullToObject(o, key)) ? 0
											       : -1;
}

cJSON *topo_place_json(const struct topo *t, int cpu)
{
	const struct topo_cpu *c = topo_cpu(t, cpu);
	cJSON *o;
	if (!c)
		return NULL;
	o = cJSON_CreateObject();
	if (!o || !cJSON_AddNumberToObject(o, "cpu", cpu) ||
	    !(c->kind >= 0 ? cJSON_AddStringToObject(o, "kind", t->kinds[c->kind].name)
			   : cJSON_AddNullToObject(o, "kind")) ||
	    add_index(o, "l3_group", c->l3) < 0 ||
	    add_index(o, "node", c->node >= 0 ? t->nodes[c->node].os_index : -1) < 0 ||
	    add_index(o, "package", c->package) < 0) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}
