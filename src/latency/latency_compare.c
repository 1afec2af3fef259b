/* latency_compare: the latency kind's memtop compare: saved latency runs
 * side by side: the random chase (else the largest stride every file has)
 * at the power-of-two sizes every file has, the ratios to the first, the
 * median difference over every size they share, and the levels each curve
 * shows. */
#include "config.h"

#include "base/i18n.h"

#include "latency.h"
#include "base/util.h"
#include "render/compare_table.h"
#include "run/result_kind.h"

#include <math.h>
#include <stdio.h>

#define MAX_FILES CMP_MAX_FILES

/* The curve compared: the random chase when every file has it, else the
 * largest stride they share. Sets *stride (0: random). Returns the values
 * of r at sizes[i] (ns), or NULL when r lacks it. */
static const double *latency_curve(const struct latency_result *r, unsigned stride)
{
	if (stride == 0)
		return r->has_random ? r->random_ns : NULL;
	for (size_t k = 0; k < r->nstrides; k++)
		if (r->strides[k] == stride)
			return r->ns[k];
	return NULL;
}

/* The index of size in r's sizes, or -1 when r has no such size. */
static int latency_size_index(const struct latency_result *r, uint64_t size)
{
	for (size_t i = 0; i < r->nsizes; i++)
		if (r->sizes[i] == size)
			return (int)i;
	return -1;
}

/* The curve to compare: 0 (the random chase) when every file has it, else
 * the largest fixed stride every file has; warns and returns -1 when they
 * share no curve. */
static int shared_stride(struct latency_result **r, int nfiles, unsigned *stride)
{
	int fixed = 0;
	*stride = 0;
	for (int i = 0; i < nfiles; i++)
		if (!r[i]->has_random)
			fixed = 1;
	if (!fixed)
		return 0;
	for (size_t k = 0; k < r[0]->nstrides; k++) {
		int all = 1;
		for (int i = 1; i < nfiles; i++)
			all &= latency_curve(r[i], r[0]->strides[k]) != NULL;
		if (all)
			*stride = r[0]->strides[k];
	}
	if (!*stride) {
		mt_warn(_("compare: the latency files share no curve"));
		return -1;
	}
	return 0;
}

/* Prints the table of the stride's curve at the power-of-two sizes every
 * file has, with ratios to the first. */
static void latency_table(struct latency_result **r, int nfiles, unsigned stride)
{
	struct cmp_table t;
	char title[64];
	if (stride)
		mt_snprintf(title, sizeof title, _("fixed stride %u B, ns a load"), stride);
	else
		mt_snprintf(title, sizeof title, "%s", _("random chase, ns a load"));
	cmp_begin(&t, title, _("size"), nfiles, 2, 0);
	for (size_t s = 0; s < r[0]->nsizes; s++) {
		uint64_t size = r[0]->sizes[s];
		double v[MAX_FILES];
		char b[32];
		int all = (size & (size - 1)) == 0; /* powers of two: a readable table */
		for (int i = 0; i < nfiles && all; i++) {
			int k = latency_size_index(r[i], size);
			v[i] = k < 0 ? (double)NAN : latency_curve(r[i], stride)[k];
			all = !isnan(v[i]);
		}
		if (all)
			cmp_row(&t, mt_fmt_size(b, sizeof b, size), v);
	}
	cmp_end(&t);
}

/* Prints, for each file after the first, the median relative difference and
 * the median ratio to the first over every size both have. */
static void latency_differences(struct latency_result **r, int nfiles, unsigned stride)
{
	double d[LATENCY_MAX_SIZES], q[LATENCY_MAX_SIZES];
	printf("%s", _("\nover every size the files share:\n"));
	for (int i = 1; i < nfiles; i++) {
		size_t n = 0;
		for (size_t s = 0; s < r[0]->nsizes; s++) {
			int k = latency_size_index(r[i], r[0]->sizes[s]);
			if (k >= 0)
				n = cmp_pair_add(d, q, n, latency_curve(r[0], stride)[s],
						 latency_curve(r[i], stride)[k]);
		}
		cmp_pairs_line((char)('A' + i), d, q, n, _("  %c vs A: no common sizes\n"),
			       MT_NGETTEXT("  %c vs A: %zu sizes, median difference %.1f %%, "
					   "median %c/A %.3f\n",
					   "  %c vs A: %zu sizes, median difference %.1f %%, "
					   "median %c/A %.3f\n",
					   n));
	}
}

/* Prints the levels each file's latency curve shows (TLB steps left out). */
static void latency_levels_each(struct latency_result **r, int nfiles)
{
	printf("%s", _("\nlevels by the latency curve:\n"));
	for (int i = 0; i < nfiles; i++) {
		struct latency_levels lv;
		char b[32];
		latency_detect(r[i], &lv);
		const char *sep = " ";
		printf("  %c:", 'A' + i);
		if (lv.n == 0 && !lv.has_memory)
			printf("%s", _(" no levels"));
		for (size_t k = 0; k < lv.n; k++)
			if (!lv.lv[k].tlb) {
				mt_hfprintf(stdout, _("%sL%d %s %.1f ns"), sep, lv.lv[k].level,
					    mt_fmt_size(b, sizeof b, lv.lv[k].size), lv.lv[k].ns);
				sep = ", ";
			}
		if (lv.has_memory)
			mt_hfprintf(stdout, _("%smemory %.1f ns"), sep, lv.memory_ns);
		printf("\n");
	}
}

int latency_compare(const struct result_file *f, size_t n, const struct result_compare_opts *o)
{
	struct latency_result *r[MAX_FILES] = { NULL };
	int nfiles = (int)n;
	unsigned stride = 0;
	(void)o;
	for (int i = 0; i < nfiles && i < MAX_FILES; i++)
		r[i] = f[i].r;
	if (shared_stride(r, nfiles, &stride) < 0)
		return MT_EXIT_USAGE;
	for (int i = 0; i < nfiles; i++)
		compare_print_header((char)('A' + i), f[i].path, &r[i]->hdr);
	latency_table(r, nfiles, stride);
	latency_differences(r, nfiles, stride);
	latency_levels_each(r, nfiles);
	return MT_EXIT_OK;
}
