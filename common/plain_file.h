/* plain_file.h — opening a results file to read (raw.csv) the way json_file.h opens a JSON one: a FIFO in
 * its place would hold the reader for ever (a results directory is often copied from elsewhere), and a
 * directory or device is no file of a run. */
#ifndef PMUCHECK_PLAIN_FILE_H
#define PMUCHECK_PLAIN_FILE_H

#include <stdio.h>

#include "err.h"

/* path opened for reading into *f: 0, or *f NULL and E_USAGE naming path when there is no such file, a link
   loop, or anything but a plain file (a FIFO is refused at once, never waited on); E_RUNTIME otherwise. */
int plain_fopen(const char *path, FILE **f, struct err *e);

#endif
