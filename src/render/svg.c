/* svg: see svg.h. */
#include "config.h"

#include "svg.h"
#include "base/i18n.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SVG_FIRST_CAP 65536

/* Append printf output; on failure mark s failed (and keep going). */
static void out(struct svg *s, const char *fmt, ...) MT_PRINTF(2, 3);
static void out(struct svg *s, const char *fmt, ...)
{
	va_list ap;
	int n;
	if (s->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(s->buf + s->len, s->cap - s->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			s->failed = 1;
			return;
		}
		if ((size_t)n < s->cap - s->len) {
			s->len += (size_t)n;
			return;
		}
		{
			size_t cap = s->cap * 2 + (size_t)n;
			char *b = realloc(s->buf, cap);
			if (!b) {
				s->failed = 1;
				return;
			}
			s->buf = b;
			s->cap = cap;
		}
	}
}

/* The length of the valid UTF-8 sequence at t (2..4), or 0 when it is not
 * one (a file-borne string may hold any bytes; XML must not). */
static int utf8_seq(const unsigned char *t)
{
	int n = t[0] >= 0xf0 && t[0] <= 0xf4 ? 4 : t[0] >= 0xe0 ? 3 : t[0] >= 0xc2 ? 2 : 0;
	for (int i = 1; i < n; i++)
		if ((t[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* Append text with the five XML specials escaped, control characters left
 * out and bytes that are not UTF-8 written as '?'. */
static void out_escaped(struct svg *s, const char *text)
{
	const unsigned char *t = (const unsigned char *)text;
	while (*t) {
		int n = *t >= 0x80 ? utf8_seq(t) : 1;
		switch (*t) {
		case '&': out(s, "&amp;"); break;
		case '<': out(s, "&lt;"); break;
		case '>': out(s, "&gt;"); break;
		case '"': out(s, "&quot;"); break;
		case '\'': out(s, "&apos;"); break;
		default:
			if (n == 0)
				out(s, "?");
			else if (*t >= 0x20 || *t == '\t') /* XML 1.0 has no control characters */
				out(s, "%.*s", n, (const char *)t);
		}
		t += n ? n : 1;
	}
}

int svg_begin(struct svg *s, double w, double h, const char *title)
{
	memset(s, 0, sizeof *s);
	s->buf = malloc(SVG_FIRST_CAP);
	if (!s->buf)
		return -1;
	s->cap = SVG_FIRST_CAP;
	s->buf[0] = '\0';
	s->w = w;
	s->h = h;
	out(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	       "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
	       "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Helvetica, "
	       "Arial, sans-serif\">\n<title>",
	    w, h, w, h);
	out_escaped(s, title);
	out(s, "</title>\n");
	svg_rect(s, 0, 0, w, h, "#ffffff", NULL);
	return s->failed ? -1 : 0;
}

static const char *or_none(const char *c)
{
	return c ? c : "none";
}

void svg_rect(struct svg *s, double x, double y, double w, double h, const char *fill,
	      const char *stroke)
{
	out(s, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" stroke=\"%s\"/>\n",
	    x, y, w, h, or_none(fill), or_none(stroke));
}

void svg_line(struct svg *s, double x1, double y1, double x2, double y2, const char *stroke,
	      double width, int dash)
{
	out(s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
	       "stroke-width=\"%.1f\"%s/>\n",
	    x1, y1, x2, y2, or_none(stroke), width, dash ? " stroke-dasharray=\"5,4\"" : "");
}

/* The points attribute of a polyline or polygon. */
static void points(struct svg *s, const double *xs, const double *ys, size_t n)
{
	out(s, " points=\"");
	for (size_t i = 0; i < n; i++)
		out(s, "%s%.1f,%.1f", i ? " " : "", xs[i], ys[i]);
	out(s, "\"");
}

void svg_polyline(struct svg *s, const double *xs, const double *ys, size_t n, const char *stroke,
		  double width, int dash)
{
	if (n < 2)
		return;
	out(s, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"%s", or_none(stroke),
	    width, dash ? " stroke-dasharray=\"6,4\"" : "");
	points(s, xs, ys, n);
	out(s, "/>\n");
}

void svg_polygon(struct svg *s, const double *xs, const double *ys, size_t n, const char *fill,
		 const char *stroke, double width)
{
	if (n < 3)
		return;
	out(s, "<polygon fill=\"%s\" stroke=\"%s\" stroke-width=\"%.1f\" stroke-linejoin=\"round\"",
	    or_none(fill), or_none(stroke), width);
	points(s, xs, ys, n);
	out(s, "/>\n");
}

void svg_circle(struct svg *s, double cx, double cy, double r, const char *fill)
{
	out(s, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n", cx, cy, r,
	    or_none(fill));
}

void svg_text(struct svg *s, double x, double y, double size, enum svg_anchor anchor, int bold,
	      double rotate, const char *fill, const char *text)
{
	static const char *const anchors[] = { "start", "middle", "end" };
	out(s, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" text-anchor=\"%s\" fill=\"%s\"%s", x,
	    y, size, anchors[anchor], fill ? fill : "#000000", bold ? " font-weight=\"bold\"" : "");
	if (rotate != 0)
		out(s, " transform=\"rotate(%.1f %.1f %.1f)\"", rotate, x, y);
	out(s, ">");
	out_escaped(s, text);
	out(s, "</text>\n");
}

void svg_textf(struct svg *s, double x, double y, double size, enum svg_anchor anchor, int bold,
	       const char *fill, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	svg_text(s, x, y, size, anchor, bold, 0, fill, text);
}

void svg_group(struct svg *s, const char *cls)
{
	out(s, "<g class=\"");
	out_escaped(s, cls);
	out(s, "\">\n");
}

void svg_group_end(struct svg *s)
{
	out(s, "</g>\n");
}

const char *svg_finish(struct svg *s, mt_error *e)
{
	out(s, "</svg>\n");
	if (s->failed || !s->buf) {
		mt_fail(e, "%s", _("out of memory while drawing the SVG"));
		return NULL;
	}
	return s->buf;
}

void svg_free(struct svg *s)
{
	free(s->buf);
	memset(s, 0, sizeof *s);
}
