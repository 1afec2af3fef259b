/* mountain_json: mountains to and from JSON files. The file carries the
 * seed's keys exactly ({"hardware","date","sizes","strides","throughput"},
 * sizes in bytes, strides in 8-byte words, throughput in MB/s, one row per
 * size) so the seed's own cliff finder and widget read it, plus memtop's
 * own: memtop_version, cpu, kernel, host, build, clock, ghz, diagnostics,
 * cpu_used, spread, canary and typical (same shape as throughput), caches (the
 * `memtop info` result), elapsed_s. Unknown fields are ignored on read. */
#ifndef MEMTOP_MOUNTAIN_JSON_H
#define MEMTOP_MOUNTAIN_JSON_H

#include <cjson/cJSON.h>

#include "mountain.h"
#include "base/util.h"

/* The mountain as a JSON object (unmeasured cells are null). NULL when out
 * of memory. */
cJSON *mountain_to_json(const struct mountain *m);

/* Write m to path atomically. Returns 0 or -1 with e set. */
int mountain_save(const struct mountain *m, const char *path, mt_error *e);

/* Build a mountain from a parsed JSON object. file names the input in
 * errors ("m.json: throughput row 3 has 4 values, expected 15"). Rejects a
 * missing or mistyped field, a ragged table, non-positive or non-increasing
 * sizes or strides, negative, NaN or non-number throughput. Returns the
 * mountain or NULL with e set. */
struct mountain *mountain_from_json(const cJSON *root, const char *file, mt_error *e);

/* Load and validate a mountain file (see mountain_from_json). */
struct mountain *mountain_load(const char *path, mt_error *e);

/* Path of the bundled reference mountain (data/m4max.json): $MEMTOP_DATA,
 * then the installed package data folder, then the source tree's data/.
 * Returns buf, or NULL when none exists. */
const char *mountain_reference_path(char *buf, size_t len);

#endif
