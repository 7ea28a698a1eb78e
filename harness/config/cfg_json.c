/* cfg_json.c — a config event's hypothesis as machine.json records it (docs/results-format.md), so the
 * analysis, which reads only the results directory, can set each verdict beside what the config expected. */
#include "cfg_int.h"

/* The single-bit words of a table that bits holds ("all" and "both" are spelled out). */
static json_t *words_json(const struct cfg_word *table, unsigned bits)
{
	json_t *arr = json_array();

	for (const struct cfg_word *w = table; w->word; w++)
		if ((w->bits & (w->bits - 1)) == 0 && (bits & w->bits))
			json_array_append_new(arr, json_string(w->word));
	return arr;
}

json_t *cfg_event_hypothesis_json(const struct cfg_event *ev)
{
	return json_pack("{s:s, s:s, s:f, s:o, s:o, s:o, s:s, s:s}", "name", ev->name, "quantity",
			 cfg_quantity_name(ev->quantity), "scale", ev->scale, "levels",
			 words_json(cfg_level_words, ev->levels), "prefetch",
			 words_json(cfg_prefetch_words, ev->prefetch), "placement",
			 words_json(cfg_placement_words, ev->placement), "scope",
			 ev->scope == CFG_SCOPE_SOCKET ? "socket" : "core", "note", ev->note ? ev->note : "");
}
