/* file_copy.h — one file's bytes into another, every failure seen. */
#ifndef PMUCHECK_FILE_COPY_H
#define PMUCHECK_FILE_COPY_H

#include <stdio.h>

/* Copies the rest of in into out and closes both: 0, or the errno of the first read, write or close that
   failed (a full disk). fclose alone does not tell: a write larger than the stream's buffer goes straight to
   the file, and when it fails nothing is left buffered for fclose to fail on. */
int file_copy(FILE *in, FILE *out);

#endif
