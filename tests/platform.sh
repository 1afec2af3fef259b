#!/bin/sh
# platform: the operating system and the processor are asked in one place
# each. Only core/platform.h (which OS family) and core/arch.h (which
# processor family), and the family files they pick (core/platform_*.c,
# core/arch_*.{c,h}), test the compilers' OS and processor macros; every
# other file of src/ and tui/ goes through their interface. One TAP case for
# the tree, one for a planted violation (the check must see it). And
# core/sysinfo.c (the run header's machine) reads no /proc or /sys file
# itself: it asks platform.h, which fails softly where they are absent.
. "${TESTLIB:-$(dirname "$0")/lib.sh}"
top=$(cd "$(dirname "$0")/.." && pwd)
plan 4

MACROS='__linux__|__APPLE__|__MACH__|__FreeBSD__|__NetBSD__|__OpenBSD__|_WIN32|__x86_64__|__i386__|__aarch64__|__arm__|__riscv|__powerpc'
# The lines of the files under $1 (src and tui) that test an OS or processor
# macro outside the platform files, as FILE:LINE:TEXT.
outside() {
	(cd "$1" && grep -rnE "^[[:space:]]*#[[:space:]]*(if|elif|ifdef|ifndef).*($MACROS)" src tui \
		--include='*.c' --include='*.h' |
		grep -vE '^src/core/(platform\.h|platform_[a-z0-9]+\.c|arch\.h|arch_[a-z0-9]+\.[ch]):')
}

got=$(outside "$top")
is "no OS or processor test outside core/platform* and core/arch*" "$got" ""

plant=$TMP/tree
mkdir -p "$plant/src/labs" "$plant/tui" "$plant/src/core"
printf '#include "config.h"\n  # if defined(__APPLE__)\nint x;\n#endif\n' >"$plant/src/labs/planted.c"
printf '#ifdef __linux__\n#endif\n' >"$plant/src/core/platform_linux.c"
got=$(outside "$plant")
is "a planted test in src/labs is found" "$got" "src/labs/planted.c:2:  # if defined(__APPLE__)"
printf '#ifdef __aarch64__\n#endif\n' >"$plant/tui/x.h"
got=$(outside "$plant" | wc -l | tr -d ' ')
is "... and one in tui/" "$got" 2

got=$(grep -nE '"/(proc|sys)/' "$top/src/core/sysinfo.c")
is "core/sysinfo.c names no /proc or /sys file (platform.h reads them)" "$got" ""
