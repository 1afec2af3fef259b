/* Fuzz harness: a valgrind-lackey trace (trace_open, trace_read in small
 * batches so records straddle calls), each record replayed on a small
 * cache as memtop sim does. */
#include "config.h"

#include "fuzz.h"
#include "sim/sim.h"
#include "sim/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	mt_error e;
	struct trace_reader *tr;
	struct trace_rec recs[7];
	struct sim_cache *c;
	long n;
	int fd = fuzz_file(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	c = sim_new(2, 2, 3, &e);
	tr = trace_open(path, &e);
	while (tr && c && (n = trace_read(tr, recs, 7, &e)) > 0)
		for (long i = 0; i < n; i++)
			sim_access(c, recs[i].addr, recs[i].op != 'L');
	trace_close(tr);
	sim_free(c);
	close(fd);
	return 0;
}
