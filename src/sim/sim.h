/* sim: an (s, E, b) set-associative cache simulator, the cache of CS:APP's
 * cachelab. S = 2^s sets of E lines each, B = 2^b bytes a block; LRU
 * replacement; write-allocate and write-back (a store marks its line dirty).
 *
 * One access is one address (the size of a memory access never splits it, as
 * in csim-ref). A miss that fills an empty line is a cold fill; an eviction is
 * a valid line replaced; a dirty eviction is an eviction of a line written
 * since it was filled (a write-back to the next level).
 *
 * Cost: O(1) per access for every E (a recency list per set plus, for large E,
 * a small tag index per set; no scan over the E lines), no allocation after
 * sim_new(). Not thread-safe: one cache per thread.
 *
 * Typical use (the experiments drive it directly, no trace file):
 *
 *     mt_error e;
 *     struct sim_cache *c = sim_new(5, 1, 5, &e);
 *     unsigned r = sim_access(c, 0x100000, 0);   // SIM_MISS
 *     r = sim_access(c, 0x100004, 1);            // SIM_HIT (line now dirty)
 *     struct sim_stats st;
 *     sim_stats(c, &st);                         // hits 1, misses 1, ...
 *     sim_free(c);
 */
#ifndef MEMTOP_SIM_H
#define MEMTOP_SIM_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "base/util.h"

struct sim_cache;

/* Largest geometry sim_new() accepts: s + b <= 63, E <= SIM_MAX_E, and at most
 * SIM_MAX_LINES lines in all (S * E). */
#define SIM_MAX_S 30
#define SIM_MAX_B 62
#define SIM_MAX_E (1 << 16)
#define SIM_MAX_LINES (1u << 24)

/* What one access did: a bit set. Exactly one of HIT and MISS is set; EVICT
 * comes with MISS when a valid line was replaced; DIRTY_EVICT with EVICT when
 * that line was dirty. */
enum sim_flag {
	SIM_HIT = 1u << 0,
	SIM_MISS = 1u << 1,
	SIM_EVICT = 1u << 2,
	SIM_DIRTY_EVICT = 1u << 3
};

/* Counters since sim_new() or the last sim_reset(). accesses = hits + misses;
 * loads + stores = accesses. */
struct sim_stats {
	uint64_t accesses, hits, misses, evictions, dirty_evictions;
	uint64_t loads, stores;
};

/* One line of a set, as sim_set_lines() reports it. */
struct sim_line {
	uint64_t tag;
	int dirty;
};

/* A new, empty cache with S = 2^s sets, E lines a set, B = 2^b bytes a block.
 * Returns NULL with e set ("cache: E must be 1..65536, got 0") when the
 * geometry is out of range (see SIM_MAX_*) or memory runs out. */
struct sim_cache *sim_new(int s, int E, int b, mt_error *e);

/* A result file's simulated cache: adds "sim_cache": {"s", "E", "b"} to
 * root. Returns that object (a caller may add more to it), or NULL out of
 * memory. */
cJSON *sim_geometry_to_json(cJSON *root, int s, int E, int b);

/* Reads root's "sim_cache" object, when it has one, into *s, *E, *b (s
 * 0..30, E 1..65536, b 0..20; nothing set unless all three are). Returns 1
 * when read, 0 when root has none, -1 with e naming the file and field
 * ("FILE: sim_cache: field \"E\" ..."; file NULL: "input"). */
int sim_geometry_from_json(const cJSON *root, const char *file, int *s, int *E, int *b,
			   mt_error *e);

/* Free the cache (NULL is fine). */
void sim_free(struct sim_cache *c);

/* Access the block holding addr: a load (is_store == 0) or a store (is_store
 * != 0, marks the line dirty; write-allocate on a miss). Updates LRU and the
 * counters. Returns the enum sim_flag bits of what happened. Never fails. */
unsigned sim_access(struct sim_cache *c, uint64_t addr, int is_store);

/* The tag of the line the last access that returned SIM_EVICT replaced
 * (undefined before any eviction). For drawing and verbose output. */
uint64_t sim_last_evicted_tag(const struct sim_cache *c);

/* Copy the counters into *out. */
void sim_stats(const struct sim_cache *c, struct sim_stats *out);

/* Empty every line and zero the counters (same geometry). */
void sim_reset(struct sim_cache *c);

/* The geometry given to sim_new(). Any pointer may be NULL. */
void sim_geometry(const struct sim_cache *c, int *s, int *E, int *b);

/* The set index and tag of addr under this cache's geometry. */
uint64_t sim_set_index(const struct sim_cache *c, uint64_t addr);
uint64_t sim_tag(const struct sim_cache *c, uint64_t addr);

/* The first address of the block with this tag in this set (the inverse of
 * sim_set_index/sim_tag, for labels such as "A[3][8..15]"). */
uint64_t sim_block_addr(const struct sim_cache *c, uint64_t set, uint64_t tag);

/* The valid lines of one set in recency order, most recently used first:
 * copies at most max of them into out and returns how many are valid (which
 * may exceed max). Returns -1 when set >= S. O(number of valid lines). */
int sim_set_lines(const struct sim_cache *c, uint64_t set, struct sim_line *out, int max);

#endif
