/* Unit tests of i18n: widths in columns (Cyrillic is 2 bytes a letter and 1
 * column), printf's padding in columns, and numbers for people: the user's
 * decimal separator in the h-formatters only, '.' in everything else, in
 * the Russian locale make check builds (tests/locale.sh, $MEMTOP_LOCPATH);
 * and a sentence a result keeps in English read in Russian through the
 * build's catalogue (mt_gettext_stored). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/i18n.h"
#include "base/util.h"
#include "render/compare_table.h"
#include "testlib.h"

/* The build's catalogues: po/locale beside the memtop make check runs. */
static const char *catalogues(void)
{
	static char dir[MT_PATH_MAX];
	const char *memtop = getenv("MEMTOP");
	const char *slash = memtop ? strrchr(memtop, '/') : NULL;
	if (!slash)
		return "po/locale";
	mt_snprintf(dir, sizeof dir, "%.*s/po/locale", (int)(slash - memtop), memtop);
	return dir;
}

/* The same answers whatever LC_CTYPE says: the C library's wcwidth where
 * the locale knows the character, memtop's table where it does not. */
static void check_widths(void)
{
	assert_int_equal(mt_text_cols("Гора памяти"), 11);
	assert_int_equal(strlen("Гора памяти"), 21);
	assert_int_equal(mt_text_cols("L1 кэш 48 КБ"), 12);
	assert_int_equal(mt_text_cols("обрыв"), 5);
	assert_int_equal(mt_text_cols("е\xcc\x81"), 1);	    /* е and a combining acute: one column */
	assert_int_equal(mt_text_cols("\xe6\xbc\xa2\xe5\xad\x97"), 4); /* two wide CJK characters */
	assert_int_equal(mt_text_cols("a\xffz"), 3);	    /* a stray byte counts one */
	assert_int_equal(mt_text_cols("\xd0"), 1);		    /* a cut sequence too */
	assert_int_equal(mt_text_cols("\xc0\xaf"), 2);	    /* an overlong '/' is two stray bytes */
	assert_int_equal(mt_text_cols(""), 0);
	assert_int_equal(mt_text_cols(NULL), 0);
	assert_int_equal(mt_text_ncols("шаг 8", 4), 2);	    /* "ш" and a cut "а": 1 + 1 */
	assert_int_equal(mt_text_ncols("шаг 8", 6), 3);
	assert_int_equal(mt_text_ncols("шаг 8", 100), 5);
}

static void widths_in_columns(void **state)
{
	(void)state;
	check_widths();
	/* in a UTF-8 locale (C.UTF-8 where the C library has it) the same */
	if (setlocale(LC_CTYPE, "C.UTF-8") || setlocale(LC_CTYPE, "C.utf8"))
		check_widths();
	setlocale(LC_CTYPE, "C");
}

static void cut_whole_characters(void **state)
{
	int used;
	(void)state;
	assert_int_equal(mt_text_cut("Гора памяти", 4, &used), 8); /* "Гора": 8 bytes, 4 columns */
	assert_int_equal(used, 4);
	assert_int_equal(mt_text_cut("Гора памяти", 100, &used), 21);
	assert_int_equal(used, 11);
	assert_int_equal(mt_text_cut("\xe6\xbc\xa2\xe5\xad\x97", 3, &used), 3); /* never half a wide one */
	assert_int_equal(used, 2);
	assert_int_equal(mt_text_cut("кэш", 0, &used), 0);
	assert_int_equal(used, 0);
	assert_int_equal(mt_text_cut("ab", 1, NULL), 1);
}

/* A text a buffer cuts (mt_snprintf, mt_append, mt_strlcpy, the
 * h-formatters) ends at a whole character: "на поток" in 8 bytes is "на п"
 * (7), not "на п" and half an "о". */
static void buffers_cut_whole_characters(void **state)
{
	char b[8];
	(void)state;
	assert_int_equal(mt_snprintf(b, sizeof b, "%s", "на поток"), -1);
	assert_string_equal(b, "на п");
	assert_int_equal(mt_strlcpy(b, "на поток", sizeof b), -1);
	assert_string_equal(b, "на п");
	assert_int_equal(mt_hsnprintf(b, sizeof b, "%s", "на поток"), -1);
	assert_string_equal(b, "на п");
	mt_strlcpy(b, "ab", sizeof b);
	assert_int_equal(mt_append(b, sizeof b, "%s", "кэши"), -1);
	assert_string_equal(b, "abкэ"); /* 6 bytes: "ш" would make 8 */
	mt_strlcpy(b, "\xe6\xbc\xa2" "ab", sizeof b); /* a 3-byte one fits: kept */
	assert_int_equal(mt_append(b, sizeof b, "%s", "\xe5\xad\x97"), -1);
	assert_string_equal(b, "\xe6\xbc\xa2" "ab");
	assert_int_equal(mt_snprintf(b, sizeof b, "%s", "abcdefghij"), -1); /* ASCII as ever */
	assert_string_equal(b, "abcdefg");
}

/* mt_text_char's rows: the text, the bytes of its first character, its columns. */
static const struct {
	const char *text;
	int bytes, cols;
} first_chars[] = {
	{ "шаг", 2, 1 },
	{ "\xe6\xbc\xa2", 3, 2 },
	{ "\xffz", 1, 1 }, /* a stray byte: one byte, one column */
	{ "", 0, 0 },
};

static void one_character(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof first_chars / sizeof *first_chars; i++) {
		int cols;
		assert_int_equal(mt_text_char(first_chars[i].text, &cols), first_chars[i].bytes);
		assert_int_equal(cols, first_chars[i].cols);
	}
}

/* compare's wrapped lines: at most 79 columns of Russian (158 bytes and
 * more), broken between words, the lead padded in columns */
static void compare_wraps_in_columns(void **state)
{
	const char *text = "обрыв между 128 КБ и 256 КБ: падение в 3,54 раза; предвыборка держит "
			   "хребет около 80 ГБ/с через все уровни до 128 МБ, границы кэшей ищут на "
			   "шаге не меньше длины линии";
	char line[512], all[2048] = "";
	int cols[8], n = 0;
	FILE *f = tmpfile();
	(void)state;
	assert_non_null(f);
	cmp_wrapped(f, 3, "А:", text);
	rewind(f);
	while (n < 8 && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		cols[n] = mt_text_cols(line);
		assert_true(cols[n] <= CMP_WIDTH - 1);
		assert_true(line[strlen(line) - 1] != ' ');
		/* the lead padded to 3 columns: "А: " is 4 bytes, "   " 3 */
		assert_memory_equal(line, n ? "   " : "А: ", n ? 3 : 4);
		mt_append(all, sizeof all, "%s%s", n ? " " : "", line + (n ? 3 : 4));
		n++;
	}
	fclose(f);
	assert_int_equal(n, 3);
	assert_true(cols[0] > 70 && cols[1] > 70); /* full lines: columns, not bytes, counted */
	assert_string_equal(all, text); /* every word whole, in order */
}

static void pad_in_columns(void **state)
{
	char b[64], tiny[6];
	(void)state;
	assert_string_equal(mt_text_pad(b, sizeof b, "кэш", -6), "кэш   ");
	assert_int_equal(mt_text_cols(b), 6);
	assert_string_equal(mt_text_pad(b, sizeof b, "кэш", 6), "   кэш");
	assert_string_equal(mt_text_pad(b, sizeof b, "промахи", 3), "промахи"); /* kept whole */
	assert_string_equal(mt_text_pad(b, sizeof b, "L2", -4), "L2  ");
	/* printf's %-6s would have padded "кэш" (6 bytes) with nothing */
	mt_snprintf(b, sizeof b, "%-6s|", "кэш");
	assert_string_equal(b, "кэш|");
	/* a buffer too small: cut on a character's start */
	assert_string_equal(mt_text_pad(tiny, sizeof tiny, "шаг", -8), "ша ");
	assert_string_equal(mt_text_pad(tiny, sizeof tiny, "ab", 8), "     ");
}

/* The C locale (the test's own, before mt_i18n_init): '.' everywhere. */
static void numbers_in_c(void **state)
{
	char b[32];
	(void)state;
	assert_string_equal(mt_radix(), ".");
	assert_string_equal(mt_hnum(b, sizeof b, 3.634, 2), "3.63");
	assert_int_equal(mt_hsnprintf(b, sizeof b, "%.1fG %d", 10.61, 7), 0);
	assert_string_equal(b, "10.6G 7");
	assert_string_equal(mt_hfmt_mem(b, sizeof b, 3ull << 29), "1.5 GB");
	assert_string_equal(mt_hfmt_mem(b, sizeof b, 512ull << 20), "512 MB");
	assert_int_equal(mt_hsnprintf(b, 4, "%s", "longer"), -1);
}

/* ru_RU.UTF-8 from the build's locale folder: the h-formatters take ','
 * and everything else keeps '.': printf, strtod, cJSON, mt_fmt_mem. */
static void numbers_in_russian(void **state)
{
	char b[64];
	cJSON *j;
	char *out;
	(void)state;
	setenv("LOCPATH", getenv("MEMTOP_LOCPATH"), 1);
	setenv("LC_ALL", "ru_RU.UTF-8", 1);
	assert_int_equal(mt_i18n_init(catalogues()), 0);
	assert_string_equal(mt_radix(), ",");
	assert_string_equal(mt_hnum(b, sizeof b, 3.634, 2), "3,63");
	mt_hsnprintf(b, sizeof b, "%.1fG .. %.1fG, %d%%", 10.61, 74.0, 5);
	assert_string_equal(b, "10,6G .. 74,0G, 5%");
	mt_hsnprintf(b, sizeof b, "%2$s %1$.2f", 0.5, "шаг"); /* a translation may reorder */
	assert_string_equal(b, "шаг 0,50");
	/* mt_happend: after what is there, cut at the end of b */
	assert_int_equal(mt_happend(b, sizeof b, ", %.1f", 2.5), 0);
	assert_string_equal(b, "шаг 0,50, 2,5"); /* 16 bytes */
	assert_int_equal(mt_happend(b, 19, "%s", "xyz"), -1);
	assert_string_equal(b, "шаг 0,50, 2,5xy");
	/* (its unit is the catalogue's: "ГБ" with the build's, "GB" without) */
	assert_int_equal(strncmp(mt_hfmt_mem(b, sizeof b, 3ull << 29), "1,5 ", 4), 0);
	/* what machines read */
	mt_snprintf(b, sizeof b, "%.2f", 3.634);
	assert_string_equal(b, "3.63");
	assert_string_equal(mt_fmt_mem(b, sizeof b, 3ull << 29), "1.5 GB");
	assert_true(strtod("1.5", NULL) == 1.5);
	j = cJSON_CreateNumber(1.25);
	out = cJSON_PrintUnformatted(j);
	assert_string_equal(out, "1.25");
	cJSON_free(out);
	cJSON_Delete(j);
	j = cJSON_Parse("[2.5]");
	assert_non_null(j);
	assert_true(cJSON_GetArrayItem(j, 0)->valuedouble == 2.5);
	cJSON_Delete(j);
	/* widths do not move with the locale */
	check_widths();
}

/* A sentence kept in English, in Russian: clause by clause ("; "), each the
 * longest run of clauses that is a message, else a form filled in with the
 * same words (a %s's words translated in turn, two levels deep), else kept.
 * The forms are bandwidth's and machine's (bandwidth_plan.h, machine.h). */
static void stored_in_russian(void **state)
{
	static const char *const forms[] = {
		"L%d %s (%s) left out, memtop info doubts it: %s",
		"%s, cut to %s by --quick: %s, no longer %s",
		"%s, raised to %s",
		"%d x the L%d %s (%s)",
		"%s ns at %s, %s at %s on 2 MB pages (within %s %%): where the curve from %s settles",
		"load ports' canary before the table: load over 4K, %.1f GB/s = %.1f B/cycle at "
		"%.2f GHz (the clock around its try)",
		"loaded latency needs 2 CPUs (a chaser and a loader); %d allowed",
		"%s: %s capped at %s, %s would be %s",
		"%s: the random chase on huge pages left out (two buffers of %s do not fit in half "
		"of the %s a run may take)",
		"sizes capped at %s, %s would be %s",
		"%s of memory available",
		"%.1f GB",
		NULL,
	};
	static const struct {
		const char *stored, *shown;
	} rows[] = {
		/* a message, and a clause that is none, kept */
		{ "each thread", "на поток" },
		{ "words of no message; each thread", "words of no message; на поток" },
		/* a form: its words kept, a %d only where digits are */
		{ "4 x the L3 12M (hwloc)", "4 x L3 12M (hwloc)" },
		{ "4a x the L3 12M (hwloc)", "4a x the L3 12M (hwloc)" },
		/* a form in a form in a form */
		{ "4 x the L3 12M (hwloc), raised to 256M, cut to 16M by --quick: L3+DRAM, no longer DRAM",
		  "4 x L3 12M (hwloc), поднято до 256M, урезано до 16M ключом --quick: теперь L3+DRAM, а "
		  "не DRAM" },
		/* a form with a "%%": a '%' in the sentence and in its translation */
		{ "92 ns at 64M, 93 at 128M on 2 MB pages (within 5 %): where the curve from 8M settles",
		  "92 нс на 64M, 93 на 128M на страницах 2 МБ (в пределах 5 %): там, где кривая от 8M "
		  "выходит на полку" },
		/* figures (%.Nf) with the user's decimal separator, counts as they are */
		{ "load ports' canary before the table: load over 4K, 452.9 GB/s = 123.7 B/cycle at "
		  "3.66 GHz (the clock around its try)",
		  "канарейка портов загрузки перед таблицей: load по 4K, 452,9 ГБ/с = 123,7 Б за такт "
		  "при 3,66 ГГц (частота вокруг её попытки)" },
		{ "load ports' canary before the table: load over 4K, 45x.9 GB/s = 123.7 B/cycle at "
		  "3.66 GHz (the clock around its try)",
		  "load ports' canary before the table: load over 4K, 45x.9 GB/s = 123.7 B/cycle at "
		  "3.66 GHz (the clock around its try)" },
		/* a form with a "; " of its own takes both clauses */
		{ "loaded latency needs 2 CPUs (a chaser and a loader); 1 allowed",
		  "задержке под нагрузкой нужны 2 ЦП (обходчик и нагрузчик); доступно 1" },
		/* only a form's last %s reaches past the first clause: "%s: %s capped
		 * at %s, %s would be %s" is not the whole of these two (its " capped
		 * at " is in the second); a figure in a form in a form */
		{ "22.9 GB of memory available: the random chase on huge pages left out (two buffers "
		  "of 64G do not fit in half of the 23488M a run may take); sizes capped at 11G, "
		  "--max-size would be 64G",
		  "доступно 22,9 ГБ памяти: случайный обход на больших страницах не делается (два "
		  "буфера по 64G не помещаются в половину из 23488M, что может взять прогон); размеры "
		  "— не больше 11G, а --max-size — 64G" },
		/* a form ending in its %s takes the clauses after it: the doubt
		 * "a; b" is one message */
		{ "L3 16M (hwloc) left out, memtop info doubts it: a VM: the host's other guests share "
		  "this cache; what this guest gets is what memtop run latency measures",
		  "L3 16M (hwloc) не берётся, memtop info сомневается в нём: ВМ: другие гости хоста делят "
		  "этот кэш; сколько достаётся этому гостю, измеряет memtop run latency" },
	};
	char out[1024];
	(void)state;
	for (size_t i = 0; i < MT_ARRAY_LEN(rows); i++)
		assert_string_equal(mt_gettext_stored(out, sizeof out, rows[i].stored, forms),
				    rows[i].shown);
	/* cut at a character's start where out is short */
	mt_gettext_stored(out, 8, "each thread", forms);
	assert_string_equal(out, "на п");
}

/* Why the Russian locale is not there (tests/locale.sh's stamp), or NULL. */
static const char *no_russian(void)
{
	static char why[256];
	const char *dir = getenv("MEMTOP_LOCPATH");
	char path[MT_PATH_MAX], *stamp;
	if (!dir)
		return "MEMTOP_LOCPATH is not set (run through make check)";
	mt_snprintf(path, sizeof path, "%s/ru_RU.UTF-8/LC_NUMERIC", dir);
	if (access(path, R_OK) == 0)
		return NULL;
	mt_snprintf(path, sizeof path, "%s/stamp", dir);
	stamp = mt_read_file(path, sizeof why - 1, NULL, NULL);
	mt_snprintf(why, sizeof why, "%s", stamp ? stamp : "no ru_RU.UTF-8 built (tests/locale.sh)");
	why[strcspn(why, "\n")] = '\0';
	free(stamp);
	return why;
}

/* Why the build's Russian catalogue is not there, or NULL. */
static const char *no_catalogue(void)
{
	static char why[MT_PATH_MAX + 64];
	const char *nls = getenv("USE_NLS");
	if (nls && strcmp(nls, "no") == 0)
		return "built without NLS (--disable-nls)";
	if (no_russian())
		return no_russian();
	mt_snprintf(why, sizeof why, "%s/ru/LC_MESSAGES/memtop.mo", catalogues());
	if (access(why, R_OK) == 0)
		return NULL;
	mt_snprintf(why, sizeof why, "no %s/ru/LC_MESSAGES/memtop.mo", catalogues());
	return why;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(widths_in_columns),
		cmocka_unit_test(cut_whole_characters),
		cmocka_unit_test(buffers_cut_whole_characters),
		cmocka_unit_test(one_character),
		cmocka_unit_test(pad_in_columns),
		cmocka_unit_test(compare_wraps_in_columns),
		cmocka_unit_test(numbers_in_c),
		/* last: they set the process's locale */
		MT_SKIP_IF(no_russian(), numbers_in_russian),
		MT_SKIP_IF(no_catalogue(), stored_in_russian),
	};
	return cmocka_run_group_tests_name("i18n", tests, NULL, NULL);
}
