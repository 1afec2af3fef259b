/* cycles: see cycles.h. */
#include "config.h"

#include "base/i18n.h"

#include "cycles.h"

#include <math.h>
#include <string.h>

#define BYTES_PER_WORD 8.0
#define MBS_NS_PER_BYTE 1000.0 /* 1 MB/s = one byte every 1000 ns (MB = 10^6 B) */

void cpw_clock_of(const struct run_header *h, int measured_here, struct cpw_clock *c)
{
	memset(c, 0, sizeof *c);
	mt_strlcpy(c->why, h->clock_note, sizeof c->why);
	if (h->clock.core_ghz > 0 && isfinite(h->clock.core_ghz)) {
		c->how = measured_here ? CPW_MEASURED : CPW_FILE;
		c->ghz = h->clock.core_ghz;
	} else if (h->ghz_bound > 0 && isfinite(h->ghz_bound)) {
		c->how = CPW_BOUND;
		c->ghz = h->ghz_bound;
	} else if (!measured_here && h->clock.ticks_per_ns > 0 && isfinite(h->clock.ticks_per_ns)) {
		/* an imported table that states only its program's clock (CS:APP's
		 * "Clock frequency is approx. 2100.0 MHz"): the file's, and said so */
		c->how = CPW_FILE;
		c->ghz = h->clock.ticks_per_ns;
		c->tsc = 1;
	} else {
		c->how = CPW_UNKNOWN;
	}
}

double cpw_cycles(double ghz, double mbs)
{
	if (!(ghz > 0) || !(mbs > 0) || !isfinite(ghz) || !isfinite(mbs))
		return NAN;
	return ghz * MBS_NS_PER_BYTE / mbs * BYTES_PER_WORD;
}

double cpw_ns_per_word(double mbs)
{
	if (!(mbs > 0) || !isfinite(mbs))
		return NAN;
	return MBS_NS_PER_BYTE * BYTES_PER_WORD / mbs;
}

void cpw_points_find(const struct mountain *m, const struct detection *d, struct cpw_points *p)
{
	int s1 = mountain_stride_index(m, 1);
	size_t first = m->nsizes > 1 ? 1 : 0; /* the smallest row is overhead-bound */
	memset(p, 0, sizeof *p);
	if (d && d->nlevels > 0 && s1 >= 0) {
		for (size_t r = first; r < m->nsizes && m->sizes[r] <= d->level[0]; r++) {
			double v = mountain_at(m, r, (size_t)s1);
			if (!p->have_l1)
				p->l1_first = r;
			p->l1_last = r;
			p->have_l1 = 1;
			if (isfinite(v) && v > p->l1_mbs) {
				p->l1_mbs = v;
				p->l1_row = r;
			}
		}
		if (!(p->l1_mbs > 0))
			p->have_l1 = 0;
	}
	for (size_t r = first; r < m->nsizes; r++)
		for (size_t c = 0; c < m->nstrides; c++) {
			double v = mountain_at(m, r, c);
			if (!isfinite(v) || v <= 0 || (p->have_floor && v >= p->floor_mbs))
				continue;
			p->have_floor = 1;
			p->floor_mbs = v;
			p->floor_row = r;
			p->floor_col = c;
		}
}

const char *cpw_fmt(char *buf, size_t len, double cycles)
{
	if (!isfinite(cycles))
		mt_snprintf(buf, len, "?");
	else /* for people: their decimal separator */
		mt_hnum(buf, len, cycles, cycles < 1 ? 2 : cycles < 10 ? 1 : 0);
	return buf;
}

/* The count that picks a form for cycles as cpw_fmt writes them: a whole
 * number itself, a fraction as 2 (English "cycles"; Russian takes the
 * genitive singular after a fraction, "4,2 такта", 2's form). */
static unsigned long cycles_form(double cycles)
{
	return isfinite(cycles) && cycles >= 10 ? (unsigned long)llround(cycles) : 2;
}

const char *cpw_phrase(char *buf, size_t len, double mbs, const struct cpw_clock *c)
{
	char v[32];
	double cyc = cpw_cycles(c->ghz, mbs);
	if (c->how == CPW_UNKNOWN || !isfinite(cyc))
		mt_snprintf(buf, len, "%s", _("cycles a word unknown (no core clock)"));
	else if (c->how == CPW_BOUND)
		mt_hsnprintf(buf, len,
			     MT_NGETTEXT("at most %s cycle a word (%.3g GHz bound)",
					 "at most %s cycles a word (%.3g GHz bound)", cycles_form(cyc)),
			     cpw_fmt(v, sizeof v, cyc), c->ghz);
	else
		mt_hsnprintf(buf, len,
			     MT_NGETTEXT("%s cycle a word at %.2f GHz", "%s cycles a word at %.2f GHz",
					 cycles_form(cyc)),
			     cpw_fmt(v, sizeof v, cyc), c->ghz);
	return buf;
}

const char *cpw_clock_words(char *buf, size_t len, const struct cpw_clock *c)
{
	switch (c->how) {
	case CPW_MEASURED:
		mt_hsnprintf(buf, len, _("core %.2f GHz, calibrated with the run"), c->ghz);
		break;
	case CPW_FILE:
		if (c->tsc) /* CS:APP times with the TSC and prints its rate */
			mt_hsnprintf(buf, len,
				     _("%.2f GHz, the TSC rate the file's program stated: the "
				       "time-stamp counter's, not the core clock, which may run "
				       "faster; a cycle here is a TSC tick"),
				     c->ghz);
		else if (c->why[0]) /* the file's own words */
			mt_hsnprintf(buf, len, _("core %.2f GHz, from the file: %s"), c->ghz, c->why);
		else
			mt_hsnprintf(buf, len, _("core %.2f GHz, from the file"), c->ghz);
		break;
	case CPW_BOUND:
		if (c->why[0]) /* the note names the bound */
			mt_snprintf(buf, len, _("core clock %s"), c->why);
		else
			mt_hsnprintf(buf, len, _("core clock unknown; read at the file's %.3g GHz bound"),
				     c->ghz);
		break;
	default:
		mt_snprintf(buf, len, "%s", _("core clock unknown: the file carries none"));
		break;
	}
	return buf;
}

double cpw_in_flight(double l1_latency_cycles, double l1_cycles_per_word)
{
	if (!(l1_latency_cycles > 0) || !(l1_cycles_per_word > 0) || !isfinite(l1_latency_cycles) ||
	    !isfinite(l1_cycles_per_word))
		return NAN;
	return l1_latency_cycles / l1_cycles_per_word;
}

void cpw_report(FILE *f, const struct mountain *m, int measured_here, const struct detection *d,
		double l1_latency_cycles)
{
	struct cpw_points p;
	struct cpw_clock c;
	char clk[480], a[32], b[32];
	double l1;
	cpw_clock_of(&m->hdr, measured_here, &c);
	cpw_points_find(m, d, &p);
	int bound;
	fprintf(f, _("cycles per word (%s):\n"), cpw_clock_words(clk, sizeof clk, &c));
	if (c.how == CPW_UNKNOWN) {
		fprintf(f, "%s", _("  not said: no core clock for this run\n"));
		return;
	}
	bound = c.how == CPW_BOUND;
	l1 = p.have_l1 ? cpw_cycles(c.ghz, p.l1_mbs) : (double)NAN;
	if (p.have_l1)
		mt_hfprintf(f,
			    bound ? MT_NGETTEXT("  L1 plateau %.0f MB/s (%s, stride %u): at most %s cycle "
						"a word\n",
						"  L1 plateau %.0f MB/s (%s, stride %u): at most %s cycles "
						"a word\n",
						cycles_form(l1))
				  : MT_NGETTEXT("  L1 plateau %.0f MB/s (%s, stride %u): %s cycle a word\n",
						"  L1 plateau %.0f MB/s (%s, stride %u): %s cycles a word\n",
						cycles_form(l1)),
			    p.l1_mbs, mt_fmt_size(a, sizeof a, m->sizes[p.l1_row]), m->strides[0],
			    cpw_fmt(b, sizeof b, l1));
	else
		fprintf(f, "%s", _("  L1 plateau: not found (no L1 cliff, or no stride of 1 word)\n"));
	if (p.have_floor)
		mt_hfprintf(f,
			    bound ? MT_NGETTEXT("  floor %.0f MB/s (%s, stride %u): at most %s cycle a "
						"word, %.2f ns a word\n",
						"  floor %.0f MB/s (%s, stride %u): at most %s cycles a "
						"word, %.2f ns a word\n",
						cycles_form(cpw_cycles(c.ghz, p.floor_mbs)))
				  : MT_NGETTEXT("  floor %.0f MB/s (%s, stride %u): %s cycle a word, %.2f "
						"ns a word\n",
						"  floor %.0f MB/s (%s, stride %u): %s cycles a word, %.2f "
						"ns a word\n",
						cycles_form(cpw_cycles(c.ghz, p.floor_mbs))),
			    p.floor_mbs, mt_fmt_size(a, sizeof a, m->sizes[p.floor_row]),
			    m->strides[p.floor_col],
			    cpw_fmt(b, sizeof b, cpw_cycles(c.ghz, p.floor_mbs)),
			    cpw_ns_per_word(p.floor_mbs));
	if (l1_latency_cycles > 0 && isfinite(l1))
		mt_hfprintf(f,
			    bound ? _("  loads in flight: at least %.1f (an L1 hit takes %.1f cycles)\n")
				  : _("  loads in flight: %.1f (an L1 hit takes %.1f cycles)\n"),
			    cpw_in_flight(l1_latency_cycles, l1), l1_latency_cycles);
}

/* A number, or null when it is not finite. */
static void add_number(cJSON *o, const char *key, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

/* One place of the reading: its MB/s, size, stride and cycles a word. */
static cJSON *point_json(double mbs, uint64_t size, unsigned stride, double ghz)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "mbs", mbs);
	cJSON_AddNumberToObject(o, "size", (double)size);
	cJSON_AddNumberToObject(o, "stride", stride);
	add_number(o, "cycles_per_word", cpw_cycles(ghz, mbs));
	add_number(o, "ns_per_word", cpw_ns_per_word(mbs));
	return o;
}

cJSON *cpw_to_json(const struct mountain *m, int measured_here, const struct detection *d)
{
	static const char *const how[] = { "unknown", "measured", "file", "bound" };
	struct cpw_points p;
	struct cpw_clock c;
	cJSON *o = cJSON_CreateObject(), *x;
	if (!o)
		return NULL;
	cpw_clock_of(&m->hdr, measured_here, &c);
	cpw_points_find(m, d, &p);
	add_number(o, "core_ghz", c.how == CPW_UNKNOWN ? (double)NAN : c.ghz);
	cJSON_AddStringToObject(o, "clock", how[c.how]);
	if (c.why[0])
		cJSON_AddStringToObject(o, "note", c.why);
	x = p.have_l1 ? point_json(p.l1_mbs, m->sizes[p.l1_row], m->strides[0], c.ghz)
		      : cJSON_CreateNull();
	if (!x || !cJSON_AddItemToObject(o, "l1_plateau", x))
		goto fail;
	x = p.have_floor ? point_json(p.floor_mbs, m->sizes[p.floor_row], m->strides[p.floor_col],
				      c.ghz)
			 : cJSON_CreateNull();
	if (!x || !cJSON_AddItemToObject(o, "floor", x))
		goto fail;
	return o;
fail:
	cJSON_Delete(x);
	cJSON_Delete(o);
	return NULL;
}
