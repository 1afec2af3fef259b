/* matmul_compare: memtop compare of saved matmul results: a row per order
 * (ns per inner iteration), each file's value and its ratio to the first,
 * then the ratios the lesson reads within one machine (worst/best order,
 * ikj/blocked). */
#include "config.h"

#include "base/i18n.h"

#include "matmul.h"
#include "base/util.h"
#include "render/compare_table.h"
#include "run/result_kind.h"

#include <math.h>
#include <stdio.h>

/* The result of file i. */
static const struct matmul_result *mm(const struct result_file *f, int i)
{
	return f[i].r;
}

static double mm_ns(const struct matmul_result *r, int o)
{
	return r->res[o].have ? r->res[o].ns_iter : (double)NAN;
}

static void compare_matmul(const struct result_file *f, int nf)
{
	double v[CMP_MAX_FILES];
	char head[160], a[64], b[64];
	printf("%s", _("\nns per inner-loop iteration\n"));
	for (int i = 0; i < nf; i++)
		printf(_("  %c: n = %zu, block %zu, %s\n"), 'A' + i, mm(f, i)->n, mm(f, i)->block,
		       mm(f, i)->race ? _("race (one run each)") : _("best of tries"));
	for (int i = 1; i < nf; i++)
		if (mm(f, i)->n != mm(f, 0)->n) {
			printf("%s", _("  (n differs: the time an iteration grows with n once the "
				       "matrices leave the caches)\n"));
			break;
		}
	/* the head in columns (translated words): order 12 wide, then class */
	mt_snprintf(head, sizeof head, "%s %s", mt_text_pad(a, sizeof a, _("order"), -12),
		    mt_text_pad(b, sizeof b, _("class"), -5));
	cmp_ratio_head(head, nf);
	for (int o = 0; o < MATMUL_NORDERS; o++) {
		int any = 0;
		for (int i = 0; i < nf; i++)
			any |= !isnan(v[i] = mm_ns(mm(f, i), o));
		if (!any)
			continue;
		printf("%-12s %-5s", matmul_order_name(o), matmul_class_name(matmul_order_class(o)));
		cmp_ratio_row(v, nf, " %9.2f");
	}
	printf("%s", _("\nwithin each file:\n"));
	for (int i = 0; i < nf; i++) {
		const struct matmul_result *r = mm(f, i);
		double worst = fmax(mm_ns(r, MATMUL_JKI), mm_ns(r, MATMUL_KJI));
		double best = fmin(mm_ns(r, MATMUL_KIJ), mm_ns(r, MATMUL_IKJ));
		char wb[32] = "-", ib[32] = "-";
		if (!isnan(worst) && !isnan(best))
			mt_hsnprintf(wb, sizeof wb, "%.1fx", worst / best);
		if (!isnan(mm_ns(r, MATMUL_IKJ)) && !isnan(mm_ns(r, MATMUL_BLOCKED)))
			mt_hsnprintf(ib, sizeof ib, "%.2fx",
				     mm_ns(r, MATMUL_IKJ) / mm_ns(r, MATMUL_BLOCKED));
		printf(_("  %c: worst/best order %s; ikj/blocked %s\n"), 'A' + i, wb, ib);
	}
}

int matmul_compare(const struct result_file *f, size_t n, const struct result_compare_opts *o)
{
	(void)o;
	return compare_files(f, n, compare_matmul);
}
