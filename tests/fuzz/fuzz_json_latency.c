/* Fuzz harness: a latency result file (jsonio_load, latency_from_json),
 * then the level finder and the writer on what was read. */
#include "config.h"

#include "fuzz.h"
#include "base/jsonio.h"
#include "latency/latency.h"

/* The latency reader, then the level finder and the writers on what it
 * read. */
static void use(const cJSON *root, const char *path)
{
	mt_error e;
	struct latency_result *r = latency_from_json(root, path, &e);
	if (r) {
		struct latency_levels lv;
		cJSON *o;
		latency_detect(r, &lv);
		o = cJSON_CreateObject();
		if (o)
			latency_levels_to_json(&lv, o);
		cJSON_Delete(o);
		o = latency_to_json(r);
		cJSON_Delete(o);
		latency_result_free(r);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_json(data, size, use);
}
