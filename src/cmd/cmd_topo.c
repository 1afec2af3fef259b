/* memtop topo [--sysfs-root DIR] [--json F|-]: the machine above the core
 * (packages, NUMA nodes, L3 groups, cores, SMT siblings, core types) from
 * hwloc, folded into a few lines (os/topo.h). */
#include "config.h"

#include "cmd.h"
#include "base/i18n.h"
#include "machine/machine.h"
#include "os/topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the groups listed one a line before the rest are counted */
#define TOPO_LINES 16

const struct batch_option cmd_topo_options[] = {
	{ "sysfs-root", 'r', "DIR",
	  N_("read a recorded Linux tree instead of this machine: DIR\n"
	     "holds sys/devices/system/cpu (and proc/), as\n"
	     "hwloc-gather-topology records it; hwloc's linux backend\n"
	     "alone reads it (nothing of this machine is mixed in)") },
	{ "topology", 'x', "FILE",
	  N_("read an hwloc XML instead (lstopo --of xml FILE on a server)") },
	CMD_HELP_JSON(N_("also write the topology as JSON to OUT (atomically);\n"
			 "OUT '-' is stdout, and the text then goes to stderr")),
	BATCH_HELP_HELP,
	BATCH_END,
};

static const struct batch_help help = {
	.head = N_(
		"Usage: memtop topo [--sysfs-root DIR | --topology FILE] [--json OUT]\n"
		"The machine above the core, from hwloc: packages, NUMA nodes with their\n"
		"memory, L3 groups (the CPUs sharing one L3), cores, CPUs, SMT siblings and\n"
		"core kinds (P/E on hybrid x86, big/LITTLE on Arm, 'one' otherwise); memory-only\n"
		"nodes with their tier (HBM, NVM, CXL); a VM and its hypervisor.\n\n"),
	.opts = cmd_topo_options,
	.col = 20,
	.tail = N_("\nExit status: 0 ok, 1 runtime failure, 2 bad usage or bad input (a missing\n"
		   "or garbled tree or XML).\n"),
};

/* The options; returns -1 to go on, else the exit code. */
static int parse(int argc, char **argv, const char **root, const char **xml, const char **json)
{
	struct batch_cmd c;
	int ch;
	batch_cmd_init(&c, "topo", &help);
	while ((ch = batch_cmd_next(&c, argc, argv)) > 0) {
		if (ch == 'r')
			*root = optarg;
		else if (ch == 'x')
			*xml = optarg;
		else
			*json = optarg;
	}
	if (ch < 0)
		return c.rc;
	if (optind != argc) {
		mt_warn(_("topo: unexpected argument '%s' (see memtop topo --help)"), argv[optind]);
		return MT_EXIT_USAGE;
	}
	return -1;
}

/* "  ... and N more ..." under a list cut short: fmt (a count's message
 * of more) when more > 0. */
static void print_more(FILE *f, int more, const char *fmt)
{
	if (more > 0)
		fprintf(f, fmt, more);
}

/* A node: its tier when hwloc names one, its CPUs (a memory-only node:
 * none of its own, and the CPUs near it), its memory. */
static void print_nodes(FILE *f, const struct topo *t)
{
	char cpus[1024], mem[32], tier[80];
	for (int i = 0; i < t->nnodes && i < TOPO_LINES; i++) {
		const struct topo_node *n = &t->nodes[i];
		mt_snprintf(tier, sizeof tier, "%s%s", MT_PRINTABLE(n->tier),
			    n->tier[0] ? ", " : "");
		mt_hfmt_mem(mem, sizeof mem, n->memory);
		/* TRANSLATORS: the node's number, its tier as hwloc names it followed
		 * by ", " (HBM, CXL) or nothing, its CPUs, its memory */
		if (n->local.n || !n->cpus.n)
			fprintf(f, _("  NUMA node %d: %sCPUs %s, %s memory\n"), n->os_index, tier,
				topo_set_text(&n->local, cpus, sizeof cpus), mem);
		else
			fprintf(f,
				_("  NUMA node %d: %sno CPUs of its own (near CPUs %s), %s "
				  "memory\n"),
				n->os_index, tier, topo_set_text(&n->cpus, cpus, sizeof cpus), mem);
	}
	print_more(f, t->nnodes - TOPO_LINES,
		   MT_NGETTEXT("  ... and %d more NUMA nodes (--json lists them all)\n",
			       "  ... and %d more NUMA nodes (--json lists them all)\n",
			       t->nnodes - TOPO_LINES));
}

/* The nodes' distances as numactl -H prints them (the firmware's SLIT,
 * through hwloc), the first TOPO_LINES nodes. */
static void print_distances(FILE *f, const struct topo *t)
{
	int n = t->nnodes < TOPO_LINES ? t->nnodes : TOPO_LINES;
	char head[64];
	if (!t->dist || t->nnodes < 2)
		return;
	fputs(_("  node distances (the SLIT: relative latency, 10 local):\n"), f);
	/* TRANSLATORS: the head of the distances' first column, 6 columns at most */
	fprintf(f, "  %s ", mt_text_pad(head, sizeof head, _("node"), 6));
	for (int j = 0; j < n; j++)
		fprintf(f, " %3d", t->nodes[j].os_index);
	fprintf(f, "\n");
	for (int i = 0; i < n; i++) {
		fprintf(f, "  %6d:", t->nodes[i].os_index);
		for (int j = 0; j < n; j++)
			fprintf(f, " %3d", topo_distance(t, i, j));
		fprintf(f, "\n");
	}
	print_more(f, t->nnodes - n,
		   MT_NGETTEXT("  ... the distances of %d more nodes: --json lists them all\n",
			       "  ... the distances of %d more nodes: --json lists them all\n",
			       t->nnodes - n));
}

/* What hwloc's tree could not place, and what memtop read around in it:
 * one line each. */
static void print_unplaced(FILE *f, const struct topo *t)
{
	char line[600];
	if (topo_unplaced_human(t, line, sizeof line)[0])
		fprintf(f, _("  not placed: %s\n"), line);
	if (t->read_around[0])
		fprintf(f, _("  read around: %s\n"), t->read_around);
}

/* The CPUs in no L3 group where others have one (a die without L3). */
static void print_no_l3(FILE *f, const struct topo *t)
{
	struct topo_set s = { 0, NULL };
	char cpus[1024];
	if (t->nl3 == 0 || !(s.cpus = calloc((size_t)t->ncpus, sizeof *s.cpus)))
		return;
	for (int i = 0; i < t->ncpus; i++)
		if (t->cpus[i].l3 < 0)
			s.cpus[s.n++] = t->cpus[i].os;
	if (s.n)
		fprintf(f,
			MT_NGETTEXT(
				"  no L3: CPU %s (in no L3 group: a die or package without one)\n",
				"  no L3: CPUs %s (in no L3 group: a die or package without "
				"one)\n",
				s.n),
			topo_set_text(&s, cpus, sizeof cpus));
	free(s.cpus);
}

/* The L3 groups; a size memtop info doubts is marked '?' and said why. */
static void print_l3(FILE *f, const struct topo *t, const struct machine *m)
{
	char cpus[1024], size[32];
	const struct info_doubt *dt = NULL;
	int doubted = 0;
	/* the doubt about hwloc's (sysfs's) own L3, the size printed here */
	static const char *const srcs[] = { "hwloc", "sysfs" };
	for (size_t k = 0; m && k < MT_ARRAY_LEN(srcs) && !dt; k++) {
		dt = info_doubt_of(&m->info, srcs[k], 3, "unified");
		if (!dt)
			dt = info_doubt_of(&m->info, srcs[k], 3, "data");
	}
	for (int i = 0; i < t->nl3 && i < TOPO_LINES; i++) {
		int d = dt && t->l3[i].size == dt->size;
		fprintf(f, _("  L3 group %d: CPUs %s, %s%s\n"), i,
			topo_set_text(&t->l3[i].cpus, cpus, sizeof cpus),
			mt_fmt_size(size, sizeof size, t->l3[i].size), d ? " ?" : "");
		doubted |= d;
	}
	print_more(f, t->nl3 - TOPO_LINES,
		   MT_NGETTEXT("  ... and %d more L3 groups (--json lists them all)\n",
			       "  ... and %d more L3 groups (--json lists them all)\n",
			       t->nl3 - TOPO_LINES));
	print_no_l3(f, t);
	if (doubted)
		fprintf(f, _("  ? doubted (memtop info): %s\n"),
			info_text((char[MT_PRINTABLE_MAX]){ 0 }, MT_PRINTABLE_MAX, dt->why));
}

/* A VM, and what said so. */
static void print_vm(FILE *f, const struct machine *m)
{
	if (m && m->vm.vm == 1 && m->vm.name[0])
		fprintf(f, _("  a VM (%s): %s\n"), m->vm.name, MT_PRINTABLE(m->vm.why));
	else if (m && m->vm.vm == 1)
		fprintf(f, _("  a VM: %s\n"), MT_PRINTABLE(m->vm.why));
}

static void print_coretypes(FILE *f, const struct topo *t)
{
	char cpus[1024], l1[32], l2[32], detail[300];
	for (int i = 0; i < t->ncoretypes; i++) {
		const struct topo_coretype *k = &t->coretypes[i];
		/* TRANSLATORS: the kind's name (P, E, big), its CPUs, its caches' sizes,
		 * then " (what hwloc says of it)" or nothing */
		const char *fmt =
			i == 0 && t->ncoretypes > 1
				? _("  core kind %s (fastest): CPUs %s, L1d %s, L2 %s%s\n")
				: _("  core kind %s: CPUs %s, L1d %s, L2 %s%s\n");
		mt_snprintf(detail, sizeof detail, "%s%s%s", k->detail[0] ? " (" : "",
			    MT_PRINTABLE(k->detail), k->detail[0] ? ")" : "");
		fprintf(f, fmt, k->name, topo_set_text(&k->cpus, cpus, sizeof cpus),
			mt_fmt_size(l1, sizeof l1, k->l1d), mt_fmt_size(l2, sizeof l2, k->l2),
			detail);
	}
}

static void print_smt(FILE *f, const struct topo *t)
{
	char cpus[64];
	if (t->nsmt == 0) {
		fputs(_("  SMT siblings: none (one CPU per core)\n"), f);
		return;
	}
	/* TRANSLATORS: the cores, then the CPUs each has; examples follow */
	fprintf(f,
		MT_NGETTEXT("  SMT siblings: %d core with %d CPUs each, e.g.",
			    "  SMT siblings: %d cores with %d CPUs each, e.g.", t->nsmt),
		t->nsmt, t->smt[0].n);
	for (int i = 0; i < t->nsmt && i < 4; i++)
		fprintf(f, " %s", topo_set_text(&t->smt[i], cpus, sizeof cpus));
	fprintf(f, "%s\n", t->nsmt > 4 ? " ..." : "");
}

/* Every condition, one a line, the unknown ones with why. */
static void print_conditions(FILE *f, const struct machine *m)
{
	char label[80];
	fputs(_("conditions (the settings that move memory figures):\n"), f);
	for (int i = 0; i < COND_NFIELDS; i++) {
		const struct cond_value *v = mt_conditions_field(&m->cond, i);
		mt_text_pad(label, sizeof label, _(mt_conditions_label(i)), -15);
		if (v->known)
			fprintf(f, "  %s %s\n", label, MT_PRINTABLE(v->text));
		else
			fprintf(f, _("  %s not known: %s\n"), label, MT_PRINTABLE(v->text));
	}
}

static void print_topo(FILE *f, const struct topo *t, const struct machine *m)
{
	char sum[1024];
	char ver[32];
	fprintf(f, _("memtop topo: %s (hwloc %s)\n"), MT_PRINTABLE(t->source),
		topo_hwloc_version(ver, sizeof ver));
	fprintf(f, "%s\n", topo_summary_text(t, sum, sizeof sum));
	print_unplaced(f, t);
	print_nodes(f, t);
	print_distances(f, t);
	print_l3(f, t, m);
	print_coretypes(f, t);
	print_smt(f, t);
	print_vm(f, m);
	print_conditions(f, m);
	machine_job_print(f, m, m->from == MACHINE_THIS);
}

int cmd_topo(int argc, char **argv)
{
	const char *root = NULL, *xml = NULL, *json = NULL;
	struct machine *m = NULL;
	mt_error e = { "" };
	int rc = parse(argc, argv, &root, &xml, &json);
	if (rc >= 0)
		return rc;
	if (json && cmd_json_refuse(json, "topo") < 0)
		return MT_EXIT_USAGE;
	if (machine_load(root, xml, &m, &e) < 0) {
		mt_warn(_("topo: %s"), e.msg);
		return root || xml ? MT_EXIT_USAGE : MT_EXIT_RUNTIME;
	}
	if (!m->topo) {
		mt_warn("%s", _("topo: hwloc could not read this machine's topology"));
		machine_free(m);
		return MT_EXIT_RUNTIME;
	}
	print_topo(cmd_json_is_stdout(json) ? stderr : stdout, m->topo, m);
	rc = MT_EXIT_OK;
	if (json) {
		cJSON *o = topo_to_json(m->topo), *c = mt_conditions_to_json(&m->cond);
		cJSON *j = mt_limits_to_json(&m->limits);
		if (o && c && cJSON_AddItemToObject(o, "conditions", c))
			c = NULL;
		else
			cJSON_Delete(o), o = NULL;
		if (o && j && cJSON_AddItemToObject(o, "job", j))
			j = NULL;
		else
			cJSON_Delete(o), o = NULL;
		cJSON_Delete(c);
		cJSON_Delete(j);
		if (!o || cmd_write_json(json, o, &e) < 0) {
			mt_warn(_("topo: %s"), o ? e.msg : _("out of memory"));

			rc = MT_EXIT_RUNTIME;
		}
		cJSON_Delete(o);
	}
	machine_free(m);
	return rc;
}
