/* cpuspec: see cpuspec.h. */
#include "config.h"

#include "cpuspec.h"
#include "i18n.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* An item none of the grammar's forms reads (its text in the %s). */
static const char not_item[] = N_("'%s' is not a CPU, a range such as 0-3 or a domain such as S0");

/* A number of digits alone at s (no sign, below MT_CPU_LIST_MAX) into *v.
 * Returns 0 or -1. */
static int number(const char *s, int *v)
{
	if (!isdigit((unsigned char)s[0]))
		return -1;
	return mt_parse_int(s, 0, MT_CPU_LIST_MAX - 1, v);
}

/* "lo", "lo-hi" or "lo-hi:step" (s, NUL-terminated) into it's lo, hi and
 * step; what names the item in errors (its text), idx 1 when these are a
 * domain's indexes. Returns 0, or -1 with e. */
static int range(char *s, const char *what, int idx, struct mt_cpuitem *it, mt_error *e)
{
	char *dash = strchr(s, '-'), *colon = strchr(s, ':');
	const char *bad = idx ? _("'%s' after the colon, an index or a range such as 0-3 (0-15:2: "
				  "every second)")
			      : _(not_item);
	it->step = 1;
	if (colon) {
		*colon = '\0';
		if (!dash || dash > colon)
			return mt_fail(e, _("'%s': a step needs a range (0-15:2)"), what);
		if (number(colon + 1, &it->step) < 0)
			return mt_fail(e, bad, what);
		if (it->step < 1)
			return mt_fail(e, _("'%s': the step must be 1 or more"), what);
	}
	if (dash && dash[1] == '\0')
		return mt_fail(e, _("'%s' is a range without its end (such as 0-3)"), what);
	if (dash == s)
		return mt_fail(e, _("'%s' is a range without its start (such as 0-3)"), what);
	if (dash)
		*dash = '\0';
	if (number(s, &it->lo) < 0 || (dash && number(dash + 1, &it->hi) < 0))
		return mt_fail(e, bad, what);
	if (!dash)
		it->hi = it->lo;
	if (it->hi < it->lo)
		return mt_fail(e, _("the range %d-%d runs backwards"), it->lo, it->hi);
	return 0;
}

/* mt_fail for a function that returns a pointer: NULL. */
#define fail_null(e, ...) (mt_fail(e, __VA_ARGS__), (char *)NULL)

/* 1 when w (n characters) names a core type memtop gives (os/topo.h's
 * struct topo_coretype: P, E, LP-E, big, mid, midN, LITTLE, one). */
static int coretype_word(const char *w, size_t n)
{
	static const char *const names[] = { "P", "E", "LP-E", "big", "mid", "LITTLE", "one" };
	for (size_t i = 0; i < MT_ARRAY_LEN(names); i++)
		if (strlen(names[i]) == n && strncasecmp(w, names[i], n) == 0)
			return 1;
	if (n > 3 && strncasecmp(w, "mid", 3) == 0) {
		for (size_t i = 3; i < n; i++)
			if (!isdigit((unsigned char)w[i]))
				return 0;
		return 1;
	}
	return 0;
}

/* The domain at the start of s (the item's text) into it: its kind and
 * number. Returns what follows it in s (":..." or ""), or NULL with e. */
static char *domain(char *s, struct mt_cpuitem *it, mt_error *e)
{
	static const struct {
		char letter;
		enum mt_cpudom dom;
		const char *example;
	} lettered[] = { { 'S', MT_DOM_PACKAGE, N_("S0: package 0") },
			 { 'D', MT_DOM_DIE, N_("D0: die 0") },
			 { 'N', MT_DOM_NODE, N_("N0: NUMA node 0") } };
	char *colon = strchr(s, ':');
	size_t head = colon ? (size_t)(colon - s) : strlen(s);
	char c = (char)toupper((unsigned char)s[0]);
	it->index = -1;
	if (c == 'L' && s[1] == '3' && (s[2] == ':' || s[2] == '\0')) {
		it->dom = MT_DOM_L3;
		if (s[2] == '\0' || !isdigit((unsigned char)s[3]))
			return fail_null(e, _("'%s' needs its group's number (L3:0: L3 group 0)"),
					 it->text);
		colon = strchr(s + 3, ':');
		head = colon ? (size_t)(colon - s) : strlen(s);
		s[head] = '\0';
		if (number(s + 3, &it->index) < 0)
			return fail_null(e, _(not_item), it->text);
		if (colon)
			*colon = ':';
		return s + head;
	}
	for (size_t i = 0; i < MT_ARRAY_LEN(lettered); i++) {
		if (c != lettered[i].letter || coretype_word(s, head))
			continue;
		it->dom = lettered[i].dom;
		if (head == 1)
			return fail_null(e, _("'%s' needs its number (%s)"), it->text,
					 _(lettered[i].example));
		s[head] = '\0';
		if (number(s + 1, &it->index) < 0)
			return fail_null(e, _(not_item), it->text);
		if (colon)
			*colon = ':';
		return s + head;
	}
	if (c == 'C' && head == 1)
		return (it->dom = MT_DOM_CORES), s + head;
	if (coretype_word(s, head))
		it->dom = MT_DOM_CORETYPE;
	else if (c == 'C' && isdigit((unsigned char)s[1]))
		return fail_null(e,
				 _("'%s': C takes no number (C: one CPU of each core; C:0-3 its "
				   "first four; L3:0 is an L3 group)"),
				 it->text);
	else
		return fail_null(e, _(not_item), it->text);
	mt_snprintf(it->name, sizeof it->name, "%.*s", (int)head, s);
	return s + head;
}

/* One item, the len characters at p (no comma among them), into it.
 * Returns 0, or -1 with e. */
static int item(const char *p, size_t len, struct mt_cpuitem *it, mt_error *e)
{
	char buf[64], *rest;
	memset(it, 0, sizeof *it);
	if (len == 0)
		return mt_fail(e, _("an empty item in the CPU list (two commas, or one at an end)"));
	if (len >= sizeof buf - 4) {
		mt_snprintf(it->text, sizeof it->text, "%.24s...", p);
		return mt_fail(e, _(not_item), it->text);
	}
	memcpy(buf, p, len);
	buf[len] = '\0';
	mt_strlcpy(it->text, buf, sizeof it->text);
	if (isdigit((unsigned char)buf[0]) || buf[0] == '-') {
		it->dom = MT_DOM_CPUS;
		it->index = -1;
		it->sel = 1;
		return range(buf, it->text, 0, it, e);
	}
	if (!(rest = domain(buf, it, e)))
		return -1;
	if (*rest == '\0')
		return 0;
	if (rest[1] == '\0')
		return mt_fail(e, _("'%s' has nothing after its colon (%.*s:0-3: its first four "
				  "CPUs)"), it->text, (int)strlen(it->text) - 1, it->text);
	it->sel = 1;
	return range(rest + 1, it->text, 1, it, e);
}

int mt_cpuitem_next(const char **p, struct mt_cpuitem *it, mt_error *e)
{
	const char *s = *p, *comma;
	size_t len;
	if (!s || !*s)
		return 0;
	comma = strchr(s, ',');
	len = comma ? (size_t)(comma - s) : strlen(s);
	if (item(s, len, it, e) < 0)
		return -1;
	if (comma && comma[1] == '\0')
		return mt_fail(e, _("an empty item in the CPU list (two commas, or one at an end)"));
	*p = comma ? comma + 1 : s + len;
	return 1;
}

int mt_cpuspec_check(const char *s, int *domains, mt_error *e)
{
	struct mt_cpuitem it;
	int n = 0, d = 0, rc;
	if (!s || !*s)
		return mt_fail(e, _("an empty CPU list"));
	while ((rc = mt_cpuitem_next(&s, &it, e)) > 0) {
		n++;
		d += it.dom != MT_DOM_CPUS;
	}
	if (rc < 0)
		return -1;
	if (domains)
		*domains = d;
	return n;
}
