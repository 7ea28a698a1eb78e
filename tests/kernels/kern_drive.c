/* kern_drive.c — calls one kernel exactly once, for the exactness checks under valgrind
 * (tests/kernels/valgrind_exact.sh).
 *
 * usage: kern_drive [-n] VARIANT BYTES REPS ARG [BUFFER]   (-n: print the volumes, do not run the kernel)
 *        kern_drive --list      one line per variant: name, ISA bits (enum kern_isa), granule, arg_max
 *        kern_drive --cases     one line per exactness case of every variant: name, ISA bits, bytes,
 *                               reps, arg, and for a call over a part of its buffer the buffer's
 *                               bytes (see print_cases)
 *
 * Prints the descriptor's volumes ("name=value" per line) and the kernel's entry address ("fn=0x..."),
 * then prepares the buffer as the harness would (zero-filled arrays + 4096 bytes of slack, the
 * family's prepare() with seed 1) and calls the kernel once. BUFFER (a KF_RESUMABLE family only, at
 * least BYTES; default BYTES): the buffer prepare() builds, of which the call covers BYTES, as the
 * harness calls a chase whose pass outlasts --min-time. Exit 2 on bad arguments. Linked without PIE
 * so that the printed address is the one `nm` lists.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kern.h"

static int usage(const char *msg)
{
	fprintf(stderr, "kern_drive: %s\nusage: kern_drive [-n] VARIANT BYTES REPS ARG | --list | --cases\n",
		msg);
	return 2;
}

/* Adds x to the n values of set unless it is there. */
static void add_arg(uint64_t *set, unsigned *n, uint64_t x)
{
	for (unsigned i = 0; i < *n; i++)
		if (set[i] == x)
			return;
	set[(*n)++] = x;
}

/* The cases of every variant, derived from its descriptor alone: the shapes (granules x passes)
   3 x 2, 1 x 1 and 8 x 3 in turn (several block counts, one and several passes), each with the next
   of the variant's arguments: the largest, its --quick values, 1 and 0 (the full sweep, and a
   split, and no delay or multiply at all); 0 only when the variant takes no argument. A resumable
   family's variants add one call over a part of their buffer. */
static void print_cases(void)
{
	static const unsigned shape[3][2] = {{3, 2}, {1, 1}, {8, 3}};

	for (unsigned i = 0; i < kern_family_count(); i++) {
		const struct kern_family *f = kern_family_at(i);
		for (unsigned j = 0; j < f->nvariants; j++) {
			const struct kern_variant *v = &f->variants[j];
			const struct kern_values *quick = &kern_policy(f, v)->quick_args;
			uint64_t args[quick->n + 3];
			unsigned n = 0;

			if (quick->n) {
				add_arg(args, &n, f->arg_max);
				for (unsigned k = 0; k < quick->n; k++)
					add_arg(args, &n, quick->v[k]);
				add_arg(args, &n, 1);
			}
			add_arg(args, &n, 0);
			for (unsigned c = 0; c < (n > 3 ? n : 3); c++)
				printf("%s %u %" PRIu64 " %u %" PRIu64 "\n", v->name, v->isa,
				       (uint64_t)shape[c % 3][0] * f->granule, shape[c % 3][1], args[c % n]);
			/* a call over 3 granules of a buffer of 8, one pass: its loads are all distinct lines */
			if (f->flags & KF_RESUMABLE)
				printf("%s %u %" PRIu64 " 1 %" PRIu64 " %" PRIu64 "\n", v->name, v->isa,
				       (uint64_t)3 * f->granule, args[0], (uint64_t)8 * f->granule);
		}
	}
}

int main(int argc, char **argv)
{
	const struct kern_family *f;
	const struct kern_variant *v;
	struct kern_params p;
	struct kern_volumes vol;
	uint64_t total, buffer;
	void *buf;
	int dry = argc > 1 && strcmp(argv[1], "-n") == 0;

	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (unsigned i = 0; i < kern_family_count(); i++) {
			f = kern_family_at(i);
			for (unsigned j = 0; j < f->nvariants; j++)
				printf("%s %u %u %" PRIu64 "\n", f->variants[j].name, f->variants[j].isa,
				       f->granule, f->arg_max);
		}
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "--cases") == 0) {
		print_cases();
		return 0;
	}
	argc -= dry;
	argv += dry;
	if (argc != 5 && argc != 6)
		return usage("wrong number of arguments");
	v = kern_variant_find(argv[1], &f);
	if (!v)
		return usage("unknown variant");
	p.bytes = strtoull(argv[2], NULL, 0);
	p.reps = strtoull(argv[3], NULL, 0);
	p.arg = strtoull(argv[4], NULL, 0);
	if (!p.bytes || p.bytes % f->granule || !p.reps || p.arg > f->arg_max)
		return usage("bytes must be a non-zero multiple of the granule, reps >= 1, arg <= arg_max");
	buffer = argc == 6 ? strtoull(argv[5], NULL, 0) : p.bytes;
	if (buffer < p.bytes || buffer % f->granule || (buffer > p.bytes && !(f->flags & KF_RESUMABLE)))
		return usage(
			"the buffer must be a multiple of the granule, at least bytes, and more only for "
			"a family whose calls may cover a part of it");

	f->volumes(v, &p, &vol);
#define PRINT_FIELD(name, presence) printf(#name "=%" PRIu64 "\n", vol.name);
	KERN_VOLUME_FIELDS(PRINT_FIELD)
	printf("width=%u\nfn=%p\n", v->width, (void *)v->fn);
	fflush(stdout);
	if (dry)
		return 0;

	total = f->arrays * buffer + KERN_PAGE;
	if (posix_memalign(&buf, KERN_PAGE, total) != 0)
		return 1;
	memset(buf, 0, total);
	/* where the arrays lie: valgrind_exact.sh counts the distinct lines the kernel's loads touch there */
	printf("buf=%" PRIu64 "\nspan=%" PRIu64 "\n", (uint64_t)(uintptr_t)buf, total);
	fflush(stdout);
	if (f->prepare) {
		struct kern_params whole = {buffer, p.reps, p.arg};
		f->prepare(v, &whole, buf, 1);
	}
	v->fn(buf, p.bytes, p.reps, p.arg);
	free(buf);
	return 0;
}
