/* Fuzz harness: the latency history (memtop's state of the last latency
 * runs on this machine) read, each key's runs held against each other, and
 * a run of it written out again. */
#include "config.h"

#include "fuzz.h"
#include "latency/latency_history.h"

static struct latency_history h;

static void use(const cJSON *root, const char *path)
{
	mt_error e;
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(root, "runs"), *it;
	char buf[400];
	if (!cJSON_IsArray(runs))
		runs = NULL;
	cJSON_ArrayForEach(it, runs) {
		const cJSON *k = cJSON_GetObjectItemCaseSensitive(it, "key");
		if (!cJSON_IsString(k) || latency_history_from_json(root, path, k->valuestring, &h, &e) < 0)
			continue;
		for (size_t i = 0; i + 1 < h.n; i++)
			(void)latency_history_differs(&h.run[i + 1], &h.run[i], buf, sizeof buf);
		if (h.n)
			(void)latency_history_conditions(&h.run[0], buf, sizeof buf);
	}
	(void)latency_history_from_json(root, path, "", &h, &e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_json(data, size, use);
}
