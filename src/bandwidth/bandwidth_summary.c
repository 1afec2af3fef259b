/* bandwidth_summary: run bandwidth's text after its table (bandwidth_result.h's
 * bandwidth_summary_print): the core the ceilings come from, each
 * one-thread cell's share of its core's ceiling at the clock around its
 * try, the lesson, the cells that stand out. */
#include "config.h"

#include "bandwidth.h"
#include "base/i18n.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void bandwidth_size_name(char *buf, size_t len, const struct bandwidth_size *sz)
{
	char a[32];
	mt_snprintf(buf, len, "%s%s%s", sz->level, sz->level[0] ? " " : "",
		    mt_fmt_size(a, sizeof a, sz->bytes));
}

/* After kernel k of a row, a new line when per_line kernels are on this
 * one (a "# " comment line under the table's: indent columns in). */
static void fold(size_t per_line, size_t nkernels, FILE *f, size_t k, int indent)
{
	if (per_line && (k + 1) % per_line == 0 && k + 1 < nkernels)
		fprintf(f, "\n#%*s", indent - 1, "");
}


/* What the ceilings come from: the core, its figures and their source. */
static void print_core(FILE *m, const struct bandwidth_result *r)
{
	const struct bandwidth_core *c = bandwidth_core_find(&r->cpu);
	char id[96];
	bandwidth_cpu_id_text(&r->cpu, id, sizeof id);
	if (!c) {
		fprintf(m, _("# no ceiling known for this core (%s): bytes a cycle only\n"), id);
		return;
	}
	fprintf(m, _("# ceilings of %s (%s; %s): L1 %u loads a cycle (%u vector, up to %u B each, "
		     "%u B in all), %u stores (up to %u B, %u B in all), L2 fill %u B, L3 fill %u B "
		     "a cycle (0: no figure); source: %s\n"),
		c->name, c->cores, id, c->loads, c->vloads, c->load_w, c->load_bpc, c->stores,
		c->store_w, c->store_bpc, c->l2_bpc, c->l3_bpc, c->source);
}

/* Which clock the one-thread table divides by: the clocks around the
 * cells' best tries (their range, the run's beside it, and a warning when
 * they are more than MT_CLOCK_AGREE apart or from the calibrated one),
 * else the run's. */
static void print_share_clock(FILE *m, const struct bandwidth_result *r)
{
	int measured;
	double run = bandwidth_result_ghz(r, &measured), lo, hi;
	double cal = r->hdr.clock.core_ghz;
	if (!bandwidth_try_clocks(r, &lo, &hi)) {
		mt_hfprintf(m, _("# one thread in bytes a cycle at %.2f GHz (the core clock %s) and %% "
				 "of the core's ceiling (- none):\n"),
			    run, _(bandwidth_clock_name(measured)));
		return;
	}
	mt_hfprintf(m, _("# one thread in bytes a cycle at the core clock measured around each "
			 "cell's best try (dependent adds, 0.2 ms before and after it): %.2f-%.2f "
			 "GHz; at the run's start and end %.2f, calibrated %.2f; and %% of the core's "
			 "ceiling (- none):\n"),
		    lo, hi, run, cal);
	if (mt_clock_disagrees(lo, hi) || mt_clock_disagrees(cal, lo) || mt_clock_disagrees(cal, hi))
		mt_hfprintf(m, _("# warning: the core clock around the tries moved %.2f-%.2f GHz "
				 "(%+.0f %%), calibrated %.2f: turbo, throttling or a busy host; each "
				 "cell divides by its own\n"),
			    lo, hi, 100 * mt_clock_drift(lo, hi), cal);
}

/* One thread's cells in bytes a cycle at the clock around each cell's try
 * (else the run's) and their share of the core's ceiling: a row a size, a
 * column a kernel. */
static void print_shares(FILE *m, const struct bandwidth_result *r, int csv, size_t per_line)
{
	int measured, doubt = 0;
	double ghz = bandwidth_result_ghz(r, &measured), lo, hi;
	char name[48], cell[32];
	if ((ghz <= 0 && !bandwidth_try_clocks(r, &lo, &hi)) || csv)
		return;
	print_share_clock(m, r);
	fprintf(m, "# %s", mt_text_pad(cell, sizeof cell, _("size"), -10));
	for (size_t k = 0; k < r->nkernels; k++) {
		fprintf(m, " %11s", bandwidth_kernel_name(r->kernels[k]));
		fold(per_line, r->nkernels, m, k, 12);
	}
	fprintf(m, "\n");
	for (size_t si = 0; si < r->nsizes; si++) {
		bandwidth_size_name(name, sizeof name, &r->sizes[si]);
		fprintf(m, "# %-10s", name);
		for (size_t k = 0; k < r->nkernels; k++) {
			struct bandwidth_share sh;
			if (bandwidth_cell_share(r, si, r->kernels[k], 0, &sh) < 0)
				mt_strlcpy(cell, "-", sizeof cell);
			else if (sh.ceiling > 0)
				mt_hsnprintf(cell, sizeof cell, "%.1f %3.0f%%", sh.bpc, 100 * sh.fraction);
			else
				mt_hsnprintf(cell, sizeof cell, "%.1f    -", sh.bpc);
			doubt |= sh.ceiling > 0 && *bandwidth_ceiling_doubt(sh.fraction);
			fprintf(m, " %11s", cell);
			fold(per_line, r->nkernels, m, k, 12);
		}
		fprintf(m, "\n");
	}
	print_core(m, r);
	if (doubt)
		fprintf(m, _("# a cell over 105 %% of its ceiling%s\n"), _(bandwidth_ceiling_doubt(2)));
}

/* The cells that read what a table should not, with their reasons: the
 * vector read, the triad. */
static void print_odd(FILE *m, const struct bandwidth_result *r)
{
	static const int kernels[] = { BANDWIDTH_READ_VECTOR, BANDWIDTH_TRIAD };
	char lines[8][BANDWIDTH_NOTE_LEN];
	for (size_t k = 0; k < MT_ARRAY_LEN(kernels); k++) {
		int n = bandwidth_odd_cells(r, kernels[k], lines, 8);
		for (int i = 0; i < n; i++)
			fprintf(m, _("# odd: %s\n"), lines[i]);
	}
}

/* After the table: the L1 vector read against the load ports, the
 * lessons (consumed loads, the write-allocate), and the scaling over
 * threads at the largest size. */
void bandwidth_summary_print(FILE *m, const struct bandwidth_result *r, int csv, size_t per_line)
{
	size_t last = r->nsizes ? r->nsizes - 1 : 0;
	unsigned lost = 0, cells = 0;
	if (!r->nsizes || !r->nthreads)
		return;
	for (size_t s = 0; s < r->nsizes; s++)
		for (size_t k = 0; k < r->nkernels; k++)
			for (size_t t = 0; t < r->nthreads; t++) {
				const struct bandwidth_cell *c = &r->cell[s][r->kernels[k]][t];
				cells += c->have;
				lost += c->have && c->preempted > 0;
			}
	if (lost) {
		char line[400];
		fprintf(m, "# %s\n", bandwidth_lost_said(lost, cells, 0, line, sizeof line));
	}
	print_shares(m, r, csv, per_line);
	if (!csv) {
		char line[800];
		int shared;
		if (bandwidth_ports_verdict_said(r, line, sizeof line, &shared))
			fprintf(m, shared ? _("# warning: %s\n") : "# %s\n", line);
	}
	{
		static const int lessons[] = { BANDWIDTH_LOAD, BANDWIDTH_COPY, BANDWIDTH_TRIAD, BANDWIDTH_FILL, BANDWIDTH_COPY_LIB };
		for (size_t i = 0; i < MT_ARRAY_LEN(lessons); i++) {
			char lesson[600];
			if (bandwidth_lesson(r, lessons[i], lesson, sizeof lesson))
				fprintf(m, "# %s\n", lesson);
		}
	}
	for (size_t t = 1; t < r->nthreads; t++) {
		const struct bandwidth_cell *one = &r->cell[last][BANDWIDTH_READ_VECTOR][0];
		const struct bandwidth_cell *n = &r->cell[last][BANDWIDTH_READ_VECTOR][t];
		char name[48];
		if (!one->have || !n->have || one->gbs <= 0)
			continue;
		bandwidth_size_name(name, sizeof name, &r->sizes[last]);
		mt_hfprintf(m, MT_NGETTEXT("# %s read_vector: %u thread %.1f GB/s, %.2fx one thread's "
					   "%.1f%s\n",
					   "# %s read_vector: %u threads %.1f GB/s, %.2fx one thread's "
					   "%.1f%s\n", r->threads[t].threads),
			    name, r->threads[t].threads, n->gbs, n->gbs / one->gbs, one->gbs,
			    n->gbs > BANDWIDTH_ODD_FASTER * r->threads[t].threads / r->threads[0].threads *
					     one->gbs
				    ? _(" (more than the thread count: see below)")
				    : "");
	}
	print_odd(m, r);
}

