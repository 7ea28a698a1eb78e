/* kern_asm.h — the scaffolding the sequential kernels share (included by their .S files; GNU as macros).
 *
 * Every sequential kernel walks an index from -bytes up to 0 over the end of its array(s), one unrolled
 * block per loop iteration, `reps` passes in all:
 *
 *	KERN_FUNC name		entry, 64-byte aligned
 *	... set up: rdi (and other bases) = end of array, rsi = -bytes ...
 *	BLOCKS_BEGIN		mov %rsi,%rcx; jmp over the padding to the 64-byte aligned loop head
 *	... one block of accesses at off(%rdi,%rcx) ...
 *	BLOCKS_END BLOCK	add $BLOCK,%rcx; jnz; next pass: mov %rsi,%rcx; dec %rdx; jnz
 *	... fold results, fini, ret ...
 *	KERN_SIZE name
 *
 * Instruction counts the descriptors rely on: BLOCKS_BEGIN executes 2 (mov, jmp), a block 2 beyond its
 * accesses (add, jnz), a pass 3 (mov, dec, jnz). The jump keeps the alignment padding from executing,
 * so the counts do not depend on how much padding the assembler inserts.
 */
/* Assembly, not C: clang-format would break the macros. */
/* clang-format off */

.macro KERN_FUNC name
	.globl	\name
	.type	\name, @function
	.p2align 6
\name:
.endm

.macro KERN_SIZE name
	.size	\name, . - \name
.endm

.macro BLOCKS_BEGIN
	mov	%rsi, %rcx
	jmp	2f		/* over the alignment padding: it must not execute */
	.p2align 6
2:
.endm

.macro BLOCKS_END block
	add	$\block, %rcx
	jnz	2b
	mov	%rsi, %rcx	/* next pass (harmless once more after the last) */
	dec	%rdx
	jnz	2b
.endm

/* The loop body of the STREAM kernels (triad.S says why 8 vectors, not a 512-byte block): `vec off, reg,
 * st` for the registers 0-7 of prefix p (%xmm, %ymm, %zmm) at offsets 0, width, .. 7 * width, then
 * BLOCKS_END of 8 * width bytes. */
.macro VECTORS8_END vec, st, width, p
	off = 0
	.irp r, 0, 1, 2, 3, 4, 5, 6, 7
	\vec	off, \p\r, \st
	off = off + \width
	.endr
	BLOCKS_END (8*\width)
.endm

/* What follows the loops: nothing, sfence (non-temporal stores), vzeroupper (AVX), or both. */
.macro FINI_NONE
.endm
.macro FINI_NT
	sfence
.endm
.macro FINI_VZU
	vzeroupper
.endm
.macro FINI_NT_VZU
	sfence
	vzeroupper
.endm
