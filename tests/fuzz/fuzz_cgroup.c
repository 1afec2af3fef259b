/* Fuzz harness: a job's cgroup tree (mt_limits_read). The input is the
 * files' contents separated by NUL bytes, in the order of files[] (an
 * empty piece leaves that file out): /proc/self/cgroup, mountinfo, a v1
 * memory and cpu hierarchy two levels deep, the v2 one, a hugetlb limit.
 * They are written to a private folder under $TMPDIR that each run fills
 * again. The limits read are put in words, written as JSON and read back;
 * the input is also read as the JSON of a result's "job". */
#include "config.h"

#include "fuzz.h"
#include "os/cgroup.h"

#include <errno.h>
#include <sys/stat.h>

static const char *const files[] = {
	"proc/self/cgroup",
	"proc/self/mountinfo",
	"sys/fs/cgroup/memory/a/memory.limit_in_bytes",
	"sys/fs/cgroup/memory/a/memory.usage_in_bytes",
	"sys/fs/cgroup/memory/a/b/memory.limit_in_bytes",
	"sys/fs/cgroup/memory/a/memory.memsw.limit_in_bytes",
	"sys/fs/cgroup/cpu/a/cpu.cfs_quota_us",
	"sys/fs/cgroup/cpu/a/cpu.cfs_period_us",
	"sys/fs/cgroup/a/memory.max",
	"sys/fs/cgroup/a/memory.current",
	"sys/fs/cgroup/a/cpu.max",
	"sys/fs/cgroup/a/cpuset.cpus.effective",
	"sys/fs/cgroup/cpuset.cpus.effective",
	"sys/fs/cgroup/a/hugetlb.2MB.max",
	"sys/fs/cgroup/cgroup.controllers",
};
#define NFILES (sizeof files / sizeof files[0])

static const char *const dirs[] = {
	"proc", "proc/self", "sys", "sys/fs", "sys/fs/cgroup", "sys/fs/cgroup/memory",
	"sys/fs/cgroup/memory/a", "sys/fs/cgroup/memory/a/b", "sys/fs/cgroup/cpu",
	"sys/fs/cgroup/cpu/a", "sys/fs/cgroup/a",
};

static char root[256];

/* root and its folders made once per process. */
static int make_root(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[512];
	snprintf(root, sizeof root, "%s/memtop-fuzz-cgroup.%d", tmp && *tmp ? tmp : "/tmp",
		 (int)getpid());
	if (mkdir(root, 0700) < 0 && errno != EEXIST)
		return -1;
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		snprintf(dir, sizeof dir, "%s/%s", root, dirs[i]);
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

static void put(size_t k, const uint8_t *p, size_t n)
{
	char path[600];
	snprintf(path, sizeof path, "%s/%s", root, files[k]);
	fuzz_put_file(path, p, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct mt_limits l, back;
	size_t piece = 0, from = 0;
	char sum[512], note[400];
	cJSON *o;
	char *text;
	if (!ready) {
		if (make_root() < 0)
			return 0;
		ready = 1;
	}
	for (size_t i = 0; i <= size && piece < NFILES; i++) {
		if (i < size && data[i] != 0)
			continue;
		put(piece++, data + from, i - from);
		from = i + 1;
	}
	for (; piece < NFILES; piece++)
		put(piece, NULL, 0);
	mt_limits_read(root, &l);
	(void)mt_limits_summary(&l, sum, sizeof sum);
	(void)mt_limits_quota_note(&l, 2, note, sizeof note);
	o = mt_limits_to_json(&l);
	mt_limits_from_json(o, &back);
	cJSON_Delete(o);
	(void)mt_limits_summary(&back, sum, sizeof sum);
	if ((text = fuzz_text(data, size))) {
		o = cJSON_Parse(text);
		mt_limits_from_json(o, &back);
		(void)mt_limits_summary(&back, sum, sizeof sum);
		cJSON_Delete(o);
		free(text);
	}
	return 0;
}
