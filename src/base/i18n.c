/* i18n: see i18n.h for the contracts. */
#include "config.h"

#include "i18n.h"
#include "util.h" /* MT_ARRAY_LEN (a macro: i18n calls no function of util) */

#include <locale.h>
#include <stdint.h>
#include <string.h>
#include <wchar.h>
#ifdef HAVE_XLOCALE_H
#include <xlocale.h>
#endif

#if defined(HAVE_DUPLOCALE) && defined(HAVE_USELOCALE)
#define MT_LOCALE_OBJECTS 1
/* The user's locale with their own LC_NUMERIC (the process keeps "C"):
 * made once by mt_i18n_init before any thread, only read after. */
static locale_t human;
/* "C" for messages: mt_english_begin's (made by mt_i18n_init too). */
static locale_t english;
#else
#define MT_LOCALE_OBJECTS 0
#endif
static char radix[8] = ".";

/* The locale setlocale(LC_ALL, "") just set, the user's (their LC_NUMERIC
 * with it), copied into `human`, and its decimal separator into radix:
 * before LC_NUMERIC goes back to "C". (A copy, not newlocale(..., ""):
 * glibc's newlocale leaks the LOCPATH list it parses.) */
static void keep_human_numbers(void)
{
#if MT_LOCALE_OBJECTS
	locale_t loc = duplocale(LC_GLOBAL_LOCALE), old;
	const char *dp;
	if (!loc)
		return;
	old = uselocale(loc);
	dp = localeconv()->decimal_point;
	if (dp && dp[0] && strlen(dp) < sizeof radix)
		memcpy(radix, dp, strlen(dp) + 1);
	uselocale(old);
	human = loc;
#endif
}

int mt_i18n_init(const char *localedir)
{
	int rc = setlocale(LC_ALL, "") ? 0 : -1;
	keep_human_numbers();
	/* what files and programs read is written with '.', in every locale */
	setlocale(LC_NUMERIC, "C");
#if MT_LOCALE_OBJECTS
	if (!english)
		english = newlocale(LC_ALL_MASK, "C", (locale_t)0);
#endif
#ifdef ENABLE_NLS
	if (localedir)
		bindtextdomain(PACKAGE, localedir);
	textdomain(PACKAGE);
#else
	(void)localedir;
#endif
	return rc;
}

void *mt_english_begin(void)
{
#if MT_LOCALE_OBJECTS
	if (english)
		return (void *)uselocale(english);
#endif
	return NULL;
}

void mt_english_end(void *old)
{
#if MT_LOCALE_OBJECTS
	if (old)
		uselocale((locale_t)old);
#else
	(void)old;
#endif
}

const char *mt_pgettext(const char *key, const char *msg)
{
#ifdef ENABLE_NLS
	const char *t = gettext(key);
	return t == key ? msg : t;
#else
	(void)key;
	return msg;
#endif
}

void mt_utf8_trim(char *s)
{
	size_t n = strlen(s), i = n, need;
	unsigned char c;
	while (i > 0 && n - i < 4 && ((unsigned char)s[i - 1] & 0xC0) == 0x80)
		i--;
	if (i == 0)
		return;
	c = (unsigned char)s[i - 1];
	need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
	if (c >= 0xC0 && n - (i - 1) < need)
		s[i - 1] = '\0';
}

/* n bytes of s onto the string out (of len bytes), cut at a character's
 * start when they do not fit (util's mt_append calls into this file). */
static void add(char *out, size_t len, const char *s, size_t n)
{
	size_t have = strlen(out);
	if (have + 1 >= len)
		return;
	if (n > len - have - 1) {
		n = len - have - 1;
		while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	memcpy(out + have, s, n);
	out[have + n] = '\0';
}

#define FORM_MAX_ARGS 10
#define STORED_DEPTH 2 /* a %s's words translated in a %s's words, no deeper */

/* form's conversions (%s: a stored sentence's words; %d, %ld, %u, %lu,
 * %llu, %zu: counts; %.Nf: a figure) into at[] (where each stands), len[]
 * (its length) and kind[] ('s', 'd', 'u' or 'f'); their count, or -1 when
 * form has another one, a positional one or more than FORM_MAX_ARGS. */
static int conversions(const char *form, const char *at[], int len[], char kind[])
{
	static const struct {
		const char *spec;
		char kind;
	} known[] = { { "%s", 's' },   { "%d", 'd' },	{ "%ld", 'd' }, { "%u", 'u' },
		      { "%lu", 'u' },  { "%llu", 'u' }, { "%zu", 'u' } };
	int k = 0;
	for (const char *p = strchr(form, '%'); p; p = strchr(p, '%')) {
		size_t i;
		if (p[1] == '%') { /* a '%' printed */
			p += 2;
			continue;
		}
		if (k == FORM_MAX_ARGS)
			return -1;
		for (i = 0; i < sizeof known / sizeof known[0]; i++)
			if (strncmp(p, known[i].spec, strlen(known[i].spec)) == 0)
				break;
		at[k] = p;
		if (i < sizeof known / sizeof known[0]) {
			len[k] = (int)strlen(known[i].spec);
			kind[k] = known[i].kind;
		} else if (p[1] == '.' && p[2] >= '0' && p[2] <= '9' && p[3] == 'f') {
			len[k] = 4;
			kind[k] = 'f';
		} else {
			return -1;
		}
		p += len[k++];
	}
	return k;
}

/* [s, e) is a count (digits, a sign for 'd') or a figure ('f': digits, a
 * sign, one '.' among them: as the C locale printed it) */
static int is_count(const char *s, const char *e, char kind)
{
	int dots = 0;
	if ((kind == 'd' || kind == 'f') && s < e && *s == '-')
		s++;
	if (s == e || *s < '0' || *s > '9' || e[-1] < '0' || e[-1] > '9')
		return 0;
	for (; s < e; s++)
		if (kind == 'f' && *s == '.' && !dots)
			dots++;
		else if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

static const char *stored(char *out, size_t len, const char *text, const char *const forms[],
			  int depth);

/* The printf literal [s, s + n) as it prints ("%%" a '%') into buf (of
 * FORM_LIT bytes); its length, or -1 when it does not fit. */
#define FORM_LIT 256
static int literal(char *buf, const char *s, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k + 1 >= FORM_LIT)
			return -1;
		buf[k++] = s[i];
		if (s[i] == '%' && i + 1 < n && s[i + 1] == '%')
			i++;
	}
	buf[k] = '\0';
	return (int)k;
}

/* Clause [s, s + n) as form filled in: its words in the user's language
 * appended to out (each %s's words translated too, under STORED_DEPTH), 0
 * when it is not that form or the form has no translation. A literal
 * between two conversions ends the first at its first occurrence; with
 * last (not NULL), the last conversion must start before it (only the last
 * %s reaches into the clauses after the first). */
static int fill_form(char *out, size_t len, const char *s, size_t n, const char *form,
		     const char *const forms[], int depth, const char *last)
{
	const char *fa[FORM_MAX_ARGS], *ta[FORM_MAX_ARGS], *a0[FORM_MAX_ARGS], *a1[FORM_MAX_ARGS];
	const char *t = _(form), *end = s + n, *pos;
	char fk[FORM_MAX_ARGS], tk[FORM_MAX_ARGS], lit[FORM_LIT];
	int fl[FORM_MAX_ARGS], tl[FORM_MAX_ARGS];
	int k = conversions(form, fa, fl, fk), ln;
	if (t == form || k < 1 || conversions(t, ta, tl, tk) != k || memcmp(fk, tk, (size_t)k) != 0)
		return 0;
	ln = literal(lit, form, (size_t)(fa[0] - form));
	if (ln < 0 || (size_t)ln > n || strncmp(s, lit, (size_t)ln) != 0)
		return 0;
	pos = s + ln;
	for (int i = 0; i < k; i++) {
		const char *f = fa[i] + fl[i], *next = i + 1 < k ? fa[i + 1] : f + strlen(f);
		size_t m;
		a0[i] = a1[i] = NULL;
		if ((ln = literal(lit, f, (size_t)(next - f))) < 0)
			return 0;
		m = (size_t)ln;
		if (i + 1 < k) {
			if (!m)
				return 0; /* two conversions side by side: no telling apart */
			for (const char *q = pos + 1; q + m <= end && !a1[i]; q++)
				if (memcmp(q, lit, m) == 0)
					a1[i] = q;
		} else if ((size_t)(end - pos) > m && memcmp(end - m, lit, m) == 0) {
			a1[i] = end - m;
		}
		if (!a1[i] || (fk[i] != 's' && !is_count(pos, a1[i], fk[i])))
			return 0;
		a0[i] = pos;
		pos = a1[i] + m;
	}
	if (last && a0[k - 1] >= last)
		return 0;
	if ((ln = literal(lit, t, (size_t)(ta[0] - t))) < 0)
		return 0;
	add(out, len, lit, (size_t)ln);
	for (int i = 0; i < k; i++) {
		const char *tx = ta[i] + tl[i], *tn = i + 1 < k ? ta[i + 1] : tx + strlen(tx);
		char arg[512], words[768];
		size_t an = (size_t)(a1[i] - a0[i]);
		if (fk[i] == 's' && depth < STORED_DEPTH && an < sizeof arg) {
			memcpy(arg, a0[i], an);
			arg[an] = '\0';
			stored(words, sizeof words, arg, forms, depth + 1);
			add(out, len, words, strlen(words));
		} else if (fk[i] == 'f') { /* the figure with the user's decimal separator */
			const char *dot = memchr(a0[i], '.', an);
			size_t head = dot ? (size_t)(dot - a0[i]) : an;
			add(out, len, a0[i], head);
			if (dot) {
				add(out, len, radix, strlen(radix));
				add(out, len, dot + 1, an - head - 1);
			}
		} else {
			add(out, len, a0[i], an);
		}
		ln = literal(lit, tx, (size_t)(tn - tx));
		add(out, len, lit, ln < 0 ? 0 : (size_t)ln);
	}
	return 1;
}

/* Whether form ends in a %s (not a "%%s") */
static int ends_in_s(const char *form)
{
	size_t n = strlen(form), pct = 0;
	if (n < 2 || strcmp(form + n - 2, "%s") != 0)
		return 0;
	for (size_t i = n - 1; i > 0 && form[i - 1] == '%'; i--)
		pct++;
	return pct % 2 == 1;
}

/* The end of the clause before e in [s, e): the last "; " before e, else s. */
static const char *clause_before(const char *s, const char *e)
{
	for (const char *p = e - 1; p > s; p--)
		if (p[0] == ';' && p[1] == ' ' && p + 1 < e)
			return p;
	return s;
}

/* Clauses [s, e) translated as one message: 1 and appended to out when the
 * catalogue has them. */
static int add_message(char *out, size_t len, const char *s, const char *e)
{
	char msg[512];
	const char *t;
	if ((size_t)(e - s) >= sizeof msg)
		return 0;
	memcpy(msg, s, (size_t)(e - s));
	msg[e - s] = '\0';
	t = _(msg);
	if (t == msg || strcmp(t, msg) == 0)
		return 0;
	add(out, len, t, strlen(t));
	return 1;
}

static const char *stored(char *out, size_t len, const char *text, const char *const forms[],
			  int depth)
{
	out[0] = '\0';
	for (const char *s = text; s;) {
		/* the longest run of clauses from s that is one message ("a; b"
		 * may be one sentence), else s's clause alone, filled in or kept */
		const char *end = NULL, *next = NULL;
		for (const char *e = s + strlen(s); !end; e = clause_before(s, e)) {
			if (e == s)
				break;
			if (add_message(out, len, s, e))
				end = e;
		}
		if (!end) {
			const char *c = strstr(s, "; ");
			size_t n = c ? (size_t)(c - s) : strlen(s), all = strlen(s);
			int done = 0;
			/* a form with a "; " of its own takes as many clauses as
			 * fit it ("(fresh memory settling in; on a VM ...)") */
			for (const char *e = s + all; c && !done && e > c; e = clause_before(s, e))
				for (int i = 0; forms && forms[i] && !done; i++)
					if (strstr(forms[i], "; ") &&
					    fill_form(out, len, s, (size_t)(e - s), forms[i], forms, depth,
						      NULL))
						done = 1, n = (size_t)(e - s);
			/* a form that ends in its %s first takes the clauses after
			 * it too ("memtop info doubts it: a; b" is one sentence) */
			for (int i = 0; c && depth < STORED_DEPTH && forms && forms[i] && !done; i++)
				if (ends_in_s(forms[i]) &&
				    fill_form(out, len, s, all, forms[i], forms, depth, c))
					done = 1, n = all;
			for (int i = 0; forms && forms[i] && !done; i++)
				done = fill_form(out, len, s, n, forms[i], forms, depth, NULL);
			if (!done)
				add(out, len, s, n);
			end = s + n;
		}
		next = strncmp(end, "; ", 2) == 0 ? end + 2 : NULL;
		if (next)
			add(out, len, "; ", 2);
		s = next;
	}
	return out;
}

const char *mt_gettext_stored(char *out, size_t len, const char *text, const char *const forms[])
{
	return stored(out, len, text, forms, 0);
}

int mt_counted(char *buf, size_t len, const struct mt_plural *p, int n)
{
	/* the format is a table's (an NN_ row holds one %d, its contract) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	return mt_hsnprintf(buf, len, MT_NGETTEXT(p->one, p->many, n), n);
#pragma GCC diagnostic pop
}

const char *mt_radix(void)
{
	return radix;
}

int mt_vhsnprintf(char *buf, size_t len, const char *fmt, va_list ap)
{
	int n;
	if (len == 0)
		return -1;
#if MT_LOCALE_OBJECTS
	locale_t old = human ? uselocale(human) : (locale_t)0;
	n = vsnprintf(buf, len, fmt, ap);
	if (human)
		uselocale(old);
#else
	n = vsnprintf(buf, len, fmt, ap);
#endif
	if (n < 0 || (size_t)n >= len) {
		mt_utf8_trim(buf);
		return -1;
	}
	return 0;
}

int mt_hsnprintf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int rc;
	va_start(ap, fmt);
	rc = mt_vhsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return rc;
}

int mt_happend(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strnlen(buf, len); /* len when full: mt_vhsnprintf's -1 */
	va_list ap;
	int rc;
	va_start(ap, fmt);
	rc = mt_vhsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	return rc;
}

int mt_hfprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
#if MT_LOCALE_OBJECTS
	locale_t old = human ? uselocale(human) : (locale_t)0;
	n = vfprintf(f, fmt, ap);
	if (human)
		uselocale(old);
#else
	n = vfprintf(f, fmt, ap);
#endif
	va_end(ap);
	return n;
}

const char *mt_hnum(char *buf, size_t len, double v, int prec)
{
	mt_hsnprintf(buf, len, "%.*f", prec, v);
	return buf;
}

const char *mt_hfmt_mem(char *buf, size_t len, uint64_t bytes)
{
	/* TRANSLATORS: memory sizes in text (binary units, the lessons' КБ/МБ/ГБ) */
	if (bytes >= (1ull << 40))
		mt_hsnprintf(buf, len, _("%.1f TB"), (double)bytes / (double)(1ull << 40));
	else if (bytes >= (1ull << 30))
		mt_hsnprintf(buf, len, _("%.1f GB"), (double)bytes / (double)(1ull << 30));
	else if (bytes >= (1ull << 20))
		mt_hsnprintf(buf, len, _("%llu MB"), (unsigned long long)(bytes >> 20));
	else
		mt_hsnprintf(buf, len, _("%llu KB"), (unsigned long long)(bytes >> 10));
	return buf;
}

const char *mt_hfmt_size(char *buf, size_t len, uint64_t bytes)
{
	int u = -1;
	uint64_t v = bytes;
	while (v >= 1024 && v % 1024 == 0 && u < 3) {
		v /= 1024;
		u++;
	}
	/* TRANSLATORS: a size as the options write it ("768M", "1.5K", "512B"),
	 * in text for people: the lessons' units after a space in Russian */
	if (u < 0 && bytes >= 1024)
		mt_hsnprintf(buf, len, _("%.1fK"), (double)bytes / 1024.0);
	else if (u < 0)
		mt_hsnprintf(buf, len, _("%lluB"), (unsigned long long)bytes);
	else
		mt_hsnprintf(buf, len,
			     u == 0 ? _("%lluK") : u == 1 ? _("%lluM") : u == 2 ? _("%lluG") : _("%lluT"),
			     (unsigned long long)v);
	return buf;
}

/* ---- widths ---- */

/* One UTF-8 character at s (n bytes left, n >= 1): its code point into *cp
 * and its length, or -1 in *cp and 1 for a byte that does not start a
 * well-formed sequence (cut, overlong, a surrogate, past U+10FFFF). */
static size_t utf8_next(const unsigned char *s, size_t n, long *cp)
{
	static const long least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t k = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2
				    : (s[0] & 0xf0) == 0xe0		  ? 3
				    : s[0] >= 0xf0 && s[0] <= 0xf4	  ? 4
									  : 0;
	long c;
	*cp = -1;
	if (k == 0 || k > n)
		return 1;
	c = k == 1 ? s[0] : s[0] & (0x7f >> k);
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 1;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < least[k] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 1;
	*cp = c;
	return k;
}

/* The code points no terminal advances over (combining marks, zero-width
 * spaces and joiners, variation selectors) and those taking two columns
 * (East Asian wide and fullwidth, emoji), for a locale whose wcwidth does
 * not know them. A table is the clearest form. */
static const long zero_width[][2] = {
	{ 0x0300, 0x036f }, { 0x0483, 0x0489 }, { 0x0591, 0x05bd }, { 0x0610, 0x061a },
	{ 0x064b, 0x065f }, { 0x0e31, 0x0e31 }, { 0x0e34, 0x0e3a }, { 0x1ab0, 0x1aff },
	{ 0x1dc0, 0x1dff }, { 0x200b, 0x200f }, { 0x202a, 0x202e }, { 0x2060, 0x2064 },
	{ 0x20d0, 0x20ff }, { 0xfe00, 0xfe0f }, { 0xfe20, 0xfe2f }, { 0xfeff, 0xfeff },
};
static const long double_width[][2] = {
	{ 0x1100, 0x115f },   { 0x2329, 0x232a },   { 0x2e80, 0x303e },	  { 0x3041, 0x33ff },
	{ 0x3400, 0x4dbf },   { 0x4e00, 0x9fff },   { 0xa000, 0xa4cf },	  { 0xac00, 0xd7a3 },
	{ 0xf900, 0xfaff },   { 0xfe10, 0xfe19 },   { 0xfe30, 0xfe6f },	  { 0xff00, 0xff60 },
	{ 0xffe0, 0xffe6 },   { 0x1f300, 0x1f64f }, { 0x1f900, 0x1f9ff }, { 0x20000, 0x2fffd },
	{ 0x30000, 0x3fffd },
};

static int in_table(long c, const long (*t)[2], size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (c >= t[i][0] && c <= t[i][1])
			return 1;
	return 0;
}

/* The columns of code point c (-1: a stray byte, one column). */
static int char_cols(long c)
{
	int w;
	if (c < 0)
		return 1;
	if (c < 0x20 || (c >= 0x7f && c < 0xa0))
		return 0;
	if (c < 0x7f)
		return 1;
	w = wcwidth((wchar_t)c);
	if (w >= 0)
		return w; /* what curses will advance */
	if (in_table(c, zero_width, MT_ARRAY_LEN(zero_width)))
		return 0;
	return in_table(c, double_width, MT_ARRAY_LEN(double_width)) ? 2 : 1;
}

size_t mt_text_char(const char *s, int *cols)
{
	size_t k;
	long c;
	if (!s || !s[0]) {
		*cols = 0;
		return 0;
	}
	k = utf8_next((const unsigned char *)s, strnlen(s, 4), &c);
	*cols = char_cols(c);
	return k;
}

int mt_text_ncols(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, end;
	int cols = 0;
	long c;
	if (!s)
		return 0;
	end = strnlen(s, n);
	while (i < end) {
		i += utf8_next(p + i, end - i, &c);
		cols += char_cols(c);
	}
	return cols;
}

int mt_text_cols(const char *s)
{
	return mt_text_ncols(s, SIZE_MAX);
}

size_t mt_text_cut(const char *s, int cols, int *used)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n = s ? strlen(s) : 0;
	int have = 0;
	long c;
	while (i < n) {
		size_t k = utf8_next(p + i, n - i, &c);
		int w = char_cols(c);
		if (have + w > cols)
			break;
		have += w;
		i += k;
	}
	if (used)
		*used = have;
	return i;
}

/* The bytes of the whole characters of s (n bytes) that fit in room bytes. */
static size_t whole_chars(const char *s, size_t n, size_t room)
{
	size_t i = 0;
	long c;
	while (i < n) {
		size_t k = utf8_next((const unsigned char *)s + i, n - i, &c);
		if (i + k > room)
			break;
		i += k;
	}
	return i;
}

const char *mt_text_pad(char *buf, size_t len, const char *s, int width)
{
	size_t n = strlen(s), pad, at = 0;
	int cols = mt_text_cols(s), want = width < 0 ? -width : width;
	if (len == 0)
		return buf;
	pad = cols < want ? (size_t)(want - cols) : 0;
	if (width > 0)
		for (; pad > 0 && at + 1 < len; pad--)
			buf[at++] = ' ';
	if (at + n >= len) /* cut on a character's start, never inside it */
		n = whole_chars(s, n, len - 1 - at);
	memcpy(buf + at, s, n);
	at += n;
	for (; pad > 0 && at + 1 < len; pad--)
		buf[at++] = ' ';
	buf[at] = '\0';
	return buf;
}
