/* numa_mem: the nodes, memory bound to one of them, and where its pages
 * ended up. Binding goes through hwloc (HWLOC_MEMBIND_BIND); the page count
 * through move_pages(2) with nodes NULL, which only reports. */
#include "config.h"

#include "numa.h"
#include "base/i18n.h"
#include "os/platform.h"
#include "os/sysinfo.h"

#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct numa_mem {
	hwloc_topology_t topo;
	hwloc_bitmap_t allowed; /* the CPUs of the thread that opened it, or NULL */
};

struct numa_mem *numa_mem_open(mt_error *e)
{
	struct numa_mem *m = calloc(1, sizeof *m);
	if (!m) {
		mt_fail(e, _("out of memory"));
		return NULL;
	}
	if (hwloc_topology_init(&m->topo) < 0) {
		free(m);
		mt_fail(e, _("hwloc: cannot start a topology: %s"), strerror(errno));
		return NULL;
	}
	if (hwloc_topology_load(m->topo) < 0) {
		hwloc_topology_destroy(m->topo);
		free(m);
		mt_fail(e, _("hwloc: cannot read this machine's topology: %s"), strerror(errno));
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

job_t *numa_mem_job_start(struct numa_mem *m, job_fn fn, void *arg, int cpu, int *lost,
			  mt_error *e)
{
	struct job_opts o = { cpu, 0 };
	hwloc_bitmap_t mine = hwloc_bitmap_alloc();
	int widened = 0;
	job_t *j;
	if (mine && m->allowed && hwloc_get_cpubind(m->topo, mine, HWLOC_CPUBIND_THREAD) == 0)
		widened = hwloc_set_cpubind(m->topo, m->allowed, HWLOC_CPUBIND_THREAD) == 0;
	*lost = cpu >= 0 && mt_plat_can_pin() && !mt_cpu_allowed(cpu);
	if (*lost)
		o.cpu = -1; /* taken away (a cpuset cut, a CPU gone offline): job_pick_cpu's */
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
		mt_fail(e, _("out of memory"));
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
		mt_fail(e, _("cannot bind %s to node %d: %s"), mt_fmt_size(a, sizeof a, len), node,
			strerror(err));
		return NULL;
	}
	(void)mt_plat_page_advice(buf, len, 0); /* 4 KB pages, as both labs chase and stream */
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
	enum { CHUNK = 1024 };
	void *addr[CHUNK];
	int status[CHUNK];
	size_t pg = (size_t)mt_page_size();
	*pages = *on = *absent = 0;
	for (size_t off = 0; off < len; off += CHUNK * pg) {
		size_t n = 0;
		for (; n < CHUNK && off + n * pg < len; n++)
			addr[n] = (char *)(uintptr_t)buf + off + n * pg;
		if (mt_plat_page_nodes(addr, n, status) != 0)
			return -1;
		for (size_t i = 0; i < n; i++) {
			*pages += 1;
			*on += status[i] == node;
			*absent += status[i] == -ENOENT;
		}
	}
	return 0;
}
