/* transpose_kind: the transpose lab's result kind (run/result_kind.h):
 * transpose_result_to_json's file (memtop run transpose --json, the
 * Transpose tab's save). It has no picture: the tab draws the matrices. */
#include "config.h"

#include "base/i18n.h"

#include "transpose.h"
#include "run/result_kind.h"

#include <stdlib.h>

RESULT_KIND_FILLED(struct transpose_result, transpose_result_from_json)
RESULT_KIND_TYPED(struct transpose_result, transpose_result_to_json)

const struct result_kind kind_transpose = {
	.name = "transpose",
	.what = "transpose result",
	.tab = "Transpose",
	.load = kind_load,
	.free = free,
	.to_json = kind_to_json,
	.compare = transpose_compare,
};
