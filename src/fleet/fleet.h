/* fleet: many machines' results read as one lab or one class (memtop
 * compare --fleet, memtop report). One row a machine (its results of any
 * kinds merged by its name), the headline figures each kind gives
 * (result_kind.figures), the machines grouped by what should make them
 * equal (CPU model, CPUs, memory, cache sizes), per group the median of
 * each figure, and each machine's figure that stands out from its group's
 * median by more than the group's spread flagged with the ratio and a
 * plausible reading. A run that says it was not trustworthy (busy, moved,
 * throttled, not optimized) is marked so and left out of the medians,
 * never flagged as an outlier. A bundled reference (result_entry.ref) is
 * a row labelled as such, in its own group, never counted nor flagged.
 *
 * The spread of a figure in a group is the larger of two robust standard
 * deviations (2 x 1.4826 x the median absolute deviation) and 10 % of the
 * median: two runs of one machine differ by a few per cent, so nothing
 * closer than 10 % is called odd. A group needs 3 trusted values of a
 * figure for a median to stand out from. */
#ifndef MEMTOP_FLEET_H
#define MEMTOP_FLEET_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdio.h>

#include "result/result_set.h"
#include "run/result_kind.h"
#include "run/runhdr.h"

#define FLEET_MAX_RESULTS 200 /* results one command reads at once */
#define FLEET_MAX_COLS 48 /* headline figures across the kinds */
#define FLEET_MIN_GROUP 3 /* trusted values for a median to stand out from */

/* A column: one headline figure of one kind. */
struct fleet_col {
	const struct result_kind *kind;
	char name[48];
	char unit[16];
};

/* What should make two machines equal. Unknowns are 0 / "". */
/* Memory within this fraction is one machine class's (a kernel's reserve
 * and a BIOS's carve-out differ between alike machines). */
#define FLEET_MEM_ALIKE 0.10

struct fleet_id {
	char cpu[160];
	int ncpu;
	double mem_bytes;
	double cache[3]; /* L1d, L2, L3 bytes as the file's first cache source says */
};

struct fleet_machine {
	char name[JSONL_NAME_MAX];  /* its label: its results' name, with its machine id's first
				     * digits where two machines' names are one ("ubuntu#0ff9") */
	char key[JSONL_NAME_MAX];   /* its results' name (result_entry.name) */
	const char *where;          /* its first result's file (and line) */
	const struct run_header *hdr; /* its first result's header */
	const struct run_header *idhdr; /* its first result's that records a machine id; NULL */
	size_t same;                /* the first machine of other names that records its
				     * machine id (itself when none: fleet_same_text) */
	struct fleet_id id;
	double v[FLEET_MAX_COLS];   /* NAN: not measured */
	const struct result_entry *res[16]; /* its results, at most one a kind */
	size_t nres;
	char untrusted[160];        /* "" trusted, else why: "ran busy: load 3.2" (the JSON's) */
	char untrusted_h[320];      /* the same for people: their language and numbers */
	int ref;                    /* a bundled reference: shown, never counted nor flagged */
	size_t group;
};

struct fleet_group {
	char tag[4];           /* "A", "B", ..., "AA" */
	struct fleet_id id;
	int ref;               /* a group of bundled references */
	size_t n, ntrusted;
	double median[FLEET_MAX_COLS]; /* NAN: fewer than FLEET_MIN_GROUP values */
	double spread[FLEET_MAX_COLS];
};

/* A figure that stands out. */
struct fleet_flag {
	size_t machine, col;
	double value, median, ratio;
	char text[400]; /* "DRAM read 0.51x the group's: dimms 4 DIMMs, 128.0 GB where
			 * the group has 8 DIMMs, 256.0 GB (...)", or, nothing recorded
			 * differing, a question: "fewer memory channels ...?" (the JSON's) */
	char text_h[800]; /* the same for people: their language and numbers */
};


struct fleet {
	struct fleet_col col[FLEET_MAX_COLS];
	size_t ncols;
	struct fleet_machine *m;
	size_t n;
	struct fleet_group *g;
	size_t ngroups;
	struct fleet_flag *flag;
	size_t nflags;
};

/* The fleet of the results in s (s must outlive f). A machine is the
 * results of one name (result_entry.name: the host prefix, the file's name
 * without -KIND, the host in memtop-KIND-HOST-DATE.json) and one machine
 * id (run/runhdr.h: results without one join the results of their name):
 * thirty clones named alike are thirty machines, each labelled with its
 * id's first digits; files of different names are different machines even
 * where they record one id, said by fleet_same_text. Machines in order of
 * first appearance, groups in order of their first machine. Returns 0, or
 * -1 with e: out of memory, "lab.jsonl: line 9 (lab03): a second mountain
 * for machine lab03 (its first: lab.jsonl: line 3 (lab03))". */
int fleet_build(struct fleet *f, const struct result_set *s, mt_error *e);

void fleet_free(struct fleet *f);

/* Where machine i is the first of several names that record one machine
 * id: "lab01-latency.json, lab02-bandwidth.json and lab03-cores.json record
 * one machine" (each machine's first file, at most names of them (0: as
 * many as buf holds), the rest counted: "a.json, b.json, c.json and 37
 * more record one machine") into buf, returning 1; else 0 with buf "". */
int fleet_same_text(const struct fleet *f, size_t i, size_t names, char *buf, size_t len);

/* A short words for a group's id: "Intel Xeon Gold 6338; 64 CPUs; 256 GB;
 * L1d 48K L2 1.25M L3 48M" (what is unknown left out). */
void fleet_id_text(const struct fleet_id *id, char *buf, size_t len);

/* A group's line: its machines (or references) and what they share, "20
 * machines: Intel Xeon Gold 6338; 64 CPUs; ..." (fleet_id_text) into buf.
 * Returns buf. */
const char *fleet_group_text(const struct fleet_group *g, char *buf, size_t len);

/* A figure's value in at most 7 characters, by its unit ("48K", "12.3",
 * "1.26"); "-" for NAN. */
const char *fleet_value_text(char *buf, size_t len, double v, const char *unit);

/* Short forms of names[0..n), at most w < 32 characters each, into out,
 * for a fleet's columns and rows: a name that fits as it is, else its first
 * w - 1 characters and '~'; where two differing names would read alike
 * ("local latency" and "local latency, 2 MB pages" both "local l~"), each
 * of them as its start, '~' and its end from where they differ on
 * ("loca~ncy", "l~pages"), so that none reads as another. */
void fleet_short_names(size_t n, const char *const *names, size_t w, char (*out)[32]);

/* The fleet as text on out within 79 columns (fleet_print.c): the groups,
 * the files of other names that record one machine (fleet_same_text), the
 * figures' legend, one row a machine by group in blocks of 7 figures
 * (a '*' beside a figure that stands out, a '!' beside the group of a run
 * not trusted; columns and rows named by fleet_short_names), the groups'
 * medians, then a line for each figure that stands out and each run not
 * trusted. Returns 0, or -1 out of memory. */
int fleet_print(FILE *out, const struct fleet *f);

/* The fleet as one self-contained HTML page on o (report_html.c), titled
 * title: the groups, the sortable table with what stands out, the
 * verdicts, then per machine its details and its kinds' pictures (inline
 * SVG); text from files escaped. Returns 0, or -1 when out of memory or o
 * failed. */
int report_html(FILE *o, const struct fleet *f, const char *title);

/* The grouping as JSON for scripts: {"machines":[{"name","group","where",
 * "machine_id","untrusted","figures":{...}}], "same_machine":[[where,
 * ...]] (fleet_same_text's files), "groups":[{"tag","cpu","cpus",
 * "memory_bytes","caches","machines","medians":{...}}], "flags":[...]}.
 * NULL when out of memory. */
cJSON *fleet_to_json(const struct fleet *f);

#endif
