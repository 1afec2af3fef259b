/* card_kind: the summary card's result kind (core/result_kind.h): a
 * machine's mountain as figures, for one whose surface was never published
 * (card.h). memtop reads cards, never writes them. */
#include "config.h"

#include "card.h"
#include "core/result_kind.h"

#include <stdlib.h>

static int from(const cJSON *root, const char *path, void *r, mt_error *e)
{
	return card_from_json(root, path, r, e);
}

static void *load(const cJSON *root, const char *path, mt_error *e)
{
	return result_kind_load_into(sizeof(struct mountain_card), root, path, e, from);
}

static void release(void *r)
{
	free(r);
}

static const struct run_header *header(const void *r)
{
	return &((const struct mountain_card *)r)->hdr;
}

const struct result_kind kind_card = {
	.name = "card",
	.what = "summary card",
	.tab = "Mountain",
	.load = load,
	.free = release,
	.header = header,
};
