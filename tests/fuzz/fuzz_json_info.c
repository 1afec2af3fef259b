/* Fuzz harness: cache information read back (memtop info --from, a
 * result's "caches"): info_from_json, then the comparison, the text and
 * the JSON printers and the lookups on what was read. */
#include "config.h"

#include "fuzz.h"
#include "base/jsonio.h"
#include "info/info.h"

static struct info inf;

/* Reads the caches (a result's "caches", else the whole file) and runs
 * the printers, the lookups and the comparison on them. */
static void use(const cJSON *root, const char *path)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "caches");
	mt_error e;
	if (info_from_json(o ? o : root, &inf, path, &e) == 0) {
		const char *from;
		info_print(fuzz_sink(), &inf);
		cJSON_Delete(info_to_json(&inf));
		for (int level = 1; level <= 4; level++)
			info_best_size(&inf, level, &from);
		info_compare(&inf);
		info_print(fuzz_sink(), &inf);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_json(data, size, use);
}
