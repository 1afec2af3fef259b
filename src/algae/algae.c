/* algae: array of structs against struct of arrays on a toy cache (see
 * algae.h); its batch mode is algae_batch.c. */
#include "config.h"

#include "algae.h"
#include "base/i18n.h"
#include "base/jsonio.h"
#include "os/barrier.h"
#include "os/clock.h"
#include "run/diag.h"
#include "sim/sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The book's cache: 1 KB direct-mapped, 16-byte blocks = (6, 1, 4); a
 * 16x16 grid. */
enum { ALGAE_S = 6, ALGAE_E = 1, ALGAE_B = 4, N = 16 };
#define FIELD_BYTES 4      /* an int */
#define SOA_STRIDE 1024    /* 256 ints: one field's array */
#define REAL_TRIES 5
#define REAL_READS (1u << 22) /* elements read a try, at least */

void algae_params_default(struct algae_params *p)
{
	memset(p, 0, sizeof *p);
	p->s = ALGAE_S;
	p->E = ALGAE_E;
	p->b = ALGAE_B;
	p->fields = 2;
	p->tries = REAL_TRIES;
}

/* Field f of grid[i][j] as an array of structs / as a struct of arrays. */
static uint64_t aos(const struct algae_params *p, int i, int j, int f)
{
	return ((uint64_t)(i * N + j) * (uint64_t)p->fields + (uint64_t)f) * FIELD_BYTES;
}

static uint64_t soa(int i, int j, int f)
{
	return (uint64_t)f * SOA_STRIDE + (uint64_t)(i * N + j) * FIELD_BYTES;
}

static const struct {
	const char *name, *what;
} cases[ALGAE_CASES] = {
	{ "aos-two-passes", N_("array of structs: all x by rows, then all y (6.18)") },
	{ "aos-column", N_("array of structs: grid[j][i] by columns, x and y (6.19)") },
	{ "aos-row", N_("array of structs: grid[i][j] by rows, x and y (6.20)") },
	{ "soa-two-passes", N_("struct of arrays: all x, then all y") },
	{ "soa-one-pass", N_("struct of arrays: x[k] then y[k], 1 KB apart") },
	{ "aos-one-field", N_("array of structs: only x, by rows (CHK-5)") },
	{ "soa-one-field", N_("struct of arrays: only x (CHK-5, MultiArrayList)") },
};

/* The reads of case which, through c. */
static void walk_case(struct sim_cache *c, const struct algae_params *p, int which)
{
	for (int pass = 0; pass < (which == 0 || which == 3 ? 2 : 1); pass++)
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				switch (which) {
				case 0: sim_access(c, aos(p, i, j, pass), 0); break;
				case 1:
					sim_access(c, aos(p, j, i, 0), 0);
					sim_access(c, aos(p, j, i, 1), 0);
					break;
				case 2:
					sim_access(c, aos(p, i, j, 0), 0);
					sim_access(c, aos(p, i, j, 1), 0);
					break;
				case 3: sim_access(c, soa(i, j, pass), 0); break;
				case 4:
					sim_access(c, soa(i, j, 0), 0);
					sim_access(c, soa(i, j, 1), 0);
					break;
				case 5: sim_access(c, aos(p, i, j, 0), 0); break;
				default: sim_access(c, soa(i, j, 0), 0); break;
				}
}

int algae_run(int which, const struct algae_params *p, struct algae_result *out, mt_error *e)
{
	struct sim_cache *c;
	struct sim_stats st;
	if (which < 0 || which >= ALGAE_CASES)
		return mt_fail(e, _("algae: no case %d"), which);
	if (p->fields < 2 || p->fields > ALGAE_MAX_FIELDS)
		return mt_fail(e, _("algae: a struct has 2..%d fields, not %d"), ALGAE_MAX_FIELDS,
			       p->fields);
	c = sim_new(p->s, p->E, p->b, e);
	if (!c)
		return -1;
	walk_case(c, p, which);
	sim_stats(c, &st);
	sim_free(c);
	out->name = cases[which].name;
	out->what = cases[which].what;
	out->reads = st.accesses;
	out->misses = st.misses;
	return 0;
}

/* ---- the real machine: one field of N structs ------------------------------ */

/* As in matmul.c: GCC's -O2 cost model skips loops of unknown trip count;
 * the seed's Zig (LLVM) vectorizes the struct of arrays' pass, so ask GCC
 * for its normal model here too. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("vect-cost-model=dynamic")
#endif

static MT_KERNEL int64_t sum_aos(const int32_t *a, size_t n, size_t fields)
{
	int64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i * fields];
	return s;
}

static MT_KERNEL int64_t sum_soa(const int32_t *x, size_t n)
{
	int64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s;
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

/* Best and second best ns per element of one layout (soa: 1). Returns 0,
 * or 1 when cancelled. *sum gets one pass's sum. */
static int time_layout(job_t *job, const struct algae_params *p, const int32_t *data, int soa_v,
		       double *best, double *second, int64_t *sum)
{
	const size_t n = p->real_n, reps = REAL_READS / n ? REAL_READS / n : 1;
	*best = *second = INFINITY;
	*sum = soa_v ? sum_soa(data, n) : sum_aos(data, n, (size_t)p->fields); /* warm-up */
	for (int t = 0; t < p->tries; t++) {
		uint64_t t0;
		int64_t s = 0;
		double ns;
		if (job_check(job) == JOB_CANCELLED)
			return 1;
		t0 = mt_now_ns();
		for (size_t r = 0; r < reps; r++) {
			const int32_t *d = data;
			mt_launder(d); /* each pass reads again */
			s += soa_v ? sum_soa(d, n) : sum_aos(d, n, (size_t)p->fields);
		}
		ns = (double)(mt_now_ns() - t0) / ((double)reps * (double)n);
		mt_sink(s);
		if (ns < *best) {
			*second = *best;
			*best = ns;
		} else if (ns < *second) {
			*second = ns;
		}
	}
	return 0;
}

int algae_worker(job_t *job, void *arg, mt_error *e)
{
	const struct algae_params *p = arg;
	const size_t n = p->real_n, f = (size_t)p->fields;
	int32_t *a = malloc(n * f * sizeof *a), *x = malloc(n * f * sizeof *x);
	int64_t sums[2];
	int rc = 0;
	job_set_total(job, 2);
	if (!a || !x) {
		rc = mt_fail(e,
			     MT_NGETTEXT("algae: out of memory for %zu structs",
					 "algae: out of memory for %zu structs", n),
			     n);

		goto out;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < f; k++)
			a[i * f + k] = x[k * n + i] = (int32_t)((i * 7 + k) % 1000);
	for (int v = 0; v < 2; v++) {
		struct job_event ev;
		double best, second;
		if (time_layout(job, p, v ? x : a, v, &best, &second, &sums[v]))
			goto out;
		job_cell(&ev, ALGAE_EV_REAL, v, 0, best, job_spread(best, second));
		JOB_PAYLOAD_PUT(&ev, struct algae_ev_real,
				&((struct algae_ev_real){ .n = n,
							  .fields = f,
							  .tries = p->tries,
							  .same = v == 0 || sums[0] == sums[1] }));
		job_emit(job, &ev);
	}
out:
	free(a);
	free(x);
	return rc;
}
