/* cmd_json: where a subcommand's --json goes: a file, written atomically,
 * or "-" for stdout (cmd.h); the one writer is core/jsonio.c's, which
 * `memtop run` uses too. */
#include "config.h"

#include "cmd.h"
#include "core/jsonio.h"

int cmd_json_is_stdout(const char *path)
{
	return jsonio_is_stdout(path);
}

int cmd_write_json(const char *path, const cJSON *root, mt_error *e)
{
	return jsonio_write(path, root, e);
}
