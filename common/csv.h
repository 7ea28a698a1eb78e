/* csv.h — RFC 4180 fields, the one quoting rule of every CSV file pmucheck writes (raw.csv, the analysis
 * tables, the exports), so that raw_read and any spreadsheet read them back unchanged. */
#ifndef PMUCHECK_CSV_H
#define PMUCHECK_CSV_H

#include <stdio.h>

/* Writes s as one field, without a separator: quoted when it holds , " or a line break, each " doubled;
   NULL is written as an empty field. */
void csv_field(FILE *f, const char *s);

#endif
