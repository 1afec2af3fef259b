/* Unit tests of memtop plot's SVG (src/plot/): the writer escapes what it
 * is given and closes every element; the mountain is one quadrilateral per
 * cell of the grid over its floor, coloured by the levels the cliff finder
 * reads; the latency picture has a curve per stride plus the random chase
 * and marks its levels; the lab charts have a bar per measured value; a
 * bandwidth result has a point per cell and a line per ceiling; files
 * of two kinds are refused, and a kind with no picture is said in one
 * line. Counts are exact: they follow from the grids. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bandwidth/bandwidth.h"
#include "latency/latency.h"
#include "matmul/matmul.h"
#include "mountain/mountain_json.h"
#include "mountain/rowlevels.h"
#include "os/datadir.h"
#include "plot/plot.h"
#include "result/result.h"
#include "testlib.h"

/* Occurrences of needle in hay. */
static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The part of the document inside <g class="CLS"> ... its </g> (the first
 * such group), copied into a new string. */
static char *group(const char *doc, const char *cls)
{
	char open[64];
	const char *a, *b;
	char *out;
	snprintf(open, sizeof open, "<g class=\"%s\">", cls);
	a = strstr(doc, open);
	assert_non_null(a);
	b = strstr(a, "</g>");
	assert_non_null(b);
	out = strndup(a, (size_t)(b - a));
	assert_non_null(out);
	return out;
}

/* Occurrences of needle in doc's group of class cls (group()). */
static size_t count_in(const char *doc, const char *cls, const char *needle)
{
	char *part = group(doc, cls);
	size_t n = count(part, needle);
	free(part);
	return n;
}

/* Well-formed: after the XML declaration every start tag is closed by its
 * own end tag or is empty ("/>"), in order; nothing but escapes uses '&'. */
static void assert_well_formed(const char *doc)
{
	char stack[64][32];
	int depth = 0;
	const char *p = strstr(doc, "?>");
	assert_non_null(p);
	for (p = strchr(p, '<'); p; p = strchr(p + 1, '<')) {
		const char *end = strchr(p, '>');
		char name[32];
		size_t n;
		assert_non_null(end);
		if (p[1] == '/') {
			n = strcspn(p + 2, " >");
			assert_true(depth > 0);
			depth--;
			assert_int_equal(strlen(stack[depth]), n);
			assert_memory_equal(stack[depth], p + 2, n);
			continue;
		}
		n = strcspn(p + 1, " />");
		assert_true(n > 0 && n < sizeof name);
		if (end[-1] == '/')
			continue; /* empty element */
		assert_true(depth < 64);
		memcpy(stack[depth], p + 1, n);
		stack[depth++][n] = '\0';
	}
	assert_int_equal(depth, 0);
	for (p = strchr(doc, '&'); p; p = strchr(p + 1, '&'))
		assert_true(strncmp(p, "&amp;", 5) == 0 || strncmp(p, "&lt;", 4) == 0 ||
			    strncmp(p, "&gt;", 4) == 0 || strncmp(p, "&quot;", 6) == 0 ||
			    strncmp(p, "&apos;", 6) == 0);
}

static void writer_escapes_and_closes(void **state)
{
	struct svg s;
	mt_error e;
	const char *doc;
	(void)state;
	assert_int_equal(svg_begin(&s, 100, 50, "a <title> & \"quotes\""), 0);
	svg_group(&s, "part");
	svg_text(&s, 1, 2, 10, SVG_START, 0, 0, NULL, "x < y & 'z' \x01\xff end");
	svg_group_end(&s);
	doc = svg_finish(&s, &e);
	assert_non_null(doc);
	assert_non_null(strstr(doc, "<title>a &lt;title&gt; &amp; &quot;quotes&quot;</title>"));
	/* the control byte is left out, the byte that is not UTF-8 becomes '?' */
	assert_non_null(strstr(doc, ">x &lt; y &amp; &apos;z&apos; ? end</text>"));
	assert_well_formed(doc);
	svg_free(&s);
}

/* The seed's M4 Max mountain, drawn. */
static char *draw_file(const char *path, size_t *quads)
{
	struct result_file in;
	struct svg s;
	mt_error e = { "" };
	char *doc;
	assert_int_equal(result_file_load(path, &in, &e), 0);
	assert_int_equal(plot_draw(&in, 1, &s, &e), 0);
	doc = strdup(svg_finish(&s, &e));
	assert_non_null(doc);
	if (quads && in.kind == &kind_mountain) {
		const struct mountain *m = in.r;
		*quads = (m->nsizes - 1) * (m->nstrides - 1);
	}
	svg_free(&s);
	result_file_free(&in);
	return doc;
}

/* The seed's mountain drawn: its axes' labels; the cliff finder's one
 * level on the M4 (the seed: only the L1 cliff), whose last cliff is no
 * largest cache: the rows past it are not memory. */
static const char *const seed_axes[] = {
	">128M</text>", ">16K</text>", ">s15</text>", ">Size (bytes)</text>",
};
static const char *const seed_levels[] = {
	">L1 (up to 128K)</text>", ">beyond the last cache seen</text>",
};

static void mountain_is_one_quad_per_cell(void **state)
{
	char path[4096], *doc, *surface, *levels, *axes;
	size_t quads = 0;
	(void)state;
	assert_non_null(mt_data_path("m4max.json", path, sizeof path));
	doc = draw_file(path, &quads);
	assert_well_formed(doc);
	surface = group(doc, "surface");
	/* 11 sizes x 5 strides: 10 x 4 cells, every one measured */
	assert_int_equal(quads, 40);
	assert_int_equal(count(surface, "<polygon"), quads);
	axes = group(doc, "axes");
	assert_int_equal(count(axes, "<polygon"), 1); /* the floor */
	MT_ASSERT_HOLDS(axes, seed_axes);
	levels = group(doc, "levels");
	MT_ASSERT_HOLDS(levels, seed_levels);
	/* the file says whose figures: its hardware field */
	assert_non_null(strstr(doc, "The seed&apos;s figures (seed 000): Apple M4 Max"));
	free(surface);
	free(levels);
	free(axes);
	free(doc);
}

static void two_mountains_side_by_side(void **state)
{
	char path[4096];
	struct result_file in[2];
	struct svg s;
	mt_error e;
	const char *doc;
	(void)state;
	assert_non_null(mt_data_path("m4max.json", path, sizeof path));
	assert_int_equal(result_file_load(path, &in[0], &e), 0);
	assert_int_equal(result_file_load(path, &in[1], &e), 0);
	assert_int_equal(plot_draw(in, 2, &s, &e), 0);
	doc = svg_finish(&s, &e);
	assert_non_null(doc);
	assert_int_equal(count(doc, "<g class=\"surface\">"), 2);
	assert_non_null(strstr(doc, ">A: The seed"));
	assert_non_null(strstr(doc, ">B: The seed"));
	assert_well_formed(doc);
	svg_free(&s);
	result_file_free(&in[0]);
	result_file_free(&in[1]);
}

/* The M4 Max mountain held against a latency run's levels: its L1 cliff at
 * 128K agrees with a 128 KB L1 (the cliffs' range kept), the 16 MB L2 the
 * mountain shows no cliff for is read from the run and said, and memory,
 * reached by the run from 32 MB, is what lies past it. */
static void mountain_held_against_latency_levels(void **state)
{
	char path[4096], *levels, *captions;
	struct result_file in;
	struct other_levels o;
	struct svg s;
	mt_error e;
	const char *doc;
	(void)state;
	memset(&o, 0, sizeof o);
	o.size[0] = 128 << 10;
	o.size[1] = 16 << 20;
	o.n = 2;
	o.memory = 1;
	o.memory_from = 32 << 20;
	mt_strlcpy(o.what, "the latency run", sizeof o.what);
	mt_strlcpy(o.file, "lat.json", sizeof o.file);
	assert_non_null(mt_data_path("m4max.json", path, sizeof path));
	assert_int_equal(result_file_load(path, &in, &e), 0);
	memset(&s, 0, sizeof s);
	assert_int_equal(mountain_plot_with(&in, 1, &o, &s), 0);
	doc = svg_finish(&s, &e);
	assert_non_null(doc);
	assert_well_formed(doc);
	levels = group(doc, "levels");
	assert_non_null(strstr(levels, ">L1 (up to 128K)</text>"));
	assert_non_null(strstr(levels, ">L2 (up to 16M)</text>"));
	assert_non_null(strstr(levels, ">beyond: memory</text>"));
	captions = group(doc, "captions");
	assert_int_equal(count(captions, "<text"), 1);
	assert_non_null(strstr(captions, ">L2 read from the latency run: 16 MB (lat.json); the "
					 "mountain shows no cliff there</text>"));
	free(levels);
	free(captions);
	svg_free(&s);
	result_file_free(&in);
}

/* A latency run with two strides and the random chase: 4K..4M, 3 plateaus
 * (4, 14 and 100 ns) with steps after 32K and 1M. */
static void write_latency(const char *path)
{
	struct latency_params p;
	struct latency_result *r;
	mt_error e;
	cJSON *root;
	latency_params_quick(&p);
	r = latency_result_new(&p, 1.0);
	assert_non_null(r);
	for (size_t i = 0; i < r->nsizes; i++) {
		double ns = r->sizes[i] <= 32768 ? 4 : r->sizes[i] <= (1u << 20) ? 14 : 100;
		for (size_t k = 0; k < r->nstrides; k++) {
			r->ns[k][i] = ns;
			r->cycles[k][i] = ns;
		}
		if (r->has_random)
			r->random_ns[i] = r->random_cycles[i] = ns;
	}
	root = latency_to_json(r);
	assert_non_null(root);
	assert_int_equal(jsonio_save(path, root, &e), 0);
	cJSON_Delete(root);
	latency_result_free(r);
}

static void latency_curves_and_levels(void **state)
{
	char path[] = "/tmp/memtop-test-plot-XXXXXX", file[64], *doc, *curves, *levels;
	struct result_file in;
	(void)state;
	assert_non_null(mkdtemp(path));
	snprintf(file, sizeof file, "%s/lat.json", path);
	write_latency(file);
	doc = draw_file(file, NULL);
	assert_well_formed(doc);
	{
		mt_error e;
		assert_int_equal(result_file_load(file, &in, &e), 0);
	}
	curves = group(doc, "curves");
	/* one polyline per fixed stride and one for the random chase */
	{
		const struct latency_result *r = in.r;
		assert_int_equal(count(curves, "<polyline"), r->nstrides + (r->has_random ? 1 : 0));
	}
	levels = group(doc, "levels");
	assert_non_null(strstr(levels, ">L1 32K: 4.0 c, 4.00 ns</text>"));
	assert_non_null(strstr(levels, ">L2 1M: 14.0 c, 14.00 ns</text>"));
	assert_non_null(strstr(levels, ">memory: 100 ns</text>"));
	result_file_free(&in);
	free(curves);
	free(levels);
	free(doc);
	unlink(file);
	rmdir(path);
}

static void lab_bars_and_kinds(void **state)
{
	char mm[4096], mtn[4096], *doc, *bars;
	struct result_file in[2];
	struct svg s;
	mt_error e = { "" };
	(void)state;
	assert_non_null(mt_data_path("ref/matmul-m4max.json", mm, sizeof mm));
	doc = draw_file(mm, NULL);
	assert_well_formed(doc);
	bars = group(doc, "bars");
	/* the seed's seven orders, one bar each, with their ns per iteration */
	assert_int_equal(count(bars, "<rect"), 7);
	assert_non_null(strstr(bars, ">2.23</text>"));
	assert_non_null(strstr(bars, ">0.22</text>"));
	free(bars);
	free(doc);
	/* a mountain with a matmul result: refused, naming both */
	assert_non_null(mt_data_path("m4max.json", mtn, sizeof mtn));
	assert_int_equal(result_file_load(mtn, &in[0], &e), 0);
	assert_int_equal(result_file_load(mm, &in[1], &e), 0);
	assert_int_equal(plot_draw(in, 2, &s, &e), -1);
	assert_non_null(strstr(e.msg, "plot two files of one kind"));
	svg_free(&s);
	result_file_free(&in[0]);
	result_file_free(&in[1]);
	/* a kind with no picture: one line saying so and what is drawn */
	assert_non_null(mt_data_path("ref/csapp-haswell-card.json", mm, sizeof mm));
	assert_int_equal(result_file_load(mm, &in[0], &e), 0);
	assert_int_equal(plot_draw(in, 1, &s, &e), -1);
	assert_non_null(strstr(e.msg, ": memtop plot draws no picture of a summary card (it draws "
				      "mountains, latency runs, matmul results, false sharing "
				      "results, lists results, bandwidth results, core-to-core "
				      "latency results, numa results)"));
	assert_null(strchr(e.msg, '\n'));
	svg_free(&s);
	result_file_free(&in[0]);
}

/* The bandwidth picture of a recorded quick run on the Xeon guest (Golden
 * Cove ceilings; tests/data/README): a point per kernel and level at one
 * thread (6 kernels x 3 levels), a ceiling line where the core has one (5
 * kernels at L1 and L2: none for copy_nt's streaming stores, none at
 * DRAM), each point's share of its ceiling or, without one, its GB/s, the
 * levels named; a core the table lacks keeps the points and draws no line. */
static void bandwidth_against_ceilings(void **state)
{
	const char *dir = getenv("TESTDATA");
	char path[4096], *doc, *part;
	struct result_file in;
	struct svg s;
	mt_error e = { "" };
	(void)state;
	snprintf(path, sizeof path, "%s/bandwidth-xeon-vm-quick.json", dir ? dir : "tests/data");
	doc = draw_file(path, NULL);
	assert_well_formed(doc);
	assert_int_equal(count_in(doc, "points", "<circle"), 18);
	assert_int_equal(count_in(doc, "ceilings", "<line"), 10);
	part = group(doc, "labels");
	assert_int_equal(count(part, "<text"), 18);
	/* L1 read_vector 359.5 GB/s of 128 B a cycle at 3.59 GHz; L2 copy;
	 * copy_nt at L1 and DRAM read, no ceiling: the GB/s */
	assert_non_null(strstr(part, ">78%</text>"));
	assert_non_null(strstr(part, ">39%</text>"));
	assert_non_null(strstr(part, ">50.27</text>"));
	assert_non_null(strstr(part, ">27.27</text>"));
	free(part);
	part = group(doc, "levels");
	assert_non_null(strstr(part, ">L1 24K</text>"));
	assert_non_null(strstr(part, ">L2 1M</text>"));
	assert_non_null(strstr(part, ">DRAM 16M</text>"));
	free(part);
	part = group(doc, "legend");
	assert_non_null(strstr(part, "ceiling at the level, Golden Cove&apos;s ports and fills at "
				     "3.59 GHz</text>"));
	assert_non_null(strstr(part, "(the clock measured during the run)"));
	free(part);
	free(doc);
	/* a core the table lacks: the points, no line, and why */
	assert_int_equal(result_file_load(path, &in, &e), 0);
	bandwidth_cpu_id_parse("CPU implementer\t: 0x61\nCPU part\t: 0x023\n",
			       &((struct bandwidth_result *)in.r)->cpu);
	assert_int_equal(plot_draw(&in, 1, &s, &e), 0);
	doc = strdup(svg_finish(&s, &e));
	assert_int_equal(count_in(doc, "ceilings", "<line"), 0);
	assert_int_equal(count_in(doc, "points", "<circle"), 18);
	assert_non_null(strstr(doc, ">no ceiling known for this core: the points alone</text>"));
	free(doc);
	svg_free(&s);
	result_file_free(&in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(writer_escapes_and_closes),
		cmocka_unit_test(mountain_is_one_quad_per_cell),
		cmocka_unit_test(two_mountains_side_by_side),
		cmocka_unit_test(mountain_held_against_latency_levels),
		cmocka_unit_test(latency_curves_and_levels),
		cmocka_unit_test(lab_bars_and_kinds),
		cmocka_unit_test(bandwidth_against_ceilings),
	};
	return cmocka_run_group_tests_name("plot", tests, NULL, NULL);
}
