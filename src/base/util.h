/* util: errors, number and size parsing, formatting, file I/O helpers.
 * Everything here is curses-free and thread-safe unless said otherwise. */
#ifndef MEMTOP_UTIL_H
#define MEMTOP_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>


/* The longest path memtop keeps whole (a file's source, a trace's name):
 * Linux's PATH_MAX, so no checkout or lab share is too deep. */
#define MT_PATH_MAX 4096

/* Exit codes of every command. */
enum { MT_EXIT_OK = 0, MT_EXIT_RUNTIME = 1, MT_EXIT_USAGE = 2 };

/* An error message carried from where it happened to whoever prints it. */
typedef struct mt_error {
	char msg[2048]; /* two paths of a deep checkout fit */
} mt_error;

#define MT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define MT_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
/* A macro's value as a string literal: MT_XSTR(32) is "32" (for help texts). */
#define MT_STR(x) #x
#define MT_XSTR(x) MT_STR(x)

/* Set e->msg from a printf format (e may be NULL). Always returns -1, so
 * `return mt_fail(err, "...")` reads as the failure it is. */
int mt_fail(mt_error *e, const char *fmt, ...) MT_PRINTF(2, 3);

/* Print "memtop: MESSAGE" on stderr, made printable (mt_printable); text
 * for people, so its numbers take the user's decimal separator
 * (mt_vhsnprintf, base/i18n.h). */
void mt_warn(const char *fmt, ...) MT_PRINTF(1, 2);

/* Bounded formatting into buf: never overflows, always terminates; a cut
 * text ends at a character's end (mt_utf8_trim). Returns 0, or -1 when the
 * text was cut. */
int mt_snprintf(char *buf, size_t len, const char *fmt, ...) MT_PRINTF(3, 4);

/* Append formatted text at the end of the string in buf (same contract). */
int mt_append(char *buf, size_t len, const char *fmt, ...) MT_PRINTF(3, 4);

/* Copy src into dst (size len), cutting if needed (at a character's end).
 * Returns -1 when cut. */
int mt_strlcpy(char *dst, const char *src, size_t len);

/* Parse a whole decimal unsigned integer in [min, max]. Returns 0 or -1 (empty,
 * junk after the digits, sign, out of range). */
int mt_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Same for int. */
int mt_parse_int(const char *s, int min, int max, int *out);

/* Parse a finite double. Returns 0 or -1. */
int mt_parse_double(const char *s, double *out);

/* Parse a byte size: "4096", "16K", "16KB", "128M", "1G" (powers of 1024,
 * case-insensitive, optional "B"/"iB"). Returns 0 or -1. */
int mt_parse_size(const char *s, uint64_t *out);

/* Parse "A:B" of two sizes (either side may be empty to keep the default). */
int mt_parse_size_range(const char *s, uint64_t *lo, uint64_t *hi);

/* Parse a comma-separated list of unsigned integers in [min, max] into out
 * (at most cap values). Returns the count, or -1. */
int mt_parse_u64_list(const char *s, uint64_t min, uint64_t max, uint64_t *out, size_t cap);

/* The one CPU-list grammar of memtop, the kernel's ("0-3,8,10-11", as
 * /sys/devices/system/cpu/online writes it; one trailing newline allowed):
 * numbers and ascending ranges separated by commas. The CPUs go into cpus in
 * the order given (a range low to high), at most cap of them, each below
 * MT_CPU_LIST_MAX. Returns the count (at least 1), or -1 with e naming the
 * bad part: "an empty CPU list", "'0-' is a range without its end (such as
 * 0-3)", "'x' is not a CPU number or a range such as 0-3", "the range 5-3
 * runs backwards", "CPU 3 is given twice", "more than CAP CPUs". */
int mt_parse_cpu_list(const char *s, int *cpus, int cap, mt_error *e);
#define MT_CPU_LIST_MAX 65536

/* The form of a phrase with a count for n, ngettext's shape (one and many
 * are printf formats taking the count and the same arguments after it):
 * "%zu size" for 1, "%zu sizes" otherwise. The one way memtop writes "N
 * thing(s)", so that a translation swaps ngettext in here and gets its
 * languages' plural forms. Never NULL. */
const char *mt_plural(const char *one, const char *many, unsigned long long n)
	__attribute__((format_arg(1))) __attribute__((format_arg(2)));

/* Format bytes the way the seed labels rows: "16K", "128M", "1G"; exact
 * multiples use the biggest unit, others fall back to K with decimals. */
const char *mt_fmt_size(char *buf, size_t len, uint64_t bytes);

/* Format bytes of memory the way people say it: "23.5 GB", "512 MB",
 * "64 KB" (binary units, one decimal from GB up). Returns buf. */
const char *mt_fmt_mem(char *buf, size_t len, uint64_t bytes);

/* Read a whole file (at most max bytes) into a NUL-terminated malloc'd buffer.
 * Returns NULL with e set ("PATH: reason") on failure. */
char *mt_read_file(const char *path, size_t max, size_t *len_out, mt_error *e);

/* Write data to path atomically: temp file in the same folder (PATH
 * MT_WRITE_TMP_SUFFIX and six random characters), fsync, rename.
 * Never leaves a half-written or clobbered file, and never replaces what is
 * not a regular file (a --json /dev/null once put an empty file in place
 * of /dev/null, as root). Returns 0 or -1 with e set. */
#define MT_WRITE_TMP_SUFFIX ".tmp."
int mt_write_atomic(const char *path, const char *data, size_t len, mt_error *e);

/* The width of the terminal f writes to, in columns; 0 when f is not a
 * terminal (a file, a pipe: whoever reads it wants the wide form). */
int mt_term_columns(FILE *f);

/* Make the folder dir and every missing folder above it, as mkdir -p does
 * (mode 0777 less the umask), then check that this process can write into
 * it. Returns 0, or -1 with e naming dir, the part that stopped it and why:
 * "a/f/b: a/f is not a folder", "/x/y: cannot create /x: Permission denied". */
int mt_mkdir_p(const char *dir, mt_error *e);

/* mt_printable flags. */
enum { MT_PRINT_ASCII = 1 }; /* the terminal is not UTF-8: non-ASCII becomes '?' too */

/* The size of the buffer MT_PRINTABLE() gives each string. */
#define MT_PRINTABLE_MAX 512

/* Make text that came from a file (or any outside source) safe to show on a
 * terminal, the one gate every such string passes on its way to stdout,
 * stderr or curses: copy src into dst (size len) with '?' for every byte
 * that could act on the terminal or is not text: C0 controls (ESC, BEL, CR,
 * LF, TAB, ...), DEL, the C1 controls U+0080..U+009F, the bidirectional
 * overrides and isolates (U+202A..U+202E, U+2066..U+2069), and every byte
 * that is not part of well-formed UTF-8 (stray continuation bytes, cut,
 * overlong or surrogate sequences, beyond U+10FFFF). With MT_PRINT_ASCII
 * every non-ASCII character becomes '?' as well. Text that does not fit
 * ends in "..." (never a cut UTF-8 sequence). src NULL gives "". Returns
 * dst (len 0 is allowed: then dst is returned untouched). Never fails. */
const char *mt_printable(char *dst, size_t len, const char *src, unsigned flags);

/* mt_printable into a fresh buffer of MT_PRINTABLE_MAX bytes that lives
 * until the end of the enclosing block: printf("%s", MT_PRINTABLE(s)). */
#define MT_PRINTABLE(s) mt_printable((char[MT_PRINTABLE_MAX]){ 0 }, MT_PRINTABLE_MAX, (s), 0)

/* The last component of path ("a/b/m.json" -> "m.json"; "m.json" as is). */
const char *mt_basename(const char *path);

/* Local date-time as "YYYY-MM-DD HH:MM" (or the ISO date only if date_only). */
void mt_now_text(char *buf, size_t len, int date_only);


/* The host name, or "localhost". */
void mt_hostname(char *buf, size_t len);

/* Median of n doubles (copies; n <= 4096). NaN when n == 0. */
double mt_median(const double *v, size_t n);

#endif
