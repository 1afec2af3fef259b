/* sysinfo: facts about this machine that shape a measurement: CPU model,
 * kernel, CPUs, memory, load, steal time, transparent huge pages,
 * heterogeneous cores. Linux first; macOS through sysctl where it can. */
#ifndef MEMTOP_SYSINFO_H
#define MEMTOP_SYSINFO_H

#include "platform.h"

#include <stddef.h>
#include <stdint.h>

/* CPUs memtop looks at (sysfs cpuN folders, affinity lists). */
#define MT_MAX_CPUS 4096

/* mt_allowed_cpus, the CPUs this thread may run on, is platform.h's. */

/* 1 when the calling thread may run on cpu now (it is in mt_allowed_cpus:
 * online and in the affinity mask), else 0 (also when the platform cannot
 * tell). */
int mt_cpu_allowed(int cpu);

/* Online CPUs (sysconf), at least 1. */
int mt_online_cpus(void);

/* Bytes of a memory page (sysconf), 4096 when the system does not say. */
uint64_t mt_page_size(void);

/* ns the system takes to give this process one fresh page and let it touch
 * it: the fault, the zeroing, and whatever a hypervisor adds beneath (about
 * 0.5 us on bare metal; 40 us on the Zen 5 KVM guest memtop is built on,
 * where the host backs a page only at its first access). Timed once on 256
 * fresh pages, populated where the kernel can and then touched, as the
 * experiments give their buffers their pages; cached. For estimates only.
 * Returns 0 when it cannot be measured. */
double mt_fresh_page_ns(void);
#define MT_FRESH_PAGE_NS_GUESS 2000.0 /* for estimates when not measured */

#define MT_HUGE_2M (2u << 20) /* a transparent huge page (x86-64, arm64 4K-page kernels) */

/* The kernel's pages for [p, p+len) asked for now (MADV_POPULATE_WRITE),
 * in stretches of MT_POPULATE_STEP: one call over a whole buffer holds the
 * process's memory-map lock for all of it, and any other thread's mmap or
 * munmap meanwhile (the UI thread's free of a large block among them) waits
 * that long: 116-121 ms for 512 MB in a plain build on a KVM guest, 4-5 ms
 * with 16 MB stretches, the populating as fast; a soak under ASan saw the UI
 * thread wait 1.25 s in munmap as a latency run began. A hint: returns 0
 * when every stretch was given, -1 where the call is missing or refused
 * (first touch then faults the pages in). */
int mt_populate(void *p, size_t len);
#define MT_POPULATE_STEP (16u << 20)

/* An anonymous private read-write mapping of len bytes that starts on a
 * 2 MB boundary (so transparent huge pages can back all of it), advised
 * MADV_HUGEPAGE when huge, else MADV_NOHUGEPAGE (where the system has
 * them), its pages not yet touched. munmap(p, len) frees it. Returns it, or
 * NULL with errno set. */
void *mt_map_2m(size_t len, int huge);

/* CPU model name ("Intel(R) Xeon(R) ...", "Apple M4 Max"), or "unknown CPU". */
void mt_cpu_model(char *buf, size_t len);

/* Architecture and kernel: "x86_64 Linux 6.1.0-18-amd64". */
void mt_kernel(char *buf, size_t len);

/* Bytes of memory the machine has (MemTotal; hw.memsize on macOS); 0 when
 * unknown. */
uint64_t mt_mem_total(void);

/* Bytes of memory available to a new allocation without swapping
 * (MemAvailable on Linux, free+inactive on macOS); 0 when unknown. */
uint64_t mt_mem_available(void);

/* Load: the 1-minute load average and the runnable tasks (procs_running of
 * /proc/stat, which counts the caller). Returns 0, or -1 when unknown. */
int mt_load(double *loadavg1, int *running);

/* Cumulative CPU time counters of /proc/stat ("cpu" line) in clock ticks:
 * total and steal. Returns 0, or -1 when unknown. */
int mt_cpu_times(uint64_t *total, uint64_t *steal);

/* Transparent huge pages mode: "always", "madvise", "never", or "" when the
 * system has none. */
void mt_thp_mode(char *buf, size_t len);

/* The same read from the Linux tree under root (a recorded /sys tree's
 * folder holding sys/; "" for this machine's /sys, where there is one):
 * root/sys/kernel/mm/transparent_hugepage/enabled. buf "" when not
 * recorded. */
void mt_thp_mode_in(const char *root, char *buf, size_t len);

/* The hugetlbfs page sizes of the Linux tree under root ("" this machine):
 * root/sys/kernel/mm/hugepages/hugepages-NkB, each size in bytes into
 * size[] and its nr_hugepages (the pages set up; 0 when unreadable) into
 * count[], at most cap, smallest first. Returns how many. */
int mt_huge_pages_in(const char *root, uint64_t *size, uint64_t *count, int cap);

/* Heterogeneous cores: 1 when CPUs differ in capacity (Linux cpu_capacity,
 * macOS hw.nperflevels > 1), 0 when not, and a sentence describing them in
 * buf ("cpu_capacity 1024 on CPUs 0-3, 512 on 4-7"; "" when uniform). */
int mt_heterogeneous(char *buf, size_t len);

#endif
