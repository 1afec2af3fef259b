/* cpuspec: the syntax of memtop's one CPU-list grammar (every --cpus and
 * the terminal UI's CPU prompts), below every machine: items separated by
 * commas, each of them
 *   CPUs by number       3   0-7   0-15:2 (every second CPU of 0-15)
 *   a domain             S<n> a package, D<n> a die, N<n> a NUMA node's CPUs,
 *                        L3:<n> an L3 group, C one CPU of each core (no SMT
 *                        siblings), P E LP-E big mid LITTLE one a core type
 *   a domain's CPUs      S0:0-3 (the first four CPUs of package 0),
 *                        S0:0-15:2 (every second of its first sixteen), C:5
 * A domain's indexes count its CPUs this process may use, ascending; after
 * a domain's colon comes one index or range, so a comma always starts the
 * next item ("S0:0-3,S1:0-3"). This file reads the text and nothing else:
 * what a domain holds is the machine's (machine/machine.h's
 * machine_cpus resolves it). */
#ifndef MEMTOP_CPUSPEC_H
#define MEMTOP_CPUSPEC_H

#include "util.h"

/* What an item names. */
enum mt_cpudom {
	MT_DOM_CPUS,     /* CPUs by number: lo..hi every step */
	MT_DOM_PACKAGE,  /* S<n> */
	MT_DOM_DIE,      /* D<n> */
	MT_DOM_NODE,     /* N<n> */
	MT_DOM_L3,       /* L3:<n> */
	MT_DOM_CORES,    /* C */
	MT_DOM_CORETYPE, /* P, E, LP-E, big, mid, midN, LITTLE, one */
};

/* One item of a CPU list. */
struct mt_cpuitem {
	enum mt_cpudom dom;
	int index;        /* the n of S, D, N and L3; -1 for the others */
	char name[16];    /* a core type's name as written ("P", "big") */
	int sel;          /* 1: indexes follow a domain's colon (a MT_DOM_CPUS item: 1) */
	int lo, hi, step; /* the CPUs, or the indexes into the domain: lo..hi every step */
	char text[64];    /* the item as written ("S0:0-3"), cut with "..." past 60 */
};

/* The next item of the list at *p into *it: *p moves past it and its
 * comma. Returns 1, 0 when *p is at the list's end (the item before it had
 * no comma after it), or -1 with e naming the bad part (then *p is left
 * where it was): "an empty item in the CPU list (two commas, or one at an
 * end)", "'0-' is a range without its end (such as 0-3)", "'-3' is a range
 * without its start (such as 0-3)", "the range 5-3 runs backwards", "'x'
 * is not a CPU, a range such as 0-3 or a domain such as S0", "'S' needs its
 * number (S0: package 0)", "'S0:' has nothing after its colon (S0:0-3:
 * its first four CPUs)", "'3:2': a step needs a range (0-15:2)", "'0-7:0':
 * the step must be 1 or more". Numbers are below MT_CPU_LIST_MAX. */
int mt_cpuitem_next(const char **p, struct mt_cpuitem *it, mt_error *e);

/* The whole list s checked: its items' count, or -1 with e (as above, and
 * "an empty CPU list" for "" or NULL). *domains (may be NULL) gets how
 * many of them are domains. */
int mt_cpuspec_check(const char *s, int *domains, mt_error *e);

#endif
