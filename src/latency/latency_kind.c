/* latency_kind: the latency run's result kind (run/result_kind.h):
 * latency_json.c's file (memtop run latency, and memtop import's). */
#include "config.h"

#include "base/i18n.h"

#include "latency.h"
#include "info/info.h"
#include "run/result_kind.h"

#include <stdlib.h>

RESULT_KIND_TYPED(struct latency_result, latency_to_json)

/* Files written before results named their experiment: "cycles" and "ns"
 * (a mountain's "throughput" is told first, by the registry's order). */
static int is(const cJSON *root)
{
	return cJSON_GetObjectItemCaseSensitive(root, "cycles") &&
	       cJSON_GetObjectItemCaseSensitive(root, "ns") &&
	       !cJSON_GetObjectItemCaseSensitive(root, "throughput");
}

static void *load(const cJSON *root, const char *path, mt_error *e)
{
	return latency_from_json(root, path, e);
}

static void release(void *r)
{
	latency_result_free(r);
}

/* The headline figures: each cache level's size and latency and the
 * memory's ("L2 size", "L2 ns", "mem ns"); an imported curve that gives
 * latency over L1 (tinymembench) names them "L2 +ns", "mem +ns", never to
 * be compared with a whole load's. */
static size_t figures(const void *r, struct result_figure *out, size_t max)
{
	struct latency_levels lv;
	const char *ns;
	size_t n = 0;
	latency_detect(r, &lv);
	ns = lv.over_l1 ? "+ns" : "ns";
	for (size_t k = 0; k < lv.n; k++) {
		char name[16];
		if (lv.lv[k].tlb || lv.lv[k].level < 1 || lv.lv[k].level > 9)
			continue;
		mt_snprintf(name, sizeof name, "L%d size", lv.lv[k].level);
		result_figure_add(out, max, &n, name, (double)lv.lv[k].size, "B");
		mt_snprintf(name, sizeof name, "L%d %s", lv.lv[k].level, ns);
		result_figure_add(out, max, &n, name, lv.lv[k].ns, "ns");
	}
	if (lv.has_memory) {
		char name[16];
		mt_snprintf(name, sizeof name, "mem %s", ns);
		result_figure_add(out, max, &n, name, lv.memory_ns, "ns");
	}
	return n;
}

/* The levels against the caches the run recorded (memtop levels' lines). */
static int verdict(const struct result_file *f, FILE *out)
{
	const struct latency_result *r = f->r;
	struct latency_levels lv;
	struct info *inf;
	if (!r->caches || !(inf = calloc(1, sizeof *inf)))
		return -1;
	if (info_from_json(r->caches, inf, f->path, NULL) < 0) {
		free(inf);
		return -1;
	}
	latency_detect(r, &lv);
	latency_levels_print(out, &lv, inf);
	free(inf);
	return 0;
}

/* The advice a chase's buffer had: MADV_HUGEPAGE or MADV_NOHUGEPAGE. */
static unsigned page_advice(int hugepages)
{
	return hugepages == LATENCY_HUGE_ON ? RESULT_PAGES_HUGE : RESULT_PAGES_4K;
}

/* How the run measured: its largest size and the pages of its chases
 * (each asked for: MADV_HUGEPAGE or MADV_NOHUGEPAGE); an import says
 * nothing of its pages. Its tries vary point by point (a point measured
 * again), so they are not said. */
static void method(const void *rv, struct result_method *m)
{
	const struct latency_result *r = rv;
	uint64_t max = 0;
	for (size_t i = 0; i < r->nsizes; i++)
		if (r->sizes[i] > max)
			max = r->sizes[i];
	if (max)
		mt_fmt_size(m->size, sizeof m->size, max);
	if (r->format[0] || r->hugepages == LATENCY_HUGE_UNKNOWN)
		return;
	m->advice = page_advice(r->hugepages);
	if (r->has_other)
		m->advice |= page_advice(r->other_hugepages);
	if (m->advice == (RESULT_PAGES_HUGE | RESULT_PAGES_4K))
		mt_strlcpy(m->pages, "4 KB and 2 MB pages", sizeof m->pages);
	else
		mt_strlcpy(m->pages, m->advice == RESULT_PAGES_HUGE ? "2 MB pages" : "4 KB pages",
			   sizeof m->pages);
}

const struct result_kind kind_latency = {
	.name = "latency",
	.what = "latency run",
	.tab = "Latency",
	.is = is,
	.load = load,
	.free = release,
	.to_json = kind_to_json,
	.figures = figures,
	.compare = latency_compare,
	.method = method,
	.plot = latency_plot,
	.verdict = verdict,
};
