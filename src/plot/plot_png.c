/* plot_png: memtop plot --png. memtop draws SVG itself; a PNG needs a
 * rasteriser with fonts, which is not a small library (librsvg pulls in
 * cairo, pango and glib; libpng alone has no text). So --png runs
 * rsvg-convert (Debian's librsvg2-bin) when it is installed, without a
 * shell, on the SVG written to a temporary file, into a temporary PNG that
 * is renamed over the destination: the binary gains no dependency and the
 * destination is never half-written. */
#include "config.h"

#include "plot.h"
#include "base/i18n.h"
#include "os/child.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RSVG "rsvg-convert"
#define RSVG_TIMEOUT_MS 10000 /* a picture renders in well under a second */

/* Run rsvg-convert -f png -o png svg through the one child runner (no
 * shell, a time limit, its group killed and reaped); its stderr to ours
 * (its one reason). Returns 0, or -1 with e. */
static int run_rsvg(const char *svg, const char *png, mt_error *e)
{
	const char *argv[] = { RSVG, "-f", "png", "-o", png, svg, NULL };
	struct mt_run_end end;
	char why[160];
	char *out = mt_run_child(argv, 0, RSVG_TIMEOUT_MS, MT_RUN_STDERR, &end);
	if (out) {
		free(out);
		return 0;
	}
	if (end.start_errno == ENOENT)
		return mt_fail(e,
			       _("--png needs %s (apt-get install librsvg2-bin); --svg OUT writes "
				 "the SVG without it"),
			       RSVG);
	if (end.status == MT_RUN_TIMED_OUT)
		return mt_fail(e, _("%s did not finish in %d s on the SVG: stopped"), RSVG,
			       RSVG_TIMEOUT_MS / 1000);
	return mt_fail(e, _("%s failed on the SVG (%s)"), RSVG, mt_run_why(&end, why, sizeof why));
}

int plot_write_png(const char *path, const char *text, mt_error *e)
{
	char svg[4200], png[4200];
	int rc = -1, fd;
	if (mt_snprintf(svg, sizeof svg, "%s.svg-XXXXXX", path) < 0 ||
	    mt_snprintf(png, sizeof png, "%s.tmp-XXXXXX", path) < 0)
		return mt_fail(e, _("%s: path too long"), path);

	fd = mkstemp(svg);
	if (fd < 0)
		return mt_fail(e, "%s: %s", path, strerror(errno));
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		mt_fail(e, "%s: %s", svg, strerror(errno));
		close(fd);
		goto out_svg;
	}
	close(fd);
	fd = mkstemp(png);
	if (fd < 0) {
		mt_fail(e, "%s: %s", path, strerror(errno));
		goto out_svg;
	}
	{ /* the mode a new file gets here, not mkstemp's 0600 */
		mode_t mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	close(fd);
	if (run_rsvg(svg, png, e) < 0)
		goto out_png;
	if (rename(png, path) < 0) {
		mt_fail(e, "%s: %s", path, strerror(errno));
		goto out_png;
	}
	rc = 0;
	goto out_svg;
out_png:
	unlink(png);
out_svg:
	unlink(svg);
	return rc;
}
