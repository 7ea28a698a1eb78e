/* fleet_exec.h — runs a Slurm client (scontrol, sinfo, sbatch, squeue) and keeps what it printed:
 * `pmucheck fleet` needs nothing from the cluster but these commands and a shared directory. */
#ifndef PMUCHECK_FLEET_EXEC_H
#define PMUCHECK_FLEET_EXEC_H

#include <stddef.h>

#include "err.h"

/* Runs argv (found on PATH) with stdout in out (NUL-terminated, cut at len) and stderr in err's message
   on failure. Returns 0 when it exited 0; E_RUNTIME naming the command and its first stderr line
   otherwise (E_USAGE when it is not installed). */
int fleet_exec(char *const argv[], char *out, size_t len, struct err *e);

#endif
