/* machine_limits: what the job's limits leave a run (machine.h): the one
 * memory budget every plan sizes from, and the words for the limits. */
#include "config.h"

#include "machine.h"
#include "base/i18n.h"
#include "os/sysinfo.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void machine_mem_budget(const struct machine *m, struct machine_budget *b)
{
	char a[32];
	const char *from;
	uint64_t avail = m->from == MACHINE_THIS ? mt_mem_available() : m->mem_avail;
	uint64_t limit = mt_limits_memory(&m->limits, &from), room;
	memset(b, 0, sizeof *b);
	b->bytes = avail;
	if (avail)
		mt_snprintf(b->who, sizeof b->who,
			    m->from == MACHINE_THIS ? MACHINE_WHO_AVAILABLE : MACHINE_WHO_THERE,
			    mt_fmt_mem(a, sizeof a, avail));
	if (!limit)
		return;
	room = m->from == MACHINE_THIS ? mt_limits_room_this() : m->limits.room;
	/* memtop's own room first; a job with less left than that can hold
	 * no buffer (1 byte: known, and nothing fits) */
	room = room > MACHINE_PROGRAM_ROOM ? room - MACHINE_PROGRAM_ROOM : 1;
	if (avail && room >= avail)
		return;
	b->bytes = room;
	b->job = limit;
	mt_snprintf(b->who, sizeof b->who, MACHINE_WHO_JOB, mt_fmt_size(a, sizeof a, limit));
}

const char *machine_budget_capped(const struct machine_budget *b, const char *what,
				  uint64_t capped, uint64_t wanted, const char *want_why,
				  char *buf, size_t len)
{
	char c[32], w[32];
	const char *who = b->who[0] ? b->who : N_("memory");
	mt_fmt_size(c, sizeof c, capped);
	if (wanted)
		mt_snprintf(buf, len, MACHINE_CAPPED_WOULD, who, what, c,
			    want_why && want_why[0] ? want_why : N_("the plan"),
			    mt_fmt_size(w, sizeof w, wanted));
	else
		mt_snprintf(buf, len, MACHINE_CAPPED, who, what, c);
	return buf;
}

const char *machine_job_line(const struct machine *m, char *buf, size_t len)
{
	char sum[400];
	/* TRANSLATORS: the job's limits in a plan's header: "job: no limits" */
	mt_snprintf(buf, len, _("job: %s"), mt_limits_summary_text(&m->limits, sum, sizeof sum));
	return buf;
}

/* One limit's line when it is set: "  memory   768M (memory.max of /job_5)":
 * its name padded to 15 columns (the name may be translated). */
static void limit_line(FILE *f, const char *name, const struct mt_cg_limit *l)
{
	char a[32], pad[64];
	if (l->bytes)
		fprintf(f, "  %s %s (%s)\n", mt_text_pad(pad, sizeof pad, name, -15),
			mt_hfmt_size(a, sizeof a, l->bytes), MT_PRINTABLE(l->from));
}

/* The CPU quota's and the cpuset's lines. */
static void cpu_lines(FILE *f, const struct mt_limits *l)
{
	char pad[64], q[64];
	if (l->quota > 0) {
		double r = round(l->quota * 100) / 100;
		mt_hsnprintf(q, sizeof q, r > 1 ? _("%g CPUs") : _("%g CPU"), r);
		/* TRANSLATORS: the quota in CPUs, the file that set it, its microseconds
		 * of each period's */
		mt_hfprintf(f, _("  %s %s (%s: %llu us of each %llu)\n"),
			    mt_text_pad(pad, sizeof pad, _("cpu quota"), -15), q,
			    MT_PRINTABLE(l->quota_from), (unsigned long long)l->quota_us,
			    (unsigned long long)l->period_us);
	}
	if (l->ncpuset)
		fprintf(f, _("  %s CPUs %s (%s)\n"), mt_text_pad(pad, sizeof pad, "cpuset", -15),
			MT_PRINTABLE(l->cpuset), MT_PRINTABLE(l->cpuset_from));
}

void machine_job_print(FILE *f, const struct machine *m, int budget)
{
	const struct mt_limits *l = &m->limits;
	struct machine_budget b;
	char a[32], sum[400];
	if (!l->known || !strcmp(mt_limits_summary(l, sum, sizeof sum), "no limits")) {
		mt_limits_summary_text(l, sum, sizeof sum);
		if (l->known)
			/* TRANSLATORS: "job: no limits (cgroup /user.slice/...)" */
			fprintf(f, _("job: %s (cgroup %s)\n"), sum, MT_PRINTABLE(l->cgroup));
		else
			fprintf(f, _("job: %s\n"), sum);
	} else {
		fprintf(f, _("job (the limits of cgroup %s, v%d):\n"), MT_PRINTABLE(l->cgroup),
			l->version);
		limit_line(f, _("memory"), &l->mem);
		limit_line(f, "memory.high", &l->high);
		limit_line(f, "memory+swap", &l->memsw);
		if (!l->mem.bytes || l->soft.bytes < l->mem.bytes)
			limit_line(f, _("soft limit"), &l->soft);
		cpu_lines(f, l);
		for (int i = 0; i < l->nhuge; i++) {
			char name[32];
			mt_snprintf(name, sizeof name, "hugetlb %s",
				    mt_hfmt_size(a, sizeof a, l->huge[i].page));
			limit_line(f, name, &l->huge[i].lim);
		}
	}
	for (int i = 0; i < l->nnotes; i++)
		fprintf(f, "  %s\n", l->notes[i]);
	if (!budget)
		return;
	machine_mem_budget(m, &b);
	if (b.job)
		fprintf(f,
			_("  a run may take %s of it (what the job uses now and %s for memtop "
			  "itself left out)\n"),
			mt_hfmt_size(a, sizeof a, b.bytes & ~0xfffffull),
			mt_hfmt_size(sum, sizeof sum, MACHINE_PROGRAM_ROOM));
}
