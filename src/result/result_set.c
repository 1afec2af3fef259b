/* result_set: see result_set.h. */
#include "config.h"

#include "result_set.h"
#include "base/i18n.h"
#include "machine/machine.h"

#include <stdlib.h>
#include <string.h>

/* Is line x a result memtop reads? Returns 0, or -1 with e saying why
 * not, naming the file, the line and the host. */
static int check_kind(const struct jsonl_entry *x, mt_error *e)
{
	char why[400];
	if (result_kind_of(x->root))
		return 0;
	return mt_fail(e, "%s: %s", x->where, result_unknown_why(x->root, why, sizeof why));
}

/* Does s end with pattern ('9' a digit, any other character itself)? */
static int ends_like(const char *s, const char *pattern)
{
	size_t n = strlen(s), p = strlen(pattern);
	if (n < p)
		return 0;
	for (size_t i = 0; i < p; i++) {
		char c = s[n - p + i];
		if (pattern[i] == '9' ? !(c >= '0' && c <= '9') : c != pattern[i])
			return 0;
	}
	return 1;
}

/* The host in memtop's own default name, memtop-KIND-HOST-DATE (the
 * TUI's save: DATE "YYYY-MM-DD-HH-MM", or "run" when the result has no
 * date; a name cut to the day read too), ".json" already cut, into host:
 * 1, else 0 (another name). The host may hold '-' itself. */
static int default_name_host(const char *base, const struct result_kind *k, char *host,
			     size_t len)
{
	static const char *const dates[] = { "-9999-99-99-99-99", "-9999-99-99", "-run" };
	char lead[64];
	mt_snprintf(lead, sizeof lead, "memtop-%s-", k->name);
	if (strncmp(base, lead, strlen(lead)) != 0)
		return 0;
	mt_strlcpy(host, base + strlen(lead), len);
	for (size_t i = 0; i < MT_ARRAY_LEN(dates); i++)
		if (ends_like(host, dates[i]) && strlen(host) > strlen(dates[i])) {
			host[strlen(host) - strlen(dates[i])] = '\0';
			return 1;
		}
	host[0] = '\0';
	return 0;
}

/* The machine's name when the line gave none: the host in memtop's default
 * name (memtop-KIND-HOST-DATE.json), else the file's name without
 * ".json"/".jsonl" and without a "-KIND"/"_KIND"/".KIND" ending, or
 * "FILE:LINE" for a bare line of a file of many. */
static void derive_name(const struct jsonl_entry *x, const char *path,
			const struct result_kind *k, char *name, size_t len)
{
	char base[JSONL_NAME_MAX], host[JSONL_NAME_MAX];
	size_t n, kl = strlen(k->name);
	mt_printable(base, sizeof base, mt_basename(path), 0);
	n = strlen(base);
	if (x->line) {
		mt_snprintf(name, len, "%s:%d", base, x->line);
		return;
	}
	if (n > 6 && strcmp(base + n - 6, ".jsonl") == 0)
		base[n -= 6] = '\0';
	else if (n > 5 && strcmp(base + n - 5, ".json") == 0)
		base[n -= 5] = '\0';
	if (default_name_host(base, k, host, sizeof host) && host[0]) {
		mt_strlcpy(name, host, len);
		return;
	}
	if (n > kl + 1 && strcmp(base + n - kl, k->name) == 0 && strchr("-_.", base[n - kl - 1]))
		base[n - kl - 1] = '\0';
	mt_strlcpy(name, base, len);
}

void result_set_free(struct result_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		result_file_free(&s->e[i].f);
	free(s->e);
	jsonl_free(&s->lines);
	memset(s, 0, sizeof *s);
}

/* Entry i of s from its parsed line x, read from path. Returns 0, or -1
 * with e (the kind's own error). */
static int load_entry(struct result_set *s, size_t i, const struct jsonl_entry *x,
		      const char *path, mt_error *e)
{
	struct result_entry *r = &s->e[i];
	const struct result_kind *k = result_kind_of(x->root);
	mt_strlcpy(r->where, x->where, sizeof r->where);
	if (x->name[0])
		mt_strlcpy(r->name, x->name, sizeof r->name);
	else
		derive_name(x, path, k, r->name, sizeof r->name);
	if (!(r->f.r = k->load(x->root, r->where, e)))
		return -1;
	r->f.kind = k;
	r->f.path = r->where;
	r->root = x->root;
	return 0;
}

/* The lines of s from before on dropped (a file skipped). */
static void drop_lines(struct result_set *s, size_t before)
{
	while (s->lines.n > before)
		cJSON_Delete(s->lines.e[--s->lines.n].root);
}

/* Path p's results into s (from[i]: their path's index). Returns 0; 1
 * when skip is set and the file holds no result at all (unreadable, not
 * JSON, empty, a fleet's grouping, another program's file: e says why,
 * nothing kept); or -1 with e (too many results, a file of results with a
 * line that is not one, the reader's error where skip is not set). */
static int read_path(struct result_set *s, char *const *paths, size_t p, size_t *from,
		     size_t max, int skip, mt_error *e)
{
	size_t before = s->lines.n, results = 0;
	char limit[MT_PATH_MAX + 64];
	if (jsonl_read(paths[p], NULL, max, &s->lines, e) < 0) {
		/* too many results is no file to pass over: jsonl_read's words for it */
		mt_snprintf(limit, sizeof limit, "%s: more than %zu results", paths[p], max);
		return skip && strncmp(e->msg, limit, strlen(limit)) != 0 ? 1 : -1;
	}
	for (size_t i = before; i < s->lines.n; i++) {
		const struct result_kind *k = result_kind_of(s->lines.e[i].root);
		/* a topology (memtop topo --json) is a machine, nothing measured */
		results += k != NULL && (!skip || k != &kind_topo);
	}
	if (skip && results == 0) {
		if (s->lines.n > before && result_kind_of(s->lines.e[before].root) == &kind_topo)
			mt_fail(e, _("%s: a topology (memtop topo --json), not a result"),
				s->lines.e[before].where);
		else
			check_kind(&s->lines.e[before], e);
		drop_lines(s, before);
		return 1;
	}
	for (size_t i = before; i < s->lines.n; i++) {
		if (check_kind(&s->lines.e[i], e) < 0)
			return -1;
		from[i] = p;
	}
	return 0;
}

/* result_set_load, and with skip set result_set_load_skip. */
static int load_set(struct result_set *s, char *const *paths, size_t npaths, size_t max,
		    int skip, mt_error *e)
{
	size_t *from = NULL; /* the path index of each line */
	size_t skipped = 0;
	memset(s, 0, sizeof *s);
	if (!(from = calloc(max ? max : 1, sizeof *from)))
		return mt_fail(e, MT_NGETTEXT("out of memory for %zu results",
					      "out of memory for %zu results", max),
			       max);
	for (size_t p = 0; p < npaths; p++) {
		int rc = read_path(s, paths, p, from, max, skip, e);
		if (rc < 0 || (rc > 0 && npaths == 1))
			goto fail; /* one file that holds no result: its line is the error */
		if (rc > 0)
			mt_warn(_("%s (skipped)"), e->msg);
		skipped += rc > 0;
	}
	if (npaths > 1 && skipped == npaths) {
		mt_fail(e,
			MT_NGETTEXT("none of the %zu files given holds a memtop result",
				    "none of the %zu files given holds a memtop result", npaths),
			npaths);
		goto fail;
	}
	if (!(s->e = calloc(s->lines.n ? s->lines.n : 1, sizeof *s->e))) {
		mt_fail(e,
			MT_NGETTEXT("out of memory for %zu results",
				    "out of memory for %zu results", s->lines.n),
			s->lines.n);

		goto fail;
	}
	for (s->n = 0; s->n < s->lines.n; s->n++)
		if (load_entry(s, s->n, &s->lines.e[s->n], paths[from[s->n]], e) < 0)
			goto fail;
		else
			s->e[s->n].file = from[s->n];
	free(from);
	return 0;
fail:
	free(from);
	result_set_free(s);
	return -1;
}

int result_set_load(struct result_set *s, char *const *paths, size_t npaths, size_t max,
		    mt_error *e)
{
	return load_set(s, paths, npaths, max, 0, e);
}

int result_set_load_skip(struct result_set *s, char *const *paths, size_t npaths, size_t max,
			 mt_error *e)
{
	return load_set(s, paths, npaths, max, 1, e);
}
