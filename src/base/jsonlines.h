/* jsonlines: a file of many machines' results, as the engines that run one
 * command on many hosts collect them: `pdsh -w lab[01-50] memtop run
 * mountain --json - --compact > lab.jsonl` (and clush, whose lines look the
 * same) gives one line a host, "lab07: {...}"; GNU parallel --tag gives
 * "lab07<TAB>{...}"; a plain `cat *.json` of --compact results gives bare
 * "{...}" lines. Each line is one result, its prefix the machine's name. A
 * file holding one JSON document (pretty-printed or not) is one result
 * without a name, so every reader can take either. */
#ifndef MEMTOP_JSONLINES_H
#define MEMTOP_JSONLINES_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "util.h"

#define JSONL_NAME_MAX 64   /* a host name, as pdsh prints it */
#define JSONL_MAX_BYTES (64u << 20) /* a whole .jsonl: 200 hosts of big results */

/* One result read from a file. */
struct jsonl_entry {
	char name[JSONL_NAME_MAX]; /* the line's host prefix; "" for none */
	char where[MT_PATH_MAX + 100]; /* "lab.jsonl: line 12 (lab12)", or the file's path */
	int line;                  /* 1-based line of a JSON-lines entry; 0: the whole file */
	cJSON *root;               /* owned by the set */
};

/* The results of one or more files, in file and line order. */
struct jsonl_set {
	struct jsonl_entry *e;
	size_t n, cap;
};

/* Is root a result this reader takes? (NULL: any JSON object.) */
typedef int (*jsonl_is_result)(const cJSON *root);

/* Append the results in path to set: the whole file when it is one JSON
 * document, else one per non-blank line, each "[PREFIX]{...}" where PREFIX
 * is a host name followed by ':', a tab or spaces (pdsh, clush, parallel
 * --tag). At most max results in the set. Returns the count added, or -1
 * with e and the set as it was: "lab.jsonl: line 4 (lab04): not a memtop
 * result", "lab.jsonl: line 2: not valid JSON (a pretty-printed result?
 * give memtop run --compact)", "lab.jsonl: line 3: the host name before the
 * result has control characters", "lab.jsonl: more than 200 results". */
int jsonl_read(const char *path, jsonl_is_result is, size_t max, struct jsonl_set *set,
	       mt_error *e);

/* Free every entry's root and the array (set may be zeroed). */
void jsonl_free(struct jsonl_set *set);

#endif
