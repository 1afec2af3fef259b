/* report_html: a fleet as one self-contained HTML page (memtop report): no
 * network, no external script or font; inline CSS with a dark theme
 * (prefers-color-scheme) and a print style; the grouped table with the
 * figures that stand out, sortable by a few lines of plain JavaScript; per
 * machine the info lines that matter and its pictures, inline SVG drawn
 * by its kinds' plot. Every text from a file is made printable and
 * escaped. The page is well-formed XML as well as HTML (xmllint parses it
 * strictly): empty elements closed, no named entities, a script with no
 * '<' or '&'. */
#include "config.h"

#include "fleet.h"
#include "base/i18n.h"
#include "os/machine_id.h"
#include "render/svg.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* A word of a table for people in their language ("" stays "").*/
static const char *say(const char *s)
{
	return s && s[0] ? _(s) : s;
}

/* text made printable and escaped for HTML (and XML). */
static void esc(FILE *o, const char *text)
{
	char p[MT_PRINTABLE_MAX];
	mt_printable(p, sizeof p, text ? text : "", 0);
	for (const char *c = p; *c; c++)
		switch (*c) {
		case '&': fputs("&amp;", o); break;
		case '<': fputs("&lt;", o); break;
		case '>': fputs("&gt;", o); break;
		case '"': fputs("&quot;", o); break;
		case '\'': fputs("&#39;", o); break;
		default: fputc(*c, o);
		}
}

/* Lines of text (memtop's own, quoting a file's), each made printable and
 * escaped: esc() a line at a time, the newlines kept. */
static void esc_lines(FILE *o, const char *text)
{
	char line[MT_PRINTABLE_MAX];
	while (*text) {
		size_t n = strcspn(text, "\n");
		mt_snprintf(line, sizeof line, "%.*s", (int)n, text);
		esc(o, line);
		fputc('\n', o);
		text += n + (text[n] == '\n');
	}
}

/* A table, one figure a column: light and dark themes. Printed, the
 * sortable table gives way to the same rows in blocks of at most
 * PRINT_COLS figures (print_tables), each a page wide: no column is lost
 * past the paper's edge. */
static const char style[] =
	":root{color-scheme:light dark;--bg:#fff;--fg:#16181b;--mut:#5b6168;--line:#d0d4d9;"
	"--out:#a61b10;--outbg:#fde3e0;--card:#f4f5f7;--acc:#1f5fa8}\n"
	"@media (prefers-color-scheme:dark){:root{--bg:#15171a;--fg:#e6e8ea;--mut:#a2a8af;"
	"--line:#3b4047;--out:#ffb4a9;--outbg:#5a1d17;--card:#1f2226;--acc:#8ab8f0}}\n"
	"body{background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,sans-serif;"
	"margin:1.5em auto;max-width:min(100%,160em);padding:0 1.5em;box-sizing:border-box}\n"
	"p,dl,ul{max-width:60em}\n"
	"h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}a{color:var(--acc)}\n"
	".mut{color:var(--mut)}\n"
	"table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:.5em 0}\n"
	"th,td{border-bottom:1px solid var(--line);padding:.2em .5em;text-align:right;"
	"white-space:nowrap}\n"
	"th{cursor:pointer;background:var(--card);position:sticky;top:0}\n"
	"th.l,td.l{text-align:left}\n"
	"td.out{color:var(--out);background:var(--outbg);font-weight:bold}\n"
	"tr.untrusted td{color:var(--mut);font-style:italic}\n"
	"tr.ref td{background:var(--card)}\n"
	".wide{overflow-x:auto}\n"
	"ul.flags li{margin:.2em 0}\n"
	"section.machine{border-top:2px solid var(--line);margin-top:1.5em}\n"
	"dl{display:grid;grid-template-columns:max-content auto;gap:.1em 1em}dt{color:var(--mut)}"
	"dd{margin:0}\n"
	"pre.verdict{background:var(--card);padding:.6em .8em;border-radius:4px;"
	"white-space:pre-wrap;max-width:60em}\n"
	"figure{margin:.8em 0}figure svg{max-width:100%;height:auto;border:1px solid var(--line);"
	"border-radius:4px}\n"
	"@media screen{.print{display:none}}\n"
	"@media print{:root{--bg:#fff;--fg:#000;--mut:#444;--line:#bbb;--out:#900;"
	"--outbg:#fde3e0;--card:#f2f2f2}body{max-width:none;font-size:9pt;margin:0;padding:0}"
	".screen{display:none}th{position:static;cursor:auto;white-space:normal}"
	"th,td{padding:.15em .35em}table.print{break-inside:avoid-page;margin:.3em 0 1em}"
	"section.machine{break-before:page}figure,pre.verdict,dl{break-inside:avoid-page}"
	"figure svg{max-height:60vh}}\n"
	"@page{size:A4 portrait;margin:12mm}\n";

/* Sorting the table by a column: numbers by data-v, words by their text. */
static const char script[] =
	"document.querySelectorAll('table.sortable th').forEach(function (th, i) {\n"
	"  th.addEventListener('click', function () {\n"
	"    var tb = th.closest('table').tBodies[0], up = th.dataset.up !== '1';\n"
	"    var rows = Array.from(tb.rows);\n"
	"    rows.sort(function (a, b) {\n"
	"      var x = parseFloat(a.cells[i].dataset.v), y = parseFloat(b.cells[i].dataset.v);\n"
	"      var d = isNaN(x) || isNaN(y) ? a.cells[i].textContent.localeCompare("
	"b.cells[i].textContent) : x - y;\n"
	"      return up ? d : -d;\n"
	"    });\n"
	"    th.dataset.up = up ? '1' : '0';\n"
	"    rows.forEach(function (r) { tb.appendChild(r); });\n"
	"  });\n"
	"});\n";

#define PRINT_COLS 7 /* figures a printed block holds: an A4 page's width at 9 pt */

/* Is machine i's figure c flagged? Its flag, or NULL. */
static const struct fleet_flag *flag_of(const struct fleet *f, size_t i, size_t c)
{
	for (size_t k = 0; k < f->nflags; k++)
		if (f->flag[k].machine == i && f->flag[k].col == c)
			return &f->flag[k];
	return NULL;
}

/* The groups as a list. */
static void groups_html(FILE *o, const struct fleet *f)
{
	fprintf(o, "<h2>%s</h2>\n<p class=\"mut\">%s</p>\n<ul>\n", _("Groups"),
		_("Machines alike by CPU model, CPUs, memory and the cache sizes their files "
		  "record; each figure of a machine is set against its group's median."));
	for (size_t g = 0; g < f->ngroups; g++) {
		char line[600];
		fprintf(o, "<li><b>%s</b>: ", f->g[g].tag);
		esc(o, fleet_group_text(&f->g[g], line, sizeof line));
		fprintf(o, "</li>\n");
	}
	fprintf(o, "</ul>\n");
}

/* Column c's head: its kind, its figure and its unit, the unit left out
 * where the figure's name says it already ("L1 ns", not "L1 ns ns"). */
static void col_head(FILE *o, const struct fleet_col *c)
{
	const char *unit = strcmp(c->unit, "B") == 0 ? _("bytes") : c->unit;
	size_t n = strlen(c->name), u = strlen(c->unit);
	/* machine text: HTML markup */
	fprintf(o, "<th title=\"");
	esc(o, _(c->kind->what));
	fprintf(o, "\">");
	esc(o, c->kind->name);
	fprintf(o, "<br/>");
	esc(o, c->name);
	if (!(n > u && c->name[n - u - 1] == ' ' && strcmp(c->name + n - u, c->unit) == 0)) {
		/* machine text: HTML markup */
		fprintf(o, " <span class=\"mut\">");
		esc(o, unit);
		fprintf(o, "</span>");
	}
	fprintf(o, "</th>");
}

/* The table's head: machine, group, one column a figure in [c0, c1). */
static void table_head(FILE *o, const struct fleet *f, const char *cls, size_t c0, size_t c1)
{
	fprintf(o,
		/* machine text: HTML markup */
		"<table class=\"%s\">\n<thead><tr><th class=\"l\">%s</th><th class=\"l\">%s</th>",
		cls, _("machine"), _("group"));
	for (size_t c = c0; c < c1; c++)
		col_head(o, &f->col[c]);
	fprintf(o, "</tr></thead>\n<tbody>\n");
}

/* One row: name (a link to its section), group, the figures of [c0, c1);
 * the row's id (row3) in the one table that has them (ids 1). */
static void table_row(FILE *o, const struct fleet *f, size_t i, size_t c0, size_t c1, int ids)
{
	const struct fleet_machine *m = &f->m[i];
	char v[32];
	if (ids)
		/* machine text: HTML markup */
		fprintf(o, "<tr id=\"row%zu\" ", i);
	else
		fprintf(o, "<tr ");
	/* machine text: HTML markup */
	fprintf(o, "class=\"%s\"><td class=\"l\"><a href=\"#m%zu\">",
		m->untrusted[0] ? "untrusted" : m->ref ? "ref" : "", i);
	esc(o, m->name);
	/* machine text: HTML markup */
	fprintf(o, "</a></td><td class=\"l\">%s%s</td>", f->g[m->group].tag,
		m->untrusted[0] ? " !" : "");
	for (size_t c = c0; c < c1; c++) {
		const struct fleet_flag *x = flag_of(f, i, c);
		if (isnan(m->v[c])) {
			fprintf(o, "<td>-</td>");
			continue;
		}
		/* machine text: HTML markup */
		fprintf(o, "<td data-v=\"%.6g\"%s", m->v[c], x ? " class=\"out\" title=\"" : ">");
		if (x) {
			esc(o, x->text_h);
			fprintf(o, "\">");
		}
		esc(o, fleet_value_text(v, sizeof v, m->v[c], f->col[c].unit));
		fprintf(o, "</td>");
	}
	fprintf(o, "</tr>\n");
}

/* The groups' medians of [c0, c1) as the table's foot. */
static void table_foot(FILE *o, const struct fleet *f, size_t c0, size_t c1)
{
	char v[32];
	fprintf(o, "</tbody>\n<tfoot>\n");
	for (size_t g = 0; g < f->ngroups; g++) {
		int any = 0;
		for (size_t c = c0; c < c1; c++)
			any |= !isnan(f->g[g].median[c]);
		if (!any)
			continue;
		/* machine text: HTML markup */
		fprintf(o, "<tr><td class=\"l\">%s</td><td class=\"l\">%s</td>", _("median"),
			f->g[g].tag);
		for (size_t c = c0; c < c1; c++) {
			fprintf(o, "<td>");
			esc(o, fleet_value_text(v, sizeof v, f->g[g].median[c], f->col[c].unit));
			fprintf(o, "</td>");
		}
		fprintf(o, "</tr>\n");
	}
	fprintf(o, "</tfoot></table>\n");
}

/* The table over columns [c0, c1), rows by group. */
static void table_html(FILE *o, const struct fleet *f, const char *cls, size_t c0, size_t c1)
{
	table_head(o, f, cls, c0, c1);
	for (size_t g = 0; g < f->ngroups; g++)
		for (size_t i = 0; i < f->n; i++)
			if (f->m[i].group == g)
				table_row(o, f, i, c0, c1, strcmp(cls, "sortable") == 0);
	table_foot(o, f, c0, c1);
}

/* The end of the print block starting at column c0: whole kinds while
 * they fit in PRINT_COLS, a kind wider than that cut at PRINT_COLS. */
static size_t print_block_end(const struct fleet *f, size_t c0)
{
	size_t end = c0;
	while (end < f->ncols) {
		size_t k = end;
		while (k < f->ncols && f->col[k].kind == f->col[end].kind)
			k++;
		if (k - c0 > PRINT_COLS)
			return end > c0 ? end : c0 + PRINT_COLS;
		end = k;
	}
	return end;
}

/* The table for paper: the same rows in blocks of columns a page wide. */
static void print_tables(FILE *o, const struct fleet *f)
{
	for (size_t c0 = 0, c1; c0 < f->ncols; c0 = c1) {
		c1 = print_block_end(f, c0);
		table_html(o, f, "print", c0, c1);
	}
}

/* Files of other names that record one machine, a line each. */
static void same_html(FILE *o, const struct fleet *f)
{
	char line[2000];
	for (size_t i = 0; i < f->n; i++)
		if (fleet_same_text(f, i, 0, line, sizeof line)) {
			char sentence[2200];
			/* TRANSLATORS: the sentence saying which names record one machine */
			mt_snprintf(sentence, sizeof sentence, _("%s: kept apart by their names."),
				    line);
			fprintf(o, "<p>");
			esc(o, sentence);
			fprintf(o, "</p>\n");
		}
}

/* What stands out and what is not trusted, a sentence each. */
static void verdicts_html(FILE *o, const struct fleet *f)
{
	fprintf(o, "<h2>%s</h2>\n", _("What stands out"));
	if (!f->nflags)
		fprintf(o, "<p>%s</p>\n", _("No machine stands out from its group."));
	else
		/* machine text: HTML markup */
		fprintf(o, "<ul class=\"flags\">\n");
	for (size_t k = 0; k < f->nflags; k++) {
		const struct fleet_machine *m = &f->m[f->flag[k].machine];
		fprintf(o, "<li><a href=\"#m%zu\">", f->flag[k].machine);
		esc(o, m->name);
		fprintf(o, "</a> (%s): ", f->g[m->group].tag);
		esc(o, f->flag[k].text_h);
		fprintf(o, "</li>\n");
	}
	if (f->nflags)
		fprintf(o, "</ul>\n");
	for (size_t i = 0, first = 1; i < f->n; i++)
		if (f->m[i].untrusted[0]) {
			if (first)
				/* machine text: HTML markup */
				fprintf(o, "<p>%s</p>\n<ul class=\"flags\">\n",
					_("Not trusted, left out of the medians (marked !):"));
			first = 0;
			fprintf(o, "<li><a href=\"#m%zu\">", i);
			esc(o, f->m[i].name);
			fprintf(o, "</a>: ");
			esc(o, f->m[i].untrusted_h);
			fprintf(o, "</li>\n");
		}
	for (size_t i = 0; i < f->n; i++)
		if (f->m[i].untrusted[0]) {
			fprintf(o, "</ul>\n");
			break;
		}
}

/* One "term: value" line of a machine's details (value "" left out). */
static void detail(FILE *o, const char *term, const char *value)
{
	if (!value || !value[0])
		return;
	fprintf(o, "<dt>");
	esc(o, term);
	fprintf(o, "</dt><dd>");
	esc(o, value);
	fprintf(o, "</dd>\n");
}

/* The conditions the figures were taken under: each one known, then the
 * names of those not known in one line (why is in the file and in
 * `memtop topo`). */
static void conditions_html(FILE *o, const struct mt_conditions *c)
{
	char missing[400] = "";
	if (!c->have) {
		detail(o, _("conditions"),
		       _("not recorded (an import, or a file from before memtop recorded them)"));
		return;
	}
	for (int i = 0; i < COND_NFIELDS; i++) {
		const struct cond_value *v = mt_conditions_field(c, i);
		if (v->known && strcmp(mt_conditions_name(i), "kernel") == 0)
			continue; /* the header's kernel line says it */
		if (v->known)
			detail(o, say(mt_conditions_label(i)), v->text);
		else
			mt_append(missing, sizeof missing, "%s%s", missing[0] ? ", " : "",
				  say(mt_conditions_label(i)));
	}
	detail(o, _("not known"), missing);
}

/* The lines of `memtop info` and the run header that matter. */
static void details_html(FILE *o, const struct fleet *f, const struct fleet_machine *m)
{
	const struct run_header *h = m->hdr;
	char line[600], id[400], from[240];
	fprintf(o, "<dl>\n");
	for (size_t r = 0; r < m->nres; r++)
		detail(o, say(m->res[r]->f.kind->what), m->res[r]->where);
	detail(o, _("hardware"), h->hardware);
	fleet_id_text(&m->id, id, sizeof id);
	mt_snprintf(line, sizeof line, _("%s (group %s)"), id, f->g[m->group].tag);
	detail(o, _("alike by"), line);
	detail(o, _("kernel"), h->kernel);
	detail(o, _("host"), h->host);
	if (m->idhdr) {
		/* TRANSLATORS: the hash, then what it hashes (machine-id, MAC of eth0) */
		mt_snprintf(line, sizeof line, _("%s (a hash of its %s)"), m->idhdr->machine_id,
			    m->idhdr->machine_from[0]
				    ? mt_machine_from_text(m->idhdr->machine_from, from, sizeof from)
				    : _("identifiers"));
		detail(o, _("machine id"), line);
	} else if (!m->ref) {
		detail(o, _("machine id"),
		       _("none recorded (an import, a file from before memtop recorded one, or a "
			 "run "
			 "that could read none): known by its name, host and CPU"));
	}
	detail(o, _("date"), h->date);
	detail(o, _("build"), h->build);
	if (h->clock.core_ghz > 0) {
		mt_hsnprintf(line, sizeof line, _("%.2f GHz"), h->clock.core_ghz);
		detail(o, _("core clock"), line);
	}
	if (h->has_diag) {
		char w[8][DIAG_LINE];
		int n = diag_warnings(&h->diag, w, 8);
		mt_hsnprintf(line, sizeof line,
			     MT_NGETTEXT("%.2f before the run, %.2f after, on %d CPU",
					 "%.2f before the run, %.2f after, on %d CPUs",
					 h->diag.ncpu),
			     h->diag.load_before, h->diag.load_after, h->diag.ncpu);
		detail(o, _("load"), line);
		for (int k = 0; k < n; k++)
			detail(o, _("warning"), w[k]);
	}
	if (h->has_vm && h->vm.vm == 1) { /* a trust note every figure of it carries */
		if (h->vm.name[0])
			mt_snprintf(
				line, sizeof line,
				_("a VM (%s) (%s): the host's other guests share its caches and "
				  "memory, and the host may move its vCPUs"),
				h->vm.name, h->vm.why);
		else
			mt_snprintf(line, sizeof line,
				    _("a VM (%s): the host's other guests share its caches and "
				      "memory, and the host may move its vCPUs"),
				    h->vm.why);
		detail(o, _("VM"), line);
	}
	conditions_html(o, &h->cond);
	detail(o, _("not trusted"), m->untrusted_h);
	fprintf(o, "</dl>\n");
}

/* The machine's pictures: each result whose kind draws one, as inline SVG
 * (without its XML declaration). Returns 0, or -1 out of memory. */
static int pictures_html(FILE *o, const struct fleet_machine *m)
{
	for (size_t r = 0; r < m->nres; r++) {
		const struct result_file *rf = &m->res[r]->f;
		struct svg s;
		mt_error e;
		const char *text, *svg;
		if (!rf->kind->plot)
			continue;
		memset(&s, 0, sizeof s);
		if (rf->kind->plot(rf, 1, &s) < 0 || !(text = svg_finish(&s, &e))) {
			svg_free(&s);
			return -1;
		}
		svg = strstr(text, "<svg");
		/* machine text: HTML markup */
		fprintf(o, "<figure>%s<figcaption class=\"mut\">", svg ? svg : "");
		esc(o, m->name); /* whose picture of what, from which file */
		fprintf(o, ": ");
		esc(o, say(rf->kind->what));
		fprintf(o, " (");
		esc(o, m->res[r]->where);
		fprintf(o, ")</figcaption></figure>\n");
		svg_free(&s);
	}
	return 0;
}

/* Each result read against the caches recorded with it, as memtop levels
 * says it: the verdict a teacher reads for this student's own machine.
 * Returns 0, or -1 out of memory. */
static int verdicts_of(FILE *o, const struct fleet_machine *m)
{
	for (size_t r = 0; r < m->nres; r++) {
		const struct result_file *rf = &m->res[r]->f;
		char *text = NULL;
		size_t len = 0;
		FILE *mem;
		int rc;
		if (!rf->kind->verdict)
			continue;
		if (!(mem = open_memstream(&text, &len)))
			return -1;
		rc = rf->kind->verdict(rf, mem);
		if (fclose(mem) != 0) {
			free(text);
			return -1;
		}
		if (rc == 0 && len) {
			char head[600];
			/* TRANSLATORS: the result's kind (latency run), then its file */
			mt_snprintf(head, sizeof head,
				    _("The %s against the caches its machine reported (%s):"),
				    say(rf->kind->what), m->res[r]->where);
			fprintf(o, "<p class=\"mut\">");
			esc(o, head);
			/* machine text: HTML markup */
			fprintf(o, "</p>\n<pre class=\"verdict\">");
			esc_lines(o, text);
			fprintf(o, "</pre>\n");
		}
		free(text);
	}
	return 0;
}

/* Per machine: a section with its details and pictures. Returns 0 or -1. */
static int machines_html(FILE *o, const struct fleet *f)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct fleet_machine *m = &f->m[i];
		/* machine text: HTML markup */
		fprintf(o, "<section class=\"machine\" id=\"m%zu\">\n<h2>", i);
		esc(o, m->name);
		/* machine text: HTML markup */
		fprintf(o, " <span class=\"mut\">");
		fprintf(o, m->ref ? _("group %s, a bundled reference") : _("group %s"),
			f->g[m->group].tag);
		fprintf(o, "</span></h2>\n");
		details_html(o, f, m);
		if (verdicts_of(o, m) < 0 || pictures_html(o, m) < 0)
			return -1;
		fprintf(o, "</section>\n");
	}
	return 0;
}

int report_html(FILE *o, const struct fleet *f, const char *title)
{
	char nm[64], ng[64];
	/* TRANSLATORS: the page's language, as HTML's lang attribute writes it */
	/* machine text: HTML markup */
	fprintf(o, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\"/>\n"
		   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
		   "<title>",
		_("en"));
	esc(o, title);
	fprintf(o, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
	esc(o, title);
	mt_snprintf(nm, sizeof nm, MT_NGETTEXT("%zu machine", "%zu machines", f->n), f->n);
	mt_snprintf(ng, sizeof ng, MT_NGETTEXT("%zu group", "%zu groups", f->ngroups), f->ngroups);
	fprintf(o, "</h1>\n<p class=\"mut\">");
	/* TRANSLATORS: "3 machines", "2 groups", memtop's version */
	fprintf(o,
		_("%s in %s, made by memtop %s from the files given; every figure is from those "
		  "files. Click a column's head to sort by it; a figure in red stands out from its "
		  "group (its reading on hover and below)."),
		nm, ng, PACKAGE_VERSION);
	fprintf(o, "</p>\n");
	groups_html(o, f);
	fprintf(o, "<h2>%s</h2>\n", _("Machines"));

	same_html(o, f);
	/* machine text: HTML markup */
	fprintf(o, "<div class=\"wide screen\">");
	table_html(o, f, "sortable", 0, f->ncols);
	fprintf(o, "</div>\n");
	print_tables(o, f);
	verdicts_html(o, f);
	if (machines_html(o, f) < 0)
		return -1;
	fprintf(o, "<script>\n%s</script>\n</body>\n</html>\n", script);
	return ferror(o) ? -1 : 0;
}
