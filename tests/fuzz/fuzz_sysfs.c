/* Fuzz harness: a sysfs cache folder (info_parse_sysfs). The input is the
 * attribute files' contents separated by NUL bytes, in the order of
 * attrs[] for index0, then index1, ... (up to four); an empty piece leaves
 * that file out. They are written to a private folder under $TMPDIR that
 * each run fills again (fuzz.h's fuzz_tree). */
#include "config.h"

#include "fuzz.h"
#include "info/info.h"


#define NINDEX 4

static const char *const attrs[] = { "level", "type", "size", "ways_of_associativity",
				     "coherency_line_size", "number_of_sets",
				     "shared_cpu_list" };
#define NATTR (sizeof attrs / sizeof attrs[0])

/* cpu0/cache/indexK/ATTR for each index K, then each attribute */
static char names[NINDEX * NATTR][64];
static const char *files[NINDEX * NATTR];
static struct fuzz_tree tree = { "sysfs", files, NINDEX * NATTR, "", 0 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct info_source s;
	mt_error e;
	if (!files[0])
		for (size_t k = 0; k < NINDEX * NATTR; k++) {
			snprintf(names[k], sizeof names[k], "cpu0/cache/index%zu/%s", k / NATTR,
				 attrs[k % NATTR]);
			files[k] = names[k];
		}
	if (fuzz_tree_fill(&tree, data, size) < 0)
		return 0;
	if (info_parse_sysfs(tree.root, 0, &s, &e) == 0) {
		struct info inf;
		info_init(&inf);
		info_add_source(&inf, &s);
		info_compare(&inf);
	}
	return 0;
}
