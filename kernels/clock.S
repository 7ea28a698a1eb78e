/* clock.S — a chain of dependent 1-cycle adds: the core clock, measured without a cycle counter.
 *
 *   uint64_t kern_clock_chain(uint64_t iters)   (clock.h)
 *
 * Every `add %rcx, %rax` reads the rax written by the previous one: the chain runs at one add per
 * core cycle, whatever the width of the core. Register-register form on purpose: some cores fold
 * `add $imm, reg` chains at rename, none does that for reg-reg adds. The loop counter (rdi, dec +
 * jnz) runs beside the chain, so an iteration takes exactly KERN_CLOCK_ADDS = 64 core cycles.
 *
 * Registers: rax the chain (returned: iters x 64), rcx = 1, rdi iterations left.
 */
#define ADDS 64	/* = KERN_CLOCK_ADDS in clock.h */

	.text
	.globl	kern_clock_chain
	.type	kern_clock_chain, @function
	.p2align 6
kern_clock_chain:
	xor	%eax, %eax
	mov	$1, %ecx
	test	%rdi, %rdi
	jz	3f
	jmp	2f			/* over the alignment padding: it must not execute */
	.p2align 6
2:	.rept ADDS
	add	%rcx, %rax
	.endr
	dec	%rdi
	jnz	2b
3:	ret
	.size	kern_clock_chain, . - kern_clock_chain

	.section .note.GNU-stack, "", @progbits
