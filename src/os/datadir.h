/* datadir: where memtop's bundled files are (data/ in the source tree,
 * $(pkgdatadir) when installed): the Apple M4 Max reference mountain and
 * the seed's reference lab results under ref/. */
#ifndef MEMTOP_DATADIR_H
#define MEMTOP_DATADIR_H

#include <stddef.h>

/* The path of the bundled file name ("m4max.json", "ref/matmul-m4max.json"):
 * the first readable of $MEMTOP_DATA/name, the installed package data
 * folder's, the source tree's data/. Returns buf, or NULL when none exists
 * (or the path does not fit in len). */
const char *mt_data_path(const char *name, char *buf, size_t len);

#endif
