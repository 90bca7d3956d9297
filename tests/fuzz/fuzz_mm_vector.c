/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_mm_vector.c: libFuzzer target for the Matrix Market vector reader
 * (src/io/mmio.c: hpls_mm_read_vec, and hpls_mm_write_vec on what it read).
 *
 * Input: a flag byte, then the file's bytes.
 *   bit 0  gzip the bytes before reading
 *   bit 1  write the vector back (".gz" when bit 2 is set too) and read it again
 *          (vectors up to 1e5 long: a longer one is only a declared size, and
 *          writing it would make the run slow, not more searching)
 * Properties: no crash or sanitizer report; a failure leaves the output NULL and
 * a message; every value read is finite; the round trip is exact. */
#include "fuzz_common.h"

#include "hpls.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *in, *out, *outgz;
    if (!in) {
        in = fuzz_path("in", ".mtx");
        out = fuzz_path("out", ".mtx");
        outgz = fuzz_path("out", ".mtx.gz");
    }
    if (size < 1)
        return 0;
    fuzz_write(in, data + 1, size - 1, data[0] & 1);
    hpls_vec *v = NULL;
    hpls_status st = hpls_mm_read_vec(in, &v);
    if (st != HPLS_OK) {
        FUZZ_CHECK(v == NULL, "output set although the read failed (%s)", hpls_strerror(st));
        FUZZ_CHECK(hpls_last_error()[0] != '\0', "status %s without a message", hpls_strerror(st));
        return 0;
    }
    for (hpls_int i = 0; i < v->n; i++)
        FUZZ_CHECK(isfinite(v->data[i]), "v[%lld] = %g", (long long)i, v->data[i]);
    if ((data[0] & 2) && v->n <= 100000) {
        const char *path = data[0] & 4 ? outgz : out;
        hpls_vec *w = NULL;
        FUZZ_CHECK(hpls_mm_write_vec(path, v) == HPLS_OK, "write failed: %s", hpls_last_error());
        FUZZ_CHECK(hpls_mm_read_vec(path, &w) == HPLS_OK, "written file does not read back: %s",
                   hpls_last_error());
        FUZZ_CHECK(w->n == v->n, "round trip changed the length %lld -> %lld", (long long)v->n,
                   (long long)w->n);
        for (hpls_int i = 0; i < v->n; i++)
            FUZZ_CHECK(memcmp(&v->data[i], &w->data[i], sizeof v->data[i]) == 0,
                       "round trip changed v[%lld]: %.17g -> %.17g", (long long)i, v->data[i],
                       w->data[i]);
        hpls_vec_destroy(w);
    }
    hpls_vec_destroy(v);
    return 0;
}
