/* result_file: one result file read through its kind (result.h): the
 * readers of one file (memtop view, compare, plot, cliffs, levels, the
 * tabs' open) on top of result_set.c, which reads many. */
#include "config.h"

#include "result.h"
#include "base/i18n.h"
#include "result_set.h"

#include <string.h>

int result_file_load(const char *path, struct result_file *f, mt_error *e)
{
	struct result_set s;
	char *const paths[1] = { (char *)path };
	memset(f, 0, sizeof *f);
	if (result_set_load(&s, paths, 1, RESULT_FILE_MAX_LINES, e) < 0)
		return -1;
	if (s.n != 1) {
		char names[300] = "";
		for (size_t i = 0; i < s.n && i < 3; i++)
			mt_append(names, sizeof names, "%s%s", i ? ", " : "", s.e[i].name);
		/* TRANSLATORS: the file, its results, their first names; then the
		 * first name and the file again, in a grep command */
		mt_fail(e,
			MT_NGETTEXT("%s holds %zu results (%s%s): this command reads one; memtop "
				    "compare --fleet and memtop report read them all (one host's: "
				    "grep '^%s:' %s)",
				    "%s holds %zu results (%s%s): this command reads one; memtop "
				    "compare --fleet and memtop report read them all (one host's: "
				    "grep '^%s:' %s)",
				    s.n),
			path, s.n, names, s.n > 3 ? ", ..." : "", s.e[0].name, path);
		result_set_free(&s);
		return -1;
	}
	*f = s.e[0].f;
	f->path = path;
	s.e[0].f.r = NULL; /* now f's */
	result_set_free(&s);
	return 0;
}

void *result_load_as(const char *path, const struct result_kind *want, mt_error *e)
{
	struct result_file f;
	if (result_file_load(path, &f, e) < 0)
		return NULL;
	if (f.kind != want) {
		mt_fail(e, _("%s: not a %s (a %s)"), path, _(want->what), _(f.kind->what));

		result_file_free(&f);
		return NULL;
	}
	return f.r;
}
