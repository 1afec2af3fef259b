/* datadir: see datadir.h. */
#include "config.h"

#include "datadir.h"
#include "base/util.h"

#include <stdlib.h>
#include <unistd.h>

const char *mt_data_path(const char *name, char *buf, size_t len)
{
	const char *env = getenv("MEMTOP_DATA");
	const char *dirs[3] = { env, MEMTOP_DATADIR, MEMTOP_SRCDATADIR };
	for (size_t i = 0; i < MT_ARRAY_LEN(dirs); i++) {
		if (!dirs[i] || !dirs[i][0])
			continue;
		if (mt_snprintf(buf, len, "%s/%s", dirs[i], name) == 0 && access(buf, R_OK) == 0)
			return buf;
	}
	return NULL;
}
