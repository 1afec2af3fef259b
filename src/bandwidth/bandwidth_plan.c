/* bandwidth_plan: what a bandwidth run measures: sizes (one per cache level
 * and DRAM), thread counts, kernels, and how each thread's arrays are laid
 * out (the CPUs and their placement: bandwidth_cpus.c). See bandwidth.h. */
#include "config.h"

#include "bandwidth_plan.h"
#include "bandwidth_kernels.h"
#include "base/i18n.h"
#include "machine/plan.h"
#include "os/sysinfo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PAGE 4096u
#define MIN_SIZE 4096u
#define MAX_SIZE (64ull << 30)
#define SKEW 1088u /* bytes between arrays beyond their length: 17 lines, so a[i], b[i]
		    * and c[i] never sit at the same offset in a 4 KB page */
#define QUICK_MAX (16ull << 20)

static const double default_delays[] = { 25600, 12800, 6400, 3200, 1600, 800, 400, 200, 100, 0 };
static const double quick_delays[] = { 3200, 400, 0 };

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

/* How many distinct values v[0..n) holds, -1 (not known) not counted. */
static unsigned distinct(const int *v, int n)
{
	unsigned k = 0;
	for (int i = 0; i < n; i++) {
		int first = v[i] >= 0;
		for (int j = 0; j < i && first; j++)
			first = v[j] != v[i];
		k += first;
	}
	return k;
}

/* The thread counts: one, one a package, one a node with CPUs (a
 * memory-only node is no step), one an L3 group, one a core, all (of the
 * CPUs in the plan), with doubling counts between while there is room. */
static void thread_counts(struct bandwidth_params *p, const struct machine *m)
{
	const struct topo *t = m->topo;
	unsigned want[8 + BANDWIDTH_MAX_TLIST], n = 0, all = (unsigned)(p->ncpus > 0 ? p->ncpus : 1);
	unsigned cores = 0, miles;
	if (all > BANDWIDTH_MAX_THREADS)
		all = BANDWIDTH_MAX_THREADS;
	for (int i = 0; i < p->ncpus; i++) {
		int first = 1;
		for (int j = 0; j < i && first; j++)
			first = p->core[i] < 0 || p->core[j] != p->core[i];
		cores += first;
	}
	want[n++] = 1;
	if (t) {
		want[n++] = (unsigned)t->packages;
		want[n++] = distinct(p->node, p->ncpus);
		want[n++] = (unsigned)t->nl3;
	}
	want[n++] = cores;
	want[n++] = all;
	miles = n;
	for (unsigned k = 2; k < all && n < MT_ARRAY_LEN(want); k *= 2)
		want[n++] = k;
	p->nthreads = 0;
	/* the milestones first, then doubling counts while there is room */
	for (unsigned pass = 0; pass < 2; pass++)
		for (unsigned i = pass ? miles : 0; i < (pass ? n : miles); i++) {
			unsigned v = want[i], dup = 0;
			if (v < 1 || v > all || p->nthreads >= BANDWIDTH_MAX_TLIST)
				continue;
			for (size_t k = 0; k < p->nthreads; k++)
				dup |= p->threads[k] == v;
			if (!dup)
				p->threads[p->nthreads++] = v;
		}
	for (size_t i = 1; i < p->nthreads; i++) /* increasing */
		for (size_t j = i; j > 0 && p->threads[j - 1] > p->threads[j]; j--) {
			unsigned x = p->threads[j];
			p->threads[j] = p->threads[j - 1];
			p->threads[j - 1] = x;
		}
}

void bandwidth_use_cpus(struct bandwidth_params *p, const struct machine *m, const int *cpus,
			int n)
{
	p->ncpus = n < BANDWIDTH_MAX_CPUS ? n : BANDWIDTH_MAX_CPUS;
	memcpy(p->cpus, cpus, (size_t)p->ncpus * sizeof *p->cpus);
	bandwidth_place_cpus(p, m);
	bandwidth_order_cpus(p, BANDWIDTH_SPREAD);
	thread_counts(p, m);
	bandwidth_count_groups(p);
}

void bandwidth_params_default(struct bandwidth_params *p, const struct machine *m)
{
	if (!m)
		m = machine_this();
	memset(p, 0, sizeof *p);
	p->isa = bandwidth_isa_best();
	for (int k = 0; k < BANDWIDTH_NTABLE; k++)
		if (bandwidth_kernel_fn(k, p->isa))
			p->kernels[p->nkernels++] = k;
	bandwidth_use_cpus(p, m, m->allowed, m->nallowed);
	p->quota = m->limits.quota;
	p->min_tries = 3;
	p->max_tries = 9;
	p->tolerance = 0.02;
	p->try_ns = 4e6; /* shorter than a busy host's time slice, more often whole */
	p->chase_stride = 128;
	memcpy(p->delays, default_delays, sizeof default_delays);
	p->ndelays = MT_ARRAY_LEN(default_delays);
	p->point_ns = 4e6; /* many short tries: some fall between time slices */
	p->loaded_tries = 15;
}

/* The CPUs the largest thread count of p runs on. */
static int largest_cpus(const struct bandwidth_params *p)
{
	unsigned most = p->nthreads ? p->threads[p->nthreads - 1] : 1;
	return (int)most < p->ncpus ? (int)most : p->ncpus;
}

void bandwidth_params_quick(struct bandwidth_params *p, const struct machine *m)
{
	char a[32], where[16], was[sizeof p->sizes[0].from];
	p->min_tries = 1;
	p->max_tries = 2;
	p->try_ns = 1e6;
	while (p->nthreads > 1 && p->threads[p->nthreads - 1] > 2)
		p->nthreads--;
	for (size_t i = 0; i < p->nsizes; i++) {
		struct bandwidth_size *sz = &p->sizes[i];
		if (sz->bytes <= QUICK_MAX)
			continue;
		sz->bytes = QUICK_MAX;
		mt_fmt_size(a, sizeof a, QUICK_MAX);
		where[0] = '\0';
		if (sz->level[0] && !sz->per_thread && !sz->per_group && m)
			machine_level_name(m, QUICK_MAX, p->cpus, largest_cpus(p), where,
					   sizeof where);
		mt_strlcpy(was, sz->from, sizeof was);
		if (where[0] && strcmp(where, sz->level) != 0) {
			mt_snprintf(sz->from, sizeof sz->from, BANDWIDTH_FROM_CUT_LEVEL, was, a, where,
				    sz->level);
			mt_strlcpy(sz->level, where, sizeof sz->level);
		} else {
			mt_snprintf(sz->from, sizeof sz->from, BANDWIDTH_FROM_CUT, was, a);
		}
	}
	memcpy(p->delays, quick_delays, sizeof quick_delays);
	p->ndelays = MT_ARRAY_LEN(quick_delays);
	p->point_ns = 5e6;
	p->loaded_tries = 3;
	p->chase_bytes = p->loader_bytes = QUICK_MAX;
	bandwidth_count_groups(p);
}

size_t bandwidth_levels_from_info(const struct info *inf, struct bandwidth_level *out, size_t cap)
{
	size_t n = 0;
	for (int level = 1; level <= INFO_MAX_LEVELS && n < cap; level++) {
		const char *from = "";
		uint64_t size = info_best_size(inf, level, &from);
		const struct info_doubt *d;
		if (!size)
			continue;
		d = info_doubt_of(inf, from, level, "data");
		if (!d)
			d = info_doubt_of(inf, from, level, "unified");
		out[n].level = level;
		out[n].size = size;
		mt_strlcpy(out[n].source, from, sizeof out[n].source);
		mt_strlcpy(out[n].doubt, d ? d->why : "", sizeof out[n].doubt);
		n++;
	}
	return n;
}

size_t bandwidth_levels_of(const struct machine *m, struct bandwidth_level *out, size_t cap)
{
	size_t n = 0;
	for (int level = 1; level <= MACHINE_MAX_LEVELS && n < cap; level++) {
		const struct machine_level *lv = &m->lv[level];
		const struct info_doubt *d = NULL;
		const char *from = "";
		uint64_t best;
		if (!lv->claim)
			continue;
		out[n].level = level;
		if (lv->credible) {
			out[n].size = lv->credible;
			mt_strlcpy(out[n].source, lv->credible_from, sizeof out[n].source);
			out[n].doubt[0] = '\0';
			n++;
			continue;
		}
		/* every source doubted: the most trusted one's size, with its doubt */
		best = info_best_size(&m->info, level, &from);
		if (best) {
			d = info_doubt_of(&m->info, from, level, "data");
			if (!d)
				d = info_doubt_of(&m->info, from, level, "unified");
		}
		out[n].size = best ? best : lv->claim;
		mt_strlcpy(out[n].source, best ? from : lv->claim_from, sizeof out[n].source);
		mt_strlcpy(out[n].doubt, d ? d->why : lv->doubt[0] ? lv->doubt : "doubted",
			   sizeof out[n].doubt);
		n++;
	}
	return n;
}

int bandwidth_level_credible(uint64_t size, int ncpus)
{
	return size > 0 && size / (uint64_t)(ncpus > 0 ? ncpus : 1) <= BANDWIDTH_CREDIBLE_PER_CPU;
}

/* Append one sentence to notes when there is room. */
static void add_note(char notes[][BANDWIDTH_NOTE_LEN], int nnotes, int *k, const char *text)
{
	if (*k < nnotes)
		mt_strlcpy(notes[(*k)++], text, BANDWIDTH_NOTE_LEN);
}

/* The DRAM row: at least the machine's DRAM floor for the CPUs of the
 * largest thread count, and BANDWIDTH_DRAM_MIN; at most a quarter of what
 * the memory budget leaves a run (machine_mem_budget: the memory
 * available, the job's cgroup), said in a note when it caps the row. */
static int plan_dram(struct bandwidth_params *p, const struct machine *m,
		     char notes[][BANDWIDTH_NOTE_LEN], int nnotes, int *k, mt_error *e)
{
	struct bandwidth_size *sz = &p->sizes[p->nsizes];
	struct machine_budget b;
	int ncpu = largest_cpus(p);
	uint64_t floor = machine_dram_floor(m, p->cpus, ncpu, sz->from, sizeof sz->from);
	uint64_t want = floor, asked, cap;
	char a[32], b2[32], note[BANDWIDTH_NOTE_LEN], why[sizeof sz->from], was[sizeof sz->from];
	machine_mem_budget(m, &b);
	cap = b.bytes / BANDWIDTH_MEM_SHARE;
	if (!floor)
		mt_strlcpy(sz->from, N_("no cache level known"), sizeof sz->from);
	mt_strlcpy(why, sz->from, sizeof why);
	if (want < BANDWIDTH_DRAM_MIN) {
		want = BANDWIDTH_DRAM_MIN;
		mt_snprintf(sz->from, sizeof sz->from, BANDWIDTH_FROM_RAISED, why,
			    mt_fmt_size(a, sizeof a, want));
		mt_strlcpy(why, N_("its least size"), sizeof why);
	}
	want = (want + (1u << 20) - 1) / (1u << 20) * (1u << 20);
	asked = want;
	mt_strlcpy(sz->level, "DRAM", sizeof sz->level);
	if (b.bytes && want > cap) {
		want = cap / (1u << 20) * (1u << 20);
		if (want < (1u << 20))
			return mt_fail(e, _("not enough memory for the DRAM row: %s"), b.who);
		mt_strlcpy(was, sz->from, sizeof was);
		mt_snprintf(sz->from, sizeof sz->from, BANDWIDTH_FROM_CAPPED, was,
			    mt_fmt_size(a, sizeof a, want),
			    mt_fmt_size(b2, sizeof b2, b.bytes & ~0xfffffull));
		machine_budget_capped(&b, N_("the DRAM row"), want, asked, why, note, sizeof note);
		add_note(notes, nnotes, k, note);
		if (want < floor) {
			machine_level_name(m, want, p->cpus, ncpu, sz->level, sizeof sz->level);
			mt_snprintf(note, sizeof note, BANDWIDTH_NOTE_UNDER,
				    mt_fmt_size(a, sizeof a, want), MACHINE_DRAM_FACTOR,
				    mt_fmt_size(b2, sizeof b2, floor / MACHINE_DRAM_FACTOR),
				    sz->level);
			add_note(notes, nnotes, k, note);
		}
	}
	sz->bytes = want;
	sz->per_thread = sz->per_group = 0;
	p->nsizes++;
	p->chase_bytes = p->loader_bytes = want;
	return 0;
}

/* Why level i of lv gets no row, into note ("" when it gets one). */
static void left_out(const struct bandwidth_level *lv, int online, char *note, size_t len)
{
	char a[32], b[32];
	note[0] = '\0';
	if (lv->doubt[0])
		mt_snprintf(note, len, BANDWIDTH_NOTE_DOUBTED, lv->level,
			    mt_fmt_size(a, sizeof a, lv->size), lv->source, lv->doubt);
	else if (!bandwidth_level_credible(lv->size, online))
		mt_snprintf(note, len, online == 1 ? BANDWIDTH_NOTE_TOO_BIG_1 : BANDWIDTH_NOTE_TOO_BIG,
			    lv->level, mt_fmt_size(a, sizeof a, lv->size), lv->source,
			    mt_fmt_size(b, sizeof b, lv->size / (uint64_t)(online > 0 ? online : 1)),
			    online);
}

int bandwidth_plan_sizes(struct bandwidth_params *p, const struct machine *m,
			 const struct bandwidth_level *given, size_t ngiven, char notes[][BANDWIDTH_NOTE_LEN],
			 int nnotes, mt_error *e)
{
	struct bandwidth_level mine[MACHINE_MAX_LEVELS];
	const struct bandwidth_level *lv = given;
	size_t nlv = ngiven;
	uint64_t last = 0;
	char a[32], note[BANDWIDTH_NOTE_LEN];
	int k = 0, online = m->online > 0 ? m->online : m->nallowed;
	struct machine_budget budget;
	machine_mem_budget(m, &budget);
	if (!given) {
		nlv = bandwidth_levels_of(m, mine, MT_ARRAY_LEN(mine));
		lv = mine;
	}
	p->nsizes = 0;
	for (size_t i = 0; i < nlv && p->nsizes + 1 < BANDWIDTH_MAX_SIZES; i++) {
		struct bandwidth_size *sz = &p->sizes[p->nsizes];
		uint64_t half = lv[i].size / 2 / PAGE * PAGE;
		int shared = lv[i].level <= MACHINE_MAX_LEVELS ? m->lv[lv[i].level].shared
							       : lv[i].level >= 3;
		left_out(&lv[i], online, note, sizeof note);
		if (note[0]) {
			add_note(notes, nnotes, &k, note);
			continue;
		}
		if (half < MIN_SIZE || half <= last ||
		    (budget.bytes && half > budget.bytes / BANDWIDTH_MEM_SHARE))
			continue; /* too small, out of order, or beyond memory: no row */
		memset(sz, 0, sizeof *sz);
		sz->bytes = half;
		sz->per_thread = !shared;
		sz->per_group = shared;
		mt_snprintf(sz->level, sizeof sz->level, "L%d", lv[i].level);
		mt_snprintf(sz->from, sizeof sz->from, BANDWIDTH_FROM_HALF, lv[i].level,
			    mt_fmt_size(a, sizeof a, lv[i].size), lv[i].source,
			    shared ? BANDWIDTH_FROM_GROUP : BANDWIDTH_FROM_THREAD);
		p->nsizes++;
		last = half;
	}
	if (plan_dram(p, m, notes, nnotes, &k, e) < 0)
		return -1;
	return k;
}

int bandwidth_set_sizes(struct bandwidth_params *p, const uint64_t *sizes, size_t n,
			mt_error *e)
{
	if (n == 0 || n > BANDWIDTH_MAX_SIZES)
		return mt_fail(e, "--sizes: 1..%d sizes", BANDWIDTH_MAX_SIZES);
	for (size_t i = 0; i < n; i++) {
		if (sizes[i] < MIN_SIZE || sizes[i] > MAX_SIZE)
			return mt_fail(e, _("--sizes: each size 4K..64G"));
		if (i && sizes[i] <= sizes[i - 1])
			return mt_fail(e, _("--sizes: increasing sizes"));
	}
	for (size_t i = 0; i < n; i++) {
		struct bandwidth_size *sz = &p->sizes[i];
		memset(sz, 0, sizeof *sz);
		sz->bytes = sizes[i] / 8 * 8;
		mt_strlcpy(sz->from, N_("--sizes, all threads"), sizeof sz->from);
	}
	p->nsizes = n;
	if (!p->chase_bytes)
		p->chase_bytes = p->loader_bytes = sizes[n - 1] > BANDWIDTH_DRAM_MIN ? sizes[n - 1] : BANDWIDTH_DRAM_MIN;
	return 0;
}

int bandwidth_parse_threads(const char *s, unsigned *out, size_t cap)
{
	uint64_t v[BANDWIDTH_MAX_TLIST];
	int n = mt_parse_u64_list(s, 1, BANDWIDTH_MAX_THREADS, v, cap < BANDWIDTH_MAX_TLIST ? cap : BANDWIDTH_MAX_TLIST);
	if (n <= 0)
		return -1;
	for (int i = 0; i < n; i++) {
		if (i && v[i] <= v[i - 1])
			return -1;
		out[i] = (unsigned)v[i];
	}
	return n;
}

int bandwidth_parse_kernels(const char *s, int *out, size_t cap, char *bad, size_t len)
{
	char item[32];
	size_t n = 0;
	const char *p = s;
	bad[0] = '\0';
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t l = comma ? (size_t)(comma - p) : strlen(p);
		int k = -1;
		if (l < sizeof item) {
			memcpy(item, p, l);
			item[l] = '\0';
			k = bandwidth_kernel_parse(item);
		}
		for (size_t i = 0; k >= 0 && i < n; i++)
			if (out[i] == k)
				k = -1; /* a repeat */
		if (k < 0 || n == cap) {
			mt_snprintf(bad, len, "%.*s", (int)(l < 64 ? l : 64), p);
			return -1;
		}
		out[n++] = k;
		if (!comma)
			return (int)n;
		p = comma + 1;
	}
}

void bandwidth_layout(int kernel, const struct bandwidth_size *sz, unsigned threads, unsigned groups,
		      struct bandwidth_layout *out)
{
	unsigned arrays = bandwidth_kernel_arrays(kernel);
	uint64_t share = sz->per_thread || threads == 0 ? sz->bytes
			 : sz->per_group ? sz->bytes * (groups ? groups : 1) / threads
					 : sz->bytes / threads;
	size_t n = (size_t)(share / (arrays ? arrays : 1) / sizeof(double));
	size_t astride;
	n -= n % BANDWIDTH_UNROLL;
	if (n < BANDWIDTH_UNROLL)
		n = BANDWIDTH_UNROLL;
	astride = (size_t)round_up(n * sizeof(double), BANDWIDTH_ALIGN) + SKEW;
	memset(out, 0, sizeof *out);
	out->n = n;
	for (unsigned i = 0; i < arrays && i < 3; i++)
		out->array_off[i] = i * astride;
	out->slice_stride = (size_t)round_up((uint64_t)arrays * astride, PAGE);
	out->pass_bytes = bandwidth_kernel_bytes(kernel, n);
}

const char *bandwidth_pages_name(int pages)
{
	static const char *const names[] = { "4k", "huge", "auto" };
	return pages >= 0 && pages < (int)MT_ARRAY_LEN(names) ? names[pages] : NULL;
}

int bandwidth_pages_parse(const char *name)
{
	for (int i = BANDWIDTH_PAGES_4K; i <= BANDWIDTH_PAGES_AUTO; i++)
		if (strcmp(name, bandwidth_pages_name(i)) == 0)
			return i;
	return -1;
}

int bandwidth_pages_used(int asked, const char *thp)
{
	if (asked == BANDWIDTH_PAGES_HUGE)
		return BANDWIDTH_PAGES_HUGE;
	if (asked == BANDWIDTH_PAGES_AUTO && (strcmp(thp, "always") == 0 || strcmp(thp, "madvise") == 0))
		return BANDWIDTH_PAGES_HUGE;
	return BANDWIDTH_PAGES_4K;
}

uint64_t bandwidth_buffer_bytes(const struct bandwidth_params *p)
{
	return (bandwidth_table_bytes(p) + 4096 + MT_HUGE_2M - 1) / MT_HUGE_2M * MT_HUGE_2M;
}

uint64_t bandwidth_table_bytes(const struct bandwidth_params *p)
{
	uint64_t most = 0;
	for (size_t s = 0; s < p->nsizes; s++)
		for (size_t k = 0; k < p->nkernels; k++)
			for (size_t t = 0; t < p->nthreads; t++) {
				struct bandwidth_layout l;
				uint64_t need;
				bandwidth_layout(p->kernels[k], &p->sizes[s], p->threads[t],
						 bandwidth_groups_of(p, p->threads[t]), &l);
				need = (uint64_t)l.slice_stride * p->threads[t];
				if (need > most)
					most = need;
			}
	return most;
}

double bandwidth_estimate_s(const struct bandwidth_params *p)
{
	/* a pass at 10 GB/s beyond the caches, 50 GB/s in them; each cell a
	 * fill, a warm-up and a sizing pass plus its tries */
	double ns = 0, tries = (p->min_tries + p->max_tries) / 2.0 + 2;
	if (p->loaded != 2)
		for (size_t s = 0; s < p->nsizes; s++) {
			double pass = (double)p->sizes[s].bytes / (p->sizes[s].level[0] == 'D' ? 10 : 50);
			ns += (double)(p->nkernels * p->nthreads) * (3 * pass + tries * fmax(pass, p->try_ns));
		}
	if (p->loaded)
		ns += (double)(p->ndelays + 1) * (20e6 + p->loaded_tries * p->point_ns) +
		      (double)p->chase_bytes * 2;
	return ns / 1e9;
}

/* Whether the comma list names level (any case). */
static int list_names(const char *list, const char *level)
{
	size_t len = strlen(level);
	for (const char *w = list; w && *w; w = strchr(w, ',') ? strchr(w, ',') + 1 : NULL)
		if (strncasecmp(w, level, len) == 0 && (w[len] == ',' || w[len] == '\0'))
			return 1;
	return 0;
}

int bandwidth_keep_levels(struct bandwidth_params *p, const char *list, mt_error *e)
{
	size_t kept = 0;
	for (const char *w = list; w; w = strchr(w, ',') ? strchr(w, ',') + 1 : NULL) {
		size_t len = strcspn(w, ",");
		int found = 0;
		for (size_t i = 0; i < p->nsizes && len; i++)
			found |= strlen(p->sizes[i].level) == len &&
				 strncasecmp(w, p->sizes[i].level, len) == 0;
		if (!found) {
			char word[20], raw[20], have[80] = "";
			mt_snprintf(raw, sizeof raw, "%.*s", (int)(len < 19 ? len : 19), w);
			mt_printable(word, sizeof word, raw, 0);
			for (size_t i = 0; i < p->nsizes; i++)
				mt_snprintf(have + strlen(have), sizeof have - strlen(have), "%s%s",
					    i ? ", " : "", p->sizes[i].level[0] ? p->sizes[i].level
										: "a given size");
			return mt_fail(e, _("no level '%s' in the plan (it has %s)"), word, have);
		}
	}
	for (size_t i = 0; i < p->nsizes; i++)
		if (list_names(list, p->sizes[i].level))
			p->sizes[kept++] = p->sizes[i];
	p->nsizes = kept;
	return 0;
}

const char *bandwidth_text(char *out, size_t len, const char *stored)
{
	static const char *const forms[] = { BANDWIDTH_FORMS, MACHINE_FORMS, INFO_FORMS, NULL };
	return mt_gettext_stored(out, len, MT_PRINTABLE(stored), forms);
}

void bandwidth_plan_of(const struct bandwidth_params *p, const char notes[][BANDWIDTH_NOTE_LEN],
		       int nnotes, struct plan *out)
{
	if (p->loaded != 2)
		for (size_t i = 0; i < p->nsizes; i++) {
			const struct bandwidth_size *sz = &p->sizes[i];
			char why[PLAN_NOTE_LEN];
			plan_add_size(out, sz->level, sz->bytes, sz->per_thread, sz->per_group,
				      out->human ? bandwidth_text(why, sizeof why, sz->from)
						 : sz->from);
		}
	for (size_t t = 0; t < p->nthreads; t++) {
		int used = (int)p->threads[t] < p->ncpus ? (int)p->threads[t] : p->ncpus;
		plan_add_threads(out, (int)p->threads[t], p->cpus, used);
		if (p->ncpus > 0 && (int)p->threads[t] > p->ncpus)
			plan_say_n(out,
				   "%u threads on %d CPU: oversubscribed, they take turns on "
				   "them (marked (!) in the table)",
				   "%u threads on %d CPUs: oversubscribed, they take turns on "
				   "them (marked (!) in the table)",
				   (unsigned long)p->ncpus, p->threads[t], p->ncpus);
	}
	for (int i = 0; i < nnotes; i++) {
		char note[PLAN_NOTE_LEN];
		plan_note(out, "%s",
			  out->human ? bandwidth_text(note, sizeof note, notes[i]) : notes[i]);
	}
	if (p->loaded) {
		char a[32];
		plan_say(out, N_("loaded latency: a random chase over %s on CPU %d, %d loaders"),
			  mt_fmt_size(a, sizeof a, p->chase_bytes), p->ncpus > 0 ? p->cpus[0] : -1,
			  p->ncpus - 1);
		if (p->chase_bytes > out->max_size)
			out->max_size = p->chase_bytes;
	}
	out->estimate_s = bandwidth_estimate_s(p);
}
