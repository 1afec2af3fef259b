/* import_tinymembench: tinymembench's latency table (import.h). It prints
 * "block size : single random read / dual random read" with ", [MADV_..]"
 * when it asked for the pages, then "BYTES : NS ns / NS ns" rows, whose
 * values are the extra time over an L1 hit; a full run prints the table
 * twice, on 4 KB pages and on huge pages. */
#include "config.h"

#include "base/i18n.h"
#include "import.h"
#include "import_text.h"

#include <stdlib.h>
#include <string.h>

#define HEADER "block size : single random read"
#define MAX_TABLES 2

struct table {
	int huge; /* LATENCY_HUGE_* */
	size_t n;
	uint64_t size[LATENCY_MAX_SIZES];
	double ns[LATENCY_MAX_SIZES];
	size_t line; /* its header's line */
};

static int table_header(const char *s, int *huge)
{
	if (!strstr(s, HEADER))
		return 0;
	*huge = strstr(s, "MADV_NOHUGEPAGE") ? LATENCY_HUGE_OFF
		: strstr(s, "MADV_HUGEPAGE") ? LATENCY_HUGE_ON
					       : LATENCY_HUGE_UNKNOWN;
	return 1;
}

/* "BYTES : NS ns [/ NS ns]" into t. Returns 0 or -1 with e. */
static int read_row(struct lines *l, const char *file, struct table *t, mt_error *e)
{
	char line[IMPORT_LINE_MAX], *tok[8];
	size_t nt;
	uint64_t size;
	double ns;
	mt_strlcpy(line, l->buf, sizeof line);
	nt = line_tokens(line, tok, 7);
	if ((nt != 4 && nt != 7) || strcmp(tok[1], ":") != 0 || strcmp(tok[3], "ns") != 0 ||
	    mt_parse_u64(tok[0], 1, 1ull << 40, &size) < 0 || import_parse_value(tok[2], &ns) < 0 ||
	    (nt == 7 && (strcmp(tok[4], "/") != 0 || strcmp(tok[6], "ns") != 0)))
		return import_bad_line(e, file, l, _("expected 'BYTES : NS ns / NS ns'"));
	if (t->n && size <= t->size[t->n - 1])
		return import_bad_line(e, file, l,
				       _("expected a size larger than the line before"));
	if (t->n == LATENCY_MAX_SIZES)
		return import_bad_line(e, file, l, _("more sizes than memtop reads (256)"));
	t->size[t->n] = size;
	t->ns[t->n++] = ns;
	return 0;
}

/* The tables of the text. Returns their count (>= 1), or -1 with e. */
static int read_tables(const char *text, const char *file, struct table *t, mt_error *e)
{
	struct lines l;
	int nt = 0, in = 0, huge;
	lines_init(&l, text);
	while (lines_next(&l)) {
		if (table_header(l.buf, &huge)) {
			if (nt == MAX_TABLES)
				return import_bad_line(e, file, &l,
						       _("at most two latency tables"));
			t[nt].huge = huge;
			t[nt].n = 0;
			t[nt].line = l.no;
			nt++;
			in = 1;
		} else if (line_blank(l.buf)) {
			in = in && t[nt - 1].n == 0; /* a blank line ends a table with rows */
		} else if (in && read_row(&l, file, &t[nt - 1], e) < 0) {
			return -1;
		}
	}
	if (nt == 0)
		return mt_fail(e, _("%s: no '%s' table of tinymembench"), file, HEADER);
	for (int k = 0; k < nt; k++)
		if (t[k].n < 2)
			return mt_fail(
				e,
				MT_NGETTEXT(
					"%s: the table at line %zu has %zu rows, at least 2 needed",
					"%s: the table at line %zu has %zu rows, at least 2 needed",
					t[k].n),
				file, t[k].line, t[k].n);
	return nt;
}

/* Two tables: one on 4 KB pages, one on huge pages, the same sizes. */
static int check_pair(const struct table *t, const char *file, mt_error *e)
{
	if (t[0].huge == LATENCY_HUGE_UNKNOWN || t[1].huge == LATENCY_HUGE_UNKNOWN || t[0].huge == t[1].huge)
		return mt_fail(e, _("%s: two tables, but not one without and one with huge pages "
				  "(lines %zu and %zu)"),
			       file, t[0].line, t[1].line);
	if (t[0].n != t[1].n || memcmp(t[0].size, t[1].size, t[0].n * sizeof t[0].size[0]) != 0)
		return mt_fail(e, _("%s: the tables at lines %zu and %zu have other sizes"), file,
			       t[0].line, t[1].line);
	return 0;
}

int import_tinymembench(const char *text, const char *file, struct latency_result **out,
			mt_error *e)
{
	struct table *t = malloc(MAX_TABLES * sizeof *t);
	struct latency_result *r;
	int nt;
	if (!t)
		return mt_fail(e, _("out of memory"));
	nt = read_tables(text, file, t, e);
	if (nt < 0 || (nt == 2 && check_pair(t, file, e) < 0)) {
		free(t);
		return -1;
	}
	if (nt == 2 && t[0].huge == LATENCY_HUGE_ON) { /* the 4 KB-page table first */
		struct table tmp = t[0];
		t[0] = t[1];
		t[1] = tmp;
	}
	if (!(r = import_latency_new(t[0].size, t[0].n, "tinymembench"))) {
		free(t);
		return mt_fail(e, _("out of memory"));
	}
	r->has_random = 1;
	r->ns_over_l1 = 1;
	r->hugepages = t[0].huge;
	memcpy(r->random_ns, t[0].ns, t[0].n * sizeof t[0].ns[0]);
	if (nt == 2) {
		r->has_other = 1;
		r->other_hugepages = t[1].huge;
		memcpy(r->other_ns, t[1].ns, t[1].n * sizeof t[1].ns[0]);
	}
	free(t);
	*out = r;
	return 0;
}
