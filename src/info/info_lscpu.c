/* info source "lscpu": the table `lscpu -C` prints (info.h). libsmartcols
 * pads every column to its widest cell and separates columns with one
 * space, so a column is a run of character positions that are not blank in
 * every line; that keeps empty cells (ALLOC-POLICY on most machines) in their
 * column instead of shifting the rest of the row. */
#include "config.h"

#include "info.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

#define MAX_LINES 64
#define MAX_COLS 24

struct span {
	size_t from, to; /* [from, to) */
	char head[32];
};

/* The trimmed text of line[from, to) into buf. */
static void cell(const char *line, size_t linelen, size_t from, size_t to, char *buf, size_t len)
{
	size_t n = 0;
	if (to > linelen)
		to = linelen;
	while (from < to && isspace((unsigned char)line[from]))
		from++;
	while (to > from && isspace((unsigned char)line[to - 1]))
		to--;
	for (size_t i = from; i < to && n + 1 < len; i++)
		buf[n++] = line[i];
	buf[n] = '\0';
}

/* "48K", "1.3M", "49152", "48 KiB", "1.5 MiB": bytes, with *approx set when
 * the number had decimals (lscpu rounded it). Returns 0 or -1. */
static int parse_human(const char *s, uint64_t *out, int *approx)
{
	char num[32];
	size_t n = 0;
	uint64_t mult = 1, v;
	const char *u;
	int dot = 0;
	while ((isdigit((unsigned char)s[n]) || s[n] == '.') && n + 1 < sizeof num) {
		dot |= s[n] == '.';
		num[n] = s[n];
		n++;
	}
	num[n] = '\0';
	if (n == 0)
		return -1;
	u = s + n;
	while (*u == ' ')
		u++;
	switch (toupper((unsigned char)*u)) {
	case '\0': break;
	case 'B': mult = 1; break;
	case 'K': mult = 1ull << 10; break;
	case 'M': mult = 1ull << 20; break;
	case 'G': mult = 1ull << 30; break;
	case 'T': mult = 1ull << 40; break;
	default: return -1;
	}
	if (*u) {
		u++;
		if (mult > 1 && (strcmp(u, "iB") == 0 || strcmp(u, "B") == 0))
			u += strlen(u);
		if (*u)
			return -1;
	}
	*approx = 0;
	if (dot) {
		double d;
		if (mt_parse_double(num, &d) < 0 || d < 0 || d * (double)mult > 1.8e19)
			return -1;
		*out = (uint64_t)llround(d * (double)mult);
		*approx = mult > 1;
		return 0;
	}
	if (mt_parse_u64(num, 0, UINT64_MAX, &v) < 0 || v > UINT64_MAX / mult)
		return -1;
	*out = v * mult;
	return 0;
}

static int find_col(const struct span *c, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(c[i].head, name) == 0)
			return i;
	return -1;
}

/* The table as lscpu printed it: its non-blank lines and its columns. */
struct table {
	const char *line[MAX_LINES];
	size_t len[MAX_LINES], maxlen;
	int lineno[MAX_LINES], nlines;
	struct span col[MAX_COLS];
	int ncols;
	int c_name, c_one, c_ways, c_type, c_level, c_sets, c_coh;
};

/* The non-blank lines of text; the first is the header. */
static void read_lines(const char *text, struct table *t)
{
	int no = 0;
	t->nlines = 0;
	t->maxlen = 0;
	for (const char *p = text; *p && t->nlines < MAX_LINES;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		int blank = 1;
		no++;
		for (size_t i = 0; i < l; i++)
			blank &= isspace((unsigned char)p[i]) != 0;
		if (!blank) {
			t->line[t->nlines] = p;
			t->len[t->nlines] = l;
			t->lineno[t->nlines] = no;
			t->nlines++;
			if (l > t->maxlen)
				t->maxlen = l;
		}
		p = nl ? nl + 1 : p + l;
	}
}

/* Does some line have a character at position p? */
static int used_at(const struct table *t, size_t p)
{
	for (int i = 0; i < t->nlines; i++)
		if (p < t->len[i] && !isspace((unsigned char)t->line[i][p]))
			return 1;
	return 0;
}

/* The columns: runs of positions where some line has a character, named
 * by the header. Returns 0 or -1 with e. */
static int find_columns(struct table *t, mt_error *e)
{
	t->ncols = 0;
	for (size_t p = 0; p < t->maxlen;) {
		struct span *c = &t->col[t->ncols];
		if (!used_at(t, p)) {
			p++;
			continue;
		}
		if (t->ncols == MAX_COLS)
			/* machine text: info's "tried" keeps lscpu's reason */
			return mt_fail(e, "lscpu -C line %d: more than %d columns", t->lineno[0],
				       MAX_COLS);
		c->from = p;
		while (p < t->maxlen && used_at(t, p))
			p++;
		c->to = p;
		cell(t->line[0], t->len[0], c->from, c->to, c->head, sizeof c->head);
		if (!c->head[0] || strchr(c->head, ' '))
			/* machine text: info's "tried" keeps lscpu's reason */
			return mt_fail(e, "lscpu -C line %d: cannot tell the columns apart at "
					  "position %zu (not lscpu -C's table?)",
				       t->lineno[0], c->from + 1);
		t->ncols++;
	}
	t->c_name = find_col(t->col, t->ncols, "NAME");
	t->c_one = find_col(t->col, t->ncols, "ONE-SIZE");
	t->c_ways = find_col(t->col, t->ncols, "WAYS");
	t->c_type = find_col(t->col, t->ncols, "TYPE");
	t->c_level = find_col(t->col, t->ncols, "LEVEL");
	t->c_sets = find_col(t->col, t->ncols, "SETS");
	t->c_coh = find_col(t->col, t->ncols, "COHERENCY-SIZE");
	if (t->c_one < 0 || (t->c_name < 0 && (t->c_level < 0 || t->c_type < 0)))
		/* machine text: info's "tried" keeps lscpu's reason */
		return mt_fail(e, "lscpu -C line %d: the header has no ONE-SIZE, or neither NAME "
				  "nor LEVEL and TYPE (not lscpu -C's table?)",
			       t->lineno[0]);
	return 0;
}

/* The cell of row i in column c into buf ("" when there is no such column). */
static void row_cell(const struct table *t, int i, int c, char *buf, size_t len)
{
	buf[0] = '\0';
	if (c >= 0)
		cell(t->line[i], t->len[i], t->col[c].from, t->col[c].to, buf, len);
}

/* An optional integer cell of row i: 0 when empty. Returns 0 or -1 with e. */
static int int_cell(const struct table *t, int i, int c, const char *what, int max, int *out,
		    mt_error *e)
{
	char buf[64];
	row_cell(t, i, c, buf, sizeof buf);
	if (buf[0] && mt_parse_int(buf, 0, max, out) < 0)
		/* machine text: info's "tried" keeps lscpu's reason */
		return mt_fail(e, "lscpu -C line %d: bad %s '%s'", t->lineno[i], what, buf);
	return 0;
}

/* Row i's level and type, from LEVEL and TYPE or the NAME ("L1d"). */
static int level_and_type(const struct table *t, int i, struct cache_level *lv, mt_error *e)
{
	char buf[64], name[32];
	row_cell(t, i, t->c_name, name, sizeof name);
	row_cell(t, i, t->c_level, buf, sizeof buf);
	if (t->c_level >= 0) {
		if (mt_parse_int(buf, 1, 15, &lv->level) < 0)
			/* machine text: info's "tried" keeps lscpu's reason */
			return mt_fail(e, "lscpu -C line %d: bad LEVEL '%s'", t->lineno[i], buf);
	} else if (name[0] == 'L' && isdigit((unsigned char)name[1])) {
		lv->level = name[1] - '0';
	} else {
		/* machine text: info's "tried" keeps lscpu's reason */
		return mt_fail(e, "lscpu -C line %d: bad NAME '%s'", t->lineno[i], name);
	}
	row_cell(t, i, t->c_type, buf, sizeof buf);
	if (strcmp(buf, "Data") == 0 || (!buf[0] && strchr(name, 'd')))
		mt_strlcpy(lv->type, "data", sizeof lv->type);
	else if (strcmp(buf, "Instruction") == 0 || (!buf[0] && strchr(name, 'i')))
		mt_strlcpy(lv->type, "instruction", sizeof lv->type);
	else if (strcmp(buf, "Unified") == 0 || !buf[0])
		mt_strlcpy(lv->type, "unified", sizeof lv->type);
	else
		/* machine text: info's "tried" keeps lscpu's reason */
		return mt_fail(e, "lscpu -C line %d: unknown TYPE '%s'", t->lineno[i], buf);
	return 0;
}

/* Row i as a cache. Returns 0 or -1 with e. */
static int parse_row(const struct table *t, int i, struct cache_level *lv, mt_error *e)
{
	char buf[64];
	memset(lv, 0, sizeof *lv);
	if (level_and_type(t, i, lv, e) < 0)
		return -1;
	row_cell(t, i, t->c_one, buf, sizeof buf);
	if (buf[0] && strcmp(buf, "-") != 0 && parse_human(buf, &lv->size, &lv->approx) < 0)
		/* machine text: info's "tried" keeps lscpu's reason */
		return mt_fail(e, "lscpu -C line %d: bad ONE-SIZE '%s'", t->lineno[i], buf);
	if (int_cell(t, i, t->c_ways, "WAYS", 1 << 20, &lv->ways, e) < 0 ||
	    int_cell(t, i, t->c_sets, "SETS", 1 << 30, &lv->sets, e) < 0 ||
	    int_cell(t, i, t->c_coh, "COHERENCY-SIZE", 1 << 20, &lv->line, e) < 0)
		return -1;
	return 0;
}

int info_parse_lscpu(const char *text, struct info_source *out, mt_error *e)
{
	struct table t;
	info_source_init(out, "lscpu");
	read_lines(text, &t);
	if (t.nlines == 0)
		return 0; /* lscpu knows no cache here: the source is absent */
	if (find_columns(&t, e) < 0)
		return -1;
	for (int i = 1; i < t.nlines; i++) {
		struct cache_level lv;
		if (parse_row(&t, i, &lv, e) < 0)
			return -1;
		if (info_source_add_level(out, &lv) < 0)
			break;
	}
	return 0;
}
