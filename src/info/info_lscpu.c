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

int info_parse_lscpu(const char *text, struct info_source *out, mt_error *e)
{
	const char *line[MAX_LINES];
	size_t len[MAX_LINES], maxlen = 0;
	int lineno[MAX_LINES], nlines = 0, no = 0;
	struct span col[MAX_COLS];
	int ncols = 0;
	int c_name, c_one, c_ways, c_type, c_level, c_sets, c_coh;
	info_source_init(out, "lscpu");

	/* non-blank lines; the first is the header */
	for (const char *p = text; *p && nlines < MAX_LINES;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		int blank = 1;
		no++;
		for (size_t i = 0; i < l; i++)
			blank &= isspace((unsigned char)p[i]) != 0;
		if (!blank) {
			line[nlines] = p;
			len[nlines] = l;
			lineno[nlines] = no;
			nlines++;
			if (l > maxlen)
				maxlen = l;
		}
		p = nl ? nl + 1 : p + l;
	}
	if (nlines == 0)
		return 0; /* lscpu knows no cache here: the source is absent */

	/* columns: runs of positions where some line has a character */
	for (size_t p = 0; p < maxlen;) {
		int used = 0;
		for (int i = 0; i < nlines && !used; i++)
			used = p < len[i] && !isspace((unsigned char)line[i][p]);
		if (!used) {
			p++;
			continue;
		}
		if (ncols == MAX_COLS)
			return mt_fail(e, "lscpu -C line %d: more than %d columns", lineno[0],
				       MAX_COLS);
		col[ncols].from = p;
		while (p < maxlen) {
			int u = 0;
			for (int i = 0; i < nlines && !u; i++)
				u = p < len[i] && !isspace((unsigned char)line[i][p]);
			if (!u)
				break;
			p++;
		}
		col[ncols].to = p;
		cell(line[0], len[0], col[ncols].from, col[ncols].to, col[ncols].head,
		     sizeof col[ncols].head);
		if (!col[ncols].head[0] || strchr(col[ncols].head, ' '))
			return mt_fail(e, "lscpu -C line %d: cannot tell the columns apart at "
					  "position %zu (not lscpu -C's table?)",
				       lineno[0], col[ncols].from + 1);
		ncols++;
	}
	c_name = find_col(col, ncols, "NAME");
	c_one = find_col(col, ncols, "ONE-SIZE");
	c_ways = find_col(col, ncols, "WAYS");
	c_type = find_col(col, ncols, "TYPE");
	c_level = find_col(col, ncols, "LEVEL");
	c_sets = find_col(col, ncols, "SETS");
	c_coh = find_col(col, ncols, "COHERENCY-SIZE");
	if (c_one < 0 || (c_name < 0 && (c_level < 0 || c_type < 0)))
		return mt_fail(e, "lscpu -C line %d: the header has no ONE-SIZE, or neither NAME "
				  "nor LEVEL and TYPE (not lscpu -C's table?)",
			       lineno[0]);

	for (int i = 1; i < nlines; i++) {
		struct cache_level lv;
		char buf[64], name[32] = "";
		memset(&lv, 0, sizeof lv);
		if (c_name >= 0)
			cell(line[i], len[i], col[c_name].from, col[c_name].to, name, sizeof name);
		/* level */
		if (c_level >= 0) {
			cell(line[i], len[i], col[c_level].from, col[c_level].to, buf, sizeof buf);
			if (mt_parse_int(buf, 1, 15, &lv.level) < 0)
				return mt_fail(e, "lscpu -C line %d: bad LEVEL '%s'", lineno[i], buf);
		} else if (name[0] == 'L' && isdigit((unsigned char)name[1])) {
			lv.level = name[1] - '0';
		} else {
			return mt_fail(e, "lscpu -C line %d: bad NAME '%s'", lineno[i], name);
		}
		/* type */
		buf[0] = '\0';
		if (c_type >= 0)
			cell(line[i], len[i], col[c_type].from, col[c_type].to, buf, sizeof buf);
		if (strcmp(buf, "Data") == 0 || (!buf[0] && strchr(name, 'd')))
			mt_strlcpy(lv.type, "data", sizeof lv.type);
		else if (strcmp(buf, "Instruction") == 0 || (!buf[0] && strchr(name, 'i')))
			mt_strlcpy(lv.type, "instruction", sizeof lv.type);
		else if (strcmp(buf, "Unified") == 0 || !buf[0])
			mt_strlcpy(lv.type, "unified", sizeof lv.type);
		else
			return mt_fail(e, "lscpu -C line %d: unknown TYPE '%s'", lineno[i], buf);
		/* size and geometry */
		cell(line[i], len[i], col[c_one].from, col[c_one].to, buf, sizeof buf);
		if (buf[0] && strcmp(buf, "-") != 0 && parse_human(buf, &lv.size, &lv.approx) < 0)
			return mt_fail(e, "lscpu -C line %d: bad ONE-SIZE '%s'", lineno[i], buf);
		if (c_ways >= 0) {
			cell(line[i], len[i], col[c_ways].from, col[c_ways].to, buf, sizeof buf);
			if (buf[0] && mt_parse_int(buf, 0, 1 << 20, &lv.ways) < 0)
				return mt_fail(e, "lscpu -C line %d: bad WAYS '%s'", lineno[i], buf);
		}
		if (c_sets >= 0) {
			cell(line[i], len[i], col[c_sets].from, col[c_sets].to, buf, sizeof buf);
			if (buf[0] && mt_parse_int(buf, 0, 1 << 30, &lv.sets) < 0)
				return mt_fail(e, "lscpu -C line %d: bad SETS '%s'", lineno[i], buf);
		}
		if (c_coh >= 0) {
			cell(line[i], len[i], col[c_coh].from, col[c_coh].to, buf, sizeof buf);
			if (buf[0] && mt_parse_int(buf, 0, 1 << 20, &lv.line) < 0)
				return mt_fail(e, "lscpu -C line %d: bad COHERENCY-SIZE '%s'",
					       lineno[i], buf);
		}
		if (info_source_add_level(out, &lv) < 0)
			break;
	}
	return 0;
}
