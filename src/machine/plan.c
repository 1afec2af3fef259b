/* plan: a run's plan, its words and its JSON (plan.h). */
#include "config.h"

#include "plan.h"
#include "base/i18n.h"
#include "base/jsonio.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAIRS_SHOWN 12 /* the pairs a printed plan lists before it counts */

void plan_init(struct plan *p, const char *exp, const struct machine *m)
{
	memset(p, 0, sizeof *p);
	mt_strlcpy(p->experiment, exp, sizeof p->experiment);
	p->m = m;
	p->worker_cpu = -1;
}

void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->nthreads; i++)
		free(p->threads[i].cpus);
	free(p->threads);
	free(p->pairs);
	free(p->nodes);
	p->threads = NULL;
	p->pairs = NULL;
	p->nodes = NULL;
	p->nthreads = p->npairs = p->nnodes = 0;
}

int plan_add_size(struct plan *p, const char *level, uint64_t bytes, int each_thread,
		  int each_group, const char *why)
{
	struct plan_size *s;
	if (p->nsizes >= PLAN_MAX_SIZES)
		return -1;
	s = &p->sizes[p->nsizes++];
	mt_strlcpy(s->level, level ? level : "", sizeof s->level);
	s->bytes = bytes;
	s->each_thread = each_thread;
	s->each_group = each_group;
	mt_strlcpy(s->why, why ? why : "", sizeof s->why);
	if (bytes > p->max_size)
		p->max_size = bytes;
	return 0;
}

/* Room for one more of n in *v (cap *cap, elements of size sz). */
static int grow(void **v, size_t n, size_t *cap, size_t sz)
{
	void *w;
	size_t c = *cap ? *cap * 2 : 16;
	if (n < *cap)
		return 0;
	w = realloc(*v, c * sz);
	if (!w)
		return -1;
	*v = w;
	*cap = c;
	return 0;
}

int plan_add_threads(struct plan *p, int count, const int *cpus, int ncpus)
{
	struct plan_threads *t;
	if (grow((void **)&p->threads, p->nthreads, &p->threads_cap, sizeof *p->threads) < 0)
		return -1;
	t = &p->threads[p->nthreads];
	t->count = count;
	t->ncpus = ncpus;
	t->cpus = NULL;
	if (ncpus > 0) {
		t->cpus = malloc((size_t)ncpus * sizeof *t->cpus);
		if (!t->cpus)
			return -1;
		memcpy(t->cpus, cpus, (size_t)ncpus * sizeof *cpus);
	}
	p->nthreads++;
	return 0;
}

int plan_add_pair(struct plan *p, int a, int b)
{
	if (grow((void **)&p->pairs, p->npairs, &p->pairs_cap, sizeof *p->pairs) < 0)
		return -1;
	p->pairs[p->npairs][0] = a;
	p->pairs[p->npairs][1] = b;
	p->npairs++;
	return 0;
}

int plan_add_node(struct plan *p, const struct plan_node *n)
{
	if (grow((void **)&p->nodes, p->nnodes, &p->nodes_cap, sizeof *p->nodes) < 0)
		return -1;
	p->nodes[p->nnodes++] = *n;
	return 0;
}

/* The next note's buffer, NULL when the plan has all it keeps. */
static char *next_note(struct plan *p)
{
	return p->nnotes < PLAN_MAX_NOTES ? p->notes[p->nnotes++] : NULL;
}

void plan_note(struct plan *p, const char *fmt, ...)
{
	va_list ap;
	char *note = next_note(p);
	if (!note)
		return;
	va_start(ap, fmt);
	vsnprintf(note, PLAN_NOTE_LEN, fmt, ap);
	va_end(ap);
}

/* A note from fmt, already in the plan's words: its fractions with the
 * user's decimal separator where human, '.' for the JSON. */
static void say(struct plan *p, const char *fmt, va_list ap)
{
	char *note = next_note(p);
	if (!note)
		return;
	if (p->human)
		mt_vhsnprintf(note, PLAN_NOTE_LEN, fmt, ap);
	else
		vsnprintf(note, PLAN_NOTE_LEN, fmt, ap);
}

void plan_say(struct plan *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(p, plan_words(p, fmt), ap);
	va_end(ap);
}

void plan_say_n(struct plan *p, const char *one, const char *many, unsigned long n, ...)
{
	va_list ap;
	va_start(ap, n);
	say(p, plan_words_n(p, one, many, n), ap);
	va_end(ap);
}

const char *plan_words(const struct plan *p, const char *en)
{
	return p->human ? _(en) : en;
}

const char *plan_words_n(const struct plan *p, const char *one, const char *many, unsigned long n)
{
	return p->human ? MT_NGETTEXT(one, many, n) : n == 1 ? one : many;
}

/* "0-3,8" of cpus[0..n) (runs of consecutive CPUs folded) into buf. */
static const char *cpus_text(const int *cpus, int n, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int i = 0; i < n;) {
		int j = i;
		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j > i)
			mt_append(buf, len, "%s%d-%d", buf[0] ? "," : "", cpus[i], cpus[j]);
		else
			mt_append(buf, len, "%s%d", buf[0] ? "," : "", cpus[i]);
		i = j + 1;
	}
	if (!buf[0])
		mt_strlcpy(buf, "none", len);
	return buf;
}

static void print_sizes(FILE *f, const struct plan *p)
{
	char a[32];
	if (!p->nsizes)
		return;
	fprintf(f, _("# sizes (%zu):\n"), p->nsizes);
	for (size_t i = 0; i < p->nsizes; i++) {
		const struct plan_size *s = &p->sizes[i];
		/* the level and the size label stay as the options write them; the
		 * reason is the plan's data (English, as --plan --json keeps it) */
		fprintf(f, "#   %-8s %8s %s%s%s\n", s->level[0] ? s->level : "-",
			mt_fmt_size(a, sizeof a, s->bytes),
			s->each_thread  ? _("each thread")
			: s->each_group ? _("each L3 group")
					: _("in all"),
			s->why[0] ? ": " : "", s->why);
	}
}

static void print_threads(FILE *f, const struct plan *p)
{
	char cpus[600];
	if (!p->nthreads)
		return;
	fprintf(f, "%s", _("# threads:\n"));
	for (size_t i = 0; i < p->nthreads; i++)
		/* TRANSLATORS: a count of threads started on those CPUs */
		fprintf(f,
			MT_NGETTEXT("#   %4d on CPUs %s\n", "#   %4d on CPUs %s\n",
				    p->threads[i].count),
			p->threads[i].count,
			cpus_text(p->threads[i].cpus, p->threads[i].ncpus, cpus, sizeof cpus));
}

static void print_pairs(FILE *f, const struct plan *p)
{
	if (!p->npairs)
		return;
	if (p->pairs_nodes) {
		fprintf(f, _("# node pairs (CPU node > memory node): %zu:"), p->npairs);
		for (size_t i = 0; i < p->npairs && i < PAIRS_SHOWN; i++)
			fprintf(f, " %d>%d", p->pairs[i][0], p->pairs[i][1]);
	} else {
		fprintf(f, _("# pairs of CPUs: %zu:"), p->npairs);
		for (size_t i = 0; i < p->npairs && i < PAIRS_SHOWN; i++)
			fprintf(f, " (%d,%d)", p->pairs[i][0], p->pairs[i][1]);
	}
	fprintf(f, "%s\n", p->npairs > PAIRS_SHOWN ? " ..." : "");
}

static void print_nodes(FILE *f, const struct plan *p)
{
	char a[32], cpus[600];
	for (size_t i = 0; i < p->nnodes; i++) {
		const struct plan_node *n = &p->nodes[i];
		if (n->ncpus)
			mt_snprintf(cpus, sizeof cpus, _("CPUs %s"), n->cpus);
		else
			mt_strlcpy(cpus,
				   n->own ? _("no CPU this process may use")
					  : _("no CPUs of its own (memory only)"),
				   sizeof cpus);
		mt_hfmt_mem(a, sizeof a, n->memory);
		if (n->tier[0])
			/* TRANSLATORS: a node, its memory's tier (DRAM, CXL), its memory, its CPUs */
			fprintf(f, _("#   node %d: %s, %s, %s\n"), n->node, n->tier, a, cpus);
		else
			/* TRANSLATORS: a node, its memory, its CPUs */
			fprintf(f, _("#   node %d: %s, %s\n"), n->node, a, cpus);
	}
}

void plan_print(FILE *f, const struct plan *p)
{
	char sum[1024];
	/* TRANSLATORS: the experiment's name (latency), the machine */
	fprintf(f, _("# plan of run %s on %s\n"), p->experiment,
		MT_PRINTABLE(machine_source_text(p->m, sum, sizeof sum)));
	fprintf(f, "# %s\n", machine_summary(p->m, sum, sizeof sum));
	fprintf(f, "# %s\n", machine_job_line(p->m, sum, sizeof sum));
	for (int i = 0; i < p->m->limits.nnotes; i++)
		/* TRANSLATORS: a note of the job's cgroup files (English, as results keep it) */
		fprintf(f, _("# job: %s\n"), p->m->limits.notes[i]);
	if (p->worker_cpu >= 0)
		/* TRANSLATORS: the CPU the measuring thread runs on */
		fprintf(f, _("# the worker: CPU %d\n"), p->worker_cpu);
	print_sizes(f, p);
	print_threads(f, p);
	print_pairs(f, p);
	if (p->nnodes)
		fprintf(f, _("# nodes (%zu):\n"), p->nnodes);
	print_nodes(f, p);
	for (int i = 0; i < p->nnotes; i++)
		fprintf(f, "# %s\n", p->notes[i]);
	if (p->estimate_s > 0)
		/* TRANSLATORS: the time the run would take */
		mt_hfprintf(f, _("# about %.0f s\n"), p->estimate_s < 1 ? 1 : p->estimate_s);
	fprintf(f, "%s", _("# nothing measured (--plan)\n"));
}

static int add_sizes(cJSON *o, const struct plan *p)
{
	cJSON *a = cJSON_AddArrayToObject(o, "sizes");
	for (size_t i = 0; a && i < p->nsizes; i++) {
		const struct plan_size *s = &p->sizes[i];
		cJSON *x = cJSON_CreateObject();
		if (!x || !cJSON_AddItemToArray(a, x) ||
		    !cJSON_AddStringToObject(x, "level", s->level) ||
		    !cJSON_AddNumberToObject(x, "bytes", (double)s->bytes) ||
		    !cJSON_AddBoolToObject(x, "each_thread", s->each_thread) ||
		    !cJSON_AddBoolToObject(x, "each_group", s->each_group) ||
		    !cJSON_AddStringToObject(x, "why", s->why))
			return -1;
	}
	return a ? 0 : -1;
}

static int add_threads(cJSON *o, const struct plan *p)
{
	cJSON *a = cJSON_AddArrayToObject(o, "threads");
	for (size_t i = 0; a && i < p->nthreads; i++) {
		const struct plan_threads *t = &p->threads[i];
		cJSON *x = cJSON_CreateObject();
		if (!x || !cJSON_AddItemToArray(a, x) ||
		    !cJSON_AddNumberToObject(x, "count", t->count) ||
		    !cJSON_AddItemToObject(
			    x, "cpus", cJSON_CreateIntArray(t->cpus ? t->cpus : (const int[]){ 0 },
							    t->ncpus)))
			return -1;
	}
	return a ? 0 : -1;
}

static int add_pairs(cJSON *o, const struct plan *p)
{
	cJSON *a = cJSON_AddArrayToObject(o, "pairs");
	for (size_t i = 0; a && i < p->npairs; i++)
		if (!cJSON_AddItemToArray(a, cJSON_CreateIntArray(p->pairs[i], 2)))
			return -1;
	return a ? 0 : -1;
}

static int add_nodes(cJSON *o, const struct plan *p)
{
	cJSON *a = cJSON_AddArrayToObject(o, "nodes");
	for (size_t i = 0; a && i < p->nnodes; i++) {
		const struct plan_node *n = &p->nodes[i];
		cJSON *x = cJSON_CreateObject();
		if (!x || !cJSON_AddItemToArray(a, x) || !cJSON_AddNumberToObject(x, "node", n->node) ||
		    !cJSON_AddStringToObject(x, "tier", n->tier) ||
		    !cJSON_AddNumberToObject(x, "memory", (double)n->memory) ||
		    !cJSON_AddStringToObject(x, "cpus", n->cpus))
			return -1;
	}
	return a ? 0 : -1;
}

static int add_notes(cJSON *o, const struct plan *p)
{
	cJSON *a = cJSON_AddArrayToObject(o, "notes");
	for (int i = 0; a && i < p->nnotes; i++)
		if (!cJSON_AddItemToArray(a, cJSON_CreateString(p->notes[i])))
			return -1;
	return a ? 0 : -1;
}

cJSON *plan_to_json(const struct plan *p)
{
	cJSON *o = cJSON_CreateObject(), *m = machine_to_json(p->m);
	if (!o || !m || !cJSON_AddStringToObject(o, "experiment", p->experiment) ||
	    !cJSON_AddItemToObject(o, "machine", m) ||
	    !cJSON_AddNumberToObject(o, "worker_cpu", p->worker_cpu) || add_sizes(o, p) < 0 ||
	    !cJSON_AddStringToObject(o, "pairs_are", p->pairs_nodes ? "nodes" : "cpus") ||
	    add_threads(o, p) < 0 || add_pairs(o, p) < 0 || add_nodes(o, p) < 0 ||
	    !cJSON_AddNumberToObject(o, "max_size", (double)p->max_size) ||
	    !cJSON_AddNumberToObject(o, "estimate_s", p->estimate_s) || add_notes(o, p) < 0) {
		if (o && !cJSON_GetObjectItemCaseSensitive(o, "machine"))
			cJSON_Delete(m);
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}
