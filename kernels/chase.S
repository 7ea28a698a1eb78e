/* chase.S — pointer chase over a random cyclic permutation of the buffer's lines (latency).
 *
 * What it measures: prepare() (chase_desc.c) links every line of the buffer into one random cycle (random
 * page, random line in the page at every step); each line's first 8 bytes hold the absolute address
 * of the next line. The kernel starts at buf and follows the chain for bytes/64 steps per pass, so
 * with bytes the whole buffer every pass visits every line exactly once and ends back at buf. Each
 * load needs the previous one's value: time per access = load-to-use latency of the level holding
 * the buffer. buf may be any line of the chain, and bytes a part of the buffer (KF_RESUMABLE, kern.h):
 * a pass of a buffer in DRAM outlasts --min-time, so the harness then chases a part of the cycle per
 * call, each call going on from the line where the last one stopped (the address it returned). Every
 * line is then met again only after all the others, as in whole passes.
 *
 * Variants (Molka et al., Fig. 7/8):
 *   plain  only the chase: 16 accesses per unrolled block.
 *   indep  + K `imul $3, %rsi, r` per access into r8-r11: write-only destinations and a source that
 *          never changes, so they depend on nothing and overlap the load latency (cycles where the
 *          core has other work while memory stalls). r12-r15 are not used: saving them would add
 *          stack loads and stores to the known volumes, and write-only destinations carry no
 *          dependency whatever their number.
 *   dep    + K `imul $1, %rax, %rax` per access: the pointer goes through K 3-cycle multiplies
 *          before the next load, lengthening the chain by K multiply latencies.
 *   K = arg (0 .. 128) is chosen at run time by a computed jump into a sled of 128 imuls, each
 *   exactly 4 bytes (checked below), so exactly K of them execute; the indirect jump always has the
 *   same target and is predicted perfectly. These two variants take one access per iteration.
 *
 *   uint64_t kern_chase_<v>(void *buf, uint64_t bytes, uint64_t reps, uint64_t k)
 *   returns the final pointer: the line the next call goes on from (buf after whole passes)
 *
 * Registers: rax the pointer; rdx passes left; rsi steps (plain: blocks of 16) per pass; rcx steps
 *   left; rdi jump target (indep, dep); r8-r11 imul destinations (indep).
 *
 * Descriptor (chase_desc.c): plain: per block 16 loads + dec + jnz; indep/dep: per access 4 + K
 * instructions (load, jmp, K imul, dec, jnz); per pass 3 (reset, dec, jnz); fixed counts there.
 * Lines read = chase accesses = bytes/64 per pass.
 */
#define KMAX 128	/* = arg_max in chase_desc.c */
#define PLAIN_STEPS 16	/* accesses per unrolled block: granule 16 * 64 = 1024 bytes */

	.text

	.globl	kern_chase_plain
	.type	kern_chase_plain, @function
	.p2align 6
kern_chase_plain:
	mov	%rdi, %rax
	shr	$10, %rsi		/* blocks of 16 lines per pass */
	mov	%rsi, %rcx
	jmp	2f			/* over the alignment padding: it must not execute */
	.p2align 6
2:	.rept PLAIN_STEPS
	mov	(%rax), %rax
	.endr
	dec	%rcx
	jnz	2b
	mov	%rsi, %rcx		/* next pass (harmless once more after the last) */
	dec	%rdx
	jnz	2b
	ret
	.size	kern_chase_plain, . - kern_chase_plain

/* One access per iteration, then K imuls from `sled`; `sled` is a macro emitting KMAX of them. */
.macro CHASE_K name, sled
	.globl	\name
	.type	\name, @function
	.p2align 6
\name:
	mov	%rdi, %rax
	shr	$6, %rsi		/* accesses per pass */
	shl	$2, %rcx		/* 4 bytes per imul */
	lea	.L\name\()_end(%rip), %rdi
	sub	%rcx, %rdi		/* target: K imuls before the end of the sled */
	mov	%rsi, %rcx
	jmp	2f			/* over the alignment padding: it must not execute */
	.p2align 6
2:	mov	(%rax), %rax
	jmp	*%rdi
.L\name\()_sled:
	\sled
.L\name\()_end:
	dec	%rcx
	jnz	2b
	mov	%rsi, %rcx		/* next pass (harmless once more after the last) */
	dec	%rdx
	jnz	2b
	ret
	.size	\name, . - \name
	.if .L\name\()_end - .L\name\()_sled - 4 * KMAX
	.error "chase: an imul in the sled is not 4 bytes"
	.endif
.endm

.macro SLED_INDEP
	.rept KMAX / 4
	.irp r, %r8, %r9, %r10, %r11
	imul	$3, %rsi, \r
	.endr
	.endr
.endm
.macro SLED_DEP
	.rept KMAX
	imul	$1, %rax, %rax
	.endr
.endm

CHASE_K kern_chase_indep, SLED_INDEP
CHASE_K kern_chase_dep, SLED_DEP

	.section .note.GNU-stack, "", @progbits
