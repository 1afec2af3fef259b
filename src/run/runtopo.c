/* runtopo: the machine's topology a result carries (its header's
 * "topology", topo_to_json's shape), kept once a machine: a header holds a
 * handle, so headers copy by value and a file's topology is written back
 * as it was read (a save of a loaded result gives its bytes). See
 * runhdr.h. */
#include "config.h"

#include "runhdr.h"
#include "os/topo.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RUN_TOPOLOGY_MAX 4096 /* machines a process keeps: a fleet's files */

static struct {
	cJSON *tree;   /* the topology, never changed nor freed */
	uint64_t hash; /* of its compact text */
} kept[RUN_TOPOLOGY_MAX];
static int nkept;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* FNV-1a of the compact text of tree (0 when out of memory). */
static uint64_t hash_of(const cJSON *tree)
{
	char *text = cJSON_PrintUnformatted(tree);
	uint64_t h = 1469598103934665603ull;
	if (!text)
		return 0;
	for (const char *p = text; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	cJSON_free(text);
	return h ? h : 1;
}

int run_topology_intern(const cJSON *tree)
{
	uint64_t h;
	int handle = 0;
	if (!cJSON_IsObject(tree) || !(h = hash_of(tree)))
		return 0;
	pthread_mutex_lock(&lock);
	for (int i = 0; i < nkept && !handle; i++)
		if (kept[i].hash == h && cJSON_Compare(kept[i].tree, tree, 1))
			handle = i + 1;
	if (!handle && nkept < RUN_TOPOLOGY_MAX) {
		cJSON *copy = cJSON_Duplicate(tree, 1);
		if (copy) {
			kept[nkept].tree = copy;
			kept[nkept].hash = h;
			handle = ++nkept;
		}
	}
	pthread_mutex_unlock(&lock);
	return handle;
}

const cJSON *run_topology_json(int handle)
{
	const cJSON *t = NULL;
	pthread_mutex_lock(&lock);
	if (handle > 0 && handle <= nkept)
		t = kept[handle - 1].tree;
	pthread_mutex_unlock(&lock);
	return t;
}

static int this_handle;

static void intern_this(void)
{
	const struct topo *t = topo_this_machine();
	cJSON *j = t ? topo_to_json(t) : NULL;
	this_handle = j ? run_topology_intern(j) : 0;
	cJSON_Delete(j);
}

int run_topology_this(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, intern_this);
	return this_handle;
}
