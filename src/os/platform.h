/* platform: what memtop asks of the operating system, behind one interface
 * (htop's Platform.h). One file per OS family defines all of it:
 * platform_linux.c (Linux) and platform_darwin.c (macOS, and for now any
 * other OS: no CPU affinity, sysctl where the system has it). Each is
 * compiled everywhere and empty except on its own family, which this header
 * picks (MT_OS_*) and is the only place to pick: a port to another OS
 * (FreeBSD's cpuset_setaffinity, say) is one new platform_NAME.c and one
 * line here. The processor side (the tick counter, CPUID, the vector units)
 * is arch.h's. No other file of memtop tests __linux__, __APPLE__,
 * __x86_64__ or __aarch64__ (tests/platform.sh checks it). */
#ifndef MEMTOP_PLATFORM_H
#define MEMTOP_PLATFORM_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__linux__)
#define MT_OS_LINUX 1
#else /* macOS, and until they have a file of their own the BSDs and others */
#define MT_OS_DARWIN 1
#endif

/* The CPUs the calling thread may run on, ascending, at most cap of them into
 * cpus; returns the count, 0 when the OS cannot tell (or pins nothing). */
int mt_allowed_cpus(int *cpus, int cap);

/* Lets the calling thread run on the n CPUs of cpus only. Returns 0, or -1
 * when the OS refuses or cannot pin (n 0 included). */
int mt_plat_set_allowed(const int *cpus, int n);

/* The CPU the calling thread runs on now (sched_getcpu), or -1 when the OS
 * cannot tell. */
int mt_plat_current_cpu(void);

/* 1 when a thread can be started pinned to one CPU (mt_plat_attr_pin works),
 * else 0. */
int mt_plat_can_pin(void);

/* Makes attr start its thread on CPU cpu only (cpu < 0: anywhere). Returns 0,
 * or -1 when the OS cannot pin (attr is then unchanged). */
int mt_plat_attr_pin(pthread_attr_t *attr, int cpu);

/* 1 when the OS has the hw.* sysctl names (macOS), else 0. */
int mt_plat_has_sysctl(void);

/* sysctlbyname(name): its value into buf, *len in: buf's size, out: the
 * value's. Returns 0, or -1 when the name is unknown or the OS has no sysctl
 * (mt_plat_has_sysctl() 0). */
int mt_plat_sysctl(const char *name, void *buf, size_t *len);

/* The NUMA node of each of the n pages at addr[] into node[] (a negative
 * errno where a page has none: -ENOENT not yet touched), moving nothing
 * (Linux's move_pages with no target). Returns 0, or -1 when the OS cannot
 * tell. */
int mt_plat_page_nodes(void *const *addr, size_t n, int *node);

/* The heap as its allocator sees it, in bytes: live, what the program has
 * allocated and not freed; held, what the allocator keeps from the OS for
 * it (live, its own records, and freed memory not given back). Both 0 where
 * the allocator does not tell (glibc's mallinfo2 on Linux; AddressSanitizer's
 * allocator in a --enable-sanitizers build; none in a ThreadSanitizer one).
 * rss: the process's resident bytes (Linux's /proc/self/statm), 0 where the
 * OS does not tell. */
struct mt_heap {
	size_t live, held, rss;
};
void mt_plat_heap(struct mt_heap *h);

/* Gives the freed memory the allocator keeps back to the OS: the free
 * chunks' whole pages in every arena (glibc's malloc_trim(0)), or the free
 * pages of AddressSanitizer's allocator in a sanitizer build (its purge); a
 * no-op where the allocator has neither. It walks the free chunks (ASan's
 * purge took 1.8 ms at the median of a soak's runs, 26 ms at most on a
 * loaded host): call it when a run has ended, not in a loop. */
void mt_plat_heap_release(void);

/* For a process that lives long and runs many jobs (the terminal UI): a
 * freed large buffer goes back to the OS at once. glibc raises its mmap
 * threshold to the size of each large buffer freed (up to 32 MB), and its
 * trim threshold to twice that, so that after one large run the next
 * run's buffers come from a thread's arena and stay there when freed, out
 * of malloc_trim's reach (it does not shrink a thread arena's top): this
 * fixes both at glibc's defaults (128 KB), which stops the raising. A
 * no-op where the allocator is not glibc's (AddressSanitizer's maps and
 * unmaps its large chunks itself). */
void mt_plat_heap_long_lived(void);

/* Frees coalesce at once from now on (on = 1), or as the allocator likes
 * again (0). glibc keeps small freed chunks apart in its fast bins and
 * merges them all in one go at the next large malloc or when the thread
 * ends: after the lists lab freed a 4M-cell malloc'd list (8-10M blocks)
 * that one go took 0.6-1.8 s here, in a thread's end a stop waited for;
 * freed with this on, the list took 0.2-0.8 s and no merge was left (M_MXFAST
 * 0, then back to its default). For freeing millions of small blocks; a
 * no-op where the allocator is not glibc's. */
void mt_plat_heap_eager_free(int on);

/* Names the calling thread name (at most 15 characters: Linux's comm, what
 * ps -L and /proc/PID/task/TID/comm show), where the OS names threads;
 * nothing elsewhere. */
void mt_plat_thread_name(const char *name);

/* Ready getopt for a new command line: a full reset (optind = 1 alone
 * leaves glibc's getopt inside the last line's cluster, "-hq" stopped at
 * -h, on text that may be gone) and no messages of its own (opterr = 0:
 * every command says its errors in its own words). The BSDs reset getopt
 * with optreset, glibc with optind = 0. */
void mt_getopt_reset(void);

/* What os/sysinfo reports of the machine, as this OS tells it. Each
 * returns -1 when the OS does not say (a file absent or unreadable, a name
 * unknown), and the caller says "unknown" or falls back. */

/* The processor's model, unchecked text, into buf (Linux: /proc/cpuinfo's
 * "model name", which aarch64 lacks; macOS: machdep.cpu.brand_string).
 * Returns 0, or -1. */
int mt_plat_cpu_model(char *buf, size_t len);

/* The memory in bytes into *bytes: all of it (available 0: Linux's
 * MemTotal, macOS's hw.memsize), or what new work can have without
 * swapping (available 1: Linux's MemAvailable; macOS has no cheap figure,
 * so half of hw.memsize). Returns 0, or -1. */
int mt_plat_memory(int available, uint64_t *bytes);

/* The tasks runnable now (Linux: /proc/stat's procs_running) into *n.
 * Returns 0, or -1. */
int mt_plat_procs_running(int *n);

/* The CPU time of all CPUs since boot in the OS's ticks: *total (guest
 * times are inside user), *steal (what a hypervisor gave to other guests).
 * Returns 0, or -1. */
int mt_plat_cpu_times(uint64_t *total, uint64_t *steal);

/* Transparent huge pages' mode ("always", "madvise", "never") into buf.
 * Returns 0, or -1 with buf "" when the OS has no such setting. */
int mt_plat_thp_mode(char *buf, size_t len);

/* How the kernel ranks CPU cpu's core (Linux: cpu_capacity, 1024 the
 * fastest) into *cap. Returns 0, or -1. */
int mt_plat_cpu_capacity(int cpu, long *cap);

/* Of the memory at [addr, addr + len): the bytes resident and, of them, the
 * bytes on transparent huge pages, into *resident and *huge (Linux: the
 * Rss and AnonHugePages lines of /proc/self/smaps, summed over the
 * mappings that overlap the range; a mapping the kernel merged with a
 * neighbour counts whole, so *huge is capped at len). Returns 0, or -1 when
 * the OS cannot tell (both 0). */
int mt_plat_huge_bytes(const void *addr, size_t len, uint64_t *resident, uint64_t *huge);

/* Ask for transparent huge pages over [p, p + len) (huge) or for 4 KB pages
 * only (!huge): Linux's madvise MADV_HUGEPAGE / MADV_NOHUGEPAGE. A hint:
 * returns 0, or -1 where the OS has no such advice or refused it. */
int mt_plat_page_advice(void *p, size_t len, int huge);

/* The involuntary context switches of the calling thread so far (Linux:
 * getrusage RUSAGE_THREAD's ru_nivcsw). Returns the count, or 0 where the
 * OS cannot tell. */
long mt_plat_thread_preemptions(void);

/* The kernel's text about its CPUs (Linux: /proc/cpuinfo), at most len - 1
 * bytes of it, into buf (terminated). Returns 0, or -1 with buf "" where
 * the OS has none or it cannot be read. */
int mt_plat_cpuinfo(char *buf, size_t len);

/* The kernel's automatic NUMA balancing (Linux: kernel.numa_balancing; 0
 * off, 1 normal, 2 memory tiering, 3 both) into *mode. Returns 0, or -1 (*mode -1)
 * where the OS has no such setting. */
int mt_plat_numa_balancing(int *mode);

/* The permanent hardware address of network interface ifname (Linux:
 * ethtool's ETHTOOL_GPERMADDR, which needs no privilege), as
 * "aa:bb:cc:dd:ee:ff" into buf: the address it was made with, whatever
 * address it uses now (a randomised or set one). Returns 0, or -1 where
 * the OS or the driver does not tell. */
int mt_plat_perm_mac(const char *ifname, char *buf, size_t len);

/* The machine's own UUID where the OS gives it to every user (macOS:
 * gethostuuid, the hardware UUID), as text into buf. Returns 0, or -1
 * where it has none (Linux: its identifiers are files os/machine_id reads). */
int mt_plat_host_uuid(char *buf, size_t len);

#endif
