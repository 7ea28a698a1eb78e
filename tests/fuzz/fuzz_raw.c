/* fuzz_raw — libFuzzer target for the results readers (built with ASan and UBSan by mk/fuzz.mk):
 * every input is given both to raw_read, as a raw.csv, and to machine_read, as a machine.json.
 *
 * Each must give 0, or E_USAGE with a message that starts with the file's path (raw_read adds
 * ":<line>:"); never a crash, leak, undefined behaviour or another status. raw_read's rows must be
 * well-formed: every text column set, counts only where the status is ok, the row count right.
 * The input is handed over as a memfd opened by path, so no file is written per input.
 * Seeds: tests/fuzz/seeds-raw/ (a real raw.csv cut to a few rows, machine.json); tokens:
 * tests/fuzz/raw.dict. */
#define _GNU_SOURCE /* memfd_create */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "machine_read.h"
#include "raw_read.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fd = -1;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fd = memfd_create("fuzz-input", 0);
	if (fd < 0)
		abort();
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	return 0;
}

/* A row as the analysis relies on it. */
static int row_check(const struct raw_row *row, void *ctx, struct err *e)
{
	const char *const text[] = {row->kernel, row->variant, row->arg_name, row->diff, row->cpus,
		row->placement, row->mem_nodes, row->prefetch, row->msr, row->level, row->flag,
		row->event, row->backend, row->encoding, row->scope, row->reason};
	unsigned long *seen = ctx;

	(void)e;
	for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
		if (!text[i])
			abort();
	if (row->has_count && (row->status != RS_OK || !*row->event))
		abort();
	if ((unsigned)row->status >= RS_COUNT || row->threads < 1 || row->reps < 1 || row->point < 0)
		abort();
	for (int q = 0; q < RQ_COUNT; q++)
		if (!(row->v[q] >= 0))
			abort();
	(*seen)++;
	return 0;
}

/* A usage error names the file, and for raw.csv the line: "<path>:<digit>". */
static void check(int rc, const struct err *e, bool line)
{
	size_t n = strlen(path);

	if (rc == 0)
		return;
	if (rc != E_USAGE || !memchr(e->msg, '\0', sizeof e->msg) || strncmp(e->msg, path, n) ||
	    e->msg[n] != ':' || (line && !isdigit((unsigned char)e->msg[n + 1])))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long rows, seen = 0;
	struct machine m;
	struct err e;
	int rc;

	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	rc = raw_read(path, row_check, &seen, &rows, &e);
	check(rc, &e, true);
	if (rows != seen)
		abort();
	rc = machine_read(path, &m, &e);
	check(rc, &e, false);
	if (rc == 0 && !(m.limit[0] > 0))
		abort();
	return 0;
}
