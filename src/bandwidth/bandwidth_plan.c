/* bandwidth_plan: what a bandwidth run measures: sizes (one per cache level
 * and DRAM), thread counts, kernels, the CPUs and their placement, and how
 * each thread's arrays are laid out. See bandwidth.h. */
#include "config.h"

#include "bandwidth.h"
#include "core/sysinfo.h"

#include <ctype.h>
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

void bandwidth_params_default(struct bandwidth_params *p, const char *sysfs)
{
	int allowed = 0;
	memset(p, 0, sizeof *p);
	p->isa = bandwidth_isa_best();
	for (int k = 0; k < BW_NKERNELS; k++)
		if (bandwidth_kernel_fn(k, p->isa))
			p->kernels[p->nkernels++] = k;
	allowed = mt_allowed_cpus(p->cpus, BW_MAX_CPUS);
	p->ncpus = allowed > 0 ? allowed : 0;
	bandwidth_read_topology(sysfs, p->cpus, p->ncpus, p->core);
	bandwidth_order_cpus(p->cpus, p->core, p->ncpus, BW_SPREAD);
	for (unsigned t = 1; t <= (unsigned)(p->ncpus > 0 ? p->ncpus : 1) &&
			     p->nthreads < BW_MAX_TLIST && t <= BW_MAX_THREADS;
	     t *= 2)
		p->threads[p->nthreads++] = t;
	if (p->ncpus > 0 && p->threads[p->nthreads - 1] != (unsigned)p->ncpus &&
	    p->ncpus <= BW_MAX_THREADS) {
		if (p->nthreads == BW_MAX_TLIST)
			p->nthreads--;
		p->threads[p->nthreads++] = (unsigned)p->ncpus;
	}
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

void bandwidth_params_quick(struct bandwidth_params *p)
{
	char a[32];
	p->min_tries = 1;
	p->max_tries = 2;
	p->try_ns = 1e6;
	while (p->nthreads > 1 && p->threads[p->nthreads - 1] > 2)
		p->nthreads--;
	for (size_t i = 0; i < p->nsizes; i++)
		if (p->sizes[i].bytes > QUICK_MAX) {
			p->sizes[i].bytes = QUICK_MAX;
			mt_append(p->sizes[i].from, sizeof p->sizes[i].from, ", cut to %s by --quick",
				  mt_fmt_size(a, sizeof a, QUICK_MAX));
		}
	memcpy(p->delays, quick_delays, sizeof quick_delays);
	p->ndelays = MT_ARRAY_LEN(quick_delays);
	p->point_ns = 5e6;
	p->loaded_tries = 3;
	p->chase_bytes = p->loader_bytes = QUICK_MAX;
}

size_t bandwidth_levels_from_info(const struct info *inf, struct bw_level *out, size_t cap)
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

int bandwidth_level_credible(uint64_t size, int ncpus)
{
	return size > 0 && size / (uint64_t)(ncpus > 0 ? ncpus : 1) <= BW_CREDIBLE_PER_CPU;
}

/* Append one sentence to notes when there is room. */
static void add_note(char notes[][BW_NOTE_LEN], int nnotes, int *k, const char *text)
{
	if (*k < nnotes)
		mt_strlcpy(notes[(*k)++], text, BW_NOTE_LEN);
}

/* The DRAM row after the largest credible level (0 when none). */
static int plan_dram(struct bandwidth_params *p, uint64_t largest, const char *largest_name,
		     uint64_t avail, char notes[][BW_NOTE_LEN], int nnotes, int *k, mt_error *e)
{
	struct bw_size *sz = &p->sizes[p->nsizes];
	uint64_t want = largest * BW_DRAM_FACTOR, cap = avail / BW_MEM_SHARE;
	char a[32], b[32], note[BW_NOTE_LEN];
	if (largest)
		mt_snprintf(sz->from, sizeof sz->from, "%d x the %s", BW_DRAM_FACTOR, largest_name);
	else
		mt_strlcpy(sz->from, "no cache level known", sizeof sz->from);
	if (want < BW_DRAM_MIN) {
		want = BW_DRAM_MIN;
		mt_append(sz->from, sizeof sz->from, ", raised to %s", mt_fmt_size(a, sizeof a, want));
	}
	if (avail && want > cap) {
		want = cap / (1u << 20) * (1u << 20);
		if (want < (1u << 20))
			return mt_fail(e, "not enough memory for the DRAM row: %s available",
				       mt_fmt_size(a, sizeof a, avail));
		mt_append(sz->from, sizeof sz->from, ", capped at %s (a quarter of the %s available)",
			  mt_fmt_size(a, sizeof a, want), mt_fmt_size(b, sizeof b, avail));
		if (want < largest * BW_DRAM_FACTOR) {
			mt_snprintf(note, sizeof note,
				    "the DRAM row (%s) is less than %d x the largest cache: part of it "
				    "may be served from the cache",
				    mt_fmt_size(a, sizeof a, want), BW_DRAM_FACTOR);
			add_note(notes, nnotes, k, note);
		}
	}
	sz->bytes = want;
	sz->per_thread = 0;
	mt_strlcpy(sz->level, "DRAM", sizeof sz->level);
	p->nsizes++;
	p->chase_bytes = p->loader_bytes = want;
	return 0;
}

int bandwidth_plan_sizes(struct bandwidth_params *p, const struct bw_level *lv, size_t nlv,
			 int online, uint64_t avail, char notes[][BW_NOTE_LEN], int nnotes, mt_error *e)
{
	uint64_t largest = 0, last = 0;
	char largest_name[64] = "", a[32], b[32], note[BW_NOTE_LEN];
	int k = 0;
	p->nsizes = 0;
	for (size_t i = 0; i < nlv && p->nsizes + 1 < BW_MAX_SIZES; i++) {
		struct bw_size *sz = &p->sizes[p->nsizes];
		uint64_t half = lv[i].size / 2 / PAGE * PAGE;
		if (lv[i].doubt[0]) {
			mt_snprintf(note, sizeof note, "L%d %s (%s) left out, memtop info doubts it: %s",
				    lv[i].level, mt_fmt_size(a, sizeof a, lv[i].size), lv[i].source,
				    lv[i].doubt);
			add_note(notes, nnotes, &k, note);
			continue;
		}
		if (!bandwidth_level_credible(lv[i].size, online)) {
			mt_snprintf(note, sizeof note,
				    "L%d %s (%s) left out: %s a CPU on %d CPU%s is more than any "
				    "cache holds; --sizes measures a size you choose",
				    lv[i].level, mt_fmt_size(a, sizeof a, lv[i].size), lv[i].source,
				    mt_fmt_size(b, sizeof b, lv[i].size / (uint64_t)(online > 0 ? online : 1)),
				    online, online == 1 ? "" : "s");
			add_note(notes, nnotes, &k, note);
			continue;
		}
		if (half < MIN_SIZE || half <= last || (avail && half > avail / BW_MEM_SHARE))
			continue; /* too small, out of order, or beyond memory: no row */
		sz->bytes = half;
		sz->per_thread = lv[i].level <= 2;
		mt_snprintf(sz->level, sizeof sz->level, "L%d", lv[i].level);
		mt_snprintf(sz->from, sizeof sz->from, "half the L%d %s (%s)%s", lv[i].level,
			    mt_fmt_size(a, sizeof a, lv[i].size), lv[i].source,
			    sz->per_thread ? ", each thread" : ", all threads");
		p->nsizes++;
		last = half;
		if (lv[i].size > largest) {
			largest = lv[i].size;
			mt_snprintf(largest_name, sizeof largest_name, "L%d %s (%s)", lv[i].level,
				    mt_fmt_size(a, sizeof a, lv[i].size), lv[i].source);
		}
	}
	if (plan_dram(p, largest, largest_name, avail, notes, nnotes, &k, e) < 0)
		return -1;
	return k;
}

int bandwidth_set_sizes(struct bandwidth_params *p, const uint64_t *sizes, size_t n,
			mt_error *e)
{
	if (n == 0 || n > BW_MAX_SIZES)
		return mt_fail(e, "--sizes: 1..%d sizes", BW_MAX_SIZES);
	for (size_t i = 0; i < n; i++) {
		if (sizes[i] < MIN_SIZE || sizes[i] > MAX_SIZE)
			return mt_fail(e, "--sizes: each size 4K..64G");
		if (i && sizes[i] <= sizes[i - 1])
			return mt_fail(e, "--sizes: increasing sizes");
	}
	for (size_t i = 0; i < n; i++) {
		struct bw_size *sz = &p->sizes[i];
		memset(sz, 0, sizeof *sz);
		sz->bytes = sizes[i] / 8 * 8;
		mt_strlcpy(sz->from, "--sizes, all threads", sizeof sz->from);
	}
	p->nsizes = n;
	if (!p->chase_bytes)
		p->chase_bytes = p->loader_bytes = sizes[n - 1] > BW_DRAM_MIN ? sizes[n - 1] : BW_DRAM_MIN;
	return 0;
}

int bandwidth_parse_threads(const char *s, unsigned *out, size_t cap)
{
	uint64_t v[BW_MAX_TLIST];
	int n = mt_parse_u64_list(s, 1, BW_MAX_THREADS, v, cap < BW_MAX_TLIST ? cap : BW_MAX_TLIST);
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

/* The first CPU of a list such as "0-1", "0,64", "3"; -1 when it does not parse. */
static int first_cpu(const char *text)
{
	char *end;
	long v;
	while (isspace((unsigned char)*text))
		text++;
	if (!isdigit((unsigned char)*text))
		return -1;
	v = strtol(text, &end, 10);
	return v >= 0 && v < 1 << 20 ? (int)v : -1;
}

int bandwidth_read_topology(const char *root, const int *cpus, int n, int *core)
{
	static const char *const files[] = { "core_cpus_list", "thread_siblings_list" };
	int found = 0;
	if (!root)
		root = "/sys/devices/system/cpu";
	for (int i = 0; i < n; i++) {
		core[i] = -1;
		for (size_t f = 0; f < MT_ARRAY_LEN(files) && core[i] < 0; f++) {
			char path[512];
			char *text;
			mt_snprintf(path, sizeof path, "%s/cpu%d/topology/%s", root, cpus[i], files[f]);
			text = mt_read_file(path, 4096, NULL, NULL);
			if (text)
				core[i] = first_cpu(text);
			free(text);
		}
		found += core[i] >= 0;
	}
	return found;
}

struct cpu_key {
	int cpu, core;
	long key;
};

static int cmp_key(const void *pa, const void *pb)
{
	const struct cpu_key *a = pa, *b = pb;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->cpu > b->cpu) - (a->cpu < b->cpu);
}

void bandwidth_order_cpus(int *cpus, int *core, int n, int how)
{
	/* spread: the key is how many CPUs of the same core come before this one
	 * (0 for a core's first CPU); compact: the core itself. Ties by CPU. */
	struct cpu_key *k = n > 0 ? malloc((size_t)n * sizeof *k) : NULL;
	if (!k)
		return; /* out of memory: the order stays ascending as given */
	for (int i = 0; i < n; i++) {
		k[i].cpu = cpus[i];
		k[i].core = core[i];
		k[i].key = 0;
		if (how == BW_COMPACT)
			k[i].key = core[i] >= 0 ? core[i] : cpus[i];
		else
			for (int m = 0; m < n; m++)
				k[i].key += core[i] >= 0 && core[m] == core[i] && cpus[m] < cpus[i];
	}
	qsort(k, (size_t)n, sizeof *k, cmp_key);
	for (int i = 0; i < n; i++) {
		cpus[i] = k[i].cpu;
		core[i] = k[i].core;
	}
	free(k);
}

int bandwidth_set_cpus(struct bandwidth_params *p, const int *list, int n, const int *allowed,
		       int nallowed, const char *sysfs, mt_error *e)
{
	if (n <= 0 || n > BW_MAX_CPUS)
		return mt_fail(e, "--cpus: 1..%d CPUs", BW_MAX_CPUS);
	for (int i = 0; i < n; i++) {
		int ok = 0;
		for (int j = 0; j < nallowed && !ok; j++)
			ok = allowed[j] == list[i];
		if (!ok)
			return mt_fail(e, "--cpus: CPU %d is not one this process may use", list[i]);
		for (int j = 0; j < i; j++)
			if (list[j] == list[i])
				return mt_fail(e, "--cpus: CPU %d given twice", list[i]);
	}
	memcpy(p->cpus, list, (size_t)n * sizeof *list);
	p->ncpus = n;
	bandwidth_read_topology(sysfs, p->cpus, n, p->core);
	return 0;
}

int bandwidth_placement(const struct bandwidth_params *p, unsigned threads, char *buf,
			size_t len)
{
	int used = (int)threads < p->ncpus ? (int)threads : p->ncpus, shared = 0, unknown = 0;
	if (p->ncpus <= 0) {
		mt_snprintf(buf, len, "not pinned (CPUs unknown)");
		return 0;
	}
	if ((int)threads > p->ncpus) {
		mt_snprintf(buf, len, "%u threads on %d CPU%s: oversubscribed", threads, p->ncpus,
			    p->ncpus == 1 ? "" : "s");
		return 1;
	}
	mt_snprintf(buf, len, "CPU%s ", used == 1 ? "" : "s");
	for (int i = 0; i < used; i++) {
		mt_append(buf, len, "%s%d", i ? "," : "", p->cpus[i]);
		unknown += p->core[i] < 0;
		for (int j = 0; j < i; j++)
			shared += p->core[i] >= 0 && p->core[j] == p->core[i];
	}
	if (used == 1)
		return 0;
	if (shared)
		mt_append(buf, len, ": %d pair%s of SMT siblings", shared, shared == 1 ? "" : "s");
	else if (unknown)
		mt_append(buf, len, ": cores unknown (no topology)");
	else
		mt_append(buf, len, ": separate cores");
	return 0;
}

void bandwidth_layout(int kernel, const struct bw_size *sz, unsigned threads,
		      struct bw_layout *out)
{
	unsigned arrays = bandwidth_kernel_arrays(kernel);
	uint64_t share = sz->per_thread || threads == 0 ? sz->bytes : sz->bytes / threads;
	size_t n = (size_t)(share / (arrays ? arrays : 1) / sizeof(double));
	size_t astride;
	n -= n % BW_UNROLL;
	if (n < BW_UNROLL)
		n = BW_UNROLL;
	astride = (size_t)round_up(n * sizeof(double), BW_ALIGN) + SKEW;
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
	for (int i = BW_PAGES_4K; i <= BW_PAGES_AUTO; i++)
		if (strcmp(name, bandwidth_pages_name(i)) == 0)
			return i;
	return -1;
}

int bandwidth_pages_used(int asked, const char *thp)
{
	if (asked == BW_PAGES_HUGE)
		return BW_PAGES_HUGE;
	if (asked == BW_PAGES_AUTO && (strcmp(thp, "always") == 0 || strcmp(thp, "madvise") == 0))
		return BW_PAGES_HUGE;
	return BW_PAGES_4K;
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
				struct bw_layout l;
				uint64_t need;
				bandwidth_layout(p->kernels[k], &p->sizes[s], p->threads[t], &l);
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
			return mt_fail(e, "no level '%s' in the plan (it has %s)", word, have);
		}
	}
	for (size_t i = 0; i < p->nsizes; i++)
		if (list_names(list, p->sizes[i].level))
			p->sizes[kept++] = p->sizes[i];
	p->nsizes = kept;
	return 0;
}
