/* chase: the pointer chase both the latency lab and the loaded-latency
 * chaser run. A chase is an array of pointers where each visited slot holds
 * the address of the next, so every load waits for the one before. */
#ifndef MEMTOP_CHASE_H
#define MEMTOP_CHASE_H

#include <stddef.h>
#include <stdint.h>

/* The next value of the splitmix64 generator whose state is *s (advances
 * *s). Never fails. */
uint64_t chase_splitmix64(uint64_t *s);

/* Link a random cycle over the slots of buf (size bytes, stride bytes
 * apart): each slot holds the address of the next, one cycle through all
 * size / stride slots in an order drawn from seed (Sattolo's shuffle).
 * scratch holds at least size / stride uint32_t. Returns the slot count, 0
 * on bad arguments (buf or scratch NULL; stride smaller than or not a
 * multiple of the pointer size, larger than size; more than 2^32 slots). */
size_t chase_build_cycle(void *buf, uint64_t size, unsigned stride, uint64_t seed,
			 uint32_t *scratch);

/* Follow n pointers from p (an unrolled p = *p loop); returns where it ended
 * so the caller can sink it. Not inlined. */
void *chase_walk(void *p, uint64_t n);

#endif
