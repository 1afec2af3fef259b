/* conditions: a machine's settings that move memory figures, read from
 * the Linux tree under a root (conditions.h). Plain file reads of the
 * kernel's layout: a recorded tree is read the same way from any OS. */
#include "config.h"

#include "conditions.h"
#include "base/i18n.h"
#include "base/jsonio.h"
#include "platform.h"
#include "sysinfo.h"
#include "base/util.h"

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Value v known as the printable text of fmt. */
static void set(struct cond_value *v, const char *text)
{
	v->known = 1;
	mt_printable(v->text, sizeof v->text, text, 0);
}

static void unknown(struct cond_value *v, const char *why)
{
	v->known = 0;
	mt_strlcpy(v->text, why, sizeof v->text);
}

/* Why a file is absent: a recorded tree ("" is this machine) simply did
 * not record it; on this machine, live says why. */
static const char *absent(const char *root, const char *live)
{
	return root[0] ? "not in the recorded tree" : live;
}

/* The first line of root/path, trailing blanks cut (NULL when it cannot
 * be read or is empty: DMI pads "XA320 V2 "). */
static char *line_of(const char *root, const char *path)
{
	char full[MT_PATH_MAX + 128];
	size_t n;
	char *t;
	mt_snprintf(full, sizeof full, "%s%s", root, path);
	t = mt_read_file(full, 1 << 16, NULL, NULL);
	if (!t)
		return NULL;
	n = strcspn(t, "\n");
	while (n > 0 && (t[n - 1] == ' ' || t[n - 1] == '\t' || t[n - 1] == '\r'))
		n--;
	t[n] = '\0';
	if (!t[0]) {
		free(t);
		return NULL;
	}
	return t;
}

/* Order names as people count them: "policy2" before "policy10". */
static int natural_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t px = strcspn(x, "0123456789"), py = strcspn(y, "0123456789");
	int c = px == py ? strncmp(x, y, px) : strcmp(x, y);
	if (c || px != py)
		return c;
	c = (strtoul(x + px, NULL, 10) > strtoul(y + py, NULL, 10)) -
	    (strtoul(x + px, NULL, 10) < strtoul(y + py, NULL, 10));
	return c ? c : strcmp(x, y);
}

/* The entries of root/path whose names start with prefix ("" all but dot
 * files), in natural order, into *out (free with free_names). Returns how
 * many; -1 when the folder cannot be read (or memory ran out). */
static int list_dir(const char *root, const char *path, const char *prefix, char ***out)
{
	char full[MT_PATH_MAX + 128];
	char **v = NULL;
	int n = 0, cap = 0;
	struct dirent *d;
	DIR *dd;
	*out = NULL;
	mt_snprintf(full, sizeof full, "%s%s", root, path);
	if (!(dd = opendir(full)))
		return -1;
	while ((d = readdir(dd))) {
		if (d->d_name[0] == '.' || strncmp(d->d_name, prefix, strlen(prefix)) != 0)
			continue;
		if (n == cap) {
			char **w = realloc(v, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *v);
			if (!w)
				goto fail;
			v = w;
		}
		if (!(v[n] = strdup(d->d_name)))
			goto fail;
		n++;
	}
	closedir(dd);
	if (n)
		qsort(v, (size_t)n, sizeof *v, natural_cmp);
	*out = v;
	return n;
fail:
	closedir(dd);
	while (n > 0)
		free(v[--n]);
	free(v);
	return -1;
}

static void free_names(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* "always [madvise] never" -> "madvise"; a line that marks no choice is
 * said as such, not taken for one. */
static void bracketed(struct cond_value *v, const char *root, const char *path, const char *why)
{
	char *t = line_of(root, path), *a = t ? strchr(t, '[') : NULL, *b = a ? strchr(a, ']') : NULL;
	if (!t) {
		unknown(v, why);
	} else if (!b || b == a + 1) {
		char text[COND_TEXT];
		mt_snprintf(text, sizeof text, "%s marks no [choice]", path);
		unknown(v, text);
	} else {
		*b = '\0';
		set(v, a + 1);
	}
	free(t);
}

/* A 0/1 switch of the file root/path as off/on, other values named by
 * names[] ("memory tiering" for 2), else unknown. */
static void switch_of(struct cond_value *v, const char *root, const char *path,
		      const char *const *names, size_t n, const char *why)
{
	char *t = line_of(root, path), *end = NULL, text[COND_TEXT];
	long x = t ? strtol(t, &end, 10) : -1;
	if (!t) {
		unknown(v, why);
	} else if (end == t || *end || x < 0 || (size_t)x >= n) {
		mt_snprintf(text, sizeof text, "%s holds no known value", path);
		unknown(v, text);
	} else {
		set(v, names[x]);
	}
	free(t);
}

static void microcode(struct mt_conditions *c, const char *root)
{
	char full[MT_PATH_MAX + 32], first[32] = "", *t, *p;
	int differ = 0;
	mt_snprintf(full, sizeof full, "%s/proc/cpuinfo", root);
	t = mt_read_file(full, 1 << 24, NULL, NULL);
	for (p = t; p && (p = strstr(p, "\nmicrocode")); p++) {
		size_t line = strcspn(p + 1, "\n");
		char *colon = memchr(p + 1, ':', line), val[32];
		if (!colon)
			continue; /* "microcode" with no value on its line */
		colon += strspn(colon + 1, " \t") + 1;
		if (!*colon || *colon == '\n')
			continue;
		mt_snprintf(val, sizeof val, "%.*s", (int)strcspn(colon, "\n"), colon);
		if (!first[0])
			mt_strlcpy(first, val, sizeof first);
		else if (strcmp(first, val) != 0)
			differ = 1;
	}
	free(t);
	if (!first[0]) {
		unknown(&c->microcode, t ? "/proc/cpuinfo names none (a VM, or not x86)"
				     : absent(root, "no /proc/cpuinfo"));
		return;
	}
	mt_snprintf(full, sizeof full, "%s%s", first, differ ? " (CPUs differ)" : "");
	set(&c->microcode, full);
}

/* The DMI strings anyone may read (/sys/class/dmi/id): the serials are
 * root's and left alone. */
static void dmi(struct mt_conditions *c, const char *root)
{
	static const char *const bios[] = { "bios_vendor", "bios_version", "bios_date" };
	static const char *const board[] = { "board_vendor", "board_name" };
	static const char *const product[] = { "sys_vendor", "product_name" };
	const char *const *sets[] = { bios, board, product };
	size_t counts[] = { 3, 2, 2 };
	struct cond_value *out[] = { &c->bios, &c->board, &c->product };
	for (size_t s = 0; s < 3; s++) {
		char text[COND_TEXT] = "", path[96];
		for (size_t i = 0; i < counts[s]; i++) {
			char *t;
			mt_snprintf(path, sizeof path, "/sys/class/dmi/id/%s", sets[s][i]);
			/* a name that repeats the vendor's ("HP" "HP EliteBook") says it once */
			if ((t = line_of(root, path)) &&
			    !(text[0] && i > 0 && strncmp(t, text, strlen(text)) == 0))
				mt_append(text, sizeof text, "%s%s", text[0] ? " " : "", t);
			else if (t && i > 0)
				mt_strlcpy(text, t, sizeof text);
			free(t);
		}
		if (text[0])
			set(out[s], text);
		else
			unknown(out[s], absent(root, "no DMI (/sys/class/dmi/id: not a PC, or hidden)"));
	}
}

/* The governors of the cpufreq policies, folded ("performance" when all
 * agree, else "powersave on 8, performance on 8"), the frequencies and
 * the boost switch. */
static void cpufreq(struct mt_conditions *c, const char *root)
{
	char govs[4][24] = { "" }, text[COND_TEXT] = "", **pol;
	int count[4] = { 0 }, ng = 0, np;
	long maxf = 0, minf = 0;
	char *t;
	np = list_dir(root, "/sys/devices/system/cpu/cpufreq", "policy", &pol);
	for (int i = 0; i < np; i++) {
		char path[160];
		long f;
		int k;
		mt_snprintf(path, sizeof path, "/sys/devices/system/cpu/cpufreq/%s/scaling_governor",
			    pol[i]);
		if ((t = line_of(root, path))) {
			for (k = 0; k < ng && strcmp(govs[k], t) != 0; k++)
				;
			if (k == ng && ng < 4)
				mt_strlcpy(govs[ng++], t, sizeof govs[0]);
			if (k < 4)
				count[k]++;
		}
		free(t);
		mt_snprintf(path, sizeof path, "/sys/devices/system/cpu/cpufreq/%s/cpuinfo_max_freq",
			    pol[i]);
		if ((t = line_of(root, path)) && (f = strtol(t, NULL, 10)) > maxf)
			maxf = f;
		free(t);
		mt_snprintf(path, sizeof path, "/sys/devices/system/cpu/cpufreq/%s/cpuinfo_min_freq",
			    pol[i]);
		if ((t = line_of(root, path)) && (f = strtol(t, NULL, 10)) > 0 && (!minf || f < minf))
			minf = f;
		free(t);
	}
	free_names(pol, np);
	for (int k = 0; k < ng; k++) {
		mt_append(text, sizeof text, "%s%s", k ? ", " : "", govs[k]);
		if (ng > 1)
			mt_append(text, sizeof text, " on %d", count[k]);
	}
	if (ng)
		set(&c->governor, text);
	else
		unknown(&c->governor,
			absent(root, "no cpufreq (no driver: a VM, or the firmware keeps it)"));
	if (maxf > 0) {
		mt_snprintf(text, sizeof text, "max %.2f GHz, min %.2f GHz", maxf / 1e6, minf / 1e6);
		set(&c->freq, text);
	} else {
		unknown(&c->freq, np > 0 ? "cpufreq's policies give no frequency"
					 : absent(root, "no cpufreq frequencies"));
	}
	{
		static const char *const boost[] = { "off", "on" };
		static const char *const no_turbo[] = { "on", "off (intel_pstate no_turbo)" };
		char full[MT_PATH_MAX + 64];
		mt_snprintf(full, sizeof full, "%s/sys/devices/system/cpu/cpufreq/boost", root);
		if (access(full, F_OK) == 0)
			switch_of(&c->boost, root, "/sys/devices/system/cpu/cpufreq/boost", boost, 2,
				  "cpufreq/boost is empty");
		else
			switch_of(&c->boost, root, "/sys/devices/system/cpu/intel_pstate/no_turbo",
				  no_turbo, 2,
				  absent(root, "no boost switch (no cpufreq, or its driver has none)"));
	}
}

/* The kernel's vulnerabilities, folded: how many mitigated, vulnerable,
 * not affected, the vulnerable ones named (in name order). */
static void mitigations(struct mt_conditions *c, const char *root)
{
	char vuln[COND_TEXT] = "", text[COND_TEXT], **v;
	int mit = 0, bad = 0, fine = 0, n;
	n = list_dir(root, "/sys/devices/system/cpu/vulnerabilities", "", &v);
	if (n < 0) {
		unknown(&c->mitigations,
			absent(root, "no /sys/devices/system/cpu/vulnerabilities (an old kernel)"));
		return;
	}
	for (int i = 0; i < n; i++) {
		char path[160], *t;
		mt_snprintf(path, sizeof path, "/sys/devices/system/cpu/vulnerabilities/%s", v[i]);
		if (!(t = line_of(root, path)))
			continue;
		if (strncmp(t, "Not affected", 12) == 0) {
			fine++;
		} else if (strncmp(t, "Vulnerable", 10) == 0) {
			bad++;
			mt_append(vuln, sizeof vuln, "%s%s", vuln[0] ? ", " : "", v[i]);
		} else {
			mit++;
		}
		free(t);
	}
	free_names(v, n);
	if (mit + bad + fine == 0) {
		unknown(&c->mitigations, "vulnerabilities/ lists nothing readable");
		return;
	}
	mt_snprintf(text, sizeof text, "%d mitigated, %d vulnerable%s%s%s, %d not affected", mit,
		    bad, vuln[0] ? " (" : "", vuln, vuln[0] ? ")" : "", fine);
	set(&c->mitigations, text);
}

/* The channel a DIMM sits on, from EDAC's dimm_location ("channel 1
 * slot 0", "csrow 0 channel 1", "branch 0 channel 1 slot 0"): -1 when
 * it names none. */
static int dimm_channel(const char *loc)
{
	const char *p = loc ? strstr(loc, "channel ") : NULL;
	char *end;
	long ch;
	if (!p)
		return -1;
	ch = strtol(p + 8, &end, 10);
	return end == p + 8 || ch < 0 || ch > 1000 ? -1 : (int)ch;
}

/* One controller's DIMMs (root/.../mc/mcN): counted into c, their
 * channels into chans (as mc * 1024 + channel), their types into types. */
static void dimms_of(struct mt_conditions *c, const char *root, const char *mc, int *chans,
		     int *nchans, char *types, size_t tlen, int *garbled)
{
	char dir[96], **d;
	int n;
	mt_snprintf(dir, sizeof dir, "/sys/devices/system/edac/mc/%s", mc);
	n = list_dir(root, dir, "dimm", &d);
	for (int i = 0; i < n && c->ndimms < COND_MAX_DIMMS; i++) {
		char path[300], *t, *end;
		long mb, ch;
		int k, number;
		mt_snprintf(path, sizeof path, "%s/%s/size", dir, d[i]);
		if (!(t = line_of(root, path)))
			continue;
		mb = strtol(t, &end, 10);
		number = end != t && !*end && mb >= 0 && mb <= (1L << 30);
		free(t);
		*garbled += !number;
		if (!number || mb == 0)
			continue; /* not a size, or an empty slot */
		c->ndimms++;
		c->dimm_bytes += (uint64_t)mb << 20;
		mt_snprintf(path, sizeof path, "%s/%s/dimm_mem_type", dir, d[i]);
		if ((t = line_of(root, path)) && !strstr(types, t))
			mt_append(types, tlen, "%s%s", types[0] ? "/" : "", t);
		free(t);
		mt_snprintf(path, sizeof path, "%s/%s/dimm_location", dir, d[i]);
		t = line_of(root, path);
		ch = dimm_channel(t);
		free(t);
		if (ch < 0)
			continue;
		ch += 1024L * strtol(mc + 2, NULL, 10);
		for (k = 0; k < *nchans && chans[k] != ch; k++)
			;
		if (k == *nchans && k < COND_MAX_DIMMS)
			chans[(*nchans)++] = (int)ch;
	}
	free_names(d, n);
}

const char *mt_conditions_dimms_why(char *buf, size_t len, int edac, int dmi, int is_root,
				    int have_dmidecode)
{
	mt_strlcpy(buf, edac ? "EDAC lists no memory controller" : "no EDAC driver loaded", len);
	if (!dmi)
		mt_append(buf, len, ", no DMI tables for dmidecode");
	else if (!have_dmidecode)
		mt_append(buf, len, "; dmidecode (not installed) would read DMI's list%s",
			  is_root ? "" : " as root");
	else if (!is_root)
		mt_append(buf, len, "; dmidecode -t memory lists them as root");
	else
		mt_append(buf, len, "; dmidecode -t memory lists them (memtop reads EDAC only)");
	return buf;
}

/* dmidecode is on this machine: in PATH or where root's tools are. */
static int have_dmidecode(void)
{
	static const char *const sbin[] = { "/usr/sbin", "/sbin", "/usr/local/sbin" };
	char dirs[2048], full[MT_PATH_MAX], *save = NULL;
	const char *path = getenv("PATH");
	for (size_t i = 0; i < MT_ARRAY_LEN(sbin); i++) {
		mt_snprintf(full, sizeof full, "%s/dmidecode", sbin[i]);
		if (access(full, X_OK) == 0)
			return 1;
	}
	mt_strlcpy(dirs, path ? path : "", sizeof dirs);
	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		mt_snprintf(full, sizeof full, "%s/dmidecode", d);
		if (access(full, X_OK) == 0)
			return 1;
	}
	return 0;
}

/* The DIMMs EDAC lists (/sys/devices/system/edac/mc/mcN/dimmM: size in
 * MB, dimm_mem_type, dimm_location): how many, their size, their types
 * and the channels they populate. */
static void dimms(struct mt_conditions *c, const char *root)
{
	char types[48] = "", text[COND_TEXT], a[32], **mc;
	int chans[COND_MAX_DIMMS], nchans = 0, garbled = 0, n;
	n = list_dir(root, "/sys/devices/system/edac/mc", "mc", &mc);
	if (n < 0) {
		char full[MT_PATH_MAX + 64];
		int dmi;
		mt_snprintf(full, sizeof full, "%s/sys/firmware/dmi/tables", root);
		dmi = access(full, F_OK) == 0;
		mt_snprintf(full, sizeof full, "%s/sys/class/dmi/id", root);
		dmi |= access(full, F_OK) == 0;
		mt_snprintf(full, sizeof full, "%s/sys/devices/system/edac", root);
		unknown(&c->dimms, root[0] ? absent(root, "")
				   : mt_conditions_dimms_why(text, sizeof text,
							     access(full, F_OK) == 0, dmi,
							     geteuid() == 0, have_dmidecode()));
		return;
	}
	for (int i = 0; i < n; i++)
		dimms_of(c, root, mc[i], chans, &nchans, types, sizeof types, &garbled);
	free_names(mc, n);
	if (!c->ndimms) {
		unknown(&c->dimms, garbled ? "EDAC's DIMM sizes are not numbers"
					   : "EDAC lists no DIMM (its driver does not know this board)");
		return;
	}
	c->channels = nchans;
	mt_snprintf(text, sizeof text, "%d DIMM%s, %s%s%s", c->ndimms, c->ndimms == 1 ? "" : "s",
		    mt_fmt_mem(a, sizeof a, c->dimm_bytes), types[0] ? ", " : "", types);
	if (nchans)
		mt_append(text, sizeof text, ", %d channel%s", nchans, nchans == 1 ? "" : "s");
	if (garbled)
		mt_append(text, sizeof text, " (%d slot%s unreadable)", garbled,
			  garbled == 1 ? "" : "s");
	set(&c->dimms, text);
}

const char *mt_conditions_smt_words(const char *control)
{
	static const char *const words[][2] = {
		{ "on", N_("on") },
		{ "off", N_("off") },
		{ "forceoff", N_("off (forced at boot)") },
		{ "notsupported", N_("not supported") },
	};
	for (size_t i = 0; control && i < MT_ARRAY_LEN(words); i++)
		if (strcmp(control, words[i][0]) == 0)
			return words[i][1];
	return NULL;
}

/* Nodes a package: the nodes with CPUs of their own over the packages; in
 * a guest, the host's SNC or NPS is not visible (its nodes are whatever
 * the hypervisor made). */
static void snc(struct mt_conditions *c, const struct topo *t, const struct mt_vm *vm)
{
	char text[COND_TEXT];
	int cpu_nodes = 0, per;
	if (!t || t->packages <= 0) {
		unknown(&c->snc, "no topology");
		return;
	}
	for (int i = 0; i < t->nnodes; i++)
		cpu_nodes += t->nodes[i].local.n > 0;
	c->packages = t->packages;
	c->nodes = t->nnodes;
	c->cpu_nodes = cpu_nodes;
	per = cpu_nodes / t->packages;
	if (vm && vm->vm > 0) {
		char nodes[32], packages[32];
		mt_snprintf(nodes, sizeof nodes, mt_plural("%d node", "%d nodes", cpu_nodes),
			    cpu_nodes);
		mt_snprintf(packages, sizeof packages,
			    mt_plural("%d package", "%d packages", t->packages), t->packages);
		mt_snprintf(text, sizeof text, "not visible from a guest (the host's setting; the "
			    "guest sees %s on %s)", nodes, packages);
		unknown(&c->snc, text);
		return;
	}
	if (per > 1)
		mt_snprintf(text, sizeof text, "%d nodes a package (SNC%d or NPS%d)", per, per, per);
	else if (cpu_nodes == t->packages || cpu_nodes <= 1)
		mt_snprintf(text, sizeof text, "1 node a package (no SNC, NPS1)");
	else
		mt_snprintf(text, sizeof text, "%d nodes on %d packages", cpu_nodes, t->packages);
	set(&c->snc, text);
}

/* An hwloc XML: the topology's and the firmware's (hwloc's DMI infos), the
 * rest not recorded. */
static void from_xml(const struct topo *t, const struct mt_vm *vm, struct mt_conditions *c)
{
	for (int i = 0; i < COND_NFIELDS; i++)
		unknown((struct cond_value *)mt_conditions_field(c, i), "not in an hwloc XML");
	snc(c, t, vm);
	if (t && t->about.bios[0])
		set(&c->bios, t->about.bios);
	if (t && t->about.board[0])
		set(&c->board, t->about.board);
	if (t && (t->about.sys_vendor[0] || t->about.product[0])) {
		char text[COND_TEXT];
		mt_snprintf(text, sizeof text, "%s%s%s", t->about.sys_vendor,
			    t->about.sys_vendor[0] && t->about.product[0] ? " " : "", t->about.product);
		set(&c->product, text);
	}
	if (vm && vm->vm >= 0)
		set(&c->hypervisor, vm->vm == 0 ? "none" : vm->name[0] ? vm->name : N_("a VM"));
}

/* A sysctl string (or, int_value set, a number) of this machine, "" when
 * it has none. */
static void sysctl_text(const char *name, int int_value, char *buf, size_t len)
{
	size_t n = len - 1;
	buf[0] = '\0';
	if (int_value) {
		int64_t v = 0;
		size_t vl = sizeof v;
		if (mt_plat_sysctl(name, &v, &vl) == 0)
			mt_snprintf(buf, len, "%lld",
				    (long long)(vl == sizeof(int32_t) ? (int64_t)(int32_t)v : v));
	} else if (mt_plat_sysctl(name, buf, &n) == 0) {
		buf[n < len ? n : len - 1] = '\0';
	} else {
		buf[0] = '\0';
	}
}

/* macOS: what sysctl gives (no /sys, no /proc): the model, the kernel, the
 * memory (unified: no DIMMs to list), SMT (logical against physical CPUs),
 * the core types (perflevels: macOS picks their clocks), a VM; the rest
 * said to be Linux's. */
static void from_sysctl(struct mt_conditions *c)
{
	char a[COND_TEXT], b[COND_TEXT], text[COND_TEXT];
	long np = 0;
	for (int i = 0; i < COND_NFIELDS; i++)
		unknown((struct cond_value *)mt_conditions_field(c, i), "Linux's (not on macOS)");
	sysctl_text("hw.model", 0, a, sizeof a);
	if (a[0])
		set(&c->product, a);
	sysctl_text("kern.osrelease", 0, a, sizeof a);
	if (a[0]) {
		mt_snprintf(text, sizeof text, "Darwin %s", a);
		set(&c->kernel, text);
	}
	sysctl_text("hw.memsize", 1, a, sizeof a);
	if (a[0]) {
		char mem[32];
		mt_snprintf(text, sizeof text, "unified, %s (no DIMMs: memory is in the package)",
			    mt_fmt_mem(mem, sizeof mem, strtoull(a, NULL, 10)));
		set(&c->dimms, text);
	}
	sysctl_text("hw.logicalcpu", 1, a, sizeof a);
	sysctl_text("hw.physicalcpu", 1, b, sizeof b);
	if (a[0] && b[0])
		set(&c->smt, strcmp(a, b) == 0 ? "off (one CPU a core)" : "on");
	sysctl_text("hw.nperflevels", 1, a, sizeof a);
	np = strtol(a, NULL, 10);
	text[0] = '\0';
	for (long i = 0; i < np && i < 4; i++) {
		char name[48], kind[32], n[16];
		mt_snprintf(name, sizeof name, "hw.perflevel%ld.name", i);
		sysctl_text(name, 0, kind, sizeof kind);
		mt_snprintf(name, sizeof name, "hw.perflevel%ld.logicalcpu", i);
		sysctl_text(name, 1, n, sizeof n);
		mt_append(text, sizeof text, "%s%s on %s", i ? ", " : "", kind[0] ? kind : "?",
			  n[0] ? n : "?");
	}
	if (text[0]) {
		mt_append(text, sizeof text, " (macOS sets the clocks)");
		set(&c->governor, text);
	}
	sysctl_text("kern.hv_vmm_present", 1, a, sizeof a);
	if (a[0])
		set(&c->hypervisor, strcmp(a, "0") == 0 ? "none" : N_("a VM (kern.hv_vmm_present)"));
#if defined(__VERSION__)
	set(&c->compiler, __VERSION__);
#endif
}

void mt_conditions_read(const char *root, const struct topo *t, const struct mt_vm *vm,
			struct mt_conditions *c)
{
	char *k;
	memset(c, 0, sizeof *c);
	c->have = 1;
	if (!root) {
		from_xml(t, vm, c);
		return;
	}
	if (!root[0] && mt_plat_has_sysctl()) {
		from_sysctl(c);
		return;
	}
	snc(c, t, vm);
	microcode(c, root);
	dmi(c, root);
	cpufreq(c, root);
	if ((k = line_of(root, "/sys/devices/system/cpu/smt/control")) &&
	    mt_conditions_smt_words(k))
		set(&c->smt, mt_conditions_smt_words(k));
	else if (k)
		unknown(&c->smt, strcmp(k, "notimplemented") == 0
					 ? "the kernel has no SMT control for this CPU"
					 : "smt/control holds no known word");
	else
		unknown(&c->smt, absent(root, "no SMT control (an old kernel)"));
	free(k);
	if (!vm || vm->vm < 0)
		unknown(&c->hypervisor, "not known (no CPUID, no DMI)");
	else
		set(&c->hypervisor, vm->vm == 0 ? "none" : vm->name[0] ? vm->name : N_("a VM"));
	mitigations(c, root);
	{ /* Documentation/admin-guide/sysctl/kernel.rst: a bit mask */
		static const char *const nb[] = { "off", "on", "memory tiering",
						   "on, memory tiering" };
		switch_of(&c->numa_balancing, root, "/proc/sys/kernel/numa_balancing", nb, 4,
			  absent(root, "no kernel.numa_balancing (no NUMA balancing built in)"));
	}
	bracketed(&c->thp, root, "/sys/kernel/mm/transparent_hugepage/enabled",
		  absent(root, "no THP (a kernel built without it)"));
	bracketed(&c->thp_defrag, root, "/sys/kernel/mm/transparent_hugepage/defrag",
		  absent(root, "no THP (a kernel built without it)"));
	dimms(c, root);
	if (!root[0]) {
		struct utsname u;
		if (uname(&u) == 0)
			set(&c->kernel, u.release);
		else
			unknown(&c->kernel, "uname failed");
#if defined(__VERSION__) && defined(__clang__)
		set(&c->compiler, __VERSION__);
#elif defined(__VERSION__) && defined(__GNUC__)
		set(&c->compiler, "gcc " __VERSION__);
#elif defined(__VERSION__)
		set(&c->compiler, __VERSION__);
#else
		unknown(&c->compiler, "not said by the compiler");
#endif
	} else {
		if ((k = line_of(root, "/proc/sys/kernel/osrelease")))
			set(&c->kernel, k);
		else
			unknown(&c->kernel, absent(root, ""));
		free(k);
		unknown(&c->compiler, "a recorded machine: no kernels built for it");
	}
}

static struct mt_conditions this_cond;

static void read_this(void)
{
	mt_conditions_read("", topo_this_machine(), mt_vm_this(), &this_cond);
}

const struct mt_conditions *mt_conditions_this(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, read_this);
	return &this_cond;
}

static const char *const names[COND_NFIELDS] = {
	"snc", "microcode", "bios", "board", "product", "governor", "freq", "boost", "smt",
	"hypervisor", "mitigations", "numa_balancing", "thp", "thp_defrag", "dimms", "kernel",
	"compiler",
};

/* What a reader calls each: "memory" for the DIMMs. */
static const char *const labels[COND_NFIELDS] = {
	"SNC/NPS", "microcode", "firmware", "board", "product", "governor", "clock limits",
	"boost", "SMT", "hypervisor", "mitigations", "NUMA balancing", "THP", "THP defrag",
	"memory", "kernel", "compiler",
};

const char *mt_conditions_label(int i)
{
	return i >= 0 && i < COND_NFIELDS ? labels[i] : NULL;
}

const char *mt_conditions_name(int i)
{
	return i >= 0 && i < COND_NFIELDS ? names[i] : NULL;
}

const struct cond_value *mt_conditions_field(const struct mt_conditions *c, int i)
{
	const struct cond_value *f[COND_NFIELDS] = {
		&c->snc, &c->microcode, &c->bios, &c->board, &c->product, &c->governor, &c->freq,
		&c->boost, &c->smt, &c->hypervisor, &c->mitigations, &c->numa_balancing, &c->thp,
		&c->thp_defrag, &c->dimms, &c->kernel, &c->compiler,
	};
	return i >= 0 && i < COND_NFIELDS ? f[i] : NULL;
}

cJSON *mt_conditions_to_json(const struct mt_conditions *c)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || !cJSON_AddNumberToObject(o, "packages", c->packages) ||
	    !cJSON_AddNumberToObject(o, "nodes", c->nodes) ||
	    !cJSON_AddNumberToObject(o, "cpu_nodes", c->cpu_nodes) ||
	    !cJSON_AddNumberToObject(o, "dimm_count", c->ndimms) ||
	    !cJSON_AddNumberToObject(o, "dimm_bytes", (double)c->dimm_bytes) ||
	    !cJSON_AddNumberToObject(o, "dimm_channels", c->channels))
		goto oom;
	for (int i = 0; i < COND_NFIELDS; i++) {
		const struct cond_value *v = mt_conditions_field(c, i);
		cJSON *x = NULL;
		if (v->known) {
			x = cJSON_CreateString(v->text);
		} else if ((x = cJSON_CreateObject()) && !cJSON_AddStringToObject(x, "unknown", v->text)) {
			cJSON_Delete(x);
			x = NULL;
		}
		if (!x || !cJSON_AddItemToObject(o, names[i], x))
			goto oom;
	}
	return o;
oom:
	cJSON_Delete(o);
	return NULL;
}

void mt_conditions_from_json(const cJSON *o, struct mt_conditions *c)
{
	memset(c, 0, sizeof *c);
	if (!cJSON_IsObject(o))
		return;
	c->have = 1;
	c->packages = (int)jsonio_opt_int(o, "packages", 0, 1 << 20, 0);
	c->nodes = (int)jsonio_opt_int(o, "nodes", 0, 1 << 20, 0);
	/* before cpu_nodes, "nodes" counted the nodes with CPUs alone */
	c->cpu_nodes = (int)jsonio_opt_int(o, "cpu_nodes", 0, 1 << 20, c->nodes);
	c->ndimms = (int)jsonio_opt_int(o, "dimm_count", 0, 1 << 20, 0);
	c->dimm_bytes = (uint64_t)jsonio_opt_int(o, "dimm_bytes", 0, 1L << 60, 0);
	c->channels = (int)jsonio_opt_int(o, "dimm_channels", 0, 1 << 20, 0);
	for (int i = 0; i < COND_NFIELDS; i++) {
		struct cond_value *v = (struct cond_value *)mt_conditions_field(c, i);
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, names[i]);
		if (cJSON_IsString(x) && v == &c->smt && mt_conditions_smt_words(x->valuestring)) {
			set(v, mt_conditions_smt_words(x->valuestring)); /* an older file's raw word */
		} else if (cJSON_IsString(x)) {
			set(v, x->valuestring);
		} else if (cJSON_IsObject(x)) {
			const cJSON *why = cJSON_GetObjectItemCaseSensitive(x, "unknown");
			v->known = 0;
			mt_printable(v->text, sizeof v->text,
				     cJSON_IsString(why) ? why->valuestring : "not recorded", 0);
		} else {
			unknown(v, "not recorded");
		}
	}
}
