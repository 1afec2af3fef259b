/* i18n: text for people in their language. The messages (GNU gettext: _(),
 * N_(), MT_NGETTEXT), the numbers (the user's decimal separator, only in text
 * meant for people: the h-formatters) and the widths (columns on a terminal,
 * never bytes). What machines read never passes through here: JSON, CSV,
 * --plan --json, file names, option names and keys are the same bytes in
 * every locale, because LC_NUMERIC stays "C" in the whole process
 * (HACKING.md, "Messages, numbers and widths in the user's language"). */
#ifndef MEMTOP_I18N_H
#define MEMTOP_I18N_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef ENABLE_NLS
#include <libintl.h>
/* A message for people, translated where it is printed: printf(_("...")). */
#define _(msg) gettext(msg)
/* A count's message: MT_NGETTEXT("%d pair", "%d pairs", n) (Russian has
 * three forms: 1 пара, 2 пары, 5 пар; the catalogue's Plural-Forms picks). */
#define MT_NGETTEXT(one, many, n) ngettext(one, many, (unsigned long)(n))
#else
#define _(msg) (msg)
#define MT_NGETTEXT(one, many, n) ((n) == 1 ? (one) : (many))
#endif
/* A message kept in a table (a help row, a name): marked for the catalogue
 * here, translated with _() where it is printed. */
#define N_(msg) msg

/* A count's message kept in a table: a row's NN_("%d core", "%d cores"),
 * marked for the catalogue with its plural (po/Makevars), said with
 * mt_counted. */
struct mt_plural {
	const char *one, *many;
};
#define NN_(one, many) { (one), (many) }

/* p's form for n in the user's language, its one %d filled with n, into
 * buf: "4 ядра". Returns 0, or -1 when cut. */
int mt_counted(char *buf, size_t len, const struct mt_plural *p, int n);

/* A message whose translation depends on where it stands: the same English
 * word in a tab's narrow cell and in a table's head ("misses": «промах» in
 * the Transpose tab's 6 columns, «промахи» in run algae's), or meaning two
 * things ("kernel": the OS's in the report, the measuring one in the
 * Bandwidth tab). ctx, a literal, names the place ("tab"); the catalogue
 * keeps it as the message's msgctxt (xgettext: --keyword=C_:1c,2). */
#ifdef ENABLE_NLS
#define C_(ctx, msg) mt_pgettext(ctx "\004" msg, msg)
#else
#define C_(ctx, msg) (msg)
#endif

/* The translation of key (CONTEXT "\004" MSG, C_'s), or msg where the
 * catalogue has none. */
const char *mt_pgettext(const char *key, const char *msg) __attribute__((format_arg(2)));

/* A sentence kept in English where it was made (a result file keeps it: a
 * source's why, a doubt, a plan's note), in the user's language where it is
 * printed, into out (cut at a character's start). From each clause on ("a;
 * b"): the longest run of clauses that is one message of the catalogue
 * (marked N_() where it was made; "a; b" may be one sentence); else the
 * clause as one of forms (NULL-terminated messages marked N_() with up to
 * ten %s, %d, %ld, %u, %lu, %llu, %zu or %.Nf, of the same kinds in the
 * same order in their translation) filled in: the form's translation with
 * the same words and counts, a %.Nf's figure with the user's decimal
 * separator, each %s's words themselves translated this way (two levels
 * deep: a %s in a %s); a form with a "; " of its own, or one that ends in
 * its %s, tries first to take the clauses after it too ("doubts it: a;
 * b"); else the clause as it is. Returns out. */
const char *mt_gettext_stored(char *out, size_t len, const char *text,
			      const char *const forms[]);

/* A string cut at a byte limit made whole again: a UTF-8 character the cut
 * left incomplete at the end of s is dropped (a Russian word cut by a
 * buffer keeps its whole letters; util's mt_snprintf, mt_append and
 * mt_strlcpy and the h-formatters call it when they cut). */
void mt_utf8_trim(char *s);

/* Set the program's locale once, before any thread starts (memtop's main):
 * every category from the environment (LC_ALL, LC_*, LANG), then LC_NUMERIC
 * back to "C", so that printf, strtod and cJSON read and write '.' whatever
 * the user's locale; the user's own numeric locale is kept aside for the
 * h-formatters below. Binds the message domain to localedir (a folder
 * holding LANG/LC_MESSAGES/memtop.mo; NULL keeps the default). Returns 0, or
 * -1 when the environment names a locale this system lacks (then the
 * program runs in "C": English, '.'; nothing else fails). */
int mt_i18n_init(const char *localedir);

/* Messages in English on this thread, from mt_english_begin until
 * mt_english_end(what it returned): _() and MT_NGETTEXT give their msgids
 * (the thread's locale is "C", and gettext ignores LANGUAGE there). For
 * the words one function makes both for people and for a file (a
 * topology's summary: its JSON keeps English). The h-formatters still
 * write the user's decimal separator: such a function uses mt_snprintf for
 * the file's numbers. Without locale objects the messages stay the user's. */
void *mt_english_begin(void);
void mt_english_end(void *old);

/* The decimal separator of the user's numeric locale ("," in ru_RU, "." in
 * C or en_US; "." before mt_i18n_init). Never NULL. */
const char *mt_radix(void);

/* printf for text meant for people: the floating conversions (%f %e %g and
 * their kin) take the user's decimal separator; everything else is printf's
 * (positional arguments included, for translations that reorder them). The
 * same contract as mt_snprintf: returns 0, or -1 when the text was cut. */
int mt_hsnprintf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int mt_vhsnprintf(char *buf, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* The same onto a stream. Returns what vfprintf returns. */
int mt_hfprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* mt_append for people: appends what fmt makes at the end of the string in
 * buf (size len), its floating figures in the user's decimal separator.
 * Returns 0, or -1 when the text was cut (buf stays a string). */
int mt_happend(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A number for people with prec decimals in the user's decimal separator:
 * "3,63" in ru_RU, "3.63" in C. Returns buf. */
const char *mt_hnum(char *buf, size_t len, double v, int prec);

/* Bytes of memory for people, as mt_fmt_mem ("23.5 GB", "512 MB") with the
 * user's decimal separator. Returns buf. */
const char *mt_hfmt_mem(char *buf, size_t len, uint64_t bytes);

/* A size for people as mt_fmt_size writes it for the options ("768M",
 * "16K", "1.5K"): the same in English, the language's units and decimal
 * separator in others ("768 МБ", "1,5 КБ"). Returns buf. */
const char *mt_hfmt_size(char *buf, size_t len, uint64_t bytes);

/* The columns the UTF-8 text s takes on a terminal: 1 for most characters
 * (a Cyrillic letter is 2 bytes and 1 column), 2 for the wide ones (CJK,
 * emoji), 0 for combining marks and controls; a byte that is not well-formed
 * UTF-8 counts 1 (a single-byte charset's letter). The C library's wcwidth
 * where the locale knows the character, as curses measures; memtop's own
 * table where it does not (the "C" locale). s NULL is 0. */
int mt_text_cols(const char *s);

/* The character at s: its length in bytes (0 at the end of s; 1 for a byte
 * that does not start well-formed UTF-8) and, in *cols, its columns. */
size_t mt_text_char(const char *s, int *cols);

/* The columns of the first n bytes of s (n past the end: the whole). */
int mt_text_ncols(const char *s, size_t n);

/* The bytes of the longest start of s that fits in cols columns without
 * cutting a character; *used (may be NULL) gets its columns. */
size_t mt_text_cut(const char *s, int cols, int *used);

/* printf's "%*s" in columns, not bytes: s padded with spaces to |width|
 * columns, on the left for width > 0, on the right for width < 0 (as
 * "%-*s"); a longer s is kept whole. Returns buf (cut, never inside a
 * character, when len is too small). */
const char *mt_text_pad(char *buf, size_t len, const char *s, int width);

#endif
