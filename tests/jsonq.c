/* tests/jsonq.c: a tiny JSON query for the shell tests, so they parse what
 * memtop writes instead of counting strings (jq is not a dependency).
 *
 *   jsonq FILE PATH...
 *
 * prints the value at each PATH, one a line. A PATH is keys and indexes
 * from the root: "n", "results[2].order", "random.ns[0]"; "[*]" stands for
 * every element of an array (one line each); a trailing "#" prints the
 * number of elements of the array or object instead ("results#"); "." is
 * the root. Numbers print as %.15g, strings as they are, true/false/null
 * as words, arrays and objects as compact JSON. Exit 0; 1 with one line on
 * stderr when FILE does not parse or a PATH leads nowhere. */
#include "config.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonio.h"

static void put_value(const cJSON *v)
{
	char *text;
	if (cJSON_IsNumber(v)) {
		printf("%.15g\n", v->valuedouble);
	} else if (cJSON_IsString(v)) {
		printf("%s\n", v->valuestring);
	} else if (cJSON_IsBool(v)) {
		printf("%s\n", cJSON_IsTrue(v) ? "true" : "false");
	} else if (cJSON_IsNull(v)) {
		printf("null\n");
	} else if ((text = cJSON_PrintUnformatted(v))) {
		printf("%s\n", text);
		cJSON_free(text);
	}
}

/* Walk path p from v, printing what it reaches. Returns 0, or -1 when the
 * path leads nowhere. */
static int walk(const cJSON *v, const char *p)
{
	while (*p == '.')
		p++;
	if (*p == '\0') {
		put_value(v);
		return 0;
	}
	if (strcmp(p, "#") == 0) {
		if (!cJSON_IsArray(v) && !cJSON_IsObject(v))
			return -1;
		printf("%d\n", cJSON_GetArraySize(v));
		return 0;
	}
	if (*p == '[') {
		char *end;
		long i;
		if (strncmp(p, "[*]", 3) == 0) {
			const cJSON *it;
			if (!cJSON_IsArray(v))
				return -1;
			cJSON_ArrayForEach(it, v)
			if (walk(it, p + 3) < 0)
				return -1;
			return 0;
		}
		i = strtol(p + 1, &end, 10);
		if (end == p + 1 || *end != ']' || !cJSON_IsArray(v) || i < 0 ||
		    i >= cJSON_GetArraySize(v))
			return -1;
		return walk(cJSON_GetArrayItem(v, (int)i), end + 1);
	}
	{
		char key[256];
		size_t n = strcspn(p, ".[#");
		if (n == 0 || n >= sizeof key || !cJSON_IsObject(v))
			return -1;
		memcpy(key, p, n);
		key[n] = '\0';
		v = cJSON_GetObjectItemCaseSensitive(v, key);
		return v ? walk(v, p + n) : -1;
	}
}

int main(int argc, char **argv)
{
	mt_error e;
	cJSON *root;
	int rc = 0;
	if (argc < 3) {
		fprintf(stderr, "usage: jsonq FILE PATH...\n");
		return 2;
	}
	root = jsonio_load(argv[1], &e);
	if (!root) {
		fprintf(stderr, "jsonq: %s\n", e.msg);
		return 1;
	}
	for (int i = 2; i < argc; i++)
		if (walk(root, argv[i]) < 0) {
			fprintf(stderr, "jsonq: %s: no %s\n", argv[1], argv[i]);
			rc = 1;
		}
	cJSON_Delete(root);
	return rc;
}
