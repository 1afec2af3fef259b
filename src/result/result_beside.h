/* result_beside: a result of the same machine lying beside a file, found
 * without being named: memtop cliffs and memtop plot read the latency run
 * that sits in a mountain's folder, of the same machine (its machine id,
 * else its host and CPU), to hold the mountain's levels against it (issue
 * 20 point 14). */
#ifndef MEMTOP_RESULT_BESIDE_H
#define MEMTOP_RESULT_BESIDE_H

#include <stddef.h>

#include "result.h"
#include "run/runhdr.h"

#define RESULT_BESIDE_MAX 256 /* files of the folder looked at */

/* Called on every result of the kind and machine found (the newest among
 * them or not), before the newest is chosen. */
typedef void (*result_beside_fn)(const void *r, void *arg);

/* The newest result of kind want (by its header's date) among the .json
 * files in the folder of file (at most RESULT_BESIDE_MAX entries looked
 * at) of h's machine (run_header_same_machine); each (when not NULL) gets
 * every such result. Files that are not of the kind or do not load are
 * passed over without a word. Returns the result (free it with
 * want->free) with its path in found (len bytes), or NULL when there is
 * none, h names no machine id nor host and CPU, or the folder cannot be
 * read. */
void *result_beside(const char *file, const struct run_header *h, const struct result_kind *want,
		    char *found, size_t len, result_beside_fn each, void *arg);

#endif
