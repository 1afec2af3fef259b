/* bandwidth_kernels: the measuring kernels, one set per instruction set,
 * chosen at run time (see bandwidth.h).
 *
 * Honesty:
 *  - every kernel is a separate function the compiler may not inline, clone
 *    or look into from its callers (MT_KERNEL_SCALAR, os/barrier.h); it makes `reps`
 *    passes itself (so a small array's pass costs no call and no
 *    reduction), laundering its pointers before each pass (mt_launder,
 *    os/barrier.h: no pass can share loads with another) and sinking a
 *    pass's stores before the next (mt_sink_memory); reads return their
 *    sum, which the caller sinks;
 *  - the scalar kernels are kept scalar (no auto-vectorization), and no
 *    loop may become a call to memcpy or memset (GCC's loop distribution,
 *    clang's idiom recognizer), which could use other instructions
 *    (rep movsb, streaming stores) than the ones the row names;
 *  - the vector kernels are written with intrinsics in functions compiled
 *    for their instruction set only (target attributes), so the binary
 *    runs on a CPU without AVX: the table below hands them out only when
 *    __builtin_cpu_supports says the CPU (and the OS) has them. */
#include "config.h"

#include "bandwidth_kernels.h"
#include "base/util.h"
#include "base/i18n.h"
#include "os/arch.h"
#include "os/barrier.h"

#include <string.h>
#include <strings.h>

#if defined(MT_ARCH_X86)
#define BANDWIDTH_X86 1
#include <immintrin.h>
#elif defined(MT_ARCH_AARCH64) && defined(__ARM_NEON)
#define BANDWIDTH_NEON 1
#include <arm_neon.h>
#endif

/* A 64-bit word that may alias the doubles it is read from. */
typedef uint64_t __attribute__((may_alias)) bandwidth_word;

/* The head of every kernel: a bandwidth_pass_fn (bandwidth.h), compiled for
 * TGT (a target attribute, or nothing); b, c and s are there for the
 * kernels that use them (copy: b; triad: b, c and s; write: s). */
#define BANDWIDTH_KERNEL(NAME, TGT)                                                         \
	MT_KERNEL_SCALAR TGT static uint64_t NAME(                                          \
		double *a, const double *b BANDWIDTH_MAYBE_UNUSED,                          \
		const double *c BANDWIDTH_MAYBE_UNUSED, size_t n,                           \
		double s BANDWIDTH_MAYBE_UNUSED, size_t reps)
#define BANDWIDTH_MAYBE_UNUSED __attribute__((unused))

/* Eight loads from q .. q + 7 into registers, nothing consuming them (the
 * load kernel's step): SINK (mt_sink_vector, or mt_sink for 8-byte words)
 * makes each one be in a register, so no compiler may drop or merge them. */
#define BANDWIDTH_SINK8(SINK, LOADI, q)                                                            \
	{                                                                                   \
		SINK(LOADI((q)));                                                           \
		SINK(LOADI((q) + 1));                                                       \
		SINK(LOADI((q) + 2));                                                       \
		SINK(LOADI((q) + 3));                                                       \
		SINK(LOADI((q) + 4));                                                       \
		SINK(LOADI((q) + 5));                                                       \
		SINK(LOADI((q) + 6));                                                       \
		SINK(LOADI((q) + 7));                                                       \
	}

/* ---- scalar: 8-byte loads and stores ------------------------------------- */

/* Each kernel makes reps passes. Between passes the array pointers are
 * laundered (the compiler must reload them: it cannot share one pass's
 * loads with the next or keep only the last pass's stores), and the stores
 * of a pass are sunk into memory before the next. */

BANDWIDTH_KERNEL(read_scalar, )
{
	uint64_t x0 = 0, x1 = 0, x2 = 0, x3 = 0, x4 = 0, x5 = 0, x6 = 0, x7 = 0;
	for (size_t r = 0; r < reps; r++) {
		const bandwidth_word *w = (const bandwidth_word *)a;
		mt_launder(w);
		MT_LOOP_SCALAR
		for (size_t i = 0; i < n; i += 8) {
			x0 += w[i];
			x1 += w[i + 1];
			x2 += w[i + 2];
			x3 += w[i + 3];
			x4 += w[i + 4];
			x5 += w[i + 5];
			x6 += w[i + 6];
			x7 += w[i + 7];
		}
	}
	return ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
}

/* The vector read of a CPU without vectors: 8-byte words xored into eight
 * accumulators, each pass's xor added to the sum (as the vector reads). */
BANDWIDTH_KERNEL(read_xor_scalar, )
{
	uint64_t sum = 0;
	for (size_t r = 0; r < reps; r++) {
		const bandwidth_word *w = (const bandwidth_word *)a;
		uint64_t x0 = 0, x1 = 0, x2 = 0, x3 = 0, x4 = 0, x5 = 0, x6 = 0, x7 = 0;
		mt_launder(w);
		MT_LOOP_SCALAR
		for (size_t i = 0; i < n; i += 8) {
			x0 ^= w[i];
			x1 ^= w[i + 1];
			x2 ^= w[i + 2];
			x3 ^= w[i + 3];
			x4 ^= w[i + 4];
			x5 ^= w[i + 5];
			x6 ^= w[i + 6];
			x7 ^= w[i + 7];
		}
		sum += ((x0 ^ x1) ^ (x2 ^ x3)) ^ ((x4 ^ x5) ^ (x6 ^ x7));
	}
	return sum;
}

/* The load kernel of a CPU without vectors: 8-byte loads into registers,
 * nothing consuming them (BANDWIDTH_SINK8 with mt_sink: each must be in a
 * register, so each load is made). */
#define LDW(q) (*(q))
BANDWIDTH_KERNEL(load_scalar, )
{
	for (size_t r = 0; r < reps; r++) {
		const bandwidth_word *w = (const bandwidth_word *)a;
		mt_launder(w);
		MT_LOOP_SCALAR
		for (size_t i = 0; i < n; i += 8)
			BANDWIDTH_SINK8(mt_sink, LDW, w + i)
	}
	return 0;
}

BANDWIDTH_KERNEL(write_scalar, )
{
	for (size_t r = 0; r < reps; r++) {
		double *d = a;
		mt_launder(d);
		MT_LOOP_SCALAR
		for (size_t i = 0; i < n; i += 4) {
			d[i] = s;
			d[i + 1] = s;
			d[i + 2] = s;
			d[i + 3] = s;
		}
		mt_sink_memory(d);
	}
	return 0;
}

BANDWIDTH_KERNEL(copy_scalar, )
{
	for (size_t r = 0; r < reps; r++) {
		double *d = a;
		const double *e = b;
		mt_launder(d);
		mt_launder(e);
		MT_LOOP_SCALAR
		for (size_t i = 0; i < n; i += 4) {
			d[i] = e[i];
			d[i + 1] = e[i + 1];
			d[i + 2] = e[i + 2];
			d[i + 3] = e[i + 3];
		}
		mt_sink_memory(d);
	}
	return 0;
}

BANDWIDTH_KERNEL(triad_scalar, )
{
	for (size_t r = 0; r < reps; r++) {
		double *d = a;
		const double *e = b, *f = c;
		mt_launder(d);
		mt_launder(e);
		mt_launder(f);
		MT_LOOP_SCALAR
		for (size_t i = 0; i < n; i += 4) {
			d[i] = e[i] + s * f[i];
			d[i + 1] = e[i + 1] + s * f[i + 1];
			d[i + 2] = e[i + 2] + s * f[i + 2];
			d[i + 3] = e[i + 3] + s * f[i + 3];
		}
		mt_sink_memory(d);
	}
	return 0;
}

/* Eight loads from q .. q + 7, each xored into its own accumulator x0 ..
 * x7 (the vector read's step; the loop takes two a turn). */
#define BANDWIDTH_XOR8(XORI, LOADI, q)                                                             \
	{                                                                                   \
		x0 = XORI(x0, LOADI((q))), x1 = XORI(x1, LOADI((q) + 1));                  \
		x2 = XORI(x2, LOADI((q) + 2)), x3 = XORI(x3, LOADI((q) + 3));              \
		x4 = XORI(x4, LOADI((q) + 4)), x5 = XORI(x5, LOADI((q) + 5));              \
		x6 = XORI(x6, LOADI((q) + 6)), x7 = XORI(x7, LOADI((q) + 7));              \
	}

/* Sixteen loads from q .. q + 15, two into each accumulator x0 .. x7 with
 * one three-way xor (XOR3(x, a, b) = x ^ a ^ b: AVX-512's vpternlogq, one
 * instruction with one of the loads as its memory operand). */
#define BANDWIDTH_XOR16(XOR3, LOADI, q)                                                            \
	{                                                                                   \
		x0 = XOR3(x0, LOADI((q)), LOADI((q) + 1));                                  \
		x1 = XOR3(x1, LOADI((q) + 2), LOADI((q) + 3));                              \
		x2 = XOR3(x2, LOADI((q) + 4), LOADI((q) + 5));                              \
		x3 = XOR3(x3, LOADI((q) + 6), LOADI((q) + 7));                              \
		x4 = XOR3(x4, LOADI((q) + 8), LOADI((q) + 9));                              \
		x5 = XOR3(x5, LOADI((q) + 10), LOADI((q) + 11));                            \
		x6 = XOR3(x6, LOADI((q) + 12), LOADI((q) + 13));                            \
		x7 = XOR3(x7, LOADI((q) + 14), LOADI((q) + 15));                            \
	}

/* ---- vector kernels of any ISA ------------------------------------------------ */

/* Four vectors v0 .. v3 stored at p, p + K, p + 2 K, p + 3 K. */
#define BANDWIDTH_VEC_STORE4(STORE, p, K, v0, v1, v2, v3)                                          \
	{                                                                                   \
		STORE((p), (v0));                                                           \
		STORE((p) + K, (v1));                                                       \
		STORE((p) + 2 * K, (v2));                                                   \
		STORE((p) + 3 * K, (v3));                                                   \
	}

/* write, copy and triad of one ISA (VD a vector of K doubles; LOADD,
 * STORE, SET1D, ADDD, MULD its load, store, broadcast, add and multiply):
 * one stream, cached stores (FENCE empty) or, for x86's write_nt,
 * streaming ones (STORE = STREAMD, FENCE = _mm_sfence();: streaming stores
 * are weakly ordered); x86's copy_nt and triad_nt are BANDWIDTH_X86_COPY_NT and
 * BANDWIDTH_X86_TRIAD_NT below. */
#define BANDWIDTH_VEC_WRITE(NAME, TGT, VD, K, SET1D, STORE, FENCE)                                 \
	BANDWIDTH_KERNEL(NAME, TGT)                                                                \
	{                                                                                   \
		VD v = SET1D(s);                                                            \
		for (size_t r = 0; r < reps; r++) {                                         \
			double *d = a;                                                      \
			mt_launder(d);                                                      \
			for (size_t i = 0; i < n; i += 4 * K) {                             \
				BANDWIDTH_VEC_STORE4(STORE, d + i, K, v, v, v, v)                  \
			}                                                                   \
			mt_sink_memory(d);                                                  \
		}                                                                           \
		FENCE                                                                       \
		return 0;                                                                   \
	}
#define BANDWIDTH_VEC_COPY(NAME, TGT, VD, K, LOADD, STORE, FENCE)                                  \
	BANDWIDTH_KERNEL(NAME, TGT)                                                                \
	{                                                                                   \
		for (size_t r = 0; r < reps; r++) {                                         \
			double *d = a;                                                      \
			const double *e = b;                                                \
			mt_launder(d);                                                      \
			mt_launder(e);                                                      \
			for (size_t i = 0; i < n; i += 4 * K) {                             \
				VD v0 = LOADD(e + i), v1 = LOADD(e + i + K);                \
				VD v2 = LOADD(e + i + 2 * K), v3 = LOADD(e + i + 3 * K);    \
				BANDWIDTH_VEC_STORE4(STORE, d + i, K, v0, v1, v2, v3)              \
			}                                                                   \
			mt_sink_memory(d);                                                  \
		}                                                                           \
		FENCE                                                                       \
		return 0;                                                                   \
	}
#define BANDWIDTH_VEC_TRIAD(NAME, TGT, VD, K, LOADD, STORE, SET1D, ADDD, MULD, FENCE)              \
	BANDWIDTH_KERNEL(NAME, TGT)                                                                \
	{                                                                                   \
		VD vs = SET1D(s);                                                           \
		for (size_t r = 0; r < reps; r++) {                                         \
			double *d = a;                                                      \
			const double *e = b, *f = c;                                        \
			mt_launder(d);                                                      \
			mt_launder(e);                                                      \
			mt_launder(f);                                                      \
			for (size_t i = 0; i < n; i += 2 * K) {                             \
				VD v0 = ADDD(LOADD(e + i), MULD(vs, LOADD(f + i)));         \
				VD v1 = ADDD(LOADD(e + i + K), MULD(vs, LOADD(f + i + K))); \
				STORE(d + i, v0);                                           \
				STORE(d + i + K, v1);                                       \
			}                                                                   \
			mt_sink_memory(d);                                                  \
		}                                                                           \
		FENCE                                                                       \
		return 0;                                                                   \
	}

/* ---- x86: SSE2, AVX2, AVX-512 --------------------------------------------- */

#ifdef BANDWIDTH_X86

/* The vector kernels of one x86 ISA, generated from one template so the
 * three sets cannot drift apart. VI/VD are the integer and double vector
 * types, K the doubles a register holds.
 *
 * The vector read of SSE2 and AVX-512 (BANDWIDTH_X86_READ_XOR; AVX2's is
 * read_avx2, fused multiply-adds) xors each load into one of eight
 * accumulators, sixteen loads a turn, and adds each pass's xor of all its
 * words (HXOR folds the lanes) to the sum it returns: reps x the xor of the
 * array's words, whatever the register width. Measured on the Emerald Rapids class guest
 * (AVX-512, 24K, pinned, best of 40): eight loads a turn with vpaddq
 * accumulators read 82-84 bytes a cycle of the 128 two 64-byte loads a
 * cycle allow; sixteen a turn with vpxorq 104-111 (eight a turn with
 * vpxorq: 84 again, so the turn's overhead was what held it back; a chain
 * of adds run beside the loads showed the clock unmoved at 4.19 GHz); the
 * loads alone, with nothing consuming them, 114-117. GCC turned those
 * sixteen vpxorq into eight vpternlogq of its own but kept sixteen register
 * moves a turn beside them (objdump); written as three-way xors (XOR3:
 * vpternlogq with AVX-512, two xors with SSE2, which has no three-input
 * logic) the turn is sixteen loads, eight of them inside the
 * vpternlogq, and nothing else but the loop's add and branch. Eight is the
 * fewest: an op of three inputs consumes two loads. bench/l1ops (the
 * clock measured around each try, 24K, under load) puts each 512-bit op
 * beside the loads at about 1-2 % of their rate whatever the op, its port
 * or whether it reads a load (8 per 16 loads: 0.84-0.91x of the loads
 * alone; a 256-bit op less, 0.91-0.95x), and every consumer of all the
 * bytes it tried (ternlog trees with or without accumulators or memory
 * operands, ymm halves) at 77-88 % of 128, this one among the best.
 *
 * The load kernel makes the same sixteen loads a turn into registers and
 * nothing else: the method of likwid-bench's load, load_avx and
 * load_avx512 (RRZE-HPC/likwid, bench/x86-64/load_avx512.ptt and its
 * siblings: aligned vmovapd into registers no instruction reads, four a
 * turn there) and of the L1 load-throughput tests of Intel's manual and
 * uops.info. What it measures is the core's load ports, the very thing the
 * ceiling is; read_vector beside it costs what consuming the loads costs.
 * Each load's register is marked used (mt_sink_vector), so no compiler may
 * drop or merge a load, and the laundered pointer keeps passes apart
 * (tests/cli_bandwidth.sh reads load_avx512 in the binary: zmm loads and no
 * other vector instruction). */
#define BANDWIDTH_X86_KERNELS(SUF, TGT, VI, VD, K, LOADI, LOADD, STORED, STREAMD, SET1D, ADDD, MULD) \
	BANDWIDTH_KERNEL(load_##SUF, TGT)                                                          \
	{                                                                                   \
		for (size_t r = 0; r < reps; r++) {                                         \
			const VI *p = (const VI *)(const void *)a;                          \
			size_t i = 0;                                                       \
			mt_launder(p);                                                      \
			for (; i + 16 <= n / K; i += 16) {                                  \
				BANDWIDTH_SINK8(mt_sink_vector, LOADI, p + i)                      \
				BANDWIDTH_SINK8(mt_sink_vector, LOADI, p + i + 8)                  \
			}                                                                   \
			for (; i < n / K; i += 8)                                           \
				BANDWIDTH_SINK8(mt_sink_vector, LOADI, p + i)                      \
		}                                                                           \
		return 0;                                                                   \
	}                                                                                   \
	BANDWIDTH_VEC_WRITE(write_##SUF, TGT, VD, K, SET1D, STORED, )                              \
	BANDWIDTH_VEC_WRITE(write_nt_##SUF, TGT, VD, K, SET1D, STREAMD, _mm_sfence();)             \
	BANDWIDTH_VEC_COPY(copy_##SUF, TGT, VD, K, LOADD, STORED, )                                \
	BANDWIDTH_X86_COPY_NT(copy_nt_##SUF, TGT, VD, K, LOADD, STREAMD, ADDD, MULD)               \
	BANDWIDTH_VEC_TRIAD(triad_##SUF, TGT, VD, K, LOADD, STORED, SET1D, ADDD, MULD, )           \
	BANDWIDTH_X86_TRIAD_NT(triad_nt_##SUF, TGT, VD, K, LOADD, STREAMD, SET1D, ADDD, MULD)

/* The xor read of one x86 ISA (SSE2, AVX-512; AVX2's is read_avx2 below). */
#define BANDWIDTH_X86_READ_XOR(SUF, TGT, VI, K, LOADI, XORI, XOR3, HXOR, ZEROI)                  \
	BANDWIDTH_KERNEL(read_##SUF, TGT)                                                          \
	{                                                                                   \
		uint64_t sum = 0;                                                           \
		for (size_t r = 0; r < reps; r++) {                                         \
			const VI *p = (const VI *)(const void *)a;                          \
			VI x0 = ZEROI(), x1 = ZEROI(), x2 = ZEROI(), x3 = ZEROI();         \
			VI x4 = ZEROI(), x5 = ZEROI(), x6 = ZEROI(), x7 = ZEROI();         \
			size_t i = 0;                                                       \
			mt_launder(p);                                                      \
			for (; i + 16 <= n / K; i += 16)                                    \
				BANDWIDTH_XOR16(XOR3, LOADI, p + i)                                \
			for (; i < n / K; i += 8)                                           \
				BANDWIDTH_XOR8(XORI, LOADI, p + i)                                 \
			x0 = XORI(XORI(x0, x1), XORI(x2, x3));                              \
			x4 = XORI(XORI(x4, x5), XORI(x6, x7));                              \
			sum += HXOR(XORI(x0, x4));                                          \
		}                                                                           \
		return sum;                                                                 \
	}

/* copy_nt and triad_nt: streaming stores (weakly ordered: an sfence after
 * the last pass), and four streams at once, a quarter of the array each,
 * two vectors of each a turn (then what is left of the array, one vector a
 * step). A core's prefetchers follow a stream within its 4 KB page and
 * start again at the next, so one stream keeps few lines in flight;
 * measured on the Emerald Rapids class guest (256M, one thread, the best 8
 * MB call of many, 4 KB pages, AVX-512): copy_nt 19.2 GB/s with one stream,
 * 24.1 with two, 27.3 with four, 27.6 with eight; triad_nt 21.0, 22.8,
 * 23.1, 22.8. A quarter is a whole number of turns (2 K doubles), so every
 * stream stays on the arrays' 64-byte alignment. */
/* The value copy_nt and triad_nt store at the doubles from j on (e, f and
 * vs are the kernel's source streams and scalar). */
#define BANDWIDTH_COPY_AT(LOADD, ADDD, MULD, j) LOADD(e + (j))
#define BANDWIDTH_TRIAD_AT(LOADD, ADDD, MULD, j) ADDD(LOADD(e + (j)), MULD(vs, LOADD(f + (j))))

/* One pass of the four streams into d: each turn computes the eight
 * vectors (AT(LOADD, ADDD, MULD, j): the value for the doubles from j on)
 * at i and i + K of each quarter, then streams them out; the last doubles
 * (past 4 q) one vector a step. */
#define BANDWIDTH_X86_NT_PASS(VD, K, LOADD, STREAMD, ADDD, MULD, AT, q)                            \
	{                                                                                   \
		for (size_t i = 0; i < (q); i += 2 * K) {                                   \
			VD v0 = AT(LOADD, ADDD, MULD, i);                                   \
			VD v1 = AT(LOADD, ADDD, MULD, i + K);                               \
			VD v2 = AT(LOADD, ADDD, MULD, (q) + i);                             \
			VD v3 = AT(LOADD, ADDD, MULD, (q) + i + K);                         \
			VD v4 = AT(LOADD, ADDD, MULD, 2 * (q) + i);                         \
			VD v5 = AT(LOADD, ADDD, MULD, 2 * (q) + i + K);                     \
			VD v6 = AT(LOADD, ADDD, MULD, 3 * (q) + i);                         \
			VD v7 = AT(LOADD, ADDD, MULD, 3 * (q) + i + K);                     \
			STREAMD(d + i, v0);                                                 \
			STREAMD(d + i + K, v1);                                             \
			STREAMD(d + (q) + i, v2);                                           \
			STREAMD(d + (q) + i + K, v3);                                       \
			STREAMD(d + 2 * (q) + i, v4);                                       \
			STREAMD(d + 2 * (q) + i + K, v5);                                   \
			STREAMD(d + 3 * (q) + i, v6);                                       \
			STREAMD(d + 3 * (q) + i + K, v7);                                   \
		}                                                                           \
		for (size_t i = 4 * (q); i < n; i += K)                                     \
			STREAMD(d + i, AT(LOADD, ADDD, MULD, i));                           \
	}
#define BANDWIDTH_X86_COPY_NT(NAME, TGT, VD, K, LOADD, STREAMD, ADDD, MULD)                        \
	BANDWIDTH_KERNEL(NAME, TGT)                                                                \
	{                                                                                   \
		size_t q = n / (8 * K) * (2 * K);                                           \
		for (size_t r = 0; r < reps; r++) {                                         \
			double *d = a;                                                      \
			const double *e = b;                                                \
			mt_launder(d);                                                      \
			mt_launder(e);                                                      \
			BANDWIDTH_X86_NT_PASS(VD, K, LOADD, STREAMD, ADDD, MULD, BANDWIDTH_COPY_AT, q)    \
			mt_sink_memory(d);                                                  \
		}                                                                           \
		_mm_sfence();                                                               \
		return 0;                                                                   \
	}
#define BANDWIDTH_X86_TRIAD_NT(NAME, TGT, VD, K, LOADD, STREAMD, SET1D, ADDD, MULD)               \
	BANDWIDTH_KERNEL(NAME, TGT)                                                                \
	{                                                                                   \
		VD vs = SET1D(s);                                                           \
		size_t q = n / (8 * K) * (2 * K);                                           \
		for (size_t r = 0; r < reps; r++) {                                         \
			double *d = a;                                                      \
			const double *e = b, *f = c;                                        \
			mt_launder(d);                                                      \
			mt_launder(e);                                                      \
			mt_launder(f);                                                      \
			BANDWIDTH_X86_NT_PASS(VD, K, LOADD, STREAMD, ADDD, MULD, BANDWIDTH_TRIAD_AT, q)   \
			mt_sink_memory(d);                                                  \
		}                                                                           \
		_mm_sfence();                                                               \
		return 0;                                                                   \
	}

/* Horizontal xors of the 64-bit lanes. */
__attribute__((target("sse2"))) static inline uint64_t xor128(__m128i v)
{
	uint64_t w[2];
	_mm_storeu_si128((__m128i *)(void *)w, v);
	return w[0] ^ w[1];
}

__attribute__((target("avx2"))) static inline uint64_t xor256(__m256i v)
{
	return xor128(_mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)));
}

__attribute__((target("avx512f"))) static inline uint64_t xor512(__m512i v)
{
	return xor256(_mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1)));
}

#define TGT_SSE2 __attribute__((target("sse2")))
#define TGT_AVX2 __attribute__((target("avx2")))
#define TGT_AVX512 __attribute__((target("avx512f")))

/* Loads and stores on aligned addresses: the arrays are 64-byte aligned. */
#define LDI128(p) _mm_load_si128(p)
#define LDI256(p) _mm256_load_si256(p)
#define LDI512(p) _mm512_load_si512((const void *)(p))

/* Three-way xors: AVX-512 has one instruction for it (truth table 0x96). */
#define XOR3_128(x, a, b) _mm_xor_si128(_mm_xor_si128((x), (a)), (b))
#define XOR3_512(x, a, b) _mm512_ternarylogic_epi64((x), (a), (b), 0x96)

BANDWIDTH_X86_READ_XOR(sse2, TGT_SSE2, __m128i, 2, LDI128, _mm_xor_si128, XOR3_128, xor128,
		_mm_setzero_si128)
BANDWIDTH_X86_READ_XOR(avx512, TGT_AVX512, __m512i, 8, LDI512, _mm512_xor_si512, XOR3_512, xor512,
		_mm512_setzero_si512)
BANDWIDTH_X86_KERNELS(sse2, TGT_SSE2, __m128i, __m128d, 2, LDI128, _mm_load_pd, _mm_store_pd,
	       _mm_stream_pd, _mm_set1_pd, _mm_add_pd, _mm_mul_pd)
BANDWIDTH_X86_KERNELS(avx2, TGT_AVX2, __m256i, __m256d, 4, LDI256, _mm256_load_pd, _mm256_store_pd,
	       _mm256_stream_pd, _mm256_set1_pd, _mm256_add_pd, _mm256_mul_pd)
BANDWIDTH_X86_KERNELS(avx512, TGT_AVX512, __m512i, __m512d, 8, LDI512, _mm512_load_pd, _mm512_store_pd,
	       _mm512_stream_pd, _mm512_set1_pd, _mm512_add_pd, _mm512_mul_pd)

/* Eight fused multiply-adds, each of two loads, one from each half of the
 * array (p and q), into the accumulators x0 .. x7: four doubles a load. */
#define BANDWIDTH_FMA8(p, q)                                                                       \
	{                                                                                   \
		x0 = _mm256_fmadd_pd(_mm256_load_pd((p)), _mm256_load_pd((q)), x0);         \
		x1 = _mm256_fmadd_pd(_mm256_load_pd((p) + 4), _mm256_load_pd((q) + 4), x1); \
		x2 = _mm256_fmadd_pd(_mm256_load_pd((p) + 8), _mm256_load_pd((q) + 8), x2); \
		x3 = _mm256_fmadd_pd(_mm256_load_pd((p) + 12), _mm256_load_pd((q) + 12), x3); \
		x4 = _mm256_fmadd_pd(_mm256_load_pd((p) + 16), _mm256_load_pd((q) + 16), x4); \
		x5 = _mm256_fmadd_pd(_mm256_load_pd((p) + 20), _mm256_load_pd((q) + 20), x5); \
		x6 = _mm256_fmadd_pd(_mm256_load_pd((p) + 24), _mm256_load_pd((q) + 24), x6); \
		x7 = _mm256_fmadd_pd(_mm256_load_pd((p) + 28), _mm256_load_pd((q) + 28), x7); \
	}

/* The AVX2 read: each word of the first half of the array multiplied by its
 * partner n / 2 words on and added into one of eight accumulators (one FMA
 * consumes two loads: AVX2 has no three-input logic, and one xor a load
 * kept its three vector ports from issuing more than about 1.75 loads a
 * cycle of the 3 its load ports allow); each pass's total added into the
 * sum, returned as an integer. bandwidth_fill's words are integers of at
 * most 1000, so every product and every sum is exact (far below 2^53)
 * whatever the order (bandwidth_check computes it). Measured on the Emerald
 * Rapids class guest (24K, pinned, best of 40, interleaved, load ~25): one
 * xor a load 61-64 bytes a cycle of 96, this 72-77, the load kernel 79-86.
 * bench/l1ops: twelve accumulators, or fewer FMAs with the other loads
 * added (vpaddq or vaddpd, ports FMAs do not need), no faster (71-74 %). */
#define TGT_AVX2_FMA __attribute__((target("avx2,fma")))
BANDWIDTH_KERNEL(read_avx2, TGT_AVX2_FMA)
{
	__m256d sum = _mm256_setzero_pd();
	double w[4];
	for (size_t r = 0; r < reps; r++) {
		const double *p = a, *q;
		__m256d x0 = _mm256_setzero_pd(), x1 = x0, x2 = x0, x3 = x0, x4 = x0, x5 = x0,
			x6 = x0, x7 = x0;
		mt_launder(p);
		q = p + n / 2;
		for (size_t i = 0; i < n / 2; i += 32)
			BANDWIDTH_FMA8(p + i, q + i)
		x0 = _mm256_add_pd(_mm256_add_pd(x0, x1), _mm256_add_pd(x2, x3));
		x4 = _mm256_add_pd(_mm256_add_pd(x4, x5), _mm256_add_pd(x6, x7));
		sum = _mm256_add_pd(sum, _mm256_add_pd(x0, x4));
	}
	_mm256_storeu_pd(w, sum);
	return (uint64_t)(int64_t)((w[0] + w[1]) + (w[2] + w[3]));
}

#endif /* BANDWIDTH_X86 */

/* ---- aarch64: NEON (128-bit) ----------------------------------------------- */

#ifdef BANDWIDTH_NEON

/* The vector read as on x86: sixteen loads a turn xored into eight
 * accumulators, each pass's xor of all its words added to the sum. */
#define LDN(q) vreinterpretq_u64_f64(vld1q_f64((const double *)(q)))
BANDWIDTH_KERNEL(read_neon, )
{
	uint64_t sum = 0;
	for (size_t r = 0; r < reps; r++) {
		const float64x2_t *p = (const float64x2_t *)(const void *)a;
		uint64x2_t x0 = vdupq_n_u64(0), x1 = x0, x2 = x0, x3 = x0, x4 = x0, x5 = x0,
			   x6 = x0, x7 = x0;
		size_t i = 0;
		mt_launder(p);
		for (; i + 16 <= n / 2; i += 16) {
			BANDWIDTH_XOR8(veorq_u64, LDN, p + i)
			BANDWIDTH_XOR8(veorq_u64, LDN, p + i + 8)
		}
		for (; i < n / 2; i += 8)
			BANDWIDTH_XOR8(veorq_u64, LDN, p + i)
		x0 = veorq_u64(veorq_u64(x0, x1), veorq_u64(x2, x3));
		x4 = veorq_u64(veorq_u64(x4, x5), veorq_u64(x6, x7));
		x0 = veorq_u64(x0, x4);
		sum += vgetq_lane_u64(x0, 0) ^ vgetq_lane_u64(x0, 1);
	}
	return sum;
}

/* The load kernel: sixteen 16-byte loads a turn into registers, nothing
 * consuming them (ldr q, one 16-byte load each). */
#define LDU(q) vld1q_u64((const uint64_t *)(const void *)(q))
BANDWIDTH_KERNEL(load_neon, )
{
	for (size_t r = 0; r < reps; r++) {
		const float64x2_t *p = (const float64x2_t *)(const void *)a;
		mt_launder(p);
		for (size_t i = 0; i < n / 2; i += 16) {
			BANDWIDTH_SINK8(mt_sink_vector, LDU, p + i)
			BANDWIDTH_SINK8(mt_sink_vector, LDU, p + i + 8)
		}
	}
	return 0;
}

BANDWIDTH_VEC_WRITE(write_neon, , float64x2_t, 2, vdupq_n_f64, vst1q_f64, )
BANDWIDTH_VEC_COPY(copy_neon, , float64x2_t, 2, vld1q_f64, vst1q_f64, )
BANDWIDTH_VEC_TRIAD(triad_neon, , float64x2_t, 2, vld1q_f64, vst1q_f64, vdupq_n_f64, vaddq_f64,
	     vmulq_f64, )

#endif /* BANDWIDTH_NEON */

/* ---- the C library's ------------------------------------------------------------ */

/* memset and memcpy as a program calls them, whatever the ISA: the library
 * picks its own way (glibc: rep stosb / rep movsb on cores with ERMS or
 * FSRM, vector stores, non-temporal stores past x86_non_temporal_threshold;
 * on Arm, dc zva for zeros). mt_sink_memory after each pass: no pass may
 * be merged with the next or dropped. */
MT_KERNEL static uint64_t fill_lib(double *a, const double *b, const double *c,
						   size_t n, double s, size_t reps)
{
	(void)b;
	(void)c;
	for (size_t r = 0; r < reps; r++) {
		memset(a, BANDWIDTH_FILL_BYTE(s), n * sizeof *a);
		mt_sink_memory(a);
	}
	return 0;
}

MT_KERNEL static uint64_t fill_zero_lib(double *a, const double *b,
							const double *c, size_t n, double s,
							size_t reps)
{
	(void)b;
	(void)c;
	(void)s;
	for (size_t r = 0; r < reps; r++) {
		memset(a, 0, n * sizeof *a);
		mt_sink_memory(a);
	}
	return 0;
}

MT_KERNEL static uint64_t copy_lib(double *a, const double *b, const double *c,
						   size_t n, double s, size_t reps)
{
	(void)c;
	(void)s;
	for (size_t r = 0; r < reps; r++) {
		memcpy(a, b, n * sizeof *a);
		mt_sink_memory(a);
	}
	return 0;
}

/* ---- names and the table ----------------------------------------------------- */

static const char *const kernel_names[BANDWIDTH_NKERNELS] = {
	"read", "read_vector", "load", "write", "write_nt", "copy", "copy_nt", "triad", "triad_nt",
	"fill", "fill_zero", "copy_lib", "r2w1", "r2w1_nt", "r3w1", "r3w1_nt",
};

static const unsigned kernel_arrays[BANDWIDTH_NKERNELS] = { 1, 1, 1, 1, 1, 2, 2, 3, 3, 1, 1, 2,
							    3, 3, 3, 3 };

/* read_ops: the ops read_vector runs beside each 16 loads (read_op, each
 * as wide as a load): the scalar, SSE2 and NEON reads one xor a load
 * (SSE2's three-way xor is two pxor), AVX2's one FMA two loads, AVX-512's
 * one three-way xor (vpternlogq) two loads. */
static const struct {
	const char *name, *alias;
	unsigned width; /* bytes a load */
	unsigned read_ops;
	const char *read_op;
} isas[BANDWIDTH_NISA] = {
	{ "scalar", "scalar", 8, 16, "xor" },
	{ "SSE2", "sse2", 16, 16, "pxor" },
	{ "AVX2", "avx2", 32, 8, "vfmadd231pd" },
	{ "AVX-512", "avx512", 64, 8, "vpternlogq" },
	{ "NEON", "neon", 16, 16, "eor" },
};

/* [isa][kernel]: NULL where the build has no such kernel. The read row
 * entry is the ISA's vector read; bandwidth_kernel_fn hands out the scalar
 * read for BANDWIDTH_READ whatever the ISA. */
static const bandwidth_pass_fn table[BANDWIDTH_NISA][BANDWIDTH_NKERNELS] = {
	[BANDWIDTH_ISA_SCALAR] = { read_scalar, read_xor_scalar, load_scalar, write_scalar, NULL,
			    copy_scalar, NULL, triad_scalar, NULL, fill_lib, fill_zero_lib, copy_lib },
#ifdef BANDWIDTH_X86
	[BANDWIDTH_ISA_SSE2] = { read_scalar, read_sse2, load_sse2, write_sse2, write_nt_sse2, copy_sse2,
			  copy_nt_sse2, triad_sse2, triad_nt_sse2, fill_lib, fill_zero_lib, copy_lib },
	[BANDWIDTH_ISA_AVX2] = { read_scalar, read_avx2, load_avx2, write_avx2, write_nt_avx2, copy_avx2,
			  copy_nt_avx2, triad_avx2, triad_nt_avx2, fill_lib, fill_zero_lib, copy_lib },
	[BANDWIDTH_ISA_AVX512] = { read_scalar, read_avx512, load_avx512, write_avx512, write_nt_avx512,
			    copy_avx512, copy_nt_avx512, triad_avx512, triad_nt_avx512, fill_lib,
			    fill_zero_lib, copy_lib },
#endif
#ifdef BANDWIDTH_NEON
	/* no streaming stores: GCC has no intrinsic for STNP (and asm is
	 * os/barrier.h's alone) */
	[BANDWIDTH_ISA_NEON] = { read_scalar, read_neon, load_neon, write_neon, NULL, copy_neon, NULL,
			  triad_neon, NULL, fill_lib, fill_zero_lib, copy_lib },
#endif
};

const char *bandwidth_ceiling_doubt(double share)
{
	/* (people's words through _() where printed; never _("")) */
	return share > 1.05 ? N_("; above it: the core clock read low (a busy machine during the "
				 "calibration) or this core moves more a cycle than the table of "
				 "ceilings says")
			    : "";
}

const char *bandwidth_kernel_name(int kernel)
{
	return kernel >= 0 && kernel < BANDWIDTH_NKERNELS ? kernel_names[kernel] : NULL;
}

int bandwidth_kernel_parse(const char *name)
{
	for (int k = 0; k < BANDWIDTH_NKERNELS; k++)
		if (strcmp(name, kernel_names[k]) == 0)
			return k;
	return -1;
}

unsigned bandwidth_kernel_arrays(int kernel)
{
	return kernel >= 0 && kernel < BANDWIDTH_NKERNELS ? kernel_arrays[kernel] : 0;
}

uint64_t bandwidth_kernel_bytes(int kernel, size_t n)
{
	return (uint64_t)bandwidth_kernel_arrays(kernel) * n * sizeof(double);
}

const char *bandwidth_isa_name(int isa)
{
	return isa >= 0 && isa < BANDWIDTH_NISA ? isas[isa].name : NULL;
}

int bandwidth_isa_parse(const char *name)
{
	for (int i = 0; i < BANDWIDTH_NISA; i++)
		if (strcasecmp(name, isas[i].alias) == 0 || strcasecmp(name, isas[i].name) == 0)
			return i;
	return -1;
}

unsigned bandwidth_isa_width(int isa)
{
	return isa >= 0 && isa < BANDWIDTH_NISA ? isas[isa].width : 0;
}

unsigned bandwidth_read_ops(int isa, const char **op)
{
	if (isa < 0 || isa >= BANDWIDTH_NISA)
		return 0;
	*op = isas[isa].read_op;
	return isas[isa].read_ops;
}

int bandwidth_isa_supported(int isa)
{
	if (isa < 0 || isa >= BANDWIDTH_NISA || !table[isa][BANDWIDTH_READ_VECTOR])
		return 0;
	if (isa == BANDWIDTH_ISA_SSE2)
		return mt_arch_has(MT_FEAT_SSE2);
	if (isa == BANDWIDTH_ISA_AVX2) /* its read is fused multiply-adds */
		return mt_arch_has(MT_FEAT_AVX2) && mt_arch_has(MT_FEAT_FMA);
	if (isa == BANDWIDTH_ISA_AVX512)
		return mt_arch_has(MT_FEAT_AVX512F);
	if (isa == BANDWIDTH_ISA_NEON)
		return mt_arch_has(MT_FEAT_NEON);
	return 1; /* scalar */
}

int bandwidth_isa_best(void)
{
	static const int order[] = { BANDWIDTH_ISA_AVX512, BANDWIDTH_ISA_AVX2, BANDWIDTH_ISA_SSE2, BANDWIDTH_ISA_NEON };
	for (size_t i = 0; i < MT_ARRAY_LEN(order); i++)
		if (bandwidth_isa_supported(order[i]))
			return order[i];
	return BANDWIDTH_ISA_SCALAR;
}

bandwidth_pass_fn bandwidth_table_fn(int kernel, int isa)
{
	if (kernel < 0 || kernel >= BANDWIDTH_R2W1 || !bandwidth_isa_supported(isa))
		return NULL;
	if (kernel == BANDWIDTH_READ)
		return read_scalar;
	return table[isa][kernel];
}
