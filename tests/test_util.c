/* Unit tests of util: parsing sizes and numbers, formatting, atomic writes. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "os/child.h"

/* mt_parse_size's rows: the text, what it returns, the bytes it reads (none on -1). */
static const struct {
	const char *text;
	int rc;
	uint64_t bytes;
} sizes_read[] = {
	{ "4096", 0, 4096 },
	{ "16K", 0, 16384 },
	{ "16kb", 0, 16384 },
	{ "128M", 0, 128u << 20 },
	{ "1GiB", 0, 1u << 30 },
	{ "", -1, 0 },
	{ "-1K", -1, 0 },
	{ "12Q", -1, 0 },
	{ "1K2", -1, 0 },
	{ "99999999999999999999", -1, 0 },
	{ "17179869184G", -1, 0 }, /* overflows 64 bits */
};

static void parse_size_units(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof sizes_read / sizeof *sizes_read; i++) {
		uint64_t v;
		assert_int_equal(mt_parse_size(sizes_read[i].text, &v), sizes_read[i].rc);
		if (sizes_read[i].rc == 0)
			assert_int_equal(v, sizes_read[i].bytes);
	}
}

static void parse_numbers(void **state)
{
	uint64_t u, list[8];
	int i;
	double d;
	(void)state;
	assert_int_equal(mt_parse_u64("15", 1, 64, &u), 0);
	assert_int_equal(u, 15);
	assert_int_equal(mt_parse_u64("0", 1, 64, &u), -1);
	assert_int_equal(mt_parse_u64("65", 1, 64, &u), -1);
	assert_int_equal(mt_parse_u64(" 5", 1, 64, &u), -1);
	assert_int_equal(mt_parse_u64("5x", 1, 64, &u), -1);
	assert_int_equal(mt_parse_int("-3", -5, 5, &i), 0);
	assert_int_equal(i, -3);
	assert_int_equal(mt_parse_double("1.5", &d), 0);
	assert_true(d == 1.5);
	assert_int_equal(mt_parse_double("nan", &d), -1);
	assert_int_equal(mt_parse_double("1.5x", &d), -1);
	assert_int_equal(mt_parse_u64_list("1,2,4,8", 1, 64, list, 8), 4);
	assert_int_equal(list[3], 8);
	assert_int_equal(mt_parse_u64_list("1,,2", 1, 64, list, 8), -1);
	assert_int_equal(mt_parse_u64_list("1,2,", 1, 64, list, 8), -1);
}

/* The one CPU-list grammar: the kernel's, order kept, each refusal named. */
static void cpu_lists(void **state)
{
	static const struct {
		const char *in;
		int n;
		int cpus[8];
		const char *why; /* the error, when n is -1 */
	} cases[] = {
		{ "0-3,8", 5, { 0, 1, 2, 3, 8 }, NULL },
		{ "0-1,64\n", 3, { 0, 1, 64 }, NULL },
		{ "7,2,5", 3, { 7, 2, 5 }, NULL },
		{ "3", 1, { 3 }, NULL },
		{ "0-", -1, { 0 }, "'0-' is a range without its end (such as 0-3)" },
		{ "-3", -1, { 0 }, "'-3' is a range without its start (such as 0-3)" },
		{ "1,,2", -1, { 0 }, "an empty item in the CPU list (two commas, or one at an end)" },
		{ "1,", -1, { 0 }, "an empty item in the CPU list (two commas, or one at an end)" },
		{ "", -1, { 0 }, "an empty CPU list" },
		{ "x", -1, { 0 }, "'x' is not a CPU number or a range such as 0-3" },
		{ "2-x", -1, { 0 }, "'2-x' is not a CPU number or a range such as 0-3" },
		{ "5-3", -1, { 0 }, "the range 5-3 runs backwards" },
		{ "1,0-2", -1, { 0 }, "CPU 1 is given twice" },
		{ "0-8", -1, { 0 }, "more than 8 CPUs" },
		{ "65536", -1, { 0 }, "'65536' is not a CPU number or a range such as 0-3" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int cpus[8];
		mt_error e = { "" };
		int n = mt_parse_cpu_list(cases[i].in, cpus, 8, &e);
		assert_int_equal(n, cases[i].n);
		if (n < 0)
			assert_string_equal(e.msg, cases[i].why);
		for (int k = 0; k < n; k++)
			assert_int_equal(cpus[k], cases[i].cpus[k]);
	}
}

static void size_ranges(void **state)
{
	uint64_t lo = 1, hi = 2;
	(void)state;
	assert_int_equal(mt_parse_size_range("16K:128M", &lo, &hi), 0);
	assert_int_equal(lo, 16384);
	assert_int_equal(hi, 128u << 20);
	lo = 7;
	assert_int_equal(mt_parse_size_range(":8M", &lo, &hi), 0);
	assert_int_equal(lo, 7);
	assert_int_equal(hi, 8u << 20);
	assert_int_equal(mt_parse_size_range("8M", &lo, &hi), -1);
}

static void format_sizes(void **state)
{
	char b[32];
	(void)state;
	assert_string_equal(mt_fmt_size(b, sizeof b, 16384), "16K");
	assert_string_equal(mt_fmt_size(b, sizeof b, 128u << 20), "128M");
	assert_string_equal(mt_fmt_size(b, sizeof b, 1u << 30), "1G");
	assert_string_equal(mt_fmt_size(b, sizeof b, 512), "512B");
	assert_string_equal(mt_fmt_size(b, sizeof b, 1536), "1.5K");
}

static void bounded_strings(void **state)
{
	char b[8];
	(void)state;
	assert_int_equal(mt_snprintf(b, sizeof b, "%s", "1234567"), 0);
	assert_int_equal(mt_snprintf(b, sizeof b, "%s", "12345678"), -1);
	assert_string_equal(b, "1234567");
	assert_int_equal(mt_strlcpy(b, "abcdefghij", sizeof b), -1);
	assert_string_equal(b, "abcdefg");
	b[0] = '\0';
	assert_int_equal(mt_append(b, sizeof b, "ab"), 0);
	assert_int_equal(mt_append(b, sizeof b, "cd"), 0);
	assert_string_equal(b, "abcd");
}

static void atomic_write_never_clobbers(void **state)
{
	char dir[] = "/tmp/memtop-util.XXXXXX", path[128], bad[160];
	mt_error e;
	char *text;
	(void)state;
	assert_non_null(mkdtemp(dir));
	mt_snprintf(path, sizeof path, "%s/out.json", dir);
	assert_int_equal(mt_write_atomic(path, "good\n", 5, &e), 0);
	text = mt_read_file(path, 1024, NULL, &e);
	assert_non_null(text);
	assert_string_equal(text, "good\n");
	free(text);
	/* A folder that does not exist: error names the path, nothing written. */
	mt_snprintf(bad, sizeof bad, "%s/missing/out.json", dir);
	assert_int_equal(mt_write_atomic(bad, "x", 1, &e), -1);
	assert_non_null(strstr(e.msg, bad));
	assert_null(mt_read_file(bad, 1024, NULL, &e));
	unlink(path);
	rmdir(dir);
}

static void median_of_values(void **state)
{
	double v[] = { 5, 1, 3, 2, 4 }, w[] = { 4, 1, 3, 2 };
	(void)state;
	assert_true(mt_median(v, 5) == 3);
	assert_true(mt_median(w, 4) == 2.5);
}

static void printable_text(void **state)
{
	char b[64], big[10241];
	(void)state;
	assert_string_equal(mt_printable(b, sizeof b, "Apple M4 Max", 0), "Apple M4 Max");
	assert_string_equal(mt_printable(b, sizeof b, NULL, 0), "");
	/* C0 controls and DEL: ESC, BEL, CR, LF, TAB, backspace */
	assert_string_equal(mt_printable(b, sizeof b, "\033[31mred\a\r\n\t\b\x7f", 0),
			    "?[31mred??????");
	/* well-formed UTF-8 stays; C1 controls (U+009B is CSI) and bidi overrides do not */
	assert_string_equal(mt_printable(b, sizeof b, "caf\xc3\xa9 \xe2\x80\x94", 0),
			    "caf\xc3\xa9 \xe2\x80\x94");
	assert_string_equal(mt_printable(b, sizeof b, "a\xc2\x9b" "1m\xe2\x80\xaez", 0), "a?1m?z");
	/* invalid UTF-8: stray continuation, overlong, surrogate, beyond U+10FFFF, cut */
	assert_string_equal(mt_printable(b, sizeof b, "\x80\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80\xe2\x82", 0),
			    "????????????");
	assert_string_equal(mt_printable(b, sizeof b, "\xff\xfe", 0), "??");
	/* ASCII terminals: every non-ASCII character is one '?' */
	assert_string_equal(mt_printable(b, sizeof b, "caf\xc3\xa9", MT_PRINT_ASCII), "caf?");
	/* too long: cut on a character, "..." at the end */
	assert_string_equal(mt_printable(b, 8, "abcdefghij", 0), "abcd...");
	assert_string_equal(mt_printable(b, 8, "abcdefg", 0), "abcdefg");
	assert_string_equal(mt_printable(b, 9, "abcd\xc3\xa9\xc3\xa9", 0), "abcd\xc3\xa9\xc3\xa9");
	assert_string_equal(mt_printable(b, 8, "abcd\xc3\xa9\xc3\xa9", 0), "abcd...");
	assert_string_equal(mt_printable(b, 3, "abcdef", 0), "..");
	assert_string_equal(mt_printable(b, 1, "abcdef", 0), "");
	/* 10 KB of escapes: bounded, nothing below 0x20 left */
	memset(big, '\033', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	assert_int_equal(strlen(MT_PRINTABLE(big)), MT_PRINTABLE_MAX - 1);
	assert_null(strchr(MT_PRINTABLE(big), '\033'));
	assert_string_equal(mt_basename("a/b/m.json"), "m.json");
	assert_string_equal(mt_basename("m.json"), "m.json");
	assert_string_equal(mt_basename("/x/"), "/x/");
}

/* SIGKILL in the middle of saves: the file is always one whole version,
 * never a mix (a temp file may stay behind: nothing can remove it then). */
static void sigkill_during_save_leaves_old_or_new(void **state)
{
	enum { SIZE = 4 << 20, KILLS = 12 };
	char dir[] = "/tmp/memtop-kill.XXXXXX", path[64], cmd[96];
	char *a = malloc(SIZE), *b = malloc(SIZE);
	int whole = 0;
	mt_error e;
	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(mkdtemp(dir));
	memset(a, 'a', SIZE);
	memset(b, 'b', SIZE);
	mt_snprintf(path, sizeof path, "%s/r.json", dir);
	assert_int_equal(mt_write_atomic(path, a, SIZE, &e), 0);
	for (int k = 0; k < KILLS; k++) {
		pid_t pid = fork();
		size_t n;
		char *got;
		assert_true(pid >= 0);
		if (pid == 0) /* save one version after the other until killed */
			for (int i = 0;; i++)
				mt_write_atomic(path, i % 2 ? a : b, SIZE, NULL);
		usleep(5000 + 7000 * (unsigned)k); /* a different moment each time */
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		got = mt_read_file(path, SIZE, &n, &e);
		assert_non_null(got);
		assert_int_equal(n, SIZE);
		assert_true(memcmp(got, a, SIZE) == 0 || memcmp(got, b, SIZE) == 0);
		whole++;
		free(got);
	}
	assert_int_equal(whole, KILLS);
	mt_snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	free(a);
	free(b);
}

static void child_processes_bounded(void **state)
{
	static const char *const echo[] = { "sh", "-c", "echo hi", NULL };
	static const char *const fails[] = { "sh", "-c", "exit 3", NULL };
	static const char *const hangs[] = { "sh", "-c", "sleep 60; echo late", NULL };
	static const char *const chatty[] = { "sh", "-c", "yes | head -c 100000", NULL };
	static const char *const none[] = { "memtop-no-such-program", NULL };
	enum mt_run_status st;
	char *out;
	(void)state;
	out = mt_run_capture_for(echo, 100, MT_RUN_TIMEOUT_MS, &st);
	assert_int_equal(st, MT_RUN_OK);
	assert_string_equal(out, "hi\n");
	free(out);
	assert_null(mt_run_capture_for(fails, 100, MT_RUN_TIMEOUT_MS, &st));
	assert_int_equal(st, MT_RUN_FAILED);
	assert_null(mt_run_capture_for(none, 100, MT_RUN_TIMEOUT_MS, &st));
	assert_int_equal(st, MT_RUN_FAILED);
	/* a child that never ends is killed at the deadline, with what it started */
	assert_null(mt_run_capture_for(hangs, 100, 300, &st));
	assert_int_equal(st, MT_RUN_TIMED_OUT);
	/* more output than asked for: the rest is read and dropped, no deadlock */
	out = mt_run_capture_for(chatty, 10, MT_RUN_TIMEOUT_MS, &st);
	assert_int_equal(st, MT_RUN_OK);
	assert_string_equal(out, "y\ny\ny\ny\ny\n");
	free(out);
}

/* mt_mkdir_p: what mkdir -p makes, and the part in the way named. */
static void mkdir_p_parts(void **state)
{
	char dir[] = "/tmp/memtop-mkdir-XXXXXX", path[256], file[256], want[600];
	struct stat st;
	mt_error e = { "" };
	(void)state;
	assert_non_null(mkdtemp(dir));
	mt_snprintf(path, sizeof path, "%s/a//b/c/", dir);
	assert_int_equal(mt_mkdir_p(path, &e), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(mt_mkdir_p(path, &e), 0); /* there already: fine */
	mt_snprintf(file, sizeof file, "%s/a/f", dir);
	assert_int_equal(mt_write_atomic(file, "x", 1, &e), 0);
	mt_snprintf(path, sizeof path, "%s/a/f/g/h", dir);
	assert_int_equal(mt_mkdir_p(path, &e), -1);
	mt_snprintf(want, sizeof want, "%s: %s is not a folder", path, file);
	assert_string_equal(e.msg, want);
	assert_int_equal(mt_mkdir_p(file, &e), -1); /* the whole path a file */
	assert_int_equal(mt_mkdir_p("", &e), -1);
	mt_snprintf(path, sizeof path, "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

/* How a child ended, in words: what info's "tried" lines and plot --png say. */
static void child_reasons(void **state)
{
	static const char *const echo[] = { "sh", "-c", "echo hi", NULL };
	static const char *const missing[] = { "memtop-no-such-tool", NULL };
	static const char *const fails[] = { "sh", "-c", "exit 3", NULL };
	static const char *const killed[] = { "sh", "-c", "kill -TERM $$", NULL };
	static const char *const hangs[] = { "sh", "-c", "sleep 10", NULL };
	struct mt_run_end end;
	char why[160];
	char *out;
	(void)state;
	out = mt_run_child(echo, 64, 10000, 0, &end);
	assert_string_equal(out, "hi\n");
	assert_string_equal(mt_run_why(&end, why, sizeof why), "");
	free(out);
	/* max 0: nothing kept, still a string when it exited 0 */
	out = mt_run_child(echo, 0, 10000, 0, &end);
	assert_string_equal(out, "");
	free(out);
	assert_null(mt_run_child(missing, 64, 10000, 0, &end));
	assert_int_equal(end.status, MT_RUN_FAILED);
	assert_string_equal(mt_run_why(&end, why, sizeof why), "not installed");
	assert_null(mt_run_child(fails, 64, 10000, 0, &end));
	assert_int_equal(end.exit_code, 3);
	assert_string_equal(mt_run_why(&end, why, sizeof why), "exited with status 3");
	assert_null(mt_run_child(killed, 64, 10000, 0, &end));
	assert_string_equal(mt_run_why(&end, why, sizeof why), "killed by signal 15");
	assert_null(mt_run_child(hangs, 64, 300, 0, &end));
	assert_int_equal(end.status, MT_RUN_TIMED_OUT);
	assert_string_equal(mt_run_why(&end, why, sizeof why), "timed out after 300 ms");
}

/* Whether process pid is gone (or a zombie nobody reaped yet: it runs no more). */
static int gone(int pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	mt_snprintf(path, sizeof path, "/proc/%d/stat", pid);
	if (!(f = fopen(path, "r")))
		return kill((pid_t)pid, 0) < 0;
	p = fgets(buf, sizeof buf, f);
	fclose(f);
	p = p ? strrchr(buf, ')') : NULL;
	return !p || p[2] == 'Z' || p[2] == 'X';
}

/* A child that hangs, with a grandchild that holds its stdout: both are
 * killed at the deadline (the group), the child reaped, and we return. */
static void child_group_killed(void **state)
{
	char dir[] = "/tmp/memtop-child-XXXXXX", file[128], script[256], *text;
	const char *argv[] = { "sh", "-c", script, NULL };
	struct mt_run_end end;
	mt_error e = { "" };
	int grandchild = 0;
	(void)state;
	assert_non_null(mkdtemp(dir));
	mt_snprintf(file, sizeof file, "%s/pid", dir);
	mt_snprintf(script, sizeof script, "sleep 60 & echo $! >%s.tmp; mv %s.tmp %s; wait", file,
		    file, file);
	assert_null(mt_run_child(argv, 64, 1000, 0, &end));
	assert_int_equal(end.status, MT_RUN_TIMED_OUT);
	text = mt_read_file(file, 64, NULL, &e);
	assert_non_null(text);
	text[strcspn(text, "\n")] = '\0';
	assert_int_equal(mt_parse_int(text, 1, 1 << 30, &grandchild), 0);
	/* SIGKILL is sent; its delivery may take a moment, the longer the busier
	 * the machine: waited for, a minute only guarding against a hang */
	for (int i = 0; i < 6000 && !gone(grandchild); i++)
		usleep(10000);
	assert_true(gone(grandchild));
	free(text);
	unlink(file);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_size_units),
		cmocka_unit_test(parse_numbers),
		cmocka_unit_test(size_ranges),
		cmocka_unit_test(cpu_lists),
		cmocka_unit_test(format_sizes),
		cmocka_unit_test(bounded_strings),
		cmocka_unit_test(atomic_write_never_clobbers),
		cmocka_unit_test(median_of_values),
		cmocka_unit_test(printable_text),
		cmocka_unit_test(child_processes_bounded),
		cmocka_unit_test(child_reasons),
		cmocka_unit_test(mkdir_p_parts),
		cmocka_unit_test(child_group_killed),
		cmocka_unit_test(sigkill_during_save_leaves_old_or_new),
	};
	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
