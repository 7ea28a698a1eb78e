/* out_report_hypo.c — the config's hypotheses against the verdicts, in one paragraph of report.md. */
#include <string.h>

#include "hypothesis.h"
#include "out_report_hypo.h"

static const char *agreement(json_t *ev)
{
	const char *s = json_string_value(json_object_get(ev, "config_agreement"));
	return s ? s : hypo_agreement_names[HYPO_NONE]; /* events.json of an older analysis */
}

void out_report_config_checks(FILE *f, json_t *evs)
{
	unsigned n[HYPO_COUNT] = {0};
	json_t *ev;
	size_t i;

	json_array_foreach(evs, i, ev) for (int k = 0; k < HYPO_COUNT; k++)
		n[k] += !strcmp(agreement(ev), hypo_agreement_names[k]);
	if (n[HYPO_NONE] == json_array_size(evs))
		return;
	fprintf(f,
		"Against the config's hypotheses (configs/README.md): %u as configured, %u contradict the "
		"config, "
		"%u not compared, %u without one.\n",
		n[HYPO_AS_CONFIGURED], n[HYPO_CONTRADICTS], n[HYPO_NOT_COMPARED], n[HYPO_NONE]);
	json_array_foreach(evs, i, ev) if (!strcmp(agreement(ev), hypo_agreement_names[HYPO_CONTRADICTS]))
		fprintf(f, "- **%s** %s\n", json_string_value(json_object_get(ev, "event")),
			json_string_value(json_object_get(ev, "config_check")));
	fputc('\n', f);
}
