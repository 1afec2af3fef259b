/* experiment: the registry. One line per experiment, in tab order; each
 * exp_NAME is declared in its folder's header beside its result kind. */
#include "config.h"

#include "experiment.h"
#include "bandwidth/bandwidth.h"
#include "cores/cores.h"
#include "labs/algae.h"
#include "labs/falseshare.h"
#include "labs/lists.h"
#include "labs/matmul.h"
#include "labs/transpose.h"
#include "latency/latency.h"
#include "mountain/mountain.h"
#include "numa/numa.h"

#include <string.h>

static const struct experiment *const registry[] = {
	&exp_mountain,
	&exp_latency,
	&exp_matmul,
	&exp_falseshare,
	&exp_lists,
	&exp_transpose,
	&exp_algae,
	&exp_bandwidth,
	&exp_cores,
	&exp_numa,
	NULL /* end */
};

const struct experiment *experiment_find(const char *name)
{
	for (size_t i = 0; registry[i]; i++)
		if (strcmp(registry[i]->name, name) == 0)
			return registry[i];
	return NULL;
}

const struct experiment *const *experiment_all(size_t *n)
{
	size_t i = 0;
	while (registry[i])
		i++;
	*n = i;
	return registry;
}
