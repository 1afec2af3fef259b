/* sha256: SHA-256 (FIPS 180-4), small and plain, for hashing a machine's
 * identifiers into one name that gives none of them away (os/machine_id).
 * Written here rather than linked (libcrypto is a heavy dependency for a
 * few hundred bytes a run); checked against the FIPS 180-2 examples in
 * tests/test_util.c. Not for secrets: no care is taken against timing. */
#ifndef MEMTOP_SHA256_H
#define MEMTOP_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define MT_SHA256_BYTES 32

struct mt_sha256 {
	uint32_t h[8];
	uint64_t bytes;          /* hashed so far */
	unsigned char block[64]; /* the block being filled */
	size_t nblock;
};

/* Start a hash. */
void mt_sha256_init(struct mt_sha256 *s);

/* Hash len more bytes of data (data may be NULL when len is 0). */
void mt_sha256_update(struct mt_sha256 *s, const void *data, size_t len);

/* The digest of everything hashed into out; s must be started again
 * before it is used again. */
void mt_sha256_final(struct mt_sha256 *s, unsigned char out[MT_SHA256_BYTES]);

/* The first digits of a digest in lower-case hex: 2 x n characters of its
 * first n bytes (n at most MT_SHA256_BYTES, and cut to what hex holds with
 * its '\0'). Returns hex. */
char *mt_sha256_hex(const unsigned char d[MT_SHA256_BYTES], size_t n, char *hex, size_t len);

#endif
