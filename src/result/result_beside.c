/* result_beside: the newest result of one kind and machine beside a file
 * (result_beside.h). */
#include "config.h"

#include "result_beside.h"

#include <dirent.h>
#include <string.h>

/* Whether result r was measured on h's machine (run_header_same_machine:
 * its machine id, else its host and CPU). */
static int same_machine(const void *r, const struct run_header *h)
{
	return run_header_same_machine(result_kind_header(r), h);
}

void *result_beside(const char *file, const struct run_header *h, const struct result_kind *want,
		    char *found, size_t len, result_beside_fn each, void *arg)
{
	char dir[MT_PATH_MAX], path[MT_PATH_MAX];
	void *best = NULL;
	struct dirent *de;
	int seen = 0;
	DIR *d;
	const char *slash = strrchr(file, '/');
	if (!h->machine_id[0] && (!h->host[0] || !h->cpu[0]))
		return NULL;
	mt_snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - file) : 1, slash ? file : ".");
	if (!(d = opendir(dir[0] ? dir : "/")))
		return NULL;
	while ((de = readdir(d)) && seen++ < RESULT_BESIDE_MAX) {
		void *r;
		mt_error e;
		size_t n = strlen(de->d_name);
		if (n < 6 || strcmp(de->d_name + n - 5, ".json") != 0)
			continue;
		mt_snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		if (!(r = result_load_as(path, want, &e)))
			continue;
		if (!same_machine(r, h)) {
			want->free(r);
			continue;
		}
		if (each)
			each(r, arg);
		if (best && strcmp(result_kind_header(r)->date, result_kind_header(best)->date) <= 0) {
			want->free(r);
			continue;
		}
		if (best)
			want->free(best);
		best = r;
		mt_strlcpy(found, path, len);
	}
	closedir(d);
	return best;
}
