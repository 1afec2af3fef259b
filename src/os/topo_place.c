/* The questions a topology answers (topo.h): the CPU by its OS index, how
 * two CPUs relate, core types by name, where a CPU sits, a CPU set as a
 * Linux CPU list; each node's local CPUs, for the loaders. Plain data: no
 * hwloc here. */
#include "config.h"

#include "topo.h"

#include "base/i18n.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

const struct topo_cpu *topo_cpu(const struct topo *t, int cpu)
{
	int lo = 0, hi = t ? t->ncpus - 1 : -1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (t->cpus[mid].os == cpu)
			return &t->cpus[mid];
		if (t->cpus[mid].os < cpu)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

enum topo_rel topo_relation(const struct topo *t, int cpu_a, int cpu_b)
{
	const struct topo_cpu *a = topo_cpu(t, cpu_a), *b = topo_cpu(t, cpu_b);
	if (!a || !b)
		return TOPO_REL_UNKNOWN;
	if (a->os == b->os)
		return TOPO_REL_SAME_CPU;
	if (a->core >= 0 && a->core == b->core)
		return TOPO_REL_SMT;
	if (a->l2 >= 0 && a->l2 == b->l2)
		return TOPO_REL_SAME_L2;
	if (a->l3 >= 0 && a->l3 == b->l3)
		return TOPO_REL_SAME_L3;
	/* a node shared across sockets (one node, two packages) is still "other socket" */
	if (a->package >= 0 && b->package >= 0 && a->package != b->package)
		return TOPO_REL_OTHER_PACKAGE;
	if (a->node >= 0 && a->node == b->node)
		return TOPO_REL_SAME_NODE;
	if (a->package >= 0 && a->package == b->package)
		return TOPO_REL_SAME_PACKAGE;
	return TOPO_REL_UNKNOWN;
}

const char *topo_rel_name(enum topo_rel r)
{
	/* a table is the clearest form */
	static const char *const names[TOPO_NREL] = {
		[TOPO_REL_SAME_CPU] = "same CPU",
		[TOPO_REL_SMT] = "SMT siblings",
		[TOPO_REL_SAME_L2] = "separate cores, same L2",
		[TOPO_REL_SAME_L3] = "same L3 group",
		[TOPO_REL_SAME_NODE] = "same NUMA node",
		[TOPO_REL_SAME_PACKAGE] = "same package",
		[TOPO_REL_OTHER_PACKAGE] = "other socket",
		[TOPO_REL_UNKNOWN] = "unknown",
	};
	if ((int)r < 0 || r >= TOPO_NREL)
		return names[TOPO_REL_UNKNOWN];
	return names[r];
}

int topo_coretype_find(const struct topo *t, const char *name)
{
	for (int k = 0; t && name && k < t->ncoretypes; k++)
		if (!strcasecmp(t->coretypes[k].name, name))
			return k;
	return -1;
}

const char *topo_coretype_names(const struct topo *t, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int k = 0; t && k < t->ncoretypes; k++)
		mt_append(buf, len, "%s%s", k ? ", " : "", t->coretypes[k].name);
	return buf;
}

int topo_coretype_first_allowed(const struct topo *t, int k)
{
	if (!t || k < 0 || k >= t->ncoretypes)
		return -1;
	for (int j = 0; j < t->coretypes[k].cpus.n; j++) {
		const struct topo_cpu *c = topo_cpu(t, t->coretypes[k].cpus.cpus[j]);
		if (c && c->allowed)
			return c->os;
	}
	return -1;
}

const char *topo_place_text(const struct topo *t, int cpu, char *buf, size_t len)
{
	const struct topo_cpu *c = topo_cpu(t, cpu);
	const char *sep = ": ";
	mt_snprintf(buf, len, "CPU %d", cpu);
	if (!c) {
		mt_append(buf, len, ": not in the topology");
		return buf;
	}
	if (c->coretype >= 0 && t->ncoretypes > 1) { /* one kind: nothing to tell */
		mt_append(buf, len, "%score kind %s", sep, t->coretypes[c->coretype].name);
		sep = ", ";
	}
	if (c->l3 >= 0) {
		mt_append(buf, len, "%sL3 group %d", sep, c->l3);
		sep = ", ";
	}
	if (c->node >= 0) {
		mt_append(buf, len, "%sNUMA node %d", sep, t->nodes[c->node].os_index);
		sep = ", ";
	}
	if (c->package >= 0)
		mt_append(buf, len, "%spackage %d", sep, c->package);
	return buf;
}

const char *topo_set_text(const struct topo_set *s, char *buf, size_t len)
{
	buf[0] = '\0';
	if (s->n == 0)
		mt_strlcpy(buf, "none", len);
	for (int i = 0; i < s->n;) {
		int j = i;
		while (j + 1 < s->n && s->cpus[j + 1] == s->cpus[j] + 1)
			j++;
		if (j == i)
			mt_append(buf, len, "%s%d", i ? "," : "", s->cpus[i]);
		else
			mt_append(buf, len, "%s%d-%d", i ? "," : "", s->cpus[i], s->cpus[j]);
		i = j + 1;
	}
	return buf;
}

int topo_fill_local(struct topo *t)
{
	for (int i = 0; i < t->nnodes; i++) {
		struct topo_set *s = &t->nodes[i].local;
		for (int c = 0; c < t->ncpus; c++)
			s->n += t->cpus[c].node == i;
		if (!s->n)
			continue;
		s->cpus = calloc((size_t)s->n, sizeof *s->cpus);
		if (!s->cpus)
			return -1;
		s->n = 0;
		for (int c = 0; c < t->ncpus; c++)
			if (t->cpus[c].node == i)
				s->cpus[s->n++] = t->cpus[c].os;
	}
	return 0;
}

int topo_distance(const struct topo *t, int a, int b)
{
	if (!t || !t->dist || a < 0 || b < 0 || a >= t->nnodes || b >= t->nnodes)
		return 0;
	return t->dist[a * t->nnodes + b];
}

/* In the messages' language (English inside mt_english_begin). */
static const char *unplaced(const struct topo *t, char *buf, size_t len)
{
	char cpus[256];
	int n = t->offline.n;
	buf[0] = '\0';
	if (n && t->offline_known)
		mt_append(buf, len, MT_NGETTEXT("CPU %s offline", "CPUs %s offline", n),
			  topo_set_text(&t->offline, cpus, sizeof cpus));
	else if (n)
		mt_append(buf, len,
			  MT_NGETTEXT("CPU %s offline (or outside the cpuset hwloc read it in: an XML "
				"does not tell which)",
				"CPUs %s offline (or outside the cpuset hwloc read it in: an XML "
				"does not tell which)",
				n),
			  topo_set_text(&t->offline, cpus, sizeof cpus));
	n = t->unplaced.n;
	if (n && buf[0])
		mt_append(buf, len, "; ");
	if (n)
		mt_append(buf, len,
			  MT_NGETTEXT("CPU %s in no core or package of hwloc's tree (only what else is "
				"known of it)",
				"CPUs %s in no core or package of hwloc's tree (only what else is "
				"known of them)",
				n),
			  topo_set_text(&t->unplaced, cpus, sizeof cpus));
	return buf;
}

const char *topo_unplaced_text(const struct topo *t, char *buf, size_t len)
{
	void *old = mt_english_begin(); /* the JSON's "not_placed" is data */
	unplaced(t, buf, len);
	mt_english_end(old);
	return buf;
}

const char *topo_unplaced_human(const struct topo *t, char *buf, size_t len)
{
	return unplaced(t, buf, len);
}
