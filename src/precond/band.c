/* SPDX-License-Identifier: BSD-3-Clause */
/* band.c: A = T + S split at the tridiagonal band and T factored, by blocks
 * of `block` rows (Li, Yang, Li, IEEE TPDS 27(10), 2016, Eqs. 3 and 7): what
 * HISA and BHISA (iter/hisa.c) and the preconditioners tridiag and btridiag
 * (precond/tridiag.c) share, built here, below both. */
#include "precond/pc.h"

#include "direct/block_tridiag.h"
#include "la/split.h"

/* The split and the factorisation; block <= 0 or >= n: one block (HISA). */
hpls_status hpls_hisa_build(const hpls_csr *A, hpls_int block, int method, double gspike_delta,
                            hpls_int gspike_p, int nthreads, hpls_csr **S, hpls_btri **B)
{
    hpls_tridiag *T = NULL;
    *B = NULL;
    hpls_status st = hpls_split_tridiag(A, block, nthreads, &T, S);
    if (st != HPLS_OK)
        return st;
    const hpls_tridiag_opts o = {
        .partitions = gspike_p, .delta = gspike_delta, .threads = nthreads};
    st = hpls_btri_factor(T, block, (hpls_tridiag_method)method, &o, B);
    hpls_tridiag_destroy(T);
    if (st != HPLS_OK) {
        hpls_csr_destroy(*S);
        *S = NULL;
    }
    return st;
}

/* The method that solves T's blocks of `rows` rows on a device: the tridiag
 * option when given, else cyclic reduction in a work-group's local memory
 * (HPLS_DEVICE_TRI_MAX rows at most) and g-Spike for one T larger than that;
 * lapack has no device version, and CR blocks beyond local memory are refused
 * (CR in global memory solves one system only).  Also precond tridiag's. */
hpls_status hpls_tridiag_device_method(const hpls_backend *be, const char *who, hpls_int n,
                                       hpls_int rows, int given, int *method)
{
    if (given < 0)
        given = rows <= HPLS_DEVICE_TRI_MAX || rows < n ? HPLS_TRIDIAG_CR : HPLS_TRIDIAG_GSPIKE;
    *method = given;
    if (given == HPLS_TRIDIAG_LAPACK)
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "%s on %s: tridiag=lapack runs on the host only (LAPACK's "
                         "dgttrf); use tridiag=thomas, cr or gspike, or backend=cpu",
                         who, be->name);
    if (given == HPLS_TRIDIAG_CR && rows > HPLS_DEVICE_TRI_MAX && rows < n)
        return hpls_fail(HPLS_ERR_UNSUPPORTED,
                         "%s on %s: T's blocks of %lld rows exceed the %d "
                         "a work-group solves in local memory (set block <= %d, or tridiag=thomas)",
                         who, be->name, (long long)rows, HPLS_DEVICE_TRI_MAX, HPLS_DEVICE_TRI_MAX);
    return HPLS_OK;
}

hpls_int hpls_bhisa_block(hpls_int n, hpls_int block, int nthreads)
{
    if (block > 0)
        return block;
    hpls_int p = nthreads;
    return n > p ? (n + p - 1) / p : 1;
}
