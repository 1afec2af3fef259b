/* import_csapp: CS:APP's memory mountain table (import.h): "Clock frequency
 * is approx. F MHz", "Memory mountain (MB/sec)", a row of strides "s1 s2 ...
 * s15" (8-byte words), then rows "128m T T ...", ..., "16k T T ..." of read
 * throughput in MB/s. Becomes a mountain in the seed's shape. A plain
 * mountain table (import_table) is the same rows without the title, as
 * published mountain repositories keep them (blanks, commas, semicolons or
 * tabs apart, a label such as "size" before the strides allowed), in the
 * unit the file states or the user gives. */
#include "config.h"

#include "base/i18n.h"
#include "import.h"
#include "import_text.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CLOCK "Clock frequency is approx."

struct table {
	size_t nstrides, n;
	unsigned stride[MOUNTAIN_MAX_STRIDES];
	uint64_t size[MOUNTAIN_MAX_SIZES];
	double mbs[MOUNTAIN_MAX_SIZES][MOUNTAIN_MAX_STRIDES];
	double mhz; /* the clock it printed, 0 when none */
};

/* Commas, semicolons and tabs into blanks (a CSV's or a TSV's row). */
static void blanks(char *s)
{
	for (; *s; s++)
		if (*s == ',' || *s == ';' || *s == '\t')
			*s = ' ';
}

/* "s1 s2 ... sN", or "LABEL s1 s2 ... sN": the strides into stride and
 * *n. Returns 1 for such a line, else 0. */
static int strides_of(const char *s, unsigned *stride, size_t *n)
{
	char line[IMPORT_LINE_MAX], *tok[MOUNTAIN_MAX_STRIDES + 2];
	size_t nt, k0;
	mt_strlcpy(line, s, sizeof line);
	blanks(line);
	nt = line_tokens(line, tok, MOUNTAIN_MAX_STRIDES + 1);
	if (nt < 2 || nt > MOUNTAIN_MAX_STRIDES + 1)
		return 0;
	k0 = tok[0][0] == 's' && tok[0][1] >= '0' && tok[0][1] <= '9' ? 0 : 1; /* a label */
	if (nt - k0 < 2 || nt - k0 > MOUNTAIN_MAX_STRIDES)
		return 0;
	for (size_t k = k0; k < nt; k++) {
		int v;
		if (tok[k][0] != 's' || mt_parse_int(tok[k] + 1, 1, 1 << 20, &v) < 0 ||
		    (k > k0 && (unsigned)v <= stride[k - k0 - 1]))
			return 0;
		stride[k - k0] = (unsigned)v;
	}
	*n = nt - k0;
	return 1;
}

static int stride_row(const char *s, struct table *t)
{
	return strides_of(s, t->stride, &t->nstrides);
}

int import_is_stride_row(const char *line)
{
	unsigned stride[MOUNTAIN_MAX_STRIDES];
	size_t n;
	return strides_of(line, stride, &n);
}

/* "128m T T ..." into t. Returns 0 or -1 with e. */
static int read_row(struct lines *l, const char *file, struct table *t, mt_error *e)
{
	char line[IMPORT_LINE_MAX], *tok[MOUNTAIN_MAX_STRIDES + 2], what[256];
	size_t nt;
	uint64_t size;
	mt_strlcpy(line, l->buf, sizeof line);
	blanks(line);
	nt = line_tokens(line, tok, MOUNTAIN_MAX_STRIDES + 1);
	mt_snprintf(what, sizeof what, MT_NGETTEXT("expected 'SIZE' and %zu values of throughput",
						    "expected 'SIZE' and %zu values of throughput",
						    t->nstrides),
		    t->nstrides);
	if (nt != t->nstrides + 1 ||
	    (import_parse_unit_size(tok[0], &size) < 0 && mt_parse_size(tok[0], &size) < 0))
		return import_bad_line(e, file, l, what);
	for (size_t i = 0; i < t->n; i++)
		if (t->size[i] == size)
			return import_bad_line(e, file, l, _("expected a size not seen before"));
	if (t->n == MOUNTAIN_MAX_SIZES)
		return import_bad_line(e, file, l, _("more sizes than memtop reads (48)"));
	for (size_t k = 0; k < t->nstrides; k++)
		if (import_parse_value(tok[k + 1], &t->mbs[t->n][k]) < 0)
			return import_bad_line(e, file, l, what);
	t->size[t->n++] = size;
	return 0;
}

/* The table of the text. Returns 0 or -1 with e. */
static int read_table(const char *text, const char *file, struct table *t, mt_error *e)
{
	struct lines l;
	int in = 0;
	lines_init(&l, text);
	while (lines_next(&l)) {
		const char *c = strstr(l.buf, CLOCK);
		if (c && !in) {
			char num[32], *tok[2];
			mt_strlcpy(num, c + strlen(CLOCK), sizeof num);
			if (line_tokens(num, tok, 2) < 1 || mt_parse_double(tok[0], &t->mhz) < 0)
				t->mhz = 0;
		} else if (!t->nstrides && stride_row(l.buf, t)) {
			in = 1;
		} else if (line_blank(l.buf)) {
			in = in && t->n == 0;
		} else if (in && read_row(&l, file, t, e) < 0) {
			return -1;
		}
	}
	if (!t->nstrides)
		return mt_fail(e, _("%s: no 's1 s2 ...' row of strides"), file);
	if (t->n < 2)
		return mt_fail(e, MT_NGETTEXT("%s: the mountain has %zu rows, at least 2 needed",
				       "%s: the mountain has %zu rows, at least 2 needed", t->n),
			       file, t->n);
	return 0;
}

/* The table of text as a mountain, its throughputs times scale (MB/s a
 * unit). Returns 0 or -1 with e. */
static int read_mountain(const char *text, const char *file, double scale, struct mountain **out,
			 mt_error *e)
{
	struct table *t = calloc(1, sizeof *t);
	uint64_t sizes[MOUNTAIN_MAX_SIZES];
	size_t order[MOUNTAIN_MAX_SIZES];
	struct mountain *m;
	if (!t)
		return mt_fail(e, _("out of memory"));
	if (read_table(text, file, t, e) < 0) {
		free(t);
		return -1;
	}
	/* the book prints the largest size first; memtop keeps them growing */
	for (size_t i = 0; i < t->n; i++) {
		size_t j = i;
		while (j > 0 && sizes[j - 1] > t->size[i]) {
			sizes[j] = sizes[j - 1];
			order[j] = order[j - 1];
			j--;
		}
		sizes[j] = t->size[i];
		order[j] = i;
	}
	if (!(m = mountain_new(sizes, t->n, t->stride, t->nstrides))) {
		free(t);
		return mt_fail(e, _("out of memory"));
	}
	for (size_t i = 0; i < t->n; i++)
		for (size_t k = 0; k < t->nstrides; k++)
			m->mbs[i * t->nstrides + k] = t->mbs[order[i]][k] * scale;
	if (t->mhz > 0)
		m->hdr.clock.ticks_per_ns = t->mhz / 1000; /* CS:APP times with the TSC */
	free(t);
	*out = m;
	return 0;
}

int import_csapp(const char *text, const char *file, struct mountain **out, mt_error *e)
{
	return read_mountain(text, file, 1.0, out, e); /* "Memory mountain (MB/sec)" */
}

/* The units memtop reads, in MB/s (10^6 bytes a second) each. A table. */
static const struct {
	const char *name;
	double mbs;
} units[] = {
	{ "MB/s", 1 },	     { "MB/sec", 1 },	       { "GB/s", 1000 },
	{ "GB/sec", 1000 },  { "MiB/s", 1.048576 },  { "GiB/s", 1073.741824 },
};

int import_units_scale(const char *unit, double *scale)
{
	for (size_t i = 0; i < MT_ARRAY_LEN(units); i++)
		if (strcasecmp(unit, units[i].name) == 0) {
			*scale = units[i].mbs;
			return 0;
		}
	return -1;
}

/* The first unit the text names (its own case), or NULL. */
static const char *units_in(const char *text)
{
	const char *best = NULL, *at = NULL;
	for (size_t i = 0; i < MT_ARRAY_LEN(units); i++) {
		const char *p = strstr(text, units[i].name);
		if (p && (!at || p < at || (p == at && strlen(units[i].name) > strlen(best)))) {
			at = p;
			best = units[i].name;
		}
	}
	return best;
}

int import_table(const char *text, const char *file, const char *unit, struct mountain **out,
		 mt_error *e)
{
	double scale;
	const char *u = unit ? unit : units_in(text);
	if (!u)
		return mt_fail(e,
			       _("%s: the table does not say its unit: give it with --units MB/s "
				 "(or GB/s, MiB/s, GiB/s)"),
			       file);
	if (import_units_scale(u, &scale) < 0)
		return mt_fail(e, _("%s: --units: expected MB/s, GB/s, MiB/s or GiB/s"), file);
	return read_mountain(text, file, scale, out, e);
}
