/* SPDX-License-Identifier: BSD-3-Clause */
/* block_tridiag.c: see block_tridiag.h.  Thomas on a block-diagonal T is the
 * Thomas factorisation of each block (a zero dl at a block's first row and a zero
 * du at its last row decouple the recurrences), so one factorisation is built and
 * each thread runs the solve on its own range of blocks.  Cyclic reduction keeps
 * one factorisation per block (coefficient reduction once, HISA Sec. 5.1). */
#include "direct/block_tridiag.h"

#include <omp.h>

struct hpls_btri {
    hpls_int n, block, nblocks;
    hpls_tridiag_method method;
    hpls_tridiag_factors *whole; /* one block: any method */
    hpls_thomas thomas;          /* several blocks, thomas: one factorisation */
    hpls_cr *cr;                 /* several blocks, cr: nblocks factorisations */
    hpls_int crwork;             /* work values one cr block solve needs */
    int nthreads;                /* threads of the solve (fixed at factor time) */
    hpls_real *work;             /* cr: crwork values per thread */
};

void hpls_btri_free(hpls_btri *B)
{
    if (!B)
        return;
    hpls_tridiag_factors_destroy(B->whole);
    hpls_thomas_free(&B->thomas);
    for (hpls_int j = 0; B->cr && j < B->nblocks; j++)
        hpls_cr_free(&B->cr[j]);
    hpls_free(B->cr);
    hpls_free(B->work);
    hpls_free(B);
}

hpls_status hpls_btri_factor(const hpls_tridiag *T, hpls_int block, hpls_tridiag_method m,
                             const hpls_tridiag_opts *opts, hpls_btri **out)
{
    *out = NULL;
    hpls_int n = T->n;
    if (block <= 0 || block > n)
        block = n > 0 ? n : 1;
    hpls_btri *B = hpls_calloc(1, sizeof *B);
    if (!B)
        return HPLS_ERR_NOMEM;
    B->n = n;
    B->block = block;
    B->nblocks = n > 0 ? (n + block - 1) / block : 0;
    B->method = m;
    B->nthreads = opts && opts->threads > 0 ? opts->threads : hpls_default_threads();
    hpls_status st = HPLS_OK;
    if (B->nblocks <= 1) {
        /* T is a splitting here (hisa, precond tridiag), not the system: an
         * ill-conditioned T is fine, a zero pivot of its method is refused */
        st = hpls_tridiag_factor(T, m, opts, &B->whole);
    } else if (m == HPLS_TRIDIAG_THOMAS) {
        st = hpls_thomas_factor(n, T->dl, T->d, T->du, &B->thomas);
    } else if (m == HPLS_TRIDIAG_CR) {
        B->cr = hpls_calloc(B->nblocks, sizeof *B->cr);
        if (!B->cr)
            st = HPLS_ERR_NOMEM;
        for (hpls_int j = 0; st == HPLS_OK && j < B->nblocks; j++) {
            hpls_int lo = j * block, len = lo + block <= n ? block : n - lo;
            /* one thread each: the blocks themselves run in parallel */
            st = hpls_cr_factor(len, T->dl + lo, T->d + lo, T->du + lo, 1, &B->cr[j]);
            if (st == HPLS_OK && B->cr[j].off[B->cr[j].nlev] - len > B->crwork)
                B->crwork = B->cr[j].off[B->cr[j].nlev] - len;
        }
        if (st == HPLS_OK && !(B->work = hpls_malloc(B->crwork * B->nthreads, sizeof *B->work)))
            st = HPLS_ERR_NOMEM;
    } else {
        st = hpls_fail(HPLS_ERR_OPTION, "blocks of a block tridiagonal matrix are solved by "
                                        "thomas or cr, not %s", hpls_tridiag_method_name(m));
    }
    if (st != HPLS_OK) {
        hpls_btri_free(B);
        return st;
    }
    *out = B;
    return HPLS_OK;
}

hpls_status hpls_btri_solve(const hpls_btri *B, const hpls_real *b, hpls_real *x)
{
    if (B->whole)
        return hpls_tridiag_solve_factored(B->whole, 1, b, x);
    const hpls_int k = B->block, q = B->nblocks;
#pragma omp parallel num_threads(B->nthreads)
    {
        int t = omp_get_thread_num(), p = omp_get_num_threads();
        hpls_int j0 = q * t / p, j1 = q * (t + 1) / p;
        if (B->cr) {
            for (hpls_int j = j0; j < j1; j++)
                hpls_cr_solve(&B->cr[j], b + j * k, x + j * k, B->work + t * B->crwork);
        } else if (j1 > j0) { /* blocks j0..j1-1 are rows j0*k .. min(j1*k, n)-1 */
            hpls_int lo = j0 * k, hi = j1 * k < B->n ? j1 * k : B->n;
            const hpls_thomas view = {.n = hi - lo,
                                      .dl = B->thomas.dl + lo,
                                      .cp = B->thomas.cp + lo,
                                      .pinv = B->thomas.pinv + lo};
            hpls_thomas_solve(&view, b + lo, x + lo);
        }
    }
    return HPLS_OK;
}
