/* memtop compare A.json B.json ...: saved results side by side (machines
 * in a lab, before and after, or against the seed's figures with --seed),
 * with each run's conditions above its column and ratios against the first
 * file. This file parses the command line, loads the files through their
 * result kind (result/result.h) and hands them to the kind's compare. */
#include "config.h"

#include "cmd.h"
#include "base/i18n.h"
#include "base/util.h"
#include "fleet/fleet.h"
#include "os/datadir.h"
#include "render/compare_table.h"
#include "result/result.h"
#include "result/result_set.h"
#include "run/result_kind.h"

#include <stdio.h>
#include <string.h>

#define MAX_FILES CMP_MAX_FILES
#define MAX_STRIDES 16

const struct batch_option cmd_compare_options[] = {
	{ "fleet", 'F', NULL, N_("compare as a fleet, however few the results") },
	{ "ref", 'r', "NAME",
	  N_("with a fleet: a bundled reference as a row labelled so (m4max,\n"
	     "a name in the data folder's ref/ without .json, or all)") },
	{ "json", 'j', "OUT",
	  N_("with a fleet: the grouping as JSON to OUT ('-': stdout, the\n"
	     "text then on stderr)") },
	{ "stride", 's', "N",
	  N_("a stride (words) to show; repeatable (default: 1 and 8, those\n"
	     "all files have, else the first stride they share)") },
	{ "seed", 'S', NULL,
	  N_("add the seed's Apple M4 Max figures of the first file's kind\n"
	     "(data/m4max.json, data/ref/KIND-m4max.json) as the last file;\n"
	     "one file is then enough") },
	BATCH_HELP_HELP,
	BATCH_END,
};

static const struct batch_help help = {
	.head = N_("Usage: memtop compare A.json B.json [C.json ...] [--stride N]... [--seed]\n"
		   "       memtop compare --fleet FILES... [--json OUT]\n"
		   "Saved results of one kind side by side, with the ratio of every file to the\n"
		   "first. Mountains: the size slice at each chosen stride, the levels each one\n"
		   "shows and its passport (peak, floor, ridge, line size row). Latency runs: the\n"
		   "random chase (else the largest shared stride) at power-of-two sizes and the\n"
		   "levels of each curve. Matmul, falseshare and lists results: their tables\n"
		   "row by row. The first file decides the kind.\n"
		   "A file may hold many results, one a line (memtop run ... --json - --compact\n"
		   "under pdsh, clush or parallel --tag), each named by its line's host prefix.\n\n"
		   "A fleet (--fleet, or more than 8 results): one row a machine, its results of\n"
		   "every kind merged by name (the host prefix, else the file's name without\n"
		   ".json and -KIND); machines grouped by CPU model, CPUs, memory and caches;\n"
		   "each group's median of every headline figure; a figure further from its\n"
		   "group's median than the group's spread flagged with the ratio and a\n"
		   "plausible reading; a run that was busy, moved or throttled marked, not\n"
		   "counted. Up to 200 results; 79 columns whatever their number.\n\n"),
	.opts = cmd_compare_options,
	.col = 15,
};

/* The command line: the files, the strides, --seed. */
struct compare_args {
	char *files[FLEET_MAX_RESULTS + CMD_MAX_REFS + 1];
	int nfiles, nlab, seed, nshow, fleet;
	const char *json;
	struct cmd_refs refs;
	unsigned show[MAX_STRIDES];
	char seed_path[4096];
};

/* Parse argv into a. Returns 0, or an exit code + 1 when the command ends
 * here (--help: 0 + 1; a usage error, said in one line: 2 + 1). */
static int parse_args(int argc, char **argv, struct compare_args *a)
{
	struct batch_cmd c;
	int ch, v;
	memset(a, 0, sizeof *a);
	batch_cmd_init(&c, "compare", &help);
	while ((ch = batch_cmd_next(&c, argc, argv)) > 0) {
		switch (ch) {
		case 's':
			if (mt_parse_int(optarg, 1, 1 << 20, &v) < 0 ||
			    a->nshow == MAX_STRIDES) {
				mt_warn(_("compare: --stride: expected a positive number of words, "
					  "got '%s'"),
					optarg);
				return MT_EXIT_USAGE + 1;
			}
			a->show[a->nshow++] = (unsigned)v;
			break;
		case 'S': a->seed = 1; break;
		case 'F': a->fleet = 1; break;
		case 'r':
			if (cmd_refs_add(&a->refs, "compare", optarg) < 0)
				return MT_EXIT_USAGE + 1;
			a->fleet = 1;
			break;
		default: a->json = optarg; break; /* 'j' */
		}
	}
	if (ch < 0)
		return c.rc + 1;
	a->nfiles = argc - optind;
	/* one file may hold many results: fewer than 2 is said once they are read */
	if (a->nfiles < 1 || a->nfiles + a->seed > FLEET_MAX_RESULTS) {
		mt_warn(_("compare: expected 1 to %d result files (see memtop compare --help)"),
			FLEET_MAX_RESULTS - a->seed);
		return MT_EXIT_USAGE + 1;
	}
	if (a->json && cmd_json_refuse(a->json, "compare") < 0)
		return MT_EXIT_USAGE + 1;
	for (int i = 0; i < a->nfiles; i++)
		a->files[i] = argv[optind + i];
	a->nlab = a->nfiles;
	for (size_t i = 0; i < a->refs.n; i++)
		a->files[a->nfiles++] = a->refs.path[i];
	return 0;
}

/* --seed: the bundled seed figures of kind k become the last file.
 * Returns 0, or -1 when there are none (said in one line). */
static int add_seed(struct compare_args *a, const struct result_kind *k)
{
	const char *path = k->seed ? mt_data_path(k->seed, a->seed_path, sizeof a->seed_path)
				   : NULL;
	if (!path && k->seed) {
		mt_warn(_("compare: --seed: the seed gives no %s figures to compare with (no %s in "
			  "MEMTOP_DATA or the installed data)"),
			k->name, k->seed);
		return -1;
	}
	if (!path) {
		mt_warn(_("compare: --seed: the seed gives no %s figures to compare with (no such "
			  "file in MEMTOP_DATA or the installed data)"),
			k->name);
		return -1;
	}
	a->files[a->nfiles++] = a->seed_path;
	return 0;
}

/* The kinds memtop compare compares, for a sentence: "mountain, latency, ...". */
static const char *compared_kinds(char *buf, size_t len)
{
	size_t n;
	const struct result_kind *const *k = result_kinds(&n);
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		if (k[i]->compare)
			mt_append(buf, len, "%s%s", buf[0] ? ", " : "", k[i]->name);
	return buf;
}

/* The first file decides the kind: what it allows (--stride, a compare at
 * all). Returns 0, or -1 (said in one line). */
static int check_kind(struct compare_args *a, const struct result_kind *k)
{
	char kinds[400];

	if (!k->compare) {
		mt_warn(_("%s: memtop compare reads %s results, not this one (a %s)"), a->files[0],
			compared_kinds(kinds, sizeof kinds), _(k->what));
		return -1;
	}
	if (a->nshow && !k->strides) {
		mt_warn(_("compare: --stride applies to mountains, %s is a %s result"), a->files[0],
			k->name);
		return -1;
	}
	return 0;
}

/* The results to compare side by side, the first deciding the kind: f[i]
 * from the set's entries. Returns 0, or -1 (said in one line: a result of
 * another kind, a kind that is not compared). */
static int side_by_side(struct compare_args *a, const struct result_set *s,
			struct result_file *f)
{
	for (size_t i = 0; i < s->n; i++) {
		f[i] = s->e[i].f;
		if (i == 0 && check_kind(a, f[0].kind) < 0)
			return -1;
		if (f[i].kind != f[0].kind) {
			mt_warn(_("%s: not a %s result (compare files of one kind)"), s->e[i].where,
				f[0].kind->name);
			return -1;
		}
	}
	return 0;
}

/* A fleet: the text on stdout (stderr with --json -), the grouping as JSON
 * to --json. Returns an exit code. */
static int compare_as_fleet(const struct compare_args *a, const struct result_set *s)
{
	struct fleet fl;
	mt_error e = { "" };
	int rc = MT_EXIT_RUNTIME;
	cJSON *root = NULL;
	if (fleet_build(&fl, s, &e) < 0) {
		mt_warn(_("compare: %s"), e.msg);
		return MT_EXIT_USAGE;
	}
	if (fleet_print(a->json && cmd_json_is_stdout(a->json) ? stderr : stdout, &fl) < 0) {
		mt_warn("%s", _("compare: out of memory"));
		goto out;
	}
	if (a->json && (!(root = fleet_to_json(&fl)) || cmd_write_json(a->json, root, &e) < 0)) {
		mt_warn(_("compare: %s"), root ? e.msg : _("out of memory for the JSON"));
		goto out;
	}
	rc = MT_EXIT_OK;
out:
	cJSON_Delete(root);
	fleet_free(&fl);
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	static struct compare_args a; /* a path of 4 KB: not on the stack */
	static struct result_set s;
	struct result_file f[MAX_FILES + 1];
	struct result_compare_opts o = { a.show, 0 };
	mt_error e = { "" };
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc - 1;
	if (a.seed) { /* the seed's file of the first result's kind */
		if (result_set_load(&s, a.files, 1, FLEET_MAX_RESULTS, &e) < 0) {
			mt_warn("%s", e.msg);
			return MT_EXIT_USAGE;
		}
		rc = add_seed(&a, s.e[0].f.kind);
		result_set_free(&s);
		if (rc < 0)
			return MT_EXIT_USAGE;
	}
	/* a fleet reads a folder's *.json: what holds no result is said and passed over */
	if ((a.fleet ? result_set_load_skip : result_set_load)(&s, a.files, (size_t)a.nfiles,
							       FLEET_MAX_RESULTS + a.refs.n, &e) < 0) {
		mt_warn("%s", e.msg);
		return MT_EXIT_USAGE;
	}
	cmd_refs_mark(&s, (size_t)a.nlab);
	if (s.n < 2) {
		/* one rule for a comparison and a fleet: one result has nothing beside it */
		mt_warn(_("compare: expected 2 or more results, %s holds one"), a.files[0]);
		rc = MT_EXIT_USAGE;
	} else if (a.fleet || s.n > MAX_FILES) {
		rc = compare_as_fleet(&a, &s);
	} else if (a.json) {
		mt_warn(_("compare: --json: the grouping of a fleet; give --fleet (or more than %d "
			  "results)"),
			MAX_FILES);
		rc = MT_EXIT_USAGE;
	} else {
		memset(f, 0, sizeof f);
		o.nstrides = (size_t)a.nshow;
		rc = side_by_side(&a, &s, f) == 0 ? f[0].kind->compare(f, s.n, &o) : MT_EXIT_USAGE;
		if (rc == MT_EXIT_OK)
			compare_print_differs(f, s.n);
	}
	result_set_free(&s);
	return rc;
}
