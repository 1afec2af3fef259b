/* Fuzz harness: a core-to-core result read back (cores_result_from_json)
 * and written out again. */
#include "config.h"

#include "fuzz.h"
#include "base/jsonio.h"
#include "cores/cores.h"

/* The reader on the tree, and its writer on what it read. */
static void use(const cJSON *root, const char *path)
{
	static struct cores_result r; /* big: not on the stack */
	mt_error e;
	cores_result_is(root);
	if (cores_result_from_json(root, path, &r, &e) == 0)
		cJSON_Delete(cores_result_to_json(&r));
	cores_result_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_json(data, size, use);
}
