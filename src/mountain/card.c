/* card: see card.h. */
#include "config.h"

#include "base/i18n.h"

#include "card.h"
#include "cycles.h"
#include "base/jsonio.h"
#include "os/datadir.h"

#include <math.h>
#include <string.h>

#define CARD_FILE "ref/csapp-haswell-card.json"

int card_is(const cJSON *root)
{
	const char *ex = jsonio_experiment(root);
	return ex && strcmp(ex, "card") == 0;
}

/* A size in bytes (0 when absent); -1 with e when present but not a size. */
static int opt_size(const cJSON *o, const char *key, const char *where, uint64_t *out,
		    mt_error *e)
{
	long v;
	*out = 0;
	if (!cJSON_GetObjectItemCaseSensitive(o, key))
		return 0;
	if (jsonio_int(o, key, where, 1, 1L << 40, &v, e) < 0)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

/* A positive MB/s figure of "mbs" (required). */
static int mbs_field(const cJSON *o, const char *key, const char *where, double *out, mt_error *e)
{
	if (jsonio_number(o, key, where, out, e) < 0)
		return -1;
	if (!(*out > 0))
		return mt_fail(e, _("%s: field \"%s\" must be a positive MB/s figure"), where, key);
	return 0;
}

int card_from_json(const cJSON *root, const char *file, struct mountain_card *c, mt_error *e)
{
	const char *f = file ? file : "input";
	const cJSON *sz = cJSON_GetObjectItemCaseSensitive(root, "cache_sizes"), *mbs;
	char where[320];
	memset(c, 0, sizeof *c);
	if (!card_is(root))
		return mt_fail(e, _("%s: not a summary card (\"experiment\": \"card\")"), f);
	run_header_from_json(root, &c->hdr);
	jsonio_opt_string(root, "source", c->source, sizeof c->source);
	mt_snprintf(where, sizeof where, "%s: cache_sizes", f);
	if (sz && (opt_size(sz, "l1d", where, &c->l1d, e) < 0 || opt_size(sz, "l2", where, &c->l2, e) < 0 ||
		   opt_size(sz, "l3", where, &c->l3, e) < 0 ||
		   opt_size(sz, "line", where, &c->line, e) < 0))
		return -1;
	jsonio_opt_string(root, "stride8_cliffs", c->stride8, sizeof c->stride8);
	c->l1_latency = jsonio_opt_number(root, "l1_latency_cycles", 0);
	if (!(c->l1_latency > 0 && c->l1_latency < 1000))
		c->l1_latency = 0;
	mbs = cJSON_GetObjectItemCaseSensitive(root, "mbs");
	if (!cJSON_IsObject(mbs))
		return mt_fail(e, _("%s: field \"mbs\" is missing"), f);
	mt_snprintf(where, sizeof where, "%s: mbs", f);
	if (mbs_field(mbs, "peak", where, &c->peak, e) < 0 ||
	    mbs_field(mbs, "l1_plateau", where, &c->l1_plateau, e) < 0 ||
	    mbs_field(mbs, "ridge", where, &c->ridge, e) < 0 ||
	    mbs_field(mbs, "floor", where, &c->floor, e) < 0)
		return -1;
	return 0;
}

int card_load_bundled(struct mountain_card *c, mt_error *e)
{
	char path[4096];
	cJSON *root;
	int rc;
	if (!mt_data_path(CARD_FILE, path, sizeof path))
		return mt_fail(e, _("the book's card data/%s is not installed"), CARD_FILE);
	root = jsonio_load(path, e);
	if (!root)
		return -1;
	rc = card_from_json(root, path, c, e);
	cJSON_Delete(root);
	return rc;
}

/* "14 GB/s" from 14000, "900 MB/s" from 900: the card's round figures. */
static const char *rate(char *buf, size_t len, double mbs)
{
	if (mbs >= 1000)
		mt_snprintf(buf, len, "%.3g GB/s", mbs / 1000);
	else
		mt_snprintf(buf, len, "%.0f MB/s", mbs);
	return buf;
}

int card_lines(const struct mountain_card *c, char lines[][CARD_WIDTH + 1], int max)
{
	char a[32], b[32], d[32], g[32];
	struct cpw_clock clk;
	double cyc;
	int n = 0;
#define LINE(...) \
	do { \
		if (n < max) \
			mt_snprintf(lines[n++], CARD_WIDTH + 1, __VA_ARGS__); \
	} while (0)
	cpw_clock_of(&c->hdr, 0, &clk);
	LINE("The book's Haswell (CS:APP 3e):");
	LINE("a summary, no surface published");
	if (clk.ghz > 0 && c->l1d && c->l2 && c->l3)
		LINE("  %.1f GHz, L1d %s, L2 %s, L3 %s", clk.ghz, mt_fmt_size(a, sizeof a, c->l1d),
		     mt_fmt_size(b, sizeof b, c->l2), mt_fmt_size(d, sizeof d, c->l3));
	if (c->line)
		LINE("  line %llu B, peak about %s", (unsigned long long)c->line,
		     rate(a, sizeof a, c->peak));
	else
		LINE("  peak about %s", rate(a, sizeof a, c->peak));
	LINE("  ridge about %s (stride 1)", rate(a, sizeof a, c->ridge));
	LINE("  floor about %s (1/%.0f peak)", rate(a, sizeof a, c->floor), c->peak / c->floor);
	cyc = cpw_cycles(clk.ghz, c->l1_plateau);
	if (isfinite(cyc))
		LINE("  L1 %.0f MB/s: %s cycles a word", c->l1_plateau, cpw_fmt(g, sizeof g, cyc));
	if (isfinite(cyc) && c->l1_latency > 0)
		LINE("  L1 hit %.0f cycles: %.1f in flight", c->l1_latency,
		     cpw_in_flight(c->l1_latency, cyc));
#undef LINE
	return n;
}
