/* jsonio: see jsonio.h. */
#include "config.h"

#include "jsonio.h"
#include "i18n.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_JSON_BYTES JSONIO_MAX_BYTES
/* memtop's results nest 5 deep; cJSON itself stops at 1000. */
#define MAX_JSON_DEPTH 100

/* The line of the first place text (len bytes) nests deeper than
 * MAX_JSON_DEPTH, or 0 when it never does (strings skipped). */
static long too_deep(const char *text, size_t len)
{
	long line = 1;
	int depth = 0, in_str = 0;
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (c == '\n')
			line++;
		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = 0;
		} else if (c == '"') {
			in_str = 1;
		} else if (c == '[' || c == '{') {
			if (++depth > MAX_JSON_DEPTH)
				return line;
		} else if (c == ']' || c == '}') {
			depth--;
		}
	}
	return 0;
}

cJSON *jsonio_parse(const char *text, size_t len, const char *where, mt_error *e)
{
	const char *end = NULL;
	cJSON *root;
	long deep;
	if (len > MAX_JSON_BYTES) {
		mt_fail(e, _("%s: larger than %u bytes"), where, MAX_JSON_BYTES);
		return NULL;
	}
	deep = too_deep(text, len);
	if (deep) {
		mt_fail(e, _("%s: nested deeper than %d levels at line %ld (not a memtop result)"),
			where,
			MAX_JSON_DEPTH, deep);
		return NULL;
	}
	/* len + 1: cJSON 1.7.15 rejects trailing whitespace (every file jsonio_save
	 * writes ends in a newline) unless the terminating NUL is inside the length */
	root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
	if (!root) {
		long line = 1;
		const char *at = end ? end : cJSON_GetErrorPtr();
		if (at && at >= text && at <= text + len)
			for (const char *p = text; p < at; p++)
				line += *p == '\n';
		mt_fail(e, _("%s: not valid JSON near line %ld"), where, line);
	}
	return root;
}

cJSON *jsonio_load(const char *path, mt_error *e)
{
	size_t len;
	char *text = mt_read_file(path, MAX_JSON_BYTES, &len, e);
	cJSON *root;
	if (!text)
		return NULL;
	root = jsonio_parse(text, len, path, e);
	free(text);
	return root;
}

/* root as text ending in one newline (one line when compact). NULL when
 * out of memory. */
static char *print_text(const cJSON *root, int compact, size_t *len)
{
	char *text = compact ? cJSON_PrintUnformatted(root) : cJSON_Print(root), *t2;
	if (!text)
		return NULL;
	*len = strlen(text);
	t2 = realloc(text, *len + 2);
	if (!t2) {
		free(text);
		return NULL;
	}
	t2[(*len)++] = '\n';
	t2[*len] = '\0';
	return t2;
}

int jsonio_save(const char *path, const cJSON *root, mt_error *e)
{
	return jsonio_write_as(path, root, 0, e);
}

int jsonio_is_stdout(const char *path)
{
	return path && strcmp(path, "-") == 0;
}

int jsonio_write(const char *path, const cJSON *root, mt_error *e)
{
	return jsonio_write_as(path, root, 0, e);
}

int jsonio_write_as(const char *path, const cJSON *root, int compact, mt_error *e)
{
	size_t len;
	char *text = print_text(root, compact, &len);
	int rc = 0;
	if (!text)
		return mt_fail(e, _("%s: out of memory while printing JSON"),
			       jsonio_is_stdout(path) ? "stdout" : path);
	if (!jsonio_is_stdout(path)) {
		rc = mt_write_atomic(path, text, len, e);
	} else {
		errno = 0;
		if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0)
			rc = mt_fail(e, _("stdout: %s"),
				     errno ? strerror(errno) : _("write error"));
	}
	free(text);
	return rc;
}

static const char *fname(const char *file)
{
	return file ? file : "input";
}

int jsonio_number(const cJSON *o, const char *key, const char *file, double *out, mt_error *e)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!v)
		return mt_fail(e, _("%s: field \"%s\" is missing"), fname(file), key);
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
		return mt_fail(e, _("%s: field \"%s\" is not a number"), fname(file), key);
	*out = v->valuedouble;
	return 0;
}

int jsonio_int(const cJSON *o, const char *key, const char *file, long min, long max, long *out,
	       mt_error *e)
{
	double d;
	if (jsonio_number(o, key, file, &d, e) < 0)
		return -1;
	/* 2^63 is (double)LONG_MAX rounded up: no long holds it */
	if (d != floor(d) || d < (double)min || d > (double)max || d >= 9223372036854775807.0)
		return mt_fail(e, _("%s: field \"%s\" must be an integer in %ld..%ld"),
			       fname(file), key,
			       min, max);
	*out = (long)d;
	return 0;
}

const cJSON *jsonio_array(const cJSON *o, const char *key, const char *file, mt_error *e)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!v) {
		mt_fail(e, _("%s: field \"%s\" is missing"), fname(file), key);
		return NULL;
	}
	if (!cJSON_IsArray(v)) {
		mt_fail(e, _("%s: field \"%s\" is not an array"), fname(file), key);
		return NULL;
	}
	return v;
}

double jsonio_opt_number(const cJSON *o, const char *key, double dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : dflt;
}

const char *jsonio_experiment(const cJSON *root)
{
	const cJSON *ex = cJSON_GetObjectItemCaseSensitive(root, "experiment");
	return cJSON_IsString(ex) && ex->valuestring ? ex->valuestring : NULL;
}

long jsonio_opt_int(const cJSON *o, const char *key, long min, long max, long dflt)
{
	double d = jsonio_opt_number(o, key, NAN);
	if (isnan(d) || d != floor(d) || d < (double)min || d > (double)max ||
	    d >= 9223372036854775807.0)
		return dflt;
	return (long)d;
}

void jsonio_opt_string(const cJSON *o, const char *key, char *out, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (cJSON_IsString(v) && v->valuestring)
		mt_printable(out, len, v->valuestring, 0);
}

int jsonio_check_path(const char *path, const char **what, char *why, size_t len)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;
	*what = _("a file in an existing folder");
	why[0] = '\0';
	if (path[0] == '\0') {
		*what = _("a file name");
		return -1;
	}
	if (jsonio_is_stdout(path))
		return 0;
	if (!slash)
		mt_strlcpy(dir, ".", sizeof dir);
	else if (slash == path)
		mt_strlcpy(dir, "/", sizeof dir);
	else if (mt_snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path) < 0) {
		*what = _("a shorter path");
		return -1;
	}
	if (stat(dir, &st) < 0) {
		mt_snprintf(why, len, "%s: %s", dir, strerror(errno));
	} else if (!S_ISDIR(st.st_mode)) {
		mt_snprintf(why, len, _("%s is not a folder"), dir);
	} else if (access(dir, W_OK | X_OK) < 0) {
		*what = _("a file in a writable folder");
		mt_snprintf(why, len, "%s: %s", dir, strerror(errno));
	} else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		*what = _("a file");
		mt_snprintf(why, len, _("%s is a folder"), path);
	} else if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* the rename would put a file in place of /dev/null or a FIFO */
		*what = _("a regular file");
		/* TRANSLATORS: the path, what it is (a character device, a FIFO) */
		mt_snprintf(why, len, _("%s is a %s; the result replaces the file it is written to"),
			    path,
			    S_ISCHR(st.st_mode)    ? _("character device")
			    : S_ISFIFO(st.st_mode) ? "FIFO"
			    : S_ISSOCK(st.st_mode) ? _("socket")
						   : _("special file"));
	} else {
		return 0;
	}
	return -1;
}
