/* Fuzz harness: a result file through every result kind (result/result.h:
 * matmul, false sharing, lists, transpose, bandwidth, the card, and the
 * mountain and latency readers too): result_kind_of on the tree, then each
 * kind's reader on the same tree and its writer on what it read. */
#include "config.h"

#include "fuzz.h"
#include "base/jsonio.h"
#include "result/result.h"

/* Each kind's reader on the same tree, and its writer on what it read. */
static void use(const cJSON *root, const char *path)
{
	size_t n;
	const struct result_kind *const *k = result_kinds(&n);
	(void)result_kind_of(root);
	for (size_t i = 0; i < n; i++) {
		mt_error e;
		void *r = k[i]->load(root, path, &e);
		if (!r)
			continue;
		if (k[i]->to_json)
			cJSON_Delete(k[i]->to_json(r));
		k[i]->free(r);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_json(data, size, use);
}
