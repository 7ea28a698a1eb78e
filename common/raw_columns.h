/* raw_columns.h — the columns of raw.csv in file order (docs/results-format.md): the one list that the writer
 * (harness/results/raw.c) expands into the header and each row, and the reader (analysis/raw_read.c) into the
 * columns it looks up, so the two cannot drift apart.
 *
 * X(name, type, presence): name is the header's name and the field of the writer's and the reader's row;
 * type says how the value is written and parsed:
 *   INT       a decimal integer               TEXT    csv_field text
 *   FRACTION  a real, 4 decimals (0..1)       SECONDS a real, %.9e (negative when noise made the 2R call faster)
 *   GHZ       a real, 4 decimals; empty when the repetition has no clock (never 0 GHz)
 *   ACCESS, PLOTS, TRAITS  the kernel's names for its access type, plot kinds and flags (kernels/kern_names.c)
 *   COUNT     integer, empty unless counted   TIME    integer ns, empty on a row without an event
 *   STATUS    ok, multiplexed, not_measured or failed
 *   NOISY     why a point is flagged noisy: noisy_why_names (common/noisy_why.h), `;`-separated; empty if clean
 * presence: REQUIRED (a file without the column is refused) or OPTIONAL (older files lack it; read as empty).
 * VOLUMES stands where the known volumes v_<name> go, in kern.h order: an includer passes
 * KERN_VOLUME_FIELDS(its macro for one volume, taking (name, presence)), since common/ does not see
 * kernels/; a volume's presence is REQUIRED or OPTIONAL as above (an OPTIONAL volume the file lacks
 * is read as unknown, NAN, not as 0). */
#ifndef PMUCHECK_RAW_COLUMNS_H
#define PMUCHECK_RAW_COLUMNS_H

/* A list, laid out as one: */
/* clang-format off */
#define RAW_COLUMNS(X, VOLUMES) \
	X(point, INT, REQUIRED) X(rep, INT, REQUIRED) X(group, INT, REQUIRED) X(kernel, TEXT, REQUIRED) \
	X(variant, TEXT, REQUIRED) X(access, ACCESS, REQUIRED) X(plots, PLOTS, REQUIRED) \
	X(traits, TRAITS, REQUIRED) X(width, INT, REQUIRED) X(arg_name, TEXT, REQUIRED) X(arg, INT, REQUIRED) \
	X(bytes, INT, REQUIRED) X(arrays, INT, REQUIRED) X(reps, INT, REQUIRED) X(span, INT, OPTIONAL) \
	X(diff, TEXT, REQUIRED) \
	X(threads, INT, REQUIRED) X(cpus, TEXT, REQUIRED) X(placement, TEXT, REQUIRED) \
	X(mem_nodes, TEXT, REQUIRED) X(prefetch, TEXT, REQUIRED) X(msr, TEXT, REQUIRED) X(level, TEXT, REQUIRED) \
	X(thp_share, FRACTION, REQUIRED) X(seconds, SECONDS, REQUIRED) X(tsc, INT, REQUIRED) \
	X(tsc_lo, INT, OPTIONAL) X(tsc_hi, INT, OPTIONAL) X(core_ghz, GHZ, REQUIRED) \
	X(clock_note, TEXT, OPTIONAL) X(flag, TEXT, REQUIRED) X(noisy_why, NOISY, OPTIONAL) \
	VOLUMES \
	X(event, TEXT, REQUIRED) X(backend, TEXT, REQUIRED) X(encoding, TEXT, REQUIRED) X(scope, TEXT, REQUIRED) \
	X(count, COUNT, REQUIRED) X(time_enabled, TIME, REQUIRED) X(time_running, TIME, REQUIRED) \
	X(status, STATUS, REQUIRED) X(reason, TEXT, REQUIRED) X(experiment, TEXT, OPTIONAL) \
	X(uncore, TEXT, OPTIONAL)
/* clang-format on */

#endif
