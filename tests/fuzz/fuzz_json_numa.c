/* Fuzz harness: a numa result (memtop run numa --json) read back, and
 * written out again from what was read. */
#include "config.h"

#include "fuzz.h"
#include "base/jsonio.h"
#include "numa/numa.h"

static struct numa_result r;

static void use(const cJSON *root, const char *path)
{
	mt_error e;
	numa_result_is(root);
	if (numa_result_from_json(root, path, &r, &e) == 0) {
		(void)numa_result_placement(&r, 0, 0);
		cJSON_Delete(numa_result_to_json(&r));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_json(data, size, use);
}
