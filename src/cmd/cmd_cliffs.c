/* memtop cliffs FILE.json: the seed's cliff finder, improved (SPEC 2.2). */
#include "config.h"

#include "mountain/cliffs.h"
#include "cmd.h"
#include "info/info.h"
#include "core/jsonio.h"
#include "latency/latency.h"
#include "mountain/mountain_json.h"
#include "mountain/passport.h"
#include "core/util.h"

#include <cjson/cJSON.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: memtop cliffs FILE.json [OPTIONS]\n"
		"Find cache boundaries (cliffs) in a saved mountain.\n\n"
		"  --stride N         read the column of stride N words (default: every\n"
		"                     stride of at least 8 words, else the largest)\n"
		"  --ratio R          a drop of at least R between neighbouring sizes is a\n"
		"                     cliff (default 1.5)\n"
		"  --rule seed|merged seed: every such drop is a level (the seed's rule);\n"
		"                     merged (default): a slope over several rows is one level\n"
		"  --latency FILE     also check the levels against the plateaus of a saved\n"
		"                     latency run (memtop run latency --json FILE)\n"
		"  --json             print JSON instead of text\n"
		"  -h, --help         this help\n");
}

/* "128 KB", "1 MB", "1.5 MB" */
static const char *human(char *buf, size_t len, uint64_t b)
{
	if (b >= (1u << 20) && b % (1u << 20) == 0)
		mt_snprintf(buf, len, "%llu MB", (unsigned long long)(b >> 20));
	else if (b >= (1u << 20))
		mt_snprintf(buf, len, "%.1f MB", (double)b / (1 << 20));
	else if (b % 1024 == 0)
		mt_snprintf(buf, len, "%llu KB", (unsigned long long)(b >> 10));
	else
		mt_snprintf(buf, len, "%.1f KB", (double)b / 1024);
	return buf;
}

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

static void print_stride(const struct mountain *m, unsigned stride, enum cliff_rule rule,
			 double ratio, const struct cliff *cs, int n)
{
	static const char *names[] = { "L1", "L2", "L3", "L4" };
	char a[32], b[32], c[32], d[32];
	size_t col = (size_t)mountain_stride_index(m, stride);
	printf("%s, stride %u (%s rule, ratio %.2f)\n", m->hdr.hardware[0] ? m->hdr.hardware : m->source,
	       stride, rule == CLIFF_SEED ? "seed" : "merged", ratio);
	if (n == 0)
		printf("no cliffs: no drop of %.2fx or more\n", ratio);
	for (int i = 0; i < n; i++) {
		if (rule == CLIFF_MERGED && (cs[i].from != cs[i].level || cs[i].to != cs[i].level_next)) {
			double step = mountain_at(m, (size_t)mountain_size_index(m, cs[i].level), col) /
				      mountain_at(m, (size_t)mountain_size_index(m, cs[i].level_next), col);
			printf("cliff between %s and %s: drop %.2fx (one slope from %s to %s: %.2fx)\n",
			       human(a, sizeof a, cs[i].level), human(b, sizeof b, cs[i].level_next), step,
			       human(c, sizeof c, cs[i].from), human(d, sizeof d, cs[i].to), cs[i].ratio);
		} else {
			printf("cliff between %s and %s: drop %.2fx\n", human(a, sizeof a, cs[i].from),
			       human(b, sizeof b, cs[i].to), cs[i].ratio);
		}
	}
	if (rule == CLIFF_SEED) {
		/* the seed's reading: the n-th cliff is the n-th level */
		for (int i = 0; i < n && i < 4; i++)
			printf("%s by the mountain: %s\n", names[i], human(a, sizeof a, cs[i].level));
	} else if (n > 0) {
		printf("levels on this stride:");
		for (int i = 0; i < n; i++)
			printf("%s %s", i ? "," : "", human(a, sizeof a, cs[i].level));
		printf("\n");
	}
}

/* Per level of the recorded caches, the verdict against the detection. */
static void print_verdicts(const struct mountain *m, const struct detection *d)
{
	struct info inf;
	mt_error e;
	if (!m->caches || info_from_json(m->caches, &inf, m->source, &e) < 0)
		return;
	printf("against the caches recorded with the run:\n");
	for (int level = 1; level <= 4; level++) {
		const char *from = NULL;
		uint64_t ref = info_best_size(&inf, level, &from);
		char a[32], b[32];
		int which;
		enum level_verdict v;
		if (!ref)
			continue;
		v = cliffs_detect_verdict(d, ref, &which);
		if (which >= 0)
			printf("  L%d %s (%s): %s (mountain: %s)\n", level, human(a, sizeof a, ref), from,
			       cliffs_verdict_name(v), human(b, sizeof b, d->level[which]));
		else
			printf("  L%d %s (%s): %s\n", level, human(a, sizeof a, ref), from,
			       cliffs_verdict_name(v));
	}
}

/* The cache levels of a saved latency run (memtop run latency --json).
 * Returns 0, or -1 with e set when the file is not a latency result. */
static int load_latency_levels(const char *path, struct latency_levels *lv, mt_error *e)
{
	cJSON *root = jsonio_load(path, e);
	struct latency_result *r;
	if (!root)
		return -1;
	r = latency_from_json(root, path, e);
	cJSON_Delete(root);
	if (!r)
		return -1;
	latency_detect(r, lv);
	latency_result_free(r);
	return 0;
}

/* The mountain's levels against the plateaus of a latency run (SPEC 2.2):
 * per cache level of the latency curve, the better verdict of its plateau's
 * last size and of the next plateau's first size against the mountain's
 * bounds. */
static void print_latency_check(const struct detection *d, const char *path,
				const struct latency_levels *lv)
{
	int shown = 0;
	printf("against the latency plateaus (%s):\n", path);
	for (size_t i = 0; i < lv->n; i++) {
		const struct latency_level *l = &lv->lv[i];
		char a[32], b[32], c[32], dd[32];
		int w1, w2, which;
		enum level_verdict v1, v2, v;
		if (l->tlb)
			continue;
		v1 = cliffs_detect_verdict(d, l->size, &w1);
		v2 = cliffs_detect_verdict(d, l->step_end, &w2);
		v = v1 <= v2 ? v1 : v2;
		which = v1 <= v2 ? w1 : w2;
		printf("  latency L%d %s..%s (%.1f cycles): %s", l->level, human(a, sizeof a, l->size),
		       human(b, sizeof b, l->step_end), l->cycles, cliffs_verdict_name(v));
		if (which >= 0)
			printf(" (mountain L%d %s to %s)", which + 1, human(c, sizeof c, d->level[which]),
			       human(dd, sizeof dd, d->level_hi[which]));
		printf("\n");
		shown++;
	}
	if (!shown)
		printf("  no cache level on the latency curve\n");
}

int cmd_cliffs(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "stride", required_argument, NULL, 's' }, { "ratio", required_argument, NULL, 'r' },
		{ "rule", required_argument, NULL, 'R' },   { "json", no_argument, NULL, 'j' },
		{ "latency", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },         { NULL, 0, NULL, 0 },
	};
	enum cliff_rule rule = CLIFF_MERGED;
	double ratio = CLIFFS_RATIO;
	int stride = 0, json = 0, ch, rc = MT_EXIT_USAGE;
	const char *latency = NULL;
	struct latency_levels lat;
	unsigned cols[MOUNTAIN_MAX_STRIDES * 4];
	size_t ncols = 0;
	struct mountain *m = NULL;
	struct detection d;
	cJSON *out = NULL, *results = NULL;
	mt_error e = { "" };

	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 's':
			if (mt_parse_int(optarg, 1, 1 << 20, &stride) < 0) {
				mt_warn("cliffs: --stride: expected a positive number of words, got '%s'", optarg);
				return MT_EXIT_USAGE;
			}
			break;
		case 'r':
			if (mt_parse_double(optarg, &ratio) < 0 || ratio <= 1.0) {
				mt_warn("cliffs: --ratio: expected a number above 1, got '%s'", optarg);
				return MT_EXIT_USAGE;
			}
			break;
		case 'R':
			if (strcmp(optarg, "seed") == 0)
				rule = CLIFF_SEED;
			else if (strcmp(optarg, "merged") == 0)
				rule = CLIFF_MERGED;
			else {
				mt_warn("cliffs: --rule: expected seed or merged, got '%s'", optarg);
				return MT_EXIT_USAGE;
			}
			break;
		case 'j': json = 1; break;
		case 'L': latency = optarg; break;
		case 'h': usage(stdout); return MT_EXIT_OK;
		default:
			mt_warn("cliffs: unknown option '%s' (see memtop cliffs --help)", argv[optind - 1]);
			return MT_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		mt_warn("cliffs: expected one mountain file (see memtop cliffs --help)");
		return MT_EXIT_USAGE;
	}
	m = mountain_load(argv[optind], &e);
	if (!m) {
		mt_warn("%s", e.msg);
		return MT_EXIT_USAGE;
	}
	if (latency && load_latency_levels(latency, &lat, &e) < 0) {
		mt_warn("%s", e.msg);
		goto out;
	}
	if (stride) {
		if (mountain_stride_index(m, (unsigned)stride) < 0) {
			char list[256] = "";
			for (size_t i = 0; i < m->nstrides; i++)
				mt_append(list, sizeof list, "%s%u", i ? ", " : "", m->strides[i]);
			mt_warn("%s: no stride %d in the file (strides: %s)", argv[optind], stride, list);
			goto out;
		}
		cols[ncols++] = (unsigned)stride;
	} else {
		for (size_t i = 0; i < m->nstrides; i++)
			if (m->strides[i] >= CLIFFS_LINE_WORDS)
				cols[ncols++] = m->strides[i];
		if (ncols == 0)
			cols[ncols++] = m->strides[m->nstrides - 1];
	}
	cliffs_detect(m, ratio, &d);
	if (json && ncols > 1) {
		out = cJSON_CreateObject();
		results = out ? cJSON_AddArrayToObject(out, "results") : NULL;
		if (!results)
			goto oom;
	}
	for (size_t i = 0; i < ncols; i++) {
		struct cliff cs[CLIFFS_MAX];
		int n = cliffs_find(m, (size_t)mountain_stride_index(m, cols[i]), rule, ratio, cs,
				    CLIFFS_MAX, &e);
		if (json) {
			cJSON *o = stride_json(cols[i], rule, cs, n, d.line_bytes);
			if (!o)
				goto oom;
			if (results)
				cJSON_AddItemToArray(results, o);
			else
				out = o;
		} else {
			if (i)
				printf("\n");
			print_stride(m, cols[i], rule, ratio, cs, n);
		}
	}
	if (json) {
		char *text;
		if (results) {
			cJSON *l = cJSON_AddArrayToObject(out, "levels");
			if (!l)
				goto oom;
			for (int i = 0; i < d.nlevels; i++)
				cJSON_AddItemToArray(l, cJSON_CreateNumber((double)d.level[i]));
			cJSON_AddNumberToObject(out, "line_bytes", (double)d.line_bytes);
		}
		if (results) {
			cJSON *hi = cJSON_AddArrayToObject(out, "levels_below");
			if (!hi)
				goto oom;
			for (int i = 0; i < d.nlevels; i++)
				cJSON_AddItemToArray(hi, cJSON_CreateNumber((double)d.level_hi[i]));
		}
		text = cJSON_PrintUnformatted(out);
		if (!text)
			goto oom;
		printf("%s\n", text);
		cJSON_free(text);
	} else {
		char a[32];
		if (ncols > 1) {
			printf("\ncombined over strides");
			for (size_t i = 0; i < d.nstrides_used; i++)
				printf("%s%u", i ? ", " : " ", d.strides_used[i]);
			printf(":");
			if (d.nlevels == 0)
				printf(" no level seen on at least half of them");
			printf("\n");
			for (int i = 0; i < d.nlevels; i++) {
				char b[32];
				printf("  L%d %s to %s (seen on %d of %zu strides, confidence %.0f%%)\n",
				       i + 1, human(a, sizeof a, d.level[i]), human(b, sizeof b, d.level_hi[i]),
				       d.votes[i], d.nstrides_used, d.confidence[i] * 100);
			}
		}
		if (d.line_bytes)
			printf("line size by the stride slice: %llu bytes\n", (unsigned long long)d.line_bytes);
		else
			printf("line size by the stride slice: not visible (the slice does not flatten "
			       "within the measured strides)\n");
		print_verdicts(m, &d);
		passport_report(stdout, m);
		if (latency)
			print_latency_check(&d, latency, &lat);
	}
	rc = MT_EXIT_OK;
	goto out;
oom:
	mt_warn("cliffs: out of memory");
	rc = MT_EXIT_RUNTIME;
out:
	cJSON_Delete(out);
	mountain_free(m);
	return rc;
}
