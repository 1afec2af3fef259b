/* cores_plan: the CPU list, the pairs to measure, sampling and the
 * relations. See cores.h. */
#include "config.h"

#include "cores.h"
#include "base/i18n.h"

#include <pthread.h>
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
	p->second = quick ? CORES_SECOND_QUICK : CORES_SECOND_MAX;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int cores_parse_cpus(const char *s, const struct machine *m, int *cpus, int cap, char *said,
		     size_t len, mt_error *e)
{
	static const struct machine none = { .from = MACHINE_THIS }; /* no topology, no CPU */
	int n = machine_cpus(m ? m : &none, s, cpus, cap, said, len, e);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (m && !machine_allows(m, cpus[i]))
			return mt_fail(e, _("CPU %d is not one this process may run on (offline, absent "
					  "or outside its taskset)"), cpus[i]);
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

/* Every relation the CPUs have among them in the sample: where the sample
 * holds none of one (E cores sharing an L2 beyond the group's first core),
 * the first pair of it. Returns 0, or -1 out of room. */
static int cover_relations(struct cores_plan *pl, size_t cap, unsigned char *seen,
			   const struct cores_place *pc, const struct relator *rel)
{
	enum { NREL = 16 };
	char have[NREL][CORES_REL_LEN];
	int nhave = 0, n = pl->n;
	for (size_t k = 0; k < pl->npairs && nhave < NREL; k++) {
		int dup = 0;
		for (int h = 0; h < nhave && !dup; h++)
			dup = strcmp(have[h], pl->pairs[k].rel) == 0;
		if (!dup)
			mt_strlcpy(have[nhave++], pl->pairs[k].rel, sizeof have[0]);
	}
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			const char *r = rel->fn(rel->ctx, pc[i].cpu, pc[j].cpu);
			int dup = 0;
			for (int h = 0; h < nhave && !dup; h++)
				dup = strcmp(have[h], r) == 0;
			if (dup || nhave == NREL)
				continue;
			if (add_pair(pl, cap, seen, pc, i, j, rel) < 0)
				return -1;
			mt_strlcpy(have[nhave++], r, sizeof have[0]);
		}
	return 0;
}

/* The bounded sample: up to CORES_SAMPLE_PER_REL pairs of each relation
 * the machine has, the k-th of a relation's pairs (in pair order) taken at
 * even steps over all its pairs, so they spread over the machine. */
static int plan_bounded(struct cores_plan *pl, size_t cap, unsigned char *seen,
			const struct cores_place *pc, const struct relator *rel)
{
	enum { NREL = 16 };
	char names[NREL][CORES_REL_LEN];
	size_t count[NREL] = { 0 }, taken[NREL] = { 0 }, at[NREL] = { 0 };
	int nrel = 0, n = pl->n;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++) {
				const char *r = rel->fn(rel->ctx, pc[i].cpu, pc[j].cpu);
				int k = 0;
				while (k < nrel && strcmp(names[k], r) != 0)
					k++;
				if (k == nrel) {
					if (nrel == NREL)
						continue;
					mt_strlcpy(names[nrel++], r, sizeof names[0]);
				}
				if (pass == 0) {
					count[k]++;
					continue;
				}
				/* the pair whose index crosses the next even step */
				if (taken[k] < CORES_SAMPLE_PER_REL &&
				    at[k] * CORES_SAMPLE_PER_REL >= taken[k] * count[k]) {
					if (add_pair(pl, cap, seen, pc, i, j, rel) < 0)
						return -1;
					taken[k]++;
				}
				at[k]++;
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
		return mt_fail(e, _("core-to-core latency needs two CPUs or more, got %d"), n);
	if (n > CORES_MAX_CPUS)
		return mt_fail(e, _("more than %d CPUs"), CORES_MAX_CPUS);
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
		/* cores_batch.c tells memory from a bad list by these words: */
		rc = mt_fail(e, "out of memory for %zu pairs", cap); /* machine text */
		goto fail;
	}
	if (sample) {
		if (plan_sample(pl, cap, seen, places, &rl) < 0)
			rc = mt_fail(e, _("sampling planned more pairs than there are"));
		if (rc == 0 && pl->npairs <= CORES_SAMPLE_MAX_PAIRS &&
		    cover_relations(pl, cap, seen, places, &rl) < 0)
			rc = mt_fail(e, _("sampling planned more pairs than there are"));
		if (rc == 0 && pl->npairs > CORES_SAMPLE_MAX_PAIRS) {
			pl->npairs = 0;
			pl->bounded = 1;
			memset(seen, 0, (size_t)n * (size_t)n);
			if (plan_bounded(pl, cap, seen, places, &rl) < 0)
				rc = mt_fail(e, _("sampling planned more pairs than there are"));
		}
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

int cores_plan_for(struct cores_plan *pl, const struct cores_params *p, const struct machine *m,
		   const char *list, int kind, int sample, mt_error *e)
{
	static int cpus[CORES_MAX_CPUS];
	static struct cores_place places[CORES_MAX_CPUS];
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* the arrays above */
	char said[CORES_SAID_LEN] = "";
	int n, rc;
	pthread_mutex_lock(&lock);
	if (list) {
		n = cores_parse_cpus(list, m, cpus, CORES_MAX_CPUS, said, sizeof said, e);
	} else {
		n = machine_coretype_cpus(m, kind, cpus, CORES_MAX_CPUS);
	}
	if (n < 0) {
		pthread_mutex_unlock(&lock);
		return -1;
	}
	if (n < 2) {
		pthread_mutex_unlock(&lock);
		return mt_fail(e, list ? _("the list names one CPU (%d): core-to-core latency needs "
					   "two or more")
				       : _("this process may run on one CPU (%d): core-to-core latency "
					   "needs two or more"), n > 0 ? cpus[0] : 0);
	}
	cores_places(m->topo, cpus, n, places);
	if (sample < 0)
		sample = n > CORES_SAMPLE_ABOVE;
	rc = cores_plan_make(pl, p, places, n, sample, NULL, m->topo, e);
	if (rc == 0)
		mt_strlcpy(pl->said, said, sizeof pl->said);
	pthread_mutex_unlock(&lock);
	return rc;
}

size_t cores_second_count(const struct cores_plan *pl)
{
	size_t n = (size_t)(pl->p.second > 0 ? pl->p.second : 0);
	return n < pl->npairs ? n : pl->npairs;
}

size_t cores_second_pair(const struct cores_plan *pl, size_t j)
{
	size_t n = cores_second_count(pl);
	/* in reverse order, spread evenly: the last pair first */
	return pl->npairs - 1 - (n ? j * pl->npairs / n : 0);
}

double cores_plan_estimate_s(const struct cores_plan *pl)
{
	double rt = 300e-9, pair = (double)pl->p.warm_ns * 1e-9 +
				    (double)pl->p.tries * pl->p.samples * pl->p.rounds * rt + 2e-3;
	return (double)(pl->npairs + cores_second_count(pl)) * pair;
}

void cores_plan_free(struct cores_plan *pl)
{
	free(pl->pairs);
	pl->pairs = NULL;
	pl->npairs = 0;
}
