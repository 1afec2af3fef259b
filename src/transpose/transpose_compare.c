/* transpose_compare: memtop compare of saved transpose results: the
 * simulated misses a row per version and size, the real machine's ns per
 * element a row per version, each file's value and its ratio to the first. */
#include "config.h"

#include "base/i18n.h"

#include "transpose.h"
#include "base/util.h"
#include "render/compare_table.h"
#include "run/result_kind.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The result of file i. */
static const struct transpose_result *tr(const struct result_file *f, int i)
{
	return f[i].r;
}

/* The misses of version (named) at rows x cols in r, or NAN. */
static double transpose_misses(const struct transpose_result *r, const char *version, int rows, int cols)
{
	char name[32];
	for (int v = 0; v < r->nversions; v++)
		for (int z = 0; z < r->nsizes; z++)
			if (r->have[v][z] && r->rows[z] == rows && r->cols[z] == cols &&
			    strcmp(transpose_version_name(&r->versions[v], name, sizeof name), version) == 0)
				return (double)r->sim[v][z].misses;
	return NAN;
}

/* The ns an element of real version (named) in r, or NAN. */
static double transpose_real_ns(const struct transpose_result *r, const char *version)
{
	char name[32];
	for (int i = 0; i < r->nreal; i++)
		if (r->real_ns[i] > 0 &&
		    strcmp(transpose_version_name(&r->real[i], name, sizeof name), version) == 0)
			return r->real_ns[i];
	return NAN;
}

/* The simulated misses, a row per version and size of A. */
static void compare_tr_sim(const struct result_file *f, int nf)
{
	const struct transpose_result *a = tr(f, 0);
	double v[CMP_MAX_FILES];
	char name[32], size[24], head[160], a1[64], a2[64];
	printf("%s", _("\nmisses on the simulated cache\n"));
	for (int i = 0; i < nf; i++)
		printf("  %c: (s,E,b) = (%d,%d,%d)\n", 'A' + i, tr(f, i)->s, tr(f, i)->E, tr(f, i)->b);
	/* the head in columns (translated words): version 10 wide, size 7 */
	mt_snprintf(head, sizeof head, "%s %s", mt_text_pad(a1, sizeof a1, _("version"), -10),
		    mt_text_pad(a2, sizeof a2, _("size"), -7));
	cmp_ratio_head(head, nf);
	for (int k = 0; k < a->nversions; k++)
		for (int z = 0; z < a->nsizes; z++) {
			transpose_version_name(&a->versions[k], name, sizeof name);
			for (int i = 0; i < nf; i++)
				v[i] = transpose_misses(tr(f, i), name, a->rows[z], a->cols[z]);
			if (isnan(v[0]))
				continue;
			mt_snprintf(size, sizeof size, "%dx%d", a->rows[z], a->cols[z]);
			printf("%-10s %-7s", name, size);
			cmp_ratio_row(v, nf, " %9.0f");
		}
}

/* The real machine's ns an element, a row per version A timed. */
static void compare_tr_real(const struct result_file *f, int nf)
{
	const struct transpose_result *a = tr(f, 0);
	double v[CMP_MAX_FILES];
	char name[32], head[96];
	printf("%s", _("\nns per element on the real machine\n"));
	for (int i = 0; i < nf; i++)
		if (tr(f, i)->real_n)
			printf(MT_NGETTEXT("  %c: N = %zu, best of %d\n", "  %c: N = %zu, best of %d\n",
					   tr(f, i)->real_tries),
			       'A' + i, tr(f, i)->real_n, tr(f, i)->real_tries);
		else
			printf(_("  %c: not timed\n"), 'A' + i);
	cmp_ratio_head(mt_text_pad(head, sizeof head, _("version"), -18), nf);
	for (int k = 0; k < a->nreal; k++) {
		transpose_version_name(&a->real[k], name, sizeof name);
		for (int i = 0; i < nf; i++)
			v[i] = transpose_real_ns(tr(f, i), name);
		if (isnan(v[0]))
			continue;
		printf("%-18s", name);
		cmp_ratio_row(v, nf, " %9.3f");
	}
}

static void compare_transpose(const struct result_file *f, int nf)
{
	compare_tr_sim(f, nf);
	if (tr(f, 0)->real_n)
		compare_tr_real(f, nf);
}

int transpose_compare(const struct result_file *f, size_t n, const struct result_compare_opts *o)
{
	(void)o;
	return compare_files(f, n, compare_transpose);
}
