/* cores_plan: the CPU list, the pairs to measure, sampling and the
 * relations. See cores.h. */
#include "config.h"

#include "cores.h"

#include <stdlib.h>
#include <string.h>

const char *cores_method_name(int method)
{
	return method == CORES_RW ? "rw" : "cas";
}

void cores_params_default(struct cores_params *p, int quick)
{
	p->method = CORES_CAS;
	p->tries = quick ? 2 : 5;
	p->samples = quick ? 20 : 100;
	p->rounds = 100;
	p->warm_ns = quick ? 5000000L : 20000000L;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int allowed_has(const int *allowed, int nallowed, int cpu)
{
	if (nallowed <= 0)
		return cpu < CORES_MAX_CPUS;
	for (int i = 0; i < nallowed; i++)
		if (allowed[i] == cpu)
			return 1;
	return 0;
}

/* Add lo..hi to cpus (*n of cap), each checked against the allowed set.
 * Returns 0, or -1 with e. */
static int add_range(int lo, int hi, const int *allowed, int nallowed, int *cpus, int cap, int *n,
		     mt_error *e)
{
	for (int c = lo; c <= hi; c++) {
		int dup = 0;
		if (!allowed_has(allowed, nallowed, c))
			return mt_fail(e, "CPU %d is not one this process may run on (offline, absent "
					  "or outside its taskset)", c);
		for (int k = 0; k < *n && !dup; k++)
			dup = cpus[k] == c;
		if (dup)
			continue;
		if (*n >= cap)
			return mt_fail(e, "more than %d CPUs", cap);
		cpus[(*n)++] = c;
	}
	return 0;
}

int cores_parse_cpus(const char *s, const int *allowed, int nallowed, int *cpus, int cap,
		     mt_error *e)
{
	char buf[4096], *save = NULL, *tok;
	int n = 0;
	if (!s || !*s)
		return mt_fail(e, "an empty CPU list");
	if (mt_strlcpy(buf, s, sizeof buf) < 0)
		return mt_fail(e, "a CPU list longer than %zu characters", sizeof buf - 1);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		int lo, hi;
		if (dash)
			*dash = '\0';
		if (mt_parse_int(tok, 0, 1 << 20, &lo) < 0 ||
		    (dash && mt_parse_int(dash + 1, 0, 1 << 20, &hi) < 0))
			return mt_fail(e, "'%s' is not a CPU or a range such as 0-3", tok);
		if (!dash)
			hi = lo;
		if (hi < lo)
			return mt_fail(e, "the range %d-%d runs backwards", lo, hi);
		if (add_range(lo, hi, allowed, nallowed, cpus, cap, &n, e) < 0)
			return -1;
	}
	if (n == 0)
		return mt_fail(e, "an empty CPU list");
	qsort(cpus, (size_t)n, sizeof *cpus, cmp_int);
	return n;
}

void cores_places(const struct topo *t, const int *cpus, int n, struct cores_place *places)
{
	for (int i = 0; i < n; i++) {
		const struct topo_cpu *c = t ? topo_cpu(t, cpus[i]) : NULL;
		struct cores_place *pc = &places[i];
		pc->cpu = cpus[i];
		pc->core = c ? c->core : -1;
		pc->group = -1;
		pc->text[0] = '\0';
		if (!c)
			continue;
		/* groups kept apart: L3 groups, else nodes, else packages */
		if (c->l3 >= 0)
			pc->group = c->l3;
		else if (c->node >= 0)
			pc->group = 100000 + c->node;
		else if (c->package >= 0)
			pc->group = 200000 + c->package;
		topo_place_text(t, cpus[i], pc->text, sizeof pc->text);
	}
}

const char *cores_relation(const void *ctx, int a, int b)
{
	return topo_rel_name(ctx ? topo_relation(ctx, a, b) : TOPO_REL_UNKNOWN);
}

/* What names a pair's relation. */
struct relator {
	const char *(*fn)(const void *ctx, int a, int b);
	const void *ctx;
};

/* Append pair (i, j) (either order) unless it is there (seen: n x n
 * flags). Returns 0, or -1 out of room. */
static int add_pair(struct cores_plan *pl, size_t cap, unsigned char *seen,
		    const struct cores_place *pc, int i, int j, const struct relator *rel)
{
	int a = i < j ? i : j, b = i < j ? j : i;
	struct cores_pair *q;
	if (a == b || seen[(size_t)a * (size_t)pl->n + (size_t)b])
		return 0;
	if (pl->npairs >= cap)
		return -1;
	seen[(size_t)a * (size_t)pl->n + (size_t)b] = 1;
	q = &pl->pairs[pl->npairs++];
	memset(q, 0, sizeof *q);
	q->ia = a;
	q->ib = b;
	mt_strlcpy(q->rel, rel->fn(rel->ctx, pc[a].cpu, pc[b].cpu), sizeof q->rel);
	return 0;
}

/* The index of the first CPU in places with the same core as places[i]
 * (i itself when its core is unknown). */
static int core_head(const struct cores_place *pc, int i)
{
	if (pc[i].core < 0)
		return i;
	for (int k = 0; k < i; k++)
		if (pc[k].core == pc[i].core)
			return k;
	return i;
}

/* The sampled pairs: each core's first CPU against the first core of each
 * group (a CPU with no group is its own), and each core's SMT pair. */
static int plan_sample(struct cores_plan *pl, size_t cap, unsigned char *seen,
		       const struct cores_place *pc, const struct relator *rel)
{
	int n = pl->n;
	for (int i = 0; i < n; i++) {
		int h = core_head(pc, i);
		if (h != i) { /* an SMT sibling: its pair with the core's first CPU */
			if (add_pair(pl, cap, seen, pc, h, i, rel) < 0)
				return -1;
			continue;
		}
		for (int r = 0; r < n; r++) {
			int first = 1;
			if (core_head(pc, r) != r)
				continue;
			for (int k = 0; k < r && first; k++) /* r the first core of its group */
				first = !(pc[r].group >= 0 && pc[k].group == pc[r].group &&
					  core_head(pc, k) == k);
			if (first && add_pair(pl, cap, seen, pc, i, r, rel) < 0)
				return -1;
		}
	}
	return 0;
}

int cores_plan_make(struct cores_plan *pl, const struct cores_params *p,
		    const struct cores_place *places, int n, int sample,
		    const char *(*rel)(const void *ctx, int a, int b), const void *ctx, mt_error *e)
{
	struct relator rl = { rel ? rel : cores_relation, ctx };
	unsigned char *seen = NULL;
	size_t cap;
	int rc = 0;
	memset(pl, 0, sizeof *pl);
	if (n < 2)
		return mt_fail(e, "core-to-core latency needs two CPUs or more, got %d", n);
	if (n > CORES_MAX_CPUS)
		return mt_fail(e, "more than %d CPUs", CORES_MAX_CPUS);
	pl->p = *p;
	pl->n = n;
	pl->sampled = sample != 0;
	for (int i = 0; i < n; i++) {
		pl->cpus[i] = places[i].cpu;
		mt_strlcpy(pl->place[i], places[i].text, sizeof pl->place[i]);
	}
	cap = (size_t)n * (size_t)(n - 1) / 2;
	pl->pairs = calloc(cap, sizeof *pl->pairs);
	seen = calloc((size_t)n * (size_t)n, 1);
	if (!pl->pairs || !seen) {
		rc = mt_fail(e, "out of memory for %zu pairs", cap);
		goto fail;
	}
	if (sample) {
		if (plan_sample(pl, cap, seen, places, &rl) < 0)
			rc = mt_fail(e, "sampling planned more pairs than there are");
	} else {
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++)
				add_pair(pl, cap, seen, places, i, j, &rl);
	}
	if (rc == 0) {
		free(seen);
		return 0;
	}
fail:
	free(seen);
	cores_plan_free(pl);
	return -1;
}

void cores_plan_free(struct cores_plan *pl)
{
	free(pl->pairs);
	pl->pairs = NULL;
	pl->npairs = 0;
}
