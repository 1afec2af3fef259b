/* import_c2c: core-to-core-latency's --csv output (github.com/nviennot/
 * core-to-core-latency) into a cores result. The tool prints, for each of
 * its benchmarks, N lines of N comma-separated fields: line i + 1 holds in
 * field j < i the mean one-way ns (round trip / 2) between its CPUs i and j
 * (the indices of the cores it found, 0..N-1), the other fields empty, so
 * the first line is N - 1 commas alone. The first matrix is its
 * compare-and-swap ping-pong on one line (the method of memtop run cores);
 * a second one after it (its two-line read/write test) is left out, and
 * said in the result's origin. Any other line fails the import with its
 * number. */
#include "config.h"

#include "base/i18n.h"
#include "import.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define C2C_LINE_MAX 65536

/* A cursor over whole lines of any length (up to C2C_LINE_MAX). */
struct c2c_lines {
	const char *p;
	size_t no;
	const char *s; /* the current line, not terminated */
	size_t len;
};

static int next_line(struct c2c_lines *l)
{
	const char *end;
	if (!l->p || !*l->p)
		return 0;
	end = strchr(l->p, '\n');
	l->s = l->p;
	l->len = end ? (size_t)(end - l->p) : strlen(l->p);
	if (l->len && l->s[l->len - 1] == '\r')
		l->len--;
	l->p = end ? end + 1 : l->p + strlen(l->p);
	l->no++;
	return 1;
}

static int blank(const struct c2c_lines *l)
{
	for (size_t i = 0; i < l->len; i++)
		if (l->s[i] != ' ' && l->s[i] != '\t')
			return 0;
	return 1;
}

/* Fields in the line (commas + 1). */
static size_t fields(const struct c2c_lines *l)
{
	size_t n = 1;
	for (size_t i = 0; i < l->len; i++)
		n += l->s[i] == ',';
	return n;
}

/* Only commas: the first line of a matrix. */
static int commas_only(const struct c2c_lines *l)
{
	if (l->len == 0)
		return 0;
	for (size_t i = 0; i < l->len; i++)
		if (l->s[i] != ',')
			return 0;
	return 1;
}

int import_c2c_detect(const char *text)
{
	struct c2c_lines l = { text, 0, NULL, 0 };
	while (next_line(&l) && blank(&l))
		;
	if (!l.s || !commas_only(&l))
		return 0;
	return next_line(&l) && l.len > 0 && (l.s[0] >= '0' && l.s[0] <= '9');
}

static int bad(mt_error *e, const char *file, const struct c2c_lines *l, const char *what)
{
	char ex[48];
	size_t k = 0;
	for (size_t i = 0; i < l->len && k + 1 < sizeof ex && i < 40; i++)
		ex[k++] = l->s[i] >= 0x20 && l->s[i] < 0x7f ? l->s[i] : '?';
	ex[k] = '\0';
	return mt_fail(e, _("%s: line %zu: %s, got '%s%s'"), file, l->no, what, ex,
		       l->len > 40 ? "..." : "");
}

/* Row i (line i + 1) of n fields into ns[i][0..i). Returns 0, or -1 with e. */
static int read_row(const struct c2c_lines *l, const char *file, int n, int i, double *ns,
		    mt_error *e)
{
	const char *p = l->s, *end = l->s + l->len;
	char num[64], what[256];
	if (fields(l) != (size_t)n) {
		mt_snprintf(what, sizeof what,
			    MT_NGETTEXT("expected %d comma-separated fields, as the first line",
					"expected %d comma-separated fields, as the first line", n),
			    n);
		return bad(e, file, l, what);
	}
	for (int j = 0; j < n; j++) {
		const char *q = memchr(p, ',', (size_t)(end - p));
		size_t len = (size_t)((q ? q : end) - p);
		if (j < i) {
			if (len)
				memcpy(num, p, len < sizeof num ? len : sizeof num - 1);
			num[len < sizeof num ? len : sizeof num - 1] = '\0';
			if (len == 0 || len >= sizeof num || mt_parse_double(num, &ns[j]) < 0 ||
			    !(ns[j] > 0) || !isfinite(ns[j])) {
				mt_snprintf(what, sizeof what,
					    _("field %d: expected the ns of CPUs %d "
					      "and %d, a number above 0"),
					    j + 1, i, j);
				return bad(e, file, l, what);
			}
		} else if (len) {
			mt_snprintf(what, sizeof what, _("field %d is on or above the diagonal: "
				    "expected it empty"), j + 1);
			return bad(e, file, l, what);
		}
		p = q ? q + 1 : end;
	}
	return 0;
}

/* A plan of n CPUs 0..n-1 and every pair, relations unknown. */
static int make_result(int n, struct cores_result **out, mt_error *e)
{
	static struct cores_place pc[CORES_MAX_CPUS];
	struct cores_plan pl;
	struct cores_params p;
	struct cores_result *r = calloc(1, sizeof *r);
	int rc;
	if (!r)
		return mt_fail(e, _("out of memory"));
	for (int i = 0; i < n; i++) {
		pc[i].cpu = i;
		pc[i].core = pc[i].group = -1;
		pc[i].text[0] = '\0';
	}
	memset(&p, 0, sizeof p);
	rc = cores_plan_make(&pl, &p, pc, n, 0, NULL, NULL, e);
	if (rc == 0)
		rc = cores_result_init(r, &pl, e);
	cores_plan_free(&pl);
	if (rc < 0) {
		cores_result_free(r);
		free(r);
		return -1;
	}
	*out = r;
	return 0;
}

/* The matrix's cells into r's pairs (every pair i > j). */
static void fill(struct cores_result *r, int i, const double *ns)
{
	for (int j = 0; j < i; j++) {
		int k = r->at[(size_t)i * (size_t)r->plan.n + (size_t)j];
		struct cores_pair *q = &r->plan.pairs[k];
		q->ns = ns[j];
		q->have = 1;
	}
}

int import_c2c(const char *text, const char *file, struct cores_result **out, mt_error *e)
{
	struct c2c_lines l = { text, 0, NULL, 0 };
	struct cores_result *r = NULL;
	double *ns = NULL;
	int n, second = 0;
	*out = NULL;
	while (next_line(&l) && blank(&l))
		;
	if (!l.s || l.len == 0)
		return mt_fail(e, _("%s: empty: no matrix to import"), file);
	if (l.len >= C2C_LINE_MAX || !commas_only(&l))
		return bad(e, file, &l, _("expected the first line of core-to-core-latency's CSV, "
				      "commas alone"));
	n = (int)fields(&l);
	if (n < 2 || n > CORES_MAX_CPUS) {
		char what[160];
		mt_snprintf(what, sizeof what, _("expected 2 to %d CPUs (fields)"), CORES_MAX_CPUS);
		return bad(e, file, &l, what);
	}
	if (make_result(n, &r, e) < 0)
		return -1;
	if (!(ns = calloc((size_t)n, sizeof *ns))) {
		mt_fail(e, _("%s: out of memory"), file);
		goto fail;
	}
	for (int i = 1; i < n; i++) {
		if (!next_line(&l)) {
			mt_fail(e,
				MT_NGETTEXT("%s: line %zu: the matrix ends after %d of its %d rows",
					    "%s: line %zu: the matrix ends after %d of its %d rows",
					    n),
				file, l.no + 1, i, n);
			goto fail;
		}
		memset(ns, 0, (size_t)n * sizeof *ns);
		if (read_row(&l, file, n, i, ns, e) < 0)
			goto fail;
		fill(r, i, ns);
	}
	while (next_line(&l)) {
		if (blank(&l))
			continue;
		if (commas_only(&l) && fields(&l) == (size_t)n && !second) {
			second = 1; /* the second benchmark's matrix: left out */
			for (int i = 1; i < n && next_line(&l); i++)
				;
			continue;
		}
		bad(e, file, &l, _("expected nothing after the matrix"));
		goto fail;
	}
	mt_snprintf(r->origin, sizeof r->origin, "core-to-core-latency --csv: the mean of its "
		    "samples, one-way; CPUs are its core indices%s",
		    second ? "; its second matrix (two-line read/write) left out" : "");
	cores_result_summarise(r);
	free(ns);
	*out = r;
	return 0;
fail:
	free(ns);
	if (r) {
		cores_result_free(r);
		free(r);
	}
	return -1;
}
