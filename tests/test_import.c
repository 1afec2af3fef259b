/* Unit tests of the importers (src/import): each format read right, told
 * apart from the others, and refused with one line naming the file and the
 * line when truncated or garbled. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "import/import_text.h"

#define KB 1024ull
#define MB (1024ull * 1024ull)

static const char lmbench2[] = "\"stride=64\n"
			       "0.00049 1.228\n"
			       "0.00098 1.246\n"
			       "0.00195 1.276\n"
			       "\n"
			       "\"stride=128\n"
			       "0.00098 1.230\n"
			       "0.00195 1.234\n"
			       "0.00293 1.229\n"
			       "\n";

static const char tmb[] = "== Memory latency test ==\n"
			  "\n"
			  "block size : single random read / dual random read, [MADV_NOHUGEPAGE]\n"
			  "      1024 :    0.0 ns          /     0.0 ns \n"
			  "      2048 :    0.0 ns          /     0.0 ns \n"
			  "     65536 :    2.5 ns          /     3.7 ns \n"
			  "\n"
			  "block size : single random read / dual random read, [MADV_HUGEPAGE]\n"
			  "      1024 :    0.0 ns          /     0.0 ns \n"
			  "      2048 :    0.0 ns          /     0.0 ns \n"
			  "     65536 :    2.4 ns          /     3.6 ns \n";

static const char ramlat[] = "Executing ramlat on cpu0, results in ns:\n"
			     "       size:  1x32  2x32  1x64  2x64 1xPTR 2xPTR 4xPTR 8xPTR\n"
			     "         4k: 1.244 1.251 1.532 1.550 1.233 1.239 1.232 1.572 \n"
			     "        64k: 3.966 4.029 4.248 4.240 3.966 4.028 4.618 5.098 \n"
			     "      1024k: 11.64 11.27 11.63 11.14 11.67 11.79 12.14 12.99 \n";

static const char csapp[] = "Clock frequency is approx. 2100.0 MHz\n"
			    "Memory mountain (MB/sec)\n"
			    "\ts1\ts2\ts3\n"
			    "128m\t8350\t4750\t3096\n"
			    "1024k\t12422\t8398\t5971\n"
			    "16k\t13958\t13986\t13366\n";

static void formats_told_apart(void **state)
{
	enum import_format f;
	(void)state;
	assert_int_equal(import_detect(lmbench2), IMPORT_LMBENCH);
	assert_int_equal(import_detect(tmb), IMPORT_TINYMEMBENCH);
	assert_int_equal(import_detect(ramlat), IMPORT_RAMLAT);
	assert_int_equal(import_detect(csapp), IMPORT_CSAPP);
	assert_int_equal(import_detect("hello\nworld\n"), IMPORT_AUTO);
	assert_int_equal(import_detect(""), IMPORT_AUTO);
	assert_int_equal(import_format_parse("ramlat", &f), 0);
	assert_int_equal(f, IMPORT_RAMLAT);
	assert_int_equal(import_format_parse("lat_mem_rd", &f), -1);
	assert_string_equal(import_format_name(IMPORT_CSAPP), "csapp");
}

static void lmbench_strides(void **state)
{
	struct latency_result *r = NULL;
	mt_error e = { "" };
	(void)state;
	assert_int_equal(import_lmbench(lmbench2, "l.txt", 0, &r, &e), 0);
	assert_int_equal(r->nstrides, 2);
	assert_int_equal(r->strides[0], 64);
	assert_int_equal(r->strides[1], 128);
	assert_int_equal(r->nsizes, 4); /* 512, 1K, 2K, 3K: the strides' sizes merged */
	assert_int_equal(r->sizes[0], 512);
	assert_int_equal(r->sizes[3], 3 * KB);
	assert_true(r->ns[0][0] == 1.228 && isnan(r->ns[0][3]));
	assert_true(isnan(r->ns[1][0]) && r->ns[1][3] == 1.229);
	assert_int_equal(r->has_random, 0);
	assert_true(r->ghz == 0);
	assert_int_equal(r->hugepages, LATENCY_HUGE_UNKNOWN);
	assert_string_equal(r->format, "lmbench");
	latency_result_free(r);
	/* lat_mem_rd -t: one stride, a random chase */
	assert_int_equal(import_lmbench(lmbench2, "l.txt", 1, &r, &e), -1);
	assert_string_equal(e.msg, "l.txt: 2 strides: a random chase (lat_mem_rd -t) is read from one");
	assert_int_equal(import_lmbench("\"stride=64\n0.00049 1.2\n0.00098 1.3\n", "l.txt", 1, &r, &e),
			 0);
	assert_int_equal(r->has_random, 1);
	assert_int_equal(r->random_stride, 64);
	assert_true(r->random_ns[1] == 1.3);
	latency_result_free(r);
}

static void lmbench_bad(void **state)
{
	struct latency_result *r = NULL;
	mt_error e = { "" };
	(void)state;
	assert_int_equal(import_lmbench("\"stride=64\n0.00049 1.2\n0.00098 x\n", "l.txt", 0, &r, &e),
			 -1);
	assert_string_equal(e.msg, "l.txt: line 3: expected 'SIZE_MB NS' of lat_mem_rd, got "
				   "'0.00098 x'");
	/* truncated: one size only */
	assert_int_equal(import_lmbench("\"stride=64\n0.00049 1.2\n", "l.txt", 0, &r, &e), -1);
	assert_string_equal(e.msg, "l.txt: stride 64 has 1 sizes, at least 2 needed");
	assert_int_equal(import_lmbench("\"stride=64\n0.00098 1.2\n0.00049 1.3\n", "l.txt", 0, &r, &e),
			 -1);
	assert_string_equal(e.msg, "l.txt: line 3: expected a size larger than the line before, got "
				   "'0.00049 1.3'");
	assert_int_equal(import_lmbench("\"stride=abc\n", "l.txt", 0, &r, &e), -1);
	assert_string_equal(e.msg, "l.txt: line 1: expected '\"stride=N', N >= 8 bytes, got "
				   "'\"stride=abc'");
	assert_int_equal(import_lmbench("nothing here\n", "l.txt", 0, &r, &e), -1);
	assert_string_equal(e.msg, "l.txt: no '\"stride=N' line of lat_mem_rd");
}

static void tinymembench_tables(void **state)
{
	struct latency_result *r = NULL;
	mt_error e = { "" };
	(void)state;
	assert_int_equal(import_tinymembench(tmb, "t.txt", &r, &e), 0);
	assert_int_equal(r->nsizes, 3);
	assert_int_equal(r->sizes[2], 64 * KB);
	assert_int_equal(r->has_random, 1);
	assert_int_equal(r->ns_over_l1, 1);
	assert_true(r->random_ns[2] == 2.5);
	assert_int_equal(r->hugepages, LATENCY_HUGE_OFF);
	assert_int_equal(r->has_other, 1);
	assert_int_equal(r->other_hugepages, LATENCY_HUGE_ON);
	assert_true(r->other_ns[2] == 2.4);
	latency_result_free(r);
}

static void tinymembench_bad(void **state)
{
	struct latency_result *r = NULL;
	mt_error e = { "" };
	char *t = strdup(tmb), *p;
	(void)state;
	/* truncated in the middle of a row */
	p = strstr(t, "     65536 :    2.5");
	strcpy(p, "     65536 :    2.5\n");
	assert_int_equal(import_tinymembench(t, "t.txt", &r, &e), -1);
	assert_string_equal(e.msg, "t.txt: line 6: expected 'BYTES : NS ns / NS ns', got '     "
				   "65536 :    2.5'");
	/* garbled value */
	assert_int_equal(import_tinymembench("block size : single random read\n 1024 : 0.0 ns\n"
					     " 2048 : 0,4 ns\n",
					     "t.txt", &r, &e),
			 -1);
	assert_string_equal(e.msg, "t.txt: line 3: expected 'BYTES : NS ns / NS ns', got ' 2048 : "
				   "0,4 ns'");
	/* two tables that are not one run on both pages */
	assert_int_equal(import_tinymembench("block size : single random read\n 1024 : 0.0 ns\n"
					     " 2048 : 0.4 ns\n\n"
					     "block size : single random read\n 1024 : 0.0 ns\n"
					     " 2048 : 0.4 ns\n",
					     "t.txt", &r, &e),
			 -1);
	assert_string_equal(e.msg, "t.txt: two tables, but not one without and one with huge pages "
				   "(lines 1 and 5)");
	free(t);
}

static void ramlat_column(void **state)
{
	struct latency_result *r = NULL;
	mt_error e = { "" };
	(void)state;
	assert_int_equal(import_ramlat(ramlat, "r.txt", &r, &e), 0);
	assert_int_equal(r->nsizes, 3);
	assert_int_equal(r->sizes[1], 64 * KB);
	assert_int_equal(r->sizes[2], 1 * MB);
	assert_true(r->random_ns[0] == 1.233 && r->random_ns[2] == 11.67);
	assert_int_equal(r->ns_over_l1, 0);
	latency_result_free(r);
	assert_int_equal(import_ramlat("       size:  1x32 1xPTR\n  4k: 1.2 1.3\n  8k: 1.2\n", "r.txt",
				       &r, &e),
			 -1);
	assert_string_equal(e.msg, "r.txt: line 3: expected 'SIZE: NS ...' with 2 values, got '  8k: "
				   "1.2'");
	assert_int_equal(import_ramlat("       size:  1x32 1xPTR\n  4x: 1.2 1.3\n", "r.txt", &r, &e),
			 -1);
	assert_string_equal(e.msg, "r.txt: line 2: expected 'SIZE: NS ...' with 2 values, got '  4x: "
				   "1.2 1.3'");
	assert_int_equal(import_ramlat("       size:  1x32 1xPTR\n  4k: 1.2 1.3\n", "r.txt", &r, &e),
			 -1);
	assert_string_equal(e.msg, "r.txt: the ramlat table has 1 rows, at least 2 needed");
}

static void csapp_table(void **state)
{
	struct mountain *m = NULL;
	mt_error e = { "" };
	(void)state;
	assert_int_equal(import_csapp(csapp, "c.txt", &m, &e), 0);
	assert_int_equal(m->nsizes, 3);
	assert_int_equal(m->nstrides, 3);
	assert_int_equal(m->sizes[0], 16 * KB);
	assert_int_equal(m->sizes[2], 128 * MB);
	assert_int_equal(m->strides[2], 3);
	assert_true(mountain_at(m, 0, 1) == 13986 && mountain_at(m, 2, 0) == 8350);
	mountain_free(m);
	assert_int_equal(import_csapp("Memory mountain (MB/sec)\n s1 s2\n128m 1 2\n64m 3\n", "c.txt",
				      &m, &e),
			 -1);
	assert_string_equal(e.msg, "c.txt: line 4: expected 'SIZE' and 2 values of throughput, got '64m 3'");
	assert_int_equal(import_csapp("Memory mountain (MB/sec)\n s1 s2\n128m 1 2\n128m 3 4\n", "c.txt",
				      &m, &e),
			 -1);
	assert_string_equal(e.msg, "c.txt: line 4: expected a size not seen before, got '128m 3 4'");
}

/* The quoted line is made printable and cut. */
static void excerpt_is_printable(void **state)
{
	char buf[64];
	(void)state;
	assert_string_equal(import_excerpt("ab\033[2Jc\x7f", buf, sizeof buf), "ab?[2Jc?");
	assert_string_equal(import_excerpt("0123456789012345678901234567890123456789abc", buf,
					   sizeof buf),
			    "0123456789012345678901234567890123456789...");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(formats_told_apart), cmocka_unit_test(lmbench_strides),
		cmocka_unit_test(lmbench_bad),	      cmocka_unit_test(tinymembench_tables),
		cmocka_unit_test(tinymembench_bad),   cmocka_unit_test(ramlat_column),
		cmocka_unit_test(csapp_table),	      cmocka_unit_test(excerpt_is_printable),
	};
	return cmocka_run_group_tests_name("import", tests, NULL, NULL);
}
