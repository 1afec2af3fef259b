/* tests/fuzz/fuzz.h: what the fuzz harnesses share. Each harness is one
 * file tests/fuzz/fuzz_NAME.c defining LLVMFuzzerTestOneInput for one
 * reader; `make fuzz` links it with libFuzzer (clang, ASan+UBSan) and
 * tests/fuzz/run.sh drives it, while make check links it with
 * tests/fuzz/replay.c, which feeds it the seed corpus and every input a
 * fuzzer once crashed on (tests/fuzz/corpus/NAME, tests/fuzz/crashes/NAME).
 * A harness never fails by itself: a bug shows as a crash or a sanitizer
 * report. */
#ifndef MEMTOP_FUZZ_H
#define MEMTOP_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/jsonio.h"
#include "info/info.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a file the readers open by path: an anonymous memory file
 * named "/proc/self/fd/N" in path. Returns its descriptor (close it after),
 * or -1. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz", 0);
	size_t off = 0;
	if (fd < 0)
		return -1;
	while (off < size) {
		ssize_t w = write(fd, data + off, size - off);
		if (w <= 0) {
			close(fd);
			return -1;
		}
		off += (size_t)w;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* Write n bytes of p to path (a harness's private tree), or remove path
 * when n is 0: a missing file is an input like any other. */
static inline void fuzz_put_file(const char *path, const uint8_t *p, size_t n)
{
	FILE *f;
	unlink(path);
	if (n == 0)
		return;
	f = fopen(path, "wb");
	if (!f)
		return;
	if (fwrite(p, 1, n, f) != n) {
		/* nothing: a short file is an input like any other */
	}
	fclose(f);
}

/* A harness's private tree of files (a recorded /sys or /proc): its
 * folder under $TMPDIR, memtop-fuzz-NAME.PID, made with every file's
 * folders on the first input; each input is then the files' contents
 * separated by NUL bytes, in the order of files (an empty piece, or one
 * past the input's end, leaves that file out). */
struct fuzz_tree {
	const char *name;          /* memtop-fuzz-NAME.PID */
	const char *const *files;  /* paths below root */
	size_t nfiles;
	char root[256];            /* filled by fuzz_tree_fill */
	int ready;
};

/* The folders of path (below t's root) made. Returns 0, or -1. */
static inline int fuzz_tree_dirs(const struct fuzz_tree *t, const char *path)
{
	char dir[700];
	for (const char *c = strchr(path, '/'); c; c = strchr(c + 1, '/')) {
		snprintf(dir, sizeof dir, "%s/%.*s", t->root, (int)(c - path), path);
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

/* The input written into t's files (its folders made first, once).
 * Returns 0, or -1 when they could not be made (the harness returns). */
static inline int fuzz_tree_fill(struct fuzz_tree *t, const uint8_t *data, size_t size)
{
	size_t piece = 0, from = 0;
	char path[700];
	if (!t->ready) {
		const char *tmp = getenv("TMPDIR");
		snprintf(t->root, sizeof t->root, "%s/memtop-fuzz-%s.%d",
			 tmp && *tmp ? tmp : "/tmp", t->name, (int)getpid());
		if (mkdir(t->root, 0700) < 0 && errno != EEXIST)
			return -1;
		for (size_t k = 0; k < t->nfiles; k++)
			if (fuzz_tree_dirs(t, t->files[k]) < 0)
				return -1;
		t->ready = 1;
	}
	for (size_t i = 0; i <= size && piece < t->nfiles; i++) {
		if (i < size && data[i] != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", t->root, t->files[piece++]);
		fuzz_put_file(path, data + from, i - from);
		from = i + 1;
	}
	for (; piece < t->nfiles; piece++) {
		snprintf(path, sizeof path, "%s/%s", t->root, t->files[piece]);
		fuzz_put_file(path, NULL, 0);
	}
	return 0;
}

/* The input as a NUL-terminated string (malloc'd; NULL out of memory). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return NULL;
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Where the readers' printers write in a harness: nowhere. */
static inline FILE *fuzz_sink(void)
{
	static FILE *f;
	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

/* The input as a JSON file: loads it (jsonio_load) and, when it parses,
 * hands the tree and the path it was read from to use, then frees both.
 * Returns 0 (a harness's return). */
static inline int fuzz_json(const uint8_t *data, size_t size,
			    void (*use)(const cJSON *root, const char *path))
{
	char path[64];
	mt_error e;
	cJSON *root;
	int fd = fuzz_file(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	root = jsonio_load(path, &e);
	if (root) {
		use(root, path);
		cJSON_Delete(root);
	}
	close(fd);
	return 0;
}

/* The input as the text of one cache information tool, read by parse; the
 * levels read are named. Returns 0 (a harness's return). */
static inline int fuzz_info_text(const uint8_t *data, size_t size,
				 int (*parse)(const char *text, struct info_source *out,
					      mt_error *e))
{
	struct info_source s;
	mt_error e;
	char *text = fuzz_text(data, size);
	if (text && parse(text, &s, &e) == 0) {
		char name[32];
		for (int i = 0; i < s.nlevels; i++)
			info_level_name(&s.lv[i], name, sizeof name);
	}
	free(text);
	return 0;
}

#endif
