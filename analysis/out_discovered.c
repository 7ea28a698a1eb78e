/* out_discovered.c — what a discovery found (pmucheck discover): where the results directory holds
 * candidates.json, the verdicts become
 *
 *   discovered.ini   a config in the configs/ format for this CPU: one [event] per event that tracks a
 *                    single known quantity (exact, approximate, prefetch-blind, over- or undercounting),
 *                    with the hypothesis found (expect, levels, prefetch, scope) and its source; events
 *                    that count a sum, nothing, or were not measured stay as comments, with the reason
 *   discovered.md    the report's "Discovered" section: which events track which quantity, which are
 *                    prefetch-blind, which count nothing, which were not measured and why
 *
 * The config must load with `pmucheck run --config discovered.ini`: names, values and line lengths are
 * kept to what the loader accepts (configs/README.md), and the command reloads it to check.
 */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "fit.h"
#include "json_file.h"
#include "out_discovered.h"

#define INI_LINE_MAX 198 /* configs/README.md: longer lines are refused */

struct cand {
	const char *name, *source, *description, *origin;
	int uncore;
	int planned; /* 0: left out of the run by --time-budget */
};

static void cand_of(json_t *o, struct cand *c)
{
	c->name = json_string_value(json_object_get(o, "name"));
	c->source = json_string_value(json_object_get(o, "source"));
	c->description = json_string_value(json_object_get(o, "description"));
	c->origin = json_string_value(json_object_get(o, "origin"));
	c->uncore = json_is_true(json_object_get(o, "uncore"));
	c->planned = !json_is_false(json_object_get(o, "planned"));
}

/* The candidate an event of raw.csv came from (by spec); NULL for the run's own (fixed) events. */
static json_t *find(json_t *cands, const char *spec)
{
	size_t i;
	json_t *o;

	json_array_foreach(cands, i, o)
	{
		const char *s = json_string_value(json_object_get(o, "spec"));
		if (s && !strcmp(s, spec))
			return o;
	}
	return NULL;
}

/* A config name: letters, digits and _ . : - (cfg_name_ok); anything else becomes '_'. */
static void ini_name(const char *in, char *out, size_t len)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < len; i++)
		out[i] = isalnum((unsigned char)in[i]) || strchr("_.:-", in[i]) ? in[i] : '_';
	out[i] = '\0';
}

/* A value on one INI line: no line breaks, no " ;" (an inline comment to libinih), at most `len`, ASCII
   (a byte past it '?': cut at `len` a UTF-8 character could lose its end, and the loader refuses text
   that is not UTF-8). */
static void ini_value(const char *in, char *out, size_t len)
{
	size_t i;

	for (i = 0; in && in[i] && i + 1 < len; i++)
		out[i] = in[i] == '\n' || in[i] == '\r' || in[i] == ';' ? ','
			: (unsigned char)in[i] >= 0x80                  ? '?'
									: in[i];
	out[i] = '\0';
}

static void levels_words(unsigned levels, char *buf, size_t len)
{
	static const struct {
		int lv;
		const char *w;
	} map[] = {{LV_L1, "L1"}, {LV_L2, "L2"}, {LV_L3, "L3"}, {LV_DRAM, "DRAM"}};
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (levels & (1u << map[i].lv))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", map[i].w);
}

/* A single-quantity hypothesis the config can state. */
static int stateable(const struct verdict *v)
{
	return v->quantity >= 0 && v->scale > 0 && v->cls != VC_UNRELATED && v->cls != VC_NOT_MEASURED;
}

/* Whether the event goes into discovered.ini: a hypothesis it can state, on a spec that fits a line. */
static int written_to_ini(const struct verdict *v, const struct agg_event *ev)
{
	return stateable(v) && strlen(ev->name) <= INI_LINE_MAX - 8;
}

/* Whether a name is already a section of the file (the same alias on two uncore boxes, say). */
static int taken(char (*names)[DISC_INI_NAME], unsigned n, const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

/* The section name: the candidate's, made a config name; one too long for a section, or taken, is cut
   and numbered (the full name stays in the note). */
static void section_name(const char *want, char (*names)[DISC_INI_NAME], unsigned n, char *out)
{
	char base[DISC_INI_NAME];

	ini_name(want, out, DISC_INI_NAME);
	if (strlen(want) < DISC_INI_NAME && !taken(names, n, out))
		return;
	ini_name(want, base, DISC_INI_NAME - 5);
	for (unsigned k = 2; k < 10000; k++) {
		snprintf(out, DISC_INI_NAME, "%s-%u", base, k);
		if (!taken(names, n, out))
			return;
	}
}

static void ini_event(FILE *f, const struct agg_event *ev, const struct verdict *v, const struct cand *c,
		      const char *name)
{
	char levels[64], scale[32], src[INI_LINE_MAX - 8], note[INI_LINE_MAX - 8];
	/* flags, not the bits: PF_ON and PF_OFF are bits 0 and 1, which never compare equal, and every
	   event held both on and off was written "prefetch = on" */
	int on = !!(v->prefetch & (1u << PF_ON)), off = !!(v->prefetch & (1u << PF_OFF));

	snprintf(scale, sizeof scale, "%.6g", v->scale); /* the loader takes decimals, not "1/4" */
	fprintf(f, "\n[event %s]\nspec = %s\nexpect = %s * %s\n", name, ev->name, v->quantity_text, scale);
	levels_words(v->levels, levels, sizeof levels);
	if (*levels)
		fprintf(f, "levels = %s\n", levels);
	/* both, or only uncontrolled points: the loader's default (both) */
	if (on != off)
		fprintf(f, "prefetch = %s\n", on ? "on" : "off");
	if (c->uncore || !strcmp(ev->scope, "socket"))
		fprintf(f, "scope = socket\n");
	ini_value(c->source, src, sizeof src);
	if (*src)
		fprintf(f, "source = %s\n", src);
	snprintf(note, sizeof note, "%s%s%s: error %.1f %%, R^2 %.4f over %u points%s%s",
		 strcmp(name, c->name ? c->name : name) ? c->name : "",
		 strcmp(name, c->name ? c->name : name) ? ", " : "", verdict_class_names[v->cls],
		 100 * v->error, v->r2, v->points, c->description && *c->description ? ". " : "",
		 c->description ? c->description : "");
	ini_value(note, note, sizeof note);
	fprintf(f, "note = %s\n", note);
}

static void ini_header(FILE *f, const struct machine *m, const char *dir)
{
	/* a vendor with its family:model, or any with any: the loader refuses other pairs, chosen for no CPU */
	int numbered = (!strcmp(m->vendor, "GenuineIntel") || !strcmp(m->vendor, "AuthenticAMD")) &&
		m->family >= 0;
	char title[INI_LINE_MAX - 16], from[INI_LINE_MAX - 8];
	size_t dl = strlen(dir);

	ini_value(*m->cpu ? m->cpu : "this CPU", title, sizeof title);
	/* on a line of its own, its end where it is longer than a line holds: beside the sentence, a results
	   path of 115 characters made a line the loader refuses, and the config did not load */
	if (dl + 1 < sizeof from) {
		ini_value(dir, from, sizeof from);
	} else {
		memcpy(from, "...", 3);
		ini_value(dir + dl - (sizeof from - 4), from + 3, sizeof from - 3);
	}
	fprintf(f,
		"; Discovered by pmucheck discover from\n;   %s\n; Every [event] held the hypothesis it "
		"states there; events that did not are comments at\n; the end, with the reason. Format: "
		"configs/README.md. Use: pmucheck run --config discovered.ini\n\n"
		"[arch]\nname = discovered\ntitle = %s (discovered)\nvendor = %s\n",
		from, title, numbered ? m->vendor : "any");
	if (numbered)
		fprintf(f, "match = 0x%x:0x%x\n", (unsigned)m->family, (unsigned)m->model);
	else
		fprintf(f, "match = any\n");
	/* the prefetcher table is chosen by CPUID at run time: "listed" vouches for no bits and leaves it to
	   pmucheck's lists ("none" would forbid the run's off points on a CPU they know: Zen 3, Skylake-SP) */
	fprintf(f, "prefetch = listed\nnote = written by pmucheck discover; the next run checks it again\n");
}

/* One line of the comment block or the Markdown table's class column. */
static const char *why_not(const struct verdict *v, const struct cand *c)
{
	if (!c->planned)
		return "not measured: left out to keep --time-budget";
	if (v->cls == VC_NOT_MEASURED)
		return v->note;
	if (v->cls == VC_UNRELATED)
		return *v->note ? v->note : "no known quantity explains it";
	if (v->quantity < 0)
		return "counts a sum of quantities; a config states one";
	return "";
}

/* One event the config does not state, as a comment under a heading written once. */
static void comment(FILE *f, int *started, const char *event, const char *why)
{
	if (!*started)
		fprintf(f, "\n; Not stated above (event: class or reason):\n");
	*started = 1;
	fprintf(f, "; %.60s: %.120s\n", event ? event : "", why);
}

static void md_row(FILE *f, const struct agg_event *ev, const struct verdict *v, const struct cand *c)
{
	char levels[64], scale[32] = "", name[512], why[512];

	levels_words(v->levels, levels, sizeof levels);
	if (v->scale > 0)
		fit_format_scale(v->scale, scale, sizeof scale);
	fprintf(f, "| `%s` | %s | %s | %s%s%s | %s | %s | %s |\n", out_md_text(ev->name, name, sizeof name),
		c->origin ? c->origin : "run", !c->planned ? "not measured" : verdict_class_names[v->cls],
		v->quantity_text, *scale && *v->quantity_text ? " x " : "", *v->quantity_text ? scale : "",
		levels, verdict_prefetch_text(v->prefetch), out_md_text(why_not(v, c), why, sizeof why));
}

/* The counts of the summary: cls of the events discovered.ini states, and of the others, why not. */
struct disc_counts {
	unsigned written[VC_COUNT]; /* by class, the events discovered.ini states */
	unsigned nwritten, unrelated, not_measured, sums, too_long, boxes, unplanned;
};

/* Where an event went: into the config (its class counted there) or why not. */
static void count(struct disc_counts *n, const struct verdict *v, const struct agg_event *ev)
{
	if (written_to_ini(v, ev)) {
		n->written[v->cls]++;
		n->nwritten++;
	} else if (v->cls == VC_UNRELATED) {
		n->unrelated++;
	} else if (v->cls == VC_NOT_MEASURED) {
		n->not_measured++;
	} else if (v->cls == VC_BOX) {
		n->boxes++;
	} else if (stateable(v)) {
		n->too_long++;
	} else {
		n->sums++;
	}
}

static void md_summary(FILE *f, const struct disc_counts *n, unsigned ncand)
{
	const unsigned *w = n->written;

	fprintf(f,
		"# Discovered\n\n%u candidate events (candidates.json names each one's source). %u track one "
		"known quantity and went into discovered.ini: %u exact, %u approximate, %u prefetch-blind "
		"(hold only with the prefetchers off), %u overcount, %u undercount. %u count nothing the "
		"kernels do; %u hold as a sum no single hypothesis states",
		ncand, n->nwritten, w[VC_EXACT], w[VC_APPROXIMATE], w[VC_PREFETCH_BLIND], w[VC_OVERCOUNTS],
		w[VC_UNDERCOUNTS], n->unrelated, n->sums);
	if (n->too_long)
		fprintf(f, "; %u have a spec longer than a config line", n->too_long);
	if (n->boxes)
		fprintf(f, "; %u are boxes of a wildcard, judged as its sum", n->boxes);
	fprintf(f, "; %u were not measured%s.\n\n", n->not_measured + n->unplanned,
		n->unplanned ? " (some left out by --time-budget)" : "");
	fprintf(f,
		"| event | source | class | quantity | levels | prefetch | why not in the config |\n"
		"|---|---|---|---|---|---|---|\n");
}

int out_discovered_read(const char *dir, json_t **root, struct err *e)
{
	char path[4096];

	snprintf(path, sizeof path, "%s/candidates.json", dir);
	/* no file: not a discovery. A damaged list is said, not taken for no discovery: discovered.ini would
	   vanish without a word. */
	if (json_file_load(path, JSON_FILE_OPTIONAL | JSON_FILE_RESULTS, root, e))
		return E_USAGE;
	if (*root && !json_is_array(json_object_get(*root, "candidates"))) {
		json_decref(*root);
		*root = NULL;
		return err_set(e, E_USAGE, "%s: no \"candidates\" array", path);
	}
	return 0;
}

int out_discovered(struct fileset *o, const char *dir, const json_t *root, const struct agg *a,
		   const struct verdict *v, const uint32_t *order, struct err *e)
{
	char name[DISC_INI_NAME], (*names)[DISC_INI_NAME] = NULL;
	json_t *cands;
	FILE *ini, *md;
	struct disc_counts cnt;
	unsigned written = 0;
	int rc, commented = 0;
	size_t k;
	json_t *co;

	if (!root)
		return 0;
	memset(&cnt, 0, sizeof cnt);
	cands = json_object_get(root, "candidates");
	names = calloc(a->nevents + 1, sizeof *names);
	if (!names) {
		rc = err_set(e, E_RUNTIME, "out of memory");
		goto out;
	}
	if ((rc = fileset_open(o, "discovered.ini", &ini, e)) ||
	    (rc = fileset_open(o, "discovered.md", &md, e)))
		goto out;
	ini_header(ini, &a->m, dir);
	/* pass 0: the events the config states; pass 1: the rest, as comments and table rows */
	for (int pass = 0; pass < 2; pass++)
		for (uint32_t i = 0; i < a->nevents; i++) {
			const struct verdict *vi = &v[order[i]];
			const struct agg_event *ev = &a->events[vi->event];
			json_t *cj = find(cands, ev->name);
			struct cand c = {0};
			if (!cj)
				continue; /* the run's reference events (cycles, instructions) */
			cand_of(cj, &c);
			if (pass == 0) {
				count(&cnt, vi, ev);
				if (!written_to_ini(vi, ev))
					continue;
				section_name(c.name ? c.name : ev->name, names, written, name);
				ini_event(ini, ev, vi, &c, name);
				snprintf(names[written++], sizeof *names, "%s", name);
			} else if (!written_to_ini(vi, ev)) {
				comment(ini, &commented, ev->name,
					!stateable(vi) ? why_not(vi, &c)
						       : "a spec longer than a config line");
			}
		}
	json_array_foreach(cands, k, co)
	{
		if (!json_is_false(json_object_get(co, "planned")))
			continue;
		cnt.unplanned++;
		comment(ini, &commented, json_string_value(json_object_get(co, "spec")),
			"not measured: left out to keep --time-budget");
	}
	md_summary(md, &cnt, (unsigned)json_array_size(cands));
	for (uint32_t i = 0; i < a->nevents; i++) {
		const struct verdict *vi = &v[order[i]];
		json_t *cj = find(cands, a->events[vi->event].name);
		struct cand c = {0};
		if (cj) {
			cand_of(cj, &c);
			md_row(md, &a->events[vi->event], vi, &c);
		}
	}
	json_array_foreach(cands, k, co)
	{
		struct verdict none = {.cls = VC_NOT_MEASURED, .quantity = -1};
		struct agg_event ev = {.name = (char *)json_string_value(json_object_get(co, "spec"))};
		struct cand c;
		cand_of(co, &c);
		if (!c.planned && ev.name)
			md_row(md, &ev, &none, &c);
	}
	fputc('\n', md);
out:
	free(names);
	return rc;
}
