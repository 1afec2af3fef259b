/* sim: the (s, E, b) LRU cache simulator (see sim.h).
 *
 * Two layouts, chosen by E:
 * - small sets (E <= SMALL_E): each set keeps its valid tags in recency
 *   order, most recent first, in a little array; an access scans at most E
 *   tags and shifts the ones before the hit down by one. For E <= 8 that is
 *   a few cache lines of the host and faster than any index.
 * - large sets: each set is a doubly linked recency list over its E lines
 *   plus an open-addressing tag index (linear probing, power-of-two size at
 *   least 2E, backward-shift deletion). A hit, a fill and an eviction are
 *   O(1) whatever E is: no scan over the lines.
 */
#include "config.h"

#include "base/i18n.h"

#include "sim.h"
#include "base/jsonio.h"

#include <stdlib.h>
#include <string.h>

#define SMALL_E 8

struct sim_cache {
	int s, E, b;
	int shift;          /* s + b */
	uint64_t set_mask;  /* S - 1 */
	uint64_t nsets;
	int small;          /* small-set layout */
	struct sim_stats st;
	uint64_t last_evicted;

	uint64_t *tag;      /* S * E */
	uint8_t *dirty;     /* S * E */
	uint32_t *nvalid;   /* S */

	/* large sets only */
	uint32_t *next, *prev; /* S * E, indices within the set */
	uint32_t *head, *tail; /* S: most and least recently used line */
	uint32_t *index;       /* S * hsize: line + 1, 0 = empty */
	uint32_t hsize;        /* power of two >= 2E */
	int hbits;
};

static inline uint32_t hash_tag(const struct sim_cache *c, uint64_t tag)
{
	return (uint32_t)((tag * 0x9E3779B97F4A7C15ull) >> (64 - c->hbits));
}

struct sim_cache *sim_new(int s, int E, int b, mt_error *e)
{
	struct sim_cache *c;
	uint64_t lines;
	if (s < 0 || s > SIM_MAX_S)
		return mt_fail(e, _("cache: s must be 0..%d, got %d"), SIM_MAX_S, s), NULL;
	if (E < 1 || E > SIM_MAX_E)
		return mt_fail(e, _("cache: E must be 1..%d, got %d"), SIM_MAX_E, E), NULL;
	if (b < 0 || b > SIM_MAX_B)
		return mt_fail(e, _("cache: b must be 0..%d, got %d"), SIM_MAX_B, b), NULL;
	if (s + b > 63)
		return mt_fail(e, _("cache: s + b must be at most 63, got %d"), s + b), NULL;
	lines = ((uint64_t)1 << s) * (uint64_t)E;
	if (lines > SIM_MAX_LINES)
		return mt_fail(e, _("cache: S * E = %llu lines, more than the %u this simulator holds"),
			       (unsigned long long)lines, SIM_MAX_LINES), NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		goto oom;
	c->s = s;
	c->E = E;
	c->b = b;
	c->shift = s + b;
	c->nsets = (uint64_t)1 << s;
	c->set_mask = c->nsets - 1;
	c->small = E <= SMALL_E;
	c->tag = calloc(lines, sizeof(*c->tag));
	c->dirty = calloc(lines, sizeof(*c->dirty));
	c->nvalid = calloc(c->nsets, sizeof(*c->nvalid));
	if (!c->tag || !c->dirty || !c->nvalid)
		goto oom;
	if (!c->small) {
		c->hbits = 1;
		while ((1u << c->hbits) < 2u * (unsigned)E)
			c->hbits++;
		c->hsize = 1u << c->hbits;
		c->next = calloc(lines, sizeof(*c->next));
		c->prev = calloc(lines, sizeof(*c->prev));
		c->head = calloc(c->nsets, sizeof(*c->head));
		c->tail = calloc(c->nsets, sizeof(*c->tail));
		c->index = calloc(c->nsets * c->hsize, sizeof(*c->index));
		if (!c->next || !c->prev || !c->head || !c->tail || !c->index)
			goto oom;
	}
	return c;
oom:
	sim_free(c);
	mt_fail(e, _("cache: out of memory for %d sets x %d lines"), 1 << s, E);
	return NULL;
}

void sim_free(struct sim_cache *c)
{
	if (!c)
		return;
	free(c->tag);
	free(c->dirty);
	free(c->nvalid);
	free(c->next);
	free(c->prev);
	free(c->head);
	free(c->tail);
	free(c->index);
	free(c);
}

void sim_reset(struct sim_cache *c)
{
	memset(c->nvalid, 0, c->nsets * sizeof(*c->nvalid));
	memset(c->dirty, 0, c->nsets * (size_t)c->E);
	if (!c->small)
		memset(c->index, 0, c->nsets * c->hsize * sizeof(*c->index));
	memset(&c->st, 0, sizeof(c->st));
	c->last_evicted = 0;
}

/* Small sets: tags [0, n) in recency order. */
static inline unsigned access_small(struct sim_cache *c, uint64_t set, uint64_t tag, int is_store)
{
	uint64_t *t = c->tag + set * (uint64_t)c->E;
	uint8_t *d = c->dirty + set * (uint64_t)c->E;
	uint32_t n = c->nvalid[set];
	uint32_t i;
	unsigned r;
	uint8_t dd;
	for (i = 0; i < n; i++) {
		if (t[i] == tag) {
			dd = d[i];
			if (i) {
				memmove(t + 1, t, i * sizeof(*t));
				memmove(d + 1, d, i);
				t[0] = tag;
			}
			d[0] = (uint8_t)(dd | (is_store != 0));
			c->st.hits++;
			return SIM_HIT;
		}
	}
	c->st.misses++;
	r = SIM_MISS;
	if (n == (uint32_t)c->E) {
		r |= SIM_EVICT;
		c->st.evictions++;
		c->last_evicted = t[n - 1];
		if (d[n - 1]) {
			r |= SIM_DIRTY_EVICT;
			c->st.dirty_evictions++;
		}
		n--;
	} else {
		c->nvalid[set] = n + 1;
	}
	if (n) {
		memmove(t + 1, t, n * sizeof(*t));
		memmove(d + 1, d, n);
	}
	t[0] = tag;
	d[0] = (uint8_t)(is_store != 0);
	return r;
}

/* Large sets: remove the index entry at slot i, shifting later entries of
 * the same probe run back so lookups never stop early. */
static void index_delete(struct sim_cache *c, uint32_t *tbl, const uint64_t *t, uint32_t i)
{
	uint32_t mask = c->hsize - 1, j = i, k;
	tbl[i] = 0;
	for (;;) {
		j = (j + 1) & mask;
		if (!tbl[j])
			return;
		k = hash_tag(c, t[tbl[j] - 1]) & mask;
		/* leave it when its home k lies cyclically in (i, j] */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		tbl[i] = tbl[j];
		tbl[j] = 0;
		i = j;
	}
}

static inline void list_unlink(struct sim_cache *c, uint64_t base, uint64_t set, uint32_t l)
{
	uint32_t p = c->prev[base + l], n = c->next[base + l];
	if (c->head[set] == l)
		c->head[set] = n;
	else
		c->next[base + p] = n;
	if (c->tail[set] == l)
		c->tail[set] = p;
	else
		c->prev[base + n] = p;
}

static inline void list_push_front(struct sim_cache *c, uint64_t base, uint64_t set, uint32_t l,
				   uint32_t count_before)
{
	if (count_before == 0) {
		c->head[set] = c->tail[set] = l;
		return;
	}
	c->next[base + l] = c->head[set];
	c->prev[base + c->head[set]] = l;
	c->head[set] = l;
}

static unsigned access_large(struct sim_cache *c, uint64_t set, uint64_t tag, int is_store)
{
	uint64_t base = set * (uint64_t)c->E;
	uint64_t *t = c->tag + base;
	uint32_t *tbl = c->index + set * (uint64_t)c->hsize;
	uint32_t mask = c->hsize - 1;
	uint32_t h = hash_tag(c, tag) & mask, slot, l, n;
	unsigned r;
	while ((slot = tbl[h]) != 0) {
		l = slot - 1;
		if (t[l] == tag) {
			if (c->head[set] != l) {
				list_unlink(c, base, set, l);
				list_push_front(c, base, set, l, 1);
			}
			c->dirty[base + l] |= (uint8_t)(is_store != 0);
			c->st.hits++;
			return SIM_HIT;
		}
		h = (h + 1) & mask;
	}
	/* miss: h is the empty slot where tag belongs, until a deletion moves it */
	c->st.misses++;
	r = SIM_MISS;
	n = c->nvalid[set];
	if (n < (uint32_t)c->E) {
		l = n;
		c->nvalid[set] = n + 1;
		t[l] = tag;
		tbl[h] = l + 1;
		list_push_front(c, base, set, l, n);
	} else {
		uint32_t hh;
		l = c->tail[set];
		r |= SIM_EVICT;
		c->st.evictions++;
		c->last_evicted = t[l];
		if (c->dirty[base + l]) {
			r |= SIM_DIRTY_EVICT;
			c->st.dirty_evictions++;
		}
		hh = hash_tag(c, t[l]) & mask;
		while (tbl[hh] != l + 1)
			hh = (hh + 1) & mask;
		index_delete(c, tbl, t, hh);
		h = hash_tag(c, tag) & mask;
		while (tbl[h])
			h = (h + 1) & mask;
		t[l] = tag;
		tbl[h] = l + 1;
		list_unlink(c, base, set, l);
		list_push_front(c, base, set, l, n - 1);
	}
	c->dirty[base + l] = (uint8_t)(is_store != 0);
	return r;
}

unsigned sim_access(struct sim_cache *c, uint64_t addr, int is_store)
{
	uint64_t set = (addr >> c->b) & c->set_mask;
	uint64_t tag = addr >> c->shift;
	c->st.stores += (is_store != 0);
	if (c->small)
		return access_small(c, set, tag, is_store);
	return access_large(c, set, tag, is_store);
}

uint64_t sim_last_evicted_tag(const struct sim_cache *c)
{
	return c->last_evicted;
}

void sim_stats(const struct sim_cache *c, struct sim_stats *out)
{
	*out = c->st;
	out->accesses = out->hits + out->misses;
	out->loads = out->accesses - out->stores;
}

void sim_geometry(const struct sim_cache *c, int *s, int *E, int *b)
{
	if (s)
		*s = c->s;
	if (E)
		*E = c->E;
	if (b)
		*b = c->b;
}

uint64_t sim_set_index(const struct sim_cache *c, uint64_t addr)
{
	return (addr >> c->b) & c->set_mask;
}

uint64_t sim_tag(const struct sim_cache *c, uint64_t addr)
{
	return addr >> c->shift;
}

uint64_t sim_block_addr(const struct sim_cache *c, uint64_t set, uint64_t tag)
{
	return (tag << c->shift) | ((set & c->set_mask) << c->b);
}

int sim_set_lines(const struct sim_cache *c, uint64_t set, struct sim_line *out, int max)
{
	uint64_t base;
	uint32_t n, i, l;
	if (set >= c->nsets)
		return -1;
	base = set * (uint64_t)c->E;
	n = c->nvalid[set];
	if (c->small) {
		for (i = 0; i < n && (int)i < max; i++) {
			out[i].tag = c->tag[base + i];
			out[i].dirty = c->dirty[base + i];
		}
		return (int)n;
	}
	l = c->head[set];
	for (i = 0; i < n && (int)i < max; i++) {
		out[i].tag = c->tag[base + l];
		out[i].dirty = c->dirty[base + l];
		l = c->next[base + l];
	}
	return (int)n;
}

cJSON *sim_geometry_to_json(cJSON *root, int s, int E, int b)
{
	cJSON *c = cJSON_AddObjectToObject(root, "sim_cache");
	if (!c || !cJSON_AddNumberToObject(c, "s", s) || !cJSON_AddNumberToObject(c, "E", E) ||
	    !cJSON_AddNumberToObject(c, "b", b))
		return NULL;
	return c;
}

int sim_geometry_from_json(const cJSON *root, const char *file, int *s, int *E, int *b,
			   mt_error *e)
{
	const cJSON *sc = cJSON_GetObjectItemCaseSensitive(root, "sim_cache");
	char where[320];
	long vs, vE, vb;
	if (!sc)
		return 0;
	mt_snprintf(where, sizeof where, "%s: sim_cache", file ? file : "input");
	if (jsonio_int(sc, "s", where, 0, 30, &vs, e) < 0 ||
	    jsonio_int(sc, "E", where, 1, 1 << 16, &vE, e) < 0 ||
	    jsonio_int(sc, "b", where, 0, 20, &vb, e) < 0)
		return -1;
	*s = (int)vs;
	*E = (int)vE;
	*b = (int)vb;
	return 1;
}
