/* disc_vendor.c — vendor event files as candidates, for CPUs newer than libpfm4 (docs/discover.md):
 *
 *   Intel perfmon (github.com/intel/perfmon, <cpu>/events/<file>.json): {"Header": {...}, "Events": [...]};
 *       older releases a bare array of the same entries
 *   Linux perf (tools/perf/pmu-events/arch/x86/<cpu>/<file>.json): a bare array
 *
 * Both write every value as a string. The fields read, as the kernel's jevents.py reads them:
 * EventName, EventCode (its first value where it lists two, "0xB7,0xBB"), ExtSel, UMask, CounterMask,
 * Invert, EdgeDetect, AnyThread, MSRIndex + MSRValue (0x1a6/0x1a7 offcore_rsp, 0x3f6 ldlat, 0x3f7
 * frontend), Unit (which PMU: none is the core's), ScaleUnit ("6.103515625E-5MiB"), Counter ("0,1,2,3",
 * or "Fixed counter 1": the run's fixed events already count those), BriefDescription. Entries with
 * MetricName or MetricExpr are metrics, not events, and are skipped.
 *
 * The uncore's extra selection, which an event counts something else without:
 *   UMaskExt  Intel perfmon's umask bits above the first 8 (Ice Lake-SP and later CHA events: TOR_INSERTS
 *             .IA_MISS is "UMask": "0x01", "UMaskExt": "0x00C001FE"); perf's files merge them into UMask
 *             ("0xC001FE01") and keep UMaskExt beside it. Both give umask=0xc001fe01: the uncore_cha
 *             format's umask is config:8-15,32-55 there;
 *   PortMask, FCMask  the IIO boxes' ch_mask= and fc_mask= (jevents.py's terms);
 *   NodeType, RdWrMask, EnAllCores, EnAllSlices, SliceId, ThreadMask  perf's terms type=, rdwrmask=,
 *             enallcores=, enallslices=, sliceid=, threadmask= (jevents.py's event_fields): AMD's UMC
 *             events tell reads from writes by RdWrMask alone (umc_act_cmd.rd and .wr, amdzen4
 *             memory-controller.json), its L3 sampled-latency events need the slice and thread terms;
 *   Filter    perf's files: perf terms ("config1=0x40e33", "filter_opc=0x182"), added to the spec as
 *             jevents.py adds them; Intel perfmon's: a filter register's name ("CHAFilter0[...]") whose
 *             value pmucheck cannot program, so the entry is skipped; "na" or "0": none.
 *
 * Anything else is refused with the file, the entry and the field, and nothing of the file is added.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disc.h"
#include "json_file.h"

#define CORE_COUNTERS_DEFAULT 4 /* x86's fewest general counters (Intel with SMT); AMD Zen has 6 */

struct vctx {
	const char *path;
	const char *format;
	unsigned entry;   /* 1-based, for messages */
	const char *name; /* EventName, for messages */
};

static const char *const string_fields[] = {
	"EventName",        "EventCode",         "ExtSel",      "UMask",      "CounterMask", "Invert",
	"EdgeDetect",       "AnyThread",         "MSRIndex",    "MSRValue",   "Unit",        "ScaleUnit",
	"BriefDescription", "Counter",           "PEBS",        "Deprecated", "EventType",   "Filter",
	"ConfigCode",       "PublicDescription", "UMaskExt",    "PortMask",   "FCMask",      "NodeType",
	"RdWrMask",         "EnAllCores",        "EnAllSlices", "SliceId",    "ThreadMask"};

/* Fields that become a perf term of their own, as jevents.py writes them (its event_fields): written where
   not zero, in this order, after the event select's terms. */
static const char *const term_fields[][2] = {
	{"NodeType", "type"},           {"RdWrMask", "rdwrmask"}, {"EnAllCores", "enallcores"},
	{"EnAllSlices", "enallslices"}, {"SliceId", "sliceid"},   {"ThreadMask", "threadmask"},
};
#define TERM_FIELDS (sizeof term_fields / sizeof term_fields[0])

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_INTEGER:
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	case JSON_NULL:
		return "null";
	default:
		return "a string";
	}
}

static int fail(const struct vctx *x, const char *field, const char *fmt, const char *what, struct err *e)
{
	char msg[256];

	snprintf(msg, sizeof msg, fmt, what);
	return err_set(e, E_USAGE, "vendor file %s: entry %u%s%s%s: %s%s%s", x->path, x->entry,
		       x->name ? " (" : "", x->name ? x->name : "", x->name ? ")" : "", field ? field : "",
		       field ? ": " : "", msg);
}

static const char *str(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

/* A number field: "0x24", "1", "0xB7,0xBB" (the first); absent is 0. */
static int number(const struct vctx *x, json_t *o, const char *k, uint64_t *v, struct err *e)
{
	const char *s = str(o, k);
	char *end;

	*v = 0;
	if (!s || !*s)
		return 0;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s || (*end && *end != ','))
		return fail(x, k, "'%s' is not a number", s, e);
	return 0;
}

/* "0,1,2,3" or "0-3" as a mask; "Fixed counter N" gives *fixed. */
static int counters(const struct vctx *x, const char *s, uint32_t *mask, bool *fixed, struct err *e)
{
	const char *p = s;

	*mask = 0;
	*fixed = s && !strncasecmp(s, "Fixed", 5);
	if (!s || *fixed)
		return 0;
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;
		if (end == p)
			return fail(x, "Counter", "'%s' is not a list of counter numbers", s, e);
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		for (unsigned long c = lo; c <= hi && c < 32; c++)
			*mask |= 1u << c;
		p = end;
		while (*p == ',' || isspace((unsigned char)*p))
			p++;
	}
	return 0;
}

/* perf's PMU for a Unit (jevents.py's unit_to_pmu); an uncore unit of several boxes gets the box
   wildcard ("uncore_imc_*"): the run counts every box and judges their sum (boxes.h). */
static void unit_pmu(const char *unit, char *pmu, size_t len, bool *uncore)
{
	static const char *const table[][2] = {
		{"CBO", "uncore_cbox"},   {"QPI LL", "uncore_qpi"}, {"SBO", "uncore_sbox"},
		{"iMPH-U", "uncore_arb"}, {"UPI LL", "uncore_upi"}, {"L3PMC", "amd_l3"},
		{"DFPMC", "amd_df"},      {"UMCPMC", "amd_umc_*"},  {"cpu_core", "cpu_core"},
		{"cpu_atom", "cpu_atom"},
	};
	size_t n;

	*uncore = unit && strcmp(unit, "cpu_core") && strcmp(unit, "cpu_atom") && strcmp(unit, "cpu");
	if (!unit || !*unit || !strcmp(unit, "cpu")) {
		snprintf(pmu, len, "cpu");
		*uncore = false;
		return;
	}
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (!strcasecmp(unit, table[i][0])) {
			snprintf(pmu, len, "%s%s", table[i][1],
				 !strncmp(table[i][1], "uncore_", 7) ? "_*" : "");
			return;
		}
	n = (size_t)snprintf(pmu, len, "uncore_");
	for (const char *p = unit; *p && n + 3 < len; p++)
		pmu[n++] = isspace((unsigned char)*p) ? '_' : (char)tolower((unsigned char)*p);
	snprintf(pmu + n, len - n, "_*");
}

/* The perf term an MSRIndex sets (jevents.py's msrmap); NULL for one pmucheck cannot program. */
static const char *msr_term(uint64_t index)
{
	switch (index) {
	case 0x1a6:
	case 0x1a7:
		return "offcore_rsp";
	case 0x3f6:
		return "ldlat";
	case 0x3f7:
		return "frontend";
	default:
		return NULL;
	}
}

static int check_types(const struct vctx *x, json_t *o, struct err *e)
{
	for (size_t i = 0; i < sizeof string_fields / sizeof string_fields[0]; i++) {
		json_t *v = json_object_get(o, string_fields[i]);
		if (v && !json_is_string(v))
			return fail(x, string_fields[i],
				    "%s, not a string (both formats write strings such as \"0x24\")",
				    type_name(v), e);
	}
	return 0;
}

struct vfields {
	uint64_t code, extsel, umask, umask_ext, cmask, inv, edge, any, msr_index, msr_value, port_mask,
		fc_mask;
	const char *filter;          /* perf terms ("config1=0x40e33"), NULL for none */
	uint64_t terms[TERM_FIELDS]; /* term_fields' values */
};

static int read_numbers(const struct vctx *x, json_t *o, bool uncore, struct vfields *f, struct err *e)
{
	int rc;

	if ((rc = number(x, o, "EventCode", &f->code, e)) || (rc = number(x, o, "ExtSel", &f->extsel, e)) ||
	    (rc = number(x, o, "UMask", &f->umask, e)) || (rc = number(x, o, "CounterMask", &f->cmask, e)) ||
	    (rc = number(x, o, "Invert", &f->inv, e)) || (rc = number(x, o, "EdgeDetect", &f->edge, e)) ||
	    (rc = number(x, o, "AnyThread", &f->any, e)) ||
	    (rc = number(x, o, "MSRIndex", &f->msr_index, e)) ||
	    (rc = number(x, o, "MSRValue", &f->msr_value, e)) ||
	    (rc = number(x, o, "UMaskExt", &f->umask_ext, e)) ||
	    (rc = number(x, o, "PortMask", &f->port_mask, e)) ||
	    (rc = number(x, o, "FCMask", &f->fc_mask, e)))
		return rc;
	for (size_t i = 0; i < TERM_FIELDS; i++)
		if ((rc = number(x, o, term_fields[i][0], &f->terms[i], e)))
			return rc;
	f->code |= f->extsel << 8;
	/* the extension above the 8 bits of the core's umask; perf's files hold it in UMask already */
	if (f->umask_ext > 0xffffffff)
		return fail(x, "UMaskExt", "%s", "out of range", e);
	f->umask |= f->umask_ext << 8;
	if (f->code > 0xfff || f->umask > (uncore ? 0xffffffffffull : 0xff) || f->cmask > 0xff)
		return fail(x, NULL, "%s", "EventCode, UMask or CounterMask out of range", e);
	return 0;
}

/* Whether a Filter value is perf terms: "name=value" items, comma-separated. */
static bool perf_terms(const char *s)
{
	while (*s) {
		size_t name = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_"), value;
		if (!name || s[name] != '=')
			return false;
		s += name + 1;
		value = strspn(s, "0123456789abcdefABCDEFxX");
		if (!value)
			return false;
		s += value;
		if (*s == ',' && s[1])
			s++;
		else if (*s)
			return false;
	}
	return true;
}

/* Appends to the spec; false once it no longer fits (then it stays cut, and the entry is skipped). */
static bool __attribute__((format(printf, 3, 4))) put(struct disc_cand *c, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*n >= sizeof c->spec)
		return false;
	va_start(ap, fmt);
	w = vsnprintf(c->spec + *n, sizeof c->spec - *n, fmt, ap);
	va_end(ap);
	*n += w > 0 ? (size_t)w : 0;
	return *n < sizeof c->spec;
}

/* The spec and the config perf's x86 "cpu" format gives it: event 0-7 and 32-35, umask 8-15, edge 18,
   any 21, inv 23, cmask 24-31 (/sys/bus/event_source/devices/cpu/format on Intel and AMD). False when the
   spec does not fit. */
static bool encode(const struct vfields *f, const char *pmu, struct disc_cand *c)
{
	const char *term = f->msr_index ? msr_term(f->msr_index) : NULL;
	size_t n = 0;
	bool fits = put(c, &n, "%s/event=0x%llx", pmu, (unsigned long long)f->code);

	if (f->umask)
		fits &= put(c, &n, ",umask=0x%llx", (unsigned long long)f->umask);
	if (f->cmask)
		fits &= put(c, &n, ",cmask=0x%llx", (unsigned long long)f->cmask);
	if (f->inv)
		fits &= put(c, &n, ",inv=1");
	if (f->edge)
		fits &= put(c, &n, ",edge=1");
	if (f->any)
		fits &= put(c, &n, ",any=1");
	if (f->port_mask)
		fits &= put(c, &n, ",ch_mask=0x%llx", (unsigned long long)f->port_mask);
	if (f->fc_mask)
		fits &= put(c, &n, ",fc_mask=0x%llx", (unsigned long long)f->fc_mask);
	for (size_t i = 0; i < TERM_FIELDS; i++)
		if (f->terms[i])
			fits &= put(c, &n, ",%s=0x%llx", term_fields[i][1], (unsigned long long)f->terms[i]);
	if (f->filter)
		fits &= put(c, &n, ",%s", f->filter);
	if (term)
		fits &= put(c, &n, ",%s=0x%llx", term, (unsigned long long)f->msr_value);
	fits &= put(c, &n, "/");
	/* the config is the cpu format's layout: a term whose bits only its own PMU's format places (ch_mask,
	   rdwrmask, a filter other than config1) leaves it unknown, not that of another event */
	c->has_config = !f->port_mask && !f->fc_mask &&
		(!f->filter || (!strncmp(f->filter, "config1=", 8) && !strchr(f->filter, ',')));
	for (size_t i = 0; i < TERM_FIELDS; i++)
		c->has_config &= !f->terms[i];
	c->config = (f->code & 0xff) | ((f->code >> 8) & 0xf) << 32 | (f->umask & 0xff) << 8 |
		(f->umask >> 8) << 32 | (f->edge ? 1ull : 0) << 18 | (f->any ? 1ull : 0) << 21 |
		(f->inv ? 1ull : 0) << 23 | f->cmask << 24;
	/* every one of the three is a config1 field of the cpu PMU (Linux arch/x86/events/intel/core.c:
	   offcore_rsp config1:0-63, ldlat config1:0-15, frontend config1:0-23), and each programs a register
	   the counters share (MSR_OFFCORE_RSP_x, MSR_PEBS_LD_LAT_THRESHOLD, MSR_PEBS_FRONTEND): with config1
	   set, the plan keeps two of them out of one group (disc_plan.c), which the kernel could not
	   schedule */
	c->config1 = term ? f->msr_value : 0;
	if (f->filter && !strncmp(f->filter, "config1=", 8))
		c->config1 = strtoull(f->filter + 8, NULL, 0);
	return fits;
}

/* One entry: 1 when it became a candidate, 0 when skipped (a metric, a fixed-counter event, an MSR or a
   filter register pmucheck cannot program, a spec too long), or E_USAGE. */
static int one(struct vctx *x, json_t *o, struct disc_cand *c, struct err *e)
{
	struct vfields f = {0};
	const char *scale;
	uint32_t mask;
	bool fixed;
	int rc;

	x->name = NULL;
	if (!json_is_object(o))
		return fail(x, NULL, "%s, not an object with EventName, EventCode, UMask ...", type_name(o),
			    e);
	x->name = str(o, "EventName");
	if ((rc = check_types(x, o, e)))
		return rc;
	if (json_object_get(o, "MetricName") || json_object_get(o, "MetricExpr"))
		return 0;
	if (!x->name)
		return fail(x, "EventName", "%s", "missing", e);
	if (!str(o, "EventCode"))
		return fail(x, "EventCode", "%s", "missing", e);
	memset(c, 0, sizeof *c);
	unit_pmu(str(o, "Unit"), c->pmu, sizeof c->pmu, &c->uncore);
	if ((rc = read_numbers(x, o, c->uncore, &f, e)) ||
	    (rc = counters(x, str(o, "Counter"), &mask, &fixed, e)))
		return rc;
	if (fixed || (f.msr_index && !msr_term(f.msr_index)))
		return 0;
	if ((f.filter = str(o, "Filter")) &&
	    (!*f.filter || !strcasecmp(f.filter, "na") || !strcmp(f.filter, "0")))
		f.filter = NULL;
	if (f.filter && !perf_terms(f.filter))
		return 0; /* a filter register's name (Intel perfmon): its value cannot be programmed */
	c->counter_mask = mask;
	c->origin = DISC_VENDOR;
	snprintf(c->name, sizeof c->name, "%s", x->name);
	if (!encode(&f, c->pmu, c))
		return 0; /* a spec longer than the counter layer takes */
	snprintf(c->source, sizeof c->source, "vendor %s (%s)", x->path, x->format);
	snprintf(c->desc, sizeof c->desc, "%s", str(o, "BriefDescription") ? str(o, "BriefDescription") : "");
	c->scale = 1;
	if ((scale = str(o, "ScaleUnit"))) {
		char *end;
		c->scale = strtod(scale, &end);
		if (end == scale || !(c->scale > 0))
			return fail(x, "ScaleUnit", "'%s' is not a positive number and a unit", scale, e);
		snprintf(c->unit, sizeof c->unit, "%s", end);
	}
	return 1;
}

/* The counters of c's PMU as far as the file says: the highest counter any event of that PMU may use (an
   uncore unit its own, Skylake-SP's UBOX events "Counter": "0,1" where its CHA's say "0,1,2,3"; a hybrid
   CPU's core PMUs theirs too, Alder Lake's cpu_core events "0,1,2,3,4,5,6,7" where its cpu_atom's say
   "0,1,2,3,4,5", the kernel's tools/perf/pmu-events/arch/x86/alderlake/ JSON). Where no event of it says,
   x86's fewest general counters, or for an uncore unit UNCORE_COUNTERS (AMD's files give no Counter). */
static unsigned pmu_counters(const struct disc_list *l, const struct disc_cand *c)
{
	unsigned n = 0;

	for (unsigned i = 0; i < l->n; i++) {
		const struct disc_cand *o = &l->c[i];
		unsigned highest = o->counter_mask ? 32 - (unsigned)__builtin_clz(o->counter_mask) : 0;
		if (!strcmp(o->pmu, c->pmu) && highest > n)
			n = highest;
	}
	return n ? n : c->uncore ? UNCORE_COUNTERS : CORE_COUNTERS_DEFAULT;
}

static int read_entries(struct vctx *x, json_t *events, struct disc_list *tmp, struct err *e)
{
	size_t n = json_array_size(events);
	int rc = 0;

	if (n > DISC_VENDOR_MAX)
		return err_set(
			e, E_USAGE,
			"vendor file %s: %zu entries, more than the %d any one CPU's event file holds; "
			"give the file of one CPU (and one kind: core or uncore)",
			x->path, n, DISC_VENDOR_MAX);
	for (size_t i = 0; i < n && rc >= 0; i++) {
		struct disc_cand c;
		x->entry = (unsigned)i + 1;
		rc = one(x, json_array_get(events, i), &c, e);
		if (rc == 1)
			rc = disc_add(tmp, &c, e);
		else if (rc == 0)
			tmp->skipped++;
	}
	return rc < 0 ? rc : 0;
}

int disc_vendor(const char *path, struct disc_list *l, struct err *e)
{
	struct vctx x = {.path = path, .format = "perf pmu-events JSON"};
	struct disc_list tmp = {0};
	json_t *root, *events;
	int rc;

	if (json_file_load(path, 0, &root, e))
		return err_wrap(e, E_USAGE, "vendor file");
	events = root;
	if (json_is_object(root)) {
		events = json_object_get(root, "Events");
		x.format = "Intel perfmon JSON";
	}
	if (!json_is_array(events)) {
		rc = err_set(
			e, E_USAGE,
			"vendor file %s: neither an array of events (perf pmu-events) nor an object with an "
			"\"Events\" array (Intel perfmon)",
			path);
		goto out;
	}
	if ((rc = read_entries(&x, events, &tmp, e)))
		goto out;
	/* a file given by name that gives nothing is the wrong file (a CPU's metrics file, an emptied list),
	   not a source that happens to have no event the filters keep */
	if (!tmp.n) {
		rc = err_set(e, E_USAGE,
			     "vendor file %s: no event pmucheck can program among its %zu entries (metrics, "
			     "fixed-counter events, MSRs, filter registers and specs too long for the "
			     "counter layer are skipped): give a CPU's event file, not its metrics",
			     path, json_array_size(events));
		goto out;
	}
	for (unsigned i = 0; i < tmp.n; i++)
		tmp.c[i].counters = pmu_counters(&tmp, &tmp.c[i]);
	for (unsigned i = 0; i < tmp.n && !rc; i++)
		rc = disc_add(l, &tmp.c[i], e);
	l->skipped += tmp.skipped;
out:
	disc_free(&tmp);
	json_decref(root);
	return rc;
}
