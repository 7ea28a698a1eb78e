/* fuzz_cfg — libFuzzer target for the config loader: any byte string must give 0 or an error
 * message, never a crash, leak or undefined behaviour (built with ASan and UBSan by mk/fuzz.mk).
 * Seeds: the real configs/ and tests/fuzz/seeds/; tokens: tests/fuzz/cfg.dict. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cfg c;
	struct err e;
	char *copy;
	FILE *f;

	if (size == 0) /* fmemopen refuses an empty buffer */
		return 0;
	copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	f = fmemopen(copy, size, "r");
	if (f) {
		if (cfg_load_stream(f, "configs/fuzz.ini", &c, &e) == 0)
			cfg_free(&c);
		else if (!memchr(e.msg, '\0', sizeof e.msg))
			abort(); /* every error must leave a terminated message */
		fclose(f);
	}
	free(copy);
	return 0;
}
