/* SPDX-License-Identifier: BSD-3-Clause */
/* stream_load.c: the competing process of bench/loaded.sh: one thread running
 * the STREAM triad a = b + s c over arrays far larger than the caches, so it
 * takes a whole core and a share of the memory bandwidth, as another user's
 * job would, until killed or for SECONDS.
 *
 *   stream_load [SECONDS] [MIB]      (default: until killed; 3 x 64 MiB)
 *
 * Prints the triad bandwidth it got when it stops by the clock. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 0;
    long mib = argc > 2 ? atol(argv[2]) : 64;
    size_t n = (size_t)(mib > 0 ? mib : 64) * 1024 * 1024 / sizeof(double);
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    if (!a || !b || !c) {
        fprintf(stderr, "stream_load: cannot allocate 3 x %ld MiB\n", mib);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        a[i] = 0;
        b[i] = 1;
        c[i] = 2;
    }
    double t0 = now(), s = 3;
    long sweeps = 0;
    while (seconds <= 0 || now() - t0 < seconds) {
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] + s * c[i];
        s = a[sweeps % n] > 0 ? 3 : 2; /* the result is used: the loop stays */
        sweeps++;
    }
    printf("stream_load: %ld triads in %.1f s, %.2f GB/s\n", sweeps, now() - t0,
           24e-9 * (double)n * (double)sweeps / (now() - t0));
    free(a);
    free(b);
    free(c);
    return 0;
}
