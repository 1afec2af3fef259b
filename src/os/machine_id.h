/* machine_id: which machine made a result, as a name that gives none of
 * its identifiers away. Thirty VMs made from one image share a host name,
 * a CPU model and a memory size; what tells them apart is what the
 * hypervisor gave each: its NIC's MAC, its DMI product UUID, and, where the
 * image was made ready for cloning, its /etc/machine-id. Those are hashed
 * together (SHA-256 of "memtop machine id 1" and each source's name and
 * value, its first 64 bits in hex), so that a result file names a machine
 * without naming its MAC or UUID (as systemd's machine-id(5) asks of
 * programs that use the machine ID).
 *
 * Two hashes, so that one machine has one name whoever runs memtop there:
 * id, of what every user can read (/etc/machine-id, the permanent MAC of
 * the first physical NIC by name; macOS: the hardware UUID), and dmi, of
 * those and the DMI product UUID, which only root can read
 * (/sys/class/dmi/id/product_uuid, mode 0400). Two results whose ids agree
 * are of one machine unless both carry a dmi and those differ (clones
 * whose NICs share a MAC, run as root). A run that can read none of them
 * (a container) records none: the fleet then knows its machine by the
 * host, the CPU and the file's name, as for files from before. Stable
 * across runs and reboots: none of the sources changes when a machine
 * restarts. */
#ifndef MEMTOP_MACHINE_ID_H
#define MEMTOP_MACHINE_ID_H

#include <stddef.h>

#include "base/i18n.h"

#define MT_MACHINE_ID_HEX 16 /* the hash's first 64 bits, in hex */

struct mt_machine_id {
	char id[MT_MACHINE_ID_HEX + 1];  /* "" when no source everyone reads was readable */
	char dmi[MT_MACHINE_ID_HEX + 1]; /* with the DMI product UUID too; "" not readable */
	char from[120];                   /* what went in: "machine-id, MAC of enp1s0, DMI UUID",
					   * or why nothing did */
};

/* The identity of the Linux tree under root ("" this machine: then the
 * OS's own answers too, a NIC's permanent MAC through ethtool and macOS's
 * hardware UUID; a folder: the files recorded there only, for tests: a
 * result never takes its identity from a recorded tree). Placeholder
 * values (an all-zero machine-id, UUIDs firmware fills with zeros, ones
 * or the 03000200-0400-... pattern, a zero MAC) count as absent. Never
 * fails: m->id "" and m->from saying why when nothing is readable. */
void mt_machine_id_read(const char *root, struct mt_machine_id *m);

/* The parts of from (English: a result keeps them), marked for the
 * catalogue; mt_machine_from_text shows them in the user's language. */
#define MACHINE_FROM_MAC N_("MAC of %s")
#define MACHINE_FROM_HOST_UUID N_("hardware UUID")
#define MACHINE_FROM_DMI_UUID N_("DMI UUID")

/* from ("machine-id, MAC of eth0, DMI UUID", stored) in the user's language,
 * made printable, into buf. Returns buf. */
const char *mt_machine_from_text(const char *from, char *buf, size_t len);

/* This machine's, read on the first call (thread-safe). Never NULL. */
const struct mt_machine_id *mt_machine_id_this(void);

/* 1 when id is a machine id as memtop writes it (MT_MACHINE_ID_HEX
 * lower-case hex digits), else 0. */
int mt_machine_id_valid(const char *id);

#endif
