/* msr.h — model-specific registers through the Linux msr driver.
 *
 * /dev/cpu/N/msr is a file whose offset is the MSR address: pread of 8 bytes at 0x1a4 is RDMSR 0x1a4
 * on CPU N, pwrite is WRMSR. It needs the msr module and root (CAP_SYS_RAWIO). Tests point the code at
 * a directory of ordinary files with PMUCHECK_MSR_DIR (one <dir>/<N>/msr per CPU, sparse, so that
 * 8 bytes at the MSR address exist).
 */
#ifndef PMUCHECK_MSR_H
#define PMUCHECK_MSR_H

#include <stdint.h>

#include "err.h"

/* $PMUCHECK_MSR_DIR or /dev/cpu. */
const char *msr_dir(void);

/* Opens CPU cpu's MSR file (O_CLOEXEC) read-only or read-write into *fd. E_RUNTIME with the reason
   and what would fix it (modprobe msr, run as root) when it cannot. */
int msr_open(int cpu, int writable, int *fd, struct err *e);

int msr_read(int fd, int cpu, uint32_t reg, uint64_t *val, struct err *e);
int msr_write(int fd, int cpu, uint32_t reg, uint64_t val, struct err *e);

/* Read-modify-write: clears the bits in clear, sets those in set, leaves every other bit as it is,
   and reads the MSR back (a hypervisor may drop a write silently). Writes nothing when the value
   already is right. *old (may be NULL) gets the value before. */
int msr_update(int fd, int cpu, uint32_t reg, uint64_t clear, uint64_t set, uint64_t *old, struct err *e);

/* 1 when $PMUCHECK_MSR_DIR is set and every MSR file in it is an ordinary file (the tests' fake
   MSRs; the driver's are character devices), else 0. */
int msr_is_fake(void);

/* The CPUs that have an MSR file (numeric entries of msr_dir()), ascending. Returns the count stored
   in cpus, or E_RUNTIME when the directory cannot be read or has more than max of them. */
int msr_cpus(int *cpus, int max, struct err *e);

#endif
