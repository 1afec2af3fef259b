/* info source "sysfs": /sys/devices/system/cpu/cpuN/cache/index* (info.h). */
#include "config.h"

#include "info.h"
#include "base/i18n.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Read one small sysfs attribute into buf without its newline. Returns 1 when
 * read, 0 when the file does not exist, -1 with e set on another error. */
static int read_attr(const char *dir, const char *name, char *buf, size_t len, mt_error *e)
{
	char path[600];
	char *text;
	size_t n;
	struct stat st;
	mt_snprintf(path, sizeof path, "%s/%s", dir, name);
	if (stat(path, &st) < 0)
		return errno == ENOENT ? 0 : mt_fail(e, "%s: %s", path, strerror(errno));
	text = mt_read_file(path, 4096, &n, e);
	if (!text)
		return -1;
	while (n > 0 && isspace((unsigned char)text[n - 1]))
		text[--n] = '\0';
	mt_strlcpy(buf, text, len);
	free(text);
	return 1;
}

/* An integer attribute: 0 when absent or empty. */
static int read_int_attr(const char *dir, const char *name, int *out, mt_error *e)
{
	char buf[64];
	int rc = read_attr(dir, name, buf, sizeof buf, e);
	*out = 0;
	if (rc <= 0 || !buf[0])
		return rc < 0 ? -1 : 0;
	if (mt_parse_int(buf, 0, 1 << 30, out) < 0)
		return mt_fail(e, _("%s/%s: bad number '%s'"), dir, name, buf);
	return 0;
}

int info_parse_sysfs(const char *root, int cpu, struct info_source *out, mt_error *e)
{
	char cache[512], dir[560], buf[128];
	struct stat st;
	info_source_init(out, "sysfs");
	mt_snprintf(cache, sizeof cache, "%s/cpu%d/cache", root, cpu);
	if (stat(cache, &st) < 0)
		return mt_fail(e, "%s: %s", cache, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return mt_fail(e, _("%s: not a folder"), cache);
	mt_snprintf(out->note, sizeof out->note, "cpu%d", cpu);
	for (int idx = 0; idx < 64; idx++) {
		struct cache_level lv;
		int rc;
		memset(&lv, 0, sizeof lv);
		mt_snprintf(dir, sizeof dir, "%s/index%d", cache, idx);
		if (stat(dir, &st) < 0)
			continue; /* indexes are contiguous in practice; tolerate holes */
		if (read_int_attr(dir, "level", &lv.level, e) < 0)
			return -1;
		if (lv.level < 1)
			return mt_fail(e, _("%s/level: missing or 0"), dir);
		rc = read_attr(dir, "type", buf, sizeof buf, e);
		if (rc < 0)
			return -1;
		if (strcmp(buf, "Data") == 0)
			mt_strlcpy(lv.type, "data", sizeof lv.type);
		else if (strcmp(buf, "Instruction") == 0)
			mt_strlcpy(lv.type, "instruction", sizeof lv.type);
		else if (strcmp(buf, "Unified") == 0)
			mt_strlcpy(lv.type, "unified", sizeof lv.type);
		else
			return mt_fail(e, _("%s/type: unknown cache type '%s'"),
				       dir, rc ? buf : "");
		rc = read_attr(dir, "size", buf, sizeof buf, e);
		if (rc < 0)
			return -1;
		if (rc > 0 && buf[0] && mt_parse_size(buf, &lv.size) < 0)
			return mt_fail(e, _("%s/size: bad size '%s'"), dir, buf);
		if (read_int_attr(dir, "ways_of_associativity", &lv.ways, e) < 0 ||
		    read_int_attr(dir, "coherency_line_size", &lv.line, e) < 0 ||
		    read_int_attr(dir, "number_of_sets", &lv.sets, e) < 0)
			return -1;
		if (read_attr(dir, "shared_cpu_list", lv.shared_cpus, sizeof lv.shared_cpus, e) < 0)
			return -1;
		if (info_source_add_level(out, &lv) < 0)
			break;
	}
	return 0;
}
