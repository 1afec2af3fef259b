/* Reading hwloc for the topo (topo_hwloc.h): the recorded tree checked
 * before hwloc sees it, hwloc loaded with the environment a recorded tree
 * needs, and its objects copied into the topo's plain arrays. */
#include "config.h"

#include "topo_hwloc.h"
#include "base/i18n.h"

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the recorded tree: checked before hwloc sees it ---------------------- */

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Parses a Linux CPU list ("0-3,8,10-11\n": mt_parse_cpu_list's grammar)
 * into bm. Returns 0, or -1 on anything else (an empty list included). */
static int parse_cpu_list(const char *s, hwloc_bitmap_t bm)
{
	int *cpus = malloc(MT_CPU_LIST_MAX * sizeof *cpus), n;
	hwloc_bitmap_zero(bm);
	n = cpus ? mt_parse_cpu_list(s, cpus, MT_CPU_LIST_MAX, NULL) : -1;
	for (int i = 0; i < n; i++)
		if (hwloc_bitmap_set(bm, (unsigned)cpus[i]) < 0)
			n = -1;
	free(cpus);
	return n > 0 ? 0 : -1;
}

/* See topo_hwloc.h. */
int topo_check_tree(const char *root, hwloc_bitmap_t online, mt_error *e)
{
	char path[4096];
	char *text = NULL;
	mt_error re;
	unsigned cpu;
	hwloc_bitmap_zero(online);
	if (!is_dir(root))
		return mt_fail(e, _("%s: not a folder"), root);
	mt_snprintf(path, sizeof path, "%s/sys/devices/system/cpu", root);
	if (!is_dir(path))
		return mt_fail(e, _("%s: no sys/devices/system/cpu in it: not a recorded Linux /sys "
				  "tree"), root);
	mt_snprintf(path, sizeof path, "%s/sys/devices/system/cpu/online", root);
	text = mt_read_file(path, 1 << 16, NULL, &re);
	if (!text) {
		mt_snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpu0", root);
		if (!is_dir(path))
			return mt_fail(e, _("%s: missing (and no online list)"), path);
		return 0;
	}
	if (parse_cpu_list(text, online) < 0) {
		free(text);
		return mt_fail(e, _("%s/sys/devices/system/cpu/online: not a CPU list"), root);
	}
	free(text);
	hwloc_bitmap_foreach_begin(cpu, online) {
		mt_snprintf(path, sizeof path, "%s/sys/devices/system/cpu/cpu%u", root, cpu);
		if (!is_dir(path))
			return mt_fail(e, _("%s: missing (the online list names CPU %u)"),
				       path, cpu);
	} hwloc_bitmap_foreach_end();
	return 0;
}

/* See topo_hwloc.h. */
int topo_online_here(hwloc_bitmap_t online)
{
	mt_error e;
	char *text = mt_read_file("/sys/devices/system/cpu/online", 1 << 16, NULL, &e);
	int rc = text ? parse_cpu_list(text, online) : -1;
	free(text);
	if (rc < 0)
		hwloc_bitmap_zero(online);
	return rc;
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

/* The <topology version="M.N"> of an XML's head is one this hwloc reads
 * (its major at most the library's: hwloc 2 reads 1.x and 2.x, not 3.x).
 * Returns 0, or -1 with e naming both. */
static int check_xml_version(const char *path, const char *head, mt_error *e)
{
	const char *v = strstr(head, "<topology version=\"");
	unsigned lib = hwloc_get_api_version() >> 16;
	char ver[16];
	int major;
	if (!v)
		return 0; /* hwloc 1's XML names no version: hwloc 2 reads it */
	v += strlen("<topology version=\"");
	mt_snprintf(ver, sizeof ver, "%.*s", (int)strcspn(v, "\""), v);
	major = atoi(ver);
	if (major > (int)lib)
		return mt_fail(e, _("%s: an hwloc %d XML (version %s); the hwloc %u.x memtop runs with "
				  "reads up to %u.x: export it with an hwloc %u lstopo"), path, major,
			       MT_PRINTABLE(ver), lib, lib, lib);
	return 0;
}

/* See topo_hwloc.h. */
int topo_check_xml(const char *path, mt_error *e)
{
	struct stat st;
	FILE *f;
	char head[256];
	size_t n;
	if (stat(path, &st) < 0)
		return mt_fail(e, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return mt_fail(e, _("%s: not a regular file (an hwloc XML, as lstopo --of xml writes "
				  "it)"), path);
	if (st.st_size > TOPO_XML_MAX)
		return mt_fail(e, _("%s: %lld bytes, more than an hwloc XML of %d MB"), path,
			       (long long)st.st_size, TOPO_XML_MAX >> 20);
	f = fopen(path, "r");
	if (!f)
		return mt_fail(e, "%s: %s", path, strerror(errno));
	n = fread(head, 1, sizeof head - 1, f);
	fclose(f);
	head[n] = '\0';
	if (!strstr(head, "<topology") && !strstr(head, "<!DOCTYPE topology"))
		return mt_fail(e, _("%s: not an hwloc XML (no <topology> at its start; lstopo --of "
				  "xml writes one)"), path);
	return check_xml_version(path, head, e);
}

/* See topo_hwloc.h. */
hwloc_topology_t topo_hw_load(const char *root, const char *xml, mt_error *e)
{
	hwloc_topology_t h = NULL;
	char *saved[NENV] = { NULL, NULL };
	int pushed = 0;
	const char *what = xml ? xml : root ? root : "this machine";
	if (hwloc_topology_init(&h) < 0) {
		mt_fail(e, _("hwloc: cannot start: %s"), strerror(errno));
		return NULL;
	}
	/* instruction caches too (hwloc drops them by default): memtop info
	 * lists them. The machine as lstopo shows it by default: what the
	 * cgroup allows (CPU-only nodes a kernel lists beside memory-only ones
	 * are hidden, as hwloc hides them). */
	if (hwloc_topology_set_icache_types_filter(h, HWLOC_TYPE_FILTER_KEEP_ALL) < 0)
		goto fail;
	if (xml && hwloc_topology_set_xml(h, xml) < 0)
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
	if (xml)
		mt_fail(e, _("%s: hwloc cannot read it as a topology (garbled or truncated XML)"),
			xml);
	else
		mt_fail(e, _("hwloc: cannot load the topology of %s: %s"), what, strerror(errno));
	if (pushed)
		env_pop(saved);
	hwloc_topology_destroy(h);
	return NULL;
}

/* ---- copying hwloc's objects into the topo -------------------------------- */

/* See topo_hwloc.h. */
int topo_set_from(hwloc_const_bitmap_t bm, struct topo_set *s)
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

/* The index among its type's objects (tree_objs) of pu's ancestor of type
 * ty, or -1. */
static int ancestor_index(hwloc_obj_t pu, hwloc_obj_type_t ty)
{
	hwloc_obj_t o = ancestor(pu, ty);
	return o && o->userdata ? (int)((intptr_t)o->userdata - 1) : -1;
}

/* See topo_hwloc.h. */
uint64_t topo_ancestor_size(hwloc_obj_t pu, hwloc_obj_type_t ty)
{
	hwloc_obj_t o = ancestor(pu, ty);
	return o && o->attr ? (uint64_t)o->attr->cache.size : 0;
}

/* ---- the objects of a type, wherever they sit in the tree ------------------- */

/* The objects of one type: where hwloc puts them all at one depth, its
 * logical order; where they sit at several (cores under their threads' own
 * L1 on one core and above them on another, as a qemu guest with an SMT
 * sibling offline shows), the tree's order all the same. */
struct tree_objs {
	hwloc_obj_t *o;
	int n, cap;
	int depths; /* the depths they sit at */
};

/* Adds o and then the objects of type ty under o (its normal children:
 * packages, dies, cores and caches are never memory children) to s, each
 * one's userdata its index + 1. Returns 0, or -1 when out of memory. */
static int walk_objs(hwloc_obj_t o, hwloc_obj_type_t ty, struct tree_objs *s)
{
	if (o->type == ty) {
		if (s->n == s->cap) {
			int cap = s->cap ? 2 * s->cap : 64;
			hwloc_obj_t *g = realloc(s->o, (size_t)cap * sizeof *g);
			if (!g)
				return -1;
			s->o = g;
			s->cap = cap;
		}
		o->userdata = (void *)(intptr_t)(s->n + 1);
		s->o[s->n++] = o;
	}
	for (unsigned i = 0; i < o->arity; i++)
		if (walk_objs(o->children[i], ty, s) < 0)
			return -1;
	return 0;
}

/* The objects of type ty of h into s (free s->o). Returns 0, or -1 when
 * out of memory. */
static int tree_objs(hwloc_topology_t h, hwloc_obj_type_t ty, struct tree_objs *s)
{
	memset(s, 0, sizeof *s);
	for (int d = 0; d < hwloc_topology_get_depth(h); d++)
		s->depths += hwloc_get_depth_type(h, d) == ty;
	return walk_objs(hwloc_get_root_obj(h), ty, s);
}

/* What topo_hw_copy reads of h: the objects of each type memtop counts. */
struct tree {
	struct tree_objs pkg, die, core, l2, l3;
};

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
		if (o->subtype)
			mt_strlcpy(t->nodes[i].tier, o->subtype, sizeof t->nodes[i].tier);
		t->nnodes = i + 1;
		if (topo_set_from(o->cpuset, &t->nodes[i].cpus) < 0)
			return -1;
	}
	qsort(t->nodes, (size_t)t->nnodes, sizeof *t->nodes, cmp_node);
	return 0;
}

/* The caches g (L2 or L3) into *out. Returns 0, or -1 when out of memory. */
static int copy_caches(const struct tree_objs *g, struct topo_cache_group **out, int *nout)
{
	*out = NULL;
	*nout = 0;
	if (g->n <= 0)
		return 0;
	*out = calloc((size_t)g->n, sizeof **out);
	if (!*out)
		return -1;
	for (int i = 0; i < g->n; i++) {
		hwloc_obj_t o = g->o[i];
		(*out)[i].size = o->attr ? o->attr->cache.size : 0;
		*nout = i + 1;
		if (topo_set_from(o->cpuset, &(*out)[i].cpus) < 0)
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
			if (topo_set_from(o->cpuset, &c->cpus) < 0)
				return -1;
		}
	}
	return 0;
}

static int copy_smt(struct topo *t, const struct tree_objs *cores)
{
	if (cores->n <= 0)
		return 0;
	t->smt = calloc((size_t)cores->n, sizeof *t->smt);
	if (!t->smt)
		return -1;
	for (int i = 0; i < cores->n; i++) {
		if (hwloc_bitmap_weight(cores->o[i]->cpuset) < 2)
			continue;
		if (topo_set_from(cores->o[i]->cpuset, &t->smt[t->nsmt]) < 0)
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
		c->coretype = -1;
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

/* The value of info name on o, into buf (appended after a space when buf
 * holds something already). */
static void info_into(hwloc_obj_t o, const char *name, char *buf, size_t len)
{
	const char *v = o ? hwloc_obj_get_info_by_name(o, name) : NULL;
	char clean[96];
	if (!v || !*v)
		return;
	mt_printable(clean, sizeof clean, v, 0);
	mt_append(buf, len, "%s%s", buf[0] ? " " : "", clean);
}

/* What hwloc recorded of the firmware and the CPU (pkg: the first
 * package, or NULL). */
static void copy_about(struct topo *t, hwloc_topology_t h, hwloc_obj_t pkg)
{
	hwloc_obj_t root = hwloc_get_root_obj(h);
	for (const struct topo_about_field *f = topo_about_fields; f->key; f++)
		for (size_t i = 0; i < MT_ARRAY_LEN(f->hwloc) && f->hwloc[i]; i++)
			info_into(f->pkg && pkg ? pkg : root, f->hwloc[i], (char *)&t->about + f->off,
				  f->size);
}

/* ---- what the tree could not place ------------------------------------------- */

/* t->offline: the CPUs the machine has (hwloc's complete set) that its tree
 * leaves out and that are not online (online NULL: not known, as in an
 * XML: all it leaves out); t->unplaced: CPUs of the tree in no core where
 * others have one, or in no package where others have one. Returns 0, or
 * -1 when out of memory. */
static int copy_unplaced(struct topo *t, hwloc_topology_t h, hwloc_const_bitmap_t online)
{
	hwloc_bitmap_t out = hwloc_bitmap_dup(hwloc_topology_get_complete_cpuset(h));
	int rc = -1, n = 0;
	if (!out)
		return -1;
	hwloc_bitmap_andnot(out, out, hwloc_topology_get_topology_cpuset(h));
	if (online && !hwloc_bitmap_iszero(online))
		hwloc_bitmap_andnot(out, out, online);
	t->offline_known = online && !hwloc_bitmap_iszero(online);
	if (topo_set_from(out, &t->offline) < 0)
		goto done;
	for (int i = 0; i < t->ncpus; i++)
		n += (t->cores > 0 && t->cpus[i].core < 0) || (t->packages > 0 && t->cpus[i].package < 0);
	if (n > 0) {
		t->unplaced.cpus = calloc((size_t)n, sizeof *t->unplaced.cpus);
		if (!t->unplaced.cpus)
			goto done;
		for (int i = 0; i < t->ncpus; i++)
			if ((t->cores > 0 && t->cpus[i].core < 0) ||
			    (t->packages > 0 && t->cpus[i].package < 0))
				t->unplaced.cpus[t->unplaced.n++] = t->cpus[i].os;
	}
	rc = 0;
done:
	hwloc_bitmap_free(out);
	return rc;
}

/* What of the tree memtop read around, into t->read_around. */
static void read_around(struct topo *t, const struct tree *tr)
{
	const struct {
		const struct tree_objs *g;
		const char *what;
	} kinds[] = { { &tr->core, "cores" }, { &tr->pkg, "packages" }, { &tr->die, "dies" },
		      { &tr->l2, "L2 caches" }, { &tr->l3, "L3 caches" } };
	for (size_t k = 0; k < MT_ARRAY_LEN(kinds); k++)
		if (kinds[k].g->depths > 1)
			mt_append(t->read_around, sizeof t->read_around,
				  "%s%s at %d depths of hwloc's tree (%d, each read once)",
				  t->read_around[0] ? "; " : "", kinds[k].what, kinds[k].g->depths,
				  kinds[k].g->n);
}

static void tree_free(struct tree *tr)
{
	free(tr->pkg.o);
	free(tr->die.o);
	free(tr->core.o);
	free(tr->l2.o);
	free(tr->l3.o);
}

/* See topo_hwloc.h. */
int topo_hw_copy(struct topo *t, hwloc_topology_t h, int live, hwloc_const_bitmap_t online)
{
	struct tree tr;
	int rc = -1;
	memset(&tr, 0, sizeof tr);
	if (tree_objs(h, HWLOC_OBJ_PACKAGE, &tr.pkg) < 0 || tree_objs(h, HWLOC_OBJ_DIE, &tr.die) < 0 ||
	    tree_objs(h, HWLOC_OBJ_CORE, &tr.core) < 0 ||
	    tree_objs(h, HWLOC_OBJ_L2CACHE, &tr.l2) < 0 || tree_objs(h, HWLOC_OBJ_L3CACHE, &tr.l3) < 0)
		goto out;
	t->packages = tr.pkg.n;
	/* no die level: each package one die, as far as the OS tells */
	t->dies = tr.die.n ? tr.die.n : tr.pkg.n;
	t->cores = tr.core.n;
	read_around(t, &tr);
	if (copy_nodes(t, h) < 0 || copy_cpus(t, h, live) < 0 || topo_fill_local(t) < 0)
		goto out;
	copy_about(t, h, tr.pkg.n ? tr.pkg.o[0] : NULL);
	if (copy_caches(&tr.l2, &t->l2, &t->nl2) < 0 || copy_caches(&tr.l3, &t->l3, &t->nl3) < 0 ||
	    copy_smt(t, &tr.core) < 0 || copy_all_caches(t, h) < 0 ||
	    copy_unplaced(t, h, online) < 0 || topo_copy_distances(t, h) < 0)
		goto out;
	rc = 0;
out:
	tree_free(&tr);
	return rc;
}
