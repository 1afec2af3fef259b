/* experiment: the registry of experiments (experiment.c; their shape is
 * core/experiment.h), one line each, in the order of the tabs. */
#ifndef MEMTOP_CMD_EXPERIMENT_H
#define MEMTOP_CMD_EXPERIMENT_H

#include <stddef.h>

#include "core/experiment.h"

/* The experiment called name, or NULL. */
const struct experiment *experiment_find(const char *name);

/* All experiments, in the order of the tabs; *n gets the count. */
const struct experiment *const *experiment_all(size_t *n);

#endif
