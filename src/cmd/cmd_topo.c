/* memtop topo [--sysfs-root DIR] [--json F|-]: the machine above the core
 * (packages, NUMA nodes, L3 groups, cores, SMT siblings, core types) from
 * hwloc, folded into a few lines (os/topo.h). */
#include "config.h"

#include "cmd.h"
#include "machine/machine.h"
#include "os/topo.h"

#include <stdio.h>
#include <string.h>

/* the groups listed one a line before the rest are counted */
#define TOPO_LINES 16

const struct batch_option cmd_topo_options[] = {
	{ "sysfs-root", 'r', "DIR",
	  "read a recorded Linux tree instead of this machine: DIR\n"
	  "holds sys/devices/system/cpu (and proc/), as\n"
	  "hwloc-gather-topology records it; hwloc's linux backend\n"
	  "alone reads it (nothing of this machine is mixed in)" },
	{ "topology", 'x', "FILE",
	  "read an hwloc XML instead (lstopo --of xml FILE on a server)" },
	CMD_HELP_JSON("the topology"),
	BATCH_HELP_HELP,
	BATCH_END,
};

static const struct batch_help help = {
	.head = "Usage: memtop topo [--sysfs-root DIR | --topology FILE] [--json OUT]\n"
		"The machine above the core, from hwloc: packages, NUMA nodes with their\n"
		"memory, L3 groups (the CPUs sharing one L3), cores, CPUs, SMT siblings and\n"
		"core kinds (P/E on hybrid x86, big/LITTLE on Arm, 'one' otherwise); memory-only\n"
		"nodes with their tier (HBM, NVM, CXL); a VM and its hypervisor.\n\n",
	.opts = cmd_topo_options,
	.col = 20,
	.tail = "\nExit status: 0 ok, 1 runtime failure, 2 bad usage or bad input (a missing\n"
		"or garbled tree or XML).\n",
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
		mt_warn("topo: unexpected argument '%s' (see memtop topo --help)", argv[optind]);
		return MT_EXIT_USAGE;
	}
	return -1;
}

/* A node: its tier when hwloc names one, its CPUs (a memory-only node:
 * none of its own, and the CPUs near it), its memory. */
static void print_nodes(FILE *f, const struct topo *t)
{
	char cpus[1024], mem[32];
	for (int i = 0; i < t->nnodes && i < TOPO_LINES; i++) {
		const struct topo_node *n = &t->nodes[i];
		fprintf(f, "  NUMA node %d: %s%s", n->os_index, MT_PRINTABLE(n->tier),
			n->tier[0] ? ", " : "");
		if (n->local.n || !n->cpus.n)
			fprintf(f, "CPUs %s", topo_set_text(&n->local, cpus, sizeof cpus));
		else
			fprintf(f, "no CPUs of its own (near CPUs %s)",
				topo_set_text(&n->cpus, cpus, sizeof cpus));
		fprintf(f, ", %s memory\n", mt_fmt_mem(mem, sizeof mem, n->memory));
	}
	if (t->nnodes > TOPO_LINES)
		fprintf(f, "  ... and %d more NUMA nodes (--json lists them all)\n",
			t->nnodes - TOPO_LINES);
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
		fprintf(f, "  L3 group %d: CPUs %s, %s%s\n", i,
			topo_set_text(&t->l3[i].cpus, cpus, sizeof cpus),
			mt_fmt_size(size, sizeof size, t->l3[i].size), d ? " ?" : "");
		doubted |= d;
	}
	if (t->nl3 > TOPO_LINES)
		fprintf(f, "  ... and %d more L3 groups (--json lists them all)\n", t->nl3 - TOPO_LINES);
	if (doubted)
		fprintf(f, "  ? doubted (memtop info): %s\n", MT_PRINTABLE(dt->why));
}

/* A VM, and what said so. */
static void print_vm(FILE *f, const struct machine *m)
{
	if (m && m->vm.vm == 1)
		fprintf(f, "  a VM%s%s%s: %s\n", m->vm.name[0] ? " (" : "", m->vm.name,
			m->vm.name[0] ? ")" : "", MT_PRINTABLE(m->vm.why));
}

static void print_coretypes(FILE *f, const struct topo *t)
{
	char cpus[1024], l1[32], l2[32];
	for (int i = 0; i < t->ncoretypes; i++) {
		const struct topo_coretype *k = &t->coretypes[i];
		fprintf(f, "  core kind %s%s: CPUs %s, L1d %s, L2 %s%s%s%s\n", k->name,
			i == 0 && t->ncoretypes > 1 ? " (fastest)" : "",
			topo_set_text(&k->cpus, cpus, sizeof cpus), mt_fmt_size(l1, sizeof l1, k->l1d),
			mt_fmt_size(l2, sizeof l2, k->l2), k->detail[0] ? " (" : "",
			MT_PRINTABLE(k->detail), k->detail[0] ? ")" : "");
	}
}

static void print_smt(FILE *f, const struct topo *t)
{
	char cpus[64];
	if (t->nsmt == 0) {
		fprintf(f, "  SMT siblings: none (one CPU per core)\n");
		return;
	}
	fprintf(f, "  SMT siblings: %d cores with %d CPUs each, e.g.", t->nsmt, t->smt[0].n);
	for (int i = 0; i < t->nsmt && i < 4; i++)
		fprintf(f, " %s", topo_set_text(&t->smt[i], cpus, sizeof cpus));
	fprintf(f, "%s\n", t->nsmt > 4 ? " ..." : "");
}

/* Every condition, one a line, the unknown ones with why. */
static void print_conditions(FILE *f, const struct machine *m)
{
	fprintf(f, "conditions (the settings that move memory figures):\n");
	for (int i = 0; i < COND_NFIELDS; i++) {
		const struct cond_value *v = mt_conditions_field(&m->cond, i);
		fprintf(f, "  %-15s %s%s\n", mt_conditions_label(i), v->known ? "" : "not known: ",
			MT_PRINTABLE(v->text));
	}
}

static void print_topo(FILE *f, const struct topo *t, const struct machine *m)
{
	char sum[1024];
	char ver[32];
	fprintf(f, "memtop topo: %s (hwloc %s)\n", MT_PRINTABLE(t->source),
		topo_hwloc_version(ver, sizeof ver));
	fprintf(f, "%s\n", topo_summary(t, sum, sizeof sum));
	print_nodes(f, t);
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
		mt_warn("topo: %s", e.msg);
		return root || xml ? MT_EXIT_USAGE : MT_EXIT_RUNTIME;
	}
	if (!m->topo) {
		mt_warn("topo: hwloc could not read this machine's topology");
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
			mt_warn("topo: %s", o ? e.msg : "out of memory");
			rc = MT_EXIT_RUNTIME;
		}
		cJSON_Delete(o);
	}
	machine_free(m);
	return rc;
}
