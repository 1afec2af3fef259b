/* info_source: building the model (info.h): empty info and sources, adding
 * levels and sources. Below everything else in src/info: the parsers and
 * the JSON reader build with these, and nothing here calls them back. */
#include "config.h"

#include "info.h"

#include <string.h>

void info_init(struct info *inf)
{
	memset(inf, 0, sizeof *inf);
}

void info_source_init(struct info_source *s, const char *name)
{
	memset(s, 0, sizeof *s);
	mt_strlcpy(s->name, name, sizeof s->name);
}

int info_add_source(struct info *inf, const struct info_source *s)
{
	if (s->nlevels <= 0)
		return 0;
	if (inf->nsources >= INFO_MAX_SOURCES)
		return -1;
	inf->src[inf->nsources++] = *s;
	return 0;
}

int info_source_add_level(struct info_source *s, const struct cache_level *lv)
{
	if (s->nlevels >= INFO_MAX_LEVELS)
		return -1;
	s->lv[s->nlevels++] = *lv;
	return 0;
}

