/* latency_report: the levels latency_detect() read, as text, as JSON, and
 * held against the cache sizes the system reports (latency.h). */
#include "config.h"

#include "latency.h"
#include "base/i18n.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define AGREE_FACTOR 2.0  /* a level and a reported size within 2x are the same cache */
#define MAX_REPORTED 4    /* reported levels L1..L4 */
#define MEMORY_RISES 1.25 /* say where the curve ends when it has risen this much */
#define TLB_REACH_LO (4ull << 20)  /* second-level TLBs reach 1024..4096 4 KB pages */
#define TLB_REACH_HI (16ull << 20)

/* "48 KB", "1 MB", "1.25 MB", "3.5 KB", for people (their units and
 * decimal separator: "1,25 МБ") */
static const char *fmt_bytes(char *buf, size_t len, uint64_t b)
{
	if (b >= (1u << 20) && b % (1u << 20) == 0)
		mt_hsnprintf(buf, len, _("%llu MB"), (unsigned long long)(b >> 20));
	else if (b >= (1u << 20))
		mt_hsnprintf(buf, len, _("%.2f MB"), (double)b / (1 << 20));
	else if (b >= 1024 && b % 1024 == 0)
		mt_hsnprintf(buf, len, _("%llu KB"), (unsigned long long)(b >> 10));
	else if (b >= 1024)
		mt_hsnprintf(buf, len, _("%.1f KB"), (double)b / 1024);
	else
		mt_hsnprintf(buf, len, _("%llu B"), (unsigned long long)b);
	return buf;
}

/* v with three significant digits, as the seed prints small ones: "4.20",
 * "55.7", "512" (a figure read off points that span 10x has no more), in
 * the user's decimal separator. */
static const char *sig3(char *buf, size_t len, double v)
{
	double a = fabs(v);
	mt_hnum(buf, len, v, a >= 99.95 ? 0 : a >= 9.995 ? 1 : 2);
	return buf;
}

/* The count that picks a form for a number of cycles as sig3 writes it: a
 * whole number itself, a fraction as 2 (English "cycles"; Russian takes
 * the genitive singular after a fraction, "4,20 такта", 2's form). */
static unsigned long cycles_form(double cycles)
{
	return fabs(cycles) >= 99.95 ? (unsigned long)llround(fabs(cycles)) : 2;
}

/* "4.20 cycles (1.23 ns)", "512 cycles (148 ns)", "1.23 ns", "+2.50 ns over L1" */
static void fmt_latency(char *buf, size_t len, double cycles, double ns, int over_l1, int added)
{
	const char *plus = added || over_l1 ? "+" : "";
	char c[32], n[32];
	if (over_l1)
		mt_snprintf(buf, len, _("%s%s ns over L1"), plus, sig3(n, sizeof n, ns));
	else if (cycles > 0)
		/* TRANSLATORS: a latency, "+4.20 cycles (1.23 ns)": a fraction of a
		 * cycle takes the genitive singular (4,20 такта) */
		mt_snprintf(buf, len,
			    MT_NGETTEXT("%s%s cycle (%s ns)", "%s%s cycles (%s ns)",
					cycles_form(cycles)),
			    plus, sig3(c, sizeof c, cycles), sig3(n, sizeof n, ns));
	else
		mt_snprintf(buf, len, _("%s%s ns"), plus, sig3(n, sizeof n, ns));
}

static void way_text(const struct latency_level *l, char *buf, size_t len)
{
	char a[32], b[32];
	char c[32];
	unsigned long long lo, hi;
	if (!l->way_min || !l->way_max) {
		mt_snprintf(buf, len, "%s", _("not measurable here"));
	} else if (l->way_min == l->way_max && l->partial && l->step_end > l->size &&
		   l->step_end - l->size <= l->way_min) {
		/* the step is half done at step_end: the size, and so the ways, one
		 * way apart */
		lo = l->size / l->way_min;
		hi = l->step_end / l->way_min;
		mt_snprintf(buf, len,
			    MT_NGETTEXT("%s (%llu..%llu ways: the step lies between %s and %s)",
					"%s (%llu..%llu ways: the step lies between %s and %s)", hi),
			    fmt_bytes(a, sizeof a, l->way_min), lo, hi, fmt_bytes(b, sizeof b, l->size),
			    fmt_bytes(c, sizeof c, l->step_end));
	} else if (l->way_min == l->way_max) {
		hi = l->size / l->way_min;
		mt_snprintf(buf, len, MT_NGETTEXT("%s (%llu ways)", "%s (%llu ways)", hi),
			    fmt_bytes(a, sizeof a, l->way_min), hi);
	} else {
		lo = l->size / l->way_max;
		hi = l->size / l->way_min;
		mt_snprintf(buf, len, MT_NGETTEXT("%s..%s (%llu..%llu ways)", "%s..%s (%llu..%llu ways)", hi),
			    fmt_bytes(a, sizeof a, l->way_min), fmt_bytes(b, sizeof b, l->way_max), lo,
			    hi);
	}
}

void latency_level_text(const struct latency_level *l, int over_l1, char *buf, size_t len)
{
	char s[32], lat[96], way[192];
	if (l->tlb) {
		fmt_latency(lat, sizeof lat, l->cycles, l->ns, 0, 1);
		if (l->way_min && l->way_max) /* the seed prints a TLB's way in pages */
			mt_snprintf(way, sizeof way,
				    MT_NGETTEXT("min. %llu, max. %llu pages", "min. %llu, max. %llu pages",
						l->way_max / LATENCY_PAGE),
				    (unsigned long long)(l->way_min / LATENCY_PAGE),
				    (unsigned long long)(l->way_max / LATENCY_PAGE));
		else
			mt_strlcpy(way, _("not measurable here"), sizeof way);
		mt_snprintf(buf, len,
			    MT_NGETTEXT("TLB%d size: %llu entries (%s of 4 KB pages), latency: %s a "
					"miss, way size: %s",
					"TLB%d size: %llu entries (%s of 4 KB pages), latency: %s a "
					"miss, way size: %s",
					l->entries),
			    l->level, (unsigned long long)l->entries, fmt_bytes(s, sizeof s, l->size),
			    lat, way);
		return;
	}
	fmt_latency(lat, sizeof lat, l->cycles, l->ns, over_l1, 0);
	way_text(l, way, sizeof way);
	mt_snprintf(buf, len, _("L%d size: %s, latency: %s, way size: %s"), l->level,
		    fmt_bytes(s, sizeof s, l->size), lat, way);
}

/* Bits set in v. */
static int popcount(unsigned v)
{
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

/* What a memory latency includes, in words. */
static const char *walks_text(int walks)
{
	switch (walks) {
	/* the JSON's words (data); translated where they are shown */
	case LATENCY_WALKS_INCLUDED: return N_("4 KB pages: page walks included");
	case LATENCY_WALKS_HUGE: return N_("huge pages: without most page walks");
	case LATENCY_WALKS_LOCAL: return N_("TLB-local groups: without page walks");
	default: return N_("pages not stated: page walks may be included");
	}
}

/* ---- JSON ------------------------------------------------------------------ */

static cJSON *level_json(const struct latency_level *l)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "level", l->level);
	cJSON_AddNumberToObject(o, "size", (double)l->size);
	cJSON_AddNumberToObject(o, "ns", round(l->ns * 1000) / 1000);
	if (l->cycles > 0)
		cJSON_AddNumberToObject(o, "cycles", round(l->cycles * 100) / 100);
	cJSON_AddBoolToObject(o, "tlb", l->tlb != 0);
	if (l->tlb) {
		cJSON_AddNumberToObject(o, "entries", (double)l->entries);
		cJSON_AddStringToObject(o, "told_by",
					l->tlb == LATENCY_TLB_PAGES	  ? "4 KB pages slower than huge pages"
					: l->tlb == LATENCY_TLB_WALK ? "a page walk's added constant on 4 KB pages"
								  : "added latency in proportion to the stride");
	}
	if (l->way_min && l->way_max) {
		cJSON_AddNumberToObject(o, "way_min", (double)l->way_min);
		cJSON_AddNumberToObject(o, "way_max", (double)l->way_max);
	}
	if (l->missing)
		cJSON_AddNumberToObject(o, "strides_too_short", (double)popcount(l->missing));
	if (l->inconsistent)
		cJSON_AddTrueToObject(o, "strides_inconsistent");
	if (l->partial)
		cJSON_AddTrueToObject(o, "step_partial");
	cJSON_AddNumberToObject(o, "step_end", (double)l->step_end);
	if (!l->tlb) {
		cJSON_AddStringToObject(o, "read_from", l->from_random ? "random" : "fixed");
		cJSON_AddNumberToObject(o, "strides_showing", l->nstrides);
	}
	return o;
}

/* A figure rounded to 0.01 as JSON, null when not known. */
static cJSON *ns_or_null(double ns)
{
	return isfinite(ns) ? cJSON_CreateNumber(round(ns * 100) / 100) : cJSON_CreateNull();
}

/* "page_walks": {"levels":[{"level","ns"}...],"memory_ns","last_size",
 * "last_ns"}: what walks add on 4 KB pages. Returns 0, or -1 out of memory. */
static int walks_json(const struct latency_levels *lv, cJSON *root)
{
	cJSON *w = cJSON_AddObjectToObject(root, "page_walks"), *a, *o;
	if (!w || !(a = cJSON_AddArrayToObject(w, "levels")))
		return -1;
	for (size_t i = 0; i < lv->n; i++) {
		if (lv->lv[i].tlb)
			continue;
		if (!(o = cJSON_CreateObject()))
			return -1;
		cJSON_AddItemToArray(a, o);
		cJSON_AddNumberToObject(o, "level", lv->lv[i].level);
		cJSON_AddItemToObject(o, "ns", ns_or_null(lv->walk_ns[i]));
	}
	cJSON_AddItemToObject(w, "memory_ns", ns_or_null(lv->memory_walk_ns));
	cJSON_AddNumberToObject(w, "last_size", (double)lv->last_size);
	cJSON_AddItemToObject(w, "last_ns", ns_or_null(lv->last_walk_ns));
	return 0;
}

int latency_levels_to_json(const struct latency_levels *lv, cJSON *root)
{
	cJSON *a = cJSON_AddArrayToObject(root, "levels"), *m;
	if (!a)
		return -1;
	for (size_t i = 0; i < lv->n; i++) {
		cJSON *o = level_json(&lv->lv[i]);
		if (!o)
			return -1;
		cJSON_AddItemToArray(a, o);
	}
	if (lv->has_memory) {
		if (!(m = cJSON_AddObjectToObject(root, "memory")))
			return -1;
		cJSON_AddNumberToObject(m, "from", (double)lv->memory_from);
		cJSON_AddNumberToObject(m, "ns", round(lv->memory_ns * 100) / 100);
		cJSON_AddNumberToObject(m, "last_size", (double)lv->memory_last_size);
		cJSON_AddNumberToObject(m, "last_ns", round(lv->memory_last_ns * 100) / 100);
		if (lv->memory_cycles > 0)
			cJSON_AddNumberToObject(m, "cycles", round(lv->memory_cycles * 100) / 100);
		cJSON_AddNumberToObject(m, "at", (double)lv->memory_at);
		cJSON_AddNumberToObject(m, "to", (double)lv->memory_to);
		cJSON_AddNumberToObject(m, "points", (double)lv->memory_points);
		cJSON_AddNumberToObject(m, "ns_lo", round(lv->memory_lo_ns * 100) / 100);
		cJSON_AddNumberToObject(m, "ns_hi", round(lv->memory_hi_ns * 100) / 100);
		cJSON_AddStringToObject(m, "includes", walks_text(lv->memory_walks));
	}
	if (lv->memory_unreached) {
		if (!(m = cJSON_AddObjectToObject(root, "memory_not_reached")))
			return -1;
		cJSON_AddNumberToObject(m, "last_level_from", (double)lv->memory_from);
		cJSON_AddNumberToObject(m, "last_level_ns", round(lv->memory_ns * 100) / 100);
		cJSON_AddNumberToObject(m, "curve_ends", (double)lv->last_size);
		cJSON_AddBoolToObject(m, "rising", lv->memory_rising != 0);
		cJSON_AddNumberToObject(m, "ns_lo", round(lv->memory_lo_ns * 100) / 100);
		cJSON_AddNumberToObject(m, "ns_hi", round(lv->memory_hi_ns * 100) / 100);
	}
	if (lv->has_walks && walks_json(lv, root) < 0)
		return -1;
	if (lv->over_l1 && !cJSON_AddTrueToObject(root, "levels_ns_over_l1"))
		return -1;
	return cJSON_AddStringToObject(root, "levels_read_from", lv->curve) ? 0 : -1;
}

/* ---- against the reported sizes ---------------------------------------------- */

/* The reported level each found cache level is: in order, but past a
 * reported level more than AGREE_FACTOR below it (a curve that shows no
 * L2 step has its second level at the L3). */
static void reported_levels(const struct latency_levels *lv, const struct info *inf, int *ref)
{
	int k = 1;
	for (size_t i = 0; i < lv->n; i++) {
		if (lv->lv[i].tlb)
			continue;
		while (k < MAX_REPORTED && info_best_size(inf, k, NULL) &&
		       (double)lv->lv[i].size > AGREE_FACTOR * (double)info_best_size(inf, k, NULL) &&
		       info_best_size(inf, k + 1, NULL))
			k++;
		ref[i] = k++;
	}
}

/* What the most trusted source says about cache level l, which is its
 * level k: the same size within AGREE_FACTOR, or for the last cache level
 * a larger one this is the effective part of, or another size. */
static void against_info(FILE *f, const struct latency_level *l, int k, int last,
			 const struct info *inf)
{
	char a[96], b[32];
	const char *from = "";
	uint64_t ref = info_best_size(inf, k, &from);
	if (!ref) {
		fprintf(f, _("   no source reports an L%d\n"), k);
		return;
	}
	fmt_bytes(a, sizeof a, ref);
	if (info_doubt_of(inf, from, k, "unified") || info_doubt_of(inf, from, k, "data"))
		/* TRANSLATORS: after a cache size a source reports, "48 KB (doubtful)" */
		mt_append(a, sizeof a, _(" (doubtful)"));
	/* TRANSLATORS: the first %s is a source's name (sysfs, lscpu, CPUID...) */
	if (fabs(log((double)ref / (double)l->size)) <= log(AGREE_FACTOR) + 1e-9)
		fprintf(f, _("   %s says L%d %s: matches\n"), from, k, a);
	else if (last && (double)ref > AGREE_FACTOR * (double)l->size)
		fprintf(f, _("   %s says L%d %s: effective ~%s of it here (shared with other cores "
			     "or guests, or misreported)\n"),
			from, k, a, fmt_bytes(b, sizeof b, l->size));
	else
		fprintf(f, _("   %s says L%d %s: the curve's step is at %s\n"), from, k, a,
			fmt_bytes(b, sizeof b, l->size));
}

/* A cache level read on 4 KB pages alone at the reach of a second-level
 * TLB (a power of two from TLB_REACH_LO to TLB_REACH_HI: 1024 to 4096
 * pages, the sizes such TLBs have) may be the TLB's step: said, with what
 * tells them apart. */
static void print_tlb_reach(FILE *f, const struct latency_levels *lv,
			    const struct latency_level *l)
{
	char a[32];
	for (size_t i = 0; i < lv->n; i++)
		if (lv->lv[i].tlb == LATENCY_TLB_WALK)
			return; /* the walk's step is told already: this one multiplied */
	if (l->walks_from)
		return; /* told: the walks begin at walks_from, this level is read past them */
	if (!lv->small_pages_only || l->level < 2 || l->size < TLB_REACH_LO ||
	    l->size > TLB_REACH_HI || (l->size & (l->size - 1)))
		return;
	fprintf(f, _("   %s is the reach of %llu 4 KB pages, as a second-level TLB's: on 4 KB "
		     "pages alone this step may be the TLB's (a run with --hugepages both tells "
		     "them apart)\n"),
		fmt_bytes(a, sizeof a, l->size), (unsigned long long)(l->size / LATENCY_PAGE));
}

/* Seed 002's two warnings, where the data is too thin or disagrees: the
 * fixed strides that end before twice the level's size ("missing
 * results"), and strides that disagree on its way size ("inconsistent
 * results"). */
static void print_thin(FILE *f, const struct latency_level *l, const unsigned *strides,
		       size_t nstrides)
{
	char list[160] = "", a[32];
	if (l->missing) {
		for (size_t k = 0; k < nstrides && k < 8 * sizeof l->missing; k++)
			if (l->missing & (1u << k))
				mt_append(list, sizeof list, "%s%u", list[0] ? ", " : "", strides[k]);
		fprintf(f,
			MT_NGETTEXT("   missing results: stride %s ends before %s: too thin to read "
				    "this level's way from them (a larger --max-size)\n",
				    "   missing results: strides %s end before %s: too thin to read "
				    "this level's way from them (a larger --max-size)\n",
				    popcount(l->missing)),
			list, fmt_bytes(a, sizeof a, 2 * l->size));
	}
	if (l->inconsistent)
		fprintf(f, _("   inconsistent results: the strides disagree on the way size; "
			     "not given (measure again on a quieter machine)\n"));
}

#define WALK_SEEN 0.05 /* a walk's cost under this share of the level's latency is the
			* two curves' noise (they ran minutes apart on a shared host) */

/* A walk's cost in a level whose latency is level_ns, as said: "+0.31 ns"
 * (at most three digits), "~0" under WALK_SEEN of the level's latency or
 * below zero, "-" where not known. */
static void fmt_walk(char *buf, size_t len, double ns, double level_ns)
{
	if (!isfinite(ns))
		mt_snprintf(buf, len, "-");
	else if (ns < WALK_SEEN * level_ns || ns < 0.01)
		mt_snprintf(buf, len, "~0");
	else
		mt_hsnprintf(buf, len, _("+%.*f ns"), ns >= 10 ? 0 : ns >= 1 ? 1 : 2, ns);
}

/* Both page sizes: what the walks add on 4 KB pages, level by level; on a
 * VM (inf says so) why they cost more there. */
static void print_walks(FILE *f, const struct latency_levels *lv, const struct info *inf)
{
	char line[320] = "", w[32], a[32];
	if (!lv->has_walks)
		return;
	for (size_t i = 0; i < lv->n; i++) {
		if (lv->lv[i].tlb)
			continue;
		fmt_walk(w, sizeof w, lv->walk_ns[i], lv->lv[i].ns);
		mt_append(line, sizeof line, "%sL%d %s", line[0] ? ", " : "", lv->lv[i].level, w);
	}
	if (lv->has_memory) {
		fmt_walk(w, sizeof w, lv->memory_walk_ns, lv->memory_ns);
		/* TRANSLATORS: a list's next item, "L2 +0.31 ns, memory +5.2 ns" */
		mt_append(line, sizeof line, _("%smemory %s"), line[0] ? ", " : "", w);
	}
	fmt_walk(w, sizeof w, lv->last_walk_ns, lv->memory_last_ns);
	if (inf && inf->hypervisor)
		fprintf(f, _("Page walks: on 4 KB pages a load also walks the page tables once past "
			     "the TLBs' reach: %s, %s at %s (the 4 KB-page chase less the huge-page "
			     "one; in this VM each walk is two-dimensional: the guest's tables "
			     "through the host's)\n"),
			line, w, fmt_bytes(a, sizeof a, lv->last_size));
	else
		fprintf(f, _("Page walks: on 4 KB pages a load also walks the page tables once past "
			     "the TLBs' reach: %s, %s at %s (the 4 KB-page chase less the huge-page "
			     "one)\n"),
			line, w, fmt_bytes(a, sizeof a, lv->last_size));
}

/* Memory's line: where the curve ends inside a level (not settled, or
 * faster than memory), or memory's latency over its window. */
static void print_memory(FILE *f, const struct latency_levels *lv)
{
	char a[32], b[32], lat[96];
	if (lv->memory_rising) {
		const char *pl = lv->over_l1 ? "+" : "";
		if (lv->memory_ref_ns > 0)
			mt_hfprintf(f, _("The curve ends at %s inside a level: from %s it reads "
					 "%s%.0f..%s%.0f ns and has not settled (no last octave within "
					 "%.0f %%; memory read %.0f ns elsewhere in the run): run a "
					 "larger --max-size\n"),
				    fmt_bytes(a, sizeof a, lv->last_size),
				    fmt_bytes(b, sizeof b, lv->memory_from), pl, lv->memory_lo_ns, pl,
				    lv->memory_hi_ns, (LATENCY_MEMORY_FLAT - 1) * 100,
				    lv->memory_ref_ns);
		else
			mt_hfprintf(f, _("The curve ends at %s inside a level: from %s it reads "
					 "%s%.0f..%s%.0f ns and has not settled (no last octave within "
					 "%.0f %%): run a larger --max-size\n"),
				    fmt_bytes(a, sizeof a, lv->last_size),
				    fmt_bytes(b, sizeof b, lv->memory_from), pl, lv->memory_lo_ns, pl,
				    lv->memory_hi_ns, (LATENCY_MEMORY_FLAT - 1) * 100);
	} else if (lv->memory_unreached) {
		int caches = 1;
		for (size_t i = 0; i < lv->n; i++)
			caches += !lv->lv[i].tlb;
		fmt_latency(lat, sizeof lat, lv->memory_cycles, lv->memory_ns, lv->over_l1, 0);
		mt_hfprintf(f, _("The curve ends at %s: the last level seen (from %s, %s) is at "
				 "least L%d-like, memory not reached (memory answers in %.0f ns or "
				 "more; a larger --max-size reaches it)\n"),
			fmt_bytes(a, sizeof a, lv->last_size), fmt_bytes(b, sizeof b, lv->memory_from),
			lat, caches, LATENCY_MEMORY_NS);
	}
	if (lv->has_memory) {
		fmt_latency(lat, sizeof lat, lv->memory_cycles, lv->memory_ns, lv->over_l1, 0);
		char from[32], last[32];
		const char *pl = lv->over_l1 ? "+" : "";
		fmt_latency(lat, sizeof lat, lv->memory_cycles, lv->memory_ns, lv->over_l1, 0);
		fmt_bytes(from, sizeof from, lv->memory_from);
		fmt_bytes(a, sizeof a, lv->memory_at);
		fmt_bytes(b, sizeof b, lv->memory_to);
		if (lv->memory_last_ns > MEMORY_RISES * lv->memory_ns)
			mt_hfprintf(f,
				    MT_NGETTEXT("Memory from %s: latency %s at %s..%s (the median of "
						"%zu point, %s%.0f..%s%.0f ns; %s), %.0f ns at %s\n",
						"Memory from %s: latency %s at %s..%s (the median of "
						"%zu points, %s%.0f..%s%.0f ns; %s), %.0f ns at %s\n",
						lv->memory_points),
				    from, lat, a, b, lv->memory_points, pl, lv->memory_lo_ns, pl,
				    lv->memory_hi_ns, _(walks_text(lv->memory_walks)),
				    lv->memory_last_ns,
				    fmt_bytes(last, sizeof last, lv->memory_last_size));
		else
			mt_hfprintf(f,
				    MT_NGETTEXT("Memory from %s: latency %s at %s..%s (the median of "
						"%zu point, %s%.0f..%s%.0f ns; %s)\n",
						"Memory from %s: latency %s at %s..%s (the median of "
						"%zu points, %s%.0f..%s%.0f ns; %s)\n",
						lv->memory_points),
				    from, lat, a, b, lv->memory_points, pl, lv->memory_lo_ns, pl,
				    lv->memory_hi_ns, _(walks_text(lv->memory_walks)));
	}
}

/* Where the levels are read from (lv->curve, English: the JSON's
 * levels_read_from) in the user's words: "from the random chase". */
static void curve_words(const char *curve, char *buf, size_t len)
{
	if (strcmp(curve, "random chase, huge pages") == 0)
		mt_strlcpy(buf, _("from the random chase, huge pages"), len);
	else if (strcmp(curve, "random chase") == 0)
		mt_strlcpy(buf, _("from the random chase"), len);
	else if (strncmp(curve, "fixed stride ", 13) == 0)
		mt_snprintf(buf, len, _("from the fixed stride %u"),
			    (unsigned)strtoul(curve + 13, NULL, 10));
	else if (!curve[0])
		mt_strlcpy(buf, _("from the curves"), len);
	else
		mt_snprintf(buf, len, _("from the %s"), curve);
}

void latency_levels_print(FILE *f, const struct latency_levels *lv, const struct info *inf)
{
	char line[512], a[32], b[32];
	int ref[LATENCY_MAX_LEVELS] = { 0 };
	size_t last = lv->n;
	for (size_t i = 0; i < lv->n; i++)
		if (!lv->lv[i].tlb)
			last = i;
	char curve[64];
	curve_words(lv->curve, curve, sizeof curve);
	if (lv->shallow_read)
		mt_hfprintf(f, _("# levels read %s, %s..%s (penalised fit of ln(latency); a cache "
				 "level is at least 2x slower than the one before, or 1.3x where flat "
				 "an octave on each side):\n"),
			    curve, mt_fmt_size(a, sizeof a, lv->first_size),
			    mt_fmt_size(b, sizeof b, lv->last_size));
	else
		mt_hfprintf(f, _("# levels read %s, %s..%s (penalised fit of ln(latency); a cache "
				 "level is at least 2x slower than the one before):\n"),
			    curve, mt_fmt_size(a, sizeof a, lv->first_size),
			    mt_fmt_size(b, sizeof b, lv->last_size));
	if (lv->n == 0)
		fprintf(f, _("no step found: the curve is flat (too small a range, or the "
			     "prefetchers hide it; see the random chase)\n"));
	if (inf)
		reported_levels(lv, inf, ref);
	for (size_t i = 0; i < lv->n; i++) {
		const struct latency_level *l = &lv->lv[i];
		latency_level_text(l, lv->over_l1, line, sizeof line);
		fprintf(f, "%s\n", line);
		if (l->tlb)
			fprintf(f, "%s\n",
				l->tlb == LATENCY_TLB_PAGES
					? _("   a TLB, not a cache: only the 4 KB-page chase steps here")
				: l->tlb == LATENCY_TLB_WALK
					? _("   a TLB, not a cache: on 4 KB pages the step adds what a "
					    "walk of the page tables can cost (a few loads from the "
					    "cache below), where a cache level would multiply the "
					    "latency; the cache behind it is read on")
					: _("   a TLB, not a cache: the added latency grows with the "
					    "stride"));
		else if (inf)
			against_info(f, l, ref[i], i == last, inf);
		if (!l->tlb)
			print_tlb_reach(f, lv, l);
		if (!l->tlb && l->runs >= 2 && 2 * l->seen <= l->runs)
			fprintf(f,
				MT_NGETTEXT("   found in %d of the last %d run here: doubtful (a "
					    "neighbour in the cache, a busy moment; see the conditions "
					    "below)\n",
					    "   found in %d of the last %d runs here: doubtful (a "
					    "neighbour in the cache, a busy moment; see the conditions "
					    "below)\n",
					    l->runs),
				l->seen, l->runs);
		if (l->walks_from && lv->small_pages_only)
			fprintf(f, _("   on 4 KB pages the page walks past a TLB's reach raise this "
				     "level from %s on (a walk adds about a load of it; memory "
				     "multiplies): read to where that ends\n"),
				fmt_bytes(a, sizeof a, l->walks_from));
		else if (l->walks_from)
			fprintf(f, _("   on its unstated pages the page walks past a TLB's reach raise "
				     "this level from %s on (a walk adds about a load of it; memory "
				     "multiplies): read to where that ends\n"),
				fmt_bytes(a, sizeof a, l->walks_from));
		print_thin(f, l, lv->strides, lv->nstrides);
	}
	print_memory(f, lv);
	print_walks(f, lv, inf);
}
