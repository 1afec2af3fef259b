/* fleet: see fleet.h. */
#include "config.h"

#include "fleet.h"
#include "base/i18n.h"
#include "base/jsonio.h"
#include "os/conditions.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void fleet_free(struct fleet *f)
{
	free(f->m);
	free(f->g);
	free(f->flag);
	memset(f, 0, sizeof *f);
}

/* The cache sizes the file's first cache source gives ("caches":
 * {"sources": {NAME: [{"level","type","size"}, ...]}}): L1 data, L2, L3. */
static void id_caches(const cJSON *root, double cache[3])
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(root, "caches"), *src, *lv;
	src = cJSON_GetObjectItemCaseSensitive(c, "sources");
	src = cJSON_IsObject(src) ? src->child : NULL;
	if (!cJSON_IsArray(src))
		return;
	cJSON_ArrayForEach(lv, src)
	{
		long level = jsonio_opt_int(lv, "level", 1, 3, 0);
		const cJSON *type = cJSON_GetObjectItemCaseSensitive(lv, "type");
		double size = jsonio_opt_number(lv, "size", 0);
		if (level && size > 0 && size < 1e15 &&
		    !(cJSON_IsString(type) && strcmp(type->valuestring, "instruction") == 0))
			cache[level - 1] = size;
	}
}

/* What should make machines equal, from a result's header and its JSON. */
static void machine_id(const struct run_header *h, const cJSON *root, struct fleet_id *id)
{
	memset(id, 0, sizeof *id);
	if (h->cpu[0]) {
		mt_strlcpy(id->cpu, h->cpu, sizeof id->cpu);
	} else {
		/* an imported or reference file: its hardware line up to its details,
		 * " (", ": " or ", " ("Intel N100 (Alder Lake-N): ramlat ...") */
		static const char *const ends[] = { " (", ": ", ", " };
		mt_strlcpy(id->cpu, h->hardware, sizeof id->cpu);
		for (size_t k = 0; k < MT_ARRAY_LEN(ends); k++) {
			char *at = strstr(id->cpu, ends[k]);
			if (at)
				*at = '\0';
		}
	}
	id->ncpu = h->has_diag ? h->diag.ncpu : 0;
	id->mem_bytes = h->mem_bytes;
	id_caches(root, id->cache);
}

/* Two machines of one class: the same CPU model, and, where both record
 * them, the same CPU count, memory within FLEET_MEM_ALIKE and the same
 * cache sizes (a file that records no caches, a cores or an imported one,
 * does not split a host from its class). */
static int id_alike(const struct fleet_id *a, const struct fleet_id *b)
{
	if (strcmp(a->cpu, b->cpu) != 0 || (a->ncpu && b->ncpu && a->ncpu != b->ncpu))
		return 0;
	if (a->mem_bytes > 0 && b->mem_bytes > 0 &&
	    fabs(a->mem_bytes - b->mem_bytes) > FLEET_MEM_ALIKE * fmax(a->mem_bytes, b->mem_bytes))
		return 0;
	for (int l = 0; l < 3; l++)
		if (a->cache[l] > 0 && b->cache[l] > 0 && a->cache[l] != b->cache[l])
			return 0;
	return 1;
}

/* What b knows that a does not, into a. */
static void id_fill(struct fleet_id *a, const struct fleet_id *b)
{
	if (!a->cpu[0])
		mt_strlcpy(a->cpu, b->cpu, sizeof a->cpu);
	if (!a->ncpu)
		a->ncpu = b->ncpu;
	if (!(a->mem_bytes > 0))
		a->mem_bytes = b->mem_bytes;
	for (int l = 0; l < 3; l++)
		if (!(a->cache[l] > 0))
			a->cache[l] = b->cache[l];
}

/* Why a run is not to be trusted, in a few words, or "" when it is. */
/* s in the user's language when human, else as written (the JSON's). */
static const char *say(int human, const char *s)
{
	return human && s && s[0] ? _(s) : s;
}

/* Why a run is not trusted, into buf ("" when it is); human: for people
 * (their language, their decimal separator), else the JSON's English. */
static void untrusted_text(const struct run_header *h, char *buf, size_t len, int human)
{
	const struct diag *d = &h->diag;
	double load = d->load_before > d->load_after ? d->load_before : d->load_after;
	double run = diag_run_ghz(d);
	int (*fmt)(char *, size_t, const char *, ...) = human ? mt_hsnprintf : mt_snprintf;
	buf[0] = '\0';
	if (!h->has_diag)
		return;
	if (load >= 0 && d->ncpu > 0 && load > 0.5 * d->ncpu)
		fmt(buf, len,
		    human	   ? MT_NGETTEXT("ran busy: load %.1f on %d CPU",
						 "ran busy: load %.1f on %d CPUs", d->ncpu)
		    : d->ncpu == 1 ? "ran busy: load %.1f on %d CPU"
				   : "ran busy: load %.1f on %d CPUs",
		    load, d->ncpu);
	else if (d->cpu_moved)
		fmt(buf, len, say(human, N_("moved: from CPU %d to %d during the run")),
		    d->cpu_first, d->cpu_last);
	else if (mt_clock_disagrees(d->core_ghz, run))
		fmt(buf, len,
		    say(human, N_("throttled or turbo: clock %.2f GHz during the run, %.2f "
				  "calibrated")),
		    run, d->core_ghz);
	else if (d->steal_pct >= 5)
		fmt(buf, len, say(human, N_("hypervisor stole %.0f %% of the CPU")), d->steal_pct);
	else if (!d->optimized)
		fmt(buf, len, "%s", say(human, N_("built without optimization")));
	else if (strstr(d->build, "-fsanitize="))
		fmt(buf, len, "%s", say(human, N_("built with sanitizers")));
}

/* Why machine m's run h is not trusted, in the JSON's words and in its reader's. */
static void untrusted_why(const struct run_header *h, struct fleet_machine *m)
{
	untrusted_text(h, m->untrusted, sizeof m->untrusted, 0);
	untrusted_text(h, m->untrusted_h, sizeof m->untrusted_h, 1);
}

/* The column of kind k's figure fig, added when new: right after the
 * column of the figure before it in the same result (prev, -1: none), else
 * after its kind's last column, else at the end, so that a kind's columns
 * stay together in the order its figures come. The machines read so far
 * (f->n) get NAN there. Returns its index, or -1 when there are
 * FLEET_MAX_COLS already. */
static int column(struct fleet *f, const struct result_kind *k, const struct result_figure *fig,
		  int prev)
{
	size_t at = f->ncols;
	for (size_t c = 0; c < f->ncols; c++)
		if (f->col[c].kind == k && strcmp(f->col[c].name, fig->name) == 0)
			return (int)c;
	if (f->ncols == FLEET_MAX_COLS)
		return -1;
	if (prev >= 0)
		at = (size_t)prev + 1;
	else
		for (size_t c = 0; c < f->ncols; c++)
			if (f->col[c].kind == k)
				at = c + 1;
	memmove(&f->col[at + 1], &f->col[at], (f->ncols - at) * sizeof f->col[0]);
	for (size_t i = 0; i < f->n; i++) {
		memmove(&f->m[i].v[at + 1], &f->m[i].v[at], (f->ncols - at) * sizeof(double));
		f->m[i].v[at] = (double)NAN;
	}
	f->col[at].kind = k;
	mt_strlcpy(f->col[at].name, fig->name, sizeof f->col[at].name);
	mt_strlcpy(f->col[at].unit, fig->unit, sizeof f->col[at].unit);
	f->ncols++;
	return (int)at;
}

/* Are a and b, two results of one name, known to be of two machines?
 * Only when both record a machine id and those differ: one name without
 * ids is one machine, as it always was. */
static int known_apart(const struct run_header *a, const struct run_header *b)
{
	return a && a->machine_id[0] && b->machine_id[0] && !run_header_same_machine(a, b);
}

/* The machine row result x belongs to: the one of its name whose machine
 * id is not another (fleet_build), else a new one. */
static struct fleet_machine *machine(struct fleet *f, const struct result_entry *x)
{
	const struct run_header *h = result_kind_header(x->f.r);
	struct fleet_machine *m;
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->m[i].key, x->name) == 0 && f->m[i].ref == x->ref &&
		    !known_apart(f->m[i].idhdr, h))
			return &f->m[i];
	m = &f->m[f->n++];
	memset(m, 0, sizeof *m);
	mt_strlcpy(m->name, x->name, sizeof m->name);
	mt_strlcpy(m->key, x->name, sizeof m->key);
	m->where = x->where;
	m->ref = x->ref;
	m->hdr = h;
	m->same = (size_t)(m - f->m);
	machine_id(m->hdr, x->root, &m->id);
	untrusted_why(m->hdr, m);
	for (size_t c = 0; c < FLEET_MAX_COLS; c++)
		m->v[c] = (double)NAN;
	return m;
}

/* Machines of one name apart by their ids get their id's first digits
 * after the name, as many as tell them apart (4 at least: "ubuntu#0ff9"),
 * so that no two read alike. */
static void label_machines(struct fleet *f)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct fleet_machine *m = &f->m[i];
		int twin = 0, digits = 4;
		if (!m->idhdr)
			continue;
		for (size_t j = 0; j < f->n; j++) {
			const struct fleet_machine *o = &f->m[j];
			int d = 0;
			if (j == i || strcmp(m->key, o->key) != 0)
				continue;
			twin = 1;
			if (!o->idhdr)
				continue;
			const char *a = m->idhdr->machine_id, *b = o->idhdr->machine_id;
			while (d < MT_MACHINE_ID_HEX && a[d] == b[d])
				d++;
			if (d + 1 > digits)
				digits = d + 1 < MT_MACHINE_ID_HEX ? d + 1 : MT_MACHINE_ID_HEX;
		}
		if (twin)
			mt_snprintf(f->m[i].name, sizeof f->m[i].name, "%s#%.*s", m->key, digits,
				    m->idhdr->machine_id);
	}
}

/* Machines of other names that record one machine id: each points at the
 * first of them (.same), which fleet_same_text names. */
static void same_machines(struct fleet *f)
{
	for (size_t i = 0; i < f->n; i++)
		for (size_t j = 0; j < i; j++)
			if (f->m[j].same == j && f->m[i].idhdr && f->m[j].idhdr &&
			    strcmp(f->m[i].key, f->m[j].key) != 0 &&
			    run_header_same_machine(f->m[i].idhdr, f->m[j].idhdr)) {
				f->m[i].same = j;
				break;
			}
}

int fleet_same_text(const struct fleet *f, size_t i, size_t names, char *buf, size_t len)
{
	size_t n = 0, k = 0;
	buf[0] = '\0';
	for (size_t j = i + 1; j < f->n; j++)
		n += f->m[j].same == i;
	if (f->m[i].same != i || n == 0)
		return 0;
	char list[600] = "";
	mt_append(list, sizeof list, "%s", f->m[i].where);
	for (size_t j = i + 1; j < f->n; j++) {
		if (f->m[j].same != i)
			continue;
		if ((names && k + 2 >= names && k + 1 < n) ||
		    strlen(list) + strlen(f->m[j].where) + 48 > len) { /* the rest counted */
			/* TRANSLATORS: after a list of names: how many more */
			mt_append(list, sizeof list,
				  MT_NGETTEXT(" and %zu more", " and %zu more", n - k), n - k);
			break;
		}
		/* TRANSLATORS: between the last two names of a list */
		mt_append(list, sizeof list, "%s%s", ++k == n ? _(" and ") : ", ", f->m[j].where);
	}
	/* TRANSLATORS: a list of result names, one machine recorded under each */
	mt_snprintf(buf, len, _("%s record one machine"), list);
	return 1;
}

/* Result x into its machine's row. Returns 0, or -1 with e (a second
 * result of one kind for one machine). */
static int add_result(struct fleet *f, const struct result_entry *x, mt_error *e)
{
	struct result_figure fig[FLEET_MAX_COLS];
	struct fleet_machine *m = machine(f, x);
	struct fleet_id id;
	size_t n;
	int prev = -1; /* the column of the figure before */
	for (size_t i = 0; i < m->nres; i++)
		if (m->res[i]->f.kind == x->f.kind)
			return mt_fail(e, _("%s: a second %s for machine %s (its first: %s)"),
				       x->where, _(x->f.kind->what), x->name, m->res[i]->where);
	machine_id(result_kind_header(x->f.r), x->root, &id);
	id_fill(&m->id, &id); /* what this file records that the others did not */
	if (m->nres == MT_ARRAY_LEN(m->res))
		return mt_fail(e, _("%s: more than %zu results for machine %s"), x->where,
			       MT_ARRAY_LEN(m->res), x->name);
	m->res[m->nres++] = x;
	if (!m->idhdr && result_kind_header(x->f.r)->machine_id[0])
		m->idhdr = result_kind_header(x->f.r);
	if (!m->untrusted[0])
		untrusted_why(result_kind_header(x->f.r), m);
	n = x->f.kind->figures ? x->f.kind->figures(x->f.r, fig, FLEET_MAX_COLS) : 0;
	for (size_t i = 0; i < n; i++) {
		int c = isfinite(fig[i].value) ? column(f, x->f.kind, &fig[i], prev) : -1;
		if (c >= 0)
			m->v[c] = fig[i].value;
		if (c >= 0)
			prev = c;
	}
	return 0;
}

/* Machines into groups by id, tagged A, B, ... Z, AA, AB, ... */
static void group_machines(struct fleet *f)
{
	for (size_t i = 0; i < f->n; i++) {
		struct fleet_machine *m = &f->m[i];
		size_t g = 0;
		/* references never share a group with the lab */
		while (g < f->ngroups && (!id_alike(&f->g[g].id, &m->id) || f->g[g].ref != m->ref))
			g++;
		if (g == f->ngroups) {
			struct fleet_group *n = &f->g[f->ngroups++];
			memset(n, 0, sizeof *n);
			n->id = m->id;
			n->ref = m->ref;
			if (g < 26)
				mt_snprintf(n->tag, sizeof n->tag, "%c", 'A' + (int)g);
			else
				mt_snprintf(n->tag, sizeof n->tag, "%c%c", 'A' + (int)(g / 26 - 1),
					    'A' + (int)(g % 26));
		}
		m->group = g;
		id_fill(&f->g[g].id, &m->id);
		f->g[g].n++;
		f->g[g].ntrusted += !m->untrusted[0] && !m->ref;
	}
}

/* Each group's median and spread of each column over its trusted
 * machines that have it (NAN where fewer than FLEET_MIN_GROUP do). */
static void group_medians(struct fleet *f)
{
	double v[4096], dev[4096];
	for (size_t g = 0; g < f->ngroups; g++)
		for (size_t c = 0; c < f->ncols; c++) {
			size_t n = 0;
			double med;
			for (size_t i = 0; i < f->n && n < MT_ARRAY_LEN(v); i++)
				if (f->m[i].group == g && !f->m[i].untrusted[0] && !f->m[i].ref &&
				    !isnan(f->m[i].v[c]))
					v[n++] = f->m[i].v[c];
			f->g[g].median[c] = f->g[g].spread[c] = (double)NAN;
			if (n < FLEET_MIN_GROUP)
				continue;
			med = mt_median(v, n);
			for (size_t i = 0; i < n; i++)
				dev[i] = fabs(v[i] - med);
			f->g[g].median[c] = med;
			f->g[g].spread[c] = fmax(2 * 1.4826 * mt_median(dev, n), 0.10 * fabs(med));
		}
}

/* What a figure is, for its reading: from its name and unit. */
enum family { FAM_SIZE, FAM_DRAM_BW, FAM_MEM_NS, FAM_CACHE_NS, FAM_CLOCKED, FAM_OTHER };

static enum family family_of(const struct fleet_col *c)
{
	if (strcmp(c->unit, "B") == 0)
		return FAM_SIZE;
	if (strstr(c->name, "DRAM") || strcmp(c->name, "floor") == 0)
		return FAM_DRAM_BW;
	if (strncmp(c->name, "mem", 3) == 0)
		return FAM_MEM_NS;
	if (c->name[0] == 'L' && strcmp(c->unit, "ns") == 0)
		return FAM_CACHE_NS;
	if (strcmp(c->name, "peak") == 0 || c->name[0] == 'L')
		return FAM_CLOCKED;
	return FAM_OTHER;
}

/* A plausible reading of value against the group's median. */
static const char *reading(enum family fam, const char *name, int low)
{
	switch (fam) {
	case FAM_SIZE:
		if (name[0] == 'L' && name[1] == '3' && low)
			return N_("a shared or partitioned L3");
		return low ? N_("a smaller cache, or the step read elsewhere on a noisy curve?")
			   : N_("a bigger cache, or the next level's step read as this one?");
	case FAM_DRAM_BW:
		return low ? N_("fewer memory channels populated, or a slower DIMM?")
			   : N_("more memory channels or faster DIMMs than the group's?");
	case FAM_MEM_NS:
		return low ? N_("faster DIMMs, or the group's runs on a far NUMA node?")
			   : N_("another NUMA node's memory, or a BIOS setting");
	case FAM_CACHE_NS:
		return low ? N_("a higher clock: turbo on where the group has it off?")
			   : N_("a lower clock: power settings, turbo off, or throttled?");
	case FAM_CLOCKED:
		return low ? N_("a lower clock: power settings, turbo off, or throttled?")
			   : N_("a higher clock: turbo on where the group has it off?");
	default:
		return low ? N_("lower than its group's") : N_("higher than its group's");
	}
}

/* The group's common conditions: each field the most frequent known value
 * among its trusted machines that recorded them (unknown where none did).
 * Returns 0, or -1 when no machine of the group recorded any. */
static int group_conditions(const struct fleet *f, size_t g, struct mt_conditions *out)
{
	int any = 0;
	memset(out, 0, sizeof *out);
	out->have = 1;
	for (int i = 0; i < COND_NFIELDS; i++) {
		struct cond_value *o = (struct cond_value *)mt_conditions_field(out, i);
		int best = 0;
		for (size_t a = 0; a < f->n; a++) {
			const struct cond_value *va;
			int count = 0;
			if (f->m[a].group != g || f->m[a].ref || !f->m[a].hdr || !f->m[a].hdr->cond.have)
				continue;
			any = 1;
			va = mt_conditions_field(&f->m[a].hdr->cond, i);
			if (!va->known)
				continue;
			for (size_t b = 0; b < f->n; b++) {
				const struct cond_value *vb;
				if (f->m[b].group != g || f->m[b].ref || !f->m[b].hdr ||
				    !f->m[b].hdr->cond.have)
					continue;
				vb = mt_conditions_field(&f->m[b].hdr->cond, i);
				count += vb->known && strcmp(vb->text, va->text) == 0;
			}
			if (count > best) {
				best = count;
				*o = *va;
			}
		}
	}
	return any ? 0 : -1;
}

static enum cond_family cond_family_of(enum family fam)
{
	switch (fam) {
	case FAM_DRAM_BW: return COND_FAM_DRAM_BW;
	case FAM_MEM_NS: return COND_FAM_MEM_NS;
	case FAM_CACHE_NS:
	case FAM_CLOCKED: return COND_FAM_CLOCKED;
	case FAM_SIZE: return COND_FAM_SIZE;
	default: return COND_FAM_ANY;
	}
}

/* The reading that cites a recorded condition of machine x->machine that
 * differs from its group's ("its memory is 4 DIMMs ... where the group's
 * is 8 DIMMs ... (what it moves)") into buf; "" when none differs. */
static void cited(const struct fleet *f, const struct fleet_flag *x, enum family fam, char *buf,
		  size_t len, int human)
{
	const struct fleet_machine *m = &f->m[x->machine];
	struct mt_conditions gc;
	struct cond_diff d[2];
	buf[0] = '\0';
	if (!m->hdr || !m->hdr->cond.have || group_conditions(f, m->group, &gc) < 0 ||
	    mt_conditions_differ(&m->hdr->cond, &gc, cond_family_of(fam), d, 1) < 1)
		return;
	/* TRANSLATORS: the setting, its value here, the group's, what it moves */
	mt_snprintf(buf, len, say(human, N_("its %s is %s where the group's is %s (%s)")),
		    say(human, d[0].label), d[0].a, d[0].b, say(human, d[0].moves));
}

/* The flag's sentence: "DRAM all 0.51x the group's: READING" or, for a
 * size, "L3 effective 4M where the group sees 32M: READING"; the reading
 * cites the recorded condition that differs from the group's when one
 * does, else asks what may. */
static void flag_sentence(const struct fleet *f, const struct fleet_flag *x, char *buf,
			  size_t len, int human)
{
	const struct fleet_col *c = &f->col[x->col];
	enum family fam = family_of(c);
	char cite[600];
	const char *r;
	cited(f, x, fam, cite, sizeof cite, human);
	r = cite[0] ? cite : say(human, reading(fam, c->name, x->ratio < 1));
	if (fam == FAM_SIZE) {
		char a[16], b[16], name[48];
		mt_strlcpy(name, c->name, sizeof name);
		name[strcspn(name, " ")] = '\0'; /* "L3 cliff" -> "L3" */
		/* TRANSLATORS: the level (L3), its size here, the group's, the reading */
		mt_snprintf(buf, len, say(human, N_("%s effective %s where the group sees %s: %s")),
			    name, fleet_value_text(a, sizeof a, x->value, "B"),
			    fleet_value_text(b, sizeof b, x->median, "B"), r);
	} else if (human) {
		mt_hsnprintf(buf, len, _("%s %.2fx the group's: %s"), c->name, x->ratio, r);
	} else {
		mt_snprintf(buf, len, "%s %.2fx the group's: %s", c->name, x->ratio, r);
	}
}

/* The flag's sentence in the JSON's words and in its reader's. */
static void flag_text(const struct fleet *f, struct fleet_flag *x)
{
	flag_sentence(f, x, x->text, sizeof x->text, 0);
	flag_sentence(f, x, x->text_h, sizeof x->text_h, 1);
}


/* Flag each trusted machine's figure more than its group's spread from
 * the group's median. */
static void find_flags(struct fleet *f)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct fleet_machine *m = &f->m[i];
		const struct fleet_group *g = &f->g[m->group];
		if (m->untrusted[0] || m->ref)
			continue;
		for (size_t c = 0; c < f->ncols; c++) {
			struct fleet_flag *x;
			if (isnan(m->v[c]) || isnan(g->median[c]) || g->median[c] == 0 ||
			    !(fabs(m->v[c] - g->median[c]) > g->spread[c]))
				continue;
			x = &f->flag[f->nflags++];
			x->machine = i;
			x->col = c;
			x->value = m->v[c];
			x->median = g->median[c];
			x->ratio = m->v[c] / g->median[c];
			flag_text(f, x);
		}
	}
}

int fleet_build(struct fleet *f, const struct result_set *s, mt_error *e)
{
	memset(f, 0, sizeof *f);
	f->m = calloc(s->n ? s->n : 1, sizeof *f->m);
	f->g = calloc(s->n ? s->n : 1, sizeof *f->g);
	if (!f->m || !f->g) {
		mt_fail(e,
			MT_NGETTEXT("out of memory for %zu machines",
				    "out of memory for %zu machines", s->n),
			s->n);
		goto fail;
	}
	for (size_t i = 0; i < s->n; i++)
		if (add_result(f, &s->e[i], e) < 0)
			goto fail;
	if (!(f->flag = calloc(f->n * (f->ncols ? f->ncols : 1), sizeof *f->flag))) {
		mt_fail(e,
			MT_NGETTEXT("out of memory for %zu machines",
				    "out of memory for %zu machines", s->n),
			s->n);
		goto fail;
	}
	label_machines(f);
	same_machines(f);
	group_machines(f);
	group_medians(f);
	find_flags(f);
	return 0;
fail:
	fleet_free(f);
	return -1;
}

const char *fleet_value_text(char *buf, size_t len, double v, const char *unit)
{
	double a = fabs(v);
	if (isnan(v))
		mt_strlcpy(buf, "-", len);
	else if (strcmp(unit, "B") == 0 && v >= 0 && v < 1e18)
		mt_fmt_size(buf, len, (uint64_t)v);
	else if (a >= 100000)
		mt_snprintf(buf, len, "%.0fk", v / 1000);
	else if (a >= 10000)
		mt_snprintf(buf, len, "%.1fk", v / 1000);
	else if (a >= 100)
		mt_snprintf(buf, len, "%.0f", v);
	else if (a >= 10)
		mt_snprintf(buf, len, "%.1f", v);
	else
		mt_snprintf(buf, len, "%.2f", v);
	return buf;
}

void fleet_id_text(const struct fleet_id *id, char *buf, size_t len)
{
	static const char *const lv[3] = { "L1d", "L2", "L3" };
	char b[16];
	char mem[64];
	mt_snprintf(buf, len, "%s", id->cpu[0] ? id->cpu : _("unknown CPU"));
	if (id->ncpu > 0)
		mt_append(buf, len, MT_NGETTEXT("; %d CPU", "; %d CPUs", id->ncpu), id->ncpu);
	if (id->mem_bytes >= 1 << 30 && id->mem_bytes < 1e18) { /* MemTotal is never round */
		mt_hsnprintf(mem, sizeof mem, _("; %.*fG memory"),
			     id->mem_bytes < 10.0 * (1 << 30) ? 1 : 0, id->mem_bytes / (1 << 30));
		mt_append(buf, len, "%s", mem);
	} else if (id->mem_bytes > 0 && id->mem_bytes < 1e18) {
		mt_append(buf, len, _("; %s memory"),
			  mt_fmt_size(b, sizeof b, (uint64_t)id->mem_bytes));
	}

	for (int i = 0; i < 3; i++)
		if (id->cache[i] > 0)
			mt_append(buf, len, "%s%s %s", i == 0 || !(id->cache[i - 1] > 0) ? "; " : " ",
				  lv[i], mt_fmt_size(b, sizeof b, (uint64_t)id->cache[i]));
}

const char *fleet_group_text(const struct fleet_group *g, char *buf, size_t len)
{
	char id[400];
	fleet_id_text(&g->id, id, sizeof id);
	/* TRANSLATORS: the group's machines (or references), then what they share */
	mt_snprintf(buf, len,
		    g->ref ? MT_NGETTEXT("%zu reference: %s", "%zu references: %s", g->n)
			   : MT_NGETTEXT("%zu machine: %s", "%zu machines: %s", g->n),
		    g->n, id);
	return buf;
}

/* {"KIND NAME": value, ...} of v[0..ncols) (NAN left out). */
static cJSON *figures_json(const struct fleet *f, const double *v)
{
	cJSON *o = cJSON_CreateObject();
	for (size_t c = 0; o && c < f->ncols; c++) {
		char key[80];
		mt_snprintf(key, sizeof key, "%s %s", f->col[c].kind->name, f->col[c].name);
		if (!isnan(v[c]) && !cJSON_AddNumberToObject(o, key, v[c])) {
			cJSON_Delete(o);
			return NULL;
		}
	}
	return o;
}

static cJSON *machine_json(const struct fleet *f, const struct fleet_machine *m)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddStringToObject(o, "name", m->name) ||
	    !cJSON_AddStringToObject(o, "group", f->g[m->group].tag) ||
	    !cJSON_AddStringToObject(o, "where", m->where) ||
	    (m->idhdr && !cJSON_AddStringToObject(o, "machine_id", m->idhdr->machine_id)) ||
	    (m->untrusted[0] && !cJSON_AddStringToObject(o, "untrusted", m->untrusted)) ||
	    (m->ref && !cJSON_AddTrueToObject(o, "reference")) ||
	    !cJSON_AddItemToObject(o, "figures", figures_json(f, m->v))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static cJSON *group_json(const struct fleet *f, const struct fleet_group *g)
{
	cJSON *o = cJSON_CreateObject(), *caches;
	if (!o)
		return NULL;
	caches = cJSON_CreateDoubleArray(g->id.cache, 3);
	if (!cJSON_AddItemToObject(o, "caches", caches)) {
		cJSON_Delete(caches);
		cJSON_Delete(o);
		return NULL;
	}
	if (!cJSON_AddStringToObject(o, "tag", g->tag) ||
	    !cJSON_AddStringToObject(o, "cpu", g->id.cpu) ||
	    !cJSON_AddNumberToObject(o, "cpus", g->id.ncpu) ||
	    !cJSON_AddNumberToObject(o, "memory_bytes", g->id.mem_bytes) ||
	    !cJSON_AddNumberToObject(o, "machines", (double)g->n) ||
	    !cJSON_AddNumberToObject(o, "trusted", (double)g->ntrusted) ||
	    !cJSON_AddItemToObject(o, "medians", figures_json(f, g->median))) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static cJSON *flag_json(const struct fleet *f, const struct fleet_flag *x)
{
	cJSON *o = cJSON_CreateObject();
	char key[80];
	mt_snprintf(key, sizeof key, "%s %s", f->col[x->col].kind->name, f->col[x->col].name);
	if (!o || !cJSON_AddStringToObject(o, "machine", f->m[x->machine].name) ||
	    !cJSON_AddStringToObject(o, "figure", key) ||
	    !cJSON_AddNumberToObject(o, "value", x->value) ||
	    !cJSON_AddNumberToObject(o, "median", x->median) ||
	    !cJSON_AddNumberToObject(o, "ratio", x->ratio) ||
	    !cJSON_AddStringToObject(o, "reading", x->text)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* [where, ...] of the machines of other names recording machine i's id,
 * i first (fleet_same_text's); NULL when out of memory. */
static cJSON *same_json(const struct fleet *f, size_t i)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t j = i; a && j < f->n; j++)
		if (f->m[j].same == i &&
		    !cJSON_AddItemToArray(a, cJSON_CreateString(f->m[j].where))) {
			cJSON_Delete(a);
			return NULL;
		}
	return a;
}

cJSON *fleet_to_json(const struct fleet *f)
{
	cJSON *root = cJSON_CreateObject(), *ms, *gs, *fs, *ss;
	char line[16];
	if (!root || !(ms = cJSON_AddArrayToObject(root, "machines")) ||
	    !(ss = cJSON_AddArrayToObject(root, "same_machine")) ||
	    !(gs = cJSON_AddArrayToObject(root, "groups")) ||
	    !(fs = cJSON_AddArrayToObject(root, "flags")))
		goto fail;
	for (size_t i = 0; i < f->n; i++)
		if (fleet_same_text(f, i, 0, line, sizeof line) &&
		    !cJSON_AddItemToArray(ss, same_json(f, i)))
			goto fail;
	for (size_t i = 0; i < f->n; i++)
		if (!cJSON_AddItemToArray(ms, machine_json(f, &f->m[i])))
			goto fail;
	for (size_t g = 0; g < f->ngroups; g++)
		if (!cJSON_AddItemToArray(gs, group_json(f, &f->g[g])))
			goto fail;
	for (size_t i = 0; i < f->nflags; i++)
		if (!cJSON_AddItemToArray(fs, flag_json(f, &f->flag[i])))
			goto fail;
	return root;
fail:
	cJSON_Delete(root);
	return NULL;
}
