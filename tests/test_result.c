/* Unit tests of the result kinds (src/result/, run/result_kind.h): every
 * bundled result file is told its kind and loads through it; a written
 * kind's JSON reads back to the same bytes; files written before results
 * named their experiment are told by their shape; a file of no known kind
 * is refused in one line naming it; the registry's names are unique. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "base/jsonio.h"
#include "os/datadir.h"
#include "result/result.h"

/* Every bundled result and the kind it is. */
static const struct {
	const char *file, *kind;
} bundled[] = {
	{ "m4max.json", "mountain" },
	{ "ref/csapp-corei7h-mountain.json", "mountain" },
	{ "ref/rpi5-a76-latency.json", "latency" },
	{ "ref/intel-n100-latency.json", "latency" },
	{ "ref/matmul-m4max.json", "matmul" },
	{ "ref/falseshare-m4max.json", "falseshare" },
	{ "ref/lists-m4max.json", "lists" },
	{ "ref/csapp-haswell-card.json", "card" },
};

static void test_registry(void **state)
{
	size_t n, nx, with_kind = 0;
	const struct result_kind *const *k = result_kinds(&n);
	const struct experiment *const *x = experiment_all(&nx);
	(void)state;
	/* every experiment's kind is registered, and the card and a topology besides */
	for (size_t i = 0; i < nx; i++)
		if (x[i]->kind) {
			assert_ptr_equal(result_kind_find(x[i]->kind->name), x[i]->kind);
			with_kind++;
		}
	assert_int_equal(n, with_kind + 2);
	assert_non_null(result_kind_find("card"));
	assert_non_null(result_kind_find("topo"));
	assert_null(k[n]);
	for (size_t i = 0; i < n; i++) {
		assert_non_null(k[i]->name);
		assert_non_null(k[i]->what);
		assert_non_null(k[i]->load);
		assert_non_null(k[i]->free);
		assert_ptr_equal(result_kind_find(k[i]->name), k[i]);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(k[i]->name, k[j]->name);
	}
	assert_null(result_kind_find("algae"));
	/* derived from the experiments: their kinds in their order, the card and a
	 * topology last */
	for (size_t i = 0, j = 0; i < nx; i++)
		if (x[i]->kind)
			assert_ptr_equal(k[j++], x[i]->kind);
	assert_string_equal(k[n - 2]->name, "card");
	assert_string_equal(k[n - 1]->name, "topo");
	assert_null(x[nx]);
	for (size_t i = 0; i < nx; i++)
		assert_ptr_equal(experiment_find(x[i]->name), x[i]);
	assert_null(experiment_find("nosuch"));
}

static void test_bundled_files(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bundled / sizeof bundled[0]; i++) {
		char path[4096];
		struct result_file f;
		mt_error e = { "" };
		assert_non_null(mt_data_path(bundled[i].file, path, sizeof path));
		if (result_file_load(path, &f, &e) < 0)
			fail_msg("%s: %s", bundled[i].file, e.msg);
		assert_string_equal(f.kind->name, bundled[i].kind);
		assert_ptr_equal(f.path, path);
		assert_non_null(result_kind_header(f.r));
		assert_true(result_kind_header(f.r)->hardware[0] != '\0');
		result_file_free(&f);
		assert_null(f.kind);
	}
}

/* The kind's JSON of a loaded result, printed (a new string). */
static char *printed(const struct result_file *f)
{
	cJSON *j = f->kind->to_json(f->r);
	char *s;
	assert_non_null(j);
	s = cJSON_Print(j);
	cJSON_Delete(j);
	assert_non_null(s);
	return s;
}

/* Loaded, written, loaded again, written again: the same bytes. */
static void test_round_trip(void **state)
{
	char tmp[] = "/tmp/memtop-test-result-XXXXXX";
	int fd = mkstemp(tmp);
	(void)state;
	assert_true(fd >= 0);
	close(fd);
	for (size_t i = 0; i < sizeof bundled / sizeof bundled[0]; i++) {
		char path[4096], *a, *b;
		struct result_file f, g;
		mt_error e = { "" };
		FILE *out;
		assert_non_null(mt_data_path(bundled[i].file, path, sizeof path));
		assert_int_equal(result_file_load(path, &f, &e), 0);
		if (!f.kind->to_json) { /* the card: read, never written */
			result_file_free(&f);
			continue;
		}
		a = printed(&f);
		assert_non_null(out = fopen(tmp, "w"));
		fputs(a, out);
		fclose(out);
		if (result_file_load(tmp, &g, &e) < 0)
			fail_msg("%s written: %s", bundled[i].file, e.msg);
		assert_ptr_equal(g.kind, f.kind);
		b = printed(&g);
		assert_string_equal(a, b);
		free(a);
		free(b);
		result_file_free(&f);
		result_file_free(&g);
	}
	unlink(tmp);
}

/* The kind result_kind_of tells for JSON text (NULL: none). */
static const char *kind_of(const char *text)
{
	cJSON *root = cJSON_Parse(text);
	const struct result_kind *k;
	assert_non_null(root);
	k = result_kind_of(root);
	cJSON_Delete(root);
	return k ? k->name : NULL;
}

static void test_older_shapes(void **state)
{
	(void)state;
	assert_string_equal(kind_of("{\"sizes\":[],\"throughput\":[]}"), "mountain");
	assert_string_equal(kind_of("{\"cycles\":[],\"ns\":[],\"throughput\":[]}"), "mountain");
	assert_string_equal(kind_of("{\"cycles\":[],\"ns\":[]}"), "latency");
	assert_string_equal(kind_of("{\"mode\":\"race\",\"results\":[],\"line_bytes\":64}"),
			    "matmul");
	assert_string_equal(kind_of("{\"results\":[{\"layout\":\"padded\"}]}"), "falseshare");
	assert_string_equal(kind_of("{\"results\":[{\"cells\":4,\"layout\":\"random\"}]}"),
			    "lists");
	assert_null(kind_of("{\"results\":[{\"layout\":\"random\"}]}"));
	assert_null(kind_of("{}"));
	assert_null(kind_of("[1,2]"));
	/* a file that names its experiment is that experiment, whatever its shape */
	assert_string_equal(kind_of("{\"experiment\":\"latency\",\"throughput\":[]}"), "latency");
	assert_null(kind_of("{\"experiment\":\"other\",\"cycles\":[],\"ns\":[]}"));
	assert_string_equal(kind_of("{\"experiment\":\"card\"}"), "card");
	/* memtop topo --json: a topology, by its shape */
	assert_string_equal(kind_of("{\"packages\":1,\"numa_nodes\":1,\"l3_groups\":[],"
				    "\"core_kinds\":[],\"smt_siblings\":[]}"), "topo");
}

/* A file of no kind: one line naming it and what memtop reads. */
static void test_unknown(void **state)
{
	char tmp[] = "/tmp/memtop-test-result-XXXXXX";
	int fd = mkstemp(tmp);
	struct result_file f;
	mt_error e = { "" };
	(void)state;
	assert_true(fd >= 0);
	assert_true(write(fd, "{\"experiment\":\"algae\"}", 22) == 22);
	close(fd);
	assert_int_equal(result_file_load(tmp, &f, &e), -1);
	assert_null(f.kind);
	assert_non_null(strstr(e.msg, tmp));
	assert_non_null(strstr(e.msg, "a \"algae\" result; memtop reads mountain, latency,"));
	assert_null(strchr(e.msg, '\n'));
	assert_true(write(fd = open(tmp, O_WRONLY | O_TRUNC), "{\"x\":1}", 7) == 7);
	close(fd);
	assert_int_equal(result_file_load(tmp, &f, &e), -1);
	assert_non_null(strstr(e.msg, "not a memtop result"));
	unlink(tmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_bundled_files),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_older_shapes),
		cmocka_unit_test(test_unknown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
