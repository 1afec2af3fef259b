/* platform_linux: platform.h on Linux (empty elsewhere): affinity through
 * sched_{get,set}affinity and pthread_attr_setaffinity_np, no sysctl, pages'
 * nodes through move_pages(2). */
#include "config.h"

#include "platform.h"
#include "util.h"

#ifdef MT_OS_LINUX
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

int mt_allowed_cpus(int *cpus, int cap)
{
	int n = 0;
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set) < 0)
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < cap; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

int mt_plat_set_allowed(const int *cpus, int n)
{
	cpu_set_t set;
	if (n <= 0)
		return -1;
	CPU_ZERO(&set);
	for (int i = 0; i < n; i++)
		if (cpus[i] >= 0 && cpus[i] < CPU_SETSIZE)
			CPU_SET(cpus[i], &set);
	return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : -1;
}

int mt_plat_current_cpu(void)
{
#ifdef HAVE_SCHED_GETCPU
	return sched_getcpu();
#else
	return -1;
#endif
}

int mt_plat_can_pin(void)
{
#ifdef HAVE_PTHREAD_SETAFFINITY_NP
	return 1;
#else
	return 0;
#endif
}

int mt_plat_attr_pin(pthread_attr_t *attr, int cpu)
{
#ifdef HAVE_PTHREAD_SETAFFINITY_NP
	cpu_set_t set;
	if (cpu < 0)
		return 0;
	if (cpu >= CPU_SETSIZE)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_attr_setaffinity_np(attr, sizeof set, &set) == 0 ? 0 : -1;
#else
	(void)attr;
	return cpu < 0 ? 0 : -1;
#endif
}

int mt_plat_has_sysctl(void)
{
	return 0;
}

int mt_plat_sysctl(const char *name, void *buf, size_t *len)
{
	(void)name, (void)buf, (void)len;
	return -1;
}

int mt_plat_page_nodes(void *const *addr, size_t n, int *node)
{
#ifdef SYS_move_pages
	/* nodes NULL: move_pages only reports where each page is */
	return syscall(SYS_move_pages, 0, (unsigned long)n, addr, NULL, node, 0) == 0 ? 0 : -1;
#else
	(void)addr, (void)n, (void)node;
	return -1;
#endif
}

void mt_getopt_reset(void)
{
	optind = 0; /* glibc: a full reset, its internal state included */
	opterr = 0;
}
#endif
