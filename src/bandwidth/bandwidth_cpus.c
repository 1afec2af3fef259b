/* bandwidth_cpus: the CPUs a bandwidth run's threads run on: placed over
 * the machine (one a core first, spread over packages, nodes and L3 groups,
 * or compact), the groups they fill, --cpus, and each thread step's
 * placement said for people and for the result. See bandwidth_plan.h. */
#include "config.h"

#include "bandwidth_plan.h"
#include "base/i18n.h"
#include "os/sysinfo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bandwidth_place_cpus(struct bandwidth_params *p, const struct machine *m)
{
	for (int i = 0; i < p->ncpus; i++) {
		const struct topo_cpu *c = m && m->topo ? topo_cpu(m->topo, p->cpus[i]) : NULL;
		p->core[i] = c ? c->core : -1;
		p->l3[i] = c ? c->l3 : -1;
		p->node[i] = c ? c->node : -1;
		p->package[i] = c ? c->package : -1;
	}
}

#define NKEYS 2

struct cpu_key {
	int cpu, core, l3, node, package;
	long key[NKEYS];
};

static int cmp_key(const void *pa, const void *pb)
{
	const struct cpu_key *a = pa, *b = pb;
	for (int i = 0; i < NKEYS; i++)
		if (a->key[i] != b->key[i])
			return a->key[i] < b->key[i] ? -1 : 1;
	return (a->cpu > b->cpu) - (a->cpu < b->cpu);
}

/* The spread order of k[0..n) (in CPU order), greedily: each next CPU is
 * one whose core has none taken yet (the SMT siblings come last), then
 * whose package, node, L3 group has none taken (in that order), then the
 * one whose package, node and group have the fewest taken, then the
 * lowest CPU. So the first k threads cover k packages, nodes, L3 groups
 * and cores as far as there are, whatever nests in what (a node of two
 * packages on IA-64, an L3 of two nodes with SNC, nodes of unequal size).
 * Writes the order into key[0]. O(n^2): 4096 CPUs at most. Returns 0, or
 * -1 out of memory. */
static int spread_order(struct cpu_key *k, int n)
{
	/* taken[f][v]: CPUs taken whose field f (package, node, L3, core) has
	 * value v (an index below n; -1 unknown: a place of its own) */
	int *taken = calloc((size_t)n * 4, sizeof *taken);
	unsigned char *done = calloc((size_t)n, 1);
	if (!taken || !done) {
		free(taken);
		free(done);
		return -1;
	}
	for (int step = 0; step < n; step++) {
		int best = -1;
		long bk[7] = { 0 };
		for (int i = 0; i < n; i++) {
			int v[4] = { k[i].package, k[i].node, k[i].l3, k[i].core };
			long c[4], key[7];
			if (done[i])
				continue;
			for (int f = 0; f < 4; f++)
				c[f] = v[f] >= 0 && v[f] < n ? taken[f * n + v[f]] : 0;
			key[0] = c[3] > 0; /* its core has a CPU taken: an SMT sibling */
			key[1] = c[0] > 0;
			key[2] = c[1] > 0;
			key[3] = c[2] > 0;
			key[4] = c[0];
			key[5] = c[1];
			key[6] = c[2];
			if (best >= 0) { /* not before the best so far: skip */
				int f = 0;
				while (f < 7 && key[f] == bk[f])
					f++;
				if (f == 7 || key[f] > bk[f])
					continue;
			}
			best = i;
			memcpy(bk, key, sizeof bk);
		}
		done[best] = 1;
		k[best].key[0] = step;
		{
			int v[4] = { k[best].package, k[best].node, k[best].l3, k[best].core };
			for (int f = 0; f < 4; f++)
				if (v[f] >= 0 && v[f] < n)
					taken[f * n + v[f]]++;
		}
	}
	free(taken);
	free(done);
	return 0;
}

void bandwidth_order_cpus(struct bandwidth_params *p, int how)
{
	int n = p->ncpus;
	struct cpu_key *k = n > 0 ? calloc((size_t)n, sizeof *k) : NULL;
	if (!k)
		return; /* out of memory: the order stays as given */
	for (int i = 0; i < n; i++) {
		k[i].cpu = p->cpus[i];
		k[i].core = p->core[i];
		k[i].l3 = p->l3[i];
		k[i].node = p->node[i];
		k[i].package = p->package[i];
	}
	qsort(k, (size_t)n, sizeof *k, cmp_key); /* CPU order first */
	if (how == BANDWIDTH_COMPACT) { /* by core (its first CPU's place), its siblings together */
		for (int i = 0; i < n; i++) {
			int head = i, smt = 0;
			for (int j = 0; j < i && k[i].core >= 0; j++)
				if (k[j].core == k[i].core) {
					head = head == i ? j : head;
					smt++;
				}
			k[i].key[0] = head;
			k[i].key[1] = smt;
		}
	} else if (spread_order(k, n) < 0) {
		free(k);
		return;
	}
	qsort(k, (size_t)n, sizeof *k, cmp_key);
	for (int i = 0; i < n; i++) {
		p->cpus[i] = k[i].cpu;
		p->core[i] = k[i].core;
		p->l3[i] = k[i].l3;
		p->node[i] = k[i].node;
		p->package[i] = k[i].package;
	}
	free(k);
}

void bandwidth_count_groups(struct bandwidth_params *p)
{
	for (size_t t = 0; t < p->nthreads; t++) {
		int used = (int)p->threads[t] < p->ncpus ? (int)p->threads[t] : p->ncpus, g = 0;
		for (int i = 0; i < used; i++) {
			int seen = p->l3[i] < 0;
			for (int j = 0; j < i && !seen; j++)
				seen = p->l3[j] == p->l3[i];
			g += !seen;
		}
		p->groups[t] = (unsigned)g;
	}
}

unsigned bandwidth_groups_of(const struct bandwidth_params *p, unsigned threads)
{
	for (size_t t = 0; t < p->nthreads; t++)
		if (p->threads[t] == threads)
			return p->groups[t] ? p->groups[t] : 1;
	return 1;
}

int bandwidth_set_cpus(struct bandwidth_params *p, const int *list, int n,
		       const struct machine *m, mt_error *e)
{
	if (n <= 0 || n > BANDWIDTH_MAX_CPUS)
		return mt_fail(e, "--cpus: 1..%d CPUs", BANDWIDTH_MAX_CPUS);
	for (int i = 0; i < n; i++) {
		if (!machine_allows(m, list[i]))
			return mt_fail(e, _("--cpus: CPU %d is not one this process may use"), list[i]);
		for (int j = 0; j < i; j++)
			if (list[j] == list[i])
				return mt_fail(e, _("--cpus: CPU %d given twice"), list[i]);
	}
	memcpy(p->cpus, list, (size_t)n * sizeof *list);
	p->ncpus = n;
	bandwidth_place_cpus(p, m);
	bandwidth_count_groups(p);
	return 0;
}

/* Where the threads run, in English (what the result stores) or, human,
 * in the user's language. */
static int placement(const struct bandwidth_params *p, unsigned threads, char *buf, size_t len,
		     int human)
{
	int used = (int)threads < p->ncpus ? (int)threads : p->ncpus, shared = 0, unknown = 0;
	if (p->ncpus <= 0) {
		mt_strlcpy(buf, human ? _("not pinned (CPUs unknown)") : "not pinned (CPUs unknown)",
			   len);
		return 0;
	}
	if ((int)threads > p->ncpus) {
		if (human)
			/* TRANSLATORS: more threads than CPUs; the count is the CPUs' */
			mt_snprintf(buf, len, MT_NGETTEXT("%u threads on %d CPU: oversubscribed",
							  "%u threads on %d CPUs: oversubscribed",
							  p->ncpus),
				    threads, p->ncpus);
		else
			mt_snprintf(buf, len, "%u threads on %d CPU%s: oversubscribed", threads,
				    p->ncpus, p->ncpus == 1 ? "" : "s");
		return 1;
	}
	buf[0] = '\0';
	for (int i = 0; i < used; i++) {
		mt_append(buf, len, "%s%d", i ? "," : "", p->cpus[i]);
		unknown += p->core[i] < 0;
		for (int j = 0; j < i; j++)
			shared += p->core[i] >= 0 && p->core[j] == p->core[i];
	}
	if (human) {
		char list[256];
		mt_strlcpy(list, buf, sizeof list);
		/* TRANSLATORS: the CPUs a thread step runs on, "CPUs 0,1" */
		mt_snprintf(buf, len, MT_NGETTEXT("CPU %s", "CPUs %s", used), list);
		if (used == 1)
			return 0;
		if (shared)
			mt_append(buf, len, MT_NGETTEXT(": %d pair of SMT siblings",
							": %d pairs of SMT siblings", shared),
				  shared);
		else
			mt_append(buf, len, "%s",
				  unknown ? _(": cores unknown (no topology)") : _(": separate cores"));
		return 0;
	}
	{
		char list[256];
		mt_strlcpy(list, buf, sizeof list);
		mt_snprintf(buf, len, "CPU%s %s", used == 1 ? "" : "s", list);
	}
	if (used == 1)
		return 0;
	if (shared)
		mt_append(buf, len, ": %d pair%s of SMT siblings", shared, shared == 1 ? "" : "s");
	else if (unknown)
		mt_append(buf, len, ": cores unknown (no topology)");
	else
		mt_append(buf, len, ": separate cores");
	return 0;
}

int bandwidth_placement(const struct bandwidth_params *p, unsigned threads, char *buf,
			size_t len)
{
	return placement(p, threads, buf, len, 0);
}

void bandwidth_placement_said(const struct bandwidth_params *p, unsigned threads, char *buf,
			      size_t len)
{
	placement(p, threads, buf, len, 1);
	if (p->quota > 0 && (double)threads > p->quota) {
		char q[32];
		mt_hsnprintf(q, sizeof q, "%g", round(p->quota * 100) / 100);
		/* TRANSLATORS: after a thread step's placement; the quota in CPUs, such as 1,5 */
		mt_append(buf, len, _("; over the job's cpu quota (%s CPU)"), q);
	}
}

