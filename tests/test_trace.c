/* Unit tests of trace: the valgrind-lackey / cachelab trace reader. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/trace.h"

static int parse(const char *s, struct trace_rec *r, const char **why)
{
	*why = NULL;
	return trace_parse_line(s, strlen(s), r, why);
}

static void good_lines(void **state)
{
	struct trace_rec r;
	const char *why;
	(void)state;
	assert_int_equal(parse(" L 10,1", &r, &why), 1);
	assert_int_equal(r.op, 'L');
	assert_int_equal(r.addr, 0x10);
	assert_int_equal(r.size, 1);
	assert_int_equal(parse(" S 7ff000398,8", &r, &why), 1);
	assert_int_equal(r.op, 'S');
	assert_int_equal(r.addr, 0x7ff000398ull);
	assert_int_equal(r.size, 8);
	assert_int_equal(parse(" M 0421c7f0,4", &r, &why), 1);
	assert_int_equal(r.op, 'M');
	assert_int_equal(r.addr, 0x421c7f0);
	assert_int_equal(parse("L 10,4 ", &r, &why), 1);           /* dave.trace's trailing space */
	assert_int_equal(parse("\t L\tAbCdEf,16 \t\r", &r, &why), 1); /* tabs, CRLF */
	assert_int_equal(r.addr, 0xabcdef);
	assert_int_equal(r.size, 16);
	assert_int_equal(parse(" L ffffffffffffffff,8", &r, &why), 1);
	assert_int_equal(r.addr, UINT64_MAX);
	assert_int_equal(parse(" L 00000000000000000000010,8", &r, &why), 1); /* leading zeros */
	assert_int_equal(r.addr, 0x10);
}

static void skipped_lines(void **state)
{
	struct trace_rec r;
	const char *why;
	(void)state;
	assert_int_equal(parse("I  0400d7d4,8", &r, &why), 0);
	assert_int_equal(parse("", &r, &why), 0);
	assert_int_equal(parse("   \r", &r, &why), 0);
	assert_int_equal(parse("==12345== Lackey, an example Valgrind tool", &r, &why), 0);
	assert_int_equal(parse("--12345-- warning: something", &r, &why), 0);
	assert_int_equal(parse("==12345==", &r, &why), 0);
}

static void bad_lines(void **state)
{
	struct trace_rec r;
	const char *why;
	(void)state;
	assert_int_equal(parse(" X 10,1", &r, &why), -1);
	assert_non_null(strstr(why, "bad op"));
	assert_int_equal(parse(" l 10,1", &r, &why), -1);
	assert_non_null(strstr(why, "bad op"));
	assert_int_equal(parse(" L zz,1", &r, &why), -1);
	assert_non_null(strstr(why, "bad address"));
	assert_int_equal(parse(" L 1g0,1", &r, &why), -1);
	assert_non_null(strstr(why, "bad address"));
	assert_int_equal(parse(" L 0x10,1", &r, &why), -1);
	assert_int_equal(parse(" L 10 1", &r, &why), -1);
	assert_non_null(strstr(why, "missing ','"));
	assert_int_equal(parse(" L 10", &r, &why), -1);
	assert_non_null(strstr(why, "missing ','"));
	assert_int_equal(parse(" L 1ffffffffffffffff,8", &r, &why), -1);
	assert_non_null(strstr(why, "64 bits"));
	assert_int_equal(parse(" L 10,", &r, &why), -1);
	assert_non_null(strstr(why, "bad size"));
	assert_int_equal(parse(" L 10,x", &r, &why), -1);
	assert_int_equal(parse(" L 10,99999999999", &r, &why), -1);
	assert_int_equal(parse(" L 10,4 junk", &r, &why), -1);
	assert_non_null(strstr(why, "after the size"));
	assert_int_equal(parse(" L10,1", &r, &why), -1);
	assert_int_equal(parse("==12x== hm", &r, &why), -1);
	assert_int_equal(parse("-- a", &r, &why), -1);
}

static char *write_temp(const char *text, size_t len)
{
	char *path = strdup("/tmp/memtop-trace-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

static void reads_file_with_line_numbers(void **state)
{
	const char *text = "==1== Lackey\r\nI  0400d7d4,8\r\n L 10,1\r\n M 20,1 \r\n\r\n S 18,4";
	char *path = write_temp(text, strlen(text));
	struct trace_rec r[8];
	mt_error e;
	struct trace_reader *tr = trace_open(path, &e);
	(void)state;
	assert_non_null(tr);
	assert_int_equal(trace_read(tr, r, 8, &e), 3);
	assert_int_equal(r[0].op, 'L');
	assert_int_equal(r[0].line, 3);
	assert_int_equal(r[1].op, 'M');
	assert_int_equal(r[1].addr, 0x20);
	assert_int_equal(r[1].line, 4);
	assert_int_equal(r[2].op, 'S'); /* the last line has no newline */
	assert_int_equal(r[2].line, 6);
	assert_int_equal(trace_read(tr, r, 8, &e), 0);
	trace_close(tr);
	unlink(path);
	free(path);
}

static void error_names_file_and_line(void **state)
{
	const char *text = " L 10,1\n S 20,1\n L 30;1\n L 40,1\n";
	char *path = write_temp(text, strlen(text));
	char want[300];
	struct trace_rec r[8];
	mt_error e;
	struct trace_reader *tr = trace_open(path, &e);
	(void)state;
	assert_non_null(tr);
	assert_int_equal(trace_read(tr, r, 8, &e), 2); /* the good records first */
	assert_int_equal(trace_read(tr, r, 8, &e), -1);
	snprintf(want, sizeof want, "%s:3: ", path);
	assert_memory_equal(e.msg, want, strlen(want));
	assert_non_null(strstr(e.msg, "L 30;1"));
	assert_int_equal(trace_read(tr, r, 8, &e), -1); /* stays failed */
	trace_close(tr);
	unlink(path);
	free(path);
	assert_null(trace_open("/nonexistent/x.trace", &e));
	assert_non_null(strstr(e.msg, "/nonexistent/x.trace"));
}

/* More than one 1 MB chunk: lines cut at chunk ends are joined. */
static void reads_across_chunks(void **state)
{
	size_t n = 150000, cap = n * 24, len = 0, got = 0;
	char *text = malloc(cap), *path;
	uint64_t sum = 0, want = 0;
	struct trace_rec r[1000];
	mt_error e;
	struct trace_reader *tr;
	long k;
	(void)state;
	assert_non_null(text);
	for (size_t i = 0; i < n; i++) {
		uint64_t a = i * 2654435761u % 0xfffffffffull;
		len += (size_t)snprintf(text + len, cap - len, i % 3 ? " L %llx,%zu\n" : " S %llx,%zu\r\n",
					(unsigned long long)a, i % 9);
		want += a;
	}
	path = write_temp(text, len);
	tr = trace_open(path, &e);
	assert_non_null(tr);
	while ((k = trace_read(tr, r, 1000, &e)) > 0) {
		for (long j = 0; j < k; j++) {
			assert_int_equal(r[j].line, got + 1);
			assert_int_equal(r[j].size, got % 9);
			sum += r[j].addr;
			got++;
		}
	}
	assert_int_equal(k, 0);
	assert_int_equal(got, n);
	assert_true(sum == want);
	trace_close(tr);
	unlink(path);
	free(path);
	free(text);
}

static void long_line_rejected(void **state)
{
	size_t len = 10000;
	char *text = malloc(len + 16), *path;
	struct trace_rec r[4];
	mt_error e;
	struct trace_reader *tr;
	(void)state;
	memcpy(text, " L 10,1\n", 8);
	memset(text + 8, ' ', len);
	memcpy(text + 8 + len, "L 1,1\n", 6);
	path = write_temp(text, len + 14);
	tr = trace_open(path, &e);
	assert_non_null(tr);
	assert_int_equal(trace_read(tr, r, 4, &e), 1);
	assert_int_equal(trace_read(tr, r, 4, &e), -1);
	assert_non_null(strstr(e.msg, ":2: line longer than"));
	trace_close(tr);
	unlink(path);
	free(path);
	free(text);
}

/* Two threads reading the same trace at once (the labs' workers and a tab
 * may): every record read the same, and nothing they share is filled
 * without a lock (make check-tsan runs this under ThreadSanitizer; the hex
 * digit table was once filled on first use). It runs first, before this
 * thread has read any trace. */
struct reader_arg {
	const char *path;
	uint64_t sum;
	long n;
};

static void *read_all(void *arg)
{
	struct reader_arg *a = arg;
	struct trace_rec r[64];
	mt_error e;
	long got;
	struct trace_reader *tr = trace_open(a->path, &e);
	if (!tr)
		return NULL;
	while ((got = trace_read(tr, r, 64, &e)) > 0)
		for (long i = 0; i < got; i++) {
			a->sum += r[i].addr * 31 + r[i].size;
			a->n++;
		}
	trace_close(tr);
	return NULL;
}

static void two_threads_read_at_once(void **state)
{
	char text[64 * 40], *path;
	size_t len = 0;
	struct reader_arg a[2];
	pthread_t t[2];
	(void)state;
	for (int i = 0; i < 64; i++)
		len += (size_t)snprintf(text + len, sizeof text - len, " L %x%X,4\n", 0xabc0 + i,
					0xdef0 + i);
	path = write_temp(text, len);
	memset(a, 0, sizeof a);
	for (int i = 0; i < 2; i++) {
		a[i].path = path;
		assert_int_equal(pthread_create(&t[i], NULL, read_all, &a[i]), 0);
	}
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	assert_int_equal(a[0].n, 64);
	assert_int_equal(a[1].n, 64);
	assert_true(a[0].sum == a[1].sum && a[0].sum != 0);
	unlink(path);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_threads_read_at_once), /* first: before any reading here */
		cmocka_unit_test(good_lines),
		cmocka_unit_test(skipped_lines),
		cmocka_unit_test(bad_lines),
		cmocka_unit_test(reads_file_with_line_numbers),
		cmocka_unit_test(error_names_file_and_line),
		cmocka_unit_test(reads_across_chunks),
		cmocka_unit_test(long_line_rejected),
	};
	return cmocka_run_group_tests_name("trace", tests, NULL, NULL);
}
