/* info_json: the cache information as JSON and back (info.h). */
#include "config.h"

#include "info.h"
#include "base/i18n.h"

#include <math.h>
#include <string.h>

/* ---- JSON ----------------------------------------------------------------- */

static int add_num(cJSON *o, const char *key, double v)
{
	return cJSON_AddNumberToObject(o, key, v) ? 0 : -1;
}

/* tried, doubts, vendor, hypervisor, same_origin (when known). */
static int extras_to_json(const struct info *inf, cJSON *root)
{
	cJSON *tried, *doubts;
	if (inf->ntried) {
		if (!(tried = cJSON_AddObjectToObject(root, "tried")))
			return -1;
		for (int i = 0; i < inf->ntried; i++)
			if (!cJSON_AddStringToObject(tried, inf->tried[i].name, inf->tried[i].why))
				return -1;
	}
	if (!(doubts = cJSON_AddArrayToObject(root, "doubts")))
		return -1;
	for (int i = 0; i < inf->ndoubts; i++) {
		const struct info_doubt *d = &inf->doubt[i];
		cJSON *o = cJSON_CreateObject();
		if (!o || !cJSON_AddItemToArray(doubts, o)) {
			cJSON_Delete(o);
			return -1;
		}
		if (add_num(o, "level", d->level) < 0 || !cJSON_AddStringToObject(o, "type", d->type) ||
		    add_num(o, "size", (double)d->size) < 0 ||
		    !cJSON_AddStringToObject(o, "sources", d->sources) ||
		    !cJSON_AddStringToObject(o, "why", d->why))
			return -1;
	}
	if ((inf->vendor[0] && !cJSON_AddStringToObject(root, "vendor", inf->vendor)) ||
	    (inf->hypervisor && !cJSON_AddTrueToObject(root, "hypervisor")) ||
	    (inf->same_origin[0] && !cJSON_AddStringToObject(root, "same_origin", inf->same_origin)))
		return -1;
	return 0;
}

cJSON *info_to_json(const struct info *inf)
{
	cJSON *root = cJSON_CreateObject(), *sources, *notes, *dis;
	if (!root)
		return NULL;
	sources = cJSON_AddObjectToObject(root, "sources");
	notes = cJSON_AddObjectToObject(root, "notes");
	dis = cJSON_AddArrayToObject(root, "disagreements");
	if (!sources || !notes || !dis)
		goto fail;
	for (int s = 0; s < inf->nsources; s++) {
		const struct info_source *src = &inf->src[s];
		cJSON *arr = cJSON_AddArrayToObject(sources, src->name);
		if (!arr)
			goto fail;
		if (src->note[0] && !cJSON_AddStringToObject(notes, src->name, src->note))
			goto fail;
		for (int i = 0; i < src->nlevels; i++) {
			const struct cache_level *lv = &src->lv[i];
			cJSON *o = cJSON_CreateObject();
			if (!o || !cJSON_AddItemToArray(arr, o)) {
				cJSON_Delete(o);
				goto fail;
			}
			if (add_num(o, "level", lv->level) < 0 ||
			    !cJSON_AddStringToObject(o, "type", lv->type))
				goto fail;
			if (lv->cores[0] && !cJSON_AddStringToObject(o, "cores", lv->cores))
				goto fail;
			if ((lv->size && add_num(o, "size", (double)lv->size) < 0) ||
			    (lv->approx && !cJSON_AddTrueToObject(o, "approx")) ||
			    (lv->ways > 0 && add_num(o, "ways", lv->ways) < 0) ||
			    (lv->line > 0 && add_num(o, "line", lv->line) < 0) ||
			    (lv->sets > 0 && add_num(o, "sets", lv->sets) < 0))
				goto fail;
			if (lv->shared_cpus[0] &&
			    !cJSON_AddStringToObject(o, "shared_cpus", lv->shared_cpus))
				goto fail;
		}
	}
	for (int i = 0; i < inf->ndis; i++) {
		cJSON *t = cJSON_CreateString(inf->dis[i]);
		if (!t || !cJSON_AddItemToArray(dis, t)) {
			cJSON_Delete(t);
			goto fail;
		}
	}
	if (extras_to_json(inf, root) < 0)
		goto fail;
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}

static const char *fname(const char *file)
{
	return file ? file : "input";
}

/* An optional integer field in [0, max]; absent = 0. */
static int opt_uint(const cJSON *o, const char *key, double max, const char *file,
		    const char *where, uint64_t *out, mt_error *e)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	*out = 0;
	if (!v)
		return 0;
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0 ||
	    v->valuedouble > max || v->valuedouble != floor(v->valuedouble))
		return mt_fail(e, _("%s: %s.%s must be an integer in 0..%.0f"),
			       fname(file), where, key,
			       max);
	*out = (uint64_t)v->valuedouble;
	return 0;
}

static int opt_string(const cJSON *o, const char *key, const char *file, const char *where,
		      char *out, size_t len, mt_error *e)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	out[0] = '\0';
	if (!v)
		return 0;
	if (!cJSON_IsString(v))
		return mt_fail(e, _("%s: %s.%s is not a string"), fname(file), where, key);
	if (strlen(v->valuestring) >= len)
		return mt_fail(e, _("%s: %s.%s is too long (at most %zu characters)"), fname(file),
			       where, key, len - 1);
	mt_printable(out, len, v->valuestring, 0); /* file-borne text: shown as is nowhere */
	return 0;
}

static int level_from_json(const cJSON *o, const char *file, const char *where,
			   struct cache_level *lv, mt_error *e)
{
	uint64_t v;
	const cJSON *approx;
	memset(lv, 0, sizeof *lv);
	if (!cJSON_IsObject(o))
		return mt_fail(e, _("%s: %s is not an object"), fname(file), where);
	if (!cJSON_GetObjectItemCaseSensitive(o, "level"))
		return mt_fail(e, _("%s: %s.level is missing"), fname(file), where);
	if (opt_uint(o, "level", 15, file, where, &v, e) < 0)
		return -1;
	if (v < 1)
		return mt_fail(e, _("%s: %s.level must be an integer in 1..15"),
			       fname(file), where);
	lv->level = (int)v;
	if (opt_string(o, "type", file, where, lv->type, sizeof lv->type, e) < 0)
		return -1;
	if (strcmp(lv->type, "data") != 0 && strcmp(lv->type, "instruction") != 0 &&
	    strcmp(lv->type, "unified") != 0)
		return mt_fail(e, _("%s: %s.type must be \"data\", \"instruction\" or \"unified\""),
			       fname(file), where);
	if (opt_string(o, "cores", file, where, lv->cores, sizeof lv->cores, e) < 0 ||
	    opt_string(o, "shared_cpus", file, where, lv->shared_cpus, sizeof lv->shared_cpus,
		       e) < 0)
		return -1;
	if (opt_uint(o, "size", 9007199254740992.0, file, where, &lv->size, e) < 0)
		return -1;
	if (opt_uint(o, "ways", 1 << 20, file, where, &v, e) < 0)
		return -1;
	lv->ways = (int)v;
	if (opt_uint(o, "line", 1 << 20, file, where, &v, e) < 0)
		return -1;
	lv->line = (int)v;
	if (opt_uint(o, "sets", 1 << 30, file, where, &v, e) < 0)
		return -1;
	lv->sets = (int)v;
	approx = cJSON_GetObjectItemCaseSensitive(o, "approx");
	if (approx && !cJSON_IsBool(approx))
		return mt_fail(e, _("%s: %s.approx is not true or false"), fname(file), where);
	lv->approx = cJSON_IsTrue(approx);
	return 0;
}

/* One doubt of "doubts". */
static int doubt_from_json(const cJSON *o, const char *file, int i, struct info_doubt *d,
			   mt_error *e)
{
	char where[32];
	uint64_t v;
	mt_snprintf(where, sizeof where, "doubts[%d]", i);
	memset(d, 0, sizeof *d);
	if (!cJSON_IsObject(o))
		return mt_fail(e, _("%s: %s is not an object"), fname(file), where);
	if (opt_uint(o, "level", 15, file, where, &v, e) < 0)
		return -1;
	d->level = (int)v;
	if (opt_uint(o, "size", 9007199254740992.0, file, where, &d->size, e) < 0 ||
	    opt_string(o, "type", file, where, d->type, sizeof d->type, e) < 0 ||
	    opt_string(o, "sources", file, where, d->sources, sizeof d->sources, e) < 0 ||
	    opt_string(o, "why", file, where, d->why, sizeof d->why, e) < 0)
		return -1;
	return 0;
}

/* tried, doubts (worked out when absent), vendor, hypervisor, same_origin. */
static int extras_from_json(const cJSON *o, struct info *inf, const char *file, mt_error *e)
{
	const cJSON *tried = cJSON_GetObjectItemCaseSensitive(o, "tried"), *it;
	const cJSON *doubts = cJSON_GetObjectItemCaseSensitive(o, "doubts");
	const cJSON *hv = cJSON_GetObjectItemCaseSensitive(o, "hypervisor");
	if ((tried && !cJSON_IsObject(tried)) || (doubts && !cJSON_IsArray(doubts)))
		return mt_fail(e, _("%s: field \"%s\" is not an %s"), fname(file),
			       tried && !cJSON_IsObject(tried) ? "tried" : "doubts",
			       tried && !cJSON_IsObject(tried) ? "object" : "array");
	cJSON_ArrayForEach(it, tried)
	{
		struct info_tried *t = &inf->tried[inf->ntried];
		if (inf->ntried == INFO_MAX_TRIED)
			break;
		if (!cJSON_IsString(it) || !it->string)
			return mt_fail(e, _("%s: tried.%s is not a string"), fname(file),
				       it->string ? it->string : "?");
		mt_strlcpy(t->name, it->string, sizeof t->name);
		mt_strlcpy(t->why, it->valuestring, sizeof t->why);
		inf->ntried++;
	}
	if (opt_string(o, "vendor", file, "info", inf->vendor, sizeof inf->vendor, e) < 0 ||
	    opt_string(o, "same_origin", file, "info", inf->same_origin, sizeof inf->same_origin,
		       e) < 0)
		return -1;
	if (hv && !cJSON_IsBool(hv))
		return mt_fail(e, _("%s: field \"hypervisor\" is not true or false"), fname(file));
	inf->hypervisor = cJSON_IsTrue(hv);
	if (!doubts) {
		info_doubts(inf); /* a file from before the doubts */
		return 0;
	}
	cJSON_ArrayForEach(it, doubts)
	{
		if (inf->ndoubts == INFO_MAX_DOUBTS)
			break;
		if (doubt_from_json(it, file, inf->ndoubts, &inf->doubt[inf->ndoubts], e) < 0)
			return -1;
		inf->ndoubts++;
	}
	return 0;
}

int info_from_json(const cJSON *o, struct info *inf, const char *file, mt_error *e)
{
	const cJSON *sources, *notes, *dis, *it;
	info_init(inf);
	if (!cJSON_IsObject(o))
		return mt_fail(e, _("%s: cache information is not an object"), fname(file));
	sources = cJSON_GetObjectItemCaseSensitive(o, "sources");
	if (!sources)
		return mt_fail(e, _("%s: field \"sources\" is missing"), fname(file));
	if (!cJSON_IsObject(sources))
		return mt_fail(e, _("%s: field \"sources\" is not an object"), fname(file));
	notes = cJSON_GetObjectItemCaseSensitive(o, "notes");
	cJSON_ArrayForEach(it, sources)
	{
		struct info_source s;
		const cJSON *lv;
		int i = 0;
		char where[64];
		if (!it->string || !it->string[0] || strlen(it->string) >= sizeof s.name)
			return mt_fail(e, _("%s: sources: bad source name"), fname(file));
		if (!cJSON_IsArray(it))
			return mt_fail(e, _("%s: sources.%s is not an array"),
				       fname(file), it->string);
		if (inf->nsources >= INFO_MAX_SOURCES)
			return mt_fail(e, _("%s: sources: more than %d sources"), fname(file),
				       INFO_MAX_SOURCES);
		info_source_init(&s, MT_PRINTABLE(it->string));
		cJSON_ArrayForEach(lv, it)
		{
			struct cache_level l;
			mt_snprintf(where, sizeof where, "sources.%s[%d]", s.name, i);
			if (level_from_json(lv, file, where, &l, e) < 0)
				return -1;
			if (info_source_add_level(&s, &l) < 0)
				return mt_fail(e, _("%s: sources.%s has more than %d caches"),
					       fname(file), s.name, INFO_MAX_LEVELS);
			i++;
		}
		if (cJSON_IsObject(notes)) {
			mt_snprintf(where, sizeof where, "notes");
			if (opt_string(notes, s.name, file, where, s.note, sizeof s.note, e) < 0)
				return -1;
		}
		/* an empty list is an absent source, as on output */
		info_add_source(inf, &s);
	}
	dis = cJSON_GetObjectItemCaseSensitive(o, "disagreements");
	if (dis && !cJSON_IsArray(dis))
		return mt_fail(e, _("%s: field \"disagreements\" is not an array"), fname(file));
	cJSON_ArrayForEach(it, dis)
	{
		if (!cJSON_IsString(it))
			return mt_fail(e, _("%s: disagreements[%d] is not a string"), fname(file),
				       inf->ndis);
		if (inf->ndis < INFO_MAX_DIS)
			mt_printable(inf->dis[inf->ndis++], sizeof inf->dis[0], it->valuestring, 0);
	}
	return extras_from_json(o, inf, file, e);
}

