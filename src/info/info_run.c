/* info_run: running a tool that reports caches (lscpu -C), without a shell,
 * with a time limit and the reason it gave nothing (info.h). */
#include "config.h"

#include "info.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define EXIT_NOT_FOUND 127 /* the child's status when execvp failed */

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Read the child's stdout until it closes or the deadline passes. Returns
 * the bytes read, or -1 on time out. */
static long read_until(int fd, char *buf, size_t max, long long deadline)
{
	size_t len = 0;
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		long long left = deadline - now_ms();
		ssize_t n;
		if (left <= 0)
			return -1;
		if (poll(&p, 1, (int)left) <= 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		n = read(fd, buf + len, max - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return (long)len;
		len += (size_t)n;
		if (len == max)
			return (long)len; /* enough: the rest is not read */
	}
}

static void child(const char *const argv[], int out)
{
	int devnull = open("/dev/null", O_RDWR);
	dup2(out, 1);
	if (devnull >= 0) {
		dup2(devnull, 0);
		dup2(devnull, 2);
	}
	execvp(argv[0], (char *const *)argv);
	_exit(EXIT_NOT_FOUND);
}

/* Why the child gave nothing, from its wait status. */
static void status_why(int st, char *why, size_t wlen)
{
	if (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_NOT_FOUND)
		mt_snprintf(why, wlen, "not installed");
	else if (WIFEXITED(st))
		mt_snprintf(why, wlen, "exited with status %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		mt_snprintf(why, wlen, "killed by signal %d", WTERMSIG(st));
}

char *info_run_tool(const char *const argv[], size_t max, int timeout_ms, char *why, size_t wlen)
{
	int pipefd[2], st = 0;
	pid_t pid;
	long len;
	char *buf = malloc(max + 1);
	why[0] = '\0';
	if (!buf || pipe(pipefd) < 0) {
		free(buf);
		mt_snprintf(why, wlen, "could not start: %s", strerror(errno));
		return NULL;
	}
	if ((pid = fork()) < 0) {
		mt_snprintf(why, wlen, "could not start: %s", strerror(errno));
		close(pipefd[0]);
		close(pipefd[1]);
		free(buf);
		return NULL;
	}
	if (pid == 0)
		child(argv, pipefd[1]);
	close(pipefd[1]);
	len = read_until(pipefd[0], buf, max, now_ms() + timeout_ms);
	close(pipefd[0]);
	if (len < 0) {
		kill(pid, SIGKILL);
		mt_snprintf(why, wlen, "timed out after %d ms", timeout_ms);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (len >= 0 && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
		status_why(st, why, wlen);
	if (why[0]) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}
