/* out_export_metric.c — from a validated event to a metric: what it measures (the quantity it
 * tracks, where it held), in which unit, and the evidence, all from events.json. Events of any other
 * class never become metrics. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "out_export.h"
#include "out_report_csv.h"
#include "out_report_data.h"
#include "point_level.h"

/* Quantities measured in bytes become bandwidths; the rest rates of the counted thing. */
static const struct {
	const char *quantity, *stem, *what;
	double bytes;
} kinds[] = {
	{"lines_read", "read_bw", "bandwidth of 64-byte cache lines read (incl. write-allocate)", 64},
	{"lines_demand_read", "demand_read_bw",
	 "bandwidth of 64-byte cache lines read by loads (no write-allocate)", 64},
	{"lines_written", "write_bw", "bandwidth of 64-byte cache lines written back", 64},
	{"bytes_loaded", "load_bw", "bytes loaded by load instructions", 1},
	{"bytes_stored", "store_bw", "bytes written by store instructions", 1},
};

static const char *jstr(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "";
}

/* "L2_L3_DRAM" from ["L2", "L3", "DRAM"]; "" when the event held at every level. */
static void level_suffix(json_t *levels, char *buf, size_t len, char *text, size_t tlen)
{
	const unsigned all = LEVEL_BIT(LEVEL_COUNT) - 1;
	size_t i, n = 0, t = 0;
	unsigned have = 0;
	json_t *l;

	buf[0] = text[0] = '\0';
	json_array_foreach(levels, i, l)
	{
		const char *s = json_string_value(l);
		if (!s)
			continue;
		if (level_parse(s) != LEVEL_NONE)
			have |= LEVEL_BIT(level_parse(s));
		if (!strcmp(s, point_level_name(LV_ANY)))
			have = all;
		t += (size_t)snprintf(text + t, t < tlen ? tlen - t : 0, "%s%s", i ? ", " : "", s);
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "_%s", s);
	}
	if (have == all)
		buf[0] = '\0';
	for (char *c = buf; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			*c = '_';
}

static void describe(struct out_metric *m, json_t *ev, const char *q, const char *levels_text,
		     const char *dir)
{
	double err = json_number_value(json_object_get(ev, "error"));
	double r2 = json_number_value(json_object_get(ev, "r2"));
	const char *level = out_metric_one_level(m);
	char counted[64] = "";

	if (level)
		snprintf(counted, sizeof counted, "; counted in %s mode only", level);
	else if (!out_metric_domain(m))
		snprintf(counted, sizeof counted, "; privilege level not recorded");
	snprintf(m->evidence, sizeof m->evidence,
		 "pmucheck: %s is %s: scale %.6g events per %s (measured %.6g; perf, LIKWID and PAPI "
		 "exports all divide by %.6g); held at %s; prefetchers %s%s; error %.2f %%; R^2 %.5f; "
		 "%lld points; results %s",
		 m->event, jstr(ev, "class"), m->scale, q, m->measured, m->scale, levels_text,
		 jstr(ev, "prefetch"), counted, err * 100, r2,
		 (long long)json_integer_value(json_object_get(ev, "points")), dir);
}

void out_config_arch(const struct machine *mach, char *arch, size_t len)
{
	const char *p = mach->config_path, *base = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;

	snprintf(arch, len, "%.*s", (int)strcspn(base, "."), base);
}

/* A quantity as a name the tools take (letters, digits, '_'): a sum's terms and weights kept apart and
   readable, "loads + stores" -> loads_plus_stores, "1/2 lines_written@DRAM" ->
   1_over_2_lines_written_at_DRAM (dropping the signs, as before, read 12lines_writtenDRAM), "1.5 loads" ->
   1p5_loads. */
static void quantity_name(const char *q, char *out, size_t len)
{
	size_t n = 0;

	for (const char *c = q; *c && n + 8 < len; c++) {
		const char *word = *c == '+' ? "plus" : *c == '@' ? "at" : *c == '/' ? "over" : NULL;
		if (isalnum((unsigned char)*c))
			out[n++] = *c;
		else if (*c == '.')
			out[n++] = 'p'; /* within a number */
		else if (n && out[n - 1] != '_')
			out[n++] = '_';
		if (word)
			n += (size_t)snprintf(out + n, len - n, "%s_", word);
	}
	while (n && out[n - 1] == '_')
		n--;
	out[n] = '\0';
}

static int metric_from(struct out_metric *m, json_t *ev, const char *dir)
{
	const char *q = jstr(ev, "quantity");
	char suffix[96], levels[160], stem[96], qname[96];
	unsigned k;

	memset(m, 0, sizeof *m);
	m->measured = json_number_value(json_object_get(ev, "scale_measured"));
	m->simple = json_number_value(json_object_get(ev, "scale"));
	m->scale = m->simple > 0 ? m->simple : m->measured;
	if (!(m->scale > 0) || !*q)
		return -1; /* a verdict without a scale cannot be turned into a rate */
	snprintf(m->event, sizeof m->event, "%s", jstr(ev, "event"));
	snprintf(m->encoding, sizeof m->encoding, "%s", jstr(ev, "encoding"));
	snprintf(m->backend, sizeof m->backend, "%s", jstr(ev, "backend"));
	snprintf(m->scope, sizeof m->scope, "%s", jstr(ev, "scope"));
	level_suffix(json_object_get(ev, "levels"), suffix, sizeof suffix, levels, sizeof levels);
	snprintf(m->quantity, sizeof m->quantity, "%s", q);
	snprintf(m->levels, sizeof m->levels, "%s", levels);
	quantity_name(q, qname, sizeof qname);
	snprintf(m->count_name, sizeof m->count_name, "%s%s", qname, suffix);
	for (k = 0; k < sizeof kinds / sizeof kinds[0] && strcmp(kinds[k].quantity, q); k++)
		;
	if (k < sizeof kinds / sizeof kinds[0]) {
		snprintf(stem, sizeof stem, "%s", kinds[k].stem);
		snprintf(m->what, sizeof m->what, "%s (validated for buffers in %s)", kinds[k].what, levels);
		snprintf(m->unit, sizeof m->unit, "GB/s");
		snprintf(m->group, sizeof m->group, "pmucheck_bandwidth");
		m->bytes = kinds[k].bytes;
		m->divisor = 1e9;
	} else {
		/* a single volume ("pages") or a sum ("loads + stores") */
		snprintf(stem, sizeof stem, "%s_rate", qname);
		snprintf(m->what, sizeof m->what, "rate of %s (validated for buffers in %s)", q, levels);
		snprintf(m->unit, sizeof m->unit, "M%s/s", qname);
		snprintf(m->group, sizeof m->group, "pmucheck_rate");
		m->divisor = 1e6;
	}
	snprintf(m->name, sizeof m->name, "%s%s", stem, suffix);
	describe(m, ev, q, levels, dir);
	return 0;
}

/* Two events validated for the same quantity and levels: the second name says which event. */
static void add_event(char *name, size_t len, const char *event)
{
	size_t l = strlen(name);

	snprintf(name + l, len - l, "__%s", event);
	for (char *c = name + l; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			*c = '_';
}

/* Whether another metric has the name, in any case: LIKWID's group files and PAPI's presets are the names
   in capitals, so read_bw__l1d_replacement and read_bw__L1D_REPLACEMENT would be one file (the second
   truncating the first, the export failing half written) and one preset. */
static int name_taken(const struct out_metric *m, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcasecmp(m[i].name, m[n].name) || !strcasecmp(m[i].count_name, m[n].count_name))
			return 1;
	return 0;
}

/* The event's name is not always enough: two events may differ only where a name cannot (perf's
   L1D.REPLACEMENT, libpfm4's L1D:REPLACEMENT), or past its length; then a number follows it. */
static void unique_name(struct out_metric *m, unsigned n)
{
	char name[sizeof m->name], count[sizeof m->count_name];
	const int keep_name = (int)sizeof name - 12,
		  keep_count = (int)sizeof count - 12; /* "_" and a number */

	if (!name_taken(m, n))
		return;
	add_event(m[n].name, sizeof m[n].name, m[n].event);
	add_event(m[n].count_name, sizeof m[n].count_name, m[n].event);
	snprintf(name, sizeof name, "%s", m[n].name);
	snprintf(count, sizeof count, "%s", m[n].count_name);
	for (unsigned k = 2; name_taken(m, n); k++) {
		snprintf(m[n].name, sizeof m[n].name, "%.*s_%u", keep_name, name, k);
		snprintf(m[n].count_name, sizeof m[n].count_name, "%.*s_%u", keep_count, count, k);
	}
}

/* Into *rate, and its level and access into where (len bytes), a rate of row r of t where it is higher. */
static void higher(double *rate, char *where, size_t len, double r_rate, const struct out_csv *t, unsigned r,
		   int lc, int ac)
{
	/* an edited 1e400 was printed as "/ inf" in the formula */
	if (!isfinite(r_rate) || !(r_rate > *rate))
		return;
	*rate = r_rate;
	snprintf(where, len, "%s %s", t->rows[r][lc], t->rows[r][ac]);
}

/* The 100 % reference of Molka et al.'s Tables 2 and 3: the highest rate the event reached in a
   level and access where peaks.csv names it the indicator, of one core or of all, and of one core alone. */
static void attach_peaks(struct out_metric *m, unsigned n, const char *dir)
{
	char path[PATH_MAX];
	struct out_csv t;
	int lc, ac, ic, rc[2], cc;

	snprintf(path, sizeof path, "%s/peaks.csv", dir);
	if (out_csv_read(path, &t))
		return;
	lc = out_csv_col(&t, "level"), ac = out_csv_col(&t, "access");
	ic = out_csv_col(&t, "indicator");
	rc[0] = out_csv_peak_rate_col(&t, "1_core");
	rc[1] = out_csv_peak_rate_col(&t, "all_cores");
	/* one core's rate alone: a peaks.csv from before the split has none (its one rate is the higher) */
	cc = out_csv_col(&t, "indicator_max_events_per_s_1_core");
	for (unsigned r = 0; lc >= 0 && ac >= 0 && ic >= 0 && rc[0] >= 0 && rc[1] >= 0 && r < t.nrows; r++)
		for (unsigned i = 0; i < n; i++) {
			if (strcmp(t.rows[r][ic], m[i].event))
				continue;
			higher(&m[i].peak_rate, m[i].peak_where, sizeof m[i].peak_where,
			       fmax(atof(t.rows[r][rc[0]]), atof(t.rows[r][rc[1]])), &t, r, lc, ac);
			if (cc >= 0)
				higher(&m[i].peak_rate_core, m[i].peak_where_core,
				       sizeof m[i].peak_where_core, atof(t.rows[r][cc]), &t, r, lc, ac);
		}
	out_csv_free(&t);
}

/* A scale an export divides by: events per unit of a kernel's quantity, which no event counts a trillion
   times over or under (a line is 64 bytes, a page 64 lines). */
#define EXPORT_SCALE_MIN 1e-12
#define EXPORT_SCALE_MAX 1e12

/* A validated event as the analysis writes it (docs/results-format.md, events.json), in what an export
   turns into a formula and a description: an edited file gave "/ 0" (a scale of 1e-300) and exported an
   event with levels "L1", error "huge" and points "many" as exact, held at nothing, with 0 points. */
static int check_validated(json_t *ev, size_t i, const char *dir, struct err *e)
{
	static const char *const numbers[] = {"scale", "scale_measured", "error", "r2"};
	json_t *levels = json_object_get(ev, "levels"), *points = json_object_get(ev, "points"), *v;
	const char *bad = NULL;
	size_t k;

	for (k = 0; k < sizeof numbers / sizeof *numbers && !bad; k++) {
		v = json_object_get(ev, numbers[k]);
		if (v && !json_is_null(v) && (!json_is_number(v) || !isfinite(json_number_value(v))))
			bad = numbers[k];
		else if (v && k < 2 && json_number_value(v) > 0 &&
			 (json_number_value(v) < EXPORT_SCALE_MIN || json_number_value(v) > EXPORT_SCALE_MAX))
			bad = numbers[k];
	}
	if (!bad && (!json_is_array(levels) || !json_array_size(levels)))
		bad = "levels";
	for (k = 0; !bad && k < json_array_size(levels); k++)
		if (!json_is_string(json_array_get(levels, k)))
			bad = "levels";
	if (!bad && (!json_is_integer(points) || json_integer_value(points) < 1))
		bad = "points";
	if (!bad && !*jstr(ev, "event"))
		bad = "event";
	if (bad)
		return err_set(e, E_USAGE,
			       "%s/events.json: event %zu (%s): member '%s' is not as the analysis writes it "
			       "(docs/results-format.md): analyze the directory again",
			       dir, i + 1, jstr(ev, "event"), bad);
	return 0;
}

int out_metrics_build(json_t *events, const char *dir, const char *real, const struct machine *mach,
		      struct out_metric **m, unsigned *n, unsigned *validated, struct err *e)
{
	json_t *arr = json_object_get(events, "events"), *ev;
	char arch[32];
	size_t i;

	*n = *validated = 0;
	*m = calloc(json_array_size(arr) + 1, sizeof **m);
	if (!*m)
		return err_set(e, E_RUNTIME, "export: out of memory");
	json_array_foreach(arr, i, ev)
	{
		if (!out_class_validated(jstr(ev, "class")))
			continue;
		if (check_validated(ev, i, dir, e)) {
			free(*m);
			*m = NULL;
			return E_USAGE;
		}
		(*validated)++;
		if (metric_from(&(*m)[*n], ev, real))
			continue;
		unique_name(*m, *n);
		(*n)++;
	}
	out_config_arch(mach, arch, sizeof arch);
	for (unsigned k = 0; k < *n; k++)
		snprintf((*m)[k].arch, sizeof(*m)[k].arch, "%s", arch);
	attach_peaks(*m, *n, dir);
	return 0;
}
