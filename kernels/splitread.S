/* splitread.S — one 8-byte load per 64-byte stride at a run-time offset o (Larysch, Fig. 4).
 *
 * What it measures: `reps` passes over `bytes` bytes, one aligned-or-not 8-byte load per line,
 * at byte o = arg (0 .. 63) of every line. For o <= 56 each load lies inside its line; for o > 56
 * it crosses into the next line (a split load, the last one reaching up to 7 bytes past `bytes`,
 * into the harness's slack). The line traffic is the same for every o <= 56; split loads touch two
 * lines each, which is what line-split and L1-miss events must show.
 *
 *   uint64_t kern_splitread(void *buf, uint64_t bytes, uint64_t reps, uint64_t offset)
 *   returns the xor of every 8-byte word read
 *
 * Registers: rdi end of the array + o, rsi -bytes, rcx running index (-bytes .. 0), rdx passes left;
 *   accumulators rax r8 r9 r10 (4 one-cycle xor chains, more than the loads per cycle).
 * Block (loop body): 512 bytes = 8 lines: 8 loads, then add + jnz.
 *
 * Descriptor (splitread_desc.c): per block 10 instructions, per pass 3 (index reset, dec, jnz), 13
 * outside the loops (4 zeroing, 5 setup, 3 folds, ret). Loads = bytes/64 per pass; split loads =
 * loads when o > 56; lines read = bytes/64 per pass, + 1 per pass when split (the line past the end).
 */
#define BLOCK 512

#include "kern_asm.h"

	.text
KERN_FUNC kern_splitread
	xor	%eax, %eax
	xor	%r8d, %r8d
	xor	%r9d, %r9d
	xor	%r10d, %r10d
	add	%rsi, %rdi
	add	%rcx, %rdi		/* every load is at offset o of its line */
	neg	%rsi
	BLOCKS_BEGIN
	off = 0
	.rept BLOCK / 256
	.irp r, %rax, %r8, %r9, %r10
	xor	off(%rdi,%rcx), \r
	off = off + 64
	.endr
	.endr
	BLOCKS_END BLOCK
	xor	%r8, %rax
	xor	%r10, %r9
	xor	%r9, %rax
	ret
KERN_SIZE kern_splitread

	.section .note.GNU-stack, "", @progbits
