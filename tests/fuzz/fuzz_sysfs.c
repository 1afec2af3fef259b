/* Fuzz harness: a sysfs cache folder (info_parse_sysfs). The input is the
 * attribute files' contents separated by NUL bytes, in the order of
 * attrs[] for index0, then index1, ... (up to four); an empty piece leaves
 * that file out. They are written to a private folder under $TMPDIR that
 * each run empties again. */
#include "config.h"

#include "fuzz.h"
#include "info/info.h"

#include <errno.h>
#include <sys/stat.h>

#define NINDEX 4

static const char *const attrs[] = { "level", "type", "size", "ways_of_associativity",
				     "coherency_line_size", "number_of_sets",
				     "shared_cpu_list" };
#define NATTR (sizeof attrs / sizeof attrs[0])

static char root[256];

/* root/cpu0/cache/indexK made once per process. */
static int make_root(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[512];
	snprintf(root, sizeof root, "%s/memtop-fuzz-sysfs.%d", tmp && *tmp ? tmp : "/tmp",
		 (int)getpid());
	mkdir(root, 0700);
	snprintf(dir, sizeof dir, "%s/cpu0", root);
	mkdir(dir, 0700);
	snprintf(dir, sizeof dir, "%s/cpu0/cache", root);
	mkdir(dir, 0700);
	for (int k = 0; k < NINDEX; k++) {
		snprintf(dir, sizeof dir, "%s/cpu0/cache/index%d", root, k);
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

static void put(int k, size_t a, const uint8_t *p, size_t n)
{
	char path[600];
	snprintf(path, sizeof path, "%s/cpu0/cache/index%d/%s", root, k, attrs[a]);
	fuzz_put_file(path, p, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct info_source s;
	mt_error e;
	size_t piece = 0, from = 0;
	if (!ready) {
		if (make_root() < 0)
			return 0;
		ready = 1;
	}
	for (size_t i = 0; i <= size && piece < NINDEX * NATTR; i++) {
		if (i < size && data[i] != 0)
			continue;
		put((int)(piece / NATTR), piece % NATTR, data + from, i - from);
		piece++;
		from = i + 1;
	}
	for (; piece < NINDEX * NATTR; piece++)
		put((int)(piece / NATTR), piece % NATTR, NULL, 0);
	if (info_parse_sysfs(root, 0, &s, &e) == 0) {
		struct info inf;
		info_init(&inf);
		info_add_source(&inf, &s);
		info_compare(&inf);
	}
	return 0;
}
