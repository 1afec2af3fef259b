/* vm: whether a machine is a VM and under which hypervisor, from the CPUID
 * leaf hypervisors answer (0x40000000: a 12-byte signature) and the
 * firmware's DMI strings that hwloc records (vm.h). A recorded machine has
 * only its DMI strings and its CPU's model name. */
#include "config.h"

#include "vm.h"
#include "arch.h"
#include "base/i18n.h"

#include <pthread.h>

#include <string.h>
#include <strings.h>

/* CPUID 0x40000000's signatures, as the hypervisors document them. */
static const struct {
	const char sig[13];
	const char *name;
} signatures[] = {
	{ "KVMKVMKVM\0\0\0", "KVM" },
	{ "Microsoft Hv", "Hyper-V" },
	{ "VMwareVMware", "VMware" },
	{ "XenVMMXenVMM", "Xen" },
	{ "TCGTCGTCGTCG", "QEMU (TCG)" },
	{ " lrpepyh  vr", "Parallels" },
	{ "bhyve bhyve ", "bhyve" },
	{ "ACRNACRNACRN", "ACRN" },
	{ "VBoxVBoxVBox", "VirtualBox" },
	{ "QNXQVMBSQG\0\0", "QNX" },
	{ "Jailhouse\0\0\0", "Jailhouse" },
	{ "HAXMHAXMHAXM", "HAXM" },
};

const char *mt_vm_signature(const char *sig)
{
	for (size_t i = 0; i < MT_ARRAY_LEN(signatures); i++)
		if (memcmp(sig, signatures[i].sig, 12) == 0)
			return signatures[i].name;
	return NULL;
}

/* DMI's words for a VM: a system vendor (or a product) naming a hypervisor
 * or a cloud's virtual machines. */
static const struct {
	const char *vendor;  /* a prefix of sys_vendor, case-insensitive; NULL: any */
	const char *product; /* a word product_name must hold; NULL: any */
	const char *name;
} dmi[] = {
	/* QEMU's machine: under KVM or TCG (its own CPU emulation), which DMI
	 * does not tell: CPUID's signature does (or, recorded, the CPU's model) */
	{ "QEMU", NULL, "QEMU" },
	{ NULL, "Standard PC (i440FX", "QEMU" },
	{ NULL, "Standard PC (Q35", "QEMU" },
	{ "Bochs", NULL, "QEMU" },
	{ "Red Hat", "KVM", "KVM" },
	{ NULL, "KVM", "KVM" },
	{ "OpenStack", NULL, "OpenStack (KVM)" },
	{ "Amazon EC2", NULL, "AWS Nitro" },
	{ "Google", "Compute Engine", "Google Compute Engine" },
	{ "Microsoft Corporation", "Virtual Machine", "Hyper-V" },
	{ "VMware", NULL, "VMware" },
	{ "Xen", NULL, "Xen" },
	{ "innotek", NULL, "VirtualBox" },
	{ "Oracle Corporation", "VirtualBox", "VirtualBox" },
	{ "Parallels", NULL, "Parallels" },
	{ "DigitalOcean", NULL, "DigitalOcean (KVM)" },
	{ "Alibaba Cloud", NULL, "Alibaba Cloud ECS" },
	{ "Hetzner", "vServer", "Hetzner (KVM)" },
	{ "Apple Inc.", "Virtual", "Apple Virtualization" },
};

const char *mt_vm_dmi(const char *vendor, const char *product)
{
	if (product && strcasestr(product, "metal")) /* "c6i.metal": a cloud's bare metal */
		return NULL;
	for (size_t i = 0; i < MT_ARRAY_LEN(dmi); i++) {
		if (dmi[i].vendor && (!vendor || strncasecmp(vendor, dmi[i].vendor,
							       strlen(dmi[i].vendor)) != 0))
			continue;
		if (dmi[i].product && (!product || !strcasestr(product, dmi[i].product)))
			continue;
		if (!dmi[i].vendor && !dmi[i].product)
			continue;
		return dmi[i].name;
	}
	return NULL;
}

/* The signature of leaf (0x40000000 or 0x40000100) into sig (12 bytes and
 * a NUL). Returns 0, or -1 when there is no CPUID. */
static int signature(unsigned leaf, char sig[13])
{
	uint32_t r[4];
	if (mt_arch_cpuid(leaf, 0, r) < 0)
		return -1;
	memcpy(sig, &r[1], 4);
	memcpy(sig + 4, &r[2], 4);
	memcpy(sig + 8, &r[3], 4);
	sig[12] = '\0';
	return 0;
}

/* This machine's CPUID says a hypervisor: its name into vm. */
static void from_cpuid(struct mt_vm *vm)
{
	char sig[13], clean[13];
	const char *name;
	vm->vm = 1;
	if (signature(0x40000000u, sig) < 0) {
		mt_strlcpy(vm->why, VM_WHY_BIT_SET, sizeof vm->why);
		return;
	}
	name = mt_vm_signature(sig);
	if (name && strcmp(name, "Hyper-V") == 0) { /* KVM with Hyper-V's interface first */
		char kvm[13];
		if (signature(0x40000100u, kvm) == 0 && mt_vm_signature(kvm) &&
		    strcmp(mt_vm_signature(kvm), "KVM") == 0) {
			name = "KVM";
			memcpy(sig, kvm, sizeof kvm);
		}
	}
	mt_printable(clean, sizeof clean, sig, 0);
	mt_strlcpy(vm->name, name ? name : "", sizeof vm->name);
	mt_snprintf(vm->why, sizeof vm->why, VM_WHY_CPUID, clean);
}

/* What a recorded machine's CPU model says of QEMU: "QEMU (TCG)" for the
 * model TCG names its CPUs with ("QEMU TCG CPU version 2.5+"), "QEMU" for
 * qemu64's ("QEMU Virtual CPU", under KVM or TCG), else NULL. */
static const char *qemu_cpu(const char *model)
{
	if (strstr(model, "QEMU TCG CPU"))
		return "QEMU (TCG)";
	if (strstr(model, "QEMU Virtual CPU"))
		return "QEMU";
	return NULL;
}

/* "DMI says 'VENDOR PRODUCT'", a clause of vm->why */
static void dmi_says(struct mt_vm *vm, const struct topo_about *a)
{
	char says[132];
	mt_snprintf(says, sizeof says, "%s%s%s", a->sys_vendor, a->product[0] ? " " : "", a->product);
	mt_append(vm->why, sizeof vm->why, "%s" VM_WHY_DMI, vm->why[0] ? "; " : "", says);
}

void mt_vm_detect(const struct topo *t, int cpuid_bit, int live, struct mt_vm *vm)
{
	const struct topo_about *a = t ? &t->about : NULL;
	const char *d = a ? mt_vm_dmi(a->sys_vendor, a->product) : NULL;
	const char *q = a && !live ? qemu_cpu(a->cpu_model) : NULL;
	memset(vm, 0, sizeof *vm);
	vm->vm = -1;
	if (live && cpuid_bit)
		from_cpuid(vm);
	if (d) {
		if (!vm->name[0])
			mt_strlcpy(vm->name, q && !strcmp(d, "QEMU") ? q : d, sizeof vm->name);
		dmi_says(vm, a);
		vm->vm = 1;
	} else if (q) {
		vm->vm = 1;
		mt_strlcpy(vm->name, q, sizeof vm->name);
	}
	if (q && vm->vm == 1)
		mt_append(vm->why, sizeof vm->why, "%s" VM_WHY_MODEL, vm->why[0] ? "; " : "", a->cpu_model);
	else if (d && !strcmp(vm->name, "QEMU"))
		mt_append(vm->why, sizeof vm->why, VM_WHY_QEMU_TAIL);
	if (vm->vm != -1)
		return;
	/* not a VM as far as what there is tells: CPUID's bit (live, x86), DMI */
	if (live && mt_arch_cpuid(0, 0, (uint32_t[4]){ 0 }) == 0) {
		vm->vm = 0;
		mt_strlcpy(vm->why, VM_WHY_BIT_CLEAR, sizeof vm->why);
	}
	if (a && a->sys_vendor[0]) {
		vm->vm = 0;
		dmi_says(vm, a);
	}
}

static struct mt_vm this_vm;

static void detect_this(void)
{
	uint32_t r[4];
	int bit = mt_arch_cpuid(1, 0, r) == 0 && (r[2] >> 31) & 1;
	mt_vm_detect(topo_this_machine(), bit, 1, &this_vm);
}

const struct mt_vm *mt_vm_this(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, detect_this);
	return &this_vm;
}

const char *mt_vm_text(const struct mt_vm *vm, char *buf, size_t len)
{
	static const char *const forms[] = { VM_WHY_FORMS, NULL };
	char why[160], words[320];
	mt_printable(why, sizeof why, vm->why, 0);
	mt_gettext_stored(words, sizeof words, why, forms);
	if (vm->vm == 1 && vm->name[0])
		/* TRANSLATORS: the hypervisor's name, then what told */
		mt_snprintf(buf, len, _("a VM, %s (%s)"), vm->name, words);
	else if (vm->vm == 1)
		mt_snprintf(buf, len, _("a VM (%s)"), words);
	else if (vm->vm == 0)
		mt_snprintf(buf, len, _("not a VM as far as can be told (%s)"), words);
	else
		mt_strlcpy(buf, _("VM or not: unknown (no CPUID, no DMI strings)"), len);
	return buf;
}
