/* machine_json.c — see machine_json.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_file.h"
#include "machine_json.h"

int machine_json_load(const char *path, json_t **root, struct err *e)
{
	return json_file_load(path, JSON_FILE_FORMAT | JSON_FILE_RESULTS, root, e);
}

int machine_json_size_ok(double bytes)
{
	return bytes >= 64 && bytes <= 0x1p50 && bytes == floor(bytes);
}

int machine_json_levels_measured(const char *path, const json_t *levels, uint64_t *out, int n, struct err *e)
{
	const json_t *measured = json_object_get(levels, "measured");

	memset(out, 0, (size_t)n * sizeof *out);
	if (measured && !json_is_object(measured))
		return err_set(e, E_USAGE, "%s: 'levels.measured' is not an object", path);
	for (int l = 0; l < n; l++) {
		char key[16];
		const json_t *v;

		snprintf(key, sizeof key, "L%d", l + 1);
		v = json_object_get(measured, key);
		if (v && (!json_is_integer(v) || !machine_json_size_ok((double)json_integer_value(v))))
			return err_set(e, E_USAGE, "%s: 'levels.measured.%s' is not a size in bytes", path,
				       key);
		out[l] = v ? (uint64_t)json_integer_value(v) : 0;
	}
	return 0;
}
