#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msr.h"
#include "pf_stop.h"

static int initialised;
static char wanted[32]; /* "" when no stop is asked for or allowed */

void pf_stop_init(void)
{
	const char *point = getenv("PMUCHECK_TEST_STOP");

	if (initialised)
		return;
	initialised = 1;
	if (point && *point && msr_is_fake())
		snprintf(wanted, sizeof wanted, "%s", point);
}

void pf_stop_at(const char *point)
{
	pf_stop_init();
	if (wanted[0] && !strcmp(point, wanted))
		raise(SIGSTOP);
}
