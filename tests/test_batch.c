/* Unit tests of the batch command line: two command lines parsed one after
 * the other in one process (the TUI, the fuzz harness) do not leak into
 * each other; the common options land in the batch_cli. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/batch.h"

static void no_usage(FILE *f)
{
	(void)f;
}

static const struct option opts[] = { BATCH_OPTIONS, { NULL, 0, NULL, 0 } };

static void second_command_line_starts_fresh(void **state)
{
	struct batch_cli c;
	char *cluster = strdup("-hh");
	char *argv1[] = { (char *)"x", cluster, NULL };
	char *argv2[] = { (char *)"x", (char *)"--quick", (char *)"--csv", NULL };
	(void)state;
	assert_non_null(cluster);
	batch_cli_init(&c, "x", no_usage);
	assert_int_equal(batch_next(&c, 2, argv1, opts), -1); /* -h: help, mid-cluster */
	assert_int_equal(c.rc, MT_EXIT_OK);
	memset(cluster, 'Z', 3); /* that command line is gone */
	free(cluster);
	batch_cli_init(&c, "x", no_usage);
	assert_int_equal(batch_next(&c, 3, argv2, opts), 0);
	assert_int_equal(c.rc, MT_EXIT_OK);
	assert_true(c.quick);
	assert_true(c.csv);
	assert_null(c.json);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(second_command_line_starts_fresh),
	};
	return cmocka_run_group_tests_name("batch", tests, NULL, NULL);
}
