/* load.S — sequential read bandwidth at 8, 16, 32 and 64 bytes per load.
 *
 * What it measures: `reps` passes over one array of `bytes` bytes, every byte read exactly once per
 * pass by aligned loads of the variant's width, nothing written. The rate is the read bandwidth of
 * the level that holds the array (L1 ports at small sizes, then L2, L3, DRAM).
 *
 * Each load is an xor with a memory source operand into one of several accumulators, so that the
 * return value depends on every load while every load is still exactly one instruction. The xor
 * chains are 1 cycle long and there are 4 (GPR) or 8 (vector) of them, at least as many as the
 * loads the core can issue per cycle, so they never limit the rate. Vector xors are the integer
 * ones (pxor, vpxor, vpxorq; hence AVX2 for load.avx): on Zen 5 the FP-domain xorpd / vxorpd with a
 * memory operand ran at 40 % of the load rate, the integer forms at the rate of likwid-bench's
 * plain-move load kernels.
 *
 *   uint64_t kern_load_<v>(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg /+ unused +/)
 *
 * Registers: rdi end of the array, rsi -bytes, rcx running index (-bytes .. 0), rdx passes left;
 *   gpr: accumulators rax r8 r9 r10      vector: accumulators 0-7 (xmm / ymm / zmm)
 * Block (loop body): 512 bytes = 8 lines; 512/width loads, then add + jnz.
 *
 * Descriptor (load_desc.c): per block 512/width loads and 512/width + 2 instructions; per pass 3 more
 * (index reset, dec, jnz); the fixed prologue + epilogue count per variant is in load_desc.c's table.
 * Lines read = bytes/64 per pass, nothing stored.
 */
#include "kern_asm.h"

	.text

#define BLOCK 512

/* One block of loads: `op` gets the byte offset and an accumulator, round robin over `regs`. */
.macro LOAD_BLOCK op, width, regs:vararg
	off = 0
	.rept BLOCK / \width
	.irp r, \regs
	.if off < BLOCK
	\op off, \r
	.endif
	off = off + \width
	.endr
	.endr
.endm

.macro XOR_GPR off, r
	xor	\off(%rdi,%rcx), \r
.endm
.macro XOR_SSE off, r
	pxor	\off(%rdi,%rcx), \r
.endm
.macro XOR_AVX off, r
	vpxor	\off(%rdi,%rcx), \r, \r
.endm
.macro XOR_AVX512 off, r
	vpxorq	\off(%rdi,%rcx), \r, \r
.endm

/* Entry, pass loop and block loop around one LOAD_BLOCK. */
.macro LOAD_LOOP op, width, regs:vararg
	add	%rsi, %rdi
	neg	%rsi
	BLOCKS_BEGIN
	LOAD_BLOCK \op, \width, \regs
	BLOCKS_END BLOCK
.endm

/* 8 bytes: 4 accumulators, folded into rax at the end. */
KERN_FUNC kern_load_gpr
	xor	%eax, %eax
	xor	%r8d, %r8d
	xor	%r9d, %r9d
	xor	%r10d, %r10d
	LOAD_LOOP XOR_GPR, 8, %rax, %r8, %r9, %r10
	xor	%r8, %rax
	xor	%r10, %r9
	xor	%r9, %rax
	ret
KERN_SIZE kern_load_gpr

/* Folds accumulators 0-7 into 0 (7 instructions). */
.macro FOLD8 op, p
	\op	\p\()4, \p\()0
	\op	\p\()5, \p\()1
	\op	\p\()6, \p\()2
	\op	\p\()7, \p\()3
	\op	\p\()2, \p\()0
	\op	\p\()3, \p\()1
	\op	\p\()1, \p\()0
.endm
.macro VFOLD8 op, p
	\op	\p\()4, \p\()0, \p\()0
	\op	\p\()5, \p\()1, \p\()1
	\op	\p\()6, \p\()2, \p\()2
	\op	\p\()7, \p\()3, \p\()3
	\op	\p\()2, \p\()0, \p\()0
	\op	\p\()3, \p\()1, \p\()1
	\op	\p\()1, \p\()0, \p\()0
.endm

/* 16 bytes (SSE2). */
KERN_FUNC kern_load_sse
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	pxor	%xmm\r, %xmm\r
	.endr
	LOAD_LOOP XOR_SSE, 16, %xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm7
	FOLD8	pxor, %xmm
	movq	%xmm0, %rax
	punpckhqdq %xmm0, %xmm0
	movq	%xmm0, %rcx
	xor	%rcx, %rax
	ret
KERN_SIZE kern_load_sse

/* 32 bytes (AVX2: the integer vpxor on ymm). */
KERN_FUNC kern_load_avx
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	vpxor	%ymm\r, %ymm\r, %ymm\r
	.endr
	LOAD_LOOP XOR_AVX, 32, %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7
	VFOLD8	vpxor, %ymm
	vextracti128 $1, %ymm0, %xmm1
	vpxor	%xmm1, %xmm0, %xmm0
	vmovq	%xmm0, %rax
	vpextrq	$1, %xmm0, %rcx
	xor	%rcx, %rax
	vzeroupper
	ret
KERN_SIZE kern_load_avx

/* 64 bytes (AVX-512F; the final fold uses AVX2, which every AVX-512 CPU has). */
KERN_FUNC kern_load_avx512
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	vpxorq	%zmm\r, %zmm\r, %zmm\r
	.endr
	LOAD_LOOP XOR_AVX512, 64, %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm5, %zmm6, %zmm7
	VFOLD8	vpxorq, %zmm
	vextracti64x4 $1, %zmm0, %ymm1
	vpxor	%ymm1, %ymm0, %ymm0
	vextracti128 $1, %ymm0, %xmm1
	vpxor	%xmm1, %xmm0, %xmm0
	vmovq	%xmm0, %rax
	vpextrq	$1, %xmm0, %rcx
	xor	%rcx, %rax
	vzeroupper
	ret
KERN_SIZE kern_load_avx512

	.section .note.GNU-stack, "", @progbits
