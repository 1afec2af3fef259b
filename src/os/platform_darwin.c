/* platform_darwin: platform.h on macOS, and for now on any OS but Linux
 * (empty on Linux): no CPU affinity (macOS has only scheduling hints: threads
 * are not pinned), sysctlbyname for the hw.* names (the model, the memory),
 * no page-to-node query (one memory node), no runnable count, CPU times,
 * transparent huge pages or core capacities. */
#include "config.h"

#include "platform.h"
#include "base/util.h"

#ifdef MT_OS_DARWIN
#include <getopt.h>
#include <unistd.h>
#ifdef HAVE_SYS_SYSCTL_H
#include <sys/sysctl.h>
#include <sys/types.h>
#endif

int mt_allowed_cpus(int *cpus, int cap)
{
	(void)cpus, (void)cap;
	return 0;
}

int mt_plat_set_allowed(const int *cpus, int n)
{
	(void)cpus, (void)n;
	return -1;
}

int mt_plat_current_cpu(void)
{
	return -1; /* no sched_getcpu; threads are not pinned anyway */
}

int mt_plat_can_pin(void)
{
	return 0;
}

int mt_plat_attr_pin(pthread_attr_t *attr, int cpu)
{
	(void)attr;
	return cpu < 0 ? 0 : -1;
}

int mt_plat_has_sysctl(void)
{
#ifdef HAVE_SYS_SYSCTL_H
	return 1;
#else
	return 0;
#endif
}

int mt_plat_sysctl(const char *name, void *buf, size_t *len)
{
#ifdef HAVE_SYS_SYSCTL_H
	return sysctlbyname(name, buf, len, NULL, 0) == 0 ? 0 : -1;
#else
	(void)name, (void)buf, (void)len;
	return -1;
#endif
}

int mt_plat_page_nodes(void *const *addr, size_t n, int *node)
{
	(void)addr, (void)n, (void)node;
	return -1;
}

void mt_plat_heap(struct mt_heap *h)
{
	h->live = h->held = h->rss = 0; /* malloc_zone_statistics, task_info: not asked yet */
}

void mt_plat_heap_release(void)
{
}

void mt_plat_heap_long_lived(void)
{
}

void mt_plat_heap_eager_free(int on)
{
	(void)on;
}

void mt_plat_thread_name(const char *name)
{
	(void)name; /* macOS and the BSDs each spell pthread_setname_np otherwise: unnamed */
}

int mt_plat_huge_bytes(const void *addr, size_t len, uint64_t *resident, uint64_t *huge)
{
	(void)addr, (void)len;
	*resident = *huge = 0;
	return -1;
}

void mt_getopt_reset(void)
{
#if defined(__APPLE__) || defined(__FreeBSD__)
	optreset = 1; /* BSD getopt: forget the last argv's state */
	optind = 1;
#else
	optind = 0;
#endif
	opterr = 0;
}

int mt_plat_cpu_model(char *buf, size_t len)
{
	size_t n = len;
	return mt_plat_sysctl("machdep.cpu.brand_string", buf, &n);
}

int mt_plat_memory(int available, uint64_t *bytes)
{
	uint64_t mem = 0;
	size_t n = sizeof mem;
	if (mt_plat_sysctl("hw.memsize", &mem, &n) < 0 || !mem)
		return -1;
	*bytes = available ? mem / 2 : mem; /* no cheap "available": assume half */
	return 0;
}

int mt_plat_procs_running(int *n)
{
	(void)n;
	return -1;
}

int mt_plat_cpu_times(uint64_t *total, uint64_t *steal)
{
	(void)total, (void)steal;
	return -1;
}

int mt_plat_thp_mode(char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	return -1;
}

int mt_plat_cpu_capacity(int cpu, long *cap)
{
	(void)cpu, (void)cap;
	return -1;
}

int mt_plat_perm_mac(const char *ifname, char *buf, size_t len)
{
	(void)ifname;
	if (len)
		buf[0] = '\0';
	return -1;
}

int mt_plat_host_uuid(char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
#if defined(__APPLE__)
	{
		uuid_t id;
		struct timespec wait = { 1, 0 };
		if (gethostuuid(id, &wait) != 0)
			return -1;
		for (size_t i = 0; i < sizeof id; i++)
			mt_append(buf, len, "%02x", id[i]);
		return 0;
	}
#else
	return -1;
#endif
}
#endif

int mt_plat_page_advice(void *p, size_t len, int huge)
{
	(void)p, (void)len, (void)huge;
	return -1;
}

long mt_plat_thread_preemptions(void)
{
	return 0;
}

int mt_plat_cpuinfo(char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	return -1;
}

int mt_plat_numa_balancing(int *mode)
{
	*mode = -1;
	return -1;
}
