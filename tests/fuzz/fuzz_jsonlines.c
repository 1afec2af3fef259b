/* Fuzz harness: a file of many hosts' results as pdsh, clush and parallel
 * --tag collect them, read by the JSON-lines reader (base/jsonlines: every
 * entry it keeps is an object with a printable name) and then as a fleet
 * (result/result_set, fleet/fleet: the kinds' loaders, the grouping, the
 * text and the JSON of memtop compare --fleet). */
#include "config.h"

#include "fuzz.h"
#include "base/jsonlines.h"
#include "fleet/fleet.h"
#include "result/result_set.h"

/* The input as a fleet: loaded, grouped, printed and written as JSON. */
static void as_fleet(char *path)
{
	struct result_set s;
	struct fleet f;
	mt_error e;
	if (result_set_load(&s, &path, 1, FLEET_MAX_RESULTS, &e) < 0)
		return;
	if (fleet_build(&f, &s, &e) == 0) {
		fleet_print(fuzz_sink(), &f);
		cJSON_Delete(fleet_to_json(&f));
		fleet_free(&f);
	}
	result_set_free(&s);
}

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
	as_fleet(path);
	close(fd);
	return 0;
}
