/* algae: array of structs against struct of arrays on a toy cache (see
 * algae.h), and `memtop run algae`. */
#include "config.h"

#include "algae.h"
#include "core/batch.h"
#include "core/diag.h"
#include "core/experiment.h"
#include "core/jsonio.h"
#include "sim/sim.h"

#include <stdio.h>
#include <string.h>

/* 1 KB direct-mapped, 16-byte blocks: (s, E, b) = (6, 1, 4). */
enum { ALGAE_S = 6, ALGAE_E = 1, ALGAE_B = 4, N = 16 };

static uint64_t aos_x(int i, int j)
{
	return (uint64_t)(i * N + j) * 8;
}

static uint64_t aos_y(int i, int j)
{
	return (uint64_t)(i * N + j) * 8 + 4;
}

static uint64_t soa_x(int i, int j)
{
	return (uint64_t)(i * N + j) * 4;
}

static uint64_t soa_y(int i, int j)
{
	return 1024 + (uint64_t)(i * N + j) * 4;
}

static const struct {
	const char *name, *what;
} cases[ALGAE_CASES] = {
	{ "aos-two-passes", "array of structs: all x by rows, then all y (6.18)" },
	{ "aos-column", "array of structs: grid[j][i] by columns, x and y (6.19)" },
	{ "aos-row", "array of structs: grid[i][j] by rows, x and y (6.20)" },
	{ "soa-two-passes", "struct of arrays: all x, then all y" },
	{ "soa-one-pass", "struct of arrays: x[k] then y[k], 1 KB apart" },
};

int algae_run(int which, struct algae_result *out, mt_error *e)
{
	struct sim_cache *c;
	struct sim_stats st;
	if (which < 0 || which >= ALGAE_CASES)
		return mt_fail(e, "algae: no case %d", which);
	c = sim_new(ALGAE_S, ALGAE_E, ALGAE_B, e);
	if (!c)
		return -1;
	switch (which) {
	case 0:
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				sim_access(c, aos_x(i, j), 0);
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				sim_access(c, aos_y(i, j), 0);
		break;
	case 1:
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				sim_access(c, aos_x(j, i), 0);
				sim_access(c, aos_y(j, i), 0);
			}
		break;
	case 2:
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				sim_access(c, aos_x(i, j), 0);
				sim_access(c, aos_y(i, j), 0);
			}
		break;
	case 3:
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				sim_access(c, soa_x(i, j), 0);
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				sim_access(c, soa_y(i, j), 0);
		break;
	default:
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				sim_access(c, soa_x(i, j), 0);
				sim_access(c, soa_y(i, j), 0);
			}
		break;
	}
	sim_stats(c, &st);
	sim_free(c);
	out->name = cases[which].name;
	out->what = cases[which].what;
	out->reads = st.accesses;
	out->misses = st.misses;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: memtop run algae [OPTIONS]\n"
		   "Array of structs against struct of arrays: a 16x16 grid of {int x, y} read\n"
		   "on a 1 KB direct-mapped cache with 16-byte blocks (CS:APP 6.18-6.20).\n"
		   "Simulated, so it is exact and instant: there is no --cpu.\n\n"
		   "  --quick       accepted for symmetry (the run is always small)\n"
		   "  --json FILE   write the result to FILE (atomically)\n"
		   "  --csv         print CSV (the header goes to stderr)\n"
		   "  -h, --help    this help\n");
}

static cJSON *to_json(const struct batch_run *run, const struct algae_result *r)
{
	cJSON *root = batch_json_root(run), *arr, *x;
	if (!root)
		return NULL;
	x = cJSON_AddObjectToObject(root, "cache");
	arr = cJSON_AddArrayToObject(root, "results");
	if (!x || !arr)
		goto oom;
	cJSON_AddNumberToObject(x, "s", ALGAE_S);
	cJSON_AddNumberToObject(x, "E", ALGAE_E);
	cJSON_AddNumberToObject(x, "b", ALGAE_B);
	for (int i = 0; i < ALGAE_CASES; i++) {
		x = cJSON_CreateObject();
		if (!x)
			goto oom;
		cJSON_AddItemToArray(arr, x);
		cJSON_AddStringToObject(x, "case", r[i].name);
		cJSON_AddNumberToObject(x, "reads", (double)r[i].reads);
		cJSON_AddNumberToObject(x, "misses", (double)r[i].misses);
	}
	return root;
oom:
	cJSON_Delete(root);
	return NULL;
}

static int algae_batch(int argc, char **argv)
{
	static const struct option opts[] = {
		BATCH_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	struct algae_result r[ALGAE_CASES];
	struct batch_cli cli;
	struct batch_run run;
	mt_error e = { "" };
	int ch;

	batch_cli_init(&cli, "algae", usage);
	while ((ch = batch_next(&cli, argc, argv, opts)) > 0)
		;
	if (ch < 0)
		return cli.rc;
	batch_begin(&run, &cli, 0);
	fprintf(run.meta,
		"# algae: 16x16 grid of {int x, y}, 1 KB direct-mapped cache, 16-byte blocks\n");
	fflush(run.meta);
	if (cli.csv)
		printf("case,reads,misses,miss_rate\n");
	else
		printf("%-16s %6s %7s %6s  %s\n", "case", "reads", "misses", "rate", "what");
	for (int i = 0; i < ALGAE_CASES; i++) {
		double rate;
		if (algae_run(i, &r[i], &e) < 0) {
			mt_warn("run algae: %s", e.msg);
			return MT_EXIT_RUNTIME;
		}
		rate = (double)r[i].misses / (double)r[i].reads;
		if (cli.csv)
			printf("%s,%llu,%llu,%.4f\n", r[i].name, (unsigned long long)r[i].reads,
			       (unsigned long long)r[i].misses, rate);
		else
			printf("%-16s %6llu %7llu %5.0f%%  %s\n", r[i].name,
			       (unsigned long long)r[i].reads, (unsigned long long)r[i].misses,
			       100.0 * rate, r[i].what);
	}
	fflush(stdout);
	batch_end_inline(&run);
	return batch_finish(&run, batch_wants_json(&run) ? to_json(&run, r) : NULL);
}

const struct experiment exp_algae = {
	"algae",
	"array of structs against struct of arrays on a 1 KB cache (seed 003)",
	algae_batch,
};
