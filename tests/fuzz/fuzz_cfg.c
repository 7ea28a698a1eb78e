/* fuzz_cfg — libFuzzer target for the config loader: any byte string must give 0, or E_USAGE with a
 * message that starts "file:line: ", never a crash, leak or undefined behaviour (built with ASan and
 * UBSan by mk/fuzz.mk).
 * Seeds: the real configs/ and tests/fuzz/seeds/; tokens: tests/fuzz/cfg.dict. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"

/* In configs/, so that reference = reference/x.csv in an input can resolve. */
#define NAME "configs/fuzz.ini"

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
		int rc;

		memset(e.msg, 'x', sizeof e.msg); /* an error that sets no message shows */
		rc = cfg_load_stream(f, NAME, &c, &e);
		if (rc == 0)
			cfg_free(&c);
		else if (rc != E_USAGE || !memchr(e.msg, '\0', sizeof e.msg) ||
			 strncmp(e.msg, NAME ":", strlen(NAME ":")) ||
			 !isdigit((unsigned char)e.msg[strlen(NAME ":")]))
			abort();
		fclose(f);
	}
	free(copy);
	return 0;
}
