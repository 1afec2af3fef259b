/* Fuzz harness: a mountain file (mountain_load: the JSON reader and the
 * mountain checks), then what reads a loaded mountain: the cliff finder on
 * every column under both rules, the detection, the header printer. */
#include "config.h"

#include "fuzz.h"
#include "mountain/cliffs.h"
#include "mountain/mountain_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	mt_error e;
	struct mountain *m;
	int fd = fuzz_file(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	m = mountain_load(path, &e);
	if (m) {
		struct detection d;
		struct cliff cs[CLIFFS_MAX];
		cJSON *o = mountain_to_json(m);
		cJSON_Delete(o);
		cliffs_detect(m, 1.5, &d);
		for (size_t c = 0; c < m->nstrides; c++) {
			cliffs_find(m, c, CLIFF_SEED, 1.5, cs, CLIFFS_MAX, &e);
			cliffs_find(m, c, CLIFF_MERGED, 1.5, cs, CLIFFS_MAX, &e);
		}
		run_header_print(fuzz_sink(), &m->hdr);
	}
	mountain_free(m);
	close(fd);
	return 0;
}
