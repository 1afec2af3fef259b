/* bandwidth_mixes: the reads:writes mixes Intel MLC measures (2:1 and 3:1
 * reads to writes), made of the lab's own kernels: its copy (or copy_nt)
 * and its scalar read, called in turn on spans of BANDWIDTH_MIX_SPAN
 * doubles of the three arrays, so that the reads and writes reach memory
 * together in the asked proportion and every figure is the lab's kernels'.
 *
 *   r2w1   each span: copy a <- b, then read c. Two lines read for each
 *          written: the same traffic as triad's, from a copy and a read
 *          stream beside it (triad reads its two streams into one sum).
 *   r3w1   spans 0, 1, 2 of every 4: copy a <- b, then read c; span 3:
 *          read a, b and c. Nine lines read for three written.
 *
 * Every double of the three arrays is touched once a pass, so a pass
 * counts 3 arrays (bandwidth_kernel_bytes: reads + writes, as STREAM and
 * MLC count; the read a cached store makes of its line first is not
 * counted: with copy_nt's streaming stores it is not made). */
#include "config.h"

#include "bandwidth_kernels.h"

#include <string.h>

/* Whether span j of a pass is r3w1's read-only span. */
static int read_span(int three, size_t j)
{
	return three && j % 4 == 3;
}

/* reps passes of a mix over n doubles: copy (the lab's copy or copy_nt)
 * and read (its scalar read) in turn on each span. Returns the sum of
 * every read, wrapping around, as the read kernel sums. */
static uint64_t mix_pass(bandwidth_pass_fn copy, bandwidth_pass_fn read, int three, double *a,
			 const double *b, const double *c, size_t n, size_t reps)
{
	uint64_t sum = 0;
	for (size_t r = 0; r < reps; r++)
		for (size_t off = 0; off < n; off += BANDWIDTH_MIX_SPAN) {
			size_t len = n - off < BANDWIDTH_MIX_SPAN ? n - off : BANDWIDTH_MIX_SPAN;
			if (read_span(three, off / BANDWIDTH_MIX_SPAN)) {
				sum += read(a + off, NULL, NULL, len, 0, 1);
				sum += read((double *)(uintptr_t)(b + off), NULL, NULL, len, 0, 1);
			} else {
				copy(a + off, b + off, NULL, len, 0, 1);
			}
			sum += read((double *)(uintptr_t)(c + off), NULL, NULL, len, 0, 1);
		}
	return sum;
}

/* One mix function per ISA and store kind: the lab's kernels of that ISA,
 * looked up at each call (a call covers up to 8 MB). */
#define BANDWIDTH_MIX(NAME, COPY, ISA, THREE)                                                  \
	static uint64_t NAME(double *a, const double *b, const double *c, size_t n, double s,  \
			     size_t reps)                                                      \
	{                                                                                      \
		(void)s;                                                                       \
		return mix_pass(bandwidth_table_fn(COPY, ISA),                                 \
				bandwidth_table_fn(BANDWIDTH_READ, ISA), THREE, a, b, c, n, reps); \
	}
#define BANDWIDTH_MIXES(SUF, ISA)                                                              \
	BANDWIDTH_MIX(r2w1_##SUF, BANDWIDTH_COPY, ISA, 0)                                      \
	BANDWIDTH_MIX(r2w1_nt_##SUF, BANDWIDTH_COPY_NT, ISA, 0)                                \
	BANDWIDTH_MIX(r3w1_##SUF, BANDWIDTH_COPY, ISA, 1)                                      \
	BANDWIDTH_MIX(r3w1_nt_##SUF, BANDWIDTH_COPY_NT, ISA, 1)

BANDWIDTH_MIXES(scalar, BANDWIDTH_ISA_SCALAR)
BANDWIDTH_MIXES(sse2, BANDWIDTH_ISA_SSE2)
BANDWIDTH_MIXES(avx2, BANDWIDTH_ISA_AVX2)
BANDWIDTH_MIXES(avx512, BANDWIDTH_ISA_AVX512)
BANDWIDTH_MIXES(neon, BANDWIDTH_ISA_NEON)

/* [isa][kernel - BANDWIDTH_R2W1], in the enum's order: r2w1, r2w1_nt, r3w1,
 * r3w1_nt. */
static const bandwidth_pass_fn mixes[BANDWIDTH_NISA][4] = {
	{ r2w1_scalar, r2w1_nt_scalar, r3w1_scalar, r3w1_nt_scalar },
	{ r2w1_sse2, r2w1_nt_sse2, r3w1_sse2, r3w1_nt_sse2 },
	{ r2w1_avx2, r2w1_nt_avx2, r3w1_avx2, r3w1_nt_avx2 },
	{ r2w1_avx512, r2w1_nt_avx512, r3w1_avx512, r3w1_nt_avx512 },
	{ r2w1_neon, r2w1_nt_neon, r3w1_neon, r3w1_nt_neon },
};

bandwidth_pass_fn bandwidth_mix_fn(int kernel, int isa)
{
	int nt = kernel == BANDWIDTH_R2W1_NT || kernel == BANDWIDTH_R3W1_NT;
	if (kernel < BANDWIDTH_R2W1 || kernel >= BANDWIDTH_NKERNELS || isa < 0 || isa >= BANDWIDTH_NISA)
		return NULL;
	/* the ISA's copy of that store kind, or no mix (no streaming stores:
	 * scalar, NEON) */
	if (!bandwidth_table_fn(nt ? BANDWIDTH_COPY_NT : BANDWIDTH_COPY, isa))
		return NULL;
	return mixes[isa][kernel - BANDWIDTH_R2W1];
}

bandwidth_pass_fn bandwidth_kernel_fn(int kernel, int isa)
{
	if (kernel >= BANDWIDTH_R2W1 && kernel < BANDWIDTH_NKERNELS) /* the mixes: made of the table's */
		return bandwidth_isa_supported(isa) ? bandwidth_mix_fn(kernel, isa) : NULL;
	return bandwidth_table_fn(kernel, isa);
}

/* The wrap-around sum of the 64-bit words of a[0..n), as the scalar read
 * adds them. */
static uint64_t words(const double *a, size_t n)
{
	uint64_t s = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t w;
		memcpy(&w, &a[i], sizeof w);
		s += w;
	}
	return s;
}

int bandwidth_mix_check(int kernel, const double *a, const double *b, const double *c, size_t n,
			uint64_t sum, size_t reps)
{
	int three = kernel == BANDWIDTH_R3W1 || kernel == BANDWIDTH_R3W1_NT;
	uint64_t want = 0;
	if (kernel < BANDWIDTH_R2W1 || kernel >= BANDWIDTH_NKERNELS)
		return 0;
	for (size_t off = 0; off < n; off += BANDWIDTH_MIX_SPAN) {
		size_t len = n - off < BANDWIDTH_MIX_SPAN ? n - off : BANDWIDTH_MIX_SPAN;
		if (read_span(three, off / BANDWIDTH_MIX_SPAN)) {
			/* read, never written: a as bandwidth_fill left it */
			for (size_t i = off; i < off + len; i++)
				if (a[i] != -1.0 - (double)(i % 1000))
					return 0;
			want += words(a + off, len) + words(b + off, len);
		} else if (memcmp(a + off, b + off, len * sizeof *a) != 0) {
			return 0;
		}
		want += words(c + off, len);
	}
	return sum == want * (uint64_t)reps;
}
