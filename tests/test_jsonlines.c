/* Unit tests of the JSON-lines reader (base/jsonlines): the lines pdsh,
 * clush and GNU parallel --tag collect from many hosts, a whole file, and
 * the bad input each refused in one line naming the file and line, the set
 * left as it was; and a fleet's short names (fleet/fleet.h), none alike. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/jsonio.h"
#include "base/jsonlines.h"
#include "fleet/fleet.h"

static char path[64];

/* text written to a fresh temporary file, whose name is in path. */
static void file_with(const char *text)
{
	int fd;
	mt_strlcpy(path, "/tmp/memtop-jsonl-XXXXXX", sizeof path);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* Read text as a file into a fresh set with at most max results; the
 * count (or -1) and the error in e. */
static int read_text(const char *text, size_t max, struct jsonl_set *set, mt_error *e)
{
	int n;
	memset(set, 0, sizeof *set);
	file_with(text);
	n = jsonl_read(path, NULL, max, set, e);
	unlink(path);
	return n;
}

/* e's message after the path: "line 3: ...". */
static const char *after_path(const mt_error *e)
{
	size_t n = strlen(path);
	assert_memory_equal(e->msg, path, n);
	return e->msg + n + 2;
}

static void pdsh_clush_and_parallel_prefixes(void **state)
{
	struct jsonl_set set;
	mt_error e = { "" };
	(void)state;
	assert_int_equal(read_text("lab01: {\"experiment\":\"latency\",\"a\":1}\n"
				   "\n"
				   "lab02:{\"experiment\":\"latency\",\"a\":2}\r\n"
				   "lab-03.example.org\t{\"a\":3}\n"
				   "{\"a\":4}\n",
				   10, &set, &e),
			 4);
	assert_int_equal(set.n, 4);
	assert_string_equal(set.e[0].name, "lab01");
	assert_int_equal(set.e[0].line, 1);
	assert_string_equal(set.e[1].name, "lab02");
	assert_int_equal(set.e[1].line, 3);
	assert_string_equal(set.e[2].name, "lab-03.example.org");
	assert_string_equal(set.e[3].name, "");
	assert_int_equal(set.e[3].line, 5);
	assert_int_equal(cJSON_GetObjectItem(set.e[2].root, "a")->valueint, 3);
	assert_string_equal(set.e[1].where + strlen(path), ": line 3 (lab02)");
	jsonl_free(&set);
}

static void whole_file_is_one_result(void **state)
{
	struct jsonl_set set;
	mt_error e = { "" };
	(void)state;
	assert_int_equal(read_text("{\n  \"experiment\": \"mountain\",\n  \"a\": [1, 2]\n}\n", 10,
				   &set, &e),
			 1);
	assert_int_equal(set.e[0].line, 0);
	assert_string_equal(set.e[0].name, "");
	jsonl_free(&set);
	/* one pretty-printed document broken at line 3: said as the whole file's */
	assert_int_equal(read_text("{\n  \"a\": 1,\n  \"b\": ]\n}\n", 10, &set, &e), -1);
	assert_string_equal(after_path(&e), "not valid JSON near line 3");
	assert_int_equal(set.n, 0);
}

static void bad_lines_refused_in_one_line(void **state)
{
	struct jsonl_set set;
	mt_error e = { "" };
	(void)state;
	assert_int_equal(read_text("a: {\"x\":1}\nb: [1,2]\n", 10, &set, &e), -1);
	assert_string_equal(after_path(&e), "line 2: not a memtop result (no JSON object on the line)");
	assert_int_equal(read_text("a: {\"x\":1}\npdsh@h: b: ssh exited with exit code 255\n", 10,
				   &set, &e),
			 -1);
	assert_string_equal(after_path(&e),
			    "line 2: not a memtop result (no JSON object on the line)");
	/* pdsh of a pretty-printed result: one line is "lab01: {" */
	assert_int_equal(read_text("lab01: {\"x\":1}\nlab02: {\nlab02:   \"x\": 1\nlab02: }\n", 10,
				   &set, &e),
			 -1);
	assert_string_equal(after_path(&e), "line 2 (lab02): not valid JSON (a pretty-printed "
					    "result? give memtop run --compact)");
	assert_int_equal(read_text("lab\033[2J01: {\"x\":1}\n", 10, &set, &e), -1);
	assert_string_equal(after_path(&e), "line 1: the host name before the result has control "
					    "characters (byte 0x1b at column 4)");
	assert_int_equal(read_text("\n \n", 10, &set, &e), -1);
	assert_string_equal(after_path(&e), "no result in the file (empty)");
	assert_int_equal(set.n, 0);
}

static void bounded_count_and_set_kept(void **state)
{
	struct jsonl_set set;
	mt_error e = { "" };
	int n;
	(void)state;
	assert_int_equal(read_text("a: {\"x\":1}\nb: {\"x\":2}\nc: {\"x\":3}\n", 2, &set, &e), -1);
	assert_string_equal(after_path(&e), "more than 2 results (memtop reads at most 2 at once)");
	assert_int_equal(set.n, 0);
	/* a second file that fails leaves the first file's results as they were */
	assert_int_equal(read_text("a: {\"x\":1}\n", 10, &set, &e), 1);
	file_with("b: {\"x\":2}\nc: 7\n");
	n = jsonl_read(path, NULL, 10, &set, &e);
	unlink(path);
	assert_int_equal(n, -1);
	assert_int_equal(set.n, 1);
	assert_string_equal(set.e[0].name, "a");
	jsonl_free(&set);
	assert_null(set.e);
}

/* Only latency results wanted: a mountain line is refused by name. */
static int is_latency(const cJSON *root)
{
	const char *x = jsonio_experiment(root);
	return x && strcmp(x, "latency") == 0;
}

static void caller_decides_what_is_a_result(void **state)
{
	struct jsonl_set set;
	mt_error e = { "" };
	(void)state;
	memset(&set, 0, sizeof set);
	file_with("h1: {\"experiment\":\"latency\"}\nh2: {\"experiment\":\"mountain\"}\n");
	assert_int_equal(jsonl_read(path, is_latency, 10, &set, &e), -1);
	unlink(path);
	assert_string_equal(after_path(&e), "line 2 (h2): not a memtop result");
	assert_int_equal(set.n, 0);
}

/* A fleet's short names (fleet_short_names): what fits stays; what is cut
 * reads '~' at its end; two that would read alike keep their ends, from
 * where they differ: numa's two latencies were both "local l~", thirty
 * clones' labels "ubuntu#ab~". */
static void short_names_distinct(void **state)
{
	const char *cols[] = { "local latency", "local latency, 2 MB pages", "read",
			       "triad bandwidth" };
	const char *rows[] = { "ubuntu#abcd000000000001", "ubuntu#abcd000000000002", "lab01" };
	char out[4][32];
	(void)state;
	fleet_short_names(4, cols, 8, out);
	assert_string_equal(out[0], "loca~ncy");
	assert_string_equal(out[1], "l~ pages");
	assert_string_equal(out[2], "read");
	assert_string_equal(out[3], "triad b~");
	fleet_short_names(3, rows, 11, out);
	assert_string_equal(out[0], "ubuntu#ab~1");
	assert_string_equal(out[1], "ubuntu#ab~2");
	assert_string_equal(out[2], "lab01");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pdsh_clush_and_parallel_prefixes),
		cmocka_unit_test(whole_file_is_one_result),
		cmocka_unit_test(bad_lines_refused_in_one_line),
		cmocka_unit_test(bounded_count_and_set_kept),
		cmocka_unit_test(caller_decides_what_is_a_result),
		cmocka_unit_test(short_names_distinct),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
