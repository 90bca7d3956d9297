/* SPDX-License-Identifier: BSD-3-Clause */
/* rng.c: counter-based random numbers for the generators.
 *
 * The k-th number of stream (seed, stream) is splitmix64's output function
 * (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA
 * 2014) applied to key + k*golden, where key mixes seed and stream.  Nothing is
 * carried from one row to the next, so any thread may generate any row and the
 * matrix is the same for every thread count. */
#include "gen/gen.h"

#define GOLDEN 0x9e3779b97f4a7c15ull /* 2^64 / golden ratio, odd: the splitmix64 step */

/* splitmix64's finalizer: a bijection of 64-bit words that mixes every input bit
 * into every output bit. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void gen_rng_init(gen_rng *r, uint64_t seed, uint64_t stream)
{
    /* mixing twice keeps neighbouring (seed, stream) pairs from giving related keys */
    r->key = mix64(mix64(seed + GOLDEN) ^ (stream * GOLDEN));
    r->ctr = 0;
}

uint64_t gen_rng_u64(gen_rng *r)
{
    r->ctr++;
    return mix64(r->key + r->ctr * GOLDEN);
}

double gen_rng_unit(gen_rng *r)
{
    return (double)(gen_rng_u64(r) >> 11) * 0x1p-53; /* the top 53 bits, exactly */
}

double gen_rng_uniform(gen_rng *r, double a, double b)
{
    return a + (b - a) * gen_rng_unit(r);
}

hpls_int gen_rng_below(gen_rng *r, hpls_int m)
{
    /* multiply-shift of the top 32 bits: bias below m / 2^32, irrelevant here */
    return (hpls_int)(((gen_rng_u64(r) >> 32) * (uint64_t)m) >> 32);
}
