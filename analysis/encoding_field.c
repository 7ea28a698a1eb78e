#include <string.h>

#include "encoding_field.h"

const char *encoding_field(const char *encoding, const char *key)
{
	size_t n = strlen(key);

	for (const char *f = encoding; f; f = strchr(f, ',') ? strchr(f, ',') + 1 : NULL)
		if (!strncmp(f, key, n))
			return f + n;
	return NULL;
}
