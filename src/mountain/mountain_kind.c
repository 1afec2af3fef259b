/* mountain_kind: the memory mountain's result kind (run/result_kind.h):
 * its file is mountain_json.c's. */
#include "config.h"

#include "base/i18n.h"

#include "cliffs.h"
#include "mountain.h"
#include "mountain_json.h"
#include "passport.h"
#include "run/result_kind.h"

RESULT_KIND_TYPED(struct mountain, mountain_to_json)

/* A mountain file names no experiment (the seed's keys exactly): its
 * "throughput" table tells it. */
static int is(const cJSON *root)
{
	return cJSON_GetObjectItemCaseSensitive(root, "throughput") != NULL;
}

static void *load(const cJSON *root, const char *path, mt_error *e)
{
	return mountain_from_json(root, path, e);
}

static void release(void *r)
{
	mountain_free(r);
}

/* The headline figures: the passport's peak and floor (MB/s) and the
 * first three levels the cliffs show ("L1 size" ...: sizes the caches act
 * as, which a shared or partitioned L3 makes smaller than its label). */
static size_t figures(const void *r, struct result_figure *out, size_t max)
{
	const struct mountain *m = r;
	struct passport p;
	struct detection d;
	size_t n = 0;
	if (passport_compute(m, &p) == 0) {
		result_figure_add(out, max, &n, "peak", p.peak, "MB/s");
		result_figure_add(out, max, &n, "floor", p.floor, "MB/s");
	}
	if (cliffs_detect(m, CLIFFS_RATIO, &d) == 0)
		for (int k = 0; k < d.nlevels && k < 3; k++) {
			char name[16];
			mt_snprintf(name, sizeof name, "L%d size", k + 1);
			result_figure_add(out, max, &n, name, (double)d.size[k], "B");
		}
	return n;
}

/* How the mountain measured: its largest size, on 4 KB pages (its buffer
 * asks for them: MADV_NOHUGEPAGE). */
static void method(const void *r, struct result_method *m)
{
	const struct mountain *t = r;
	uint64_t max = 0;
	for (size_t i = 0; i < t->nsizes; i++)
		if (t->sizes[i] > max)
			max = t->sizes[i];
	if (max)
		mt_fmt_size(m->size, sizeof m->size, max);
	if (!t->source[0] || t->hdr.has_diag) { /* memtop's run, not an import */
		m->advice = RESULT_PAGES_4K;
		mt_strlcpy(m->pages, "4 KB pages", sizeof m->pages);
	}
}

const struct result_kind kind_mountain = {
	.name = "mountain",
	.what = "mountain",
	.tab = "Mountain",
	.seed = "m4max.json",
	.is = is,
	.load = load,
	.free = release,
	.to_json = kind_to_json,
	.figures = figures,
	.compare = mountain_compare,
	.method = method,
	.plot = mountain_plot,
	.strides = 1,
};
