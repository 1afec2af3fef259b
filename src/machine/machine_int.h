/* Private to the machine files (src/machine/machine*.c). */
#ifndef MEMTOP_MACHINE_INT_H
#define MEMTOP_MACHINE_INT_H

#include "machine.h"

/* m->lv from m->info and m->topo: each level's largest claim, its credible
 * size and doubt, and whether one cache of it serves several cores. */
void machine_levels(struct machine *m);

#endif
