/* bench/l1ops.c: what consuming L1 loads costs this core, measured.
 *
 * A measuring tool beside memtop (built and run by bench/l1ops), not one
 * of memtop's kernels: the loops are inline assembly so that each one is
 * exactly the instructions its name says (no compiler may add, drop or
 * reorder a load or an op). x86-64 only.
 *
 * Every loop makes sixteen aligned loads a turn from an array that fits
 * in L1 (zmm loads, 1 KB a turn, for the AVX-512 tables; ymm loads, 512 B
 * a turn, for the AVX2 table) and runs N ops of one kind beside them
 * (N = 0, 1, 2, 4, 8, 16 per 16 loads), each op reading two of the loaded
 * registers; then the candidate consumers: loops that combine every byte
 * they load into registers that are kept (xor trees, fused multiply-adds;
 * AMX tile dot products where the CPU and the kernel allow them).
 *
 * A try is passes over the array worth about TRY_MB megabytes; the core
 * clock is measured right before and right after each try by dependent
 * chains of one-cycle adds (two of about 0.2 ms on each side) and the
 * fastest taken (a chain interrupted reads slow, and a best-of over tries
 * would pick the try it inflates), so a "byte a cycle" is the try's bytes
 * over its seconds times that clock; a try whose four chains disagree by
 * more than 5 % is thrown away and made again (at most 4 TRIES in all,
 * the throw-aways counted and printed). Each cell is the best of TRIES
 * good tries; the rounds (ROUNDS) interleave
 * every loop, and the table shows the best round and the worst round's
 * best. Every figure comes from the run. */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The core clock in GHz: 40000 x 20 dependent adds (one cycle each). */
static double clock_ghz(void)
{
	uint64_t n = 40000, a = 0, b = 1;
	double t0 = now(), t;
	__asm__ volatile("1:\n\t.rept 20\n\tadd %2,%0\n\t.endr\n\tdec %1\n\tjnz 1b"
			 : "+r"(a), "+r"(n)
			 : "r"(b)
			 : "cc");
	t = now() - t0;
	return 40000.0 * 20 / t / 1e9;
}

#define ZCL                                                                                 \
	"memory", "cc", "k1", "k2", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", \
		"xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",  \
		"xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23"
#define YCL                                                                                 \
	"memory", "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",     \
		"xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

/* Sixteen zmm loads, 1 KB, into zmm0-7 and zmm12-19. */
#define ZLOADS16                                                                            \
	"vmovdqa64 0(%0),%%zmm0\n\t vmovdqa64 64(%0),%%zmm1\n\t"                          \
	"vmovdqa64 128(%0),%%zmm2\n\t vmovdqa64 192(%0),%%zmm3\n\t"                       \
	"vmovdqa64 256(%0),%%zmm4\n\t vmovdqa64 320(%0),%%zmm5\n\t"                       \
	"vmovdqa64 384(%0),%%zmm6\n\t vmovdqa64 448(%0),%%zmm7\n\t"                       \
	"vmovdqa64 512(%0),%%zmm12\n\t vmovdqa64 576(%0),%%zmm13\n\t"                     \
	"vmovdqa64 640(%0),%%zmm14\n\t vmovdqa64 704(%0),%%zmm15\n\t"                     \
	"vmovdqa64 768(%0),%%zmm16\n\t vmovdqa64 832(%0),%%zmm17\n\t"                     \
	"vmovdqa64 896(%0),%%zmm18\n\t vmovdqa64 960(%0),%%zmm19\n\t"
/* Sixteen ymm loads, 512 B, into ymm0-15 (VEX only: runs on AVX2 cores). */
#define YLOADS16                                                                            \
	"vmovdqa 0(%0),%%ymm0\n\t vmovdqa 32(%0),%%ymm1\n\t"                              \
	"vmovdqa 64(%0),%%ymm2\n\t vmovdqa 96(%0),%%ymm3\n\t"                             \
	"vmovdqa 128(%0),%%ymm4\n\t vmovdqa 160(%0),%%ymm5\n\t"                           \
	"vmovdqa 192(%0),%%ymm6\n\t vmovdqa 224(%0),%%ymm7\n\t"                           \
	"vmovdqa 256(%0),%%ymm8\n\t vmovdqa 288(%0),%%ymm9\n\t"                           \
	"vmovdqa 320(%0),%%ymm10\n\t vmovdqa 352(%0),%%ymm11\n\t"                         \
	"vmovdqa 384(%0),%%ymm12\n\t vmovdqa 416(%0),%%ymm13\n\t"                         \
	"vmovdqa 448(%0),%%ymm14\n\t vmovdqa 480(%0),%%ymm15\n\t"

/* One loop: STEP bytes a turn, BODY the turn, passes over [p, p + bytes). */
#define LOOP(NAME, TGT, STEP, BODY, CLOB)                                                   \
	__attribute__((target(TGT), noinline)) static void NAME(const char *p, size_t bytes, \
								 long passes)               \
	{                                                                                   \
		for (long k = 0; k < passes; k++) {                                         \
			const char *q = p, *e = p + bytes;                                  \
			__asm__ volatile(".p2align 6\n1:\n\t" BODY "add $" #STEP ",%0\n\t"  \
					 "cmp %1,%0\n\t jb 1b"                              \
					 : "+r"(q)                                          \
					 : "r"(e)                                           \
					 : CLOB);                                           \
		}                                                                           \
	}

/* The ops beside the zmm loads: M(W, A, B, D, K) is one op of width W
 * ("z" or "y") reading registers A and B and writing D (vector) or kK. */
#define R(W, n) "%%" W "mm" #n
#define TERN(W, a, b, d, k) "vpternlogq $0x96," R(W, a) "," R(W, b) "," R(W, d) "\n\t"
#define ADDQ(W, a, b, d, k) "vpaddq " R(W, a) "," R(W, b) "," R(W, d) "\n\t"
#define PERMQ(W, a, b, d, k) "vpermq " R(W, a) "," R(W, b) "," R(W, d) "\n\t"
#define CMPK(W, a, b, d, k) "vpcmpeqq " R(W, a) "," R(W, b) ",%%k" #k "\n\t"
#define MINUQ(W, a, b, d, k) "vpminuq " R(W, a) "," R(W, b) "," R(W, d) "\n\t"
#define FMAPD(W, a, b, d, k) "vfmadd231pd " R(W, a) "," R(W, b) "," R(W, d) "\n\t"
#define DPBUSD(W, a, b, d, k) "vpdpbusd " R(W, a) "," R(W, b) "," R(W, d) "\n\t"
#define XORQ(W, a, b, d, k) "vpxorq " R(W, a) "," R(W, b) "," R(W, d) "\n\t"
#define OPS1(M, W) M(W, 1, 0, 20, 1)
#define OPS2(M, W) OPS1(M, W) M(W, 3, 2, 21, 2)
#define OPS4(M, W) OPS2(M, W) M(W, 5, 4, 22, 1) M(W, 7, 6, 23, 2)
#define OPS8(M, W) OPS4(M, W) M(W, 13, 12, 20, 1) M(W, 15, 14, 21, 2) M(W, 17, 16, 22, 1) M(W, 19, 18, 23, 2)
#define OPS16(M, W) OPS8(M, W) M(W, 0, 2, 20, 1) M(W, 4, 6, 21, 2) M(W, 12, 14, 22, 1) M(W, 16, 18, 23, 2) \
	M(W, 1, 3, 20, 1) M(W, 5, 7, 21, 2) M(W, 13, 15, 22, 1) M(W, 17, 19, 23, 2)

#define TZ "avx512f,avx512vl,avx512bw,avx512vnni"
#define ZROW(NAME, M, W)                                                                    \
	LOOP(NAME##1, TZ, 1024, ZLOADS16 OPS1(M, W), ZCL)                                   \
	LOOP(NAME##2, TZ, 1024, ZLOADS16 OPS2(M, W), ZCL)                                   \
	LOOP(NAME##4, TZ, 1024, ZLOADS16 OPS4(M, W), ZCL)                                   \
	LOOP(NAME##8, TZ, 1024, ZLOADS16 OPS8(M, W), ZCL)                                   \
	LOOP(NAME##16, TZ, 1024, ZLOADS16 OPS16(M, W), ZCL)

LOOP(z_pure, TZ, 1024, ZLOADS16, ZCL)
ZROW(z_tern_z, TERN, "z")
ZROW(z_tern_y, TERN, "y")
ZROW(z_add_z, ADDQ, "z")
ZROW(z_add_y, ADDQ, "y")
ZROW(z_perm_z, PERMQ, "z")
ZROW(z_perm_y, PERMQ, "y")
ZROW(z_cmpk_z, CMPK, "z")
ZROW(z_cmpk_y, CMPK, "y")
ZROW(z_min_z, MINUQ, "z")
ZROW(z_min_y, MINUQ, "y")
ZROW(z_fma_z, FMAPD, "z")
ZROW(z_fma_y, FMAPD, "y")
ZROW(z_dp_z, DPBUSD, "z")
ZROW(z_dp_y, DPBUSD, "y")

/* Ops that read no load: 4 independent zmm ternlogs, 4 scalar adds. */
LOOP(z_indep4, TZ, 1024,
     ZLOADS16 "vpternlogq $0x96,%%zmm21,%%zmm20,%%zmm22\n\t vpternlogq $0x96,%%zmm21,%%zmm20,%%zmm23\n\t"
	      "vpternlogq $0x96,%%zmm21,%%zmm20,%%zmm22\n\t vpternlogq $0x96,%%zmm21,%%zmm20,%%zmm23\n\t",
     ZCL)
__attribute__((target(TZ), noinline)) static void z_scalar4(const char *p, size_t bytes, long passes)
{
	uint64_t a = 0, b = 0;
	for (long k = 0; k < passes; k++) {
		const char *q = p, *e = p + bytes;
		__asm__ volatile(".p2align 6\n1:\n\t" ZLOADS16 "add $1,%2\n\t add $1,%3\n\t add $1,%2\n\t add $1,%3\n\t"
				 "add $1024,%0\n\t cmp %1,%0\n\t jb 1b"
				 : "+r"(q), "+r"(e), "+r"(a), "+r"(b)
				 :
				 : ZCL);
	}
	__asm__ volatile("" ::"r"(a), "r"(b));
}

/* The consumers of the zmm loads: every byte xored into a kept register.
 * lab: memtop's read_vector as built (8 loads, 8 vpternlogq with a memory
 * operand into 8 accumulators; lab2k the same 2 KB a turn; grouped the
 * eight loads first, then the eight ternlogs); tree: 16 loads, 5 ternlogs of three loads,
 * 3 into three accumulators (8 ops); acc4: as lab, 4 accumulators; half:
 * the same bytes as 32 ymm loads, 16 ymm ternlogs (3 x 32 B loads a cycle
 * at most: 96 of 128). */
LOOP(c_lab, TZ, 1024,
     "vmovdqa64 0(%0),%%zmm0\n\t vpternlogq $0x96,64(%0),%%zmm0,%%zmm16\n\t"
     "vmovdqa64 128(%0),%%zmm1\n\t vpternlogq $0x96,192(%0),%%zmm1,%%zmm17\n\t"
     "vmovdqa64 256(%0),%%zmm2\n\t vpternlogq $0x96,320(%0),%%zmm2,%%zmm18\n\t"
     "vmovdqa64 384(%0),%%zmm3\n\t vpternlogq $0x96,448(%0),%%zmm3,%%zmm19\n\t"
     "vmovdqa64 512(%0),%%zmm4\n\t vpternlogq $0x96,576(%0),%%zmm4,%%zmm20\n\t"
     "vmovdqa64 640(%0),%%zmm5\n\t vpternlogq $0x96,704(%0),%%zmm5,%%zmm21\n\t"
     "vmovdqa64 768(%0),%%zmm6\n\t vpternlogq $0x96,832(%0),%%zmm6,%%zmm22\n\t"
     "vmovdqa64 896(%0),%%zmm7\n\t vpternlogq $0x96,960(%0),%%zmm7,%%zmm23\n\t",
     ZCL)
#define LT(o1, o2, r, acc) "vmovdqa64 " #o1 "(%0),%%zmm" #r "\n\t vpternlogq $0x96," #o2 "(%0),%%zmm" #r ",%%zmm" #acc "\n\t"
#define ZL(o, r) "vmovdqa64 " #o "(%0),%%zmm" #r "\n\t"
#define ZT(o, r, acc) "vpternlogq $0x96," #o "(%0),%%zmm" #r ",%%zmm" #acc "\n\t"
LOOP(c_lab2k, TZ, 2048,
     LT(0, 64, 0, 16) LT(128, 192, 1, 17) LT(256, 320, 2, 18) LT(384, 448, 3, 19) LT(512, 576, 4, 20)
	     LT(640, 704, 5, 21) LT(768, 832, 6, 22) LT(896, 960, 7, 23) LT(1024, 1088, 0, 16)
		     LT(1152, 1216, 1, 17) LT(1280, 1344, 2, 18) LT(1408, 1472, 3, 19)
			     LT(1536, 1600, 4, 20) LT(1664, 1728, 5, 21) LT(1792, 1856, 6, 22)
				     LT(1920, 1984, 7, 23),
     ZCL)
LOOP(c_grouped, TZ, 1024,
     ZL(0, 0) ZL(128, 1) ZL(256, 2) ZL(384, 3) ZL(512, 4) ZL(640, 5) ZL(768, 6) ZL(896, 7)
	     ZT(64, 0, 16) ZT(192, 1, 17) ZT(320, 2, 18) ZT(448, 3, 19) ZT(576, 4, 20) ZT(704, 5, 21)
		     ZT(832, 6, 22) ZT(960, 7, 23),
     ZCL)
LOOP(c_acc4, TZ, 1024,
     "vmovdqa64 0(%0),%%zmm0\n\t vpternlogq $0x96,64(%0),%%zmm0,%%zmm16\n\t"
     "vmovdqa64 128(%0),%%zmm1\n\t vpternlogq $0x96,192(%0),%%zmm1,%%zmm17\n\t"
     "vmovdqa64 256(%0),%%zmm2\n\t vpternlogq $0x96,320(%0),%%zmm2,%%zmm18\n\t"
     "vmovdqa64 384(%0),%%zmm3\n\t vpternlogq $0x96,448(%0),%%zmm3,%%zmm19\n\t"
     "vmovdqa64 512(%0),%%zmm4\n\t vpternlogq $0x96,576(%0),%%zmm4,%%zmm16\n\t"
     "vmovdqa64 640(%0),%%zmm5\n\t vpternlogq $0x96,704(%0),%%zmm5,%%zmm17\n\t"
     "vmovdqa64 768(%0),%%zmm6\n\t vpternlogq $0x96,832(%0),%%zmm6,%%zmm18\n\t"
     "vmovdqa64 896(%0),%%zmm7\n\t vpternlogq $0x96,960(%0),%%zmm7,%%zmm19\n\t",
     ZCL)
LOOP(c_tree, TZ, 1024,
     ZLOADS16 "vpternlogq $0x96,%%zmm2,%%zmm1,%%zmm0\n\t vpternlogq $0x96,%%zmm5,%%zmm4,%%zmm3\n\t"
	      "vpternlogq $0x96,%%zmm12,%%zmm7,%%zmm6\n\t vpternlogq $0x96,%%zmm15,%%zmm14,%%zmm13\n\t"
	      "vpternlogq $0x96,%%zmm18,%%zmm17,%%zmm16\n\t vpternlogq $0x96,%%zmm3,%%zmm0,%%zmm20\n\t"
	      "vpternlogq $0x96,%%zmm13,%%zmm6,%%zmm21\n\t vpternlogq $0x96,%%zmm19,%%zmm16,%%zmm22\n\t",
     ZCL)
LOOP(c_treemem, TZ, 1024,
     "vmovdqa64 0(%0),%%zmm0\n\t vmovdqa64 64(%0),%%zmm1\n\t vpternlogq $0x96,128(%0),%%zmm1,%%zmm0\n\t"
     "vmovdqa64 192(%0),%%zmm2\n\t vmovdqa64 256(%0),%%zmm3\n\t vpternlogq $0x96,320(%0),%%zmm3,%%zmm2\n\t"
     "vmovdqa64 384(%0),%%zmm4\n\t vmovdqa64 448(%0),%%zmm5\n\t vpternlogq $0x96,512(%0),%%zmm5,%%zmm4\n\t"
     "vmovdqa64 576(%0),%%zmm6\n\t vmovdqa64 640(%0),%%zmm7\n\t vpternlogq $0x96,704(%0),%%zmm7,%%zmm6\n\t"
     "vmovdqa64 768(%0),%%zmm12\n\t vmovdqa64 832(%0),%%zmm13\n\t vpternlogq $0x96,896(%0),%%zmm13,%%zmm12\n\t"
     "vmovdqa64 960(%0),%%zmm14\n\t"
     "vpternlogq $0x96,%%zmm2,%%zmm0,%%zmm20\n\t vpternlogq $0x96,%%zmm6,%%zmm4,%%zmm21\n\t"
     "vpternlogq $0x96,%%zmm14,%%zmm12,%%zmm22\n\t",
     ZCL)
LOOP(c_half, TZ, 1024,
     "vmovdqa 0(%0),%%ymm0\n\t vpternlogq $0x96,32(%0),%%ymm0,%%ymm16\n\t"
     "vmovdqa 64(%0),%%ymm1\n\t vpternlogq $0x96,96(%0),%%ymm1,%%ymm17\n\t"
     "vmovdqa 128(%0),%%ymm2\n\t vpternlogq $0x96,160(%0),%%ymm2,%%ymm18\n\t"
     "vmovdqa 192(%0),%%ymm3\n\t vpternlogq $0x96,224(%0),%%ymm3,%%ymm19\n\t"
     "vmovdqa 256(%0),%%ymm4\n\t vpternlogq $0x96,288(%0),%%ymm4,%%ymm20\n\t"
     "vmovdqa 320(%0),%%ymm5\n\t vpternlogq $0x96,352(%0),%%ymm5,%%ymm21\n\t"
     "vmovdqa 384(%0),%%ymm6\n\t vpternlogq $0x96,416(%0),%%ymm6,%%ymm22\n\t"
     "vmovdqa 448(%0),%%ymm7\n\t vpternlogq $0x96,480(%0),%%ymm7,%%ymm23\n\t"
     "vmovdqa 512(%0),%%ymm0\n\t vpternlogq $0x96,544(%0),%%ymm0,%%ymm16\n\t"
     "vmovdqa 576(%0),%%ymm1\n\t vpternlogq $0x96,608(%0),%%ymm1,%%ymm17\n\t"
     "vmovdqa 640(%0),%%ymm2\n\t vpternlogq $0x96,672(%0),%%ymm2,%%ymm18\n\t"
     "vmovdqa 704(%0),%%ymm3\n\t vpternlogq $0x96,736(%0),%%ymm3,%%ymm19\n\t"
     "vmovdqa 768(%0),%%ymm4\n\t vpternlogq $0x96,800(%0),%%ymm4,%%ymm20\n\t"
     "vmovdqa 832(%0),%%ymm5\n\t vpternlogq $0x96,864(%0),%%ymm5,%%ymm21\n\t"
     "vmovdqa 896(%0),%%ymm6\n\t vpternlogq $0x96,928(%0),%%ymm6,%%ymm22\n\t"
     "vmovdqa 960(%0),%%ymm7\n\t vpternlogq $0x96,992(%0),%%ymm7,%%ymm23\n\t",
     ZCL)

/* AVX2 (VEX only): sixteen ymm loads a turn, N ops beside them, each
 * writing the first register it reads (no chain from turn to turn). */
#define YOP(OP, a, b) OP " %%ymm" #b ",%%ymm" #a ",%%ymm" #a "\n\t"
#define YOPS1(OP) YOP(OP, 0, 1)
#define YOPS2(OP) YOPS1(OP) YOP(OP, 2, 3)
#define YOPS4(OP) YOPS2(OP) YOP(OP, 4, 5) YOP(OP, 6, 7)
#define YOPS8(OP) YOPS4(OP) YOP(OP, 8, 9) YOP(OP, 10, 11) YOP(OP, 12, 13) YOP(OP, 14, 15)
#define YOPS16(OP) YOPS8(OP) YOP(OP, 1, 0) YOP(OP, 3, 2) YOP(OP, 5, 4) YOP(OP, 7, 6) \
	YOP(OP, 9, 8) YOP(OP, 11, 10) YOP(OP, 13, 12) YOP(OP, 15, 14)
#define TY "avx2,fma"
#define YROW(NAME, OP)                                                                      \
	LOOP(NAME##1, TY, 512, YLOADS16 YOPS1(OP), YCL)                                     \
	LOOP(NAME##2, TY, 512, YLOADS16 YOPS2(OP), YCL)                                     \
	LOOP(NAME##4, TY, 512, YLOADS16 YOPS4(OP), YCL)                                     \
	LOOP(NAME##8, TY, 512, YLOADS16 YOPS8(OP), YCL)                                     \
	LOOP(NAME##16, TY, 512, YLOADS16 YOPS16(OP), YCL)
LOOP(y_pure, TY, 512, YLOADS16, YCL)
/* The plain ymm loads as memtop's load_avx2 is built (gcc -O2, objdump):
 * eight registers twice, a counter beside the pointer, the loop at a 32
 * byte boundary; and the 16-register loop moved off its 64-byte one. */
#define YLOADS8X2                                                                           \
	"vmovdqa 0(%0),%%ymm0\n\t vmovdqa 32(%0),%%ymm1\n\t"                              \
	"vmovdqa 64(%0),%%ymm2\n\t vmovdqa 96(%0),%%ymm3\n\t"                             \
	"vmovdqa 128(%0),%%ymm4\n\t vmovdqa 160(%0),%%ymm5\n\t"                           \
	"vmovdqa 192(%0),%%ymm6\n\t vmovdqa 224(%0),%%ymm7\n\t"                           \
	"vmovdqa 256(%0),%%ymm0\n\t vmovdqa 288(%0),%%ymm1\n\t"                           \
	"vmovdqa 320(%0),%%ymm2\n\t vmovdqa 352(%0),%%ymm3\n\t"                           \
	"vmovdqa 384(%0),%%ymm4\n\t vmovdqa 416(%0),%%ymm5\n\t"                           \
	"vmovdqa 448(%0),%%ymm6\n\t vmovdqa 480(%0),%%ymm7\n\t"
__attribute__((target(TY), noinline)) static void y_labshape(const char *p, size_t bytes, long passes)
{
	for (long k = 0; k < passes; k++) {
		const char *q = p, *e = p + bytes;
		uint64_t c = 0;
		__asm__ volatile(".p2align 6\n\t.skip 32,0x90\n1:\n\t" YLOADS8X2 "add $16,%2\n\t"
				 "add $512,%0\n\t cmp %1,%0\n\t jb 1b"
				 : "+r"(q), "+r"(e), "+r"(c)
				 :
				 : YCL);
	}
}
__attribute__((target(TY), noinline)) static void y_off32(const char *p, size_t bytes, long passes)
{
	for (long k = 0; k < passes; k++) {
		const char *q = p, *e = p + bytes;
		__asm__ volatile(".p2align 6\n\t.skip 32,0x90\n1:\n\t" YLOADS16
				 "add $512,%0\n\t cmp %1,%0\n\t jb 1b"
				 : "+r"(q)
				 : "r"(e)
				 : YCL);
	}
}
YROW(y_add, "vpaddq")
YROW(y_xor, "vpxor")
YROW(y_fma, "vfmadd231pd")

/* The AVX2 consumers. fma8: memtop's read_vector as built (8 loads, 8
 * FMAs with a memory operand into 8 accumulators, 16 loads a turn);
 * fma12: 12 accumulators, 24 loads (768 B) a turn; xor16: one vpxor with a
 * memory operand a load into 8 accumulators (16 ops); addtree: pairs
 * added, the sums added into 4 accumulators (8 + 8 ops, integer). */
#define F(o1, o2, r, acc) "vmovapd " #o1 "(%0),%%ymm" #r "\n\t vfmadd231pd " #o2 "(%0),%%ymm" #r ",%%ymm" #acc "\n\t"
LOOP(c_fma8, TY, 512,
     F(0, 32, 0, 8) F(64, 96, 1, 9) F(128, 160, 2, 10) F(192, 224, 3, 11) F(256, 288, 4, 12)
	     F(320, 352, 5, 13) F(384, 416, 6, 14) F(448, 480, 7, 15),
     YCL)
LOOP(c_fma12, TY, 768,
     F(0, 32, 0, 4) F(64, 96, 1, 5) F(128, 160, 2, 6) F(192, 224, 3, 7) F(256, 288, 0, 8)
	     F(320, 352, 1, 9) F(384, 416, 2, 10) F(448, 480, 3, 11) F(512, 544, 0, 12)
		     F(576, 608, 1, 13) F(640, 672, 2, 14) F(704, 736, 3, 15),
     YCL)
#define X(o, acc) "vpxor " #o "(%0),%%ymm" #acc ",%%ymm" #acc "\n\t"
LOOP(c_xor16, TY, 512,
     X(0, 8) X(32, 9) X(64, 10) X(96, 11) X(128, 12) X(160, 13) X(192, 14) X(224, 15) X(256, 8)
	     X(288, 9) X(320, 10) X(352, 11) X(384, 12) X(416, 13) X(448, 14) X(480, 15),
     YCL)
#define A2(o1, o2, r, acc) "vmovdqa " #o1 "(%0),%%ymm" #r "\n\t vpaddq " #o2 "(%0),%%ymm" #r ",%%ymm" #r "\n\t vpaddq %%ymm" #r ",%%ymm" #acc ",%%ymm" #acc "\n\t"
LOOP(c_addtree, TY, 512,
     A2(0, 32, 0, 8) A2(64, 96, 1, 9) A2(128, 160, 2, 10) A2(192, 224, 3, 11) A2(256, 288, 4, 12)
	     A2(320, 352, 5, 13) A2(384, 416, 6, 14) A2(448, 480, 7, 15),
     YCL)

/* Mixes: fewer FMAs (ports 0 and 1), the rest of the loads added into
 * their own accumulators, one add a load (vpaddq: ports 0, 1 and 5;
 * vaddpd: 1 and 5); each FMA consumes two loads, each add one: mixF_A is
 * F FMAs and A adds, 2F + A = 16 loads a turn. */
#define AD(OP, o, acc) OP " " #o "(%0),%%ymm" #acc ",%%ymm" #acc "\n\t"
#define MIX6(OP) F(0, 32, 0, 2) F(64, 96, 1, 3) F(128, 160, 0, 4) F(192, 224, 1, 5) \
	F(256, 288, 0, 6) F(320, 352, 1, 7) AD(OP, 384, 8) AD(OP, 416, 9) AD(OP, 448, 10) AD(OP, 480, 11)
#define MIX4(OP) F(0, 32, 0, 4) F(64, 96, 1, 5) F(128, 160, 2, 6) F(192, 224, 3, 7) \
	AD(OP, 256, 8) AD(OP, 288, 9) AD(OP, 320, 10) AD(OP, 352, 11) \
	AD(OP, 384, 12) AD(OP, 416, 13) AD(OP, 448, 14) AD(OP, 480, 15)
#define MIX2(OP) F(0, 32, 0, 2) F(64, 96, 1, 3) \
	AD(OP, 128, 4) AD(OP, 160, 5) AD(OP, 192, 6) AD(OP, 224, 7) AD(OP, 256, 8) AD(OP, 288, 9) \
	AD(OP, 320, 10) AD(OP, 352, 11) AD(OP, 384, 12) AD(OP, 416, 13) AD(OP, 448, 14) AD(OP, 480, 15)
LOOP(c_mix6i, TY, 512, MIX6("vpaddq"), YCL)
LOOP(c_mix4i, TY, 512, MIX4("vpaddq"), YCL)
LOOP(c_mix2i, TY, 512, MIX2("vpaddq"), YCL)
LOOP(c_mix6f, TY, 512, MIX6("vaddpd"), YCL)
LOOP(c_mix4f, TY, 512, MIX4("vaddpd"), YCL)
LOOP(c_mix2f, TY, 512, MIX2("vaddpd"), YCL)

/* AMX (where the CPU and the kernel allow it): tile loads of 1 KB (16
 * rows of 64 bytes) and TDPBSSD, one op consuming two whole tiles (2 KB)
 * into an int32 tile; or one tile against a tile of ones (each C element
 * the sum of a row's 64 bytes: every byte counted, 1 KB an op). */
#define AMXLOOP(NAME, STEP, BODY)                                                           \
	__attribute__((noinline)) static void NAME(const char *p, size_t bytes, long passes) \
	{                                                                                   \
		uint64_t st = 64;                                                           \
		for (long k = 0; k < passes; k++) {                                         \
			const char *q = p, *e = p + bytes;                                  \
			__asm__ volatile(".p2align 6\n1:\n\t" BODY "add $" #STEP ",%0\n\t"  \
					 "cmp %1,%0\n\t jb 1b"                              \
					 : "+r"(q)                                          \
					 : "r"(e), "r"(st)                                  \
					 : "memory", "cc");                                 \
		}                                                                           \
	}
AMXLOOP(a_loads, 2048, "tileloadd (%0,%2,1),%%tmm0\n\t tileloadd 1024(%0,%2,1),%%tmm1\n\t")
AMXLOOP(a_dot, 4096,
	"tileloadd (%0,%2,1),%%tmm0\n\t tileloadd 1024(%0,%2,1),%%tmm1\n\t tdpbssd %%tmm1,%%tmm0,%%tmm2\n\t"
	"tileloadd 2048(%0,%2,1),%%tmm4\n\t tileloadd 3072(%0,%2,1),%%tmm5\n\t tdpbssd %%tmm5,%%tmm4,%%tmm6\n\t")
AMXLOOP(a_ones, 2048,
	"tileloadd (%0,%2,1),%%tmm0\n\t tdpbssd %%tmm3,%%tmm0,%%tmm2\n\t"
	"tileloadd 1024(%0,%2,1),%%tmm1\n\t tdpbssd %%tmm3,%%tmm1,%%tmm6\n\t")

/* 1 when AMX-TILE and AMX-INT8 are there (CPUID 7.0 EDX bits 24, 25), the
 * kernel grants the tile data (arch_prctl ARCH_REQ_XCOMP_PERM, 0x1023,
 * XTILEDATA 18), and the tiles are configured: tmm0-7 16 rows of 64 bytes,
 * tmm3 all ones, tmm2 and tmm6 zero. */
static int amx_ready(void)
{
	static unsigned char cfg[64], ones[1024];
	unsigned a, b, c, d;
	uint64_t st = 64;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(7), "c"(0));
	if (!(d & (1u << 24)) || !(d & (1u << 25)) || syscall(SYS_arch_prctl, 0x1023, 18) != 0)
		return 0;
	cfg[0] = 1;
	for (int t = 0; t < 8; t++) {
		cfg[16 + 2 * t] = 64; /* colsb, little-endian 16 bits */
		cfg[48 + t] = 16;     /* rows */
	}
	memset(ones, 1, sizeof ones);
	__asm__ volatile("ldtilecfg %0\n\t tileloadd (%1,%2,1),%%tmm3\n\t tilezero %%tmm2\n\t"
			 "tilezero %%tmm6"
			 :
			 : "m"(cfg), "r"(ones), "r"(st)
			 : "memory");
	return 1;
}

typedef void (*loop_fn)(const char *, size_t, long);
struct loop {
	const char *name;
	loop_fn fn;
	size_t step; /* bytes a turn */
	int zmm;     /* needs AVX-512 (1), AMX (2) */
	double best[16]; /* per size: best of a round's tries, best round */
	double worst[16]; /* per size: the worst round's best */
};

#define ZR(NAME, LABEL)                                                                     \
	{ LABEL " 1", NAME##1, 1024, 1, { 0 }, { 0 } },                                     \
		{ LABEL " 2", NAME##2, 1024, 1, { 0 }, { 0 } },                             \
		{ LABEL " 4", NAME##4, 1024, 1, { 0 }, { 0 } },                             \
		{ LABEL " 8", NAME##8, 1024, 1, { 0 }, { 0 } },                             \
		{ LABEL " 16", NAME##16, 1024, 1, { 0 }, { 0 } }
#define YR(NAME, LABEL)                                                                     \
	{ LABEL " 1", NAME##1, 512, 0, { 0 }, { 0 } },                                      \
		{ LABEL " 2", NAME##2, 512, 0, { 0 }, { 0 } },                              \
		{ LABEL " 4", NAME##4, 512, 0, { 0 }, { 0 } },                              \
		{ LABEL " 8", NAME##8, 512, 0, { 0 }, { 0 } },                              \
		{ LABEL " 16", NAME##16, 512, 0, { 0 }, { 0 } }
static struct loop loops[] = {
	{ "zmm loads", z_pure, 1024, 1, { 0 }, { 0 } },
	ZR(z_tern_z, "vpternlogq zmm"), ZR(z_tern_y, "vpternlogq ymm"),
	ZR(z_add_z, "vpaddq zmm"), ZR(z_add_y, "vpaddq ymm"),
	ZR(z_perm_z, "vpermq zmm"), ZR(z_perm_y, "vpermq ymm"),
	ZR(z_cmpk_z, "vpcmpeqq zmm->k"), ZR(z_cmpk_y, "vpcmpeqq ymm->k"),
	ZR(z_min_z, "vpminuq zmm"), ZR(z_min_y, "vpminuq ymm"),
	ZR(z_fma_z, "vfmadd231pd zmm"), ZR(z_fma_y, "vfmadd231pd ymm"),
	ZR(z_dp_z, "vpdpbusd zmm"), ZR(z_dp_y, "vpdpbusd ymm"),
	{ "4 zmm ternlogs, no load read", z_indep4, 1024, 1, { 0 }, { 0 } },
	{ "4 scalar adds", z_scalar4, 1024, 1, { 0 }, { 0 } },
	{ "consumer lab: 8 ld + 8 tern(mem), 8 acc", c_lab, 1024, 1, { 0 }, { 0 } },
	{ "consumer acc4: the same, 4 acc", c_acc4, 1024, 1, { 0 }, { 0 } },
	{ "consumer lab2k: the same, 2 KB a turn", c_lab2k, 2048, 1, { 0 }, { 0 } },
	{ "consumer grouped: 8 ld, then 8 tern(mem)", c_grouped, 1024, 1, { 0 }, { 0 } },
	{ "consumer tree: 16 ld, 5+3 tern, 3 acc", c_tree, 1024, 1, { 0 }, { 0 } },
	{ "consumer treemem: 11 ld + 5 tern(mem) + 3", c_treemem, 1024, 1, { 0 }, { 0 } },
	{ "consumer half: 16 ymm ld + 16 ymm tern(mem)", c_half, 1024, 1, { 0 }, { 0 } },
	{ "AMX tile loads (2 tileloadd of 1 KB)", a_loads, 2048, 2, { 0 }, { 0 } },
	{ "consumer amx: 2 tileloadd + tdpbssd A.B", a_dot, 4096, 2, { 0 }, { 0 } },
	{ "consumer amx1: tileloadd + tdpbssd A.ones", a_ones, 2048, 2, { 0 }, { 0 } },
	{ "ymm loads", y_pure, 512, 0, { 0 }, { 0 } },
	{ "ymm loads as load_avx2 (8 regs x2, counter)", y_labshape, 512, 0, { 0 }, { 0 } },
	{ "ymm loads, loop at 64+32 bytes", y_off32, 512, 0, { 0 }, { 0 } },
	YR(y_add, "vpaddq ymm"), YR(y_xor, "vpxor ymm"), YR(y_fma, "vfmadd231pd ymm"),
	{ "consumer fma8: 8 ld + 8 fma(mem), 8 acc", c_fma8, 512, 0, { 0 }, { 0 } },
	{ "consumer fma12: 12 ld + 12 fma(mem), 12 acc", c_fma12, 768, 0, { 0 }, { 0 } },
	{ "consumer xor16: 16 vpxor(mem), 8 acc", c_xor16, 512, 0, { 0 }, { 0 } },
	{ "consumer mix6i: 6 fma + 4 vpaddq(mem)", c_mix6i, 512, 0, { 0 }, { 0 } },
	{ "consumer mix4i: 4 fma + 8 vpaddq(mem)", c_mix4i, 512, 0, { 0 }, { 0 } },
	{ "consumer mix2i: 2 fma + 12 vpaddq(mem)", c_mix2i, 512, 0, { 0 }, { 0 } },
	{ "consumer mix6f: 6 fma + 4 vaddpd(mem)", c_mix6f, 512, 0, { 0 }, { 0 } },
	{ "consumer mix4f: 4 fma + 8 vaddpd(mem)", c_mix4f, 512, 0, { 0 }, { 0 } },
	{ "consumer mix2f: 2 fma + 12 vaddpd(mem)", c_mix2f, 512, 0, { 0 }, { 0 } },
	{ "consumer addtree: 8 ld + 8 add(mem) + 8 add", c_addtree, 512, 0, { 0 }, { 0 } },
};
#define NLOOPS (sizeof loops / sizeof loops[0])

/* One try of loop l over size bytes: bytes a cycle at the clock measured
 * right before and right after it; 0 when the four chains around it
 * disagree by more than 5 % (a tenant or the host took the CPU during one:
 * neither the clock nor the try can be trusted). */
static double one_try(const struct loop *l, const char *p, size_t size, double try_mb)
{
	size_t bytes = size / l->step * l->step;
	long passes = (long)(try_mb * 1048576.0 / (double)bytes) + 1;
	double g[4], lo, hi, t0, t;
	g[0] = clock_ghz();
	g[1] = clock_ghz();
	t0 = now();
	l->fn(p, bytes, passes);
	t = now() - t0;
	g[2] = clock_ghz();
	g[3] = clock_ghz();
	lo = hi = g[0];
	for (int i = 1; i < 4; i++) {
		lo = fmin(lo, g[i]);
		hi = fmax(hi, g[i]);
	}
	if (hi > 1.05 * lo)
		return 0;
	return (double)bytes * (double)passes / t / 1e9 / hi;
}

static double envd(const char *name, double dflt)
{
	const char *s = getenv(name);
	char *end;
	double v;
	if (!s || !*s)
		return dflt;
	v = strtod(s, &end);
	return (*end || v <= 0) ? dflt : v;
}

/* Whether a loop's name ends in " 1": the first of a row of N ops. */
static int first_of_row(const char *name)
{
	size_t n = strlen(name);
	return n > 2 && strcmp(name + n - 2, " 1") == 0;
}

static void row(const char *head, size_t si, size_t first, size_t count, double ceiling,
		double pure)
{
	printf("%-30s", head);
	for (size_t i = first; i < first + count; i++)
		printf(" %5.1f %3.0f%%", loops[i].best[si], 100 * loops[i].best[si] / ceiling);
	printf("   (%.2f-%.2fx)\n", loops[first + 3].worst[si] / pure, loops[first + 3].best[si] / pure);
}

/* rounds rounds of every loop this CPU runs (zmm: AVX-512, amx: AMX), each
 * size's best of tries tries of try_mb MB over p into loops[].best and
 * .worst (the plain and consumer loops at every size, the others at
 * sizes[s24] only). Returns the tries thrown away. */
static long measure_rounds(char *p, const size_t *sizes, size_t nsizes, size_t s24, int rounds,
			   int tries, double try_mb, int zmm, int amx)
{
	long dropped = 0;
	for (int r = 0; r < rounds; r++) {
		for (size_t i = 0; i < NLOOPS; i++) {
			if ((loops[i].zmm == 1 && !zmm) || (loops[i].zmm == 2 && !amx))
				continue;
			for (size_t si = 0; si < nsizes; si++) {
				double b = 0;
				/* all sizes for the plain and consumer loops, 24K for the rest */
				int all = strncmp(loops[i].name, "consumer", 8) == 0 ||
					  strstr(loops[i].name, "loads") ||
					  strcmp(loops[i].name, "vpternlogq zmm 8") == 0;
				if (si != s24 && !all)
					continue;
				for (int t = 0, good = 0; good < tries && t < 4 * tries; t++) {
					double v = one_try(&loops[i], p, sizes[si], try_mb);
					good += v > 0;
					dropped += v == 0;
					if (v > b)
						b = v;
				}
				if (b > loops[i].best[si])
					loops[i].best[si] = b;
				if (r == 0 || b < loops[i].worst[si])
					loops[i].worst[si] = b;
			}
		}
		fprintf(stderr, "l1ops: round %d of %d done\n", r + 1, rounds);
	}
	return dropped;
}

/* With zmm (AVX-512), the zmm loads at sizes[s24] with N ops per 16 loads
 * beside them, then the loops without loads. */
static void print_zmm(size_t s24, int zmm)
{
	if (zmm) {
		double pure = loops[0].best[s24];
		printf("\n## zmm loads at 24K: bytes a cycle and %% of 128 (two 64-byte loads a cycle),\n"
		       "## with N ops per 16 loads beside them; in brackets N=8: worst..best round / the plain loads'\n");
		printf("%-30s %10s %10s %10s %10s %10s %10s\n", "op  \\ N per 16 loads", "0", "1", "2",
		       "4", "8", "16");
		double lo[2] = { 100, 100 }, hi[2] = { 0, 0 };
		for (size_t i = 1; i + 5 <= NLOOPS && first_of_row(loops[i].name); i += 5) {
			char head[40];
			int y = strstr(loops[i].name, " ymm") != NULL;
			double per = 100 * (1 - loops[i + 3].best[s24] / pure) / 8;
			snprintf(head, sizeof head, "%.*s", (int)(strlen(loops[i].name) - 2), loops[i].name);
			printf("%-30s %5.1f %3.0f%%", head, pure, 100 * pure / 128);
			row("", s24, i, 5, 128, pure);
			lo[y] = fmin(lo[y], per);
			hi[y] = fmax(hi[y], per);
		}
		printf("# with 8 ops per 16 loads (best rounds), each op costs the loads %.1f..%.1f %% of their rate "
		       "as a 512-bit op, %.1f..%.1f %% as a 256-bit one (over the op kinds)\n",
		       lo[0], hi[0], lo[1], hi[1]);
	}
	for (size_t i = 0; i < NLOOPS; i++) {
		if (strstr(loops[i].name, "no load") || strstr(loops[i].name, "scalar adds")) {
			if (zmm)
				printf("%-44s %5.1f %3.0f%% (%.2fx the loads)\n", loops[i].name,
				       loops[i].best[s24], 100 * loops[i].best[s24] / 128,
				       loops[i].best[s24] / loops[0].best[s24]);
		}
	}
}

/* The ymm loads at sizes[s24] with N ops per 16 loads beside them. */
static void print_ymm(size_t s24)
{
	for (size_t i = 0; i < NLOOPS; i++) {
		if (strcmp(loops[i].name, "ymm loads") != 0)
			continue;
		printf("\n## ymm loads at 24K: bytes a cycle and %% of 96 (three 32-byte loads a cycle), N ops per 16 loads;\n## in brackets N=8: worst..best round / the plain loads'\n");
		printf("%-30s %10s %10s %10s %10s %10s %10s\n", "op  \\ N per 16 loads", "0", "1", "2",
		       "4", "8", "16");
		size_t j0 = i + 1;
		while (j0 < NLOOPS && !first_of_row(loops[j0].name))
			j0++; /* past the other plain loads */
		for (size_t j = j0; j + 5 <= NLOOPS && first_of_row(loops[j].name); j += 5) {
			char head[40];
			snprintf(head, sizeof head, "%.*s", (int)(strlen(loops[j].name) - 2), loops[j].name);
			printf("%-30s %5.1f %3.0f%%", head, loops[i].best[s24], 100 * loops[i].best[s24] / 96);
			row("", s24, j, 5, 96, loops[i].best[s24]);
		}
	}
}

/* Every loop measured at every size, best round and worst. */
static void print_by_size(const size_t *sizes, size_t nsizes)
{
	printf("\n## by size: bytes a cycle, %% of the ceiling (128 for zmm loops, 96 for ymm), best round (worst round)\n");
	printf("%-46s", "loop");
	for (size_t si = 0; si < nsizes; si++)
		printf(" %14zuK", sizes[si] / 1024);
	printf("\n");
	for (size_t i = 0; i < NLOOPS; i++) {
		double ceil = loops[i].step == 512 || !loops[i].zmm ? 96 : 128;
		if (loops[i].best[0] == 0)
			continue;
		printf("%-46s", loops[i].name);
		for (size_t si = 0; si < nsizes; si++)
			printf("  %5.1f %3.0f%%(%2.0f)", loops[i].best[si], 100 * loops[i].best[si] / ceil,
			       100 * loops[i].worst[si] / ceil);
		printf("\n");
	}
}

int main(void)
{
	static const size_t sizes[] = { 4096, 8192, 16384, 24576, 32768, 40960 };
	const size_t nsizes = sizeof sizes / sizeof sizes[0], s24 = 3;
	int rounds = (int)envd("ROUNDS", 3), tries = (int)envd("TRIES", 7);
	double try_mb = envd("TRY_MB", 256);
	long dropped = 0;
	int amx = amx_ready();
	int zmm = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
		  __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vnni");
	char *p = aligned_alloc(4096, 65536);
	if (!p || !__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
		fprintf(stderr, "l1ops: needs AVX2 and FMA (and memory)\n");
		return 2;
	}
	/* doubles of small integers, as memtop's fill (no denormals for the FMAs) */
	for (size_t i = 0; i < 65536 / 8; i++)
		((double *)(void *)p)[i] = (double)(i % 1000 + 1);
	printf("# %d rounds, each the best of %d tries of %.0f MB; clock around each try: first %.2f GHz; "
	       "AVX-512 %s, AMX %s\n",
	       rounds, tries, try_mb, clock_ghz(), zmm ? "yes" : "no (its loops skipped)",
	       amx ? "yes" : "no (its loops skipped)");
	dropped = measure_rounds(p, sizes, nsizes, s24, rounds, tries, try_mb, zmm, amx);
	printf("# clock at the end %.2f GHz; %ld tries thrown away (their clock chains disagreed by over 5 %%)\n",
	       clock_ghz(), dropped);
	print_zmm(s24, zmm);
	print_ymm(s24);
	print_by_size(sizes, nsizes);
	free(p);
	return 0;
}
