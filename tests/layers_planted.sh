#!/bin/sh
# tests/layers.sh on a planted tree: each way of writing an include that
# crosses a layer upward ("# include", an indented "#  include", an
# angle-bracket <cmd/cmd.h>, curses behind "# include", tui/ reaching up
# to cmd/) is caught, and a file that keeps to its layer in the same
# spellings passes.
. "${TESTLIB:-$(dirname "$0")/lib.sh}"
plan 7
t=$TMP/tree
mkdir -p "$t/src/base" "$t/src/cmd" "$t/src/mountain" "$t/tui"
: >"$t/src/base/util.h"
: >"$t/src/cmd/cmd.h"
: >"$t/src/mountain/mountain.h"
printf '# include "cmd/cmd.h"\n' >"$t/src/base/spaced.c"
printf '  #  include "mountain/mountain.h"\n' >"$t/src/base/indented.c"
printf '#include <cmd/cmd.h>\n' >"$t/src/base/angled.c"
printf '# include <curses.h>\n' >"$t/src/mountain/curses.c"
printf '#include "cmd/cmd.h"\n' >"$t/tui/up.c"
printf '# include "base/util.h"\n#include <cjson/cJSON.h>\n#include <sys/stat.h>\n' \
	>"$t/src/mountain/fine.c"
out=$(LAYERS_TOP=$t sh "$(dirname "$0")/layers.sh" 2>&1)
like '"# include" crossing upward fails' "$out" \
	'^not ok .* src/base/spaced\.c: cmd/cmd\.h: base may include only itself'
like '"  #  include" crossing upward fails' "$out" \
	'^not ok .* src/base/indented\.c: mountain/mountain\.h: base may include only itself'
like '<cmd/cmd.h> crossing upward fails' "$out" \
	'^not ok .* src/base/angled\.c: cmd/cmd\.h: base may include only itself'
like '"# include <curses.h>" outside tui/ fails' "$out" \
	'^not ok .* src/mountain/curses\.c: curses outside tui/'
like 'tui/ including cmd/ (above it) fails' "$out" \
	'^not ok .* tui/up\.c: cmd/cmd\.h: cmd is above tui'
like 'a file within its layer, in the same spellings, passes' "$out" \
	'^ok .* src/mountain/fine\.c keeps to its layer'
is "no other file of the planted tree fails" \
	"$(printf '%s\n' "$out" | grep -c '^not ok')" 5
