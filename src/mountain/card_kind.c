/* card_kind: the summary card's result kind (run/result_kind.h): a
 * machine's mountain as figures, for one whose surface was never published
 * (card.h). memtop reads cards, never writes them. */
#include "config.h"

#include "base/i18n.h"

#include "card.h"
#include "run/result_kind.h"

#include <stdlib.h>

RESULT_KIND_FILLED(struct mountain_card, card_from_json)

/* The headline figures the card gives, as a mountain's: peak and floor
 * (MB/s), the cache sizes (what is unknown left out). */
static size_t figures(const void *r, struct result_figure *out, size_t max)
{
	const struct mountain_card *c = r;
	size_t n = 0;
	if (c->peak > 0)
		result_figure_add(out, max, &n, "peak", c->peak, "MB/s");
	if (c->floor > 0)
		result_figure_add(out, max, &n, "floor", c->floor, "MB/s");
	if (c->l1d)
		result_figure_add(out, max, &n, "L1 size", (double)c->l1d, "B");
	if (c->l2)
		result_figure_add(out, max, &n, "L2 size", (double)c->l2, "B");
	if (c->l3)
		result_figure_add(out, max, &n, "L3 size", (double)c->l3, "B");
	return n;
}

const struct result_kind kind_card = {
	.name = "card",
	.what = "summary card",
	.tab = "Mountain",
	.load = kind_load,
	.free = free,
	.figures = figures,
};
