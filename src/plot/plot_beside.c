/* plot_beside: a mountain's picture with its levels held against a latency
 * run of the same machine (plot_beside.h). */
#include "config.h"

#include "plot_beside.h"
#include "base/i18n.h"
#include "plot.h"
#include "mountain/mountain.h"
#include "result/result.h"
#include "result/result_beside.h"

#include <string.h>

void plot_latency_levels(const struct latency_result *r, const char *path, int beside,
			 struct other_levels *o)
{
	struct latency_levels lv;
	const char *base = path ? strrchr(path, '/') : NULL;
	memset(o, 0, sizeof *o);
	latency_detect(r, &lv);
	for (size_t i = 0; i < lv.n && o->n < (int)MT_ARRAY_LEN(o->size); i++)
		if (!lv.lv[i].tlb)
			o->size[o->n++] = lv.lv[i].size;
	o->memory = lv.has_memory;
	o->memory_from = lv.memory_from;
	mt_strlcpy(o->what, beside ? _("the latency run beside the file") : _("the latency run"),
		   sizeof o->what);

	if (path)
		mt_printable(o->file, sizeof o->file, base ? base + 1 : path, 0);
}

int plot_draw_beside(const struct result_file *f, size_t n, const struct latency_result *lr,
		     const char *lr_path, struct svg *s, mt_error *e)
{
	struct other_levels other[PLOT_MAX_FILES];
	char found[MT_PATH_MAX];
	if (n < 1 || n > PLOT_MAX_FILES || f[0].kind != &kind_mountain ||
	    (n == 2 && f[1].kind != &kind_mountain))
		return plot_draw(f, n, s, e);
	memset(s, 0, sizeof *s);
	for (size_t k = 0; k < n; k++) {
		const struct mountain *m = f[k].r;
		struct latency_result *b = NULL;
		memset(&other[k], 0, sizeof other[k]);
		if (lr)
			plot_latency_levels(lr, lr_path, 0, &other[k]);
		else if ((b = result_beside(f[k].path, &m->hdr, &kind_latency, found, sizeof found,
					    NULL, NULL)))
			plot_latency_levels(b, found, 1, &other[k]);
		latency_result_free(b);
	}
	if (mountain_plot_with(f, n, other, s) < 0 || s->failed)
		return mt_fail(e, "%s", _("out of memory while drawing the SVG"));
	return 0;
}
