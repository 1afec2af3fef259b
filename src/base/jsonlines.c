/* jsonlines: see jsonlines.h. */
#include "config.h"

#include "jsonlines.h"
#include "i18n.h"
#include "jsonio.h"

#include <stdlib.h>
#include <string.h>

void jsonl_free(struct jsonl_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		cJSON_Delete(set->e[i].root);
	free(set->e);
	memset(set, 0, sizeof *set);
}

/* A new entry at the end of set (zeroed), or NULL with e when set already
 * holds max or memory ran out. */
static struct jsonl_entry *add_entry(struct jsonl_set *set, size_t max, const char *path,
				     mt_error *e)
{
	if (set->n >= max) {
		mt_fail(e, _("%s: more than %zu results (memtop reads at most %zu at once)"),
			path, max,
			max);
		return NULL;
	}
	if (set->n == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 16;
		struct jsonl_entry *n = realloc(set->e, cap * sizeof *n);
		if (!n) {
			mt_fail(e, _("%s: out of memory"), path);
			return NULL;
		}
		set->e = n;
		set->cap = cap;
	}
	memset(&set->e[set->n], 0, sizeof set->e[set->n]);
	return &set->e[set->n];
}

/* Keep root as the next entry, when it is a result (is, else any object).
 * Takes root either way. Returns 0, or -1 with e naming where (and the
 * host, when the line named one). */
static int keep(struct jsonl_set *set, size_t max, const char *path, struct jsonl_entry *tmpl,
		cJSON *root, jsonl_is_result is, mt_error *e)
{
	struct jsonl_entry *x;
	if (!cJSON_IsObject(root) || (is && !is(root))) {
		mt_fail(e, _("%s: not a memtop result"), tmpl->where);
		cJSON_Delete(root);
		return -1;
	}
	if (!(x = add_entry(set, max, path, e))) {
		cJSON_Delete(root);
		return -1;
	}
	*x = *tmpl;
	x->root = root;
	set->n++;
	return 0;
}

/* The host name in raw[0..len) (what precedes the line's '{'): trailing
 * blanks, then one ':', then blanks again left out (pdsh and clush print
 * "host: ", parallel --tag "host<TAB>"). Returns 0 with name (made
 * printable), or -1 with e: control characters, or too long. */
static int host_prefix(const char *raw, size_t len, const char *where, char *name, mt_error *e)
{
	char tmp[JSONL_NAME_MAX];
	while (len && (raw[len - 1] == ' ' || raw[len - 1] == '\t'))
		len--;
	if (len && raw[len - 1] == ':')
		len--;
	while (len && (raw[len - 1] == ' ' || raw[len - 1] == '\t'))
		len--;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)raw[i] < 0x20 || raw[i] == 0x7f)
			return mt_fail(e, _("%s: the host name before the result has control "
					  "characters (byte 0x%02x at column %zu)"),
				       where, (unsigned)(unsigned char)raw[i], i + 1);
	if (len >= sizeof tmp)
		return mt_fail(e, _("%s: the host name before the result is longer than %zu bytes"),
			       where, sizeof tmp - 1);
	memcpy(tmp, raw, len);
	tmp[len] = '\0';
	mt_printable(name, JSONL_NAME_MAX, tmp, 0);
	return 0;
}

/* One non-blank line, text[0..len) with text[len] writable: "[PREFIX]{...}".
 * Returns 0 (kept), or -1 with e. */
static int read_line(struct jsonl_set *set, size_t max, const char *path, long line, char *text,
		     size_t len, jsonl_is_result is, mt_error *e)
{
	struct jsonl_entry t;
	char *brace = memchr(text, '{', len);
	cJSON *root;
	memset(&t, 0, sizeof t);
	t.line = (int)line;
	mt_snprintf(t.where, sizeof t.where, "%s: line %ld", path, line);
	if (!brace)
		return mt_fail(e, _("%s: not a memtop result (no JSON object on the line)"),
			       t.where);
	if (host_prefix(text, (size_t)(brace - text), t.where, t.name, e) < 0)
		return -1;
	if (t.name[0])
		mt_append(t.where, sizeof t.where, " (%s)", t.name);
	text[len] = '\0';
	if (!(root = jsonio_parse(brace, len - (size_t)(brace - text), t.where, e)))
		return mt_fail(e, _("%s: not valid JSON (a pretty-printed result? give memtop run "
				  "--compact)"),
			       t.where);
	return keep(set, max, path, &t, root, is, e);
}

/* text[0..len) as JSON lines. Returns the count added, or -1 with e. */
static int read_lines(struct jsonl_set *set, size_t max, const char *path, char *text,
		      size_t len, jsonl_is_result is, mt_error *e)
{
	size_t start = 0, before = set->n;
	long line = 0;
	while (start < len) {
		char *nl = memchr(text + start, '\n', len - start);
		size_t end = nl ? (size_t)(nl - text) : len, l = end - start;
		line++;
		if (l && text[start + l - 1] == '\r')
			l--;
		if (strspn(text + start, " \t\r") < l &&
		    read_line(set, max, path, line, text + start, l, is, e) < 0)
			return -1;
		start = end + 1;
	}
	return (int)(set->n - before);
}

/* Does the first line of text[0..len) hold a whole JSON value? (No: the
 * file is one document broken somewhere, and jsonio_parse's "near line L"
 * says where better than a line-by-line reading would.) */
static int first_line_whole(const char *text, size_t len)
{
	const char *nl = memchr(text, '\n', len);
	size_t l = nl ? (size_t)(nl - text) : len;
	cJSON *v = cJSON_ParseWithLength(text, l);
	int whole = v != NULL;
	cJSON_Delete(v);
	return whole;
}

/* The whole file is one result root, without a host. Returns 1 (kept) or
 * -1 with e. */
static int keep_whole(struct jsonl_set *set, size_t max, const char *path, cJSON *root,
		      jsonl_is_result is, mt_error *e)
{
	struct jsonl_entry t;
	memset(&t, 0, sizeof t);
	mt_strlcpy(t.where, path, sizeof t.where);
	return keep(set, max, path, &t, root, is, e) < 0 ? -1 : 1;
}

/* Do text[0..len) read as JSON lines rather than as one document that
 * failed to parse? Its first non-blank line starts with a host name, or is
 * a whole JSON object by itself; a file that starts like other JSON ('[',
 * a number, a string) is one document. */
static int looks_like_lines(const char *text, size_t len)
{
	size_t first = strspn(text, " \t\r\n");
	char c = first < len ? text[first] : '\0';
	if (!c)
		return 1; /* blank: said as "no result" */
	if (c == '{')
		return first_line_whole(text + first, len - first);
	return c && !strchr("[\"-0123456789", c);
}

/* The file's text, up to JSONIO_MAX_BYTES for one document and
 * JSONL_MAX_BYTES for JSON lines (a bigger file is refused with the
 * smaller bound's message when it is not JSON lines). NULL with e. */
static char *read_text(const char *path, size_t *len, mt_error *e)
{
	char *text = mt_read_file(path, JSONIO_MAX_BYTES, len, e);
	mt_error big;
	int lines;
	if (text || !strstr(e->msg, "larger than"))
		return text;
	big = *e; /* the bound of one document */
	text = mt_read_file(path, JSONL_MAX_BYTES, len, e);
	lines = text && looks_like_lines(text, *len);
	if (lines)
		return text;
	if (text || strstr(e->msg, "larger than"))
		*e = big;
	free(text);
	return NULL;
}

int jsonl_read(const char *path, jsonl_is_result is, size_t max, struct jsonl_set *set,
	       mt_error *e)
{
	size_t len, before = set->n;
	char *text = read_text(path, &len, e);
	mt_error whole = { "" };
	cJSON *root;
	int rc;
	if (!text)
		return -1;
	root = jsonio_parse(text, len, path, &whole);
	if (root || !looks_like_lines(text, len)) {
		rc = root ? keep_whole(set, max, path, root, is, e) : -1;
		if (!root)
			mt_strlcpy(e->msg, whole.msg, sizeof e->msg);
		free(text);
		return rc;
	}
	rc = read_lines(set, max, path, text, len, is, e);
	free(text);
	if (rc < 0) {
		while (set->n > before)
			cJSON_Delete(set->e[--set->n].root);
		if (set->n == 0) /* empty before: no array either, as it was */
			jsonl_free(set);
		return -1;
	}
	if (rc == 0)
		return mt_fail(e, _("%s: no result in the file (empty)"), path);
	return rc;
}
