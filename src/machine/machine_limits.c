/* machine_limits: what the job's limits leave a run (machine.h): the one
 * memory budget every plan sizes from, and the words for the limits. */
#include "config.h"

#include "machine.h"
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
		mt_snprintf(b->who, sizeof b->who, "%s of memory %s",
			    mt_fmt_mem(a, sizeof a, avail),
			    m->from == MACHINE_THIS ? "available" : "there");
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
	mt_snprintf(b->who, sizeof b->who, "this job may use %s (its cgroup)",
		    mt_fmt_size(a, sizeof a, limit));
}

const char *machine_budget_capped(const struct machine_budget *b, const char *what,
				  uint64_t capped, uint64_t wanted, const char *want_why,
				  char *buf, size_t len)
{
	char c[32], w[32];
	mt_snprintf(buf, len, "%s: %s capped at %s", b->who[0] ? b->who : "memory", what,
		    mt_fmt_size(c, sizeof c, capped));
	if (wanted)
		mt_append(buf, len, ", %s would be %s",
			  want_why && want_why[0] ? want_why : "the plan",
			  mt_fmt_size(w, sizeof w, wanted));
	return buf;
}

const char *machine_job_line(const struct machine *m, char *buf, size_t len)
{
	char sum[400];
	mt_snprintf(buf, len, "job: %s", mt_limits_summary(&m->limits, sum, sizeof sum));
	return buf;
}

/* One limit's line when it is set: "  memory   768M (memory.max of /job_5)". */
static void limit_line(FILE *f, const char *name, const struct mt_cg_limit *l)
{
	char a[32];
	if (l->bytes)
		fprintf(f, "  %-15s %s (%s)\n", name, mt_fmt_size(a, sizeof a, l->bytes),
			MT_PRINTABLE(l->from));
}

void machine_job_print(FILE *f, const struct machine *m, int budget)
{
	const struct mt_limits *l = &m->limits;
	struct machine_budget b;
	char a[32], sum[400];
	mt_limits_summary(l, sum, sizeof sum);
	if (!l->known || !strcmp(sum, "no limits")) {
		fprintf(f, "job: %s%s%s%s\n", sum, l->known ? " (cgroup " : "",
			l->known ? MT_PRINTABLE(l->cgroup) : "", l->known ? ")" : "");
	} else {
		fprintf(f, "job (the limits of cgroup %s, v%d):\n", MT_PRINTABLE(l->cgroup),
			l->version);
		limit_line(f, "memory", &l->mem);
		limit_line(f, "memory.high", &l->high);
		limit_line(f, "memory+swap", &l->memsw);
		if (!l->mem.bytes || l->soft.bytes < l->mem.bytes)
			limit_line(f, "soft limit", &l->soft);
		if (l->quota > 0)
			fprintf(f, "  %-15s %g CPU%s (%s: %llu us of each %llu)\n", "cpu quota",
				round(l->quota * 100) / 100, l->quota > 1 ? "s" : "",
				MT_PRINTABLE(l->quota_from), (unsigned long long)l->quota_us,
				(unsigned long long)l->period_us);
		if (l->ncpuset)
			fprintf(f, "  %-15s CPUs %s (%s)\n", "cpuset", MT_PRINTABLE(l->cpuset),
				MT_PRINTABLE(l->cpuset_from));
		for (int i = 0; i < l->nhuge; i++) {
			char name[32];
			mt_snprintf(name, sizeof name, "hugetlb %s",
				    mt_fmt_size(a, sizeof a, l->huge[i].page));
			limit_line(f, name, &l->huge[i].lim);
		}
	}
	for (int i = 0; i < l->nnotes; i++)
		fprintf(f, "  %s\n", l->notes[i]);
	if (!budget)
		return;
	machine_mem_budget(m, &b);
	if (b.job)
		fprintf(f, "  a run may take %s of it (what the job uses now and %s for memtop "
			   "itself left out)\n",
			mt_fmt_size(a, sizeof a, b.bytes & ~0xfffffull),
			mt_fmt_size(sum, sizeof sum, MACHINE_PROGRAM_ROOM));
}
