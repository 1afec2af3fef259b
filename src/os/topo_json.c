/* A topology in words and in JSON (topo.h): the one-line summary, the
 * whole machine as `memtop topo --json` writes it, and where one CPU sits
 * as every result's "place". Plain data: no hwloc here. */
#include "config.h"

#include "topo.h"

#include "base/i18n.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- the summary ------------------------------------------------------------------ */

/* bytes as "32 MB", "1280 KB" or "512 B" (binary units, as caches are sold;
 * in the language's units: "32 МБ"). */
static const char *size_words(char *buf, size_t len, uint64_t b)
{
	if (b && b % (1024 * 1024) == 0)
		mt_snprintf(buf, len, _("%llu MB"), (unsigned long long)(b >> 20));
	else if (b && b % 1024 == 0)
		mt_snprintf(buf, len, _("%llu KB"), (unsigned long long)(b >> 10));
	else
		mt_snprintf(buf, len, _("%llu B"), (unsigned long long)b);
	return buf;
}

/* The number of distinct cores among the CPUs of s. */
static int cores_in(const struct topo *t, const struct topo_set *s)
{
	int n = 0;
	for (int i = 0; i < s->n; i++) {
		const struct topo_cpu *c = topo_cpu(t, s->cpus[i]);
		int seen = 0;
		for (int j = 0; j < i && c; j++) {
			const struct topo_cpu *d = topo_cpu(t, s->cpus[j]);
			seen |= d && d->core == c->core;
		}
		n += c && !seen;
	}
	return n;
}

/* "8 L3 groups of 8 cores (32 MB each)" into buf (appended). */
static void l3_words(const struct topo *t, char *buf, size_t len)
{
	int cmin = 1 << 30, cmax = 0;
	uint64_t smin = UINT64_MAX, smax = 0;
	char a[32], b[32], groups[64];
	for (int i = 0; i < t->nl3; i++) {
		int c = cores_in(t, &t->l3[i].cpus);
		cmin = c < cmin ? c : cmin;
		cmax = c > cmax ? c : cmax;
		smin = t->l3[i].size < smin ? t->l3[i].size : smin;
		smax = t->l3[i].size > smax ? t->l3[i].size : smax;
	}
	mt_snprintf(groups, sizeof groups, MT_NGETTEXT("%d L3 group", "%d L3 groups", t->nl3), t->nl3);
	if (t->nl3 == 1)
		mt_append(buf, len, MT_NGETTEXT("1 L3 group of %d core", "1 L3 group of %d cores", cmin),
			  cmin);
	else if (cmin == cmax)
		/* TRANSLATORS: %s is "8 L3 groups"; the cores are each group's */
		mt_append(buf, len, MT_NGETTEXT("%s of %d core", "%s of %d cores", cmin), groups, cmin);
	else
		mt_append(buf, len, _("%s of %d-%d cores"), groups, cmin, cmax);
	size_words(a, sizeof a, smin);
	if (smin != smax)
		mt_append(buf, len, _(" (%s to %s)"), a, size_words(b, sizeof b, smax));
	else if (t->nl3 > 1)
		/* TRANSLATORS: the size of each L3 group's cache */
		mt_append(buf, len, _(" (%s each)"), a);
	else
		mt_append(buf, len, " (%s)", a);
}

/* The core types: "core kind: P" or "core kinds: P (6 cores, 12 CPUs), E (8
 * cores, 8 CPUs)" (appended). */
static void kinds_words(const struct topo *t, char *buf, size_t len)
{
	if (t->ncoretypes == 1) {
		if (strcmp(t->coretypes[0].name, "one") == 0) /* no kind named: memtop's word */
			mt_append(buf, len, "%s", _("; core kind: one"));
		else
			mt_append(buf, len, _("; core kind: %s"), t->coretypes[0].name);
		return;
	}
	mt_append(buf, len, "%s", _("; core kinds: "));
	for (int k = 0; k < t->ncoretypes; k++) {
		const struct topo_coretype *kd = &t->coretypes[k];
		int cores = cores_in(t, &kd->cpus);
		char c[64], n[64];
		mt_snprintf(c, sizeof c, MT_NGETTEXT("%d core", "%d cores", cores), cores);
		mt_snprintf(n, sizeof n, MT_NGETTEXT("%d CPU", "%d CPUs", kd->cpus.n), kd->cpus.n);
		/* TRANSLATORS: a core kind: its name, its cores, its CPUs */
		mt_append(buf, len, _("%s%s (%s, %s)"), k ? ", " : "", kd->name, c, n);
	}
}

/* The summary in the messages' language (English inside mt_english_begin). */
static const char *summary(const struct topo *t, char *buf, size_t len)
{
	buf[0] = '\0';
	mt_append(buf, len, MT_NGETTEXT("%d package", "%d packages", t->packages), t->packages);
	mt_append(buf, len, ", ");
	if (t->dies > t->packages) {
		mt_append(buf, len, MT_NGETTEXT("%d die", "%d dies", t->dies), t->dies);
		mt_append(buf, len, ", ");
	}
	mt_append(buf, len, MT_NGETTEXT("%d NUMA node", "%d NUMA nodes", t->nnodes), t->nnodes);
	mt_append(buf, len, ", ");
	if (t->nl3 > 0)
		l3_words(t, buf, len);
	else
		mt_append(buf, len, "%s", _("no L3"));
	mt_append(buf, len, ", ");
	mt_append(buf, len, MT_NGETTEXT("%d core", "%d cores", t->cores), t->cores);
	mt_append(buf, len, ", ");
	mt_append(buf, len, MT_NGETTEXT("%d CPU", "%d CPUs", t->ncpus), t->ncpus);
	if (t->nallowed < t->ncpus)
		mt_append(buf, len, _(" (%d allowed)"), t->nallowed);
	kinds_words(t, buf, len);
	return buf;
}

const char *topo_summary(const struct topo *t, char *buf, size_t len)
{
	void *old = mt_english_begin(); /* the JSON's "summary" is data */
	summary(t, buf, len);
	mt_english_end(old);
	return buf;
}

const char *topo_summary_text(const struct topo *t, char *buf, size_t len)
{
	return summary(t, buf, len);
}

/* ---- JSON ----------------------------------------------------------------------- */

static cJSON *set_json(const struct topo_set *s)
{
	return cJSON_CreateIntArray(s->cpus ? s->cpus : (const int[]){ 0 }, s->n);
}

/* Adds key: [{"size","cpus"}] of the n groups g to o. Returns 0 or -1. */
static int groups_json(cJSON *o, const char *key, const struct topo_cache_group *g, int n)
{
	cJSON *a = cJSON_AddArrayToObject(o, key);
	for (int i = 0; a && i < n; i++) {
		cJSON *x = cJSON_CreateObject();
		if (!x || !cJSON_AddItemToArray(a, x) ||
		    !cJSON_AddNumberToObject(x, "size", (double)g[i].size) ||
		    !cJSON_AddItemToObject(x, "cpus", set_json(&g[i].cpus)))
			return -1;
	}
	return a ? 0 : -1;
}

static int coretypes_json(cJSON *o, const struct topo *t)
{
	cJSON *a = cJSON_AddArrayToObject(o, "core_kinds");
	for (int i = 0; a && i < t->ncoretypes; i++) {
		const struct topo_coretype *k = &t->coretypes[i];
		cJSON *x = cJSON_CreateObject();
		if (!x || !cJSON_AddItemToArray(a, x) || !cJSON_AddStringToObject(x, "name", k->name) ||
		    !cJSON_AddNumberToObject(x, "efficiency", k->efficiency) ||
		    !cJSON_AddItemToObject(x, "cpus", set_json(&k->cpus)) ||
		    !cJSON_AddNumberToObject(x, "l1d", (double)k->l1d) ||
		    !cJSON_AddNumberToObject(x, "l2", (double)k->l2) ||
		    !cJSON_AddStringToObject(x, "detail", k->detail))
			return -1;
	}
	return a ? 0 : -1;
}

static int nodes_json(cJSON *o, const struct topo *t)
{
	cJSON *a = cJSON_AddArrayToObject(o, "nodes");
	for (int i = 0; a && i < t->nnodes; i++) {
		cJSON *x = cJSON_CreateObject();
		if (!x || !cJSON_AddItemToArray(a, x) ||
		    !cJSON_AddNumberToObject(x, "node", t->nodes[i].os_index) ||
		    !cJSON_AddStringToObject(x, "tier", t->nodes[i].tier) ||
		    !cJSON_AddItemToObject(x, "cpus", set_json(&t->nodes[i].local)) ||
		    !cJSON_AddItemToObject(x, "near_cpus", set_json(&t->nodes[i].cpus)) ||
		    !cJSON_AddNumberToObject(x, "memory", (double)t->nodes[i].memory))
			return -1;
	}
	return a ? 0 : -1;
}

static int smt_json(cJSON *o, const struct topo *t)
{
	cJSON *a = cJSON_AddArrayToObject(o, "smt_siblings");
	for (int i = 0; a && i < t->nsmt; i++)
		if (!cJSON_AddItemToArray(a, set_json(&t->smt[i])))
			return -1;
	return a ? 0 : -1;
}

/* Adds "distances": the SLIT as rows, or null when not known. Returns 0 or -1. */
static int distances_json(cJSON *o, const struct topo *t)
{
	cJSON *a;
	if (!t->dist)
		return cJSON_AddNullToObject(o, "distances") ? 0 : -1;
	a = cJSON_AddArrayToObject(o, "distances");
	for (int i = 0; a && i < t->nnodes; i++)
		if (!cJSON_AddItemToArray(a, cJSON_CreateIntArray(t->dist + i * t->nnodes, t->nnodes)))
			return -1;
	return a ? 0 : -1;
}

/* Adds what could not be placed and what was read around. Returns 0 or -1. */
static int unplaced_json(cJSON *o, const struct topo *t)
{
	char line[600];
	return cJSON_AddItemToObject(o, "offline_cpus", set_json(&t->offline)) &&
			       cJSON_AddItemToObject(o, "unplaced_cpus", set_json(&t->unplaced)) &&
			       cJSON_AddStringToObject(o, "not_placed",
						       topo_unplaced_text(t, line, sizeof line)) &&
			       cJSON_AddStringToObject(o, "read_around", t->read_around)
		       ? 0
		       : -1;
}

/* Adds "cpu_places": one [cpu, core, package, die, node, l2_group,
 * l3_group, kind, allowed] a CPU (-1 where not known; node its OS index,
 * kind an index into core_kinds, allowed 1 or 0), and "cpu_places_are"
 * naming the columns. Returns 0 or -1. */
static int places_json(cJSON *o, const struct topo *t)
{
	cJSON *a;
	if (!cJSON_AddStringToObject(o, "cpu_places_are", TOPO_PLACES_ARE))
		return -1;
	a = cJSON_AddArrayToObject(o, "cpu_places");
	for (int i = 0; a && i < t->ncpus; i++) {
		const struct topo_cpu *c = &t->cpus[i];
		int node = c->node >= 0 ? t->nodes[c->node].os_index : -1;
		int v[] = { c->os,  c->core, c->package,  c->die,    node,
			    c->l2,  c->l3,   c->coretype, c->allowed };
		if (!cJSON_AddItemToArray(a, cJSON_CreateIntArray(v, (int)MT_ARRAY_LEN(v))))
			return -1;
	}
	return a ? 0 : -1;
}

#define ABOUT(key, field, pkg, ...)                                                                \
	{ key, { __VA_ARGS__ }, pkg, offsetof(struct topo_about, field),                           \
	  sizeof(((struct topo_about *)0)->field) }
const struct topo_about_field topo_about_fields[] = {
	ABOUT("sys_vendor", sys_vendor, 0, "DMISysVendor"),
	ABOUT("product", product, 0, "DMIProductName"),
	ABOUT("board", board, 0, "DMIBoardVendor", "DMIBoardName"),
	ABOUT("bios", bios, 0, "DMIBIOSVendor", "DMIBIOSVersion", "DMIBIOSDate"),
	ABOUT("cpu_model", cpu_model, 1, "CPUModel"),
	ABOUT("cpu_vendor", cpu_vendor, 1, "CPUVendor"),
	{ NULL, { NULL }, 0, 0, 0 },
};
#undef ABOUT

/* Adds "about": what the firmware and the CPU say. Returns 0 or -1. */
static int about_json(cJSON *o, const struct topo *t)
{
	cJSON *x = cJSON_AddObjectToObject(o, "about");
	if (!x)
		return -1;
	for (const struct topo_about_field *f = topo_about_fields; f->key; f++)
		if (!cJSON_AddStringToObject(x, f->key, (const char *)&t->about + f->off))
			return -1;
	return 0;
}

cJSON *topo_to_json(const struct topo *t)
{
	cJSON *o = cJSON_CreateObject();
	char sum[1024];
	if (!o || !cJSON_AddStringToObject(o, "source", t->source) ||
	    !cJSON_AddStringToObject(o, "summary", topo_summary(t, sum, sizeof sum)) ||
	    !cJSON_AddNumberToObject(o, "packages", t->packages) ||
	    !cJSON_AddNumberToObject(o, "dies", t->dies) ||
	    !cJSON_AddNumberToObject(o, "numa_nodes", t->nnodes) ||
	    !cJSON_AddNumberToObject(o, "cores", t->cores) ||
	    !cJSON_AddNumberToObject(o, "cpus", t->ncpus) ||
	    !cJSON_AddNumberToObject(o, "allowed_cpus", t->nallowed) ||
	    groups_json(o, "l2_groups", t->l2, t->nl2) < 0 ||
	    groups_json(o, "l3_groups", t->l3, t->nl3) < 0 || coretypes_json(o, t) < 0 ||
	    nodes_json(o, t) < 0 || smt_json(o, t) < 0 || distances_json(o, t) < 0 ||
	    unplaced_json(o, t) < 0 || places_json(o, t) < 0 ||
	    about_json(o, t) < 0) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* Adds key: v to o, or null when v < 0. Returns 0 or -1. */
static int add_index(cJSON *o, const char *key, int v)
{
	return (v >= 0 ? cJSON_AddNumberToObject(o, key, v) : cJSON_AddNullToObject(o, key)) ? 0
											       : -1;
}

cJSON *topo_place_json(const struct topo *t, int cpu)
{
	const struct topo_cpu *c = topo_cpu(t, cpu);
	cJSON *o;
	if (!c)
		return NULL;
	o = cJSON_CreateObject();
	if (!o || !cJSON_AddNumberToObject(o, "cpu", cpu) ||
	    !(c->coretype >= 0 ? cJSON_AddStringToObject(o, "kind", t->coretypes[c->coretype].name)
			   : cJSON_AddNullToObject(o, "kind")) ||
	    add_index(o, "l3_group", c->l3) < 0 ||
	    add_index(o, "node", c->node >= 0 ? t->nodes[c->node].os_index : -1) < 0 ||
	    add_index(o, "package", c->package) < 0) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}
