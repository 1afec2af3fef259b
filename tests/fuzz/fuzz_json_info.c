/* Fuzz harness: cache information read back (memtop info --from, a
 * result's "caches"): info_from_json, then the comparison, the text and
 * the JSON printers and the lookups on what was read. */
#include "config.h"

#include "fuzz.h"
#include "core/jsonio.h"
#include "info/info.h"

static struct info inf;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	mt_error e;
	cJSON *root;
	int fd = fuzz_file(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	root = jsonio_load(path, &e);
	if (root) {
		const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "caches");
		if (info_from_json(o ? o : root, &inf, path, &e) == 0) {
			const char *from;
			info_print(fuzz_sink(), &inf);
			cJSON_Delete(info_to_json(&inf));
			for (int level = 1; level <= 4; level++)
				info_best_size(&inf, level, &from);
			info_compare(&inf);
			info_print(fuzz_sink(), &inf);
		}
		cJSON_Delete(root);
	}
	close(fd);
	return 0;
}
