/* memtop cliffs FILE.json: the seed's cliff finder, improved:
 * the cliffs of each stride column (the seed's rule or the merged one),
 * then the levels read off all the columns of a line or more (cliffs.h),
 * named by what they are, against the caches recorded with the run and the
 * levels of a latency run. */
#include "config.h"

#include "cmd.h"
#include "base/i18n.h"
#include "base/jsonio.h"
#include "base/util.h"
#include "info/info.h"
#include "latency/latency.h"
#include "mountain/cliffs.h"
#include "mountain/cycles.h"
#include "mountain/mountain_json.h"
#include "mountain/passport.h"
#include "result/result.h"
#include "result/result_beside.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AGREE_FACTOR 2.0 /* a found level this far above a reported size is past it */
#define MAX_NAMED 4      /* levels named L1..L4 against the reported sizes */
#define LEVEL_MOVES 1.25 /* runs whose last cache levels differ this much: it moves */

struct cliffs_cli {
	enum cliff_rule rule;
	double ratio;
	int stride, json;
	int json_dash;      /* --json -: stdout too, the text then on stderr */
	const char *file, *latency;
	int beside;             /* latency found beside the file, not given */
	char beside_path[MT_PATH_MAX];
	int nbeside;            /* latency runs of the same host and CPU beside it */
	uint64_t last_lo, last_hi; /* their last cache levels' smallest and largest size */
};

const struct batch_option cmd_cliffs_options[] = {
	{ "stride", 's', "N",
	  N_("read the column of stride N words (default: every\n"
	     "stride of at least 8 words, else the largest); the\n"
	     "seed's spelling, a STRIDE after the file, is the same") },
	{ "ratio", 'r', "R",
	  N_("a drop of at least R between neighbouring sizes is a\n"
	     "cliff; levels differ at least R (default 1.5)") },
	{ "rule", 'R', "seed|merged",
	  N_("seed: every such drop is a level (the seed's rule);\n"
	     "merged (default): a slope over several rows is one level") },
	{ "latency", 'L', "FILE",
	  N_("also hold the levels against a saved latency run\n"
	     "(memtop run latency --json, or memtop import); without\n"
	     "it, the newest one beside the file of the same host\n"
	     "and CPU, when there is one") },
	{ "json", 'j', NULL,
	  N_("print JSON instead of text; --json - prints the JSON on\n"
	     "stdout and the text on stderr") },
	BATCH_HELP_HELP,
	BATCH_END,
};

static const struct batch_help help = {
	/* TRANSLATORS: the usage line's words in capitals stay as they are */
	.head = N_("Usage: memtop cliffs FILE.json [STRIDE] [OPTIONS]\n"
		   "Find cache boundaries (cliffs) in a saved mountain.\n\n"),
	.opts = cmd_cliffs_options,
	.col = 21,
};

/* "128 KB", "1 MB", "1.5 MB" for people (their units and decimal separator) */
static const char *human(char *buf, size_t len, uint64_t b)
{
	if (b >= (1u << 20) && b % (1u << 20) == 0)
		mt_snprintf(buf, len, _("%llu MB"), (unsigned long long)(b >> 20));
	else if (b >= (1u << 20))
		mt_hsnprintf(buf, len, _("%.1f MB"), (double)b / (1 << 20));
	else if (b % 1024 == 0)
		mt_snprintf(buf, len, _("%llu KB"), (unsigned long long)(b >> 10));
	else
		mt_hsnprintf(buf, len, _("%.1f KB"), (double)b / 1024);
	return buf;
}

/* ---- the command line ------------------------------------------------------ */

/* One option into c; returns -1 to go on, else the exit code. */
static int option(int ch, const char *arg, struct cliffs_cli *c)
{
	switch (ch) {
	case 's':
		if (mt_parse_int(arg, 1, 1 << 20, &c->stride) == 0)
			return -1;
		mt_warn(_("cliffs: --stride: expected a positive number of words, got '%s'"), arg);
		return MT_EXIT_USAGE;
	case 'r':
		if (mt_parse_double(arg, &c->ratio) == 0 && c->ratio > 1.0)
			return -1;
		mt_warn(_("cliffs: --ratio: expected a number above 1, got '%s'"), arg);
		return MT_EXIT_USAGE;
	case 'R':
		if (strcmp(arg, "seed") == 0 || strcmp(arg, "merged") == 0) {
			c->rule = strcmp(arg, "seed") == 0 ? CLIFF_SEED : CLIFF_MERGED;
			return -1;
		}
		mt_warn(_("cliffs: --rule: expected seed or merged, got '%s'"), arg);
		return MT_EXIT_USAGE;
	case 'j': c->json = 1; return -1;
	case 'L': c->latency = arg; return -1;
	default: return MT_EXIT_USAGE;
	}
}

/* The command line into c; returns -1 to go on, else the exit code. */
static int parse(int argc, char **argv, struct cliffs_cli *c)
{
	struct batch_cmd b;
	int ch, rc;
	c->rule = CLIFF_MERGED;
	c->ratio = CLIFFS_RATIO;
	batch_cmd_init(&b, "cliffs", &help);
	while ((ch = batch_cmd_next(&b, argc, argv)) > 0) {
		if ((rc = option(ch, optarg, c)) >= 0)
			return rc;
		if (ch == 'j' && optind < argc && strcmp(argv[optind], "-") == 0) {
			c->json_dash = 1; /* ssh host memtop cliffs m.json --json - > host.json */
			optind++;
		}
	}
	if (ch < 0)
		return b.rc;
	/* the seed's spelling, cliffs FILE 8: the stride after the file */
	if (optind == argc - 2 && !c->stride &&
	    mt_parse_int(argv[optind + 1], 1, 1 << 20, &c->stride) == 0)
		argc--;
	if (optind != argc - 1) {
		mt_warn("%s", _("cliffs: expected one mountain file, and a stride as --stride N or "
				"after the file (see memtop cliffs --help)"));
		return MT_EXIT_USAGE;
	}
	c->file = argv[optind];
	return -1;
}

/* The columns to list: --stride, else every stride of a line or more (the
 * largest when none is). Returns the count, 0 with a message when --stride
 * names a stride the file does not have. */
static size_t pick_columns(const struct mountain *m, const struct cliffs_cli *c, unsigned *cols)
{
	size_t n = 0;
	if (c->stride) {
		char list[256] = "";
		if (mountain_stride_index(m, (unsigned)c->stride) >= 0) {
			cols[0] = (unsigned)c->stride;
			return 1;
		}
		for (size_t i = 0; i < m->nstrides; i++)
			mt_append(list, sizeof list, "%s%u", i ? ", " : "", m->strides[i]);
		mt_warn(_("%s: no stride %d in the file (strides: %s)"), c->file, c->stride, list);
		return 0;
	}
	for (size_t i = 0; i < m->nstrides; i++)
		if (m->strides[i] >= CLIFFS_LINE_WORDS)
			cols[n++] = m->strides[i];
	if (n == 0)
		cols[n++] = m->strides[m->nstrides - 1];
	return n;
}

/* ---- per stride ------------------------------------------------------------- */

static cJSON *stride_json(unsigned stride, enum cliff_rule rule, const struct cliff *cs, int n,
			  uint64_t line)
{
	cJSON *o = cJSON_CreateObject(), *a, *l;
	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "stride", stride);
	cJSON_AddStringToObject(o, "rule", rule == CLIFF_SEED ? "seed" : "merged");
	a = cJSON_AddArrayToObject(o, "cliffs");
	l = cJSON_AddArrayToObject(o, "levels");
	if (!a || !l) {
		cJSON_Delete(o);
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		cJSON *c = cJSON_CreateObject();
		if (!c) {
			cJSON_Delete(o);
			return NULL;
		}
		cJSON_AddNumberToObject(c, "from", (double)cs[i].from);
		cJSON_AddNumberToObject(c, "to", (double)cs[i].to);
		cJSON_AddNumberToObject(c, "ratio", round(cs[i].ratio * 1000) / 1000);
		cJSON_AddNumberToObject(c, "level", (double)cs[i].level);
		cJSON_AddNumberToObject(c, "confidence", round(cs[i].confidence * 100) / 100);
		cJSON_AddItemToArray(a, c);
		cJSON_AddItemToArray(l, cJSON_CreateNumber((double)cs[i].level));
	}
	cJSON_AddNumberToObject(o, "line_bytes", (double)line);
	return o;
}

static void print_stride(const struct mountain *m, unsigned stride, const struct cliffs_cli *c,
			 const struct cliff *cs, int n)
{
	static const char *names[] = { "L1", "L2", "L3", "L4" };
	char a[32], b[32], x[32], y[32];
	size_t col = (size_t)mountain_stride_index(m, stride);
	/* TRANSLATORS: the machine, the stride in words, the rule's name as
	 * --rule spells it (seed, merged), the least drop */
	mt_hfprintf(stdout, _("%s, stride %u (%s rule, ratio %.2f)\n"),
		    m->hdr.hardware[0] ? m->hdr.hardware : MT_PRINTABLE(m->source), stride,
		    c->rule == CLIFF_SEED ? "seed" : "merged", c->ratio);
	if (n == 0)
		mt_hfprintf(stdout, _("no cliffs: no drop of %.2fx or more\n"), c->ratio);
	for (int i = 0; i < n; i++) {
		if (c->rule == CLIFF_MERGED &&
		    (cs[i].from != cs[i].level || cs[i].to != cs[i].level_next)) {
			double step = mountain_at(m, (size_t)mountain_size_index(m, cs[i].level), col) /
				      mountain_at(m, (size_t)mountain_size_index(m, cs[i].level_next), col);
			mt_hfprintf(stdout,
				    _("cliff between %s and %s: drop %.2fx (one slope from %s to "
				      "%s: %.2fx)\n"),
				    human(a, sizeof a, cs[i].level),
				    human(b, sizeof b, cs[i].level_next), step,
				    human(x, sizeof x, cs[i].from), human(y, sizeof y, cs[i].to),
				    cs[i].ratio);
		} else {
			mt_hfprintf(stdout, _("cliff between %s and %s: drop %.2fx\n"),
				    human(a, sizeof a, cs[i].from), human(b, sizeof b, cs[i].to),
				    cs[i].ratio);
		}
	}
	if (c->rule == CLIFF_SEED) {
		/* the seed's reading: the n-th cliff is the n-th level */
		for (int i = 0; i < n && i < 4; i++)
			printf(_("%s by the mountain: %s\n"), names[i],
			       human(a, sizeof a, cs[i].level));
	} else if (n > 0) {
		fputs(_("levels on this stride:"), stdout);
		for (int i = 0; i < n; i++)
			printf("%s %s", i ? "," : "", human(a, sizeof a, cs[i].level));
		printf("\n");
	}
}

/* ---- the levels, named -------------------------------------------------------- */

/* The number of each of n levels of these sizes (smallest first): by
 * order, but past a reported level that lies more than AGREE_FACTOR below
 * it (a knee at 16 MB after a 1 MB L2 is an L3, whether the L2's cliff
 * showed or not). inf may be NULL. */
static void name_levels(const uint64_t *size, int n, const struct info *inf, int *num)
{
	int k = 1;
	for (int i = 0; i < n; i++) {
		while (inf && k < MAX_NAMED && info_best_size(inf, k, NULL) &&
		       (double)size[i] > AGREE_FACTOR * (double)info_best_size(inf, k, NULL) &&
		       info_best_size(inf, k + 1, NULL))
			k++;
		num[i] = k++;
	}
}

static void print_combined(const struct mountain *m, const struct detection *d, const int *num)
{
	char a[32], b[32], c[32], list[256] = "";
	for (size_t i = 0; i < d->nstrides_used; i++)
		mt_append(list, sizeof list, "%s%u", i ? ", " : " ", d->strides_used[i]);
	mt_fmt_size(a, sizeof a, m->sizes[0]);
	mt_fmt_size(b, sizeof b, m->sizes[m->nsizes - 1]);
	/* TRANSLATORS: " 8, 16, 32" (the strides), then the grid's first and last
	 * size as the option grammar writes them (16K..64M) */
	if (d->nlevels)
		printf(_("\ncombined over strides%s (sizes %s..%s):\n"), list, a, b);
	else
		printf(_("\ncombined over strides%s (sizes %s..%s): no level seen on at least half "
			 "of them\n"),
		       list, a, b);
	for (int i = 0; i < d->nlevels; i++)
		printf(MT_NGETTEXT("  L%d %s (%s to %s, seen on %d of %zu strides)\n",
				   "  L%d %s (%s to %s, seen on %d of %zu strides)\n",
				   d->nstrides_used),
		       num[i], human(a, sizeof a, d->size[i]), human(b, sizeof b, d->level[i]),
		       human(c, sizeof c, d->level_hi[i]), d->votes[i], d->nstrides_used);
	if (d->line_bytes)
		printf(MT_NGETTEXT("line size by the stride slice: %llu bytes\n",
				   "line size by the stride slice: %llu bytes\n", d->line_bytes),
		       (unsigned long long)d->line_bytes);
	else
		fputs(_("line size by the stride slice: not visible (the slice does not flatten "
			"within the measured strides)\n"),
		      stdout);
}

/* Per reported level of the caches recorded with the run, the verdict;
 * from says what d was read from ("stride 8's cliffs above"). */
static void print_verdicts(const struct detection *d, const int *num, const struct info *inf,
			   const char *from_what)
{
	char a[32], b[32];
	printf(_("against the caches recorded with the run (from %s):\n"), from_what);
	for (int level = 1; level <= MAX_NAMED; level++) {
		const char *from = NULL;
		uint64_t ref = info_best_size(inf, level, &from);
		int which;
		enum level_verdict v;
		if (!ref)
			continue;
		v = cliffs_detect_verdict(d, ref, &which);
		printf("  L%d %s (%s): %s", level, human(a, sizeof a, ref), from,
		       cliffs_verdict_name(v));
		if (which >= 0)
			printf(_(" (mountain L%d %s)"), num[which],
			       human(b, sizeof b, d->size[which]));
		else if (d->nlevels && ref > d->level_hi[d->nlevels - 1])
			printf(_(" (the mountain's last knee is at %s)"),
			       human(b, sizeof b, d->size[d->nlevels - 1]));
		else if (!d->nlevels)
			fputs(_(" (no cliff on the stride read)"), stdout);
		printf("\n");
	}
}

/* The latency run's cache levels against the mountain's, level by level
 * of the same name (both named the same way). */
static void print_latency_check(const struct detection *d, const int *num,
				const struct cliffs_cli *c, const struct latency_levels *lv,
				const struct info *inf)
{
	uint64_t size[LATENCY_MAX_LEVELS] = { 0 };
	int lnum[LATENCY_MAX_LEVELS], n = 0;
	char a[32], b[32];
	for (size_t i = 0; i < lv->n; i++)
		if (!lv->lv[i].tlb)
			size[n++] = lv->lv[i].size;
	name_levels(size, n, inf, lnum);
	if (c->beside)
		printf(_("against the latency levels (%s, beside the file: a latency run of the "
			 "same host and CPU):\n"),
		       MT_PRINTABLE(c->latency));
	else
		printf(_("against the latency levels (%s):\n"), MT_PRINTABLE(c->latency));
	if (c->beside && c->nbeside > 1 && (double)c->last_hi > LEVEL_MOVES * (double)c->last_lo)
		printf(MT_NGETTEXT("  the %d runs beside it put their last cache level at %s..%s: "
				   "its effective size moves (a cache shared with other cores or "
				   "guests); the newest is read\n",
				   "  the %d runs beside it put their last cache level at %s..%s: "
				   "its effective size moves (a cache shared with other cores or "
				   "guests); the newest is read\n",
				   c->nbeside),
		       c->nbeside, human(a, sizeof a, c->last_lo), human(b, sizeof b, c->last_hi));
	if (!n)
		fputs(_("  no cache level on the latency curve\n"), stdout);
	for (int i = 0; i < n; i++) {
		int w = -1;
		for (int j = 0; j < d->nlevels; j++)
			if (num[j] == lnum[i])
				w = j;
		human(a, sizeof a, size[i]);
		if (w < 0) {
			printf(_("  latency L%d %s: not visible on the mountain\n"), lnum[i], a);
			continue;
		}
		if (fabs(log2((double)d->size[w] / (double)size[i])) <= log2(AGREE_FACTOR))
			printf(_("  latency L%d %s: agrees (mountain L%d %s)\n"), lnum[i], a,
			       num[w], human(b, sizeof b, d->size[w]));
		else
			mt_hfprintf(
				stdout,
				_("  latency L%d %s: disagrees: the mountain's L%d is %s, %.1fx "
				  "the latency's; the size is read from the latency run (its "
				  "random chase, which no prefetcher follows, sees the cache; the "
				  "mountain's strided streams are prefetched past it)\n"),
				lnum[i], a, num[w], human(b, sizeof b, d->size[w]),
				(double)d->size[w] / (double)size[i]);
	}
}

/* One column's cliffs as a detection (what the verdicts read when one
 * column is read: the stride asked for, or a quick grid's one long stride),
 * each cliff's range from its last size that fit to its first that did
 * not. */
static void column_detection(unsigned stride, const struct cliff *cs, int n, struct detection *d)
{
	memset(d, 0, sizeof *d);
	for (int i = 0; i < n && i < (int)MT_ARRAY_LEN(d->size); i++) {
		d->size[i] = cs[i].level;
		d->level[i] = cs[i].from;
		d->level_hi[i] = cs[i].to;
		d->votes[i] = 1;
		d->confidence[i] = cs[i].confidence;
		d->nlevels++;
	}
	d->strides_used[0] = stride;
	d->nstrides_used = 1;
}

/* ---- JSON ---------------------------------------------------------------------- */

/* The combined levels: {"levels":[sizes],"levels_below":[...],
 * "detected":[{"level","size","from","to","votes"}],"line_bytes"}. */
static int combined_json(cJSON *out, const struct detection *d, const int *num)
{
	cJSON *l = cJSON_AddArrayToObject(out, "levels");
	cJSON *hi = cJSON_AddArrayToObject(out, "levels_below");
	cJSON *det = cJSON_AddArrayToObject(out, "detected");
	if (!l || !hi || !det)
		return -1;
	for (int i = 0; i < d->nlevels; i++) {
		cJSON *o = cJSON_CreateObject();
		if (!o)
			return -1;
		cJSON_AddItemToArray(l, cJSON_CreateNumber((double)d->level[i]));
		cJSON_AddItemToArray(hi, cJSON_CreateNumber((double)d->level_hi[i]));
		cJSON_AddNumberToObject(o, "level", num[i]);
		cJSON_AddNumberToObject(o, "size", (double)d->size[i]);
		cJSON_AddNumberToObject(o, "from", (double)d->level[i]);
		cJSON_AddNumberToObject(o, "to", (double)d->level_hi[i]);
		cJSON_AddNumberToObject(o, "votes", d->votes[i]);
		cJSON_AddItemToArray(det, o);
	}
	return cJSON_AddNumberToObject(out, "line_bytes", (double)d->line_bytes) ? 0 : -1;
}

/* The JSON of every column (one column: its object alone, the old shape). */
static int print_json(const struct mountain *m, const struct cliffs_cli *c, const unsigned *cols,
		      size_t ncols, const struct detection *d, const int *num)
{
	cJSON *out = ncols > 1 ? cJSON_CreateObject() : NULL, *results = NULL;
	char *text;
	if (ncols > 1 && (!out || !(results = cJSON_AddArrayToObject(out, "results"))))
		goto oom;
	for (size_t i = 0; i < ncols; i++) {
		struct cliff cs[CLIFFS_MAX];
		int n = cliffs_find(m, (size_t)mountain_stride_index(m, cols[i]), c->rule, c->ratio, cs,
				    CLIFFS_MAX, NULL);
		cJSON *o = stride_json(cols[i], c->rule, cs, n, d->line_bytes);
		if (!o)
			goto oom;
		if (results)
			cJSON_AddItemToArray(results, o);
		else
			out = o;
	}
	if (results && combined_json(out, d, num) < 0)
		goto oom;
	if (results) {
		cJSON *cpw = cpw_to_json(m, 0, d);
		if (!cpw || !cJSON_AddItemToObject(out, "cycles_per_word", cpw)) {
			cJSON_Delete(cpw);
			goto oom;
		}
	}
	if (!(text = cJSON_PrintUnformatted(out)))
		goto oom;
	printf("%s\n", text);
	cJSON_free(text);
	cJSON_Delete(out);
	return MT_EXIT_OK;
oom:
	cJSON_Delete(out);
	mt_warn("%s", _("cliffs: out of memory"));
	return MT_EXIT_RUNTIME;
}

/* ---- the command ------------------------------------------------------------- */

/* The L1 hit of a latency run's levels in cycles, 0 when it shows none or
 * has no clock. */
static double l1_hit_cycles(const struct latency_levels *lv)
{
	for (size_t i = 0; i < lv->n; i++)
		if (!lv->lv[i].tlb && lv->lv[i].level == 1 && !lv->over_l1)
			return lv->lv[i].cycles;
	return 0;
}

/* One more latency run beside the file (result_beside's each): its last
 * cache level's size into the range the cliffs_cli arg keeps. */
static void note_last_level(const void *lr, void *arg)
{
	const struct latency_result *r = lr;
	struct cliffs_cli *c = arg;
	struct latency_levels lv;
	uint64_t last = 0;
	latency_detect(r, &lv);
	for (size_t i = 0; i < lv.n; i++)
		if (!lv.lv[i].tlb)
			last = lv.lv[i].size;
	c->nbeside++;
	if (!last)
		return;
	if (!c->last_lo || last < c->last_lo)
		c->last_lo = last;
	if (last > c->last_hi)
		c->last_hi = last;
}

/* A latency run beside the mountain file (result_beside: the same host
 * and CPU, the newest). Returns it (c->latency and c->beside set), or NULL
 * when there is none. */
static struct latency_result *latency_beside(const struct mountain *m, struct cliffs_cli *c)
{
	struct latency_result *best = result_beside(c->file, &m->hdr, &kind_latency, c->beside_path,
						    sizeof c->beside_path, note_last_level, c);
	if (best) {
		c->latency = c->beside_path;
		c->beside = 1;
	}
	return best;
}

/* The caches recorded with the mountain into inf. Returns 0, or -1 when none. */
static int recorded_caches(const struct mountain *m, struct info *inf)
{
	mt_error e;
	return m->caches && info_from_json(m->caches, inf, m->source, &e) == 0 ? 0 : -1;
}

static void print_text(const struct mountain *m, const struct cliffs_cli *c, const unsigned *cols,
		       size_t ncols, const struct detection *d, const int *num,
		       const struct info *inf, const struct latency_levels *lat)
{
	const struct detection *vd = d; /* what the verdicts read */
	const int *vnum = num;
	struct detection one;
	int onenum[8];
	char from[192];
	for (size_t i = 0; i < ncols; i++) {
		struct cliff cs[CLIFFS_MAX];
		int n = cliffs_find(m, (size_t)mountain_stride_index(m, cols[i]), c->rule, c->ratio, cs,
				    CLIFFS_MAX, NULL);
		if (i)
			printf("\n");
		print_stride(m, cols[i], c, cs, n);
		if (ncols == 1) { /* the verdicts follow the one column printed */
			column_detection(cols[i], cs, n, &one);
			name_levels(one.size, one.nlevels, inf, onenum);
			vd = &one;
			vnum = onenum;
		}
	}
	if (ncols > 1) {
		print_combined(m, d, num);
		mt_snprintf(from, sizeof from,
			    MT_NGETTEXT("the levels combined over %zu strides above",
					"the levels combined over %zu strides above",
					d->nstrides_used),
			    d->nstrides_used);
	} else if (c->rule == CLIFF_SEED) {
		mt_snprintf(from, sizeof from, _("stride %u's cliffs above, the seed's rule"),
			    cols[0]);
	} else {
		mt_snprintf(from, sizeof from, _("stride %u's cliffs above, the merged rule"),
			    cols[0]);
	}

	if (inf)
		print_verdicts(vd, vnum, inf, from);
	if (ncols > 1 || !c->stride) /* a quick grid's one column too: what it supports */
		passport_report(stdout, m);
	if (lat)
		print_latency_check(vd, vnum, c, lat, inf);
	cpw_report(stdout, m, 0, d, lat ? l1_hit_cycles(lat) : 0);
}

/* --json -: the text on stderr (stdout pointed there while it prints), the
 * JSON then on stdout. */
static void print_text_to_stderr(const struct mountain *m, const struct cliffs_cli *c,
				 const unsigned *cols, size_t ncols, const struct detection *d,
				 const int *num, const struct info *inf,
				 const struct latency_levels *lat)
{
	int saved;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		if (saved >= 0)
			close(saved);
		return; /* the JSON alone, as --json prints it */
	}
	print_text(m, c, cols, ncols, d, num, inf, lat);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
}

int cmd_cliffs(int argc, char **argv)
{
	struct cliffs_cli c;
	struct latency_levels lat;
	struct latency_result *lr = NULL;
	struct info *inf = NULL;
	unsigned cols[MOUNTAIN_MAX_STRIDES];
	size_t ncols;
	struct mountain *m;
	struct detection d;
	int num[8], rc;
	mt_error e = { "" };
	memset(&c, 0, sizeof c);
	if ((rc = parse(argc, argv, &c)) >= 0)
		return rc;
	if (!(m = result_load_as(c.file, &kind_mountain, &e))) {
		mt_warn("%s", e.msg);
		return MT_EXIT_USAGE;
	}
	rc = MT_EXIT_USAGE;
	if (c.latency && !(lr = result_load_as(c.latency, &kind_latency, &e))) {
		mt_warn("%s", e.msg);
		goto out;
	}
	if (!c.latency && !c.json)
		lr = latency_beside(m, &c);
	if (lr)
		latency_detect(lr, &lat);
	if ((ncols = pick_columns(m, &c, cols)) == 0)
		goto out;
	if ((inf = malloc(sizeof *inf)) && recorded_caches(m, inf) < 0) {
		free(inf);
		inf = NULL;
	}
	cliffs_detect(m, c.ratio, &d);
	name_levels(d.size, d.nlevels, inf, num);
	rc = MT_EXIT_OK;
	if (c.json_dash)
		print_text_to_stderr(m, &c, cols, ncols, &d, num, inf, lr ? &lat : NULL);
	if (c.json)
		rc = print_json(m, &c, cols, ncols, &d, num);
	else
		print_text(m, &c, cols, ncols, &d, num, inf, lr ? &lat : NULL);
out:
	free(inf);
	latency_result_free(lr);
	mountain_free(m);
	return rc;
}
