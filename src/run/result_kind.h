/* result_kind: the shape of one kind of result file (a mountain, a latency
 * run, a matmul result, ...): how to tell a file of it, read it, free it,
 * write it, what it measured, and how `memtop compare` and `memtop plot`
 * show it. The shape is here, in core, so that each experiment defines its
 * own kind in its own folder (src/mountain/mountain_kind.c:
 * `const struct result_kind kind_mountain = { .name = "mountain", ... }`,
 * named-field initializers, as tmux's cmd_entry); the registry that knows
 * every kind, and result_kind_of() that every reader asks "what kind is
 * this file", are one layer up, in src/result/result.h.
 *
 * Every callback takes its instance (the void * that load returned); a
 * callback marked "may be NULL" is optional, the others are not. */
#ifndef MEMTOP_RESULT_KIND_H
#define MEMTOP_RESULT_KIND_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

#include "runhdr.h"
#include "base/util.h"

struct svg; /* render/svg.h: the document memtop plot draws into */

/* One headline figure of a result, for a fleet's table ("L1 hit", 1.2,
 * "ns"): name and unit are plain ASCII, value is finite. */
struct result_figure {
	char name[48];
	double value;
	char unit[16];
};

/* For a kind's figures: out[*n] = (name, value, unit) and *n + 1 when
 * value is finite and *n < max (else nothing). name is at most 9
 * characters, the width of a fleet's column: "L3 size", "DRAM all". */
void result_figure_add(struct result_figure *out, size_t max, size_t *n, const char *name,
		       double value, const char *unit);

/* How a run measured, what `memtop compare` names first where two runs
 * differ in it ("B measured 4064M, A 32M (--quick)"), before any setting of
 * the machine: the largest working set, the threads, the pages, the tries
 * (--quick is the run header's). A kind fills what it records; the rest
 * stays "" / 0. */
enum {
	RESULT_PAGES_HUGE = 1,   /* a buffer asked for huge pages (madvise MADV_HUGEPAGE) */
	RESULT_PAGES_4K = 2,     /* a buffer asked for 4 KB pages only (MADV_NOHUGEPAGE) */
	RESULT_PAGES_LEFT = 4,   /* a buffer left to the THP mode (malloc'd, not advised) */
};
struct result_method {
	char size[32];  /* the largest working set in words: "4064M", "n=1024" */
	int threads;    /* threads measuring at once, at most (0 not said) */
	int tries;      /* tries a point is the best or median of (0 not said) */
	char pages[40]; /* "4 KB pages", "2 MB pages", "4 KB and 2 MB pages" */
	unsigned advice; /* RESULT_PAGES_* of its buffers; 0 not said (any may be) */
};

/* One loaded result file: what compare and plot receive. */
struct result_file {
	const struct result_kind *kind; /* NULL: nothing loaded */
	void *r;                        /* kind->load's result; kind->free frees it */
	const char *path;               /* the file, as the user named it (not owned) */
};

/* What `memtop compare` was asked besides the files (zero: the defaults).
 * A kind ignores what does not concern it; the command refuses an option a
 * kind cannot use before calling it (see result_kind.strides). */
struct result_compare_opts {
	const unsigned *strides; /* --stride N...: the strides to show (words) */
	size_t nstrides;         /* 0: the kind's default choice */
};

struct result_kind {
	/* The file's "experiment" value, and the kind's name everywhere
	 * (memtop-NAME-HOST-DATE.json, `memtop compare --seed`'s file, the
	 * registry's key): "mountain", "latency", "matmul". Unique. */
	const char *name;
	/* The kind in words, for sentences: "memory mountain", "latency run",
	 * "matmul result": "PATH is a WHAT, not ...". */
	const char *what;
	/* The name of the TUI tab that shows it ("Mountain", struct tab's
	 * name), or NULL when no tab does. */
	const char *tab;
	/* The bundled figures `memtop compare --seed` adds as the last file, a
	 * path under the data folder ("m4max.json", "ref/matmul-m4max.json"),
	 * or NULL when the seed gives none of this kind. */
	const char *seed;
	/* Files written before results named their "experiment": 1 when root
	 * has this kind's shape. Asked only for a root with no "experiment"
	 * string (result_kind_of looks the name up first), in registry order.
	 * May be NULL: every file of this kind names it. */
	int (*is)(const cJSON *root);
	/* Read root (a file of this kind: result_kind_of said so) into a new
	 * result. path names the file in errors. Returns the result, or NULL
	 * with e set to one line naming path and the field ("m.json:
	 * throughput row 3 has 4 values, expected 15"). Never half-read. */
	void *(*load)(const cJSON *root, const char *path, mt_error *e);
	/* Free a result load returned (NULL: nothing). */
	void (*free)(void *r);
	/* The cells r holds (0: nothing measured, nothing to save: the TUI's
	 * save says so). May be NULL: a result of this kind always holds what
	 * it was saved with (the tabs that show it say their own count). */
	size_t (*measured)(const void *r);
	/* The result as the JSON its file holds (what load reads back: a
	 * load of it gives the same result, a save of that the same bytes).
	 * Returns a new tree, or NULL when out of memory. May be NULL: a kind
	 * memtop only reads (the summary card). */
	cJSON *(*to_json)(const void *r);
	/* The headline figures of r into out[0..max), for comparing a fleet:
	 * returns how many it wrote (0: none to give). May be NULL. */
	size_t (*figures)(const void *r, struct result_figure *out, size_t max);
	/* How r measured, into m (zeroed by the caller). May be NULL: compare
	 * then names no difference of method but --quick, and takes any THP
	 * mode to act on its buffers. */
	void (*method)(const void *r, struct result_method *m);
	/* 1 when compare reads o->strides (mountains); memtop compare refuses
	 * --stride for any other kind. */
	int strides;
	/* `memtop compare`: print f[0..n) (all of this kind, 2 <= n <= 8, or
	 * 1 + the seed's) side by side on stdout, with each file's conditions
	 * above its column and the ratio of every file to the first. Returns an
	 * exit code: 0, or 2 with one line on stderr (the files share nothing
	 * to compare). May be NULL: memtop compare says it does not compare
	 * this kind. */
	int (*compare)(const struct result_file *f, size_t n, const struct result_compare_opts *o);
	/* `memtop plot`: draw f[0..n) (all of this kind, n 1 or 2) into s, a
	 * new document (svg_begin not yet called). Returns 0, or -1 out of
	 * memory. May be NULL: memtop plot says in one line that it draws no
	 * picture of this kind. */
	int (*plot)(const struct result_file *f, size_t n, struct svg *s);
	/* `memtop report`: f read against the caches recorded with it (as memtop
	 * levels says it: "sysfs says L1 48 KB: matches"), lines on out, the
	 * verdict a teacher reads beside a student's machine. Returns 0, or -1
	 * when there is nothing to hold it against (no caches recorded). May
	 * be NULL. */
	int (*verdict)(const struct result_file *f, FILE *out);
};

/* For a kind whose reader fills a struct the caller gives (matmul,
 * falseshare, lists, bandwidth, card): a new zeroed result of size bytes,
 * filled by from(root, path, r, e). Returns it, or NULL with e (nothing
 * left allocated). */
void *result_kind_load_into(size_t size, const cJSON *root, const char *path, mt_error *e,
			    int (*from)(const cJSON *root, const char *path, void *r, mt_error *e));

/* The run header of r, a result of any kind (hardware, CPU, date,
 * diagnostics; a file without one gives an empty header): its first field
 * (every result struct starts with `struct run_header hdr`; the macros
 * below check it at compile time). Never NULL for a result. */
const struct run_header *result_kind_header(const void *r);

/* What a kind's file writes the same way for every kind, written once:
 * the typed adapters between a kind's void * callbacks and its result
 * struct TYPE. In the kind's file, at file scope:
 *
 *   RESULT_KIND_TYPED(TYPE, TO) defines `static cJSON *kind_to_json(const
 *     void *r)`, TO((const TYPE *)r), for .to_json, and checks that TYPE
 *     starts with its hdr, so that result_kind_header reads it;
 *   RESULT_KIND_FILLED(TYPE, FROM) defines `static void *kind_load(const
 *     cJSON *root, const char *path, mt_error *e)`: a new zeroed TYPE that
 *     FROM(root, path, TYPE *, e) fills (0, or -1 with e set), through
 *     result_kind_load_into; such a result is freed by free() itself.
 *
 *   RESULT_KIND_MEASURED(TYPE, FN) defines `static size_t
 *     kind_measured(const void *r)`, FN((const TYPE *)r), for .measured.
 *
 *   RESULT_KIND_STRUCT(TYPE, FROM, TO, FN): the three of them, for a kind
 *     whose result is one TYPE, read, written and counted by its own
 *     functions: its initializer's .load = kind_load (or its own around
 *     it), .free = free, .measured = kind_measured, .to_json = kind_to_json.
 *
 * A kind whose result owns more memory (a mountain, a latency run, cores)
 * writes its own load and free around its typed ones. */
#define RESULT_KIND_TYPED(TYPE, TO)                                                         \
	_Static_assert(offsetof(TYPE, hdr) == 0, #TYPE " starts with its run header");      \
	static cJSON *kind_to_json(const void *r)                                           \
	{                                                                                   \
		return TO((const TYPE *)r);                                                 \
	}

#define RESULT_KIND_MEASURED(TYPE, FN)                                                      \
	static size_t kind_measured(const void *r)                                          \
	{                                                                                   \
		return FN((const TYPE *)r);                                                 \
	}

#define RESULT_KIND_FILLED(TYPE, FROM)                                                      \
	_Static_assert(offsetof(TYPE, hdr) == 0, #TYPE " starts with its run header");      \
	static int kind_fill(const cJSON *root, const char *path, void *r, mt_error *e)     \
	{                                                                                   \
		return FROM(root, path, (TYPE *)r, e);                                      \
	}                                                                                   \
	static void *kind_load(const cJSON *root, const char *path, mt_error *e)            \
	{                                                                                   \
		return result_kind_load_into(sizeof(TYPE), root, path, e, kind_fill);       \
	}

#define RESULT_KIND_STRUCT(TYPE, FROM, TO, FN)                                              \
	RESULT_KIND_FILLED(TYPE, FROM)                                                      \
	RESULT_KIND_TYPED(TYPE, TO)                                                         \
	RESULT_KIND_MEASURED(TYPE, FN)

#endif
