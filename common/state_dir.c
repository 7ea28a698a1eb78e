#include <stdlib.h>

#include "state_dir.h"

const char *state_dir(void)
{
	const char *dir = getenv("PMUCHECK_STATE_DIR");

	if (dir && *dir)
		return dir;
	dir = getenv("PMUCHECK_MSR_DIR");
	return dir && *dir ? dir : "/var/lib/pmucheck";
}
