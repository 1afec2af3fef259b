/* vm: whether a machine is a VM, under which hypervisor, and what told:
 * CPUID's hypervisor bit and leaf 0x40000000's signature ("KVMKVMKVM") on
 * this machine, and the firmware's DMI strings that hwloc records (a
 * recorded /sys tree or an hwloc XML keeps them). A VM's figures depend on
 * where its host puts its vCPUs and what else runs there: every result
 * says which it is. */
#ifndef MEMTOP_VM_H
#define MEMTOP_VM_H

#include <stddef.h>

#include "base/i18n.h"
#include "topo.h"

/* A hypervisor, or none. */
struct mt_vm {
	int vm;          /* 1 a VM, 0 not as far as can be told, -1 unknown */
	char name[32];   /* "KVM", "Hyper-V", "VMware", "QEMU (TCG)", "QEMU" (DMI
			  * alone: KVM or TCG not told), "AWS Nitro", ...; ""
			  * none or not named */
	char why[160];   /* what told: "CPUID 0x40000000 says 'KVMKVMKVM'; DMI says 'QEMU'" */
};

/* What told, the clauses of why (English: a result file keeps them; marked
 * for the catalogue and shown through mt_gettext_stored with VM_WHY_FORMS).
 * VM_WHY_QEMU_TAIL is appended to a DMI clause. */
#define VM_WHY_BIT_SET N_("CPUID's hypervisor bit is set")
#define VM_WHY_BIT_CLEAR N_("CPUID's hypervisor bit is clear")
#define VM_WHY_CPUID N_("CPUID 0x40000000 says '%s'")
#define VM_WHY_DMI N_("DMI says '%s'")
#define VM_WHY_DMI_QEMU N_("DMI says '%s' (KVM or TCG: DMI does not tell)")
#define VM_WHY_QEMU_TAIL " (KVM or TCG: DMI does not tell)"
#define VM_WHY_MODEL N_("the CPU is a '%s'")
#define VM_WHY_FORMS VM_WHY_CPUID, VM_WHY_DMI_QEMU, VM_WHY_DMI, VM_WHY_MODEL

/* The hypervisor of the machine t describes: live (this machine): CPUID's
 * bit (cpuid_bit) and signature ("TCGTCGTCGTCG": QEMU's TCG, "KVMKVMKVM":
 * KVM), then t's DMI strings; recorded: DMI and the CPU's model name alone
 * (QEMU's TCG names its CPUs "QEMU TCG CPU"). t may be NULL. Into vm. */
void mt_vm_detect(const struct topo *t, int cpuid_bit, int live, struct mt_vm *vm);

/* This machine's, detected on the first call (thread-safe). Never NULL. */
const struct mt_vm *mt_vm_this(void);

/* The name of the hypervisor whose CPUID 0x40000000 signature (12 bytes:
 * ebx, ecx, edx) sig is, or NULL when it names none memtop knows. */
const char *mt_vm_signature(const char *sig);

/* The name of the hypervisor or cloud a DMI system vendor and product say
 * ("QEMU", "AWS Nitro"...), or NULL when they say bare metal or
 * nothing known ("Amazon EC2" with a ".metal" product: NULL). */
const char *mt_vm_dmi(const char *vendor, const char *product);

/* vm in words: "a VM, KVM (CPUID 0x40000000 says 'KVMKVMKVM')", "not a VM
 * as far as can be told (CPUID's hypervisor bit is clear)", "VM or not:
 * unknown (...)". Returns buf. */
const char *mt_vm_text(const struct mt_vm *vm, char *buf, size_t len);

#endif
