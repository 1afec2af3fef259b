/* tests/stall_open.c: a test-only LD_PRELOAD shim (tests/tui_slowread.sh
 * builds it with $CC; never linked into memtop). An open of the one path
 * named by STALL_PATH waits, as on a network file system whose server has
 * gone, until the file STALL_UNTIL exists; on entering the wait it makes
 * the folder STALL_HELD, so that the test knows the read is held; a rename
 * to that path (a save's last step) waits the same way. Every other open
 * and rename goes straight through. Plain builds only: a sanitizer's
 * runtime must come first in the library list. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void hold(const char *path)
{
	const char *p = getenv("STALL_PATH"), *until = getenv("STALL_UNTIL");
	const char *held = getenv("STALL_HELD");
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	if (!p || !until || !path || strcmp(p, path) != 0)
		return;
	if (held)
		mkdir(held, 0700); /* a system call of its own: no open */
	while (access(until, F_OK) != 0)
		nanosleep(&nap, NULL);
}

static mode_t mode_of(int flags, va_list ap)
{
	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
		return (mode_t)va_arg(ap, int);
	return 0;
}

/* mode, the optional argument after flags, into m */
#define MODE_ARG(flags, m)                  \
	do {                                \
		va_list ap;                 \
		va_start(ap, flags);        \
		m = mode_of(flags, ap);     \
		va_end(ap);                 \
	} while (0)
#define SHIM_OPEN(NAME)                                                         \
	int NAME(const char *path, int flags, ...)                              \
	{                                                                       \
		int (*real)(const char *, int, ...) =                           \
			(int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #NAME); \
		mode_t mode;                                                    \
		MODE_ARG(flags, mode);                                          \
		hold(path);                                                     \
		return real(path, flags, mode);                                 \
	}
#define SHIM_OPENAT(NAME)                                                            \
	int NAME(int dir, const char *path, int flags, ...)                          \
	{                                                                            \
		int (*real)(int, const char *, int, ...) =                           \
			(int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, #NAME); \
		mode_t mode;                                                         \
		MODE_ARG(flags, mode);                                               \
		hold(path);                                                          \
		return real(dir, path, flags, mode);                                 \
	}
#define SHIM_FOPEN(NAME)                                                          \
	FILE *NAME(const char *path, const char *how)                             \
	{                                                                         \
		FILE *(*real)(const char *, const char *) =                       \
			(FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, #NAME); \
		hold(path);                                                       \
		return real(path, how);                                           \
	}

SHIM_OPEN(open)
SHIM_OPEN(open64)
SHIM_OPENAT(openat)
SHIM_OPENAT(openat64)
SHIM_FOPEN(fopen)
SHIM_FOPEN(fopen64)

/* a save's last step (mt_save_file: the temporary file renamed to the
 * path): held when the path is STALL_PATH */
int rename(const char *from, const char *to)
{
	int (*real)(const char *, const char *) =
		(int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
	hold(to);
	return real(from, to);
}
