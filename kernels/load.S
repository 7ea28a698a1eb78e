/* load.S — sequential read bandwidth at 8 (GPR or xmm), 16, 32 and 64 bytes per load.
 *
 * What it measures: `reps` passes over one array of `bytes` bytes, every byte read exactly once per
 * pass by aligned loads of the variant's width, nothing written. The rate is the read bandwidth of
 * the level that holds the array (L1 ports at small sizes, then L2, L3, DRAM).
 *
 * Each load is a plain move into one of 4 (GPR) or 8 (xmm / ymm / zmm) registers, as in likwid-bench's load
 * kernels; nothing consumes the loaded values. Why no consumer: an op that uses a load (an xor into
 * an accumulator, even in the same instruction) waits in the scheduler until its line arrives, and
 * from DRAM the 8 of them per line held back the next misses. On Zen 5 one core read 35 GB/s with
 * xor-accumulating 8-byte loads (also with addsd, movq + pxor or a broadcast vpxorq) and 37 GB/s
 * with plain moves. The return value is the xor of the registers after the last block, i.e. of the
 * last 32 (GPR) or 8 * width (the others) bytes of the array: it shows the walk ended where it should.
 *
 *   uint64_t kern_load_<v>(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg /+ unused +/)
 *
 * Registers: rdi end of the array, rsi -bytes, rcx running index (-bytes .. 0), rdx passes left;
 *   gpr: destinations rax r8 r9 r10      sd and vector: destinations 0-7 (xmm / ymm / zmm)
 * Block (loop body): 512 bytes = 8 lines; 512/width loads, then add + jnz.
 *
 * Descriptor (load_desc.c): per block 512/width loads and 512/width + 2 instructions; per pass 3 more
 * (index reset, dec, jnz); the fixed prologue + epilogue count per variant is in load_desc.c's table.
 * Every block writes every destination (512/width >= 8 loads), so none needs zeroing first.
 * Lines read = bytes/64 per pass, nothing stored.
 */
#include "kern_asm.h"

	.text

#define BLOCK 512

/* One block of loads: `op` gets the byte offset and a destination, round robin over `regs`. */
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

.macro MOV_GPR off, r
	mov	\off(%rdi,%rcx), \r
.endm
.macro MOV_SD off, r
	movq	\off(%rdi,%rcx), \r
.endm
.macro MOV_SSE off, r
	movdqa	\off(%rdi,%rcx), \r
.endm
.macro MOV_AVX off, r
	vmovdqa	\off(%rdi,%rcx), \r
.endm
.macro MOV_AVX512 off, r
	vmovdqa64 \off(%rdi,%rcx), \r
.endm

/* Entry, pass loop and block loop around one LOAD_BLOCK. */
.macro LOAD_LOOP op, width, regs:vararg
	add	%rsi, %rdi
	neg	%rsi
	BLOCKS_BEGIN
	LOAD_BLOCK \op, \width, \regs
	BLOCKS_END BLOCK
.endm

/* 8 bytes: 4 destinations, folded into rax at the end. */
KERN_FUNC kern_load_gpr
	LOAD_LOOP MOV_GPR, 8, %rax, %r8, %r9, %r10
	xor	%r8, %rax
	xor	%r10, %r9
	xor	%r9, %rax
	ret
KERN_SIZE kern_load_gpr

/* Folds registers 0-7 into 0 (7 instructions). */
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

/* xmm0-7 folded into rax, then ret (12 instructions). */
.macro SSE_FOLD_RET
	FOLD8	pxor, %xmm
	movq	%xmm0, %rax
	punpckhqdq %xmm0, %xmm0
	movq	%xmm0, %rcx
	xor	%rcx, %rax
	ret
.endm

/* 8 bytes into xmm registers (SSE2 movq, which zeroes the upper half): likwid-bench's `load` reads
 * 8 bytes this way (movsd). From DRAM it was 2-4 % faster than the same loads into GPRs on Zen 5. */
KERN_FUNC kern_load_sd
	LOAD_LOOP MOV_SD, 8, %xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm7
	SSE_FOLD_RET
KERN_SIZE kern_load_sd

/* 16 bytes (SSE2). */
KERN_FUNC kern_load_sse
	LOAD_LOOP MOV_SSE, 16, %xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm7
	SSE_FOLD_RET
KERN_SIZE kern_load_sse

/* 32 bytes (AVX2 for the fold's integer vpxor on ymm). */
KERN_FUNC kern_load_avx
	LOAD_LOOP MOV_AVX, 32, %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7
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
	LOAD_LOOP MOV_AVX512, 64, %zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm5, %zmm6, %zmm7
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
