/* info source "sysctl": macOS hw.* cache values (info.h). The seed's trap:
 * on Apple silicon the unprefixed hw.l1dcachesize describes the efficiency
 * cores; the performance cores' values are under hw.perflevel0.*. */
#include "config.h"

#include "info.h"
#include "base/i18n.h"
#include "os/platform.h"

#include <ctype.h>
#include <string.h>

#define NPREFIX 3 /* perflevel0, perflevel1, unprefixed */

struct sysctl_vals {
	uint64_t l1i, l1d, l2, l3, cpusperl2, cpusperl3;
	char name[16];
	int seen;
};

static void add(struct info_source *out, int level, const char *type, uint64_t size,
		const char *cores, uint64_t line, uint64_t shared)
{
	struct cache_level lv;
	if (!size)
		return;
	memset(&lv, 0, sizeof lv);
	lv.level = level;
	mt_strlcpy(lv.type, type, sizeof lv.type);
	mt_strlcpy(lv.cores, cores, sizeof lv.cores);
	lv.size = size;
	lv.line = line < (1u << 20) ? (int)line : 0;
	if (shared)
		mt_snprintf(lv.shared_cpus, sizeof lv.shared_cpus, "%llu CPUs",
			    (unsigned long long)shared);
	info_source_add_level(out, &lv);
}

/* "  hw.l1dcachesize: 65536" into key and val (both trimmed, in buf).
 * Returns 1 for a hw.* line, 0 for another. */
static int split_line(char *buf, char **key, char **val)
{
	char *sep;
	size_t n;
	*key = buf;
	while (isspace((unsigned char)**key))
		(*key)++;
	sep = strpbrk(*key, ":=");
	if (!sep || strncmp(*key, "hw.", 3) != 0)
		return 0;
	*val = sep + 1;
	*sep = '\0';
	for (n = strlen(*key); n > 0 && isspace((unsigned char)(*key)[n - 1]);)
		(*key)[--n] = '\0';
	while (isspace((unsigned char)**val))
		(*val)++;
	for (n = strlen(*val); n > 0 && isspace((unsigned char)(*val)[n - 1]);)
		(*val)[--n] = '\0';
	return 1;
}

/* One hw.* value into v (perflevel0, perflevel1, unprefixed) or *line.
 * Returns 0, or -1 with e for a malformed number. */
static int read_value(const char *key, const char *val, int no, struct sysctl_vals *v,
		      uint64_t *line, mt_error *e)
{
	static const char *const fields[] = { "l1icachesize", "l1dcachesize", "l2cachesize",
					      "l3cachesize",  "cpusperl2",    "cpusperl3" };
	int which = 2, f = -1;
	const char *field = key + 3;
	uint64_t num, *slot[6];
	if (strcmp(key, "hw.cachelinesize") == 0) {
		if (mt_parse_u64(val, 0, 1u << 20, line) < 0)
			return mt_fail(e, _("sysctl line %d: %s: bad number '%s'"), no, key, val);
		return 0;
	}
	if (strncmp(key, "hw.perflevel", 12) == 0 && (key[12] == '0' || key[12] == '1') &&
	    key[13] == '.') {
		which = key[12] - '0';
		field = key + 14;
	}
	if (which < 2 && strcmp(field, "name") == 0) {
		mt_strlcpy(v[which].name, val, sizeof v[which].name);
		for (char *c = v[which].name; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		v[which].seen = 1;
		return 0;
	}
	for (int i = 0; i < 6; i++)
		if (strcmp(field, fields[i]) == 0)
			f = i;
	if (f < 0)
		return 0;
	if (mt_parse_u64(val, 0, (uint64_t)1 << 50, &num) < 0)
		return mt_fail(e, _("sysctl line %d: %s: bad number '%s'"), no, key, val);
	slot[0] = &v[which].l1i;
	slot[1] = &v[which].l1d;
	slot[2] = &v[which].l2;
	slot[3] = &v[which].l3;
	slot[4] = &v[which].cpusperl2;
	slot[5] = &v[which].cpusperl3;
	*slot[f] = num;
	v[which].seen = 1;
	return 0;
}

/* The caches of the values read, perflevel0's first, and the note. */
static void build(const struct sysctl_vals *v, uint64_t line, struct info_source *out)
{
	int perflevels = v[0].seen + v[1].seen;
	for (int i = 0; i < NPREFIX; i++) {
		char cores[16];
		if (i < 2 && !v[i].seen)
			continue;
		if (i == 2)
			mt_strlcpy(cores, perflevels ? "unprefixed" : "", sizeof cores);
		else if (v[i].name[0])
			mt_strlcpy(cores, v[i].name, sizeof cores);
		else
			mt_snprintf(cores, sizeof cores, "perflevel%d", i);
		add(out, 1, "data", v[i].l1d, cores, line, 0);
		add(out, 1, "instruction", v[i].l1i, cores, line, 0);
		add(out, 2, "unified", v[i].l2, cores, line, v[i].cpusperl2);
		add(out, 3, "unified", v[i].l3, cores, line, v[i].cpusperl3);
	}
	if (perflevels) {
		mt_strlcpy(out->note, "", sizeof out->note);
		for (int i = 0; i < 2; i++)
			if (v[i].seen)
				mt_append(out->note, sizeof out->note, "hw.perflevel%d.* = %s, ", i,
					  v[i].name[0] ? v[i].name : "?");
		mt_append(out->note, sizeof out->note,
			  "then the unprefixed hw.*; line = hw.cachelinesize");
	} else if (out->nlevels) {
		mt_strlcpy(out->note, "hw.*; line = hw.cachelinesize", sizeof out->note);
	}
}

int info_parse_sysctl(const char *text, struct info_source *out, mt_error *e)
{
	struct sysctl_vals v[NPREFIX];
	uint64_t line = 0;
	int no = 0;
	memset(v, 0, sizeof v);
	info_source_init(out, "sysctl");
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		char buf[200], *key, *val;
		no++;
		mt_snprintf(buf, sizeof buf, "%.*s", (int)(l < sizeof buf ? l : sizeof buf - 1), p);
		p = nl ? nl + 1 : p + l;
		if (split_line(buf, &key, &val) && read_value(key, val, no, v, &line, e) < 0)
			return -1;
	}
	build(v, line, out);
	return 0;
}

/* "name: value\n" appended to text when this OS's sysctl knows name. */
static void append_value(char *text, size_t len, const char *name)
{
	char buf[64];
	size_t n = sizeof buf - 1;
	memset(buf, 0, sizeof buf);
	if (mt_plat_sysctl(name, buf, &n) < 0 || n == 0)
		return;
	if (strstr(name, ".name")) {
		buf[n < sizeof buf ? n : sizeof buf - 1] = '\0';
		mt_append(text, len, "%s: %s\n", name, buf);
	} else if (n == sizeof(uint32_t)) {
		uint32_t v;
		memcpy(&v, buf, sizeof v);
		mt_append(text, len, "%s: %u\n", name, v);
	} else if (n == sizeof(uint64_t)) {
		uint64_t v;
		memcpy(&v, buf, sizeof v);
		mt_append(text, len, "%s: %llu\n", name, (unsigned long long)v);
	}
}

void info_collect_sysctl(struct info_source *out)
{
	static const char *const names[] = {
		"hw.perflevel0.name",	     "hw.perflevel0.l1icachesize", "hw.perflevel0.l1dcachesize",
		"hw.perflevel0.l2cachesize", "hw.perflevel0.l3cachesize",  "hw.perflevel0.cpusperl2",
		"hw.perflevel0.cpusperl3",   "hw.perflevel1.name",	  "hw.perflevel1.l1icachesize",
		"hw.perflevel1.l1dcachesize", "hw.perflevel1.l2cachesize", "hw.perflevel1.l3cachesize",
		"hw.perflevel1.cpusperl2",   "hw.perflevel1.cpusperl3",	  "hw.l1icachesize",
		"hw.l1dcachesize",	     "hw.l2cachesize",		  "hw.l3cachesize",
		"hw.cachelinesize",
	};
	char text[4096] = "";
	mt_error e;
	info_source_init(out, "sysctl");
	if (!mt_plat_has_sysctl())
		return;
	for (size_t i = 0; i < MT_ARRAY_LEN(names); i++)
		append_value(text, sizeof text, names[i]);
	if (info_parse_sysctl(text, out, &e) < 0)
		info_source_init(out, "sysctl");
}
