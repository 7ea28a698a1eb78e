/* fuzz_raw — libFuzzer target for the results readers (built with ASan and UBSan by mk/fuzz.mk):
 * every input is given both to raw_read, as a raw.csv, and to machine_read, as a machine.json; an
 * input that raw_read accepts then goes through the whole analysis (analyze_dir) with a fixed
 * machine.json, since values the reader accepts (zero seconds, huge counts) reach the fits.
 *
 * Each must give 0, or E_USAGE with a message that starts with the file's path (raw_read adds
 * ":<line>:"); never a crash, leak, undefined behaviour or another status. raw_read's rows must be
 * well-formed: every text column set, counts only where the status is ok, neither a count nor times
 * where it is not_measured (a row without a reading), the row count right.
 * The readers get the input as a memfd opened by path; only the analysis writes files (its own).
 * Seeds: tests/fuzz/seeds-raw/ (a real raw.csv cut to a few rows, machine.json); tokens:
 * tests/fuzz/raw.dict. */
#define _GNU_SOURCE /* memfd_create */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analyze.h"
#include "machine_read.h"
#include "raw_read.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fd = -1;
static char path[64];
static char dir[64], dir_raw[96];

/* The development machine's levels and clock (a real machine.json has more; the analysis needs these). */
static const char machine_json[] =
	"{\"format\": 1, \"clock\": {\"core_ghz\": 4.3, \"tsc_hz\": 2.6e9},\n"
	" \"levels\": {\"reported\": {\"L1\": 49152, \"L2\": 1048576, \"L3\": 33554432}},\n"
	" \"counters\": {\"availability\": {\"hardware\": false, \"reason\": \"no PMU\"}}}\n";

static void remove_dir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "fuzz_raw: could not remove %s\n", dir);
}

static void make_dir(void)
{
	char p[128];
	FILE *f;

	snprintf(dir, sizeof dir, "/tmp/pmucheck-fuzz-results.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	snprintf(p, sizeof p, "%s/machine.json", dir);
	f = fopen(p, "w");
	if (!f || fputs(machine_json, f) < 0 || fclose(f))
		abort();
	snprintf(dir_raw, sizeof dir_raw, "%s/raw.csv", dir);
	atexit(remove_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fd = memfd_create("fuzz-input", 0);
	if (fd < 0)
		abort();
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	make_dir();
	return 0;
}

/* Whether a volume's column may be missing (kern.h: OPTIONAL), its value then NAN. */
#define PRESENCE_REQUIRED 0
#define PRESENCE_OPTIONAL 1
static const bool volume_optional[RQ_COUNT] = {
#define OPTIONAL_Q(n, presence) PRESENCE_##presence,
	KERN_VOLUME_FIELDS(OPTIONAL_Q)
#undef OPTIONAL_Q
};

/* A row as the analysis relies on it. */
static int row_check(const struct raw_row *row, void *ctx, struct err *e)
{
	const char *const text[] = {row->kernel,  row->variant,   row->arg_name,  row->diff,
				    row->cpus,    row->placement, row->mem_nodes, row->prefetch,
				    row->msr,     row->level,     row->flag,      row->event,
				    row->backend, row->encoding,  row->scope,     row->reason};
	unsigned long *seen = ctx;

	(void)e;
	for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
		if (!text[i])
			abort();
	if (row->has_count && (row->status != RS_OK || !*row->event))
		abort();
	if (row->status == RS_NOT_MEASURED && (row->time_enabled || row->time_running))
		abort();
	if ((unsigned)row->status >= RS_COUNT || row->threads < 1 || row->reps < 1 || row->point < 0)
		abort();
	if ((unsigned)row->access >= KA_COUNT || row->plots >= 1u << KP_COUNT ||
	    row->traits >= 1u << KV_COUNT)
		abort();
	for (int q = 0; q < RQ_COUNT; q++)
		if (!(row->v[q] >= 0) && !(volume_optional[q] && isnan(row->v[q])))
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

/* Rows the reader accepted: the analysis must take them, or refuse them naming the file. */
static void analyze(const uint8_t *data, size_t size)
{
	struct analyze_summary sum;
	struct err e = {""};
	FILE *f = fopen(dir_raw, "w");
	int rc;

	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	rc = analyze_dir(dir, &sum, &e);
	if (rc && (rc != E_USAGE || !*e.msg))
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
	if (rc == 0 && rows)
		analyze(data, size);
	rc = machine_read(path, &m, &e);
	check(rc, &e, false);
	/* an accepted machine.json has an L1, or no cache level at all (hwloc reported none: every point
	   DRAM's); never a level above a missing L1 */
	for (int l = 1; rc == 0 && !(m.limit[0] > 0) && l < MACHINE_NCACHE; l++)
		if (m.limit[l] > 0)
			abort();
	machine_free(&m);
	return 0;
}
