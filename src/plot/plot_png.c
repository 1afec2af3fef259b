/* plot_png: memtop plot --png. memtop draws SVG itself; a PNG needs a
 * rasteriser with fonts, which is not a small library (librsvg pulls in
 * cairo, pango and glib; libpng alone has no text). So --png runs
 * rsvg-convert (Debian's librsvg2-bin) when it is installed, without a
 * shell, on the SVG written to a temporary file, into a temporary PNG that
 * is renamed over the destination: the binary gains no dependency and the
 * destination is never half-written. */
#include "config.h"

#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define RSVG "rsvg-convert"

/* Run rsvg-convert -f png -o png svg; its stderr to ours (its one reason).
 * Returns 0, or -1 with e. */
static int run_rsvg(const char *svg, const char *png, mt_error *e)
{
	const char *argv[] = { RSVG, "-f", "png", "-o", png, svg, NULL };
	int status;
	pid_t pid = fork();
	if (pid < 0)
		return mt_fail(e, "cannot start %s: %s", RSVG, strerror(errno));
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0)
			dup2(devnull, 0);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return mt_fail(e, "%s: %s", RSVG, strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return mt_fail(e, "--png needs %s (apt-get install librsvg2-bin); --svg OUT writes "
				  "the SVG without it", RSVG);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return mt_fail(e, "%s failed (status %d) on the SVG", RSVG,
			       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}

int plot_write_png(const char *path, const char *text, mt_error *e)
{
	char svg[4200], png[4200];
	int rc = -1, fd;
	if (mt_snprintf(svg, sizeof svg, "%s.svg-XXXXXX", path) < 0 ||
	    mt_snprintf(png, sizeof png, "%s.tmp-XXXXXX", path) < 0)
		return mt_fail(e, "%s: path too long", path);
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
