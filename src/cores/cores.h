/* cores: core-to-core latency. For each pair of CPUs, two threads pinned one
 * to each ping-pong one cache line with compare-and-swap (as
 * core-to-core-latency and c2clat do): the time a line takes to go from one
 * core to the other and back. One-way = round trip / 2, which is what the
 * matrix, the pairs and the summary hold (and say).
 *
 * Every pair gets fresh lines on fresh pages (mmap per pair, first touched
 * by the first thread after it is pinned: reusing pages gave wrong results
 * on Zen, core-to-core-latency PR #156), each try its own page: a line's
 * home in the L3 (a mesh stop, a slice) follows its physical address, and
 * on the 2-vCPU Sapphire Rapids guest one line's pair time differed from
 * another's by up to 15 %, so a single line made runs disagree by as much;
 * the best of five lines agrees within 3 %. Each thread spins a while after
 * pinning before it measures (c2clat PR #5); a try is a number of samples of
 * round trips, its figure the fastest sample (as c2clat); the pair's figure
 * is the best of its tries, with the spread between tries; a try in which
 * either thread was seen on another CPU (sched_getcpu before and after) is
 * thrown away and counted.
 *
 * Files: cores_plan.c (the CPU list, the pairs, sampling, the relations),
 * cores.c (the ping-pong and the worker), cores_result.c (the result, its
 * summary and JSON), cores_batch.c (`memtop run cores`).
 *
 * Cells the worker streams (JOB_EV_CELL), one per pair of the plan: row =
 * the pair's index in the plan, value = one-way ns (best try), spread =
 * (second best - best) / best, payload struct cores_ev_pair. */
#ifndef MEMTOP_CORES_H
#define MEMTOP_CORES_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "base/util.h"
#include "machine/machine.h"
#include "os/topo.h"
#include "run/job.h"
#include "run/runhdr.h"

#define CORES_MAX_CPUS 4096
#define CORES_SAMPLE_MAX_PAIRS 600 /* a sample of more pairs: a few of each relation */
#define CORES_SAMPLE_PER_REL 48    /* ... this many a relation, spread over the machine */
#define CORES_SAMPLE_ABOVE 32 /* --sample is the default above this many CPUs */
#define CORES_REL_LEN 48
#define CORES_SAID_LEN 320 /* a plan's domains in words, at most */
#define CORES_PLACE_LEN 96

/* Where one CPU sits, as the plan needs it: its core (SMT siblings share
 * one), its group (an L3 group, else a node, else a package) and the words
 * the Cores tab shows for it. -1: not known. */
struct cores_place {
	int cpu, core, group;
	char text[CORES_PLACE_LEN]; /* topo_place_text's "CPU 3: core type P, L3 group 0, ..." or "" */
};

/* One pair of the plan, and its measurement once done. */
struct cores_pair {
	int ia, ib;                 /* indices into cpus[], ia < ib */
	char rel[CORES_REL_LEN];    /* the relation's name from the topology */
	int have;                   /* measured */
	double ns, spread;          /* one-way ns; (second best - best) / best */
	int moved, kept;            /* tries thrown away (a thread moved), kept */
	int have2;                  /* measured again in the second pass */
	double ns2, spread2;        /* the second pass's one-way ns and spread */
	int unsteady;               /* the passes differ by more than the spreads allow
				     * (cores_result_summarise) */
	int smt_like;               /* behaves as SMT siblings though the topology says
				     * otherwise (cores_result_summarise) */
};

/* The second pass: after every pair, up to this many spread over the plan
 * are measured again in reverse order (a host that moves a guest's vCPUs
 * moves their figures); pairs whose passes differ by more than
 * CORES_STEADY or 3 x their spreads are unsteady. */
#define CORES_SECOND_MAX 64
#define CORES_SECOND_QUICK 8
#define CORES_STEADY 0.25
/* A pair "as SMT siblings": at most CORES_SMT_MEDIAN x its relation's
 * median and CORES_SMT_FASTEST x the fastest pair (published matrices put
 * SMT siblings at 4-10 ns, 5-20 x below other cores' pairs). */
#define CORES_SMT_MEDIAN 0.5
#define CORES_SMT_FASTEST 1.5

/* How the line travels: CORES_CAS, one line both threads compare-and-swap
 * (core-to-core-latency's first test, c2clat -w); CORES_RW, each thread
 * stores to its own line and reads the other's (its second test, c2clat's
 * default), so every leg is a store that takes a line back and a load that
 * misses. */
enum cores_method { CORES_CAS = 0, CORES_RW = 1 };

/* "cas" or "rw". */
const char *cores_method_name(int method);

/* The measurement's knobs. */
struct cores_params {
	int method;  /* enum cores_method (CORES_CAS) */
	int tries;   /* best of (5) */
	int samples; /* samples a try (100) */
	int rounds;  /* round trips a sample (100) */
	long warm_ns; /* each thread spins this long after pinning (20 ms) */
	int second;  /* pairs measured again, the second pass, at most (CORES_SECOND_MAX) */
};

/* The defaults above; quick: 2 tries of 20 samples, 5 ms warm-up, a second
 * pass of CORES_SECOND_QUICK pairs. */
void cores_params_default(struct cores_params *p, int quick);

/* The plan: the CPUs and the pairs to measure. */
struct cores_plan {
	struct cores_params p;
	int n;                        /* CPUs */
	int cpus[CORES_MAX_CPUS];     /* ascending */
	char place[CORES_MAX_CPUS][CORES_PLACE_LEN];
	struct cores_pair *pairs;     /* malloc'd */
	size_t npairs;
	int sampled;                  /* pairs chosen by --sample */
	int bounded;                  /* ... a few of each relation (a big machine) */
	char said[CORES_SAID_LEN];    /* the list's domains in words ("S0:0-3 = CPUs
				       * 0,1,2,3"), "" when it names none */
};

/* Parse a CPU list "0-3,8" or "S0:0-3,L3:1" (machine_cpus's grammar,
 * domains resolved on m; m NULL: numbers alone) into cpus (sorted, at most
 * cap); said (may be NULL) gets its domains in words (machine_cpus). Each
 * CPU must be one machine m allows. Returns the count, or -1 with e saying
 * why in words that name the CPU ("CPU 9 is not one this process may run
 * on") or the bad part ("S2: this machine has packages 0 and 1"). */
int cores_parse_cpus(const char *s, const struct machine *m, int *cpus, int cap, char *said,
		     size_t len, mt_error *e);

/* Fill places[0..n) for cpus from topology t (core, group: the L3 group,
 * else the NUMA node, else the package; and words). t NULL, or a CPU t does
 * not know: -1 and "". */
void cores_places(const struct topo *t, const int *cpus, int n, struct cores_place *places);

/* The relation between CPUs a and b in topology ctx (a const struct topo *;
 * NULL: "unknown"), by topo_rel_name ("SMT siblings", "same L3 group", ...,
 * "other socket", "unknown"). */
const char *cores_relation(const void *ctx, int a, int b);

/* Build the plan for places[0..n) (ascending CPUs, n >= 2): every pair
 * (sample 0), or (sample 1) one CPU per core measured against one
 * representative of each group, plus each core's SMT pair; where that is
 * more than CORES_SAMPLE_MAX_PAIRS pairs (hundreds of cores, dozens of
 * groups), up to CORES_SAMPLE_PER_REL pairs of each relation present,
 * spread evenly over the machine, so a big machine is measured in a
 * minute and every relation it has is in the sample. rel(ctx, a, b) names the relation of two CPUs
 * (NULL: cores_relation). Returns 0, or -1 with e (fewer than two CPUs,
 * more than CORES_MAX_CPUS, memory). Free with cores_plan_free. */
int cores_plan_make(struct cores_plan *pl, const struct cores_params *p,
		    const struct cores_place *places, int n, int sample,
		    const char *(*rel)(const void *ctx, int a, int b), const void *ctx, mt_error *e);

/* The Cores recipe, once for the command line and the tab: the CPUs list
 * names (NULL: every CPU machine m allows; of core type kind when kind >=
 * 0), their places from m's topology, and the plan (sample: 1 sampled, 0
 * every pair, -1 sampled above CORES_SAMPLE_ABOVE CPUs). Returns 0, or -1
 * with e (a bad list, fewer than two CPUs, memory). */
int cores_plan_for(struct cores_plan *pl, const struct cores_params *p, const struct machine *m,
		   const char *list, int kind, int sample, mt_error *e);

/* How many pairs the second pass measures again, and the j-th of them
 * (an index into pl->pairs: in reverse order, spread over the plan). */
size_t cores_second_count(const struct cores_plan *pl);
size_t cores_second_pair(const struct cores_plan *pl, size_t j);

/* About how many seconds the plan takes to measure (a pair's warm-up and
 * its tries at a pessimistic 300 ns a round trip). */
double cores_plan_estimate_s(const struct cores_plan *pl);

/* Free what cores_plan_make allocated (the plan stays valid, empty). */
void cores_plan_free(struct cores_plan *pl);

/* One pair measured (no job: no pause or cancel): ping-pong between CPUs a
 * and b with p's tries, samples and rounds, each try on a fresh page. *ns = one-way
 * ns of the best try, *spread, *moved and *kept as in struct cores_pair.
 * job may be NULL; when it is not, job_check() runs between tries and while
 * waiting, and a cancel ends the pair within 100 ms (*cancelled = 1).
 * Returns 0, or -1 with e (thread start, memory, a CPU refused). */
int cores_pingpong(int a, int b, const struct cores_params *p, job_t *job, double *ns,
		   double *spread, int *moved, int *kept, int *cancelled, mt_error *e);

/* The job worker: arg is a struct cores_plan that outlives the job.
 * Returns 0 (also when cancelled), -1 with e. */
int cores_worker(job_t *job, void *arg, mt_error *e);

/* ---- results: one store for `memtop run cores`, the Cores tab, view,
 * compare, plot and import -------------------------------------------- */

/* One line of the summary: the median one-way ns over the measured pairs
 * of one relation. */
struct cores_summary {
	char rel[CORES_REL_LEN];
	double ns;      /* the median of its pairs */
	double lo, hi;  /* its fastest and slowest pair */
	size_t pairs;
};

/* The summary over every measured pair of r ("all pairs": median, fastest,
 * slowest, how many) into out. Returns 0, or -1 out of memory. */
struct cores_result;
int cores_result_overall(const struct cores_result *r, struct cores_summary *out);

struct cores_result {
	struct run_header hdr;
	struct cores_plan plan;        /* CPUs, places and pairs (with their figures) */
	int *at;                       /* n x n: the pair of cpus[i], cpus[j], or -1 */
	struct cores_summary *sum;     /* malloc'd, ascending ns */
	size_t nsum;
	char origin[160];              /* "" measured here; an import says what */
	char source[MT_PATH_MAX];      /* the file it came from, "" when measured */
};

/* A result for plan pl (its pairs copied, none measured; the header left
 * zero). Returns 0, or -1 with e (memory). */
int cores_result_init(struct cores_result *r, const struct cores_plan *pl, mt_error *e);

/* Free what the result holds (it stays valid, empty). */
void cores_result_free(struct cores_result *r);

/* The payload of a pair's cell (run/job.h: JOB_PAYLOAD_PUT/GET). */
struct cores_ev_pair {
	int moved;         /* tries thrown away because a thread moved */
	int kept;          /* tries kept */
};

/* Store one event of the worker (a cell of kind 0: a pair's first pass; 1:
 * its second) and redo the summary and the pairs' flags. Returns 1 when
 * it was a cell of r, else 0. */
int cores_result_apply(struct cores_result *r, const struct job_event *ev);

/* How many pairs were measured twice (CORES_COUNT_SECOND), moved between
 * the passes (CORES_COUNT_UNSTEADY), behave as SMT siblings
 * (CORES_COUNT_SMT_LIKE). */
enum { CORES_COUNT_SECOND, CORES_COUNT_UNSTEADY, CORES_COUNT_SMT_LIKE };
size_t cores_result_count(const struct cores_result *r, int which);

/* Pairs measured. */
size_t cores_result_measured(const struct cores_result *r);

/* Recompute the summary from the measured pairs: one line per relation,
 * the median of its pairs' ns, lines by ascending ns (then name). Returns 0,
 * or -1 out of memory (the summary is then empty). */
int cores_result_summarise(struct cores_result *r);

/* The one-way ns between cpus[i] and cpus[j] (either order), NaN when not
 * measured or i == j. */
double cores_result_ns(const struct cores_result *r, int i, int j);

/* The result as JSON: the run header, "experiment": "cores", "one_way":
 * the sentence, tries, samples, round_trips, sampled, cpus, places,
 * matrix_ns (null: not measured, the diagonal), pairs, summary. NULL when
 * out of memory. */
cJSON *cores_result_to_json(const struct cores_result *r);

/* Whether root is a cores result ("experiment": "cores"). */
int cores_result_is(const cJSON *root);

/* Read a result back (strict: a missing or mistyped field fails with "FILE:
 * FIELD ..."). r is initialised here (free it with cores_result_free, also
 * after a failure). Returns 0, or -1 with e set. */
int cores_result_from_json(const cJSON *root, const char *file, struct cores_result *r,
			   mt_error *e);

/* memtop plot (cores_plot.c): each of in[0..n) (n 1 or 2, cores results) as
 * a heatmap on one colour scale (log, fastest to slowest pair of them all),
 * its summary beside it, into s (svg_begin not yet called). Returns 0, or
 * -1 out of memory. */
struct result_file;
struct svg;
int cores_plot(const struct result_file *in, size_t n, struct svg *s);

/* The core-to-core result's kind (cores_kind.c; run/result_kind.h). */
struct result_kind;
extern const struct result_kind kind_cores;
/* Its batch mode, `memtop run cores` (cores_batch.c), for result/result.c's
 * registry (run/experiment.h). */
struct experiment;
extern const struct experiment exp_cores;

/* The note the worker writes in English (a pair with no try kept), marked
 * for the catalogue: the run and the UI say it in the user's language. */
#define CORES_SAYS_NO_TRY N_("CPUs %d and %d: no try kept (a thread moved in %d of %d)")

#endif
