/* model_topo: the Topology tab's boxes from a topology, the figures put on
 * them, the cursor and the words for a box (model_topo.h); the layout is
 * model_topo_layout.c. No curses here. */
#include "config.h"
#include "base/i18n.h"

#include "model_topo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the boxes --------------------------------------------------------------- */

/* A part's id for CPU c (-1: none), the parts in their canonical order. */
static int part_id(const struct topo *t, const struct topo_cpu *c, int part)
{
	switch (part) {
	case TV_PACKAGE: return c->package;
	case TV_DIE: return t->dies > t->packages ? c->die : -1;
	case TV_NODE: return c->node;
	case TV_L3: return c->l3;
	case TV_L2: return c->l2;
	case TV_CORE: return c->core;
	default: return -1;
	}
}

/* The number of distinct ids of part among t's CPUs (0: the part is not
 * known); for L2, 0 too when no L2 is shared by two cores (then it is the
 * core's, said on the core). */
static int part_groups(const struct topo *t, int part)
{
	int n = 0, shared = 0;
	for (int i = 0; i < t->ncpus; i++) {
		int id = part_id(t, &t->cpus[i], part), seen = 0;
		for (int j = 0; j < i && id >= 0 && !seen; j++) {
			seen = part_id(t, &t->cpus[j], part) == id;
			shared |= seen && part == TV_L2 && t->cpus[j].core != t->cpus[i].core;
		}
		n += id >= 0 && !seen;
	}
	return part == TV_L2 && !shared ? 0 : n;
}

/* Does part nest in the parts chosen so far (each group of it inside one
 * group of outer, the last chosen)? */
static int nests(const struct topo *t, int part, int outer)
{
	int *seen, ok = 1;
	if (outer < 0)
		return 1;
	/* ids index t's arrays: below the CPUs' count, or the nodes' */
	seen = malloc(((size_t)t->ncpus + (size_t)t->nnodes + 1) * sizeof *seen);
	if (!seen)
		return 0;
	for (int i = 0; i < t->ncpus + t->nnodes + 1; i++)
		seen[i] = -2;
	for (int i = 0; i < t->ncpus && ok; i++) {
		int a = part_id(t, &t->cpus[i], part), o = part_id(t, &t->cpus[i], outer);
		if (a < 0 || a > t->ncpus + t->nnodes)
			continue;
		if (seen[a] == -2)
			seen[a] = o;
		ok = seen[a] == o;
	}
	free(seen);
	return ok;
}

/* The parts that make boxes, coarse to fine (fewest groups first, the
 * canonical order between equals), those that do not nest left out.
 * Returns their count. */
static int choose_parts(const struct topo *t, int *order)
{
	int groups[TV_NPART], n = 0;
	for (int p = TV_PACKAGE; p < TV_NPART; p++)
		groups[p] = part_groups(t, p);
	for (int round = 0; round < TV_NPART; round++) {
		int best = -1;
		for (int p = TV_PACKAGE; p < TV_NPART; p++) {
			int used = 0;
			for (int k = 0; k < n; k++)
				used |= order[k] == p;
			if (used || groups[p] <= 0)
				continue;
			if (best < 0 || groups[p] < groups[best])
				best = p;
		}
		if (best < 0)
			break;
		groups[best] = -groups[best]; /* taken (or dropped) */
		if (nests(t, best, n ? order[n - 1] : -1))
			order[n++] = best;
	}
	return n;
}

/* A CPU with the ids of the parts it sorts by, for sort_cpus. */
struct sort_key {
	int id[TV_NPART];
	int os;
};

static int cmp_key(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;
	for (int k = 0; k < TV_NPART; k++)
		if (x->id[k] != y->id[k])
			return (x->id[k] > y->id[k]) - (x->id[k] < y->id[k]);
	return (x->os > y->os) - (x->os < y->os);
}

/* v->cpus in box order: by the ids of parts[0..n), then by number.
 * Returns 0, or -1 out of memory. */
static int sort_cpus(struct topo_view *v, const int *parts, int n)
{
	const struct topo *t = v->t;
	struct sort_key *k = calloc((size_t)t->ncpus, sizeof *k);
	if (!k)
		return -1;
	for (int i = 0; i < t->ncpus; i++) {
		for (int j = 0; j < n; j++)
			k[i].id[j] = part_id(t, &t->cpus[i], parts[j]);
		k[i].os = t->cpus[i].os;
	}
	qsort(k, (size_t)t->ncpus, sizeof *k, cmp_key);
	for (int i = 0; i < t->ncpus; i++)
		v->cpus[i] = k[i].os;
	free(k);
	return 0;
}

/* A new box under parent (-1: the root), its CPUs v->cpus[c0 .. c0 + n). */
static int new_box(struct topo_view *v, int parent, int c0, int n)
{
	struct tv_box *b = &v->box[v->nbox];
	memset(b, 0, sizeof *b);
	for (int p = 0; p < TV_NPART; p++)
		b->index[p] = -1;
	b->parent = parent;
	b->first = b->next = b->vfirst = b->vnext = -1;
	b->want_open = -1;
	b->cpu0 = c0;
	b->ncpus = n;
	b->more_of = -1;
	if (parent >= 0) {
		int *link = &v->box[parent].first;
		while (*link >= 0)
			link = &v->box[*link].next;
		*link = v->nbox;
		b->depth = v->box[parent].depth + 1;
	}
	return v->nbox++;
}

/* The boxes of CPUs v->cpus[c0 .. c1) under box parent, from level k of
 * the chosen parts on: a group whose CPUs are its parent's merges into it. */
static void build_level(struct topo_view *v, const int *parts, int nparts, int parent, int c0,
			int c1, int k)
{
	for (int i = c0; k < nparts && i < c1;) {
		int p = parts[k], id = part_id(v->t, topo_cpu(v->t, v->cpus[i]), p), j = i, b;
		while (j < c1 && part_id(v->t, topo_cpu(v->t, v->cpus[j]), p) == id)
			j++;
		if (id < 0) {
			build_level(v, parts, nparts, parent, i, j, k + 1);
		} else {
			b = i == v->box[parent].cpu0 && j - i == v->box[parent].ncpus
				    ? parent
				    : new_box(v, parent, i, j - i);
			v->box[b].parts |= 1u << p;
			v->box[b].index[p] = id;
			build_level(v, parts, nparts, b, i, j, k + 1);
		}
		i = j;
	}
}

/* The innermost box whose CPUs hold every CPU of s (the root when s is
 * empty); pos[i]: where t's CPU i is in v->cpus. */
static int box_holding(const struct topo_view *v, const struct topo_set *s, const int *pos)
{
	int best = 0;
	for (int b = 1; b < v->nbox; b++) {
		const struct tv_box *x = &v->box[b];
		int all = s->n > 0;
		for (int i = 0; i < s->n && all; i++) {
			const struct topo_cpu *c = topo_cpu(v->t, s->cpus[i]);
			int at = c ? pos[c - v->t->cpus] : -1;
			all = at >= x->cpu0 && at < x->cpu0 + x->ncpus;
		}
		if (all && x->depth > v->box[best].depth)
			best = b;
	}
	return best;
}

/* The memory-only nodes, each beside the CPUs nearest it. */
static void memory_nodes(struct topo_view *v)
{
	const int *pos = v->at;
	for (int i = 0; i < v->t->nnodes; i++) {
		const struct topo_node *n = &v->t->nodes[i];
		int b;
		if (n->local.n)
			continue;
		b = new_box(v, box_holding(v, &n->cpus, pos), 0, 0);
		v->box[b].kind = TV_MEMORY;
		v->box[b].index[TV_NODE] = i;
	}
}

/* Each box's shape (a hash of its kind, parts, CPUs and children's shapes,
 * children first) and the deepest depth. */
static unsigned shape_of(struct topo_view *v, int b)
{
	struct tv_box *x = &v->box[b];
	unsigned h = 2166136261u;
	h = (h ^ (unsigned)x->kind) * 16777619u;
	h = (h ^ x->parts) * 16777619u;
	h = (h ^ (unsigned)x->ncpus) * 16777619u;
	if (x->kind == TV_MEMORY)
		h = (h ^ (unsigned)(v->t->nodes[x->index[TV_NODE]].memory >> 30)) * 16777619u;
	for (int c = x->first; c >= 0; c = v->box[c].next)
		h = (h ^ shape_of(v, c)) * 16777619u;
	if (x->depth > v->depth_max)
		v->depth_max = x->depth;
	return x->shape = h;
}

int tv_build(struct topo_view *v, const struct topo *t, mt_error *e)
{
	int parts[TV_NPART], nparts;
	memset(v, 0, sizeof *v);
	v->t = t;
	/* boxes: at most one a part a CPU, one a node, and one TV_MORE a box */
	v->cap = 2 * (t->ncpus * (TV_NPART + 1) + t->nnodes + 1);
	v->cpus = calloc((size_t)t->ncpus + 1, sizeof *v->cpus);
	v->at = calloc((size_t)t->ncpus + 1, sizeof *v->at);
	v->box = calloc((size_t)v->cap, sizeof *v->box);
	if (!v->cpus || !v->at || !v->box) {
		tv_free(v);
		return mt_fail(e, _("out of memory"));
	}
	for (int i = 0; i < t->ncpus; i++)
		v->cpus[i] = t->cpus[i].os;
	nparts = choose_parts(t, parts);
	new_box(v, -1, 0, t->ncpus);
	v->box[0].parts = 1u << TV_MACHINE;
	if (sort_cpus(v, parts, nparts) < 0) {
		tv_free(v);
		return mt_fail(e, _("out of memory"));
	}
	for (int i = 0; i < t->ncpus; i++)
		v->at[topo_cpu(t, v->cpus[i]) - t->cpus] = i;
	build_level(v, parts, nparts, 0, 0, t->ncpus, 0);
	memory_nodes(v);
	v->nbase = v->nbox;
	shape_of(v, 0);
	return 0;
}

void tv_free(struct topo_view *v)
{
	free(v->cpus);
	free(v->at);
	free(v->box);
	memset(v, 0, sizeof *v);
}

/* ---- words ------------------------------------------------------------------ */

const char *tv_cache_size(uint64_t b, char *buf, size_t len)
{
	if (b && b % (1024 * 1024) == 0)
		mt_snprintf(buf, len, _("%llu MB"), (unsigned long long)(b >> 20));
	else if (b && b % 1024 == 0)
		mt_snprintf(buf, len, _("%llu KB"), (unsigned long long)(b >> 10));
	else if (b)
		mt_snprintf(buf, len, _("%llu B"), (unsigned long long)b);
	else
		mt_strlcpy(buf, _("size not known"), len);
	return buf;
}

const char *tv_box_name(const struct topo_view *v, int b, char *buf, size_t len)
{
	const struct tv_box *x = &v->box[b];
	if (x->kind == TV_MORE) {
		mt_snprintf(buf, len, MT_NGETTEXT("%d more alike", "%d more alike", x->more),
			    x->more);
		return buf;
	}
	if (x->kind == TV_MEMORY) {
		mt_snprintf(buf, len, _("NUMA node %d (memory only)"),
			    v->t->nodes[x->index[TV_NODE]].os_index);
		return buf;
	}
	for (int p = TV_NPART - 1; p >= 0; p--) {
		int i;
		if (!(x->parts & (1u << p)))
			continue;
		i = p == TV_NODE ? v->t->nodes[x->index[p]].os_index : x->index[p];
		/* TRANSLATORS: a box of the Topology tab named in a sentence */
		switch (p) {
		case TV_MACHINE: mt_strlcpy(buf, _("the machine"), len); break;
		case TV_PACKAGE: mt_snprintf(buf, len, _("package %d"), i); break;
		case TV_DIE: mt_snprintf(buf, len, _("die %d"), i); break;
		case TV_NODE: mt_snprintf(buf, len, _("NUMA node %d"), i); break;
		case TV_L3: mt_snprintf(buf, len, _("L3 group %d"), i); break;
		case TV_L2: mt_snprintf(buf, len, _("L2 group %d"), i); break;
		default: mt_snprintf(buf, len, _("core %d"), i);
		}
		return buf;
	}
	return mt_strlcpy(buf, _("a box"), len), buf;
}

/* CPUs v->cpus[c0 .. c0 + n) sorted into out (room n), ascending. */
static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int tv_box_cpus(const struct topo_view *v, int b, int *cpus, int cap)
{
	const struct tv_box *x = &v->box[b];
	int n = 0;
	for (int c = x->cpu0; c < x->cpu0 + x->ncpus && n < cap; c++) {
		const struct topo_cpu *tc = topo_cpu(v->t, v->cpus[c]);
		if (tc && tc->allowed)
			cpus[n++] = v->cpus[c];
	}
	qsort(cpus, (size_t)n, sizeof *cpus, cmp_int);
	return n;
}

int tv_box_node(const struct topo_view *v, int b)
{
	for (; b >= 0; b = v->box[b].parent) {
		const struct tv_box *x = &v->box[b];
		if (x->kind == TV_MORE)
			b = x->more_of >= 0 ? x->more_of : 0;
		if (v->box[b].index[TV_NODE] >= 0)
			return v->t->nodes[v->box[b].index[TV_NODE]].os_index;
	}
	return -1;
}

/* ---- figures ------------------------------------------------------------------ */

/* The innermost box holding CPU cpu (the root when it is none of t's). */
static int box_of_cpu(const struct topo_view *v, int cpu)
{
	const struct topo_cpu *c = topo_cpu(v->t, cpu);
	int at = c ? v->at[c - v->t->cpus] : -1, b = 0, down = at >= 0;
	while (down) {
		down = 0;
		for (int k = v->box[b].first; k >= 0; k = v->box[k].next)
			if (v->box[k].kind == TV_BOX && at >= v->box[k].cpu0 &&
			    at < v->box[k].cpu0 + v->box[k].ncpus) {
				b = k;
				down = 1;
				break;
			}
	}
	return b;
}

/* From box b out, the first box that is part p (the root when none). */
static int up_to(const struct topo_view *v, int b, int p)
{
	for (int x = b; x >= 0; x = v->box[x].parent)
		if (v->box[x].parts & (1u << p))
			return x;
	return 0;
}

/* Appends a figure line to box b (dropped past TV_FIGS), marked '?' and
 * its reason kept when doubted. */
static void add_fig(struct topo_view *v, int b, int doubt, const char *why, const char *fmt, ...)
	MT_PRINTF(5, 6);
static void add_fig(struct topo_view *v, int b, int doubt, const char *why, const char *fmt, ...)
{
	struct tv_box *x = &v->box[b];
	va_list ap;
	if (x->nfig >= TV_FIGS)
		return;
	va_start(ap, fmt);
	mt_vhsnprintf(x->fig[x->nfig], sizeof x->fig[x->nfig], fmt, ap);
	va_end(ap);
	if (doubt) {
		mt_append(x->fig[x->nfig], sizeof x->fig[x->nfig], " ?");
		x->doubt = 1;
		if (why && !x->why[0])
			mt_strlcpy(x->why, why, sizeof x->why);
	}
	x->nfig++;
}

/* The cache levels measured on a CPU: L1 and L2 on its core (or the L2
 * group a level 2 is shared in), L3 on its L3 group, memory on its node. */
static void cache_figs(struct topo_view *v, const struct tv_figures *f)
{
	for (size_t i = 0; i < f->ncache; i++) {
		const struct tv_cache_fig *c = &f->cache[i];
		int in = box_of_cpu(v, c->cpu), part = c->level == 0   ? TV_NODE
						       : c->level == 1 ? TV_CORE
						       : c->level == 2 ? TV_L2
								       : TV_L3;
		int b = up_to(v, in, part);
		char sz[32];
		if (b == 0 && c->level == 2)
			b = up_to(v, in, TV_CORE);
		if (c->level == 0)
			add_fig(v, b, c->doubt, c->why, _("memory %.0f ns (%s, CPU %d)"), c->ns,
				_(c->from), c->cpu);
		else if (isnan(c->ns))
			add_fig(v, b, c->doubt, c->why, "L%d %s (%s)", c->level,
				mt_fmt_size(sz, sizeof sz, c->size), _(c->from));
		else
			add_fig(v, b, c->doubt, c->why, _("L%d %s %.1f ns (%s)"), c->level,
				mt_fmt_size(sz, sizeof sz, c->size), c->ns, _(c->from));
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of v[0..n) (sorted here). */
static double median(double *x, size_t n)
{
	qsort(x, n, sizeof *x, cmp_double);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* The innermost box holding both a and b. */
static int common_box(const struct topo_view *v, int a, int b)
{
	int x = box_of_cpu(v, a), y = box_of_cpu(v, b);
	while (x != y) {
		if (v->box[x].depth >= v->box[y].depth)
			x = v->box[x].parent;
		else
			y = v->box[y].parent;
		if (x < 0 || y < 0)
			return 0;
	}
	return x;
}

/* The core-to-core pairs: each box the median of the pairs it is the
 * innermost box of (the relation it stands for). */
static void pair_figs(struct topo_view *v, const struct tv_figures *f)
{
	int *where = calloc(f->npairs + 1, sizeof *where);
	double *ns = calloc(f->npairs + 1, sizeof *ns);
	if (!where || !ns)
		goto out;
	for (size_t i = 0; i < f->npairs; i++)
		where[i] = common_box(v, f->pairs[i].a, f->pairs[i].b);
	for (int b = 0; b < v->nbase; b++) {
		size_t n = 0, doubted = 0;
		char why[320];
		for (size_t i = 0; i < f->npairs; i++)
			if (where[i] == b && isfinite(f->pairs[i].ns)) {
				ns[n++] = f->pairs[i].ns;
				doubted += f->pairs[i].doubt != 0;
			}
		if (!n)
			continue;
		mt_snprintf(why, sizeof why,
			    MT_NGETTEXT("c2c: %zu of its %zu pair was doubted (their tries "
					"disagreed, or a thread moved)",
					"c2c: %zu of its %zu pairs were doubted (their tries "
					"disagreed, or a thread moved)",
					n),
			    doubted, n);
		if (n > 1)
			add_fig(v, b, doubted * 4 > n, why,
				MT_NGETTEXT("c2c %.1f ns, %zu pair", "c2c %.1f ns, %zu pairs", n),
				median(ns, n), n);
		else
			add_fig(v, b, doubted * 4 > n, why, _("c2c %.1f ns (1 pair)"), median(ns, n));
	}
out:
	free(where);
	free(ns);
}

/* A node pair's figures "92 ns, 12.3 GB/s" (what was measured) into buf. */
static const char *pair_words(double ns, double gbs, char *buf, size_t len)
{
	buf[0] = '\0';
	if (isfinite(ns))
		mt_happend(buf, len, _("%.0f ns"), ns);
	if (isfinite(gbs)) {
		mt_append(buf, len, "%s", buf[0] ? ", " : "");
		mt_happend(buf, len, _("%.1f GB/s"), gbs);
	}
	return buf;
}

/* The numa run's figures on node box b (node number os): as a CPU node,
 * its local pair and the median of its remote ones; as a memory-only node,
 * the nearest CPU node's. */
static void node_box_figs(struct topo_view *v, int b, int os, const struct tv_figures *f)
{
	double rns[64], rgb[64];
	size_t nr = 0, nrg = 0;
	const struct tv_node_fig *near = NULL;
	char w[64];
	int doubt = 0;
	const char *why = NULL;
	for (size_t i = 0; i < f->nnodes; i++) {
		const struct tv_node_fig *x = &f->nodes[i];
		if (v->box[b].kind == TV_MEMORY) {
			if (x->mem_node == os && isfinite(x->ns) && (!near || x->ns < near->ns))
				near = x;
			continue;
		}
		if (x->cpu_node != os)
			continue;
		if (x->mem_node == os) {
			add_fig(v, b, x->doubt, x->why, _("local %s"),
				pair_words(x->ns, x->gbs, w, sizeof w));
			continue;
		}
		if (isfinite(x->ns) && nr < MT_ARRAY_LEN(rns))
			rns[nr++] = x->ns;
		if (isfinite(x->gbs) && nrg < MT_ARRAY_LEN(rgb))
			rgb[nrg++] = x->gbs;
		if (x->doubt && !doubt)
			doubt = 1, why = x->why;
	}
	if (near)
		add_fig(v, b, near->doubt, near->why, _("from node %d: %s"), near->cpu_node,
			pair_words(near->ns, near->gbs, w, sizeof w));
	if (nr || nrg)
		add_fig(v, b, doubt, why, nr > 1 ? _("remote %s (median)") : _("remote %s"),
			pair_words(nr ? median(rns, nr) : (double)NAN,
				   nrg ? median(rgb, nrg) : (double)NAN, w, sizeof w));
}

void tv_figures(struct topo_view *v, const struct tv_figures *f)
{
	for (int b = 0; b < v->nbox; b++) {
		v->box[b].nfig = v->box[b].doubt = v->box[b].figs_in = 0;
		v->box[b].why[0] = '\0';
	}
	if (!f)
		return;
	for (int b = 0; b < v->nbase; b++)
		if (v->box[b].index[TV_NODE] >= 0)
			node_box_figs(v, b, v->t->nodes[v->box[b].index[TV_NODE]].os_index, f);
	cache_figs(v, f);
	pair_figs(v, f);
	for (int b = v->nbase - 1; b >= 0; b--) { /* children come after their parent */
		v->box[b].figs_in |= v->box[b].nfig > 0;
		if (v->box[b].parent >= 0)
			v->box[v->box[b].parent].figs_in |= v->box[b].figs_in;
	}
}

/* ---- the cursor and the words ------------------------------------------------- */

/* The drawn boxes under b in reading order (the visible tree, depth
 * first) appended to out at *n. */
static void drawn_under(const struct topo_view *v, int b, int *out, int *n)
{
	out[(*n)++] = b;
	for (int c = v->box[b].vfirst; c >= 0; c = v->box[c].vnext)
		drawn_under(v, c, out, n);
}

/* The drawn boxes in reading order into out. Returns their count. */
static int drawn(const struct topo_view *v, int *out)
{
	int n = 0;
	if (v->nbox > 0 && v->box[0].w > 0)
		drawn_under(v, 0, out, &n);
	return n;
}

/* Box b opened by the user, and every box around it (so that it shows). */
static void want_open(struct topo_view *v, int b)
{
	for (; b >= 0; b = v->box[b].parent)
		v->box[b].want_open = 1;
}

int tv_move(struct topo_view *v, int dir)
{
	int *list = calloc((size_t)v->nbox + 1, sizeof *list), n, at = -1, to = -1;
	const struct tv_box *x = &v->box[v->cur];
	if (!list)
		return 0;
	n = drawn(v, list);
	for (int i = 0; i < n; i++)
		if (list[i] == v->cur)
			at = i;
	if (dir == -1 || dir == 1)
		to = at >= 0 && at + dir >= 0 && at + dir < n ? list[at + dir] : -1;
	else if (dir == -2)
		to = x->kind == TV_MORE ? x->more_of : x->parent;
	else if (dir == 2 && x->vfirst >= 0)
		to = x->vfirst;
	else if (dir == 2 && x->first >= 0 && x->kind == TV_BOX) {
		want_open(v, v->cur);
		to = x->first;
	}
	free(list);
	if (to < 0)
		return 0;
	v->cur = to;
	return 1;
}

int tv_toggle(struct topo_view *v)
{
	struct tv_box *x = &v->box[v->cur];
	if (x->kind == TV_MORE) {
		v->box[x->more_of].all = 1;
		want_open(v, x->more_of);
		v->cur = x->hidden0 >= 0 ? x->hidden0 : x->more_of;
		return 1;
	}
	if (x->first < 0)
		return 0;
	if (x->open)
		x->want_open = 0;
	else
		want_open(v, v->cur);
	return 1;
}

/* Every part box b is, in words, into buf: "package 0, NUMA node 0, L3
 * group 0". */
static void parts_words(const struct topo_view *v, int b, char *buf, size_t len)
{
	char one[96];
	buf[0] = '\0';
	for (int p = 0; p < TV_NPART; p++) {
		struct tv_box tmp = v->box[b];
		struct topo_view only = *v;
		if (!(v->box[b].parts & (1u << p)))
			continue;
		tmp.parts = 1u << p;
		only.box = &tmp;
		mt_append(buf, len, "%s%s", buf[0] ? ", " : "",
			  tv_box_name(&only, 0, one, sizeof one));
	}
}

/* The CPUs of box b (all of them, and how many this process may use) in
 * words into buf: "CPUs 0-31 (32 CPUs, 16 cores)". */
static void cpus_words(const struct topo_view *v, int b, char *buf, size_t len)
{
	const struct tv_box *x = &v->box[b];
	int *c = calloc((size_t)x->ncpus + 1, sizeof *c), allowed = 0, cores = 0;
	struct topo_set s = { x->ncpus, c };
	char list[512];
	if (!c) {
		buf[0] = '\0';
		return;
	}
	for (int i = 0; i < x->ncpus; i++) {
		const struct topo_cpu *tc = topo_cpu(v->t, v->cpus[x->cpu0 + i]);
		c[i] = v->cpus[x->cpu0 + i];
		allowed += tc && tc->allowed;
		cores += tc &&
			 (i == 0 || tc->core != topo_cpu(v->t, v->cpus[x->cpu0 + i - 1])->core);
	}
	qsort(c, (size_t)x->ncpus, sizeof *c, cmp_int);
	mt_snprintf(buf, len, MT_NGETTEXT("CPU %s", "CPUs %s", x->ncpus),
		    topo_set_text(&s, list, sizeof list));
	mt_append(buf, len, " (");
	mt_append(buf, len, MT_NGETTEXT("%d CPU", "%d CPUs", x->ncpus), x->ncpus);
	mt_append(buf, len, ", ");
	mt_append(buf, len, MT_NGETTEXT("%d core", "%d cores", cores), cores);
	if (allowed < x->ncpus)
		mt_append(buf, len, MT_NGETTEXT("; %d this process may use",
						"; %d this process may use", allowed),
			  allowed);
	mt_append(buf, len, ")");
	free(c);
}

/* The memory and caches of box b, a line each into lines from *n. */
static void parts_details(const struct topo_view *v, int b, char lines[][TV_LINE], int max, int *n)
{
	const struct tv_box *x = &v->box[b];
	const struct topo *t = v->t;
	char sz[32], near[256];
	if (x->index[TV_NODE] >= 0 && *n < max) {
		const struct topo_node *nd = &t->nodes[x->index[TV_NODE]];
		mt_snprintf(lines[(*n)++], TV_LINE, _("NUMA node %d: %s%s%s"), nd->os_index,
			    mt_hfmt_mem(sz, sizeof sz, nd->memory), nd->tier[0] ? " " : "",
			    nd->tier);
		if (x->kind == TV_MEMORY && *n < max)
			mt_snprintf(lines[(*n)++], TV_LINE, _("no CPUs of its own; near CPUs %s"),
				    topo_set_text(&nd->cpus, near, sizeof near));
		/* node distances: when the topology carries them (hwloc's), a line
		 * here names this node's to every other */
	}
	if (x->index[TV_L3] >= 0 && *n < max)
		mt_snprintf(lines[(*n)++], TV_LINE, _("L3 %s, shared by its CPUs"),
			    tv_cache_size(t->l3[x->index[TV_L3]].size, sz, sizeof sz));
	if (x->index[TV_L2] >= 0 && *n < max)
		mt_snprintf(lines[(*n)++], TV_LINE, _("L2 %s, shared by its CPUs"),
			    tv_cache_size(t->l2[x->index[TV_L2]].size, sz, sizeof sz));
	if (x->index[TV_CORE] >= 0 && *n < max && x->ncpus > 0) {
		const struct topo_cpu *c = topo_cpu(t, v->cpus[x->cpu0]);
		const struct topo_coretype *k =
			c && c->coretype >= 0 ? &t->coretypes[c->coretype] : NULL;
		char l2[32];
		if (k)
			mt_snprintf(lines[(*n)++], TV_LINE, _("core type %s: L1d %s, L2 %s"), k->name,
				    tv_cache_size(k->l1d, sz, sizeof sz),
				    tv_cache_size(k->l2, l2, sizeof l2));
	}
}

int tv_details(const struct topo_view *v, char lines[][TV_LINE], int max)
{
	const struct tv_box *x = &v->box[v->cur];
	char buf[TV_LINE];
	int n = 0;
	if (max <= 0 || v->nbox == 0)
		return 0;
	if (x->kind == TV_MORE) {
		mt_snprintf(lines[n++], TV_LINE,
			    MT_NGETTEXT("%d more alike, folded: Enter shows them",
					"%d more alike, folded: Enter shows them", x->more),
			    x->more);
		return n;
	}
	if (x->kind == TV_MEMORY)
		tv_box_name(v, v->cur, lines[n++], TV_LINE);
	else
		parts_words(v, v->cur, lines[n++], TV_LINE);
	if (x->ncpus > 0 && n < max)
		cpus_words(v, v->cur, lines[n++], TV_LINE);
	parts_details(v, v->cur, lines, max, &n);
	for (int i = 0; i < x->nfig && n < max; i++)
		mt_snprintf(lines[n++], TV_LINE, TV_MEASURED, x->fig[i]);
	if (x->doubt && x->why[0] && n < max) {
		mt_snprintf(buf, sizeof buf, "? %s", x->why);
		mt_strlcpy(lines[n++], buf, TV_LINE);
	}
	return n;
}
