/* matmul_orders: the loop orders of the matmul lab (matmul.h): their names,
 * the blocked versions, the class of each order and what its inner loop walks,
 * and the book's miss estimate. What the kernels, the worker, the miss model
 * and the result file all use. */
#include "config.h"

#include "base/i18n.h"

#include "matmul.h"

#include <string.h>

static const char *const order_names[MATMUL_NORDERS] = {
	"ijk", "jik", "jki", "kji", "kij", "ikj", "blocked",
	"blocked-ijk", "blocked-jik", "blocked-jki", "blocked-kji", "blocked-kij"
};

const char *matmul_order_name(int order)
{
	if (order < 0 || order >= MATMUL_NORDERS)
		return NULL;
	return order_names[order];
}

unsigned matmul_run_orders(const struct matmul_params *p)
{
	return (p->orders ? p->orders : MATMUL_CLASSIC_MASK) | 1u << MATMUL_IJK;
}

int matmul_order_parse(const char *s)
{
	if (strcmp(s, "blocked-ikj") == 0)
		return MATMUL_BLOCKED;
	for (int i = 0; i < MATMUL_NORDERS; i++)
		if (strcmp(s, order_names[i]) == 0)
			return i;
	return -1;
}

int matmul_base_order(int order)
{
	if (order == MATMUL_BLOCKED)
		return MATMUL_IKJ;
	return order > MATMUL_BLOCKED ? order - MATMUL_B_IJK + MATMUL_IJK : order;
}

int matmul_blocked_of(int order)
{
	if (order == MATMUL_IKJ)
		return MATMUL_BLOCKED;
	return order < MATMUL_IKJ ? order - MATMUL_IJK + MATMUL_B_IJK : order;
}

int matmul_blocked_parse(const char *list, unsigned *mask)
{
	char buf[128], *save = NULL, *tok;
	*mask = 0;
	if (strcmp(list, "none") == 0)
		return 0;
	if (strcmp(list, "all") == 0)
		list = "ijk,jik,jki,kji,kij,ikj";
	if (mt_strlcpy(buf, list, sizeof buf) < 0)
		return -1;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int o = matmul_order_parse(tok);
		if (o < 0 || matmul_is_blocked(o))
			return -1;
		*mask |= 1u << matmul_blocked_of(o);
	}
	return *mask ? 0 : -1;
}

enum matmul_class matmul_order_class(int order)
{
	switch (matmul_base_order(order)) {
	case MATMUL_IJK:
	case MATMUL_JIK:
		return MATMUL_AB;
	case MATMUL_JKI:
	case MATMUL_KJI:
		return MATMUL_AC;
	default:
		return MATMUL_BC;
	}
}

const char *matmul_class_name(enum matmul_class c)
{
	switch (c) {
	case MATMUL_AB:
		return "AB";
	case MATMUL_AC:
		return "AC";
	default:
		return "BC";
	}
}

void matmul_inner_walk(int order, enum matmul_walk walk[3])
{
	switch (matmul_order_class(order)) {
	case MATMUL_AB: /* inner k: a[i][k] along a row, b[k][j] down a column */
		walk[0] = MATMUL_WALK_ROW;
		walk[1] = MATMUL_WALK_COL;
		walk[2] = MATMUL_WALK_NONE;
		break;
	case MATMUL_AC: /* inner i: a[i][k], c[i][j] down columns, b[k][j] held */
		walk[0] = MATMUL_WALK_COL;
		walk[1] = MATMUL_WALK_REG;
		walk[2] = MATMUL_WALK_COL;
		break;
	default: /* inner j: b[k][j], c[i][j] along rows, a[i][k] held */
		walk[0] = MATMUL_WALK_REG;
		walk[1] = MATMUL_WALK_ROW;
		walk[2] = MATMUL_WALK_ROW;
		break;
	}
}

const char *matmul_walk_name(enum matmul_walk w)
{
	switch (w) {
	/* words for people (the Matmul tab's matrices) */
	case MATMUL_WALK_ROW:
		return _("along a row");
	case MATMUL_WALK_COL:
		return _("down a column");
	case MATMUL_WALK_REG:
		return _("in a register");
	default:
		return _("summed in a register");
	}
}

double matmul_book_estimate(int order, double L, double miss[3])
{
	enum matmul_walk w[3];
	double total = 0;
	if (L < 1)
		L = 1;
	matmul_inner_walk(order, w);
	for (int m = 0; m < 3; m++) {
		miss[m] = w[m] == MATMUL_WALK_ROW ? 1.0 / L : w[m] == MATMUL_WALK_COL ? 1.0 : 0.0;
		total += miss[m];
	}
	return total;
}
