/* machine_json: a machine in one line and as JSON (machine.h). */
#include "config.h"

#include "machine.h"

#include "base/i18n.h"

#include <string.h>

const char *machine_summary(const struct machine *m, char *buf, size_t len)
{
	char topo[768];
	buf[0] = '\0';
	if (m->topo)
		topo_summary_text(m->topo, topo, sizeof topo);
	else
		mt_snprintf(topo, sizeof topo,
			    MT_NGETTEXT("%d CPU (no topology: hwloc could not read it)",
					"%d CPUs (no topology: hwloc could not read it)", m->nallowed),
			    m->nallowed);
	mt_snprintf(buf, len, "%s", topo);
	if (m->vm.vm == 1 && m->vm.name[0])
		/* TRANSLATORS: %s is the hypervisor's name (KVM, Hyper-V) */
		mt_append(buf, len, _("; a VM (%s)"), m->vm.name);
	else if (m->vm.vm == 1)
		mt_append(buf, len, "%s", _("; a VM"));
	return buf;
}

static cJSON *ints(const int *v, int n)
{
	return cJSON_CreateIntArray(v ? v : (const int[]){ 0 }, n);
}

static int add_levels(cJSON *o, const struct machine *m)
{
	cJSON *a = cJSON_AddArrayToObject(o, "levels");
	for (int l = 1; a && l <= MACHINE_MAX_LEVELS; l++) {
		const struct machine_level *lv = &m->lv[l];
		cJSON *x;
		if (!lv->claim)
			continue;
		x = cJSON_CreateObject();
		if (!x || !cJSON_AddItemToArray(a, x) || !cJSON_AddNumberToObject(x, "level", l) ||
		    !cJSON_AddNumberToObject(x, "claim", (double)lv->claim) ||
		    !cJSON_AddStringToObject(x, "claim_from", lv->claim_from) ||
		    !cJSON_AddNumberToObject(x, "credible", (double)lv->credible) ||
		    !cJSON_AddStringToObject(x, "credible_from", lv->credible_from) ||
		    !cJSON_AddStringToObject(x, "doubt", lv->doubt) ||
		    !cJSON_AddBoolToObject(x, "shared", lv->shared))
			return -1;
	}
	return a ? 0 : -1;
}

static int add_l3(cJSON *o, const struct machine *m)
{
	cJSON *a = cJSON_AddArrayToObject(o, "l3_groups");
	for (int i = 0; a && m->topo && i < m->topo->nl3; i++) {
		const struct topo_cache_group *g = &m->topo->l3[i];
		cJSON *x = cJSON_CreateObject();
		if (!x || !cJSON_AddItemToArray(a, x) ||
		    !cJSON_AddNumberToObject(x, "size", (double)g->size) ||
		    !cJSON_AddItemToObject(x, "cpus", ints(g->cpus.cpus, g->cpus.n)))
			return -1;
	}
	return a ? 0 : -1;
}

static int add_pages(cJSON *o, const struct machine *m)
{
	cJSON *p = cJSON_AddObjectToObject(o, "pages"), *h;
	if (!p || !cJSON_AddNumberToObject(p, "base", (double)m->pages.base) ||
	    !cJSON_AddStringToObject(p, "thp", m->pages.thp) ||
	    !(h = cJSON_AddArrayToObject(p, "huge")))
		return -1;
	for (int i = 0; i < m->pages.nhuge; i++) {
		cJSON *x = cJSON_CreateObject();
		if (!x || !cJSON_AddItemToArray(h, x) ||
		    !cJSON_AddNumberToObject(x, "size", (double)m->pages.huge[i]) ||
		    !cJSON_AddNumberToObject(x, "count", (double)m->pages.huge_count[i]))
			return -1;
	}
	return 0;
}

static int add_vm(cJSON *o, const struct machine *m)
{
	cJSON *v = cJSON_AddObjectToObject(o, "vm");
	return v &&
			       (m->vm.vm < 0 ? cJSON_AddNullToObject(v, "vm")
					     : cJSON_AddBoolToObject(v, "vm", m->vm.vm == 1)) &&
			       cJSON_AddStringToObject(v, "hypervisor", m->vm.name) &&
			       cJSON_AddStringToObject(v, "why", m->vm.why)
		       ? 0
		       : -1;
}

/* The job's limits and the budget they leave a run. */
static int add_job(cJSON *o, const struct machine *m)
{
	struct machine_budget b;
	cJSON *j = mt_limits_to_json(&m->limits);
	if (!j || !cJSON_AddItemToObject(o, "job", j)) {
		cJSON_Delete(j);
		return -1;
	}
	machine_mem_budget(m, &b);
	return cJSON_AddNumberToObject(o, "budget", (double)b.bytes) &&
			       cJSON_AddStringToObject(o, "budget_from", b.who)
		       ? 0
		       : -1;
}

cJSON *machine_to_json(const struct machine *m)
{
	cJSON *o = cJSON_CreateObject();
	const struct topo *t = m->topo;
	if (!o || !cJSON_AddStringToObject(o, "source", m->source) ||
	    !cJSON_AddNumberToObject(o, "cpus", t ? t->ncpus : m->nallowed) ||
	    !cJSON_AddNumberToObject(o, "allowed_cpus", m->nallowed) ||
	    !cJSON_AddNumberToObject(o, "online", m->online) ||
	    !cJSON_AddNumberToObject(o, "packages", t ? t->packages : 0) ||
	    !cJSON_AddNumberToObject(o, "nodes", t ? t->nnodes : 1) ||
	    !cJSON_AddNumberToObject(o, "cores", t ? t->cores : 0) ||
	    !cJSON_AddNumberToObject(o, "memory", (double)m->mem_total) ||
	    !cJSON_AddNumberToObject(o, "memory_available", (double)m->mem_avail) ||
	    add_l3(o, m) < 0 || add_levels(o, m) < 0 || add_pages(o, m) < 0 || add_vm(o, m) < 0 ||
	    add_job(o, m) < 0) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}
