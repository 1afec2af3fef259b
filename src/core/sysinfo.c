/* sysinfo: see sysinfo.h. */
#include "config.h"

#include "sysinfo.h"
#include "platform.h"
#include "clock.h"
#include "child.h"
#include "util.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

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

static int read_line_of(const char *path, const char *key, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t klen = strlen(key);
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, key, klen) == 0) {
			char *p = line + klen;
			while (*p == ' ' || *p == '\t' || *p == ':')
				p++;
			p[strcspn(p, "\n")] = '\0';
			mt_strlcpy(out, p, len);
			fclose(f);
			return 0;
		}
	}
	fclose(f);
	return -1;
}

/* The model as the system names it (unchecked text). */
static void cpu_model_raw(char *buf, size_t len)
{
	size_t n = len;
	if (mt_plat_sysctl("machdep.cpu.brand_string", buf, &n) == 0) /* macOS */
		return;
	if (read_line_of("/proc/cpuinfo", "model name", buf, len) == 0)
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

/* A /proc/meminfo field in bytes, or 0 when unknown. */
static uint64_t meminfo_bytes(const char *field)
{
	char v[64];
	uint64_t kb;
	if (read_line_of("/proc/meminfo", field, v, sizeof v) == 0) {
		v[strcspn(v, " ")] = '\0';
		if (mt_parse_u64(v, 0, UINT64_MAX / 1024, &kb) == 0)
			return kb * 1024;
	}
	return 0;
}

uint64_t mt_mem_total(void)
{
	uint64_t b = meminfo_bytes("MemTotal");
	size_t n = sizeof b;
	if (!b && mt_plat_sysctl("hw.memsize", &b, &n) != 0) /* macOS */
		b = 0;
	return b;
}

uint64_t mt_mem_available(void)
{
	uint64_t b = meminfo_bytes("MemAvailable");
	if (b)
		return b;
	{
		uint64_t mem = 0;
		size_t n = sizeof mem;
		if (mt_plat_sysctl("hw.memsize", &mem, &n) == 0) /* macOS */
			return mem / 2; /* no cheap "available": assume half */
	}
	return 0;
}

int mt_load(double *loadavg1, int *running)
{
	double la[3];
	char v[64];
	int ok = -1;
	*loadavg1 = -1;
	*running = -1;
	if (getloadavg(la, 3) >= 1) {
		*loadavg1 = la[0];
		ok = 0;
	}
	if (read_line_of("/proc/stat", "procs_running", v, sizeof v) == 0)
		mt_parse_int(v, 0, 1 << 30, running);
	return ok;
}

int mt_cpu_times(uint64_t *total, uint64_t *steal)
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

void mt_thp_mode(char *buf, size_t len)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128];
	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(line, sizeof line, f)) {
		char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;
		if (a && b) {
			*b = '\0';
			mt_strlcpy(buf, a + 1, len);
		}
	}
	fclose(f);
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
		char path[128], v[32];
		FILE *f;
		long cap;
		mt_snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpu_capacity", c);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(v, sizeof v, f)) {
			cap = strtol(v, NULL, 10);
			if (first < 0)
				first = cap;
			else if (cap != first)
				hetero = 1;
			(void)mt_append(buf, len, "%s%d:%ld", buf[0] ? " " : "cpu_capacity ", c, cap);
		}
		fclose(f);
	}
	if (!hetero)
		buf[0] = '\0';
	return hetero;
}
