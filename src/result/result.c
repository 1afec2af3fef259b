/* result: the registries, one line per experiment, and the kinds of result
 * derived from them (result.h). */
#include "config.h"

#include "result.h"
#include "base/i18n.h"
#include "algae/algae.h"
#include "bandwidth/bandwidth.h"
#include "base/jsonio.h"
#include "cores/cores.h"
#include "falseshare/falseshare.h"
#include "latency/latency.h"
#include "lists/lists.h"
#include "matmul/matmul.h"
#include "mountain/card.h"
#include "mountain/mountain.h"
#include "numa/numa.h"
#include "protocol/protocol.h"
#include "run/batch.h"
#include "transpose/transpose.h"

#include <pthread.h>
#include <string.h>

/* The experiments, in the order `memtop run --help` lists them and
 * fill_kinds tries their kinds' legacy shapes (not the tabs' order: the
 * Transpose tab is the fourth, tui/tab.h); each exp_NAME is declared in
 * its folder's header beside its result kind. */
static const struct experiment *const experiments[] = {
	&exp_mountain,
	&exp_latency,
	&exp_matmul,
	&exp_falseshare,
	&exp_lists,
	&exp_transpose,
	&exp_algae,
	&exp_bandwidth,
	&exp_cores,
	&exp_numa,
	NULL /* end */
};

/* The kinds no experiment writes: the card (memtop card, the mountain's
 * one-page summary) and a topology (memtop topo --json), after the
 * experiments' kinds. */
static const struct result_kind *const other_kinds[] = {
	&kind_card,
	&kind_topo,
	NULL /* end */
};

#define MAX_KINDS (sizeof experiments / sizeof experiments[0] + \
		   sizeof other_kinds / sizeof other_kinds[0])

/* Each experiment's kind (those that have one) in the experiments' order,
 * then the other kinds, then NULL: filled once, by fill_kinds. The legacy
 * shapes (is()) are tried in this order, so the mountain's "throughput"
 * comes before the latency run's "ns". */
static const struct result_kind *registry[MAX_KINDS];
static pthread_once_t registry_once = PTHREAD_ONCE_INIT;

static void fill_kinds(void)
{
	size_t n = 0;
	for (size_t i = 0; experiments[i]; i++)
		if (experiments[i]->kind)
			registry[n++] = experiments[i]->kind;
	for (size_t i = 0; other_kinds[i]; i++)
		registry[n++] = other_kinds[i];
	registry[n] = NULL;
}

const struct experiment *experiment_find(const char *name)
{
	for (size_t i = 0; experiments[i]; i++)
		if (strcmp(experiments[i]->name, name) == 0)
			return experiments[i];
	return NULL;
}

int experiment_run(const struct experiment *x, int argc, char **argv)
{
	return protocol_run(x, argc, argv);
}

const struct experiment *const *experiment_all(size_t *n)
{
	*n = sizeof experiments / sizeof experiments[0] - 1;
	return experiments;
}

#define NOTE_FORMS_MAX 64
static const char *note_forms[NOTE_FORMS_MAX + 1];

/* Every experiment's note forms once each (numa's repeat latency's and
 * bandwidth's, whose runs it makes). */
static void note_forms_init(void)
{
	size_t n = 0;
	for (size_t i = 0; experiments[i]; i++)
		for (size_t k = 0; experiments[i]->note_forms && experiments[i]->note_forms[k]; k++) {
			const char *f = experiments[i]->note_forms[k];
			size_t j = 0;
			while (j < n && strcmp(note_forms[j], f) != 0)
				j++;
			if (j == n && n < NOTE_FORMS_MAX)
				note_forms[n++] = f;
		}
	note_forms[n] = NULL;
}

const char *experiment_note_text(char *out, size_t len, const char *text)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, note_forms_init);
	return mt_gettext_stored(out, len, MT_PRINTABLE(text), note_forms);
}

const struct result_kind *result_kind_find(const char *name)
{
	const struct result_kind *const *k = result_kinds(NULL);
	for (size_t i = 0; k[i]; i++)
		if (strcmp(k[i]->name, name) == 0)
			return k[i];
	return NULL;
}

const struct result_kind *const *result_kinds(size_t *n)
{
	size_t i = 0;
	(void)pthread_once(&registry_once, fill_kinds);
	while (registry[i])
		i++;
	if (n)
		*n = i;
	return registry;
}

const struct result_kind *result_kind_of(const cJSON *root)
{
	const char *ex = jsonio_experiment(root);
	if (ex)
		return result_kind_find(ex);
	if (!cJSON_IsObject(root))
		return NULL;
	(void)result_kinds(NULL);
	for (size_t i = 0; registry[i]; i++)
		if (registry[i]->is && registry[i]->is(root))
			return registry[i];
	return NULL;
}

const char *result_unknown_why(const cJSON *root, char *buf, size_t len)
{
	char names[200] = "";
	const char *ex = jsonio_experiment(root);
	(void)result_kinds(NULL);
	for (size_t i = 0; registry[i]; i++)
		mt_append(names, sizeof names, "%s%s", i ? ", " : "", registry[i]->name);
	if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "machines")) &&
	    cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "groups"))) {
		mt_snprintf(buf, len, "%s",
			    _("a fleet's grouping (memtop compare --fleet --json), not a result"));
	} else if (ex) {
		char p[64];
		/* TRANSLATORS: the experiment the file names, then the ones memtop knows */
		mt_snprintf(buf, len, _("a \"%s\" result; memtop reads %s results"),
			    mt_printable(p, sizeof p, ex, 0), names);
	} else {
		mt_snprintf(
			buf, len,
			_("not a memtop result (no \"experiment\" field, and not the shape of an "
			  "older %s result)"),
			names);
	}

	return buf;
}

void result_file_free(struct result_file *f)
{
	if (f->kind && f->r)
		f->kind->free(f->r);
	memset(f, 0, sizeof *f);
}
