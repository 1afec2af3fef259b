/* latency_history: the last latency runs on this machine (see
 * latency_history.h). */
#include "config.h"

#include "base/i18n.h"

#include "latency_history.h"
#include "base/jsonio.h"
#include "os/sysinfo.h"

#include <math.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#define HISTORY_FILE "latency-history.json"

const char *latency_history_path(char *buf, size_t len)
{
	const char *x = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	if (x && x[0] == '/')
		return mt_snprintf(buf, len, "%s/memtop/%s", x, HISTORY_FILE) < 0 ? NULL : buf;
	if (home && home[0])
		return mt_snprintf(buf, len, "%s/.local/state/memtop/%s", home, HISTORY_FILE) < 0
			       ? NULL
			       : buf;
	return NULL;
}

/* ---- reading ------------------------------------------------------------ */

/* A run's numbers: {"size","ns"} pairs at key into n, a[], b[] (at most
 * cap). Returns 0, or -1 with e. */
static int pairs_from_json(const cJSON *o, const char *key, const char *where, size_t cap,
			   size_t *n, uint64_t *a, double *b, mt_error *e)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(o, key), *it;
	*n = 0;
	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr))
		return mt_fail(e, _("%s: %s: expected an array"), where, key);
	cJSON_ArrayForEach(it, arr) {
		double s, v;
		if (*n == cap)
			return mt_fail(e, _("%s: %s: more than %zu entries"), where, key, cap);
		if (jsonio_number(it, "size", where, &s, e) < 0 || jsonio_number(it, "ns", where, &v, e) < 0)
			return -1;
		if (!(s >= 1 && s < 1e18) || !(v > 0 && v < 1e9))
			return mt_fail(e, _("%s: %s[%zu]: size 1.. and ns > 0 expected"), where, key, *n);
		a[*n] = (uint64_t)s;
		b[(*n)++] = v;
	}
	return 0;
}

/* One entry of "runs" into r. Returns 0, or -1 with e. */
static int run_from_json(const cJSON *o, const char *where, struct latency_history_run *r,
			 mt_error *e)
{
	char key[sizeof r->key] = "", date[sizeof r->date] = "";
	memset(r, 0, sizeof *r);
	if (!cJSON_IsObject(o))
		return mt_fail(e, _("%s: expected an object"), where);
	jsonio_opt_string(o, "key", key, sizeof key);
	jsonio_opt_string(o, "date", date, sizeof date);
	mt_printable(r->key, sizeof r->key, key, 0);
	mt_printable(r->date, sizeof r->date, date, 0);
	r->memory_ns = jsonio_opt_number(o, "memory_ns", 0);
	r->load_before = jsonio_opt_number(o, "load_before", -1);
	r->load_after = jsonio_opt_number(o, "load_after", -1);
	r->steal_pct = jsonio_opt_number(o, "steal_pct", -1);
	r->cpu_first = (int)jsonio_opt_int(o, "cpu_first", -1, MT_MAX_CPUS, -1);
	r->cpu_last = (int)jsonio_opt_int(o, "cpu_last", -1, MT_MAX_CPUS, -1);
	r->moved = (int)jsonio_opt_int(o, "moved", -1, 1, -1);
	if (!isfinite(r->memory_ns) || r->memory_ns < 0)
		r->memory_ns = 0;
	return pairs_from_json(o, "levels", where, LATENCY_MAX_LEVELS, &r->nlevels, r->size, r->ns,
			       e) < 0 ||
		       pairs_from_json(o, "curve", where, LATENCY_MAX_SIZES, &r->npoints, r->psize,
				       r->pns, e) < 0
		       ? -1
		       : 0;
}

/* The file's "runs" array (NULL with e when it is no history). */
static const cJSON *runs_of(const cJSON *root, const char *path, mt_error *e)
{
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(root, "runs");
	if (!cJSON_IsObject(root) || !cJSON_GetObjectItemCaseSensitive(root, "memtop_latency_history") ||
	    !cJSON_IsArray(runs)) {
		mt_fail(e, _("%s: not a memtop latency history (\"memtop_latency_history\", \"runs\")"),
			path);
		return NULL;
	}
	return runs;
}

int latency_history_from_json(const cJSON *root, const char *path, const char *key,
			      struct latency_history *h, mt_error *e)
{
	const cJSON *runs, *it;
	char where[MT_PATH_MAX + 32];
	int i = 0;
	h->n = 0;
	if (!(runs = runs_of(root, path, e)))
		return -1;
	cJSON_ArrayForEach(it, runs) { /* oldest first in the file */
		struct latency_history_run r;
		mt_snprintf(where, sizeof where, "%s: runs[%d]", path, i++);
		if (run_from_json(it, where, &r, e) < 0) {
			h->n = 0;
			return -1;
		}
		if (strcmp(r.key, key) != 0)
			continue;
		memmove(&h->run[1], &h->run[0], (LATENCY_HISTORY_RUNS - 1) * sizeof h->run[0]);
		h->run[0] = r;
		if (h->n < LATENCY_HISTORY_RUNS)
			h->n++;
	}
	return 0;
}

int latency_history_load(const char *path, const char *key, struct latency_history *h,
			 mt_error *e)
{
	cJSON *root;
	int rc;
	h->n = 0;
	if (access(path, F_OK) != 0)
		return 0; /* no state yet */
	if (!(root = jsonio_load(path, e)))
		return -1;
	rc = latency_history_from_json(root, path, key, h, e);
	cJSON_Delete(root);
	return rc;
}

/* ---- writing ------------------------------------------------------------ */

static cJSON *pairs_to_json(size_t n, const uint64_t *a, const double *b)
{
	cJSON *arr = cJSON_CreateArray();
	for (size_t i = 0; arr && i < n; i++) {
		cJSON *o = cJSON_CreateObject();
		if (!o || !cJSON_AddNumberToObject(o, "size", (double)a[i]) ||
		    !cJSON_AddNumberToObject(o, "ns", round(b[i] * 1000) / 1000)) {
			cJSON_Delete(o);
			cJSON_Delete(arr);
			return NULL;
		}
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static cJSON *run_to_json(const struct latency_history_run *r)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddStringToObject(o, "key", r->key) ||
	    !cJSON_AddStringToObject(o, "date", r->date) ||
	    !cJSON_AddItemToObject(o, "levels", pairs_to_json(r->nlevels, r->size, r->ns)) ||
	    !cJSON_AddNumberToObject(o, "memory_ns", round(r->memory_ns * 100) / 100) ||
	    !cJSON_AddNumberToObject(o, "load_before", r->load_before) ||
	    !cJSON_AddNumberToObject(o, "load_after", r->load_after) ||
	    !cJSON_AddNumberToObject(o, "steal_pct", r->steal_pct) ||
	    !cJSON_AddNumberToObject(o, "cpu_first", r->cpu_first) ||
	    !cJSON_AddNumberToObject(o, "cpu_last", r->cpu_last) ||
	    !cJSON_AddNumberToObject(o, "moved", r->moved) ||
	    !cJSON_AddItemToObject(o, "curve", pairs_to_json(r->npoints, r->psize, r->pns))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* The runs to keep beside a new one of key: the file's, less the oldest of
 * key past LATENCY_HISTORY_RUNS - 1 and the oldest past LATENCY_HISTORY_ALL
 * - 1 in all. Returns a new array (empty when the file is missing or
 * unreadable), or NULL out of memory. */
static cJSON *kept_runs(const char *path, const char *key)
{
	mt_error e = { "" };
	cJSON *root = access(path, F_OK) == 0 ? jsonio_load(path, &e) : NULL, *out;
	const cJSON *runs = root ? runs_of(root, path, &e) : NULL, *it;
	int total = runs ? cJSON_GetArraySize(runs) : 0, mine = 0, seen = 0, i = 0;
	if (!(out = cJSON_CreateArray()) || !runs) {
		cJSON_Delete(root);
		return out;
	}
	cJSON_ArrayForEach(it, runs) {
		const cJSON *k = cJSON_GetObjectItemCaseSensitive(it, "key");
		mine += cJSON_IsString(k) && strcmp(k->valuestring, key) == 0;
	}
	cJSON_ArrayForEach(it, runs) {
		const cJSON *k = cJSON_GetObjectItemCaseSensitive(it, "key");
		int of_key = cJSON_IsString(k) && strcmp(k->valuestring, key) == 0;
		seen += of_key;
		if (total - i++ >= LATENCY_HISTORY_ALL || (of_key && mine - seen >= LATENCY_HISTORY_RUNS - 1))
			continue; /* too old */
		cJSON_AddItemToArray(out, cJSON_Duplicate(it, 1));
	}
	cJSON_Delete(root);
	return out;
}

int latency_history_save(const char *path, const struct latency_history_run *run, mt_error *e)
{
	char dir[MT_PATH_MAX], *slash;
	cJSON *root = cJSON_CreateObject(), *runs = kept_runs(path, run->key), *r = run_to_json(run);
	int rc = -1;
	mt_strlcpy(dir, path, sizeof dir);
	if ((slash = strrchr(dir, '/')))
		*slash = '\0';
	if (!root || !runs || !r) {
		mt_fail(e, _("out of memory"));
		goto fail;
	}
	cJSON_AddItemToArray(runs, r);
	r = NULL;
	cJSON_AddNumberToObject(root, "memtop_latency_history", 1);
	cJSON_AddItemToObject(root, "runs", runs);
	runs = NULL;
	if ((slash && mt_mkdir_p(dir, e) < 0) || jsonio_save(path, root, e) < 0)
		goto fail;
	rc = 0;
fail:
	cJSON_Delete(r);
	cJSON_Delete(runs);
	cJSON_Delete(root);
	return rc;
}

/* ---- the comparisons ---------------------------------------------------- */

void latency_history_of(const struct latency_result *r, const struct latency_levels *lv,
			const char *key, struct latency_history_run *out)
{
	const struct diag *d = &r->hdr.diag;
	memset(out, 0, sizeof *out);
	mt_strlcpy(out->key, key, sizeof out->key);
	mt_strlcpy(out->date, r->hdr.date, sizeof out->date);
	for (size_t i = 0; i < lv->n && out->nlevels < LATENCY_MAX_LEVELS; i++)
		if (!lv->lv[i].tlb) {
			out->size[out->nlevels] = lv->lv[i].size;
			out->ns[out->nlevels++] = lv->lv[i].ns;
		}
	out->memory_ns = lv->has_memory ? lv->memory_ns : 0;
	out->load_before = r->hdr.has_diag ? d->load_before : -1;
	out->load_after = r->hdr.has_diag ? d->load_after : -1;
	out->steal_pct = r->hdr.has_diag ? d->steal_pct : -1;
	out->cpu_first = r->hdr.has_diag ? d->cpu_first : -1;
	out->cpu_last = r->hdr.has_diag ? d->cpu_last : -1;
	out->moved = r->hdr.has_diag ? d->cpu_moved : -1;
	for (size_t i = 0; i < r->nsizes && i < LATENCY_MAX_SIZES; i++) {
		double v = latency_main_ns(r, i);
		if (isfinite(v) && v > 0) {
			out->psize[out->npoints] = r->sizes[i];
			out->pns[out->npoints++] = v;
		}
	}
}

/* Whether two level sizes are one level (within LATENCY_SAME_LEVEL). */
static int same_level(uint64_t a, uint64_t b)
{
	return fabs(log((double)a / (double)b)) <= log(LATENCY_SAME_LEVEL) + 1e-9;
}

/* Whether run r has a level within LATENCY_SAME_LEVEL of size. */
static int has_level(const struct latency_history_run *r, uint64_t size)
{
	for (size_t i = 0; i < r->nlevels; i++)
		if (same_level(r->size[i], size))
			return 1;
	return 0;
}

void latency_history_mark(const struct latency_history *h, struct latency_levels *lv)
{
	for (size_t i = 0; i < lv->n; i++) {
		struct latency_level *l = &lv->lv[i];
		if (l->tlb || h->n == 0)
			continue;
		l->runs = (int)h->n + 1;
		l->seen = 1;
		for (size_t k = 0; k < h->n; k++)
			l->seen += has_level(&h->run[k], l->size);
	}
}

int latency_history_differs(const struct latency_history_run *prev,
			    const struct latency_history_run *cur, char *buf, size_t len)
{
	char a[32], b[32];
	buf[0] = '\0';
	if (prev->nlevels == cur->nlevels) { /* level by level */
		for (size_t i = 0; i < cur->nlevels; i++)
			if (!same_level(prev->size[i], cur->size[i]))
				mt_append(buf, len, _("%sL%zu %s -> %s"), buf[0] ? ", " : "", i + 1,
					  mt_fmt_size(a, sizeof a, prev->size[i]),
					  mt_fmt_size(b, sizeof b, cur->size[i]));
		return buf[0] != '\0';
	}
	for (size_t i = 0; i < prev->nlevels; i++) /* a level more or less */
		if (!has_level(cur, prev->size[i]))
			/* TRANSLATORS: a list's next item, "L2 1M new, 512K gone" */
			mt_append(buf, len, _("%s%s gone"), buf[0] ? ", " : "",
				  mt_fmt_size(a, sizeof a, prev->size[i]));
	for (size_t j = 0; j < cur->nlevels; j++)
		if (!has_level(prev, cur->size[j]))
			mt_append(buf, len, _("%sL%zu %s new"), buf[0] ? ", " : "", j + 1,
				  mt_fmt_size(a, sizeof a, cur->size[j]));
	if (!buf[0])
		mt_snprintf(buf, len,
			    MT_NGETTEXT("%zu cache levels, %zu before", "%zu cache levels, %zu before",
					cur->nlevels),
			    cur->nlevels, prev->nlevels);
	return 1;
}

const char *latency_history_conditions(const struct latency_history_run *r, char *buf,
				       size_t len)
{
	buf[0] = '\0';
	if (r->load_before >= 0 && r->load_after >= 0)
		mt_happend(buf, len, _("load %.2f..%.2f"), r->load_before, r->load_after);
	/* TRANSLATORS: the next items of a list of conditions, ", " first */
	if (r->steal_pct >= 0)
		mt_happend(buf, len, _("%ssteal %.1f %%"), buf[0] ? ", " : "", r->steal_pct);
	if (r->moved == 1 && r->cpu_first >= 0)
		mt_append(buf, len, _("%smoved from CPU %d to %d"), buf[0] ? ", " : "", r->cpu_first,
			  r->cpu_last);
	else if (r->cpu_first >= 0)
		mt_append(buf, len, _("%son CPU %d"), buf[0] ? ", " : "", r->cpu_first);
	if (!buf[0])
		mt_strlcpy(buf, _("conditions not recorded"), len);
	return buf;
}

size_t latency_history_curve(const struct latency_history_run *r, const uint64_t *sizes,
			     size_t n, double *ns)
{
	size_t have = 0;
	for (size_t i = 0; i < n; i++) {
		ns[i] = NAN;
		for (size_t k = 0; k < r->npoints; k++)
			if (r->psize[k] == sizes[i]) {
				ns[i] = r->pns[k];
				have++;
				break;
			}
	}
	return have;
}
