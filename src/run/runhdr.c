/* runhdr: see runhdr.h. */
#include "config.h"
#include "base/i18n.h"

#include "base/jsonio.h"
#include "runhdr.h"
#include "os/sysinfo.h"
#include "os/topo.h"

#include <string.h>

void run_place_init(struct run_place *p, int cpu)
{
	const struct topo *t = cpu >= 0 ? topo_this_machine() : NULL;
	const struct topo_cpu *c = topo_cpu(t, cpu);
	memset(p, 0, sizeof *p);
	p->cpu = cpu;
	p->l3 = p->node = p->package = -1;
	if (!c)
		return;
	p->known = 1;
	if (c->coretype >= 0)
		mt_strlcpy(p->kind, t->coretypes[c->coretype].name, sizeof p->kind);
	p->l3 = c->l3;
	p->node = c->node >= 0 ? t->nodes[c->node].os_index : -1;
	p->package = c->package;
}

const char *run_place_text(const struct run_place *p, char *buf, size_t len)
{
	char part[4][96];
	int n = 0;
	buf[0] = '\0';
	if (!p->known)
		return buf;
	if (p->kind[0] && strcmp(p->kind, "one") != 0) /* one kind: nothing to tell */
		mt_snprintf(part[n++], sizeof part[0], _("core kind %s"), p->kind);
	if (p->l3 >= 0)
		mt_snprintf(part[n++], sizeof part[0], _("L3 group %d"), p->l3);
	if (p->node >= 0)
		mt_snprintf(part[n++], sizeof part[0], _("NUMA node %d"), p->node);
	if (p->package >= 0)
		mt_snprintf(part[n++], sizeof part[0], _("package %d"), p->package);
	mt_snprintf(buf, len, _("CPU %d"), p->cpu);
	for (int i = 0; i < n; i++)
		mt_append(buf, len, "%s%s", i ? ", " : ": ", part[i]);
	return buf;
}

/* {"cpu","kind","l3_group","node","package"} of p (null for what is not
 * known), or NULL when out of memory. */
static cJSON *place_to_json(const struct run_place *p)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "cpu", p->cpu);
	if (p->kind[0])
		cJSON_AddStringToObject(o, "kind", p->kind);
	else
		cJSON_AddNullToObject(o, "kind");
	const struct {
		const char *k;
		int v;
	} f[] = { { "l3_group", p->l3 }, { "node", p->node }, { "package", p->package } };
	for (size_t i = 0; i < MT_ARRAY_LEN(f); i++) {
		if (f[i].v >= 0)
			cJSON_AddNumberToObject(o, f[i].k, f[i].v);
		else
			cJSON_AddNullToObject(o, f[i].k);
	}
	return o;
}

/* p from a result's "place" object (known 0 when absent or not an object). */
static void place_from_json(const cJSON *o, struct run_place *p)
{
	memset(p, 0, sizeof *p);
	p->l3 = p->node = p->package = -1;
	if (!cJSON_IsObject(o))
		return;
	/* each -1 (not known) when absent or out of range: never a cast of 3e94 */
	p->cpu = (int)jsonio_opt_int(o, "cpu", 0, 1 << 20, -1);
	if (p->cpu < 0)
		return;
	p->known = 1;
	jsonio_opt_string(o, "kind", p->kind, sizeof p->kind);
	p->l3 = (int)jsonio_opt_int(o, "l3_group", 0, (1 << 20) - 1, -1);
	p->node = (int)jsonio_opt_int(o, "node", 0, (1 << 20) - 1, -1);
	p->package = (int)jsonio_opt_int(o, "package", 0, (1 << 20) - 1, -1);
}

void run_header_init(struct run_header *h, int job_cpu)
{
	char arch_os[96];
	memset(h, 0, sizeof *h);
	mt_strlcpy(h->version, PACKAGE_VERSION, sizeof h->version);
	mt_cpu_model(h->cpu, sizeof h->cpu);
	mt_kernel(h->kernel, sizeof h->kernel);
	mt_hostname(h->host, sizeof h->host);
	{
		const struct mt_machine_id *id = mt_machine_id_this();
		mt_strlcpy(h->machine_id, id->id, sizeof h->machine_id);
		mt_strlcpy(h->machine_dmi, id->dmi, sizeof h->machine_dmi);
		mt_strlcpy(h->machine_from, id->from, sizeof h->machine_from);
	}
	h->mem_bytes = (double)mt_mem_total();
	mt_now_text(h->date, sizeof h->date, 0);
	mt_clock_calibrate(&h->clock, 0);
	diag_begin(&h->diag, job_cpu);
	h->has_diag = 1;
	run_place_init(&h->place, job_cpu);
	h->topology = run_topology_this();
	h->vm = *mt_vm_this();
	h->has_vm = 1;
	h->cond = *mt_conditions_this();
	h->job = *mt_limits_this();
	h->has_job = 1;
	mt_strlcpy(h->build, h->diag.build, sizeof h->build);
	mt_strlcpy(arch_os, h->kernel, sizeof arch_os);
	/* "x86_64 Linux 6.1" -> "x86_64, Linux" as the seed writes "(aarch64, macOS)" */
	{
		char *sp = strchr(arch_os, ' ');
		if (sp) {
			char *sp2 = strchr(sp + 1, ' ');
			*sp = '\0';
			if (sp2)
				*sp2 = '\0';
			mt_snprintf(h->hardware, sizeof h->hardware, "%s (%s, %s), memtop %s, %s, %s",
				    h->cpu, arch_os, sp + 1, h->version,
				    h->diag.optimized ? "optimized" : "NOT optimized", h->date);
		} else {
			mt_snprintf(h->hardware, sizeof h->hardware, "%s, memtop %s, %s", h->cpu,
				    h->version, h->date);
		}
	}
}

/* A host name that names a machine: not "" nor "localhost". */
static int named_host(const char *host)
{
	return host[0] && strcmp(host, "localhost") != 0;
}

int run_header_same_machine(const struct run_header *a, const struct run_header *b)
{
	if (a->machine_id[0] && b->machine_id[0])
		return strcmp(a->machine_id, b->machine_id) == 0 &&
		       !(a->machine_dmi[0] && b->machine_dmi[0] &&
			 strcmp(a->machine_dmi, b->machine_dmi) != 0);
	return named_host(a->host) && strcmp(a->host, b->host) == 0 && strcmp(a->cpu, b->cpu) == 0;
}

int run_header_this_machine(const struct run_header *h)
{
	const struct mt_machine_id *id = mt_machine_id_this();
	char host[64];
	if (h->machine_id[0] && id->id[0])
		return strcmp(h->machine_id, id->id) == 0 &&
		       !(h->machine_dmi[0] && id->dmi[0] && strcmp(h->machine_dmi, id->dmi) != 0);
	mt_hostname(host, sizeof host);
	return strcmp(host, h->host) == 0;
}

/* h's "clock" object: the counter, its rate, the core clock, and with the
 * diagnostics the run's clock at its ends. Returns NULL out of memory. */
static cJSON *clock_to_json(const struct run_header *h)
{
	cJSON *clock = cJSON_CreateObject();
	if (!clock)
		return NULL;
	cJSON_AddStringToObject(clock, "counter", h->clock.counter ? h->clock.counter : "");
	cJSON_AddNumberToObject(clock, "tick_ghz", h->clock.ticks_per_ns);
	cJSON_AddNumberToObject(clock, "core_ghz", h->clock.core_ghz);
	if (h->ghz_bound > 0)
		cJSON_AddNumberToObject(clock, "core_ghz_max", h->ghz_bound);
	if (h->clock_note[0])
		cJSON_AddStringToObject(clock, "note", h->clock_note);
	if (h->has_diag) {
		cJSON_AddNumberToObject(clock, "run_ghz_start", h->diag.run_ghz_start);
		cJSON_AddNumberToObject(clock, "run_ghz_end", h->diag.run_ghz_end);
		if (h->diag.run_ghz_cpu >= 0)
			cJSON_AddNumberToObject(clock, "run_cpu", h->diag.run_ghz_cpu);
		cJSON_AddBoolToObject(clock, "agree", !mt_clock_disagrees(h->diag.core_ghz,
									   diag_run_ghz(&h->diag)));
	}
	return clock;
}

int run_header_to_json(const struct run_header *h, cJSON *root)
{
	cJSON *clock = clock_to_json(h), *diag;
	if (!clock)
		return -1;
	cJSON_AddStringToObject(root, "hardware", h->hardware);
	cJSON_AddStringToObject(root, "date", h->date);
	cJSON_AddStringToObject(root, "memtop_version", h->version);
	cJSON_AddStringToObject(root, "cpu", h->cpu);
	cJSON_AddStringToObject(root, "kernel", h->kernel);
	cJSON_AddStringToObject(root, "host", h->host);
	if (h->machine_id[0]) {
		cJSON_AddStringToObject(root, "machine_id", h->machine_id);
		if (h->machine_dmi[0])
			cJSON_AddStringToObject(root, "machine_id_dmi", h->machine_dmi);
		cJSON_AddStringToObject(root, "machine_id_from", h->machine_from);
	}
	if (h->quick)
		cJSON_AddBoolToObject(root, "quick", h->quick == 1);
	if (h->mem_bytes > 0)
		cJSON_AddNumberToObject(root, "memory_bytes", h->mem_bytes);
	cJSON_AddStringToObject(root, "build", h->build);
	cJSON_AddItemToObject(root, "clock", clock);
	cJSON_AddNumberToObject(root, "ghz", h->clock.core_ghz > 0 ? h->clock.core_ghz
								   : h->clock.ticks_per_ns);
	if (h->has_diag) {
		diag = diag_to_json(&h->diag);
		if (!diag)
			return -1;
		cJSON_AddItemToObject(root, "diagnostics", diag);
		cJSON_AddNumberToObject(root, "cpu_used", h->diag.cpu_last >= 0 ? h->diag.cpu_last
										 : h->diag.cpu_pinned);
	}
	if (h->cond.have) {
		cJSON *c = mt_conditions_to_json(&h->cond);
		if (!c || !cJSON_AddItemToObject(root, "conditions", c)) {
			cJSON_Delete(c);
			return -1;
		}
	}
	if (h->has_vm) {
		cJSON *vm = cJSON_AddObjectToObject(root, "vm");
		if (!vm || !(h->vm.vm < 0 ? cJSON_AddNullToObject(vm, "vm")
				     : cJSON_AddBoolToObject(vm, "vm", h->vm.vm == 1)) ||
		    !cJSON_AddStringToObject(vm, "hypervisor", h->vm.name) ||
		    !cJSON_AddStringToObject(vm, "why", h->vm.why))
			return -1;
	}
	if (h->has_job) {
		cJSON *j = mt_limits_to_json(&h->job);
		if (!j || !cJSON_AddItemToObject(root, "job", j)) {
			cJSON_Delete(j);
			return -1;
		}
	}
	if (h->place.known) {
		cJSON *place = place_to_json(&h->place);
		if (!place)
			return -1;
		cJSON_AddItemToObject(root, "place", place);
	}
	if (h->topology && run_topology_json(h->topology)) {
		cJSON *t = cJSON_Duplicate(run_topology_json(h->topology), 1);
		if (!t || !cJSON_AddItemToObject(root, "topology", t)) {
			cJSON_Delete(t);
			return -1;
		}
	}
	return 0;
}

/* A clock in GHz from o's field k: 0 when missing or no clock (0 < GHz < 1000). */
static double ghz_or(const cJSON *o, const char *k)
{
	double v = jsonio_opt_number(o, k, 0);
	return v > 0 && v < 1000 ? v : 0;
}

/* A CPU number from o's field k: -1 when missing or not one. */
static int cpu_or(const cJSON *o, const char *k)
{
	double v = jsonio_opt_number(o, k, -1);
	return v >= 0 && v < 1e6 && v == (double)(int)v ? (int)v : -1;
}

/* The counter a file names, as the name mt_clock uses ("tsc", "cntvct",
 * "monotonic"), or NULL for any other (a foreign file's). */
static const char *counter_named(const cJSON *clock)
{
	static const char *const names[] = { "tsc", "cntvct", "monotonic" };
	char s[16] = ""; /* as it is when the file names no counter */
	jsonio_opt_string(clock, "counter", s, sizeof s);
	for (size_t i = 0; i < MT_ARRAY_LEN(names); i++)
		if (strcmp(s, names[i]) == 0)
			return names[i];
	return NULL;
}

/* "machine_id", "machine_id_dmi" (each kept only when it is one: 16
 * lower-case hex digits, else none), "machine_id_from"; "quick" (true 1,
 * false 2, else 0: not recorded). */
static void machine_from_json(const cJSON *root, struct run_header *h)
{
	const cJSON *q = cJSON_GetObjectItemCaseSensitive(root, "quick");
	char id[64] = "", dmi[64] = "";
	jsonio_opt_string(root, "machine_id", id, sizeof id);
	jsonio_opt_string(root, "machine_id_dmi", dmi, sizeof dmi);
	if (mt_machine_id_valid(id)) {
		mt_strlcpy(h->machine_id, id, sizeof h->machine_id);
		if (mt_machine_id_valid(dmi))
			mt_strlcpy(h->machine_dmi, dmi, sizeof h->machine_dmi);
		jsonio_opt_string(root, "machine_id_from", h->machine_from, sizeof h->machine_from);
	}
	h->quick = cJSON_IsBool(q) ? (cJSON_IsTrue(q) ? 1 : 2) : 0;
}

/* "vm": {"vm": true|false|null, "hypervisor", "why"}, when present. */
static void vm_from_json(const cJSON *o, struct run_header *h)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "vm");
	if (!cJSON_IsObject(o))
		return;
	h->has_vm = 1;
	h->vm.vm = cJSON_IsTrue(v) ? 1 : cJSON_IsFalse(v) ? 0 : -1;
	jsonio_opt_string(o, "hypervisor", h->vm.name, sizeof h->vm.name);
	jsonio_opt_string(o, "why", h->vm.why, sizeof h->vm.why);
}

void run_header_from_json(const cJSON *root, struct run_header *h)
{
	const cJSON *clock = cJSON_GetObjectItemCaseSensitive(root, "clock");
	const cJSON *diag = cJSON_GetObjectItemCaseSensitive(root, "diagnostics");
	memset(h, 0, sizeof *h);
	jsonio_opt_string(root, "memtop_version", h->version, sizeof h->version);
	jsonio_opt_string(root, "hardware", h->hardware, sizeof h->hardware);
	jsonio_opt_string(root, "cpu", h->cpu, sizeof h->cpu);
	jsonio_opt_string(root, "kernel", h->kernel, sizeof h->kernel);
	jsonio_opt_string(root, "host", h->host, sizeof h->host);
	machine_from_json(root, h);
	h->mem_bytes = jsonio_opt_number(root, "memory_bytes", 0);
	if (!(h->mem_bytes > 0 && h->mem_bytes < 1e18))
		h->mem_bytes = 0;
	jsonio_opt_string(root, "date", h->date, sizeof h->date);
	jsonio_opt_string(root, "build", h->build, sizeof h->build);
	if (cJSON_IsObject(clock)) {
		h->clock.counter = counter_named(clock);
		h->clock.ticks_per_ns = jsonio_opt_number(clock, "tick_ghz", 0);
		h->clock.core_ghz = jsonio_opt_number(clock, "core_ghz", 0);
		h->ghz_bound = jsonio_opt_number(clock, "core_ghz_max", 0);
		jsonio_opt_string(clock, "note", h->clock_note, sizeof h->clock_note);
		if (!(h->ghz_bound > 0 && h->ghz_bound < 1000))
			h->ghz_bound = 0;
		if (!(h->clock.core_ghz > 0 && h->clock.core_ghz < 1000))
			h->clock.core_ghz = 0;
	} else {
		h->clock.core_ghz = jsonio_opt_number(root, "ghz", 0);
	}
	place_from_json(cJSON_GetObjectItemCaseSensitive(root, "place"), &h->place);
	vm_from_json(cJSON_GetObjectItemCaseSensitive(root, "vm"), h);
	mt_conditions_from_json(cJSON_GetObjectItemCaseSensitive(root, "conditions"), &h->cond);
	mt_limits_from_json(cJSON_GetObjectItemCaseSensitive(root, "job"), &h->job);
	h->has_job = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(root, "job"));
	/* kept as the file has it; read strictly when shown (topo_from_json) */
	h->topology = run_topology_intern(cJSON_GetObjectItemCaseSensitive(root, "topology"));
	if (cJSON_IsObject(diag)) {
		diag_from_json(diag, &h->diag);
		h->has_diag = 1;
		h->diag.core_ghz = h->clock.core_ghz;
		if (cJSON_IsObject(clock)) {
			h->diag.run_ghz_start = ghz_or(clock, "run_ghz_start");
			h->diag.run_ghz_end = ghz_or(clock, "run_ghz_end");
			h->diag.run_ghz_cpu = cpu_or(clock, "run_cpu");
		}
	}
}

void run_header_print_clock(FILE *f, const struct run_header *h)
{
	const struct diag *d = &h->diag;
	int cpu = d->run_ghz_cpu >= 0 ? d->run_ghz_cpu
		  : d->cpu_last >= 0  ? d->cpu_last
				      : d->cpu_pinned;
	const char *agree = mt_clock_disagrees(d->core_ghz, diag_run_ghz(d))
				    ? _("DISAGREE (over 5 %)")
				    : _("they agree within 5 %");
	const char *counter = h->clock.counter ? h->clock.counter : "ticks";
	if (!h->has_diag || !(d->run_ghz_start > 0 || d->run_ghz_end > 0))
		return;
	if (cpu >= 0)
		mt_hfprintf(f, _("# core clock measured during the run (dependent adds on CPU %d): "
				 "%.2f GHz at its start, %.2f at its end; calibrated %.2f GHz, "
				 "%s %.3f GHz: %s\n"),
			    cpu, d->run_ghz_start, d->run_ghz_end, d->core_ghz, counter,
			    h->clock.ticks_per_ns, agree);
	else
		mt_hfprintf(f, _("# core clock measured during the run (dependent adds): %.2f GHz "
				 "at its start, %.2f at its end; calibrated %.2f GHz, %s %.3f GHz: "
				 "%s\n"),
			    d->run_ghz_start, d->run_ghz_end, d->core_ghz, counter,
			    h->clock.ticks_per_ns, agree);
}

void run_header_print(FILE *f, const struct run_header *h)
{
	char w[8][DIAG_LINE];
	int n;
	fprintf(f, _("# memtop %s on %s: %s\n"), h->version, h->host, h->cpu);
	if (h->machine_id[0])
		fprintf(f, _("# machine id %s (a hash of its %s)\n"), h->machine_id,
			mt_machine_from_text(h->machine_from, w[0], sizeof w[0]));
	mt_hfprintf(f, _("# %s, %s, clock: %s %.3f GHz, core ~%.2f GHz\n"), h->kernel, h->date,
		h->clock.counter ? h->clock.counter : "?", h->clock.ticks_per_ns, h->clock.core_ghz);
	run_header_print_clock(f, h);
	fprintf(f, _("# build: %s (%s)\n"), h->build,
		h->diag.optimized ? _("optimized") : _("NOT optimized"));
	if (h->has_diag) {
		char job[96];
		mt_strlcpy(job, _("no pinned job"), sizeof job);
		if (h->diag.cpu_pinned >= 0)
			mt_snprintf(job, sizeof job, _("job on CPU %d"), h->diag.cpu_pinned);
		mt_hfprintf(f, _("# load %.2f, %d runnable, THP %s, %s\n"), h->diag.load_before,
			h->diag.running_before, h->diag.thp[0] ? h->diag.thp : "none", job);
		if (h->has_vm)
			fprintf(f, _("# host: %s\n"), mt_vm_text(&h->vm, w[0], sizeof w[0]));
		if (h->cond.have)
			fprintf(f, _("# conditions: %s\n"),
				mt_conditions_summary(&h->cond, w[1], sizeof w[1]));
		if (h->has_job) {
			char lim[512];
			fprintf(f, _("# job: %s\n"),
				mt_limits_summary_text(&h->job, lim, sizeof lim));
			for (int i = 0; i < h->job.nnotes; i++)
				fprintf(f, _("# job: %s\n"), h->job.notes[i]);
		}
		if (h->place.known)
			fprintf(f, _("# where: %s\n"),
				run_place_text(&h->place, w[0], sizeof w[0]));
		n = diag_warnings(&h->diag, w, 8);
		for (int i = 0; i < n; i++)
			fprintf(f, _("# warning: %s\n"), w[i]);
	}
}
