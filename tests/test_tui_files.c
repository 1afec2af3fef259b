/* Unit tests of the file work off the UI thread (tui/filework.c,
 * tui/loading.c): a path that is not a regular file is refused at once,
 * with what it is; the pool keeps its threads (jobs one after another make
 * one thread), a stalled job holds no other (a second thread is made), and
 * once filework_end has returned no thread writes to the pipe it had, even
 * when the descriptor's number is reused, while an abandoned job is freed
 * by its own thread when it ends; an open hands its file to done on the
 * UI side, a later open for the same place replaces the earlier, and a
 * file of another kind is said, not handed. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "os/clock.h"
#include "result/result.h"
#include "tui/internal.h"

static char dir[] = "/tmp/memtop-tuifiles-XXXXXX";

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* A frame with no tab, its self-pipe made (non-blocking, as session.c's). */
static struct tui *frame_new(void)
{
	struct tui *t = calloc(1, sizeof *t);
	assert_non_null(t);
	assert_int_equal(pipe(t->sigpipe), 0);
	for (int i = 0; i < 2; i++)
		fcntl(t->sigpipe[i], F_SETFL, O_NONBLOCK);
	return t;
}

static void frame_free(struct tui *t)
{
	close(t->sigpipe[0]);
	close(t->sigpipe[1]);
	free(t);
}

/* The bytes waiting in fd (non-blocking). */
static int bytes_in(int fd)
{
	char buf[256];
	int n = 0;
	ssize_t got;
	while ((got = read(fd, buf, sizeof buf)) > 0)
		n += (int)got;
	return n;
}

static void not_regular_is_refused_at_once(void **state)
{
	char path[256], want[400];
	mt_error e;
	int fd;
	(void)state;
	snprintf(path, sizeof path, "%s/plain.json", dir);
	assert_true((fd = open(path, O_WRONLY | O_CREAT, 0600)) >= 0);
	close(fd);
	assert_int_equal(loading_check_regular(path, &e), 0);
	/* a FIFO with no writer: refused, not waited for */
	snprintf(path, sizeof path, "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(loading_check_regular(path, &e), -1);
	snprintf(want, sizeof want, "%s: a FIFO (named pipe), not a result file", path);
	assert_string_equal(e.msg, want);
	assert_int_equal(loading_check_regular(dir, &e), -1);
	snprintf(want, sizeof want, "%s: a folder, not a result file", dir);
	assert_string_equal(e.msg, want);
	assert_int_equal(loading_check_regular("/dev/null", &e), -1);
	assert_string_equal(e.msg, "/dev/null: a device, not a result file");
	snprintf(path, sizeof path, "%s/missing.json", dir);
	assert_int_equal(loading_check_regular(path, &e), -1);
	snprintf(want, sizeof want, "%s: %s", path, strerror(ENOENT));
	assert_string_equal(e.msg, want);
}

/* A job for the tests: it waits while *hold, then counts its run; drop
 * counts the abandoned ones its thread freed. */
struct test_job {
	struct filework_job job;
	atomic_int *hold;
	atomic_int ran;
	char name[16]; /* the thread's, as run saw it */
};
static atomic_int dropped;
/* a pool whose thread was still running at its end (volatile: kept in memory,
 * where LeakSanitizer looks) */
static struct filework *volatile kept_pool;

static void test_run(struct filework_job *j)
{
	struct test_job *tj = (struct test_job *)(void *)j;
	if (pthread_getname_np(pthread_self(), tj->name, sizeof tj->name) != 0)
		tj->name[0] = '\0';
	while (tj->hold && atomic_load(tj->hold))
		nap_ms(2);
	atomic_fetch_add(&tj->ran, 1);
}

static void test_drop(struct filework_job *j)
{
	free(j);
	atomic_fetch_add(&dropped, 1);
}

static struct test_job *job_new(atomic_int *hold)
{
	struct test_job *j = calloc(1, sizeof *j);
	assert_non_null(j);
	j->job.run = test_run;
	j->job.drop = test_drop;
	j->hold = hold;
	return j;
}

/* Wait (at most 5 s) for j to end. */
static void wait_done(struct filework_job *j)
{
	for (int i = 0; i < 2500 && !filework_done(j); i++)
		nap_ms(2);
	assert_true(filework_done(j));
}

static void threads_are_kept(void **state)
{
	struct tui *t = frame_new();
	mt_error e;
	(void)state;
	for (int i = 0; i < 20; i++) {
		struct test_job *j = job_new(NULL);
		assert_int_equal(filework_start(t, &j->job, &e), 0);
		wait_done(&j->job);
		assert_int_equal(atomic_load(&j->ran), 1);
		assert_string_equal(j->name, TUI_FILEWORK_NAME); /* not a run's (tests/soak.sh) */
		free(j);
	}
	assert_int_equal(filework_threads_made(t), 1);
	assert_int_equal(bytes_in(t->sigpipe[0]), 20); /* each end woke the loop */
	filework_end(t);
	assert_null(t->work); /* every thread joined */
	frame_free(t);
}

static void stalled_job_holds_no_other(void **state)
{
	struct tui *t = frame_new();
	atomic_int hold = 1;
	struct test_job *stalled = job_new(&hold), *other = job_new(NULL);
	mt_error e;
	int fd, before;
	uint64_t t0;
	(void)state;
	atomic_store(&dropped, 0);
	assert_int_equal(filework_start(t, &stalled->job, &e), 0);
	assert_int_equal(filework_start(t, &other->job, &e), 0);
	wait_done(&other->job);
	assert_false(filework_done(&stalled->job));
	assert_int_equal(filework_threads_made(t), 2);
	free(other);
	/* the end: the stalled job abandoned (its thread frees it), the rest
	 * joined, and the pipe retired before end returns */
	assert_int_equal(filework_abandon(t, &stalled->job), 0);
	t0 = mt_now_ns();
	filework_end(t);
	assert_true(mt_now_ns() - t0 < 2000000000ull); /* it did not wait for the stall */
	assert_non_null(t->work); /* kept: a thread still uses it */
	bytes_in(t->sigpipe[0]);
	/* the loop closes its pipe and the number is reused */
	fd = t->sigpipe[1];
	close(t->sigpipe[1]);
	assert_int_equal(pipe(t->sigpipe), 0);
	if (t->sigpipe[1] != fd) { /* make the write end take the old number */
		assert_int_equal(dup2(t->sigpipe[1], fd), fd);
		close(t->sigpipe[1]);
		t->sigpipe[1] = fd;
	}
	fcntl(t->sigpipe[0], F_SETFL, O_NONBLOCK);
	atomic_store(&hold, 0);
	for (int i = 0; i < 2500 && !atomic_load(&dropped); i++)
		nap_ms(2);
	assert_int_equal(atomic_load(&dropped), 1); /* freed by its thread */
	nap_ms(20);
	before = bytes_in(t->sigpipe[0]);
	assert_int_equal(before, 0); /* nothing written to the reused number */
	kept_pool = t->work; /* left to the process's end, as memtop's static frame keeps it */
	frame_free(t);
}

/* The file handed to done, for opened_goes_to_done. */
static int handed;
static char handed_path[MT_PATH_MAX];
static void take(struct tui *t, void *self, struct result_file *f)
{
	(void)t;
	assert_ptr_equal(self, &handed);
	assert_non_null(f->r);
	assert_ptr_equal(f->kind, &kind_mountain);
	snprintf(handed_path, sizeof handed_path, "%s", f->path);
	handed++;
}

/* Reap t's loads until none is left (at most 5 s). */
static void reap_all(struct tui *t)
{
	for (int i = 0; i < 2500 && loading_busy(t); i++) {
		loading_reap(t);
		if (loading_busy(t))
			nap_ms(2);
	}
	assert_false(loading_busy(t));
}

static void opened_goes_to_done(void **state)
{
	struct tui *t = frame_new();
	const char *data = getenv("MEMTOP_DATA");
	char m4[512], other[512], want[700];
	(void)state;
	assert_non_null(data);
	snprintf(m4, sizeof m4, "%s/m4max.json", data);
	snprintf(other, sizeof other, "%s/ref/matmul-m4max.json", data);
	handed = 0;
	assert_int_equal(tui_open_file(t, &handed, m4, &kind_mountain, take), 0);
	/* the status line keeps what fits its buffer, whatever the path's length */
	(void)mt_snprintf(want, sizeof t->msg, "opening %s", m4);
	assert_string_equal(t->msg, want);
	reap_all(t);
	assert_int_equal(handed, 1);
	assert_string_equal(handed_path, m4);
	/* two opens for one place: the later one shows, the earlier is dropped */
	assert_int_equal(tui_open_file(t, &handed, other, &kind_mountain, take), 0);
	assert_int_equal(tui_open_file(t, &handed, m4, &kind_mountain, take), 0);
	reap_all(t);
	assert_int_equal(handed, 2);
	assert_string_equal(handed_path, m4);
	/* a file of another kind is said, not handed */
	assert_int_equal(tui_open_file(t, &handed, other, &kind_mountain, take), 0);
	reap_all(t);
	assert_int_equal(handed, 2);
	(void)mt_snprintf(want, sizeof t->msg, "not opened: %s: not a mountain (a matmul result)", other);
	assert_string_equal(t->msg, want);
	loading_finish(t, stderr, mt_now_ns());
	filework_end(t);
	assert_null(t->work);
	frame_free(t);
}

/* TUI_LOADS_MAX reads (TUI_SAVES_MAX writes) still going on a disk that
 * does not answer: the next one is refused at once with the reason, and
 * nothing starts (no thread made, a save's tree freed). The slots stand
 * for held ones here: a refusal never looks inside them. */
static void one_too_many_is_refused(void **state)
{
	struct tui *t = frame_new();
	const char *data = getenv("MEMTOP_DATA");
	static char held;
	char m4[512], want[200];
	mt_error e;
	(void)state;
	assert_non_null(data);
	snprintf(m4, sizeof m4, "%s/m4max.json", data);
	for (int i = 0; i < TUI_LOADS_MAX; i++)
		t->loads[i] = (struct tui_load *)(void *)&held;
	assert_int_equal(tui_open_file(t, &handed, m4, &kind_mountain, take), -1);
	snprintf(want, sizeof want, "not opened: %d files are still being read (a slow disk): try again",
		 TUI_LOADS_MAX);
	assert_string_equal(t->msg, want);
	for (int i = 0; i < TUI_SAVES_MAX; i++)
		t->saves[i] = (struct tui_save *)(void *)&held;
	assert_int_equal(saving_start(t, NULL, cJSON_CreateObject(), m4, 0, &e), -1);
	snprintf(want, sizeof want, "%d saves are still being written (a slow disk): try again",
		 TUI_SAVES_MAX);
	assert_string_equal(e.msg, want);
	assert_null(t->work); /* no thread was made for either */
	memset(t->loads, 0, sizeof t->loads);
	memset(t->saves, 0, sizeof t->saves);
	frame_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(not_regular_is_refused_at_once),
		cmocka_unit_test(threads_are_kept),
		cmocka_unit_test(stalled_job_holds_no_other),
		cmocka_unit_test(opened_goes_to_done),
		cmocka_unit_test(one_too_many_is_refused),
	};
	char cmd[128];
	int rc;
	if (!mkdtemp(dir)) {
		fprintf(stderr, "test_tui_files: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	rc = cmocka_run_group_tests_name("tui_files", tests, NULL, NULL);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		rc = rc ? rc : 1;
	return rc;
}
