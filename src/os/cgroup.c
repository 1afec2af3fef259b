/* cgroup: the job's limits from its control groups (cgroup.h): where each
 * hierarchy is, the process's cgroup in it, and the walk from that cgroup
 * up to the hierarchy's root, keeping the least limit. The words and the
 * JSON are cgroup_json.c's. */
#include "config.h"

#include "cgroup.h"
#include "base/i18n.h"
#include "base/util.h"

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CG_PATH 1024  /* a cgroup's path or a mount point */
#define CG_HIER 16    /* hierarchies in /proc/self/cgroup */
#define CG_MOUNTS 32  /* cgroup mounts kept */
#define CG_LIMITED 16 /* limited cgroups whose usage sets the room */
#define CG_UNLIMITED (1ull << 62) /* v1 writes "no limit" as 9223372036854771712 */

/* A line of /proc/self/cgroup. */
struct hier {
	int v2;                 /* "0::PATH" */
	char ctrls[160];        /* "cpu,cpuacct" */
	char path[CG_PATH];
};

/* A cgroup file system mounted. */
struct mnt {
	int v2;
	char opts[256];         /* v1: its super options, the controllers among them */
	char root[CG_PATH];     /* the cgroup mounted there ("/" but in a container) */
	char point[CG_PATH];
};

/* Where one controller's files of the process's cgroup are. */
struct cg_dir {
	int v2;
	char point[CG_PATH];    /* the mount point, as the machine names it */
	char rel[CG_PATH];      /* the cgroup under it: "/slurm/uid_0/job_5" ("" its root) */
};

/* A limited cgroup: its limit and the file saying its usage. */
struct limited {
	uint64_t limit;
	char usage[MT_PATH_MAX + 3 * CG_PATH]; /* under the root */
	char shown[3 * CG_PATH];               /* as the machine names it */
};

struct reader {
	const char *root;
	struct mt_limits *l;
	struct hier h[CG_HIER];
	int nh;
	struct mnt m[CG_MOUNTS];
	int nm;
	struct limited lim[CG_LIMITED];
	int nlim;
};

/* ---- the files -------------------------------------------------------- */

/* The text of root/path, blanks cut at both ends; NULL when absent. */
static char *text_of(const char *root, const char *path)
{
	char full[MT_PATH_MAX + 2 * CG_PATH];
	char *t, *s;
	size_t n;
	mt_snprintf(full, sizeof full, "%s%s", root, path);
	t = mt_read_file(full, 1 << 20, NULL, NULL);
	if (!t)
		return NULL;
	n = strlen(t);
	while (n > 0 && (t[n - 1] == '\n' || t[n - 1] == ' ' || t[n - 1] == '\t'))
		t[--n] = '\0';
	for (s = t; *s == ' ' || *s == '\t' || *s == '\n'; s++)
		;
	memmove(t, s, strlen(s) + 1);
	return t;
}

/* A bad file said: "PATH: 'TEXT' what: fallback". */
static void note(struct reader *r, const char *path, const char *text, const char *what,
		 const char *fallback)
{
	struct mt_limits *l = r->l;
	char shown[48];
	if (l->nnotes >= MT_CG_NOTES)
		return;
	mt_printable(shown, sizeof shown, text, 0);
	mt_snprintf(l->notes[l->nnotes++], MT_CG_NOTE, "%s: '%s' %s: %s", MT_PRINTABLE(path),
		    shown, what, fallback);
}

/* 1 when the comma list has name. */
static int has(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; *p;) {
		size_t k = strcspn(p, ",");
		if (k == n && strncmp(p, name, n) == 0)
			return 1;
		p += k + (p[k] == ',');
	}
	return 0;
}

/* mountinfo's escapes (\040 a space) undone in place. */
static void unescape(char *s)
{
	char *w = s;
	for (char *p = s; *p; p++) {
		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' &&
		    p[3] >= '0' && p[3] <= '7') {
			*w++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
			p += 3;
		} else {
			*w++ = *p;
		}
	}
	*w = '\0';
}

/* /proc/self/cgroup's lines into r->h. */
static void parse_self(struct reader *r, char *text)
{
	for (char *line = strtok(text, "\n"); line && r->nh < CG_HIER; line = strtok(NULL, "\n")) {
		char *a = strchr(line, ':'), *b = a ? strchr(a + 1, ':') : NULL;
		struct hier *h = &r->h[r->nh];
		if (!b || b[1] != '/')
			continue;
		*a = *b = '\0';
		h->v2 = strcmp(line, "0") == 0 && a[1] == '\0';
		if (mt_strlcpy(h->ctrls, a + 1, sizeof h->ctrls) < 0 ||
		    mt_strlcpy(h->path, b + 1, sizeof h->path) < 0)
			continue;
		r->nh++;
	}
}

/* One line of mountinfo (mountinfo 1) or /proc/mounts into r->m when it is
 * a cgroup file system. */
static void parse_mount(struct reader *r, char *line, int mountinfo)
{
	static char slash[] = "/";
	char *f[12], *type, *opts, *root = slash, *point, *save = NULL;
	int n = 0, dash = -1;
	struct mnt *m = &r->m[r->nm];
	for (char *t = strtok_r(line, " ", &save); t && n < 12; t = strtok_r(NULL, " ", &save)) {
		if (mountinfo && dash < 0 && strcmp(t, "-") == 0)
			dash = n;
		f[n++] = t;
	}
	if (mountinfo ? dash < 5 || n < dash + 4 : n < 4)
		return;
	type = mountinfo ? f[dash + 1] : f[2];
	opts = mountinfo ? f[dash + 3] : f[3];
	point = mountinfo ? f[4] : f[1];
	if (mountinfo)
		root = f[3];
	if (strcmp(type, "cgroup") != 0 && strcmp(type, "cgroup2") != 0)
		return;
	m->v2 = strcmp(type, "cgroup2") == 0;
	unescape(root);
	unescape(point);
	if (mt_strlcpy(m->opts, opts, sizeof m->opts) < 0 ||
	    mt_strlcpy(m->root, root, sizeof m->root) < 0 ||
	    mt_strlcpy(m->point, point, sizeof m->point) < 0)
		return;
	r->nm++;
}

/* The mounts: mountinfo, else /proc/mounts (left empty: the usual layout). */
static void read_mounts(struct reader *r)
{
	int mountinfo = 1;
	char *t = text_of(r->root, "/proc/self/mountinfo");
	if (!t) {
		mountinfo = 0;
		t = text_of(r->root, "/proc/mounts");
	}
	if (!t)
		return;
	for (char *save = NULL, *line = strtok_r(t, "\n", &save); line && r->nm < CG_MOUNTS;
	     line = strtok_r(NULL, "\n", &save))
		parse_mount(r, line, mountinfo);
	free(t);
}

/* 1 when root/path is there (dir: a folder). */
static int exists(const char *root, const char *path, int dir)
{
	char full[MT_PATH_MAX + 2 * CG_PATH];
	struct stat st;
	mt_snprintf(full, sizeof full, "%s%s", root, path);
	return stat(full, &st) == 0 && (!dir || S_ISDIR(st.st_mode));
}

/* The process's cgroup path under a mount of the cgroup mroot: the path
 * less mroot (a container's mount of its own cgroup), into d->rel. */
static void relative(struct cg_dir *d, const char *path, const char *mroot)
{
	size_t n = strlen(mroot);
	if (strcmp(mroot, "/") != 0 && strncmp(path, mroot, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/'))
		path += n;
	mt_strlcpy(d->rel, strcmp(path, "/") == 0 ? "" : path, sizeof d->rel);
}

/* The mount of the v1 hierarchy of controller ctrl (h) or of the v2 one,
 * else the usual place under /sys/fs/cgroup. Returns its index, -1 the
 * usual place (d->point set), -2 none. */
static int find_mount(const struct reader *r, const struct hier *h, const char *ctrl,
		      struct cg_dir *d)
{
	for (int i = 0; i < r->nm; i++)
		if (h->v2 ? r->m[i].v2 : !r->m[i].v2 && has(r->m[i].opts, ctrl))
			return i;
	if (h->v2) { /* unified alone, or beside v1's hierarchies (systemd's hybrid) */
		mt_strlcpy(d->point,
			   !exists(r->root, "/sys/fs/cgroup/cgroup.controllers", 0) &&
					   exists(r->root, "/sys/fs/cgroup/unified", 1)
				   ? "/sys/fs/cgroup/unified"
				   : "/sys/fs/cgroup",
			   sizeof d->point);
		return -1;
	}
	mt_snprintf(d->point, sizeof d->point, "/sys/fs/cgroup/%s", h->ctrls);
	if (exists(r->root, d->point, 1))
		return -1;
	mt_snprintf(d->point, sizeof d->point, "/sys/fs/cgroup/%s", ctrl);
	return exists(r->root, d->point, 1) ? -1 : -2;
}

/* Where controller ctrl's files of the process's cgroup are: its v1
 * hierarchy's, else the unified one's. Returns 0, or -1 when neither is
 * there. */
static int find_dir(const struct reader *r, const char *ctrl, struct cg_dir *d)
{
	const struct hier *v1 = NULL, *v2 = NULL, *h;
	char at[MT_PATH_MAX + 2 * CG_PATH];
	int k;
	for (int i = 0; i < r->nh; i++) {
		if (r->h[i].v2)
			v2 = &r->h[i];
		else if (has(r->h[i].ctrls, ctrl))
			v1 = &r->h[i];
	}
	h = v1 ? v1 : v2;
	if (!h)
		return -1;
	memset(d, 0, sizeof *d);
	d->v2 = h->v2;
	k = find_mount(r, h, ctrl, d);
	if (k == -2)
		return -1;
	if (k >= 0)
		mt_strlcpy(d->point, r->m[k].point, sizeof d->point);
	relative(d, h->path, k >= 0 ? r->m[k].root : "/");
	mt_snprintf(at, sizeof at, "%s%s", d->point, d->rel);
	if (!exists(r->root, at, 1))
		d->rel[0] = '\0'; /* not under that mount: the mount is the job's own */
	if (!exists(r->root, d->point, 1))
		return -1;
	return 0;
}

/* The path the machine names file of level cur by (the mount point, the
 * cgroup, the file), into buf. */
static const char *shown(const struct cg_dir *d, const char *cur, const char *file, char *buf,
			 size_t len)
{
	mt_snprintf(buf, len, "%s%s/%s", d->point, cur, file);
	return buf;
}

/* The text of file at level cur of d; NULL when absent. */
static char *level_text(const struct reader *r, const struct cg_dir *d, const char *cur,
			const char *file)
{
	char p[3 * CG_PATH];
	return text_of(r->root, shown(d, cur, file, p, sizeof p));
}

/* cur one level up ("/a/b" -> "/a" -> ""). Returns 0, or -1 at the root. */
static int up(char *cur)
{
	char *s = strrchr(cur, '/');
	if (!cur[0] || !s)
		return -1;
	*s = '\0';
	return 0;
}

/* ---- memory ----------------------------------------------------------- */

int mt_cgroup_parse_bytes(const char *text, uint64_t *bytes)
{
	uint64_t v;
	*bytes = 0;
	if (strcmp(text, "max") == 0)
		return 0;
	if (mt_parse_u64(text, 0, UINT64_MAX, &v) < 0)
		return -1;
	*bytes = v >= CG_UNLIMITED ? 0 : v;
	return 0;
}

/* A memory limit file at level cur into lim (kept when the least so far;
 * at an equal one the ancestor's, whose usage holds the other's); its
 * usage file into the room's list. */
static void memory_file(struct reader *r, const struct cg_dir *d, const char *cur,
			const char *file, const char *usage, struct mt_cg_limit *lim)
{
	char p[3 * CG_PATH];
	uint64_t b;
	char *t = level_text(r, d, cur, file);
	if (!t)
		return;
	if (mt_cgroup_parse_bytes(t, &b) < 0 || (!d->v2 && strcmp(t, "max") == 0)) {
		note(r, shown(d, cur, file, p, sizeof p), t,
		     d->v2 ? "is not a size in bytes nor max" : "is not a size in bytes",
		     "read as no limit there");
		b = 0;
	}
	free(t);
	if (!b)
		return;
	if (!lim->bytes || b <= lim->bytes) {
		lim->bytes = b;
		mt_snprintf(lim->from, sizeof lim->from, "%s of %s", file, cur[0] ? cur : "/");
	}
	if (usage && r->nlim < CG_LIMITED) {
		struct limited *x = &r->lim[r->nlim++];
		x->limit = b;
		shown(d, cur, usage, x->shown, sizeof x->shown);
		mt_snprintf(x->usage, sizeof x->usage, "%s%s", r->root, x->shown);
	}
}

static void read_memory(struct reader *r)
{
	struct cg_dir d;
	char cur[CG_PATH];
	struct mt_limits *l = r->l;
	if (find_dir(r, "memory", &d) < 0)
		return;
	l->version = d.v2 ? 2 : 1;
	mt_strlcpy(l->cgroup, d.rel[0] ? d.rel : "/", sizeof l->cgroup);
	mt_strlcpy(cur, d.rel, sizeof cur);
	do {
		if (d.v2) {
			memory_file(r, &d, cur, "memory.max", "memory.current", &l->mem);
			memory_file(r, &d, cur, "memory.high", "memory.current", &l->high);
		} else {
			memory_file(r, &d, cur, "memory.limit_in_bytes", "memory.usage_in_bytes",
				    &l->mem);
			memory_file(r, &d, cur, "memory.soft_limit_in_bytes", NULL, &l->soft);
			memory_file(r, &d, cur, "memory.memsw.limit_in_bytes",
				    "memory.memsw.usage_in_bytes", &l->memsw);
		}
	} while (up(cur) == 0);
}

/* The least of limit - usage over the limited cgroups, their usage read
 * now (a usage that cannot be read counts as none; one that does not
 * parse too, said in r's notes when r is given). */
static uint64_t room_of(const struct limited *lim, int n, struct reader *r)
{
	uint64_t room = UINT64_MAX;
	for (int i = 0; i < n; i++) {
		uint64_t used = 0, left;
		char *t = mt_read_file(lim[i].usage, 4096, NULL, NULL);
		if (t) {
			t[strcspn(t, "\n")] = '\0';
			if (mt_parse_u64(t, 0, UINT64_MAX, &used) < 0) {
				if (r)
					note(r, lim[i].shown, t, "is not a number of bytes",
					     "the usage read as none");
				used = 0;
			}
			free(t);
		}
		left = used < lim[i].limit ? lim[i].limit - used : 0;
		if (left < room)
			room = left;
	}
	return n ? room : 0;
}

/* ---- CPUs ------------------------------------------------------------- */

int mt_cgroup_parse_cpu_max(const char *text, uint64_t *quota_us, uint64_t *period_us)
{
	char q[32], p[32], extra;
	int n = sscanf(text, "%31s %31s %c", q, p, &extra);
	*quota_us = 0;
	*period_us = 100000;
	if (n < 1 || n > 2)
		return -1;
	if (n == 2 && (p[0] == '-' || (p[0] == '0' && !p[1])))
		return -2;
	if (n == 2 && mt_parse_u64(p, 1, UINT64_MAX, period_us) < 0)
		return -1;
	if (strcmp(q, "max") == 0)
		return 0;
	if (q[0] == '-' || (q[0] == '0' && !q[1]))
		return -2;
	return mt_parse_u64(q, 1, UINT64_MAX, quota_us) < 0 ? -1 : 0;
}

/* A quota's or a period's text into *us (quota: "-1" or "max" none, 0).
 * Returns 0, or -1 (said, naming the file: no quota there). */
static int quota_part(struct reader *r, const struct cg_dir *d, const char *cur,
		      const char *file, const char *t, int quota, uint64_t *us)
{
	char p[3 * CG_PATH];
	*us = 0;
	if (quota && (strcmp(t, "-1") == 0 || strcmp(t, "max") == 0))
		return 0;
	if (t[0] == '-' || strcmp(t, "0") == 0)
		note(r, shown(d, cur, file, p, sizeof p), t,
		     quota ? "is a quota of 0 or less, which no kernel takes"
			   : "is a period of 0 or less, which no kernel takes",
		     "read as no quota there");
	else if (mt_parse_u64(t, 1, UINT64_MAX, us) == 0)
		return 0;
	else
		note(r, shown(d, cur, file, p, sizeof p), t, "is not a number of microseconds",
		     "read as no quota there");
	*us = 0;
	return -1;
}

/* The quota at level cur into *q and *per (v1: cpu.cfs_quota_us and
 * cpu.cfs_period_us; v2: cpu.max); *q 0: no quota there, or a file that
 * did not parse (said). */
static void quota_at(struct reader *r, const struct cg_dir *d, const char *cur, uint64_t *q,
		     uint64_t *per)
{
	char p[3 * CG_PATH], *t, *pt;
	int rc;
	*q = 0;
	*per = 100000;
	if (d->v2) {
		if (!(t = level_text(r, d, cur, "cpu.max")))
			return;
		rc = mt_cgroup_parse_cpu_max(t, q, per);
		if (rc < 0)
			note(r, shown(d, cur, "cpu.max", p, sizeof p), t,
			     rc == -2 ? "is a quota or period of 0 or less, which no kernel takes"
				      : "is not a quota and a period (such as 50000 100000)",
			     "read as no quota there");
		if (rc < 0)
			*q = 0;
		free(t);
		return;
	}
	if (!(t = level_text(r, d, cur, "cpu.cfs_quota_us")))
		return;
	if (quota_part(r, d, cur, "cpu.cfs_quota_us", t, 1, q) == 0 && *q &&
	    (pt = level_text(r, d, cur, "cpu.cfs_period_us"))) {
		if (quota_part(r, d, cur, "cpu.cfs_period_us", pt, 0, per) < 0)
			*q = 0;
		free(pt);
	}
	free(t);
}

/* The quota of level cur, kept when the least so far. */
static void quota_level(struct reader *r, const struct cg_dir *d, const char *cur)
{
	struct mt_limits *l = r->l;
	uint64_t q, per;
	quota_at(r, d, cur, &q, &per);
	if (!q || !per)
		return;
	if (!l->quota || (double)q / (double)per <= l->quota) {
		l->quota = (double)q / (double)per;
		l->quota_us = q;
		l->period_us = per;
		mt_snprintf(l->quota_from, sizeof l->quota_from, "%s of %s",
			    d->v2 ? "cpu.max" : "cpu.cfs_quota_us", cur[0] ? cur : "/");
	}
}

static void read_quota(struct reader *r)
{
	struct cg_dir d;
	char cur[CG_PATH];
	if (find_dir(r, "cpu", &d) < 0)
		return;
	mt_strlcpy(cur, d.rel, sizeof cur);
	do
		quota_level(r, &d, cur);
	while (up(cur) == 0);
}

/* The CPUs of the cpuset at level cur (its effective list, else its own
 * list, else its parent's), the file into file; NULL when none. */
static char *cpus_at(struct reader *r, const struct cg_dir *d, char *cur, const char **file)
{
	static const char *const v2[] = { "cpuset.cpus.effective", "cpuset.cpus" };
	static const char *const v1[] = { "cpuset.effective_cpus", "cpuset.cpus" };
	do {
		for (int i = 0; i < 2; i++) {
			char *t = level_text(r, d, cur, (d->v2 ? v2 : v1)[i]);
			if (t && t[0]) {
				*file = (d->v2 ? v2 : v1)[i];
				return t;
			}
			free(t);
		}
	} while (up(cur) == 0);
	return NULL;
}

int mt_cgroup_count_cpus(const char *list)
{
	int *cpus = malloc(MT_CPU_LIST_MAX * sizeof *cpus), n;
	if (!cpus)
		return -1;
	n = mt_parse_cpu_list(list, cpus, MT_CPU_LIST_MAX, NULL);
	free(cpus);
	return n;
}

static void read_cpuset(struct reader *r)
{
	struct mt_limits *l = r->l;
	struct cg_dir d;
	char cur[CG_PATH], top[CG_PATH] = "", p[3 * CG_PATH];
	const char *file = NULL, *topfile = NULL;
	char *mine, *all;
	int n, nall;
	if (find_dir(r, "cpuset", &d) < 0)
		return;
	mt_strlcpy(cur, d.rel, sizeof cur);
	if (!(mine = cpus_at(r, &d, cur, &file)))
		return;
	all = cpus_at(r, &d, top, &topfile);
	n = mt_cgroup_count_cpus(mine);
	nall = all ? mt_cgroup_count_cpus(all) : -1;
	if (n < 0)
		note(r, shown(&d, cur, file, p, sizeof p), mine, "is not a CPU list",
		     "read as every CPU");
	else if (nall > n) {
		mt_strlcpy(l->cpuset, mine, sizeof l->cpuset);
		l->ncpuset = n;
		mt_snprintf(l->cpuset_from, sizeof l->cpuset_from, "%s of %s", file,
			    cur[0] ? cur : "/");
	}
	free(mine);
	free(all);
}

/* ---- huge pages ------------------------------------------------------- */

/* A hugetlb limit file's name ("hugetlb.2MB.max", "hugetlb.1GB.limit_in_bytes")
 * into its page's bytes. Returns 0, or -1 when it is not one. */
static int huge_file(const char *name, int v2, uint64_t *page)
{
	const char *tail = v2 ? ".max" : ".limit_in_bytes";
	char size[32];
	size_t n = strlen(name), t = strlen(tail);
	if (strncmp(name, "hugetlb.", 8) != 0 || n <= 8 + t || strcmp(name + n - t, tail) != 0 ||
	    n - 8 - t >= sizeof size)
		return -1;
	memcpy(size, name + 8, n - 8 - t);
	size[n - 8 - t] = '\0';
	return mt_parse_size(size, page) < 0 || *page == 0 ? -1 : 0;
}

/* The slot of page size page in l->huge (a new one; -1 when full). */
static int huge_slot(struct mt_limits *l, uint64_t page)
{
	for (int i = 0; i < l->nhuge; i++)
		if (l->huge[i].page == page)
			return i;
	if (l->nhuge >= MT_CG_HUGE)
		return -1;
	l->huge[l->nhuge].page = page;
	return l->nhuge++;
}

static void huge_level(struct reader *r, const struct cg_dir *d, const char *cur)
{
	char dir[MT_PATH_MAX + 3 * CG_PATH];
	DIR *dp;
	struct dirent *de;
	mt_snprintf(dir, sizeof dir, "%s%s%s", r->root, d->point, cur);
	if (!(dp = opendir(dir)))
		return;
	while ((de = readdir(dp))) {
		uint64_t page, was;
		int k;
		struct mt_cg_limit one = { 0, "" };
		if (huge_file(de->d_name, d->v2, &page) < 0)
			continue;
		memory_file(r, d, cur, de->d_name, NULL, &one);
		if (!one.bytes || (k = huge_slot(r->l, page)) < 0)
			continue;
		was = r->l->huge[k].lim.bytes;
		if (!was || one.bytes <= was)
			r->l->huge[k].lim = one;
	}
	closedir(dp);
}

static void read_huge(struct reader *r)
{
	struct cg_dir d;
	char cur[CG_PATH];
	int n = 0;
	if (find_dir(r, "hugetlb", &d) < 0)
		return;
	mt_strlcpy(cur, d.rel, sizeof cur);
	do
		huge_level(r, &d, cur);
	while (up(cur) == 0);
	for (int i = 0; i < r->l->nhuge; i++) /* the sizes that got no limit out */
		if (r->l->huge[i].lim.bytes)
			r->l->huge[n++] = r->l->huge[i];
	r->l->nhuge = n;
}

/* ---- the reading ------------------------------------------------------ */

/* The limits under root into l, the limited cgroups into r (the caller's). */
static void read_all(const char *root, struct mt_limits *l, struct reader *r)
{
	char *self;
	memset(l, 0, sizeof *l);
	memset(r, 0, sizeof *r);
	r->root = root;
	r->l = l;
	if (!(self = text_of(root, "/proc/self/cgroup"))) {
		mt_strlcpy(l->why, root[0] ? N_("no proc/self/cgroup in the recorded tree")
					   : N_("no /proc/self/cgroup (no control groups here)"),
			   sizeof l->why);
		return;
	}
	l->known = 1;
	parse_self(r, self);
	free(self);
	read_mounts(r);
	read_memory(r);
	read_quota(r);
	read_cpuset(r);
	read_huge(r);
	l->room = l->mem.bytes || l->high.bytes || l->memsw.bytes ? room_of(r->lim, r->nlim, r) : 0;
}

void mt_limits_read(const char *root, struct mt_limits *l)
{
	struct reader *r = malloc(sizeof *r);
	if (!r) {
		memset(l, 0, sizeof *l);
		mt_strlcpy(l->why, N_("out of memory"), sizeof l->why);
		return;
	}
	read_all(root, l, r);
	free(r);
}

static struct mt_limits this_limits;
static struct reader *this_reader; /* its limited cgroups, for the room now */

static void read_this(void)
{
	this_reader = malloc(sizeof *this_reader);
	if (!this_reader) {
		mt_strlcpy(this_limits.why, "out of memory", sizeof this_limits.why);
		return;
	}
	read_all("", &this_limits, this_reader);
}

static pthread_once_t this_once = PTHREAD_ONCE_INIT;

const struct mt_limits *mt_limits_this(void)
{
	pthread_once(&this_once, read_this);
	return &this_limits;
}

uint64_t mt_limits_room_this(void)
{
	const struct mt_limits *l = mt_limits_this();
	if (!this_reader || !mt_limits_memory(l, NULL))
		return 0;
	return room_of(this_reader->lim, this_reader->nlim, NULL);
}
