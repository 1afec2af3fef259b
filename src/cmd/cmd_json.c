/* cmd_json: where a subcommand's --json goes: a file, written atomically,
 * or "-" for stdout (cmd.h); the one writer is base/jsonio.c's, which
 * `memtop run` uses too. */
#include "config.h"

#include "cmd.h"
#include "base/i18n.h"
#include "base/jsonio.h"

int cmd_json_is_stdout(const char *path)
{
	return jsonio_is_stdout(path);
}

int cmd_write_json(const char *path, const cJSON *root, mt_error *e)
{
	return jsonio_write(path, root, e);
}

int cmd_out_refuse(const char *path, const char *flag, const char *who)
{
	char why[4200];
	const char *what;
	if (jsonio_check_path(path, &what, why, sizeof why) == 0)
		return 0;
	if (why[0])
		/* TRANSLATORS: the command, the option (--json), what it expects ("a
		 * file in an existing folder"), what it got, why not */
		mt_warn(_("%s: %s: expected %s, got '%s' (%s)"), who, flag, _(what), path, why);
	else
		mt_warn(_("%s: %s: expected %s, got '%s'"), who, flag, _(what), path);

	return -1;
}

int cmd_json_refuse(const char *path, const char *who)
{
	return cmd_out_refuse(path, "--json", who);
}
