/* fleet_print: a fleet as text within 79 columns, however many machines:
 * the groups, one row a machine in blocks of seven figures, the groups'
 * medians under each block, then the figures that stand out and the runs
 * not trusted, a line each (fleet.h). */
#include "config.h"

#include "fleet.h"
#include "base/i18n.h"
#include "render/compare_table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NAME_W 12 /* the machine's column */
#define TAG_W 4   /* the group's, with '!' for a run not trusted */
#define COL_W 9   /* a figure: 8 characters and its mark ('*': it stands out) */
#define PER_BLOCK ((CMP_WIDTH - 1 - NAME_W - TAG_W) / COL_W) /* 7 */

/* s cut to w characters, the last a '~' when it was longer. */
static const char *cut(char *buf, size_t len, const char *s, size_t w)
{
	mt_strlcpy(buf, s, len);
	if (strlen(buf) > w && w >= 1 && w < len) {
		buf[w - 1] = '~';
		buf[w] = '\0';
	}
	return buf;
}

/* Does names[j] cut to w read as names[i] cut does, though they differ? */
static int cut_alike(const char *a, const char *b, size_t w)
{
	char ca[32], cb[32];
	return strcmp(a, b) != 0 && strcmp(cut(ca, sizeof ca, a, w), cut(cb, sizeof cb, b, w)) == 0;
}

void fleet_short_names(size_t n, const char *const *names, size_t w, char (*out)[32])
{
	for (size_t i = 0; i < n; i++) {
		const char *a = names[i];
		size_t tail = 0, la = strlen(a);
		cut(out[i], sizeof out[i], a, w);
		for (size_t j = 0; j < n; j++) {
			const char *b = names[j];
			size_t d = 0;
			if (j == i || !cut_alike(a, b, w))
				continue;
			while (a[d] && a[d] == b[d])
				d++;
			if (la - d > tail)
				tail = la - d;
			if (tail == 0) /* a is where b starts: its end tells them apart */
				tail = la < 3 ? la : 3;
		}
		if (tail == 0 || la <= w)
			continue;
		if (tail > w - 2)
			tail = w - 2;
		mt_snprintf(out[i], sizeof out[i], "%.*s~%s", (int)(w - 1 - tail), a,
			    a + la - tail);
	}
}

/* The groups, one wrapped line each: "A  20 machines: CPU; 64 CPUs; ...". */
static void print_groups(FILE *out, const struct fleet *f)
{
	char nm[64], ng[64];
	mt_snprintf(nm, sizeof nm, MT_NGETTEXT("%zu machine", "%zu machines", f->n), f->n);
	mt_snprintf(ng, sizeof ng, MT_NGETTEXT("%zu group", "%zu groups", f->ngroups), f->ngroups);
	/* TRANSLATORS: "20 machines", "3 groups" */
	fprintf(out, _("%s in %s (alike: CPU model, CPUs, memory, caches):\n"), nm, ng);
	for (size_t g = 0; g < f->ngroups; g++) {
		char line[600], lead[8];
		mt_snprintf(lead, sizeof lead, "%-3s", f->g[g].tag);
		cmp_wrapped(out, 2, lead, fleet_group_text(&f->g[g], line, sizeof line));
	}
}

/* Is col[c]'s unit the first of its kind's columns with that unit? */
static int first_of_unit(const struct fleet *f, size_t c)
{
	for (size_t u = c; u-- > 0 && f->col[u].kind == f->col[c].kind;)
		if (strcmp(f->col[u].unit, f->col[c].unit) == 0)
			return 0;
	return 1;
}

/* The figures and their units, kind by kind and unit by unit: "latency:
 * L1 size, L2 size (bytes); L1 ns, mem ns (ns). mountain: ...". */
static void print_legend(FILE *out, const struct fleet *f)
{
	char line[1600] = "";
	for (size_t c = 0; c < f->ncols; c++) {
		const struct fleet_col *k = &f->col[c];
		int new_kind = c == 0 || f->col[c - 1].kind != k->kind;
		if (!first_of_unit(f, c))
			continue;
		if (new_kind)
			mt_append(line, sizeof line, "%s%s:", c ? ". " : "", k->kind->name);
		else
			mt_append(line, sizeof line, ";");
		for (size_t u = c, n = 0; u < f->ncols && f->col[u].kind == k->kind; u++)
			if (strcmp(f->col[u].unit, k->unit) == 0)
				mt_append(line, sizeof line, "%s%s", n++ ? ", " : " ", f->col[u].name);
		mt_append(line, sizeof line, " (%s)",
			  strcmp(k->unit, "B") == 0 ? _("bytes") : k->unit);
	}
	mt_append(line, sizeof line, ".");
	cmp_wrapped(out, 0, NULL, line);
}

/* What the rows and columns are called on the page: short_names' forms. */
struct shown {
	char (*col)[32]; /* each column's figure, distinct within its kind */
	char (*row)[32]; /* each machine's label */
};

/* The short forms of f's columns (kind by kind) and machines into sh.
 * Returns 0, or -1 out of memory. */
static int shown_make(const struct fleet *f, struct shown *sh)
{
	const char **names = calloc((f->n > f->ncols ? f->n : f->ncols) + 1, sizeof *names);
	sh->col = calloc(f->ncols ? f->ncols : 1, sizeof *sh->col);
	sh->row = calloc(f->n ? f->n : 1, sizeof *sh->row);
	if (!names || !sh->col || !sh->row) {
		free(names);
		return -1;
	}
	for (size_t c0 = 0, c1; c0 < f->ncols; c0 = c1) {
		for (c1 = c0; c1 < f->ncols && f->col[c1].kind == f->col[c0].kind; c1++)
			names[c1 - c0] = f->col[c1].name;
		fleet_short_names(c1 - c0, names, COL_W - 1, &sh->col[c0]);
	}
	for (size_t i = 0; i < f->n; i++)
		names[i] = f->m[i].name;
	fleet_short_names(f->n, names, NAME_W - 1, sh->row);
	free(names);
	return 0;
}

/* The block's two header lines: each kind's name over its first column,
 * then the figures' names. */
static void print_block_head(FILE *out, const struct fleet *f, const struct shown *sh, size_t c0,
			     size_t c1)
{
	char kinds[CMP_WIDTH + 1], b[COL_W + 1];
	size_t at = NAME_W + TAG_W;
	memset(kinds, ' ', sizeof kinds);
	kinds[CMP_WIDTH] = '\0';
	for (size_t c = c0; c < c1; c++, at += COL_W)
		if (c == c0 || f->col[c].kind != f->col[c - 1].kind) {
			size_t span = 0, n;
			while (c + span < c1 && f->col[c + span].kind == f->col[c].kind)
				span++;
			cut(b, sizeof b, f->col[c].kind->name, span * COL_W - 1 < COL_W ? span * COL_W - 1
										    : COL_W);
			n = strlen(b);
			memcpy(kinds + at + 1, b, n);
		}
	for (size_t n = CMP_WIDTH; n > 0 && kinds[n - 1] == ' ';)
		kinds[--n] = '\0';
	char h1[64], h2[32];
	/* TRANSLATORS: the heads of the machine's column (12) and its group's (4) */
	fprintf(out, "\n%s\n%s%s", kinds, mt_text_pad(h1, sizeof h1, _("machine"), -NAME_W),
		mt_text_pad(h2, sizeof h2, _("grp"), -TAG_W));
	for (size_t c = c0; c < c1; c++)
		fprintf(out, "%*s", COL_W, sh->col[c]);
	fprintf(out, "\n");
}

/* Is machine i's figure c flagged? */
static int flagged(const struct fleet *f, size_t i, size_t c)
{
	for (size_t k = 0; k < f->nflags; k++)
		if (f->flag[k].machine == i && f->flag[k].col == c)
			return 1;
	return 0;
}

/* One row: name, tag, values[c0..c1) with their marks, no blank at its
 * end. */
static void print_row(FILE *out, const struct fleet *f, const char *name, const char *tag,
		      const double *v, size_t i, size_t c0, size_t c1)
{
	char b[NAME_W + 2], val[16], line[CMP_WIDTH * 4], pad[64];
	size_t n;
	/* a name in columns: a machine's is cut to its column (ASCII), a
	 * translated word (median) fits it whole */
	mt_snprintf(line, sizeof line, "%s%-*s",
		    mt_text_pad(pad, sizeof pad,
				mt_text_cols(name) <= NAME_W - 1
					? name
					: cut(b, sizeof b, name, NAME_W - 1),
				-NAME_W),
		    TAG_W, tag);
	for (size_t c = c0; c < c1; c++)
		mt_append(line, sizeof line, "%*s%c", COL_W - 1,
			  fleet_value_text(val, sizeof val, v[c], f->col[c].unit),
			  i < f->n && flagged(f, i, c) ? '*' : ' ');
	for (n = strlen(line); n > 0 && line[n - 1] == ' ';)
		line[--n] = '\0';
	fprintf(out, "%s\n", line);
}

/* The order rows are printed in: by group, then as read. */
static size_t *row_order(const struct fleet *f)
{
	size_t *o = malloc((f->n ? f->n : 1) * sizeof *o), k = 0;
	if (!o)
		return NULL;
	for (size_t g = 0; g < f->ngroups; g++)
		for (size_t i = 0; i < f->n; i++)
			if (f->m[i].group == g)
				o[k++] = i;
	return o;
}

/* One block of columns [c0, c1): every machine, then the groups' medians. */
static void print_block(FILE *out, const struct fleet *f, const struct shown *sh,
			const size_t *order, size_t c0, size_t c1)
{
	print_block_head(out, f, sh, c0, c1);
	for (size_t k = 0; k < f->n; k++) {
		const struct fleet_machine *m = &f->m[order[k]];
		char tag[8];
		mt_snprintf(tag, sizeof tag, "%s%s", f->g[m->group].tag, m->untrusted[0] ? "!" : "");
		print_row(out, f, sh->row[order[k]], tag, m->v, order[k], c0, c1);
	}
	for (size_t g = 0; g < f->ngroups; g++) {
		int any = 0;
		for (size_t c = c0; c < c1; c++)
			any |= !isnan(f->g[g].median[c]);
		if (any)
			/* TRANSLATORS: the row of a group's medians, 11 columns at most */
			print_row(out, f, _("median"), f->g[g].tag, f->g[g].median, (size_t)-1, c0,
				  c1);
	}
}

/* What stands out, what is not trusted, and which groups are too small. */
static void print_verdicts(FILE *out, const struct fleet *f)
{
	char line[1200], small[600] = "";
	fprintf(out, "\n%s\n",
		f->nflags
			? _("Stand out from their group (further from its median than its spread):")
			: _("No machine stands out from its group."));
	for (size_t k = 0; k < f->nflags; k++) {
		const struct fleet_machine *m = &f->m[f->flag[k].machine];
		mt_snprintf(line, sizeof line, "%s (%s): %s", m->name, f->g[m->group].tag,
			    f->flag[k].text_h);
		cmp_wrapped(out, 2, NULL, line);
	}
	for (size_t i = 0, first = 1; i < f->n; i++)
		if (f->m[i].untrusted[0]) {
			if (first)
				fputs(_("Not trusted, left out of the medians (marked !):\n"), out);
			first = 0;
			mt_snprintf(line, sizeof line, "%s (%s): %s", f->m[i].name,
				    f->g[f->m[i].group].tag, f->m[i].untrusted_h);
			cmp_wrapped(out, 2, NULL, line);
		}
	for (size_t g = 0; g < f->ngroups; g++)
		if (f->g[g].ntrusted < FLEET_MIN_GROUP)
			mt_append(small, sizeof small, "%s%s", small[0] ? " " : "", f->g[g].tag);
	if (small[0]) {
		mt_snprintf(
			line, sizeof line,
			MT_NGETTEXT("Groups of fewer than %d trusted machines, with no median to "
				    "stand out from: %s.",
				    "Groups of fewer than %d trusted machines, with no median to "
				    "stand out from: %s.",
				    FLEET_MIN_GROUP),
			FLEET_MIN_GROUP, small);
		cmp_wrapped(out, 0, NULL, line);
	}
}

/* Files of other names that record one machine, a line each (their rows
 * stay apart, by name). */
static void print_same(FILE *out, const struct fleet *f)
{
	char line[2000];
	int first = 1;
	for (size_t i = 0; i < f->n; i++)
		if (fleet_same_text(f, i, 4, line, sizeof line)) {
			if (first)
				fprintf(out, "\n");
			first = 0;
			cmp_wrapped(out, 0, NULL, line);
		}
}

int fleet_print(FILE *out, const struct fleet *f)
{
	size_t *order = row_order(f);
	struct shown sh = { NULL, NULL };
	if (!order || shown_make(f, &sh) < 0) {
		free(order);
		free(sh.col);
		free(sh.row);
		return -1;
	}
	print_groups(out, f);
	print_same(out, f);
	if (f->ncols) {
		fprintf(out, "\n");
		print_legend(out, f);
	}
	for (size_t c0 = 0; c0 < f->ncols; c0 += PER_BLOCK)
		print_block(out, f, &sh, order, c0,
			    c0 + PER_BLOCK < f->ncols ? c0 + PER_BLOCK : f->ncols);
	if (!f->ncols)
		fputs(_("\nNo headline figures: these results give none to compare.\n"), out);

	print_verdicts(out, f);
	free(order);
	free(sh.col);
	free(sh.row);
	return 0;
}
