/* The machine above the core, from hwloc (topo.h): loading a topology of
 * this machine or of a recorded tree, and freeing it. hwloc's side is in
 * topo_hwloc.c (reading) and topo_coretypes.c (core types); the questions a
 * topology answers in topo_place.c, its words and JSON in topo_json.c. */
#include "config.h"

#include "topo_hwloc.h"
#include "base/i18n.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Copies everything memtop uses out of h into t (online: the CPUs the
 * kernel lists online, NULL or empty when not known). Returns 0, or -1
 * when out of memory or when h has no CPU. */
static int copy_all(struct topo *t, hwloc_topology_t h, const char *root, int live,
		    hwloc_const_bitmap_t online)
{
	if (topo_hw_copy(t, h, live, online) < 0 || topo_copy_coretypes(t, h) < 0)
		return -1;
	topo_mark_coretypes(t);
	/* the MIDRs are read from /sys: an XML has none */
	return root ? topo_regroup_by_part(t, h, root) : 0;
}

/* hwloc's CPUs are among the ones the tree's online list names (a cgroup
 * of the recorded tree may hide some, as lstopo hides them). Returns 0, or
 * -1 with e saying how they differ. */
static int check_cpus(const struct topo *t, hwloc_const_bitmap_t online, const char *root,
		      mt_error *e)
{
	hwloc_bitmap_t got = hwloc_bitmap_alloc();
	int same;
	if (!got)
		return mt_fail(e, _("out of memory"));
	for (int i = 0; i < t->ncpus; i++)
		hwloc_bitmap_set(got, (unsigned)t->cpus[i].os);
	same = hwloc_bitmap_iszero(online) || hwloc_bitmap_isincluded(got, online);
	hwloc_bitmap_free(got);
	if (!same)
		return mt_fail(e, _("%s/sys/devices/system/cpu: hwloc found %d CPUs, not all of them "
				  "in the online list's %d (a garbled tree)"), root, t->ncpus,
			       hwloc_bitmap_weight(online));
	return 0;
}

/* Loads this machine (root and xml NULL), a recorded tree or an XML. */
static int load(const char *sysfs_root, const char *xml, struct topo **out, mt_error *e)
{
	hwloc_bitmap_t online = hwloc_bitmap_alloc();
	hwloc_topology_t h = NULL;
	struct topo *t = NULL;
	const char *what = xml ? xml : sysfs_root ? sysfs_root : "this machine";
	*out = NULL;
	if (!online) {
		mt_fail(e, _("out of memory"));
		goto fail;
	}
	if (sysfs_root && topo_check_tree(sysfs_root, online, e) < 0)
		goto fail;
	if (xml && topo_check_xml(xml, e) < 0)
		goto fail;
	h = topo_hw_load(sysfs_root, xml, e);
	if (!h)
		goto fail;
	/* this machine's online list, unless HWLOC_XMLFILE stands in for it */
	if (!sysfs_root && !xml && !(getenv("HWLOC_XMLFILE") && *getenv("HWLOC_XMLFILE")))
		(void)topo_online_here(online);
	t = calloc(1, sizeof *t);
	if (!t || copy_all(t, h, sysfs_root ? sysfs_root : xml ? NULL : "", !sysfs_root && !xml,
			   xml ? NULL : online) < 0) {
		mt_fail(e, _("%s: hwloc found no CPU (or memory ran out)"), what);
		goto fail;
	}
	if (sysfs_root && check_cpus(t, online, sysfs_root, e) < 0)
		goto fail;
	t->recorded = xml ? 2 : sysfs_root ? 1 : 0;
	if (sysfs_root)
		mt_strlcpy(t->source, sysfs_root, sizeof t->source);
	else if (xml)
		mt_snprintf(t->source, sizeof t->source, "%s (an hwloc XML)", xml);
	else if (getenv("HWLOC_XMLFILE") && *getenv("HWLOC_XMLFILE"))
		mt_snprintf(t->source, sizeof t->source, "this machine as HWLOC_XMLFILE=%s describes it",
			    getenv("HWLOC_XMLFILE"));
	else
		mt_strlcpy(t->source, "this machine", sizeof t->source);
	hwloc_topology_destroy(h);
	hwloc_bitmap_free(online);
	*out = t;
	return 0;
fail:
	topo_free(t);
	if (h)
		hwloc_topology_destroy(h);
	hwloc_bitmap_free(online);
	return -1;
}

int topo_load(const char *sysfs_root, struct topo **out, mt_error *e)
{
	return load(sysfs_root, NULL, out, e);
}

int topo_load_xml(const char *path, struct topo **out, mt_error *e)
{
	return load(NULL, path, out, e);
}

static struct topo *this_machine;

static void load_this_machine(void)
{
	mt_error e;
	if (topo_load(NULL, &this_machine, &e) < 0)
		this_machine = NULL;
}

const struct topo *topo_this_machine(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, load_this_machine);
	return this_machine;
}

void topo_free(struct topo *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->nnodes; i++) {
		free(t->nodes[i].cpus.cpus);
		free(t->nodes[i].local.cpus);
	}
	for (int i = 0; i < t->nl2; i++)
		free(t->l2[i].cpus.cpus);
	for (int i = 0; i < t->nl3; i++)
		free(t->l3[i].cpus.cpus);
	for (int i = 0; i < t->nsmt; i++)
		free(t->smt[i].cpus);
	for (int i = 0; i < t->ncoretypes; i++)
		free(t->coretypes[i].cpus.cpus);
	for (int i = 0; i < t->ncaches; i++)
		free(t->caches[i].cpus.cpus);
	free(t->caches);
	free(t->dist);
	free(t->offline.cpus);
	free(t->unplaced.cpus);
	free(t->nodes);
	free(t->l2);
	free(t->l3);
	free(t->smt);
	free(t->coretypes);
	free(t->cpus);
	free(t);
}

const char *topo_hwloc_version(char *buf, size_t len)
{
#ifdef HWLOC_VERSION
	mt_strlcpy(buf, HWLOC_VERSION, len); /* the release built against */
#else
	unsigned v = hwloc_get_api_version();
	mt_snprintf(buf, len, "API %u.%u", v >> 16, (v >> 8) & 0xff);
#endif
	return buf;
}
