/* import_csapp: CS:APP's memory mountain table (import.h): "Clock frequency
 * is approx. F MHz", "Memory mountain (MB/sec)", a row of strides "s1 s2 ...
 * s15" (8-byte words), then rows "128m T T ...", ..., "16k T T ..." of read
 * throughput in MB/s. Becomes a mountain in the seed's shape. */
#include "config.h"

#include "import.h"
#include "import_text.h"

#include <stdlib.h>
#include <string.h>

#define TITLE "Memory mountain (MB/sec)"
#define CLOCK "Clock frequency is approx."

struct table {
	size_t nstrides, n;
	unsigned stride[MOUNTAIN_MAX_STRIDES];
	uint64_t size[MOUNTAIN_MAX_SIZES];
	double mbs[MOUNTAIN_MAX_SIZES][MOUNTAIN_MAX_STRIDES];
	double mhz; /* the clock it printed, 0 when none */
};

/* "s1 s2 ... sN": the strides into t. Returns 1 for such a line, else 0. */
static int stride_row(const char *s, struct table *t)
{
	char line[IMPORT_LINE_MAX], *tok[MOUNTAIN_MAX_STRIDES + 1];
	size_t nt;
	mt_strlcpy(line, s, sizeof line);
	nt = line_tokens(line, tok, MOUNTAIN_MAX_STRIDES);
	if (nt < 2 || nt > MOUNTAIN_MAX_STRIDES)
		return 0;
	for (size_t k = 0; k < nt; k++) {
		int v;
		if (tok[k][0] != 's' || mt_parse_int(tok[k] + 1, 1, 1 << 20, &v) < 0 ||
		    (k && (unsigned)v <= t->stride[k - 1]))
			return 0;
		t->stride[k] = (unsigned)v;
	}
	t->nstrides = nt;
	return 1;
}

/* "128m T T ..." into t. Returns 0 or -1 with e. */
static int read_row(struct lines *l, const char *file, struct table *t, mt_error *e)
{
	char line[IMPORT_LINE_MAX], *tok[MOUNTAIN_MAX_STRIDES + 2], what[80];
	size_t nt;
	uint64_t size;
	mt_strlcpy(line, l->buf, sizeof line);
	nt = line_tokens(line, tok, MOUNTAIN_MAX_STRIDES + 1);
	mt_snprintf(what, sizeof what, "expected 'SIZE' and %zu values of MB/s", t->nstrides);
	if (nt != t->nstrides + 1 || import_parse_unit_size(tok[0], &size) < 0)
		return import_bad_line(e, file, l, what);
	for (size_t i = 0; i < t->n; i++)
		if (t->size[i] == size)
			return import_bad_line(e, file, l, "expected a size not seen before");
	if (t->n == MOUNTAIN_MAX_SIZES)
		return import_bad_line(e, file, l, "more sizes than memtop reads (48)");
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
		return mt_fail(e, "%s: no 's1 s2 ...' row of strides after '%s'", file, TITLE);
	if (t->n < 2)
		return mt_fail(e, "%s: the mountain has %zu rows, at least 2 needed", file, t->n);
	return 0;
}

int import_csapp(const char *text, const char *file, struct mountain **out, mt_error *e)
{
	struct table *t = calloc(1, sizeof *t);
	uint64_t sizes[MOUNTAIN_MAX_SIZES];
	size_t order[MOUNTAIN_MAX_SIZES];
	struct mountain *m;
	if (!t)
		return mt_fail(e, "out of memory");
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
		return mt_fail(e, "out of memory");
	}
	for (size_t i = 0; i < t->n; i++)
		for (size_t k = 0; k < t->nstrides; k++)
			m->mbs[i * t->nstrides + k] = t->mbs[order[i]][k];
	if (t->mhz > 0)
		m->hdr.clock.ticks_per_ns = t->mhz / 1000; /* CS:APP times with the TSC */
	free(t);
	*out = m;
	return 0;
}
