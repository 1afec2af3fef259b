/* info: the model, live collection, disagreements, JSON and text (info.h).
 * The per-source parsers live in info_sysfs.c, info_lscpu.c, info_sysconf.c,
 * info_cpuid.c and info_sysctl.c. */
#include "config.h"

#include "info.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SYSFS_ROOT "/sys/devices/system/cpu"
#define LSCPU_MAX (64u << 10)

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

/* ---- live collection ------------------------------------------------------ */

/* The lowest-numbered CPU with a cache folder under root, or -1. */
static int first_sysfs_cpu(const char *root)
{
	char path[512];
	for (int cpu = 0; cpu < 4096; cpu++) {
		FILE *f;
		mt_snprintf(path, sizeof path, "%s/cpu%d/cache/index0/level", root, cpu);
		f = fopen(path, "r");
		if (f) {
			fclose(f);
			return cpu;
		}
		mt_snprintf(path, sizeof path, "%s/cpu%d", root, cpu);
		f = fopen(path, "r");
		if (!f && cpu > 0)
			return -1; /* CPUs are numbered without holes in practice */
		if (f)
			fclose(f);
	}
	return -1;
}

/* Heterogeneous Linux machines (big.LITTLE, Intel hybrid): say in the note
 * which CPUs have caches of another size than the one shown. */
static void sysfs_note_other_cpus(const char *root, int shown, struct info_source *s)
{
	struct info_source o;
	mt_error e;
	char list[96] = "";
	int nother = 0;
	for (int cpu = shown + 1; cpu < 4096; cpu++) {
		char path[512];
		FILE *f;
		mt_snprintf(path, sizeof path, "%s/cpu%d/cache", root, cpu);
		f = fopen(path, "r");
		if (!f)
			break;
		fclose(f);
		if (info_parse_sysfs(root, cpu, &o, &e) < 0)
			continue;
		int differs = o.nlevels != s->nlevels;
		for (int i = 0; !differs && i < o.nlevels; i++)
			differs = o.lv[i].size != s->lv[i].size;
		if (differs) {
			if (nother < 8)
				mt_append(list, sizeof list, "%s%d", nother ? "," : "", cpu);
			nother++;
		}
	}
	if (nother)
		mt_append(s->note, sizeof s->note, "; %d other CPU(s) have other caches (%s%s)",
			  nother, list, nother > 8 ? ",..." : "");
}

static void collect_lscpu(struct info_source *out)
{
	static const char *const with_bytes[] = { "lscpu", "-C", "--bytes", NULL };
	static const char *const plain[] = { "lscpu", "-C", NULL };
	mt_error e;
	const char *how = "lscpu -C --bytes";
	char *text = mt_run_capture(with_bytes, LSCPU_MAX);
	info_source_init(out, "lscpu");
	if (!text) {
		text = mt_run_capture(plain, LSCPU_MAX);
		how = "lscpu -C";
	}
	if (!text)
		return;
	if (info_parse_lscpu(text, out, &e) < 0) {
		/* lscpu's own output we cannot read: absent, but say so */
		mt_warn("info: %s", e.msg);
		info_source_init(out, "lscpu");
	} else {
		mt_strlcpy(out->note, how, sizeof out->note);
	}
	free(text);
}

int info_collect(struct info *out, mt_error *e)
{
	struct info_source s;
	int cpu;
	info_init(out);

	cpu = first_sysfs_cpu(SYSFS_ROOT);
	if (cpu >= 0) {
		if (info_parse_sysfs(SYSFS_ROOT, cpu, &s, e) < 0)
			return -1;
		sysfs_note_other_cpus(SYSFS_ROOT, cpu, &s);
		info_add_source(out, &s);
	}
	collect_lscpu(&s);
	info_add_source(out, &s);
	info_collect_sysconf(&s);
	info_add_source(out, &s);
	info_collect_cpuid(&s);
	info_add_source(out, &s);
	info_collect_sysctl(&s);
	info_add_source(out, &s);
	info_compare(out);
	return 0;
}

/* ---- lookups -------------------------------------------------------------- */

const struct info_source *info_find_source(const struct info *inf, const char *name)
{
	for (int i = 0; i < inf->nsources; i++)
		if (strcmp(inf->src[i].name, name) == 0)
			return &inf->src[i];
	return NULL;
}

uint64_t info_size(const struct info *inf, const char *source, int level, const char *type)
{
	const struct info_source *s = info_find_source(inf, source);
	int data = strcmp(type, "data") == 0;
	if (!s)
		return 0;
	for (int i = 0; i < s->nlevels; i++) {
		const struct cache_level *lv = &s->lv[i];
		if (lv->level != level || strcmp(lv->cores, "unprefixed") == 0 ||
		    strcmp(lv->cores, "efficiency") == 0)
			continue;
		if (strcmp(lv->type, type) == 0 || (data && strcmp(lv->type, "unified") == 0))
			return lv->size;
	}
	return 0;
}

uint64_t info_best_size(const struct info *inf, int level, const char **from)
{
	static const char *const order[] = { "sysfs", "sysctl", "cpuid", "lscpu", "sysconf" };
	for (size_t i = 0; i < MT_ARRAY_LEN(order); i++) {
		uint64_t v = info_size(inf, order[i], level, "data");
		if (v) {
			if (from)
				*from = order[i];
			return v;
		}
	}
	if (from)
		*from = "";
	return 0;
}

const char *info_level_name(const struct cache_level *lv, char *buf, size_t len)
{
	const char *suffix = strcmp(lv->type, "data") == 0	  ? "d"
			     : strcmp(lv->type, "instruction") == 0 ? "i"
								    : "";
	mt_snprintf(buf, len, "L%d%s", lv->level, suffix);
	if (lv->cores[0] && strcmp(lv->cores, "unprefixed") != 0)
		mt_append(buf, len, " (%s)", lv->cores);
	return buf;
}

/* ---- disagreements -------------------------------------------------------- */

/* One source's view of one cache, for comparison. */
struct view {
	char who[48];  /* "sysfs", "sysctl hw.l1dcachesize" */
	const struct cache_level *lv;
};

static const char *field_name(int f)
{
	static const char *const names[] = { "size", "ways", "line", "sets" };
	return names[f];
}

static uint64_t field_value(const struct cache_level *lv, int f)
{
	switch (f) {
	case 0: return lv->size;
	case 1: return (uint64_t)(lv->ways > 0 ? lv->ways : 0);
	case 2: return (uint64_t)(lv->line > 0 ? lv->line : 0);
	default: return (uint64_t)(lv->sets > 0 ? lv->sets : 0);
	}
}

static int same_value(const struct cache_level *a, const struct cache_level *b, int f)
{
	uint64_t x = field_value(a, f), y = field_value(b, f);
	if (f == 0 && (a->approx || b->approx)) {
		double dx = (double)x, dy = (double)y;
		return fabs(dx - dy) <= 0.05 * fmax(dx, dy);
	}
	return x == y;
}

static void fmt_value(char *buf, size_t len, const struct cache_level *lv, int f)
{
	if (f == 0) {
		mt_fmt_size(buf, len, lv->size);
		if (lv->size % 1024 != 0 || lv->approx) {
			/* make a non-round size readable next to a round one */
			char exact[32];
			mt_snprintf(exact, sizeof exact, " (%llu bytes%s)",
				    (unsigned long long)lv->size, lv->approx ? ", rounded" : "");
			mt_append(buf, len, "%s", exact);
		}
	} else {
		mt_snprintf(buf, len, "%llu", (unsigned long long)field_value(lv, f));
	}
}

static void add_dis(struct info *inf, const char *text)
{
	if (inf->ndis >= INFO_MAX_DIS)
		return;
	for (int i = 0; i < inf->ndis; i++)
		if (strcmp(inf->dis[i], text) == 0)
			return;
	mt_strlcpy(inf->dis[inf->ndis++], text, sizeof inf->dis[0]);
}

/* Views of one field: group sources by value, "a, b say X; c says Y". */
static void compare_field(struct info *inf, const char *name, struct view *v, int nv, int f)
{
	int group[INFO_MAX_SOURCES * 2] = { 0 }, ngroups = 0, known = 0;
	char line[400], val[64];
	for (int i = 0; i < nv; i++) {
		int g = -1;
		if (!field_value(v[i].lv, f))
			continue;
		known++;
		for (int j = 0; j < i && g < 0; j++)
			if (field_value(v[j].lv, f) && same_value(v[i].lv, v[j].lv, f))
				g = group[j];
		group[i] = g >= 0 ? g : ngroups++;
	}
	if (known < 2 || ngroups < 2)
		return;
	mt_snprintf(line, sizeof line, "%s %s:", name, field_name(f));
	for (int g = 0; g < ngroups; g++) {
		int n = 0, first = -1;
		for (int i = 0; i < nv; i++) {
			if (!field_value(v[i].lv, f) || group[i] != g)
				continue;
			mt_append(line, sizeof line, "%s%s", n ? ", " : (g ? "; " : " "), v[i].who);
			if (first < 0)
				first = i;
			n++;
		}
		fmt_value(val, sizeof val, v[first].lv, f);
		mt_append(line, sizeof line, " %s %s", n > 1 ? "say" : "says", val);
	}
	add_dis(inf, line);
}

static int same_cache(const struct cache_level *a, const struct cache_level *b)
{
	return a->level == b->level && strcmp(a->type, b->type) == 0 &&
	       strcmp(a->cores, b->cores) == 0;
}

/* The key a cache is compared under: the unprefixed macOS names are compared
 * with perflevel0's entries (that is the trap they set). */
static void compare_key(const struct info_source *s, const struct cache_level *lv,
			struct cache_level *key)
{
	*key = *lv;
	if (strcmp(lv->cores, "unprefixed") == 0)
		for (int i = 0; i < s->nlevels; i++)
			if (s->lv[i].cores[0] && strcmp(s->lv[i].cores, "unprefixed") != 0) {
				mt_strlcpy(key->cores, s->lv[i].cores, sizeof key->cores);
				break;
			}
}

/* macOS: entries of the first distinct cores come from perflevel0, of the
 * second from perflevel1 (info_parse_sysctl's order). */
static int perflevel_index(const struct info_source *s, const struct cache_level *lv)
{
	const char *first = NULL;
	for (int i = 0; i < s->nlevels; i++) {
		const char *c = s->lv[i].cores;
		if (!c[0] || strcmp(c, "unprefixed") == 0)
			continue;
		if (!first)
			first = c;
		if (strcmp(c, lv->cores) == 0)
			return strcmp(first, c) == 0 ? 0 : 1;
	}
	return 0;
}

static void view_name(const struct info_source *s, const struct cache_level *lv, char *buf,
		      size_t len)
{
	if (strcmp(s->name, "sysctl") == 0 && lv->cores[0]) {
		if (strcmp(lv->cores, "unprefixed") == 0)
			mt_snprintf(buf, len, "sysctl hw.l%d%scachesize", lv->level,
				    strcmp(lv->type, "data") == 0	 ? "d"
				    : strcmp(lv->type, "instruction") == 0 ? "i"
									   : "");
		else
			mt_snprintf(buf, len, "sysctl hw.perflevel%d", perflevel_index(s, lv));
		return;
	}
	mt_strlcpy(buf, s->name, len);
}

void info_compare(struct info *inf)
{
	struct cache_level keys[INFO_MAX_SOURCES * INFO_MAX_LEVELS];
	int nkeys = 0;
	inf->ndis = 0;
	/* every distinct cache any source lists */
	for (int s = 0; s < inf->nsources; s++)
		for (int i = 0; i < inf->src[s].nlevels; i++) {
			struct cache_level k;
			int seen = 0;
			compare_key(&inf->src[s], &inf->src[s].lv[i], &k);
			for (int j = 0; j < nkeys && !seen; j++)
				seen = same_cache(&keys[j], &k);
			if (!seen)
				keys[nkeys++] = k;
		}
	for (int k = 0; k < nkeys; k++) {
		struct view v[INFO_MAX_SOURCES * 2];
		char name[48], line[400], missing[160] = "", having[160] = "";
		int nv = 0, nmissing = 0, nhaving = 0;
		info_level_name(&keys[k], name, sizeof name);
		for (int s = 0; s < inf->nsources; s++) {
			const struct info_source *src = &inf->src[s];
			int found = 0;
			for (int i = 0; i < src->nlevels && nv < (int)MT_ARRAY_LEN(v); i++) {
				struct cache_level kk;
				compare_key(src, &src->lv[i], &kk);
				if (!same_cache(&kk, &keys[k]))
					continue;
				view_name(src, &src->lv[i], v[nv].who, sizeof v[nv].who);
				v[nv++].lv = &src->lv[i];
				found = 1;
			}
			if (found) {
				mt_append(having, sizeof having, "%s%s", nhaving ? ", " : "",
					  src->name);
				nhaving++;
			} else {
				mt_append(missing, sizeof missing, "%s%s", nmissing ? ", " : "",
					  src->name);
				nmissing++;
			}
		}
		for (int f = 0; f < 4; f++)
			compare_field(inf, name, v, nv, f);
		/* a cache some sources list and others do not (sources that report
		 * only some caches by nature, like sysconf's four, still count) */
		if (nmissing && nhaving) {
			mt_snprintf(line, sizeof line, "%s: listed by %s only, not by %s", name,
				    having, missing);
			add_dis(inf, line);
		}
	}
	/* macOS: say what the unprefixed names are, on the size line itself */
	for (int s = 0; s < inf->nsources; s++) {
		const struct info_source *src = &inf->src[s];
		for (int i = 0; i < src->nlevels; i++) {
			const struct cache_level *u = &src->lv[i];
			char name[48], head[64];
			struct cache_level k;
			int eff = 0;
			if (strcmp(u->cores, "unprefixed") != 0)
				continue;
			for (int m = 0; m < src->nlevels; m++) {
				const struct cache_level *q = &src->lv[m];
				eff |= strcmp(q->cores, "efficiency") == 0 && q->level == u->level &&
				       strcmp(q->type, u->type) == 0 && q->size == u->size;
			}
			if (!eff)
				continue;
			compare_key(src, u, &k);
			mt_snprintf(head, sizeof head, "%s size:", info_level_name(&k, name,
										   sizeof name));
			for (int d = 0; d < inf->ndis; d++)
				if (strncmp(inf->dis[d], head, strlen(head)) == 0 &&
				    !strstr(inf->dis[d], "efficiency cores"))
					mt_append(inf->dis[d], sizeof inf->dis[0],
						  " (the sysctl trap: the unprefixed name gives "
						  "the efficiency cores' value)");
		}
	}
}

/* ---- JSON ----------------------------------------------------------------- */

static int add_num(cJSON *o, const char *key, double v)
{
	return cJSON_AddNumberToObject(o, key, v) ? 0 : -1;
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
		return mt_fail(e, "%s: %s.%s must be an integer in 0..%.0f", fname(file), where, key,
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
		return mt_fail(e, "%s: %s.%s is not a string", fname(file), where, key);
	if (mt_strlcpy(out, v->valuestring, len) < 0)
		return mt_fail(e, "%s: %s.%s is too long (at most %zu characters)", fname(file),
			       where, key, len - 1);
	return 0;
}

static int level_from_json(const cJSON *o, const char *file, const char *where,
			   struct cache_level *lv, mt_error *e)
{
	uint64_t v;
	const cJSON *approx;
	memset(lv, 0, sizeof *lv);
	if (!cJSON_IsObject(o))
		return mt_fail(e, "%s: %s is not an object", fname(file), where);
	if (!cJSON_GetObjectItemCaseSensitive(o, "level"))
		return mt_fail(e, "%s: %s.level is missing", fname(file), where);
	if (opt_uint(o, "level", 15, file, where, &v, e) < 0)
		return -1;
	if (v < 1)
		return mt_fail(e, "%s: %s.level must be an integer in 1..15", fname(file), where);
	lv->level = (int)v;
	if (opt_string(o, "type", file, where, lv->type, sizeof lv->type, e) < 0)
		return -1;
	if (strcmp(lv->type, "data") != 0 && strcmp(lv->type, "instruction") != 0 &&
	    strcmp(lv->type, "unified") != 0)
		return mt_fail(e, "%s: %s.type must be \"data\", \"instruction\" or \"unified\"",
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
		return mt_fail(e, "%s: %s.approx is not true or false", fname(file), where);
	lv->approx = cJSON_IsTrue(approx);
	return 0;
}

int info_from_json(const cJSON *o, struct info *inf, const char *file, mt_error *e)
{
	const cJSON *sources, *notes, *dis, *it;
	info_init(inf);
	if (!cJSON_IsObject(o))
		return mt_fail(e, "%s: cache information is not an object", fname(file));
	sources = cJSON_GetObjectItemCaseSensitive(o, "sources");
	if (!sources)
		return mt_fail(e, "%s: field \"sources\" is missing", fname(file));
	if (!cJSON_IsObject(sources))
		return mt_fail(e, "%s: field \"sources\" is not an object", fname(file));
	notes = cJSON_GetObjectItemCaseSensitive(o, "notes");
	cJSON_ArrayForEach(it, sources)
	{
		struct info_source s;
		const cJSON *lv;
		int i = 0;
		char where[64];
		if (!it->string || !it->string[0] || strlen(it->string) >= sizeof s.name)
			return mt_fail(e, "%s: sources: bad source name", fname(file));
		if (!cJSON_IsArray(it))
			return mt_fail(e, "%s: sources.%s is not an array", fname(file), it->string);
		if (inf->nsources >= INFO_MAX_SOURCES)
			return mt_fail(e, "%s: sources: more than %d sources", fname(file),
				       INFO_MAX_SOURCES);
		info_source_init(&s, it->string);
		cJSON_ArrayForEach(lv, it)
		{
			struct cache_level l;
			mt_snprintf(where, sizeof where, "sources.%s[%d]", s.name, i);
			if (level_from_json(lv, file, where, &l, e) < 0)
				return -1;
			if (info_source_add_level(&s, &l) < 0)
				return mt_fail(e, "%s: sources.%s has more than %d caches",
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
		return mt_fail(e, "%s: field \"disagreements\" is not an array", fname(file));
	cJSON_ArrayForEach(it, dis)
	{
		if (!cJSON_IsString(it))
			return mt_fail(e, "%s: disagreements[%d] is not a string", fname(file),
				       inf->ndis);
		if (inf->ndis < INFO_MAX_DIS)
			mt_strlcpy(inf->dis[inf->ndis++], it->valuestring, sizeof inf->dis[0]);
	}
	return 0;
}

/* ---- text ----------------------------------------------------------------- */

static void print_int(FILE *f, int width, int v)
{
	if (v > 0)
		fprintf(f, " %*d", width, v);
	else
		fprintf(f, " %*s", width, "-");
}

void info_print(FILE *f, const struct info *inf)
{
	if (inf->nsources == 0)
		fprintf(f, "no source of cache information on this system\n");
	for (int s = 0; s < inf->nsources; s++) {
		const struct info_source *src = &inf->src[s];
		int with_cores = 0;
		for (int i = 0; i < src->nlevels; i++)
			with_cores |= src->lv[i].cores[0] != '\0';
		fprintf(f, "%s%s%s%s\n", s ? "\n" : "", src->name, src->note[0] ? ": " : "",
			src->note);
		fprintf(f, "  %-6s %5s %-11s %9s %5s %5s %7s  %s%s\n", "cache", "level", "type",
			"size", "ways", "line", "sets", with_cores ? "cores        " : "",
			"shared CPUs");
		for (int i = 0; i < src->nlevels; i++) {
			const struct cache_level *lv = &src->lv[i];
			char name[48], size[32];
			info_level_name(lv, name, sizeof name);
			if (lv->cores[0]) /* the cores column says it */
				mt_snprintf(name, sizeof name, "L%d%s", lv->level,
					    strcmp(lv->type, "data") == 0	 ? "d"
					    : strcmp(lv->type, "instruction") == 0 ? "i"
										   : "");
			if (lv->size) {
				char human[24];
				mt_snprintf(size, sizeof size, "%s%s", lv->approx ? "~" : "",
					    mt_fmt_size(human, sizeof human, lv->size));
			} else {
				mt_strlcpy(size, "-", sizeof size);
			}
			fprintf(f, "  %-6s %5d %-11s %9s", name, lv->level, lv->type, size);
			print_int(f, 5, lv->ways);
			print_int(f, 5, lv->line);
			print_int(f, 7, lv->sets);
			fprintf(f, "  ");
			if (with_cores)
				fprintf(f, "%-12s ", lv->cores[0] ? lv->cores : "-");
			fprintf(f, "%s\n", lv->shared_cpus[0] ? lv->shared_cpus : "-");
		}
	}
	if (inf->ndis == 0) {
		fprintf(f, "\ndisagreements: none\n");
		return;
	}
	fprintf(f, "\ndisagreements:\n");
	for (int i = 0; i < inf->ndis; i++)
		fprintf(f, "  %s\n", inf->dis[i]);
}
