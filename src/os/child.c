/* child: see child.h. */
#include "config.h"

#include "child.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The child's side: never returns. Only async-signal-safe calls (memtop
 * has threads). A failed exec writes its errno into err, which is closed
 * on exec: the parent reads nothing there when the program started. */
static void run_child(const char *const argv[], int out, int err, unsigned flags)
{
	int devnull = open("/dev/null", O_RDWR), e;
	sigset_t none;
	setpgid(0, 0); /* its own group: a timeout kills what it started too */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL); /* not the mask of the thread that forked */
	signal(SIGPIPE, SIG_DFL);
	dup2(out, 1);
	if (devnull >= 0) {
		dup2(devnull, 0);
		if (!(flags & MT_RUN_STDERR))
			dup2(devnull, 2);
	}
	execvp(argv[0], (char *const *)argv);
	e = errno;
	if (write(err, &e, sizeof e) != (ssize_t)sizeof e)
		_exit(126);
	_exit(127);
}

/* Milliseconds on the monotonic clock. */
static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Read fd into buf (the first max bytes kept, the rest read and dropped)
 * until end of file. Returns the bytes kept, or -1 at the deadline. */
static long read_until(int fd, char *buf, size_t max, long long deadline)
{
	char drop[4096];
	size_t len = 0;
	for (;;) {
		struct pollfd pf = { fd, POLLIN, 0 };
		long long left = deadline - now_ms();
		ssize_t r;
		if (left <= 0)
			return -1;
		if (poll(&pf, 1, (int)left) <= 0)
			continue; /* EINTR, or the deadline: checked above */
		if (len < max)
			r = read(fd, buf + len, max - len);
		else
			r = read(fd, drop, sizeof drop);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return (long)len;
		if (len < max)
			len += (size_t)r;
	}
}

/* Reap pid by the deadline (end of output is not the end of the child).
 * Returns 1 with *wstatus, 0 when it still runs at the deadline. */
static int reap_until(pid_t pid, int *wstatus, long long deadline)
{
	for (;;) {
		pid_t w = waitpid(pid, wstatus, WNOHANG);
		if (w == pid)
			return 1;
		if (w < 0 && errno != EINTR)
			return 1; /* not ours to wait for any more: nothing to kill */
		if (now_ms() >= deadline)
			return 0;
		usleep(10000);
	}
}

/* Kill pid and its group, and reap it. */
static void kill_reap(pid_t pid, int *wstatus)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, wstatus, 0) < 0 && errno == EINTR)
		;
}

/* The pipes: out[] for the child's stdout, err[] (close-on-exec) for its
 * exec's errno. Returns 0, or -1 with errno. */
static int make_pipes(int out[2], int err[2])
{
	if (pipe(out) < 0)
		return -1;
	if (pipe(err) < 0) {
		close(out[0]);
		close(out[1]);
		out[0] = out[1] = -1;
		return -1;
	}
	fcntl(err[0], F_SETFD, FD_CLOEXEC);
	fcntl(err[1], F_SETFD, FD_CLOEXEC);
	fcntl(out[0], F_SETFD, FD_CLOEXEC);
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* How the reaped child ended, into end; its exec's errno from err. */
static void ended(int wstatus, int err, struct mt_run_end *end)
{
	int e = 0;
	if (read(err, &e, sizeof e) == (ssize_t)sizeof e && e != 0) {
		end->start_errno = e;
		return;
	}
	if (WIFEXITED(wstatus))
		end->exit_code = WEXITSTATUS(wstatus);
	else if (WIFSIGNALED(wstatus))
		end->signal = WTERMSIG(wstatus);
	if (end->exit_code == 0)
		end->status = MT_RUN_OK;
}

char *mt_run_child(const char *const argv[], size_t max, int timeout_ms, unsigned flags,
		   struct mt_run_end *end)
{
	struct mt_run_end mine;
	int out[2] = { -1, -1 }, err[2] = { -1, -1 }, wstatus = 0;
	long long deadline = now_ms() + timeout_ms;
	char *buf = NULL;
	long len;
	pid_t pid = -1;
	if (!end)
		end = &mine;
	memset(end, 0, sizeof *end);
	end->status = MT_RUN_FAILED;
	end->exit_code = -1;
	end->timeout_ms = timeout_ms;
	errno = 0;
	if (make_pipes(out, err) < 0 || !(buf = malloc(max + 1)) || (pid = fork()) < 0) {
		end->start_errno = errno ? errno : ENOMEM;
		goto fail;
	}
	if (pid == 0) {
		close(out[0]);
		close(err[0]);
		run_child(argv, out[1], err[1], flags);
	}
	setpgid(pid, pid); /* as the child does, so that no kill misses the group */
	close_fd(&out[1]);
	close_fd(&err[1]);
	len = read_until(out[0], buf, max, deadline);
	if (len < 0 || !reap_until(pid, &wstatus, deadline)) {
		kill_reap(pid, &wstatus);
		end->status = MT_RUN_TIMED_OUT;
		goto fail;
	}
	ended(wstatus, err[0], end);
	if (end->status != MT_RUN_OK)
		goto fail;
	buf[len] = '\0';
	close_fd(&out[0]);
	close_fd(&err[0]);
	return buf;
fail:
	for (int i = 0; i < 2; i++) {
		close_fd(&out[i]);
		close_fd(&err[i]);
	}
	free(buf);
	return NULL;
}

const char *mt_run_why(const struct mt_run_end *end, char *buf, size_t len)
{
	if (end->status == MT_RUN_TIMED_OUT)
		mt_snprintf(buf, len, MT_RUN_WHY_TIMED_OUT, end->timeout_ms);
	else if (end->start_errno == ENOENT)
		mt_snprintf(buf, len, "%s", MT_RUN_WHY_NOT_INSTALLED);
	else if (end->start_errno)
		mt_snprintf(buf, len, MT_RUN_WHY_NO_START, strerror(end->start_errno));
	else if (end->signal)
		mt_snprintf(buf, len, MT_RUN_WHY_SIGNAL, end->signal);
	else if (end->exit_code > 0)
		mt_snprintf(buf, len, MT_RUN_WHY_STATUS, end->exit_code);
	else if (len)
		buf[0] = '\0';
	return buf;
}

char *mt_run_capture_for(const char *const argv[], size_t max, int timeout_ms,
			 enum mt_run_status *status)
{
	struct mt_run_end end;
	char *out = mt_run_child(argv, max, timeout_ms, 0, &end);
	if (status)
		*status = end.status;
	return out;
}

char *mt_run_capture(const char *const argv[], size_t max)
{
	return mt_run_capture_for(argv, max, MT_RUN_TIMEOUT_MS, NULL);
}
