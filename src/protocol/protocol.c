/* protocol: the run's shared steps, once for every experiment
 * (protocol.h). */
#include "config.h"
#include "base/i18n.h"

#include "protocol.h"
#include "base/jsonio.h"
#include "machine/machine.h"
#include "machine/plan.h"
#include "run/batch.h"
#include "run/job.h"
#include "run/result_kind.h"

#include <stdlib.h>
#include <string.h>

/* --cpu and --cpu-kind on a recorded machine. Returns 0, or -1 (said). */
static int recorded_cpu(struct batch_cli *cli, const struct machine *m)
{
	char why[240];
	if (cli->cpu_arg) {
		int cpu;
		if (mt_parse_int(cli->cpu_arg, 0, MT_CPU_LIST_MAX - 1, &cpu) < 0 ||
		    !machine_allows(m, cpu)) {
			batch_bad(cli->exp, "--cpu", cli->cpu_arg, _("a CPU of that machine its cgroup "
								     "allows (memtop topo --sysfs-root/"
								     "--topology lists them)"));
			return -1;
		}
		cli->cpu = cpu;
		cli->cpu_given = 1;
	}
	if (cli->coretype_arg) {
		int k = machine_coretype(m, cli->coretype_arg, why, sizeof why);
		if (k < 0)
			return batch_bad(cli->exp, "--cpu-kind", cli->coretype_arg, why);
		cli->cpu = machine_worker_cpu(m, k);
		cli->cpu_coretype = m->topo ? m->topo->coretypes[k].name : "one";
	}
	return 0;
}

/* The machine a run plans for: the recorded one --sysfs-root or
 * --topology names (loaded into *owned, which the caller frees with
 * machine_free), else this machine (machine_this(); *owned NULL). On a
 * recorded machine --cpu and --cpu-kind are checked against its CPUs and
 * kinds (cli->cpu set). Returns 0, or -1 with one line said ("memtop: run
 * EXP: --topology: FILE: ..."). */
static int machine_for_run(struct batch_cli *cli, const struct machine **m,
			   struct machine **owned)
{
	mt_error e = { "" };
	*owned = NULL;
	*m = NULL;
	if (!cli->sysfs_root && !cli->topology) {
		*m = machine_this();
		return 0;
	}
	if (machine_load(cli->sysfs_root, cli->topology, owned, &e) < 0) {
		/* machine text: an option's name */
		mt_warn(_("run %s: %s: %s"), cli->exp, cli->sysfs_root ? "--sysfs-root" : "--topology",
			e.msg);
		return -1;
	}
	*m = *owned;
	return recorded_cpu(cli, *m);
}

/* The job's CPU quota against the most threads the plan starts at once (a
 * note when it is under them). */
static void quota_note(struct plan *p)
{
	char note[PLAN_NOTE_LEN];
	int most = 1;
	for (size_t i = 0; i < p->nthreads; i++)
		if (p->threads[i].count > most)
			most = p->threads[i].count;
	if (mt_limits_quota_note(&p->m->limits, most, note, sizeof note))
		plan_note(p, "%s", note);
}

/* The end of a --plan run: a note when the job's CPU quota is under the
 * most threads the plan starts (quota_note), the plan printed (on stdout;
 * on stderr with --json -), its JSON written with --json. Frees p.
 * Returns the exit code. */
static int plan_finish(struct batch_cli *cli, struct plan *p)
{
	int rc = MT_EXIT_OK;
	mt_error e = { "" };
	quota_note(p);
	plan_print(stdout, p);
	if (cli->json) {
		cJSON *o = plan_to_json(p);
		if (jsonio_is_stdout(cli->json))
			batch_cli_stdout(cli);
		if (!o) {
			mt_warn(_("run %s: out of memory for the plan's JSON; nothing written"), cli->exp);
			rc = MT_EXIT_RUNTIME;
		} else if (jsonio_write_as(cli->json, o, cli->compact, &e) < 0) {
			mt_warn(_("run %s: %s"), cli->exp, e.msg);
			rc = MT_EXIT_RUNTIME;
		} else if (!jsonio_is_stdout(cli->json)) {
			printf(_("# wrote %s\n"), MT_PRINTABLE(cli->json));
		}
		cJSON_Delete(o);
	}
	plan_free(p);
	return rc;
}

/* What the run's event callback needs: the table and the run. */
struct result_pump {
	const struct experiment *x;
	const struct batch_run *run;
	void *printer;
};

/* One event of a result run: a NOTE to on_note then said (unless on_note
 * kept it), the others to on_event. */
static void result_event(const struct job_event *ev, void *ctx)
{
	const struct result_pump *rp = ctx;
	if (ev->type != JOB_EV_NOTE) {
		rp->x->on_event(ev, rp->printer);
		return;
	}
	char said[512];
	if (!rp->x->on_note || rp->x->on_note(ev, rp->printer) == 0)
		batch_note(rp->run, mt_gettext_stored(said, sizeof said, MT_PRINTABLE(ev->text),
						      rp->x->note_forms));
}

/* The printer's result (.result_at), or NULL when x has no kind. */
static void *result_of(const struct experiment *x, void *printer)
{
	char *at = (char *)printer + x->result_at;
	if (!x->kind)
		return NULL;
	return x->result_is_pointer ? *(void **)at : at;
}

/* After a job that finished: the run header into the result, the summary,
 * the JSON (batch_finish), the verdict. Returns the exit code. */
static int result_finish(const struct experiment *x, struct batch_run *run, void *printer)
{
	void *result = result_of(x, printer);
	cJSON *root = NULL;
	int rc;
	if (result)
		*(struct run_header *)result = run->hdr; /* every result starts with it */
	if (x->summary && (rc = x->summary(printer)) != 0)
		return rc;
	if (batch_wants_json(run))
		root = x->to_json ? x->to_json(printer) : x->kind->to_json(result);
	if ((rc = batch_finish(run, root)) != 0)
		return rc;
	return x->verdict ? x->verdict(printer) : MT_EXIT_OK;
}

/* The run once prepared: the header, the head, the job, ended, the rest.
 * Returns the exit code. */
static int result_run(const struct experiment *x, const struct batch_cli *cli,
		      void *params, void *printer, struct batch_run *run)
{
	struct result_pump rp = { x, run, printer };
	int job = !x->has_job || x->has_job(params);
	int rc;
	batch_begin(run, cli, x->pinned && job);
	rc = x->head ? x->head(printer) : 0;
	fflush(run->meta);
	fflush(stdout);
	if (rc != 0)
		return rc;
	if (job)
		rc = batch_pump(run, x->worker, params, result_event, &rp);
	else
		batch_end_inline(run);
	if (x->ended)
		x->ended(printer);
	return rc ? rc : result_finish(x, run, printer);
}

/* The options of x into cli and params: .defaults, x's table parsed (its
 * rows' struct at .options_at), .check. Returns 0; PROTOCOL_STOP after
 * --help (cli->rc 0); or -1 with cli->rc (said). */
static int parse(const struct experiment *x, struct batch_cli *cli, int argc, char **argv,
		 void *params)
{
	if (x->defaults)
		x->defaults(params);
	batch_cli_init(cli, x->name, x->help, (char *)params + x->options_at);
	if (batch_parse(cli, argc, argv) < 0)
		return cli->rc == MT_EXIT_OK ? PROTOCOL_STOP : -1;
	cli->rc = MT_EXIT_USAGE;
	if (x->check && x->check(cli, params) < 0)
		return -1;
	cli->rc = MT_EXIT_OK;
	return 0;
}

/* Everything before the run: the options, the machine (*m, a recorded one
 * into *owned), the worker's CPU, the params, the --plan, the printer.
 * Returns 0 to run; PROTOCOL_STOP when the command is done (--help, the
 * plan printed), or -1 (said): the exit code in cli->rc then. */
static int prepare(const struct experiment *x, struct batch_cli *cli, int argc, char **argv,
		   const struct machine **m, struct machine **owned, void *params, void *printer,
		   const struct batch_run *run)
{
	struct experiment_printer *head = printer;
	struct plan pl;
	int st = parse(x, cli, argc, argv, params);
	if (st != 0)
		return st;
	cli->rc = MT_EXIT_USAGE;
	if (machine_for_run(cli, m, owned) < 0)
		return -1;
	if (cli->cpu < 0 && x->pinned && (!x->has_job || x->has_job(params)))
		cli->cpu = machine_worker_cpu(*m, job_coretype());
	if (x->make_params && x->make_params(cli, *m, params, printer) < 0)
		return -1;
	if (cli->plan) {
		plan_init(&pl, x->name, *m);
		pl.human = !cli->json; /* --plan --json's notes stay English */
		x->describe(*m, cli->cpu, params, printer, &pl);
		cli->rc = plan_finish(cli, &pl);
		return PROTOCOL_STOP;
	}
	head->run = run;
	head->csv = cli->csv;
	if (x->start && x->start(cli, *m, params, printer) < 0)
		return -1;
	cli->rc = MT_EXIT_OK;
	return 0;
}

int protocol_run(const struct experiment *x, int argc, char **argv)
{
	struct batch_cli cli;
	struct batch_run run;
	const struct machine *m = NULL;
	struct machine *owned = NULL;
	void *params, *printer;
	int rc;

	if (x->each_coretype && protocol_wants_each_kind(argc, argv))
		return protocol_each_kind(x, argc, argv);
	params = calloc(1, x->params_size);
	printer = calloc(1, x->printer_size);
	if (!params || !printer) {
		mt_warn(_("run %s: out of memory"), x->name);
		rc = MT_EXIT_RUNTIME;
		goto fail;
	}
	if (prepare(x, &cli, argc, argv, &m, &owned, params, printer, &run) != 0)
		rc = cli.rc;
	else
		rc = result_run(x, &cli, params, printer, &run);
	if (x->release)
		x->release(printer, params);
fail:
	machine_free(owned);
	free(params);
	free(printer);
	return rc;
}
