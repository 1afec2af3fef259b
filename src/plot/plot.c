/* plot: loading the files, the dispatch by kind and what the parts share
 * (plot.h). Writing the PNG is plot_png.c. */
#include "config.h"

#include "plot.h"
#include "core/jsonio.h"
#include "labs/falseshare.h"
#include "labs/lists.h"
#include "labs/matmul.h"
#include "latency/latency.h"
#include "mountain/mountain_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *plot_kind_name(enum plot_kind k)
{
	static const char *const names[] = { "mountain", "latency run", "matmul result",
					     "false sharing result", "lists result" };
	return names[k];
}

/* Read a lab result of its kind into a new allocation (they are big). */
static int load_lab(const cJSON *root, const char *path, struct plot_input *in, mt_error *e)
{
	if (matmul_result_is(root)) {
		in->kind = PLOT_MATMUL;
		if (!(in->matmul = malloc(sizeof *in->matmul)))
			return mt_fail(e, "%s: out of memory", path);
		return matmul_result_from_json(root, path, in->matmul, e);
	}
	if (falseshare_result_is(root)) {
		in->kind = PLOT_FALSESHARE;
		if (!(in->falseshare = malloc(sizeof *in->falseshare)))
			return mt_fail(e, "%s: out of memory", path);
		return falseshare_result_from_json(root, path, in->falseshare, e);
	}
	if (lists_result_is(root)) {
		in->kind = PLOT_LISTS;
		if (!(in->lists = malloc(sizeof *in->lists)))
			return mt_fail(e, "%s: out of memory", path);
		return lists_result_from_json(root, path, in->lists, e);
	}
	return mt_fail(e, "%s: not a result memtop can plot (a mountain, a latency run, or a "
			  "matmul, false sharing or lists result)", path);
}

int plot_load(const char *path, struct plot_input *in, mt_error *e)
{
	cJSON *root = jsonio_load(path, e);
	int rc = 0;
	memset(in, 0, sizeof *in);
	if (!root)
		return -1;
	mt_strlcpy(in->path, path, sizeof in->path);
	if (cJSON_GetObjectItemCaseSensitive(root, "throughput")) {
		in->kind = PLOT_MOUNTAIN;
		in->mountain = mountain_from_json(root, path, e);
		rc = in->mountain ? 0 : -1;
	} else if (latency_result_is(root)) {
		in->kind = PLOT_LATENCY;
		in->latency = latency_from_json(root, path, e);
		rc = in->latency ? 0 : -1;
	} else {
		rc = load_lab(root, path, in, e);
	}
	cJSON_Delete(root);
	if (rc < 0)
		plot_input_free(in);
	return rc;
}

void plot_input_free(struct plot_input *in)
{
	mountain_free(in->mountain);
	latency_result_free(in->latency);
	free(in->matmul);
	free(in->falseshare);
	free(in->lists);
	memset(in, 0, sizeof *in);
}

int plot_draw(const struct plot_input *in, size_t n, struct svg *s, mt_error *e)
{
	int rc;
	memset(s, 0, sizeof *s);
	if (n < 1 || n > PLOT_MAX_FILES)
		return mt_fail(e, "plot: one or two files");
	if (n == 2 && in[0].kind != in[1].kind)
		return mt_fail(e, "%s is a %s, %s a %s: plot two files of one kind", in[0].path,
			       plot_kind_name(in[0].kind), in[1].path, plot_kind_name(in[1].kind));
	switch (in[0].kind) {
	case PLOT_MOUNTAIN: rc = plot_mountains(in, n, s); break;
	case PLOT_LATENCY: rc = plot_latencies(in, n, s); break;
	default: rc = plot_labs(in, n, s); break;
	}
	if (rc < 0 || s->failed)
		return mt_fail(e, "out of memory while drawing the SVG");
	return 0;
}

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

/* The hardware field of a loaded input ("" when it has none). */
static const char *hardware_of(const struct plot_input *in)
{
	const struct run_header *h = in->mountain     ? &in->mountain->hdr
				     : in->latency    ? &in->latency->hdr
				     : in->matmul     ? &in->matmul->hdr
				     : in->falseshare ? &in->falseshare->hdr
				     : in->lists      ? &in->lists->hdr
						      : NULL;
	if (!h)
		return "";
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
		    const struct plot_input *in, size_t n)
{
	const double title_px = TITLE_PX, line_px = LINE_PX, char_px = CHAR_PX;
	char hw[600], line[800];
	svg_group(s, "heading");
	svg_text(s, x, y + title_px, title_px, SVG_START, 1, 0, "#000000", title);
	y += title_px + 6;
	for (size_t i = 0; i < n; i++) {
		size_t room = (size_t)(width / char_px);
		size_t name = strlen(mt_basename(in[i].path)) + 8;
		cut_words(hw, sizeof hw, hardware_of(&in[i]), room > name + 20 ? room - name : 20);
		mt_snprintf(line, sizeof line, "%s%s (%s)", n > 1 ? (i ? "B: " : "A: ") : "",
			    hw[0] ? hw : "unknown machine", mt_basename(in[i].path));
		y += line_px + 4;
		svg_text(s, x, y, line_px, SVG_START, 0, 0, "#333333", line);
	}
	svg_group_end(s);
	return y + 8;
}

int plot_write_svg(const char *path, const char *text, mt_error *e)
{
	if (strcmp(path, "-") == 0) {
		if (fputs(text, stdout) == EOF || fflush(stdout) != 0)
			return mt_fail(e, "stdout: cannot write the SVG");
		return 0;
	}
	return mt_write_atomic(path, text, strlen(text), e);
}
