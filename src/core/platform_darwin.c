/* platform_darwin: platform.h on macOS, and for now on any OS but Linux
 * (empty on Linux): no CPU affinity (macOS has only scheduling hints: threads
 * are not pinned), sysctlbyname for the hw.* names, no page-to-node query
 * (one memory node). */
#include "config.h"

#include "platform.h"
#include "util.h"

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
#endif
