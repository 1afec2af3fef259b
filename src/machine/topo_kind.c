/* topo_kind: a topology file (`memtop topo --json`) as a result kind
 * (run/result_kind.h), so that `memtop view topo.json` opens it in the
 * Topology tab: read strictly (topo_from_json) and kept as a run header
 * whose topology and conditions are the file's. memtop reads it, never
 * writes it through the kind (memtop topo does). */
#include "config.h"

#include "machine.h"
#include "base/i18n.h"
#include "base/jsonio.h"
#include "run/result_kind.h"

#include <stdlib.h>
#include <string.h>

/* A topology's shape: memtop topo --json's keys (with or without the CPU
 * places of later memtops: a file without them is then refused in words). */
static int topo_is(const cJSON *root)
{
	static const char *const keys[] = { "packages", "numa_nodes", "l3_groups", "core_kinds",
					    "smt_siblings" };
	for (size_t i = 0; i < MT_ARRAY_LEN(keys); i++)
		if (!cJSON_GetObjectItemCaseSensitive(root, keys[i]))
			return 0;
	return 1;
}

static void *topo_load_file(const cJSON *root, const char *path, mt_error *e)
{
	struct run_header *h;
	struct topo *t = NULL;
	cJSON *bare;
	if (topo_from_json(root, path, &t, e) < 0)
		return NULL;
	h = calloc(1, sizeof *h);
	bare = cJSON_Duplicate(root, 1);
	if (!h || !bare) {
		free(h);
		cJSON_Delete(bare);
		topo_free(t);
		mt_fail(e, _("out of memory"));
		return NULL;
	}
	/* the topology as a result carries it: without the conditions beside it */
	cJSON_DeleteItemFromObjectCaseSensitive(bare, "conditions");
	h->topology = run_topology_intern(bare);
	cJSON_Delete(bare);
	mt_conditions_from_json(cJSON_GetObjectItemCaseSensitive(root, "conditions"), &h->cond);
	mt_strlcpy(h->cpu, t->about.cpu_model, sizeof h->cpu);
	mt_strlcpy(h->hardware, t->source[0] ? t->source : path, sizeof h->hardware);
	topo_free(t);
	return h;
}

const struct result_kind kind_topo = {
	.name = "topo",
	.what = "topology",
	.tab = "Topology",
	.is = topo_is,
	.load = topo_load_file,
	.free = free,
};
