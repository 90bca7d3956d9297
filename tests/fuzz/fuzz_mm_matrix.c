/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_mm_matrix.c: libFuzzer target for the Matrix Market matrix reader
 * (src/io/mmio.c: hpls_mm_read_csr, hpls_mm_read_dense, hpls_mm_is_array).
 *
 * Input: a flag byte, then the file's bytes.
 *   bit 0   gzip the bytes before reading (the reader's zlib path on valid gzip;
 *           raw bytes that begin with the gzip magic test corrupt streams)
 *   bits 1-2 what to call: 0 read_csr, 1 read_dense, 2 is_array,
 *           3 read_csr, write it back and read that again
 * Properties: no crash or sanitizer report; a failure leaves the output NULL and a
 * message; a CSR read passes hpls_csr_check (finite values); a dense read is
 * finite and agrees with the CSR read of the same file; the write-read round
 * trip gives the same matrix bit for bit. */
#include "fuzz_common.h"

#include "hpls.h"

#include <math.h>

static void check_failure(hpls_status st, const void *out)
{
    FUZZ_CHECK(out == NULL, "output set although the read failed (%s)", hpls_strerror(st));
    FUZZ_CHECK(hpls_last_error()[0] != '\0', "status %s without a message", hpls_strerror(st));
}

static void check_same(const hpls_csr *A, const hpls_csr *B)
{
    FUZZ_CHECK(A->nrows == B->nrows && A->ncols == B->ncols && A->nnz == B->nnz,
               "round trip changed the shape");
    for (hpls_int i = 0; i <= A->nrows; i++)
        FUZZ_CHECK(A->rowptr[i] == B->rowptr[i], "round trip changed rowptr[%lld]", (long long)i);
    for (hpls_int p = 0; p < A->nnz; p++)
        FUZZ_CHECK(A->colind[p] == B->colind[p] &&
                       memcmp(&A->val[p], &B->val[p], sizeof A->val[p]) == 0,
                   "round trip changed entry %lld", (long long)p);
}

/* The dense read holds every stored CSR value at its place and zeros elsewhere.
 * (An array file's explicit zeros are dropped from the CSR; a coordinate file's
 * are kept, so compare values, not patterns.) */
static void check_dense_matches(const char *path, const hpls_dense *D)
{
    hpls_csr *A = NULL;
    hpls_status st = hpls_mm_read_csr(path, &A);
    FUZZ_CHECK(st == HPLS_OK, "dense read succeeded, CSR read failed: %s", hpls_last_error());
    FUZZ_CHECK(A->nrows == D->nrows && A->ncols == D->ncols, "dense and CSR shapes differ");
    hpls_int p = 0;
    for (hpls_int i = 0; i < A->nrows; i++)
        for (hpls_int j = 0; j < A->ncols; j++) {
            double v = 0.0;
            if (p < A->rowptr[i + 1] && A->colind[p] == j)
                v = A->val[p++];
            double dv = D->data[i * D->ncols + j];
            FUZZ_CHECK(isfinite(dv) && v == dv,
                       "dense (%lld, %lld) = %g differs from CSR or is not finite",
                       (long long)i + 1, (long long)j + 1, dv);
        }
    hpls_csr_destroy(A);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *in, *out;
    if (!in) {
        in = fuzz_path("in", ".mtx");
        out = fuzz_path("out", ".mtx");
    }
    if (size < 1)
        return 0;
    int mode = (data[0] >> 1) & 3;
    fuzz_write(in, data + 1, size - 1, data[0] & 1);
    if (mode == 1) {
        hpls_dense *D = NULL;
        hpls_status st = hpls_mm_read_dense(in, &D);
        if (st != HPLS_OK)
            check_failure(st, D);
        else
            check_dense_matches(in, D);
        hpls_dense_destroy(D);
        return 0;
    }
    if (mode == 2) {
        int is_array = -1;
        hpls_status st = hpls_mm_is_array(in, &is_array);
        FUZZ_CHECK(st != HPLS_OK || is_array == 0 || is_array == 1, "is_array = %d", is_array);
        return 0;
    }
    hpls_csr *A = NULL;
    hpls_status st = hpls_mm_read_csr(in, &A);
    if (st != HPLS_OK) {
        check_failure(st, A);
        return 0;
    }
    FUZZ_CHECK(hpls_csr_check(A) == HPLS_OK, "read_csr gave an invalid matrix: %s",
               hpls_last_error());
    if (mode == 3) {
        hpls_csr *B = NULL;
        FUZZ_CHECK(hpls_mm_write_csr(out, A) == HPLS_OK, "write failed: %s", hpls_last_error());
        FUZZ_CHECK(hpls_mm_read_csr(out, &B) == HPLS_OK, "written file does not read back: %s",
                   hpls_last_error());
        check_same(A, B);
        hpls_csr_destroy(B);
    }
    hpls_csr_destroy(A);
    return 0;
}
