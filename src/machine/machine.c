/* machine: building the one machine context and the questions about its
 * CPUs (machine.h). The caches' claims and reach are machine_caches.c's,
 * the hypervisor machine_vm.c's, the words and JSON machine_json.c's. */
#include "config.h"

#include "machine.h"
#include "machine_int.h"
#include "base/i18n.h"
#include "os/sysinfo.h"
#include "run/job.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* The caches of a recorded machine: its sysfs (a /sys tree) and hwloc's
 * view, for its first allowed CPU; then the comparisons and doubts. */
static int recorded_info(struct machine *m, const char *root, mt_error *e)
{
	struct info_source s;
	char dir[MT_PATH_MAX + 64];
	int cpu = m->nallowed ? m->allowed[0] : 0;
	struct info *inf = &m->info;
	info_init(inf);
	if (root) {
		struct stat st;
		mt_snprintf(dir, sizeof dir, "%s/sys/devices/system/cpu/cpu%d/cache", root, cpu);
		info_source_init(&s, "sysfs");
		/* a tree without cache folders has no sysfs source: not bad input */
		if (stat(dir, &st) == 0) {
			mt_snprintf(dir, sizeof dir, "%s/sys/devices/system/cpu", root);
			if (info_parse_sysfs(dir, cpu, &s, e) < 0)
				return -1;
			info_add_source(inf, &s);
		}
	}
	info_source_init(&s, "hwloc");
	if (m->topo && info_from_topo(m->topo, cpu, &s, NULL) == 0)
		info_add_source(inf, &s);
	mt_strlcpy(inf->vendor, m->topo ? m->topo->about.cpu_vendor : "", sizeof inf->vendor);
	inf->hypervisor = m->vm.vm == 1;
	info_compare(inf);
	info_doubts(inf);
	return 0;
}

/* The allowed CPUs: the topology's (this machine: its affinity too), else
 * what the OS says. Returns 0, or -1 out of memory. */
static int copy_allowed(struct machine *m)
{
	const struct topo *t = m->topo;
	int cap = t ? t->ncpus : MT_MAX_CPUS;
	m->allowed = calloc((size_t)(cap > 0 ? cap : 1), sizeof *m->allowed);
	if (!m->allowed)
		return -1;
	if (t) {
		for (int i = 0; i < t->ncpus; i++)
			if (t->cpus[i].allowed)
				m->allowed[m->nallowed++] = t->cpus[i].os;
	} else {
		m->nallowed = mt_allowed_cpus(m->allowed, cap);
		if (m->nallowed < 0)
			m->nallowed = 0;
	}
	return 0;
}

/* Memory, pages and the CPUs online: asked of this machine, or read from
 * the recording. */
static void memory_and_pages(struct machine *m, const char *root)
{
	struct machine_pages *pg = &m->pages;
	if (m->from == MACHINE_THIS) {
		m->online = mt_online_cpus();
		m->mem_total = mt_mem_total();
		m->mem_avail = mt_mem_available();
		pg->base = mt_page_size();
		mt_thp_mode_in("", pg->thp, sizeof pg->thp);
		pg->nhuge = mt_huge_pages_in("", pg->huge, pg->huge_count, MACHINE_MAX_PAGES);
		return;
	}
	m->online = m->topo ? m->topo->ncpus : 0;
	for (int i = 0; m->topo && i < m->topo->nnodes; i++)
		m->mem_total += m->topo->nodes[i].memory;
	m->mem_avail = m->mem_total;
	pg->base = 4096;
	if (root) {
		mt_thp_mode_in(root, pg->thp, sizeof pg->thp);
		pg->nhuge = mt_huge_pages_in(root, pg->huge, pg->huge_count, MACHINE_MAX_PAGES);
	}
}

/* Where a recorded machine comes from, after its path in m->source (the
 * plan's JSON keeps it in English; machine_source_text says it to people). */
#define SOURCE_SYSFS " (a recorded /sys tree)"
#define SOURCE_XML " (an hwloc XML)"

/* The job's limits: this machine's, the recorded tree's (not known when
 * it holds none), or not known (an hwloc XML keeps none). */
static void machine_limits_of(struct machine *m, const char *root)
{
	if (m->from == MACHINE_THIS) {
		m->limits = *mt_limits_this();
	} else if (root) {
		mt_limits_read(root, &m->limits);
	} else {
		memset(&m->limits, 0, sizeof m->limits);
		mt_strlcpy(m->limits.why, N_("an hwloc XML records no cgroup"),
			   sizeof m->limits.why);
	}
}

int machine_load(const char *sysfs_root, const char *xml, struct machine **out, mt_error *e)
{
	struct machine *m = calloc(1, sizeof *m);
	*out = NULL;
	if (!m)
		return mt_fail(e, _("out of memory"));
	if (sysfs_root && xml) {
		mt_fail(e, _("--sysfs-root and --topology: give one of them"));
		goto fail;
	}
	m->from = sysfs_root ? MACHINE_SYSFS : xml ? MACHINE_XML : MACHINE_THIS;
	if (sysfs_root || xml) {
		if ((sysfs_root ? topo_load(sysfs_root, &m->own_topo, e)
				: topo_load_xml(xml, &m->own_topo, e)) < 0)
			goto fail;
		m->topo = m->own_topo;
		mt_snprintf(m->source, sizeof m->source, "%s%s", sysfs_root ? sysfs_root : xml,
			    sysfs_root ? SOURCE_SYSFS : SOURCE_XML);
	} else {
		m->topo = topo_this_machine();
		mt_strlcpy(m->source, m->topo ? m->topo->source : "this machine", sizeof m->source);
	}
	if (copy_allowed(m) < 0) {
		mt_fail(e, _("out of memory"));
		goto fail;
	}
	memory_and_pages(m, sysfs_root);
	if (m->from == MACHINE_THIS) {
		if (info_collect(&m->info, e) < 0)
			goto fail;
		m->vm = *mt_vm_this();
	} else {
		mt_vm_detect(m->topo, 0, 0, &m->vm);
		if (recorded_info(m, sysfs_root, e) < 0)
			goto fail;
	}
	if (m->from == MACHINE_THIS)
		m->cond = *mt_conditions_this();
	else
		mt_conditions_read(sysfs_root, m->topo, &m->vm, &m->cond);
	machine_limits_of(m, sysfs_root);
	machine_levels(m);
	*out = m;
	return 0;
fail:
	machine_free(m);
	return -1;
}

const char *machine_source_text(const struct machine *m, char *buf, size_t len)
{
	size_t n = strlen(m->source), k = strlen(m->from == MACHINE_SYSFS ? SOURCE_SYSFS : SOURCE_XML);
	if (m->from != MACHINE_THIS && n >= k)
		mt_snprintf(buf, len,
			    m->from == MACHINE_SYSFS ? _("%.*s (a recorded /sys tree)")
						     : _("%.*s (an hwloc XML)"),
			    (int)(n - k), m->source);
	else if (!strcmp(m->source, "this machine"))
		mt_strlcpy(buf, _("this machine"), len);
	else
		mt_strlcpy(buf, m->source, len);
	return buf;
}

static struct machine *this_machine;

static void load_this(void)
{
	mt_error e = { "" };
	if (machine_load(NULL, NULL, &this_machine, &e) < 0) {
		/* only a cache file that does not parse gets here: plan without caches */
		mt_warn(_("this machine: %s (its caches are left unknown)"), e.msg);
		this_machine = calloc(1, sizeof *this_machine);
		if (!this_machine) {
			mt_warn("%s", _("out of memory"));
			abort();
		}
		this_machine->topo = topo_this_machine();
		mt_strlcpy(this_machine->source, "this machine", sizeof this_machine->source);
		info_init(&this_machine->info);
		if (copy_allowed(this_machine) < 0)
			abort();
		memory_and_pages(this_machine, NULL);
		this_machine->vm = *mt_vm_this();
		machine_limits_of(this_machine, NULL);
		machine_levels(this_machine);
	}
}

const struct machine *machine_this(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, load_this);
	return this_machine;
}

void machine_free(struct machine *m)
{
	if (!m || m == this_machine)
		return;
	topo_free(m->own_topo);
	free(m->allowed);
	free(m);
}

int machine_allows(const struct machine *m, int cpu)
{
	for (int i = 0; i < m->nallowed; i++)
		if (m->allowed[i] == cpu)
			return 1;
	return 0;
}

int machine_worker_cpu(const struct machine *m, int kind)
{
	const struct topo *t = m->topo;
	if (m->from == MACHINE_THIS)
		return job_pick_cpu();
	if (t && kind < 0)
		kind = 0;
	for (int i = m->nallowed - 1; i >= 0; i--) {
		const struct topo_cpu *c = t ? topo_cpu(t, m->allowed[i]) : NULL;
		if (!t || (c && c->coretype == kind))
			return m->allowed[i];
	}
	return m->nallowed ? m->allowed[m->nallowed - 1] : -1;
}

int machine_coretype(const struct machine *m, const char *name, char *why, size_t len)
{
	char names[160];
	int k;
	if (!m->topo) {
		if (strcasecmp(name, "one") == 0)
			return 0;
		mt_strlcpy(why, _("a core kind of this machine (one: no topology)"), len);
		return -1;
	}
	k = topo_coretype_find(m->topo, name);
	topo_coretype_names(m->topo, names, sizeof names);
	if (k < 0 && m->from == MACHINE_THIS)
		/* TRANSLATORS: what --cpu-kind takes; %s lists the kinds ("P, E") */
		mt_snprintf(why, len, _("a core kind of this machine (%s: see memtop topo)"),
			    names);
	else if (k < 0)
		mt_snprintf(why, len, _("a core kind of that machine (%s: see memtop topo)"),
			    names);
	return k;
}

int machine_node_cpus(const struct machine *m, int i, int *cpus, int cap)
{
	const struct topo_set *s;
	int n = 0;
	if (!m->topo || i < 0 || i >= m->topo->nnodes)
		return 0;
	s = &m->topo->nodes[i].local;
	for (int k = 0; k < s->n && n < cap; k++)
		if (machine_allows(m, s->cpus[k]))
			cpus[n++] = s->cpus[k];
	return n;
}

int machine_coretype_cpus(const struct machine *m, int k, int *cpus, int cap)
{
	int n = 0;
	for (int i = 0; i < m->nallowed && n < cap; i++) {
		const struct topo_cpu *c = m->topo ? topo_cpu(m->topo, m->allowed[i]) : NULL;
		if (k < 0 || !m->topo || (c && c->coretype == k))
			cpus[n++] = m->allowed[i];
	}
	return n;
}
