#!/bin/sh
# platform: the operating system and the processor are asked in one place.
# Only os/platform.h (which OS family) and os/arch.h (which processor
# family), and the family files they pick (os/platform_*.c,
# os/arch_*.{c,h}), test the compilers' OS and processor macros; only os/
# tests an OS feature's macro (MADV_*, RUSAGE_*, MAP_*, SCHED_*, ...: the
# sysconf source of info/ its _SC_* names) and names a /proc or /sys file
# (info/ reads its sources there, each under a root a recorded tree can
# replace); every other file of src/ and tui/ goes through their interface.
# One TAP case for the tree and one for a planted violation (the check must
# see it) of each rule. And os/sysinfo.c (the run header's machine) reads no
# /proc or /sys file itself: it asks platform.h, which fails softly where
# they are absent.
. "${TESTLIB:-$(dirname "$0")/lib.sh}"
top=$(cd "$(dirname "$0")/.." && pwd)
plan 8

MACROS='__linux__|__APPLE__|__MACH__|__FreeBSD__|__NetBSD__|__OpenBSD__|_WIN32|__x86_64__|__i386__|__aarch64__|__arm__|__riscv|__powerpc'
FEATURES='MADV_|RUSAGE_|MAP_|SCHED_|CPU_SET|CLOCK_[A-Z]|O_DIRECT|__NR_|SYS_[a-z]|_SC_|PR_SET|MPOL_'
# The lines of the files under $1 (src and tui) that test an OS or processor
# macro outside the platform files, as FILE:LINE:TEXT.
outside() {
	(cd "$1" && grep -rnE "^[[:space:]]*#[[:space:]]*(if|elif|ifdef|ifndef).*($MACROS)" src tui \
		--include='*.c' --include='*.h' |
		grep -vE '^src/os/(platform\.h|platform_[a-z0-9]+\.c|arch\.h|arch_[a-z0-9]+\.[ch]):')
}
# ... that test an OS feature's macro outside os/ (and info's sysconf source).
features() {
	(cd "$1" && grep -rnE "^[[:space:]]*#[[:space:]]*(if|elif|ifdef|ifndef).*($FEATURES)" src tui \
		--include='*.c' --include='*.h' |
		grep -vE '^src/os/|^src/info/info_sysconf\.c:')
}
# ... that name a /proc or /sys file outside os/ and info/.
kernel_files() {
	(cd "$1" && grep -rnE '"/(proc|sys)(/|")' src tui --include='*.c' --include='*.h' |
		grep -vE '^src/(os|info)/')
}

got=$(outside "$top")
is "no OS or processor test outside os/platform* and os/arch*" "$got" ""
got=$(features "$top")
is "no OS feature's macro tested outside os/" "$got" ""
got=$(kernel_files "$top")
is "no /proc or /sys file named outside os/ and info/" "$got" ""

plant=$TMP/tree
mkdir -p "$plant/src/matmul" "$plant/tui" "$plant/src/os" "$plant/src/bandwidth"
printf '#include "config.h"\n  # if defined(__APPLE__)\nint x;\n#endif\n' >"$plant/src/matmul/planted.c"
printf '#ifdef __linux__\n#endif\n' >"$plant/src/os/platform_linux.c"
got=$(outside "$plant")
is "a planted test in src/matmul is found" "$got" "src/matmul/planted.c:2:  # if defined(__APPLE__)"
printf '#ifdef __aarch64__\n#endif\n' >"$plant/tui/x.h"
got=$(outside "$plant" | wc -l | tr -d ' ')
is "... and one in tui/" "$got" 2
printf '#ifdef MADV_NOHUGEPAGE\n#endif\n#ifdef RUSAGE_THREAD\n#endif\n' >"$plant/src/bandwidth/b.c"
printf '#ifdef MADV_HUGEPAGE\n#endif\n' >"$plant/src/os/platform_linux.c"
got=$(features "$plant" | cut -d: -f1,2 | tr '\n' ' ')
is "a planted MADV_ and RUSAGE_ test outside os/ are found (not os/'s)" "$got" \
	"src/bandwidth/b.c:1 src/bandwidth/b.c:3 "
printf 'FILE *f = fopen("/proc/cpuinfo", "r");\n' >"$plant/src/bandwidth/c.c"
printf 'FILE *f = fopen("/sys/kernel/mm", "r");\n' >"$plant/src/os/p.c"
got=$(kernel_files "$plant" | cut -d: -f1,2)
is "a planted /proc read outside os/ is found (not os/'s)" "$got" "src/bandwidth/c.c:1"

got=$(grep -nE '"/(proc|sys)/' "$top/src/os/sysinfo.c")
is "os/sysinfo.c names no /proc or /sys file (platform.h reads them)" "$got" ""
