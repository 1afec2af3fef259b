/* import: telling the formats apart, reading files, pairing page sizes
 * (import.h). The parsers are import_lmbench.c, import_tinymembench.c,
 * import_ramlat.c and import_csapp.c. */
#include "config.h"

#include "base/i18n.h"
#include "import.h"
#include "import_text.h"

#include <stdlib.h>
#include <string.h>

#define MAX_FILE (4u << 20)

static const char *const names[] = { "auto", "lmbench", "tinymembench", "ramlat", "csapp",
				     "table", "c2c" };

const char *import_format_name(enum import_format f)
{
	return (size_t)f < MT_ARRAY_LEN(names) ? names[f] : "?";
}

int import_format_parse(const char *s, enum import_format *out)
{
	for (size_t i = 0; i < MT_ARRAY_LEN(names); i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum import_format)i;
			return 0;
		}
	return -1;
}

/* The format one line tells, or IMPORT_AUTO. */
static enum import_format line_format(const char *s)
{
	char line[IMPORT_LINE_MAX], *tok[IMPORT_MAX_TOKENS];
	size_t nt;
	if (strstr(s, "block size : single random read"))
		return IMPORT_TINYMEMBENCH;
	if (strstr(s, "Memory mountain (MB/sec)"))
		return IMPORT_CSAPP;
	mt_strlcpy(line, s, sizeof line);
	nt = line_tokens(line, tok, IMPORT_MAX_TOKENS);
	if (nt >= 1 && strncmp(tok[0], "\"stride=", 8) == 0)
		return IMPORT_LMBENCH;
	if (nt >= 2 && nt <= IMPORT_MAX_TOKENS && strcmp(tok[0], "size:") == 0)
		for (size_t k = 1; k < nt; k++)
			if (strcmp(tok[k], "1xPTR") == 0)
				return IMPORT_RAMLAT;
	if (import_is_stride_row(s))
		return IMPORT_TABLE;
	return IMPORT_AUTO;
}

enum import_format import_detect(const char *text)
{
	struct lines l;
	if (import_c2c_detect(text)) /* its lines may be longer than a line buffer */
		return IMPORT_C2C;
	lines_init(&l, text);
	while (lines_next(&l)) {
		enum import_format f = line_format(l.buf);
		if (f != IMPORT_AUTO)
			return f;
	}
	return IMPORT_AUTO;
}

/* The first line that is not blank, for the error of an unknown format. */
static int unknown_format(const char *text, const char *file, mt_error *e)
{
	struct lines l;
	lines_init(&l, text);
	while (lines_next(&l))
		if (!line_blank(l.buf))
			return import_bad_line(
				e, file, &l,
				_("not the output of lat_mem_rd, tinymembench, ramlat, "
				  "CS:APP's mountain, a mountain table ('s1 s2 ...' over "
				  "rows '128m T T ...') or core-to-core-latency's CSV"));
	return mt_fail(e, _("%s: empty: no table to import"), file);
}

void import_result_free(struct import_result *r)
{
	latency_result_free(r->lat);
	mountain_free(r->mtn);
	if (r->cores)
		cores_result_free(r->cores);
	free(r->cores);
	r->lat = NULL;
	r->mtn = NULL;
	r->cores = NULL;
}

/* The name the result carries: --name, or "FORMAT output imported from
 * FILE" with FILE's base name (the folder it sat in on the importing
 * machine says nothing about the hardware, and a deep one would not fit). */
static void name_result(struct import_result *out, const char *path, const struct import_opts *o)
{
	char *h = out->lat ? out->lat->hdr.hardware
		  : out->mtn ? out->mtn->hdr.hardware : out->cores->hdr.hardware;
	size_t len = sizeof out->lat->hdr.hardware;
	if (o->name)
		mt_strlcpy(h, o->name, len);
	else
		mt_snprintf(h, len, "%s output imported from %s", import_format_name(out->format),
			    mt_basename(path));
	if (out->lat)
		mt_strlcpy(out->lat->source, path, sizeof out->lat->source);
	else if (out->mtn)
		mt_strlcpy(out->mtn->source, path, sizeof out->mtn->source);
	else
		mt_strlcpy(out->cores->source, path, sizeof out->cores->source);
}

/* The parser of format f on text. */
static int parse(enum import_format f, const char *text, const char *path,
		 const struct import_opts *o, struct import_result *out, mt_error *e)
{
	switch (f) {
	case IMPORT_LMBENCH: return import_lmbench(text, path, o->lmbench_random, &out->lat, e);
	case IMPORT_TINYMEMBENCH: return import_tinymembench(text, path, &out->lat, e);
	case IMPORT_RAMLAT: return import_ramlat(text, path, &out->lat, e);
	case IMPORT_CSAPP: return import_csapp(text, path, &out->mtn, e);
	case IMPORT_TABLE: return import_table(text, path, o->units, &out->mtn, e);
	case IMPORT_C2C: return import_c2c(text, path, &out->cores, e);
	default: return unknown_format(text, path, e);
	}
}

int import_file(const char *path, const struct import_opts *o, struct import_result *out,
		mt_error *e)
{
	char *text = mt_read_file(path, MAX_FILE, NULL, e);
	int rc;
	memset(out, 0, sizeof *out);
	if (!text)
		return -1;
	out->format = o->format != IMPORT_AUTO ? o->format : import_detect(text);
	if (out->format != IMPORT_LMBENCH && o->lmbench_random) {
		free(text);
		return mt_fail(e, _("%s: a %s file: --chase is for lat_mem_rd output only"), path,
			       import_format_name(out->format));
	}
	if (out->format != IMPORT_TABLE && o->units) {
		free(text);
		return mt_fail(e, _("%s: a %s file: --units is for a plain mountain table only"),
			       path, import_format_name(out->format));
	}
	rc = parse(out->format, text, path, o, out, e);
	free(text);
	if (rc < 0)
		return -1;
	name_result(out, path, o);
	return 0;
}

int import_add_pages(struct import_result *res, const char *path, const struct import_opts *o,
		     mt_error *e)
{
	struct import_result b;
	struct latency_result *a = res->lat, *r;
	if (!a || !a->has_random || a->has_other)
		return mt_fail(
			e,
			!a && res->mtn
				? _("%s: a second file pairs one random chase with the other "
				    "pages; the first file has a mountain")
			: !a ? _("%s: a second file pairs one random chase with the other "
				 "pages; the first file has a core-to-core matrix")
			: a->has_other ? _("%s: a second file pairs one random chase with the "
					   "other pages; the first file has both already")
				       : _("%s: a second file pairs one random chase with the "
					   "other pages; the first file has none"),
			path);
	if (import_file(path, o, &b, e) < 0)
		return -1;
	r = b.lat;
	if (!r || b.format != res->format || !r->has_random || r->has_other) {
		import_result_free(&b);
		return mt_fail(e, _("%s: not one %s random chase like the first file"), path,
			       import_format_name(res->format));
	}
	if (a->hugepages == LATENCY_HUGE_UNKNOWN || r->hugepages == LATENCY_HUGE_UNKNOWN ||
	    a->hugepages == r->hugepages || a->nsizes != r->nsizes ||
	    memcmp(a->sizes, r->sizes, a->nsizes * sizeof a->sizes[0]) != 0) {
		import_result_free(&b);
		return mt_fail(e, _("%s: not the same sizes on the other pages (each file must say "
				  "its pages, one without and one with huge pages)"),
			       path);
	}
	a->has_other = 1;
	a->other_hugepages = r->hugepages;
	memcpy(a->other_ns, r->random_ns, sizeof a->other_ns);
	import_result_free(&b);
	return 0;
}
