/* out_events.c — the validated event table: events.csv (programs), events.json (tools),
 * events.md (people, in the layout of the papers' tables). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fit.h"
#include "hypothesis.h"
#include "out.h"
#include "partial.h"
#include "thresholds.h"

/* printf of a finite number, or "" (CSV/Markdown) for NAN. */
static const char *num(char *buf, size_t len, const char *fmt, double x)
{
	if (isnan(x) || isinf(x))
		buf[0] = '\0';
	else
		snprintf(buf, len, fmt, x);
	return buf;
}

/* A verdict with figures: not for an event not measured, nor for a box of a summed event. */
static int judged(const struct verdict *v)
{
	return v->cls != VC_NOT_MEASURED && v->cls != VC_BOX;
}

/* A figure of the verdict, or NAN (an empty field) where it has none: an event not measured, or a box,
   has no error, R^2 or rate to give, and a 0 there would read as a perfect or an idle one (events.json
   leaves them out). */
static double figure(const struct verdict *v, double x)
{
	return judged(v) ? x : NAN;
}

/* The summed row a box row belongs to, "" for any other. */
static const char *box_of(const struct agg *a, const struct agg_event *ev)
{
	return ev->box_of >= 0 ? a->events[ev->box_of].name : "";
}

static void scale_text(const struct verdict *v, char *buf, size_t len)
{
	if (v->scale > 0)
		fit_format_scale(v->scale, buf, len);
	else
		buf[0] = '\0';
}

/* Noisy points the verdict left out: none where it used them, fewer than THR_MIN_POINTS being clean
   (noisy_only). */
static unsigned noisy_excluded(const struct verdict *v)
{
	return v->noisy_only ? 0 : v->noisy_points;
}

static void excluded_text(const struct verdict *v, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (v->noisy_only)
		n += (size_t)snprintf(buf, len, "noisy points used, fewer than %d being clean; ",
				      THR_MIN_POINTS);
	else if (v->noisy_points)
		n += (size_t)snprintf(buf, len, "%u noisy points excluded; ", v->noisy_points);
	if (v->boundary_points && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%u points near a level boundary excluded; ",
				      v->boundary_points);
	if (n >= 2 && n < len)
		buf[n - 2] = '\0';
}

static void write_csv(FILE *f, const struct agg *a, const struct verdict *vs, const uint32_t *order,
		      const struct hypo_set *hs)
{
	char hyp[200], check[400];
	char b[16][64], levels[96], excl[160];

	fputs("event,backend,scope,domain,box_of,class,quantity,scale,scale_measured,levels,prefetch,error,"
	      "spread,r2,"
	      "slope,intercept,max_events_per_s,points,noisy_points_excluded,boundary_points_excluded,"
	      "decomposition,decomposition_error,decomposition_r2,background_per_s,outliers_excluded,"
	      "rejected_readings,note,hypothesis,config_check\n",
	      f);
	for (uint32_t i = 0; i < a->nevents; i++) {
		const struct verdict *v = &vs[order[i]];
		const struct agg_event *ev = &a->events[v->event];
		char *p;
		verdict_levels_text(v->levels, levels, sizeof levels);
		for (p = levels; (p = strstr(p, ", ")); p++)
			memmove(p, p + 1, strlen(p)), *p = ';';
		scale_text(v, b[0], sizeof b[0]);
		excluded_text(v, excl, sizeof excl);
		out_csv_field(f, ev->name, 0);
		out_csv_field(f, ev->backend, 0);
		out_csv_field(f, ev->scope, 0);
		out_csv_field(f, ev->domain, 0);
		out_csv_field(f, box_of(a, ev), 0);
		out_csv_field(f, verdict_class_names[v->cls], 0);
		out_csv_field(f, v->quantity_text, 0);
		out_csv_field(f, b[0], 0);
		out_csv_field(f, num(b[1], 64, "%.6g", figure(v, v->measured)), 0);
		out_csv_field(f, levels, 0);
		out_csv_field(f, verdict_prefetch_text(v->prefetch), 0);
		out_csv_field(f, num(b[2], 64, "%.6g", figure(v, v->error)), 0);
		out_csv_field(f, num(b[3], 64, "%.6g", figure(v, v->spread)), 0);
		out_csv_field(f, num(b[4], 64, "%.6f", figure(v, v->r2)), 0);
		out_csv_field(f, num(b[5], 64, "%.6g", figure(v, v->slope)), 0);
		out_csv_field(f, num(b[6], 64, "%.6g", figure(v, v->intercept)), 0);
		out_csv_field(f, num(b[7], 64, "%.6g", figure(v, v->max_rate)), 0);
		out_csv_field(f, num(b[8], 64, "%.0f", figure(v, v->points)), 0);
		out_csv_field(f, num(b[9], 64, "%.0f", figure(v, noisy_excluded(v))), 0);
		out_csv_field(f, num(b[10], 64, "%.0f", figure(v, v->boundary_points)), 0);
		out_csv_field(f, v->decomposition, 0);
		out_csv_field(f, num(b[11], 64, "%.6g", figure(v, v->decomp_error)), 0);
		out_csv_field(f, num(b[12], 64, "%.6f", figure(v, v->decomp_r2)), 0);
		out_csv_field(f, num(b[13], 64, "%.6g", figure(v, v->background)), 0);
		out_csv_field(f, num(b[14], 64, "%.0f", figure(v, v->outliers)), 0);
		out_csv_field(f, num(b[15], 64, "%.0f", (double)ev->rejected), 0);
		char note[600];
		snprintf(note, sizeof note, "%s%s%s", v->note, *v->note && *excl ? "; " : "", excl);
		out_csv_field(f, note, 0);
		hypo_text(hypo_find(hs, ev->name), hyp, sizeof hyp);
		hypo_check(a, hs, v, check, sizeof check);
		out_csv_field(f, hyp, 0);
		out_csv_field(f, check, 1);
	}
}

static json_t *jnum(double x)
{
	return isnan(x) || isinf(x) ? json_null() : json_real(x);
}

static json_t *level_array(unsigned levels)
{
	json_t *arr = json_array();

	for (int l = 0; l < LV_COUNT; l++)
		if (levels & (1u << l))
			json_array_append_new(arr, json_string(point_level_name(l)));
	return arr;
}

static json_t *thresholds_json(void)
{
	json_t *t = json_pack("{s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:i,s:f,s:f,s:i,s:f}", "exact_error",
			      THR_EXACT_ERROR, "exact_r2", THR_EXACT_R2, "approx_error", THR_APPROX_ERROR,
			      "approx_r2", THR_APPROX_R2, "related_r2", THR_RELATED_R2, "boundary_below",
			      THR_BOUNDARY_BELOW, "boundary_above", THR_BOUNDARY_ABOVE, "min_points",
			      THR_MIN_POINTS, "noise_counts", THR_NOISE_COUNTS, "nnls_gain", THR_NNLS_GAIN,
			      "nnls_max_terms", THR_NNLS_MAX_TERMS, "nnls_min_coef", THR_NNLS_MIN_COEF);

	json_object_update_new(t,
			       json_pack("{s:f,s:f,s:f,s:i,s:f,s:f,s:f,s:f,s:f}", "outlier_sigmas",
					 THR_OUTLIER_SIGMAS, "outlier_min", THR_OUTLIER_MIN, "outlier_share",
					 THR_OUTLIER_SHARE, "outlier_min_points", THR_OUTLIER_MIN_POINTS,
					 "unexplained_rate", THR_UNEXPLAINED_RATE, "background_max",
					 THR_BACKGROUND_MAX, "tie", THR_TIE, "max_events_per_cycle",
					 THR_MAX_EVENTS_PER_CYCLE, "max_ghz", THR_MAX_GHZ));
	return t;
}

static json_t *event_json(const struct agg *a, const struct verdict *v, const struct hypo_set *hs)
{
	const struct agg_event *ev = &a->events[v->event];
	char hyp[200], check[400];
	enum hypo_agreement agrees = hypo_check(a, hs, v, check, sizeof check);
	json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "event", ev->name, "backend", ev->backend,
			      "encoding", ev->encoding, "scope", ev->scope, "domain", ev->domain, "class",
			      verdict_class_names[v->cls]);

	if (ev->box_of >= 0)
		json_object_set_new(o, "box_of", json_string(box_of(a, ev)));
	if (ev->nboxes)
		json_object_set_new(o, "boxes", json_integer(ev->nboxes));

	json_object_set_new(o, "rows",
			    json_pack("{s:I,s:I,s:I,s:I,s:I}", "ok", (json_int_t)ev->rows[RS_OK],
				      "multiplexed", (json_int_t)ev->rows[RS_MULTIPLEXED], "not_measured",
				      (json_int_t)ev->rows[RS_NOT_MEASURED], "failed",
				      (json_int_t)ev->rows[RS_FAILED], "rejected", (json_int_t)ev->rejected));
	json_object_set_new(o, "note", json_string(v->note));
	hypo_text(hypo_find(hs, ev->name), hyp, sizeof hyp);
	json_object_set_new(o, "hypothesis", *hyp ? json_string(hyp) : json_null());
	json_object_set_new(o, "config_agreement", json_string(hypo_agreement_names[agrees]));
	json_object_set_new(o, "config_check", json_string(check));
	if (!judged(v))
		return o;
	json_object_set_new(o, "quantity", json_string(v->quantity_text));
	json_object_set_new(o, "scale", v->scale > 0 ? json_real(v->scale) : json_null());
	json_object_set_new(o, "scale_measured", jnum(v->measured));
	json_object_set_new(o, "levels", level_array(v->levels));
	json_object_set_new(o, "prefetch", json_string(verdict_prefetch_text(v->prefetch)));
	json_object_set_new(o, "error", jnum(v->error));
	json_object_set_new(o, "spread", jnum(v->spread));
	json_object_set_new(o, "r2", jnum(v->r2));
	json_object_set_new(o, "slope", jnum(v->slope));
	json_object_set_new(o, "intercept", jnum(v->intercept));
	json_object_set_new(o, "background_per_s", jnum(v->background));
	json_object_set_new(o, "outliers_excluded", json_integer(v->outliers));
	json_object_set_new(o, "max_events_per_s", jnum(v->max_rate));
	json_object_set_new(o, "points", json_integer(v->points));
	json_object_set_new(o, "noisy_points_excluded", json_integer(noisy_excluded(v)));
	json_object_set_new(o, "noisy_only", json_boolean(v->noisy_only));
	json_object_set_new(o, "boundary_points_excluded", json_integer(v->boundary_points));
	json_object_set_new(o, "decomposition",
			    json_pack("{s:s,s:o,s:o}", "terms", v->decomposition, "error",
				      jnum(v->decomp_error), "r2", jnum(v->decomp_r2)));
	return o;
}

static int write_json(FILE *f, const struct agg *a, const struct verdict *vs, const uint32_t *order,
		      const struct hypo_set *hs)
{
	json_t *root = json_pack("{s:i,s:s,s:s,s:b,s:s,s:o}", "format", 1, "host", a->m.host, "cpu", a->m.cpu,
				 "hardware_counters", a->m.hardware == 1, "counters_reason",
				 a->m.counters_reason, "thresholds", thresholds_json());
	json_t *arr = json_array();
	int rc;

	for (uint32_t i = 0; i < a->nevents; i++)
		json_array_append_new(arr, event_json(a, &vs[order[i]], hs));
	if (a->raw_bytes >= 0)
		json_object_set_new(root, "raw_csv_bytes", json_integer(a->raw_bytes));
	json_object_set_new(root, "events", arr);
	rc = json_dumpf(root, f, JSON_INDENT(1) | JSON_REAL_PRECISION(8));
	fputc('\n', f);
	json_decref(root);
	return rc;
}

/* A Markdown cell must not break the table (out_md_text). */
static void md_cell(FILE *f, const char *s)
{
	char buf[1024];

	fprintf(f, "| %s ", out_md_text(s, buf, sizeof buf));
}

static void md_header(FILE *f, const struct agg *a)
{
	fprintf(f, "# Validated events\n\n");
	fprintf(f, "Host %s, %s. %lu raw rows, %u points, %u events.\n", *a->m.host ? a->m.host : "?",
		*a->m.cpu ? a->m.cpu : "unknown CPU", a->rows, a->npoints, a->nevents);
	if (a->partial)
		fprintf(f,
			"\nThe run did not finish (" PARTIAL_NAME
			" is present): these verdicts cover only the points "
			"measured before it stopped.\n");
	if (a->m.hardware == 0)
		fprintf(f,
			"\nHardware counters were not available: %s. Hardware events are *not measured* "
			"(no verdict either way).\n",
			*a->m.counters_reason ? a->m.counters_reason : "no reason recorded");
}

/* Two tables of the same rows, so that each fits a page (a report read at 1280 px): the verdict with
   its figures, then the configuration, the evidence and the notes, whose cells are long text. */
static void write_verdicts_md(FILE *f, const struct agg *a, const struct verdict *vs, const uint32_t *order)
{
	char b[5][64], levels[96];

	fprintf(f, "\n| Event | Verdict | Counts | Scale | Measured | Levels | Prefetch | Error | R^2 |\n");
	fprintf(f, "|---|---|---|---|---|---|---|---|---|\n");
	for (uint32_t i = 0; i < a->nevents; i++) {
		const struct verdict *v = &vs[order[i]];
		int nm = !judged(v);
		verdict_levels_text(v->levels, levels, sizeof levels);
		scale_text(v, b[0], sizeof b[0]);
		md_cell(f, a->events[v->event].name);
		md_cell(f, verdict_class_names[v->cls]);
		md_cell(f, v->quantity_text);
		md_cell(f, b[0]);
		md_cell(f, nm ? "" : num(b[1], 64, "%.4g", v->measured));
		md_cell(f, levels);
		md_cell(f, verdict_prefetch_text(v->prefetch));
		md_cell(f, nm ? "" : num(b[2], 64, "%.2f %%", v->error * 100));
		md_cell(f, nm ? "" : num(b[3], 64, "%.5f", v->r2));
		fputs("|\n", f);
	}
}

static void write_evidence_md(FILE *f, const struct agg *a, const struct verdict *vs, const uint32_t *order,
			      const struct hypo_set *hs)
{
	char hyp[200], check[400], b[3][64], excl[160], note[700];

	fprintf(f, "\nThe configuration's hypothesis, the spread and the notes of the same events:\n");
	fprintf(f,
		"\n| Event | Domain | Configured | Config check | Spread | Max Mevents/s | Points | Notes "
		"|\n");
	fprintf(f, "|---|---|---|---|---|---|---|---|\n");
	for (uint32_t i = 0; i < a->nevents; i++) {
		const struct verdict *v = &vs[order[i]];
		int nm = !judged(v);
		excluded_text(v, excl, sizeof excl);
		snprintf(note, sizeof note, "%s%s%s", v->note, *v->note && *excl ? "; " : "", excl);
		hypo_text(hypo_find(hs, a->events[v->event].name), hyp, sizeof hyp);
		hypo_check(a, hs, v, check, sizeof check);
		md_cell(f, a->events[v->event].name);
		md_cell(f, a->events[v->event].domain);
		md_cell(f, hyp);
		md_cell(f, check);
		md_cell(f, nm ? "" : num(b[0], 64, "%.2f %%", v->spread * 100));
		md_cell(f, nm ? "" : num(b[1], 64, "%.4g", v->max_rate > 0 ? v->max_rate / 1e6 : NAN));
		md_cell(f, nm ? "" : num(b[2], 64, "%.0f", v->points));
		md_cell(f, note[0] == ';' ? note + 2 : note);
		fputs("|\n", f);
	}
}

static void write_md(FILE *f, const struct agg *a, const struct verdict *vs, const uint32_t *order,
		     const struct hypo_set *hs)
{
	md_header(f, a);
	write_verdicts_md(f, a, vs, order);
	write_evidence_md(f, a, vs, order, hs);
	out_thresholds_md(f);
}

int out_events(struct fileset *o, const struct agg *a, const struct verdict *v, const uint32_t *order,
	       struct err *e)
{
	FILE *csv, *json, *md;
	struct hypo_set hs;
	int rc;

	/* the config's hypotheses, which machine.json records beside the events */
	if ((rc = hypo_build(&a->m, &hs, e)))
		return rc;
	if ((rc = fileset_open(o, "events.csv", &csv, e)) ||
	    (rc = fileset_open(o, "events.json", &json, e)) || (rc = fileset_open(o, "events.md", &md, e)))
		goto out;
	write_csv(csv, a, v, order, &hs);
	rc = write_json(json, a, v, order, &hs) ? err_set(e, E_RUNTIME, "events.json: could not write JSON")
						: 0;
	if (!rc)
		write_md(md, a, v, order, &hs);
out:
	hypo_free(&hs);
	return rc;
}
