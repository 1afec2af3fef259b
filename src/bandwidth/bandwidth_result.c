/* bandwidth_result: the one store of a bandwidth run (batch, tab, view)
 * and the lessons read off it; its JSON is bandwidth_json.c. See
 * bandwidth.h. */
#include "config.h"

#include "bandwidth_result.h"
#include "base/i18n.h"
#include "os/arch.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

void bandwidth_result_init(struct bandwidth_result *r, const struct bandwidth_params *p)
{
	memset(r, 0, sizeof *r);
	r->isa = p->isa;
	r->vector_bytes = bandwidth_isa_width(p->isa);
	r->nsizes = p->loaded == 2 ? 0 : p->nsizes;
	memcpy(r->sizes, p->sizes, sizeof r->sizes);
	r->nkernels = p->loaded == 2 ? 0 : p->nkernels;
	memcpy(r->kernels, p->kernels, sizeof r->kernels);
	r->nthreads = p->loaded == 2 ? 0 : p->nthreads;
	for (size_t i = 0; i < p->nthreads; i++) {
		struct bandwidth_threads_info *t = &r->threads[i];
		t->threads = p->threads[i];
		t->over = bandwidth_placement(p, p->threads[i], t->placement, sizeof t->placement);
		t->over_quota = p->quota > 0 && (double)p->threads[i] > p->quota;
		if (t->over_quota)
			mt_append(t->placement, sizeof t->placement,
				  "; over the job's cpu quota (%g CPU)",
				  round(p->quota * 100) / 100);
		t->cpus[0] = '\0';
		for (unsigned k = 0; k < p->threads[i] && (int)k < p->ncpus; k++)
			mt_append(t->cpus, sizeof t->cpus, "%s%d", k ? "," : "", p->cpus[k]);
	}
	r->ncpus = p->ncpus;
	r->loaded = p->loaded;
	r->loader_write = p->loader_write;
	r->loaders = p->ncpus > 1 ? (unsigned)(p->ncpus - 1) : 0;
	r->chaser_cpu = p->ncpus > 0 ? p->cpus[0] : -1;
	r->chase_bytes = p->chase_bytes;
	r->chase_stride = p->chase_stride;
	bandwidth_cpu_id(&r->cpu);
	r->pages.asked = p->pages_asked;
	r->pages.used = p->pages;
	mt_thp_mode(r->pages.thp, sizeof r->pages.thp);
	r->pages.buffer_bytes = p->loaded == 2 || p->buf ? 0 : bandwidth_buffer_bytes(p);
	r->pages.huge_bytes = -1;
	r->npts = p->loaded ? p->ndelays + 1 : 0;
	for (size_t i = 0; i < r->npts; i++) {
		r->pts[i].idle = i == 0;
		r->pts[i].delay_ns = i == 0 ? -1 : p->delays[i - 1];
	}
}

int bandwidth_result_apply(struct bandwidth_result *r, const struct job_event *ev)
{
	if (ev->type == JOB_EV_NOTE && ev->subtype == BANDWIDTH_NOTE_PAGES)
		r->pages.huge_bytes = ev->value >= 0 ? (int64_t)ev->value : -1;
	if (ev->type == JOB_EV_NOTE && ev->subtype == BANDWIDTH_NOTE_PORTS) {
		struct bandwidth_ev_ports x;
		if (JOB_PAYLOAD_GET(ev, struct bandwidth_ev_ports, &x) == 0 && (x.when == 0 || x.when == 1) &&
		    x.gbs > 0 && isfinite(x.gbs)) {
			r->ports[x.when].have = 1; /* rounded as the file says them */
			r->ports[x.when].gbs = round(x.gbs * 1000) / 1000;
			r->ports[x.when].ghz = x.ghz > 0 && isfinite(x.ghz) ? round(x.ghz * 1000) / 1000 : 0;
			r->ports[x.when].preempted = x.preempted > 0 ? x.preempted : 0;
		}
		return 0;
	}
	if (ev->type != JOB_EV_CELL && ev->type != JOB_EV_UPDATE)
		return 0;
	if (ev->subtype == BANDWIDTH_EV_TABLE) {
		struct bandwidth_ev_table x;
		struct bandwidth_cell *c;
		if (JOB_PAYLOAD_GET(ev, struct bandwidth_ev_table, &x) < 0 || ev->row < 0 ||
		    (size_t)ev->row >= r->nsizes || ev->col < 0 || ev->col >= BANDWIDTH_NKERNELS ||
		    x.thread_index < 0 || (size_t)x.thread_index >= r->nthreads)
			return 0;
		c = &r->cell[ev->row][ev->col][x.thread_index];
		c->have = 1;
		c->gbs = ev->value;
		c->spread = ev->spread;
		c->tries = x.tries;
		c->canary = x.canary;
		c->checked = (x.flags & BANDWIDTH_CHECKED) != 0;
		c->twice = (x.flags & BANDWIDTH_TWICE) != 0;
		c->uneven = (x.flags & BANDWIDTH_UNEVEN) != 0;
		c->pass_bytes = x.pass_bytes;
		c->preempted = x.preempted;
		/* as the file will say it, so a file read back gives the same figures */
		c->ghz = x.ghz > 0 && isfinite(x.ghz) ? round(x.ghz * 1000) / 1000 : 0;
		if (!c->checked)
			r->wrong = 1;
		return BANDWIDTH_EV_TABLE;
	}
	if (ev->subtype == BANDWIDTH_EV_LOADED) {
		struct bandwidth_ev_loaded x;
		struct bandwidth_point *pt;
		if (JOB_PAYLOAD_GET(ev, struct bandwidth_ev_loaded, &x) < 0 || ev->row < 0 ||
		    (size_t)ev->row >= r->npts)
			return 0;
		pt = &r->pts[ev->row];
		pt->have = 1;
		pt->latency_ns = ev->value;
		pt->spread = ev->spread;
		pt->gbs = x.gbs;
		pt->idle = x.delay_ns < 0;
		pt->delay_ns = x.delay_ns;
		pt->tries = x.tries;
		pt->preempted = x.preempted;
		return BANDWIDTH_EV_LOADED;
	}
	return 0;
}

size_t bandwidth_result_measured(const struct bandwidth_result *r)
{
	size_t n = 0;
	for (size_t s = 0; s < r->nsizes; s++)
		for (size_t k = 0; k < BANDWIDTH_NKERNELS; k++)
			for (size_t t = 0; t < r->nthreads; t++)
				n += (size_t)r->cell[s][k][t].have;
	for (size_t i = 0; i < r->npts; i++)
		n += (size_t)r->pts[i].have;
	return n;
}

int bandwidth_result_tindex(const struct bandwidth_result *r, unsigned threads)
{
	for (size_t i = 0; i < r->nthreads; i++)
		if (r->threads[i].threads == threads)
			return (int)i;
	return -1;
}

double bandwidth_result_top(const struct bandwidth_result *r)
{
	double top = 0;
	for (size_t s = 0; s < r->nsizes; s++)
		for (size_t k = 0; k < BANDWIDTH_NKERNELS; k++)
			for (size_t t = 0; t < r->nthreads; t++)
				if (r->cell[s][k][t].have && r->cell[s][k][t].gbs > top)
					top = r->cell[s][k][t].gbs;
	return top;
}

/* ---- lessons ---------------------------------------------------------------- */

/* The load kernel's lesson (kernel load or read_vector): at r's first L1
 * size, one thread, both measured, what consuming the loads costs, in all
 * and per op read_vector runs beside them (bench/l1ops measures the same
 * with 0..16 ops of several kinds). Returns 1, or 0 (buf untouched). */
static int consume_lesson(const struct bandwidth_result *r, char *buf, size_t len)
{
	const struct bandwidth_cell *ld, *rv;
	size_t si = 0;
	double f;
	char a[32];
	while (si < r->nsizes && strcmp(r->sizes[si].level, "L1") != 0)
		si++;
	if (si == r->nsizes || !r->nthreads || r->threads[0].threads != 1)
		return 0;
	ld = &r->cell[si][BANDWIDTH_LOAD][0];
	rv = &r->cell[si][BANDWIDTH_READ_VECTOR][0];
	if (!ld->have || !rv->have || ld->gbs <= 0)
		return 0;
	f = rv->gbs / ld->gbs;
	mt_fmt_size(a, sizeof a, r->sizes[si].bytes);
	buf[0] = '\0';
	if (f >= 0.98) {
		mt_happend(buf, len, _("L1 %s, one thread: load %.1f GB/s (the loads alone: what the load "
				 "ports allow), read_vector %.1f (the same loads, each consumed into an "
				 "accumulator): %.2fx, consuming the loads costs this core nothing "
				 "measurable"), a, ld->gbs, rv->gbs, f);
	} else {
		const char *op = "";
		unsigned ops = bandwidth_read_ops(r->isa, &op);
		mt_happend(buf, len, _("L1 %s, one thread: load %.1f GB/s (the loads alone: what the load "
				 "ports allow), read_vector %.1f (the same loads, each consumed into an "
				 "accumulator): %.2fx, consuming the loads costs this core %.0f %% of "
				 "its load rate"), a, ld->gbs, rv->gbs, f, 100 * (1 - f));
		if (ops)
			/* TRANSLATORS: the instruction (vaddpd, fadd...) and its width in bits */
			mt_happend(buf, len, _(": read_vector's %u %s (%u-bit) per 16 loads, about %.1f %% "
					 "each"), ops, op, 8 * bandwidth_isa_width(r->isa),
			     100 * (1 - f) / ops);
	}
	return 1;
}

/* The memory row: the last, when it is DRAM (or a size past BANDWIDTH_DRAM_MIN
 * with no level), else NULL. */
static const struct bandwidth_size *memory_row(const struct bandwidth_result *r)
{
	const struct bandwidth_size *sz = r->nsizes ? &r->sizes[r->nsizes - 1] : NULL;
	if (!sz || !r->nthreads ||
	    !(strcmp(sz->level, "DRAM") == 0 || (!sz->level[0] && sz->bytes >= BANDWIDTH_DRAM_MIN)))
		return NULL;
	return sz;
}

/* The C library's memset (fill) or memcpy (copy_lib) in memory, one thread,
 * against memtop's own kernels of the same work, and why it wins or loses:
 * whether it skipped the read for ownership (as streaming stores do: glibc
 * turns to non-temporal stores past its x86_non_temporal_threshold, and rep
 * stosb / movsb on ERMS cores writes whole lines), whether zeros went faster
 * than data. Each claim from the run's own figures and this CPU's flags. */
static int lib_lesson(const struct bandwidth_result *r, int kernel, char *buf, size_t len)
{
	int fill = kernel != BANDWIDTH_COPY_LIB;
	const struct bandwidth_size *sz = memory_row(r);
	size_t last = r->nsizes ? r->nsizes - 1 : 0;
	const struct bandwidth_cell *lib, *zero, *mine, *nt;
	double best;
	char a[32];
	if (!sz)
		return 0;
	lib = &r->cell[last][fill ? BANDWIDTH_FILL : BANDWIDTH_COPY_LIB][0];
	zero = &r->cell[last][BANDWIDTH_FILL_ZERO][0];
	mine = &r->cell[last][fill ? BANDWIDTH_WRITE : BANDWIDTH_COPY][0];
	nt = &r->cell[last][fill ? BANDWIDTH_WRITE_NT : BANDWIDTH_COPY_NT][0];
	if (!lib->have || !mine->have || lib->gbs <= 0 || mine->gbs <= 0)
		return 0;
	best = nt->have && nt->gbs > mine->gbs ? nt->gbs : mine->gbs;
	{
		char row[64], libk[96], ours[96];
		const char *mk = fill ? "write" : "copy", *nk = fill ? "write_nt" : "copy_nt";
		mt_snprintf(row, sizeof row, "%s%s%s", sz->level, sz->level[0] ? " " : "",
			    mt_fmt_size(a, sizeof a, sz->bytes));
		/* TRANSLATORS: memset or memcpy and its GB/s (memset's of zeros beside) */
		if (fill && zero->have)
			mt_hsnprintf(libk, sizeof libk, _("%s %.1f GB/s (of zeros %.1f)"), "memset",
				     lib->gbs, zero->gbs);
		else
			mt_hsnprintf(libk, sizeof libk, _("%s %.1f GB/s"), fill ? "memset" : "memcpy",
				     lib->gbs);
		/* TRANSLATORS: memtop's kernel of the same work (write or copy) and its
		 * streaming one (write_nt or copy_nt) with their GB/s */
		if (nt->have)
			mt_hsnprintf(ours, sizeof ours, _("%s %.1f and %s %.1f"), mk, mine->gbs, nk,
				     nt->gbs);
		else
			mt_hsnprintf(ours, sizeof ours, "%s %.1f", mk, mine->gbs);
		buf[0] = '\0';
		mt_happend(buf, len,
		     lib->gbs >= 1.05 * best ? _("%s, one thread: the C library's %s, memtop's %s: "
						 "the library wins (%.2fx memtop's best)")
		     : lib->gbs >= 0.95 * best ? _("%s, one thread: the C library's %s, memtop's %s: "
						   "as fast as memtop's best (%.2fx memtop's best)")
					       : _("%s, one thread: the C library's %s, memtop's %s: "
						   "the library is slower (%.2fx memtop's best)"),
		     row, libk, ours, lib->gbs / best);
	}
	if (lib->gbs > 1.2 * mine->gbs)
		mt_append(buf, len, "%s",
			  mt_arch_has(MT_FEAT_ERMS)
				  ? _("; it stores without reading each line first, as streaming stores "
				      "do (glibc turns to non-temporal stores past its "
				      "x86_non_temporal_threshold; this core has ERMS: rep stosb/movsb "
				      "writes whole lines)")
				  : _("; it stores without reading each line first, as streaming stores "
				      "do (glibc turns to non-temporal stores past its "
				      "x86_non_temporal_threshold)"));
	else if (lib->gbs <= 1.05 * mine->gbs)
		/* TRANSLATORS: memtop's kernel: write or copy */
		mt_append(buf, len, _("; it stores through the caches, as memtop's %s does: each "
				      "line is read for ownership first"), fill ? "write" : "copy");
	if (fill && zero->have && zero->gbs > 1.1 * lib->gbs)
		mt_happend(buf, len, _("; zeros %.2fx faster than a non-zero byte: a fast path for zeros "
				 "(the core's, or the library's: dc zva on Arm)"), zero->gbs / lib->gbs);
	return 1;
}

int bandwidth_lesson(const struct bandwidth_result *r, int kernel, char *buf, size_t len)
{
	int k = kernel == BANDWIDTH_COPY_NT ? BANDWIDTH_COPY : kernel == BANDWIDTH_TRIAD_NT ? BANDWIDTH_TRIAD : kernel;
	if (kernel == BANDWIDTH_LOAD || kernel == BANDWIDTH_READ_VECTOR)
		return consume_lesson(r, buf, len);
	if (kernel == BANDWIDTH_FILL || kernel == BANDWIDTH_FILL_ZERO || kernel == BANDWIDTH_COPY_LIB)
		return lib_lesson(r, kernel, buf, len);
	int cached = k == BANDWIDTH_COPY ? 3 : 4;
	const struct bandwidth_size *sz;
	const struct bandwidth_cell *c, *nt;
	char a[32];
	if ((k != BANDWIDTH_COPY && k != BANDWIDTH_TRIAD) || !r->nsizes || !r->nthreads)
		return 0;
	sz = &r->sizes[r->nsizes - 1];
	c = &r->cell[r->nsizes - 1][k][0];
	nt = &r->cell[r->nsizes - 1][k + 1][0]; /* BANDWIDTH_COPY_NT, BANDWIDTH_TRIAD_NT */
	if (!c->have || !nt->have || c->gbs <= 0 ||
	    !(strcmp(sz->level, "DRAM") == 0 || (!sz->level[0] && sz->bytes >= BANDWIDTH_DRAM_MIN)))
		return 0; /* the lesson is memory's */
	{
		char row[64];
		mt_snprintf(row, sizeof row, "%s%s%s", sz->level, sz->level[0] ? " " : "",
			    mt_fmt_size(a, sizeof a, sz->bytes));
		buf[0] = '\0';
		/* TRANSLATORS: the row ("DRAM 256M"), the kernel (copy or triad) twice, the
		 * lines a cached one moves per line stored (3 or 4) and a streaming one's */
		mt_happend(buf, len, _("%s %s, one thread: cached %.1f GB/s, streaming stores %.1f (%.2fx): "
				 "a cached %s moves %d lines per line it stores (the stored line is "
				 "first read for ownership), a streaming one %d, so where memory is the "
				 "limit it can run up to %.2fx faster"),
		     row, bandwidth_kernel_name(k), c->gbs, nt->gbs, nt->gbs / c->gbs,
		     bandwidth_kernel_name(k), cached, cached - 1, (double)cached / (cached - 1));
		if (nt->gbs / c->gbs > 1.05 * cached / (cached - 1))
			mt_happend(buf, len, "%s", _("; beyond: it runs 4 streams at once"));
	}
	return 1;
}
