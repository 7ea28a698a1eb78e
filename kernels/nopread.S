/* nopread.S — read bandwidth throttled by a run-time delay (Helm & Taura, Fig. 3/4).
 *
 * What it measures: the buffer is split into 4 quarters read as 4 independent streams. One
 * iteration reads 8 bytes from the next line of every stream (4 loads, 4 lines) and then executes
 * exactly D single-byte NOPs, D = arg (0 .. 4096). Sweeping D turns the full-speed stream into a
 * regulated one: the bandwidth falls and the loaded latency of each level can be read off.
 *
 * Why a computed jump into a NOP sled: the delay must be a run-time parameter (one binary, any D)
 * and its instruction count must be exact (the descriptor counts NOPs and instructions). A delay
 * loop would add a loop counter and branch per step, and an unrolled body per D would need one
 * function per D. Instead the body holds 4096 one-byte NOPs; the iteration jumps to the D-th NOP
 * before the end, so exactly D of them execute. The indirect jump always has the same target and is
 * predicted perfectly. The iteration cannot be unrolled (one sled per iteration): with its 2 taken
 * branches (jmp, jnz) it takes 3.2 cycles per 4 lines at D = 0 on Zen 5, L1-resident — faster than
 * any level beyond L1 delivers lines. The NOPs then retire at ~8 per cycle there (D = 256: 33 cycles).
 *
 *   uint64_t kern_nopread(void *buf, uint64_t bytes, uint64_t reps, uint64_t delay)
 *   returns the xor of every 8-byte word read
 *
 * Registers: rdi, r8, r9, rsi end of quarters 0-3; r10 index (-bytes/4 .. 0); rdx passes left;
 *   rcx jump target = .Lsled_end - D; rax, r11 accumulators.
 * Iteration: 4 lines (one per stream) = 32 bytes loaded, 7 + D instructions (4 xor, jmp, D nop,
 * add, jnz). Granule: 256 bytes (one line of each quarter).
 *
 * Descriptor (nopread_desc.c): loads = 4 per iteration, iterations = bytes/256 per pass; per pass 5
 * instructions (index reset 2, jmp, dec, jz); 13 outside the loops (11 setup, fold, ret). Lines
 * read = bytes/64 per pass (one load per line), NOPs = D per iteration.
 */
#define SLED 4096	/* = arg_max in nopread_desc.c */

	.text
	.globl	kern_nopread
	.type	kern_nopread, @function
	.p2align 6
kern_nopread:
	shr	$2, %rsi		/* quarter q */
	add	%rsi, %rdi		/* end of quarter 0 */
	lea	(%rdi,%rsi), %r8	/* end of quarter 1 */
	lea	(%r8,%rsi), %r9		/* end of quarter 2 */
	add	%r9, %rsi		/* end of quarter 3 */
	neg	%rcx
	lea	.Lsled_end(%rip), %rax
	add	%rax, %rcx		/* target: D NOPs before the end of the sled */
	xor	%eax, %eax
	xor	%r11d, %r11d
	jmp	.Lpass			/* over the alignment padding: it must not execute */
	.p2align 6
.Lline:
	xor	(%rdi,%r10), %rax
	xor	(%r8,%r10), %r11
	xor	(%r9,%r10), %rax
	xor	(%rsi,%r10), %r11
	jmp	*%rcx
.Lsled:
	.rept SLED
	nop
	.endr
.Lsled_end:
	add	$64, %r10
	jnz	.Lline
	dec	%rdx
	jz	.Ldone
.Lpass:
	mov	%rdi, %r10
	sub	%r8, %r10		/* -q: quarter 0's end minus quarter 1's end */
	jmp	.Lline
.Ldone:
	xor	%r11, %rax
	ret
	.size	kern_nopread, . - kern_nopread

	/* Every sled entry must be exactly one byte for the jump arithmetic. */
	.if .Lsled_end - .Lsled - SLED
	.error "nopread: sled is not SLED one-byte NOPs"
	.endif

	.section .note.GNU-stack, "", @progbits
