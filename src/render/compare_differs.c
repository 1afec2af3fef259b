/* compare_differs: after memtop compare's tables, what differs between each
 * file and the first (compare_table.h): how the runs measured first, then
 * the recorded conditions that could act on these runs, most telling first
 * (os/conditions_differ.c's table), then in one line those that differ but
 * could not: a THP mode where the runs' buffers get the same pages under
 * either mode, a governor, boost or clock limit where no clock moved. */
#include "config.h"

#include "compare_table.h"
#include "base/i18n.h"
#include "os/clock.h"
#include "os/conditions.h"

#include <stdio.h>
#include <string.h>

/* The method of f's result (zeroed where its kind says nothing). */
static void method_of(const struct result_file *f, struct result_method *m)
{
	memset(m, 0, sizeof *m);
	if (f->kind->method)
		f->kind->method(f->r, m);
}

/* " (--quick)" after the run that was quick where the other was not. */
/* s for people: its translation where the catalogue has one ("" stays ""). */
static const char *tr(const char *s)
{
	return s && s[0] ? _(s) : s;
}

static const char *quick_mark(const struct run_header *h, const struct run_header *other)
{
	return h->quick == 1 && other->quick == 2 ? " (--quick)" : "";
}

/* B's method against A's, a line a difference, into lines (at most 5):
 * sizes ("B measured 4064M, A 32M (--quick)"), --quick where the sizes do
 * not say it, threads, pages, tries. Returns the count. */
static int method_lines(const struct result_file *fa, const struct result_file *fb, char tag,
			char lines[5][320])
{
	const struct run_header *a = result_kind_header(fa->r), *b = result_kind_header(fb->r);
	struct result_method ma, mb;
	int n = 0, quick_said = 0;
	method_of(fa, &ma);
	method_of(fb, &mb);
	if (ma.size[0] && mb.size[0] && strcmp(ma.size, mb.size) != 0) {
		/* TRANSLATORS: file B's letter and its sizes (" (--quick)" after them
		 * or nothing), then file A's */
		mt_snprintf(lines[n++], sizeof lines[0], _("%c measured %s%s, A %s%s"), tag,
			    mb.size, quick_mark(b, a), ma.size, quick_mark(a, b));
		quick_said = quick_mark(a, b)[0] || quick_mark(b, a)[0];
	}
	if (!quick_said && a->quick && b->quick && a->quick != b->quick)
		mt_snprintf(lines[n++], sizeof lines[0],
			    b->quick == 1 ? _("%c ran --quick, A in full")
					  : _("%c ran in full, A --quick"),
			    tag);
	if (ma.threads && mb.threads && ma.threads != mb.threads)
		mt_snprintf(lines[n++], sizeof lines[0],
			    MT_NGETTEXT("%c %d thread, A %d", "%c %d threads, A %d", mb.threads),
			    tag, mb.threads, ma.threads);
	if (ma.pages[0] && mb.pages[0] && strcmp(ma.pages, mb.pages) != 0)
		mt_snprintf(lines[n++], sizeof lines[0], _("%c on %s, A on %s"), tag, tr(mb.pages),
			    tr(ma.pages));
	if (ma.tries && mb.tries && ma.tries != mb.tries)
		mt_snprintf(lines[n++], sizeof lines[0],
			    MT_NGETTEXT("%c %d tries a point, A %d", "%c %d tries a point, A %d",
					mb.tries),
			    tag, mb.tries, ma.tries);
	return n;
}

/* Does THP mode give huge pages to a buffer advised so (RESULT_PAGES_*)?
 * -1 when the mode is not one of the kernel's three. */
static int thp_gives(unsigned advice, const char *mode)
{
	int always = strcmp(mode, "always") == 0, madvise = strcmp(mode, "madvise") == 0;
	if (!always && !madvise && strcmp(mode, "never") != 0)
		return -1;
	return advice == RESULT_PAGES_HUGE ? always || madvise
	       : advice == RESULT_PAGES_LEFT ? always
					     : 0;
}

/* Could THP modes ma and mb (the two runs') act on buffers of the kinds
 * in advice (0: not said, any)? 1 when a kind of buffer gets huge pages
 * under one and not the other (thp), or under either at all (thp_defrag:
 * how hard the kernel tries only matters where it gives some). */
static int thp_acts(unsigned advice, const char *ma, const char *mb, int defrag)
{
	static const unsigned kinds[] = { RESULT_PAGES_HUGE, RESULT_PAGES_4K, RESULT_PAGES_LEFT };
	if (!advice)
		advice = RESULT_PAGES_HUGE | RESULT_PAGES_4K | RESULT_PAGES_LEFT;
	for (size_t k = 0; k < MT_ARRAY_LEN(kinds); k++) {
		int ga, gb;
		if (!(advice & kinds[k]))
			continue;
		ga = thp_gives(kinds[k], ma);
		gb = thp_gives(kinds[k], mb);
		if (ga < 0 || gb < 0 || (defrag ? ga || gb : ga != gb))
			return 1;
	}
	return 0;
}

/* Did a clock move: during either run (the clock measured around it
 * against its calibration), or between them (their calibrated clocks)?
 * 1 also when neither recorded a clock (it may have). */
static int clock_moved(const struct run_header *a, const struct run_header *b)
{
	const struct run_header *h[2] = { a, b };
	int known = 0;
	for (int i = 0; i < 2; i++) {
		double run = h[i]->has_diag ? diag_run_ghz(&h[i]->diag) : 0;
		if (run > 0 && h[i]->clock.core_ghz > 0) {
			known = 1;
			if (mt_clock_disagrees(h[i]->clock.core_ghz, run))
				return 1;
		}
	}
	if (a->clock.core_ghz > 0 && b->clock.core_ghz > 0) {
		known = 1;
		if (mt_clock_disagrees(a->clock.core_ghz, b->clock.core_ghz))
			return 1;
	}
	return !known;
}

/* Why difference d between the runs of fa and fb could not act on them,
 * into why; "" when it could. */
static void could_not_act(const struct result_file *fa, const struct result_file *fb,
			  const struct cond_diff *d, char *why, size_t len)
{
	const struct run_header *a = result_kind_header(fa->r), *b = result_kind_header(fb->r);
	struct result_method ma, mb;
	why[0] = '\0';
	method_of(fa, &ma);
	method_of(fb, &mb);
	if (strcmp(d->name, "thp") == 0 || strcmp(d->name, "thp_defrag") == 0) {
		int defrag = strcmp(d->name, "thp_defrag") == 0;
		const char *ta = a->cond.thp.known ? a->cond.thp.text : "";
		const char *tb = b->cond.thp.known ? b->cond.thp.text : "";
		if (!thp_acts(ma.advice | mb.advice, ta, tb, defrag))
			mt_strlcpy(
				why,
				defrag ? _("no buffer of these runs gets huge pages under either "
					   "THP mode")
				       : _("these runs' buffers get the same pages under either "
					   "mode"),
				len);
	} else if (strcmp(d->name, "governor") == 0 || strcmp(d->name, "boost") == 0 ||
		   strcmp(d->name, "freq") == 0) {
		if (!clock_moved(a, b)) {
			int during = (a->has_diag && diag_run_ghz(&a->diag) > 0) ||
				     (b->has_diag && diag_run_ghz(&b->diag) > 0);
			mt_hsnprintf(why, len,
				     during ? _("no clock moved: calibrated %.2f GHz in A, %.2f in "
						"the other, and so during the runs")
					    : _("no clock moved: calibrated %.2f GHz in A, %.2f in "
						"the other"),
				     a->clock.core_ghz, b->clock.core_ghz);
		}
	}
}

/* The conditions of file i (tag) against A's: those that could act, most
 * telling first, each with what it moves and its source; then in one line
 * those that could not; or that nothing differs (nothing but its method,
 * when method says so). */
static void conditions_of(const struct result_file *f, size_t i, int method)
{
	const struct run_header *a = result_kind_header(f[0].r), *b = result_kind_header(f[i].r);
	struct cond_diff d[COND_NFIELDS];
	char line[600], why[320], idle[COND_NFIELDS][320];
	char tag = (char)('A' + i);
	int k, shown = 0, nidle = 0;
	if (!b->cond.have) {
		mt_snprintf(line, sizeof line,
			    _("%c records none (an import, or a file from before memtop recorded "
			      "them)"),
			    tag);
		cmp_wrapped(stdout, 2, NULL, line);
		return;
	}
	k = mt_conditions_differ(&a->cond, &b->cond, COND_FAM_ANY, d, COND_NFIELDS);
	for (int j = 0; j < k; j++) {
		could_not_act(&f[0], &f[i], &d[j], why, sizeof why);
		mt_strlcpy(idle[j], why, sizeof idle[j]);
		if (why[0]) {
			nidle++;
			continue;
		}
		if (!shown++)
			printf(_("  %c differs from A in (most telling first):\n"), tag);
		mt_snprintf(line, sizeof line, "%s: A %s; %c %s", tr(d[j].label), d[j].a, tag,
			    d[j].b);
		cmp_wrapped(stdout, 4, NULL, MT_PRINTABLE(line));
		/* TRANSLATORS: what the setting moves, then where it was read */
		mt_snprintf(line, sizeof line, _("moves %s (%s)"), tr(d[j].moves), d[j].source);
		cmp_wrapped(stdout, 6, NULL, line);
	}
	if (!shown && !nidle)
		printf(method ? _("  %c differs from A in no setting memtop records (only in how "
				  "it "
				  "measured, above)\n")
			      : _("  %c differs from A in nothing memtop records\n"),
		       tag);
	else if (nidle)
		printf(shown ? _("  %c differs from A too where it could not act on these runs:\n")
			     : _("  %c differs from A only where it could not act on these "
				 "runs:\n"),
		       tag);
	for (int j = 0; j < k; j++)
		if (idle[j][0]) {
			mt_snprintf(line, sizeof line, "%s: A %s; %c %s (%s)", tr(d[j].label),
				    d[j].a, tag, d[j].b, idle[j]);
			cmp_wrapped(stdout, 4, NULL, MT_PRINTABLE(line));
		}
}

void compare_print_differs(const struct result_file *f, size_t n)
{
	const struct run_header *a = result_kind_header(f[0].r);
	char lines[5][320];
	int any = 0, method[CMP_MAX_FILES + 1] = { 0 };
	for (size_t i = 1; i < n && i <= CMP_MAX_FILES; i++) {
		int k = method_lines(&f[0], &f[i], (char)('A' + i), lines);
		if (k && !any++)
			fputs(_("\nmethod (how each run measured, before any setting):\n"), stdout);
		for (int j = 0; j < k; j++)
			cmp_wrapped(stdout, 2, NULL, lines[j]);
		method[i] = k > 0;
	}
	fputs(_("\nconditions (the settings that move memory figures):\n"), stdout);
	if (!a->cond.have) {
		cmp_wrapped(stdout, 2, NULL,
			    _("A records none (an import, or a file from before memtop recorded "
			      "them): nothing to set the others against"));

		return;
	}
	for (size_t i = 1; i < n && i <= CMP_MAX_FILES; i++)
		conditions_of(f, i, method[i]);
}
