/* Fuzz harness: the text of `getconf -a` (info_parse_getconf). */
#include "config.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_info_text(data, size, info_parse_getconf);
}
