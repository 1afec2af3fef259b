/* platform_linux: platform.h on Linux (empty elsewhere): affinity through
 * sched_{get,set}affinity and pthread_attr_setaffinity_np, no sysctl, pages'
 * nodes through move_pages(2), the machine's figures from /proc and /sys,
 * huge pages from /proc/self/smaps. */
#include "config.h"

#include "platform.h"
#include "base/util.h"

#ifdef MT_OS_LINUX
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef MEMTOP_ASAN
/* sanitizer/allocator_interface.h's, which gcc does not install (libasan
 * exports them with either compiler) */
size_t __sanitizer_get_current_allocated_bytes(void);
size_t __sanitizer_get_heap_size(void);
size_t __sanitizer_get_unmapped_bytes(void);
void __sanitizer_purge_allocator(void);
#endif

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

void mt_plat_heap(struct mt_heap *h)
{
#if defined(MEMTOP_ASAN)
	h->live = __sanitizer_get_current_allocated_bytes();
	h->held = __sanitizer_get_heap_size() - __sanitizer_get_unmapped_bytes();
#elif defined(HAVE_MALLINFO2) && !defined(MEMTOP_TSAN)
	struct mallinfo2 m = mallinfo2(); /* every arena's */
	h->live = m.uordblks + m.hblkhd;
	h->held = m.arena + m.hblkhd;
#else
	h->live = h->held = 0;
#endif
	unsigned long long size = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	h->rss = 0;
	if (!f)
		return;
	if (fscanf(f, "%llu %llu", &size, &res) == 2)
		h->rss = (size_t)res * (size_t)sysconf(_SC_PAGESIZE);
	fclose(f);
}

void mt_plat_heap_release(void)
{
#if defined(MEMTOP_ASAN)
	__sanitizer_purge_allocator();
#elif defined(HAVE_MALLOC_TRIM) && !defined(MEMTOP_TSAN)
	(void)malloc_trim(0);
#endif
}

void mt_plat_heap_long_lived(void)
{
#if !defined(MEMTOP_ASAN) && !defined(MEMTOP_TSAN) && defined(HAVE_MALLOPT)
	(void)mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	(void)mallopt(M_TRIM_THRESHOLD, 128 * 1024);
#endif
}

void mt_plat_heap_eager_free(int on)
{
#if !defined(MEMTOP_ASAN) && !defined(MEMTOP_TSAN) && defined(HAVE_MALLOPT)
	(void)mallopt(M_MXFAST, on ? 0 : (int)(64 * sizeof(size_t) / 4)); /* glibc's default */
#else
	(void)on;
#endif
}

void mt_plat_thread_name(const char *name)
{
	(void)prctl(PR_SET_NAME, name, 0, 0, 0);
}

int mt_plat_huge_bytes(const void *addr, size_t len, uint64_t *resident, uint64_t *huge)
{
	uintptr_t lo = (uintptr_t)addr, hi = lo + len;
	unsigned long long a, b, v, rss_kb = 0, huge_kb = 0;
	int in = 0, found = 0;
	char line[256];
	FILE *f = fopen("/proc/self/smaps", "r");
	*resident = *huge = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		/* a mapping's header: "start-end perms offset dev inode path";
		 * field lines ("Rss:   12 kB") never parse as two hex numbers */
		if (sscanf(line, "%llx-%llx ", &a, &b) == 2) {
			in = (uintptr_t)a < hi && (uintptr_t)b > lo;
			found |= in;
		} else if (in && sscanf(line, "AnonHugePages: %llu kB", &v) == 1) {
			huge_kb += v;
		} else if (in && sscanf(line, "Rss: %llu kB", &v) == 1) {
			rss_kb += v;
		}
	}
	fclose(f);
	if (!found)
		return -1;
	*resident = (uint64_t)rss_kb * 1024;
	*huge = (uint64_t)huge_kb * 1024 < len ? (uint64_t)huge_kb * 1024 : len;
	return 0;
}

void mt_getopt_reset(void)
{
	optind = 0; /* glibc: a full reset, its internal state included */
	opterr = 0;
}

/* The rest of the line of path that starts with key, past the blanks and
 * colon after it ("model name\t: X" gives "X"), into out. Returns 0, or -1
 * when path cannot be read or has no such line. */
static int read_line_of(const char *path, const char *key, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t klen = strlen(key);
	int rc = -1;
	if (!f)
		return -1;
	while (rc < 0 && fgets(line, sizeof line, f)) {
		if (strncmp(line, key, klen) == 0) {
			char *p = line + klen;
			while (*p == ' ' || *p == '\t' || *p == ':')
				p++;
			p[strcspn(p, "\n")] = '\0';
			mt_strlcpy(out, p, len);
			rc = 0;
		}
	}
	fclose(f);
	return rc;
}

int mt_plat_cpu_model(char *buf, size_t len)
{
	return read_line_of("/proc/cpuinfo", "model name", buf, len);
}

int mt_plat_memory(int available, uint64_t *bytes)
{
	char v[64];
	uint64_t kb;
	if (read_line_of("/proc/meminfo", available ? "MemAvailable" : "MemTotal", v, sizeof v) < 0)
		return -1;
	v[strcspn(v, " ")] = '\0'; /* "16318480 kB" */
	if (mt_parse_u64(v, 1, UINT64_MAX / 1024, &kb) < 0)
		return -1;
	*bytes = kb * 1024;
	return 0;
}

int mt_plat_procs_running(int *n)
{
	char v[64];
	if (read_line_of("/proc/stat", "procs_running", v, sizeof v) < 0)
		return -1;
	return mt_parse_int(v, 0, 1 << 30, n);
}

int mt_plat_cpu_times(uint64_t *total, uint64_t *steal)
{
	FILE *f = fopen("/proc/stat", "r");
	unsigned long long x[10] = { 0 };
	int n;
	if (!f)
		return -1;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &x[0], &x[1],
		   &x[2], &x[3], &x[4], &x[5], &x[6], &x[7], &x[8], &x[9]);
	fclose(f);
	if (n < 4)
		return -1;
	*total = 0;
	for (int i = 0; i < n && i < 8; i++) /* guest times are inside user */
		*total += x[i];
	*steal = n >= 8 ? x[7] : 0;
	return 0;
}

int mt_plat_thp_mode(char *buf, size_t len)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128];
	buf[0] = '\0';
	if (!f)
		return -1;
	if (fgets(line, sizeof line, f)) { /* "always [madvise] never" */
		char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;
		if (a && b) {
			*b = '\0';
			mt_strlcpy(buf, a + 1, len);
		}
	}
	fclose(f);
	return buf[0] ? 0 : -1;
}

int mt_plat_cpu_capacity(int cpu, long *cap)
{
	char path[128], v[32];
	FILE *f;
	int rc = -1;
	mt_snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(v, sizeof v, f)) {
		*cap = strtol(v, NULL, 10);
		rc = 0;
	}
	fclose(f);
	return rc;
}

int mt_plat_perm_mac(const char *ifname, char *buf, size_t len)
{
	union { /* the address follows the struct: room for 32 bytes of it */
		struct ethtool_perm_addr a;
		unsigned char raw[sizeof(struct ethtool_perm_addr) + 32];
	} pa;
	struct ifreq ifr;
	int fd, rc = -1, zero = 1;
	if (len)
		buf[0] = '\0';
	if (strlen(ifname) >= sizeof ifr.ifr_name || (fd = socket(AF_INET, SOCK_DGRAM, 0)) < 0)
		return -1;
	memset(&ifr, 0, sizeof ifr);
	memset(&pa, 0, sizeof pa);
	mt_strlcpy(ifr.ifr_name, ifname, sizeof ifr.ifr_name);
	pa.a.cmd = ETHTOOL_GPERMADDR;
	pa.a.size = 32;
	ifr.ifr_data = (void *)&pa;
	if (ioctl(fd, SIOCETHTOOL, &ifr) == 0 && pa.a.size > 0 && pa.a.size <= 32) {
		for (size_t i = 0; i < pa.a.size; i++) {
			zero &= pa.a.data[i] == 0;
			mt_append(buf, len, "%s%02x", i ? ":" : "", pa.a.data[i]);
		}
		rc = zero ? -1 : 0;
	}
	close(fd);
	if (rc < 0 && len)
		buf[0] = '\0';
	return rc;
}

int mt_plat_host_uuid(char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	return -1;
}
#endif

int mt_plat_page_advice(void *p, size_t len, int huge)
{
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
	return madvise(p, len, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) == 0 ? 0 : -1;
#else
	(void)p, (void)len, (void)huge;
	return -1;
#endif
}

long mt_plat_thread_preemptions(void)
{
#ifdef RUSAGE_THREAD
	struct rusage ru;
	if (getrusage(RUSAGE_THREAD, &ru) == 0)
		return ru.ru_nivcsw;
#endif
	return 0;
}

int mt_plat_cpuinfo(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	size_t n;
	if (len)
		buf[0] = '\0';
	if (!f || len == 0) {
		if (f)
			fclose(f);
		return -1;
	}
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n ? 0 : -1;
}

int mt_plat_numa_balancing(int *mode)
{
	FILE *f = fopen("/proc/sys/kernel/numa_balancing", "r");
	*mode = -1;
	if (!f)
		return -1;
	if (fscanf(f, "%d", mode) != 1)
		*mode = -1;
	fclose(f);
	return *mode >= 0 ? 0 : -1;
}
