/* util: see util.h for the contracts. */
#include "config.h"

#include "util.h"
#include "i18n.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int mt_fail(mt_error *e, const char *fmt, ...)
{
	if (e) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
		va_end(ap);
	}
	return -1;
}

void mt_warn(const char *fmt, ...)
{
	char line[1024], safe[1024];
	va_list ap;
	va_start(ap, fmt);
	mt_vhsnprintf(line, sizeof line, fmt, ap); /* for people: the user's decimal separator */
	va_end(ap);
	/* messages quote paths and fields of files: nothing in them acts on the terminal */
	fprintf(stderr, "memtop: %s\n", /* machine text: the program's name */
		mt_printable(safe, sizeof safe, line, 0));
}

int mt_snprintf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;
	if (len == 0)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len) {
		mt_utf8_trim(buf);
		return -1;
	}
	return 0;
}

int mt_append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len);
	va_list ap;
	int n;
	if (used + 1 >= len)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - used) {
		mt_utf8_trim(buf + used);
		return -1;
	}
	return 0;
}

int mt_strlcpy(char *dst, const char *src, size_t len)
{
	size_t n = strlen(src);
	if (len == 0)
		return -1;
	if (n >= len) {
		memcpy(dst, src, len - 1);
		dst[len - 1] = '\0';
		mt_utf8_trim(dst);
		return -1;
	}
	memcpy(dst, src, n + 1);
	return 0;
}

int mt_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;
	if (!s || !isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int mt_parse_int(const char *s, int min, int max, int *out)
{
	char *end;
	long v;
	if (!s || !*s || isspace((unsigned char)s[0]))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end != '\0' || v < min || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

int mt_parse_double(const char *s, double *out)
{
	char *end;
	double v;
	if (!s || !*s || isspace((unsigned char)s[0]))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end != '\0' || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int mt_parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t mul = 1;
	if (!s || !isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case '\0': break;
	case 'K': mul = 1ULL << 10; end++; break;
	case 'M': mul = 1ULL << 20; end++; break;
	case 'G': mul = 1ULL << 30; end++; break;
	case 'T': mul = 1ULL << 40; end++; break;
	case 'B': break;
	default: return -1;
	}
	if (*end == 'i' && mul > 1)
		end++;
	if (toupper((unsigned char)*end) == 'B')
		end++;
	if (*end != '\0' || (v && mul > UINT64_MAX / v))
		return -1;
	*out = v * mul;
	return 0;
}

int mt_parse_size_range(const char *s, uint64_t *lo, uint64_t *hi)
{
	const char *colon = strchr(s, ':');
	char left[64];
	size_t n;
	if (!colon)
		return -1;
	n = (size_t)(colon - s);
	if (n >= sizeof left)
		return -1;
	memcpy(left, s, n);
	left[n] = '\0';
	if (n && mt_parse_size(left, lo) < 0)
		return -1;
	if (colon[1] && mt_parse_size(colon + 1, hi) < 0)
		return -1;
	return 0;
}

int mt_parse_u64_list(const char *s, uint64_t min, uint64_t max, uint64_t *out, size_t cap)
{
	char item[64];
	size_t count = 0;
	const char *p = s;
	if (!s || !*s)
		return -1;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		if (n == 0 || n >= sizeof item || count == cap)
			return -1;
		memcpy(item, p, n);
		item[n] = '\0';
		if (mt_parse_u64(item, min, max, &out[count]) < 0)
			return -1;
		count++;
		if (!comma)
			break;
		p = comma + 1;
	}
	return (int)count;
}

const char *mt_fmt_mem(char *buf, size_t len, uint64_t bytes)
{
	if (bytes >= (1ull << 40))
		mt_snprintf(buf, len, "%.1f TB", (double)bytes / (double)(1ull << 40));
	else if (bytes >= (1ull << 30))
		mt_snprintf(buf, len, "%.1f GB", (double)bytes / (double)(1ull << 30));
	else if (bytes >= (1ull << 20))
		mt_snprintf(buf, len, "%llu MB", (unsigned long long)(bytes >> 20));
	else
		mt_snprintf(buf, len, "%llu KB", (unsigned long long)(bytes >> 10));
	return buf;
}

/* One item of a CPU list ("3" or "0-7", len characters at p) into *lo and
 * *hi. Returns 0, or -1 with e. */
static int cpu_item(const char *p, size_t len, int *lo, int *hi, mt_error *e)
{
	char item[32];
	char *dash;
	if (len == 0)
		return mt_fail(e, _("an empty item in the CPU list (two commas, or one at an end)"));
	if (len >= sizeof item)
		return mt_fail(e, _("'%.24s...' is not a CPU number or a range such as 0-3"), p);
	memcpy(item, p, len);
	item[len] = '\0';
	dash = strchr(item, '-');
	if (dash && dash[1] == '\0')
		return mt_fail(e, _("'%s' is a range without its end (such as 0-3)"), item);
	if (dash == item)
		return mt_fail(e, _("'%s' is a range without its start (such as 0-3)"), item);
	if (dash)
		*dash = '\0';
	if (mt_parse_int(item, 0, MT_CPU_LIST_MAX - 1, lo) < 0 ||
	    (dash && mt_parse_int(dash + 1, 0, MT_CPU_LIST_MAX - 1, hi) < 0)) {
		if (dash)
			*dash = '-';
		return mt_fail(e, _("'%s' is not a CPU number or a range such as 0-3"), item);
	}
	if (!dash)
		*hi = *lo;
	if (*hi < *lo)
		return mt_fail(e, _("the range %d-%d runs backwards"), *lo, *hi);
	return 0;
}

int mt_parse_cpu_list(const char *s, int *cpus, int cap, mt_error *e)
{
	unsigned char *seen;
	size_t len;
	int n = 0, rc = -1;
	if (!s || !*s || strcmp(s, "\n") == 0)
		return mt_fail(e, _("an empty CPU list"));
	len = strlen(s);
	if (s[len - 1] == '\n')
		len--;
	seen = calloc(MT_CPU_LIST_MAX / 8, 1);
	if (!seen)
		return mt_fail(e, _("out of memory"));
	for (const char *p = s; p <= s + len;) {
		const char *comma = memchr(p, ',', (size_t)(s + len - p));
		size_t l = comma ? (size_t)(comma - p) : (size_t)(s + len - p);
		int lo, hi;
		if (cpu_item(p, l, &lo, &hi, e) < 0)
			goto out;
		for (int c = lo; c <= hi; c++) {
			if (seen[c / 8] & (1u << (c % 8))) {
				mt_fail(e, _("CPU %d is given twice"), c);
				goto out;
			}
			if (n >= cap) {
				mt_fail(e, _("more than %d CPUs"), cap);
				goto out;
			}
			seen[c / 8] |= (unsigned char)(1u << (c % 8));
			cpus[n++] = c;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	rc = n;
out:
	free(seen);
	return rc;
}

const char *mt_plural(const char *one, const char *many, unsigned long long n)
{
	return n == 1 ? one : many;
}

const char *mt_fmt_size(char *buf, size_t len, uint64_t bytes)
{
	static const char units[] = "KMGT";
	int u = -1;
	uint64_t v = bytes;
	while (v >= 1024 && v % 1024 == 0 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0) {
		if (bytes >= 1024)
			mt_snprintf(buf, len, "%.1fK", (double)bytes / 1024.0);
		else
			mt_snprintf(buf, len, "%lluB", (unsigned long long)bytes);
	} else {
		mt_snprintf(buf, len, "%llu%c", (unsigned long long)v, units[u]);
	}
	return buf;
}

char *mt_read_file(const char *path, size_t max, size_t *len_out, mt_error *e)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	char *buf = NULL;
	size_t cap = 0, len = 0;
	if (!f) {
		mt_fail(e, "%s: %s", path, strerror(errno));
		return NULL;
	}
	/* a file known to be too big is refused before a byte is read */
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
		mt_fail(e, _("%s: larger than %zu bytes"), path, max);
		goto fail;
	}
	for (;;) { /* the buffer never grows past max + 2: bounded for pipes too */
		size_t got;
		if (len + 1 >= cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			char *nb;
			if (cap >= max + 2) {
				mt_fail(e, _("%s: larger than %zu bytes"), path, max);
				goto fail;
			}
			if (ncap > max + 2)
				ncap = max + 2;
			nb = realloc(buf, ncap);
			if (!nb) {
				mt_fail(e, _("%s: out of memory"), path);
				goto fail;
			}
			buf = nb;
			cap = ncap;
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		mt_fail(e, _("%s: read error: %s"), path, strerror(errno));
		goto fail;
	}
	if (len > max) {
		mt_fail(e, _("%s: larger than %zu bytes"), path, max);
		goto fail;
	}
	fclose(f);
	buf[len] = '\0';
	if (len_out)
		*len_out = len;
	return buf;
fail:
	fclose(f);
	free(buf);
	return NULL;
}

int mt_write_atomic(const char *path, const char *data, size_t len, mt_error *e)
{
	char tmp[4096];
	int fd;
	size_t off = 0;
	struct stat st;
	/* never a file renamed over /dev/null, a FIFO or a socket */
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return mt_fail(e, _("%s: not a regular file (a device, FIFO, socket or folder): not "
				  "replaced"), path);
	if (mt_snprintf(tmp, sizeof tmp, "%s" MT_WRITE_TMP_SUFFIX "XXXXXX", path) < 0)
		return mt_fail(e, _("%s: path too long"), path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return mt_fail(e, _("%s: cannot create a temporary file beside it: %s"),
			       path, strerror(errno));
	while (off < len) {
		ssize_t w = write(fd, data + off, len - off);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			mt_fail(e, _("%s: write failed: %s"), path, strerror(errno));
			goto fail;
		}
		off += (size_t)w;
	}
	if (fsync(fd) < 0 && errno != EINVAL) {
		mt_fail(e, _("%s: fsync failed: %s"), path, strerror(errno));
		goto fail;
	}
	/* mkstemp makes 0600; results are ordinary files. */
	if (fchmod(fd, 0644) < 0) {
		mt_fail(e, _("%s: chmod failed: %s"), path, strerror(errno));
		goto fail;
	}
	if (close(fd) < 0) {
		fd = -1;
		mt_fail(e, _("%s: close failed: %s"), path, strerror(errno));
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) < 0) {
		mt_fail(e, _("%s: rename failed: %s"), path, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return -1;
}

/* One part of mt_mkdir_p: the folder part (a prefix of whole), made when
 * missing. Returns 0, or -1 with e. */
static int mkdir_part(const char *whole, const char *part, mt_error *e)
{
	struct stat st;
	if (stat(part, &st) < 0) {
		if (errno != ENOENT)
			return mt_fail(e, "%s: %s: %s", whole, part, strerror(errno));
		if (mkdir(part, 0777) < 0 && errno != EEXIST)
			return mt_fail(e, _("%s: cannot create %s: %s"),
				       whole, part, strerror(errno));
		if (stat(part, &st) < 0)
			return mt_fail(e, "%s: %s: %s", whole, part, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode))
		return mt_fail(e, _("%s: %s is not a folder"), whole, part);
	return 0;
}

int mt_mkdir_p(const char *dir, mt_error *e)
{
	char part[MT_PATH_MAX];
	size_t n = strlen(dir);
	if (n == 0)
		return mt_fail(e, _("an empty folder name"));
	if (mt_strlcpy(part, dir, sizeof part) < 0)
		return mt_fail(e, _("%.60s...: path too long"), dir);
	for (size_t i = 1; i <= n; i++) {
		if (i < n && (part[i] != '/' || part[i - 1] == '/'))
			continue; /* a part ends at a '/' (not the second of "//") or at the end */
		part[i] = '\0';
		if (mkdir_part(dir, part, e) < 0)
			return -1;
		part[i] = dir[i];
	}
	if (access(dir, W_OK | X_OK) < 0)
		return mt_fail(e, "%s: %s", dir, strerror(errno));
	return 0;
}

/* The length (2..4) of the well-formed UTF-8 sequence at s, and its code
 * point in *cp; 0 when s does not start one (RFC 3629's table). */
static size_t utf8_seq(const unsigned char *s, uint32_t *cp)
{
	size_t n;
	uint32_t c;
	unsigned char lo = 0x80, hi = 0xbf;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		c = s[0] & 0x0f;
		if (s[0] == 0xe0)
			lo = 0xa0; /* no overlong forms */
		else if (s[0] == 0xed)
			hi = 0x9f; /* no surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07;
		if (s[0] == 0xf0)
			lo = 0x90;
		else if (s[0] == 0xf4)
			hi = 0x8f; /* nothing beyond U+10FFFF */
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		unsigned char b = s[i];
		if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xbf))
			return 0; /* also stops at the terminating NUL */
		c = c << 6 | (b & 0x3f);
	}
	*cp = c;
	return n;
}

/* Code points a terminal acts on or that reorder the text around them. */
static int unsafe_code_point(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

const char *mt_printable(char *dst, size_t len, const char *src, unsigned flags)
{
	static const char more[] = "...";
	const unsigned char *s = (const unsigned char *)(src ? src : "");
	size_t n = 0, mark = 0; /* mark: the last cut where "..." and the NUL still fit */
	if (len == 0)
		return dst;
	while (*s) {
		uint32_t cp = 0;
		size_t k = *s < 0x80 ? 1 : utf8_seq(s, &cp);
		int bad = k == 0 || (k == 1 && (*s < 0x20 || *s == 0x7f)) ||
			  (k > 1 && ((flags & MT_PRINT_ASCII) || unsafe_code_point(cp)));
		size_t w = bad ? 1 : k; /* bytes it takes in dst */
		if (n + sizeof more <= len)
			mark = n;
		if (n + w + 1 > len) { /* the rest does not fit: cut at mark, then "..." */
			size_t m = len - 1 - mark < sizeof more - 1 ? len - 1 - mark : sizeof more - 1;
			memcpy(dst + mark, more, m);
			dst[mark + m] = '\0';
			return dst;
		}
		if (bad)
			dst[n] = '?';
		else
			memcpy(dst + n, s, w);
		n += w;
		s += k ? k : 1;
	}
	dst[n] = '\0';
	return dst;
}

const char *mt_basename(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

void mt_now_text(char *buf, size_t len, int date_only)
{
	time_t t = time(NULL);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(buf, len, date_only ? "%Y-%m-%d" : "%Y-%m-%d %H:%M", &tm);
}

void mt_hostname(char *buf, size_t len)
{
	if (gethostname(buf, len) < 0 || !buf[0])
		mt_strlcpy(buf, "localhost", len);
	buf[len - 1] = '\0';
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double mt_median(const double *v, size_t n)
{
	double tmp[4096];
	if (n == 0 || n > MT_ARRAY_LEN(tmp))
		return NAN;
	memcpy(tmp, v, n * sizeof *v);
	qsort(tmp, n, sizeof *tmp, cmp_double);
	return n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
}

int mt_term_columns(FILE *f)
{
	struct winsize ws;
	int fd = f ? fileno(f) : -1;
	if (fd < 0 || !isatty(fd) || ioctl(fd, TIOCGWINSZ, &ws) < 0 || ws.ws_col == 0)
		return 0;
	return ws.ws_col;
}
