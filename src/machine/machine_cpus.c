/* machine_cpus: a CPU list of memtop's grammar (base/cpuspec.h) resolved
 * on a machine: its domains (packages, dies, NUMA nodes, L3 groups, one CPU
 * of each core, core types) become the CPUs this process may use there,
 * and are said back in words. See machine.h. */
#include "config.h"

#include "machine.h"
#include "base/cpuspec.h"
#include "base/i18n.h"

#include <stdlib.h>
#include <string.h>

/* The words for the machine in a sentence: "this machine" or "that
 * machine" (a recorded one). */
static const char *which(const struct machine *m)
{
	return m->from == MACHINE_THIS ? _("this machine") : _("that machine");
}

/* v[0..n) (ascending) as a list: "0", "0 and 1", "0-7", "0-3,8" (ranges
 * from three on). Returns buf. */
static const char *list_words(const int *v, int n, char *buf, size_t len)
{
	buf[0] = '\0';
	if (n == 2 && v[1] == v[0] + 1) {
		mt_snprintf(buf, len, _("%d and %d"), v[0], v[1]);
		return buf;
	}
	for (int i = 0; i < n;) {
		int j = i;
		while (j + 1 < n && v[j + 1] == v[j] + 1)
			j++;
		if (j - i >= 2)
			mt_append(buf, len, "%s%d-%d", i ? "," : "", v[i], v[j]);
		else
			for (int k = i; k <= j; k++)
				mt_append(buf, len, "%s%d", k ? "," : "", v[k]);
		i = j + 1;
	}
	return buf;
}

/* The CPUs of a domain in words: each one up to 8 ("0,1,2,3"), ranges
 * past that ("0-63"). Returns buf. */
static const char *cpus_words(const int *v, int n, char *buf, size_t len)
{
	buf[0] = '\0';
	if (n > 8)
		return list_words(v, n, buf, len);
	for (int i = 0; i < n; i++)
		mt_append(buf, len, "%s%d", i ? "," : "", v[i]);
	return buf;
}

/* "this machine has packages 0 and 1" for the n groups 0..n-1 of a kind
 * (one, many: its names), into buf. */
static void has_words(const struct machine *m, const char *one, const char *many, int n,
		      char *buf, size_t len)
{
	/* TRANSLATORS: the machine ("this machine"), a kind of its parts
	 * ("package", "packages") */
	if (n <= 0)
		mt_snprintf(buf, len, _("%s lists no %s"), which(m), _(one));
	else if (n == 1)
		mt_snprintf(buf, len, _("%s has %s 0 alone"), which(m), _(one));
	else if (n == 2)
		mt_snprintf(buf, len, _("%s has %s 0 and 1"), which(m), _(many));
	else
		mt_snprintf(buf, len, _("%s has %s 0-%d"), which(m), _(many), n - 1);
}

/* Whether CPU c belongs to the domain of it (whose node index, for N, is
 * node; whose core type, for a type, is kind). */
static int member(const struct topo_cpu *c, const struct mt_cpuitem *it, int node, int kind)
{
	switch (it->dom) {
	case MT_DOM_PACKAGE: return c->package == it->index;
	case MT_DOM_DIE: return (c->die >= 0 ? c->die : c->package) == it->index;
	case MT_DOM_NODE: return c->node == node;
	case MT_DOM_L3: return c->l3 == it->index;
	case MT_DOM_CORETYPE: return c->coretype == kind;
	default: return 1; /* C: every core, its first CPU (domain_cpus) */
	}
}

/* Does the domain of it exist on m? Returns 0 with *node (the index into
 * nodes[] of N's node) and *kind (a core type's index), or -1 with e in the
 * issue's words: "S2: this machine has packages 0 and 1". */
static int domain_exists(const struct machine *m, const struct mt_cpuitem *it, int *node,
			 int *kind, mt_error *e)
{
	const struct topo *t = m->topo;
	char why[320], names[160];
	*node = *kind = -1;
	if (!t)
		return mt_fail(e, _("%s: the topology of %s is not known (hwloc could not read it)"),
			       it->text, which(m));
	switch (it->dom) {
	case MT_DOM_PACKAGE:
		if (it->index < t->packages)
			return 0;
		has_words(m, N_("package"), N_("packages"), t->packages, why, sizeof why);
		break;
	case MT_DOM_DIE:
		if (it->index < t->dies)
			return 0;
		has_words(m, N_("die"), N_("dies"), t->dies, why, sizeof why);
		break;
	case MT_DOM_L3:
		if (it->index < t->nl3)
			return 0;
		has_words(m, N_("L3 group"), N_("L3 groups"), t->nl3, why, sizeof why);
		break;
	case MT_DOM_NODE: {
		int os[256], n = 0;
		for (int i = 0; i < t->nnodes; i++) {
			if (t->nodes[i].os_index == it->index)
				*node = i;
			if (n < (int)MT_ARRAY_LEN(os))
				os[n++] = t->nodes[i].os_index;
		}
		if (*node >= 0 && t->nodes[*node].local.n == 0)
			return mt_fail(e, _("%s: NUMA node %d has no CPUs (memory only)"), it->text,
				       it->index);
		if (*node >= 0)
			return 0;
		if (!n)
			mt_snprintf(why, sizeof why, _("%s lists no NUMA node"), which(m));
		else
			mt_snprintf(why, sizeof why,
				    MT_NGETTEXT("%s has NUMA node %s", "%s has NUMA nodes %s", n),
				    which(m), list_words(os, n, names, sizeof names));
		break;
	}
	case MT_DOM_CORETYPE:
		*kind = topo_coretype_find(t, it->name);
		if (*kind >= 0)
			return 0;
		topo_coretype_names(t, names, sizeof names);
		if (t->ncoretypes == 1)
			mt_snprintf(why, sizeof why, _("%s has one core type, %s"),
				    which(m), names);
		else
			mt_snprintf(why, sizeof why, _("the core types of %s are %s"), which(m),
				    names);
		break;
	default:
		return 0;
	}
	return mt_fail(e, "%s: %s", it->text, why);
}

/* The domain in words: "package 0", "NUMA node 1", "core type P", "C (one
 * CPU of each core)". Returns buf. */
static const char *domain_words(const struct mt_cpuitem *it, char *buf, size_t len)
{
	static const char *const kinds[] = { [MT_DOM_PACKAGE] = N_("package %d"),
					     [MT_DOM_DIE] = N_("die %d"),
					     [MT_DOM_NODE] = N_("NUMA node %d"),
					     [MT_DOM_L3] = N_("L3 group %d") };
	if (it->dom == MT_DOM_CORES)
		mt_strlcpy(buf, _("C (one CPU of each core)"), len);
	else if (it->dom == MT_DOM_CORETYPE)
		mt_snprintf(buf, len, _("core type %s"), it->name);
	else
		mt_snprintf(buf, len, _(kinds[it->dom]), it->index);
	return buf;
}

/* The allowed CPUs of the domain of it on m, ascending, into out (room for
 * m->nallowed). Returns the count, or -1 with e (no such domain, none of
 * its CPUs allowed, an index past its CPUs). */
static int domain_cpus(const struct machine *m, const struct mt_cpuitem *it, int *out, mt_error *e)
{
	const struct topo *t = m->topo;
	char words[64];
	int node, kind, n = 0, k = 0;
	unsigned char *core_seen;
	if (domain_exists(m, it, &node, &kind, e) < 0)
		return -1;
	core_seen = calloc((size_t)(t->cores > 0 ? t->cores : 1), 1);
	if (!core_seen)
		return mt_fail(e, _("out of memory"));
	for (int i = 0; i < m->nallowed; i++) {
		const struct topo_cpu *c = topo_cpu(t, m->allowed[i]);
		if (!c || !member(c, it, node, kind))
			continue;
		if (it->dom == MT_DOM_CORES && c->core >= 0 && c->core < t->cores) {
			if (core_seen[c->core])
				continue;
			core_seen[c->core] = 1;
		}
		out[n++] = c->os;
	}
	free(core_seen);
	domain_words(it, words, sizeof words);
	if (n == 0)
		return mt_fail(e,
			       _("%s: none of the CPUs of %s is one this process may use "
				 "(offline, or outside its taskset or cgroup)"),
			       it->text, words);
	if (!it->sel)
		return n;
	if (it->hi >= n)
		return mt_fail(e,
			       MT_NGETTEXT("%s: %s has %d CPU this process may use (indexes 0-%d)",
					   "%s: %s has %d CPUs this process may use (indexes 0-%d)", n),
			       it->text, words, n, n - 1);
	for (int x = it->lo; x <= it->hi; x += it->step)
		out[k++] = out[x];
	return k;
}

/* Appends the CPUs v[0..n) of item it to cpus (room cap, *have so far),
 * each once (seen: a bitmap of MT_CPU_LIST_MAX bits). Returns 0, or -1
 * with e. */
static int take(const struct mt_cpuitem *it, const int *v, int n, int *cpus, int cap, int *have,
		unsigned char *seen, mt_error *e)
{
	for (int i = 0; i < n; i++) {
		int c = v[i];
		if (seen[c / 8] & (1u << (c % 8)))
			return it->dom == MT_DOM_CPUS
				       ? mt_fail(e, _("CPU %d is given twice"), c)
				       : mt_fail(e, _("CPU %d is given twice (again by %s)"), c,
						 it->text);
		if (*have >= cap)
			return mt_fail(e, _("more than %d CPUs"), cap);
		seen[c / 8] |= (unsigned char)(1u << (c % 8));
		cpus[(*have)++] = c;
	}
	return 0;
}

int machine_cpus(const struct machine *m, const char *spec, int *cpus, int cap, char *said,
		 size_t len, mt_error *e)
{
	struct mt_cpuitem it;
	unsigned char *seen = calloc(MT_CPU_LIST_MAX / 8, 1);
	int *dom = calloc((size_t)(m->nallowed > 0 ? m->nallowed : 1), sizeof *dom);
	int have = 0, rc = -1, got;
	const char *p = spec;
	char words[1024];
	if (said && len)
		said[0] = '\0';
	if (!seen || !dom) {
		mt_fail(e, "%s", _("out of memory"));
		goto out;
	}
	if (mt_cpuspec_check(spec, NULL, e) < 0)
		goto out;
	while ((got = mt_cpuitem_next(&p, &it, e)) > 0) {
		int n;
		if (it.dom == MT_DOM_CPUS) {
			for (int c = it.lo; c <= it.hi; c += it.step)
				if (take(&it, &c, 1, cpus, cap, &have, seen, e) < 0)
					goto out;
			continue;
		}
		n = domain_cpus(m, &it, dom, e);
		if (n < 0 || take(&it, dom, n, cpus, cap, &have, seen, e) < 0)
			goto out;
		if (said && len)
			mt_append(said, len, "%s%s = CPU%s %s", said[0] ? "; " : "", it.text,
				  n == 1 ? "" : "s", cpus_words(dom, n, words, sizeof words));
	}
	if (got == 0)
		rc = have;
out:
	free(seen);
	free(dom);
	return rc;
}
