/* sysinfo: see sysinfo.h. */
#include "config.h"

#include "sysinfo.h"
#include "platform.h"
#include "clock.h"
#include "child.h"
#include "base/util.h"

#include <dirent.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

int mt_cpu_allowed(int cpu)
{
	int cpus[1024], n = mt_allowed_cpus(cpus, (int)MT_ARRAY_LEN(cpus));
	for (int i = 0; i < n; i++)
		if (cpus[i] == cpu)
			return 1;
	return 0;
}

int mt_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

uint64_t mt_page_size(void)
{
	long n = sysconf(_SC_PAGESIZE);
	return n > 0 ? (uint64_t)n : 4096;
}

#define FRESH_PAGES 256 /* pages timed by mt_fresh_page_ns() */

double mt_fresh_page_ns(void)
{
	static double cached = -1;
	uint64_t page = mt_page_size(), t0;
	size_t len = FRESH_PAGES * page;
	volatile char *p;
	if (cached >= 0)
		return cached;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return cached = 0;
#ifdef MADV_NOHUGEPAGE
	(void)madvise((void *)p, len, MADV_NOHUGEPAGE);
#endif
	t0 = mt_now_ns();
#ifdef MADV_POPULATE_WRITE
	(void)madvise((void *)p, len, MADV_POPULATE_WRITE);
#endif
	for (size_t i = 0; i < len; i += page)
		p[i] = 1;
	cached = (double)(mt_now_ns() - t0) / FRESH_PAGES;
	munmap((void *)p, len);
	return cached;
}

int mt_populate(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	char *c = p;
	for (size_t off = 0; off < len; off += MT_POPULATE_STEP) {
		size_t n = len - off < MT_POPULATE_STEP ? len - off : MT_POPULATE_STEP;
		if (madvise(c + off, n, MADV_POPULATE_WRITE) != 0)
			return -1;
	}
	return 0;
#else
	(void)p;
	(void)len;
	return -1;
#endif
}

void *mt_map_2m(size_t len, int huge)
{
	char *base = mmap(NULL, len + MT_HUGE_2M, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a;
	size_t head;
	if (base == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)base + MT_HUGE_2M - 1) & ~((uintptr_t)MT_HUGE_2M - 1);
	head = a - (uintptr_t)base;
	if (head)
		munmap(base, head);
	if (MT_HUGE_2M - head)
		munmap((char *)a + len, MT_HUGE_2M - head);
	(void)mt_plat_page_advice((void *)a, len, huge);
	return (void *)a;
}

/* The model as the system names it (unchecked text). */
static void cpu_model_raw(char *buf, size_t len)
{
	if (mt_plat_cpu_model(buf, len) == 0)
		return;
	/* aarch64 Linux has no model name; lscpu knows the vendor tables. */
	{
		const char *const argv[] = { "lscpu", NULL };
		char *out = mt_run_capture(argv, 65536);
		if (out) {
			char *p = strstr(out, "Model name:");
			if (p) {
				p += strlen("Model name:");
				while (*p == ' ')
					p++;
				p[strcspn(p, "\n")] = '\0';
				mt_strlcpy(buf, p, len);
				free(out);
				return;
			}
			free(out);
		}
	}
	mt_strlcpy(buf, "unknown CPU", len);
}

void mt_cpu_model(char *buf, size_t len)
{
	char raw[512];
	cpu_model_raw(raw, sizeof raw);
	/* /proc/cpuinfo and lscpu are text from outside too: printable once */
	mt_printable(buf, len, raw, 0);
}

void mt_kernel(char *buf, size_t len)
{
	struct utsname u;
	if (uname(&u) == 0)
		mt_snprintf(buf, len, "%s %s %s", u.machine, u.sysname, u.release);
	else
		mt_strlcpy(buf, "unknown", len);
}

uint64_t mt_mem_total(void)
{
	uint64_t b;
	return mt_plat_memory(0, &b) == 0 ? b : 0;
}

uint64_t mt_mem_available(void)
{
	uint64_t b;
	return mt_plat_memory(1, &b) == 0 ? b : 0;
}

int mt_load(double *loadavg1, int *running)
{
	double la[3];
	int ok = -1;
	*loadavg1 = -1;
	*running = -1;
	if (getloadavg(la, 3) >= 1) {
		*loadavg1 = la[0];
		ok = 0;
	}
	if (mt_plat_procs_running(running) < 0)
		*running = -1;
	return ok;
}

int mt_cpu_times(uint64_t *total, uint64_t *steal)
{
	return mt_plat_cpu_times(total, steal);
}

void mt_thp_mode(char *buf, size_t len)
{
	if (mt_plat_thp_mode(buf, len) < 0)
		buf[0] = '\0';
}

void mt_thp_mode_in(const char *root, char *buf, size_t len)
{
	char path[MT_PATH_MAX + 64], *text, *a, *b;
	buf[0] = '\0';
	if (!root[0]) {
		mt_thp_mode(buf, len);
		return;
	}
	mt_snprintf(path, sizeof path, "%s/sys/kernel/mm/transparent_hugepage/enabled", root);
	text = mt_read_file(path, 4096, NULL, NULL);
	a = text ? strchr(text, '[') : NULL; /* "always [madvise] never" */
	b = a ? strchr(a, ']') : NULL;
	if (a && b && b - a < 16) {
		*b = '\0';
		mt_printable(buf, len, a + 1, 0);
	}
	free(text);
}

int mt_huge_pages_in(const char *root, uint64_t *size, uint64_t *count, int cap)
{
	char path[MT_PATH_MAX + 128];
	struct dirent *d;
	DIR *dir;
	int n = 0;
	mt_snprintf(path, sizeof path, "%s/sys/kernel/mm/hugepages", root);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)) && n < cap) {
		uint64_t kb, pages = 0;
		char num[32], *text;
		const char *p = d->d_name;
		size_t len;
		if (strncmp(p, "hugepages-", 10) != 0)
			continue;
		len = strlen(p + 10);
		if (len < 3 || len >= sizeof num || strcmp(p + 10 + len - 2, "kB") != 0)
			continue;
		mt_snprintf(num, sizeof num, "%.*s", (int)(len - 2), p + 10);
		if (mt_parse_u64(num, 1, UINT64_MAX >> 11, &kb) < 0)
			continue;
		mt_snprintf(path, sizeof path, "%s/sys/kernel/mm/hugepages/%s/nr_hugepages", root, p);
		text = mt_read_file(path, 64, NULL, NULL);
		if (text) {
			text[strcspn(text, "\n")] = '\0';
			if (mt_parse_u64(text, 0, UINT64_MAX, &pages) < 0)
				pages = 0;
		}
		free(text);
		size[n] = kb << 10;
		count[n++] = pages;
	}
	closedir(dir);
	/* smallest first: sort the sizes, their counts with them */
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (size[j] < size[i]) {
				uint64_t t = size[i];
				size[i] = size[j];
				size[j] = t;
				t = count[i];
				count[i] = count[j];
				count[j] = t;
			}
	return n;
}

int mt_heterogeneous(char *buf, size_t len)
{
	int levels = 0, ncpu, hetero = 0;
	size_t n = sizeof levels;
	buf[0] = '\0';
	if (mt_plat_sysctl("hw.nperflevels", &levels, &n) == 0) { /* macOS */
		if (levels < 2)
			return 0;
		mt_snprintf(buf, len, "%d performance levels (hw.nperflevels)", levels);
		return 1;
	}
	ncpu = mt_online_cpus();
	long first = -1;
	for (int c = 0; c < ncpu && c < MT_MAX_CPUS; c++) {
		long cap;
		if (mt_plat_cpu_capacity(c, &cap) < 0)
			continue;
		if (first < 0)
			first = cap;
		else if (cap != first)
			hetero = 1;
		(void)mt_append(buf, len, "%s%d:%ld", buf[0] ? " " : "cpu_capacity ", c, cap);
	}
	if (!hetero)
		buf[0] = '\0';
	return hetero;
}
