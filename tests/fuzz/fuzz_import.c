/* Fuzz harness: the importers (memtop import: lmbench's lat_mem_rd,
 * tinymembench, sbc-bench's ramlat, CS:APP's mountain, a plain mountain
 * table in the unit it states or MB/s), each parser on the
 * same text, the format detection, and the level and cliff finders on what
 * they made. */
#include "config.h"

#include "fuzz.h"
#include "import/import.h"
#include "latency/latency.h"
#include "mountain/cliffs.h"

static void use_latency(struct latency_result *r)
{
	struct latency_levels lv;
	if (!r)
		return;
	latency_detect(r, &lv);
	cJSON_Delete(latency_to_json(r));
	latency_result_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct latency_result *r = NULL;
	struct mountain *m = NULL;
	struct cores_result *c = NULL;
	mt_error e;
	if (!text)
		return 0;
	import_detect(text);
	if (import_lmbench(text, "fuzz", size & 1, &r, &e) == 0)
		use_latency(r);
	r = NULL;
	if (import_tinymembench(text, "fuzz", &r, &e) == 0)
		use_latency(r);
	r = NULL;
	if (import_ramlat(text, "fuzz", &r, &e) == 0)
		use_latency(r);
	if (import_csapp(text, "fuzz", &m, &e) == 0 && m) {
		struct detection d;
		cliffs_detect(m, 1.5, &d);
		mountain_free(m);
	}
	m = NULL;
	if (import_table(text, "fuzz", size & 2 ? "MB/s" : NULL, &m, &e) == 0 && m) {
		struct detection d;
		cliffs_detect(m, 1.5, &d);
		mountain_free(m);
	}
	import_c2c_detect(text);
	if (import_c2c(text, "fuzz", &c, &e) == 0 && c) {
		cJSON_Delete(cores_result_to_json(c));
		cores_result_free(c);
		free(c);
	}
	free(text);
	return 0;
}
