/* result: the registry of result kinds, one line per kind (result.h). */
#include "config.h"

#include "result.h"
#include "bandwidth/bandwidth.h"
#include "core/jsonio.h"
#include "cores/cores.h"
#include "labs/falseshare.h"
#include "labs/lists.h"
#include "labs/matmul.h"
#include "labs/transpose.h"
#include "latency/latency.h"
#include "mountain/card.h"
#include "mountain/mountain.h"
#include "numa/numa.h"

#include <string.h>

/* In the tabs' order; the legacy shapes (is()) are tried in this order,
 * so the mountain's "throughput" comes before the latency run's "ns". */
static const struct result_kind *const registry[] = {
	&kind_mountain,
	&kind_latency,
	&kind_matmul,
	&kind_falseshare,
	&kind_lists,
	&kind_transpose,
	&kind_bandwidth,
	&kind_cores,
	&kind_numa,
	&kind_card,
	NULL /* end */
};

const struct result_kind *result_kind_find(const char *name)
{
	for (size_t i = 0; registry[i]; i++)
		if (strcmp(registry[i]->name, name) == 0)
			return registry[i];
	return NULL;
}

const struct result_kind *const *result_kinds(size_t *n)
{
	size_t i = 0;
	while (registry[i])
		i++;
	*n = i;
	return registry;
}

const struct result_kind *result_kind_of(const cJSON *root)
{
	const char *ex = jsonio_experiment(root);
	if (ex)
		return result_kind_find(ex);
	if (!cJSON_IsObject(root))
		return NULL;
	for (size_t i = 0; registry[i]; i++)
		if (registry[i]->is && registry[i]->is(root))
			return registry[i];
	return NULL;
}

const char *result_unknown_why(const cJSON *root, char *buf, size_t len)
{
	char names[200] = "";
	const char *ex = jsonio_experiment(root);
	for (size_t i = 0; registry[i]; i++)
		mt_append(names, sizeof names, "%s%s", i ? ", " : "", registry[i]->name);
	if (ex) {
		char p[64];
		mt_snprintf(buf, len, "a \"%s\" result; memtop reads %s results",
			    mt_printable(p, sizeof p, ex, 0), names);
	} else {
		mt_snprintf(buf, len, "not a memtop result (no \"experiment\" field, and not the "
				      "shape of an older %s result)", names);
	}
	return buf;
}

void result_file_free(struct result_file *f)
{
	if (f->kind && f->r)
		f->kind->free(f->r);
	memset(f, 0, sizeof *f);
}
