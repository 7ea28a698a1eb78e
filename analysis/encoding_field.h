/* encoding_field.h — raw.csv's `encoding` column is comma-separated fields ("pmu=cpu,type=4,config=0x151,
 * domain=user+kernel", harness ctr_spec.c and ctr_papi.c): where one of them begins, for the analysis'
 * readers of it (agg.c's domain, the exports' level and flags). */
#ifndef PMUCHECK_ENCODING_FIELD_H
#define PMUCHECK_ENCODING_FIELD_H

/* Where the field of encoding that begins with key ("domain=", "exclude_kernel") goes on after key; NULL
   where no field begins with it. A key inside another field's value is no field. */
const char *encoding_field(const char *encoding, const char *key);

#endif
