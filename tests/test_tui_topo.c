/* Unit tests of the Topology tab's model (tui/model_topo.c,
 * model_topo_layout.c), curses-free, on the synthetic servers of
 * tests/testmachine.h and a 2 x 64-core machine: the boxes nest as the
 * CPUs do; laid out at 80x24's picture (80 x 16) and at 200x60's (166 x
 * 55), every box fits inside its parent and the area, no two siblings
 * overlap, every title is its words whole or the first of them; the
 * 2 x 64 machine shows both packages at 80 columns and every core at 200;
 * a box opened with the cursor folds alike cores into "x 28 more cores";
 * the figures measured land on the boxes they were measured on. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testmachine.h"
#include "tui/model_topo.h"

static char tmpdir[] = "/tmp/memtop-tui-topo-XXXXXX";

/* 2 packages of 2 nodes, each node one L3 of 32 cores (hwloc's Kunpeng 920 tree). */
#define TWO_BY_64 "pack:2 group:2 [numa(memory=126GiB)] l3:1(size=32MiB) core:32 pu:1"

static struct machine *machine_of(const char *desc, const char *const *extras)
{
	struct machine *m = testmachine(tmpdir, desc, extras);
	if (!m || !m->topo) {
		print_message("# hwloc or memtop refused '%s'\n", desc);
		abort();
	}
	return m;
}

/* Every box's CPUs lie in its parent's, its children's one after another;
 * the machine's are all of them. */
static void check_nesting(const struct topo_view *v)
{
	assert_int_equal(v->box[0].cpu0, 0);
	assert_int_equal(v->box[0].ncpus, v->t->ncpus);
	for (int b = 0; b < v->nbase; b++) {
		const struct tv_box *x = &v->box[b];
		int at = x->cpu0;
		for (int c = x->first; c >= 0; c = v->box[c].next) {
			const struct tv_box *k = &v->box[c];
			assert_int_equal(k->parent, b);
			assert_int_equal(k->depth, x->depth + 1);
			if (k->kind == TV_MEMORY)
				continue;
			assert_int_equal(k->cpu0, at); /* children partition their parent */
			at += k->ncpus;
		}
		if (x->first >= 0 && v->box[x->first].kind != TV_MEMORY)
			assert_int_equal(at, x->cpu0 + x->ncpus);
	}
}

/* The drawn boxes: inside the area and their parent's inside, siblings
 * apart, titles in whole words. Returns how many are drawn. */
static int check_layout(const struct topo_view *v, int width, int height)
{
	int drawn = 0;
	char whole[TV_LINE];
	assert_true(v->width <= width);
	assert_true(v->height <= height);
	for (int b = 0; b < v->nbox; b++) {
		const struct tv_box *x = &v->box[b];
		size_t n;
		if (x->w <= 0)
			continue;
		drawn++;
		assert_true(x->x >= 0 && x->y >= 0 && x->x + x->w <= width &&
			    x->y + x->h <= height);
		for (int c = x->vfirst; c >= 0; c = v->box[c].vnext) {
			const struct tv_box *k = &v->box[c];
			assert_true(k->x > x->x && k->x + k->w < x->x + x->w);
			assert_true(k->y > x->y && k->y + k->h < x->y + x->h);
			for (int d = k->vnext; d >= 0; d = v->box[d].vnext) {
				const struct tv_box *o = &v->box[d];
				assert_true(o->x >= k->x + k->w || o->x + o->w <= k->x ||
					    o->y >= k->y + k->h || o->y + o->h <= k->y);
			}
		}
		/* the title: its words whole, or the first of them */
		tv_box_words(v, b, whole, sizeof whole);
		n = strlen(x->title);
		assert_memory_equal(x->title, whole, n);
		if (!x->title_cut)
			assert_int_equal(n, strlen(whole));
		else if (n)
			assert_true(whole[n] == ' ');
		assert_true((int)n + (x->flat ? 1 : 3) + x->title_cut <= x->w);
	}
	return drawn;
}

/* The drawn boxes that are part p. */
static int drawn_parts(const struct topo_view *v, int p)
{
	int n = 0;
	for (int b = 0; b < v->nbase; b++)
		n += v->box[b].w > 0 && (v->box[b].parts & (1u << p));
	return n;
}

static void servers(void **state)
{
	static const int sizes[][2] = { { 80, 16 }, { 166, 55 }, { 120, 40 } };
	char out[1 << 16];
	(void)state;
	for (size_t i = 0; i < MT_ARRAY_LEN(testmachine_servers); i++) {
		const struct testmachine_server *x = &testmachine_servers[i];
		struct machine *m = machine_of(x->desc, x->extras);
		struct topo_view v;
		mt_error e;
		assert_int_equal(tv_build(&v, m->topo, &e), 0);
		check_nesting(&v);
		for (size_t k = 0; k < MT_ARRAY_LEN(sizes); k++) {
			if (tv_layout(&v, sizes[k][0], sizes[k][1]) < 0)
				fail_msg("%s: nothing fits in %d x %d", x->name, sizes[k][0],
					 sizes[k][1]);
			assert_true(check_layout(&v, sizes[k][0], sizes[k][1]) >= 1);
			assert_int_equal(tv_render(&v, out, sizeof out), 0);
			for (const char *p = out; *p;
			     p++) /* ASCII, lines no wider than the picture */
				assert_true(*p == '\n' || (*p >= ' ' && *p <= '~'));
		}
		tv_free(&v);
		machine_free(m);
	}
}

/* Hwloc's 2 x 64-core Kunpeng shape: both packages and all four nodes at
 * 80 columns; every one of the 128 cores at 200x60's picture. */
static void two_by_64(void **state)
{
	struct machine *m = machine_of(TWO_BY_64, NULL);
	struct topo_view v;
	mt_error e;
	(void)state;
	assert_int_equal(tv_build(&v, m->topo, &e), 0);
	assert_int_equal(tv_layout(&v, 80, 16), 0);
	check_layout(&v, 80, 16);
	assert_int_equal(drawn_parts(&v, TV_PACKAGE), 2);
	assert_int_equal(drawn_parts(&v, TV_NODE), 4);
	assert_int_equal(tv_layout(&v, 166, 55), 0);
	check_layout(&v, 166, 55);
	assert_int_equal(drawn_parts(&v, TV_CORE), 128);
	assert_int_equal(v.nbox, v.nbase); /* nothing folded */
	tv_free(&v);
	machine_free(m);
}

/* The cursor folds node 0 at 80 columns and opens it again: a few cores
 * and the rest folded into one box that says how many; Enter on that box
 * shows them all. */
static void cursor_opens(void **state)
{
	struct machine *m = machine_of(TWO_BY_64, NULL);
	struct topo_view v;
	char words[TV_LINE];
	int node = -1, more = -1, cores;
	mt_error e;
	(void)state;
	assert_int_equal(tv_build(&v, m->topo, &e), 0);
	assert_int_equal(tv_layout(&v, 80, 16), 0);
	for (int b = 0; b < v.nbase; b++)
		if (v.box[b].index[TV_NODE] == 0)
			node = b;
	assert_true(node > 0);
	v.cur = node;
	if (v.box[node].open) { /* open: Enter folds it */
		assert_int_equal(tv_toggle(&v), 1);
		assert_int_equal(tv_layout(&v, 80, 16), 0);
		assert_false(v.box[node].open);
	}
	assert_int_equal(tv_toggle(&v), 1);
	assert_int_equal(tv_layout(&v, 80, 16), 0);
	check_layout(&v, 80, 16);
	assert_true(v.box[node].open);
	for (int b = v.nbase; b < v.nbox; b++)
		if (v.box[b].more_of == node && v.box[b].w > 0)
			more = b;
	assert_true(more >= 0);
	cores = 0;
	for (int c = v.box[node].vfirst; c >= 0; c = v.box[c].vnext)
		cores += v.box[c].kind == TV_BOX;
	assert_int_equal(cores + v.box[more].more, 32);
	mt_snprintf(words, sizeof words, "x %d more cores", v.box[more].more);
	assert_memory_equal(v.box[more].title, words, strlen(words));
	v.cur = more;
	assert_int_equal(tv_toggle(&v), 1);
	assert_int_equal(tv_layout(&v, 166, 55), 0);
	cores = 0;
	for (int c = v.box[node].vfirst; c >= 0; c = v.box[c].vnext)
		cores += v.box[c].kind == TV_BOX;
	assert_int_equal(cores, 32);
	tv_free(&v);
	machine_free(m);
}

/* The box of machine part p whose index is i. */
static int box_of(const struct topo_view *v, int p, int i)
{
	for (int b = 0; b < v->nbase; b++)
		if ((v->box[b].parts & (1u << p)) && v->box[b].index[p] == i)
			return b;
	fail_msg("no box of part %d index %d", p, i);
	return -1;
}

/* 2 packages x 4 nodes x 14 cores x 2 CPUs (siblings side by side): each
 * figure on the box it was measured on. */
static void figures_land(void **state)
{
	static const struct tv_cache_fig cache[] = {
		{ 2, 1, 48 << 10, 1.2, 0, "latency", NULL },
		{ 2, 2, 2 << 20, 4.5, 0, "latency", NULL },
		{ 2, 3, 96 << 20, 30.0, 1, "latency",
		  "the curve is still short of the next level" },
		{ 2, 0, 0, 110.0, 0, "latency", NULL },
	};
	static const struct tv_pair_fig pairs[] = {
		{ 0, 1, 10.0, 0 },    { 2, 3, 12.0, 0 }, /* SMT: each core's own */
		{ 0, 2, 40.0, 0 },    { 0, 4, 42.0, 0 }, { 2, 4, 44.0, 0 }, /* node 0 */
		{ 0, 112, 150.0, 0 },                                       /* other package */
	};
	static const struct tv_node_fig nodes[] = {
		{ 0, 0, 90.0, 20.0, 0, NULL },
		{ 0, 1, 110.0, 15.0, 0, NULL },
		{ 0, 4, 150.0, 9.0, 1, "moved" },
	};
	struct tv_figures f = { cache, MT_ARRAY_LEN(cache), pairs, MT_ARRAY_LEN(pairs),
				nodes, MT_ARRAY_LEN(nodes) };
	struct machine *m = machine_of(testmachine_servers[0].desc, NULL);
	struct topo_view v;
	char lines[12][TV_LINE];
	int core1, node0, l3, n;
	mt_error e;
	(void)state;
	assert_int_equal(tv_build(&v, m->topo, &e), 0);
	tv_figures(&v, &f);
	core1 = box_of(&v, TV_CORE, 1); /* CPUs 2 and 3 */
	node0 = box_of(&v, TV_NODE, 0);
	l3 = box_of(&v, TV_L3, 0);
	assert_int_equal(v.box[core1].nfig, 3); /* L1, L2 (private: on the core), c2c */
	assert_string_equal(v.box[core1].fig[0], "L1 48K 1.2 ns (latency)");
	assert_string_equal(v.box[core1].fig[1], "L2 2M 4.5 ns (latency)");
	assert_string_equal(v.box[core1].fig[2], "c2c 12.0 ns (1 pair)");
	assert_string_equal(v.box[l3].fig[0], "L3 96M 30.0 ns (latency) ?");
	assert_true(v.box[l3].doubt);
	assert_string_equal(v.box[l3].why, "the curve is still short of the next level");
	assert_string_equal(v.box[node0].fig[0], "local 90 ns, 20.0 GB/s");
	assert_string_equal(v.box[node0].fig[1], "remote 130 ns, 12.0 GB/s (median) ?");
	assert_string_equal(v.box[node0].fig[2], "memory 110 ns (latency, CPU 2)");
	assert_string_equal(v.box[node0].fig[3], "c2c 42.0 ns, 3 pairs");
	assert_string_equal(v.box[0].fig[0], "c2c 150.0 ns (1 pair)");
	v.cur = node0;
	n = tv_details(&v, lines, 12);
	assert_true(n >= 4);
	assert_string_equal(lines[0], "NUMA node 0");
	assert_string_equal(lines[1], "CPUs 0-27 (28 CPUs, 14 cores)");
	assert_string_equal(lines[2], "NUMA node 0: 64.0 GB");
	tv_free(&v);
	machine_free(m);
}

/* A memory-only node (HBM beside DRAM) is its own box, beside the CPUs
 * nearest it, with what the CPU nodes reach it in; the cursor's keys get
 * its node and no CPU. */
static void memory_node(void **state)
{
	static const struct tv_node_fig nodes[] = { { 0, 1, 180.0, 5.0, 0, NULL },
						    { 2, 1, 250.0, 3.0, 0, NULL } };
	struct tv_figures f = { NULL, 0, NULL, 0, nodes, MT_ARRAY_LEN(nodes) };
	const struct testmachine_server *x = NULL;
	struct machine *m;
	struct topo_view v;
	int hbm = -1, cpus[4];
	mt_error e;
	(void)state;
	for (size_t i = 0; i < MT_ARRAY_LEN(testmachine_servers); i++)
		if (strcmp(testmachine_servers[i].name, "xeon-max-flat-hbm") == 0)
			x = &testmachine_servers[i];
	assert_non_null(x);
	m = machine_of(x->desc, x->extras);
	assert_int_equal(tv_build(&v, m->topo, &e), 0);
	for (int b = 0; b < v.nbase; b++)
		if (v.box[b].kind == TV_MEMORY && v.t->nodes[v.box[b].index[TV_NODE]].os_index == 1)
			hbm = b;
	assert_true(hbm > 0);
	assert_true(v.box[v.box[hbm].parent].parts & (1u << TV_PACKAGE));
	assert_int_equal(v.box[v.box[hbm].parent].index[TV_PACKAGE], 0);
	tv_figures(&v, &f);
	assert_string_equal(v.box[hbm].fig[0], "from node 0: 180 ns, 5.0 GB/s");
	assert_int_equal(tv_box_node(&v, hbm), 1);
	assert_int_equal(tv_box_cpus(&v, hbm, cpus, 4), 0);
	tv_free(&v);
	machine_free(m);
}

static int teardown(void **state)
{
	(void)state;
	rmdir(tmpdir);
	return 0;
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(servers),      cmocka_unit_test(two_by_64),
		cmocka_unit_test(cursor_opens), cmocka_unit_test(figures_land),
		cmocka_unit_test(memory_node),
	};
	return cmocka_run_group_tests_name("tui_topo", tests, setup, teardown);
}
