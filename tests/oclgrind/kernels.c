/* SPDX-License-Identifier: BSD-3-Clause */
/* kernels.c: every kernel of the opencl backend once, on small sizes (three
 * work-groups and a partial one), for `make oclgrind` to watch with
 * --data-races (tests/oclgrind/run.sh), and the factors' constructions
 * through solver setups.  It checks no numbers: test_opencl
 * does; exit 77 without an OpenCL platform. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "backend/backend.h"
#include "direct/direct.h"
#include "hpls.h"
#include "iter/bicgstab_kernels.h"
#include "iter/hisa_kernels.h"
#include "kernels/cpu/sptrsv.h"
#include "precond/pjg_kernels.h"
#include "precond/relax_kernels.h"
#include "solver.h"

#include <stdio.h>
#include <stdlib.h>

enum { N = 300, K = 3, NB = 10, ND = 45 };

/* gs/sor/ssor's sweeps (forward, backward, SSOR's solve: every mode by every
 * strategy) and their residual; PJG
 * on contiguous and interleaved blocks, with and without the residual; a
 * dense A (ND rows: not a multiple of a row's 16 lanes) and its PJG sweep;
 * NB right-hand sides (two launches of the block residual) */
static int relax_pjg_dense_block(hpls_backend *be, const hpls_csr *A, const hpls_real *h,
                                 hpls_dvec *const *v)
{
    hpls_int dp[N], ptr[4] = {0, 100, 200, N}, idx[N];
    hpls_dmat *dA;
    if (hpls_csr_diag_positions(A, dp) != HPLS_OK || be->d->csr_upload(be, A, 1, &dA) != HPLS_OK)
        return 1;
    double t = 0;
    const hpls_relax_kernels *K = hpls_relax_kernels_of(be);
    const hpls_relax_matrix RM = {.A = A, .diagpos = dp, .dA = dA};
    for (int strategy = 0; strategy < 3; strategy++) {
        hpls_drelax *R;
        if (K->upload(be, A, dp, strategy, &R) != HPLS_OK)
            return 1;
        for (int bwd = 0; bwd < 2; bwd++)
            K->sweep(be, &RM, R, 1.2, bwd, v[1], v[0], v[7], v[6]);
        K->ssor(be, &RM, R, 1.2, v[0], v[7]);
        t += K->residual(be, &RM, R, strategy & 1, 0.3, v[7], v[6], v[5]);
        K->release(be, R);
    }
    for (hpls_int q = 0; q < N; q++) /* three interleaved blocks, the last first */
        idx[q] = 3 * (q % 100) + 2 - q / 100;
    for (int general = 0; general < 2; general++) {
        hpls_pjg_partition *P; /* psize 64, or the user's three blocks */
        if ((general ? hpls_pjg_blocks(N, A->nnz, 0, 3, ptr, idx, 1, &P)
                     : hpls_pjg_blocks(N, A->nnz, 64, 0, NULL, NULL, 1, &P)) != HPLS_OK ||
            hpls_pjg_partition_upload(be, P, N, 0) != HPLS_OK)
            return 1;
        const hpls_pjg_matrix M = {.dA = dA};
        hpls_dvec *x = v[7], *xold = v[6];
        hpls_pjg_kernels_of(be)->sweep(be, P, &M, v[1], v[0], &x, &xold, v[5]);
        hpls_pjg_kernels_of(be)->sweep(be, P, &M, v[1], v[0], &x, &xold, NULL);
        hpls_pjg_partition_free(P);
    }
    hpls_dense *Ad;
    hpls_ddense *dD;
    hpls_dvec *w[5];
    if (hpls_gen_dense("dense-dd:n=45,seed=3", &Ad, NULL) != HPLS_OK ||
        be->d->dense_upload(be, Ad, &dD) != HPLS_OK)
        return 1;
    for (int i = 0; i < 5; i++)
        if (hpls_be_vector(be, ND, h, &w[i]) != HPLS_OK)
            return 1;
    be->d->gemv(be, dD, w[0], w[1]);
    t += be->d->dense_residual(be, dD, w[2], w[0], w[1]);
    hpls_pjg_partition *P;
    if (hpls_pjg_blocks(ND, ND * ND, 7, 0, NULL, NULL, 1, &P) != HPLS_OK ||
        hpls_pjg_partition_upload(be, P, ND, 1) != HPLS_OK)
        return 1;
    const hpls_pjg_matrix M = {.dAd = dD};
    hpls_dvec *x = w[0], *xold = w[1];
    hpls_pjg_kernels_of(be)->sweep(be, P, &M, w[3], w[2], &x, &xold, w[4]);
    hpls_pjg_partition_free(P);
    for (int i = 0; i < 5; i++)
        be->v->release(be, w[i]);
    be->d->dense_release(be, dD);
    hpls_dense_destroy(Ad);
    static hpls_real X[NB * N];
    hpls_int cols[NB];
    double ss[NB];
    for (int j = 0; j < NB; j++) {
        cols[j] = (j + 3) % NB;
        for (int i = 0; i < N; i++)
            X[j * N + i] = h[(i + j) % N];
    }
    hpls_dblock *D;
    if (be->d->block_create(be, N, NB, X, X, &D) != HPLS_OK)
        return 1;
    be->d->block_columns(be, D, cols, NB);
    be->d->block_residual(be, D, dA, ss);
    be->d->block_jacobi(be, D, 0.7, v[1]);
    be->d->block_columns(be, D, cols, 3);
    be->d->block_residual(be, D, dA, ss);
    be->d->block_download(be, D, X);
    be->d->block_release(be, D);
    be->d->csr_release(be, dA);
    printf("relaxation, pjg, dense and block kernels run (%g)\n", t + ss[0]);
    return 0;
}

/* The sync-free sweeps with a row per group of lanes (sweep_syncfree_lanes,
 * a GPU's layout), on a backend of their own told to use 2 lanes: A's rows
 * of about 1.5 entries a triangle get 2, in two rounds where a row has 3. */
static int lanes_sweeps(const hpls_csr *A, const hpls_int *lowend, const hpls_int *upbeg,
                        const hpls_real *h)
{
    hpls_backend *be;
    setenv("HPLS_SYNCFREE_LANES", "2", 1);
    hpls_status st = hpls_backend_create(HPLS_BACKEND_OPENCL, 1, &be);
    unsetenv("HPLS_SYNCFREE_LANES");
    if (st != HPLS_OK)
        return 1;
    hpls_dvec *b = NULL, *x = NULL;
    be->v->alloc(be, N, &b);
    be->v->alloc(be, N, &x);
    be->v->upload(be, N, h, b);
    for (int upper = 0; upper < 2 && be->err == HPLS_OK; upper++) {
        hpls_sweep w = {.T = hpls_tri_of(A, upper, lowend, upbeg, A->val), .dinv = h};
        hpls_dsweep *W;
        if (be->d->sweep_upload(be, &w, &W) != HPLS_OK)
            break;
        for (int strategy = 0; strategy < 3; strategy += 2) /* serial, syncfree */
            be->d->sweep(be, W, strategy, b, x);
        be->d->sweep_release(be, W);
    }
    st = be->err;
    if (st != HPLS_OK)
        fprintf(stderr, "lanes: %s\n", be->msg);
    be->v->release(be, b);
    be->v->release(be, x);
    hpls_backend_destroy(be);
    return st == HPLS_OK ? 0 : 1;
}

int main(void)
{
    hpls_backend *be;
    hpls_status st = hpls_backend_create(HPLS_BACKEND_OPENCL, 1, &be);
    if (st != HPLS_OK) {
        printf("skipped: %s\n", hpls_last_error());
        return st == HPLS_ERR_NOT_COMPILED || st == HPLS_ERR_UNSUPPORTED ? 77 : 1;
    }
    hpls_csr *A = NULL;
    if (hpls_gen_csr("random:n=300,k=20", &A, NULL) != HPLS_OK)
        return 1;
    hpls_real h[N];
    for (int i = 0; i < N; i++)
        h[i] = (i % 7) - 3.5;
    hpls_dvec *v[8];
    for (int i = 0; i < 8; i++)
        if (hpls_be_vector(be, N, h, &v[i]) != HPLS_OK)
            return 1;
    const hpls_dvec *const *V = (const hpls_dvec *const *)v;
    const double a[K] = {0.5, 0.25, 2.0};
    double r[2 * K + 3], t, u, w;
    be->v->copy(be, N, v[0], v[7]);
    be->v->set(be, N, 1.0, v[7]);
    be->v->scale(be, N, 2.0, v[7]);
    be->v->axpy(be, N, 0.5, v[0], v[7]);
    be->v->axpby(be, N, 0.5, v[0], 0.3, v[7]);
    be->v->xpay(be, N, v[0], 0.3, v[7]);
    be->v->waxpy(be, N, 0.3, v[0], v[1], v[7]);
    be->v->axpbypcz(be, N, 0.3, v[0], 0.2, v[1], 0.1, v[7]);
    be->v->pmult(be, N, v[0], v[1], v[7]);
    be->v->diag_axpy(be, N, 0.3, v[0], v[1], v[7]);
    hpls_bicgstab_kernels_of(be)->p(be, N, v[0], 0.3, 0.2, v[1], v[7]);
    t = be->v->dot(be, N, v[0], v[1]);
    t += be->v->nrm2(be, N, v[0]);
    be->v->scale(be, N, 1e200, v[6]); /* the scaled norm's kernels */
    t += be->v->nrm2(be, N, v[6]);
    be->v->mdot(be, N, K, V, v[4], r);
    be->v->maxpy(be, N, K, a, V, 0.5, v[5]);
    be->v->mdot2(be, N, K, V, v[4], v[5], r);
    be->v->maxpy2(be, N, K, V, a, 0.9, v[4], a, 0.1, 1.1, v[5]);
    hpls_bicgstab_kernels_of(be)->dot3(be, N, v[0], v[1], &t, &u, &w);
    hpls_bicgstab_kernels_of(be)->xr(be, N, 0.1, v[0], 0.2, v[1], v[2], v[3], v[4], v[5], v[6], &t,
                                     &u);
    t += hpls_hisa_kernels_of(be)->update(be, N, v[0], v[1], v[2], v[7]);
    be->v->finite(be, N, v[0], &t);
    for (int variant = 1; variant <= 2; variant++) {
        hpls_dmat *D;
        if (be->d->csr_upload(be, A, variant, &D) != HPLS_OK)
            return 1;
        be->d->spmv(be, D, v[0], v[7]);
        t += be->d->residual(be, D, v[1], v[0], v[7]);
        be->d->csr_release(be, D);
    }
    hpls_tridiag *T; /* blocks of 128 rows and a partial one: CR's every level */
    if (hpls_tridiag_create(N, &T) != HPLS_OK)
        return 1;
    for (int i = 0; i < N; i++) {
        T->dl[i] = i % 128 ? -1.0 : 0.0;
        T->du[i] = (i + 1) % 128 ? -1.0 : 0.0;
        T->d[i] = 4.0;
    }
    hpls_dtri *D;
    if (be->d->tri_upload(be, T, 128, &D) != HPLS_OK)
        return 1;
    be->d->tri_solve(be, D, v[0], v[7]);
    be->d->tri_release(be, D);
    hpls_tridiag_destroy(T);
    /* the tridiagonal direct solvers: thomas's blocks, cr level by level (640
     * rows: beyond local memory) on a dominant T; then g-Spike with every
     * switch on a T of two pieces (the second waits on the first), 10
     * partitions each, the first of each singular (the repair; the
     * refinement's residual), and each piece's reduced system at the next level */
    enum { NT = 640 };
    hpls_tridiag *G;
    hpls_dvec *gb, *gx;
    if (hpls_tridiag_gallery(18, NT, 1, &G, NULL, NULL) != HPLS_OK ||
        be->v->alloc(be, NT, &gb) != HPLS_OK || be->v->alloc(be, NT, &gx) != HPLS_OK)
        return 1;
    be->v->set(be, NT, 1.0, gb);
    static const int hows[] = {HPLS_TFAC_REDUCED_DEVICE | HPLS_TFAC_NATURAL,
                               HPLS_TFAC_REDUCED_DEVICE | HPLS_TFAC_TILED,
                               HPLS_TFAC_REDUCED_HOST | HPLS_TFAC_NATURAL};
    const hpls_tridiag_opts o = {.partitions = 10, .delta = HPLS_TRIDIAG_DELTA_DEFAULT};
    for (int k = 0; k < 5; k++) {
        if (k == 2) {
            G->du[319] = 0.0;
            if (hpls_tridiag_singular_blocks(G, 32, 2, 18, 1) != HPLS_OK)
                return 1;
        }
        hpls_dtfac *F;
        int method = k == 0 ? HPLS_TRIDIAG_THOMAS : k == 1 ? HPLS_TRIDIAG_CR : HPLS_TRIDIAG_GSPIKE;
        if (be->d->tfac_factor(be, G, k == 0 ? 100 : NT, method, &o, k > 1 ? hows[k - 2] : 0, &F) !=
            HPLS_OK) {
            fprintf(stderr, "%s\n", hpls_last_error());
            return 1;
        }
        be->d->tfac_solve(be, F, gb, gx);
        be->d->tfac_release(be, F);
    }
    be->v->release(be, gb);
    be->v->release(be, gx);
    hpls_tridiag_destroy(G);
    hpls_int lowend[N], upbeg[N]; /* the sweeps of A's lower and upper part */
    hpls_k_tri_split(1, A, lowend, upbeg);
    for (int upper = 0; upper < 2; upper++) {
        hpls_sweep w = {.T = hpls_tri_of(A, upper, lowend, upbeg, A->val), .dinv = h};
        hpls_dsweep *W;
        if (hpls_levels_build(&w.T, 1, &w.lev) != HPLS_OK ||
            be->d->sweep_upload(be, &w, &W) != HPLS_OK)
            return 1;
        for (int strategy = 0; strategy < 3; strategy++)
            be->d->sweep(be, W, strategy, v[0], v[7]);
        be->d->sweep_release(be, W);
        hpls_levels_free(&w.lev);
    }
    if (lanes_sweeps(A, lowend, upbeg, h) != 0) /* a GPU's sync-free sweeps */
        return 1;
    if (relax_pjg_dense_block(be, A, h, v) != 0)
        return 1;
    /* dilu's, dic's and ilu0's constructions (factor.cl) by every strategy,
     * through setups on a symmetric matrix of 343 rows (bicg: with M^-T) */
    static const char *const facs[] = {"bicgstab precond=dilu trisolve=serial",
                                       "bicg precond=dilu trisolve=levels",
                                       "bicg precond=dilu trisolve=syncfree",
                                       "bicgstab precond=dilu trisolve=levels dilu_order=faces",
                                       "bicgstab precond=dic trisolve=syncfree",
                                       "bicg precond=ilu0 trisolve=levels",
                                       "bicg precond=ilu0 trisolve=syncfree"};
    hpls_csr *P = NULL;
    if (hpls_gen_csr("poisson3d:nx=7", &P, NULL) != HPLS_OK)
        return 1;
    for (size_t k = 0; k < sizeof facs / sizeof *facs; k++) {
        char o[160];
        snprintf(o, sizeof o, "solver=%s backend=opencl maxiter=1", facs[k]);
        hpls_solver *s;
        if (hpls_solver_create(&s) != HPLS_OK || hpls_solver_set_options(s, o) != HPLS_OK ||
            hpls_solver_setup(s, P) != HPLS_OK) {
            fprintf(stderr, "%s: %s\n", o, hpls_last_error());
            return 1;
        }
        hpls_solver_destroy(s);
    }
    hpls_csr_destroy(P);
    st = be->err;
    if (st != HPLS_OK)
        fprintf(stderr, "%s\n", be->msg);
    for (int i = 0; i < 8; i++)
        be->v->release(be, v[i]);
    hpls_backend_destroy(be);
    hpls_csr_destroy(A);
    printf("kernels run (%g)\n", t);
    return st == HPLS_OK ? 0 : 1;
}
