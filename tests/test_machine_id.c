/* Unit tests of which machine made a result: SHA-256 (base/sha256.h)
 * against the FIPS 180-2 examples; the machine id (os/machine_id.h) of
 * synthetic Linux trees made here: two clones of one image apart by their
 * MACs, one machine alike whenever it is read, the DMI UUID only where it
 * is readable, placeholders counted as nothing, the first physical NIC by
 * name; and the run header's field both ways and its "same machine" rule
 * (run/runhdr.h). Nothing here reads this machine. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/sha256.h"
#include "base/util.h"
#include "os/child.h"
#include "os/machine_id.h"
#include "run/runhdr.h"

/* The SHA-256 of len bytes of data, in hex. */
static const char *sha_hex(const void *data, size_t len, size_t step)
{
	static char hex[2 * MT_SHA256_BYTES + 1];
	unsigned char d[MT_SHA256_BYTES];
	struct mt_sha256 s;
	const unsigned char *p = data;
	mt_sha256_init(&s);
	for (size_t at = 0; at < len; at += step) /* in pieces: blocks cut anywhere */
		mt_sha256_update(&s, p + at, len - at < step ? len - at : step);
	mt_sha256_final(&s, d);
	return mt_sha256_hex(d, MT_SHA256_BYTES, hex, sizeof hex);
}

/* FIPS 180-2's examples (appendix B), and the empty message; a million
 * 'a's fed in pieces that straddle the blocks. */
static void sha256_examples(void **state)
{
	static const char two[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	char *a = malloc(1000000);
	(void)state;
	assert_string_equal(sha_hex("abc", 3, 64),
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_string_equal(sha_hex("", 0, 64),
			    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	assert_string_equal(sha_hex(two, strlen(two), 7),
			    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	assert_non_null(a);
	memset(a, 'a', 1000000);
	assert_string_equal(sha_hex(a, 1000000, 997),
			    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
}

/* root/path made with text in it (its folders too). */
static void put(const char *root, const char *path, const char *text)
{
	char full[MT_PATH_MAX], dir[MT_PATH_MAX];
	FILE *f;
	mt_snprintf(full, sizeof full, "%s/%s", root, path);
	mt_strlcpy(dir, full, sizeof dir);
	*strrchr(dir, '/') = '\0';
	assert_int_equal(mt_mkdir_p(dir, NULL), 0);
	assert_non_null(f = fopen(full, "w"));
	fputs(text, f);
	fclose(f);
}

/* A NIC in the tree: its address, its addr_assign_type, a device or not. */
static void nic(const char *root, const char *name, const char *mac, const char *type, int dev)
{
	char path[200];
	mt_snprintf(path, sizeof path, "sys/class/net/%s/address", name);
	put(root, path, mac);
	mt_snprintf(path, sizeof path, "sys/class/net/%s/addr_assign_type", name);
	put(root, path, type);
	if (dev) {
		mt_snprintf(path, sizeof path, "sys/class/net/%s/device/vendor", name);
		put(root, path, "0x1af4\n");
	}
}

/* A new empty tree; rm_tree removes it. */
static void new_tree(char *dir)
{
	assert_non_null(mkdtemp(dir));
}

static void rm_tree(const char *dir)
{
	const char *argv[] = { "rm", "-rf", dir, NULL };
	struct mt_run_end end;
	char *out = mt_run_child(argv, 0, 5000, 0, &end);
	assert_non_null(out);
	free(out);
}

/* A VM of the image: machine-id of the image, its NIC's MAC, lo and a
 * bridge (no device) beside it. */
static void vm_tree(const char *root, const char *mac)
{
	put(root, "etc/machine-id", "0123456789abcdef0123456789abcdef\n");
	nic(root, "lo", "00:00:00:00:00:00\n", "0\n", 0);
	nic(root, "br0", "aa:aa:aa:aa:aa:aa\n", "3\n", 0);
	nic(root, "eth0", mac, "0\n", 1);
}

/* Two clones of one image apart by their MACs; one of them the same
 * whenever read; the hash pinned (SHA-256 of "memtop machine id 1", the
 * machine-id and the MAC: files written today name the machine so
 * tomorrow); what went in said, no raw identifier anywhere in it. */
static void clones_apart(void **state)
{
	char a[] = "/tmp/memtop-mid-XXXXXX", b[] = "/tmp/memtop-mid-XXXXXX";
	struct mt_machine_id ia, ia2, ib;
	(void)state;
	new_tree(a);
	new_tree(b);
	vm_tree(a, "52:54:00:12:34:56\n");
	vm_tree(b, "52:54:00:9a:bc:de\n");
	mt_machine_id_read(a, &ia);
	mt_machine_id_read(a, &ia2);
	mt_machine_id_read(b, &ib);
	assert_string_equal(ia.id, "31771c71e33a9708");
	assert_string_equal(ia.id, ia2.id);
	assert_string_not_equal(ia.id, ib.id);
	assert_string_equal(ia.dmi, "");
	assert_string_equal(ia.from, "machine-id, MAC of eth0");
	assert_int_equal(mt_machine_id_valid(ia.id), 1);
	rm_tree(a);
	rm_tree(b);
}

/* The DMI product UUID where it is readable: the id stays what every user
 * reads, the dmi hash tells two clones that share a MAC apart; a
 * placeholder UUID is none. */
static void dmi_where_readable(void **state)
{
	char a[] = "/tmp/memtop-mid-XXXXXX", b[] = "/tmp/memtop-mid-XXXXXX";
	struct mt_machine_id ia, ib;
	(void)state;
	new_tree(a);
	new_tree(b);
	vm_tree(a, "52:54:00:12:34:56\n");
	vm_tree(b, "52:54:00:12:34:56\n");
	put(a, "sys/class/dmi/id/product_uuid", "4C4C4544-0042-3510-8052-B4C04F4D3732\n");
	put(b, "sys/class/dmi/id/product_uuid", "03000200-0400-0500-0006-000700080009\n");
	mt_machine_id_read(a, &ia);
	mt_machine_id_read(b, &ib);
	assert_string_equal(ia.id, ib.id);
	assert_string_equal(ia.dmi, "1bccbb4f7da0387f"); /* the UUID read in lower case */
	assert_string_equal(ia.from, "machine-id, MAC of eth0, DMI UUID");
	assert_string_equal(ib.dmi, "");
	put(b, "sys/class/dmi/id/product_uuid", "00000000-0000-0000-0000-000000000000\n");
	mt_machine_id_read(b, &ib);
	assert_string_equal(ib.dmi, "");
	rm_tree(a);
	rm_tree(b);
}

/* The first physical NIC by name with a permanent MAC: not lo, not a
 * bridge, not one whose address was set or made up (in a recorded tree,
 * where ethtool cannot be asked), not a zero MAC. An empty tree and
 * placeholders give no id, and say so. */
static void sources_chosen(void **state)
{
	char t[] = "/tmp/memtop-mid-XXXXXX";
	struct mt_machine_id m;
	(void)state;
	new_tree(t);
	mt_machine_id_read(t, &m);
	assert_string_equal(m.id, "");
	assert_string_equal(m.from, "none readable: no /etc/machine-id, no NIC with a permanent MAC");
	put(t, "etc/machine-id", "00000000000000000000000000000000\n");
	nic(t, "eth0", "00:00:00:00:00:00\n", "0\n", 1);
	mt_machine_id_read(t, &m);
	assert_string_equal(m.id, "");
	nic(t, "enp2s0", "52:54:00:00:00:02\n", "0\n", 1);
	nic(t, "enp1s0", "52:54:00:00:00:01\n", "3\n", 1); /* set by hand: not its own */
	nic(t, "docker0", "02:42:00:00:00:01\n", "0\n", 0);
	mt_machine_id_read(t, &m);
	assert_string_equal(m.from, "MAC of enp2s0");
	assert_int_equal(mt_machine_id_valid(m.id), 1);
	rm_tree(t);
}

/* The header's field both ways: written, read back; a field that is not a
 * machine id as memtop writes it (upper case, too long) is none. */
static void header_both_ways(void **state)
{
	struct run_header h, back;
	cJSON *o = cJSON_CreateObject();
	(void)state;
	memset(&h, 0, sizeof h);
	mt_strlcpy(h.host, "ubuntu", sizeof h.host);
	mt_strlcpy(h.machine_id, "31771c71e33a9708", sizeof h.machine_id);
	mt_strlcpy(h.machine_from, "machine-id, MAC of eth0", sizeof h.machine_from);
	h.quick = 1;
	assert_int_equal(run_header_to_json(&h, o), 0);
	run_header_from_json(o, &back);
	assert_string_equal(back.machine_id, "31771c71e33a9708");
	assert_string_equal(back.machine_from, "machine-id, MAC of eth0");
	assert_string_equal(back.machine_dmi, "");
	assert_int_equal(back.quick, 1);
	cJSON_ReplaceItemInObject(o, "machine_id", cJSON_CreateString("31771C71E33A9708"));
	run_header_from_json(o, &back);
	assert_string_equal(back.machine_id, "");
	assert_string_equal(back.machine_from, "");
	cJSON_ReplaceItemInObject(o, "machine_id", cJSON_CreateString("31771c71e33a97080000"));
	run_header_from_json(o, &back);
	assert_string_equal(back.machine_id, "");
	cJSON_Delete(o);
}

/* One machine: ids agree (and DMI ones where both have one); without ids,
 * the same named host and CPU. */
static void same_machine_rule(void **state)
{
	struct run_header a, b;
	(void)state;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	mt_strlcpy(a.host, "ubuntu", sizeof a.host);
	mt_strlcpy(b.host, "ubuntu", sizeof b.host);
	mt_strlcpy(a.cpu, "EPYC", sizeof a.cpu);
	mt_strlcpy(b.cpu, "EPYC", sizeof b.cpu);
	assert_int_equal(run_header_same_machine(&a, &b), 1);
	mt_strlcpy(a.machine_id, "31771c71e33a9708", sizeof a.machine_id);
	mt_strlcpy(b.machine_id, "0ff9e13d74baa407", sizeof b.machine_id);
	assert_int_equal(run_header_same_machine(&a, &b), 0);
	mt_strlcpy(b.machine_id, a.machine_id, sizeof b.machine_id);
	assert_int_equal(run_header_same_machine(&a, &b), 1);
	mt_strlcpy(a.machine_dmi, "1bccbb4f7da0387f", sizeof a.machine_dmi);
	assert_int_equal(run_header_same_machine(&a, &b), 1); /* b ran without root */
	mt_strlcpy(b.machine_dmi, "2bccbb4f7da0387f", sizeof b.machine_dmi);
	assert_int_equal(run_header_same_machine(&a, &b), 0);
	memset(a.machine_id, 0, sizeof a.machine_id);
	mt_strlcpy(a.host, "localhost", sizeof a.host);
	mt_strlcpy(b.host, "localhost", sizeof b.host);
	assert_int_equal(run_header_same_machine(&a, &b), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sha256_examples),
		cmocka_unit_test(clones_apart),
		cmocka_unit_test(dmi_where_readable),
		cmocka_unit_test(sources_chosen),
		cmocka_unit_test(header_both_ways),
		cmocka_unit_test(same_machine_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
