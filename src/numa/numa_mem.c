/* numa_mem: the nodes, memory bound to one of them, and where its pages
 * ended up. Binding goes through hwloc (HWLOC_MEMBIND_BIND); the page count
 * through move_pages(2) with nodes NULL, which only reports. */
#include "config.h"

#include "numa.h"
#include "core/sysinfo.h"

#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

struct numa_mem {
	hwloc_topology_t topo;
	hwloc_bitmap_t allowed; /* the CPUs of the thread that opened it, or NULL */
};

struct numa_mem *numa_mem_open(mt_error *e)
{
	struct numa_mem *m = calloc(1, sizeof *m);
	if (!m) {
		mt_fail(e, "out of memory");
		return NULL;
	}
	if (hwloc_topology_init(&m->topo) < 0) {
		free(m);
		mt_fail(e, "hwloc: cannot start a topology: %s", strerror(errno));
		return NULL;
	}
	if (hwloc_topology_load(m->topo) < 0) {
		hwloc_topology_destroy(m->topo);
		free(m);
		mt_fail(e, "hwloc: cannot read this machine's topology: %s", strerror(errno));
		return NULL;
	}
	m->allowed = hwloc_bitmap_alloc();
	if (m->allowed && hwloc_get_cpubind(m->topo, m->allowed, HWLOC_CPUBIND_THREAD) < 0) {
		hwloc_bitmap_free(m->allowed);
		m->allowed = NULL;
	}
	return m;
}

void numa_mem_close(struct numa_mem *m)
{
	if (!m)
		return;
	hwloc_bitmap_free(m->allowed);
	hwloc_topology_destroy(m->topo);
	free(m);
}

/* The largest data or unified cache of each level whose CPUs meet set. */
static void node_caches(hwloc_topology_t t, hwloc_const_cpuset_t set, uint64_t *cache)
{
	static const hwloc_obj_type_t types[NUMA_MAX_LEVELS] = {
		HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L4CACHE,
		HWLOC_OBJ_L5CACHE
	};
	for (int l = 0; l < NUMA_MAX_LEVELS; l++) {
		hwloc_obj_t o = NULL;
		while ((o = hwloc_get_next_obj_by_type(t, types[l], o)) != NULL) {
			if (o->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION ||
			    !hwloc_bitmap_intersects(o->cpuset, set))
				continue;
			if (o->attr->cache.size > cache[l + 1])
				cache[l + 1] = o->attr->cache.size;
		}
	}
}

/* n's CPUs: those of set this process may use (allowed[0..na)). */
static void node_cpus(struct numa_node *n, hwloc_const_cpuset_t set, const int *allowed, int na)
{
	n->ncpus = 0;
	for (int i = 0; i < na && n->ncpus < NUMA_MAX_NODE_CPUS; i++)
		if (hwloc_bitmap_isset(set, (unsigned)allowed[i]))
			n->cpus[n->ncpus++] = allowed[i];
}

size_t numa_mem_nodes(struct numa_mem *m, struct numa_node *out, size_t cap)
{
	static int allowed[MT_MAX_CPUS];
	int na = mt_allowed_cpus(allowed, MT_MAX_CPUS);
	int nn = hwloc_get_nbobjs_by_type(m->topo, HWLOC_OBJ_NUMANODE);
	size_t k = 0;
	if (nn <= 0 && cap > 0) { /* no node shown: the machine is one */
		hwloc_const_cpuset_t all = hwloc_topology_get_topology_cpuset(m->topo);
		memset(&out[0], 0, sizeof out[0]);
		node_cpus(&out[0], all, allowed, na);
		node_caches(m->topo, all, out[0].cache);
		return 1;
	}
	for (int i = 0; i < nn && k < cap; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(m->topo, HWLOC_OBJ_NUMANODE, (unsigned)i);
		struct numa_node *n = &out[k];
		if (!o)
			continue;
		k++;
		memset(n, 0, sizeof *n);
		n->node = (int)o->os_index;
		n->memory = o->attr ? o->attr->numanode.local_memory : 0;
		node_cpus(n, o->cpuset, allowed, na);
		node_caches(m->topo, o->cpuset, n->cache);
	}
	return k;
}

job_t *numa_mem_job_start(struct numa_mem *m, job_fn fn, void *arg, int cpu, mt_error *e)
{
	struct job_opts o = { cpu, 0 };
	hwloc_bitmap_t mine = hwloc_bitmap_alloc();
	int widened = 0;
	job_t *j;
	if (mine && m->allowed && hwloc_get_cpubind(m->topo, mine, HWLOC_CPUBIND_THREAD) == 0)
		widened = hwloc_set_cpubind(m->topo, m->allowed, HWLOC_CPUBIND_THREAD) == 0;
	j = job_start(fn, arg, &o, e);
	if (widened)
		(void)hwloc_set_cpubind(m->topo, mine, HWLOC_CPUBIND_THREAD);
	hwloc_bitmap_free(mine);
	return j;
}

void *numa_mem_alloc(struct numa_mem *m, int node, size_t len, int *bound, mt_error *e)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	void *buf;
	char a[32];
	int err;
	if (!set) {
		mt_fail(e, "out of memory");
		return NULL;
	}
	hwloc_bitmap_only(set, (unsigned)node);
	buf = hwloc_alloc_membind(m->topo, len, set, HWLOC_MEMBIND_BIND,
				  HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_STRICT);
	err = errno;
	hwloc_bitmap_free(set);
	*bound = buf != NULL;
	if (!buf && (err == ENOSYS || err == EXDEV) &&
	    hwloc_get_nbobjs_by_type(m->topo, HWLOC_OBJ_NUMANODE) <= 1)
		buf = hwloc_alloc(m->topo, len); /* one node: all memory is on it anyway */
	if (!buf) {
		mt_fail(e, "cannot bind %s to node %d: %s", mt_fmt_size(a, sizeof a, len), node,
			strerror(err));
		return NULL;
	}
#ifdef MADV_NOHUGEPAGE
	(void)madvise(buf, len, MADV_NOHUGEPAGE); /* 4 KB pages, as both labs chase and stream */
#endif
	return buf;
}

void numa_mem_free(struct numa_mem *m, void *buf, size_t len)
{
	if (buf)
		hwloc_free(m->topo, buf, len);
}

int numa_mem_count(const void *buf, size_t len, int node, uint64_t *pages, uint64_t *on,
		   uint64_t *absent)
{
#if defined(__linux__) && defined(SYS_move_pages)
	enum { CHUNK = 1024 };
	void *addr[CHUNK];
	int status[CHUNK];
	size_t pg = (size_t)mt_page_size();
	*pages = *on = *absent = 0;
	for (size_t off = 0; off < len; off += CHUNK * pg) {
		size_t n = 0;
		for (; n < CHUNK && off + n * pg < len; n++)
			addr[n] = (char *)(uintptr_t)buf + off + n * pg;
		if (syscall(SYS_move_pages, 0, (unsigned long)n, addr, NULL, status, 0) != 0)
			return -1;
		for (size_t i = 0; i < n; i++) {
			*pages += 1;
			*on += status[i] == node;
			*absent += status[i] == -ENOENT;
		}
	}
	return 0;
#else
	(void)buf, (void)len, (void)node;
	*pages = *on = *absent = 0;
	return -1;
#endif
}

int numa_balancing_mode(void)
{
	FILE *f = fopen("/proc/sys/kernel/numa_balancing", "r");
	int v = -1;
	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}
