/* plain_file.h — opening a file pmucheck reads, the one way every reader does (json_file.h, raw.csv's):
 * never waiting on a FIFO (a results directory is often copied from elsewhere, and a FIFO in it held
 * analyze for ever), and naming what is wrong with the path the same way for every command. */
#ifndef PMUCHECK_PLAIN_FILE_H
#define PMUCHECK_PLAIN_FILE_H

#include <stdio.h>

#include "err.h"

/* No file at the path is no fault: 0 with *fd -1. */
#define FILE_READ_OPTIONAL 1
/* A link is refused, not followed (a file in a directory others may write: harness history_file.c). */
#define FILE_READ_NOFOLLOW 2
/* Anything but a plain file is refused (a results directory's files; a vendor's event list may be a pipe). */
#define FILE_READ_PLAIN 4

/* path opened to read into *fd: 0, else *fd -1 and E_USAGE naming path where there is no such file, a link
   loop, a link (FILE_READ_NOFOLLOW), a directory, or not a plain file (FILE_READ_PLAIN), E_RUNTIME where
   it cannot be opened otherwise. It is opened without waiting for a FIFO's writer (O_NONBLOCK, cleared once
   open): one without a writer reads as empty. */
int file_read_open(const char *path, int flags, int *fd, struct err *e);

/* raw.csv, a stale export's file: a plain file (file_read_open's FILE_READ_PLAIN, and its other flags in
   flags) as a stream, into *f; 0, else *f NULL. */
int plain_fopen(const char *path, int flags, FILE **f, struct err *e);

#endif
