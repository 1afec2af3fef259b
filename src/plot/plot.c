/* plot: the dispatch by kind and writing the SVG (plot.h). Writing the
 * PNG is plot_png.c; each kind's picture is its kind's plot. */
#include "config.h"

#include "plot.h"
#include "base/i18n.h"
#include "result/result.h"

#include <stdio.h>
#include <string.h>

/* The kinds memtop plot draws, for a sentence: "mountain, latency run, ...". */
static const char *drawn_kinds(char *buf, size_t len)
{
	size_t n;
	const struct result_kind *const *k = result_kinds(&n);
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		if (k[i]->plot)
			/* TRANSLATORS: one more kind in a list ("mountains, latency runs"):
			 * the separator, then the kind (a language without this plural
			 * may drop the "s" and list the names) */
			mt_append(buf, len, _("%s%ss"), buf[0] ? ", " : "", _(k[i]->what));
	return buf;
}

int plot_draw(const struct result_file *f, size_t n, struct svg *s, mt_error *e)
{
	char kinds[600];
	memset(s, 0, sizeof *s);
	if (n < 1 || n > PLOT_MAX_FILES)
		return mt_fail(e, "%s", _("plot: one or two files"));
	if (n == 2 && f[0].kind != f[1].kind)
		return mt_fail(e, _("%s is a %s, %s a %s: plot two files of one kind"), f[0].path,
			       _(f[0].kind->what), f[1].path, _(f[1].kind->what));
	if (!f[0].kind->plot)
		return mt_fail(e, _("%s: memtop plot draws no picture of a %s (it draws %s)"),
			       f[0].path, _(f[0].kind->what), drawn_kinds(kinds, sizeof kinds));
	if (f[0].kind->plot(f, n, s) < 0 || s->failed)
		return mt_fail(e, "%s", _("out of memory while drawing the SVG"));
	return 0;
}

int plot_write_svg(const char *path, const char *text, mt_error *e)
{
	if (strcmp(path, "-") == 0) {
		if (fputs(text, stdout) == EOF || fflush(stdout) != 0)
			return mt_fail(e, "%s", _("stdout: cannot write the SVG"));

		return 0;
	}
	return mt_write_atomic(path, text, strlen(text), e);
}
