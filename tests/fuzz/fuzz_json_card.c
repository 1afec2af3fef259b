/* Fuzz harness: a summary card file as `memtop view FILE` reads it
 * (card_from_json), then the card's lines the Mountain tab draws beside a
 * heatmap. */
#include "config.h"

#include "fuzz.h"
#include "mountain/card.h"

static void use(const cJSON *root, const char *path)
{
	struct mountain_card c;
	char lines[CARD_LINES][CARD_WIDTH + 1];
	mt_error e;
	(void)card_is(root);
	if (card_from_json(root, path, &c, &e) < 0)
		return;
	(void)card_lines(&c, lines, CARD_LINES);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_json(data, size, use);
}
