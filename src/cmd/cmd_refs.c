/* cmd_refs: the bundled references (data/m4max.json, the JSON files of data/ref: the
 * seed's M4 Max, the book's Haswell, the corpus machines) as extra files
 * for memtop compare --fleet and memtop report, their rows labelled as
 * references (cmd.h). */
#include "config.h"

#include "cmd.h"
#include "base/i18n.h"
#include "os/datadir.h"
#include "result/result_set.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

static int by_path(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* Every bundled reference: m4max.json, then the JSON files of ref/ by name. */
static int add_all(struct cmd_refs *r)
{
	char dir[MT_PATH_MAX], *slash;
	size_t first;
	DIR *d;
	struct dirent *de;
	if (mt_data_path("m4max.json", r->path[r->n], sizeof r->path[0]))
		r->n++;
	if (!mt_data_path("ref/README.md", dir, sizeof dir) || !(slash = strrchr(dir, '/')))
		return 0;
	*slash = '\0';
	if (!(d = opendir(dir)))
		return 0;
	first = r->n;
	while ((de = readdir(d)) && r->n < CMD_MAX_REFS) {
		size_t l = strlen(de->d_name);
		if (l > 5 && strcmp(de->d_name + l - 5, ".json") == 0 &&
		    mt_snprintf(r->path[r->n], sizeof r->path[0], "%s/%s", dir, de->d_name) >= 0)
			r->n++;
	}
	closedir(d);
	qsort(r->path[first], r->n - first, sizeof r->path[0], by_path);
	return 0;
}

int cmd_refs_add(struct cmd_refs *r, const char *cmd, const char *which)
{
	char name[300];
	if (strcmp(which, "all") == 0)
		return add_all(r);
	if (r->n == CMD_MAX_REFS) {
		mt_warn(_("%s: --ref: at most %d references"), cmd, CMD_MAX_REFS);
		return -1;
	}
	for (int in_ref = 0; in_ref < 2 && !strchr(which, '/'); in_ref++) {
		mt_snprintf(name, sizeof name, "%s%s.json", in_ref ? "ref/" : "", which);
		if (mt_data_path(name, r->path[r->n], sizeof r->path[0])) {
			r->n++;
			return 0;
		}
	}
	mt_warn(_("%s: --ref: expected all or a bundled reference (m4max, or a name in the data "
		  "folder's ref/ without .json, as intel-n100-latency), got '%s'"),
		cmd, which);

	return -1;
}

void cmd_refs_mark(struct result_set *s, size_t nlab)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->e[i].file >= nlab) {
			char name[JSONL_NAME_MAX];
			mt_snprintf(name, sizeof name, "ref: %s", s->e[i].name);
			mt_strlcpy(s->e[i].name, name, sizeof s->e[i].name);
			s->e[i].ref = 1;
		}
}
