/* diag: see diag.h. */
#include "config.h"

#include "os/clock.h"
#include "diag.h"
#include "base/i18n.h"
#include "base/util.h"
#include "os/sysinfo.h"
#include "os/threads.h"

#include <limits.h>
#include <math.h>
#include <string.h>

/* The CPUs the calling thread may run on, as ranges: "0-3,6". */
static void allowed_text(char *buf, size_t len)
{
	int cpus[1024];
	int n = mt_allowed_cpus(cpus, (int)MT_ARRAY_LEN(cpus));
	buf[0] = '\0';
	for (int i = 0, j; i < n; i = j + 1) {
		for (j = i; j + 1 < n && cpus[j + 1] == cpus[j] + 1; j++)
			;
		if (j > i)
			mt_append(buf, len, "%s%d-%d", i ? "," : "", cpus[i], cpus[j]);
		else
			mt_append(buf, len, "%s%d", i ? "," : "", cpus[i]);
	}
}

void diag_begin(struct diag *d, int pinned_cpu)
{
	memset(d, 0, sizeof *d);
#ifdef __OPTIMIZE__
	d->optimized = 1;
#endif
	mt_snprintf(d->build, sizeof d->build, "%s %s%s", MEMTOP_BUILD_CC, MEMTOP_BUILD_CFLAGS,
		    MEMTOP_SANITIZE_FLAGS);
	mt_load(&d->load_before, &d->running_before);
	d->load_after = -1;
	d->running_after = -1;
	d->steal_pct = -1;
	if (mt_cpu_times(&d->ticks0, &d->steal0) < 0)
		d->ticks0 = 0;
	d->ncpu = mt_online_cpus();
	d->cpu_pinned = pinned_cpu;
	d->cpu_first = d->cpu_last = d->run_ghz_cpu = -1;
	d->heterogeneous = mt_heterogeneous(d->hetero_text, sizeof d->hetero_text);
	mt_thp_mode(d->thp, sizeof d->thp);
	allowed_text(d->cpus_start, sizeof d->cpus_start);
	d->unpinned0 = mt_threads_unpinned();
	{
		struct mt_clock c;
		mt_clock_calibrate(&c, 0); /* cached: run_header_init calibrated */
		d->core_ghz = c.core_ghz;
	}
}

void diag_end(struct diag *d, const struct job_progress *p)
{
	uint64_t t1, s1;
	if (p) {
		d->cpu_pinned = p->cpu;
		d->cpu_first = p->cpu_first;
		d->cpu_last = p->cpu_last;
		d->cpu_moved = p->cpu_moved;
		d->run_ghz_start = p->ghz_start;
		d->run_ghz_end = p->ghz_end;
		d->run_ghz_cpu = p->ghz_cpu;
	}
	mt_load(&d->load_after, &d->running_after);
	allowed_text(d->cpus_end, sizeof d->cpus_end);
	d->unpinned = mt_threads_unpinned() - d->unpinned0;
	if (d->ticks0 && mt_cpu_times(&t1, &s1) == 0 && t1 > d->ticks0)
		d->steal_pct = 100.0 * (double)(s1 - d->steal0) / (double)(t1 - d->ticks0);
}

double diag_run_ghz(const struct diag *d)
{
	double a = fabs(mt_clock_drift(d->core_ghz, d->run_ghz_start));
	double b = fabs(mt_clock_drift(d->core_ghz, d->run_ghz_end));
	if (!(d->run_ghz_end > 0))
		return d->run_ghz_start > 0 ? d->run_ghz_start : 0;
	return d->run_ghz_start > 0 && a > b ? d->run_ghz_start : d->run_ghz_end;
}

int diag_warnings(const struct diag *d, char lines[][DIAG_LINE], int max)
{
	double run = diag_run_ghz(d);
	int n = 0;
	double load = d->load_before > d->load_after ? d->load_before : d->load_after;
	int others = d->running_before > 1 ? d->running_before - 1 : 0;
	if (!d->optimized && n < max)
		mt_snprintf(lines[n++], DIAG_LINE, "%s",
			    _("built without optimization: the mountain will be flat"));
	/* from the build string, so files measured by a sanitizer build say it too */
	if (strstr(d->build, "-fsanitize=") && n < max)
		mt_snprintf(lines[n++], DIAG_LINE, "%s",
			    _("built with sanitizers: timings are several times slower"));
	if (load >= 0 && d->ncpu > 0 && load > 0.5 * d->ncpu && n < max)
		mt_hsnprintf(lines[n++], DIAG_LINE,
			     MT_NGETTEXT("machine busy: load %.1f on %d CPU",
					 "machine busy: load %.1f on %d CPUs", d->ncpu),
			     load, d->ncpu);
	else if (others > 0 && n < max)
		mt_snprintf(lines[n++], DIAG_LINE,
			    MT_NGETTEXT("%d other runnable task when the run began",
					"%d other runnable tasks when the run began", others),
			    others);
	if (d->steal_pct >= 1.0 && n < max)
		mt_hsnprintf(lines[n++], DIAG_LINE, _("hypervisor stole %.1f%% of CPU time"),
			     d->steal_pct);
	if (d->cpu_moved && n < max)
		mt_snprintf(lines[n++], DIAG_LINE, _("job moved from CPU %d to %d"), d->cpu_first,
			    d->cpu_last);
	if (d->cpus_start[0] && d->cpus_end[0] && strcmp(d->cpus_start, d->cpus_end) != 0 &&
	    n < max)
		mt_snprintf(lines[n++], DIAG_LINE,
			    _("CPUs taken away during the run: allowed %s at its start, %s at its "
			      "end (taskset or a cpuset); threads pinned there ran elsewhere"),
			    d->cpus_start, d->cpus_end);
	if (d->unpinned && n < max)
		mt_snprintf(lines[n++], DIAG_LINE,
			    MT_NGETTEXT("%lu measuring thread could not be pinned: its CPU went "
					"offline or was taken away during the run, and the kernel "
					"placed it",
					"%lu measuring threads could not be pinned: their CPU went "
					"offline or was taken away during the run, and the kernel "
					"placed them",
					d->unpinned),
			    d->unpinned);
	if (d->heterogeneous && n < max)
		/* TRANSLATORS: %s is machine text: "cpu_capacity 0:1024 1:512" */
		mt_snprintf(lines[n++], DIAG_LINE, _("heterogeneous cores: %s"), d->hetero_text);
	if (mt_clock_disagrees(d->core_ghz, run) && n < max)
		mt_hsnprintf(lines[n++], DIAG_LINE,
			     _("core clock moved: %.2f GHz calibrated, %.2f during the run (%+.0f %%): "
			       "turbo, throttling or a busy host"),
			     d->core_ghz, run, 100 * mt_clock_drift(d->core_ghz, run));
	return n;
}

cJSON *diag_to_json(const struct diag *d)
{
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddBoolToObject(o, "optimized", d->optimized);
	cJSON_AddStringToObject(o, "build", d->build);
	cJSON_AddNumberToObject(o, "load_before", d->load_before);
	cJSON_AddNumberToObject(o, "load_after", d->load_after);
	cJSON_AddNumberToObject(o, "running_before", d->running_before);
	cJSON_AddNumberToObject(o, "running_after", d->running_after);
	cJSON_AddNumberToObject(o, "steal_pct", d->steal_pct);
	cJSON_AddNumberToObject(o, "ncpu", d->ncpu);
	cJSON_AddNumberToObject(o, "cpu_pinned", d->cpu_pinned);
	cJSON_AddNumberToObject(o, "cpu_first", d->cpu_first);
	cJSON_AddNumberToObject(o, "cpu_last", d->cpu_last);
	cJSON_AddBoolToObject(o, "cpu_moved", d->cpu_moved);
	cJSON_AddBoolToObject(o, "heterogeneous", d->heterogeneous);
	cJSON_AddStringToObject(o, "heterogeneous_text", d->hetero_text);
	cJSON_AddStringToObject(o, "thp", d->thp);
	cJSON_AddStringToObject(o, "cpus_allowed_start", d->cpus_start);
	cJSON_AddStringToObject(o, "cpus_allowed_end", d->cpus_end);
	cJSON_AddNumberToObject(o, "threads_unpinned", (double)d->unpinned);
	return o;
}

static double num_or(const cJSON *o, const char *k, double dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

/* An integer field in [min, max], else dflt (a file's 3e94 is no int). */
static int int_or(const cJSON *o, const char *k, int min, int max, int dflt)
{
	double v = num_or(o, k, dflt);
	return v >= min && v <= max ? (int)v : dflt;
}

static void str_or(const cJSON *o, const char *k, char *out, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	if (cJSON_IsString(v) && v->valuestring)
		mt_printable(out, len, v->valuestring, 0); /* file-borne: made printable once */
}

void diag_from_json(const cJSON *o, struct diag *d)
{
	memset(d, 0, sizeof *d);
	d->optimized = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "optimized"));
	str_or(o, "build", d->build, sizeof d->build);
	d->load_before = num_or(o, "load_before", -1);
	d->load_after = num_or(o, "load_after", -1);
	d->running_before = int_or(o, "running_before", -1, INT_MAX, -1);
	d->running_after = int_or(o, "running_after", -1, INT_MAX, -1);
	d->steal_pct = num_or(o, "steal_pct", -1);
	d->ncpu = int_or(o, "ncpu", 0, INT_MAX, 0);
	d->cpu_pinned = int_or(o, "cpu_pinned", -1, INT_MAX, -1);
	d->cpu_first = int_or(o, "cpu_first", -1, INT_MAX, -1);
	d->cpu_last = int_or(o, "cpu_last", -1, INT_MAX, -1);
	d->cpu_moved = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "cpu_moved"));
	d->run_ghz_cpu = -1; /* the run header's clock object says it */
	d->heterogeneous = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "heterogeneous"));
	str_or(o, "heterogeneous_text", d->hetero_text, sizeof d->hetero_text);
	str_or(o, "thp", d->thp, sizeof d->thp);
	str_or(o, "cpus_allowed_start", d->cpus_start, sizeof d->cpus_start);
	str_or(o, "cpus_allowed_end", d->cpus_end, sizeof d->cpus_end);
	d->unpinned = (unsigned long)int_or(o, "threads_unpinned", 0, INT_MAX, 0);
}
