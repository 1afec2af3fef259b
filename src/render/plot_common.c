/* plot_common: what every picture shares (plot_common.h). */
#include "config.h"

#include "plot_common.h"
#include "base/i18n.h"
#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *plot_color(size_t i)
{
	/* Okabe and Ito's palette: told apart with colour-blind eyes too */
	static const char *const c[] = { "#0072b2", "#d55e00", "#009e73", "#cc79a7",
					 "#e69f00", "#56b4e9", "#000000", "#f0e442" };
	return c[i % MT_ARRAY_LEN(c)];
}

double plot_nice_step(double span, int n)
{
	double raw = span / (n > 0 ? n : 1), mag, f;
	if (!(raw > 0) || !isfinite(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

const char *plot_short(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		mt_snprintf(buf, len, "-");
	else if (fabs(v) >= 10000)
		mt_snprintf(buf, len, "%.1fk", v / 1000);
	else /* four digits at most: 258.3, 2.23, 0.22, 1462 */
		mt_snprintf(buf, len, "%.4g", v);
	return buf;
}

/* The hardware field of a loaded file ("" when it has none). */
static const char *hardware_of(const struct result_file *f)
{
	const struct run_header *h = result_kind_header(f->r);
	return h->hardware[0] ? h->hardware : h->cpu;
}

/* s cut to at most max characters at a space (whole words), "..." added. */
static void cut_words(char *out, size_t len, const char *s, size_t max)
{
	size_t n = strlen(s);
	if (n <= max) {
		mt_strlcpy(out, s, len);
		return;
	}
	while (max > 0 && s[max] != ' ')
		max--;
	mt_snprintf(out, len, "%.*s ...", (int)max, s);
}

#define TITLE_PX 18.0
#define LINE_PX 13.0
#define CHAR_PX 7.0 /* a 13 px character is about 7 px wide */

double plot_heading_height(size_t n)
{
	return TITLE_PX + 6 + (LINE_PX + 4) * (double)n + 8;
}

double plot_heading(struct svg *s, double x, double y, double width, const char *title,
		    const struct result_file *f, size_t n)
{
	const double title_px = TITLE_PX, line_px = LINE_PX, char_px = CHAR_PX;
	char hw[600], line[800];
	svg_group(s, "heading");
	svg_text(s, x, y + title_px, title_px, SVG_START, 1, 0, "#000000", title);
	y += title_px + 6;
	for (size_t i = 0; i < n; i++) {
		size_t room = (size_t)(width / char_px);
		size_t name = strlen(mt_basename(f[i].path)) + 8;
		cut_words(hw, sizeof hw, hardware_of(&f[i]), room > name + 20 ? room - name : 20);
		mt_snprintf(line, sizeof line, "%s%s (%s)", n > 1 ? (i ? "B: " : "A: ") : "",
			    hw[0] ? hw : _("unknown machine"), mt_basename(f[i].path));
		y += line_px + 4;
		svg_text(s, x, y, line_px, SVG_START, 0, 0, "#333333", line);
	}
	svg_group_end(s);
	return y + 8;
}
