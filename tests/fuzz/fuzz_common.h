/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_common.h: what the fuzz targets share: FUZZ_CHECK, and the input written to a
 * file of this process in /dev/shm (a tmpfs: no disk per run), plain or gzipped,
 * because the readers take a path and zlib cannot read from memory through
 * gzopen.  Header-only: each target is one translation unit. */
#ifndef HPLS_FUZZ_COMMON_H
#define HPLS_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* "<dir>/hpls-fuzz-<pid>-<tag><suffix>", removed at exit; dir is /dev/shm when it
 * exists, else TMPDIR or /tmp. */
static char fuzz_paths[4][256];
static int fuzz_npaths;

static inline void fuzz_remove_files(void)
{
    for (int k = 0; k < fuzz_npaths; k++)
        unlink(fuzz_paths[k]);
}

static inline const char *fuzz_path(const char *tag, const char *suffix)
{
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
    if (!dir)
        dir = "/tmp";
    if (fuzz_npaths == 0)
        atexit(fuzz_remove_files);
    if (fuzz_npaths == 4)
        abort(); /* a target asks for at most four files */
    char *p = fuzz_paths[fuzz_npaths++];
    snprintf(p, sizeof fuzz_paths[0], "%s/hpls-fuzz-%ld-%s%s", dir, (long)getpid(), tag, suffix);
    return p;
}

/* Writes the bytes to path, gzip-compressed (level 1: only the reader is under
 * test) when gzip is set.  A failure here is the harness's, so it aborts. */
static inline void fuzz_write(const char *path, const uint8_t *data, size_t size, int gzip)
{
    if (gzip) {
        gzFile gz = gzopen(path, "wb1");
        if (!gz || (size > 0 && gzwrite(gz, data, (unsigned)size) != (int)size) ||
            gzclose(gz) != Z_OK)
            abort();
        return;
    }
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
}

/* Stops the run with a message when a property of the library fails: libFuzzer
 * saves the input as a crash. */
#define FUZZ_CHECK(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz check failed: %s: ", #cond);                                     \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

#endif /* HPLS_FUZZ_COMMON_H */
