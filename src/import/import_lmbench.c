/* import_lmbench: lat_mem_rd's output (import.h). lat_mem_rd prints, for
 * each stride, '"stride=N' and then "SIZE NS" lines with the size in MB to
 * five decimals (size / 2^20), and a blank line after the stride. */
#include "config.h"

#include "base/i18n.h"
#include "import.h"
#include "import_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SIZE_GRAIN 16.0 /* %.5f of MB is exact to 5 bytes: round to 16 */
#define SIZE_MB_MAX 1e9 /* a petabyte: beyond it no size is real (nor a uint64 cast) */

struct block {
	unsigned stride;
	size_t n;
	uint64_t size[LATENCY_MAX_SIZES];
	double ns[LATENCY_MAX_SIZES];
};

struct blocks {
	size_t n;
	struct block b[LATENCY_MAX_STRIDES];
};

/* '"stride=N': N into *stride. Returns 1 for such a line, 0 for another,
 * -1 for a bad N. */
static int stride_header(const char *s, unsigned *stride)
{
	int v;
	while (*s == ' ' || *s == '\t')
		s++;
	if (strncmp(s, "\"stride=", 8) != 0)
		return 0;
	if (mt_parse_int(s + 8, 8, 1 << 30, &v) < 0)
		return -1;
	*stride = (unsigned)v;
	return 1;
}

/* One "SIZE_MB NS" row into block b. Returns 0 or -1 with e. */
static int read_row(struct lines *l, const char *file, struct block *b, mt_error *e)
{
	char line[IMPORT_LINE_MAX], *tok[3];
	double mb, ns;
	uint64_t size;
	mt_strlcpy(line, l->buf, sizeof line);
	if (line_tokens(line, tok, 3) != 2 || import_parse_value(tok[0], &mb) < 0 ||
	    import_parse_value(tok[1], &ns) < 0 || mb <= 0 || mb > SIZE_MB_MAX || ns <= 0)
		return import_bad_line(e, file, l, _("expected 'SIZE_MB NS' of lat_mem_rd"));
	size = (uint64_t)(round(mb * 1048576.0 / SIZE_GRAIN) * SIZE_GRAIN);
	if (size == 0 || (b->n && size <= b->size[b->n - 1]))
		return import_bad_line(e, file, l,
				       _("expected a size larger than the line before"));
	if (b->n == LATENCY_MAX_SIZES)
		return import_bad_line(e, file, l, _("more sizes than memtop reads (256)"));
	b->size[b->n] = size;
	b->ns[b->n++] = ns;
	return 0;
}

/* The blocks of the text. Returns 0 or -1 with e. */
static int read_blocks(const char *text, const char *file, struct blocks *bs, mt_error *e)
{
	struct lines l;
	struct block *cur = NULL;
	lines_init(&l, text);
	bs->n = 0;
	while (lines_next(&l)) {
		unsigned stride;
		int h = stride_header(l.buf, &stride);
		if (h < 0)
			return import_bad_line(e, file, &l, "expected '\"stride=N', N >= 8 bytes");
		if (h > 0) {
			if (bs->n == LATENCY_MAX_STRIDES)
				return import_bad_line(e, file, &l,
						       _("more strides than memtop reads (12)"));
			cur = &bs->b[bs->n++];
			cur->stride = stride;
			cur->n = 0;
		} else if (line_blank(l.buf)) {
			cur = NULL; /* the end of a stride */
		} else if (cur && read_row(&l, file, cur, e) < 0) {
			return -1;
		}
	}
	if (bs->n == 0)
		return mt_fail(e, _("%s: no '\"stride=N' line of lat_mem_rd"), file);
	for (size_t k = 0; k < bs->n; k++)
		if (bs->b[k].n < 2)
			return mt_fail(e,
				       MT_NGETTEXT("%s: stride %u has %zu sizes, at least 2 needed",
						   "%s: stride %u has %zu sizes, at least 2 needed",
						   bs->b[k].n),
				       file, bs->b[k].stride, bs->b[k].n);
	return 0;
}

static int by_stride(const void *a, const void *b)
{
	const struct block *x = a, *y = b;
	return (x->stride > y->stride) - (x->stride < y->stride);
}

/* The sizes of every block, merged (sorted, once each). Returns the count,
 * 0 when more than LATENCY_MAX_SIZES. */
static size_t all_sizes(const struct blocks *bs, uint64_t *out)
{
	size_t n = 0;
	for (size_t k = 0; k < bs->n; k++)
		for (size_t i = 0; i < bs->b[k].n; i++) {
			uint64_t s = bs->b[k].size[i];
			size_t j = 0;
			while (j < n && out[j] < s)
				j++;
			if (j < n && out[j] == s)
				continue;
			if (n == LATENCY_MAX_SIZES)
				return 0;
			memmove(&out[j + 1], &out[j], (n - j) * sizeof *out);
			out[j] = s;
			n++;
		}
	return n;
}

/* Block b's values onto the merged sizes of r. */
static void place(const struct block *b, const struct latency_result *r, double *curve)
{
	for (size_t i = 0, j = 0; i < b->n; i++) {
		while (r->sizes[j] != b->size[i])
			j++;
		curve[j] = b->ns[i];
	}
}

int import_lmbench(const char *text, const char *file, int random, struct latency_result **out,
		   mt_error *e)
{
	struct blocks *bs = malloc(sizeof *bs);
	uint64_t sizes[LATENCY_MAX_SIZES];
	struct latency_result *r;
	size_t n;
	if (!bs)
		return mt_fail(e, _("out of memory"));
	if (read_blocks(text, file, bs, e) < 0)
		goto fail;
	if (random && bs->n != 1) {
		mt_fail(e,
			MT_NGETTEXT(
				"%s: %zu strides: a random chase (lat_mem_rd -t) is read from one",
				"%s: %zu strides: a random chase (lat_mem_rd -t) is read from one",
				bs->n),
			file, bs->n);
		goto fail;
	}
	qsort(bs->b, bs->n, sizeof bs->b[0], by_stride);
	for (size_t k = 1; k < bs->n; k++)
		if (bs->b[k].stride == bs->b[k - 1].stride) {
			mt_fail(e, _("%s: stride %u appears twice"), file, bs->b[k].stride);
			goto fail;
		}
	n = all_sizes(bs, sizes);
	if (n == 0 || !(r = import_latency_new(sizes, n, "lmbench"))) {
		mt_fail(e, _("%s: more than %d sizes over its strides"), file, LATENCY_MAX_SIZES);
		goto fail;
	}
	if (random) {
		r->has_random = 1;
		r->random_stride = bs->b[0].stride;
		place(&bs->b[0], r, r->random_ns);
	} else {
		r->nstrides = bs->n;
		for (size_t k = 0; k < bs->n; k++) {
			r->strides[k] = bs->b[k].stride;
			place(&bs->b[k], r, r->ns[k]);
		}
	}
	free(bs);
	*out = r;
	return 0;
fail:
	free(bs);
	return -1;
}
