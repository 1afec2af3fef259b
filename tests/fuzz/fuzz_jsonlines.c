/* Fuzz harness: the JSON-lines reader (core/jsonlines), a file of many
 * hosts' results as pdsh, clush and parallel --tag collect them: every
 * entry it keeps is an object with a printable name. */
#include "config.h"

#include "fuzz.h"
#include "core/jsonlines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jsonl_set set = { NULL, 0, 0 };
	char path[64];
	mt_error e;
	int fd = fuzz_file(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	if (jsonl_read(path, NULL, 200, &set, &e) > 0)
		for (size_t i = 0; i < set.n; i++)
			if (!cJSON_IsObject(set.e[i].root) || strlen(set.e[i].name) >= JSONL_NAME_MAX)
				abort();
	jsonl_free(&set);
	close(fd);
	return 0;
}
