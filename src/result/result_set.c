/* result_set: see result_set.h. */
#include "config.h"

#include "result_set.h"

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

/* The machine's name when the line gave none: the file's name without
 * ".json"/".jsonl" and without a "-KIND"/"_KIND"/".KIND" ending, or
 * "FILE:LINE" for a bare line of a file of many. */
static void derive_name(const struct jsonl_entry *x, const char *path,
			const struct result_kind *k, char *name, size_t len)
{
	char base[JSONL_NAME_MAX];
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
	if (!x->name[0] && !x->line) {
		/* memtop's own default name, memtop-KIND-HOST-DATE.json: the host */
		const struct run_header *h = result_kind_header(r->f.r);
		char lead[JSONL_NAME_MAX];
		mt_snprintf(lead, sizeof lead, "memtop-%s-%s-", k->name, h->host);
		if (h->host[0] && strncmp(r->name, lead, strlen(lead)) == 0)
			mt_printable(r->name, sizeof r->name, h->host, 0);
	}
	r->f.kind = k;
	r->f.path = r->where;
	r->root = x->root;
	return 0;
}

int result_set_load(struct result_set *s, char *const *paths, size_t npaths, size_t max,
		    mt_error *e)
{
	size_t *from = NULL; /* the path index of each line */
	memset(s, 0, sizeof *s);
	if (!(from = calloc(max ? max : 1, sizeof *from)))
		return mt_fail(e, "out of memory for %zu results", max);
	for (size_t p = 0; p < npaths; p++) {
		size_t before = s->lines.n;
		if (jsonl_read(paths[p], NULL, max, &s->lines, e) < 0)
			goto fail;
		for (size_t i = before; i < s->lines.n; i++) {
			if (check_kind(&s->lines.e[i], e) < 0)
				goto fail;
			from[i] = p;
		}
	}
	if (!(s->e = calloc(s->lines.n ? s->lines.n : 1, sizeof *s->e))) {
		mt_fail(e, "out of memory for %zu results", s->lines.n);
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
