/* Fuzz harness: the lab results (matmul, false sharing, lists) read back
 * from one file, each reader on the same input, and written out again. */
#include "config.h"

#include "fuzz.h"
#include "core/jsonio.h"
#include "labs/falseshare.h"
#include "labs/lists.h"
#include "labs/matmul.h"

static struct matmul_result mm;
static struct falseshare_result fs;
static struct lists_result ls;

/* Each lab's reader on the same tree, and its writer on what it read. */
static void use(const cJSON *root, const char *path)
{
	mt_error e;
	matmul_result_is(root);
	falseshare_result_is(root);
	lists_result_is(root);
	if (matmul_result_from_json(root, path, &mm, &e) == 0)
		cJSON_Delete(matmul_result_to_json(&mm));
	if (falseshare_result_from_json(root, path, &fs, &e) == 0)
		cJSON_Delete(falseshare_result_to_json(&fs));
	if (lists_result_from_json(root, path, &ls, &e) == 0)
		cJSON_Delete(lists_result_to_json(&ls));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_json(data, size, use);
}
