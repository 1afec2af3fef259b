/* bench/mountain_ref.c: a CS:APP-style memory mountain, the reference that
 * bench/mountain runs beside memtop. Written from the book's description of
 * its method (CS:APP 3e, 6.6.1 and the K-best scheme of its timing aside),
 * not from its code:
 *   - one call of the kernel warms the cache and is not counted;
 *   - then single calls are timed one by one with the cycle counter, and the
 *     K fastest are kept; sampling stops when the K fastest agree within
 *     epsilon or after max-samples calls; the fastest counts;
 *   - MB/s = bytes read * 1000 / ns.
 * The kernel is the seed's (four independent accumulators, wrap-around adds,
 * not inlined, the sum sunk), on a buffer of 4 KB pages touched beforehand,
 * like memtop's. --kernel book uses the book's own loop shape instead
 * (a global array, an `int` count, the tail read at stride 1 as printed).
 *
 * Build: cc -O2 -o mountain_ref bench/mountain_ref.c
 * Usage: mountain_ref [--sizes LO:HI] [--strides LIST | --max-stride N]
 *                     [--k K] [--eps E] [--max-samples N] [--kernel seed|book]
 *                     [--hugepages] [--cpu N]
 * Output: memtop's CSV (size_bytes,s1,s2,...; MB/s), then a comment line
 * "# measured in S s; ... samples" on stderr. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define MAX_SIZES 48
#define MAX_STRIDES 64
#define MAX_K 16
#define CAL_NS 50000000.0 /* tick-rate calibration: 50 ms */

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The cycle counter the book times with: the TSC on x86 (fenced so the
 * loads of the pass cannot move across it), the virtual counter on aarch64,
 * else the monotonic clock. */
static inline uint64_t ticks(void)
{
#if defined(__x86_64__)
	uint32_t lo, hi;
	__asm__ __volatile__("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
	uint64_t v;
	__asm__ __volatile__("isb; mrs %0, cntvct_el0; isb" : "=r"(v)::"memory");
	return v;
#else
	return now_ns();
#endif
}

static double ticks_per_ns(void)
{
	uint64_t t0 = now_ns(), c0 = ticks(), t1, c1;
	do
		t1 = now_ns();
	while ((double)(t1 - t0) < CAL_NS);
	c1 = ticks();
	return (double)(c1 - c0) / (double)(t1 - t0);
}

/* The seed's kernel. A copy on purpose, not a call of memtop's own
 * mountain_read_pass (src/mountain/mountain.c, the same loop): this
 * reference builds alone (cc bench/mountain_ref.c, no libmemtop) and shares
 * no code with what it is held against, so a fault in memtop's kernel or in
 * the flags memtop builds it with (noipa, no tree vectorizer) cannot hide
 * in both. `duplicates` pairs the two loops; that pair stays. */
__attribute__((noinline)) int64_t seed_pass(const int64_t *data, size_t n, size_t stride)
{
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
	const uint64_t *d = (const uint64_t *)data;
	size_t step = stride * 4, i = 0;
	for (; i + step <= n; i += step) {
		a0 += d[i];
		a1 += d[i + stride];
		a2 += d[i + 2 * stride];
		a3 += d[i + 3 * stride];
	}
	for (; i < n; i += stride)
		a0 += d[i];
	return (int64_t)((a0 + a1) + (a2 + a3));
}

/* The book's loop shape: indices against a limit, the base a global. */
static const int64_t *book_data;
__attribute__((noinline)) int64_t book_pass(const int64_t *unused, size_t n, size_t stride)
{
	long i, s = (long)stride, s2 = s * 2, s3 = s * 3, s4 = s * 4, len = (long)n;
	long limit = len - s4;
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
	const uint64_t *d = (const uint64_t *)book_data;
	(void)unused;
	for (i = 0; i < limit; i += s4) {
		a0 += d[i];
		a1 += d[i + s];
		a2 += d[i + s2];
		a3 += d[i + s3];
	}
	for (; i < len; i++)
		a0 += d[i];
	return (int64_t)((a0 + a1) + (a2 + a3));
}

typedef int64_t (*pass_fn)(const int64_t *, size_t, size_t);

struct opts {
	uint64_t lo, hi;
	unsigned strides[MAX_STRIDES];
	size_t nstrides;
	int k, max_samples, hugepages, cpu;
	double eps;
	pass_fn pass;
};

static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'K': case 'k': v <<= 10; end++; break;
	case 'M': case 'm': v <<= 20; end++; break;
	case 'G': case 'g': v <<= 30; end++; break;
	}
	if (*end && *end != ':')
		return -1;
	*out = v;
	return 0;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	o->lo = 16u << 10;
	o->hi = 128u << 20;
	o->nstrides = 15;
	for (unsigned s = 1; s <= 15; s++)
		o->strides[s - 1] = s;
	o->k = 3;
	o->eps = 0.01;
	o->max_samples = 500;
	o->hugepages = 0;
	o->cpu = -1;
	o->pass = seed_pass;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--hugepages")) {
			o->hugepages = 1;
			continue;
		}
		if (!v)
			goto bad;
		i++;
		if (!strcmp(a, "--sizes")) {
			const char *c = strchr(v, ':');
			if (!c || parse_size(v, &o->lo) < 0 || parse_size(c + 1, &o->hi) < 0)
				goto bad;
		} else if (!strcmp(a, "--max-stride")) {
			long n = strtol(v, NULL, 10);
			if (n < 1 || n > MAX_STRIDES)
				goto bad;
			o->nstrides = (size_t)n;
			for (long s = 1; s <= n; s++)
				o->strides[s - 1] = (unsigned)s;
		} else if (!strcmp(a, "--strides")) {
			char *end;
			const char *p = v;
			o->nstrides = 0;
			while (*p && o->nstrides < MAX_STRIDES) {
				unsigned long s = strtoul(p, &end, 10);
				if (end == p || s < 1 || s > 1024)
					goto bad;
				o->strides[o->nstrides++] = (unsigned)s;
				p = *end == ',' ? end + 1 : end;
			}
		} else if (!strcmp(a, "--k")) {
			o->k = (int)strtol(v, NULL, 10);
		} else if (!strcmp(a, "--eps")) {
			o->eps = strtod(v, NULL);
		} else if (!strcmp(a, "--max-samples")) {
			o->max_samples = (int)strtol(v, NULL, 10);
		} else if (!strcmp(a, "--cpu")) {
			o->cpu = (int)strtol(v, NULL, 10);
		} else if (!strcmp(a, "--kernel")) {
			if (!strcmp(v, "seed"))
				o->pass = seed_pass;
			else if (!strcmp(v, "book"))
				o->pass = book_pass;
			else
				goto bad;
		} else {
			goto bad;
		}
	}
	if (o->k < 1 || o->k > MAX_K || o->max_samples < o->k || o->lo < 4096 || o->hi < o->lo)
		goto bad;
	return 0;
bad:
	fprintf(stderr, "mountain_ref: bad arguments (see the comment at the top of "
			"bench/mountain_ref.c)\n");
	return -1;
}

/* K-best: time single passes until the k fastest agree within eps or
 * max_samples passes were timed. Returns the fastest pass in ticks. */
static double kbest(const struct opts *o, const int64_t *buf, size_t n, size_t stride,
		    long *samples)
{
	double best[MAX_K];
	int kept = 0, count = 0;
	int64_t sink = 0;
	while (count < o->max_samples) {
		uint64_t t0 = ticks();
		sink += o->pass(buf, n, stride);
		double t = (double)(ticks() - t0);
		int j;
		count++;
		/* insert t into the sorted best[0..kept) */
		if (kept < o->k)
			kept++;
		else if (t >= best[kept - 1])
			goto check;
		for (j = kept - 1; j > 0 && best[j - 1] > t; j--)
			best[j] = best[j - 1];
		best[j] = t;
	check:
		if (kept == o->k && best[kept - 1] <= (1 + o->eps) * best[0])
			break;
	}
	__asm__ __volatile__("" ::"r"(sink));
	*samples += count;
	return best[0];
}

int main(int argc, char **argv)
{
	struct opts o;
	uint64_t sizes[MAX_SIZES], t_start;
	size_t nsizes = 0, words;
	int64_t *buf;
	double tpn;
	long samples = 0;
	if (parse_args(argc, argv, &o) < 0)
		return 2;
	for (uint64_t s = o.lo; s <= o.hi && nsizes < MAX_SIZES; s *= 2)
		sizes[nsizes++] = s & ~(uint64_t)7;
	if (o.cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(o.cpu, &set);
		if (sched_setaffinity(0, sizeof set, &set) < 0)
			perror("mountain_ref: sched_setaffinity");
	}
	buf = mmap(NULL, sizes[nsizes - 1], PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		   0);
	if (buf == MAP_FAILED) {
		perror("mountain_ref: mmap");
		return 1;
	}
	madvise(buf, sizes[nsizes - 1], o.hugepages ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	words = sizes[nsizes - 1] / 8;
	for (size_t i = 0; i < words; i++)
		buf[i] = (int64_t)(i & 0xff);
	book_data = buf;
	tpn = ticks_per_ns();

	t_start = now_ns();
	printf("size_bytes");
	for (size_t c = 0; c < o.nstrides; c++)
		printf(",s%u", o.strides[c]);
	printf("\n");
	for (size_t r = 0; r < nsizes; r++) {
		size_t n = sizes[r] / 8;
		printf("%llu", (unsigned long long)sizes[r]);
		for (size_t c = 0; c < o.nstrides; c++) {
			size_t stride = o.strides[c], accesses = (n + stride - 1) / stride;
			int64_t warm = o.pass(buf, n, stride); /* warm the cache: one call */
			double t;
			__asm__ __volatile__("" ::"r"(warm));
			t = kbest(&o, buf, n, stride, &samples);
			printf(",%.1f", (double)accesses * 8.0 * 1000.0 / (t / tpn));
		}
		printf("\n");
		fflush(stdout);
	}
	fprintf(stderr, "# measured in %.1f s; %ld single passes timed; counter %.3f GHz\n",
		(double)(now_ns() - t_start) / 1e9, samples, tpn);
	munmap(buf, sizes[nsizes - 1]);
	return 0;
}
