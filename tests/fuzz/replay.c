/* tests/fuzz/replay.c: main() for a fuzz harness outside libFuzzer. Each
 * argument is a file or a folder of files; every file is fed to the
 * harness once. Prints "replayed N inputs" and exits 0, or exits 1 when an
 * argument cannot be read (a crash or a sanitizer report ends it sooner). */
#include "config.h"

#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#define REPLAY_MAX_BYTES (16u << 20)

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t n;
	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	buf = malloc(REPLAY_MAX_BYTES);
	if (!buf) {
		fclose(f);
		return -1;
	}
	n = fread(buf, 1, REPLAY_MAX_BYTES, f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	long count = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *de;
		if (stat(argv[i], &st) < 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (replay_file(argv[i]) < 0)
				return 1;
			count++;
			continue;
		}
		d = opendir(argv[i]);
		if (!d)
			return 1;
		while ((de = readdir(d))) {
			char path[4096];
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof path, "%s/%s", argv[i], de->d_name);
			if (replay_file(path) < 0) {
				closedir(d);
				return 1;
			}
			count++;
		}
		closedir(d);
	}
	printf("replayed %ld inputs\n", count);
	return 0;
}
