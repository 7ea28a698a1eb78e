/* ctr_fixture.h — the cmocka fixture of the counter tests: a test keeps the plan it makes and the sets
 * it opens in its state, and the teardown frees them. A failed assertion leaves the test by longjmp,
 * past the test's own cleanup, so without the teardown the sanitizer pass reports them as leaks on top of
 * the failure (it did on a Zen 3 machine, after a timing assertion of test_ctr_perf failed).
 *
 *   CTR_FIXTURE_TEST(test_x)          (cmocka_unit_test with the fixture's setup and teardown)
 *   struct ctr_fixture *f = *state;   ctr_plan_groups(..., &f->plan, ...); ctr_open(..., &f->set[0], ...);
 *
 * A set the test closes itself it sets back to NULL. Tests of the failing paths keep their plan and set
 * out of the fixture: a teardown that frees them would hide the leak those tests are there to catch. */
#ifndef PMUCHECK_CTR_FIXTURE_H
#define PMUCHECK_CTR_FIXTURE_H

#include <stdlib.h>

#include "ctr.h"

#define CTR_FIXTURE_SETS 2
#define CTR_FIXTURE_TEST(t) cmocka_unit_test_setup_teardown(t, ctr_fixture_setup, ctr_fixture_teardown)

struct ctr_fixture {
	struct ctr_plan plan;
	struct ctr_set *set[CTR_FIXTURE_SETS];
};

static int ctr_fixture_setup(void **state)
{
	*state = calloc(1, sizeof(struct ctr_fixture));
	return *state ? 0 : -1;
}

static int ctr_fixture_teardown(void **state)
{
	struct ctr_fixture *f = *state;

	for (int i = 0; i < CTR_FIXTURE_SETS; i++)
		ctr_close(f->set[i]);
	ctr_plan_free(&f->plan);
	free(f);
	return 0;
}

#endif
