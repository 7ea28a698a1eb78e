/* ctr_spec.c — perf's event syntax, resolved against sysfs exactly as `perf stat -e` does:
 *
 *   pmu/event=0x3c,umask=0x1,inv,cmask=2/   terms from <pmu>/format/<term> ("config:0-7,32-35"): the value's
 *                                            low bits fill the first bit range, the next bits the next one
 *   pmu/config=0x1234,config1=0x5/           raw fields, always allowed
 *   pmu/cas_count_read/                      an alias: <pmu>/events/<alias> holds terms; .scale and .unit
 *   page-faults, task-clock, cycles, ...     the kernel's software and generic hardware events
 *
 * Reading sysfs tells a PMU this machine lacks ("cpu" in a VM without a virtual PMU: the event cannot be
 * counted here, CTR_NOT_MEASURED) from a name that is no PMU anywhere ("nosuchpmu": E_USAGE).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "boxes.h"
#include "ctr_int.h"

/* PMUs Linux has on x86 machines: absent here means "not countable here", not "malformed". */
static const char *const known_pmus[] = {"cpu", "cpu_core", "cpu_atom", "power", "msr"};
static const char *const known_pmu_prefixes[] = {"uncore_", "amd_", "cstate_", "ibs_", "intel_"};
/* Format terms of the x86 core PMUs, to check specs for a core PMU this machine does not expose. */
static const char *const core_terms[] = {"event", "umask",    "edge",   "pc",       "any",
					 "inv",   "cmask",    "in_tx",  "in_tx_cp", "offcore_rsp",
					 "ldlat", "frontend", "config", "config1",  "config2"};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static bool in_list(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, list[i]))
			return true;
	return false;
}

static bool known_pmu(const char *pmu)
{
	if (in_list(pmu, known_pmus, ARRAY_LEN(known_pmus)))
		return true;
	for (size_t i = 0; i < ARRAY_LEN(known_pmu_prefixes); i++)
		if (!strncmp(pmu, known_pmu_prefixes[i], strlen(known_pmu_prefixes[i])))
			return true;
	return false;
}

/* Reads a small sysfs file into buf without the trailing newline; -1 when it cannot. */
static int read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *ctr_dir_names(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	while (f && d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			fprintf(f, "%s%s", ftell(f) ? " " : "", de->d_name);
	if (d)
		closedir(d);
	if (f && fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int parse_value(const char *spec, const char *term, const char *text, uint64_t *v, struct err *e)
{
	unsigned long long x;
	int rc = ctr_syntax_number(spec, term, text, &x, e);

	*v = x;
	return rc;
}

static uint64_t *raw_field(struct ctr_event *ev, const char *name)
{
	if (!strcmp(name, "config"))
		return &ev->perf.config;
	if (!strcmp(name, "config1"))
		return &ev->perf.config1;
	if (!strcmp(name, "config2"))
		return &ev->perf.config2;
	return NULL;
}

/* Places v into the bit ranges a format file describes ("config:0-7,32-35" or "config1:21"). */
static int apply_format(const char *spec, const char *term, const char *format, uint64_t v,
			struct ctr_event *ev, struct err *e)
{
	char field[16];
	const char *p = strchr(format, ':');
	uint64_t *dst, left = v;
	unsigned bits = 0;

	if (!p || (size_t)(p - format) >= sizeof field)
		return err_set(e, E_RUNTIME, "event '%s': cannot read sysfs format '%s' of term '%s'", spec,
			       format, term);
	memcpy(field, format, p - format);
	field[p - format] = '\0';
	dst = raw_field(ev, field);
	if (!dst)
		return err_set(e, E_RUNTIME, "event '%s': term '%s' sets unknown field '%s'", spec, term,
			       field);
	while (*p == ':' || *p == ',') {
		char *end;
		unsigned lo = strtoul(p + 1, &end, 10), hi = lo, w;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (hi < lo || hi > 63)
			return err_set(e, E_RUNTIME, "event '%s': bad sysfs format '%s'", spec, format);
		w = hi - lo + 1;
		uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
		*dst = (*dst & ~(mask << lo)) | ((left & mask) << lo);
		left = w == 64 ? 0 : left >> w;
		bits += w;
		p = end;
	}
	if (left)
		return err_set(e, E_USAGE, "event '%s': value 0x%" PRIx64 " does not fit term '%s' (%u bits)",
			       spec, v, term, bits);
	return 0;
}

static int apply_terms(const char *pmus, const char *pmu, const char *spec, const char *terms, bool in_alias,
		       struct ctr_event *ev, struct err *e);

/* Whether a bare word is an alias of the PMU (sysfs events/ has a file of that name). */
static bool is_alias(const char *pmus, const char *pmu, const char *alias)
{
	char path[512];

	snprintf(path, sizeof path, "%s/%s/events/%s", pmus, pmu, alias);
	return access(path, R_OK) == 0;
}

/* An alias: its terms, and its scale and unit when sysfs gives them. */
static int apply_alias(const char *pmus, const char *pmu, const char *spec, const char *alias,
		       struct ctr_event *ev, struct err *e)
{
	char path[512], terms[CTR_SPEC_MAX], scale[64];

	snprintf(path, sizeof path, "%s/%s/events/%s", pmus, pmu, alias);
	if (read_text(path, terms, sizeof terms))
		return err_set(e, E_RUNTIME, "event '%s': cannot read %s", spec, path);
	snprintf(path, sizeof path, "%s/%s/events/%s.scale", pmus, pmu, alias);
	if (!read_text(path, scale, sizeof scale))
		ev->scale = strtod(scale, NULL);
	snprintf(path, sizeof path, "%s/%s/events/%s.unit", pmus, pmu, alias);
	read_text(path, ev->unit, sizeof ev->unit);
	/* a snapshot (sysfs ABI: the value at the read, a level such as the msr PMU's cpu_thermal_margin)
	   is no count: its R and 2R readings' difference measures nothing */
	snprintf(path, sizeof path, "%s/%s/events/%s.snapshot", pmus, pmu, alias);
	if (!read_text(path, scale, sizeof scale) && atoi(scale) == 1) {
		ev->status = CTR_NOT_MEASURED;
		snprintf(ev->reason, sizeof ev->reason,
			 "a snapshot (%s.snapshot): a level read at an instant, not a count of events",
			 alias);
	}
	return apply_terms(pmus, pmu, spec, terms, true, ev, e);
}

static int apply_term(const char *pmus, const char *pmu, const char *spec, char *term, bool in_alias,
		      struct ctr_event *ev, struct err *e)
{
	char *eq = strchr(term, '='), path[512], format[128], *names;
	uint64_t v = 1, *raw;
	int rc;

	if (eq)
		*eq = '\0';
	if (!*term)
		return err_set(e, E_USAGE, "event '%s': empty term", spec);
	if (eq && (rc = parse_value(spec, term, eq + 1, &v, e)))
		return rc;
	raw = raw_field(ev, term);
	if (raw) {
		*raw = v;
		return 0;
	}
	snprintf(path, sizeof path, "%s/%s/format/%s", pmus, pmu, term);
	if (!read_text(path, format, sizeof format))
		return apply_format(spec, term, format, v, ev, e);
	if (!eq && !in_alias && is_alias(pmus, pmu, term))
		return apply_alias(pmus, pmu, spec, term, ev, e);
	snprintf(path, sizeof path, "%s/%s/format", pmus, pmu);
	names = ctr_dir_names(path);
	rc = err_set(e, E_USAGE, "event '%s': PMU '%s' has no term or event '%s' (terms: %s)", spec, pmu,
		     term, names && *names ? names : "none");
	free(names);
	return rc;
}

static int apply_terms(const char *pmus, const char *pmu, const char *spec, const char *terms, bool in_alias,
		       struct ctr_event *ev, struct err *e)
{
	char buf[CTR_SPEC_MAX], *rest = buf, *t;
	int rc;

	snprintf(buf, sizeof buf, "%s", terms);
	if (!*buf)
		return err_set(e, E_USAGE, "event '%s': no terms between the '/'", spec);
	/* strsep, not strtok: "event=1,,umask=1" has an empty term, which is an error. */
	while ((t = strsep(&rest, ",")))
		if ((rc = apply_term(pmus, pmu, spec, t, in_alias, ev, e)))
			return rc;
	return 0;
}

/* A PMU this machine does not have: check what can be checked without its sysfs directory. */
static int absent_pmu(const char *pmus, const char *pmu, const char *spec, const char *terms,
		      struct ctr_event *ev, struct err *e)
{
	char buf[CTR_SPEC_MAX], *names, *rest = buf, *t;
	bool core = !strncmp(pmu, "cpu", 3);
	int rc;

	if (!known_pmu(pmu)) {
		names = ctr_dir_names(pmus);
		rc = err_set(e, E_USAGE, "event '%s': unknown PMU '%s' (this machine has: %s)", spec, pmu,
			     names ? names : "");
		free(names);
		return rc;
	}
	/* ctr_syntax_parse has checked every term's form and number; without sysfs a bare word may be an
	   alias of that PMU, so only valued terms of a core PMU can be checked by name. */
	snprintf(buf, sizeof buf, "%s", terms);
	while ((t = strsep(&rest, ","))) {
		char *eq = strchr(t, '=');
		if (!eq)
			continue;
		*eq = '\0';
		if (core && !in_list(t, core_terms, ARRAY_LEN(core_terms)))
			return err_set(e, E_USAGE, "event '%s': unknown term '%s' for a core PMU", spec, t);
	}
	names = ctr_dir_names(pmus);
	ev->status = CTR_NOT_MEASURED;
	snprintf(ev->reason, sizeof ev->reason,
		 "no PMU '%s' in %s (this machine exposes: %s); a VM without a virtual PMU, or a "
		 "different CPU",
		 pmu, pmus, names ? names : "");
	free(names);
	return 0;
}

/* The pool of a software event: a clock read as a sibling in another software event's group comes back
   stale (seen here: task-clock under page-faults read 10 ms of a 20 ms interval after its first one,
   then 0, and gave negative R-vs-2R differences); alone it is exact. Named or as the software PMU's raw config alike. */
static void software_pool(const char *spec, struct ctr_event *ev)
{
	if (ctr_perf_sw_clock(ev))
		snprintf(ev->pool, sizeof ev->pool, "software-clock:%s", spec);
	else
		snprintf(ev->pool, sizeof ev->pool, "software");
}

/* Pool, counters, scope and filter conflict of an event of a sysfs PMU, its config fields already set. */
static void pmu_traits(const char *pmus, const char *pmu, const char *spec, struct ctr_event *ev)
{
	static const char *const free_running[] = {"software", "tracepoint", "breakpoint", "msr",
						   "power",    "kprobe",     "uprobe"};
	char path[512], mask[64];
	bool programmed = !in_list(pmu, free_running, ARRAY_LEN(free_running));

	if (ev->perf.type == PERF_TYPE_SOFTWARE)
		software_pool(spec, ev);
	else
		snprintf(ev->pool, sizeof ev->pool, "%s", pmu);
	if (!programmed)
		ev->counters = 0;
	else if (ev->perf.type == PERF_TYPE_RAW || !strncmp(pmu, "cpu", 3))
		ev->counters = ctr_core_counters_free();
	/* libpfm4 reads the types of this machine's sysfs: those of another tree (a copy of another
	   machine's) say nothing of libpfm4's tables */
	else if (!strcmp(pmus, CTR_SYSFS_PMUS))
		ev->counters = ctr_box_counters_of_type(ev->perf.type);
	else
		ev->counters = UNCORE_COUNTERS;
	ev->uses_counter = ev->counters > 0;
	/* The core PMU's own spelling of an event an Intel fixed counter holds (cpu/ref-cycles/ is
	   event=0x00,umask=0x03, config 0x300, as the raw encoding libpfm4 gives): on that counter, as the
	   generic event is (named), or a group holding it and the pool's ref-cycles is planned that the kernel
	   cannot schedule (neither goes on a general counter). PERF_TYPE_RAW: a hybrid CPU's cpu_core has a
	   type of its own, with the same encodings. */
	if (programmed && ev->perf.type != PERF_TYPE_SOFTWARE && !strncmp(pmu, "cpu", 3)) {
		ev->fixed_counter = ctr_on_fixed_counter(PERF_TYPE_RAW, ev->perf.config);
		ev->uses_counter = ev->counters > 0 && !ev->fixed_counter;
	}
	/* Uncore PMUs list the one CPU per socket (or die) that counts for it. */
	snprintf(path, sizeof path, "%s/%s/cpumask", pmus, pmu);
	if (!read_text(path, mask, sizeof mask))
		ev->scope = CTR_SCOPE_SOCKET;
	/* config1/config2 program a register the PMU shares between its counters (Intel offcore
	   response and load latency, uncore box filters): keep two such events apart, by default. Also
	   where CPUID lists no counter (a guest without a virtual PMU): the tag is the PMU's, not the
	   machine's; a free-running PMU has no such register. */
	if (programmed && (ev->perf.config1 || ev->perf.config2))
		snprintf(ev->conflict, sizeof ev->conflict, "%s:filter", pmu);
}

static void encode(struct ctr_event *ev, const char *pmu)
{
	int n = snprintf(ev->encoding, sizeof ev->encoding, "pmu=%s,type=%u,config=0x%" PRIx64, pmu,
			 ev->perf.type, ev->perf.config);

	if (ev->perf.config1)
		n += snprintf(ev->encoding + n, sizeof ev->encoding - n, ",config1=0x%" PRIx64,
			      ev->perf.config1);
	if (ev->perf.config2)
		n += snprintf(ev->encoding + n, sizeof ev->encoding - n, ",config2=0x%" PRIx64,
			      ev->perf.config2);
	n += snprintf(ev->encoding + n, sizeof ev->encoding - n, ",domain=%s", ctr_domain_name(ev));
	/* An alias's .scale and .unit (perf stat prints count x scale in unit) are recorded, not applied:
	   raw.csv keeps what the counter counted, which the analysis compares with the known volumes
	   (a CAS count is 1 per line; scaled to MiB it would be 6.1e-5). The exports state the scale. */
	if (ev->scale != 1.0 && n < (int)sizeof ev->encoding)
		snprintf(ev->encoding + n, sizeof ev->encoding - n, ",scale=%.17g%s%s", ev->scale,
			 *ev->unit ? ",unit=" : "", ev->unit);
}

/* One privilege domain for both backends: user and kernel where this process may count the kernel, else
   user (as PAPI's perf_event component does by default); a :u or :k modifier narrows it. An uncore PMU
   sees no privilege level and rejects any exclude bit (the kernel's uncore drivers). */
static int choose_domain(const char *spec, bool user, bool kernel, struct ctr_event *ev, struct err *e)
{
	ev->perf.exclude_kernel = ev->perf.exclude_user = false;
	if (ev->scope == CTR_SCOPE_SOCKET) {
		if (user || kernel)
			return err_set(
				e, E_USAGE,
				"event '%s': an uncore PMU counts every privilege level; it takes no u "
				"or k modifier",
				spec);
		return 0;
	}
	if (ctr_perf_sw_clock(ev) && (user || kernel))
		return err_set(e, E_USAGE,
			       "event '%s': a software clock counts the task's time at every privilege "
			       "level; it takes no u or k modifier",
			       spec);
	ev->perf.exclude_kernel = (user && !kernel) || (!user && !kernel && !ctr_may_count_kernel());
	ev->perf.exclude_user = kernel && !user;
	return 0;
}

static int parse_sysfs(const char *pmus, const char *spec, struct ctr_event *ev, struct err *e)
{
	struct ctr_syntax syn;
	char path[512], text[32];
	int rc;

	if ((rc = ctr_syntax_parse(spec, true, &syn, e)))
		return rc;
	/* A box wildcard comes here unexpanded where this machine has no box of it (boxes_expand): a
	   config's event for a PMU that is not here, not a malformed name. Elsewhere a wildcard is not
	   perf syntax. */
	if (strchr(syn.pmu, '*')) {
		char box[1][CTR_SPEC_MAX];
		return boxes_expand(spec, pmus, box, 1) ? ctr_syntax_parse(spec, false, &syn, e)
							: absent_pmu(pmus, syn.pmu, spec, syn.terms, ev, e);
	}
	snprintf(path, sizeof path, "%s/%s", pmus, syn.pmu);
	if (!is_dir(path))
		return absent_pmu(pmus, syn.pmu, spec, syn.terms, ev, e);
	snprintf(path, sizeof path, "%s/%s/type", pmus, syn.pmu);
	if (read_text(path, text, sizeof text))
		return err_set(e, E_RUNTIME, "event '%s': cannot read %s", spec, path);
	ev->perf.type = strtoul(text, NULL, 10);
	if ((rc = apply_terms(pmus, syn.pmu, spec, syn.terms, false, ev, e)))
		return rc;
	pmu_traits(pmus, syn.pmu, spec, ev);
	if ((rc = choose_domain(spec, syn.user, syn.kernel, ev, e)))
		return rc;
	encode(ev, syn.pmu);
	return 0;
}

/* The PMU of pmus whose type file holds type, into name; false when none does. */
static bool pmu_of_type(const char *pmus, uint32_t type, char *name, size_t len)
{
	char path[512], text[32];
	struct dirent *d;
	DIR *dir = opendir(pmus);
	bool found = false;

	while (dir && !found && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s/type", pmus, d->d_name);
		if (!read_text(path, text, sizeof text) && strtoul(text, NULL, 10) == type) {
			snprintf(name, len, "%s", d->d_name);
			found = true;
		}
	}
	if (dir)
		closedir(dir);
	return found;
}

bool ctr_perf_from_pfm(const char *pmus, const char *spec, struct ctr_event *ev)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;
	char pmu[CTR_NAME_MAX];
	size_t n;

	memset(&attr, 0, sizeof attr);
	memset(&arg, 0, sizeof arg);
	memset(&ei, 0, sizeof ei);
	memset(&pi, 0, sizeof pi);
	arg.attr = &attr;
	arg.size = sizeof arg;
	ei.size = sizeof ei;
	pi.size = sizeof pi;
	/* libpfm4 takes attr.type from /sys/bus/event_source/devices/<its perf name>/type: it fails
	   where the kernel has no such PMU, and PAPI's component says why then */
	if (pfm_initialize() != PFM_SUCCESS ||
	    pfm_get_os_event_encoding(spec, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg) !=
		    PFM_SUCCESS ||
	    pfm_get_event_info(arg.idx, PFM_OS_NONE, &ei) != PFM_SUCCESS ||
	    pfm_get_pmu_info(ei.pmu, &pi) != PFM_SUCCESS || pi.type != PFM_PMU_TYPE_UNCORE ||
	    !pmu_of_type(pmus, attr.type, pmu, sizeof pmu))
		return false;
	ev->backend = CTR_PERF;
	ev->scope = CTR_SCOPE_THREAD;
	ev->scale = 1.0;
	ev->perf.type = attr.type;
	ev->perf.config = attr.config;
	ev->perf.config1 = attr.config1;
	ev->perf.config2 = attr.config2;
	pmu_traits(pmus, pmu, spec, ev);
	if (ev->uses_counter) /* the box of libpfm4's PMU, not of every one of its type; none where it
				 runs free (amd64_rapl: pmu_traits gave the power PMU 0) */
		ev->counters = ctr_box_counters(pi.name);
	choose_domain(spec, false, false, ev, NULL); /* no modifier: it cannot fail */
	encode(ev, pmu);
	n = strlen(ev->encoding);
	snprintf(ev->encoding + n, sizeof ev->encoding - n, ",via=libpfm4:%s", pi.name);
	return true;
}

static void named(const struct ctr_named_event *n, struct ctr_event *ev)
{
	ev->perf.type = n->type;
	ev->perf.config = n->config;
	choose_domain(n->name, false, false, ev, NULL); /* thread scope: it cannot fail */
	snprintf(ev->encoding, sizeof ev->encoding, "type=%u,config=0x%" PRIx64 ",domain=%s", n->type,
		 n->config, ctr_domain_name(ev));
	if (n->type == PERF_TYPE_SOFTWARE) {
		software_pool(n->name, ev);
		return;
	}
	snprintf(ev->pool, sizeof ev->pool, "cpu");
	ev->counters = ctr_core_counters_free();
	ev->fixed_counter = ctr_on_fixed_counter(n->type, n->config);
	ev->uses_counter = !ev->fixed_counter;
}

int ctr_perf_parse(const char *pmus, const char *spec, struct ctr_event *ev, struct err *e)
{
	const struct ctr_named_event *n;

	if (!*spec) /* the one message for it, also when called without ctr_resolve (the fuzzer does) */
		return err_set(e, E_USAGE, "empty event name");
	ev->backend = CTR_PERF;
	ev->scope = CTR_SCOPE_THREAD;
	ev->scale = 1.0;
	if (strchr(spec, '/'))
		return parse_sysfs(pmus, spec, ev, e);
	if (!(n = ctr_syntax_named(spec)))
		return err_set(e, E_USAGE, "event '%s': not a perf event (PMU/terms/ or a perf name)", spec);
	named(n, ev);
	return 0;
}

bool ctr_perf_syntax(const char *spec)
{
	return strchr(spec, '/') || ctr_syntax_named(spec);
}
