/* test_levels_history.c — the level probe's history: a run takes each level's smallest size over this
 * machine's probes in the window, one in eight passed over, or the last run's size where larger while no
 * more than one in four is shorter, keeps the newest LEVELS_HISTORY_KEEP, leaves
 * other machines' probes alone, says where it took another size than its own probe found, does not add a
 * probe of a busy machine, leaves a history it cannot read as it was, and counts one it can read but not
 * write. */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "history_file.h"
#include "levels_history.h"
#include "machine_read.h"

#define NOW 1800000000
#define KiB(n) ((uint64_t)(n) << 10)

static char dir[64], path[128];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/pmucheck-lh.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof path, "%s/%s", dir, LEVELS_HISTORY_FILE);
	setenv("PMUCHECK_STATE_DIR", dir, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	rmdir(dir);
	unsetenv("PMUCHECK_STATE_DIR");
	return 0;
}

/* L1 48 KiB, L2 1 MiB, L3 32 MiB reported; the probe measured L3 at l3 bytes (0: not short). */
static void machine(struct topo *t, uint64_t l3)
{
	memset(t, 0, sizeof *t);
	t->ncaches = 3;
	t->caches[0] = (struct topo_cache){.level = 1, .size = KiB(48), .npus = 1};
	t->caches[1] = (struct topo_cache){.level = 2, .size = KiB(1024), .npus = 1};
	t->caches[2] = (struct topo_cache){.level = 3, .size = KiB(32768), .npus = 2, .measured = l3};
}

/* This machine's key, as levels_history_apply makes it for CPU 0. */
static void key(char *buf, size_t len)
{
	struct topo t;

	machine(&t, 0);
	history_machine(&t, 0, HISTORY_BOOT_ID, buf, len);
}

static void write_at(const char *file, const char *text)
{
	FILE *f = fopen(file, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void write_file(const char *text)
{
	write_at(path, text);
}

/* The text of file (at most 64 KiB). */
static char *read_at(const char *file)
{
	static char buf[65536];
	FILE *f = fopen(file, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static char *read_file(void)
{
	return read_at(path);
}

/* The L3 size the run of the file's probe k took, 0 where it has none. */
static uint64_t file_taken(int k)
{
	json_t *root = json_load_file(path, 0, NULL),
	       *o = json_array_get(json_object_get(root, "probes"), (size_t)k);
	uint64_t l3 = (uint64_t)json_integer_value(json_array_get(json_object_get(o, "taken"), 2));

	json_decref(root);
	return l3;
}

/* The file's probes: how many, and probe k's L3 size and time. */
static int file_probes(int k, uint64_t *l3, int64_t *time)
{
	json_t *root = json_load_file(path, 0, NULL), *probes = json_object_get(root, "probes"),
	       *o = json_array_get(probes, (size_t)k);
	int n = (int)json_array_size(probes);

	assert_non_null(root);
	if (o) {
		*l3 = (uint64_t)json_integer_value(json_array_get(json_object_get(o, "sizes"), 2));
		*time = json_integer_value(json_object_get(o, "time"));
	}
	json_decref(root);
	return n;
}

static struct rlimit file_size;

/* Until writes_again, every write to a file fails (EFBIG): a history this user may read but not write, made
   so for a test run as root too, which file permissions would not. */
static void no_writes(void)
{
	struct rlimit none;

	assert_int_equal(getrlimit(RLIMIT_FSIZE, &file_size), 0);
	none = (struct rlimit){.rlim_cur = 0, .rlim_max = file_size.rlim_max};
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &none), 0);
}

static void writes_again(void)
{
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &file_size), 0);
}

/* How many files the state directory holds. */
static int files_in_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* One probe of this machine at `time` that measured L3 at l3 KiB, as a line of the file's list. */
static void probe_json(char *buf, size_t len, int64_t time, unsigned l3)
{
	char k[320];

	key(k, sizeof k);
	snprintf(buf, len, "{\"machine\": \"%s\", \"time\": %lld, \"sizes\": [49152, 1048576, %llu]}", k,
		 (long long)time, (unsigned long long)KiB(l3));
}

/* One probe: this machine measured L3 at l3 KiB at `now`; returns what the run takes for L3. */
static uint64_t apply(struct levels_history *h, struct levels_probe *p, unsigned l3, int64_t now)
{
	struct topo t;

	memset(p, 0, sizeof *p);
	machine(&t, KiB(l3));
	levels_history_apply(h, p, &t, 0, now);
	return t.caches[2].measured;
}

static void test_the_key_names_the_boot_the_cpu_and_the_reported_sizes(void **state)
{
	char boot[128], buf[320];
	struct topo t;

	(void)state;
	snprintf(boot, sizeof boot, "%s/boot_id", dir);
	write_at(boot, "e69fb9a4-36a1-42f5-8f16-33cfb82edaa5\n");
	machine(&t, KiB(5792));
	history_machine(&t, 3, boot, buf, sizeof buf);
	assert_string_equal(
		buf, "boot e69fb9a4-36a1-42f5-8f16-33cfb82edaa5, CPU 3, L1 49152, L2 1048576, L3 33554432");
	unlink(boot);
	history_machine(&t, 3, boot, buf, sizeof buf);
	assert_string_equal(buf, "boot unknown, CPU 3, L1 49152, L2 1048576, L3 33554432");
}

static void test_a_first_probe_is_kept_and_taken_as_it_is(void **state)
{
	struct levels_history h;
	struct levels_probe p;
	uint64_t l3;
	int64_t time;

	(void)state;
	assert_int_equal(apply(&h, &p, 8192, NOW), KiB(8192));
	assert_string_equal(h.why, "");
	assert_int_equal(h.n, 1);
	assert_int_equal(p.ndisagreements, 0);
	assert_int_equal(file_probes(0, &l3, &time), 1);
	assert_int_equal(l3, KiB(8192));
	assert_int_equal(time, NOW);
}

static void test_a_run_takes_the_smallest_of_the_probes_and_says_so(void **state)
{
	struct levels_history h;
	struct levels_probe p;

	(void)state;
	assert_int_equal(apply(&h, &p, 5792, NOW - 300), KiB(5792));
	assert_int_equal(apply(&h, &p, 11585, NOW - 200), KiB(5792));
	assert_int_equal(p.ndisagreements, 1);
	assert_non_null(strstr(p.disagreements[0], "the last 2 level probes on this machine ended L3 at "));
	assert_non_null(strstr(p.disagreements[0], "; history "));
	assert_non_null(strstr(p.disagreements[0],
			       "ended L3 at 5792 KiB (1) and 11585 KiB (1); the run takes the "
			       "smallest, 5792 KiB, which each of them kept (this probe alone: "
			       "11585 KiB; history "));
	/* a probe that found the reported size (no end) takes the history's too, and is listed as none */
	assert_int_equal(apply(&h, &p, 0, NOW - 100), KiB(5792));
	assert_non_null(strstr(p.disagreements[0], "ended L3 at none (1), 5792 KiB (1) and 11585 KiB (1); "));
	assert_non_null(strstr(p.disagreements[0], "(this probe alone: no end; history "));
	/* a smaller one, of four, leaves the last run's size where it was (one probe in four ended it
	   shorter); of five, the second smaller one is its own answer and says nothing */
	assert_int_equal(apply(&h, &p, 4096, NOW - 50), KiB(5792));
	assert_int_equal(h.n, 4);
	assert_int_equal(apply(&h, &p, 4096, NOW), KiB(4096));
	assert_int_equal(p.ndisagreements, 0);
	assert_int_equal(h.n, 5);
}

/* Writes a history of n earlier probes of this machine, a minute apart before NOW, the first of which ended
   L3 at `low` KiB and the others at `rest` (either 0: the reported size, no end). */
static void history_of(int n, unsigned low, unsigned rest)
{
	char text[16384], one[512];
	size_t len = (size_t)snprintf(text, sizeof text, "{\"probes\": [");

	for (int k = 0; k < n; k++) {
		unsigned l3 = k ? rest : low;
		probe_json(one, sizeof one, NOW - 60 * (n - k), l3 ? l3 : 32768);
		len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", k ? ", " : "", one);
	}
	snprintf(text + len, sizeof text - len, "]}");
	write_file(text);
}

/* One probe in eight is passed over: the one that ended a level shortest rules while fewer than eight are
   kept, and not once eight are (the development VM's day of runs that all took one busy probe's 1448 KiB). */
static void test_one_probe_in_eight_is_passed_over(void **state)
{
	struct levels_history h;
	struct levels_probe p;

	(void)state;
	history_of(6, 1448, 8192);
	assert_int_equal(apply(&h, &p, 8192, NOW), KiB(1448)); /* 7 kept: the smallest */
	assert_int_equal(h.n, 7);
	assert_non_null(
		strstr(p.disagreements[0], "the run takes the smallest, 1448 KiB, which each of them kept"));
	history_of(7, 1448, 8192);
	assert_int_equal(apply(&h, &p, 8192, NOW), KiB(8192)); /* 8 kept: the second smallest, its own */
	assert_int_equal(h.n, 8);
	assert_int_equal(p.ndisagreements, 0);
	/* 16 kept: the third smallest, two passed over */
	history_of(15, 1448, 8192);
	assert_int_equal(apply(&h, &p, 1024, NOW), KiB(8192));
	assert_int_equal(h.n, 16);
	assert_int_equal(p.ndisagreements, 1);
	assert_non_null(
		strstr(p.disagreements[0],
		       "ended L3 at 1024 KiB (1), 1448 KiB (1) and 8192 KiB (14); the run takes 8192 KiB, "
		       "which all but 2 of them kept: one probe in 8 is passed over as one a disturbed "
		       "machine may have ended short (this probe alone: 1024 KiB; history "));
}

/* A dry run previews what a run would take before its own probe: the same rank over this machine's probes,
   set as the measured size where below the reported one, the file left as it was (nothing added). No probe
   of this machine, or no file: nothing taken, t as it was. */
static void test_a_preview_takes_the_same_rank_and_writes_nothing(void **state)
{
	struct levels_history h;
	struct topo t;
	char before[16384];

	(void)state;
	history_of(6, 1448, 8192);
	snprintf(before, sizeof before, "%s", read_file());
	machine(&t, 0);
	levels_history_preview(&h, &t, 0, NOW);
	assert_int_equal(h.n, 6);
	assert_int_equal(t.caches[2].measured, KiB(1448));
	assert_int_equal(t.caches[1].measured, 0); /* L2 as reported in every probe */
	assert_string_equal(read_file(), before);
	history_of(8, 1448, 8192); /* eight: the shortest passed over */
	machine(&t, 0);
	levels_history_preview(&h, &t, 0, NOW);
	assert_int_equal(t.caches[2].measured, KiB(8192));
	/* CPU 1 is another machine's key */
	machine(&t, 0);
	levels_history_preview(&h, &t, 1, NOW);
	assert_int_equal(h.n, 0);
	assert_int_equal(t.caches[2].measured, 0);
	unlink(path);
	levels_history_preview(&h, &t, 0, NOW);
	assert_int_equal(h.n, 0);
	assert_string_equal(h.why, "");
	assert_int_equal(files_in_dir(), 0);
}

/* Where the size at that rank is the reported one, the run takes the level as reported (measured 0), however
   short this probe alone ended it. */
static void test_the_reported_size_taken_is_no_level_measured_short(void **state)
{
	struct levels_history h;
	struct levels_probe p;

	(void)state;
	history_of(8, 0, 0);
	assert_int_equal(apply(&h, &p, 512, NOW), 0);
	assert_int_equal(p.ndisagreements, 1);
	assert_non_null(
		strstr(p.disagreements[0],
		       "ended L3 at none (8) and 512 KiB (1); the run takes no end, the reported 32768 KiB, "
		       "which all but 1 of them kept"));
	assert_non_null(strstr(p.disagreements[0], "(this probe alone: 512 KiB; history "));
}

/* The last run's size stays while no more than one probe in four ended the level shorter. After eight
   probes that ended L3 at 4096 KiB, a first at 3444 leaves the second smallest at 4096; with a second at 3444
   that rank moves to 3444, but two of ten is no more than one in four, so 4096 stays, and says so; a third
   smaller one (2896) is more, and the run takes the size at the rank, 3444, which the file keeps as its
   probe's taken, for the next run to hold. */
static void test_the_last_runs_size_stays_while_one_probe_in_four_ended_it_shorter(void **state)
{
	struct levels_history h;
	struct levels_probe p;
	json_t *o;

	(void)state;
	for (int k = 0; k < 8; k++)
		assert_int_equal(apply(&h, &p, 4096, NOW - 600 + k), KiB(4096));
	assert_int_equal(apply(&h, &p, 3444, NOW - 300), KiB(4096));
	assert_false(h.held[2]); /* the size at the rank */
	assert_int_equal(apply(&h, &p, 3444, NOW - 200), KiB(4096));
	assert_true(h.held[2]);
	assert_int_equal(h.ranked[2], KiB(3444));
	assert_int_equal(p.ndisagreements, 1);
	assert_non_null(
		strstr(p.disagreements[0],
		       "ended L3 at 3444 KiB (2) and 4096 KiB (8); the run takes 4096 KiB, the last "
		       "run's, which all but 2 kept: it stays while no more than one in 4 is shorter (at "
		       "the rank, one in 8 passed over: 3444 KiB) (this probe alone: 3444 KiB; history "));
	assert_int_equal(apply(&h, &p, 2896, NOW - 100), KiB(3444));
	assert_false(h.held[2]);
	assert_non_null(strstr(p.disagreements[0],
			       "the run takes 3444 KiB, which all but 1 of them kept: one "
			       "probe in 8 is passed over"));
	/* what each run took is kept beside its probe: this one's for the next run */
	assert_int_equal(file_taken(10), KiB(3444));
	assert_int_equal(file_taken(9), KiB(4096));
	assert_int_equal(apply(&h, &p, 4096, NOW), KiB(3444));
	o = levels_history_json(&h);
	assert_int_equal(
		json_integer_value(json_array_get(
			json_object_get(json_array_get(json_object_get(o, "probes"), 10), "taken"), 2)),
		KiB(3444));
	json_decref(o);
}

/* A last run's size smaller than the one at the rank is not held: one short probe would rule again. Nor is
   one of a probe that recorded none (written before 2026-12-01). A dry run's preview holds as a run does. */
static void test_only_a_larger_last_size_is_held(void **state)
{
	struct levels_history h;
	struct levels_probe p;
	struct topo t;
	char text[16384], one[512];
	size_t len = (size_t)snprintf(text, sizeof text, "{\"probes\": [");

	(void)state;
	/* seven at 8192 KiB, the newest of whose runs took 1448 */
	for (int k = 0; k < 7; k++) {
		probe_json(one, sizeof one, NOW - 100 + k, 8192);
		if (k == 6)
			snprintf(strrchr(one, '}'), 64, ", \"taken\": [49152, 1048576, %llu]}",
				 (unsigned long long)KiB(1448));
		len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", k ? ", " : "", one);
	}
	snprintf(text + len, sizeof text - len, "]}");
	write_file(text);
	assert_int_equal(apply(&h, &p, 8192, NOW), KiB(8192));
	assert_false(h.held[2]);
	/* six at 8192 and two at 5792 (a quarter), none with a size taken: the size at the rank */
	history_of(6, 8192, 8192);
	assert_int_equal(apply(&h, &p, 5792, NOW - 10), KiB(5792));
	assert_int_equal(apply(&h, &p, 5792, NOW), KiB(5792));
	/* eight, the first at 4096: the runs take 8192 (one shorter of nine), and hold it against the rank's 4096
	   (two of ten) in a run and in a preview */
	history_of(8, 4096, 8192);
	assert_int_equal(apply(&h, &p, 8192, NOW - 10), KiB(8192));
	assert_int_equal(apply(&h, &p, 4096, NOW), KiB(8192));
	assert_true(h.held[2]);
	machine(&t, 0);
	levels_history_preview(&h, &t, 0, NOW);
	assert_int_equal(t.caches[2].measured, KiB(8192));
	assert_true(h.held[2]);
}

/* One probe that measured L3 at l3 KiB at NOW over 10 s in which the guest lost `steal` percent of its CPU
   time and some task waited for a CPU `pressure` percent of it (disturb.h's samples); returns what the run
   takes for L3. */
static uint64_t apply_disturbed(struct levels_history *h, struct levels_probe *p, unsigned l3, double steal,
				double pressure)
{
	struct topo t;

	memset(p, 0, sizeof *p);
	p->sampled = 1;
	p->before = (struct disturb_sample){
		.total = 100000, .steal = 500, .has_steal = 1, .pressure_us = 7000000, .at_s = 50};
	p->after = p->before;
	p->after.total += 2000;
	p->after.steal += (unsigned long long)(20 * steal);
	p->after.pressure_us += (long long)(1e5 * pressure);
	p->after.at_s += 10;
	machine(&t, KiB(l3));
	levels_history_apply(h, p, &t, 0, NOW);
	return t.caches[2].measured;
}

/* A probe taken while the machine was busy counts for its own run but is not added: the file is left as it
   was, and the run says why; one below LEVELS_HISTORY_BUSY_PERCENT of either is added. */
static void test_a_probe_of_a_busy_machine_is_not_added(void **state)
{
	struct levels_history h;
	struct levels_probe p;
	char one[512], text[1024];
	json_t *o;

	(void)state;
	probe_json(one, sizeof one, NOW - 60, 4096);
	snprintf(text, sizeof text, "{\"probes\": [%s]}", one);
	write_file(text);
	assert_int_equal(apply_disturbed(&h, &p, 2048, 0, 30), KiB(2048));
	assert_int_equal(h.n, 2);
	assert_string_equal(read_file(), text);
	assert_int_equal(p.ndisagreements, 1);
	assert_non_null(
		strstr(p.disagreements[0],
		       "this level probe is not added to the history (the machine was busy while it ran: "
		       "CPU time stolen 0.0 %, some task waiting for a CPU 30.0 % of the time; from 5 % "
		       "of either, other work may have held part of the caches)"));
	o = levels_history_json(&h);
	assert_non_null(strstr(json_string_value(json_object_get(o, "not_added")), "busy"));
	json_decref(o);
	assert_int_equal(apply_disturbed(&h, &p, 2048, 5, 0), KiB(2048));
	assert_non_null(
		strstr(p.disagreements[0], "CPU time stolen 5.0 %, some task waiting for a CPU 0.0 %"));
	assert_string_equal(read_file(), text);
	/* below both: added, and the run takes the smaller of the two */
	assert_int_equal(apply_disturbed(&h, &p, 8192, 4.9, 4.9), KiB(4096));
	assert_int_equal(p.ndisagreements, 1);
	assert_null(strstr(p.disagreements[0], "not added"));
	assert_int_equal(file_probes(0, &(uint64_t){0}, &(int64_t){0}), 2);
	/* one share unknown (pressure: a kernel without PSI), the other over: busy, the unknown one said so */
	write_file(text);
	assert_int_equal(apply_disturbed(&h, &p, 2048, 7, -1), KiB(2048));
	assert_non_null(
		strstr(p.disagreements[0], "CPU time stolen 7.0 %, some task waiting for a CPU unknown"));
	assert_string_equal(read_file(), text);
}

/* A probe without both samples (no /proc/stat, or one that failed) is not judged busy, whatever its samples
   hold: it is added. */
static void test_a_probe_without_samples_is_added(void **state)
{
	struct levels_history h;
	struct levels_probe p;
	struct topo t;

	(void)state;
	apply_disturbed(&h, &p, 4096, 50, 50);
	assert_int_equal(access(path, F_OK), -1); /* busy: not added, no file */
	p.sampled = 0;
	p.ndisagreements = 0;
	machine(&t, KiB(4096));
	levels_history_apply(&h, &p, &t, 0, NOW);
	assert_int_equal(p.ndisagreements, 0);
	assert_int_equal(file_probes(0, &(uint64_t){0}, &(int64_t){0}), 1);
}

static void test_probes_older_than_the_window_or_from_the_future_are_dropped(void **state)
{
	struct levels_history h;
	struct levels_probe p;
	char old[512], future[512], text[1200];
	uint64_t l3;
	int64_t time;

	(void)state;
	probe_json(old, sizeof old, NOW - LEVELS_HISTORY_SECONDS, 1024);
	probe_json(future, sizeof future, NOW + 60, 2048);
	snprintf(text, sizeof text, "{\"probes\": [%s, %s]}", old, future);
	write_file(text);
	assert_int_equal(apply(&h, &p, 8192, NOW), KiB(8192));
	assert_int_equal(h.n, 1);
	assert_int_equal(file_probes(0, &l3, &time), 1);
	assert_int_equal(l3, KiB(8192));
}

static void test_only_the_newest_probes_of_a_machine_are_kept(void **state)
{
	struct levels_history h;
	struct levels_probe p;
	char text[16384], one[512];
	uint64_t l3;
	int64_t time;
	size_t len = (size_t)snprintf(text, sizeof text, "{\"probes\": [");

	(void)state;
	/* the oldest two found 2048 KiB, the next ones 8192 */
	for (int k = 0; k < LEVELS_HISTORY_KEEP + 1; k++) {
		probe_json(one, sizeof one, NOW - 1000 + k, k < 2 ? 2048 : 8192);
		len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", k ? ", " : "", one);
	}
	snprintf(text + len, sizeof text - len, "]}");
	write_file(text);
	assert_int_equal(apply(&h, &p, 8192, NOW), KiB(8192));
	assert_int_equal(h.n, LEVELS_HISTORY_KEEP);
	assert_int_equal(h.seen[0].time, NOW - 1000 + 2);
	assert_int_equal(h.seen[LEVELS_HISTORY_KEEP - 1].time, NOW);
	assert_int_equal(file_probes(0, &l3, &time), LEVELS_HISTORY_KEEP);
	assert_int_equal(time, NOW - 1000 + 2);
}

static void test_other_machines_probes_are_kept_and_not_taken(void **state)
{
	struct levels_history h;
	struct levels_probe p;
	const char *other =
		"{\"machine\": \"boot x, CPU 1, L1 49152, L2 1048576, L3 33554432\", \"time\": 1799999000, "
		"\"sizes\": [49152, 1048576, 1048576]}";
	char text[1024];

	(void)state;
	snprintf(text, sizeof text, "{\"probes\": [%s]}", other);
	write_file(text);
	assert_int_equal(apply(&h, &p, 8192, NOW), KiB(8192));
	assert_non_null(
		strstr(read_file(), "\"machine\": \"boot x, CPU 1, L1 49152, L2 1048576, L3 33554432\""));
	assert_int_equal(h.n, 1);
}

/* A history that cannot be read: the file is left byte for byte, the run takes its own probe, and says why. */
static void unreadable(const char *text, const char *why)
{
	struct levels_history h;
	struct levels_probe p;

	write_file(text);
	assert_int_equal(apply(&h, &p, 8192, NOW), KiB(8192));
	assert_non_null(strstr(h.why, path));
	assert_non_null(strstr(h.why, why));
	assert_int_equal(p.ndisagreements, 1);
	assert_non_null(strstr(p.disagreements[0], "no history of the level probe kept ("));
	assert_string_equal(read_file(), text);
	json_t *o = levels_history_json(&h);
	assert_non_null(strstr(json_string_value(json_object_get(o, "not_kept")), why));
	json_decref(o);
}

static void test_a_damaged_history_is_left_as_it_was(void **state)
{
	char text[1024], k[320];

	(void)state;
	unreadable("{\"probes\": [\n{\"machine\": ", "levels.json:2:12: unexpected token");
	unreadable("{\"runs\": []}\n", ": no \"probes\" list");
	/* which of two lists jansson would take is not the file's to say */
	unreadable("{\"probes\": [],\n\"probes\": []}\n", "levels.json:2:8: duplicate object key");
	unreadable("{\"probes\": [{\"machine\": \"m\", \"time\": 1, \"sizes\": [0]}]}\n",
		   ": probe 1: size 1 is not a positive number of bytes");
	key(k, sizeof k);
	snprintf(text, sizeof text,
		 "{\"probes\": [{\"machine\": \"%s\", \"time\": %d, \"sizes\": [49152, 1048576]}]}", k, NOW);
	unreadable(text, ": probe 1: 2 sizes for this machine's 3 levels");
	snprintf(text, sizeof text,
		 "{\"probes\": [{\"machine\": \"%s\", \"time\": %d, \"sizes\": [49152, 1048576, 67108864]}]}",
		 k, NOW);
	unreadable(text, ": probe 1: sizes: L3 67108864 bytes, more than the 33554432 reported");
	/* what its run took, as its sizes */
	snprintf(text, sizeof text,
		 "{\"probes\": [{\"machine\": \"%s\", \"time\": %d, \"sizes\": [49152, 1048576, 4194304], "
		 "\"taken\": [49152, 1048576, 0]}]}",
		 k, NOW);
	unreadable(text, ": probe 1: taken size 3 is not a positive number of bytes");
	snprintf(text, sizeof text,
		 "{\"probes\": [{\"machine\": \"%s\", \"time\": %d, \"sizes\": [49152, 1048576, 4194304], "
		 "\"taken\": [49152, 1048576, 67108864]}]}",
		 k, NOW);
	unreadable(text, ": probe 1: taken: L3 67108864 bytes, more than the 33554432 reported");
	snprintf(text, sizeof text,
		 "{\"probes\": [{\"machine\": \"%s\", \"time\": %d, \"sizes\": [49152, 1048576, 4194304], "
		 "\"taken\": 4194304}]}",
		 k, NOW);
	unreadable(text, ": probe 1: \"taken\" is not a list of 1 to ");
}

/* A busy probe's run takes its size but records none (its probe is not added): the next run holds the size
   of the last run whose probe was. Eight probes at 4096 KiB and two at 3444 hold 4096; a busy one at 2896 is
   a third shorter, so its run takes the rank's 3444; the next, at 4096, holds 4096 again, as the file's
   newest probe took, not 3444. */
static void test_a_busy_probes_run_sets_no_size_to_hold(void **state)
{
	struct levels_history h;
	struct levels_probe p;

	(void)state;
	for (int k = 0; k < 8; k++)
		apply(&h, &p, 4096, NOW - 600 + k);
	apply(&h, &p, 3444, NOW - 300);
	assert_int_equal(apply(&h, &p, 3444, NOW - 200), KiB(4096));
	assert_int_equal(apply_disturbed(&h, &p, 2896, 20, 0), KiB(3444));
	assert_non_null(strstr(p.disagreements[0], "this level probe is not added to the history"));
	assert_int_equal(apply(&h, &p, 4096, NOW + 10), KiB(4096));
	assert_true(h.held[2]);
}

/* One this user may read but not write (root's, to another user): it counts all the same, is left as it was,
   and the run says this probe is not in it. */
static void test_a_history_that_cannot_be_written_still_counts(void **state)
{
	struct levels_history h;
	struct levels_probe p;
	char one[512], text[1024];
	uint64_t l3;
	json_t *o;

	(void)state;
	probe_json(one, sizeof one, NOW - 60, 4096);
	snprintf(text, sizeof text, "{\"probes\": [%s]}", one);
	write_file(text);
	no_writes();
	l3 = apply(&h, &p, 8192, NOW);
	writes_again();
	assert_int_equal(l3, KiB(4096));
	assert_int_equal(p.ndisagreements, 2);
	assert_non_null(
		strstr(p.disagreements[0], "this level probe is not added to the history (cannot write "));
	assert_non_null(strstr(p.disagreements[1], "the run takes the smallest, 4096 KiB"));
	assert_string_equal(read_file(), text);
	o = levels_history_json(&h);
	assert_int_equal(json_array_size(json_object_get(o, "probes")), 2);
	assert_non_null(strstr(json_string_value(json_object_get(o, "not_added")), "cannot write "));
	json_decref(o);
	assert_int_equal(files_in_dir(), 1); /* the file the write went through is gone */
}

/* The most a probe says on three levels (its time limit, each level short, its sweeps), then a history that
   lowers every level and cannot be written: each level the run takes lower still has its line. */
static void test_every_level_the_history_lowers_is_said_however_much_the_probe_said(void **state)
{
	struct levels_history h;
	struct levels_probe p;
	char k[320], text[1024];
	struct topo t;

	(void)state;
	key(k, sizeof k);
	snprintf(text, sizeof text,
		 "{\"probes\": [{\"machine\": \"%s\", \"time\": %d, \"sizes\": [16384, 262144, 2097152]}]}",
		 k, NOW - 60);
	write_file(text);
	machine(&t, KiB(8192));
	t.caches[0].measured = KiB(32);
	t.caches[1].measured = KiB(512);
	memset(&p, 0, sizeof p);
	for (int i = 0; i < 2 + t.ncaches; i++)
		levels_disagree(&p, "the probe's own line %d", i + 1);
	no_writes();
	levels_history_apply(&h, &p, &t, 0, NOW);
	writes_again();
	assert_int_equal(p.ndisagreements, 3 + 2 * t.ncaches);
	assert_non_null(strstr(p.disagreements[2 + t.ncaches], "not added to the history"));
	for (int l = 0; l < t.ncaches; l++) {
		char ended[32];
		snprintf(ended, sizeof ended, "ended L%d at ", l + 1);
		assert_non_null(strstr(p.disagreements[3 + t.ncaches + l], ended));
	}
	/* and as many as the analysis reads back into report.md */
	assert_int_equal(LEVELS_MAX_DISAGREEMENTS, MACHINE_NDISAGREEMENTS);
}

/* Something other than a file at levels.json, in a state directory others may write: a link to a file only
   root may read is not read (none of it reaches machine.json or report.md), nor is a FIFO, which would hold
   the run for ever; either is left as it was. */
static void test_only_a_plain_file_is_read_as_the_history(void **state)
{
	struct levels_history h;
	struct levels_probe p;
	char secret[160], link[160];

	(void)state;
	snprintf(secret, sizeof secret, "%s/shadow", dir);
	write_at(secret, "\"root:$6$hash\"\n");
	assert_int_equal(symlink(secret, path), 0);
	assert_int_equal(apply(&h, &p, 8192, NOW), KiB(8192));
	assert_null(strstr(h.why, "root"));
	assert_non_null(strstr(h.why, path));
	assert_int_equal(readlink(path, link, sizeof link), (ssize_t)strlen(secret));
	unlink(path);
	unlink(secret);
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_int_equal(apply(&h, &p, 8192, NOW), KiB(8192));
	assert_non_null(strstr(h.why, path));
	assert_non_null(strstr(p.disagreements[0], "no history of the level probe kept ("));
}

/* An empty file (which the write's fsync before its rename keeps from being left by a power loss) or a
   directory at levels.json is said as what it is, not as jansson's "'[' or '{' expected near end of file",
   and left as it was. */
static void test_an_empty_history_or_a_directory_is_said_as_such(void **state)
{
	struct levels_history h;
	struct levels_probe p;
	struct stat st;
	char want[256];

	(void)state;
	unreadable("", "levels.json: empty file");
	unlink(path);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(apply(&h, &p, 8192, NOW), KiB(8192));
	snprintf(want, sizeof want, "%s is a directory, not a file", path);
	assert_string_equal(h.why, want);
	assert_non_null(strstr(p.disagreements[0], "no history of the level probe kept ("));
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(rmdir(path), 0);
}

/* A link where the write goes through (a world-writable state directory, another user's link to a file root
   may write): the file it names is left alone, and the history is written as a file of its own. */
static void test_a_link_beside_the_history_is_not_written_through(void **state)
{
	struct levels_history h;
	struct levels_probe p;
	char victim[160], tmp[160];
	struct stat st;
	uint64_t l3;
	int64_t time;

	(void)state;
	snprintf(victim, sizeof victim, "%s/victim", dir);
	write_at(victim, "root's own\n");
	snprintf(tmp, sizeof tmp, "%s.%d", path, (int)getpid());
	assert_int_equal(symlink(victim, tmp), 0);
	assert_int_equal(apply(&h, &p, 8192, NOW), KiB(8192));
	assert_string_equal(read_at(victim), "root's own\n");
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0644); /* readable by the users who may not write it */
	assert_int_equal(file_probes(0, &l3, &time), 1);
	assert_int_equal(l3, KiB(8192));
	unlink(tmp);
	unlink(victim);
}

/* $PMUCHECK_HISTORY_DIR moves the history alone: the state directory gets nothing. */
/* A run that holds the history (read, not yet written back) when another probe comes: the other waits for it
   and adds its probe to what the first wrote, instead of reading the file before it and writing over it. */
static void test_two_runs_at_once_keep_both_probes(void **state)
{
	char one[512], text[1024];
	int lock = open(dir, O_RDONLY | O_DIRECTORY), status;
	const struct timespec wait = {0, 200000000};
	uint64_t l3;
	int64_t time;
	pid_t child;

	(void)state;
	assert_true(lock >= 0);
	assert_int_equal(flock(lock, LOCK_EX), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		struct levels_history h;
		struct levels_probe p;
		_exit(apply(&h, &p, 8192, NOW) == KiB(4096) && h.n == 2 ? 0 : 1);
	}
	nanosleep(&wait, NULL);
	/* the first run writes its probe back while the second waits */
	probe_json(one, sizeof one, NOW - 10, 4096);
	snprintf(text, sizeof text, "{\"probes\": [%s]}", one);
	write_file(text);
	close(lock);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0); /* it took the first run's 4096 KiB, two probes */
	assert_int_equal(file_probes(0, &l3, &time), 2);
	assert_int_equal(l3, KiB(4096));
	assert_int_equal(file_probes(1, &l3, &time), 2);
	assert_int_equal(l3, KiB(8192));
}

static void test_the_history_may_have_a_directory_of_its_own(void **state)
{
	struct levels_history h;
	struct levels_probe p;
	char own[160], file[192];

	(void)state;
	snprintf(own, sizeof own, "%s/own", dir);
	setenv("PMUCHECK_HISTORY_DIR", own, 1);
	apply(&h, &p, 8192, NOW);
	unsetenv("PMUCHECK_HISTORY_DIR");
	snprintf(file, sizeof file, "%s/%s", own, LEVELS_HISTORY_FILE);
	assert_string_equal(h.path, file);
	assert_int_equal(unlink(file), 0);
	assert_int_equal(rmdir(own), 0);
	assert_int_equal(files_in_dir(), 0);
}

/* No cache level reported: nothing to keep or take, nothing written, nothing said beyond the probe's own. */
static void test_no_cache_level_keeps_nothing(void **state)
{
	struct levels_history h;
	struct levels_probe p;
	struct topo t;

	(void)state;
	memset(&p, 0, sizeof p);
	memset(&t, 0, sizeof t);
	levels_history_apply(&h, &p, &t, 0, NOW);
	assert_string_equal(h.why, "hwloc reports no cache level");
	assert_int_equal(p.ndisagreements, 0);
	assert_int_equal(access(path, F_OK), -1);
}

static void test_a_state_directory_that_cannot_be_made_keeps_nothing(void **state)
{
	struct levels_history h;
	struct levels_probe p;
	char file[128], sub[160];

	(void)state;
	snprintf(file, sizeof file, "%s/plain", dir);
	write_file("");
	rename(path, file);
	snprintf(sub, sizeof sub, "%s/state", file);
	setenv("PMUCHECK_STATE_DIR", sub, 1);
	assert_int_equal(apply(&h, &p, 8192, NOW), KiB(8192));
	assert_non_null(strstr(h.why, "cannot create "));
	assert_non_null(strstr(p.disagreements[0], "/plain/state: Not a directory"));
	unlink(file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_the_key_names_the_boot_the_cpu_and_the_reported_sizes,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_first_probe_is_kept_and_taken_as_it_is, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_a_run_takes_the_smallest_of_the_probes_and_says_so,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_probe_in_eight_is_passed_over, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_preview_takes_the_same_rank_and_writes_nothing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_the_last_runs_size_stays_while_one_probe_in_four_ended_it_shorter, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_only_a_larger_last_size_is_held, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_probe_of_a_busy_machine_is_not_added, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_probe_without_samples_is_added, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_busy_probes_run_sets_no_size_to_hold, setup, teardown),
		cmocka_unit_test_setup_teardown(test_the_reported_size_taken_is_no_level_measured_short,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_probes_older_than_the_window_or_from_the_future_are_dropped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_only_the_newest_probes_of_a_machine_are_kept, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_other_machines_probes_are_kept_and_not_taken, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_a_damaged_history_is_left_as_it_was, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_history_that_cannot_be_written_still_counts, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_every_level_the_history_lowers_is_said_however_much_the_probe_said, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_only_a_plain_file_is_read_as_the_history, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_an_empty_history_or_a_directory_is_said_as_such, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_a_link_beside_the_history_is_not_written_through, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_two_runs_at_once_keep_both_probes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_the_history_may_have_a_directory_of_its_own, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_cache_level_keeps_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_state_directory_that_cannot_be_made_keeps_nothing,
						setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
