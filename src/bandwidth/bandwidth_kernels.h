/* bandwidth_kernels: the bandwidth lab's kernels (bandwidth_kernels.c: read,
 * read_vector, load, write, copy, triad and their streaming stores, the C
 * library's fill and copy), by instruction set chosen at run time, and the
 * reads:writes mixes made of them (bandwidth_mixes.c): their names, the
 * arrays and bytes each moves, the instruction sets. What they are and how
 * their bytes count: bandwidth.h. */
#ifndef MEMTOP_BANDWIDTH_KERNELS_H
#define MEMTOP_BANDWIDTH_KERNELS_H

#include <stddef.h>
#include <stdint.h>


/* The kernels: memtop's own, then the C library's (BANDWIDTH_FILL: memset of a
 * non-zero byte; BANDWIDTH_FILL_ZERO: memset of zeros; BANDWIDTH_COPY_LIB: memcpy), as a
 * program calls them, so that the lab answers whether a hand-written
 * streaming store beats what the library already does. */
enum bandwidth_kernel {
	BANDWIDTH_READ, BANDWIDTH_READ_VECTOR, BANDWIDTH_LOAD, BANDWIDTH_WRITE, BANDWIDTH_WRITE_NT, BANDWIDTH_COPY, BANDWIDTH_COPY_NT, BANDWIDTH_TRIAD,
	BANDWIDTH_TRIAD_NT, BANDWIDTH_FILL, BANDWIDTH_FILL_ZERO, BANDWIDTH_COPY_LIB,
	BANDWIDTH_R2W1, BANDWIDTH_R2W1_NT, BANDWIDTH_R3W1, BANDWIDTH_R3W1_NT, BANDWIDTH_NKERNELS
};

/* The kernels of the table by default (every one up to copy_lib); the
 * reads:writes mixes after them (bandwidth_mixes.c: r2w1, r3w1 and their
 * streaming stores' _nt) are measured when asked by name (--kernels, memtop
 * run numa --mix). */
#define BANDWIDTH_NTABLE (BANDWIDTH_COPY_LIB + 1)

/* The doubles of each array a mix works on at a time, its copy then its
 * read (16 KB: a span's stores and loads reach memory together). */
#define BANDWIDTH_MIX_SPAN 2048u

/* The byte BANDWIDTH_FILL writes for the kernel scalar s: never 0 (fill_zero's),
 * different for each try's s (a try that wrote nothing fails its check). */
#define BANDWIDTH_FILL_BYTE(s) ((unsigned char)(0x40 + ((unsigned)(s) & 0x3f)))

enum bandwidth_isa { BANDWIDTH_ISA_SCALAR, BANDWIDTH_ISA_SSE2, BANDWIDTH_ISA_AVX2, BANDWIDTH_ISA_AVX512, BANDWIDTH_ISA_NEON, BANDWIDTH_NISA };

#define BANDWIDTH_UNROLL 64        /* doubles: every kernel takes n in multiples of this */
#define BANDWIDTH_ALIGN 64         /* bytes: every array starts on a 64-byte boundary */

/* ---- kernels (bandwidth_kernels.c) --------------------------------------- */

/* reps passes over n doubles (n a multiple of BANDWIDTH_UNROLL, arrays
 * BANDWIDTH_ALIGN-aligned). The scalar read returns the wrap-around sum of the
 * 64-bit words read over all passes, the vector read the sum over passes of
 * each pass's xor of them (AVX2's: of the first half's doubles times the
 * second half's, an exact integer for bandwidth_fill's words) (the caller
 * sinks it, bandwidth_check checks it); the others return 0. b and c
 * are NULL where the kernel has no such array. */
typedef uint64_t (*bandwidth_pass_fn)(double *a, const double *b, const double *c, size_t n,
				 double s, size_t reps);

/* "read", "read_vector", "load", "write", "write_nt", "copy", "copy_nt",
 * "triad", "triad_nt", "fill", "fill_zero", "copy_lib", "r2w1", "r2w1_nt",
 * "r3w1", "r3w1_nt"; NULL out of range. */
const char *bandwidth_kernel_name(int kernel);

/* What a share of a cell's ceiling (bandwidth_ceiling) above 1 means
 * ("; above it: ..."), or "" for a share at or under 1.05 (slack for the
 * clock's own error). */
const char *bandwidth_ceiling_doubt(double share);

/* The kernel called name, or -1. */
int bandwidth_kernel_parse(const char *name);

/* Arrays a kernel moves a pass: 1 (read, read_vector, load, write, write_nt), 2
 * (copy, copy_nt), 3 (triad, triad_nt, and the mixes r2w1, r3w1 and their
 * _nt, which touch each double of three arrays once a pass); 0 out of range. */
unsigned bandwidth_kernel_arrays(int kernel);

/* Bytes one pass over n doubles counts, STREAM's way: arrays x n x 8. */
uint64_t bandwidth_kernel_bytes(int kernel, size_t n);

/* "scalar", "SSE2", "AVX2", "AVX-512", "NEON"; NULL out of range. */
const char *bandwidth_isa_name(int isa);

/* The ISA called name ("scalar", "sse2", "avx2", "avx512", "neon", any case,
 * "avx-512" too), or -1. */
int bandwidth_isa_parse(const char *name);

/* Bytes of one load of the ISA's vector register (8 for scalar). */
unsigned bandwidth_isa_width(int isa);

/* How many ops isa's read_vector runs beside each 16 of its loads, each as
 * wide as a load, and their instruction in *op ("vpternlogq" for AVX-512,
 * 8; "vfmadd231pd" for AVX2, 8; an xor a load for scalar, SSE2 and NEON,
 * 16); 0 (*op untouched) for an ISA out of range. */
unsigned bandwidth_read_ops(int isa, const char **op);

/* 1 when this build and this CPU can run the ISA's kernels (the build has
 * them, and the CPU says so at run time), else 0. */
int bandwidth_isa_supported(int isa);

/* The widest supported ISA (BANDWIDTH_ISA_SCALAR at worst). */
int bandwidth_isa_best(void);

/* The function of kernel for isa: read is always the scalar read; the other
 * kernels use isa's registers. NULL when isa lacks the kernel (write_nt,
 * copy_nt, triad_nt without streaming stores: scalar, NEON) or is not supported here.
 * The one lookup every caller uses, mixes included; it is bandwidth_mixes.c's,
 * above the table's, so that the mixes, made of the table's kernels, and
 * the table do not call each other both ways. */
bandwidth_pass_fn bandwidth_kernel_fn(int kernel, int isa);

/* The same for the table's kernels alone (bandwidth_kernels.c; up to
 * copy_lib): NULL for a mix. */
bandwidth_pass_fn bandwidth_table_fn(int kernel, int isa);

/* The function of mix kernel (BANDWIDTH_R2W1 .. BANDWIDTH_R3W1_NT) for isa
 * (bandwidth_mixes.c): the ISA's copy (copy_nt for the _nt mixes) and the
 * scalar read in turn on spans of BANDWIDTH_MIX_SPAN doubles; r2w1 copies
 * a <- b and reads c on every span, r3w1 does so on three spans of four
 * and reads a, b and c on the fourth. NULL for another kernel, or where
 * isa lacks that copy. Its sum is every read's, wrapping around. */
bandwidth_pass_fn bandwidth_mix_fn(int kernel, int isa);

/* After reps passes of mix kernel over the arrays bandwidth_fill set: 1
 * when a holds b on the copied spans and what the fill left on r3w1's
 * read spans, and sum is reps times the words of every span read (as the
 * scalar read adds them), else 0 (0 too for a kernel that is no mix). */
int bandwidth_mix_check(int kernel, const double *a, const double *b, const double *c, size_t n,
			uint64_t sum, size_t reps);

#endif
