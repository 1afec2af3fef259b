/* experiment: the registry. One line per experiment, in tab order. */
#include "config.h"

#include "experiment.h"

#include <string.h>

static const struct experiment *const registry[] = {
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
