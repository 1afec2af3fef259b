/* import_ramlat: sbc-bench's ramlat table (import.h): a header "size: 1x32
 * 2x32 1x64 2x64 1xPTR 2xPTR 4xPTR 8xPTR" (access widths and parallel
 * chains), then one row per size in KiB, "4k: NS NS ...", full load-to-use
 * latencies. 1xPTR, one dependent pointer chase, is the random chase. */
#include "config.h"

#include "base/i18n.h"
#include "import.h"
#include "import_text.h"

#include <stdlib.h>
#include <string.h>

#define CHASE_COLUMN "1xPTR"

struct table {
	size_t cols, col; /* values a row has; the chase's among them */
	size_t n;
	uint64_t size[LATENCY_MAX_SIZES];
	double ns[LATENCY_MAX_SIZES];
};

/* "size: ... 1xPTR ...": the column count and the chase's index. */
static int table_header(const char *s, struct table *t)
{
	char line[IMPORT_LINE_MAX], *tok[IMPORT_MAX_TOKENS];
	size_t nt;
	mt_strlcpy(line, s, sizeof line);
	nt = line_tokens(line, tok, IMPORT_MAX_TOKENS);
	if (nt < 2 || nt > IMPORT_MAX_TOKENS || strcmp(tok[0], "size:") != 0)
		return 0;
	for (size_t k = 1; k < nt; k++)
		if (strcmp(tok[k], CHASE_COLUMN) == 0) {
			t->cols = nt - 1;
			t->col = k - 1;
			t->n = 0;
			return 1;
		}
	return 0;
}

/* "4k: NS NS ..." into t. Returns 0 or -1 with e. */
static int read_row(struct lines *l, const char *file, struct table *t, mt_error *e)
{
	char line[IMPORT_LINE_MAX], *tok[IMPORT_MAX_TOKENS], what[256];
	size_t nt, len;
	uint64_t size;
	mt_strlcpy(line, l->buf, sizeof line);
	nt = line_tokens(line, tok, IMPORT_MAX_TOKENS);
	mt_snprintf(what, sizeof what,
		    MT_NGETTEXT("expected 'SIZE: NS ...' with %zu values",
				"expected 'SIZE: NS ...' with %zu values", t->cols),
		    t->cols);
	if (nt != t->cols + 1 || (len = strlen(tok[0])) < 3 || tok[0][len - 1] != ':')
		return import_bad_line(e, file, l, what);
	tok[0][len - 1] = '\0';
	if (import_parse_unit_size(tok[0], &size) < 0)
		return import_bad_line(e, file, l, what);
	for (size_t k = 1; k < nt; k++) {
		double v;
		if (import_parse_value(tok[k], &v) < 0 || (k - 1 == t->col && v <= 0))
			return import_bad_line(e, file, l, what);
		if (k - 1 == t->col)
			t->ns[t->n] = v;
	}
	if (t->n && size <= t->size[t->n - 1])
		return import_bad_line(e, file, l,
				       _("expected a size larger than the line before"));
	if (t->n == LATENCY_MAX_SIZES)
		return import_bad_line(e, file, l, _("more sizes than memtop reads (256)"));
	t->size[t->n++] = size;
	return 0;
}

int import_ramlat(const char *text, const char *file, struct latency_result **out, mt_error *e)
{
	struct table *t = calloc(1, sizeof *t);
	struct lines l;
	struct latency_result *r;
	int in = 0, seen = 0;
	if (!t)
		return mt_fail(e, _("out of memory"));
	lines_init(&l, text);
	while (lines_next(&l)) {
		if (!seen && table_header(l.buf, t)) {
			seen = in = 1;
		} else if (line_blank(l.buf)) {
			in = in && t->n == 0;
		} else if (in && read_row(&l, file, t, e) < 0) {
			free(t);
			return -1;
		}
	}
	if (!seen || t->n < 2) {
		if (seen)
			mt_fail(e,
				MT_NGETTEXT("%s: the ramlat table has %zu rows, at least 2 needed",
					    "%s: the ramlat table has %zu rows, at least 2 needed",
					    t->n),
				file, t->n);
		else
			mt_fail(e, _("%s: no 'size: ... %s' header of ramlat"), file, CHASE_COLUMN);
		free(t);
		return -1;
	}
	if (!(r = import_latency_new(t->size, t->n, "ramlat"))) {
		free(t);
		return mt_fail(e, _("out of memory"));
	}
	r->has_random = 1;
	memcpy(r->random_ns, t->ns, t->n * sizeof t->ns[0]);
	free(t);
	*out = r;
	return 0;
}
