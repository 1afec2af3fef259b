/* cmd_json: where a subcommand's --json goes: a file, written atomically,
 * or "-" for stdout (cmd.h). */
#include "config.h"

#include "cmd.h"
#include "core/jsonio.h"

#include <stdlib.h>
#include <string.h>

int cmd_json_is_stdout(const char *path)
{
	return path && strcmp(path, "-") == 0;
}

int cmd_write_json(const char *path, const cJSON *root, mt_error *e)
{
	char *text;
	int bad;
	if (!cmd_json_is_stdout(path))
		return jsonio_save(path, root, e);
	text = cJSON_Print(root);
	if (!text)
		return mt_fail(e, "out of memory while printing JSON");
	bad = printf("%s\n", text) < 0 || fflush(stdout) != 0;
	free(text);
	return bad ? mt_fail(e, "cannot write the JSON to stdout") : 0;
}
