/* import_text: the line reader and the small parsers the importers share
 * (import_text.h). */
#include "config.h"

#include "base/i18n.h"
#include "import_text.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EXCERPT_CHARS 40

void lines_init(struct lines *l, const char *text)
{
	memset(l, 0, sizeof *l);
	l->p = text;
}

int lines_next(struct lines *l)
{
	size_t n = 0;
	if (!l->p || !*l->p)
		return 0;
	l->cut = 0;
	while (*l->p && *l->p != '\n') {
		if (n + 1 < sizeof l->buf)
			l->buf[n++] = *l->p;
		else
			l->cut = 1;
		l->p++;
	}
	if (*l->p == '\n')
		l->p++;
	while (n > 0 && (l->buf[n - 1] == '\r' || l->buf[n - 1] == ' ' || l->buf[n - 1] == '\t'))
		n--;
	l->buf[n] = '\0';
	l->no++;
	return 1;
}

int line_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0';
}

size_t line_tokens(char *s, char **tok, size_t cap)
{
	size_t n = 0;
	char *p = s;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return n;
		if (n == cap)
			return cap + 1;
		tok[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
	}
}

const char *import_excerpt(const char *line, char *buf, size_t len)
{
	size_t n = 0;
	for (const char *p = line; *p && n + 4 < len && n < EXCERPT_CHARS; p++)
		buf[n++] = *p == '\t' ? ' ' : isprint((unsigned char)*p) ? *p : '?';
	if (len > 0)
		buf[n < len ? n : len - 1] = '\0';
	if (strlen(line) > n && n + 4 <= len)
		mt_append(buf, len, "...");
	return buf;
}

int import_bad_line(mt_error *e, const char *file, const struct lines *l, const char *what)
{
	char ex[64];
	if (line_blank(l->buf))
		return mt_fail(e, _("%s: line %zu: %s, got an empty line"), file, l->no, what);
	return mt_fail(e, _("%s: line %zu: %s, got '%s'"), file, l->no, what,
		       import_excerpt(l->buf, ex, sizeof ex));
}

int import_parse_unit_size(const char *s, uint64_t *out)
{
	char num[32];
	size_t n = strlen(s);
	uint64_t v, mult;
	if (n < 2 || n >= sizeof num)
		return -1;
	switch (tolower((unsigned char)s[n - 1])) {
	case 'k': mult = 1ull << 10; break;
	case 'm': mult = 1ull << 20; break;
	case 'g': mult = 1ull << 30; break;
	default: return -1;
	}
	memcpy(num, s, n - 1);
	num[n - 1] = '\0';
	if (mt_parse_u64(num, 1, 1ull << 24, &v) < 0)
		return -1;
	*out = v * mult;
	return 0;
}

int import_parse_value(const char *s, double *out)
{
	if (mt_parse_double(s, out) < 0 || !isfinite(*out) || *out < 0)
		return -1;
	return 0;
}

struct latency_result *import_latency_new(const uint64_t *sizes, size_t n, const char *format)
{
	struct latency_result *r;
	if (n == 0 || n > LATENCY_MAX_SIZES || !(r = calloc(1, sizeof *r)))
		return NULL;
	r->nsizes = n;
	memcpy(r->sizes, sizes, n * sizeof *sizes);
	for (size_t k = 0; k < LATENCY_MAX_STRIDES; k++)
		for (size_t i = 0; i < LATENCY_MAX_SIZES; i++)
			r->ns[k][i] = r->cycles[k][i] = NAN;
	for (size_t i = 0; i < LATENCY_MAX_SIZES; i++)
		r->random_ns[i] = r->random_cycles[i] = r->other_ns[i] = r->other_cycles[i] = NAN;
	r->hugepages = LATENCY_HUGE_UNKNOWN;
	r->other_hugepages = LATENCY_HUGE_UNKNOWN;
	r->other_share = -1;
	mt_strlcpy(r->format, format, sizeof r->format);
	return r;
}
