/* A topology read back from its JSON (topo.h's topo_from_json): what
 * `memtop topo --json` wrote, or the "topology" a result carries, read
 * strictly, every index checked against what it indexes, so that a file
 * gives the same struct topo the machine gave. Plain data: no hwloc. */
#include "config.h"

#include "topo.h"
#include "base/i18n.h"
#include "base/jsonio.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODES 4096 /* NUMA nodes a topology may have here */
#define MAX_KINDS 16   /* core types */

int topo_json_is(const cJSON *root)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, "cpu_places_are");
	return cJSON_IsString(a) && strcmp(a->valuestring, TOPO_PLACES_ARE) == 0;
}

/* The index into t->cpus of CPU os (t->cpus ascending), or -1. */
static int cpu_at(const struct topo *t, int os)
{
	int lo = 0, hi = t->ncpus - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (t->cpus[mid].os == os)
			return mid;
		if (t->cpus[mid].os < os)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* An integer item of an array in [min, max] into *v. Returns 0, or -1
 * with e naming the field (what, "[i]"). */
static int int_item(const cJSON *x, const char *path, const char *what, int i, long min, long max,
		    int *v, mt_error *e)
{
	double d = cJSON_IsNumber(x) ? x->valuedouble : (double)NAN;
	/* in range before any cast: never a cast of a file's 3e94 */
	if (!(d >= (double)min && d <= (double)max) || d != floor(d))
		return mt_fail(e, _("%s: %s[%d]: expected a whole number from %ld to %ld"),
			       path, what,
			       i, min, max);
	*v = (int)d;
	return 0;
}

/* The array a (what names it) of CPUs of t, ascending, into s. Returns 0,
 * or -1 with e. */
static int read_set(const cJSON *a, const char *path, const char *what, const struct topo *t,
		    struct topo_set *s, mt_error *e)
{
	int n = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : -1, i = 0;
	const cJSON *x;
	s->n = 0;
	s->cpus = NULL;
	if (n < 0 || n > t->ncpus)
		return mt_fail(e, _("%s: %s: expected a list of the CPUs (at most %d)"), path, what,
			       t->ncpus);
	if (n && !(s->cpus = calloc((size_t)n, sizeof *s->cpus)))
		return mt_fail(e, _("out of memory"));
	cJSON_ArrayForEach(x, a) {
		int c;
		if (int_item(x, path, what, i, 0, MT_CPU_LIST_MAX - 1, &c, e) < 0)
			return -1;
		if (cpu_at(t, c) < 0 || (i && c <= s->cpus[i - 1]))
			return mt_fail(e, _("%s: %s[%d]: CPU %d is not one of cpu_places, or not in "
					  "ascending order"), path, what, i, c);
		s->cpus[i++] = c;
		s->n = i;
	}
	return 0;
}

/* The count of key in o, in [min, max], into *v. Returns 0 or -1. */
static int count(const cJSON *o, const char *key, const char *path, long min, long max, int *v,
		 mt_error *e)
{
	long l;
	if (jsonio_int(o, key, path, min, max, &l, e) < 0)
		return -1;
	*v = (int)l;
	return 0;
}

/* The CPUs: cpu_places, cpus and allowed_cpus. Returns 0 or -1. */
static int read_cpus(const cJSON *root, const char *path, struct topo *t, mt_error *e)
{
	const cJSON *a, *row;
	int i = 0;
	if (!cJSON_GetObjectItemCaseSensitive(root, "cpu_places"))
		return mt_fail(e, _("%s: cpu_places: missing (a memtop topo --json of a memtop "
				  "before CPU places: write it again)"), path);
	if (!(a = jsonio_array(root, "cpu_places", path, e)) ||
	    count(root, "cpus", path, 1, MT_CPU_LIST_MAX, &t->ncpus, e) < 0)
		return -1;
	if (cJSON_GetArraySize(a) != t->ncpus)
		return mt_fail(e, _("%s: cpu_places: %d rows for %d CPUs"), path,
			       cJSON_GetArraySize(a), t->ncpus);
	if (!(t->cpus = calloc((size_t)t->ncpus, sizeof *t->cpus)))
		return mt_fail(e, _("out of memory"));
	cJSON_ArrayForEach(row, a) {
		struct topo_cpu *c = &t->cpus[i];
		int v[9];
		char what[48];
		mt_snprintf(what, sizeof what, "cpu_places[%d]", i);
		if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != 9)
			return mt_fail(e, _("%s: %s: expected 9 numbers (%s)"), path, what,
				       TOPO_PLACES_ARE);
		for (int k = 0; k < 9; k++)
			if (int_item(cJSON_GetArrayItem(row, k), path, what, k, k ? -1 : 0,
				     MT_CPU_LIST_MAX - 1, &v[k], e) < 0)
				return -1;
		if (i && v[0] <= t->cpus[i - 1].os)
			return mt_fail(e, _("%s: %s[0]: CPU %d after CPU %d (ascending, each once)"),
				       path, what, v[0], t->cpus[i - 1].os);
		*c = (struct topo_cpu){ .os = v[0], .core = v[1], .package = v[2], .die = v[3],
					.node = v[4], .l2 = v[5], .l3 = v[6], .coretype = v[7],
					.allowed = v[8] > 0 };
		t->nallowed += c->allowed;
		i++;
	}
	return 0;
}

/* Each CPU's parts against the counts they index; its node's number into
 * an index into t->nodes. Returns 0, or -1 with e. */
static int check_places(const char *path, struct topo *t, mt_error *e)
{
	for (int i = 0; i < t->ncpus; i++) {
		struct topo_cpu *c = &t->cpus[i];
		const struct {
			int v, n;
			const char *what;
		} parts[] = { { c->core, t->cores, "core" },
			      { c->package, t->packages, "package" },
			      { c->die, t->dies, "die" },
			      { c->l2, t->nl2, "l2_group" },
			      { c->l3, t->nl3, "l3_group" },
			      { c->coretype, t->ncoretypes, "kind" } };
		int node = -1;
		for (size_t k = 0; k < MT_ARRAY_LEN(parts); k++)
			if (parts[k].v >= parts[k].n)
				return mt_fail(e, _("%s: cpu_places[%d]: %s %d of %d"), path, i,
					       parts[k].what, parts[k].v, parts[k].n);
		for (int k = 0; k < t->nnodes && c->node >= 0; k++)
			if (t->nodes[k].os_index == c->node)
				node = k;
		if (c->node >= 0 && node < 0)
			return mt_fail(e, _("%s: cpu_places[%d]: node %d is not one of nodes"),
				       path,
				       i, c->node);
		c->node = node;
	}
	return 0;
}

/* The nodes (ascending numbers), their memory, tier and CPUs near them;
 * their own CPUs from cpu_places (after check_places). Returns 0 or -1. */
static int read_nodes(const cJSON *root, const char *path, struct topo *t, mt_error *e)
{
	const cJSON *a = jsonio_array(root, "nodes", path, e), *x;
	int i = 0;
	if (!a)
		return -1;
	if (cJSON_GetArraySize(a) > MAX_NODES)
		return mt_fail(e, _("%s: nodes: more than %d"), path, MAX_NODES);
	if (cJSON_GetArraySize(a) &&
	    !(t->nodes = calloc((size_t)cJSON_GetArraySize(a), sizeof *t->nodes)))
		return mt_fail(e, _("out of memory"));
	cJSON_ArrayForEach(x, a) {
		struct topo_node *n = &t->nodes[i];
		const cJSON *near;
		char what[48];
		long v;
		double mem;
		mt_snprintf(what, sizeof what, "nodes[%d]", i);
		t->nnodes = i + 1;
		if (jsonio_int(x, "node", path, i ? t->nodes[i - 1].os_index + 1 : 0, 1 << 20, &v,
			       e) < 0 ||
		    jsonio_number(x, "memory", path, &mem, e) < 0)
			return -1;
		if (mem < 0 || mem > 1e18)
			return mt_fail(e, _("%s: %s.memory: expected bytes, got %g"),
				       path, what, mem);
		n->os_index = (int)v;
		n->memory = (uint64_t)mem;
		jsonio_opt_string(x, "tier", n->tier, sizeof n->tier);
		/* the CPUs hwloc puts the node beside: near_cpus (a node's "cpus"
		 * are its own since near_cpus came; a file from before has its
		 * locality in "cpus") */
		near = cJSON_GetObjectItemCaseSensitive(x, "near_cpus");
		mt_strlcpy(what + strlen(what), near ? ".near_cpus" : ".cpus",
			   sizeof what - strlen(what));
		if (read_set(near ? near : cJSON_GetObjectItemCaseSensitive(x, "cpus"), path, what, t,
			     &n->cpus, e) < 0)
			return -1;
		i++;
	}
	return 0;
}

/* key's cache groups: [{"size","cpus"}]. Returns 0 or -1. */
static int read_groups(const cJSON *root, const char *key, const char *path, const struct topo *t,
		       struct topo_cache_group **g, int *n, mt_error *e)
{
	const cJSON *a = jsonio_array(root, key, path, e), *x;
	int i = 0;
	if (!a)
		return -1;
	if (cJSON_GetArraySize(a) > t->ncpus)
		return mt_fail(e, _("%s: %s: more groups than CPUs"), path, key);
	if (cJSON_GetArraySize(a) && !(*g = calloc((size_t)cJSON_GetArraySize(a), sizeof **g)))
		return mt_fail(e, _("out of memory"));
	cJSON_ArrayForEach(x, a) {
		char what[48];
		double size;
		*n = i + 1;
		mt_snprintf(what, sizeof what, "%s[%d].cpus", key, i);
		if (jsonio_number(x, "size", path, &size, e) < 0)
			return -1;
		if (size < 0 || size > 1e15)
			return mt_fail(e, _("%s: %s[%d].size: expected bytes, got %g"),
				       path, key, i,
				       size);
		(*g)[i].size = (uint64_t)size;
		if (read_set(cJSON_GetObjectItemCaseSensitive(x, "cpus"), path, what, t,
			     &(*g)[i].cpus, e) < 0)
			return -1;
		i++;
	}
	return 0;
}

/* The core types, fastest first (at least one). Returns 0 or -1. */
static int read_kinds(const cJSON *root, const char *path, struct topo *t, mt_error *e)
{
	const cJSON *a = jsonio_array(root, "core_kinds", path, e), *x;
	int i = 0;
	if (!a)
		return -1;
	if (cJSON_GetArraySize(a) < 1 || cJSON_GetArraySize(a) > MAX_KINDS)
		return mt_fail(e, _("%s: core_kinds: expected 1 to %d core types"),
			       path, MAX_KINDS);
	if (!(t->coretypes = calloc((size_t)cJSON_GetArraySize(a), sizeof *t->coretypes)))
		return mt_fail(e, _("out of memory"));
	cJSON_ArrayForEach(x, a) {
		struct topo_coretype *k = &t->coretypes[i];
		char what[48];
		t->ncoretypes = i + 1;
		jsonio_opt_string(x, "name", k->name, sizeof k->name);
		if (!k->name[0])
			return mt_fail(e, _("%s: core_kinds[%d].name: missing"), path, i);
		jsonio_opt_string(x, "detail", k->detail, sizeof k->detail);
		k->efficiency = (int)jsonio_opt_int(x, "efficiency", -1, 1 << 20, -1);
		k->l1d = (uint64_t)jsonio_opt_int(x, "l1d", 0, 1L << 40, 0);
		k->l2 = (uint64_t)jsonio_opt_int(x, "l2", 0, 1L << 40, 0);
		mt_snprintf(what, sizeof what, "core_kinds[%d].cpus", i);
		if (read_set(cJSON_GetObjectItemCaseSensitive(x, "cpus"), path, what, t, &k->cpus,
			     e) < 0)
			return -1;
		i++;
	}
	return 0;
}

/* The SMT siblings (a core's CPUs, cores of two or more). Returns 0 or -1. */
static int read_smt(const cJSON *root, const char *path, struct topo *t, mt_error *e)
{
	const cJSON *a = jsonio_array(root, "smt_siblings", path, e), *x;
	int i = 0;
	if (!a)
		return -1;
	if (cJSON_GetArraySize(a) > t->ncpus)
		return mt_fail(e, _("%s: smt_siblings: more cores than CPUs"), path);
	if (cJSON_GetArraySize(a) &&
	    !(t->smt = calloc((size_t)cJSON_GetArraySize(a), sizeof *t->smt)))
		return mt_fail(e, _("out of memory"));
	cJSON_ArrayForEach(x, a) {
		char what[48];
		t->nsmt = i + 1;
		mt_snprintf(what, sizeof what, "smt_siblings[%d]", i);
		if (read_set(x, path, what, t, &t->smt[i], e) < 0)
			return -1;
		i++;
	}
	return 0;
}

/* "distances" when the file has them (null or absent: not known): one row
 * of nnodes whole numbers a node. Returns 0, or -1 with e. */
static int read_distances(const cJSON *root, const char *path, struct topo *t, mt_error *e)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, "distances"), *row;
	int i = 0;
	if (!a || cJSON_IsNull(a) || t->nnodes == 0)
		return 0;
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != t->nnodes)
		return mt_fail(e, _("%s: distances: expected %d rows (one a node) or null"), path,
			       t->nnodes);
	if (!(t->dist = calloc((size_t)t->nnodes * (size_t)t->nnodes, sizeof *t->dist)))
		return mt_fail(e, _("out of memory"));
	cJSON_ArrayForEach(row, a) {
		char what[48];
		int j = 0;
		const cJSON *x;
		mt_snprintf(what, sizeof what, "distances[%d]", i);
		if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != t->nnodes)
			return mt_fail(e, _("%s: %s: expected %d values"), path, what, t->nnodes);
		cJSON_ArrayForEach(x, row) {
			if (int_item(x, path, what, j, 1, 1000000, &t->dist[i * t->nnodes + j], e) < 0)
				return -1;
			j++;
		}
		i++;
	}
	return 0;
}

/* What the firmware and the CPU said, when the file has it. */
static void read_about(const cJSON *root, struct topo *t)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, "about");
	for (const struct topo_about_field *f = topo_about_fields; f->key; f++)
		jsonio_opt_string(a, f->key, (char *)&t->about + f->off, f->size);
}

int topo_from_json(const cJSON *root, const char *path, struct topo **out, mt_error *e)
{
	struct topo *t = calloc(1, sizeof *t);
	*out = NULL;
	if (!t)
		return mt_fail(e, _("out of memory"));
	if (!cJSON_IsObject(root)) {
		mt_fail(e, _("%s: not a topology (a JSON object)"), path);
		goto fail;
	}
	t->recorded = 3;
	jsonio_opt_string(root, "source", t->source, sizeof t->source);
	if (count(root, "packages", path, 0, MT_CPU_LIST_MAX, &t->packages, e) < 0 ||
	    count(root, "dies", path, 0, MT_CPU_LIST_MAX, &t->dies, e) < 0 ||
	    count(root, "cores", path, 0, MT_CPU_LIST_MAX, &t->cores, e) < 0 ||
	    read_cpus(root, path, t, e) < 0 || read_nodes(root, path, t, e) < 0 ||
	    read_groups(root, "l2_groups", path, t, &t->l2, &t->nl2, e) < 0 ||
	    read_groups(root, "l3_groups", path, t, &t->l3, &t->nl3, e) < 0 ||
	    read_kinds(root, path, t, e) < 0 || read_smt(root, path, t, e) < 0 ||
	    check_places(path, t, e) < 0 ||
	    (topo_fill_local(t) < 0 && mt_fail(e, _("out of memory")) < 0) ||
	    read_distances(root, path, t, e) < 0)
		goto fail;
	read_about(root, t);
	*out = t;
	return 0;
fail:
	topo_free(t);
	return -1;
}
