/* trace: a fast reader of valgrind-lackey / cachelab traces (see trace.h).
 * The file is read in 1 MB chunks and parsed in place; a line cut at the end
 * of a chunk is moved to the front before the next read. */
#include "config.h"

#include "base/i18n.h"

#include "trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK (1u << 20)
#define MAX_LINE 4096

struct trace_reader {
	FILE *f;
	int own;               /* close f at the end */
	char name[MT_PATH_MAX];
	char *buf;             /* CHUNK + MAX_LINE bytes */
	size_t pos, len;       /* unparsed bytes are buf[pos, len) */
	int eof;
	unsigned long line;    /* lines consumed so far */
	int failed;            /* pending: TRACE_BAD_INPUT or TRACE_READ_ERROR, next call */
	mt_error err;
};

static inline int is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

static inline int hex_value(unsigned char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	ch |= 0x20;
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

/* Hex digit values plus one, 0 for anything else: a constant table, so two
 * threads reading traces at once share it without a lock (it was filled on
 * first use, unlocked, by whichever thread read a trace first). */
#define HX(ch, v) [ch] = (v) + 1
static const uint8_t hexv1[256] = {
	HX('0', 0), HX('1', 1), HX('2', 2), HX('3', 3), HX('4', 4), HX('5', 5), HX('6', 6),
	HX('7', 7), HX('8', 8), HX('9', 9), HX('a', 10), HX('b', 11), HX('c', 12), HX('d', 13),
	HX('e', 14), HX('f', 15), HX('A', 10), HX('B', 11), HX('C', 12), HX('D', 13), HX('E', 14),
	HX('F', 15),
};
#undef HX

/* A hex digit's value from the table, -1 for anything else. */
static inline int hexv(unsigned char ch)
{
	return (int)hexv1[ch] - 1;
}

/* The common shape " L 7ff000398,8\n" parsed straight from the buffer; the
 * byte at end is a '\n' sentinel so no loop runs past it. Returns 1 with rec
 * and *next (just after the '\n') for a complete, well-formed record; 0 for
 * anything else (I lines, blanks, CRLF trailing spaces, errors, a line cut by
 * the end of the buffer), which the general parser then handles. */
static inline int parse_fast(const char *p, const char *end, struct trace_rec *rec,
			     const char **next)
{
	const unsigned char *q, *digits;
	uint64_t addr = 0, size;
	int v;
	char op;
	while (*p == ' ')
		p++;
	op = *p;
	if ((op != 'L' && op != 'S' && op != 'M') || p[1] != ' ')
		return 0;
	q = (const unsigned char *)p + 2;
	while (*q == ' ')
		q++;
	if ((v = hexv(*q)) < 0)
		return 0;
	digits = q;
	do {
		addr = addr << 4 | (uint64_t)v;
		q++;
	} while ((v = hexv(*q)) >= 0);
	if (q - digits > 16)
		return 0; /* maybe too big: the general parser decides */
	if (*q != ',' || q[1] < '0' || q[1] > '9')
		return 0;
	q++;
	size = 0;
	do {
		size = size * 10 + (uint64_t)(*q - '0');
		q++;
	} while (*q >= '0' && *q <= '9' && size <= UINT32_MAX / 10);
	if (*q != '\n' || (const char *)q >= end)
		return 0;
	rec->op = op;
	rec->addr = addr;
	rec->size = (uint32_t)size;
	*next = (const char *)q + 1;
	return 1;
}

/* "==123==" or "--123--" at s: valgrind's own messages. */
static int is_valgrind_line(const char *s, const char *end)
{
	char d = s[0];
	const char *p;
	if (end - s < 5 || (d != '=' && d != '-') || s[1] != d)
		return 0;
	p = s + 2;
	if (p >= end || *p < '0' || *p > '9')
		return 0;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return end - p >= 2 && p[0] == d && p[1] == d;
}

int trace_parse_line(const char *s, size_t len, struct trace_rec *rec, const char **why)
{
	const char *p = s, *end = s + len;
	uint64_t addr = 0, size = 0;
	int digits = 0, v;
	char op;
	if (len && end[-1] == '\r')
		end--;
	while (p < end && is_blank(*p))
		p++;
	while (end > p && is_blank(end[-1]))
		end--;
	if (p == end)
		return 0;
	op = *p;
	if (op == 'I')
		return 0;
	if (op == '=' || op == '-') {
		if (is_valgrind_line(p, end))
			return 0;
		*why = N_("not a trace line (expected OP ADDRESS,SIZE or valgrind's ==PID== lines)");
		return -1;
	}
	if (op != 'L' && op != 'S' && op != 'M') {
		*why = N_("bad op (expected I, L, S or M)");
		return -1;
	}
	p++;
	if (p == end || !is_blank(*p)) {
		*why = N_("expected a space after the op");
		return -1;
	}
	while (p < end && is_blank(*p))
		p++;
	while (p < end && (v = hex_value((unsigned char)*p)) >= 0) {
		if (addr >> 60) {
			*why = N_("address does not fit in 64 bits");
			return -1;
		}
		addr = addr << 4 | (uint64_t)v;
		digits++;
		p++;
	}
	if (!digits) {
		*why = N_("bad address (expected hex digits)");
		return -1;
	}
	if (p == end || *p != ',') {
		*why = (p == end || is_blank(*p)) ? N_("missing ',' between address and size")
						  : N_("bad address (expected hex digits then ',')");
		return -1;
	}
	p++;
	digits = 0;
	while (p < end && *p >= '0' && *p <= '9') {
		size = size * 10 + (uint64_t)(*p - '0');
		if (size > UINT32_MAX) {
			*why = N_("size too large");
			return -1;
		}
		digits++;
		p++;
	}
	if (!digits) {
		*why = N_("bad size (expected a decimal number after ',')");
		return -1;
	}
	if (p != end) {
		*why = N_("unexpected text after the size");
		return -1;
	}
	rec->op = op;
	rec->addr = addr;
	rec->size = (uint32_t)size;
	return 1;
}

struct trace_reader *trace_open(const char *path, mt_error *e)
{
	struct trace_reader *r = calloc(1, sizeof(*r));
	if (!r) {
		mt_fail(e, _("%s: out of memory"), path);
		return NULL;
	}
	r->buf = malloc(CHUNK + MAX_LINE + 1);
	if (!r->buf) {
		free(r);
		mt_fail(e, _("%s: out of memory"), path);
		return NULL;
	}
	if (strcmp(path, "-") == 0) {
		r->f = stdin;
		mt_strlcpy(r->name, "stdin", sizeof(r->name));
	} else {
		r->f = fopen(path, "rb");
		if (!r->f) {
			mt_fail(e, "%s: %s", path, strerror(errno));
			free(r->buf);
			free(r);
			return NULL;
		}
		r->own = 1;
		mt_strlcpy(r->name, path, sizeof(r->name));
	}
	return r;
}

/* Read more bytes after the unparsed tail. Returns 0, or -1 on a read error. */
static int refill(struct trace_reader *r)
{
	size_t keep = r->len - r->pos, got;
	if (keep && r->pos)
		memmove(r->buf, r->buf + r->pos, keep);
	r->pos = 0;
	r->len = keep;
	got = fread(r->buf + keep, 1, CHUNK + MAX_LINE - keep, r->f);
	r->len += got;
	if (got == 0) {
		if (ferror(r->f))
			return -1;
		r->eof = 1;
	}
	return 0;
}

/* The line as text for an error message: CR dropped, control bytes as '?',
 * cut with "..." when long. */
static void quote_line(const char *s, size_t len, char *out, size_t cap)
{
	size_t i, n = 0;
	if (len && s[len - 1] == '\r')
		len--;
	for (i = 0; i < len && n + 4 < cap; i++)
		out[n++] = ((unsigned char)s[i] < 32 || s[i] == 127) ? '?' : s[i];
	if (i < len && n + 4 >= cap) {
		n = cap - 4;
		memcpy(out + n, "...", 3);
		n += 3;
	}
	out[n] = 0;
}

long trace_read(struct trace_reader *r, struct trace_rec *out, size_t max, mt_error *e)
{
	size_t n = 0;
	const char *why;
	char q[48];
	if (r->failed) {
		*e = r->err;
		return r->failed;
	}
	while (n < max) {
		char *start = r->buf + r->pos, *nl;
		size_t avail = r->len - r->pos, linelen;
		const char *next;
		int rc;
		r->buf[r->len] = '\n'; /* sentinel for parse_fast */
		if (avail && parse_fast(start, r->buf + r->len, &out[n], &next) &&
		    (size_t)(next - start) <= MAX_LINE + 1) {
			r->line++;
			out[n++].line = r->line;
			r->pos = (size_t)(next - r->buf);
			continue;
		}
		nl = avail ? memchr(start, '\n', avail) : NULL;
		if (!nl) {
			if (!r->eof) {
				if (avail > MAX_LINE) {
					mt_fail(&r->err, _("%s:%lu: line longer than %u bytes"), r->name,
						r->line + 1, MAX_LINE);
					r->failed = TRACE_BAD_INPUT;
					break;
				}
				if (refill(r) < 0) {
					mt_fail(&r->err, _("%s: read error: %s"), r->name, strerror(errno));
					r->failed = TRACE_READ_ERROR;
					break;
				}
				continue;
			}
			if (!avail)
				break;              /* end of file */
			linelen = avail;            /* last line without '\n' */
			r->pos = r->len;
		} else {
			linelen = (size_t)(nl - start);
			r->pos += linelen + 1;
		}
		r->line++;
		if (linelen > MAX_LINE) {
			mt_fail(&r->err, _("%s:%lu: line longer than %u bytes"), r->name, r->line, MAX_LINE);
			r->failed = TRACE_BAD_INPUT;
			break;
		}
		rc = trace_parse_line(start, linelen, &out[n], &why);
		if (rc > 0) {
			out[n].line = r->line;
			n++;
		} else if (rc < 0) {
			quote_line(start, linelen, q, sizeof(q));
			mt_fail(&r->err, _("%s:%lu: %s: '%s'"), r->name, r->line, _(why), q);
			r->failed = TRACE_BAD_INPUT;
			break;
		}
	}
	if (n)
		return (long)n;
	if (r->failed) {
		*e = r->err;
		return r->failed;
	}
	return 0;
}

void trace_close(struct trace_reader *r)
{
	if (!r)
		return;
	if (r->own && r->f)
		fclose(r->f);
	free(r->buf);
	free(r);
}

/* ---- writing ------------------------------------------------------------ */

#define WRITER_BUF (1u << 16)

struct trace_writer {
	FILE *f;
	char path[4096], tmp[4096 + 16];
	int failed; /* errno of the first failed write, 0 none */
};

struct trace_writer *trace_writer_open(const char *path, mt_error *e)
{
	struct trace_writer *w = calloc(1, sizeof *w);
	int fd;
	if (!w) {
		mt_fail(e, _("%s: out of memory"), path);
		return NULL;
	}
	if (mt_strlcpy(w->path, path, sizeof w->path) < 0 ||
	    mt_snprintf(w->tmp, sizeof w->tmp, "%s.tmp.XXXXXX", path) < 0) {
		mt_fail(e, _("%s: path too long"), path);
		goto fail;
	}
	fd = mkstemp(w->tmp);
	if (fd < 0) {
		mt_fail(e, _("%s: cannot create a temporary file beside it: %s"), path, strerror(errno));
		goto fail;
	}
	if (fchmod(fd, 0644) < 0 || !(w->f = fdopen(fd, "w"))) {
		mt_fail(e, "%s: %s", path, strerror(errno));
		close(fd);
		unlink(w->tmp);
		goto fail;
	}
	setvbuf(w->f, NULL, _IOFBF, WRITER_BUF);
	return w;
fail:
	free(w);
	return NULL;
}

void trace_writer_add(struct trace_writer *w, char op, uint64_t addr, unsigned size)
{
	/* machine text: a trace line in the csim format */
	if (!w->failed && fprintf(w->f, " %c %llx,%u\n", op, (unsigned long long)addr, size) < 0)
		w->failed = errno ? errno : EIO;
}

int trace_writer_commit(struct trace_writer *w, mt_error *e)
{
	int rc = 0;
	if (!w->failed && fflush(w->f) != 0)
		w->failed = errno ? errno : EIO;
	if (!w->failed && fsync(fileno(w->f)) < 0 && errno != EINVAL)
		w->failed = errno;
	if (fclose(w->f) != 0 && !w->failed)
		w->failed = errno ? errno : EIO;
	if (!w->failed && rename(w->tmp, w->path) < 0)
		w->failed = errno;
	if (w->failed) {
		rc = mt_fail(e, _("%s: write failed: %s"), w->path, strerror(w->failed));
		unlink(w->tmp);
	}
	free(w);
	return rc;
}

void trace_writer_abort(struct trace_writer *w)
{
	if (!w)
		return;
	fclose(w->f);
	unlink(w->tmp);
	free(w);
}
