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
	printf("\nns per inner-loop iteration\n");
	for (int i = 0; i < nf; i++)
		printf("  %c: n = %zu, block %zu, %s\n", 'A' + i, mm(f, i)->n, mm(f, i)->block,
		       mm(f, i)->race ? "race (one run each)" : "best of tries");
	for (int i = 1; i < nf; i++)
		if (mm(f, i)->n != mm(f, 0)->n) {
			printf("  (n differs: the time an iteration grows with n once the matrices "
			       "leave the caches)\n");
			break;
		}
	cmp_ratio_head("order        class", nf);
	for (int o = 0; o < MATMUL_NORDERS; o++) {
		int any = 0;
		for (int i = 0; i < nf; i++)
			any |= !isnan(v[i] = mm_ns(mm(f, i), o));
		if (!any)
			continue;
		printf("%-12s %-5s", matmul_order_name(o), matmul_class_name(matmul_order_class(o)));
		cmp_ratio_row(v, nf, " %9.2f");
	}
	printf("\nwithin each file:\n");
	for (int i = 0; i < nf; i++) {
		const struct matmul_result *r = mm(f, i);
		double worst = fmax(mm_ns(r, MATMUL_JKI), mm_ns(r, MATMUL_KJI));
		double best = fmin(mm_ns(r, MATMUL_KIJ), mm_ns(r, MATMUL_IKJ));
		printf("  %c: worst/best order ", 'A' + i);
		if (isnan(worst) || isnan(best))
			printf("-");
		else
			printf("%.1fx", worst / best);
		printf("; ikj/blocked ");
		if (isnan(mm_ns(r, MATMUL_IKJ)) || isnan(mm_ns(r, MATMUL_BLOCKED)))
			printf("-\n");
		else
			printf("%.2fx\n", mm_ns(r, MATMUL_IKJ) / mm_ns(r, MATMUL_BLOCKED));
	}
}

int matmul_compare(const struct result_file *f, size_t n, const struct result_compare_opts *o)
{
	(void)o;
	return compare_files(f, n, compare_matmul);
}
