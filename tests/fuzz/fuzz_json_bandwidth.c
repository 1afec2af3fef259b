/* Fuzz harness: a bandwidth result file as `memtop view FILE` reads it
 * (bandwidth_result_from_json), then what the Bandwidth tab and the batch
 * printer compute on it: every cell's share of its ceiling, each kernel's
 * write-allocate lesson, the top, the clock, the thread indexes, the
 * writer on what was read, and memtop plot's picture of it. */
#include "config.h"

#include "fuzz.h"
#include "bandwidth/bandwidth.h"
#include "render/svg.h"
#include "run/result_kind.h"

static void use(const cJSON *root, const char *path)
{
	static struct bandwidth_result r; /* large: not on the stack */
	char buf[512];
	mt_error e;
	int measured;
	(void)bandwidth_result_is(root);
	memset(&r, 0, sizeof r);
	if (bandwidth_result_from_json(root, path, &r, &e) < 0)
		return;
	(void)bandwidth_result_measured(&r);
	(void)bandwidth_result_top(&r);
	(void)bandwidth_result_ghz(&r, &measured);
	for (size_t t = 0; t < r.nthreads; t++)
		(void)bandwidth_result_tindex(&r, r.threads[t].threads);
	for (size_t k = 0; k < r.nkernels; k++) {
		(void)bandwidth_kernel_name(r.kernels[k]);
		(void)bandwidth_lesson(&r, r.kernels[k], buf, sizeof buf);
	}
	for (size_t s = 0; s < r.nsizes; s++)
		for (size_t k = 0; k < r.nkernels; k++)
			for (size_t t = 0; t < r.nthreads; t++) {
				struct bandwidth_share sh;
				if (bandwidth_cell_share(&r, s, r.kernels[k], t, &sh) == 0)
					(void)bandwidth_ceiling_doubt(sh.fraction);
			}
	cJSON_Delete(bandwidth_result_to_json(&r));
	{
		struct result_file f = { &kind_bandwidth, &r, path };
		struct svg s;
		memset(&s, 0, sizeof s);
		(void)bandwidth_plot(&f, 1, &s);
		svg_free(&s);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_json(data, size, use);
}
