/* store.S — sequential write bandwidth at 8 (GPR or xmm), 16, 32 and 64 bytes per store, normal and
 * non-temporal.
 *
 * What it measures: `reps` passes over one array of `bytes` bytes, every byte written exactly once
 * per pass by aligned stores of the variant's width, nothing loaded. Normal stores make the cache
 * read each line before it is written (write-allocate), so the memory traffic is one line read and
 * one line written back per line; non-temporal stores (movnti, movntpd, vmovntpd) bypass the caches
 * and write whole lines without reading them. The NT variants end with one sfence so that their
 * writes are globally visible when the call returns.
 *
 * The stored value is all ones, not zero: some CPUs drop stores of zeros to lines that are already
 * zero, which would hide the write traffic.
 *
 *   uint64_t kern_store_<v>(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg /+ unused +/)
 *   returns 0 (the stored array is the observable result)
 *
 * Registers: rdi end of the array, rsi -bytes, rcx running index (-bytes .. 0), rdx passes left;
 *   source: r8 (gpr) or register 0 (xmm for sd and sse, ymm, zmm), set once before the loop.
 * Block (loop body): 512 bytes = 8 lines; 512/width stores, then add + jnz.
 *
 * Descriptor (store_desc.c): per block 512/width stores and 512/width + 2 instructions; per pass 3 more
 * (index reset, dec, jnz); the fixed count outside the loops per variant is in store_desc.c's table.
 * Lines written = bytes/64 per pass; lines read = the same for normal stores (write-allocate), 0 for NT.
 */
	.text

#include "kern_asm.h"

#define BLOCK 512

/* Every store is encoded with a 32-bit displacement ({disp32}), even where 8 bits would do, so that
 * the loop body is one instruction length throughout. With the assembler's mix (6-byte stores at
 * offsets below 128, 9-byte ones above) store.avx wrote 3 % slower into L2 on Zen 5 (265 against
 * 274 GB/s, one core), where all-disp32 matched likwid-bench's 4-store loop. The AVX-512 stores need
 * no prefix: EVEX scales an 8-bit displacement by 64, so all of a block's offsets fit it alike. */
.macro ST_GPR off
	{disp32} mov %r8, \off(%rdi,%rcx)
.endm
.macro ST_GPR_NT off
	{disp32} movnti %r8, \off(%rdi,%rcx)
.endm
/* 8 bytes from an xmm register (movsd), as likwid-bench's `store` writes them (its bench/x86-64/store.ptt).
 * On the Zen 3 guest one core wrote L1 at 21-24 GB/s with these and up to 47 GB/s with store.gpr's mov: at
 * 3.0 GHz one store a cycle against two. So likwid's `store` is compared with this variant. */
.macro ST_SD off
	{disp32} movsd %xmm0, \off(%rdi,%rcx)
.endm
.macro ST_SSE off
	{disp32} movapd %xmm0, \off(%rdi,%rcx)
.endm
.macro ST_SSE_NT off
	{disp32} movntpd %xmm0, \off(%rdi,%rcx)
.endm
.macro ST_AVX off
	{disp32} vmovapd %ymm0, \off(%rdi,%rcx)
.endm
.macro ST_AVX_NT off
	{disp32} vmovntpd %ymm0, \off(%rdi,%rcx)
.endm
.macro ST_AVX512 off
	vmovapd	%zmm0, \off(%rdi,%rcx)
.endm
.macro ST_AVX512_NT off
	vmovntpd %zmm0, \off(%rdi,%rcx)
.endm

/* The all-ones source, one instruction each. */
.macro ONES_GPR
	mov	$-1, %r8
.endm
.macro ONES_SSE
	pcmpeqd	%xmm0, %xmm0
.endm
.macro ONES_AVX
	vcmppd	$15, %ymm0, %ymm0, %ymm0	/* predicate 15: always true */
.endm
.macro ONES_AVX512
	vpternlogd $0xff, %zmm0, %zmm0, %zmm0
.endm

/* Prologue 5 (source, add, neg, mov, jmp); epilogue: fini + xor + ret. */
.macro STORE_FUNC name, ones, op, width, fini
KERN_FUNC \name
	\ones
	add	%rsi, %rdi
	neg	%rsi
	BLOCKS_BEGIN
	off = 0
	.rept BLOCK / \width
	\op off
	off = off + \width
	.endr
	BLOCKS_END BLOCK
	\fini
	xor	%eax, %eax
	ret
KERN_SIZE \name
.endm

STORE_FUNC kern_store_gpr, ONES_GPR, ST_GPR, 8, FINI_NONE
STORE_FUNC kern_store_sd, ONES_SSE, ST_SD, 8, FINI_NONE
STORE_FUNC kern_store_sse, ONES_SSE, ST_SSE, 16, FINI_NONE
STORE_FUNC kern_store_avx, ONES_AVX, ST_AVX, 32, FINI_VZU
STORE_FUNC kern_store_avx512, ONES_AVX512, ST_AVX512, 64, FINI_VZU
STORE_FUNC kern_store_gpr_nt, ONES_GPR, ST_GPR_NT, 8, FINI_NT
STORE_FUNC kern_store_sse_nt, ONES_SSE, ST_SSE_NT, 16, FINI_NT
STORE_FUNC kern_store_avx_nt, ONES_AVX, ST_AVX_NT, 32, FINI_NT_VZU
STORE_FUNC kern_store_avx512_nt, ONES_AVX512, ST_AVX512_NT, 64, FINI_NT_VZU

	.section .note.GNU-stack, "", @progbits
