/* numa_mix: the traffic mixes of memtop run numa's bandwidth matrices
 * (--mix), their names, their kernels in the bandwidth lab and the bytes
 * each counts. See numa.h. */
#include "config.h"

#include "numa.h"
#include "base/i18n.h"

#include <ctype.h>
#include <string.h>

#define MIXES_WORDS _("the mixes: reads, 3:1, 2:1, 1:1, triad, or all")

/* A table, the clearest form: each mix's name, JSON key, measurement and
 * kernels (cached and streaming stores). */
static const struct {
	const char *name, *key;
	int meas, kernel, kernel_nt;
} mixes[NUMA_NMIX] = {
	{ "reads", "read", NUMA_READ, BANDWIDTH_READ, BANDWIDTH_READ },
	{ "3:1", "3:1", NUMA_R3W1, BANDWIDTH_R3W1, BANDWIDTH_R3W1_NT },
	{ "2:1", "2:1", NUMA_R2W1, BANDWIDTH_R2W1, BANDWIDTH_R2W1_NT },
	{ "1:1", "1:1", NUMA_R1W1, BANDWIDTH_COPY, BANDWIDTH_COPY_NT },
	{ "triad", "triad", NUMA_TRIAD, BANDWIDTH_TRIAD, BANDWIDTH_TRIAD_NT },
};

const char *numa_mix_name(int mix)
{
	return mix >= 0 && mix < NUMA_NMIX ? mixes[mix].name : NULL;
}

const char *numa_mix_key(int mix)
{
	return mix >= 0 && mix < NUMA_NMIX ? mixes[mix].key : NULL;
}

int numa_mix_meas(int mix)
{
	return mix >= 0 && mix < NUMA_NMIX ? mixes[mix].meas : -1;
}

int numa_meas_mix(int meas)
{
	for (int m = 0; m < NUMA_NMIX; m++)
		if (mixes[m].meas == meas)
			return m;
	return -1;
}

int numa_mix_kernel(int mix, int streaming)
{
	if (mix < 0 || mix >= NUMA_NMIX)
		return -1;
	return streaming ? mixes[mix].kernel_nt : mixes[mix].kernel;
}

void numa_mix_bytes(int mix, size_t n, uint64_t *rd, uint64_t *wr)
{
	uint64_t r = 0, w = 0;
	switch (mix) {
	case NUMA_MIX_READS: r = n; break;
	case NUMA_MIX_11: r = w = n; break;
	case NUMA_MIX_TRIAD:
	case NUMA_MIX_21: r = 2 * (uint64_t)n, w = n; break;
	case NUMA_MIX_31: /* three spans of four copied (and c read), the fourth read thrice */
		for (size_t off = 0; off < n; off += BANDWIDTH_MIX_SPAN) {
			size_t len = n - off < BANDWIDTH_MIX_SPAN ? n - off : BANDWIDTH_MIX_SPAN;
			if (off / BANDWIDTH_MIX_SPAN % 4 == 3)
				r += 3 * (uint64_t)len;
			else
				r += 2 * (uint64_t)len, w += len;
		}
		break;
	default: break;
	}
	*rd = r * sizeof(double);
	*wr = w * sizeof(double);
}

/* The mix word w (len bytes) names, or -1 with e. */
static int mix_word(const char *w, size_t len, mt_error *e)
{
	char word[32];
	const char *colon;
	if (len == 0)
		return mt_fail(e, _("--mix: an empty name (%s)"), MIXES_WORDS);
	if (len >= sizeof word)
		return mt_fail(e, _("--mix: '%.*s...' is not a mix (%s)"), 16, w, MIXES_WORDS);
	memcpy(word, w, len);
	word[len] = '\0';
	for (int m = 0; m < NUMA_NMIX; m++)
		if (strcmp(word, mixes[m].name) == 0)
			return m;
	if (strcmp(word, "read") == 0) /* the JSON's word for it */
		return NUMA_MIX_READS;
	if (strcmp(word, "all") == 0 || strcmp(word, "none") == 0)
		return mt_fail(e, _("--mix: '%s' stands alone"), word);
	colon = strchr(word, ':');
	if (!colon || !isdigit((unsigned char)word[0]))
		return mt_fail(e, _("--mix: '%s' is not a mix (%s)"), word, MIXES_WORDS);
	for (const char *c = word; *c; c++)
		if (c != colon && !isdigit((unsigned char)*c))
			return mt_fail(e, _("--mix: '%s': a mix of reads to writes is READS:WRITES, "
					    "such as 3:1 (%s)"), word, MIXES_WORDS);
	if (colon == word || !colon[1])
		return mt_fail(e, _("--mix: '%s': a mix of reads to writes is READS:WRITES, "
				    "such as 3:1 (%s)"), word, MIXES_WORDS);
	if (word[0] == '0' && colon == word + 1)
		return mt_fail(e, _("--mix: '%s': no mix of 0 reads (writes alone are the "
				    "bandwidth lab's write kernels; %s)"), word, MIXES_WORDS);
	return mt_fail(e, _("--mix: '%s' is no mix measured here (%s)"), word, MIXES_WORDS);
}

int numa_mix_parse(const char *list, unsigned *out, mt_error *e)
{
	unsigned set = 0;
	const char *w = list;
	if (!list || !*list)
		return mt_fail(e, _("--mix: empty (%s)"), MIXES_WORDS);
	if (strcmp(list, "all") == 0 || strcmp(list, "none") == 0) {
		*out = strcmp(list, "all") == 0 ? NUMA_MIXES_ALL : 0;
		return 0;
	}
	for (;;) {
		const char *end = strchr(w, ',');
		size_t len = end ? (size_t)(end - w) : strlen(w);
		int m = mix_word(w, len, e);
		if (m < 0)
			return -1;
		if (set & (1u << m))
			return mt_fail(e, _("--mix: '%s' given twice"), mixes[m].name);
		set |= 1u << m;
		if (!end)
			break;
		w = end + 1;
	}
	*out = set;
	return 0;
}

const char *numa_mixes_text(unsigned set, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int m = 0; m < NUMA_NMIX; m++)
		if (set & (1u << m))
			mt_append(buf, len, "%s%s", buf[0] ? ", " : "", mixes[m].name);
	return buf;
}
