/* Fuzz harness: a result's "conditions" (or a bare conditions object)
 * read back, summarised, set against itself and a changed copy, and
 * written out again from what was read. */
#include "config.h"

#include "fuzz.h"
#include "os/conditions.h"

#include <string.h>

static void use(const cJSON *root, const char *path)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "conditions");
	struct mt_conditions c, d;
	struct cond_diff diff[COND_NFIELDS];
	char sum[256];
	(void)path;
	mt_conditions_from_json(o ? o : root, &c);
	(void)mt_conditions_summary(&c, sum, sizeof sum);
	d = c;
	d.thp.known = 1;
	memcpy(d.thp.text, "never", 6);
	for (int fam = COND_FAM_ANY; fam <= COND_FAM_SIZE; fam++)
		(void)mt_conditions_differ(&c, &d, (enum cond_family)fam, diff, COND_NFIELDS);
	cJSON_Delete(mt_conditions_to_json(&c));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_json(data, size, use);
}
