/* triad.S — the STREAM triad a[i] = b[i] + s * c[i] on doubles, s = 3.0 (from .rodata).
 *
 * What it measures: `reps` passes over three arrays of `bytes` bytes each: a at buf, b at
 * buf + bytes, c at buf + 2 * bytes. Per element 2 loads (b, c) and 1 store (a). Normal stores
 * make the cache read every line of a before writing it (write-allocate), so the memory traffic per
 * pass is 3 lines read and 1 written back per line of a; the non-temporal variants (.nt: movntpd /
 * vmovntpd, one sfence at the end) read 2 and write 1, the difference that Helm & Taura's Fig. 7
 * shows. One call is one thread's chunk; the harness runs one call per OpenMP thread.
 *
 * s is the constant .Ltriad_s in .rodata (8 doubles 3.0, one line), loaded once per call at the
 * variant's width into register 15. 3.0 keeps the arithmetic exact for small integers, so a test
 * can check a[] bit for bit.
 *
 *   uint64_t kern_triad_<v>(void *buf, uint64_t bytes, uint64_t reps, uint64_t arg /+ unused +/)
 *   returns 0 (the array a is the observable result)
 *
 * Registers: rdi end of a, r8 end of b, r9 end of c, rsi -bytes, rcx running index (-bytes .. 0),
 *   rdx passes left; register 15 = s; registers 0-7 hold the vectors in flight (round robin, so
 *   that consecutive vectors never share a register).
 * Loop body: 8 vectors, one per register 0-7, so 8 * width bytes of each array (SSE 128, AVX 256,
 *   AVX-512 512); the granule stays 512 bytes. Per vector: SSE movapd + mulpd + addpd + store (4
 *   instructions), AVX / AVX-512 vmulpd + vaddpd + store (3). Why not a whole 512-byte block per
 *   iteration, as the other families do: unrolled to 16 vectors, triad.avx's 470-byte loop read and
 *   wrote L2 at 182-245 GB/s on Zen 5 depending on where the loop started modulo 512 bytes of code
 *   (lowest at 64 and 448, highest at 256); the 8-vector loop ran at 238-241 GB/s at every start.
 * Why each vector's store right after its arithmetic, where likwid-bench's stream kernels store a group of
 * vectors after computing them all: on the Zen 5 guest (1 thread, 4 interleaved runs each) all 8 stores
 * after the 8 computes read L2 (512 kB) 4-5 % faster in triad.avx and triad.avx512, but L1 (32 kB)
 * 13-16 % slower in triad.sse and triad.avx, 10 % in triad.avx512 and 25 % in copy.sse; groups of 4, as
 * likwid does, lost 2-25 % in L1 and gained nothing clear in L2. So triad.avx reads L2 2-7 % below
 * likwid's stream_avx there (bench-compare: 0.934-0.984 over two sessions), and L1 21 % above it. On an
 * Emerald Rapids guest (2026-11-29) the same L2 cells read 1.02 and 1.00, L1 1.13 and 1.21.
 *
 * Descriptor (triad_desc.c): per iteration 8 vectors x (4 or 3) + 2 (add, jnz) instructions; per pass
 * 3 (index reset, dec, jnz); outside the loops 9 (s load, 6 setup, xor, ret) + sfence (NT) +
 * vzeroupper (AVX, AVX-512). Loads 2 per vector + s + ret's; stores 1 per vector.
 */
#include "kern_asm.h"

	.section .rodata
	.p2align 6
.Ltriad_s:
	.rept 8
	.double 3.0
	.endr

	.text

.macro V_SSE off, r, st
	movapd	\off(%r9,%rcx), \r
	mulpd	%xmm15, \r
	addpd	\off(%r8,%rcx), \r
	\st	\r, \off(%rdi,%rcx)
.endm
.macro V_AVX off, r, st
	vmulpd	\off(%r9,%rcx), %ymm15, \r
	vaddpd	\off(%r8,%rcx), \r, \r
	\st	\r, \off(%rdi,%rcx)
.endm
.macro V_AVX512 off, r, st
	vmulpd	\off(%r9,%rcx), %zmm15, \r
	vaddpd	\off(%r8,%rcx), \r, \r
	\st	\r, \off(%rdi,%rcx)
.endm

/* name, s load, vector macro, store instruction, width, fini, register prefix */
.macro TRIAD_FUNC name, lds, vec, st, width, fini, p
KERN_FUNC \name
	\lds	.Ltriad_s(%rip), \p\()15
	add	%rsi, %rdi		/* end of a */
	lea	(%rdi,%rsi), %r8	/* end of b */
	lea	(%r8,%rsi), %r9		/* end of c */
	neg	%rsi
	BLOCKS_BEGIN
	VECTORS8_END \vec, \st, \width, \p
	\fini
	xor	%eax, %eax
	ret
KERN_SIZE \name
.endm

TRIAD_FUNC kern_triad_sse, movapd, V_SSE, movapd, 16, FINI_NONE, %xmm
TRIAD_FUNC kern_triad_avx, vmovapd, V_AVX, vmovapd, 32, FINI_VZU, %ymm
TRIAD_FUNC kern_triad_avx512, vmovapd, V_AVX512, vmovapd, 64, FINI_VZU, %zmm
TRIAD_FUNC kern_triad_sse_nt, movapd, V_SSE, movntpd, 16, FINI_NT, %xmm
TRIAD_FUNC kern_triad_avx_nt, vmovapd, V_AVX, vmovntpd, 32, FINI_NT_VZU, %ymm
TRIAD_FUNC kern_triad_avx512_nt, vmovapd, V_AVX512, vmovntpd, 64, FINI_NT_VZU, %zmm

	.section .note.GNU-stack, "", @progbits
