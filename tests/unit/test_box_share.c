/* test_box_share.c — a config's box wildcard is judged as its sum and its boxes are not judged alone:
 * four memory channels of which one carries 40 % of the lines and three 20 % each. The summed row gets
 * the verdict (lines_read x 1), each box is marked a box of it, boxes.csv/boxes.md show the 40/20/20/20
 * split and its imbalance (max/mean 1.6, max/min 2), the report's figure draws it, and the domain of every encoding is its own column. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analyze.h"
#include "box_share.h"
#include "out_plot_sets.h"
#include "tools/verdict_fixture.h"

#define SUM "uncore_imc_*/cas_count_read/"

static double channel(const struct gen_point *p, unsigned box)
{
	return round(p->v[RQ_lines_read] * (box == 0 ? 0.4 : 0.2));
}

#define BOX_FN(k) \
	static double box##k(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st, \
			     const char **why) \
	{ \
		(void)rep, (void)rng, (void)st, (void)why; \
		return channel(p, k); \
	}
BOX_FN(0)
BOX_FN(1)
BOX_FN(2)
BOX_FN(3)

/* what the harness writes: the sum of the boxes' counts (run_record.c) */
static double sum(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st, const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return channel(p, 0) + channel(p, 1) + channel(p, 2) + channel(p, 3);
}

static double loads(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st, const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return p->v[RQ_loads];
}

static const struct gen_event events[] = {
	{"uncore_imc_0/cas_count_read/", box0},
	{"uncore_imc_1/cas_count_read/", box1},
	{"uncore_imc_2/cas_count_read/", box2},
	{"uncore_imc_3/cas_count_read/", box3},
	{SUM, sum},
	{"MEM_INST_RETIRED.ALL_LOADS", loads},
};

static const struct gen_encoding encodings[] = {
	{"uncore_imc_0/cas_count_read/", "pmu=uncore_imc_0,type=13,config=0x304,domain=all", "socket"},
	{"uncore_imc_1/cas_count_read/", "pmu=uncore_imc_1,type=14,config=0x304,domain=all", "socket"},
	{"uncore_imc_2/cas_count_read/", "pmu=uncore_imc_2,type=15,config=0x304,domain=all", "socket"},
	{"uncore_imc_3/cas_count_read/", "pmu=uncore_imc_3,type=16,config=0x304,domain=all", "socket"},
	{SUM, "sum of 4 boxes,domain=all", "socket"},
	{"MEM_INST_RETIRED.ALL_LOADS", "pmu=cpu,type=4,config=0x81d0,domain=user+kernel", "thread"},
};

static int setup(void **state)
{
	static const struct gen_sweep sw = {.encodings = encodings, .nencodings = 6};
	int rc = fixture_open_sweep(state, events, 6, &sw);
	return rc;
}

static void test_the_sum_is_judged_and_the_boxes_are_not(void **state)
{
	struct fixture *f = *state;
	struct verdict v = fixture_judge(state, SUM, NULL), box;
	uint32_t s = 0;

	assert_int_equal(v.cls, VC_EXACT);
	assert_int_equal(v.quantity, RQ_lines_read);
	assert_true(v.scale == 1);
	fixture_judge(state, SUM, &s);
	assert_int_equal(f->a.events[s].nboxes, 4);
	for (int k = 0; k < 4; k++) {
		char name[64];
		uint32_t i = 0;
		snprintf(name, sizeof name, "uncore_imc_%d/cas_count_read/", k);
		box = fixture_judge(state, name, &i);
		assert_int_equal(box.cls, VC_BOX);
		assert_int_equal(box.quantity, -1);
		assert_int_equal(f->a.events[i].box_of, (int32_t)s);
		assert_non_null(strstr(box.note, "one of 4 boxes of " SUM));
	}
}

static void test_the_shares_show_the_40_20_20_20_split(void **state)
{
	struct fixture *f = *state;
	struct box_share *sh;
	unsigned n, levels = 0;
	struct err e;

	assert_int_equal(box_shares(&f->a, &sh, &n, &e), 0);
	assert_true(n >= 4 * 4); /* L1, L2, L3, DRAM at least, four boxes each */
	for (unsigned i = 0; i < n; i += 4) {
		double mean, min;
		assert_int_equal(sh[i].level, sh[i + 3].level);
		levels |= 1u << sh[i].level;
		for (unsigned k = 0; k < 4; k++) {
			/* round() of a fifth of a few hundred lines at the smallest points: within 0.5 % */
			assert_true(fabs(sh[i + k].share - (k == 0 ? 0.4 : 0.2)) < 0.005);
			assert_true(sh[i + k].lo <= sh[i + k].share && sh[i + k].share <= sh[i + k].hi);
			assert_true(sh[i + k].points > 0);
		}
		box_imbalance(&sh[i], 4, &mean, &min);
		assert_true(fabs(mean - 1.6) < 0.02);
		assert_true(fabs(min - 2.0) < 0.05);
	}
	assert_true(levels & (1u << LV_DRAM));
	free(sh);
}

static int file_has(const char *dir, const char *name, const char *text)
{
	char path[128], buf[1 << 16];
	size_t n;
	FILE *in;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(in = fopen(path, "r")))
		return 0;
	n = fread(buf, 1, sizeof buf - 1, in);
	buf[n] = '\0';
	fclose(in);
	return strstr(buf, text) != NULL;
}

static void test_analyze_writes_the_shares_the_marks_and_the_domains(void **state)
{
	struct fixture *f = *state;
	struct analyze_summary sum;
	struct err e;

	assert_int_equal(analyze_dir(f->dir, &sum, &e), 0);
	assert_int_equal(sum.classes[VC_BOX], 4);
	/* DRAM points count millions of lines: the shares are exact to the printed digits */
	assert_true(file_has(f->dir, "boxes.csv", SUM ",uncore_imc_0/cas_count_read/,DRAM,"));
	assert_true(file_has(f->dir, "boxes.csv", ",0.4000,0.4000,0.4000,1.600,2.000\n"));
	assert_true(file_has(f->dir, "boxes.csv", ",0.2000,0.2000,0.2000,1.600,2.000\n"));
	assert_true(file_has(f->dir, "boxes.md", "| Box | L1 | L2 | L3 | DRAM |\n"));
	assert_true(file_has(f->dir, "boxes.md", "\n| box 0 | 40.0 | 40.0 | 40.0 | 40.0 |\n"));
	assert_true(file_has(f->dir, "boxes.md", "\n| box 3 | 20.0 | 20.0 | 20.0 | 20.0 |\n"));
	assert_true(file_has(f->dir, "boxes.md", "\n| max / mean | 1.600 | 1.600 | 1.600 | 1.600 |\n"));
	assert_true(file_has(f->dir, "boxes.md", "\n| max / min | 2.000 | 2.000 | 2.000 | 2.000 |\n"));
	/* events.csv: domain and box_of after scope; the sum judged, the boxes marked */
	assert_true(file_has(f->dir, "events.csv", "\n" SUM ",perf,socket,all,,exact,lines_read,1,"));
	assert_true(file_has(f->dir, "events.csv",
			     "\nuncore_imc_0/cas_count_read/,perf,socket,all," SUM ",box,,,"));
	assert_true(file_has(f->dir, "events.csv", "\nMEM_INST_RETIRED.ALL_LOADS,perf,thread,user+kernel,,"));
	assert_true(file_has(f->dir, "events.json", "\"box_of\": \"" SUM "\""));
	assert_true(file_has(f->dir, "events.json", "\"boxes\": 4"));
	assert_true(file_has(f->dir, "events.json", "\"domain\": \"user+kernel\""));
	assert_true(file_has(f->dir, "events.md", "| MEM_INST_RETIRED.ALL_LOADS | user+kernel |"));
}

/* The report's figure: one series per box, each at its share at every size, beside the even split; the sum
   has its events-per-quantity figure, the boxes none. */
static void test_the_figure_draws_each_boxs_share(void **state)
{
	struct fixture *f = *state;
	struct out_rdata d;
	struct out_figures figs;
	struct analyze_summary sum;
	struct err e;
	const struct out_plot *pl = NULL;
	int sum_fig = 0;

	assert_int_equal(analyze_dir(f->dir, &sum, &e), 0);
	assert_int_equal(out_rdata_load(&d, f->dir, &e), 0);
	assert_int_equal(out_figures_build(&d, &figs, &e), 0);
	for (unsigned i = 0; i < figs.n; i++) {
		if (!strncmp(figs.p[i].name, "boxes_", 6))
			pl = &figs.p[i];
		sum_fig |= !strcmp(figs.p[i].name,
				   "ev_uncore_imc___cas_count_read_"); /* SUM, as a file name */
		/* the boxes have no events-per-quantity figure of their own: they are this figure's series */
		assert_null(strstr(figs.p[i].name, "uncore_imc_0"));
	}
	assert_true(sum_fig);
	assert_non_null(pl);
	assert_int_equal(pl->ns, 5); /* 4 boxes and the even split */
	for (unsigned k = 0; k < pl->ns; k++) {
		const struct out_series *s = &pl->s[k];
		double want = !strcmp(s->title, "box 0") ? 40 : !strcmp(s->title, "even split") ? 25 : 20;
		assert_true(s->n > 10);
		for (size_t i = 0; i < s->n; i++)
			assert_true(fabs(s->y[i] - want) < 0.5);
	}
	out_figures_free(&figs);
	out_rdata_free(&d);
}

/* A unit of one box, which the kernel names without a number (a client CPU's "uncore_arb"): the harness
   takes it for "uncore_arb_*" (boxes.c) and writes it and the sum over it, as for any box wildcard. */
#define ONE_SUM "uncore_arb_*/event=0x81/"
#define ONE_BOX "uncore_arb/event=0x81/"

static double one_box(const struct gen_point *p, unsigned rep, uint64_t *rng, const char **st,
		      const char **why)
{
	(void)rep, (void)rng, (void)st, (void)why;
	return p->v[RQ_lines_read];
}

static const struct gen_event one_events[] = {
	{ONE_BOX, one_box},
	{ONE_SUM, one_box},
	{"MEM_INST_RETIRED.ALL_LOADS", loads},
};

static const struct gen_encoding one_encodings[] = {
	{ONE_BOX, "pmu=uncore_arb,type=13,config=0x181,domain=all", "socket"},
	{ONE_SUM, "sum of 1 boxes,domain=all", "socket"},
	{"MEM_INST_RETIRED.ALL_LOADS", "pmu=cpu,type=4,config=0x81d0,domain=user+kernel", "thread"},
};

static int setup_one(void **state)
{
	static const struct gen_sweep sw = {.encodings = one_encodings, .nencodings = 3};
	return fixture_open_sweep(state, one_events, 3, &sw);
}

/* The box is the sum's, as a numbered one is: judged as the sum, not a second time alone. */
static void test_a_unit_of_one_box_is_its_sums_box(void **state)
{
	struct fixture *f = *state;
	struct verdict box;
	uint32_t s = 0, i = 0;

	fixture_judge(state, ONE_SUM, &s);
	assert_int_equal(f->a.events[s].nboxes, 1);
	box = fixture_judge(state, ONE_BOX, &i);
	assert_int_equal(f->a.events[i].box_of, (int32_t)s);
	assert_int_equal(box.cls, VC_BOX);
	assert_non_null(strstr(box.note, "one of 1 boxes of " ONE_SUM));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_sum_is_judged_and_the_boxes_are_not),
		cmocka_unit_test(test_the_shares_show_the_40_20_20_20_split),
		cmocka_unit_test(test_analyze_writes_the_shares_the_marks_and_the_domains),
		cmocka_unit_test(test_the_figure_draws_each_boxs_share),
	};
	const struct CMUnitTest one[] = {
		cmocka_unit_test(test_a_unit_of_one_box_is_its_sums_box),
	};
	int failed = cmocka_run_group_tests(tests, setup, fixture_close);

	return failed + cmocka_run_group_tests(one, setup_one, fixture_close);
}
