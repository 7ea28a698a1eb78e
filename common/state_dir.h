/* state_dir.h — where pmucheck keeps what outlives one run on a node: the prefetcher state files and their
   lock (pf_state.h), and the level and speed probes' recent answers (history_file.h). */
#ifndef PMUCHECK_STATE_DIR_H
#define PMUCHECK_STATE_DIR_H

/* $PMUCHECK_STATE_DIR; else $PMUCHECK_MSR_DIR, so that tests with fake MSR files keep their state beside
   them and never touch the real one; else /var/lib/pmucheck. */
const char *state_dir(void);

/* flock(fd) exclusively, without blocking, tried again every 2 ms for up to wait_ms while another process
   has it: 0, else -1 with errno (EWOULDBLOCK: still held). Closing the only descriptor releases it. */
int state_lock(int fd, int wait_ms);

#endif
