/* touch.S — first write to fresh pages: one 8-byte store at the start of every 4 KiB page.
 *
 * What it measures: on never-touched memory every store faults once (the kernel maps and zeroes
 * the page), so the call costs one page fault per page: what the page-faults software event and the
 * TLB/page-walk events must count. The harness gives each call fresh memory (KF_FRESH_BUFFER) and
 * cancels the fixed overhead by comparing N and 2N bytes (KF_DIFF_BY_SIZE), because repeating the
 * call over the same memory would fault no more.
 *
 * reps: every pass stores to every page again, but only the first pass can fault; later passes are
 * plain stores to mapped pages. So pages = bytes/4096 whatever reps is, while stores and lines
 * scale with reps. The harness runs touch with reps = 1.
 *
 *   uint64_t kern_touch(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg /+ unused +/)
 *   returns 0 (the touched pages are the observable result)
 *
 * Registers: rdi end of the buffer, rsi -bytes (also the stored value: non-zero), rcx running
 *   index (-bytes .. 0), rdx passes left.
 * Block (loop body): 8 pages = 32 KiB: 8 stores, then add + jnz.
 *
 * Descriptor (touch_desc.c): per block 10 instructions, per pass 3 (index reset, dec, jnz), 6 outside
 * the loops (add, neg, mov, jmp, xor, ret). Stores = lines written = bytes/4096 per pass; each
 * store's line is read first (write-allocate) like any normal store.
 */
#define PAGE 4096
#define BLOCK (8 * PAGE)

#include "kern_asm.h"

	.text
KERN_FUNC kern_touch
	add	%rsi, %rdi
	neg	%rsi
	BLOCKS_BEGIN
	off = 0
	.rept BLOCK / PAGE
	mov	%rsi, off(%rdi,%rcx)
	off = off + PAGE
	.endr
	BLOCKS_END BLOCK
	xor	%eax, %eax
	ret
KERN_SIZE kern_touch

	.section .note.GNU-stack, "", @progbits
