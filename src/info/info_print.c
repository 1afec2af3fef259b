/* info_print: the cache information as text (info.h). */
#include "config.h"

#include "info.h"
#include "base/i18n.h"
#include "os/child.h"

#include <string.h>

/* ---- text ----------------------------------------------------------------- */

static void print_int(FILE *f, int width, int v)
{
	if (v > 0)
		fprintf(f, " %*d", width, v);
	else
		fprintf(f, " %*s", width, "-");
}

/* Text that came from a file, made printable (every such string this
 * prints goes through here). */
static const char *printable(const char *s, char *buf, size_t len)
{
	size_t n = 0;
	for (; *s && n + 1 < len; s++)
		buf[n++] = *s >= 0x20 && *s < 0x7f ? *s : '?';
	buf[n] = '\0';
	return buf;
}

const char *info_text(char *out, size_t len, const char *stored)
{
	static const char *const forms[] = { INFO_FORMS, MT_RUN_WHY_FORMS, NULL };
	char safe[512];
	return mt_gettext_stored(out, len, printable(stored, safe, sizeof safe), forms);
}

/* "sources tried:" with why each gave nothing. */
static void print_tried(FILE *f, const struct info *inf)
{
	char buf[512];
	if (!inf->ntried)
		return;
	fprintf(f, "%s", _("sources tried:\n"));
	for (int i = 0; i < inf->ntried; i++) {
		const struct info_tried *t = &inf->tried[i];
		const struct info_source *s = info_find_source(inf, t->name);
		if (t->why[0])
			/* TRANSLATORS: a source (sysfs, lscpu) that gave no cache, and why */
			fprintf(f, _("  %-8s nothing: %s\n"), t->name,
				info_text(buf, sizeof buf, t->why));
		else
			fprintf(f, MT_NGETTEXT("  %-8s %d cache\n", "  %-8s %d caches\n",
					       s ? s->nlevels : 0),
				t->name, s ? s->nlevels : 0);
	}
	fprintf(f, "\n");
}

/* The table's heads, each padded in columns (a translated head may be
 * longer in bytes than in columns). */
static void print_heads(FILE *f, int with_cores)
{
	/* TRANSLATORS: the heads of memtop info's table: each fits its column
	 * (cache 6, level 5, type 11, size 9, ways 5, line 5, sets 7, cores 12) */
	static const struct {
		const char *head;
		int width, gap;
	} heads[] = { { N_("cache"), -6, 1 }, { N_("level"), 5, 1 }, { N_("type"), -11, 1 },
		      { N_("size"), 9, 1 },   { N_("ways"), 5, 1 },  { N_("line"), 5, 1 },
		      { N_("sets"), 7, 2 } };
	char buf[64];
	fprintf(f, "  ");
	for (size_t i = 0; i < MT_ARRAY_LEN(heads); i++)
		fprintf(f, "%s%*s", mt_text_pad(buf, sizeof buf, _(heads[i].head), heads[i].width),
			heads[i].gap, "");
	if (with_cores)
		fprintf(f, "%s ", mt_text_pad(buf, sizeof buf, _("cores"), -12));
	fprintf(f, "%s\n", _("shared CPUs"));
}

/* One source's heading and table; a size with a doubt ends in '?'. */
static void print_source(FILE *f, const struct info *inf, const struct info_source *src)
{
	int with_cores = 0;
	for (int i = 0; i < src->nlevels; i++)
		with_cores |= src->lv[i].cores[0] != '\0';
	fprintf(f, "%s%s%s\n", src->name, src->note[0] ? ": " : "", src->note);
	print_heads(f, with_cores);
	for (int i = 0; i < src->nlevels; i++) {
		const struct cache_level *lv = &src->lv[i];
		char name[48], size[32], human[24];
		info_level_name(lv, name, sizeof name);
		if (lv->cores[0]) /* the cores column says it */
			mt_snprintf(name, sizeof name, "L%d%s", lv->level,
				    strcmp(lv->type, "data") == 0	 ? "d"
				    : strcmp(lv->type, "instruction") == 0 ? "i"
									   : "");
		if (lv->size)
			mt_snprintf(human, sizeof human, "%s%s%s", lv->approx ? "~" : "",
				    mt_hfmt_size(size, sizeof size, lv->size),
				    info_doubt_of(inf, src->name, lv->level, lv->type) ? "?" : "");
		else
			mt_strlcpy(human, "-", sizeof human);
		fprintf(f, "  %-6s %5d %-11s %s", name, lv->level, lv->type,
			mt_text_pad(size, sizeof size, human, 9));
		print_int(f, 5, lv->ways);
		print_int(f, 5, lv->line);
		print_int(f, 7, lv->sets);
		fprintf(f, "  ");
		if (with_cores)
			fprintf(f, "%-12s ", lv->cores[0] ? lv->cores : "-");
		fprintf(f, "%s\n", lv->shared_cpus[0] ? lv->shared_cpus : "-");
	}
}

void info_print(FILE *f, const struct info *inf)
{
	char a[32], b[96], w[768];
	print_tried(f, inf);
	if (inf->nsources == 0)
		fprintf(f, "%s", _("no source of cache information on this system\n"));
	for (int s = 0; s < inf->nsources; s++) {
		if (s)
			fprintf(f, "\n");
		print_source(f, inf, &inf->src[s]);
	}
	if (inf->ndoubts)
		fprintf(f, "%s", _("\ndoubtful values (marked ?):\n"));
	for (int i = 0; i < inf->ndoubts; i++) {
		const struct info_doubt *d = &inf->doubt[i];
		fprintf(f, "  L%d %s %s (%s): %s\n", d->level, d->type,
			mt_hfmt_size(a, sizeof a, d->size), printable(d->sources, b, sizeof b),
			info_text(w, sizeof w, d->why));
	}
	if (inf->ndis == 0) {
		if (inf->same_origin[0])
			/* TRANSLATORS: %s says which sources read one origin ("lscpu -C
			 * and hwloc read sysfs") */
			fprintf(f, _("\ndisagreements: none (%s: their agreement is no second "
				     "opinion)\n"),
				info_text(w, sizeof w, inf->same_origin));
		else
			fprintf(f, "%s", _("\ndisagreements: none\n"));
		return;
	}
	fprintf(f, "%s", _("\ndisagreements:\n"));
	for (int i = 0; i < inf->ndis; i++)
		fprintf(f, "  %s\n", inf->dis[i]);
}
