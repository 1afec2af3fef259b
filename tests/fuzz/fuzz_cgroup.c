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
static struct fuzz_tree tree = { "cgroup", files, sizeof files / sizeof files[0], "", 0 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mt_limits l, back;
	char sum[512], note[400];
	cJSON *o;
	char *text;
	if (fuzz_tree_fill(&tree, data, size) < 0)
		return 0;
	mt_limits_read(tree.root, &l);
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
