/* Fuzz harness: the text of `getconf -a` (info_parse_getconf). */
#include "config.h"

#include "fuzz.h"
#include "info/info.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct info_source s;
	mt_error e;
	char *text = fuzz_text(data, size);
	if (text && info_parse_getconf(text, &s, &e) == 0) {
		char name[32];
		for (int i = 0; i < s.nlevels; i++)
			info_level_name(&s.lv[i], name, sizeof name);
	}
	free(text);
	return 0;
}
