/* copy.S — the STREAM copy a[i] = b[i] on doubles, normal and non-temporal stores.
 *
 * What it measures: `reps` passes over two arrays of `bytes` bytes each: a at buf, b at buf + bytes.
 * Per vector one load (b) and one store (a). Normal stores make the cache read every line of a
 * before writing it (write-allocate), so the memory traffic per line of a is 2 lines read and 1
 * written back; the non-temporal variants (.nt: movntpd / vmovntpd, one sfence at the end) read 1
 * and write 1. One call is one thread's chunk.
 *
 *   uint64_t kern_copy_<v>(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg /+ unused +/)
 *   returns 0 (the array a is the observable result)
 *
 * Registers: rdi end of a, r8 end of b, rsi -bytes, rcx running index (-bytes .. 0), rdx passes
 *   left; registers 0-7 hold the vectors in flight (round robin, so that consecutive vectors never
 *   share a register).
 * Loop body: 8 vectors, one per register 0-7, as in triad.S (which says why not a whole 512-byte
 *   block), so 8 * width bytes of each array; the granule stays 512 bytes. Per vector a load and a
 *   store.
 *
 * Descriptor (copy_desc.c): per iteration 8 x 2 + 2 (add, jnz) instructions; per pass 3 (index
 * reset, dec, jnz); outside the loops 7 (add, lea, neg, mov, jmp, xor, ret) + sfence (NT) +
 * vzeroupper (AVX, AVX-512). Loads 1 per vector + ret's; stores 1 per vector.
 */
#include "kern_asm.h"

	.text

.macro V_SSE off, r, st
	movapd	\off(%r8,%rcx), \r
	\st	\r, \off(%rdi,%rcx)
.endm
.macro V_AVX off, r, st
	vmovapd	\off(%r8,%rcx), \r
	\st	\r, \off(%rdi,%rcx)
.endm

/* name, vector macro, store instruction, width, fini, register prefix */
.macro COPY_FUNC name, vec, st, width, fini, p
KERN_FUNC \name
	add	%rsi, %rdi		/* end of a */
	lea	(%rdi,%rsi), %r8	/* end of b */
	neg	%rsi
	BLOCKS_BEGIN
	VECTORS8_END \vec, \st, \width, \p
	\fini
	xor	%eax, %eax
	ret
KERN_SIZE \name
.endm

COPY_FUNC kern_copy_sse, V_SSE, movapd, 16, FINI_NONE, %xmm
COPY_FUNC kern_copy_avx, V_AVX, vmovapd, 32, FINI_VZU, %ymm
COPY_FUNC kern_copy_avx512, V_AVX, vmovapd, 64, FINI_VZU, %zmm
COPY_FUNC kern_copy_sse_nt, V_SSE, movntpd, 16, FINI_NT, %xmm
COPY_FUNC kern_copy_avx_nt, V_AVX, vmovntpd, 32, FINI_NT_VZU, %ymm
COPY_FUNC kern_copy_avx512_nt, V_AVX, vmovntpd, 64, FINI_NT_VZU, %zmm

	.section .note.GNU-stack, "", @progbits
