/* latency_history: what the last latency runs on this machine found, kept
 * as memtop's state ($XDG_STATE_HOME/memtop/latency-history.json, else
 * ~/.local/state/memtop/): each run's cache levels, its main curve (the one
 * the levels are read from) and the conditions it ran under (load, steal,
 * the CPU it ran on). A run is held against the last ones of the same key
 * (host, CPU model, curve, sizes): levels that differ are said with the
 * conditions of both, a level found in one run of three is said with its
 * doubt, and the worker measures again the points that moved. */
#ifndef MEMTOP_LATENCY_HISTORY_H
#define MEMTOP_LATENCY_HISTORY_H

#include "latency.h"

#define LATENCY_HISTORY_RUNS 3   /* kept for each key */
#define LATENCY_HISTORY_ALL 32   /* kept in all (the oldest go first) */
#define LATENCY_SAME_LEVEL 1.5   /* two levels within this factor of size are one */

/* One run as the state keeps it. */
struct latency_history_run {
	char key[320];      /* "host|CPU model|curve|first..last" */
	char date[32];
	size_t nlevels;     /* its cache levels (TLBs apart) */
	uint64_t size[LATENCY_MAX_LEVELS];
	double ns[LATENCY_MAX_LEVELS];
	double memory_ns;   /* 0 none */
	double load_before, load_after, steal_pct; /* -1 unknown */
	int cpu_first, cpu_last, moved;            /* -1 unknown */
	size_t npoints;     /* its main curve */
	uint64_t psize[LATENCY_MAX_SIZES];
	double pns[LATENCY_MAX_SIZES];
};

/* The runs of one key, newest first. */
struct latency_history {
	size_t n;
	struct latency_history_run run[LATENCY_HISTORY_RUNS];
};

/* The state file's path into buf: $XDG_STATE_HOME/memtop/latency-history.json
 * (XDG_STATE_HOME absolute), else $HOME/.local/state/memtop/... Returns buf,
 * or NULL when neither is set (nothing is kept). */
const char *latency_history_path(char *buf, size_t len);

/* The runs of key in the file at path into h (newest first; none when the
 * file is missing). Returns 0, or -1 with e when the file cannot be read
 * or is not a history ("FILE: runs[2]: ..."): h is then empty. */
int latency_history_load(const char *path, const char *key, struct latency_history *h,
			 mt_error *e);

/* The same from a parsed file (where names it in errors). */
int latency_history_from_json(const cJSON *root, const char *where, const char *key,
			      struct latency_history *h, mt_error *e);

/* Add run to the file at path (its folder made), keeping the last
 * LATENCY_HISTORY_RUNS of each key and LATENCY_HISTORY_ALL in all, written
 * atomically (an unreadable file is replaced). Returns 0, or -1 with e. */
int latency_history_save(const char *path, const struct latency_history_run *run, mt_error *e);

/* The record of result r (its header's date, load, steal and CPUs) whose
 * levels lv were read, under key. */
void latency_history_of(const struct latency_result *r, const struct latency_levels *lv,
			const char *key, struct latency_history_run *out);

/* Mark lv's cache levels with how many of h's runs and this one found them
 * (lv->lv[i].runs, .seen: within LATENCY_SAME_LEVEL of size); nothing
 * marked when h is empty. */
void latency_history_mark(const struct latency_history *h, struct latency_levels *lv);

/* Whether cur's levels differ from prev's (a level one has and the other
 * has not, within LATENCY_SAME_LEVEL); the differences into buf ("L2 1 MB ->
 * 576K, L3 11M -> 5632K"; "L4 36M new"). Returns 1 differ, 0 not. */
int latency_history_differs(const struct latency_history_run *prev,
			    const struct latency_history_run *cur, char *buf, size_t len);

/* A run's conditions in words: "load 0.05..0.10, steal 0.0 %, on CPU 1"
 * ("moved from CPU 1 to 0"; what is unknown left out). Returns buf. */
const char *latency_history_conditions(const struct latency_history_run *r, char *buf,
				       size_t len);

/* The last run's main-curve latency at each of sizes[0..n) into ns (NAN
 * where it has none). Returns how many it has. */
size_t latency_history_curve(const struct latency_history_run *r, const uint64_t *sizes,
			     size_t n, double *ns);

#endif
