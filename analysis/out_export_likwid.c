/* out_export_likwid.c — a LIKWID performance group file (groups/<arch>/<NAME>.txt): SHORT, the
 * EVENTSET (counter register, event; one per box for an Intel uncore box class), METRICS ("name [unit]  formula" over counters, time and
 * inverseClock) and LONG (the formulas with event names, then free text after "-"). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "out_export.h"

/* The boxes the event was summed over (raw.csv's encoding "sum of N boxes" for a config's box wildcard),
   else 1. */
static unsigned boxes_summed(const struct out_metric *m)
{
	const char *s = strstr(m->encoding, "sum of ");
	unsigned n;

	return s && sscanf(s, "sum of %u boxes", &n) == 1 && n > 0 ? n : 1;
}

/* The option a core counter needs to count where the event was validated: LIKWID programs one for user
   mode alone unless told KERNEL (LIKWID 5.2.2 on Zen 3, likwid-perfctr -V 3: PERF_CTL flags 0x10143, with
   PMC0:KERNEL 0x30143, the OS bit 17 set too). Kernel mode alone never comes here (out_likwid_name leaves it
   out); where the results do not record the level, the plain counter and a word in LONG (core_level_note).
   Uncore counters see no privilege level. */
static const char *counter_option(const struct out_metric *m, const char *cls)
{
	const char *domain = out_metric_domain(m);

	return !strcmp(cls, "PMC") && domain && !strcmp(domain, "user+kernel") ? ":KERNEL" : "";
}

/* LONG's word on the level a core counter counts, where it is not the plain user mode validated. */
static void core_level_note(FILE *f, const struct out_metric *m, const char *cls)
{
	if (strcmp(cls, "PMC"))
		return;
	/* LIKWID's perf_event backend opens a core counter with exclude_kernel=1 unless told KERNEL
	   (perfmon_perfevent.h, perf_pmc_setup), and Linux refuses exclude_kernel=0 with EACCES to a process
	   without CAP_PERFMON at perf_event_paranoid 2 or more (kernel/events/core.c, perf_allow_kernel; as
	   nobody here a software event opened with exclude_kernel=1 and not with 0) */
	if (*counter_option(m, cls))
		fprintf(f,
			"%s0%s: counted in user and kernel mode, as validated; LIKWID counts user mode alone "
			"without KERNEL. LIKWID's perf_event backend opens it without exclude_kernel, which "
			"Linux refuses at perf_event_paranoid 2 or more to a user without CAP_PERFMON (or "
			"root), where the plain %s0 counts: lower it to 1 or grant CAP_PERFMON there; "
			"without KERNEL the group counts another level than the one validated.\n",
			cls, counter_option(m, cls), cls);
	else if (!out_metric_domain(m))
		fprintf(f,
			"%s0: the results do not record the privilege level the event was counted and "
			"validated in (written before pmucheck recorded it); LIKWID counts user mode alone, "
			"which need not be that level.\n",
			cls);
}

/* The counters: the first of its class (core PMC0, data fabric DFC0, AMD L3 CPMC0), or for an Intel
   uncore box class (MBOX, CBOX) counter 0 of every box the run summed, as LIKWID's own MEM groups
   list MBOX0C0..MBOX7C0; of no more boxes than LIKWID defines (units, where the config gives them: Linux
   numbers 12 memory-controller boxes on an Ice Lake server, LIKWID 8, and names no MBOX8C0), which
   cover the same channels. Writes the EVENTSET lines and the sum for the formulas; returns the counters. */
static unsigned counters(FILE *f, const struct out_metric *m, const char *cls, unsigned units, const char *ev,
			 char *sum, size_t len)
{
	size_t n = strlen(cls), off = 0;
	unsigned boxes = n >= 3 && !strcmp(cls + n - 3, "BOX") ? boxes_summed(m) : 0;

	if (units && boxes > units)
		boxes = units;

	if (!boxes) {
		snprintf(sum, len, "%s0", cls);
		fprintf(f, "%s%s  %s\n", sum, counter_option(m, cls), ev);
		return 1;
	}
	off += (size_t)snprintf(sum, len, boxes > 1 ? "(" : "");
	for (unsigned i = 0; i < boxes && off < len; i++) {
		fprintf(f, "%s%uC0  %s\n", cls, i, ev);
		off += (size_t)snprintf(sum + off, len - off, "%s%s%uC0", i ? "+" : "", cls, i);
	}
	if (boxes > 1 && off < len)
		snprintf(sum + off, len - off, ")");
	return boxes;
}

void out_likwid_group_file(const char *metric, char *name, size_t len)
{
	snprintf(name, len, "%s.txt", metric);
	for (char *c = name; *c && *c != '.'; c++)
		*c = (char)toupper((unsigned char)*c);
}

int out_export_likwid_group(FILE *f, const struct out_metric *m)
{
	char ev[256], scale[32], formula[256], ctr[1024];
	const char *why, *cls = "PMC";
	unsigned boxes, units;
	/* LIKWID evaluates a metric per hardware thread: a core counter's 100 % is what one core reached, where
	   the higher all-core rate (the threads' counts summed) put a core at its peak at 1/N of it, and without
	   a one-core rate there is none to give. An uncore counter is read on one thread of the unit it counts
	   (a data-fabric or Intel box counter per socket, an AMD L3 counter, CPMC, per L3: LIKWID's socket and
	   sharedl3 locks, perfmon_zen3.h and perfmon_perfevent.h), its reference the highest rate measured. */
	int per_thread = !strcmp(m->scope, "thread");
	double peak = per_thread ? m->peak_rate_core : m->peak_rate;

	if (!out_likwid_name(m, ev, sizeof ev, &cls, &units, &why))
		return -1;
	out_decimal(scale, sizeof scale, m->scale);
	if (m->bytes > 0)
		snprintf(formula, sizeof formula, "%s/%s*%.0f/time",
			 m->divisor == 1e9 ? "1.0E-09" : "1.0E-06", scale, m->bytes);
	else
		snprintf(formula, sizeof formula, "1.0E-06/%s/time", scale);
	fprintf(f, "SHORT %s " OUT_LIKWID_MARK "\n\nEVENTSET\n", m->what);
	boxes = counters(f, m, cls, units, ev, ctr, sizeof ctr);
	fputc('\n', f);
	fprintf(f, "METRICS\nRuntime (RDTSC) [s]  time\n%s [%s]  %s*%s\n", m->name, m->unit, ctr, formula);
	if (peak > 0)
		fprintf(f, "%s of peak [%%]  100*%s/time/%.0f\n", m->name, ctr, peak);
	fprintf(f, "\nLONG\nFormulas:\n%s [%s] = %s%s%s*%s\n", m->name, m->unit, boxes > 1 ? "SUM(" : "", ev,
		boxes > 1 ? ")" : "", formula);
	if (peak > 0)
		fprintf(f, "%s of peak [%%] = 100*%s%s%s/time/%.0f (the highest rate %s, %s)\n", m->name,
			boxes > 1 ? "SUM(" : "", ev, boxes > 1 ? ")" : "", peak,
			per_thread ? "one core reached: LIKWID evaluates it per hardware thread" : "measured",
			per_thread ? m->peak_where_core : m->peak_where);
	fprintf(f, "-\n%s.\n%s.\n", m->what, m->evidence);
	if (per_thread && !(peak > 0) && m->peak_rate > 0)
		fprintf(f,
			"No of-peak metric: peaks.csv has no one-core rate of %s, the 100 %% of a "
			"metric LIKWID evaluates per hardware thread; its highest rate (%.0f/s, %s) may be "
			"all cores', at which a core at its own peak would read a fraction of 100 %%.\n",
			m->event, m->peak_rate, m->peak_where);
	core_level_note(f, m, cls);
	if (boxes > 1 && boxes_summed(m) > boxes)
		fprintf(f,
			"pmucheck summed Linux's %u %s boxes; LIKWID defines %u on this architecture, which "
			"this group sums.\n",
			boxes_summed(m), cls, boxes);
	return ferror(f) ? -1 : 0;
}
