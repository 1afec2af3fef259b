/* machine_id: see machine_id.h. Plain reads of the Linux tree under a root
 * (the files every Linux has in these places), the OS's own answers
 * through platform.h. */
#include "config.h"

#include "machine_id.h"
#include "platform.h"
#include "base/sha256.h"
#include "base/util.h"

#include <ctype.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_NICS 64 /* interfaces looked at */

/* The first line of root/path in lower case, blanks cut, into buf; 0, or
 * -1 when absent, unreadable (product_uuid to anyone but root) or empty. */
static int first_line(const char *root, const char *path, char *buf, size_t len)
{
	char full[MT_PATH_MAX];
	FILE *f;
	size_t n;
	buf[0] = '\0';
	mt_snprintf(full, sizeof full, "%s%s", root, path);
	if (!(f = fopen(full, "r")))
		return -1;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	for (n = strlen(buf); n > 0 && isspace((unsigned char)buf[n - 1]);)
		buf[--n] = '\0';
	for (char *c = buf; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return buf[0] ? 0 : -1;
}

/* Does s hold at least one character other than those of fill (and the
 * separators '-' and ':')? A machine-id of zeros, a UUID firmware left as
 * zeros or ones, a zero MAC identify nothing. */
static int has_other(const char *s, const char *fill)
{
	for (; *s; s++)
		if (!strchr(fill, *s) && *s != '-' && *s != ':')
			return 1;
	return 0;
}

/* /etc/machine-id when it is one (32 hex digits, not all zero). */
static int read_machine_id(const char *root, char *buf, size_t len)
{
	if (first_line(root, "/etc/machine-id", buf, len) < 0 || strlen(buf) != 32 ||
	    strspn(buf, "0123456789abcdef") != 32 || !has_other(buf, "0"))
		return -1;
	return 0;
}

/* The DMI product UUID when root may read it and the firmware set one. */
static int read_dmi_uuid(const char *root, char *buf, size_t len)
{
	/* the pattern many boards' firmware ships in place of a UUID */
	static const char placeholder[] = "03000200-0400-0500-0006-000700080009";
	if (first_line(root, "/sys/class/dmi/id/product_uuid", buf, len) < 0 ||
	    !has_other(buf, "0") || !has_other(buf, "f") || strcmp(buf, placeholder) == 0)
		return -1;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* NIC name's permanent MAC into mac: its address when the kernel says it
 * is the one it was made with (addr_assign_type 0), else on this machine
 * what ethtool says was. Returns 0, or -1. */
static int nic_mac(const char *root, const char *name, char *mac, size_t len)
{
	char path[MT_PATH_MAX], type[16];
	mt_snprintf(path, sizeof path, "/sys/class/net/%s/addr_assign_type", name);
	if (first_line(root, path, type, sizeof type) == 0 && strcmp(type, "0") != 0)
		return root[0] ? -1 : mt_plat_perm_mac(name, mac, len);
	mt_snprintf(path, sizeof path, "/sys/class/net/%s/address", name);
	if (first_line(root, path, mac, len) < 0 || !has_other(mac, "0"))
		return -1;
	return 0;
}

/* The first NIC by name that is a device (not lo, a bridge, a veth, a
 * tunnel: those have no "device") with a permanent MAC: its name and MAC.
 * Returns 0, or -1 when there is none. */
static int first_nic(const char *root, char *name, size_t nlen, char *mac, size_t mlen)
{
	char dir[MT_PATH_MAX], path[MT_PATH_MAX], *names[MAX_NICS];
	size_t n = 0;
	int rc = -1;
	struct dirent *de;
	struct stat st;
	DIR *d;
	mt_snprintf(dir, sizeof dir, "%s/sys/class/net", root);
	if (!(d = opendir(dir)))
		return -1;
	while ((de = readdir(d)) && n < MAX_NICS) {
		if (de->d_name[0] == '.')
			continue;
		mt_snprintf(path, sizeof path, "%s/%s/device", dir, de->d_name);
		if (stat(path, &st) == 0 && (names[n] = strdup(de->d_name)))
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof names[0], by_name);
	for (size_t i = 0; i < n; i++) {
		if (rc < 0 && nic_mac(root, names[i], mac, mlen) == 0) {
			mt_strlcpy(name, names[i], nlen);
			rc = 0;
		}
		free(names[i]);
	}
	return rc;
}

/* The first 64 bits of SHA-256(text) in hex into hex. */
static void hash_hex(const char *text, char *hex, size_t len)
{
	struct mt_sha256 s;
	unsigned char d[MT_SHA256_BYTES];
	mt_sha256_init(&s);
	mt_sha256_update(&s, text, strlen(text));
	mt_sha256_final(&s, d);
	mt_sha256_hex(d, MT_MACHINE_ID_HEX / 2, hex, len);
}

void mt_machine_id_read(const char *root, struct mt_machine_id *m)
{
	char text[512] = "memtop machine id 1\n", v[160], nic[64];
	memset(m, 0, sizeof *m);
	if (read_machine_id(root, v, sizeof v) == 0) {
		mt_append(text, sizeof text, "machine-id %s\n", v);
		mt_append(m->from, sizeof m->from, "machine-id");
	}
	if (first_nic(root, nic, sizeof nic, v, sizeof v) == 0) {
		mt_append(text, sizeof text, "mac %s\n", v);
		mt_append(m->from, sizeof m->from, "%s" MACHINE_FROM_MAC, m->from[0] ? ", " : "", nic);
	}
	if (!root[0] && mt_plat_host_uuid(v, sizeof v) == 0) {
		mt_append(text, sizeof text, "host-uuid %s\n", v);
		mt_append(m->from, sizeof m->from, "%s" MACHINE_FROM_HOST_UUID, m->from[0] ? ", " : "");
	}
	if (!m->from[0]) {
		mt_strlcpy(m->from, "none readable: no /etc/machine-id, no NIC with a permanent MAC",
			   sizeof m->from);
		return;
	}
	hash_hex(text, m->id, sizeof m->id);
	if (read_dmi_uuid(root, v, sizeof v) == 0) {
		mt_append(text, sizeof text, "dmi-uuid %s\n", v);
		mt_append(m->from, sizeof m->from, ", " MACHINE_FROM_DMI_UUID);
		hash_hex(text, m->dmi, sizeof m->dmi);
	}
}

static struct mt_machine_id this_id;

static void read_this(void)
{
	mt_machine_id_read("", &this_id);
}

const struct mt_machine_id *mt_machine_id_this(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, read_this);
	return &this_id;
}

int mt_machine_id_valid(const char *id)
{
	size_t n = strlen(id);
	return n == MT_MACHINE_ID_HEX && strspn(id, "0123456789abcdef") == n;
}

const char *mt_machine_from_text(const char *from, char *buf, size_t len)
{
	static const char *const forms[] = { MACHINE_FROM_MAC, NULL };
	char safe[sizeof((struct mt_machine_id *)0)->from], part[sizeof safe], words[2 * sizeof safe];
	const char *s = safe;
	mt_printable(safe, sizeof safe, from, 0);
	buf[0] = '\0';
	while (*s) { /* the parts between ", " one by one */
		const char *c = strstr(s, ", ");
		size_t n = c ? (size_t)(c - s) : strlen(s);
		mt_strlcpy(part, s, n + 1 < sizeof part ? n + 1 : sizeof part);
		mt_append(buf, len, "%s%s", s == safe ? "" : ", ",
			  mt_gettext_stored(words, sizeof words, part, forms));
		s += n + (c ? 2 : 0);
	}
	return buf;
}
