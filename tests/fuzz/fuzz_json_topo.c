/* Fuzz harness: a topology JSON (memtop topo --json, a result's
 * "topology") read back strictly, then asked what the Topology tab and the
 * CPU lists ask of it (places in words, relations, the summary, the JSON
 * again). */
#include "config.h"

#include "fuzz.h"
#include "os/topo.h"

static void use(const cJSON *root, const char *path)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "topology");
	struct topo *t = NULL;
	mt_error e;
	char buf[1024];
	if (topo_from_json(o ? o : root, path, &t, &e) < 0)
		return;
	(void)topo_summary(t, buf, sizeof buf);
	for (int i = 0; i < t->ncpus && i < 64; i++) {
		(void)topo_place_text(t, t->cpus[i].os, buf, sizeof buf);
		(void)topo_relation(t, t->cpus[0].os, t->cpus[i].os);
	}
	cJSON_Delete(topo_to_json(t));
	topo_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_json(data, size, use);
}
