/* cgroup: the job's limits in words and as JSON (cgroup.h). */
#include "config.h"

#include "cgroup.h"
#include "base/i18n.h"
#include "base/jsonio.h"
#include "base/util.h"

#include <math.h>
#include <string.h>

uint64_t mt_limits_memory(const struct mt_limits *l, const char **from)
{
	const struct mt_cg_limit *best = NULL;
	const struct mt_cg_limit *all[] = { &l->mem, &l->high, &l->memsw };
	for (size_t i = 0; i < MT_ARRAY_LEN(all); i++)
		if (all[i]->bytes && (!best || all[i]->bytes < best->bytes))
			best = all[i];
	if (from)
		*from = best ? best->from : "";
	return best ? best->bytes : 0;
}

/* A quota in CPUs as people write it: "0.5 CPU", "2 CPUs" (human: in
 * their language, "0,5 ЦП"). */
static const char *cpus_text(double q, char *buf, size_t len, int human)
{
	double r = round(q * 100) / 100;
	if (!human)
		mt_snprintf(buf, len, "%g CPU%s", r > 0 ? r : q, r > 1 ? "s" : "");
	else
		/* TRANSLATORS: a CPU quota, a fraction of CPUs ("0.5 CPU", "2 CPUs") */
		mt_hsnprintf(buf, len, r > 1 ? _("%g CPUs") : _("%g CPU"), r > 0 ? r : q);
	return buf;
}

/* A size: for people (human) in their language, else as the option
 * grammar writes it, as the JSON keeps it ("summary" is data). */
#define SIZE(human, buf, b) ((human) ? mt_hfmt_size(buf, sizeof buf, b) : mt_fmt_size(buf, sizeof buf, b))

/* Appends one limit, after ", " when buf holds one already. */
static void item(char *buf, size_t len, const char *fmt, const char *a, const char *b)
{
	if (buf[0])
		mt_append(buf, len, ", ");
	mt_append(buf, len, fmt, a, b);
}

/* The limits in the messages' language (English inside mt_english_begin);
 * h: the sizes and the quota for people. */
static const char *summary(const struct mt_limits *l, char *buf, size_t len, int h)
{
	char a[32], b[32];
	buf[0] = '\0';
	if (!l->known) {
		mt_snprintf(buf, len, _("not known (%s)"),
			    _(l->why[0] ? l->why : N_("not recorded")));
		return buf;
	}
	if (l->mem.bytes)
		item(buf, len, _("cgroup memory %s"), SIZE(h, a, l->mem.bytes), "");
	if (l->high.bytes && (!l->mem.bytes || l->high.bytes < l->mem.bytes))
		item(buf, len, "memory.high %s", SIZE(h, a, l->high.bytes), "");
	if (l->memsw.bytes && (!l->mem.bytes || l->memsw.bytes < l->mem.bytes))
		item(buf, len, _("memory+swap %s"), SIZE(h, a, l->memsw.bytes), "");
	if (l->soft.bytes && (!l->mem.bytes || l->soft.bytes < l->mem.bytes))
		item(buf, len, _("soft limit %s"), SIZE(h, a, l->soft.bytes), "");
	if (l->quota > 0)
		item(buf, len, _("cpu quota %s"), cpus_text(l->quota, a, sizeof a, h), "");
	if (l->ncpuset)
		item(buf, len, "cpuset %s", l->cpuset, "");
	for (int i = 0; i < l->nhuge; i++)
		/* TRANSLATORS: the hugetlb limit: the page size, then the limit */
		item(buf, len, _("hugetlb %s pages %s"), SIZE(h, a, l->huge[i].page),
		     SIZE(h, b, l->huge[i].lim.bytes));
	if (!buf[0])
		mt_strlcpy(buf, _("no limits"), len);
	return buf;
}

const char *mt_limits_summary(const struct mt_limits *l, char *buf, size_t len)
{
	void *old = mt_english_begin(); /* the JSON's "summary" is data */
	summary(l, buf, len, 0);
	mt_english_end(old);
	return buf;
}

const char *mt_limits_summary_text(const struct mt_limits *l, char *buf, size_t len)
{
	return summary(l, buf, len, 1);
}

/* A limit's two fields ("memory", "memory_from") when it is set. Returns 0,
 * or -1 out of memory. */
static int limit_to_json(cJSON *o, const char *key, const struct mt_cg_limit *lim)
{
	char from[64];
	if (!lim->bytes)
		return 0;
	mt_snprintf(from, sizeof from, "%s_from", key);
	return cJSON_AddNumberToObject(o, key, (double)lim->bytes) &&
			       cJSON_AddStringToObject(o, from, lim->from)
		       ? 0
		       : -1;
}

/* The CPU quota, the cpuset, the huge pages and the notes. Returns 0, or -1
 * out of memory. */
static int cpus_to_json(cJSON *o, const struct mt_limits *l)
{
	cJSON *h, *n;
	if (l->quota > 0 && (!cJSON_AddNumberToObject(o, "cpu_quota", l->quota) ||
			     !cJSON_AddNumberToObject(o, "cpu_quota_us", (double)l->quota_us) ||
			     !cJSON_AddNumberToObject(o, "cpu_period_us", (double)l->period_us) ||
			     !cJSON_AddStringToObject(o, "cpu_quota_from", l->quota_from)))
		return -1;
	if (l->ncpuset && (!cJSON_AddStringToObject(o, "cpuset", l->cpuset) ||
			   !cJSON_AddStringToObject(o, "cpuset_from", l->cpuset_from)))
		return -1;
	if (!(h = cJSON_AddArrayToObject(o, "hugetlb")) ||
	    !(n = cJSON_AddArrayToObject(o, "notes")))
		return -1;
	for (int i = 0; i < l->nhuge; i++) {
		cJSON *x = cJSON_CreateObject();
		if (!x || !cJSON_AddItemToArray(h, x) ||
		    !cJSON_AddNumberToObject(x, "page", (double)l->huge[i].page) ||
		    !cJSON_AddNumberToObject(x, "bytes", (double)l->huge[i].lim.bytes) ||
		    !cJSON_AddStringToObject(x, "from", l->huge[i].lim.from))
			return -1;
	}
	for (int i = 0; i < l->nnotes; i++) {
		cJSON *x = cJSON_CreateString(l->notes[i]);
		if (!x || !cJSON_AddItemToArray(n, x))
			return -1;
	}
	return 0;
}

cJSON *mt_limits_to_json(const struct mt_limits *l)
{
	char sum[512];
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	if (!l->known) {
		if (!cJSON_AddStringToObject(o, "unknown", l->why[0] ? l->why : N_("not recorded")))
			goto oom;
		return o;
	}
	if (!cJSON_AddStringToObject(o, "summary", mt_limits_summary(l, sum, sizeof sum)) ||
	    !cJSON_AddNumberToObject(o, "version", l->version) ||
	    !cJSON_AddStringToObject(o, "cgroup", l->cgroup) ||
	    limit_to_json(o, "memory", &l->mem) < 0 ||
	    limit_to_json(o, "memory_high", &l->high) < 0 ||
	    limit_to_json(o, "soft_limit", &l->soft) < 0 ||
	    limit_to_json(o, "memsw", &l->memsw) < 0 ||
	    (mt_limits_memory(l, NULL) && !cJSON_AddNumberToObject(o, "room", (double)l->room)) ||
	    cpus_to_json(o, l) < 0)
		goto oom;
	return o;
oom:
	cJSON_Delete(o);
	return NULL;
}

/* A byte count of o under key (0 when absent or not one). */
static uint64_t bytes_of(const cJSON *o, const char *key)
{
	return (uint64_t)jsonio_opt_int(o, key, 0, 1L << 62, 0);
}

static void limit_from_json(const cJSON *o, const char *key, struct mt_cg_limit *lim)
{
	char from[64];
	lim->bytes = bytes_of(o, key);
	mt_snprintf(from, sizeof from, "%s_from", key);
	jsonio_opt_string(o, from, lim->from, sizeof lim->from);
}

/* The huge pages and the notes of o into l. */
static void lists_from_json(const cJSON *o, struct mt_limits *l)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(o, "hugetlb"), *x;
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "notes");
	for (x = cJSON_IsArray(h) ? h->child : NULL; x; x = x->next) {
		struct mt_cg_huge *g = &l->huge[l->nhuge];
		if (l->nhuge >= MT_CG_HUGE || !cJSON_IsObject(x))
			continue;
		g->page = bytes_of(x, "page");
		g->lim.bytes = bytes_of(x, "bytes");
		jsonio_opt_string(x, "from", g->lim.from, sizeof g->lim.from);
		if (g->page && g->lim.bytes)
			l->nhuge++;
	}
	for (x = cJSON_IsArray(n) ? n->child : NULL; x; x = x->next)
		if (l->nnotes < MT_CG_NOTES && cJSON_IsString(x))
			mt_printable(l->notes[l->nnotes++], MT_CG_NOTE, x->valuestring, 0);
}

void mt_limits_from_json(const cJSON *o, struct mt_limits *l)
{
	double q;
	memset(l, 0, sizeof *l);
	if (!cJSON_IsObject(o)) {
		mt_strlcpy(l->why, N_("not recorded (an import, or an older file)"), sizeof l->why);
		return;
	}
	if (cJSON_GetObjectItemCaseSensitive(o, "unknown")) {
		jsonio_opt_string(o, "unknown", l->why, sizeof l->why);
		return;
	}
	l->known = 1;
	l->version = (int)jsonio_opt_int(o, "version", 0, 2, 0);
	jsonio_opt_string(o, "cgroup", l->cgroup, sizeof l->cgroup);
	limit_from_json(o, "memory", &l->mem);
	limit_from_json(o, "memory_high", &l->high);
	limit_from_json(o, "soft_limit", &l->soft);
	limit_from_json(o, "memsw", &l->memsw);
	l->room = bytes_of(o, "room");
	q = jsonio_opt_number(o, "cpu_quota", 0);
	l->quota = isfinite(q) && q > 0 && q < 1e6 ? q : 0;
	l->quota_us = bytes_of(o, "cpu_quota_us");
	l->period_us = bytes_of(o, "cpu_period_us");
	jsonio_opt_string(o, "cpu_quota_from", l->quota_from, sizeof l->quota_from);
	jsonio_opt_string(o, "cpuset", l->cpuset, sizeof l->cpuset);
	jsonio_opt_string(o, "cpuset_from", l->cpuset_from, sizeof l->cpuset_from);
	l->ncpuset = l->cpuset[0] ? mt_cgroup_count_cpus(l->cpuset) : 0;
	if (l->ncpuset < 0)
		l->ncpuset = 0;
	lists_from_json(o, l);
}

int mt_limits_quota_note(const struct mt_limits *l, int threads, char *buf, size_t len)
{
	double period_ms = (double)l->period_us / 1000.0;
	char q[32];
	buf[0] = '\0';
	if (!l->known || l->quota <= 0 || l->quota >= (double)(threads > 0 ? threads : 1))
		return 0;
	cpus_text(l->quota, q, sizeof q, 0);
	if (threads <= 1)
		mt_snprintf(buf, len,
			    "the job's cpu quota is %s (%s), under the one thread of this run: it "
			    "runs at most %.0f ms of each %.0f ms period, so a try across a pause "
			    "reads slow (the best of the tries is kept)",
			    q, l->quota_from, l->quota * period_ms, period_ms);
	else
		mt_snprintf(buf, len,
			    "the job's cpu quota is %s (%s), under the %d threads of this run: "
			    "they take turns within each %.0f ms period, so figures of more "
			    "threads than the quota read the quota, not the memory",
			    q, l->quota_from, threads, period_ms);
	return 1;
}
