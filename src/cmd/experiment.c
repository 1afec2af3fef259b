/* experiment: the registry. One line per experiment, in tab order. */
#include "config.h"

#include "experiment.h"

#include <string.h>

extern const struct experiment exp_mountain;
extern const struct experiment exp_latency;
extern const struct experiment exp_matmul;
extern const struct experiment exp_falseshare;
extern const struct experiment exp_lists;
extern const struct experiment exp_transpose;
extern const struct experiment exp_algae;
extern const struct experiment exp_bandwidth;
extern const struct experiment exp_cores;
extern const struct experiment exp_numa;

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
