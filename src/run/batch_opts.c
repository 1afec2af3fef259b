/* batch_opts: see batch_opts.h. */
#include "config.h"

#include "batch.h"
#include "batch_opts.h"

#include <string.h>

/* A number option's value into its int or uint64_t field. Returns 0 or -1
 * (said: "expected MIN..MAX"). */
static int fill_number(const char *exp, const struct batch_option *o, const char *opt,
		       const char *arg, void *field)
{
	uint64_t v;
	int i;
	if (o->type == BATCH_T_INT) {
		if (batch_opt_int(exp, opt, arg, (int)o->min, (int)o->max, &i) < 0)
			return -1;
		memcpy(field, &i, sizeof i);
		return 0;
	}
	if (batch_opt_u64(exp, opt, arg, o->min, o->max, &v) < 0)
		return -1;
	memcpy(field, &v, sizeof v);
	return 0;
}

/* A size, a list of numbers or a CPU list into its field. Returns 0 or -1
 * (said: "expected WHAT", a CPU list's fault when the row has no what). */
static int fill_parsed(const char *exp, const struct batch_option *o, const char *opt,
		       const char *arg, void *field)
{
	struct batch_list list; /* the parse's, copied on success */
	struct batch_cpus cpus;
	mt_error e = { "" };
	uint64_t v;
	int n;
	switch (o->type) {
	case BATCH_T_SIZE:
		if (mt_parse_size(arg, &v) < 0 || v < o->min || v > o->max)
			return batch_bad(exp, opt, arg, o->what);
		memcpy(field, &v, sizeof v);
		return 0;
	case BATCH_T_LIST:
		n = mt_parse_u64_list(arg, o->min, o->max, list.v,
				      o->cap && o->cap < BATCH_LIST_MAX ? o->cap : BATCH_LIST_MAX);
		if (n <= 0)
			return batch_bad(exp, opt, arg, o->what);
		list.n = (size_t)n;
		memcpy(field, &list, sizeof list);
		return 0;
	default: /* BATCH_T_CPUS */
		n = mt_parse_cpu_list(arg, cpus.cpu, BATCH_CPUS_MAX, &e);
		if (n < 0)
			return batch_bad(exp, opt, arg, o->what ? o->what : e.msg);
		cpus.n = n;
		memcpy(field, &cpus, sizeof cpus);
		return 0;
	}
}

int batch_opt_fill(const char *exp, const struct batch_option *o, const char *arg, void *params)
{
	char opt[64];
	void *field = (char *)params + o->off;
	int one = 1;
	/* as the user spelled it: a one-letter name is a short option only */
	mt_snprintf(opt, sizeof opt, "%s%s", o->name[1] ? "--" : "-", o->name);
	switch (o->type) {
	case BATCH_T_FLAG: memcpy(field, &one, sizeof one); return 0;
	case BATCH_T_STRING: memcpy(field, &arg, sizeof arg); return 0;
	case BATCH_T_INT:
	case BATCH_T_U64: return fill_number(exp, o, opt, arg, field);
	case BATCH_T_SIZE:
	case BATCH_T_LIST:
	case BATCH_T_CPUS: return fill_parsed(exp, o, opt, arg, field);
	case BATCH_T_CALL: return o->call(exp, o->arg ? arg : NULL, params);
	default: return 0;
	}
}
